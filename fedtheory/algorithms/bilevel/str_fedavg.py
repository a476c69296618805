"""StR-FedAvg (Algorithm 1 of the StR-FedAvg paper), vectorised over replicas and clients.

Printed box, indexed as in the analysis of Lemmas 5-7
(round ``r`` maps ``xbar^{r-1}`` to ``xbar^r``; the box's writes ``xbar^{r+1} := xbar^r + gamma_g Deltaxbar^r``
and its ``y_{i,k-1}^r := xbar^{r-1}``, both read as below)::

    for r = 1..R:
        sample S_r subset [N], |S_r| = S                 # uniform without replacement, per replica
        y_{i,0}^r = xbar^{r-1}                          # n floats down to each i in S_r
        y_{i,k}^r = y_{i,k-1}^r - gamma_l (eta grad f~_i(y_{i,k-1}^r, xi) + grad h~_i(y_{i,k-1}^r, zeta)),  k = 1..K
        Delta y_i^r = y_{i,K}^r - xbar^{r-1}            # n floats up
        xbar^r = xbar^{r-1} + gamma_g (1/S) sum_{i in S_r} Delta y_i^r

``xi`` and ``zeta`` are independent: the inner and outer oracles draw separately (inner first). With ``eta = 0`` the
outer oracle is not queried (its term vanishes), so the run is FedAvg on ``h`` pathwise, noise included.

Arrays: server iterates ``(S, n)`` (replicas, coordinates), client iterates ``(S, N, n)``. Every one of the ``N``
clients computes its local path (non-sampled ones virtually, so that the client drift ``eps_r`` of Lemma 5,
which sums over all ``N`` clients, is available); only the sampled ones enter the server average.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import InvalidParameterError
from ...oracles import ExactGradient, check_replicated
from ...problems.base import Problem
from ..fedavg import check_finite

ClientGradient = Callable[[np.ndarray, np.random.Generator], np.ndarray]
"""An oracle ``g(x (S, N, n), rng) -> (S, N, n)`` returning one (stochastic) gradient per client row."""


@dataclass(frozen=True)
class StRParams:
    """Hyperparameters of StR-FedAvg (Algorithm 1): ``K`` local steps, local step ``gamma_l``, global step
    ``gamma_g``, regularization weight ``eta`` and ``S = clients_per_round`` (``None``: all ``N`` clients).

    ``eta = 0`` is allowed (plain FedAvg on ``h``; the IPIR schedule gives ``eta_1 = 2 ln(1)/1 = 0``).
    Any ``gamma_g > 0`` is accepted; :attr:`printed_conditions` records whether Algorithm 1's input ``gamma_g >= 1``
    holds.
    """

    K: int
    gamma_l: float
    gamma_g: float
    eta: float
    clients_per_round: int | None = None

    def __post_init__(self):
        positive_int("K", self.K)
        positive("gamma_l", self.gamma_l)
        positive("gamma_g", self.gamma_g)
        positive("eta", self.eta, allow_zero=True)
        if self.clients_per_round is not None:
            positive_int("clients_per_round", self.clients_per_round)

    @property
    def gamma_tilde(self) -> float:
        """The effective step ``gamma_tilde = gamma_l gamma_g K`` (Theorem 1)."""
        return self.gamma_l * self.gamma_g * self.K

    @property
    def printed_conditions(self) -> bool:
        """Whether the box's input condition ``gamma_g >= 1`` (Algorithm 1) holds (``K >= 1`` is enforced)."""
        return self.gamma_g >= 1

    def sampled(self, N: int) -> int:
        """``S``, the number of clients per round among ``N`` (raises unless ``1 <= S <= N``)."""
        N = positive_int("N", N)
        S = N if self.clients_per_round is None else self.clients_per_round
        if S > N:
            raise InvalidParameterError("clients_per_round", f"an integer in [1, N = {N}]", S)
        return S


@dataclass
class StRState:
    """Server iterate ``xbar^r`` of every replica, shape ``(S, n)``, and the round counter ``r``."""

    x: np.ndarray
    r: int = 0


