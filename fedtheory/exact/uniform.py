"""``u_k(x) = E[x_k | x_0 = x]`` and its first two derivatives for 1-D SGD with uniform gradient noise.

The chain is ``x_{k+1} = x_k - eta (F'(x_k) + xi_k)`` with ``xi_k ~ U[-sigma, sigma]`` (thesis Lemma A.12; the
noise of instance (A.15) enters the gradient additively). With ``m(x) = x - eta F'(x)`` the step lands uniformly
on the window ``W(x) = [m(x) - eta sigma, m(x) + eta sigma]``, and Lemma A.12(a)-(c) give the backward recursions

    u_{k+1}(x)   = E u_k(y),                                                   (a)
    u'_{k+1}(x)  = (1 - eta F''(x)) E u'_k(y),                                 (b)
    u''_{k+1}(x) = (1 - eta F''(x))^2 E u''_k(y) - eta F'''(x) E u'_k(y),      (c)

with ``y ~ U[W(x)]``, ``u_0(x) = x``, ``u_0' = 1`` and ``u_0'' = 0``. Each expectation is the average of a function
over ``W(x)``; on a uniform grid it is evaluated exactly for the piecewise-linear interpolant of the grid values:
the cumulative integral of the interpolant is piecewise quadratic, and its difference over ``W(x)`` is a banded
linear map of the grid values (:func:`window_weights`), applied as one sparse product per step.

Boundary: the grid is extended from the requested range until it is *invariant*, i.e. the window of every node lies
inside it. Then ``u_k`` on the grid depends only on ``u_{k-1}`` on the grid, no boundary condition is imposed, and
every value on the grid is trusted; the only errors are discretisation and rounding. The discretisation error is
estimated, as in :mod:`fedtheory.exact.density`, by repeating the computation on a grid twice as coarse (the even
nodes of the fine grid): for a second-order scheme ``|fine - coarse|`` is about three times the fine grid's error.
That holds once the comparison grid resolves the noise window, so spacings above ``eta sigma / 2`` are refused. As a
sup over the grid (or over a few neighbouring nodes) the estimate bounds the error; at a single node where the
leading error term changes sign the higher-order terms can exceed it, so quantities that matter pointwise should be
read with :meth:`UniformDerivatives.estimate` over a neighbourhood.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validate import interval, positive, positive_int
from ..errors import InvalidParameterError

_NODES_PER_HALF_WINDOW = 16  # default resolution: eta * sigma / dx
_MIN_NODES_PER_HALF_WINDOW = 2  # coarsest accepted: the comparison grid (2 dx) still has a node per half-window
_MAX_NODES = 4_000_000
_MAX_EXTENSIONS = 60


@dataclass(frozen=True)
class Solution:
    """``u_k``, ``u_k'`` and ``u_k''`` at the nodes of one grid, ``k = 0..k_max``.

    Attributes
    ----------
    grid : (G,) float
        Uniform nodes.
    u, du, d2u : (k_max + 1, G) float
        Row ``k`` holds ``u_k``, ``u_k'``, ``u_k''`` (Lemma A.12(a), (b), (c)).
    rounding : (3, k_max + 1, G) float
        Bounds on the floating-point error of ``u``, ``du`` and ``d2u``: ``k (band + 4) eps`` times the same
        recursions run on absolute values (each step sums at most ``band`` non-negative weights times values, then
        multiplies and subtracts, so it adds at most ``(band + 4) eps`` relative to those absolute values).
    """

    grid: np.ndarray
    u: np.ndarray
    du: np.ndarray
    d2u: np.ndarray
    rounding: np.ndarray


@dataclass(frozen=True)
class UniformDerivatives:
    """The recursions of Lemma A.12(a)-(c) on an invariant grid and on the grid twice as coarse.

    Attributes
    ----------
    fine, coarse : Solution
        The computation with spacing ``dx`` and with ``2 dx`` (the even nodes of the fine grid).
    eta, sigma, dx : float
        Step size, noise half-width and fine spacing.

    Notes
    -----
    Every node's window lies inside the grid, so every value is trusted up to discretisation and rounding (module
    docstring). ``u_error``, ``du_error``, ``d2u_error`` are per-node error estimates of the fine values;
    :meth:`estimate` gives the same estimate for any quantity computed from a solution (a sup over windows, a
    difference of two steps), which is sharper than combining per-node errors.
    """

    fine: Solution
    coarse: Solution
    eta: float
    sigma: float
    dx: float

    @property
    def grid(self) -> np.ndarray:
        return self.fine.grid

    @property
    def k_max(self) -> int:
        return self.fine.u.shape[0] - 1

    @property
    def u(self) -> np.ndarray:
        return self.fine.u

    @property
    def du(self) -> np.ndarray:
        return self.fine.du

    @property
    def d2u(self) -> np.ndarray:
        return self.fine.d2u

    @property
    def u_error(self) -> np.ndarray:
        return self.estimate(lambda s: s.u)[1] + self.fine.rounding[0]

    @property
    def du_error(self) -> np.ndarray:
        return self.estimate(lambda s: s.du)[1] + self.fine.rounding[1]

    @property
    def d2u_error(self) -> np.ndarray:
        return self.estimate(lambda s: s.d2u)[1] + self.fine.rounding[2]

    def estimate(self, quantity: Callable[[Solution], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """``quantity`` on the fine grid and its discretisation error estimate.

        Parameters
        ----------
        quantity : callable
            Maps a :class:`Solution` to an array whose last axis runs over that solution's nodes.

        Returns
        -------
        value, error : arrays of shape ``(..., G)``
            The fine value and ``|fine - coarse|`` at the coarse nodes (the larger of the two neighbours' at the
            others). Rounding is not included (see :attr:`Solution.rounding`).
        """
        fine, coarse = np.asarray(quantity(self.fine)), np.asarray(quantity(self.coarse))
        if fine.shape[-1] != self.fine.grid.size or coarse.shape[-1] != self.coarse.grid.size:
            raise InvalidParameterError("quantity", "a function returning one value per node of the solution's grid")
        gap = np.abs(fine[..., ::2] - coarse)
        error = np.empty_like(fine, dtype=float)
        error[..., ::2] = gap
        error[..., 1::2] = np.maximum(gap[..., :-1], gap[..., 1:])
        return fine, error


def _antiderivative(t: np.ndarray) -> np.ndarray:
    """``H(t) = int_{-inf}^t max(0, 1 - |s|) ds``: the piecewise-quadratic antiderivative of a hat function."""
    t = np.clip(t, -1.0, 1.0)
    return np.where(t <= 0, (1 + t) ** 2 / 2, 1 - (1 - t) ** 2 / 2)


def _spacing(grid: np.ndarray) -> float:
    """The spacing of a uniform grid, from its ends (``grid[1] - grid[0]`` loses digits when ``|grid[0]| >> dx``)."""
    return (grid[-1] - grid[0]) / (grid.size - 1)


def window_weights(grid: np.ndarray, lo, hi) -> sp.csr_matrix:
    """The averages over ``[lo_p, hi_p]`` of the piecewise-linear interpolant, as a sparse ``(P, G)`` matrix.

    With nodes ``x_j = grid[0] + j dx`` the interpolant is ``sum_j v_j hat((x - x_j)/dx)``, so its cumulative integral
    is ``dx sum_j v_j H((x - x_j)/dx)`` with :func:`_antiderivative` ``H``, and the average over ``[lo, hi]`` has the
    weights ``(H(b - j) - H(a - j)) / (b - a)`` in index units ``a = (lo - x_0)/dx``, ``b = (hi - x_0)/dx``. Only the
    ``ceil(b - a) + 2`` nodes a window touches get a weight, and the weights are non-negative and sum to one, so
    applying the matrix does not suffer the cancellation of differencing one cumulative sum over a long grid.

    Parameters
    ----------
    grid : (G,) float
        Uniform nodes.
    lo, hi : (P,) float
        Window ends, ``grid[0] <= lo < hi <= grid[-1]``.
    """
    grid = np.asarray(grid, dtype=float)
    lo, hi = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (lo, hi))
    if grid.ndim != 1 or grid.size < 2:
        raise InvalidParameterError("grid", "a uniform grid of at least two nodes", grid)
    if lo.shape != hi.shape or np.any(~(lo < hi)) or lo.min() < grid[0] or hi.max() > grid[-1]:
        raise InvalidParameterError("lo, hi", f"windows lo < hi inside [{grid[0]:.6g}, {grid[-1]:.6g}]", (lo, hi))
    dx = _spacing(grid)
    a, b = (lo - grid[0]) / dx, (hi - grid[0]) / dx
    first = np.floor(a).astype(np.int64)
    cols = first[:, None] + np.arange(int(np.ceil(np.max(b - a))) + 2)[None, :]
    w = (_antiderivative(b[:, None] - cols) - _antiderivative(a[:, None] - cols)) / (b - a)[:, None]
    keep = (cols < grid.size) & (w > 0)
    rows = np.broadcast_to(np.arange(lo.size)[:, None], cols.shape)
    return sp.csr_matrix((w[keep], (rows[keep], cols[keep])), shape=(lo.size, grid.size))


def interpolate(grid: np.ndarray, values: np.ndarray, x) -> np.ndarray:
    """The piecewise-linear interpolant of each row of ``values`` (``(..., G)``) at the points ``x`` inside the grid."""
    grid = np.asarray(grid, dtype=float)
    x = np.asarray(x, dtype=float)
    if np.any(x < grid[0]) or np.any(x > grid[-1]):
        raise InvalidParameterError("x", f"points inside [{grid[0]:.6g}, {grid[-1]:.6g}]", x)
    s = (x - grid[0]) / _spacing(grid)
    j = np.clip(np.floor(s).astype(np.int64), 0, grid.size - 2)
    t = s - j
    return values[..., j] * (1 - t) + values[..., j + 1] * t


def window_sup(grid: np.ndarray, values: np.ndarray, lo, hi) -> np.ndarray:
    """``sup_{z in [lo_p, hi_p]}`` of the piecewise-linear interpolant of each row of ``values`` (``(n, G)``).

    The sup of a piecewise-linear function is at a window end or at a node inside; returns ``(n, P)``.
    """
    grid = np.asarray(grid, dtype=float)
    values = np.atleast_2d(values)
    lo, hi = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (lo, hi))
    if lo.shape != hi.shape or np.any(lo > hi):
        raise InvalidParameterError("lo, hi", "windows with lo <= hi", (lo, hi))
    ends = np.maximum(interpolate(grid, values, lo), interpolate(grid, values, hi))
    dx = _spacing(grid)
    first = np.ceil((lo - grid[0]) / dx).astype(np.int64)  # nodes strictly inside or on the ends
    last = np.floor((hi - grid[0]) / dx).astype(np.int64)
    inner = np.full(ends.shape, -np.inf)
    has = first <= last
    if np.any(has):
        idx = np.column_stack([first[has], last[has] + 1]).ravel()
        padded = np.concatenate([values, np.full((values.shape[0], 1), -np.inf)], axis=1)  # last + 1 may be G
        inner[:, has] = np.maximum.reduceat(padded, idx, axis=1)[:, ::2]
    return np.maximum(ends, inner)


def _evaluate(name: str, func: Callable, x: np.ndarray) -> np.ndarray:
    try:
        out = np.asarray(func(x), dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(name, "a callable mapping a 1-D array of points to values there", exc) from None
    if out.shape != x.shape or not np.all(np.isfinite(out)):
        raise InvalidParameterError(name, f"finite values of shape {x.shape} on the grid", f"shape {out.shape}")
    return out


def _invariant_grid(grad: Callable, eta: float, sigma: float, lo: float, hi: float, dx: float):
    """Nodes ``i dx`` (``i`` even at both ends) covering ``[lo, hi]`` whose windows all lie inside; and ``F'`` there."""
    a, b = lo, hi
    step_a = step_b = 0.0
    for _ in range(_MAX_EXTENSIONS):
        i0, i1 = 2 * int(np.floor(a / (2 * dx))), 2 * int(np.ceil(b / (2 * dx)))
        if i1 - i0 + 1 > _MAX_NODES:
            break
        x = dx * np.arange(i0, i1 + 1)
        g = _evaluate("grad", grad, x)
        left, right = x - eta * (g + sigma), x - eta * (g - sigma)
        if left.min() >= x[0] and right.max() <= x[-1]:
            return x, g
        # Extend by twice the overshoot, and at least twice the previous extension, so that at most twice the
        # needed extension is reached in a logarithmic number of rounds.
        if left.min() < x[0]:
            step_a = max(2 * (x[0] - left.min()), 2 * step_a)
        if right.max() > x[-1]:
            step_b = max(2 * (right.max() - x[-1]), 2 * step_b)
        a, b = x[0] - step_a, x[-1] + step_b
    raise InvalidParameterError(
        "grad",
        f"a gradient for which some interval containing x_range is mapped into itself by x - eta (F'(x) +- sigma) "
        f"within {_MAX_NODES} nodes (e.g. eta F'' in (0, 2) and |F'| >= sigma far out)",
        f"eta = {eta}, sigma = {sigma}, dx = {dx}",
    )


