"""Federated proximal gradient with a decoupled proximal step and drift correction, vectorised.

The method keeps, per client, a *pre-prox* local model ``z^_{i,t}`` that accumulates gradient steps and a *post-prox*
model ``z_{i,t}`` at which gradients are queried; the server keeps the pre-prox global model ``x^r`` and every client
derives the post-prox model ``p^r = P_{eta~}(x^r)`` from it, with ``eta~ = eta eta_g tau``. One round
(``P_s(w) = argmin_u s g(u) + ||w - u||^2 / 2``):

    z^_{i,0} = z_{i,0} = p^r
    z^_{i,t+1} = z^_{i,t} - eta (g_{i,t} + c_i),     g_{i,t} a stochastic gradient of f_i at z_{i,t}
    z_{i,t+1}  = P_{(t+1) eta}(z^_{i,t+1})                                         t = 0, ..., tau - 1
    x^{r+1}    = p^r + eta_g (mean_i z^_{i,tau} - p^r)                               one d-vector up per client
    c_i^{r+1}  = (p^r - x^{r+1}) / (eta_g eta tau) - (1/tau) sum_t g_{i,t}           one d-vector down

so that ``sum_i c_i = 0`` and the server recovers the average gradient ``v^r = (p^r - x^{r+1})/(eta_g eta tau)``
from the models alone (the correction needs no second message). Variants (``DecoupledParams.variant``):

* ``"decoupled"`` -- as above (prox weight ``(t + 1) eta`` at local step ``t``);
* ``"fixed-prox"`` -- prox weight ``eta`` at every local step (an ablation of the growing weight; identical for
  ``tau = 1``);
* ``"coupled"`` -- proximal SGD with the same correction on the post-prox model,
  ``z_{i,t+1} = P_{(t+1) eta}(z_{i,t} - eta (g_{i,t} + c_i))``, and the post-prox ``z_{i,tau}`` sent to the server
  (the prox no longer commutes with averaging).

Arrays: server states ``(S, d)``, client states ``(S, n, d)``; one numpy operation per local step advances every
replica and client. :mod:`.decoupled_compact` holds the stacked ("compact") form of the same method, written from the
stacked recursion so that the two implementations can be compared pathwise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import InvalidParameterError
from ...oracles import Oracle, check_oracle, check_replicated
from ...regularizers import Regularizer
from ..fedavg import check_finite

VARIANTS = ("decoupled", "fixed-prox", "coupled")


@dataclass(frozen=True)
class DecoupledParams:
    """Hyperparameters and shape of a run.

    Parameters
    ----------
    eta : float
        Local step size (> 0).
    eta_g : float
        Server step size (> 0).
    tau : int
        Local steps per round.
    n : int
        Clients (all participate).
    variant : str
        One of :data:`VARIANTS`.
    """

    eta: float
    eta_g: float
    tau: int
    n: int
    variant: str = "decoupled"

    def __post_init__(self):
        positive("eta", self.eta)
        positive("eta_g", self.eta_g)
        positive_int("tau", self.tau)
        positive_int("n", self.n)
        if self.variant not in VARIANTS:
            raise InvalidParameterError("variant", f"one of {', '.join(VARIANTS)}", self.variant)

    @property
    def eta_tilde(self) -> float:
        """``eta~ = eta eta_g tau``, the server's prox weight."""
        return self.eta * self.eta_g * self.tau

    def weight(self, t: int) -> float:
        """The prox weight of local step ``t`` (0-based): ``(t + 1) eta``, or ``eta`` for ``"fixed-prox"``."""
        return self.eta if self.variant == "fixed-prox" else (t + 1) * self.eta


@dataclass
class DecoupledState:
    """Server pre-prox model ``x^r`` (S, d), corrections ``c_i^r`` (S, n, d), round ``r`` (1 at the start).

    The counters are totals over the run and the whole federation: ``uploads`` and ``downloads`` count d-vectors sent
    client -> server and server -> client, ``gradients`` the stochastic gradients and ``proxes`` the prox evaluations
    (each per replica).
    """

    x: np.ndarray
    c: np.ndarray
    r: int = 1
    uploads: int = 0
    downloads: int = 0
    gradients: int = 0
    proxes: int = 0


@dataclass
class DecoupledTrace:
    """Every local state of one round: ``p`` (S, d), ``z`` and ``z_hat`` (tau + 1, S, n, d), ``g`` (tau, S, n, d)."""

    p: np.ndarray
    z: np.ndarray
    z_hat: np.ndarray
    g: np.ndarray


@dataclass
class DecoupledTrajectory:
    """Recorded server models ``x`` (records, S, d), corrections ``c`` (records, S, n, d), rounds ``t``."""

    x: np.ndarray
    c: np.ndarray
    t: np.ndarray


def prox(regularizer: Regularizer | None, v: np.ndarray, step: float) -> np.ndarray:
    """``P_step(v)`` for ``regularizer`` (the identity for ``None``, i.e. ``g = 0``)."""
    return v if regularizer is None else regularizer.prox(v, step)


def check_regularizer(regularizer) -> Regularizer | None:
    """``regularizer`` after checking it is ``None`` or a :class:`~fedtheory.regularizers.Regularizer`."""
    if regularizer is not None and not isinstance(regularizer, Regularizer):
        raise InvalidParameterError(
            "regularizer", "None (g = 0) or a regularizer from fedtheory.regularizers", type(regularizer).__name__
        )
    return regularizer


