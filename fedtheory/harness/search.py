"""Adversarial witness search: the worst instance a bound claim's printed hypotheses allow, found by minimising its
margin over their whole domain.

A grid chosen for convenience can miss the corner where a printed bound fails. A bound claim therefore names the
domain its hypotheses allow (:class:`Domain`: one :class:`Axis` per parameter, in log coordinates where the parameter
spans decades) and a function that evaluates the measured value and the printed bound at one instance; the search
then minimises the slack (the judge's: ``(bound - measured)/|bound|`` for an upper bound) in two deterministic,
budgeted stages:

1. **global**: a scrambled Sobol sample of the unit cube mapped onto the domain (space-filling, seeded from the
   claim id);
2. **local**: Nelder-Mead (``scipy.optimize.minimize`` with the cube as bounds) from the best distinct points of
   the global stage.

Every evaluation becomes an entry of the claim's evidence, so the judge sees the worst one and reports its
parameters as the witness; :attr:`Found.record` is written to the report as the claim's ``search``. Through
:meth:`fedtheory.harness.points.Points.search` (evidence built point by point), or :func:`searched` (evidence built
from arrays)::

    domain = Domain(
        {"kappa": Axis(1.0, 1e4), "K": Axis(1, 256, integer=True), "eta_L": Axis(1e-4, 1.0)},
        note="Theorem 1 allows any kappa >= 1, K >= 1 and eta in (0, 1/L]; L = 1 by scaling.",
    )
    points.search(lambda kappa, K, eta_L: (measured(...), bound(...)), domain, "<=", ctx)

A search can refute a "for all" statement (its worst evaluation is a witness); it never proves one, and it never
refutes a "there exists".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidParameterError
from .claims import RELATIONS, Context, Evidence, seed_for


@dataclass(frozen=True)
class Axis:
    """One parameter's range ``[lo, hi]``: searched in log coordinates (``log=True``, the default, for a parameter
    spanning decades; needs ``lo > 0``) or linearly; ``integer=True`` rounds to the nearest integer."""

    lo: float
    hi: float
    log: bool = True
    integer: bool = False

    def __post_init__(self):
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo <= self.hi):
            raise InvalidParameterError("Axis", "finite ends with lo <= hi", (self.lo, self.hi))
        if self.log and self.lo <= 0:
            raise InvalidParameterError("Axis.lo", "a value > 0 on a log axis (or log=False)", self.lo)

    def value(self, u: float) -> float | int:
        """The parameter at the unit coordinate ``u`` in [0, 1]."""
        u = min(max(float(u), 0.0), 1.0)
        if self.log:
            x = math.exp(math.log(self.lo) + u * (math.log(self.hi) - math.log(self.lo)))
        else:
            x = self.lo + u * (self.hi - self.lo)
        x = min(max(x, self.lo), self.hi)  # exp(log(.)) may step outside by one ulp
        return round(x) if self.integer else x

    def record(self) -> list:
        return [self.lo, self.hi, "integer" if self.integer else "log" if self.log else "linear"]


@dataclass(frozen=True)
class Domain:
    """The instances a printed statement allows: an :class:`Axis` per searched parameter, and a note saying what the
    hypotheses allow and why any part of it is left out (or fixed, with the reason)."""

    axes: Mapping[str, Axis]
    note: str

    def __post_init__(self):
        if not self.axes or not all(isinstance(a, Axis) for a in self.axes.values()):
            raise InvalidParameterError("axes", "a non-empty mapping of parameter name -> Axis", self.axes)
        if not isinstance(self.note, str) or not self.note.strip():
            raise InvalidParameterError("note", "what the printed hypotheses allow and what is left out, in words", "")

    def point(self, u) -> dict:
        """The parameters at the unit-cube point ``u``."""
        return {name: axis.value(x) for (name, axis), x in zip(self.axes.items(), u)}

    def record(self) -> dict:
        return {**{name: axis.record() for name, axis in self.axes.items()}, "note": self.note}


@dataclass(frozen=True)
class Budget:
    """Evaluations a search may spend: ``sobol`` global points (a power of 2), then up to ``local`` evaluations from
    each of ``starts`` best distinct points."""

    sobol: int
    starts: int
    local: int

    def __post_init__(self):
        if self.sobol < 1 or self.sobol & (self.sobol - 1):
            raise InvalidParameterError("sobol", "a power of 2 >= 1", self.sobol)
        if self.starts < 0 or self.local < 0:
            raise InvalidParameterError("starts, local", "counts >= 0", (self.starts, self.local))

    @property
    def total(self) -> int:
        return self.sobol + self.starts * self.local

    def scaled(self, factor: int) -> Budget:
        """``factor`` (a power of 2) times the global and the local evaluations, the same number of starts: for a
        claim whose evaluations cost milliseconds."""
        if factor < 1 or factor & (factor - 1):
            raise InvalidParameterError("factor", "a power of 2 >= 1", factor)
        return Budget(self.sobol * factor, self.starts, self.local * factor)


BUDGETS = {"quick": Budget(sobol=32, starts=1, local=24), "full": Budget(sobol=512, starts=4, local=120)}
"""The default budget of each profile (:data:`~fedtheory.harness.claims.PROFILES`): small in the quick profile,
large in the full one."""


@dataclass
class Found:
    """What a search evaluated: one row per distinct instance, and the record for the report."""

    parameters: list[dict] = field(default_factory=list)
    measured: list = field(default_factory=list)
    bound: list = field(default_factory=list)
    extras: list[dict] = field(default_factory=list)
    record: dict = field(default_factory=dict)


def slack(measured, bound, relation: str) -> float:
    """How far ``measured`` is inside ``bound`` for ``relation``, relative to ``|bound|`` (negative: violated); the
    judge's slack. NaN counts as the worst."""
    m, b = float(measured), float(bound)
    scale = abs(b) if b != 0 else 1.0
    if relation in ("<=", "<"):
        s = (b - m) / scale
    elif relation in (">=", ">"):
        s = (m - b) / scale
    else:
        s = -abs(m - b) / scale
    return -math.inf if math.isnan(s) else s


