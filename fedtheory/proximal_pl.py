"""The proximal Polyak-Lojasiewicz (prox-PL) inequality of a composite objective ``F = f + g``.

For ``f`` differentiable and ``g`` convex (Karimi, Nutini and Schmidt 2016, section 4), the gap function

    ``D_g(x, alpha) := -2 alpha min_y [<grad f(x), y - x> + (alpha/2)||y - x||^2 + g(y) - g(x)]``

measures how much one proximal-gradient step of size ``1/alpha`` decreases the model of ``F`` at ``x``, and ``F``
satisfies the prox-PL inequality with constant ``mu > 0`` when

    ``mu (F(x) - F*) <= D_g(x, mu) / 2``   for every ``x``.

The inner minimiser is the proximal-gradient point ``y* = prox_{g/alpha}(x - grad f(x)/alpha)``, so ``D_g`` is
exact (:func:`prox_pl_gap`). With ``g = 0`` it is ``||grad f(x)||^2`` and the inequality is the PL inequality.

At one point ``x``, ``D_g(x, mu)/(2 mu) = -min_y [...]`` is nonincreasing in ``mu`` (the bracket increases with
``mu`` for every ``y``), so the constants the point allows form an interval ``(0, mu_max(x)]`` (empty when even
``mu -> 0`` fails, which needs a non-convex ``f``). :func:`largest_prox_pl_mu` computes ``mu_max`` at every point of a
sample by bisection; the smallest of them is an *upper bound* on the instance's prox-PL constant
``inf_x mu_max(x)``: a sample cannot prove the inequality at the points it does not contain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import finite_array, positive
from .errors import InvalidParameterError
from .regularizers import Regularizer

EXPONENT_RANGE = 300
"""The bracketing of :func:`largest_prox_pl_mu` doubles (halves) ``mu`` from 1 at most this many times: ``mu_max``
outside ``[2^-300, 2^300]`` (about ``[5e-91, 2e90]``) is reported as 0 (no ``mu`` works) or ``inf`` (every ``mu``
works); the range keeps ``grad/mu`` and its square finite."""


def _inputs(grad, x, alpha) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``grad``, ``x`` (broadcast to one shape ``(..., d)``) and ``alpha`` (broadcast to ``(...)``), checked."""
    grad, x = finite_array("grad", grad), finite_array("x", x)
    if grad.ndim == 0 or x.ndim == 0 or grad.shape[-1] != x.shape[-1]:
        raise InvalidParameterError(
            "grad", "gradients with the same last axis (d) as x", f"shapes {grad.shape} and {x.shape}"
        )
    alpha = finite_array("alpha", alpha)
    if np.any(alpha <= 0):
        raise InvalidParameterError("alpha", "values > 0 (the curvature of the model, 1/step)", alpha)
    try:
        lead = np.broadcast_shapes(grad.shape[:-1], x.shape[:-1], alpha.shape)
    except ValueError:
        raise InvalidParameterError(
            "alpha", "grad, x (leading axes) and alpha that broadcast", (grad.shape, x.shape, alpha.shape)
        ) from None
    d = x.shape[-1]
    return np.broadcast_to(grad, (*lead, d)), np.broadcast_to(x, (*lead, d)), np.broadcast_to(alpha, lead)


