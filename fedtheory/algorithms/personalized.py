"""Personalised federated methods, vectorised over replicas and clients, one round per call: Per-FedAvg (first
order), pFedMe, Ditto, the personalised primal-dual method (first-order meta-steps on the multiplier-weighted local
Lagrangian), and the one-step fine-tune used to personalise a model.

Sampling and server weights are those of :mod:`fedtheory.algorithms.client_server` (uniform without replacement per
replica, data-size or equal weights), and so is the local work: only the sampled clients' where the oracle evaluates
a subset of the clients, with the draws of a call at every client; arrays are ``(S, N, d)``.

* Per-FedAvg, first order (Fallah, Mokhtari, Ozdaglar 2020): ``K`` local steps from the server model, each ``v = w -
  alpha g(w)``, ``w <- w - beta g(v)``; then the weighted mean.
* pFedMe (T Dinh, Tran, Nguyen 2020): ``R`` local rounds from the server model, each ``theta = argmin_theta f_i(theta)
  + (mu/2)||theta - w||^2`` (``K`` inner gradient steps from ``w`` with step ``inner_lr``, or the closed form on
  quadratics), then ``w <- w - eta mu (w - theta)``; the server takes ``(1 - server_beta) x + server_beta`` (mean).
* Ditto (Li, Hu, Beirami, Smith 2021, Algorithm 1): the global model ``w`` follows FedAvg (``K`` local steps of
  step ``lr`` from ``w^t``, the weighted mean of the sampled clients); each sampled client also takes ``s`` steps ``v
  <- v - eta (g(v) + lam (v - w^t))`` on its personal model ``v`` (kept across rounds; ``lam >= 0`` a constant).
* Personalised primal-dual: from the server model ``z`` (cold start), ``K`` outer steps, each ``J`` inner steps ``v
  <- v - alpha (g(v) + 2 lam (v - z))`` from ``w`` followed by ``w <- w - beta g(v)``; then the projected dual step
  ``lam <- clip(lam + alpha_lam (||x - z||^2 - gamma), lam_box)`` and the multiplier-weighted server step of
  :mod:`fedtheory.algorithms.primal_dual` (non-sampled devices keep ``x`` and ``lam``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import InvalidParameterError
from ..oracles import Oracle, check_oracle, check_replicated
from ..problems import FederatedQuadratic
from . import primal_dual as pd
from .client_server import ClientServerParams, aggregate, start_round
from .client_server import local_steps as cs_local_steps


@dataclass(frozen=True)
class PerFedAvgParams:
    """Inner step ``alpha >= 0``, outer step ``beta > 0``, ``K`` local steps, ``N`` clients, ``participants``,
    ``sizes`` (``None``: equal server weights)."""

    alpha: float
    beta: float
    K: int
    N: int
    participants: int
    sizes: tuple[float, ...] | None = None

    def __post_init__(self):
        positive("alpha", self.alpha, allow_zero=True)
        ClientServerParams(self.beta, self.K, self.N, self.participants, self.sizes)  # the shared checks


def per_fedavg_round(x: np.ndarray, oracle: Oracle, params: PerFedAvgParams, rng) -> np.ndarray:
    """One first-order Per-FedAvg round from server models ``x`` ``(S, d)``."""
    r = start_round(x, params.N, params.participants, oracle, rng)
    w = r.w0
    for _ in range(params.K):
        v = w - params.alpha * r.at(w, r.rng)
        w = w - params.beta * r.at(v, r.rng)
    weights = ClientServerParams(params.beta, params.K, params.N, params.participants, params.sizes).weights
    return aggregate(r.full(w), r.mask, weights)


def fine_tune(x: np.ndarray, oracle: Oracle, lr: float, rng) -> np.ndarray:
    """One step ``x_i - lr g_i(x_i)`` per client from server models ``(S, d)`` or local models ``(S, N, d)``;
    returns ``(S, N, d)``."""
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    lr = positive("lr", lr)
    x = np.asarray(x, dtype=float)
    N = oracle.problem.n_clients
    if x.ndim == 2:
        if N is None:
            raise InvalidParameterError("x", "local models (S, N, d) for a problem with identical clients")
        x = np.broadcast_to(x[:, None, :], (x.shape[0], N, x.shape[1]))
    return x - lr * oracle(x, rng)


@dataclass(frozen=True)
class PFedMeParams:
    """Local step ``eta``, prox weight ``mu > 0``, ``K`` inner steps of step ``inner_lr``, ``R`` local rounds,
    ``N`` clients, ``participants``, server mixing ``server_beta > 0`` (1: plain averaging), ``sizes``, and
    ``exact`` (the closed-form inner solution on quadratics)."""

    eta: float
    mu: float
    K: int
    inner_lr: float
    R: int
    N: int
    participants: int
    server_beta: float = 1.0
    sizes: tuple[float, ...] | None = None
    exact: bool = False

    def __post_init__(self):
        positive("mu", self.mu)
        positive("inner_lr", self.inner_lr)
        positive_int("R", self.R)
        positive("server_beta", self.server_beta)
        ClientServerParams(self.eta, self.K, self.N, self.participants, self.sizes)


def prox_quadratic(problem: FederatedQuadratic, w: np.ndarray, mu: float, clients=None) -> np.ndarray:
    """``argmin_theta f_i(theta) + (mu/2)||theta - w_i||^2 = (A_i + mu I)^{-1}(b_i + mu w_i)`` for ``w`` ``(S, N, d)``
    and ``f_i = theta'A_i theta/2 - b_i'theta``; given client indices ``clients`` ``(S, P)``, client ``clients[s,
    j]``'s at ``w[s, j]`` for ``w`` ``(S, P, d)``."""
    if not isinstance(problem, FederatedQuadratic):
        raise InvalidParameterError("problem", "a FederatedQuadratic for the closed-form inner solution")
    A, b = problem.A, problem.b
    if clients is not None and problem.n_clients is not None:
        w, clients = problem.check_client_subset(w, clients)
        A, b = A[clients], b[clients]
    H = A + positive("mu", mu) * np.eye(problem.dim)
    return np.linalg.solve(H, (b + mu * np.asarray(w, dtype=float))[..., None])[..., 0]


