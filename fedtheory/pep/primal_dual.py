"""Performance estimation of the federated primal-dual method (beyond consensus) with fixed multipliers.

One round of :mod:`fedtheory.algorithms.primal_dual` with every device participating: device ``i`` runs ``K``
gradient steps ``w <- w - beta (grad f_i(w) + 2 lam_i (w - z))`` on ``f_i + lam_i ||. - z||^2`` from its previous
model (warm start; ``K = 0`` is the exact local oracle ``x_i = argmin f_i + lam_i ||. - z||^2``, a proximal step of
``f_i`` with parameter ``1/(2 lam_i)``), then the server takes ``z <- sum_i lam_i x_i / sum_i lam_i``. Devices start
at ``x_i^0 = z^0``. The multipliers are parameters of the problem, held fixed over the ``R`` rounds: the dual
update is a scalar recursion, and the per-round analysis conditions on them. Tolerances ``gamma_i`` cancel in every
difference of Lagrangians at a fixed multiplier and do not enter.

Clients are ``L``-smooth, possibly non-convex (``SmoothFunction``). Optional conditions, each written at the points
the method visits (the expressible form of a uniform assumption over a domain):

- ``eps``: the local oracle's accuracy ``||grad f_i(x_i^{t+1}) + 2 lam_i (x_i^{t+1} - z^t)||^2 <= eps`` at every
  output of the ``K`` gradient steps;
- ``delta2``: heterogeneity ``||a grad f_i(p) - b grad f_j(p)||^2 <= delta2`` for every pair ``i != j``, every ``a,
  b`` in ``box = (lam_min, lam_max)`` (its vertices suffice: the norm is convex in ``(a, b)``) and every visited
  point ``p`` (each server model ``z^t`` and each local model ``x_i^t``);
- ``normalize = "consensus"``: ``(1/N) sum_i ||x_i^R - z^R||^2 <= 1`` (a scale for homogeneous metrics).

The metric (``metric``, with coefficient(s) ``coef``, ``t = R - 1`` the last round, ``dx_i = x_i^R - x_i^t``,
``L_i(x, z) = f_i(x) + lam_i ||x - z||^2``, ``grad_x L_i(x, z) = grad f_i(x) + 2 lam_i (x - z)``):

- ``"stationarity"``: mean over ``devices`` of ``||grad_x L_i(x_i^t, z^t)||^2 - coef ||dx_i||^2``;
- ``"local_decrease"``: mean over ``devices`` of ``L_i(x_i^R, z^t) - L_i(x_i^t, z^t) + coef ||dx_i||^2``;
- ``"lagrangian_descent"``: mean over all devices of ``||dx_i||^2 - [L_i(x_i^t, z^t) - L_i(x_i^R, z^R)] - coef
  ||x_i^R - z^R||^2``;
- ``"lagrangian_stationarity"``: mean over all devices of ``||grad_x L_i(x_i^t, z^t)||^2 - coef[0] [L_i(x_i^t, z^t)
  - L_i(x_i^R, z^R)] - coef[1] ||x_i^R - z^R||^2``;
- ``"spread"``: ``||x_0^R - x_1^R||^2``;
- ``"consensus"``: ``(1/N) sum_{s=1..R} sum_i ||x_i^s - z^s||^2``;
- ``"server_gradient"``: ``||(1/N) sum_i grad f_i(z^R)||^2 - coef[0] (1/N) sum_i ||grad f_i(z^R) - grad
  f_i(x_i^R)||^2 - coef[1] (1/N) sum_i ||grad_x L_i(x_i^R, z^R)||^2``.

``devices`` is ``None`` (all) or a tuple of device indices. :func:`replay_primal_dual_metric` runs
:func:`fedtheory.algorithms.primal_dual.run` (``alpha = 0``, the box and multipliers of the problem, full
participation, warm start) on the interpolated worst instance and evaluates the same metric; for the exact oracle
it runs ``replay_steps`` local gradient steps of size ``1/(min lam + max lam)``, which contract by at least ``(max
lam - min lam + L)/(max lam + min lam)`` per step (the local problem is ``(2 lam_i - L)``-strongly convex and ``(L + 2
lam_i)``-smooth), reaching the exact oracle far below the replay tolerance.
"""