@dataclass
class StRTrajectory:
    """A recorded run of StR-FedAvg.

    Attributes
    ----------
    x : ndarray (n_records, S, n)
        Server iterates ``xbar^r`` at the rounds ``t``.
    t : ndarray (n_records,)
        Round counts (``0`` and ``R`` always included).
    params : StRParams
        The (round-independent) parameters of the run.
    N : int
        Number of clients.
    drift : ndarray (R, S) or None
        With ``record_drift=True``: ``eps_r = (1/(K S)) sum_{k=1..K} sum_{i=1..N} ||y_{i,k}^r - xbar^{r-1}||^2``
        for ``r = 1..R`` (Lemma 5, pathwise: its expectation is the printed ``eps_r``), over all ``N``
        clients, ``S`` the clients per round.
    floats_down, floats_up : int
        Floats sent server -> clients and clients -> server in one replica: ``n S R`` each.
    """

    x: np.ndarray
    t: np.ndarray
    params: StRParams
    N: int
    drift: np.ndarray | None
    floats_down: int
    floats_up: int

    @property
    def final(self) -> np.ndarray:
        """``xbar^R`` of every replica, shape ``(S, n)``."""
        return self.x[-1]

    @property
    def rounds(self) -> int:
        """``R``, the number of communication rounds run."""
        return int(self.t[-1])

    @property
    def communication(self) -> int:
        """Total floats communicated per replica, ``2 n S R``."""
        return self.floats_down + self.floats_up


def participation(N: int, S: int, replicas: int, rng: np.random.Generator) -> np.ndarray:
    """Weights ``1/S`` on ``S`` clients drawn uniformly without replacement from ``[N]``, independently per replica
    (shape ``(replicas, N)``, zeros elsewhere); one vectorised draw (the first ``S`` of a random permutation, obtained
    as the argsort of i.i.d. uniform keys)."""
    N, S, replicas = positive_int("N", N), positive_int("S", S), positive_int("replicas", replicas)
    rng = generator("rng", rng)
    if S > N:
        raise InvalidParameterError("S", f"an integer in [1, N = {N}]", S)
    chosen = np.argsort(rng.random((replicas, N)), axis=1)[:, :S]
    weights = np.zeros((replicas, N))
    np.put_along_axis(weights, chosen, 1.0 / S, axis=1)
    return weights


def round(
    state: StRState,
    h_oracle: ClientGradient,
    f_oracle: ClientGradient,
    params: StRParams,
    rng: np.random.Generator,
    *,
    N: int,
    drift: bool = False,
):
    """One round of Algorithm 1 on every replica.

    Parameters
    ----------
    h_oracle, f_oracle : callable
        ``oracle(y (S, N, n), rng)``: stochastic gradients of ``h_i`` and ``f_i`` at client ``i``'s row.
    N : int
        Number of clients.
    drift : bool
        Also return the client drift ``eps_r`` of Lemma 5 (shape ``(S,)``).

    Returns
    -------
    StRState
        ``xbar^r``; with ``drift=True`` the pair ``(state, eps_r)``.
    """
    S_part = params.sampled(N)
    rng = generator("rng", rng, allow_none=S_part == N)
    replicas, n = state.x.shape
    weights = None if S_part == N else participation(N, S_part, replicas, rng)
    anchor = state.x[:, None, :]
    y = np.broadcast_to(anchor, (replicas, N, n))
    eps = np.zeros(replicas)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(params.K):
            g = h_oracle(y, rng)
            if params.eta != 0:
                g = g + params.eta * f_oracle(y, rng)
            y = y - params.gamma_l * g
            if drift:
                eps += np.sum((y - anchor) ** 2, axis=(1, 2))
        delta = y - anchor
        mean_delta = delta.mean(axis=1) if weights is None else np.einsum("sm,smd->sd", weights, delta)
        new = StRState(state.x + params.gamma_g * mean_delta, state.r + 1)
    return (new, eps / (params.K * S_part)) if drift else new


def client_count(h: Problem, f: Problem | None, N: int | None) -> int:
    """The number of clients ``N``: from the problems' ``n_clients`` (they must agree), else ``N`` (default 1)."""
    counts = {p.n_clients for p in (h, f) if p is not None and p.n_clients is not None}
    if N is not None:
        counts.add(positive_int("N", N))
    if len(counts) > 1:
        raise InvalidParameterError("N", "one client count shared by h, f and N", sorted(counts))
    return counts.pop() if counts else 1


