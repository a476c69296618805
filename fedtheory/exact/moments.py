"""Exact first and second moments of FedAvg on quadratics with additive noise.

On ``F_m(x) = 1/2 x'A_m x - b_m'x`` with gradient noise of covariance ``C`` the client update is affine,
``x <- T_m x + eta b_m - eta xi`` with ``T_m = I - eta A_m``, so one FedAvg round is
``x^{(r+1,0)} = G x^{(r,0)} + c + w`` with (server step ``s``)::

    G = (1 - s) I + (s/M) sum_m T_m^K
    c = (s eta / M) sum_m sum_{j<K} T_m^j b_m
    Cov(w) = W = (s eta / M)^2 sum_m sum_{j<K} T_m^j C T_m^j'

and the mean and covariance of the server iterate follow ``mu' = G mu + c``, ``P' = G P G' + W``.
These recursions are exact for any zero-mean noise with covariance ``C`` (Gaussian or not), and so is
``E F(x) - F* = F(mu) - F* + tr(A_mean P)/2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import positive_int, psd_matrices
from ..algorithms.fedavg import FedAvgParams
from ..errors import DivergenceError, InvalidParameterError
from ..oracles import ExactGradient, Oracle, check_oracle, check_replicated
from ..problems.quadratic import FederatedQuadratic


@dataclass(frozen=True)
class RoundMap:
    """The affine-Gaussian round map ``x -> G x + c + w``, ``Cov(w) = W``."""

    G: np.ndarray
    c: np.ndarray
    W: np.ndarray


@dataclass(frozen=True)
class Moments:
    """Mean ``(R+1, d)`` and covariance ``(R+1, d, d)`` of ``x^{(r,0)}``, r = 0..R."""

    mean: np.ndarray
    cov: np.ndarray


def quadratic_and_cov(oracle: Oracle) -> tuple[FederatedQuadratic, np.ndarray]:
    """The quadratic an additive-noise oracle samples, and its noise covariance (zero for exact gradients)."""
    problem = check_oracle(oracle).problem
    if not isinstance(problem, FederatedQuadratic):
        raise InvalidParameterError("oracle", "an oracle on a FederatedQuadratic problem", type(problem).__name__)
    cov = np.zeros((problem.dim, problem.dim)) if isinstance(oracle, ExactGradient) else getattr(oracle, "cov", None)
    if cov is None:
        raise InvalidParameterError(
            "oracle", "an additive-noise oracle (AdditiveGaussian, Rademacher) or ExactGradient", type(oracle).__name__
        )
    return problem, cov


def round_map(oracle: Oracle, params: FedAvgParams) -> RoundMap:
    """The exact round map of FedAvg on a quadratic (module docstring)."""
    problem, C = quadratic_and_cov(oracle)
    problem.check_clients(params.M)
    d, eta, s = problem.dim, params.eta, params.eta_server
    # Identical clients: one client's map serves all M (their noises are independent).
    T = np.eye(d) - eta * (problem.A if problem.n_clients is not None else problem.A[:1])
    b = problem.b if problem.n_clients is not None else problem.b[:1]
    n_distinct = T.shape[0]
    power = np.broadcast_to(np.eye(d), T.shape).copy()  # T_m^j, batched over clients
    power_sum = np.zeros_like(T)
    noise_sum = np.zeros_like(T)
    for _ in range(params.K):
        power_sum += power
        noise_sum += power @ C @ np.swapaxes(power, -1, -2)
        power = T @ power
    weight = params.M if problem.n_clients is None else 1  # copies of each distinct client
    G = (1 - s) * np.eye(d) + s * power.mean(axis=0)
    c = s * eta * np.einsum("mij,mj->i", power_sum, b) / n_distinct
    W = (s * eta / params.M) ** 2 * weight * noise_sum.sum(axis=0)
    return RoundMap(G, c, W)


def fedavg_moments(oracle: Oracle, params: FedAvgParams, x0, R: int, *, x0_cov=None) -> Moments:
    """Mean and covariance of the server iterates of FedAvg for ``R`` rounds from ``x0``.

    Parameters
    ----------
    oracle : AdditiveGaussian, Rademacher or ExactGradient on a FederatedQuadratic
    params : FedAvgParams
    x0 : array (d,)
        Mean of the start point.
    R : int
    x0_cov : array (d, d), optional
        Covariance of a random start (default: deterministic start): finite, symmetric positive semidefinite.

    Raises
    ------
    DivergenceError
        At the first round whose mean or covariance is not finite (the exact iterates blow up).
    """
    problem, _ = quadratic_and_cov(oracle)
    R = positive_int("R", R, minimum=0)
    mean = check_replicated("x0", x0, problem.dim, 1)[0]
    cov = np.zeros((problem.dim, problem.dim)) if x0_cov is None else psd_matrices("x0_cov", x0_cov)
    if cov.shape != (problem.dim, problem.dim):
        raise InvalidParameterError("x0_cov", f"a ({problem.dim}, {problem.dim}) matrix", f"shape {cov.shape}")
    step = round_map(oracle, params)
    means, covs = [mean], [cov]
    for r in range(1, R + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            mean = step.G @ mean + step.c
            cov = step.G @ cov @ step.G.T + step.W
        check_moments_finite("FedAvg (exact moments)", r, mean, cov)
        means.append(mean)
        covs.append(cov)
    return Moments(np.stack(means), np.stack(covs))


def affine_power(G: np.ndarray, c: np.ndarray, W: np.ndarray, n: int):
    """``n``-fold composition of ``y -> G y + c + w`` (``Cov w = W``): ``(G^n, sum_j G^j c, sum_j G^j W G^j')``,
    j < n, in O(log n) products (composition ``(G2, c2, W2) o (G1, c1, W1) = (G2 G1, G2 c1 + c2, G2 W1 G2' +
    W2)``)."""
    out = (np.eye(len(c)), np.zeros_like(c), np.zeros_like(W))
    base = (G, c, W)
    while n:
        if n & 1:
            out = (base[0] @ out[0], base[0] @ out[1] + base[1], base[0] @ out[2] @ base[0].T + base[2])
        n >>= 1
        if n:
            base = (base[0] @ base[0], base[0] @ base[1] + base[1], base[0] @ base[2] @ base[0].T + base[2])
    return out


def check_moments_finite(algorithm: str, r: int, mean: np.ndarray, cov: np.ndarray) -> None:
    """Raise :class:`DivergenceError` at round ``r`` unless the exact mean and covariance are finite."""
    bad = [name for name, v in (("mean", mean), ("covariance", cov)) if not np.all(np.isfinite(v))]
    if bad:
        raise DivergenceError(algorithm, r, f"the {' and '.join(bad)} overflowed")


def expected_suboptimality(problem: FederatedQuadratic, moments: Moments) -> np.ndarray:
    """``E F(x) - F* = F(mu) - F* + tr(A_mean P) / 2`` for every recorded round."""
    return problem.expected_gap(moments.mean, moments.cov)


def weighted_average_gap(oracle: Oracle, eta: float, rho, M: int, x0) -> float:
    """Exact ``E F(sum_t rho_t xbar_t) - F* + (mu/2) E||xbar_n - x*||^2`` for local SGD with a common Hessian.

    With one Hessian for every client (a homogeneous :class:`FederatedQuadratic`) the shadow iterate is itself a
    chain, ``xbar+ = T xbar + eta b - eta mean_m xi_m`` (``T = I - eta A``), whatever the number of local steps
    between averagings, so the weighted sum ``S = sum_t rho_t xbar_t`` joins it in an affine-Gaussian state
    ``(xbar, S)`` whose mean and covariance are propagated exactly over the ``n = len(rho)`` steps.

    Parameters
    ----------
    oracle : additive-noise oracle or ExactGradient
        On a homogeneous :class:`FederatedQuadratic`; the noise of the ``M`` clients is independent.
    eta : float
        The local step size.
    rho : array (n,)
        The weight of ``xbar_t``, t = 0..n-1 (e.g. ``rho_t`` of a weighted-average theorem).
    M : int
        The number of clients averaged.
    x0 : array (d,)
        The common start.
    """
    problem, C = quadratic_and_cov(oracle)
    if problem.n_clients is not None:
        raise InvalidParameterError("oracle", "an oracle on a homogeneous FederatedQuadratic", problem.n_clients)
    M = positive_int("M", M)
    rho = np.asarray(rho, dtype=float)
    A, b, d = problem.A_mean, problem.b_mean, problem.dim
    Tm = np.eye(d) - eta * A
    W = eta**2 * C / M
    mx, mS = np.asarray(x0, dtype=float), np.zeros(d)
    Pxx, PSx, PSS = np.zeros((d, d)), np.zeros((d, d)), np.zeros((d, d))
    for r in rho:
        mS = mS + r * mx
        PSS = PSS + r * (PSx + PSx.T) + r**2 * Pxx
        PSx = (PSx + r * Pxx) @ Tm.T
        mx = Tm @ mx + eta * b
        Pxx = Tm @ Pxx @ Tm.T + W
    ex = mx - problem.x_star
    return float(problem.expected_gap(mS, PSS) + problem.mu / 2 * (ex @ ex + np.trace(Pxx)))


@dataclass(frozen=True)
class ClientMoments:
    """Exact joint moments of the client iterates ``x_m^{(r,k)}``, r < R, k = 0..K.

    Attributes
    ----------
    mean : (R, K+1, M, d)
    cov : (R, K+1, M d, M d)
        Joint covariance of the stacked clients (client-major).
    """

    mean: np.ndarray
    cov: np.ndarray

    @property
    def _shape(self) -> tuple[int, int]:
        return self.mean.shape[-2], self.mean.shape[-1]

    def _blocks(self) -> np.ndarray:
        M, d = self._shape
        return self.cov.reshape(*self.cov.shape[:2], M, d, M, d)

    def shadow(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean (R, K+1, d) and covariance (R, K+1, d, d) of the average ``xbar^{(r,k)}``."""
        return self.mean.mean(axis=2), self._blocks().mean(axis=(2, 4))

    def deviation(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean (R, K+1, M, d) and covariance (R, K+1, M, d, d) of ``x_m - xbar`` for each client."""
        M = self._shape[0]
        P = np.eye(M) - np.full((M, M), 1.0 / M)  # x_m - xbar = sum_j P_mj x_j
        blocks = self._blocks()
        cov = np.einsum("mj,rkjanb,mn->rkmab", P, blocks, P)
        return np.einsum("mj,rkja->rkma", P, self.mean), cov

    def pair_difference(self, m1: int = 0, m2: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Mean and covariance of ``x_{m1} - x_{m2}``."""
        b = self._blocks()
        cov = b[:, :, m1, :, m1] + b[:, :, m2, :, m2] - b[:, :, m1, :, m2] - b[:, :, m2, :, m1]
        return self.mean[:, :, m1] - self.mean[:, :, m2], cov


def gaussian_norm_moments(mean: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``E||v||^2`` and ``E||v||^4`` for Gaussian ``v ~ N(mean, cov)`` (batched over leading axes).

    ``E||v||^4 = (||mu||^2 + tr C)^2 + 2 tr(C^2) + 4 mu'C mu``; the second moment holds for any law.
    """
    tr = np.trace(cov, axis1=-2, axis2=-1)
    mu2 = np.sum(mean**2, axis=-1)
    second = mu2 + tr
    fourth = (
        second**2 + 2 * np.einsum("...ij,...ji->...", cov, cov) + 4 * np.einsum("...i,...ij,...j->...", mean, cov, mean)
    )
    return second, fourth


def fedavg_client_moments(oracle: Oracle, params: FedAvgParams, x0, R: int) -> ClientMoments:
    """Exact joint mean and covariance of every client at every local step of FedAvg on a quadratic.

    The augmented state ``(x_server, x_1, ..., x_M)`` evolves linearly: within a round each client applies
    ``x <- T_m x + eta b_m - eta xi`` (independent noise of covariance ``C``) and the server component waits;
    at the round's end ``x_server <- (1 - s) x_server + (s/M) sum_m x_m`` and every client is reset to it.
    Exact for the mean and covariance under any zero-mean noise with covariance ``C``.
    """
    problem, C = quadratic_and_cov(oracle)
    problem.check_clients(params.M)
    R = positive_int("R", R, minimum=1)
    M, d, eta, s = params.M, problem.dim, params.eta, params.eta_server
    A = problem.A if problem.n_clients is not None else np.broadcast_to(problem.A[0], (M, d, d))
    b = problem.b if problem.n_clients is not None else np.broadcast_to(problem.b[0], (M, d))
    n = (M + 1) * d
    T = np.eye(n)
    for m in range(M):  # block-diagonal step map; the server block stays the identity
        T[(m + 1) * d : (m + 2) * d, (m + 1) * d : (m + 2) * d] -= eta * A[m]
    c = np.concatenate([np.zeros(d), eta * b.reshape(-1)])
    W = np.zeros((n, n))
    W[d:, d:] = np.kron(np.eye(M), eta**2 * C)
    reset = np.vstack([np.eye(d)] + [np.eye(d)] * M)  # server value copied to every slot
    average = np.hstack([(1 - s) * np.eye(d)] + [s / M * np.eye(d)] * M)
    mean_s = check_replicated("x0", x0, d, 1)[0]
    cov_s = np.zeros((d, d))
    means, covs = np.empty((R, params.K + 1, M, d)), np.empty((R, params.K + 1, M * d, M * d))
    for r in range(R):
        with np.errstate(over="ignore", invalid="ignore"):
            mu, P = reset @ mean_s, reset @ cov_s @ reset.T
            for k in range(params.K + 1):
                means[r, k] = mu[d:].reshape(M, d)
                covs[r, k] = P[d:, d:]
                if k < params.K:
                    mu, P = T @ mu + c, T @ P @ T.T + W
            mean_s, cov_s = average @ mu, average @ P @ average.T
        check_moments_finite("FedAvg (exact client moments)", r + 1, mean_s, cov_s)
    return ClientMoments(means, covs)
