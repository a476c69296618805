"""Density propagation for one-dimensional SGD with Gaussian gradient noise.

The chain ``x_{k+1} = m(x_k) + eta * xi_k`` with ``m(x) = x - eta g(x)``, ``g`` piecewise linear (or smooth,
:class:`SmoothDrift`) and ``xi ~ N(0, s^2)`` (the SGD of Definition 2.5 on ``f(x; xi) = F(x) - xi x``; the sign
of a symmetric noise does not matter) has the transfer operator

    p_{k+1}(y) = int p_k(x) N(y; m(x), tau^2) dx,        tau = eta * s.

On a uniform grid with a node at every breakpoint of ``g`` (there the integrand has a kink), the
trapezoidal rule in ``x`` with exact Gaussian kernel values is second-order accurate, and spectrally
accurate away from the kinks. Columns are normalised over the kernel's untruncated band, so mass that
leaves the grid is lost, not hidden, and enters the reported error. The discretisation error of each
mean is estimated by repeating the computation on a grid twice as coarse (``mean_error`` is the
difference, which bounds the fine-grid error by about 3x for a second-order scheme).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.linalg import solve_banded

from .._validate import positive
from ..errors import InvalidParameterError
from ..problems.piecewise import PiecewiseLinear

_TRUNCATION = 8.0  # kernel support in units of tau; the Gaussian tail beyond is < 1e-15


@dataclass(frozen=True)
class SmoothDrift:
    """A smooth gradient ``g`` with ``slopes[0] <= g' <= slopes[1]`` everywhere (no kinks, so no grid anchors).

    The engines accept it wherever they accept a :class:`PiecewiseLinear` gradient; the trapezoidal rule is then
    spectrally accurate and the coarse-grid error estimate applies unchanged. ``slopes`` bounds the contraction
    (validated against ``eta``) and sets the grid's reach from the smaller slope.
    """

    func: Callable[[np.ndarray], np.ndarray]
    slopes: tuple[float, float]
    breakpoints: tuple[float, ...] = ()

    def __post_init__(self):
        lo, hi = self.slopes
        if not 0 <= lo <= hi:
            raise InvalidParameterError("slopes", "(lo, hi) bounds on g' with 0 <= lo <= hi", self.slopes)

    def __call__(self, x) -> np.ndarray:
        return np.asarray(self.func(np.asarray(x, dtype=float)), dtype=float)


def _check_drift(g) -> None:
    if not isinstance(g, (PiecewiseLinear, SmoothDrift)):
        raise InvalidParameterError("g", "a PiecewiseLinear or SmoothDrift gradient", type(g).__name__)


@dataclass(frozen=True)
class DensityResult:
    """Densities and means of ``x_k`` at the requested steps.

    Attributes
    ----------
    steps : (n,) int
    grid : (G,) float
        Nodes of the fine grid.
    density : (n, G) float
        Density of ``x_k`` at the nodes.
    mean : (n,) float
        ``E x_k`` on the fine grid.
    mean_error : (n,) float
        Error estimate: |fine - coarse| (discretisation), plus the lost mass times the grid's reach, plus a
        bound on floating-point accumulation.
    mass : (n,) float
        Probability mass on the fine grid (1 up to the mass that left the grid).
    du : float
        Fine grid spacing in units of ``tau``.
    """

    steps: np.ndarray
    grid: np.ndarray
    density: np.ndarray
    mean: np.ndarray
    mean_error: np.ndarray
    mass: np.ndarray
    du: float


def _reach(slope: float, eta: float, tau: float, k: int) -> float:
    """Ten standard deviations of the linear chain with this slope after ``k`` steps (plus 10 tau)."""
    rho2 = (1 - eta * slope) ** 2
    sd = tau * np.sqrt(min(k, 1.0 / (1 - rho2))) if rho2 < 1 else tau * np.sqrt(k)
    return 10 * sd + 10 * tau


def _nodes(g: PiecewiseLinear, lo: float, hi: float, dx: float) -> np.ndarray:
    """Uniform nodes with spacing ``dx`` covering ``[lo, hi]``, through the first breakpoint of ``g``."""
    anchor = g.breakpoints[0] if g.breakpoints else 0.0
    return anchor + dx * np.arange(int(np.floor((lo - anchor) / dx)), int(np.ceil((hi - anchor) / dx)) + 1)


def _grid(g: PiecewiseLinear, eta: float, tau: float, x0: float, k_max: int, du: float) -> np.ndarray:
    """Grid for the law of ``x_k`` from ``x0``: each side reaches :func:`_reach` of the outer piece's slope
    beyond the extreme breakpoints."""
    left, right = (g.slopes[0], g.slopes[-1]) if isinstance(g, PiecewiseLinear) else (min(g.slopes),) * 2
    lo = min(x0, g.breakpoints[0] if g.breakpoints else x0) - _reach(left, eta, tau, k_max)
    hi = max(x0, g.breakpoints[-1] if g.breakpoints else x0) + _reach(right, eta, tau, k_max)
    return _nodes(g, lo, hi, du * tau)


def _column(grid: np.ndarray, centers: np.ndarray, tau: float) -> sp.csr_matrix:
    """Probability transfer from each source (one column per centre) to the grid nodes."""
    dx = grid[1] - grid[0]
    half = int(np.ceil(_TRUNCATION * tau / dx))
    offsets = np.arange(-half, half + 1)
    centre_idx = np.rint((centers - grid[0]) / dx).astype(np.int64)
    rows = centre_idx[None, :] + offsets[:, None]  # (band, n_sources)
    inside = (rows >= 0) & (rows < grid.size)
    # Kernel values at the nodes themselves (off-grid rows extrapolated), so a centre on a node gets an
    # exactly symmetric column.
    positions = np.where(inside, grid[np.clip(rows, 0, grid.size - 1)], grid[0] + rows * dx)
    z = (positions - centers[None, :]) / tau
    weights = np.exp(-0.5 * z**2)
    weights /= weights.sum(axis=0, keepdims=True)  # normalised over the full band, before clipping
    cols = np.broadcast_to(np.arange(centers.size)[None, :], rows.shape)
    return sp.csr_matrix((weights[inside], (rows[inside], cols[inside])), shape=(grid.size, centers.size))


def _propagate_once(g, eta, tau, x0, steps, du):
    grid = _grid(g, eta, tau, x0, int(max(steps)), du)
    transfer = _column(grid, grid - eta * g(grid), tau)
    w = _column(grid, np.array([x0 - eta * float(g(x0))]), tau).toarray()[:, 0]  # law of x_1
    out_w = []
    wanted = set(int(k) for k in steps)
    for k in range(1, int(max(steps)) + 1):
        if k > 1:
            w = transfer @ w
        if k in wanted:
            out_w.append(w.copy())
    order = {k: i for i, k in enumerate(sorted(wanted))}
    W = np.stack(out_w)[[order[int(k)] for k in steps]]
    return grid, W


def propagate(
    g: PiecewiseLinear | SmoothDrift, eta: float, noise_sd: float, x0: float, steps: Sequence[int], *, du: float = 0.1
) -> DensityResult:
    """Density and mean of ``x_k`` for every ``k`` in ``steps`` (all >= 1).

    Parameters
    ----------
    g : PiecewiseLinear or SmoothDrift
        The gradient ``F'``; its slopes must satisfy ``0 <= eta * slope < 2`` (a contraction).
    eta : float
        Step size.
    noise_sd : float
        Standard deviation ``s`` of the Gaussian gradient noise.
    x0 : float
        Deterministic start.
    steps : sequence of int
        Steps at which to report (each >= 1).
    du : float, optional
        Fine grid spacing in units of ``tau = eta * noise_sd``; the error estimate uses ``2 du``.
    """
    eta, s, du = positive("eta", eta), positive("noise_sd", noise_sd), positive("du", du)
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes < 0) or np.any(slopes >= 2):
        raise InvalidParameterError("eta", "0 <= eta * slope < 2 for every piece of g (a stable chain)", eta)
    steps = np.asarray(steps, dtype=int)
    if steps.ndim != 1 or steps.size == 0 or np.any(steps < 1):
        raise InvalidParameterError("steps", "a non-empty list of step counts >= 1", steps)
    tau = eta * s
    grid, W = _propagate_once(g, eta, tau, float(x0), steps, du)
    coarse_grid, W_coarse = _propagate_once(g, eta, tau, float(x0), steps, 2 * du)
    mass = W.sum(axis=1)
    mean = W @ grid
    reach = np.max(np.abs(grid))
    # Floating-point accumulation: k sparse products with a band of ``band`` terms and one final dot product.
    band = 2 * np.ceil(_TRUNCATION / du) + 1
    rounding = np.finfo(float).eps * (steps * band + grid.size) * (W @ np.abs(grid))
    error = np.abs(mean - W_coarse @ coarse_grid) + np.abs(1 - mass) * reach + rounding
    return DensityResult(steps, grid, W / (grid[1] - grid[0]), mean, error, mass, du)


@dataclass(frozen=True)
class RoundMap:
    """``u_K(x) = E[x_K | x_0 = x]`` on a grid, with an error estimate; call it to interpolate.

    One FedAvg round with infinitely many identical clients maps the server iterate ``x`` to ``u_K(x)``
    (thesis section 2.2), so iterating this map gives FedAvg with M = infinity.
    """

    grid: np.ndarray
    values: np.ndarray
    error: np.ndarray

    def __call__(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        if np.any(x < self.grid[0]) or np.any(x > self.grid[-1]):
            raise InvalidParameterError(
                "x", f"points inside the map's range [{self.grid[0]:.3g}, {self.grid[-1]:.3g}]", x
            )
        return np.interp(x, self.grid, self.values)

    def error_at(self, x) -> np.ndarray:
        return np.interp(np.asarray(x, dtype=float), self.grid, self.error)


def _backward_once(g, eta, tau, K, lo, hi, du):
    reach = _reach(min(g.slopes), eta, tau, K)
    grid = _nodes(g, lo - reach, hi + reach, du * tau)
    transfer = _column(grid, grid - eta * g(grid), tau).T.tocsr()  # u_{k+1} = T' u_k
    u = grid.copy()
    mass = np.ones_like(grid)
    for _ in range(K):
        u, mass = transfer @ u, transfer @ mass
    return grid, u, mass


def round_map(
    g: PiecewiseLinear | SmoothDrift,
    eta: float,
    noise_sd: float,
    K: int,
    x_range: tuple[float, float],
    *,
    du: float = 0.1,
) -> RoundMap:
    """``u_K`` on ``x_range`` by the backward recursion ``u_{k+1}(x) = E u_k(x - eta (g(x) + xi))`` (Lemma A.8(a)).

    The grid extends ``x_range`` by ten standard deviations of the slowest linear chain; the error estimate is the
    difference to a grid twice as coarse plus the probability of leaving the grid (times its reach) and a
    rounding bound, as for :func:`propagate`.
    """
    eta, s, du = positive("eta", eta), positive("noise_sd", noise_sd), positive("du", du)
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes < 0) or np.any(slopes > 2):
        raise InvalidParameterError("eta", "0 <= eta * slope <= 2 for every piece of g", eta)
    K = int(K)
    if K < 1:
        raise InvalidParameterError("K", "an integer >= 1", K)
    lo, hi = (float(v) for v in x_range)
    if not lo < hi:
        raise InvalidParameterError("x_range", "(lo, hi) with lo < hi", x_range)
    tau = eta * s
    grid, u, mass = _backward_once(g, eta, tau, K, lo, hi, du)
    coarse_grid, coarse_u, _ = _backward_once(g, eta, tau, K, lo, hi, 2 * du)
    inside = (grid >= lo) & (grid <= hi)
    reach = float(np.max(np.abs(grid)))
    band = 2 * np.ceil(_TRUNCATION / du) + 1
    rounding = np.finfo(float).eps * (K * band + 1) * reach
    error = np.abs(u - np.interp(grid, coarse_grid, coarse_u)) + np.abs(1 - mass) * reach + rounding
    return RoundMap(grid[inside], u[inside], error[inside])


@dataclass(frozen=True)
class StationaryResult:
    """The stationary law of the chain on a grid.

    Attributes
    ----------
    grid : (G,) float
    density : (G,) float
    mean : float
    mean_error : float
        |fine - coarse| of the mean plus a rounding bound (as for :func:`propagate`).
    """

    grid: np.ndarray
    density: np.ndarray
    mean: float
    mean_error: float


def _stationary_once(g, eta, tau, du):
    grid = _grid(g, eta, tau, 0.0, 10**9, du)  # reach: ten stationary standard deviations of each outer piece
    balance = (_column(grid, grid - eta * g(grid), tau) - sp.identity(grid.size, format="csr")).tocoo()
    # (T - I) w = 0 has a one-dimensional null space: fix w_j = 1 at the node nearest 0 and drop balance
    # equation j. Deleting row and column j keeps the matrix banded, so LAPACK's banded solver applies.
    j = int(np.argmin(np.abs(grid)))
    keep = (balance.row != j) & (balance.col != j)
    rows, cols = balance.row[keep], balance.col[keep]
    rows, cols = rows - (rows > j), cols - (cols > j)
    half = int(np.max(np.abs(balance.row - balance.col)))
    banded = np.zeros((2 * half + 1, grid.size - 1))
    banded[half + rows - cols, cols] = balance.data[keep]
    column_j = balance.getcol(j).toarray()[:, 0]
    w = np.insert(solve_banded((half, half), banded, -np.delete(column_j, j)), j, 1.0)
    return grid, w / w.sum()


def stationary(g: PiecewiseLinear | SmoothDrift, eta: float, noise_sd: float, *, du: float = 0.1) -> StationaryResult:
    """Stationary law of ``x_{k+1} = x_k - eta (g(x_k) + xi_k)``, ``xi ~ N(0, noise_sd^2)``: the fixed point
    ``w = T w`` of the transfer operator of :func:`propagate`, solved directly (one banded LU) instead of by
    iterating. Needs a strictly contracting chain: ``0 < eta * slope < 2`` on both outer pieces.
    """
    eta, s, du = positive("eta", eta), positive("noise_sd", noise_sd), positive("du", du)
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes < 0) or np.any(slopes >= 2) or slopes[0] == 0 or slopes[-1] == 0:
        raise InvalidParameterError("eta", "0 < eta * slope < 2 on the outer pieces, 0 <= eta * slope < 2 inside", eta)
    tau = eta * s
    grid, w = _stationary_once(g, eta, tau, du)
    coarse_grid, coarse_w = _stationary_once(g, eta, tau, 2 * du)
    mean = float(w @ grid)
    rounding = np.finfo(float).eps * grid.size * float(np.abs(w) @ np.abs(grid)) * 10
    error = abs(mean - float(coarse_w @ coarse_grid)) + rounding
    return StationaryResult(grid, w / (grid[1] - grid[0]), mean, error)
