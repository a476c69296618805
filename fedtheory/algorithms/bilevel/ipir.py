"""IPIR-FedAvg (Algorithm 2 of the StR-FedAvg paper), vectorised over replicas.

Printed box::

    for t = 0..T-1:
        x^t = StR-FedAvg on g_t(x) = 1/2 ||x - y^t||^2 (+ h) for R_t = t rounds, eta_t = 2 ln(t)/t^{5/12}, mu_f = 1
        y^{t+1} = y^t - gamma (grad f(y^t) + (y^t - x^t)/lam)

Implementation:

* the inner call is :func:`~fedtheory.algorithms.bilevel.str_fedavg.simulate` with the exact outer gradient
  ``x - y^t`` on every client (``sigma_f = 0``), the inner oracle of ``h`` and the Theorem 3 schedule
  (:func:`~fedtheory.algorithms.bilevel.schedules.schedule_ipir`: Case i, or Case ii when ``eta`` is given) at
  ``R_t = t + t0``; ``t0 = 0`` is the printed ``R_t = t``;
* the call at ``R_t = 0`` runs no round and returns its initial point; ``R_t = 1`` has ``eta_1 = 0``;
* the inner initial point (not specified in the paper): ``"cold"`` (a fixed ``x_cold``, default ``y^0``),
  ``"warm_y"`` (``y^t``), ``"warm_prev"`` (the previous inner output ``x^{t-1}``; ``x_cold`` at ``t = 0``);
* the inner output ``x^t``: ``"theta_avg"``, ``"printed"`` (:mod:`.outputs`, ``theta_t = 1/(1 - 0.5 eta_t gamma~_t)``)
  or ``"last"`` (the server iterate ``xbar^{R_t}``);
* communication per replica: ``sum_t 2 n S R_t`` floats for the inner rounds plus ``n N`` per outer iteration for
  the broadcast of ``y^t``;
* ``project``: an exact projection onto ``X_h^*`` replacing the inner call (``x^t = Pi[y^t]``, no rounds, no
  communication): the exact-projection reference loop, gradient descent on (3) with the printed gradient
  ``grad f(y) + (y - Pi[y])/lam``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import DivergenceError, InvalidParameterError
from ...oracles import check_replicated
from ...problems.base import Problem
from .outputs import output as inner_output
from .outputs import theta
from .schedules import schedule_ipir
from .str_fedavg import client_count, client_oracle, simulate

INITS = ("cold", "warm_y", "warm_prev")
OUTPUTS = ("theta_avg", "printed", "last")


@dataclass
class IPIRTrajectory:
    """A recorded run of IPIR-FedAvg.

    Attributes
    ----------
    y : ndarray (T+1, S, n)
        Outer iterates ``y^0..y^T``.
    x : ndarray (T, S, n)
        Inner outputs ``x^t_{eta_t}`` (the inexact projections of ``y^t``).
    x0 : ndarray (T, S, n)
        Initial points ``xbar^0`` of the inner calls.
    R : ndarray (T,)
        Inner rounds ``R_t = t + t0``.
    eta, gamma_tilde : ndarray (T,)
        ``eta_t`` and ``gamma~_t`` of each inner call (``NaN`` when ``R_t = 0``).
    rounds : int
        ``sum_t R_t``.
    floats : int
        Floats communicated per replica, ``sum_t 2 n S R_t + n N T``.
    t0, init, output : int, str, str
        The options of the run.
    """

    y: np.ndarray
    x: np.ndarray
    x0: np.ndarray
    R: np.ndarray
    eta: np.ndarray
    gamma_tilde: np.ndarray
    rounds: int
    floats: int
    t0: int
    init: str
    output: str

    def sample_output(self, rng: np.random.Generator) -> np.ndarray:
        """Theorem 3's output ``y^{T*}`` with ``T*`` uniform on ``{0..T-1}``, drawn per replica (shape (S, n))."""
        rng = generator("rng", rng)
        T, S = self.x.shape[:2]
        if T == 0:
            raise InvalidParameterError("T", "a run of at least one outer iteration", T)
        return self.y[rng.integers(0, T, size=S), np.arange(S)]


def _checked(name: str, value, shape: tuple[int, ...]) -> np.ndarray:
    value = np.asarray(value, dtype=float)
    if value.shape != shape:
        raise InvalidParameterError(name, f"a callable returning arrays of shape {shape}", f"shape {value.shape}")
    return value


def _check_options(init: str, output: str, T: int, t0: int) -> None:
    if init not in INITS:
        raise InvalidParameterError("init", f"one of {', '.join(INITS)}", init)
    if output not in OUTPUTS:
        raise InvalidParameterError("output", f"one of {', '.join(OUTPUTS)}", output)
    if output == "printed" and t0 <= 1 < T + t0:
        raise InvalidParameterError(
            "output",
            "'theta_avg' or 'last' when some R_t = 1 (the printed weights divide by an empty sum), or t0 >= 2",
            output,
        )