def client_oracle(name: str, oracle, problem: Problem) -> ClientGradient:
    """The oracle passed as parameter ``name`` for ``problem`` (``None``: exact gradients), checked to be one."""
    if oracle is None:
        return ExactGradient(problem)
    if isinstance(oracle, Problem) or not callable(oracle):
        raise InvalidParameterError(
            name, "an oracle oracle(y, rng) on the problem, e.g. ExactGradient(problem) or problem.rows()", oracle
        )
    if getattr(oracle, "problem", problem) is not problem:
        raise InvalidParameterError(name, f"an oracle built on the problem passed as {name.split('_')[0]}", oracle)
    return oracle


def simulate(
    h_oracle: ClientGradient,
    f_oracle: ClientGradient,
    x0: np.ndarray,
    params: StRParams,
    R: int,
    rng: np.random.Generator,
    *,
    N: int,
    record_every: int = 1,
    record_drift: bool = False,
    name: str = "StR-FedAvg",
) -> StRTrajectory:
    """Run ``R`` rounds from server iterates ``x0`` of shape ``(S, n)`` with oracles given directly.

    This is :func:`run` without the problem checks; IPIR-FedAvg uses it with the replica-dependent exact outer
    gradient ``x - y^t``.

    Raises
    ------
    DivergenceError
        At the first round whose server iterate is not finite (``name`` is the algorithm it reports).
    """
    R = positive_int("R", R, minimum=0)
    record_every = positive_int("record_every", record_every)
    rng = generator("rng", rng, allow_none=True)
    S_part = params.sampled(N)
    state = StRState(np.array(x0, dtype=float))
    xs, ts, eps = [state.x], [0], []
    for _ in range(R):
        state = round(state, h_oracle, f_oracle, params, rng, N=N, drift=record_drift)
        if record_drift:
            state, e = state
            eps.append(e)
        check_finite(state.x, name, state.r)
        if state.r % record_every == 0 or state.r == R:
            xs.append(state.x)
            ts.append(state.r)
    n = state.x.shape[1]
    drift = (np.stack(eps) if eps else np.zeros((0, state.x.shape[0]))) if record_drift else None
    return StRTrajectory(np.stack(xs), np.asarray(ts), params, N, drift, n * S_part * R, n * S_part * R)


def run(
    h: Problem,
    f: Problem,
    x0,
    params: StRParams,
    R: int,
    rng: np.random.Generator,
    *,
    replicas: int = 1,
    N: int | None = None,
    h_oracle=None,
    f_oracle=None,
    record_every: int = 1,
    record_drift: bool = False,
) -> StRTrajectory:
    """Run ``R`` rounds of StR-FedAvg (Algorithm 1) on ``replicas`` independent copies.

    Parameters
    ----------
    h, f : Problem
        Inner loss ``h = (1/N) sum h_i`` and outer loss ``f = (1/N) sum f_i``; a problem with ``n_clients = None``
        gives every client the same function.
    x0 : array (n,) or (replicas, n)
        ``xbar^0``.
    params : StRParams
        ``K, gamma_l, gamma_g, eta, S`` (constant over rounds: Algorithm 1's schedules depend on ``R`` only).
    R : int
        Communication rounds (``R >= 0``; the box prints ``R >= 1``).
    rng : numpy.random.Generator
        Drives client sampling and the oracles.
    N : int, optional
        Number of clients when neither problem fixes it (default 1).
    h_oracle, f_oracle : Oracle, optional
        Stochastic gradient oracles built on ``h`` and ``f`` (default exact gradients).
    record_every : int
        Record ``xbar^r`` every ``record_every`` rounds (and at ``R``); the outputs of
        :func:`~fedtheory.algorithms.bilevel.output` need ``record_every = 1``.
    record_drift : bool
        Record the client drift ``eps_r`` of Lemma 5 for every round.

    Raises
    ------
    DivergenceError
        At the first round whose server iterate is not finite.
    """
    for name, problem in (("h", h), ("f", f)):
        if not isinstance(problem, Problem):
            raise InvalidParameterError(
                name, "a problem from fedtheory.problems (oracles go in h_oracle, f_oracle)", problem
            )
    N = client_count(h, f, N)
    if f.dim != h.dim:
        raise InvalidParameterError("f", f"a problem of dimension n = {h.dim} (that of h)", f"dimension {f.dim}")
    h_oracle = client_oracle("h_oracle", h_oracle, h)
    f_oracle = client_oracle("f_oracle", f_oracle, f)
    x = check_replicated("x0", x0, h.dim, positive_int("replicas", replicas))
    return simulate(h_oracle, f_oracle, x, params, R, rng, N=N, record_every=record_every, record_drift=record_drift)