def search(
    evaluate: Callable[..., tuple],
    domain: Domain,
    relation: str,
    *,
    seed: int,
    budget: Budget,
) -> Found:
    """Minimise the slack of ``evaluate(**parameters) -> (measured, bound[, extras])`` over ``domain`` (module
    docstring). ``extras`` is a dict of further parameters of the instance (derived ones, such as the step size a
    printed rule gives), recorded with the evaluation. Identical instances (integer axes) are evaluated once."""
    from scipy.optimize import minimize  # SciPy's optimize and stats are imported where a search runs
    from scipy.stats import qmc

    if relation not in RELATIONS:
        raise InvalidParameterError("relation", f"one of {', '.join(RELATIONS)}", relation)
    found = Found()
    seen: dict[tuple, float] = {}

    def objective(u) -> float:
        params = domain.point(u)
        key = tuple(params.values())
        if key not in seen:
            out = evaluate(**params)
            measured, bound = out[0], out[1]
            found.parameters.append(params)
            found.measured.append(measured)
            found.bound.append(bound)
            found.extras.append(dict(out[2]) if len(out) > 2 else {})
            seen[key] = slack(measured, bound, relation)
        return seen[key]

    rng = np.random.default_rng(seed)
    sample = qmc.Sobol(len(domain.axes), scramble=True, seed=rng).random_base2(int(math.log2(budget.sobol)))
    values = np.array([objective(u) for u in sample])
    starts, chosen = [], set()
    for i in np.argsort(values, kind="stable"):
        key = tuple(domain.point(sample[i]).values())
        if key not in chosen:
            chosen.add(key)
            starts.append(sample[i])
        if len(starts) == budget.starts:
            break
    for u0 in starts:
        if budget.local:
            minimize(
                objective,
                u0,
                method="Nelder-Mead",
                bounds=[(0.0, 1.0)] * len(u0),
                options={"maxfev": budget.local, "xatol": 1e-4, "fatol": 0.0, "initial_simplex": _simplex(u0)},
            )
    slacks = [seen[tuple(p.values())] for p in found.parameters]
    best = int(np.argmin(slacks))
    m, b = float(found.measured[best]), float(found.bound[best])
    found.record = {
        "evaluations": len(found.parameters),
        "best_margin": m / b if b != 0 and math.isfinite(m / b) else None,
        "best_slack": slacks[best],
        "best": {**found.parameters[best], **found.extras[best]},
        "domain": domain.record(),
        "budget": {"sobol": budget.sobol, "starts": budget.starts, "local": budget.local},
    }
    return found


