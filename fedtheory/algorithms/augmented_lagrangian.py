"""Federated primal-dual method on the augmented Lagrangian of the consensus problem, vectorised over replicas and
clients, one round per call (e.g. FedPD: Algorithm 1 of Zhang, Hong, Dhople, Yin, Liu (2021)).

The problem ``min (1/N) sum_i f_i(x_i)`` subject to ``x_i = x_0`` with the local augmented Lagrangians
``L_i(x_i, x_{0,i}, lam_i) = f_i(x_i) + <lam_i, x_i - x_{0,i}> + ||x_i - x_{0,i}||^2 / (2 eta)`` (``lam_i`` a
vector). One round::

    client i:  x_i     <- argmin_x L_i(x, x_{0,i}, lam_i)  (exactly, or K gradient steps from the previous x_i)
               lam_i   <- lam_i + (x_i - x_{0,i}) / eta
               x_{0,i} <- x_i + eta lam_i                    (the new lam_i: the minimiser of L_i over x_{0,i})
    server:    with probability p (drawn per replica): x_{0,i} <- (1/N) sum_j x_{0,j} for every i (communication);
               otherwise every client keeps its own x_{0,i}

A local gradient step is ``x <- x - lr (g_i(x) + lam_i + (x - x_{0,i}) / eta)`` with ``g_i`` the oracle's
(stochastic) gradient, started from the client's previous ``x_i`` (the warm start of the authors' Python optimiser);
the exact oracle solves the subproblem in closed form on quadratics. Every client updates every round (no client
sampling). Arrays are ``(S, N, d)`` (replicas, clients, coordinates), including the multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError
from ..oracles import Oracle, check_oracle, check_replicated
from ..problems import FederatedQuadratic


@dataclass(frozen=True)
class AugmentedLagrangianParams:
    """Hyperparameters of one round.

    Parameters
    ----------
    eta : float
        Penalty parameter of the augmented Lagrangian and dual step ``1/eta``, > 0.
    N : int
        Clients.
    p : float
        Communication probability, in (0, 1] (1: the server averages every round).
    K : int
        Local gradient steps, >= 1 (unused with ``exact``).
    lr : float or None
        Local step size, > 0; may be ``None`` only with ``exact``.
    exact : bool
        Solve the local subproblem exactly (quadratic problems only).
    """

    eta: float
    N: int
    p: float = 1.0
    K: int = 1
    lr: float | None = None
    exact: bool = False

    def __post_init__(self):
        positive("eta", self.eta)
        positive_int("N", self.N)
        positive_int("K", self.K)
        if not (isinstance(self.p, int | float) and 0 < self.p <= 1):
            raise InvalidParameterError("p", "a communication probability in (0, 1]", self.p)
        if self.lr is None:
            if not self.exact:
                raise InvalidParameterError("lr", "a local step size > 0 (or exact=True)", self.lr)
        else:
            positive("lr", self.lr)


@dataclass
class AugmentedLagrangianState:
    """Local models ``x``, multipliers ``lam`` and local copies of the server model ``x0``, each ``(S, N, d)``; the
    round ``t``; and ``communicated`` ``(S,)`` bool, whether the server averaged in the last round."""

    x: np.ndarray
    lam: np.ndarray
    x0: np.ndarray
    t: int = 0
    communicated: np.ndarray | None = None

    @property
    def server(self) -> np.ndarray:
        """The mean of the local copies ``(S, d)`` (the server model after a communication)."""
        return self.x0.mean(axis=1)


def init(x0, N: int, *, S: int = 1, dim: int | None = None) -> AugmentedLagrangianState:
    """Every client starts at ``x_i = x_{0,i} = x0`` with ``lam_i = 0``."""
    N, S = positive_int("N", N), positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    z = check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], S)
    start = np.broadcast_to(z[:, None, :], (S, N, z.shape[-1]))
    return AugmentedLagrangianState(start.copy(), np.zeros_like(start), start.copy())


def exact_local(problem: FederatedQuadratic, x0: np.ndarray, lam: np.ndarray, eta: float) -> np.ndarray:
    """``argmin_x f_i(x) + <lam_i, x - x_{0,i}> + ||x - x_{0,i}||^2/(2 eta)`` for ``f_i = x'A_i x/2 - b_i'x``:
    ``(A_i + I/eta)^{-1}(b_i - lam_i + x_{0,i}/eta)``, for ``x0`` and ``lam`` ``(S, N, d)`` and ``eta > 0`` (the
    subproblem is strongly convex: every ``A_i`` is positive semidefinite)."""
    H = problem.A + np.eye(problem.dim) / positive("eta", eta)
    rhs = problem.b - lam + x0 / eta
    return np.linalg.solve(H, rhs[..., None])[..., 0]


def local_steps(x, x0, lam, oracle: Oracle, eta: float, lr: float, K: int, rng) -> np.ndarray:
    """``K`` steps ``x <- x - lr (g(x) + lam + (x - x0)/eta)`` from ``x`` ``(S, N, d)``."""
    x = np.array(x, dtype=float)
    for _ in range(K):
        x = x - lr * (oracle(x, rng) + lam + (x - x0) / eta)
    return x


def round(
    state: AugmentedLagrangianState, oracle: Oracle, params: AugmentedLagrangianParams, rng
) -> AugmentedLagrangianState:
    """One round of the method (see the module docstring); returns the new state."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    S, N, _ = state.x.shape
    if N != params.N:
        raise InvalidParameterError("params", f"N = {N} clients as in the state", params.N)
    oracle.problem.check_clients(N)
    if params.exact:
        if not isinstance(oracle.problem, FederatedQuadratic):
            raise InvalidParameterError("exact", "a FederatedQuadratic problem for the exact local oracle")
        x = exact_local(oracle.problem, state.x0, state.lam, params.eta)
    else:
        x = local_steps(state.x, state.x0, state.lam, oracle, params.eta, params.lr, params.K, rng)
    lam = state.lam + (x - state.x0) / params.eta
    x0 = x + params.eta * lam
    if params.p == 1:
        talk = np.ones(S, dtype=bool)
    elif rng is None:
        raise InvalidParameterError("rng", "a numpy Generator to draw the communication rounds (p < 1)")
    else:
        talk = rng.random(S) < params.p
    x0 = np.where(talk[:, None, None], x0.mean(axis=1, keepdims=True), x0)
    return AugmentedLagrangianState(x, lam, x0, state.t + 1, talk)