def _backward(x, g, hess, third, eta, sigma, k_max) -> Solution:
    """Lemma A.12(a)-(c) on the grid ``x`` (with ``g = F'(x)``), and rounding bounds."""
    T = window_weights(x, x - eta * (g + sigma), x - eta * (g - sigma))
    contraction = 1 - eta * _evaluate("hess", hess, x)
    curvature = eta * _evaluate("third", third, x)
    V = np.zeros((6, k_max + 1, x.size))  # u, u', u'' and the same recursions run on absolute values
    V[[0, 3], 0] = x, np.abs(x)
    V[[1, 4], 0] = 1.0
    for k in range(k_max):
        E = (T @ V[:, k].T).T  # one sparse product for the six window averages
        V[0, k + 1] = E[0]
        V[1, k + 1] = contraction * E[1]
        V[2, k + 1] = contraction**2 * E[2] - curvature * E[1]
        V[3, k + 1] = E[3]
        V[4, k + 1] = np.abs(contraction) * E[4]
        V[5, k + 1] = contraction**2 * E[5] + np.abs(curvature) * E[4]
    band = T.getnnz(axis=1).max()
    V[3:] *= (band + 4) * np.finfo(float).eps * np.arange(k_max + 1)[None, :, None]
    return Solution(x, V[0], V[1], V[2], V[3:])


