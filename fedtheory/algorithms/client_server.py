"""Server-client baselines with partial participation, vectorised over replicas and clients: FedAvg, FedProx,
SCAFFOLD (option II) and q-FedAvg, one round per call.

Every round samples ``participants`` of the ``N`` clients uniformly without replacement, independently per replica
(:func:`fedtheory.algorithms.primal_dual.sample`: the sample is drawn first, so two methods given generators with one
seed sample the same clients). The local steps (one array operation for all the clients computed) run at the
sampled clients only where the oracle evaluates a subset of the clients (``oracle.client_subsets``: it draws what a
call at every client draws and uses the sampled clients' part); otherwise at every client, the non-sampled ones
masked out of the server step. Both give the same round, to rounding. The server averages with data-size weights
``n_k / sum_{l in P} n_l`` over the sampled set ``P`` (``sizes``) or equal weights (``sizes=None``). Arrays are
``(S, N, d)`` (replicas, clients, coordinates); server models are ``(S, d)``.

* FedAvg (McMahan et al. 2017): ``K`` steps ``w <- w - eta g_k(w)`` from the server model, then the weighted mean.
* FedProx (Li et al. 2020): ``K`` steps on ``f_k(w) + (mu/2)||w - w^t||^2`` from ``w^t`` (an inexact local
  minimisation), then the weighted mean.
* SCAFFOLD, option II (Karimireddy et al. 2020): ``y <- y - eta (g_i(y) - c_i + c)`` for ``K`` steps from ``x``;
  ``c_i^+ = c_i - c + (x - y)/(K eta)``; server ``x <- x + eta_g`` (weighted mean of ``y - x``) and ``c <- c + (1/N)
  sum_{i in P} (c_i^+ - c_i)``.
* q-FedAvg (Li, Sanjabi, Beirami, Smith 2019): ``w̄_k`` by ``K`` local steps from ``w^t``; ``Delta w_k = L_q (w^t -
  w̄_k)``, ``Delta_k = F_k(w^t)^q Delta w_k``, ``h_k = q F_k(w^t)^{q-1} ||Delta w_k||^2 + L_q F_k(w^t)^q`` and
  ``w^{t+1} = w^t - sum_P Delta_k / sum_P h_k`` (``L_q = 1/eta`` by default). ``variant="code"`` is the variant
  of some public implementations: ``||w^t - w̄_k||^2`` (no ``L_q^2``) inside ``h_k``, and ``Delta_k``, ``h_k``
  weighted by the data sizes. Only the sampled clients' values ``F_k(w^t)`` are evaluated (:func:`client_values`
  with ``clients``: on a problem that evaluates listed clients only, e.g. softmax regression, a round costs the
  sampled clients' data, not every client's).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._validate import finite_array, generator, integer_array, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError
from ..oracles import Oracle, check_oracle, check_replicated
from ..problems import FederatedQuadratic
from ..problems.base import Problem
from .primal_dual import device_steps, gather, ragged_steps, sample, scatter, subset_oracle, working_set

Q_VARIANTS = ("paper", "code")


@dataclass(frozen=True)
class ClientServerParams:
    """Local step ``eta``, ``K`` local steps (or one count per client ``(N,)``), ``N`` clients, ``participants``
    sampled per round, and the data sizes ``sizes`` ``(N,)`` of the server's weights (``None``: equal weights)."""

    eta: float
    K: int | tuple[int, ...]
    N: int
    participants: int
    sizes: tuple[float, ...] | None = None

    def __post_init__(self):
        positive("eta", self.eta)
        positive_int("N", self.N)
        object.__setattr__(self, "K", device_steps(self.K, self.N))
        if not 1 <= self.participants <= self.N:
            raise InvalidParameterError("participants", f"an integer in [1, N = {self.N}]", self.participants)
        if self.sizes is not None:
            sizes = finite_array("sizes", self.sizes, ndim=1)
            if sizes.shape != (self.N,) or np.any(sizes <= 0):
                raise InvalidParameterError("sizes", f"N = {self.N} data sizes > 0 (or None)", self.sizes)
            object.__setattr__(self, "sizes", tuple(float(s) for s in sizes))

    @property
    def weights(self) -> np.ndarray:
        """The unnormalised server weights ``(N,)``: the data sizes, or ones."""
        return np.ones(self.N) if self.sizes is None else np.asarray(self.sizes)


