"""FedAc (federated accelerated SGD) and the accelerated baselines, vectorised over replicas and clients.

Algorithm 2 of the thesis, with hyperparameters ``(alpha, beta, eta, gamma)`` stored as
``alpha_inv = 1/alpha`` and ``beta_inv = 1/beta`` (so ``beta = infinity`` is ``beta_inv = 0``)::

    x_md   = beta^-1 x + (1 - beta^-1) x_ag
    g      = grad f(x_md; xi)                                  one oracle call per local step
    x_ag+  = x_md - eta g
    x+     = (1 - alpha^-1) x + alpha^-1 x_md - gamma g

Every client starts a round from the broadcast pair ``(x, x_ag)``; after ``K`` local steps the server averages
both sequences. The output is ``x_ag``. Prescribed hyperparameters: FedAc-I (3.2), FedAc-II (3.3), both with
``gamma = max(sqrt(eta/(mu K)), eta)`` (the acceleration-stability trade-off); vanilla FedAc
(``gamma = sqrt(eta/mu)``, section 3.7.3); Nesterov's AGD (Algorithm 3) is FedAc with
``alpha = sqrt(kappa)``, ``beta = sqrt(kappa) + 1``, ``eta = 1/L``, ``gamma = 1/sqrt(L mu)``.

Arrays have shape ``(S, M, d)`` as in :mod:`fedtheory.algorithms.fedavg`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import InvalidParameterError
from ..kernels import fedac_local_steps, fused_oracle
from ..oracles import Oracle, check_oracle, check_replicated
from .fedavg import check_finite


@dataclass(frozen=True)
class FedAcParams:
    """Hyperparameters of FedAc (Algorithm 2) and the run's shape.

    Parameters
    ----------
    eta, gamma : float
        Step sizes of the ``x_ag`` and ``x`` sequences (> 0).
    alpha_inv, beta_inv : float
        ``1/alpha`` in (0, 1] and ``1/beta`` in [0, 1] (the analysis needs ``alpha, beta >= 1``).
    K, M : int
        Local steps per round and clients.
    variant : str
        A label recorded in reports ("FedAc-I", "FedAc-II", "vanilla", "AGD", "custom").
    """

    eta: float
    gamma: float
    alpha_inv: float
    beta_inv: float
    K: int
    M: int
    variant: str = "custom"

    def __post_init__(self):
        positive("eta", self.eta)
        positive("gamma", self.gamma)
        positive_int("K", self.K)
        positive_int("M", self.M)
        if not 0 < self.alpha_inv <= 1:
            raise InvalidParameterError("alpha_inv", "1/alpha in (0, 1] (alpha >= 1)", self.alpha_inv)
        if not 0 <= self.beta_inv <= 1:
            raise InvalidParameterError("beta_inv", "1/beta in [0, 1] (beta >= 1, infinity allowed)", self.beta_inv)

    @property
    def alpha(self) -> float:
        return 1 / self.alpha_inv

    @property
    def beta(self) -> float:
        return np.inf if self.beta_inv == 0 else 1 / self.beta_inv


def _check_mu_eta(eta: float, mu: float, L: float | None) -> tuple[float, float]:
    eta, mu = positive("eta", eta), positive("mu", mu)
    if eta * mu > 1:
        raise InvalidParameterError("eta", "eta <= 1/mu (so that gamma mu <= 1 and alpha, beta >= 1)", eta)
    if L is not None and eta > 1 / positive("L", L) * (1 + 1e-12):
        raise InvalidParameterError("eta", f"eta in (0, 1/L] = (0, {1 / L:.6g}]", eta)
    return eta, mu


def prescribed_gamma(eta: float, mu: float, K: int) -> float:
    """``gamma = max{sqrt(eta/(mu K)), eta}``, eqs. (3.2)-(3.3)."""
    return max(np.sqrt(eta / (mu * positive_int("K", K))), eta)


def inverse_coefficients(gamma_mu, variant: str = "FedAc-I"):
    """``(1/alpha, 1/beta)`` as functions of ``gamma mu``: (3.2) for FedAc-I and vanilla FedAc (``gamma mu``,
    ``gamma mu/(1 + gamma mu)``), (3.3) for FedAc-II (``2 gamma mu/(3 - gamma mu)``, ``3 gamma mu (1 - gamma mu)/
    (9 - 6 gamma mu - gamma^2 mu^2)``, clipped at 0 for ``gamma mu = 1``). Works on floats, arrays and Fractions
    (FedAc-I)."""
    gm = gamma_mu
    if variant == "FedAc-II":
        return 2 * gm / (3 - gm), np.maximum(3 * gm * (1 - gm) / (9 - 6 * gm - gm**2), 0.0)
    return gm, gm / (1 + gm)


def fedac_i(eta: float, mu: float, K: int, M: int, *, L: float | None = None) -> FedAcParams:
    """FedAc-I, eq. (3.2): ``alpha = 1/(gamma mu)``, ``beta = alpha + 1``, prescribed ``gamma``.

    ``L`` (optional) checks ``eta <= 1/L``, the range of every lemma.
    """
    eta, mu = _check_mu_eta(eta, mu, L)
    gamma = prescribed_gamma(eta, mu, K)
    return FedAcParams(eta, gamma, *inverse_coefficients(gamma * mu), K, M, "FedAc-I")


def fedac_ii(eta: float, mu: float, K: int, M: int, *, L: float | None = None) -> FedAcParams:
    """FedAc-II, eq. (3.3): ``alpha = 3/(2 gamma mu) - 1/2``, ``beta = (2 alpha^2 - 1)/(alpha - 1)``.

    In closed form ``1/alpha = 2 gamma mu/(3 - gamma mu)`` and ``1/beta = 3 gamma mu (1 - gamma mu)/(9 - 6 gamma mu
    - gamma^2 mu^2)`` (proof of Proposition B.6), which also covers ``gamma mu = 1`` (``alpha = 1``, ``beta =
    infinity``).
    """
    eta, mu = _check_mu_eta(eta, mu, L)
    gamma = prescribed_gamma(eta, mu, K)
    alpha_inv, beta_inv = inverse_coefficients(gamma * mu, "FedAc-II")
    return FedAcParams(eta, gamma, alpha_inv, float(beta_inv), K, M, "FedAc-II")


def vanilla(eta: float, mu: float, K: int, M: int, *, L: float | None = None) -> FedAcParams:
    """Vanilla FedAc (section 3.7.3, no trade-off): ``gamma = sqrt(eta/mu)``, ``alpha = 1/(gamma mu)``,
    ``beta = alpha + 1``."""
    eta, mu = _check_mu_eta(eta, mu, L)
    gamma = float(np.sqrt(eta / mu))
    return FedAcParams(eta, gamma, *inverse_coefficients(gamma * mu), K, M, "vanilla")


def agd_params(L: float, mu: float, *, K: int = 1, M: int = 1) -> FedAcParams:
    """Algorithm 3 as FedAc: ``alpha = sqrt(kappa)``, ``beta = sqrt(kappa) + 1``, ``eta = 1/L``,
    ``gamma = 1/sqrt(L mu)``."""
    L, mu = positive("L", L), positive("mu", mu)
    if mu > L:
        raise InvalidParameterError("mu", f"0 < mu <= L = {L:g}", mu)
    root = np.sqrt(L / mu)
    return FedAcParams(1 / L, 1 / np.sqrt(L * mu), 1 / root, 1 / (root + 1), K, M, "AGD")


@dataclass
class FedAcState:
    """Server pair ``(x^{(r,0)}, x_ag^{(r,0)})`` of every replica, shapes ``(S, d)``, and the round counter."""

    x: np.ndarray
    x_ag: np.ndarray
    r: int = 0


@dataclass
class FedAcTrajectory:
    """Recorded server pairs, shapes ``(n_records, S, d)``, at rounds ``t``."""

    x: np.ndarray
    x_ag: np.ndarray
    t: np.ndarray

    @property
    def final(self) -> np.ndarray:
        """The output ``x_ag^{(R,0)}`` of every replica, shape ``(S, d)``."""
        return self.x_ag[-1]


def init(x0, S: int = 1, *, x_ag0=None, dim: int | None = None) -> FedAcState:
    """State with every replica at ``x = x0`` and ``x_ag = x_ag0`` (default ``x0``, as Algorithm 2 starts)."""
    S = positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    dim = dim if dim is not None else x0.shape[-1]
    x = check_replicated("x0", x0, dim, S)
    x_ag = x.copy() if x_ag0 is None else check_replicated("x_ag0", np.asarray(x_ag0, dtype=float), dim, S)
    return FedAcState(x, x_ag)


def local_steps(
    x: np.ndarray, x_ag: np.ndarray, oracle: Oracle, params: FedAcParams, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``params.K`` FedAc steps (Algorithm 2) of every client; ``x, x_ag`` of shape ``(S, M, d)``.

    A :class:`~fedtheory.oracles.Minibatch` oracle on logistic regression or least squares runs the fused kernel of
    :mod:`fedtheory.kernels` (same random indices, same iterates to rounding) unless the kernels are set to numpy.
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    a, b = params.alpha_inv, params.beta_inv
    spec = fused_oracle(oracle) if np.ndim(x) == 3 else None
    if spec is not None:
        return fedac_local_steps(spec, x, x_ag, generator("rng", rng), params.K, params.eta, a, b, params.gamma)
    for _ in range(params.K):
        md = b * x + (1 - b) * x_ag
        g = oracle(md, rng)
        x_ag = md - params.eta * g
        x = (1 - a) * x + a * md - params.gamma * g
    return x, x_ag


def round(state: FedAcState, oracle: Oracle, params: FedAcParams, rng: np.random.Generator) -> FedAcState:
    """One FedAc round: broadcast both sequences, ``K`` local steps, average both.

    ``rng`` may be None only when the oracle draws nothing (:class:`~fedtheory.oracles.ExactGradient`).
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    oracle.problem.check_clients(params.M)
    S, d = state.x.shape
    shape = (S, params.M, d)
    with np.errstate(over="ignore", invalid="ignore"):
        x, x_ag = local_steps(
            np.broadcast_to(state.x[:, None, :], shape),
            np.broadcast_to(state.x_ag[:, None, :], shape),
            oracle,
            params,
            rng,
        )
    return FedAcState(x.mean(axis=1), x_ag.mean(axis=1), state.r + 1)