def prox_steps(w: np.ndarray, oracle: Oracle, mu: float, inner_lr: float, K: int, rng) -> np.ndarray:
    """``K`` steps ``theta <- theta - inner_lr (g(theta) + mu (theta - w))`` from ``theta = w`` ``(S, N, d)``."""
    theta = np.array(w, dtype=float)
    for _ in range(K):
        theta = theta - inner_lr * (oracle(theta, rng) + mu * (theta - w))
    return theta


def pfedme_round(x: np.ndarray, oracle: Oracle, params: PFedMeParams, rng) -> np.ndarray:
    """One pFedMe round from server models ``x`` ``(S, d)``."""
    r = start_round(x, params.N, params.participants, oracle, rng)
    w, subset = r.w0, None if r.clients.shape[1] == params.N else r.clients
    for _ in range(params.R):
        if params.exact:
            theta = prox_quadratic(oracle.problem, w, params.mu, subset)
        else:
            theta = prox_steps(w, r.at, params.mu, params.inner_lr, params.K, r.rng)
        w = w - params.eta * params.mu * (w - theta)
    weights = ClientServerParams(params.eta, params.K, params.N, params.participants, params.sizes).weights
    return x + params.server_beta * (aggregate(r.full(w), r.mask, weights) - x)


@dataclass(frozen=True)
class PersonalizedPrimalDualParams:
    """Inner step ``alpha``, outer step ``beta``, dual step ``alpha_lam >= 0``, ``K`` outer and ``J`` inner steps,
    ``N`` devices, ``participants``, the multiplier box ``lam_box`` and the tolerance heuristic's ``eta_gamma``."""

    alpha: float
    beta: float
    alpha_lam: float
    K: int
    J: int
    N: int
    participants: int
    lam_box: tuple[float, float] = (0.0, np.inf)
    eta_gamma: float = 0.0

    def __post_init__(self):
        positive("alpha", self.alpha)
        positive_int("J", self.J)
        pd.PrimalDualParams(
            self.beta, self.alpha_lam, self.K, self.N, self.participants, self.lam_box, eta_gamma=self.eta_gamma
        )  # the shared checks


