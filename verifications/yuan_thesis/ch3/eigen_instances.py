"""Quadratic instances written in their own eigenbasis, for the witness searches of chapter 3's bounds on quadratics,
and the exact expectations they need by binary powering (O(log K R) products per instance).

On F(x) = x'Ax/2 (x* = 0, F* = 0) with additive noise of covariance C every method of the chapter is affine, so the
exact first and second moments decouple along A's eigen-directions: the start's component along an eigen-direction
drives the mean there, the noise's variance along it drives the covariance there, and an expected potential or gap
is a sum over directions of a part linear in the squared start component and a part linear in the variance. For a
bound that depends on the instance only through (mu, L, B or the initial potential, sigma^2 = tr C), the worst start
of a given size and the worst noise of a given trace therefore lie along single eigen-directions (a linear function
on a simplex is largest at a vertex). The instances below put the start along an eigen-direction with eigenvalue
kappa^-start_eig and the noise along one with eigenvalue kappa^-noise_eig, beside two directions with eigenvalues
L = 1 and mu = 1/kappa that fix the constants: every spectrum in [mu, L] and every split of the start and of the
noise is covered up to this reduction. Noise of covariance sigma^2 e e' along a unit eigenvector e can be taken of
constant norm (+-sigma e), which meets Assumption 3.2(b) with equality (E||xi||^4 = sigma^4), and the exact engines
use only the covariance.
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import fedac
from fedtheory.exact.fedac_moments import step_map
from fedtheory.exact.moments import affine_power
from fedtheory.harness.search import Axis
from fedtheory.problems import FederatedQuadratic

REGISTERS_CLAIMS = False  # shared instances of the searches; the claims are in the sibling modules

L = 1.0

#: The axes shared by the searches over strongly convex quadratics (L = 1 and sigma = 1 by scaling: only B/sigma
#: matters, since x -> c x scales B, sigma and every potential consistently).
SPECTRUM_AXES = {
    "kappa": Axis(1.0, 1e4),
    "M": Axis(1, 1024, integer=True),
    "K": Axis(1, 1024, integer=True),
    "R": Axis(1, 1024, integer=True),
    "B": Axis(1e-5, 1e5),
    "start_eig": Axis(0.0, 1.0, log=False),
    "noise_eig": Axis(0.0, 1.0, log=False),
}

SPECTRUM_NOTE = (
    "L = 1 and sigma = 1 by scaling (B stands for B/sigma, 1e-5 to 1e5); kappa = L/mu from 1 (mu = L) to 1e4; M, K, "
    "R from 1 to 1024; the start (distance B) along an eigen-direction with eigenvalue kappa^-start_eig and the "
    "noise along one with eigenvalue kappa^-noise_eig, which covers every spectrum in [mu, L] and every split of "
    "start and noise (the worst split is a vertex: module docstring of eigen_instances)."
)


def spectrum_instance(kappa: float, start_eig: float, noise_eig: float, B: float, sigma: float = 1.0):
    """``(problem, x0, C)``: Hessian diag(1, 1/kappa, kappa^-start_eig, kappa^-noise_eig) (so L = 1, mu = 1/kappa,
    x* = 0), the start ``B e_3`` and the noise covariance ``sigma^2 e_4 e_4'``."""
    eig = np.array([1.0, 1.0 / kappa, kappa**-start_eig, kappa**-noise_eig])
    problem = FederatedQuadratic(np.diag(eig), np.zeros(4))
    C = np.zeros((4, 4))
    C[3, 3] = sigma**2
    return problem, np.array([0.0, 0.0, B, 0.0]), C


# 2x2 matrices as tuples (row-major) in plain floats: an evaluation of a search is a few dozen of these products,
# where numpy's per-call overhead would dominate.


def _mm(a, b):
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3])


