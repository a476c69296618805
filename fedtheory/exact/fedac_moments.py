"""Exact first and second moments of FedAc on homogeneous quadratics with additive noise.

On ``F(x) = 1/2 x'Ax - b'x`` with gradient noise of covariance ``C`` one FedAc step (Algorithm 2) is affine in
the client state ``z = (x, x_ag)``::

    md  = beta^-1 x + (1 - beta^-1) x_ag
    z+  = P z + c - n xi,     n = [gamma I; eta I],   c = [gamma b; eta b],
    P   = [[(1 - alpha^-1) I + beta^-1 (alpha^-1 I - gamma A), (1 - beta^-1)(alpha^-1 I - gamma A)],
           [beta^-1 (I - eta A),                               (1 - beta^-1)(I - eta A)]].

Clients start a round from the common server state and draw independent noise, and the server averages both
sequences, so the server state follows ``z' = P^K z + sum_j P^j c + w`` with ``Cov(w) = (1/M) sum_{j<K} P^j n C
n' P^j'``. The recursions ``m' = P^K m + c_K``, ``S' = P^K S P^K' + W`` are exact for any zero-mean noise with
covariance ``C``, and so are ``E F(x_ag) - F* = F(E x_ag) - F* + tr(A Cov(x_ag))/2`` and the potentials of (3.9)
and (3.29) at round boundaries.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import positive_int
from ..algorithms.fedac import FedAcParams
from ..errors import InvalidParameterError
from ..oracles import Oracle, check_replicated
from ..problems.quadratic import FederatedQuadratic
from .moments import affine_power, check_moments_finite, quadratic_and_cov


@dataclass(frozen=True)
class FedAcMoments:
    """Mean ``(R+1, 2, d)`` (rows ``x``, ``x_ag``) and covariance ``(R+1, 2d, 2d)`` of the server state at each
    round boundary ``(r, 0)``, r = 0..R, ordered ``(x, x_ag)``."""

    mean: np.ndarray
    cov: np.ndarray
    problem: FederatedQuadratic

    def _expected_gap(self, which: int) -> np.ndarray:
        d = self.problem.dim
        block = self.cov[:, which * d : (which + 1) * d, which * d : (which + 1) * d]
        return self.problem.expected_gap(self.mean[:, which], block)

    def _expected_distance2(self, which: int) -> np.ndarray:
        d = self.problem.dim
        block = self.cov[:, which * d : (which + 1) * d, which * d : (which + 1) * d]
        return np.sum((self.mean[:, which] - self.problem.x_star) ** 2, axis=-1) + np.trace(block, axis1=1, axis2=2)

    def suboptimality(self) -> np.ndarray:
        """``E F(x_ag^{(r,0)}) - F*`` for r = 0..R."""
        return self._expected_gap(1)

    def psi(self) -> np.ndarray:
        """``E Psi^{(r,0)} = E F(x_ag) - F* + (mu/2) E||x - x*||^2`` (3.9) at round boundaries."""
        return self._expected_gap(1) + 0.5 * self.problem.mu * self._expected_distance2(0)

    def phi(self) -> np.ndarray:
        """``E Phi^{(r,0)} = E F(x_ag) - F* + (mu/6) E||x - x*||^2`` (3.29) at round boundaries."""
        return self._expected_gap(1) + self.problem.mu / 6 * self._expected_distance2(0)


def step_map(problem: FederatedQuadratic, params: FedAcParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(P, c, n)`` of one FedAc step on ``problem`` (module docstring)."""
    if problem.n_clients is not None:
        raise InvalidParameterError("problem", "a homogeneous quadratic (FedAc's setting, n_clients None)", "clients")
    d, A, b = problem.dim, problem.A_mean, problem.b_mean
    eye = np.eye(d)
    a, bi = params.alpha_inv, params.beta_inv
    lower_ag = eye - params.eta * A
    lower_x = a * eye - params.gamma * A
    P = np.block([[(1 - a) * eye + bi * lower_x, (1 - bi) * lower_x], [bi * lower_ag, (1 - bi) * lower_ag]])
    c = np.concatenate([params.gamma * b, params.eta * b])
    n = np.vstack([params.gamma * eye, params.eta * eye])
    return P, c, n


