"""Decentralized local SGD / SAM with gossip and lookahead initialisation, vectorised over replicas and clients.

One round of client ``i`` (every client trains, then one gossip step)::

    x_{i,0}^t   = x_i^t + beta (x_i^t - x_{i,K}^{t-1})             lookahead start (beta = 0: plain restart)
    x_{i,k+1}^t = x_{i,k}^t - eta g_{i,k}^t,  k < K                 local SGD, SAM or heavy-ball steps
    x_i^{t+1}   = sum_j w_ij x_{j,K}^t                              gossip (Q steps: W^Q)

with ``x_i^0 = x_{i,K}^{-1} = x^0``. The SAM step queries the same sample at ``x + r g/||g||`` (``g`` the gradient
at ``x``; ``g = 0`` gives ``x`` itself); heavy-ball local steps restart their momentum every round. Special cases
(factories below): OledFL-SGD/SAM (``beta > 0``), DFedAvg (``beta = 0``), DFedSAM, DFedAvgM, and D-PSGD (one step
per round, combine-then-adapt ``x^{t+1} = W x^t - eta g(x^t)``). Arrays are ``(S, m, d)``: replicas, clients,
coordinates; one numpy operation advances every replica and client.

Stacked, the lookahead start is ``X_0^t = W_beta X_K^{t-1}`` with ``W_beta = (1+beta) W - beta I``: the method is
DFedAvg whose pre-local-step mixing matrix is ``W_beta`` (the reported models ``W X_K`` have the same mean).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError
from ..oracles import Oracle, check_oracle, check_replicated
from ..topology import Topology, at_round

_SEED_BOUND = 2**63


@dataclass(frozen=True)
class DecentralizedParams:
    """Hyperparameters of one decentralized round.

    Parameters
    ----------
    eta : float
        Local step size (> 0).
    K : int
        Local steps per round.
    beta : float
        Lookahead coefficient of the start ``x + beta (x - x_K^{prev})`` (any real; 0 turns it off).
    sam_radius : float or None
        ``None``: SGD steps (one gradient per step). A number ``r >= 0``: SAM steps with radius ``r`` (two gradients
        per step on the same sample; ``r = 0`` reproduces SGD bit for bit).
    momentum : float
        Heavy-ball coefficient ``theta`` in [0, 1) of the local steps (DFedAvgM), reset every round.
    gossip_steps : int
        ``Q``: the round mixes with ``W^Q``.
    combine_first : bool
        D-PSGD's order ``x^{t+1} = W x^t - eta g(x^t)`` (requires ``K = 1`` and no lookahead).
    name : str
        A label for reports.
    """

    eta: float
    K: int
    beta: float = 0.0
    sam_radius: float | None = None
    momentum: float = 0.0
    gossip_steps: int = 1
    combine_first: bool = False
    name: str = "DFedAvg"

    def __post_init__(self):
        positive("eta", self.eta)
        positive_int("K", self.K)
        if not np.isfinite(self.beta):
            raise InvalidParameterError("beta", "a finite number", self.beta)
        if self.sam_radius is not None:
            positive("sam_radius", self.sam_radius, allow_zero=True)
        if not 0 <= self.momentum < 1:
            raise InvalidParameterError("momentum", "a number in [0, 1)", self.momentum)
        positive_int("gossip_steps", self.gossip_steps)
        if self.combine_first and (self.K != 1 or self.beta != 0 or self.momentum != 0):
            raise InvalidParameterError("combine_first", "K = 1, beta = 0 and no momentum (D-PSGD)", self)


def oledfl(eta: float, K: int, beta: float, sam_radius: float | None = None) -> DecentralizedParams:
    """OledFL: lookahead start ``beta``; SGD steps (``sam_radius=None``, OledFL-SGD) or SAM steps (OledFL-SAM)."""
    return DecentralizedParams(eta, K, beta, sam_radius, name="OledFL-SGD" if sam_radius is None else "OledFL-SAM")


def dfedavg(eta: float, K: int) -> DecentralizedParams:
    """DFedAvg: K local SGD steps, then one gossip step."""
    return DecentralizedParams(eta, K, name="DFedAvg")


def dfedsam(eta: float, K: int, sam_radius: float, gossip_steps: int = 1) -> DecentralizedParams:
    """DFedSAM: K local SAM steps, then ``gossip_steps`` gossip steps."""
    return DecentralizedParams(eta, K, sam_radius=sam_radius, gossip_steps=gossip_steps, name="DFedSAM")


def dfedavgm(eta: float, K: int, momentum: float = 0.9) -> DecentralizedParams:
    """DFedAvgM: K local heavy-ball steps (momentum reset every round), then one gossip step."""
    return DecentralizedParams(eta, K, momentum=momentum, name="DFedAvgM")


def dpsgd(eta: float, *, combine_first: bool = True) -> DecentralizedParams:
    """D-PSGD: one step per gossip; combine-then-adapt ``W x - eta g(x)`` (default) or adapt-then-combine
    ``W (x - eta g(x))`` (which is DFedAvg with K = 1)."""
    return DecentralizedParams(eta, 1, combine_first=combine_first, name="D-PSGD")


@dataclass
class DecentralizedState:
    """Aggregated models ``x`` = ``x_i^t`` and the previous round's local models ``x_local`` = ``x_{i,K}^{t-1}``,
    both ``(S, m, d)``; the round ``t`` and counters: gradients evaluated and d-vectors sent (per replica)."""

    x: np.ndarray
    x_local: np.ndarray
    t: int = 0
    gradients: int = 0
    messages: int = 0

    @property
    def mean(self) -> np.ndarray:
        """``x̄^t``, ``(S, d)``."""
        return self.x.mean(axis=-2)


@dataclass
class DecentralizedTrace:
    """What one round computed: ``start`` ``X_0^t`` ``(S, m, d)``, ``local`` ``x_{i,k}^t`` ``(K+1, S, m, d)``,
    ``grads`` the gradients used in the updates ``(K, S, m, d)``, ``W`` the mixing matrix of the round."""

    start: np.ndarray
    local: np.ndarray
    grads: np.ndarray
    W: object


@dataclass
class DecentralizedTrajectory:
    """Recorded aggregated models ``x`` ``(records, S, m, d)`` at rounds ``t``."""

    x: np.ndarray
    t: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """``x̄^t`` per record ``(records, S, d)``."""
        return self.x.mean(axis=-2)


def init(x0, m: int, S: int = 1, *, dim: int | None = None) -> DecentralizedState:
    """Every client starts at ``x0`` (``(d,)`` or ``(S, d)``), and ``x_{i,K}^{-1} = x0`` (no lookahead in round 0)."""
    m, S = positive_int("m", m), positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    x = check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], S)
    X = np.broadcast_to(x[:, None, :], (S, m, x.shape[-1])).copy()
    return DecentralizedState(X, X.copy())


def lookahead(phi: np.ndarray, fast: np.ndarray, coef: float) -> np.ndarray:
    """The lookahead interpolation ``phi + coef (fast - phi)``; the method's start is ``coef = -beta`` with
    ``phi = x_i^t`` and ``fast = x_{i,K}^{t-1}`` (the opposite direction)."""
    return phi + coef * (fast - phi)


def sam_point(x: np.ndarray, g: np.ndarray, radius: float) -> np.ndarray:
    """``x + radius g/||g||`` row by row; rows with ``g = 0`` stay at ``x``."""
    norm = np.linalg.norm(g, axis=-1, keepdims=True)
    return x + radius * np.divide(g, norm, out=np.zeros_like(g), where=norm > 0)


def _child(seed: int | None) -> np.random.Generator | None:
    return None if seed is None else np.random.default_rng(seed)


def local_steps(x0, oracle: Oracle, params: DecentralizedParams, rng, *, trace: bool = False):
    """``K`` local steps from ``x0`` ``(S, m, d)``; returns ``x_K`` or, with ``trace``, ``(iterates (K+1, ...),
    gradients (K, ...))``. Every step draws one seed from ``rng`` and queries the oracle with a generator made from
    it, so a SAM step's two queries see the same sample and ``sam_radius = 0`` equals SGD bit for bit. ``rng=None``
    suits exact oracles only (a stochastic oracle then asks for a generator)."""
    x, y_prev = np.array(x0, dtype=float), np.array(x0, dtype=float)
    iterates, grads = [x.copy()] if trace else None, [] if trace else None
    for _ in range(params.K):
        seed = None if rng is None else int(rng.integers(_SEED_BOUND))
        g = oracle(x, _child(seed))
        if params.sam_radius is not None:
            g = oracle(sam_point(x, g, params.sam_radius), _child(seed))
        y = x - params.eta * g
        x = y + params.momentum * (y - y_prev) if params.momentum else y
        y_prev = y
        if trace:
            iterates.append(x.copy())
            grads.append(g)
    return (np.stack(iterates), np.stack(grads)) if trace else x


def round(
    state: DecentralizedState,
    oracle: Oracle,
    W: Topology,
    params: DecentralizedParams,
    rng: np.random.Generator,
    *,
    trace: bool = False,
):
    """One round: lookahead start, ``K`` local steps, ``Q`` gossip steps. Returns the new state, or
    ``(state, DecentralizedTrace)`` with ``trace=True``. ``W`` is a :class:`~fedtheory.topology.MixingMatrix` or a
    callable ``(t, rng) -> MixingMatrix`` (a time-varying topology, drawn from ``rng`` before the local steps)."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    Wt = at_round(W, state.t, rng)
    if Wt.m != state.x.shape[-2]:
        raise InvalidParameterError("W", f"a mixing matrix of m = {state.x.shape[-2]} clients", f"m = {Wt.m}")
    per_step = 1 if params.sam_radius is None else 2
    if params.combine_first:
        g = oracle(state.x, _child(None if rng is None else int(rng.integers(_SEED_BOUND))))
        x_new = Wt.gossip(state.x, params.gossip_steps) - params.eta * g
        new = DecentralizedState(x_new, state.x, state.t + 1, state.gradients + state.x.shape[-2], 0)
        new.messages = state.messages + 2 * Wt.edges * params.gossip_steps
        return (new, DecentralizedTrace(state.x, np.stack([state.x, x_new]), g[None], Wt)) if trace else new
    start = lookahead(state.x, state.x_local, -params.beta) if params.beta else state.x
    out = local_steps(start, oracle, params, rng, trace=trace)
    x_K = out[0][-1] if trace else out
    new = DecentralizedState(
        Wt.gossip(x_K, params.gossip_steps),
        x_K,
        state.t + 1,
        state.gradients + per_step * params.K * state.x.shape[-2],
        state.messages + 2 * Wt.edges * params.gossip_steps,
    )
    return (new, DecentralizedTrace(start, out[0], out[1], Wt)) if trace else new