def _simplex(u0: np.ndarray, step: float = 0.15) -> np.ndarray:
    """A Nelder-Mead start simplex around ``u0`` inside the unit cube (each vertex moves one coordinate inwards)."""
    simplex = np.tile(u0, (len(u0) + 1, 1))
    for i in range(len(u0)):
        simplex[i + 1, i] += step if u0[i] + step <= 1.0 else -step
    return simplex


def resolve(ctx: Context, budget: Budget | None = None, scale: int = 1) -> Budget:
    """``budget``, or the profile's (:data:`BUDGETS`) times ``scale`` (:meth:`Budget.scaled`)."""
    return budget or BUDGETS[ctx.profile].scaled(scale)


def search_seed(ctx: Context, label: str | None = None) -> int:
    """The seed of a claim's search: from the claim id (and ``label``, when a claim searches several domains)."""
    return seed_for(ctx.claim_id + ":search" + (f":{label}" if label else ""))


def union(records: list[dict]) -> dict | None:
    """The record of several searches of one claim: evaluations added, the worst best margin, each domain under its
    label (``None`` for no search; a single record unchanged)."""
    if len(records) <= 1:
        return records[0] if records else None
    worst = min(records, key=lambda r: r["best_slack"])
    return {
        "evaluations": sum(r["evaluations"] for r in records),
        "best_margin": worst["best_margin"],
        "best_slack": worst["best_slack"],
        "best": worst["best"],
        "domain": {r.get("label", str(i)): r["domain"] for i, r in enumerate(records)},
        "budget": worst["budget"],
        "parts": records,
    }


def searched(
    ev: Evidence,
    evaluate: Callable[..., tuple],
    domain: Domain,
    ctx: Context,
    *,
    budget: Budget | None = None,
    scale: int = 1,
    label: str | None = None,
) -> Evidence:
    """``ev`` (evidence built from arrays: ``measured``, ``bound``, ``grid`` and any ``interval``) with the
    evaluations of a search over ``domain`` for ``ev.relation`` appended as entries, flattened: a parameter only one
    side names is ``None`` where it does not apply, and an evaluation enters with a zero-width interval where ``ev``
    has intervals (the search evaluates exactly). Searches accumulate (:func:`union`); tolerances and witness are
    kept."""
    found = search(evaluate, domain, ev.relation, seed=search_seed(ctx, label), budget=resolve(ctx, budget, scale))
    measured, bound = np.asarray(ev.measured), np.asarray(ev.bound)
    shape = np.broadcast_shapes(measured.shape, bound.shape)
    n = int(np.prod(shape))
    rows = [{**p, **x} for p, x in zip(found.parameters, found.extras)]
    grid = {}
    for name in dict.fromkeys([*(ev.grid or {}), *rows[0]]):
        if ev.grid and name in ev.grid:
            head = np.asarray(ev.grid[name])
            head = head.ravel() if head.size == n else np.broadcast_to(head, shape).ravel()
        else:
            head = np.full(n, None, dtype=object)
        tail = np.array([row.get(name) for row in rows], dtype=object)
        grid[name] = np.concatenate([head.astype(object), tail])

    def joined(head, tail):
        dtype = object if np.asarray(head).dtype == object else float
        return np.concatenate([np.broadcast_to(np.asarray(head), shape).ravel(), np.asarray(tail, dtype=dtype)])

    interval = None
    if ev.interval is not None:
        interval = tuple(joined(np.asarray(end, dtype=float), found.measured) for end in ev.interval)
    record = {**found.record, **({"label": label} if label else {})}
    previous = [] if ev.search is None else ev.search.get("parts", [ev.search])
    return Evidence(
        joined(measured, found.measured),
        joined(bound, found.bound),
        ev.relation,
        rtol=ev.rtol,
        atol=ev.atol,
        interval=interval,
        grid=grid,
        witness=ev.witness,
        extended=ev.extended,
        search=union([*previous, record]),
    )