def fedac_moments(oracle: Oracle, params: FedAcParams, x0, R: int, *, x_ag0=None) -> FedAcMoments:
    """Exact server moments of ``R`` FedAc rounds from the deterministic start ``(x0, x_ag0)`` (default ``x0``).

    Raises
    ------
    DivergenceError
        At the first round whose mean or covariance is not finite (the exact iterates blow up).
    """
    problem, C = quadratic_and_cov(oracle)
    R = positive_int("R", R, minimum=0)
    d = problem.dim
    x0 = check_replicated("x0", np.asarray(x0, dtype=float), d, 1)[0]
    x_ag0 = x0 if x_ag0 is None else check_replicated("x_ag0", np.asarray(x_ag0, dtype=float), d, 1)[0]
    P, c, n = step_map(problem, params)
    powers = [np.eye(2 * d)]
    for _ in range(params.K - 1):
        powers.append(P @ powers[-1])
    PK = P @ powers[-1]
    cK = sum(Pj @ c for Pj in powers)
    noise = n @ C @ n.T
    W = sum(Pj @ noise @ Pj.T for Pj in powers) / params.M
    means, covs = [np.concatenate([x0, x_ag0])], [np.zeros((2 * d, 2 * d))]
    for r in range(1, R + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            means.append(PK @ means[-1] + cK)
            covs.append(PK @ covs[-1] @ PK.T + W)
        check_moments_finite(params.variant, r, means[-1], covs[-1])
    mean = np.stack(means).reshape(R + 1, 2, d)
    return FedAcMoments(mean, np.stack(covs), problem)


def deviation_covariances(oracle: Oracle, params: FedAcParams) -> np.ndarray:
    """Covariance ``(K+1, 2d, 2d)`` of one client's state minus the clients' average, ``z_m - zbar``, after k local
    steps of a round (k = 0..K), ordered ``(x, x_ag)``; its mean is 0 on a homogeneous quadratic.

    Within a round every client applies the same affine map to the common start and adds its own noise
    ``-n xi_m``, so ``z_m - zbar = -sum_j P^(k-1-j) n (xi_m^j - mean_m' xi_m'^j)`` with covariance
    ``(1 - 1/M) sum_{j<k} P^j n C n' P^j'``. The difference of two clients has twice the per-client noise part,
    ``2 sum_j P^j n C n' P^j'`` (multiply by ``2 / (1 - 1/M)``).
    """
    problem, C = quadratic_and_cov(oracle)
    P, _, n = step_map(problem, params)
    noise = n @ C @ n.T
    out, acc, Pj = [np.zeros_like(noise)], np.zeros_like(noise), np.eye(P.shape[0])
    for _ in range(params.K):
        acc = acc + Pj @ noise @ Pj.T
        Pj = P @ Pj
        out.append((1 - 1 / params.M) * acc)
    return np.stack(out)


def powered_gap(problem: FederatedQuadratic, C: np.ndarray, params: FedAcParams, x0, R: int) -> float:
    """Exact ``E F(x_ag^(R,0)) - F*`` of FedAc from ``x = x_ag = x0`` with client noise covariance ``C``: the
    (K R)-fold power of the averaged step ``z+ = P z + c - n xibar``, ``Cov xibar = C/M`` (:func:`step_map`), by
    :func:`fedtheory.exact.moments.affine_power`, so that ``R`` in the millions costs ``O(log K R)`` products. Clients
    share the round's start and the map is affine, so the round average is the centralized step."""
    P, c, n = step_map(problem, params)
    G, h, W = affine_power(P, c, n @ C @ n.T / params.M, params.K * R)
    d = problem.dim
    mean = G @ np.concatenate([x0, x0]) + h
    return float(problem.expected_gap(mean[d:], W[d:, d:]))


def powered_potentials(problem: FederatedQuadratic, C: np.ndarray, params: FedAcParams, x0, R: int) -> tuple:
    """Exact ``(E Psi^(R,0), E Phi^(R,0))`` (:meth:`FedAcMoments.psi`, :meth:`FedAcMoments.phi`) of FedAc from ``x =
    x_ag = x0``, by binary powering as :func:`powered_gap` (``O(log K R)`` products instead of ``R`` rounds)."""
    P, c, n = step_map(problem, params)
    G, h, W = affine_power(P, c, n @ C @ n.T / params.M, params.K * R)
    d = problem.dim
    mean = G @ np.concatenate([x0, x0]) + h
    gap = float(problem.expected_gap(mean[d:], W[d:, d:]))
    distance2 = float(np.sum((mean[:d] - problem.x_star) ** 2) + np.trace(W[:d, :d]))
    return gap + problem.mu / 2 * distance2, gap + problem.mu / 6 * distance2
