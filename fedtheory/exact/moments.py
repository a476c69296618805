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

from .._validate import positive_int
from ..algorithms.fedavg import FedAvgParams
from ..errors import InvalidParameterError
from ..oracles import ExactGradient, Oracle, check_replicated
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


def _quadratic_and_cov(oracle: Oracle) -> tuple[FederatedQuadratic, np.ndarray]:
    problem = oracle.problem
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
    problem, C = _quadratic_and_cov(oracle)
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
        Covariance of a random start (default: deterministic start).
    """
    problem, _ = _quadratic_and_cov(oracle)
    R = positive_int("R", R, minimum=0)
    mean = check_replicated("x0", x0, problem.dim, 1)[0]
    cov = np.zeros((problem.dim, problem.dim)) if x0_cov is None else np.asarray(x0_cov, dtype=float)
    step = round_map(oracle, params)
    means, covs = [mean], [cov]
    for _ in range(R):
        mean = step.G @ mean + step.c
        cov = step.G @ cov @ step.G.T + step.W
        means.append(mean)
        covs.append(cov)
    return Moments(np.stack(means), np.stack(covs))


def expected_suboptimality(problem: FederatedQuadratic, moments: Moments) -> np.ndarray:
    """``E F(x) - F* = F(mu) - F* + tr(A_mean P) / 2`` for every recorded round."""
    trace = np.einsum("ij,rji->r", problem.A_mean, moments.cov)
    return problem.value(moments.mean) - problem.f_star + 0.5 * trace