def _decrease(grad: np.ndarray, x: np.ndarray, regularizer: Regularizer | None, alpha: np.ndarray) -> np.ndarray:
    """``-min_y [<grad, y - x> + (alpha/2)||y - x||^2 + g(y) - g(x)] = D_g(x, alpha)/(2 alpha)`` for checked inputs
    (:func:`_inputs`): one proximal map per distinct value of ``alpha``."""
    if regularizer is None:
        return 0.5 * np.sum(grad**2, axis=-1) / alpha
    d = x.shape[-1]
    g2, x2, a = grad.reshape(-1, d), x.reshape(-1, d), alpha.reshape(-1)
    values, inverse = np.unique(a, return_inverse=True)
    if values.size == 1:
        y = regularizer.prox(x2 - g2 / values[0], 1.0 / values[0])
    else:
        y = np.empty_like(x2)
        order = np.argsort(inverse, kind="stable")
        ends = np.searchsorted(inverse[order], np.arange(values.size + 1))
        for k, value in enumerate(values):
            rows = order[ends[k] : ends[k + 1]]
            y[rows] = regularizer.prox(x2[rows] - g2[rows] / value, 1.0 / value)
    step = y - x2
    at_x = regularizer.value(x2)
    if not np.all(np.isfinite(at_x)):
        raise InvalidParameterError("x", "points in the domain of the regularizer (g(x) finite)", "g(x) = inf")
    model = np.sum(g2 * step, axis=-1) + 0.5 * a * np.sum(step**2, axis=-1) + regularizer.value(y) - at_x
    # The exact minimum is at most the bracket's value 0 at y = x: a positive ``model`` is rounding.
    return np.maximum(-model, 0.0).reshape(alpha.shape)


def prox_pl_gap(grad, x, regularizer: Regularizer | None, alpha) -> np.ndarray:
    """``D_g(x, alpha) = -2 alpha min_y [<grad, y - x> + (alpha/2)||y - x||^2 + g(y) - g(x)]``, exactly.

    The minimiser is ``y* = prox_{g/alpha}(x - grad/alpha)`` (``regularizer.prox(v, 1/alpha)``).

    Parameters
    ----------
    grad : array (..., d)
        ``grad f(x)``, the gradient of the smooth part at ``x``.
    x : array (..., d)
        Points of ``dom g``; broadcast against ``grad``.
    regularizer : Regularizer or None
        ``g`` (a regularizer on vectors: its value is taken over the last axis); ``None`` is ``g = 0``, where
        ``D_g = ||grad||^2``.
    alpha : float or array (...)
        The model's curvature ``alpha > 0``, broadcast against the leading axes.

    Returns
    -------
    ndarray (...)
        ``D_g(x, alpha) >= 0``, nondecreasing in ``alpha``.

    Raises
    ------
    InvalidParameterError
        If the shapes do not match or broadcast, an entry is not finite, ``alpha <= 0``, or ``g(x)`` is infinite.
    """
    grad, x, alpha = _inputs(grad, x, alpha)
    return 2.0 * alpha * _decrease(grad, x, regularizer, alpha)


@dataclass(frozen=True)
class ProxPLEstimate:
    """The largest prox-PL constant a sample of points allows (:func:`largest_prox_pl_mu`).

    Attributes
    ----------
    mu : float
        ``min`` over the sample of ``mu_max(x)``: an upper bound on the instance's prox-PL constant (0 when some point
        allows no ``mu > 0``, ``inf`` when every point allows every ``mu``, e.g. minimisers).
    index : tuple of int
        Where the minimum is attained (an index into the sample's leading axes).
    point : ndarray (d,)
        The sample point at ``index``.
    mu_max : ndarray (...)
        ``mu_max(x)`` at every point: each satisfies the inequality there and ``mu_max (1 + rtol)`` does not.
    """

    mu: float
    index: tuple
    point: np.ndarray
    mu_max: np.ndarray