def aggregate(local: np.ndarray, mask: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sum_{k in P} n_k local_k / sum_{k in P} n_k`` per replica, for ``local`` ``(S, N, d)``, the sampled set
    ``mask`` ``(S, N)`` and weights ``(N,)``."""
    w = np.where(mask, weights, 0.0)
    return np.einsum("sn,snd->sd", w, local) / w.sum(axis=1)[:, None]


def local_steps(w0, oracle: Oracle, eta: float, K: int, rng, *, anchor=None, mu=0.0, correction=None):
    """``K`` steps ``w <- w - eta (g(w) + mu (w - anchor) + correction)`` from ``w0`` ``(S, N, d)``; ``mu`` is a
    scalar or one value per replica ``(S,)``; ``anchor`` ``(S, d)`` is needed where ``mu > 0``, ``correction``
    ``(S, N, d)`` is optional."""
    w = np.array(w0, dtype=float)
    far = None if anchor is None else anchor[:, None, :]
    mu = np.asarray(mu, dtype=float)
    prox = bool(np.any(mu))
    mu = mu[:, None, None] if mu.ndim == 1 else mu
    for _ in range(K):
        g = oracle(w, rng)
        if prox:
            g = g + mu * (w - far)
        if correction is not None:
            g = g + correction
        w = w - eta * g
    return w


class Round(NamedTuple):
    """A round's start: the generator, the sampled set ``mask`` ``(S, N)``, the clients ``(S, Q)`` whose local
    steps are computed (:func:`~fedtheory.algorithms.primal_dual.working_set`), the oracle at their points ``at``
    and their start ``w0`` ``(S, Q, d)``."""

    rng: np.random.Generator | None
    mask: np.ndarray
    clients: np.ndarray
    at: Callable
    w0: np.ndarray

    def full(self, local: np.ndarray) -> np.ndarray:
        """The working set's values ``(S, Q, ...)`` as ``(S, N, ...)``, zero at the clients not computed, laid out in
        memory as ``local`` (the server's sums add in the order of the memory layout: where the every-client
        computation had the same layout, the round agrees with it to the last bit, otherwise to rounding)."""
        S, N = self.mask.shape
        return scatter(np.zeros_like(local, shape=(S, N, *local.shape[2:])), self.clients, local)


def round_steps(r: Round, oracle: Oracle, params: ClientServerParams, *, anchor=None, mu=0.0, correction=None):
    """The working set's local steps of round ``r``: :func:`local_steps` (``K`` steps), or, where ``params.K`` is per
    client, :func:`~fedtheory.algorithms.primal_dual.ragged_steps` (``K_i`` steps, ``mu`` as the pull)."""
    if isinstance(params.K, int):
        return local_steps(r.w0, r.at, params.eta, params.K, r.rng, anchor=anchor, mu=mu, correction=correction)
    mu = np.asarray(mu, dtype=float)
    pull = mu[:, None] if mu.ndim == 1 else mu
    steps = np.asarray(params.K)[r.clients]
    return ragged_steps(
        oracle, r.w0, r.clients, steps, params.eta, r.rng, pull=pull, anchor=anchor, correction=correction
    )


def start_round(x: np.ndarray, N: int, participants: int, oracle, rng) -> Round:
    """Check the oracle and generator, sample ``participants`` of the ``N`` clients per replica and start the
    working set's local steps at the server models ``x`` ``(S, d)``."""
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    oracle.problem.check_clients(N)
    S, d = x.shape
    mask = sample(S, N, participants, rng)
    clients = working_set(oracle, mask)
    w0 = np.broadcast_to(x[:, None, :], (S, clients.shape[1], d))
    return Round(rng, mask, clients, subset_oracle(oracle, clients, N), w0)


def fedavg_round(x: np.ndarray, oracle: Oracle, params: ClientServerParams, rng) -> np.ndarray:
    """One FedAvg round from server models ``x`` ``(S, d)``; returns the new server models."""
    r = start_round(x, params.N, params.participants, oracle, rng)
    return aggregate(r.full(round_steps(r, oracle, params)), r.mask, params.weights)


def fedprox_round(x: np.ndarray, oracle: Oracle, params: ClientServerParams, rng, *, mu) -> np.ndarray:
    """One FedProx round: ``K`` steps on ``f_k + (mu/2)||. - x||^2`` from ``x``, then the mean; ``mu >= 0`` is a
    scalar or one value per replica ``(S,)``."""
    mu = finite_array("mu", mu, ndim=(0, 1))
    if np.any(mu < 0) or (mu.ndim == 1 and mu.shape != (x.shape[0],)):
        raise InvalidParameterError("mu", f"values >= 0: a scalar or one per replica ({x.shape[0]},)", mu)
    r = start_round(x, params.N, params.participants, oracle, rng)
    local = round_steps(r, oracle, params, anchor=x, mu=mu)
    return aggregate(r.full(local), r.mask, params.weights)


@dataclass
class ScaffoldState:
    """Server model ``x`` and control variate ``c`` ``(S, d)``, client control variates ``c_i`` ``(S, N, d)``, round
    ``t``."""

    x: np.ndarray
    c: np.ndarray
    c_i: np.ndarray
    t: int = 0


def scaffold_init(x0, N: int, *, S: int = 1, dim: int | None = None) -> ScaffoldState:
    """Every replica at ``x0`` with zero control variates."""
    x0 = np.asarray(x0, dtype=float)
    x = check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], positive_int("S", S))
    return ScaffoldState(x, np.zeros_like(x), np.zeros((x.shape[0], positive_int("N", N), x.shape[1])))