from __future__ import annotations

import functools

import numpy as np

from ..algorithms import primal_dual as pd
from ..errors import InvalidParameterError
from ..oracles import ExactGradient
from .interpolation import InterpolatedProblem
from .local_methods import smooth_clients
from .solve import Roles, WorstCase

METRICS = (
    "stationarity",
    "local_decrease",
    "lagrangian_descent",
    "lagrangian_stationarity",
    "spread",
    "consensus",
    "server_gradient",
)


def _total(terms: list):
    return functools.reduce(lambda a, b: a + b, terms)


def _evaluate(metric, coef, devices, lams, z, x, grad, value, sq):
    """The metric on a trajectory ``z[t]``, ``x[t][i]`` (PEPit points or arrays) with the given primitives."""
    N, R = len(lams), len(z) - 1
    t = R - 1
    chosen = range(N) if devices is None else devices

    def grad_lag(i, p, q):
        return grad(i, p) + 2 * lams[i] * (p - q)

    def lag(i, p, q):
        return value(i, p) + lams[i] * sq(p - q)

    def mean(terms):
        return _total(terms) * (1 / len(terms))

    if metric == "stationarity":
        return mean([sq(grad_lag(i, x[t][i], z[t])) - coef * sq(x[R][i] - x[t][i]) for i in chosen])
    if metric == "local_decrease":
        return mean([lag(i, x[R][i], z[t]) - lag(i, x[t][i], z[t]) + coef * sq(x[R][i] - x[t][i]) for i in chosen])
    if metric == "lagrangian_descent":
        return mean(
            [
                sq(x[R][i] - x[t][i]) - lag(i, x[t][i], z[t]) + lag(i, x[R][i], z[R]) - coef * sq(x[R][i] - z[R])
                for i in range(N)
            ]
        )
    if metric == "lagrangian_stationarity":
        c_lag, c_cons = coef
        return mean(
            [
                sq(grad_lag(i, x[t][i], z[t]))
                - c_lag * (lag(i, x[t][i], z[t]) - lag(i, x[R][i], z[R]))
                - c_cons * sq(x[R][i] - z[R])
                for i in range(N)
            ]
        )
    if metric == "spread":
        return sq(x[R][0] - x[R][1])
    if metric == "consensus":
        return _total([sq(x[s][i] - z[s]) for s in range(1, R + 1) for i in range(N)]) * (1 / N)
    if metric == "server_gradient":
        c_diff, c_lag = coef
        full = sq(mean([grad(i, z[R]) for i in range(N)]))
        diff = mean([sq(grad(i, z[R]) - grad(i, x[R][i])) for i in range(N)])
        return full - c_diff * diff - c_lag * mean([sq(grad_lag(i, x[R][i], z[R])) for i in range(N)])
    raise InvalidParameterError("metric", f"one of {METRICS}", metric)


def _check(N, K, R, lams, box, metric):
    if metric not in METRICS:
        raise InvalidParameterError("metric", f"one of {METRICS}", metric)
    if len(lams) != N or not all(box[0] <= lam <= box[1] for lam in lams) or box[0] <= 0:
        raise InvalidParameterError("lams", f"{N} multipliers inside a positive box {box}", lams)
    if K < 0 or R < 1 or (metric == "spread" and N < 2):
        raise InvalidParameterError("(K, R, N)", "K >= 0, R >= 1 (N >= 2 for the spread)", (K, R, N))


