"""Federated primal-dual method with per-device tolerances (beyond consensus), vectorised over replicas and devices.

The problem ``min sum_i f_i(x_i)`` subject to ``||x_i - z||^2 <= gamma_i`` with Lagrangian
``L_i(x_i, z, lam_i) = f_i(x_i) + lam_i (||x_i - z||^2 - gamma_i)``. One round::

    sample P of the N devices uniformly without replacement
    device j in P:   x_j <- K local steps on L_j(., z, lam_j)  from x_j (warm start) or from z (cold start)
                     lam_j <- clip(lam_j + alpha (||x_j - z||^2 - gamma_j), lam_min, lam_max)   (old z, new x_j)
                     gamma_j <- gamma_j + eta_gamma lam_j^old                                   (optional heuristic)
    server:          z <- sum_{j in P} lam_j x_j / sum_{j in P} lam_j

A local step is ``w <- w - beta (g_j(w) + 2 lam_j (w - z))`` with ``g_j`` the oracle's (stochastic) gradient; the
exact local oracle solves the subproblem in closed form on quadratics. Devices outside ``P`` keep ``x_j`` and
``lam_j`` (``update="sampled"``), or every device updates and only ``P`` enters the server step (``update="all"``).
With ``update="sampled"`` only the sampled devices' local steps are computed where the oracle evaluates a subset of
the clients (``oracle.client_subsets``, :func:`working_set`): it draws what a call at every device draws and uses the
sampled devices' part, so the result is the one of computing every device and keeping the sampled ones.
A server step whose multipliers sum to zero raises :class:`~fedtheory.errors.ZeroMultiplierMassError`. Arrays are
``(S, N, d)`` (replicas, devices, coordinates); ``lam`` and ``gamma`` are ``(S, N)``.

``K`` may also be one step count per device ``(N,)`` (e.g. ``E`` epochs of ``ceil(n_i/b)`` minibatch steps): the
sampled devices then run :func:`ragged_steps`, which needs a :class:`~fedtheory.problems.softmax.SoftmaxMinibatch`
oracle and draws its own index stream (all steps' indices in one call per round), in a numba kernel
(:func:`fedtheory.kernels.softmax_local_steps`) where :func:`fedtheory.backends.kernels` is ``"numba"`` and in numpy
(the reference) otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import backends
from .._validate import generator, integer_array, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError, ZeroMultiplierMassError
from ..kernels import softmax_local_steps
from ..oracles import Oracle, check_oracle, check_replicated
from ..problems import FederatedQuadratic
from ..problems.softmax import SoftmaxMinibatch

STARTS = ("warm", "cold")
UPDATES = ("sampled", "all")


@dataclass(frozen=True)
class PrimalDualParams:
    """Hyperparameters of one round.

    Parameters
    ----------
    beta : float
        Local (primal) step size, > 0 (unused with the exact local oracle).
    alpha : float
        Dual step size, >= 0 (0 keeps the multipliers fixed).
    K : int or tuple of int
        Local steps, >= 1, or one count >= 1 per device ``(N,)`` (:func:`ragged_steps`); ``K = None`` is not
        allowed: the exact oracle is chosen by ``exact=True``.
    N : int
        Devices.
    participants : int
        Devices sampled per round, in [1, N].
    lam_box : (float, float)
        The multiplier box ``[lam_min, lam_max]``, ``0 <= lam_min <= lam_max`` (``lam_max`` may be ``inf``).
    start : {"warm", "cold"}
        Local start: the device's previous model (the printed oracle) or the server model.
    update : {"sampled", "all"}
        Which devices update their model and multiplier.
    eta_gamma : float
        Step of the tolerance heuristic ``gamma <- gamma + eta_gamma lam`` (0: fixed tolerances).
    exact : bool
        Solve the local subproblem exactly (quadratic problems only).
    """

    beta: float
    alpha: float
    K: int | tuple[int, ...]
    N: int
    participants: int
    lam_box: tuple[float, float] = (0.0, np.inf)
    start: str = "warm"
    update: str = "sampled"
    eta_gamma: float = 0.0
    exact: bool = False

    def __post_init__(self):
        positive("beta", self.beta)
        positive("alpha", self.alpha, allow_zero=True)
        positive_int("N", self.N)
        object.__setattr__(self, "K", device_steps(self.K, self.N))
        if not 1 <= self.participants <= self.N:
            raise InvalidParameterError("participants", f"an integer in [1, N = {self.N}]", self.participants)
        lo, hi = self.lam_box
        if not (0 <= lo <= hi) or np.isnan(hi):
            raise InvalidParameterError("lam_box", "(lam_min, lam_max) with 0 <= lam_min <= lam_max", self.lam_box)
        if self.start not in STARTS:
            raise InvalidParameterError("start", f"one of {STARTS}", self.start)
        if self.update not in UPDATES:
            raise InvalidParameterError("update", f"one of {UPDATES}", self.update)
        positive("eta_gamma", self.eta_gamma, allow_zero=True)


@dataclass
class PrimalDualState:
    """Server model ``z`` ``(S, d)``, local models ``x`` ``(S, N, d)``, multipliers ``lam`` and tolerances
    ``gamma`` ``(S, N)``, the round ``t``, and the devices sampled in the last round ``sampled`` ``(S, N)`` bool."""

    z: np.ndarray
    x: np.ndarray
    lam: np.ndarray
    gamma: np.ndarray
    t: int = 0
    sampled: np.ndarray | None = None


def init(z0, N: int, *, lam0=0.0, gamma=0.0, S: int = 1, dim: int | None = None) -> PrimalDualState:
    """Every device starts at ``x_i = z0`` with multiplier ``lam0`` and tolerance ``gamma`` (scalars or ``(N,)``)."""
    N, S = positive_int("N", N), positive_int("S", S)
    z0 = np.asarray(z0, dtype=float)
    z = check_replicated("z0", z0, dim if dim is not None else z0.shape[-1], S)
    lam = np.broadcast_to(np.asarray(lam0, dtype=float), (S, N)).copy()
    gam = np.broadcast_to(np.asarray(gamma, dtype=float), (S, N)).copy()
    if np.any(lam < 0) or np.any(gam < 0):
        raise InvalidParameterError("lam0" if np.any(lam < 0) else "gamma", "values >= 0")
    return PrimalDualState(z, np.broadcast_to(z[:, None, :], (S, N, z.shape[-1])).copy(), lam, gam)


def exact_local(problem: FederatedQuadratic, z: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """``argmin_x f_i(x) + lam_i ||x - z||^2`` for ``f_i = x'A_i x/2 - b_i'x``: ``(A_i + 2 lam_i I)^{-1}(b_i + 2 lam_i
    z)``, for ``z`` ``(S, d)`` and ``lam`` ``(S, N)``; refuses a subproblem that is not strongly convex."""
    H = problem.A[None] + 2 * lam[..., None, None] * np.eye(problem.dim)
    if np.any(np.linalg.eigvalsh(H)[..., 0] <= 0):
        raise InvalidParameterError(
            "lam", "multipliers making every local subproblem strongly convex (A_i + 2 lam I > 0)"
        )
    rhs = problem.b[None] + 2 * lam[..., None] * z[:, None, :]
    return np.linalg.solve(H, rhs[..., None])[..., 0]


def local_steps(w0, z, lam, oracle: Oracle, beta: float, K: int, rng) -> np.ndarray:
    """``K`` steps ``w <- w - beta (g(w) + 2 lam (w - z))`` from ``w0`` ``(S, N, d)`` towards ``z`` ``(S, d)``."""
    w, zz, ll = np.array(w0, dtype=float), z[:, None, :], lam[..., None]
    for _ in range(K):
        w = w - beta * (oracle(w, rng) + 2 * ll * (w - zz))
    return w


def device_steps(K, N: int) -> int | tuple[int, ...]:
    """``K`` checked: an integer >= 1, or one integer >= 1 per device (a tuple of ``N``)."""
    if np.ndim(K) == 0:
        return positive_int("K", K)
    steps = integer_array("K", K, minimum=1)
    if steps.shape != (N,):
        raise InvalidParameterError("K", f"an integer >= 1 or one per device ({N},)", f"shape {steps.shape}")
    return tuple(int(k) for k in steps)


def ragged_steps(oracle, w0, clients, steps, eta: float, rng, *, pull=0.0, anchor=None, correction=None):
    """``steps[s, q]`` steps ``w <- w - eta (g(w) + pull (w - anchor) + correction)`` of client ``clients[s, q]``
    from ``w0`` ``(S, Q, d)``, with ``g`` the minibatch gradient of a
    :class:`~fedtheory.problems.softmax.SoftmaxMinibatch` ``oracle``.

    The sample indices of every step are drawn first, in one call: for each ``(s, q)`` in order, ``steps[s, q]``
    blocks of ``b`` indices uniform in ``[0, n_i)`` (with replacement, as the oracle draws). ``pull`` is a scalar or
    ``(S, Q)`` (``2 lam`` for FedBC, ``mu`` for FedProx), ``anchor`` ``(S, d)`` (needed where ``pull != 0``),
    ``correction`` ``(S, Q, d)`` optional. With equal counts ``K`` and the same indices this is the arithmetic of
    :func:`local_steps` (and of the client-server ``local_steps``); the numba kernel agrees with the numpy loop to
    float64 rounding (the sums over samples run in another order)."""
    if type(oracle) is not SoftmaxMinibatch:
        raise InvalidParameterError("oracle", "a SoftmaxMinibatch (per-device step counts)", type(oracle).__name__)
    problem, b, rng = oracle.problem, oracle.batch_size, generator("rng", rng)
    w0, clients = problem.check_client_subset(w0, clients)
    steps = integer_array("steps", steps, minimum=1)
    if steps.shape != clients.shape:
        raise InvalidParameterError("steps", f"one count >= 1 per client of shape {clients.shape}", steps.shape)
    S, Q, d = w0.shape
    pull = np.broadcast_to(np.asarray(pull, dtype=float), (S, Q))
    if anchor is None:
        if np.any(pull != 0):
            raise InvalidParameterError("anchor", "the anchor (S, d) of the pull term (pull != 0)")
        anchor = np.zeros((S, d))
    anchor = np.broadcast_to(np.asarray(anchor, dtype=float), (S, d))
    correction = np.zeros((S, Q, d)) if correction is None else np.broadcast_to(correction, (S, Q, d))
    blocks = (steps * b).ravel()
    idx = rng.integers(0, np.repeat(problem.counts[clients.ravel()], blocks))  # every step's samples, (s, q) order
    offsets = (np.cumsum(blocks) - blocks).reshape(S, Q)
    if backends.kernels() == "numba":
        C, p = problem.n_classes, problem.n_inputs
        w = np.array(w0, dtype=float).reshape(S * Q, C, p)
        softmax_local_steps(
            problem.features,
            problem.labels,
            float(problem.l2),
            b,
            clients.ravel(),
            steps.ravel(),
            offsets.ravel(),
            idx,
            float(eta),
            np.ascontiguousarray(pull.ravel()),
            np.ascontiguousarray(anchor.reshape(S, C, p)),  # one per replica: row r reads anchor[r // Q]
            np.ascontiguousarray(correction.reshape(S * Q, C, p)),
            w,
        )
        return w.reshape(S, Q, d)
    return _numpy_steps(problem, w0, clients, steps, offsets, idx, b, eta, pull, anchor, correction)


def _numpy_steps(problem, w0, clients, steps, offsets, idx, b, eta, pull, anchor, correction) -> np.ndarray:
    """:func:`ragged_steps` in numpy: one array step over the clients with steps left, ``max(steps)`` steps."""
    w = np.array(w0, dtype=float)
    anchor = np.broadcast_to(anchor[:, None, :], w.shape)
    for k in range(int(steps.max())):
        live = np.nonzero(k < steps)
        at = (offsets[live] + k * b)[:, None] + np.arange(b)
        g = problem.sample_grad(w[live][None], idx[at][None], clients=clients[live][None])[0]
        g = g + pull[live][:, None] * (w[live] - anchor[live])
        g = g + correction[live]
        w[live] = w[live] - eta * g
    return w


def working_set(oracle: Oracle, mask: np.ndarray, *, sampled_only: bool = True) -> np.ndarray:
    """Indices ``(S, Q)`` of the clients whose local work a round computes, ascending per replica: the sampled ones
    of ``mask`` ``(S, N)`` (``Q = P``) where ``sampled_only``, not every client is sampled and the oracle evaluates a
    subset of the clients (``oracle.client_subsets``); otherwise every client (``Q = N``)."""
    S, N = mask.shape
    if sampled_only and not mask.all() and getattr(oracle, "client_subsets", False):
        return np.nonzero(mask)[1].reshape(S, -1)
    return np.broadcast_to(np.arange(N), (S, N))


def subset_oracle(oracle: Oracle, clients: np.ndarray, N: int):
    """The oracle ``(w, rng) -> gradients`` at the points ``(S, Q, d)`` of the working set ``clients`` ``(S, Q)``
    (:func:`working_set`) of ``N`` clients: ``oracle`` itself for every client, ``oracle.on_clients`` for a subset."""
    return oracle if clients.shape[1] == N else oracle.on_clients(clients, N)


def gather(a: np.ndarray, clients: np.ndarray) -> np.ndarray:
    """Rows ``clients`` ``(S, Q)`` of ``a`` ``(S, N, ...)``: ``(S, Q, ...)`` (``a`` itself for every client)."""
    if clients.shape[1] == a.shape[1]:
        return a
    return np.take_along_axis(a, clients.reshape(clients.shape + (1,) * (a.ndim - 2)), axis=1)


def scatter(base: np.ndarray, clients: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``base`` ``(S, N, ...)`` with rows ``clients`` ``(S, Q)`` replaced by ``values`` ``(S, Q, ...)`` (a new array;
    ``values`` itself for every client)."""
    if clients.shape[1] == base.shape[1]:
        return values
    out = np.array(base, dtype=float)  # a copy in the memory layout of base
    np.put_along_axis(out, clients.reshape(clients.shape + (1,) * (base.ndim - 2)), values, axis=1)
    return out


