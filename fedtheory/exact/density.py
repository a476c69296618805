"""Density propagation for one-dimensional SGD with Gaussian gradient noise.

The chain ``x_{k+1} = m(x_k) + eta * xi_k`` with ``m(x) = x - eta g(x)``, ``g`` piecewise linear (or smooth,
:class:`SmoothDrift`) and ``xi ~ N(0, s^2)`` (the SGD of Definition 2.5 on ``f(x; xi) = F(x) - xi x``; the sign
of a symmetric noise does not matter) has the transfer operator

    p_{k+1}(y) = int p_k(x) N(y; m(x), tau^2) dx,        tau = eta * s.

On a uniform grid with a node at the first breakpoint of ``g`` (there the integrand has a kink), the
trapezoidal rule in ``x`` with exact Gaussian kernel values is second-order accurate, and spectrally
accurate away from the kinks. Columns are normalised over the kernel's untruncated band, so mass that
leaves the grid is lost, not hidden, and enters the reported error. The discretisation error of each
mean is estimated by repeating the computation on a grid twice as coarse (``mean_error`` is the
difference, which bounds the fine-grid error by about 3x for a second-order scheme).

That estimate is only honest in the asymptotic regime, so the engines refuse grids that do not resolve the
one-step kernel: the spacing ``du`` (in units of ``tau``) must be at most ``0.5``, so that the comparison grid
(spacing ``2 du <= tau``) still samples the Gaussian to about ``1e-8`` (its aliasing error is
``~exp(-2 pi^2 / (2 du)^2)``). With ``du = 8`` both grids see a point mass and agree on a wrong mean. A kink that
falls between nodes (a breakpoint other than the first) adds an error whose size depends erratically on where it
falls in its cell, which the refinement difference cannot see; the trapezoidal rule's error there is at most
``dx^2 theta (1 - theta) / 2`` times the jump of the integrand's derivative (``theta`` the kink's offset in its
cell, in cells), and that jump is at most ``eta |slope change|`` times the density (forward) or the kernel
(backward) at the kink, because every ``x -> E[x_k | x_0 = x]`` is 1-Lipschitz for ``0 <= eta g' <= 2``. Both
grids' kink bounds are added to the estimate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.linalg import solve_banded

from .._validate import finite_array, integer_array, interval, positive, positive_int
from ..errors import InvalidParameterError
from ..problems.piecewise import PiecewiseLinear

_TRUNCATION = 8.0  # kernel support in units of tau; the Gaussian tail beyond is < 1e-15
_MAX_DU = 0.5  # coarsest accepted spacing in units of tau (module docstring)


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
        if not callable(self.func):
            raise InvalidParameterError("func", "a callable mapping an array of points to g there", self.func)
        try:
            lo, hi = (float(v) for v in self.slopes)
        except (TypeError, ValueError):
            raise InvalidParameterError("slopes", "a pair (lo, hi) of numbers", self.slopes) from None
        if not (np.isfinite(lo) and np.isfinite(hi) and 0 <= lo <= hi):
            raise InvalidParameterError("slopes", "finite (lo, hi) bounds on g' with 0 <= lo <= hi", self.slopes)
        finite_array("breakpoints", self.breakpoints, ndim=1)

    def __call__(self, x) -> np.ndarray:
        return np.asarray(self.func(np.asarray(x, dtype=float)), dtype=float)


def _check_drift(g) -> None:
    """``g`` must be a :class:`PiecewiseLinear` (continuous: the error analysis allows kinks, not jumps) or a
    :class:`SmoothDrift`."""
    if not isinstance(g, (PiecewiseLinear, SmoothDrift)):
        raise InvalidParameterError("g", "a PiecewiseLinear or SmoothDrift gradient", type(g).__name__)
    if isinstance(g, PiecewiseLinear) and g.breakpoints:
        b = np.asarray(g.breakpoints, dtype=float)
        s, c = np.asarray(g.slopes, dtype=float), np.asarray(g.intercepts, dtype=float)
        left, right = s[:-1] * b + c[:-1], s[1:] * b + c[1:]
        scale = np.maximum(1.0, np.maximum(np.abs(left), np.abs(right)))
        if np.any(np.abs(left - right) > 1e-12 * scale):
            raise InvalidParameterError(
                "g", "a continuous piecewise-linear gradient (pieces meeting at each breakpoint)", g
            )


def _check_du(du, tau: float) -> float:
    """``du`` must resolve the one-step kernel ``N(0, tau^2)`` (module docstring)."""
    du = positive("du", du)
    if du > _MAX_DU:
        raise InvalidParameterError(
            "du",
            f"a grid spacing of at most {_MAX_DU} in units of tau = eta * noise_sd (a spacing <= "
            f"{_MAX_DU * tau:.3g} here), so that the grid twice as coarse used for the error estimate resolves "
            "the one-step Gaussian kernel",
            du,
        )
    return du


def _aliasing(du: float, tau: float) -> float:
    """Bound on one step's error in the mean from sampling the Gaussian kernel at spacing ``du tau``.

    By Poisson summation the normalised samples have mean off by at most ``4 pi tau / du exp(-2 pi^2 / du^2)``
    and variance off by ``8 pi^2 tau^2 / du^2 exp(-2 pi^2 / du^2)``; the latter moves a later mean by at most half
    of it times ``sup |(u * N)''| <= 0.8 / tau`` for a 1-Lipschitz ``u``. About ``1e-33 tau`` at ``du = 0.5``,
    ``5e-8 tau`` at ``du = 1`` (the comparison grid of the coarsest accepted ``du``).
    """
    return tau * (4 * np.pi / du + 4 * np.pi**2 / du**2) * np.exp(-2 * np.pi**2 / du**2)


def _kinks(g, eta: float, anchor_spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Breakpoints of ``g`` off the nodes of a grid of spacing ``anchor_spacing`` through the first one, and the
    trapezoidal rule's error there per unit density: ``dx^2 theta (1 - theta) / 2 * eta |slope change|``."""
    if not isinstance(g, PiecewiseLinear) or len(g.breakpoints) < 2:
        return np.zeros(0), np.zeros(0)
    b = np.asarray(g.breakpoints, dtype=float)
    theta = np.mod((b - b[0]) / anchor_spacing, 1.0)
    theta = np.where(np.minimum(theta, 1 - theta) < 1e-9, 0.0, theta)  # on a node up to rounding
    jump = eta * np.abs(np.diff(np.asarray(g.slopes, dtype=float)))
    return b, anchor_spacing**2 * theta * (1 - theta) / 2 * jump


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
        Error estimate: |fine - coarse| (discretisation), plus bounds for kinks between nodes (module docstring),
        plus the lost mass times the grid's reach, plus a bound on floating-point accumulation.
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
    """Weights of ``x_k`` at the nodes for each of ``steps``, and the kink error bound of each (module docstring)."""
    grid = _grid(g, eta, tau, x0, int(max(steps)), du)
    dx = grid[1] - grid[0]
    kinks, kink_error = _kinks(g, eta, dx)
    transfer = _column(grid, grid - eta * g(grid), tau)
    w = _column(grid, np.array([x0 - eta * float(g(x0))]), tau).toarray()[:, 0]  # law of x_1
    out_w, out_kink = [], []
    kink = 0.0
    wanted = set(int(k) for k in steps)
    for k in range(1, int(max(steps)) + 1):
        if k > 1:
            kink += float(kink_error @ np.interp(kinks, grid, w, left=0.0, right=0.0)) / dx
            w = transfer @ w
        if k in wanted:
            out_w.append(w.copy())
            out_kink.append(kink)
    order = [{k: i for i, k in enumerate(sorted(wanted))}[int(k)] for k in steps]
    return grid, np.stack(out_w)[order], np.asarray(out_kink)[order]


