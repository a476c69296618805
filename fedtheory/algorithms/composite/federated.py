"""FedMiD, FedDualAvg, their "only server proximal" ablations and FedAvg(subgradient), vectorised.

Printed algorithms (chapter 4 of the thesis; every one takes ``(x^{(0,0)}, eta_c, eta_s)`` and samples
``S^(r) subseteq [M]`` each round):

* ``"FedMiD"`` -- Algorithm 5. Client step
  ``x_m^{(r,k+1)} = grad (h + eta_c psi)^*(grad h(x_m^{(r,k)}) - eta_c g_m^{(r,k)})``; server step
  ``x^{(r+1,0)} = grad (h + eta_s eta_c K psi)^*(grad h(x^{(r,0)}) + eta_s Delta_r)``,
  ``Delta_r = mean_{m in S^(r)} (x_m^{(r,K)} - x_m^{(r,0)})``.
* ``"FedMiD-OSP"`` -- Algorithm 7: client step ``grad h^*(grad h(x) - eta_c g)`` (no ``psi``), server
  step as FedMiD.
* ``"FedMiD(no server prox)"`` -- the client step of FedMiD and a server step without ``psi``,
  ``x^{(r+1,0)} = grad h^*(grad h(x^{(r,0)}) + eta_s Delta_r)`` (plain averaging of proximal client models when
  ``eta_s = 1``: the "primal averaging" whose average loses the clients' sparsity).
* ``"FedDualAvg"`` -- Algorithm 6: ``y^{(0,0)} = grad h(x^{(0,0)})``; clients retrieve
  ``x_m^{(r,k)} = grad (h + eta~^{(r,k)} psi)^*(y_m^{(r,k)})`` with ``eta~^{(r,k)} = eta_s eta_c r K + eta_c k`` and
  update ``y_m^{(r,k+1)} = y_m^{(r,k)} - eta_c g_m^{(r,k)}``; the server sets
  ``y^{(r+1,0)} = y^{(r,0)} + eta_s mean_{m in S^(r)} (y_m^{(r,K)} - y_m^{(r,0)})`` and
  ``x^{(r+1,0)} = grad (h + eta_s eta_c (r + 1) K psi)^*(y^{(r+1,0)})``. Lines 12-14 are printed inside
  the local loop but act once per round, after the clients finish (as in Algorithms 4, 5).
* ``"FedDualAvg-OSP"`` -- Algorithm 8: clients retrieve ``x_m^{(r,k)} = grad h^*(y_m^{(r,k)})``; the
  server as FedDualAvg.
* ``"FedAvg(subgradient)"`` -- FedAvg(partial) of Fig. 4.1:
  after each client SGD step ``x' = x - eta_c g`` set ``x <- x' - eta_c s(x')``, ``s(x') in partial psi(x')``; the
  server step of Algorithm 4. Euclidean ``h`` only; with ``psi = None`` it *is* Algorithm 4.

Algorithm 4 (FedAvg with client and server step sizes) with full participation is
:func:`fedtheory.algorithms.fedavg.run` with ``FedAvgParams(eta=eta_c, eta_server=eta_s)``; every method here with
``psi = None`` and Euclidean ``h`` reproduces it pathwise (same generator, same path).

As printed, Algorithms 5 and 7 add the *primal* difference ``eta_s Delta_r`` to the *dual* point
``grad h(x^{(r,0)})``; for Euclidean ``h`` (every experiment) the two spaces coincide. This module
implements the printed step for every ``h``.

Arrays: server states ``(S, d)`` (replicas, coordinates), client states ``(S, M, d)``; one numpy operation per local
step advances every replica and client. Partial participation (``clients_per_round < M``) draws, per replica and
round, a uniformly random subset without replacement *before* the round's gradients; all ``M`` clients still compute
(the oracle evaluates client ``m`` at row ``m``) and only the sampled ones enter ``Delta``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import InvalidParameterError
from ...oracles import Oracle, check_oracle, check_replicated
from ..fedavg import check_finite
from .mirror import MirrorMap

ALGORITHMS = (
    "FedMiD",
    "FedMiD-OSP",
    "FedMiD(no server prox)",
    "FedDualAvg",
    "FedDualAvg-OSP",
    "FedAvg(subgradient)",
)
DUAL_ALGORITHMS = ("FedDualAvg", "FedDualAvg-OSP")


@dataclass(frozen=True)
class CompositeParams:
    """Hyperparameters of a federated composite method and the run's shape.

    Parameters
    ----------
    algorithm : str
        One of :data:`ALGORITHMS`.
    eta_c : float
        Client learning rate (> 0).
    K, M : int
        Local steps per round and clients.
    eta_s : float
        Server learning rate (> 0); 1 is plain averaging.
    clients_per_round : int, optional
        ``|S^(r)|``; ``None`` (or ``M``) is full participation, Assumption 4.1(e).
    """

    algorithm: str
    eta_c: float
    K: int
    M: int
    eta_s: float = 1.0
    clients_per_round: int | None = None

    def __post_init__(self):
        if self.algorithm not in ALGORITHMS:
            raise InvalidParameterError("algorithm", f"one of {', '.join(ALGORITHMS)}", self.algorithm)
        positive("eta_c", self.eta_c)
        positive("eta_s", self.eta_s)
        positive_int("K", self.K)
        positive_int("M", self.M)
        if self.clients_per_round is not None:
            positive_int("clients_per_round", self.clients_per_round)
            if self.clients_per_round > self.M:
                raise InvalidParameterError(
                    "clients_per_round", f"an integer in [1, M = {self.M}]", self.clients_per_round
                )

    @property
    def dual(self) -> bool:
        """Whether the method keeps a dual state (FedDualAvg and its OSP variant)."""
        return self.algorithm in DUAL_ALGORITHMS

    @property
    def full_participation(self) -> bool:
        """Whether every client participates in every round (no participation draw)."""
        return self.clients_per_round is None or self.clients_per_round == self.M


def eta_tilde(params: CompositeParams, r: int, k: int) -> float:
    """``eta~^{(r,k)} = eta_s eta_c r K + eta_c k`` (Algorithm 6), the psi-weight of FedDualAvg.

    ``eta_tilde(params, r, 0) = eta_s eta_c r K`` is the weight of the server primal ``x^{(r,0)}``. Computed
    as ``eta_c (eta_s r K + k)`` so that with ``eta_s = 1`` it equals ``eta_c t`` of dual averaging (4.6) at
    ``t = rK + k`` to the last bit.
    """
    return params.eta_c * (params.eta_s * r * params.K + k)


@dataclass
class CompositeState:
    """Server primal ``x^{(r,0)}`` (S, d), server dual ``y^{(r,0)}`` (S, d; ``None`` for primal methods), round."""

    x: np.ndarray
    y: np.ndarray | None
    r: int = 0


@dataclass
class RoundTrace:
    """Every client state of one round, for pathwise checks.

    Attributes
    ----------
    x : ndarray
        Client primal points: ``x_m^{(r,k)}``, ``k = 0..K`` (shape (K+1, S, M, d)) for the primal methods; the
        retrieved primals ``k = 0..K-1`` (shape (K, S, M, d)) for the dual methods.
    g : ndarray (K, S, M, d)
        The queried gradients ``g_m^{(r,k)}``.
    y : ndarray (K+1, S, M, d) or None
        Client duals ``y_m^{(r,k)}``, ``k = 0..K`` (dual methods).
    weights : ndarray (S, M)
        ``1/|S^(r)|`` on the sampled clients, 0 elsewhere: ``Delta = sum_m weights_m (state_m^K - state_m^0)``.
    """

    x: np.ndarray
    g: np.ndarray
    y: np.ndarray | None
    weights: np.ndarray


@dataclass
class CompositeTrajectory:
    """Recorded server states at indices ``t`` (rounds, or steps for the sequential methods).

    Attributes
    ----------
    x : ndarray (n_records, S, d)
        Server primal iterates.
    y : ndarray (n_records, S, d) or None
        Server dual iterates (dual methods).
    t : ndarray (n_records,)
        Round (step) counts.
    x_hat : ndarray (n_records, S, d) or None
        With ``ergodic=True``: the output (4.9) after ``t`` rounds (``NaN`` at ``t = 0``, an empty average).
    """

    x: np.ndarray
    y: np.ndarray | None
    t: np.ndarray
    x_hat: np.ndarray | None = None

    @property
    def final(self) -> np.ndarray:
        """The last recorded server primal of every replica, shape ``(S, d)``."""
        return self.x[-1]


def _check_geometry(mirror: MirrorMap, params: CompositeParams, dim: int) -> None:
    if not isinstance(mirror, MirrorMap):
        raise InvalidParameterError("mirror", "a MirrorMap (Euclidean, PNorm, Entropy)", type(mirror).__name__)
    if params.algorithm == "FedAvg(subgradient)":
        if not mirror.euclidean:
            raise InvalidParameterError(
                "mirror", "a Euclidean mirror map for FedAvg(subgradient)", type(mirror).__name__
            )
        mirror.subgradient(np.zeros(dim))  # raises unless psi has a subgradient selection


def init(x0, mirror: MirrorMap, params: CompositeParams, S: int = 1, *, dim: int | None = None) -> CompositeState:
    """Every replica at ``x^{(0,0)} = x0`` (shape (d,) or (S, d)); dual methods also set ``y^{(0,0)} = grad h(x0)``."""
    S = positive_int("S", S)
    x0 = mirror.check_primal("x0", x0)
    x = check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], S)
    return CompositeState(x, mirror.grad_h(x).copy() if params.dual else None)


def _participation(params: CompositeParams, S: int, rng: np.random.Generator) -> np.ndarray | None:
    """Weights ``1/|S^(r)|`` on a uniform random subset of each replica's clients (``None``: everyone, no draw)."""
    if params.full_participation:
        return None
    C = params.clients_per_round
    chosen = np.argsort(rng.random((S, params.M)), axis=1)[:, :C]
    weights = np.zeros((S, params.M))
    np.put_along_axis(weights, chosen, 1.0 / C, axis=1)
    return weights