def sample(S: int, N: int, participants: int, rng) -> np.ndarray:
    """``(S, N)`` mask of ``participants`` devices drawn uniformly without replacement per replica (all if ``= N``)."""
    if participants == N:
        return np.ones((S, N), dtype=bool)
    if rng is None:
        raise InvalidParameterError("rng", "a numpy Generator to sample the devices")
    ranks = np.argsort(rng.random((S, N)), axis=1)
    mask = np.zeros((S, N), dtype=bool)
    np.put_along_axis(mask, ranks[:, :participants], True, axis=1)
    return mask


def server_step(x: np.ndarray, lam: np.ndarray, mask: np.ndarray, t: int, name: str = "FedBC") -> np.ndarray:
    """``sum_{j in P} lam_j x_j / sum_{j in P} lam_j`` per replica; zero mass raises."""
    weights = np.where(mask, lam, 0.0)
    mass = weights.sum(axis=1)
    if np.any(mass <= 0):
        raise ZeroMultiplierMassError(name, t, np.flatnonzero(mass <= 0))
    return np.einsum("sn,snd->sd", weights, x) / mass[:, None]


def round(state: PrimalDualState, oracle: Oracle, params: PrimalDualParams, rng) -> PrimalDualState:
    """One round of the method (see the module docstring); returns the new state."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    S, N, d = state.x.shape
    if N != params.N:
        raise InvalidParameterError("params", f"N = {N} devices as in the state", params.N)
    mask = sample(S, N, params.participants, rng)
    active = mask if params.update == "sampled" else np.ones_like(mask)
    if params.exact:
        if not isinstance(oracle.problem, FederatedQuadratic):
            raise InvalidParameterError("exact", "a FederatedQuadratic problem for the exact local oracle")
        x_new = exact_local(oracle.problem, state.z, state.lam)
    else:
        clients = working_set(oracle, mask, sampled_only=params.update == "sampled")
        Q = clients.shape[1]
        w0 = gather(state.x, clients) if params.start == "warm" else np.broadcast_to(state.z[:, None, :], (S, Q, d))
        lam = gather(state.lam, clients)
        if isinstance(params.K, int):
            local = local_steps(w0, state.z, lam, subset_oracle(oracle, clients, N), params.beta, params.K, rng)
        else:
            steps = np.asarray(params.K)[clients]
            local = ragged_steps(oracle, w0, clients, steps, params.beta, rng, pull=2 * lam, anchor=state.z)
        x_new = scatter(state.x, clients, local)
    x = np.where(active[..., None], x_new, state.x)
    drift = np.sum((x - state.z[:, None, :]) ** 2, axis=-1)
    lam_new = np.clip(state.lam + params.alpha * (drift - state.gamma), *params.lam_box)
    lam = np.where(active, lam_new, state.lam)
    gamma = np.where(active, state.gamma + params.eta_gamma * state.lam, state.gamma)
    z = server_step(x, lam, mask, state.t + 1)
    return PrimalDualState(z, x, lam, gamma, state.t + 1, mask)


@dataclass
class PrimalDualTrajectory:
    """Recorded states at rounds ``t``: ``z`` ``(records, S, d)``, ``x`` ``(records, S, N, d)``, ``lam`` and ``gamma``
    ``(records, S, N)``."""

    z: np.ndarray
    x: np.ndarray
    lam: np.ndarray
    gamma: np.ndarray
    t: np.ndarray


def run(
    oracle: Oracle,
    z0,
    params: PrimalDualParams,
    T: int,
    rng,
    *,
    lam0=0.0,
    gamma=0.0,
    S: int = 1,
    state: PrimalDualState | None = None,
) -> PrimalDualTrajectory:
    """``T`` rounds from ``init(z0, N, lam0=..., gamma=...)`` (or ``state``), recording every round."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    if state is None:
        state = init(z0, params.N, lam0=lam0, gamma=gamma, S=S, dim=oracle.problem.dim)
    records = [state]
    for _ in range(positive_int("T", T, minimum=0)):
        with np.errstate(over="ignore", invalid="ignore"):
            state = round(state, oracle, params, rng)
        if not (np.all(np.isfinite(state.z)) and np.all(np.isfinite(state.x))):
            raise DivergenceError("FedBC", state.t)
        records.append(state)
    return PrimalDualTrajectory(
        *(np.stack([getattr(r, f) for r in records]) for f in ("z", "x", "lam", "gamma")),
        np.array([r.t for r in records]),
    )