def propagate(
    g: PiecewiseLinear | SmoothDrift, eta: float, noise_sd: float, x0: float, steps: Sequence[int], *, du: float = 0.1
) -> DensityResult:
    """Density and mean of ``x_k`` for every ``k`` in ``steps`` (all >= 1).

    Parameters
    ----------
    g : PiecewiseLinear or SmoothDrift
        The gradient ``F'`` (continuous); its slopes must satisfy ``0 <= eta * slope < 2`` (a contraction).
    eta : float
        Step size.
    noise_sd : float
        Standard deviation ``s`` of the Gaussian gradient noise.
    x0 : float
        Deterministic start.
    steps : sequence of int
        Steps at which to report (each >= 1).
    du : float, optional
        Fine grid spacing in units of ``tau = eta * noise_sd``, at most 0.5 (module docstring); the error estimate
        uses ``2 du``.

    Raises
    ------
    InvalidParameterError
        For non-positive or non-finite ``eta``, ``noise_sd``, a non-finite ``x0``, non-integer or non-positive
        ``steps``, ``du > 0.5``, an unstable ``eta`` or a ``g`` that is not a continuous piecewise-linear or
        smooth drift.
    """
    eta, s = positive("eta", eta), positive("noise_sd", noise_sd)
    tau = eta * s
    du = _check_du(du, tau)
    x0 = float(finite_array("x0", x0, ndim=0))
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes < 0) or np.any(slopes >= 2):
        raise InvalidParameterError("eta", "0 <= eta * slope < 2 for every piece of g (a stable chain)", eta)
    steps = integer_array("steps", steps, minimum=1)
    if steps.ndim != 1 or steps.size == 0:
        raise InvalidParameterError("steps", "a non-empty list of step counts >= 1", steps)
    grid, W, kink = _propagate_once(g, eta, tau, x0, steps, du)
    coarse_grid, W_coarse, coarse_kink = _propagate_once(g, eta, tau, x0, steps, 2 * du)
    mass = W.sum(axis=1)
    mean = W @ grid
    reach = np.max(np.abs(grid))
    # Floating-point accumulation: k sparse products with a band of ``band`` terms and one final dot product.
    band = 2 * np.ceil(_TRUNCATION / du) + 1
    rounding = np.finfo(float).eps * (steps * band + grid.size) * (W @ np.abs(grid))
    aliasing = steps * (_aliasing(du, tau) + _aliasing(2 * du, tau))
    discretisation = np.abs(mean - W_coarse @ coarse_grid) + coarse_kink + 2 * kink + aliasing
    error = discretisation + np.abs(1 - mass) * reach + rounding
    return DensityResult(steps, grid, W / (grid[1] - grid[0]), mean, error, mass, du)


