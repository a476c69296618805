"""Test-only error bounds; the generic floating-point bounds live in :mod:`fedtheory.rounding` (re-exported here)."""

from __future__ import annotations

import numpy as np

from fedtheory.rounding import EPS, LIBM_ULPS, UNIT_ROUNDOFF, gamma, svd_error

__all__ = ["EPS", "LIBM_ULPS", "UNIT_ROUNDOFF", "gamma", "prox_distance_bound", "svd_error"]


def prox_distance_bound(reg, v, t: float, closed, x, *, nuclear=None) -> float:
    """Bound on ``||x - prox_{t reg}(v)||`` for a solver's point ``x``, given the closed form ``closed``.

    ``phi(z) = ||z - v||^2/2 + t reg(z)`` is 1-strongly convex, so ``||z - x*||^2 <= 2 (phi(z) - phi*)`` for ``z``
    in its domain, and ``phi* = phi(closed)`` up to rounding (``gamma_k`` of phi's absolute terms, ``k`` = 4 size + 8;
    ``nuclear(z)`` adds the error of a nuclear norm's SVD, ``lam min(shape) svd_error``). A point outside a constraint
    set (by the solver's primal residual) is first projected onto it (the prox of the indicator), at distance
    ``||x - z||``. A wrong closed form makes ``phi(x) < phi(closed)``: the bound collapses to 0 and the check fails.
    """
    v, closed, x = (np.asarray(a, dtype=float) for a in (v, closed, x))

    def phi(z):
        return 0.5 * np.sum((z - v) ** 2) + t * float(np.sum(reg.value(z)))

    def rounding(z):
        terms = 0.5 * np.sum((np.abs(z) + np.abs(v)) ** 2) + t * abs(float(np.sum(reg.value(z))))
        return gamma(4 * v.size + 8) * terms + (t * nuclear(z) if nuclear else 0.0)

    z = x if np.isfinite(float(np.sum(reg.value(x)))) else reg.prox(x, 1.0)
    gap = phi(z) - phi(closed) + rounding(z) + rounding(closed)
    if not np.isfinite(gap):
        raise AssertionError(f"the solver's point is not certified: phi gap {gap}")
    return float(np.linalg.norm(x - z) + np.sqrt(2 * max(gap, 0.0)))