def _average(z: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    return z.mean(axis=1) if weights is None else np.einsum("sm,smd->sd", weights, z)


def _extrapolate(anchor: np.ndarray, average: np.ndarray, eta_s: float) -> np.ndarray:
    """``anchor + eta_s (average - anchor)``, i.e. ``anchor + eta_s Delta``; plain ``average`` when ``eta_s = 1``."""
    return average if eta_s == 1 else anchor + eta_s * (average - anchor)


def _primal_round(state, oracle, mirror, params, rng, weights, trace):
    S, d = state.x.shape
    x = np.broadcast_to(state.x[:, None, :], (S, params.M, d))
    xs, gs = [x], []
    subgradient = params.algorithm == "FedAvg(subgradient)"
    client_t = 0.0 if params.algorithm == "FedMiD-OSP" else params.eta_c
    for _ in range(params.K):
        g = oracle(x, rng)
        if subgradient:
            x = x - params.eta_c * g
            if mirror.psi is not None:
                x = x - params.eta_c * mirror.subgradient(x)
        else:
            x = mirror(mirror.grad_h(x) - params.eta_c * g, client_t)
        if trace:
            xs.append(x)
            gs.append(g)
    average = _average(x, weights)
    if subgradient:
        x_new = _extrapolate(state.x, average, params.eta_s)
    else:
        if mirror.euclidean:
            point = _extrapolate(state.x, average, params.eta_s)
        else:  # as printed: the primal Delta is added to the dual point grad h(x^{(r,0)})
            point = mirror.grad_h(state.x) + params.eta_s * (average - state.x)
        server_t = 0.0 if params.algorithm == "FedMiD(no server prox)" else params.eta_s * params.eta_c * params.K
        x_new = mirror(point, server_t)
    out = CompositeState(x_new, None, state.r + 1)
    return out, ((np.stack(xs), np.stack(gs), None) if trace else None)


def _dual_round(state, oracle, mirror, params, rng, weights, trace):
    S, d = state.y.shape
    r = state.r
    y = np.broadcast_to(state.y[:, None, :], (S, params.M, d))
    xs, gs, ys = [], [], [y]
    regularized = params.algorithm == "FedDualAvg"
    for k in range(params.K):
        x = mirror(y, eta_tilde(params, r, k) if regularized else 0.0)
        g = oracle(x, rng)
        y = y - params.eta_c * g
        if trace:
            xs.append(x)
            gs.append(g)
            ys.append(y)
    y_new = _extrapolate(state.y, _average(y, weights), params.eta_s)
    x_new = mirror(y_new, eta_tilde(params, r + 1, 0))
    out = CompositeState(x_new, y_new, r + 1)
    return out, ((np.stack(xs), np.stack(gs), np.stack(ys)) if trace else None)


def round(
    state: CompositeState,
    oracle: Oracle,
    mirror: MirrorMap,
    params: CompositeParams,
    rng: np.random.Generator,
    *,
    trace: bool = False,
):
    """One round of ``params.algorithm`` on every replica.

    Returns
    -------
    CompositeState
        The server state after the round; with ``trace=True`` the pair ``(state, RoundTrace)``.

    ``rng`` may be None only with full participation and an oracle that draws nothing
    (:class:`~fedtheory.oracles.ExactGradient`).
    """
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=params.full_participation)
    oracle.problem.check_clients(params.M)
    _check_geometry(mirror, params, oracle.problem.dim)
    S = state.x.shape[0]
    weights = _participation(params, S, rng)
    step = _dual_round if params.dual else _primal_round
    with np.errstate(over="ignore", invalid="ignore"):
        new, arrays = step(state, oracle, mirror, params, rng, weights, trace)
    if not trace:
        return new
    full = np.full((S, params.M), 1.0 / params.M) if weights is None else weights
    return new, RoundTrace(*arrays, full)