def _sandwich_plus(a, w, n):
    """``a w a' + n`` for symmetric 2x2 ``w`` and ``n``."""
    t0, t1, t2, t3 = (
        a[0] * w[0] + a[1] * w[2],
        a[0] * w[1] + a[1] * w[3],
        a[2] * w[0] + a[3] * w[2],
        a[2] * w[1] + a[3] * w[3],
    )
    off = t0 * a[2] + t1 * a[3] + n[1]
    return (t0 * a[0] + t1 * a[1] + n[0], off, off, t2 * a[2] + t3 * a[3] + n[3])


def power2(P: tuple, steps: int) -> tuple:
    """``P^steps`` for a 2x2 ``P`` (a row-major tuple), by binary powering."""
    G, base = (1.0, 0.0, 0.0, 1.0), P
    while steps:
        if steps & 1:
            G = _mm(base, G)
        steps >>= 1
        if steps:
            base = _mm(base, base)
    return G


def sums2(P: tuple, N: tuple, steps: int) -> tuple:
    """``sum_{j < steps} P^j N P^j'`` for 2x2 ``P`` and symmetric ``N`` (row-major tuples), by binary powering."""
    W, base_P, base_N = (0.0, 0.0, 0.0, 0.0), P, N
    while steps:
        if steps & 1:
            W = _sandwich_plus(base_P, W, base_N)
        steps >>= 1
        if steps:
            base_N, base_P = _sandwich_plus(base_P, base_N, base_N), _mm(base_P, base_P)
    return W


def orbit(P: np.ndarray, n: np.ndarray, steps: int) -> np.ndarray:
    """``P^j n`` for j < ``steps``, shape ``(steps, m)``, by doubling (``P^(2^i) [P^j n]_(j < 2^i)``)."""
    out, power = n[None, :], P
    while len(out) < steps:
        out = np.concatenate([out, out @ power.T])
        power = power @ power
    return out[:steps]


def fedac_block(h: float, params) -> tuple:
    """FedAc's step map on one eigen-direction with curvature ``h``: the 2x2 block of
    :func:`fedtheory.exact.fedac_moments.step_map` on the state ``(x, x_ag)``, as a row-major tuple."""
    a, b = params.alpha_inv, params.beta_inv
    lower_x, lower_ag = a - params.gamma * h, 1 - params.eta * h
    return ((1 - a) + b * lower_x, (1 - b) * lower_x, b * lower_ag, (1 - b) * lower_ag)


def fedac_noise(params, variance: float) -> tuple:
    """The noise a step adds to ``(x, x_ag)`` along an eigen-direction: ``(gamma, eta)(gamma, eta)' variance``."""
    g, e = params.gamma, params.eta
    return (g * g * variance, g * e * variance, g * e * variance, e * e * variance)