@dataclass(frozen=True)
class RoundMap:
    """``u_K(x) = E[x_K | x_0 = x]`` on a grid, with an error estimate; call it to interpolate.

    One FedAvg round with infinitely many identical clients maps the server iterate ``x`` to ``u_K(x)``
    (thesis section 2.2), so iterating this map gives FedAvg with M = infinity.

    Attributes
    ----------
    grid, values, error : (G,) float
        Nodes, ``u_K`` there and its error estimate there.
    interpolation : (G - 1,) float
        A bound on the linear interpolant's error at the middle of each cell (from second differences of
        ``values``); :meth:`error_at` adds it, scaled by ``4 t (1 - t)`` at the fraction ``t`` of the cell.
    """

    grid: np.ndarray
    values: np.ndarray
    error: np.ndarray
    interpolation: np.ndarray | None = None

    def __call__(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        lo, hi = self.grid[0], self.grid[-1]
        # a scalar (a round map iterated point by point) is compared directly: np.any costs more than the interp
        if (x < lo or x > hi) if x.ndim == 0 else (np.any(x < lo) or np.any(x > hi)):
            raise InvalidParameterError(
                "x", f"points inside the map's range [{self.grid[0]:.3g}, {self.grid[-1]:.3g}]", x
            )
        return np.interp(x, self.grid, self.values)

    def error_at(self, x) -> np.ndarray:
        """Error estimate of ``self(x)``: the nodes' estimates interpolated, plus the interpolation bound."""
        x = np.asarray(x, dtype=float)
        nodal = np.interp(x, self.grid, self.error)
        if self.interpolation is None or self.grid.size < 2:
            return nodal
        s = (x - self.grid[0]) / (self.grid[1] - self.grid[0])
        cell = np.clip(np.floor(s).astype(np.int64), 0, self.grid.size - 2)
        t = np.clip(s - cell, 0.0, 1.0)
        return nodal + self.interpolation[cell] * 4 * t * (1 - t)


def _refinement_gap(grid: np.ndarray, values: np.ndarray, coarse_grid: np.ndarray, coarse: np.ndarray) -> np.ndarray:
    """``|fine - coarse|`` at the nodes both grids share (every other fine node), the larger of the two
    neighbours' at the others: interpolating the coarse values to the odd nodes would add the coarse grid's
    interpolation error, which can cancel the discretisation error it is meant to reveal."""
    dx = grid[1] - grid[0]
    j = np.rint((grid - coarse_grid[0]) / (2 * dx)).astype(np.int64)
    shared = (j >= 0) & (j < coarse_grid.size)
    shared[shared] &= np.abs(coarse_grid[j[shared]] - grid[shared]) < 1e-6 * dx
    gap = np.where(shared, np.abs(values - coarse[np.clip(j, 0, coarse_grid.size - 1)]), np.nan)
    left, right = np.full_like(gap, np.nan), np.full_like(gap, np.nan)
    left[1:], right[:-1] = gap[:-1], gap[1:]
    return np.where(shared, gap, np.fmax(left, right))


def _interpolation_bound(g, grid: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Bound on the linear interpolant's error at the middle of each cell.

    For a smooth ``u`` it is ``dx^2 |u''| / 8``, estimated by the largest second difference ``|Delta^2 u| / 8`` at
    the cell's ends and their outer neighbours; a node on a breakpoint (a kink of ``u_K``, exact on both sides) is
    skipped, and a cell holding a breakpoint between its nodes gets ``|Delta^2 u| / 2`` (a kink of slope jump
    ``J`` at ``theta`` gives ``J dx theta (1 - theta) <= J dx / 4``, and ``|Delta^2 u| >= J dx / 2`` next to it).
    """
    second = np.zeros_like(values)
    second[1:-1] = np.abs(values[2:] - 2 * values[1:-1] + values[:-2])
    breaks = np.asarray(getattr(g, "breakpoints", ()) if isinstance(g, PiecewiseLinear) else (), dtype=float)
    dx = grid[1] - grid[0]
    position = (breaks - grid[0]) / dx
    on_node = np.abs(position - np.rint(position)) < 1e-9
    node = np.rint(position[on_node]).astype(np.int64)
    second[node[(node >= 0) & (node < grid.size)]] = 0.0
    padded = np.pad(second, 1)
    cell = np.max([padded[:-3], padded[1:-2], padded[2:-1], padded[3:]], axis=0) / 8
    inner = np.floor(position[~on_node]).astype(np.int64)
    inner = inner[(inner >= 0) & (inner < grid.size - 1)]
    cell[inner] *= 4
    return cell


def _backward_once(g, eta, tau, K, lo, hi, du):
    """``u_K`` at the nodes, the mass kept on the grid, and the kink error bound (module docstring)."""
    reach = _reach(min(g.slopes), eta, tau, K)
    grid = _nodes(g, lo - reach, hi + reach, du * tau)
    centres = grid - eta * g(grid)
    transfer = _column(grid, centres, tau).T.tocsr()  # u_{k+1} = T' u_k
    kinks, kink_error = _kinks(g, eta, grid[1] - grid[0])
    # u_k (k >= 1) has a kink at each breakpoint; the local error of averaging it over N(m(x), tau^2) is the
    # kernel's density at the kink times the bound per unit density; errors are carried by T' (non-negative rows
    # summing to at most 1).
    z = (kinks[None, :] - centres[:, None]) / tau
    local = np.exp(-0.5 * z**2) / (np.sqrt(2 * np.pi) * tau) @ kink_error
    u = grid.copy()
    mass = np.ones_like(grid)
    kink = np.zeros_like(grid)
    for k in range(K):
        if k > 0 and kinks.size:
            kink = transfer @ kink + local
        u, mass = transfer @ u, transfer @ mass
    return grid, u, mass, kink


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
    difference to a grid twice as coarse plus the probability of leaving the grid (times its reach), a bound for
    kinks between nodes and a rounding bound, as for :func:`propagate` (``du`` at most 0.5 there too).
    """
    eta, s = positive("eta", eta), positive("noise_sd", noise_sd)
    tau = eta * s
    du = _check_du(du, tau)
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes < 0) or np.any(slopes > 2):
        raise InvalidParameterError("eta", "0 <= eta * slope <= 2 for every piece of g", eta)
    K = positive_int("K", K)
    lo, hi = interval("x_range", x_range)
    grid, u, mass, kink = _backward_once(g, eta, tau, K, lo, hi, du)
    coarse_grid, coarse_u, _, coarse_kink = _backward_once(g, eta, tau, K, lo, hi, 2 * du)
    inside = (grid >= lo) & (grid <= hi)
    reach = float(np.max(np.abs(grid)))
    band = 2 * np.ceil(_TRUNCATION / du) + 1
    rounding = np.finfo(float).eps * (K * band + 1) * reach
    discretisation = _refinement_gap(grid, u, coarse_grid, coarse_u) + np.interp(grid, coarse_grid, coarse_kink)
    aliasing = K * (_aliasing(du, tau) + _aliasing(2 * du, tau))
    error = discretisation + 2 * kink + aliasing + np.abs(1 - mass) * reach + rounding
    interpolation = _interpolation_bound(g, grid, u)
    keep = np.flatnonzero(inside)
    return RoundMap(grid[inside], u[inside], error[inside], interpolation[keep[:-1]])


@dataclass(frozen=True)
class StationaryResult:
    """The stationary law of the chain on a grid.

    Attributes
    ----------
    grid : (G,) float
    density : (G,) float
    mean : float
    mean_error : float
        |fine - coarse| of the mean plus bounds for kinks between nodes and for rounding (as for
        :func:`propagate`).
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
    iterating. Needs a strictly contracting chain: ``0 < eta * slope < 2`` on every piece; ``du`` at most 0.5.

    A kink between nodes and the kernel's aliasing (module docstring) contribute their bounds once per step, and
    the ``j``-th later step weighs them by the Lipschitz constant ``rho^j`` of ``E[x_j | x_0 = x]``,
    ``rho = max |1 - eta slope| < 1``.
    """
    eta, s = positive("eta", eta), positive("noise_sd", noise_sd)
    tau = eta * s
    du = _check_du(du, tau)
    _check_drift(g)
    slopes = eta * np.asarray(g.slopes)
    if np.any(slopes <= 0) or np.any(slopes >= 2):
        raise InvalidParameterError(
            "eta", "0 < eta * slope < 2 for every piece of g (a strictly contracting chain)", eta
        )
    grid, w = _stationary_once(g, eta, tau, du)
    coarse_grid, coarse_w = _stationary_once(g, eta, tau, 2 * du)
    mean = float(w @ grid)
    rounding = np.finfo(float).eps * grid.size * float(np.abs(w) @ np.abs(grid)) * 10
    # Per-step errors (kinks between nodes, kernel aliasing) weighed by the Lipschitz constants rho^j of the
    # later steps' conditional means, summed over j.
    rho = float(np.max(np.abs(1 - slopes)))
    per_step = _aliasing(du, tau) + _aliasing(2 * du, tau)
    for nodes, weights, factor in ((grid, w, 2.0), (coarse_grid, coarse_w, 1.0)):
        dx = nodes[1] - nodes[0]
        kinks, kink_error = _kinks(g, eta, dx)
        per_step += factor * float(kink_error @ np.interp(kinks, nodes, weights, left=0.0, right=0.0)) / dx
    kink = per_step / (1 - rho)
    error = abs(mean - float(coarse_w @ coarse_grid)) + kink + rounding
    return StationaryResult(grid, w / (grid[1] - grid[0]), mean, error)
