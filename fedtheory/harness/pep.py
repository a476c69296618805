"""Evidence from worst cases over a function class.

At each grid point the performance estimation problem gives ``w``, an upper bound on the metric over the whole
class certified up to the solver's accuracy ``a``; the evidence's interval is ``[lo, w]`` and its tolerance ``a``
(the largest over the grid). Where ``w`` exceeds the printed bound by more than ``a``, the worst instance is
interpolated and fedtheory's own implementation is run on it (the replay), and ``lo`` is the replayed metric,
attained by a concrete function of the class; elsewhere ``lo = w - a``. The harness then says ``holds`` when every
worst case is within ``a`` of its bound or below (it holds over the whole class at that point), ``fails`` only when a
replayed instance exceeds the bound by more than ``a``, and ``inconclusive`` in between.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidParameterError
from ..pep.solve import worst_case
from .claims import Evidence


def _column(values: list) -> np.ndarray:
    """One grid column as a 1-D object array; a tuple parameter (a mixing matrix, multipliers) is shown as text."""
    out = np.empty(len(values), dtype=object)
    out[:] = [str(v) if isinstance(v, tuple) else v for v in values]
    return out


def class_evidence(formulation, replay, grid: list[dict], bound, *, witness: dict | None = None) -> Evidence:
    """``worst case <= bound`` at every parameter point of ``grid`` (each a dict of ``formulation``'s parameters).

    Parameters
    ----------
    formulation, replay
        A formulation ``formulation(pep, **point)`` and its replay ``replay(worst, **point) -> float``.
    grid : list of dict
        The parameter points, each solved once per process.
    bound : callable or sequence
        The printed bound at each point: ``bound(**point)`` or one value per point.
    witness : dict, optional
        The instance description every entry shares; the worst entry's parameters, its worst case, accuracy and
        (where computed) the replayed value are added.
    """
    if not grid:
        raise InvalidParameterError("grid", "at least one parameter point", grid)
    bounds = np.array([bound(**p) for p in grid] if callable(bound) else list(bound), dtype=float)
    solved = [worst_case(formulation, **p) for p in grid]
    w = np.array([s.value for s in solved])
    acc = np.array([s.accuracy for s in solved])
    tol = float(acc.max())
    lo = w - acc
    replayed = {}
    for i in np.flatnonzero(w > bounds + tol):
        lo[i] = min(replay(solved[i], **grid[i]), w[i])
        replayed[i] = lo[i]
    i = int(np.argmax((w - bounds) / np.maximum(np.abs(bounds), 1e-12)))  # the largest excess, relative to the bound
    record = {
        "worst_case": float(w[i]),
        "bound": float(bounds[i]),
        "accuracy": tol,
        "points": len(grid),
        "evaluations": int(sum(s.evaluations for s in solved)),
        "replayed": len(replayed),
        "status": solved[i].status,
        "dimension": int(solved[i].points[next(iter(solved[i].points))].size) if solved[i].points else 0,
    }
    names = sorted({k for p in grid for k in p})
    details = {
        "pep_worst": float(w[i]),
        "pep_accuracy": float(acc[i]),
        **({"replayed": replayed[i]} if i in replayed else {}),
    }
    return Evidence(
        measured=w,
        bound=bounds,
        relation="<=",
        interval=(lo, w),
        atol=tol,
        grid={k: _column([p.get(k) for p in grid]) for k in names},
        witness={**(witness or {}), **details},
        pep=record,
    )