def ipir_run(
    h: Problem,
    outer_grad: Callable[[np.ndarray], np.ndarray],
    y0,
    lam: float,
    gamma: float,
    T: int,
    K: int,
    gamma_g: float,
    rng: np.random.Generator,
    *,
    t0: int = 0,
    init: str = "cold",
    output: str = "theta_avg",
    clients_per_round: int | None = None,
    x_cold=None,
    h_oracle=None,
    eta: float | None = None,
    project: Callable[[np.ndarray], np.ndarray] | None = None,
    replicas: int = 1,
    N: int | None = None,
) -> IPIRTrajectory:
    """Run ``T`` outer iterations of IPIR-FedAvg (Algorithm 2) on ``replicas`` independent copies.

    Parameters
    ----------
    h : Problem
        The federated inner loss ``h = (1/N) sum h_i``.
    outer_grad : callable
        ``y (S, n) -> grad f(y) (S, n)``, the gradient of the globally known outer loss (e.g. ``f.grad``).
    y0 : array (n,) or (replicas, n)
        ``y^0``.
    lam, gamma : float
        Moreau smoothing parameter ``lambda`` and outer step ``gamma``.
    T : int
        Outer iterations.
    K, gamma_g : int, float
        Local steps and global step of every inner call.
    rng : numpy.random.Generator
        Drives client sampling and the inner oracle.
    t0 : int
        ``R_t = t + t0`` (``0``: as printed).
    init, output : str
        Inner initial point (:data:`INITS`) and inner output (:data:`OUTPUTS`); see the module docstring.
    clients_per_round : int, optional
        ``S`` of every inner round (default all ``N``).
    x_cold : array, optional
        The fixed inner start of ``init = "cold"`` (default ``y^0``).
    h_oracle : Oracle, optional
        Stochastic gradients of ``h`` (default exact).
    eta : float, optional
        A constant ``eta`` selects Theorem 3 Case ii (``kappa = 1``, ``gamma~_t = 2 ln R_t/R_t``, needs
        ``R_t >= 2``); ``None`` is Case i.
    project : callable, optional
        ``y (S, n) -> Pi_{X_h^*}[y]``: replaces every inner call by the exact projection (then ``R_t``, ``rounds``
        and the inner-round communication are 0).
    N : int, optional
        Number of clients when ``h`` has identical clients (default 1).

    Raises
    ------
    DivergenceError
        At the first outer iteration whose ``y`` (or inner round whose server iterate) is not finite.
    """
    lam, gamma = positive("lam", lam), positive("gamma", gamma)
    T, t0 = positive_int("T", T, minimum=0), positive_int("t0", t0, minimum=0)
    K, rng = positive_int("K", K), generator("rng", rng, allow_none=True)
    if not isinstance(h, Problem):
        raise InvalidParameterError("h", "a problem from fedtheory.problems (its oracle goes in h_oracle)", h)
    _check_options(init, output, T, t0)
    if not callable(outer_grad):
        raise InvalidParameterError("outer_grad", "a callable y (S, n) -> grad f(y) (S, n)", outer_grad)
    if project is not None and not callable(project):
        raise InvalidParameterError("project", "a callable y (S, n) -> Pi_{X_h^*}[y] (S, n)", project)
    N = client_count(h, None, N)
    h_oracle = client_oracle("h_oracle", h_oracle, h)
    replicas = positive_int("replicas", replicas)
    y = check_replicated("y0", y0, h.dim, replicas)
    cold = y.copy() if x_cold is None else check_replicated("x_cold", x_cold, h.dim, replicas)
    n = h.dim
    ys, xs, starts, rounds, etas, steps = [y], [], [], [], [], []
    floats = 0
    previous = cold
    for t in range(T):
        R_t = 0 if project is not None else t + t0
        start = {"cold": cold, "warm_y": y, "warm_prev": previous}[init]
        if project is not None:
            x, eta_t, step = _checked("project", project(y), y.shape), np.nan, np.nan
        elif R_t == 0:
            x, eta_t, step = start.copy(), np.nan, np.nan
        else:
            params = schedule_ipir(t, K, gamma_g, t0=t0, eta=eta, clients_per_round=clients_per_round)
            inner = simulate(
                h_oracle,
                lambda z, _rng, anchor=y[:, None, :]: z - anchor,
                start,
                params,
                R_t,
                rng,
                N=N,
                name=f"StR-FedAvg (IPIR-FedAvg inner call at t = {t})",
            )
            if output == "last":
                x = inner.final
            else:
                x = inner_output(inner, theta(params.eta, 1.0, params.gamma_tilde), output).x
            eta_t, step = params.eta, params.gamma_tilde
            floats += inner.communication
        if project is None:
            floats += n * N  # the broadcast of y^t
        grad = _checked("outer_grad", outer_grad(y), y.shape)
        with np.errstate(over="ignore", invalid="ignore"):
            y = y - gamma * (grad + (y - x) / lam)
        if not np.all(np.isfinite(y)):
            raise DivergenceError("IPIR-FedAvg", t + 1, "y is not finite", unit="outer iteration")
        ys.append(y)
        xs.append(x)
        starts.append(start)
        rounds.append(R_t)
        etas.append(eta_t)
        steps.append(step)
        previous = x
    empty = np.zeros((0, replicas, n))
    return IPIRTrajectory(
        np.stack(ys),
        np.stack(xs) if xs else empty,
        np.stack(starts) if starts else empty,
        np.asarray(rounds, dtype=int),
        np.asarray(etas, dtype=float),
        np.asarray(steps, dtype=float),
        int(sum(rounds)),
        floats,
        t0,
        init,
        output,
    )
