"""Evidence built one grid point at a time, each point with its parameters.

A claim that loops over a parameter grid records, at every point, the measured value, the printed bound (and an
interval where the measurement has one) and the point's parameters; :meth:`Points.evidence` turns them into
:class:`~fedtheory.harness.claims.Evidence`, whose worst entry then reports its parameters as the witness::

    points = Points()
    for kappa in (10.0, 100.0):
        for K in (1, 8):
            points.add(measured_at(kappa, K), printed_bound(kappa, K), kappa=kappa, K=K)
    return points.evidence("<=", rtol=ROUNDING, witness={...})

A bound claim whose hypotheses define a domain of instances adds an adversarial witness search
(:mod:`fedtheory.harness.search`): every evaluation becomes a point, and the evidence carries the search's record::

    def at(kappa, K):
        return measured_at(kappa, K), printed_bound(kappa, K)

    points.search(at, Domain({"kappa": Axis(1.0, 1e4), "K": Axis(1, 256, integer=True)}, note="..."), "<=", ctx)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import InvalidParameterError
from .claims import Context, Evidence
from .search import Budget, Domain, resolve, search, search_seed, union


@dataclass
class Points:
    """Measured values, bounds, intervals and parameters, appended point by point."""

    measured: list = field(default_factory=list)
    bound: list = field(default_factory=list)
    lo: list = field(default_factory=list)
    hi: list = field(default_factory=list)
    grid: dict[str, list] = field(default_factory=dict)
    searches: list[dict] = field(default_factory=list)

    def add(self, measured, bound=None, /, *, interval: tuple | None = None, **parameters) -> None:
        """Record one point: ``measured``, its ``bound`` (or none, for a bound common to all points given to
        :meth:`evidence`), its ``interval = (lo, hi)`` if it has one, and its parameters by name (any name but
        ``interval``: a parameter may be called ``bound``).

        Every point names the same parameters, gives a bound if the first did, and an interval if the first did.
        """
        n = len(self.measured)
        if n and set(parameters) != set(self.grid):
            raise InvalidParameterError(
                "parameters", f"the names of the first point: {', '.join(self.grid)}", parameters
            )
        if n and (bound is None) != (len(self.bound) == 0):
            raise InvalidParameterError("bound", "a bound at every point, or at none", bound)
        if n and (interval is None) != (len(self.lo) == 0):
            raise InvalidParameterError("interval", "an interval at every point, or at none", interval)
        self.measured.append(measured)
        if bound is not None:
            self.bound.append(bound)
        if interval is not None:
            lo, hi = interval
            self.lo.append(lo)
            self.hi.append(hi)
        for name, value in parameters.items():
            self.grid.setdefault(name, []).append(value)

    def search(
        self,
        evaluate: Callable[..., tuple],
        domain: Domain,
        relation: str,
        ctx: Context,
        *,
        budget: Budget | None = None,
        scale: int = 1,
        label: str | None = None,
    ) -> dict:
        """Search ``domain`` for the instance that minimises the margin of ``evaluate(**parameters) -> (measured,
        bound[, extras])`` (:func:`fedtheory.harness.search.search`) and add every evaluation as a point (its
        parameters and extras are the point's parameters; a name that only the other points have, or only the
        search's, is ``None`` where it does not apply; where the points carry intervals, an evaluation enters with a
        zero-width one, the search evaluating exactly). The budget is the
        profile's (:data:`~fedtheory.harness.search.BUDGETS`), times ``scale`` (:meth:`Budget.scaled`: a power of 2,
        for evaluations that cost milliseconds), unless ``budget`` is given; the seed comes from the claim id (and
        ``label``, which names the search when a claim searches several domains, e.g. the cases of a theorem).
        Returns the search's record."""
        found = search(evaluate, domain, relation, seed=search_seed(ctx, label), budget=resolve(ctx, budget, scale))
        names = list(dict.fromkeys([*self.grid, *found.parameters[0], *found.extras[0]]))
        for name in names:  # the search's instances and the other points may name different parameters: None marks
            self.grid.setdefault(name, [None] * len(self.measured))  # a parameter an entry does not have
        for params, measured, bound, extras in zip(found.parameters, found.measured, found.bound, found.extras):
            exact = (measured, measured) if self.lo else None  # the search evaluates exactly: a zero-width interval
            self.add(measured, bound, interval=exact, **{**dict.fromkeys(names), **params, **extras})
        self.searches.append({**found.record, **({"label": label} if label else {})})
        return found.record

    def search_record(self) -> dict | None:
        """The record of the searches made (:func:`fedtheory.harness.search.union`), or ``None``."""
        return union(self.searches)

    def __len__(self) -> int:
        return len(self.measured)

    def evidence(self, relation: str, *, bound=None, **kwargs) -> Evidence:
        """The :class:`~fedtheory.harness.claims.Evidence` of the points (``bound``: the common bound, if the
        points gave none); further keywords (``rtol``, ``atol``, ``witness``, ``extended``) are passed on."""
        if not self.measured:
            raise InvalidParameterError("points", "at least one point", 0)
        if (bound is None) == (len(self.bound) == 0):
            raise InvalidParameterError("bound", "a common bound exactly when the points gave none", bound)
        return Evidence(
            measured=self.measured,
            bound=self.bound if bound is None else bound,
            relation=relation,
            interval=(self.lo, self.hi) if self.lo else None,
            grid=self.grid or None,
            search=self.search_record(),
            **kwargs,
        )