def scaffold_round(
    state: ScaffoldState, oracle: Oracle, params: ClientServerParams, rng, *, eta_g: float = 1.0
) -> ScaffoldState:
    """One SCAFFOLD round (option II, server step ``eta_g > 0``); non-sampled clients keep ``c_i``."""
    eta_g = positive("eta_g", eta_g)
    if state.c_i.shape[1] != params.N:
        raise InvalidParameterError("params", f"N = {state.c_i.shape[1]} clients as in the state", params.N)
    r = start_round(state.x, params.N, params.participants, oracle, rng)
    c_i = gather(state.c_i, r.clients)
    correction = state.c[:, None, :] - c_i
    y = round_steps(r, oracle, params, correction=correction)
    K = params.K if isinstance(params.K, int) else np.asarray(params.K)[r.clients][..., None]
    c_plus = -correction + (state.x[:, None, :] - y) / (K * params.eta)
    dc = np.where(r.mask[..., None], r.full(c_plus - c_i), 0.0)
    x = state.x + eta_g * aggregate(r.full(y - state.x[:, None, :]), r.mask, params.weights)
    return ScaffoldState(x, state.c + dc.sum(axis=1) / params.N, state.c_i + dc, state.t + 1)


def client_values(problem: Problem, x, clients=None) -> np.ndarray:
    """``f_k(x_k)`` at client points ``x`` ``(..., N, d)``: shape ``(..., N)``; given client indices ``clients``
    ``(..., P)``, only those clients' values ``f_k(x_k)``, shape ``(..., P)``. Uses the problem's own
    ``client_values`` where it has one (with its ``clients`` argument where it takes one: then only the listed
    clients are evaluated), the closed form on :class:`~fedtheory.problems.FederatedQuadratic`; otherwise the listed
    values are taken from every client's."""
    own = getattr(problem, "client_values", None)
    if clients is not None:
        x = problem.check_client_points(x)
        clients = integer_array("clients", clients, minimum=0)
        if clients.shape[:-1] != x.shape[:-2] or np.any(clients >= x.shape[-2]):
            raise InvalidParameterError(
                "clients", f"indices below N = {x.shape[-2]} of shape {(*x.shape[:-2], 'P')}", f"shape {clients.shape}"
            )
        if callable(own) and "clients" in inspect.signature(own).parameters:
            return own(np.take_along_axis(x, clients[..., None], axis=-2), clients=clients)
        return np.take_along_axis(client_values(problem, x), clients, axis=-1)
    if callable(own):
        return own(x)
    if not isinstance(problem, FederatedQuadratic):
        raise InvalidParameterError(
            "problem", "a problem with client_values(x) or a FederatedQuadratic", type(problem).__name__
        )
    x = problem.check_client_points(x)
    g = problem.client_grad(x)  # A_k x - b_k, so x'A_k x/2 - b_k'x = x'(g - b_k)/2
    b, c = (problem.b[0], problem.c[0]) if problem.n_clients is None else (problem.b, problem.c)
    return 0.5 * np.sum(x * (g - b), axis=-1) + c