def run(
    oracle: Oracle,
    x0,
    params: FedAcParams,
    R: int,
    rng: np.random.Generator,
    *,
    S: int = 1,
    x_ag0=None,
    record_every: int = 1,
) -> FedAcTrajectory:
    """``R`` rounds of FedAc on ``S`` replicas, recording ``(x, x_ag)`` every ``record_every`` rounds.

    Raises
    ------
    DivergenceError
        At the first round whose server pair is not finite.
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    R = positive_int("R", R, minimum=0)
    record_every = positive_int("record_every", record_every)
    state = init(x0, S, x_ag0=x_ag0, dim=oracle.problem.dim)
    xs, ags, ts = [state.x], [state.x_ag], [0]
    for _ in range(R):
        state = round(state, oracle, params, rng)
        check_finite(np.concatenate([state.x, state.x_ag], axis=-1), params.variant, state.r)
        if state.r % record_every == 0 or state.r == R:
            xs.append(state.x)
            ags.append(state.x_ag)
            ts.append(state.r)
    return FedAcTrajectory(np.stack(xs), np.stack(ags), np.asarray(ts))


def minibatch_accelerated_sgd(
    oracle: Oracle, x0, eta: float, mu: float, R: int, rng: np.random.Generator, *, M: int, K: int, S: int = 1
) -> FedAcTrajectory:
    """MB-AC-SGD (section 3.7.1): ``R`` accelerated steps with batch ``M K``.

    The thesis leaves the variant open ("determined by the strong-convexity estimate mu"); this is generalized
    AC-SA with ``gamma = sqrt(eta/mu)``, ``alpha = 1/(gamma mu)``, ``beta = alpha + 1``, i.e. vanilla FedAc with
    one local step on ``M K`` clients.
    """
    params = vanilla(eta, mu, 1, positive_int("M", M) * positive_int("K", K))
    return run(oracle, x0, params, R, rng, S=S)


class L2Augmented(Oracle):
    """The oracle of ``F(x) + (lam/2)||x - center||^2`` (appendix B.3, eq. (B.44)): ``grad f(x; xi) + lam (x -
    center)``. The augmented function is ``lam``-strongly convex and ``(L + lam)``-smooth with the same noise."""

    def __init__(self, oracle: Oracle, lam: float, center):
        self.oracle = check_oracle(oracle)
        self.problem = oracle.problem
        self.lam = positive("lam", lam)
        self.center = check_replicated("center", np.asarray(center, dtype=float), oracle.problem.dim, 1)[0]

    def __call__(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self.oracle(x, rng) + self.lam * (x - self.center)