def run(
    oracle: Oracle,
    W: Topology,
    x0,
    params: DecentralizedParams,
    T: int,
    rng: np.random.Generator,
    *,
    m: int | None = None,
    S: int = 1,
    record_every: int = 1,
    state: DecentralizedState | None = None,
) -> DecentralizedTrajectory:
    """``T`` rounds from every client at ``x0`` (or from ``state``), recording ``x_i^t`` every ``record_every``
    rounds (and the last). ``m`` defaults to the problem's number of clients. Raises
    :class:`~fedtheory.errors.DivergenceError` with the round where an iterate stops being finite."""
    oracle = check_oracle(oracle)
    T, record_every = positive_int("T", T, minimum=0), positive_int("record_every", record_every)
    rng = generator("rng", rng, allow_none=True)
    if state is None:
        m = m if m is not None else oracle.problem.n_clients
        if m is None:
            raise InvalidParameterError("m", "the number of clients (the problem has identical clients)")
        state = init(x0, m, S, dim=oracle.problem.dim)
    xs, ts = [state.x.copy()], [state.t]
    for _ in range(T):
        with np.errstate(over="ignore", invalid="ignore"):
            state = round(state, oracle, W, params, rng)
        if not np.all(np.isfinite(state.x)):
            raise DivergenceError(params.name, state.t)
        if state.t % record_every == 0 or state.t == T:
            xs.append(state.x.copy())
            ts.append(state.t)
    return DecentralizedTrajectory(np.stack(xs), np.array(ts))


def consensus_distance(x: np.ndarray) -> np.ndarray:
    """``(1/m) sum_i ||x_i - x̄||^2`` over the client axis of ``(..., m, d)``."""
    return np.mean(np.sum((x - x.mean(axis=-2, keepdims=True)) ** 2, axis=-1), axis=-1)