def output(regularizer: Regularizer | None, x, params: DecoupledParams) -> np.ndarray:
    """The post-prox model ``P_{eta~}(x)`` of a server model ``x`` (the method's output)."""
    return prox(check_regularizer(regularizer), np.asarray(x, dtype=float), params.eta_tilde)


def init(x0, params: DecoupledParams, S: int = 1, *, dim: int | None = None) -> DecoupledState:
    """Every replica at ``x^1 = x0`` ((d,) or (S, d)) with zero corrections."""
    S = positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    x = check_replicated("x0", x0, dim if dim is not None else x0.shape[-1], S)
    return DecoupledState(x, np.zeros((S, params.n, x.shape[-1])))


def _check(state: DecoupledState, oracle, regularizer, params: DecoupledParams):
    oracle = check_oracle(oracle)
    oracle.problem.check_clients(params.n)
    if state.c.shape != (*state.x.shape[:1], params.n, state.x.shape[-1]):
        raise InvalidParameterError("state", f"corrections of shape (S, n = {params.n}, d)", f"{state.c.shape}")
    return oracle, check_regularizer(regularizer)


def round(
    state: DecoupledState,
    oracle: Oracle,
    regularizer: Regularizer | None,
    params: DecoupledParams,
    rng: np.random.Generator | None,
    *,
    trace: bool = False,
):
    """One round on every replica; with ``trace=True`` the pair ``(state, DecoupledTrace)``.

    ``rng`` may be ``None`` only with an oracle that draws nothing
    (:class:`~fedtheory.oracles.ExactGradient`).
    """
    oracle, regularizer = _check(state, oracle, regularizer, params)
    rng = generator("rng", rng, allow_none=True)
    S, d = state.x.shape
    p = prox(regularizer, state.x, params.eta_tilde)
    z_hat = z = np.broadcast_to(p[:, None, :], (S, params.n, d))
    g_sum = np.zeros((S, params.n, d))
    zs, hats, gs = [z], [z_hat], []
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(params.tau):
            g = oracle(z, rng)
            g_sum += g
            z_hat = (z if params.variant == "coupled" else z_hat) - params.eta * (g + state.c)
            z = prox(regularizer, z_hat, params.weight(t))
            if trace:
                zs.append(z)
                hats.append(z_hat)
                gs.append(g)
        sent = z if params.variant == "coupled" else z_hat
        x_new = p + params.eta_g * (sent.mean(axis=1) - p)
        c_new = ((p - x_new) / (params.eta_g * params.eta * params.tau))[:, None, :] - g_sum / params.tau
    new = DecoupledState(
        x_new,
        c_new,
        state.r + 1,
        state.uploads + params.n,
        state.downloads + params.n,
        state.gradients + params.n * params.tau,
        state.proxes + params.n * (params.tau + 1),
    )
    if not trace:
        return new
    return new, DecoupledTrace(p, np.stack(zs), np.stack(hats), np.stack(gs))


def reduced_map(oracle: Oracle, regularizer: Regularizer | None, params: DecoupledParams):
    """The deterministic round map on the flat coordinates ``s = (x, c_1, ..., c_{n-1})`` and its inverse packing.

    ``sum_i c_i = 0`` is conserved by every round, so ``c_n = -(c_1 + ... + c_{n-1})`` is eliminated and the map has
    isolated fixed points (for :func:`~fedtheory.algorithms.composite.affine_fixed_point`). The oracle must draw
    nothing (exact gradients).

    Returns
    -------
    step : callable
        ``s -> s'`` (one round of one replica).
    unpack : callable
        ``s -> DecoupledState`` with one replica.
    """
    oracle, regularizer = check_oracle(oracle), check_regularizer(regularizer)
    d, n = oracle.problem.dim, params.n

    def unpack(s) -> DecoupledState:
        s = np.asarray(s, dtype=float)
        c = s[d:].reshape(n - 1, d)
        return DecoupledState(s[None, :d].copy(), np.vstack([c, -c.sum(axis=0)])[None])

    def step(s) -> np.ndarray:
        new = round(unpack(s), oracle, regularizer, params, None)
        return np.concatenate([new.x[0], new.c[0, :-1].ravel()])

    return step, unpack


def run(
    oracle: Oracle,
    regularizer: Regularizer | None,
    x0,
    params: DecoupledParams,
    R: int,
    rng: np.random.Generator | None,
    *,
    S: int = 1,
    record_every: int = 1,
    state: DecoupledState | None = None,
) -> DecoupledTrajectory:
    """Run ``R`` rounds on ``S`` replicas from ``x^1 = x0`` (or from ``state``), recording every ``record_every``.

    Raises
    ------
    DivergenceError
        At the first round whose server model is not finite.
    """
    oracle = check_oracle(oracle)
    R = positive_int("R", R, minimum=0)
    record_every = positive_int("record_every", record_every)
    state = init(x0, params, S, dim=oracle.problem.dim) if state is None else replace(state)
    xs, cs, ts = [state.x], [state.c], [state.r]
    last = state.r + R
    for _ in range(R):
        state = round(state, oracle, regularizer, params, rng)
        check_finite(state.x, f"Algorithm ({params.variant})", state.r - 1)
        if (state.r - 1) % record_every == 0 or state.r == last:
            xs.append(state.x)
            cs.append(state.c)
            ts.append(state.r)
    return DecoupledTrajectory(np.stack(xs), np.stack(cs), np.asarray(ts))
