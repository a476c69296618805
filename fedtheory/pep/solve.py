"""Worst cases over a function class: performance estimation problems solved with PEPit and Clarabel.

A *formulation* is a module-level function ``formulation(pep, **params)`` that declares functions on a
:class:`PEPit.PEP`, states the initial conditions, runs an algorithm's deterministic round map on PEPit's points
and sets the performance metric; it returns a :class:`Roles` naming the declared functions (in the order a replay
needs them) and the points worth extracting (``x0``, ``x_star``, ``output``, ...). :func:`worst_case` solves it with
Clarabel (pinned as in :mod:`fedtheory.reference`), checks PEPit's primal and dual certificate itself, and extracts
the worst instance's interpolation data: for every declared function its points, (sub)gradients and values, in a
common low-dimensional coordinate system. Identical problems (same formulation, same parameters) are solved once
per process.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidParameterError, ReferenceSolveError
from ..reference import ROUTES

SOLVER = "CLARABEL"


@dataclass
class Roles:
    """What a formulation hands back: the declared functions (each a PEPit function, with the class parameters a
    replay needs) and the named points to extract."""

    functions: list = field(default_factory=list)
    classes: list = field(default_factory=list)
    points: dict = field(default_factory=dict)


@dataclass(frozen=True)
class FunctionData:
    """Interpolation data of one declared function at the worst case: points ``X (n, r)``, (sub)gradients ``G (n,
    r)``, values ``F (n,)`` and its class (``mu``, ``L``; ``L = inf`` for a non-smooth convex function)."""

    X: np.ndarray
    G: np.ndarray
    F: np.ndarray
    mu: float
    L: float


@dataclass(frozen=True)
class WorstCase:
    """A solved performance estimation problem.

    ``value`` is the dual objective: an upper bound on the metric over the whole class, certified up to
    ``accuracy`` (the largest of the duality gap, the primal constraint and PSD violations and the dual ones, as
    PEPit's proof reconstruction measures them). ``primal`` is the metric at the extracted worst instance.
    ``evaluations`` counts the oracle points (gradients, subgradients and proximal points) the problem holds;
    ``status`` is the solver's (``optimal`` or ``optimal_inaccurate``, the accuracy telling how inaccurate).
    """

    value: float
    primal: float
    accuracy: float
    evaluations: int
    functions: tuple[FunctionData, ...]
    points: dict
    status: str

    @property
    def replay_tolerance(self) -> float:
        """How closely a replay on the interpolated instance reproduces ``primal``: data that violate the class's
        interpolation conditions by the solve's accuracy ``a`` move the interpolant's gradients by ``O(sqrt(L a))``,
        so the replayed metric agrees to ``10 sqrt(a) (1 + |primal|)``."""
        return 10 * float(np.sqrt(max(self.accuracy, 1e-16))) * (1 + abs(self.primal))


def _certificate(pep, primal: float) -> tuple[float, float]:
    """The dual objective and the accuracy of the solve, from PEPit's own proof reconstruction."""
    dual = float(pep.check_feasibility(primal, verbose=0))
    errors = [abs(dual - primal), max(0.0, -float(np.linalg.eigvalsh(pep.G_value).min()))]
    errors.append(max(0.0, -float(np.linalg.eigvalsh(pep.residual).min())))
    constraints = pep._list_of_prepared_constraints  # PEPit keeps no public accessor for the prepared constraints
    for c in constraints:
        value = float(c.eval())
        errors.append(max(0.0, value) if c.equality_or_inequality == "inequality" else abs(value))
        if c.equality_or_inequality == "inequality":
            errors.append(max(0.0, -float(c.eval_dual())) * max(1.0, abs(float(c.expression.eval()))))
    # Clarabel stops at gap and feasibility tolerances of 1e-9 (relative), and the reconstruction above does not see
    # every residual of the proof: the value is trusted to no better than ten times those tolerances.
    errors.append(1e-8 * max(1.0, abs(dual)))
    return dual, max(errors)


def _basis(vectors: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """An orthonormal basis (columns) of the span of ``vectors``' rows, dropping directions below ``rtol``."""
    _, s, vt = np.linalg.svd(vectors, full_matrices=False)
    keep = s > rtol * max(s[0], 1e-300)
    return vt[keep].T


@functools.lru_cache(maxsize=512)
def _solve(formulation, items: tuple) -> WorstCase:
    import cvxpy as cp
    from PEPit import PEP

    pep = PEP()
    roles = formulation(pep, **dict(items))
    for _, options in ROUTES:
        try:
            with warnings.catch_warnings():  # an inaccurate solve is recorded (status, accuracy), not printed
                warnings.simplefilter("ignore", UserWarning)
                pep.solve(wrapper="cvxpy", solver=SOLVER, verbose=0, **options)
            break
        except cp.error.SolverError as exc:
            failure = exc
    else:
        raise ReferenceSolveError(f"Clarabel could not solve the performance estimation problem: {failure}")
    status = str(pep.wrapper.prob.status)
    if status not in ("optimal", "optimal_inaccurate"):  # e.g. unbounded: no worst case over the class
        raise ReferenceSolveError(f"the performance estimation problem has no finite worst case (status {status})")
    primal = float(pep.objective.eval())
    dual, accuracy = _certificate(pep, primal)
    raw = []
    for f in roles.functions:
        triples = f.list_of_points
        raw.append(
            (
                np.array([np.atleast_1d(x.eval()) for x, _, _ in triples]),
                np.array([np.atleast_1d(g.eval()) for _, g, _ in triples]),
                np.array([float(v.eval()) for _, _, v in triples]),
            )
        )
    named = {name: np.atleast_1d(p.eval()) for name, p in roles.points.items()}
    stacked = np.concatenate([np.concatenate([x, g]) for x, g, _ in raw] + [np.stack(list(named.values()))])
    basis = _basis(stacked)
    functions = tuple(
        FunctionData(X=x @ basis, G=g @ basis, F=v, mu=float(cls[0]), L=float(cls[1]))
        for (x, g, v), cls in zip(raw, roles.classes, strict=True)
    )
    evaluations = sum(len(f.list_of_points) for f in roles.functions)
    return WorstCase(
        value=dual,
        primal=primal,
        accuracy=accuracy,
        evaluations=evaluations,
        functions=functions,
        points={name: v @ basis for name, v in named.items()},
        status=status,
    )


def worst_case(formulation, **params) -> WorstCase:
    """Solve ``formulation(pep, **params)`` (cached on the formulation and the parameters).

    Parameters must be hashable (numbers, strings, tuples); a mixing matrix is passed as a tuple of rows.
    """
    try:
        items = tuple(sorted(params.items()))
        hash(items)
    except TypeError as exc:
        raise InvalidParameterError("params", "hashable values (numbers, strings, tuples)", params) from exc
    return _solve(formulation, items)