def personalized_primal_dual_round(
    state: pd.PrimalDualState, oracle: Oracle, params: PersonalizedPrimalDualParams, rng
) -> pd.PrimalDualState:
    """One round of the personalised primal-dual method (module docstring); returns the new state."""
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    S, N, d = state.x.shape
    if N != params.N:
        raise InvalidParameterError("params", f"N = {N} devices as in the state", params.N)
    mask = pd.sample(S, N, params.participants, rng)
    clients = pd.working_set(oracle, mask)
    at = pd.subset_oracle(oracle, clients, N)
    z, lam = state.z[:, None, :], pd.gather(state.lam, clients)[..., None]
    w = np.broadcast_to(z, (S, clients.shape[1], d))
    for _ in range(params.K):
        v = w
        for _ in range(params.J):
            v = v - params.alpha * (at(v, rng) + 2 * lam * (v - z))
        w = w - params.beta * at(v, rng)
    x = np.where(mask[..., None], pd.scatter(state.x, clients, w), state.x)
    drift = np.sum((x - z) ** 2, axis=-1)
    lam_new = np.where(mask, np.clip(state.lam + params.alpha_lam * (drift - state.gamma), *params.lam_box), state.lam)
    gamma = np.where(mask, state.gamma + params.eta_gamma * state.lam, state.gamma)
    z_new = pd.server_step(x, lam_new, mask, state.t + 1, name="personalised primal-dual")
    return pd.PrimalDualState(z_new, x, lam_new, gamma, state.t + 1, mask)


@dataclass(frozen=True)
class DittoParams:
    """Personal step ``eta > 0``, regularisation ``lam >= 0`` (a constant), ``s`` personal steps per round, the
    global model's FedAvg local step ``lr`` and ``K`` local steps, ``N`` clients, ``participants``, ``sizes``
    (``None``: equal server weights)."""

    eta: float
    lam: float
    s: int
    lr: float
    K: int
    N: int
    participants: int
    sizes: tuple[float, ...] | None = None

    def __post_init__(self):
        positive("eta", self.eta)
        positive("lam", self.lam, allow_zero=True)
        positive_int("s", self.s)
        ClientServerParams(self.lr, self.K, self.N, self.participants, self.sizes)  # the shared checks


@dataclass
class DittoState:
    """Global models ``w`` ``(S, d)``, personal models ``v`` ``(S, N, d)``, the round ``t`` and the clients sampled
    in the last round ``sampled`` ``(S, N)``."""

    w: np.ndarray
    v: np.ndarray
    t: int = 0
    sampled: np.ndarray | None = None


def ditto_init(w0, N: int, *, S: int = 1, dim: int | None = None) -> DittoState:
    """Global and personal models all start at ``w0``."""
    N, S = positive_int("N", N), positive_int("S", S)
    w0 = np.asarray(w0, dtype=float)
    w = check_replicated("w0", w0, dim if dim is not None else w0.shape[-1], S)
    return DittoState(w, np.broadcast_to(w[:, None, :], (S, N, w.shape[-1])).copy())


def ditto_personal_steps(v, w, oracle: Oracle, eta: float, lam: float, s: int, rng) -> np.ndarray:
    """``s`` steps ``v <- v - eta (g(v) + lam (v - w))`` from ``v`` ``(S, N, d)`` towards ``w`` ``(S, d)``."""
    v, ww = np.array(v, dtype=float), w[:, None, :]
    for _ in range(s):
        v = v - eta * (oracle(v, rng) + lam * (v - ww))
    return v


def ditto_round(state: DittoState, oracle: Oracle, params: DittoParams, rng) -> DittoState:
    """One Ditto round (module docstring): the personal steps of the sampled clients, then the global model's local
    steps and the server mean; clients not sampled keep their personal models."""
    N = state.v.shape[1]
    if N != params.N:
        raise InvalidParameterError("params", f"N = {N} clients as in the state", params.N)
    r = start_round(state.w, N, params.participants, oracle, rng)
    v = ditto_personal_steps(pd.gather(state.v, r.clients), state.w, r.at, params.eta, params.lam, params.s, r.rng)
    v = np.where(r.mask[..., None], pd.scatter(state.v, r.clients, v), state.v)
    weights = ClientServerParams(params.lr, params.K, N, params.participants, params.sizes).weights
    w = aggregate(r.full(cs_local_steps(r.w0, r.at, params.lr, params.K, r.rng)), r.mask, weights)
    return DittoState(w, v, state.t + 1, r.mask)