def largest_prox_pl_mu(x, grad, gap, regularizer: Regularizer | None, *, rtol: float = 1e-12) -> ProxPLEstimate:
    """The largest ``mu`` with ``mu (F(x) - F*) <= D_g(x, mu)/2`` at every point ``x`` of a sample.

    ``D_g(x, mu)/(2 mu)`` is nonincreasing in ``mu`` (module docstring), so each point allows an interval
    ``(0, mu_max(x)]``. Its end is bracketed by doubling (or halving) ``mu`` from 1, the same ``mu`` for every point
    still undecided (one proximal map per step), then bisected geometrically at every point at once to relative
    width ``rtol`` (about 40 steps for 1e-12; a regularizer's proximal map takes one step size, so each bisection step
    maps each point apart); the lower end of the final bracket, which satisfies the inequality as computed, is
    returned.

    This is an upper bound on the instance's prox-PL constant ``inf_x mu_max(x)``: the inequality is only known at
    the sample's points.

    Parameters
    ----------
    x : array (..., d)
        Sample points (in ``dom g``).
    grad : array (..., d)
        ``grad f(x)`` at each point.
    gap : array (...)
        ``F(x) - F* >= 0`` at each point (computed without cancellation where possible: it decides ``mu_max``).
    regularizer : Regularizer or None
        ``g`` (``None``: ``g = 0``, the PL inequality).
    rtol : float
        Relative width of the final bracket of each ``mu_max``.

    Returns
    -------
    ProxPLEstimate

    Raises
    ------
    InvalidParameterError
        If shapes do not match, an entry is not finite, a gap is negative, or ``rtol`` is not in [1e-15, 1).
    """
    grad, x, _ = _inputs(grad, x, 1.0)
    lead = x.shape[:-1]
    gap = finite_array("gap", gap)
    try:
        gap = np.broadcast_to(gap, lead)
    except ValueError:
        raise InvalidParameterError("gap", f"one value per point (shape {lead})", f"shape {gap.shape}") from None
    if np.any(gap < 0):
        raise InvalidParameterError("gap", "F(x) - F* >= 0 at every point (is F* the optimal value?)", gap.min())
    rtol = positive("rtol", rtol)
    if not 1e-15 <= rtol < 1:
        raise InvalidParameterError("rtol", "a relative width in [1e-15, 1) (above the rounding of a bisection)", rtol)
    d = x.shape[-1]
    g2, x2, gp = grad.reshape(-1, d), x.reshape(-1, d), gap.reshape(-1)
    n = gp.size
    if n == 0:
        raise InvalidParameterError("x", "at least one sample point", f"shape {x.shape}")

    def allowed(rows: np.ndarray, alpha) -> np.ndarray:
        alpha = np.broadcast_to(np.asarray(alpha, dtype=float), rows.shape)
        return gp[rows] <= _decrease(g2[rows], x2[rows], regularizer, alpha)

    lo, hi = np.zeros(n), np.full(n, np.inf)
    lo[gp == 0] = np.inf  # a minimiser: D_g >= 0 = mu (F(x) - F*) for every mu
    rows = np.flatnonzero(gp > 0)
    start = allowed(rows, 1.0)
    lo[rows[start]], hi[rows[~start]] = 1.0, 1.0
    for direction, undecided in ((2.0, rows[start]), (0.5, rows[~start])):
        alpha = 1.0
        for _ in range(EXPONENT_RANGE):
            if undecided.size == 0:
                break
            alpha *= direction
            ok = allowed(undecided, alpha)
            if direction > 1:
                lo[undecided[ok]] = alpha
                hi[undecided[~ok]] = alpha
                undecided = undecided[ok]
            else:
                hi[undecided[~ok]] = alpha
                lo[undecided[ok]] = alpha
                undecided = undecided[~ok]
        lo[undecided] = np.inf if direction > 1 else 0.0  # every mu up to 2^300 works / not even 2^-300 does
    inner = np.flatnonzero((lo > 0) & np.isfinite(lo) & np.isfinite(hi))
    while inner.size:
        mid = np.sqrt(lo[inner] * hi[inner])
        ok = allowed(inner, mid)
        lo[inner[ok]] = mid[ok]
        hi[inner[~ok]] = mid[~ok]
        inner = inner[hi[inner] > lo[inner] * (1.0 + rtol)]
    mu_max = lo.reshape(lead)
    flat = int(np.argmin(lo))
    index = np.unravel_index(flat, lead) if lead else ()
    return ProxPLEstimate(float(lo[flat]), tuple(int(i) for i in index), x2[flat].copy(), mu_max)