def fedac_step_blocks(h, params) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fedac_block` for an array of curvatures ``h`` (shape ``(k,)``): ``(k, 2, 2)`` blocks, and the noise gain
    ``(gamma, eta)``."""
    P = np.array([fedac_block(float(v), params) for v in np.atleast_1d(h)]).reshape(-1, 2, 2)
    return P, np.array([params.gamma, params.eta])


def spectrum_potentials(kappa, start_eig, noise_eig, B, params, R: int, sigma: float = 1.0) -> tuple[float, float]:
    """Exact ``(E Psi^(R,0), E Phi^(R,0))`` of FedAc on :func:`spectrum_instance` (the same numbers as
    :func:`fedtheory.exact.fedac_moments.powered_potentials` there), computed direction by direction: the start's
    direction carries the mean, the noise's direction the covariance (2x2 blocks, O(log K R) products)."""
    mu, h_s, h_n = 1.0 / kappa, kappa**-start_eig, kappa**-noise_eig
    steps = params.K * R
    G = power2(fedac_block(h_s, params), steps)
    W = sums2(fedac_block(h_n, params), fedac_noise(params, sigma**2 / params.M), steps)
    mean_x, mean_ag = (G[0] + G[1]) * B, (G[2] + G[3]) * B
    gap = (h_s * mean_ag**2 + h_n * W[3]) / 2
    distance2 = mean_x**2 + W[0]
    return float(gap + mu / 2 * distance2), float(gap + mu / 6 * distance2)


def spectrum_initial_potential(kappa, start_eig, B, which: str) -> float:
    """Psi^(0,0) (``which = "psi"``, (3.9)) or Phi^(0,0) (``"phi"``, (3.29)) of :func:`spectrum_instance`: F(x0) - F*
    + (mu/2 or mu/6) ||x0 - x*||^2 with x0 = B e_3."""
    return float((kappa**-start_eig / 2 + 1 / kappa / (2 if which == "psi" else 6)) * B**2)


def fedavg_weighted_spectrum(kappa, start_eig, noise_eig, B, eta: float, M: int, n: int, sigma: float = 1.0) -> float:
    """:func:`fedavg_weighted_powered` on :func:`spectrum_instance`, direction by direction (2x2 blocks on the state
    (xbar, U), O(log n) products): the same numbers."""
    mu, w = 1.0 / kappa, 1 - eta / kappa / 2
    h_s, h_n = kappa**-start_eig, kappa**-noise_eig
    G = power2((1 - eta * h_s, 0.0, 1.0, w), n)
    W = sums2((1 - eta * h_n, 0.0, 1.0, w), (eta**2 * sigma**2 / M, 0.0, 0.0, 0.0), n)
    total = n if w == 1 else (1 - w**n) / (1 - w)
    gap = (h_s * (G[2] * B) ** 2 + h_n * W[3]) / (2 * total**2)
    return float(gap + mu / 2 * ((G[0] * B) ** 2 + W[0]))


def gamma_between(eta: float, mu: float, position: float) -> float:
    """gamma in [eta, sqrt(eta/mu)] at ``position`` in [0, 1] of the way in log scale (0: eta, 1: sqrt(eta/mu))."""
    top = float(np.sqrt(eta / mu))
    return min(float(eta * (top / eta) ** position), top)


def fedac_at_gamma(eta: float, gamma: float, mu: float, K: int, M: int, variant: str):
    """FedAc-I or FedAc-II hyperparameters (3.2)-(3.3) at a free gamma in [eta, sqrt(eta/mu)] (Lemmas 3.7, 3.10,
    3.23 and their propositions); 1/alpha is clipped at 1 against rounding at gamma mu = 1."""
    alpha_inv, beta_inv = fedac.inverse_coefficients(gamma * mu, variant)
    return fedac.FedAcParams(eta, gamma, min(float(alpha_inv), 1.0), float(beta_inv), K, M, variant)


def capped_steps(K: int, log_growth: float, limit: float = 600.0) -> int:
    """The largest k <= K with k log_growth <= limit: a power of the per-step growth beyond e^limit overflows
    float64 (the bounds that carry it are then astronomically loose)."""
    return K if log_growth <= 0 else max(1, min(K, int(limit / log_growth)))


def fedavg_weighted_powered(problem: FederatedQuadratic, C, eta: float, M: int, n: int, x0) -> float:
    """Exact ``E F(sum_t rho_t xbar_t) - F* + (mu/2) E||xbar_n - x*||^2`` for FedAvg on a homogeneous quadratic with
    Theorem B.18's weights ``rho_t ~ (1 - eta mu/2)^(n - 1 - t)``, t < n = K R, as
    :func:`fedtheory.exact.moments.weighted_average_gap` but by binary powering: the unnormalised weighted sum
    ``U+ = w U + xbar`` (w = 1 - eta mu/2) joins the shadow iterate ``xbar+ = (I - eta A) xbar + eta b - eta
    mean_m xi_m`` in one affine map, composed ``n`` times."""
    d, mu = problem.dim, problem.mu
    w = 1 - eta * mu / 2
    eye = np.eye(d)
    G = np.block([[eye - eta * problem.A_mean, np.zeros((d, d))], [eye, w * eye]])
    c = np.concatenate([eta * problem.b_mean, np.zeros(d)])
    W = np.zeros((2 * d, 2 * d))
    W[:d, :d] = eta**2 * np.asarray(C) / M
    Gn, h, S = affine_power(G, c, W, n)
    mean = Gn @ np.concatenate([np.asarray(x0, dtype=float), np.zeros(d)]) + h
    total = n if w == 1 else (1 - w**n) / (1 - w)  # sum_j w^j, j < n
    ex = mean[:d] - problem.x_star
    gap = problem.expected_gap(mean[d:] / total, S[d:, d:] / total**2)
    return float(gap + mu / 2 * (ex @ ex + np.trace(S[:d, :d])))


def augmented_gap_powered(eig, x0, C, lam: float, params, R: int) -> float:
    """Exact ``E F(xbar_ag^(R,0)) - F*`` of FedAc run on ``F~_lambda = F + (lambda/2)||x - x0||^2`` (B.44), F =
    x' diag(eig) x/2 (x* = 0), from ``x = x_ag = x0``: the augmented quadratic's step map composed ``K R`` times."""
    eig, x0 = np.asarray(eig, dtype=float), np.asarray(x0, dtype=float)
    d = eig.size
    augmented = FederatedQuadratic(np.diag(eig + lam), lam * x0)
    P, c, n = step_map(augmented, params)
    G, h, W = affine_power(P, c, n @ np.asarray(C) @ n.T / params.M, params.K * R)
    mean = G @ np.concatenate([x0, x0]) + h
    m, S = mean[d:], W[d:, d:]
    return float((m @ (eig * m) + np.sum(eig * np.diag(S))) / 2)


def augmented_spectrum(start_eig, noise_eig, B, lam: float, params, R: int, sigma: float = 1.0) -> dict:
    """FedAc run on ``F~_lambda = F + (lambda/2)||x - x0||^2`` (B.44) for F = x' diag(h_s, h_n) x/2 (x* = 0, L = 1 >=
    h_s, h_n > 0), start x0 = B e_1 and noise sigma^2 e_2 e_2', direction by direction (the same numbers as
    :func:`augmented_gap_powered`): ``{"gap": E F(xbar_ag^(R,0)) - F*, "psi": E Psi^(R,0), "phi": E Phi^(R,0)}``, the
    potentials (3.9), (3.29) being those of F~_lambda with mu = lambda. Along the start's direction F~_lambda's
    minimiser is lambda B/(h_s + lambda) and the iterates' deviation from it is linear; along the noise's direction
    the minimiser is 0."""
    steps = params.K * R
    G = power2(fedac_block(start_eig + lam, params), steps)
    W = sums2(fedac_block(noise_eig + lam, params), fedac_noise(params, sigma**2 / params.M), steps)
    x_lam = lam * B / (start_eig + lam)
    dev_x, dev_ag = (G[0] + G[1]) * (B - x_lam), (G[2] + G[3]) * (B - x_lam)  # (x, x_ag) - x_lambda*
    gap = (start_eig * (x_lam + dev_ag) ** 2 + noise_eig * W[3]) / 2
    aug = ((start_eig + lam) * dev_ag**2 + (noise_eig + lam) * W[3]) / 2
    distance2 = dev_x**2 + W[0]
    return {"gap": float(gap), "psi": float(aug + lam / 2 * distance2), "phi": float(aug + lam / 6 * distance2)}


def engine_check(record: dict, fast, library) -> dict:
    """The search's worst entry (``record["best"]``) evaluated again by ``library`` (the library's engine on the
    explicit instance) beside ``fast`` (the 2x2 direction-by-direction engine the search ran), for the witness."""
    params = {k: v for k, v in record["best"].items() if k in record["domain"]}
    ours, theirs = fast(**params), library(**params)
    return {"2x2 engine": ours, "library engine": theirs, "relative difference": abs(ours / theirs - 1)}