@dataclass
class AugmentedLagrangianTrajectory:
    """Recorded states at rounds ``t``: ``x``, ``lam``, ``x0`` ``(records, S, N, d)``, ``server`` ``(records, S,
    d)`` (the mean of ``x0``) and ``communicated`` ``(records, S)`` (False at round 0)."""

    x: np.ndarray
    lam: np.ndarray
    x0: np.ndarray
    server: np.ndarray
    communicated: np.ndarray
    t: np.ndarray


def run(
    oracle: Oracle,
    x0,
    params: AugmentedLagrangianParams,
    T: int,
    rng,
    *,
    S: int = 1,
    state: AugmentedLagrangianState | None = None,
) -> AugmentedLagrangianTrajectory:
    """``T`` rounds from ``init(x0, N, S=S)`` (or ``state``), recording every round; raises
    :class:`~fedtheory.errors.DivergenceError` at the first round with a non-finite iterate."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    if state is None:
        state = init(x0, params.N, S=S, dim=oracle.problem.dim)
    records = [state]
    for _ in range(positive_int("T", T, minimum=0)):
        with np.errstate(over="ignore", invalid="ignore"):
            state = round(state, oracle, params, rng)
        if not (np.all(np.isfinite(state.x)) and np.all(np.isfinite(state.x0))):
            raise DivergenceError("augmented-Lagrangian primal-dual", state.t)
        records.append(state)
    talk = [np.zeros(state.x.shape[0], dtype=bool) if r.communicated is None else r.communicated for r in records]
    return AugmentedLagrangianTrajectory(
        *(np.stack([getattr(r, f) for r in records]) for f in ("x", "lam", "x0", "server")),
        np.stack(talk),
        np.array([r.t for r in records]),
    )