def qfedavg_round(
    x: np.ndarray,
    oracle: Oracle,
    params: ClientServerParams,
    rng,
    *,
    q: float,
    L_q: float | None = None,
    variant: str = "paper",
) -> np.ndarray:
    """One q-FedAvg round (module docstring), ``q >= 0``, ``L_q > 0`` (default ``1/eta``); with ``q > 0`` the
    sampled clients' values ``F_k(x)`` must be > 0."""
    q = positive("q", q, allow_zero=True)
    L_q = 1.0 / params.eta if L_q is None else positive("L_q", L_q)
    if variant not in Q_VARIANTS:
        raise InvalidParameterError("variant", f"one of {Q_VARIANTS}", variant)
    r = start_round(x, params.N, params.participants, oracle, rng)
    mask = r.mask
    w0 = np.broadcast_to(x[:, None, :], (*mask.shape, x.shape[-1]))
    F = np.zeros(mask.shape)  # the sampled clients' values F_k(w^t) (S, N); the others are masked out below
    F[mask] = client_values(oracle.problem, w0, clients=np.nonzero(mask)[1].reshape(-1, params.participants)).ravel()
    if q > 0 and np.any(mask & (F <= 0)):
        raise InvalidParameterError("oracle", "a problem whose sampled clients have values F_k(w^t) > 0 (q > 0)")
    step = r.full(x[:, None, :] - round_steps(r, oracle, params))  # w^t - w̄_k
    dw = L_q * step
    Fq = np.where(mask, np.abs(F) ** q, 0.0)  # F^0 = 1 even where F <= 0
    size = np.sum((step if variant == "code" else dw) ** 2, axis=-1)
    curv = q * np.where(mask, np.abs(F), 1.0) ** (q - 1) * size if q > 0 else 0.0
    h = np.where(mask, curv + L_q * Fq, 0.0)
    weights = params.weights if variant == "code" else np.ones(params.N)
    delta = np.einsum("sn,snd->sd", weights * Fq, dw)
    return x - delta / np.sum(weights * h, axis=1)[:, None]


ROUNDS: dict[str, Callable] = {
    "fedavg": fedavg_round,
    "fedprox": fedprox_round,
    "scaffold": scaffold_round,
    "qfedavg": qfedavg_round,
}


def run(method: str, oracle: Oracle, x0, params: ClientServerParams, T: int, rng, *, S: int = 1, **options):
    """``T`` rounds of ``method`` (a key of :data:`ROUNDS`) from ``x0`` with its ``options`` (``mu``, ``eta_g``,
    ``q``, ``L_q``, ``variant``); the server models of every round ``(T + 1, S, d)``."""
    if method not in ROUNDS:
        raise InvalidParameterError("method", f"one of {tuple(ROUNDS)}", method)
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    x0 = np.asarray(x0, dtype=float)
    x = check_replicated("x0", x0, oracle.problem.dim, positive_int("S", S))
    state = scaffold_init(x, params.N, S=x.shape[0]) if method == "scaffold" else x
    out = [x]
    for t in range(positive_int("T", T, minimum=0)):
        with np.errstate(over="ignore", invalid="ignore"):
            state = ROUNDS[method](state, oracle, params, rng, **options)
        x = state.x if method == "scaffold" else state
        if not np.all(np.isfinite(x)):
            raise DivergenceError(method, t + 1)
        out.append(x)
    return np.stack(out)
