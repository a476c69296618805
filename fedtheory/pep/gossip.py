"""Performance estimation of decentralized rounds with a fixed mixing matrix (OledFL, DFedAvg), and their replays.

One round of client ``i`` with exact gradients (:mod:`fedtheory.algorithms.decentralized`, SGD steps)::

    x_{i,0}^t = x_i^t + beta (x_i^t - x_{i,K}^{t-1}),   x_{i,k+1}^t = x_{i,k}^t - eta grad f_i(x_{i,k}^t),
    x_i^{t+1} = sum_j w_ij x_{j,K}^t,

from ``x_i^0 = x_{i,K}^{-1} = x^0`` (``beta = 0``: DFedAvg). The clients are L-smooth (non-convex: PEPit's
``SmoothFunction``). Heterogeneity is the uniform bound ``||grad f_i(y)||^2 <= G2 + B2 ||grad f(y)||^2`` (``f`` the
mean of the clients); a bound "for all y" is expressible only at the points the problem holds, so it is imposed at
every point where the run (or its metric) evaluates a client: every client is evaluated at every such point. The
interpolated replay instance meets it at those points (up to the solve's accuracy), not necessarily elsewhere.

The metric of :func:`oledfl_round_gap` is a weighted sum of the round quantities below, all taken at the last
round ``t = R - 1`` of an ``R``-round run, except the averaged ones:

``drift``       ``(1/m) sum_i sum_{k<K} ||x_{i,k}^t - x_i^t||^2``
``delta``       ``(1/m) sum_i ||x_{i,K}^{t-1} - x_i^t||^2`` (zero at ``t = 0``)
``delta_next``  ``(1/m) sum_i ||x_{i,K}^t - x_i^{t+1}||^2``
``grad_agg``    ``(1/m) sum_i ||grad f(x_i^t)||^2``
``grad_sum``    ``||sum_i sum_{k<K} grad f_i(x_{i,k}^t)||^2``
``mean_step``   ``||xbar^{t+1} - xbar^t||^2``
``consensus``   ``(1/m) sum_i ||x_i^t - xbar^t||^2``
``grad_avg``    ``(1/R) sum_{s<R} ||grad f(xbar^s)||^2``
``descent``     ``f(xbar^0) - f(xbar^R)``

An optional ``normalize`` term ``(name, bound)`` adds the constraint ``name <= bound``: for a metric and a constraint
that are both homogeneous of degree two (no ``G2``) the constraint loses no generality.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import decentralized
from ..oracles import ExactGradient
from ..topology import MixingMatrix
from .interpolation import InterpolatedProblem
from .local_methods import average, smooth_clients
from .solve import Roles, WorstCase

QUANTITIES = (
    "drift",
    "delta",
    "delta_next",
    "grad_agg",
    "grad_sum",
    "mean_step",
    "consensus",
    "grad_avg",
    "descent",
)


def _check_terms(terms, normalize) -> None:
    names = [name for name, _ in terms] + ([normalize[0]] if normalize else [])
    unknown = sorted(set(names) - set(QUANTITIES))
    if unknown:
        raise ValueError(f"unknown round quantities {unknown}; known: {QUANTITIES}")


def _mix(W: tuple, points: list) -> list:
    """``sum_j w_ij p_j`` per row; identical rows give the same point object (no duplicate oracle points)."""
    out, seen = [], {}
    for row in W:
        key = tuple(float(w) for w in row)
        if key not in seen:
            total = None
            for w, p in zip(key, points, strict=True):
                if w != 0:
                    total = w * p if total is None else total + w * p
            seen[key] = total
        out.append(seen[key])
    return out


class _Evaluator:
    """Every client's gradient at a point, and the heterogeneity bound there (once per point object)."""

    def __init__(self, pep, clients, G2: float, B2: float):
        self.pep, self.clients, self.G2, self.B2 = pep, clients, G2, B2
        self.cache = {}

    def __call__(self, y):
        if id(y) not in self.cache:
            grads, values = zip(*(f.oracle(y) for f in self.clients), strict=True)
            mean = average(list(grads))
            for g in grads:
                self.pep.add_constraint(g**2 <= self.G2 + self.B2 * mean**2)
            self.cache[id(y)] = (y, grads, mean, average(list(values)))
        return self.cache[id(y)][1:]


def _sq_mean(pairs) -> object:
    """``(1/n) sum ||a - b||^2`` over pairs of points."""
    total = None
    for a, b in pairs:
        term = (a - b) ** 2
        total = term if total is None else total + term
    return total * (1 / len(pairs))


