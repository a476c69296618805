"""Evidence built one grid point at a time, each point with its parameters.

A claim that loops over a parameter grid records, at every point, the measured value, the printed bound (and an
interval where the measurement has one) and the point's parameters; :meth:`Points.evidence` turns them into
:class:`~fedtheory.harness.claims.Evidence`, whose worst entry then reports its parameters as the witness::

    points = Points()
    for kappa in (10.0, 100.0):
        for K in (1, 8):
            points.add(measured_at(kappa, K), printed_bound(kappa, K), kappa=kappa, K=K)
    return points.evidence("<=", rtol=ROUNDING, witness={...})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InvalidParameterError
from .claims import Evidence


@dataclass
class Points:
    """Measured values, bounds, intervals and parameters, appended point by point."""

    measured: list = field(default_factory=list)
    bound: list = field(default_factory=list)
    lo: list = field(default_factory=list)
    hi: list = field(default_factory=list)
    grid: dict[str, list] = field(default_factory=dict)

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
            **kwargs,
        )