def primal_dual_metric(
    pep,
    *,
    N: int,
    K: int,
    R: int,
    beta: float,
    lams: tuple,
    box: tuple,
    L: float,
    metric: str,
    coef=0.0,
    devices: tuple | None = None,
    eps: float | None = None,
    delta2: float | None = None,
    normalize: str | None = None,
):
    """Worst ``metric`` (module docstring) of ``R`` rounds of the primal-dual method with multipliers ``lams`` over
    ``N`` clients, each ``L``-smooth (non-convex allowed), under the conditions ``eps``, ``delta2``, ``normalize``."""
    from PEPit.primitive_steps import proximal_step

    _check(N, K, R, lams, box, metric)
    roles = Roles()
    clients = smooth_clients(pep, roles, N, -L, L)
    z0 = pep.set_initial_point()
    z, x = [z0], [[z0] * N]
    for _ in range(R):
        new = []
        for i, f in enumerate(clients):
            if K == 0:
                xi, _, _ = proximal_step(z[-1], f, 1 / (2 * lams[i]))
            else:
                xi = x[-1][i]
                for _ in range(K):
                    xi = xi - beta * (f.gradient(xi) + 2 * lams[i] * (xi - z[-1]))
                if eps is not None:
                    pep.set_initial_condition((f.gradient(xi) + 2 * lams[i] * (xi - z[-1])) ** 2 <= eps)
            new.append(xi)
        x.append(new)
        z.append(_total([lam * xi for lam, xi in zip(lams, new, strict=True)]) * (1 / sum(lams)))
    if delta2 is not None:
        visited = z + [p for row in x[1:] for p in row]
        vertices = sorted(set(box))
        for p in visited:
            g = [f.gradient(p) for f in clients]
            for i in range(N):
                for j in range(N):
                    for a in vertices if i != j else ():
                        for b in vertices:
                            pep.set_initial_condition((a * g[i] - b * g[j]) ** 2 <= delta2)
    if normalize == "consensus":
        pep.set_initial_condition(_total([(x[R][i] - z[R]) ** 2 for i in range(N)]) * (1 / N) <= 1)
    elif normalize is not None:
        raise InvalidParameterError("normalize", "None or 'consensus'", normalize)

    def grad(i, p):
        return clients[i].gradient(p)

    def value(i, p):
        return clients[i].value(p)

    pep.set_performance_metric(_evaluate(metric, coef, devices, lams, z, x, grad, value, lambda v: v**2))
    roles.points.update(z0=z0, output=z[-1])
    return roles


def replay_trajectory(worst: WorstCase, *, N, K, R, beta, lams, box, L, replay_steps: int = 30, **_):
    """Run :func:`fedtheory.algorithms.primal_dual.run` on the interpolated worst instance: the problem and the
    trajectory ``(z[t], x[t][i])`` as lists of arrays."""
    problem = InterpolatedProblem(worst.functions, worst.points["z0"], L, -L)
    if K == 0:
        K, beta = replay_steps, 1 / (min(lams) + max(lams))
    params = pd.PrimalDualParams(beta, 0.0, K, N, N, lam_box=tuple(float(b) for b in box), start="warm")
    traj = pd.run(ExactGradient(problem), worst.points["z0"], params, R, None, lam0=np.asarray(lams, dtype=float))
    z = [traj.z[t, 0] for t in range(R + 1)]
    x = [[traj.x[t, 0, i] for i in range(N)] for t in range(R + 1)]
    return problem, z, x


def replay_primal_dual_metric(worst: WorstCase, **params) -> float:
    """The metric of :func:`primal_dual_metric` on fedtheory's own run on the interpolated worst instance."""
    problem, z, x = replay_trajectory(worst, **params)
    clients = problem.clients
    value = _evaluate(
        params["metric"],
        params.get("coef", 0.0),
        params.get("devices"),
        params["lams"],
        z,
        x,
        lambda i, p: clients[i].grad(p),
        lambda i, p: float(clients[i].value(p)),
        lambda v: float(np.sum(v**2)),
    )
    return float(value)