def oledfl_round_gap(pep, *, W: tuple, K: int, R: int, eta: float, beta: float, L: float, G2: float, B2: float,
                     terms: tuple, normalize: tuple | None = None):  # fmt: skip
    """Worst ``sum_j c_j q_j`` (``terms`` = ``((q_j, c_j), ...)``, quantities of the module docstring) of ``R``
    deterministic OledFL rounds (``beta = 0``: DFedAvg) with mixing matrix ``W`` (a tuple of rows), over ``m =
    len(W)`` L-smooth clients with ``||grad f_i(y)||^2 <= G2 + B2 ||grad f(y)||^2`` at every evaluated point."""
    _check_terms(terms, normalize)
    m = len(W)
    roles = Roles()
    clients = smooth_clients(pep, roles, m, -L, L)
    ev = _Evaluator(pep, clients, G2, B2)
    x0 = pep.set_initial_point()
    x, x_prev_local = [x0] * m, [x0] * m
    aggregated, means, locals_, local_grads = [x], [x0], [], []
    names = {name for name, _ in terms} | ({normalize[0]} if normalize else set())
    last_round = bool(names & {"drift", "delta_next", "grad_sum", "mean_step", "descent"})
    for t in range(R if last_round else R - 1):
        starts = x if t == 0 or beta == 0 else [xi + beta * (xi - yi) for xi, yi in zip(x, x_prev_local, strict=True)]
        iterates, grads = [], []
        for i in range(m):
            y, path, gs = starts[i], [starts[i]], []
            for _ in range(K):
                g = ev(y)[0][i]
                y = y - eta * g
                gs.append(g)
                path.append(y)
            iterates.append(path)
            grads.append(gs)
        locals_.append(iterates)
        local_grads.append(grads)
        x_prev_local = [path[-1] for path in iterates]
        x = _mix(W, x_prev_local)
        aggregated.append(x)
        means.append(x[0] if all(p is x[0] for p in x) else average(x_prev_local))
    t = R - 1  # without ``last_round`` the run stops at x_i^t: the quantities asked for need no more

    def drift():
        return _sq_mean([(p, aggregated[t][i]) for i in range(m) for p in locals_[t][i][:K]]) * K

    def delta():
        if t == 0:
            return 0 * (x0**2)
        return _sq_mean([(locals_[t - 1][i][-1], aggregated[t][i]) for i in range(m)])

    def grad_sum():
        return average([g for gs in local_grads[t] for g in gs]) ** 2 * (m * K) ** 2

    q = {
        "drift": drift,
        "delta": delta,
        "delta_next": lambda: _sq_mean([(locals_[t][i][-1], aggregated[t + 1][i]) for i in range(m)]),
        "grad_agg": lambda: _sq_mean([(ev(aggregated[t][i])[1], 0 * x0) for i in range(m)]),
        "grad_sum": grad_sum,
        "mean_step": lambda: (means[t + 1] - means[t]) ** 2,
        "consensus": lambda: _sq_mean([(aggregated[t][i], means[t]) for i in range(m)]),
        "grad_avg": lambda: _sq_mean([(ev(means[s])[1], 0 * x0) for s in range(R)]),
        "descent": lambda: ev(means[0])[2] - ev(means[R])[2],
    }
    metric = None
    for name, c in terms:
        metric = c * q[name]() if metric is None else metric + c * q[name]()
    pep.set_performance_metric(metric)
    if normalize:
        pep.add_constraint(q[normalize[0]]() <= normalize[1])
    roles.points.update(x0=x0, output=means[-1])
    return roles


def round_quantities(problem, W: tuple, x0, *, K: int, R: int, eta: float, beta: float) -> dict:
    """The quantities of the module docstring along fedtheory's own OledFL/DFedAvg
    (:func:`fedtheory.algorithms.decentralized.round`, exact gradients) on ``problem``."""
    Wm = MixingMatrix(np.array(W, dtype=float), check=False)
    params = decentralized.oledfl(eta, K, beta) if beta else decentralized.dfedavg(eta, K)
    oracle = ExactGradient(problem)
    state = decentralized.init(x0, Wm.m, dim=problem.dim)
    states, traces = [state], []
    for _ in range(R):
        state, trace = decentralized.round(state, oracle, Wm, params, None, trace=True)
        states.append(state)
        traces.append(trace)
    t, last = R - 1, traces[R - 1]
    x_t, x_next = states[t].x[0], states[t + 1].x[0]

    def grad_f(y):
        return problem.grad(np.asarray(y)[None])[0]

    sq = lambda a: float(np.sum(np.asarray(a) ** 2))  # noqa: E731
    mean_t, mean_next = x_t.mean(axis=0), states[t + 1].x[0].mean(axis=0)
    return {
        "drift": float(np.sum((last.local[:K, 0] - x_t[None]) ** 2)) / Wm.m,
        "delta": float(np.sum((states[t].x_local[0] - x_t) ** 2)) / Wm.m if t > 0 else 0.0,
        "delta_next": float(np.sum((states[t + 1].x_local[0] - x_next) ** 2)) / Wm.m,
        "grad_agg": float(np.mean([sq(grad_f(xi)) for xi in x_t])),
        "grad_sum": sq(last.grads[:, 0].sum(axis=(0, 1))),
        "mean_step": sq(mean_next - mean_t),
        "consensus": float(np.sum((x_t - mean_t) ** 2)) / Wm.m,
        "grad_avg": float(np.mean([sq(grad_f(s.x[0].mean(axis=0))) for s in states[:R]])),
        "descent": float(problem.value(states[0].x[0].mean(axis=0)) - problem.value(states[R].x[0].mean(axis=0))),
    }


def replay_oledfl_round_gap(worst: WorstCase, *, W: tuple, K: int, R: int, eta: float, beta: float, L: float,
                            terms: tuple, **_) -> float:  # fmt: skip
    """The metric of :func:`oledfl_round_gap` along fedtheory's OledFL/DFedAvg on the interpolated worst instance."""
    x0 = worst.points["x0"]
    problem = InterpolatedProblem(worst.functions, x0, L, -L)
    q = round_quantities(problem, W, x0, K=K, R=R, eta=eta, beta=beta)
    return float(sum(c * q[name] for name, c in terms))
