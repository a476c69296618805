"""Closed forms for primal-dual methods with per-device tolerances ``||x_i - z||^2 <= gamma_i`` on quadratics.

The method (:mod:`fedtheory.algorithms.primal_dual`) minimises ``sum_i f_i(x_i)`` subject to ``||x_i - z||^2 <=
gamma_i``. Here ``f_i(x) = (x - b_i)'A_i(x - b_i)/2`` (``b_i`` the device's minimiser, the centre form) and, where
isotropic, ``A_i = a_i I``. Engines, each checked against the simulated method in the tests:

* :func:`fixed_multiplier_point`: the server fixed point with multipliers frozen at ``c_i`` for a warm local start
  (the device's previous model; ``K``-independent) or a cold one (the server model), and FedAvg's (``c = 0``);
* :func:`dead_zone_value`, :func:`ball_local_solution`, :func:`dead_zone_minimizer_1d`: the value ``h_i(z) =
  min_{||x - z||^2 <= gamma_i} f_i(x) = (a_i/2)(||z - b_i|| - r_i)_+^2`` (``r_i = sqrt(gamma_i)``), its minimiser
  and multiplier, and the exact 1-D minimiser of ``sum_i h_i`` by sorting the ``2N`` breakpoints ``b_i -+ r_i``;
* :func:`zero_tolerance_asymptotics`: with ``gamma = 0`` and no multiplier cap, ``lam_i^t ~ (3 alpha g_i^2 t/4)^(1/3)``
  and ``(z^t - x*) t^(1/3) -> C`` (scalar devices, exact local oracle);
* :func:`tolerance_heuristic_ode` and :func:`tolerance_heuristic_discrete`: the tolerance heuristic ``gamma <- gamma
  + eta lam`` with a fixed drift ``d``: ``lam = d sin(eta t)``, ``gamma = d(1 - cos(eta t))`` until ``lam`` returns
  to 0, and the explicit-Euler recursion with the clamp ``lam >= 0`` in closed form;
* :func:`local_gd_rate` and :func:`sgd_stationary_value`: gradient descent on a quadratic local subproblem (its
  contraction factor) and the stationary ``E||grad||^2`` of SGD with additive Gaussian noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import positive, positive_int
from ..errors import InvalidParameterError

START = ("warm", "cold")


def _matrices(A, b) -> tuple[np.ndarray, np.ndarray]:
    A, b = np.asarray(A, dtype=float), np.asarray(b, dtype=float)
    if A.ndim == 1:  # scalar devices
        A = A[:, None, None]
    if b.ndim == 1:
        b = b[:, None]
    if A.ndim != 3 or b.ndim != 2 or A.shape[:1] != b.shape[:1] or A.shape[1:] != (b.shape[1], b.shape[1]):
        raise InvalidParameterError("A, b", "A (N, d, d) or (N,) with centres b (N, d) or (N,)", (A.shape, b.shape))
    return A, b


def fixed_multiplier_point(A, b, c, *, start: str = "warm", beta: float | None = None, K: int = 1) -> np.ndarray:
    """Server fixed point of the method with multipliers frozen at ``c_i > 0`` (dual step 0), full participation.

    Local model after ``K`` gradient steps ``w <- w - beta (A_i(w - b_i) + 2 c_i (w - z))`` with contraction ``P_i =
    I - beta (A_i + 2 c_i I)``; ``xhat_i(z) = (A_i + 2 c_i I)^{-1}(A_i b_i + 2 c_i z)`` is the exact local minimiser.

    * ``start="warm"`` (from the device's previous model): at a fixed point ``(I - P_i^K)(x_i - xhat_i(z)) = 0``, so
      ``x_i = xhat_i(z)`` whatever ``K`` and ``beta`` (with ``rho(P_i) < 1``); the exact oracle gives the same point.
    * ``start="cold"`` (from ``z``): ``x_i = P_i^K z + (I - P_i^K) xhat_i(z)``.

    The server step ``z = sum c_i x_i / sum c_i`` then reads ``sum_i W_i (b_i - z) = 0`` with ``W_i = c_i M_i
    (A_i + 2 c_i I)^{-1} A_i`` (``M_i = I`` warm, ``I - P_i^K`` cold), so ``z = (sum W_i)^{-1} sum W_i b_i``; in 1-D
    ``w_i = 2 c_i a_i/(a_i + 2 c_i)`` (warm) and ``(1 - (1 - beta(a_i + 2c))^K) a_i/(a_i + 2c)`` (cold, equal ``c``).
    With ``c = 0`` and a cold start this is FedAvg's limit (equal weights), ``W_i = I - (I - beta A_i)^K``.

    Parameters
    ----------
    A : array (N, d, d) or (N,)
        Symmetric positive semidefinite curvatures (scalars for 1-D devices).
    b : array (N, d) or (N,)
        Device minimisers (centres).
    c : float or array (N,)
        Frozen multipliers, ``>= 0``; all zero only with a cold start (FedAvg).
    start : {"warm", "cold"}
    beta : float, optional
        Local step (needed for a cold start).
    K : int
        Local steps (cold start).

    Returns
    -------
    ndarray (d,)
    """
    A, b = _matrices(A, b)
    N, d = b.shape
    c = np.broadcast_to(np.asarray(c, dtype=float), (N,))
    if start not in START:
        raise InvalidParameterError("start", f"one of {START}", start)
    if np.any(c < 0):
        raise InvalidParameterError("c", "multipliers >= 0", c)
    eye = np.eye(d)
    H = A + 2 * c[:, None, None] * eye
    if start == "warm":
        if np.any(c <= 0):
            raise InvalidParameterError("c", "multipliers > 0 for a warm start (the server weights)", c)
        W = c[:, None, None] * np.linalg.solve(H, A)
    else:
        beta = positive("beta", beta)
        K = positive_int("K", K)
        M = eye - np.linalg.matrix_power(eye - beta * H, K)
        if np.all(c == 0):
            W = M  # FedAvg: (I - P^K) A^{-1} A with equal weights, also for a singular A_i
        elif np.all(c == c[0]):
            W = np.linalg.solve(H, M @ A)  # equal multipliers cancel in the server weights
        else:
            W = c[:, None, None] * np.linalg.solve(H, M @ A)
    return np.linalg.solve(W.sum(axis=0), np.einsum("nij,nj->i", W, b))


def dead_zone_value(z, a, b, gamma) -> np.ndarray:
    """``h_i(z) = min_{||x - z||^2 <= gamma_i} (a_i/2)||x - b_i||^2 = (a_i/2)(||z - b_i|| - sqrt(gamma_i))_+^2``.

    ``z`` is ``(..., d)``, ``a`` and ``gamma`` ``(N,)``, ``b`` ``(N, d)``; returns ``(..., N)``.
    """
    z, b = np.asarray(z, dtype=float), np.asarray(b, dtype=float)
    dist = np.linalg.norm(z[..., None, :] - b, axis=-1)
    return np.asarray(a, dtype=float) / 2 * np.maximum(dist - np.sqrt(np.asarray(gamma, dtype=float)), 0.0) ** 2


def ball_local_solution(z, a, b, gamma) -> tuple[np.ndarray, np.ndarray]:
    """The minimiser ``x_i`` of ``(a_i/2)||x - b_i||^2`` over ``||x - z||^2 <= gamma_i`` and its multiplier ``lam_i``.

    ``x_i = b_i`` and ``lam_i = 0`` when ``||z - b_i|| <= r_i``; otherwise ``x_i = z + r_i (b_i - z)/||b_i - z||`` and
    ``lam_i = a_i (||b_i - z|| - r_i)/(2 r_i)`` (infinite when ``r_i = 0``: the constraint then fixes ``x_i = z``).
    ``z`` ``(d,)``, ``b`` ``(N, d)``; returns ``x`` ``(N, d)`` and ``lam`` ``(N,)``.
    """
    z, b = np.asarray(z, dtype=float), np.asarray(b, dtype=float)
    a, r = np.asarray(a, dtype=float), np.sqrt(np.asarray(gamma, dtype=float))
    diff = b - z
    dist = np.linalg.norm(diff, axis=-1)
    outside = dist > r
    unit = np.divide(diff, dist[:, None], out=np.zeros_like(diff), where=dist[:, None] > 0)
    x = np.where(outside[:, None], z + r[:, None] * unit, b)
    with np.errstate(divide="ignore"):
        lam = np.where(outside, a * (dist - r) / (2 * r), 0.0)
    return x, lam


@dataclass(frozen=True)
class DeadZoneMinimizer:
    """The minimisers of ``Phi(z) = sum_i (a_i/2)(|z - b_i| - r_i)_+^2`` in 1-D: the interval ``[lo, hi]`` (``lo ==
    hi`` when unique; ``hi > lo`` when the balls ``[b_i - r_i, b_i + r_i]`` share more than a point)."""

    lo: float
    hi: float
    breakpoints: np.ndarray

    @property
    def z(self) -> float:
        """The minimiser (the interval's midpoint when not unique)."""
        return (self.lo + self.hi) / 2


def dead_zone_minimizer_1d(a, b, gamma) -> DeadZoneMinimizer:
    """Exact minimiser of ``Phi(z) = sum_i (a_i/2)(|z - b_i| - r_i)_+^2``, ``r_i = sqrt(gamma_i)``, in 1-D.

    ``Phi' = phi(z) = sum_i a_i sign(z - b_i)(|z - b_i| - r_i)_+`` is non-decreasing and linear between consecutive
    breakpoints ``b_i -+ r_i``: sort the ``2N`` breakpoints, evaluate ``phi`` there, and solve the linear piece where it
    changes sign (no iteration). ``a_i > 0``.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    r = np.sqrt(np.asarray(gamma, dtype=float))
    if np.any(a <= 0) or np.any(r < 0) or a.shape != b.shape or r.shape != b.shape:
        raise InvalidParameterError("a, b, gamma", "(N,) arrays with a > 0 and gamma >= 0", (a, b, r))
    points = np.sort(np.concatenate([b - r, b + r]))

    def phi(z):
        z = np.asarray(z, dtype=float)[..., None]
        return np.sum(a * (np.maximum(z - b - r, 0.0) - np.maximum(b - r - z, 0.0)), axis=-1)

    values = phi(points)
    zero = points[values == 0]
    if zero.size:  # phi vanishes at breakpoints: the argmin is the interval between the first and last such point
        return DeadZoneMinimizer(float(zero.min()), float(zero.max()), points)
    k = int(np.searchsorted(values, 0.0))  # values[k-1] < 0 < values[k] (phi(-inf) < 0 < phi(inf), a > 0)
    lo, hi = points[k - 1], points[k]
    root = lo - values[k - 1] * (hi - lo) / (values[k] - values[k - 1])
    return DeadZoneMinimizer(float(root), float(root), points)


@dataclass(frozen=True)
class ZeroToleranceAsymptotics:
    """``gamma = 0``, no multiplier cap, scalar devices, exact local oracle: ``lam_i^t ~ kappa_i t^(1/3)`` with
    ``kappa_i = (3 alpha g_i^2/4)^(1/3)``, ``g_i = a_i(x* - b_i)`` (the device gradient at ``x*``), and ``(z^t - x*)
    t^(1/3) -> C = sum_i a_i g_i/(2 kappa_i) / sum_i a_i``."""

    x_star: float
    g: np.ndarray
    kappa: np.ndarray
    C: float


def zero_tolerance_asymptotics(a, b, alpha: float) -> ZeroToleranceAsymptotics:
    """Leading terms of the method with zero tolerances and multipliers in ``[0, inf)`` (our derivation).

    With the exact local oracle, ``x_i - z = a_i(b_i - z)/(a_i + 2 lam_i) ~ -g_i/(2 lam_i)``, so the dual step adds
    ``alpha g_i^2/(4 lam_i^2)`` per round: ``lam_i^3 ~ 3 alpha g_i^2 t/4``. The server step ``sum lam_i(x_i - z) = 0``
    gives weights ``lam_i a_i/(a_i + 2 lam_i) = (a_i/2)(1 - a_i/(2 lam_i) + ...)``, hence ``z - x* ~ sum_i a_i g_i/(2
    lam_i) / sum_i a_i``, of order ``t^(-1/3)``. Devices with ``g_i = 0`` are left out of the sum.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    positive("alpha", alpha)
    x_star = float(np.sum(a * b) / np.sum(a))
    g = a * (x_star - b)
    kappa = np.cbrt(3 * alpha * g**2 / 4)
    terms = np.divide(a * g, 2 * kappa, out=np.zeros_like(g), where=kappa > 0)
    return ZeroToleranceAsymptotics(x_star, g, kappa, float(terms.sum() / a.sum()))


def tolerance_heuristic_ode(d: float, eta: float, t) -> tuple[np.ndarray, np.ndarray]:
    """``lam' = eta (d - gamma)``, ``gamma' = eta lam`` from ``lam = gamma = 0`` with the clamp ``lam >= 0``.

    ``lam(t) = d sin(eta t)``, ``gamma(t) = d(1 - cos(eta t))`` for ``eta t <= pi``; then ``lam = 0`` and ``gamma =
    2d`` for ever (at ``gamma > d`` the drive ``d - gamma`` is negative and the clamp holds ``lam`` at 0).
    """
    t = np.minimum(np.asarray(t, dtype=float) * eta, np.pi)
    return d * np.sin(t), d * (1 - np.cos(t))


@dataclass(frozen=True)
class HeuristicReturn:
    """The clamped recursion's first return of ``lam`` to 0: the step ``t_star``, the frozen tolerance ``gamma``
    and the peak ``lam`` before it."""

    t_star: int
    gamma: float
    lam_peak: float


def tolerance_heuristic_discrete(d: float, eta: float, steps: int | None = None):
    """The recursion ``lam <- max(0, lam + eta(d - gamma))``, ``gamma <- gamma + eta lam`` (old ``lam``), from 0.

    Before the clamp acts, ``(lam, gamma - d)`` rotates by ``theta = arctan(eta)`` and grows by ``rho = sqrt(1 +
    eta^2)`` per step: ``lam_k = d rho^k sin(k theta)``, ``gamma_k = d(1 - rho^k cos(k theta))``. The clamp first acts
    at ``t* = ceil(pi/theta)`` (``lam_{t*} = 0``), and from then ``lam = 0`` and ``gamma = gamma_{t*}`` for ever.

    Returns the :class:`HeuristicReturn`, or with ``steps`` the arrays ``lam``, ``gamma`` of ``steps + 1`` entries.
    """
    d, eta = positive("d", d), positive("eta", eta)
    theta, rho = np.arctan(eta), np.hypot(1.0, eta)
    t_star = int(np.ceil(np.pi / theta - 1e-12))
    k = np.arange(t_star + 1)
    lam = np.maximum(d * rho**k * np.sin(k * theta), 0.0)
    lam[t_star] = 0.0
    gamma = d * (1 - rho**k * np.cos(k * theta))
    if steps is None:
        return HeuristicReturn(t_star, float(gamma[-1]), float(lam.max()))
    steps = positive_int("steps", steps, minimum=0)
    idx = np.minimum(np.arange(steps + 1), t_star)
    return np.where(np.arange(steps + 1) < t_star, lam[idx], 0.0), gamma[idx]


def local_gd_rate(eigenvalues, lam: float, beta: float) -> float:
    """``rho = max_j |1 - beta(mu_j + 2 lam)|``: gradient descent on ``f(w) + lam ||w - z||^2`` (``f`` quadratic with
    Hessian eigenvalues ``mu_j``, possibly negative) maps ``grad_k`` to ``(I - beta H) grad_k``, ``||grad_k|| <=
    rho^k ||grad_0||``."""
    mu = np.asarray(eigenvalues, dtype=float)
    return float(np.max(np.abs(1 - beta * (mu + 2 * lam))))


def sgd_stationary_value(eigenvalues, lam: float, beta: float, sigma: float) -> float:
    """Stationary ``E||grad L(w)||^2`` of ``w <- w - beta(grad L(w) + xi)``, ``xi ~ N(0, sigma^2 I)``, on the quadratic
    subproblem with Hessian eigenvalues ``h_j = mu_j + 2 lam``: ``beta sigma^2 sum_j h_j/(2 - beta h_j)`` (requires
    ``0 < beta h_j < 2``)."""
    h = np.asarray(eigenvalues, dtype=float) + 2 * lam
    if np.any(beta * h <= 0) or np.any(beta * h >= 2):
        raise InvalidParameterError("beta", "a step with 0 < beta h_j < 2 for every subproblem eigenvalue", beta)
    return float(beta * sigma**2 * np.sum(h / (2 - beta * h)))
