"""FedAvg (local SGD) and its two baselines, vectorised over replicas and clients.

Algorithm 1 of the thesis, with an optional server step size::

    x_m^{(r,0)}   = x^{(r,0)}                                     broadcast
    x_m^{(r,k+1)} = x_m^{(r,k)} - eta * g_m^{(r,k)},  k < K        client update
    x^{(r+1,0)}   = x^{(r,0)} + eta_server * (mean_m x_m^{(r,K)} - x^{(r,0)})   server averaging

``eta_server = 1`` is plain averaging. Arrays have shape ``(S, M, d)``: ``S`` independent replicas of
the whole run advance in one numpy operation, so a Monte Carlo estimate costs one run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._validate import generator, integer_array, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError
from ..kernels import fused_oracle, sgd_local_steps
from ..oracles import Oracle, check_oracle, check_replicated


@dataclass(frozen=True)
class FedAvgParams:
    """Hyperparameters of FedAvg: client step ``eta``, ``K`` local steps, ``M`` clients, server step."""

    eta: float
    K: int
    M: int
    eta_server: float = 1.0

    def __post_init__(self):
        positive("eta", self.eta)
        positive_int("K", self.K)
        positive_int("M", self.M)
        positive("eta_server", self.eta_server)


@dataclass
class FedAvgState:
    """Server iterate ``x^{(r,0)}`` of every replica, shape ``(S, d)``, and the round counter ``r``."""

    x: np.ndarray
    r: int = 0


@dataclass
class Trajectory:
    """Recorded iterates ``x`` of shape ``(n_records, S, d)`` at indices ``t`` (rounds or steps)."""

    x: np.ndarray
    t: np.ndarray

    @property
    def final(self) -> np.ndarray:
        """The last recorded iterate of every replica, shape ``(S, d)``."""
        return self.x[-1]


def init(x0, S: int = 1, *, dim: int | None = None) -> FedAvgState:
    """State with every replica at ``x0`` (shape (d,) or (S, d))."""
    S = positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    return FedAvgState(check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], S))


def local_sgd(x: np.ndarray, oracle: Oracle, eta: float, K: int, rng: np.random.Generator) -> np.ndarray:
    """``K`` SGD steps of every client from client points ``x`` of shape ``(S, M, d)``.

    A :class:`~fedtheory.oracles.Minibatch` oracle on logistic regression or least squares runs the fused kernel of
    :mod:`fedtheory.kernels` (same random indices, same iterates to rounding) unless the kernels are set to numpy.
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    K = positive_int("K", K)
    spec = fused_oracle(oracle) if np.ndim(x) == 3 else None
    if spec is not None:
        return sgd_local_steps(spec, x, generator("rng", rng), K, eta)
    for _ in range(K):
        x = x - eta * oracle(x, rng)
    return x


def round(state: FedAvgState, oracle: Oracle, params: FedAvgParams, rng: np.random.Generator) -> FedAvgState:
    """One FedAvg round (Algorithm 1 and the server averaging).

    ``rng`` may be None only when the oracle draws nothing (:class:`~fedtheory.oracles.ExactGradient`).
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    oracle.problem.check_clients(params.M)
    S, d = state.x.shape
    clients = np.broadcast_to(state.x[:, None, :], (S, params.M, d))
    with np.errstate(over="ignore", invalid="ignore"):
        clients = local_sgd(clients, oracle, params.eta, params.K, rng)
        average = clients.mean(axis=1)
        x = average if params.eta_server == 1 else state.x + params.eta_server * (average - state.x)
    return FedAvgState(x, state.r + 1)


def check_finite(x: np.ndarray, algorithm: str, r: int, unit: str = "round") -> None:
    """Raise :class:`~fedtheory.errors.DivergenceError` naming ``algorithm``, the ``unit`` ``r`` and the number of
    replicas (axis 0 of ``x``) whose iterate is no longer finite."""
    if not np.all(np.isfinite(x)):
        bad = int(np.sum(~np.all(np.isfinite(x), axis=-1)))
        raise DivergenceError(algorithm, r, f"{bad} of {x.shape[0]} replicas", unit=unit)


def run(
    oracle: Oracle, x0, params: FedAvgParams, R: int, rng: np.random.Generator, *, S: int = 1, record_every: int = 1
) -> Trajectory:
    """Run ``R`` rounds of FedAvg on ``S`` replicas, recording ``x^{(r,0)}`` every ``record_every`` rounds.

    Raises
    ------
    DivergenceError
        At the first round whose server iterate is not finite.
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    R = positive_int("R", R, minimum=0)
    record_every = positive_int("record_every", record_every)
    state = init(x0, S, dim=oracle.problem.dim)
    xs, ts = [state.x], [0]
    for _ in range(R):
        state = round(state, oracle, params, rng)
        check_finite(state.x, "FedAvg", state.r)
        if state.r % record_every == 0 or state.r == R:
            xs.append(state.x)
            ts.append(state.r)
    return Trajectory(np.stack(xs), np.asarray(ts))