def derivatives(
    grad: Callable,
    hess: Callable,
    third: Callable,
    eta: float,
    sigma: float,
    k_max: int,
    x_range: tuple[float, float],
    *,
    dx: float | None = None,
) -> UniformDerivatives:
    """``u_k``, ``u_k'``, ``u_k''`` for ``k = 0..k_max`` by the backward recursions of Lemma A.12(a)-(c).

    Parameters
    ----------
    grad, hess, third : callable
        ``F'``, ``F''`` and ``F'''``, each mapping a 1-D array of points to the values there.
    eta : float
        Step size (> 0).
    sigma : float
        Half-width of the uniform gradient noise ``U[-sigma, sigma]`` (> 0).
    k_max : int
        Last step (>= 0).
    x_range : (lo, hi)
        Points that must be on the grid; it is extended until invariant (module docstring).
    dx : float, optional
        Fine grid spacing; default ``eta sigma / 16``, at most ``eta sigma / 2``. The error estimate repeats the
        computation with ``2 dx``; a comparison grid coarser than the noise window's half-width ``eta sigma`` is out
        of the asymptotic regime, and there the difference no longer bounds the error (it underestimates it by up to
        2.5x at ``dx = eta sigma`` on the LogCosh instances of the tests), so coarser grids are refused.

    Returns
    -------
    UniformDerivatives
        Values on the whole invariant grid, on the grid twice as coarse, and error estimates.

    Raises
    ------
    InvalidParameterError
        For a non-positive ``eta``, ``sigma`` or ``dx``, ``dx > eta sigma / 2``, a negative or non-integer ``k_max``,
        an empty ``x_range``, callables that do not return finite values, or when no invariant grid of at most
        4 million nodes exists.
    """
    eta, sigma = positive("eta", eta), positive("sigma", sigma)
    k_max = positive_int("k_max", k_max, minimum=0)
    dx = eta * sigma / _NODES_PER_HALF_WINDOW if dx is None else positive("dx", dx)
    if dx > eta * sigma / _MIN_NODES_PER_HALF_WINDOW:
        raise InvalidParameterError(
            "dx",
            f"a grid spacing of at most eta * sigma / {_MIN_NODES_PER_HALF_WINDOW} = "
            f"{eta * sigma / _MIN_NODES_PER_HALF_WINDOW:.6g} (the noise window's half-width is eta * sigma), so that "
            "the grid twice as coarse used for the error estimate resolves the window",
            dx,
        )
    lo, hi = interval("x_range", x_range)
    x, g = _invariant_grid(grad, eta, sigma, lo, hi, dx)
    fine = _backward(x, g, hess, third, eta, sigma, k_max)
    coarse = _backward(x[::2], g[::2], hess, third, eta, sigma, k_max)
    return UniformDerivatives(fine, coarse, eta, sigma, dx)