def shadow_primals(trace: RoundTrace, mirror: MirrorMap, params: CompositeParams, r: int) -> np.ndarray:
    """``x^_{(r,k)} = grad (h + eta~^{(r,k)} psi)^*(ybar^{(r,k)})`` for ``k = 0..K`` (eq. (4.16)).

    ``ybar^{(r,k)}`` is the (participation-weighted) mean of the client duals of ``trace``; the shape is (K+1, S, d).
    ``x^_{(r,0)}`` is the server primal ``x^{(r,0)}``.
    """
    if trace.y is None:
        raise InvalidParameterError(
            "trace", "the trace of a dual method (FedDualAvg, FedDualAvg-OSP)", params.algorithm
        )
    ybar = np.einsum("sm,ksmd->ksd", trace.weights, trace.y)
    return np.stack([mirror(ybar[k], eta_tilde(params, r, k)) for k in range(params.K + 1)])


def run(
    oracle: Oracle,
    mirror: MirrorMap,
    x0,
    params: CompositeParams,
    R: int,
    rng: np.random.Generator,
    *,
    S: int = 1,
    record_every: int = 1,
    ergodic: bool = False,
) -> CompositeTrajectory:
    """Run ``R`` rounds on ``S`` replicas, recording the server state every ``record_every`` rounds.

    Parameters
    ----------
    ergodic : bool
        Also record the output (4.9) of Theorems 4.4/4.7,
        ``x^ = (1/(K r)) sum_{rho < r} sum_{k=1..K} grad (h + eta~^{(rho,k)} psi)^*(ybar^{(rho,k)})``
        (dual methods only).

    Raises
    ------
    DivergenceError
        At the first round whose server state is not finite.
    """
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=params.full_participation)
    R = positive_int("R", R, minimum=0)
    record_every = positive_int("record_every", record_every)
    if ergodic and not params.dual:
        raise InvalidParameterError("ergodic", "False for primal methods (eq. (4.9) averages dual shadows)", ergodic)
    _check_geometry(mirror, params, oracle.problem.dim)
    state = init(x0, mirror, params, S, dim=oracle.problem.dim)
    xs, ys, ts = [state.x], [state.y], [0]
    total = np.zeros_like(state.x)
    hats = [np.full_like(state.x, np.nan)] if ergodic else None
    for _ in range(R):
        if ergodic:
            r = state.r
            state, tr = round(state, oracle, mirror, params, rng, trace=True)
            total += shadow_primals(tr, mirror, params, r)[1:].sum(axis=0)
        else:
            state = round(state, oracle, mirror, params, rng)
        check_finite(state.x if state.y is None else np.concatenate([state.x, state.y], -1), params.algorithm, state.r)
        if state.r % record_every == 0 or state.r == R:
            xs.append(state.x)
            ys.append(state.y)
            ts.append(state.r)
            if ergodic:
                hats.append(total / (params.K * state.r))
    return CompositeTrajectory(
        np.stack(xs), np.stack(ys) if params.dual else None, np.asarray(ts), np.stack(hats) if ergodic else None
    )