def minibatch_sgd(
    oracle: Oracle,
    x0,
    eta: float,
    T: int,
    rng: np.random.Generator,
    *,
    M: int,
    per_client: int = 1,
    S: int = 1,
    record_every: int = 1,
) -> Trajectory:
    """Minibatch SGD: each step, each of ``M`` clients computes ``per_client`` gradients at ``x``.

    With ``per_client = 1`` this is FedAvg's communication pattern with a single local step
    ("R iterations of SGD with minibatch size M", thesis text after Theorem 2.8); ``per_client = K``
    spends FedAvg's gradient budget in one step.
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    eta = positive("eta", eta)
    T = positive_int("T", T, minimum=0)
    M, per_client = positive_int("M", M), positive_int("per_client", per_client)
    record_every = positive_int("record_every", record_every)
    oracle.problem.check_clients(M)
    x = check_replicated("x0", x0, oracle.problem.dim, positive_int("S", S))
    xs, ts = [x], [0]
    for t in range(1, T + 1):
        points = np.broadcast_to(x[:, None, None, :], (x.shape[0], per_client, M, x.shape[1]))
        with np.errstate(over="ignore", invalid="ignore"):
            x = x - eta * oracle(points, rng).mean(axis=(1, 2))
        check_finite(x, "minibatch SGD", t, "step")
        if t % record_every == 0 or t == T:
            xs.append(x)
            ts.append(t)
    return Trajectory(np.stack(xs), np.asarray(ts))


def sgd(
    oracle: Oracle,
    x0,
    eta: float,
    T: int,
    rng: np.random.Generator,
    *,
    S: int = 1,
    record_at: Sequence[int] | None = None,
) -> Trajectory:
    """Single-client SGD, ``x_{k+1} = x_k - eta grad f(x_k; xi_k)`` (Definition 2.5), on ``S`` replicas.

    ``record_at`` lists the step counts to keep (default: every step). The problem must have identical
    clients (or a single one).
    """
    oracle, rng = check_oracle(oracle), generator("rng", rng, allow_none=True)
    eta = positive("eta", eta)
    T = positive_int("T", T, minimum=0)
    keep = set(range(T + 1)) if record_at is None else set(integer_array("record_at", record_at).ravel().tolist())
    if any(k < 0 or k > T for k in keep):
        raise InvalidParameterError("record_at", f"step counts in [0, T = {T}]", sorted(keep))
    x = check_replicated("x0", x0, oracle.problem.dim, positive_int("S", S))[:, None, :]
    oracle.problem.check_clients(1)
    xs, ts = ([x[:, 0]], [0]) if 0 in keep else ([], [])
    for k in range(1, T + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            x = x - eta * oracle(x, rng)
        check_finite(x[:, 0], "SGD", k, "step")
        if k in keep:
            xs.append(x[:, 0])
            ts.append(k)
    return Trajectory(np.stack(xs), np.asarray(ts))
