"""Performance estimation formulations of client-server methods with local steps, and their replays.

Each formulation ``name(pep, **params)`` writes an algorithm's deterministic round map (exact gradients) on PEPit's
function classes and returns its :class:`~fedtheory.pep.solve.Roles`; ``replay_name(worst, **params)`` runs
fedtheory's own implementation of the same algorithm on the interpolated worst instance and returns the metric.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import fedavg
from ..oracles import ExactGradient
from .interpolation import InterpolatedProblem
from .solve import Roles, WorstCase


def smooth_clients(pep, roles: Roles, M: int, mu: float, L: float) -> list:
    """Declare ``M`` clients in ``F_{mu,L}`` (``mu = -L``: L-smooth non-convex) and record their class."""
    from PEPit.functions import SmoothFunction, SmoothStronglyConvexFunction

    clients = []
    for _ in range(M):
        if mu == -L:
            f = pep.declare_function(SmoothFunction, L=L)
        else:
            f = pep.declare_function(SmoothStronglyConvexFunction, mu=mu, L=L)
        clients.append(f)
        roles.functions.append(f)
        roles.classes.append((mu, L))
    return clients


def average(points: list):
    """The mean of PEPit points."""
    total = points[0]
    for p in points[1:]:
        total = total + p
    return total * (1 / len(points))


def optimum_heterogeneity(pep, clients: list, zeta2: float):
    """The stationary point ``x*`` of the mean and ``||grad f_m(x*)||^2 <= zeta2`` for every client."""
    total = clients[0]
    for f in clients[1:]:
        total = total + f
    x_star = total.stationary_point()
    for f in clients:
        pep.set_initial_condition(f.gradient(x_star) ** 2 <= zeta2)
    return x_star


def fedavg_distance(pep, *, M: int, K: int, R: int, eta: float, mu: float, L: float, zeta2: float, D2: float = 1.0):
    """Worst ``||x_R - x*||^2`` of deterministic FedAvg (local GD) over ``M`` clients in ``F_{mu,L}`` with
    ``||grad f_m(x*)||^2 <= zeta2`` and ``||x_0 - x*||^2 <= D2``."""
    roles = Roles()
    clients = smooth_clients(pep, roles, M, mu, L)
    x_star = optimum_heterogeneity(pep, clients, zeta2)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_star) ** 2 <= D2)
    x = x0
    for _ in range(R):
        local = []
        for f in clients:
            y = x
            for _ in range(K):
                y = y - eta * f.gradient(y)
            local.append(y)
        x = average(local)
    pep.set_performance_metric((x - x_star) ** 2)
    roles.points.update(x0=x0, x_star=x_star, output=x)
    return roles


def replay_fedavg_distance(worst: WorstCase, *, M: int, K: int, R: int, eta: float, mu: float, L: float, **_) -> float:
    """``||x_R - x*||^2`` of :func:`fedtheory.algorithms.fedavg.run` on the interpolated worst instance."""
    problem = InterpolatedProblem(worst.functions, worst.points["x_star"], L, mu)
    traj = fedavg.run(ExactGradient(problem), worst.points["x0"], fedavg.FedAvgParams(eta, K, M), R, None)
    return float(np.sum((traj.final[0] - worst.points["x_star"]) ** 2))


# --- FedAvg's round map with uniform heterogeneity, and the metrics of its analysis --------------------------------


def uniform_heterogeneity(pep, clients: list, x, zeta2: float) -> list:
    """``||grad f_m(x) - grad F(x)||^2 <= zeta2`` for every client at the point ``x``; returns the clients' gradients.

    A bound ``sup_x ||grad f_m(x) - grad F(x)||^2 <= zeta2`` cannot be imposed at every point of the space; imposed at
    every point where the algorithm evaluates a gradient (or the metric a value), it is its expressible form: the
    performance estimation class contains the uniform class, so a worst case below a bound is below it over the uniform
    class too, while an interpolated instance above a bound meets the bound at those points only.
    """
    grads = [f.gradient(x) for f in clients]
    mean = average(grads)
    for g in grads:
        pep.add_constraint((g - mean) ** 2 <= zeta2)
    return grads


def mean_value(clients: list, x):
    """``F(x) = (1/M) sum_m f_m(x)`` as a PEPit expression."""
    total = clients[0].value(x)
    for f in clients[1:]:
        total = total + f.value(x)
    return total * (1 / len(clients))


def local_gd_rounds(pep, clients: list, x0, *, K: int, R: int, eta: float, zeta2: float | None = None) -> list:
    """``R`` rounds of deterministic FedAvg from ``x0``: ``states[r][k][m] = x_m^(r,k)``, ``k = 0..K`` (``k = 0`` the
    broadcast ``x^(r,0)``); ``x^(r+1,0)`` is the mean of ``states[r][K]``. With ``zeta2`` the uniform heterogeneity
    bound is imposed (:func:`uniform_heterogeneity`) at every point where a gradient is taken."""
    states, x = [], x0
    for _ in range(R):
        if zeta2 is not None:
            uniform_heterogeneity(pep, clients, x, zeta2)
        rows = [[x] * len(clients)]
        for _ in range(K):
            row = []
            for f, y in zip(clients, rows[-1], strict=True):
                if zeta2 is not None and y is not x:
                    uniform_heterogeneity(pep, clients, y, zeta2)
                row.append(y - eta * f.gradient(y))
            rows.append(row)
        states.append(rows)
        x = rows[-1][0] if all(f is clients[0] for f in clients) else average(rows[-1])  # identical: no rounding
    return states


def _start(pep, clients: list, D2: float, zeta2: float | None):
    """``x*`` (stationary for the mean; the heterogeneity bound imposed there too) and ``x0`` with ``||x0 - x*||^2 <=
    D2``."""
    total = clients[0]
    for f in clients[1:]:
        total = total + f
    x_star = total.stationary_point()
    if zeta2 is not None:
        uniform_heterogeneity(pep, clients, x_star, zeta2)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_star) ** 2 <= D2)
    return x_star, x0


def fedavg_shadow_gap(pep, *, M: int, K: int, R: int, eta: float, mu: float, L: float, zeta2: float, D2: float = 1.0):
    """Worst ``(1/KR) sum_{r<R} sum_{k=1..K} F(xbar^(r,k)) - F*`` of deterministic FedAvg over ``M`` clients in
    ``F_{mu,L}`` with ``||grad f_m - grad F||^2 <= zeta2`` at every evaluated point and ``||x_0 - x*||^2 <= D2``."""
    roles = Roles()
    clients = smooth_clients(pep, roles, M, mu, L)
    x_star, x0 = _start(pep, clients, D2, zeta2)
    states = local_gd_rounds(pep, clients, x0, K=K, R=R, eta=eta, zeta2=zeta2)
    f_star = mean_value(clients, x_star)
    gap = None
    for rows in states:
        for row in rows[1:]:
            xbar = average(row)
            uniform_heterogeneity(pep, clients, xbar, zeta2)
            term = mean_value(clients, xbar) - f_star
            gap = term if gap is None else gap + term
    pep.set_performance_metric(gap * (1 / (K * R)))
    roles.points.update(x0=x0, x_star=x_star)
    return roles


def _replay_states(problem, x0, *, M: int, K: int, R: int, eta: float) -> np.ndarray:
    """Client states ``(R, K+1, M, d)`` of :func:`fedavg.round` (its local steps :func:`fedavg.local_sgd` taken one at
    a time to record them); checks that the recorded last states average to the round's server iterate."""
    oracle = ExactGradient(problem)
    params = fedavg.FedAvgParams(eta, K, M)
    state = fedavg.init(x0)
    out = []
    for _ in range(R):
        rows = [np.broadcast_to(state.x[:, None, :], (1, M, state.x.shape[-1]))]
        for _ in range(K):
            rows.append(fedavg.local_sgd(rows[-1], oracle, eta, 1, None))
        state = fedavg.round(state, oracle, params, None)
        if not np.allclose(rows[-1].mean(axis=1), state.x, rtol=1e-12, atol=1e-12):
            raise AssertionError("the recorded local steps do not reproduce fedavg.round")
        out.append(np.stack([r[0] for r in rows]))
    return np.stack(out)


def replay_fedavg_shadow_gap(
    worst: WorstCase, *, M: int, K: int, R: int, eta: float, mu: float, L: float, **_
) -> float:
    """The shadow gap of :func:`fedavg.round` on the interpolated worst instance."""
    problem = InterpolatedProblem(worst.functions, worst.points["x_star"], L, mu)
    states = _replay_states(problem, worst.points["x0"], M=M, K=K, R=R, eta=eta)
    xbar = states[:, 1:].mean(axis=2)  # (R, K, d)
    f_star = float(problem.value(worst.points["x_star"]))
    return float(np.mean(problem.value(xbar)) - f_star)


def fedavg_shadow_lyapunov(pep, *, M: int, K: int, R: int, eta: float, mu: float, L: float, D2: float = 1.0):
    """Worst ``(1/KR) sum_{r,k=1..K} (F(xbar^(r,k)) - F*) + ||x_R - x*||^2/(2 eta KR) - (L/(MKR)) sum_{r, k<K, m}
    ||x_m^(r,k) - xbar^(r,k)||^2`` of deterministic FedAvg over ``M`` clients in ``F_{mu,L}`` (no heterogeneity
    bound) with ``||x_0 - x*||^2 <= D2``."""
    roles = Roles()
    clients = smooth_clients(pep, roles, M, mu, L)
    x_star, x0 = _start(pep, clients, D2, None)
    states = local_gd_rounds(pep, clients, x0, K=K, R=R, eta=eta)
    f_star = mean_value(clients, x_star)
    gap, spread = None, None
    for rows in states:
        for row in rows[1:]:
            term = mean_value(clients, average(row)) - f_star
            gap = term if gap is None else gap + term
        for row in rows[1:K]:  # k = 0 has no spread
            xbar = average(row)
            for y in row:
                spread = (y - xbar) ** 2 if spread is None else spread + (y - xbar) ** 2
    x_R = average(states[-1][-1])
    metric = gap * (1 / (K * R)) + (x_R - x_star) ** 2 * (1 / (2 * eta * K * R))
    if spread is not None:
        metric = metric - spread * (L / (M * K * R))
    pep.set_performance_metric(metric)
    roles.points.update(x0=x0, x_star=x_star)
    return roles


def replay_fedavg_shadow_lyapunov(
    worst: WorstCase, *, M: int, K: int, R: int, eta: float, mu: float, L: float, **_
) -> float:
    """The Lyapunov combination of :func:`fedavg_shadow_lyapunov` for :func:`fedavg.round` on the worst instance."""
    problem = InterpolatedProblem(worst.functions, worst.points["x_star"], L, mu)
    x_star = worst.points["x_star"]
    states = _replay_states(problem, worst.points["x0"], M=M, K=K, R=R, eta=eta)
    xbar = states.mean(axis=2)  # (R, K+1, d)
    gap = float(np.mean(problem.value(xbar[:, 1:])) - problem.value(x_star))
    spread = float(np.sum((states[:, :K] - xbar[:, :K, None, :]) ** 2))
    dist = float(np.sum((xbar[-1, -1] - x_star) ** 2))
    return gap + dist / (2 * eta * K * R) - L * spread / (M * K * R)


def fedavg_consensus(pep, *, M: int, K: int, k: int, eta: float, mu: float, L: float, zeta2: float):
    """Worst ``||x_1^(k) - xbar^(k)||^2`` after ``k`` local steps of deterministic FedAvg from any common start, over
    ``M`` clients in ``F_{mu,L}`` with ``||grad f_m - grad F||^2 <= zeta2`` at every evaluated point (one round: the
    deviation restarts at every broadcast, so the round and the start do not enter; ``K`` only names the round
    length)."""
    if not 0 <= k <= K:
        raise ValueError(f"k must lie in [0, K = {K}], got {k}")
    roles = Roles()
    clients = smooth_clients(pep, roles, M, mu, L)
    x0 = pep.set_initial_point()
    rows = local_gd_rounds(pep, clients, x0, K=k, R=1, eta=eta, zeta2=zeta2)[0] if k else [[x0] * M]
    pep.set_performance_metric((rows[-1][0] - average(rows[-1])) ** 2)
    roles.points.update(x0=x0)
    return roles


def replay_fedavg_consensus(worst: WorstCase, *, M: int, k: int, eta: float, mu: float, L: float, **_) -> float:
    """``||x_1^(k) - xbar^(k)||^2`` of :func:`fedavg.round`'s local steps on the interpolated worst instance."""
    problem = InterpolatedProblem(worst.functions, worst.points["x0"], L, mu)
    states = _replay_states(problem, worst.points["x0"], M=M, K=k, R=1, eta=eta)[0, -1]
    return float(np.sum((states[0] - states.mean(axis=0)) ** 2))


def local_gd_pair_step(pep, *, M: int, eta: float, mu: float, L: float, zeta2: float, c: float):
    """Worst ``||x_1' - x_2'||^2 - c ||x_1 - x_2||^2`` for one local gradient step of clients 1 and 2 from any two
    states, over ``M`` clients in ``F_{mu,L}`` with ``||grad f_m - grad F||^2 <= zeta2`` at both states."""
    roles = Roles()
    clients = smooth_clients(pep, roles, M, mu, L)
    x1, x2 = pep.set_initial_point(), pep.set_initial_point()
    g1 = uniform_heterogeneity(pep, clients, x1, zeta2)[0]
    g2 = uniform_heterogeneity(pep, clients, x2, zeta2)[1]
    after = (x1 - eta * g1) - (x2 - eta * g2)
    pep.set_performance_metric(after**2 - c * (x1 - x2) ** 2)
    roles.points.update(x1=x1, x2=x2)
    return roles


def replay_local_gd_pair_step(worst: WorstCase, *, M: int, eta: float, mu: float, L: float, c: float, **_) -> float:
    """The pair-step excess for :func:`fedavg.local_sgd` (one step) on the interpolated worst instance."""
    x1, x2 = worst.points["x1"], worst.points["x2"]
    problem = InterpolatedProblem(worst.functions, x1, L, mu)
    states = np.stack([x1, x2] + [x1] * (M - 2))[None]
    after = fedavg.local_sgd(states, ExactGradient(problem), eta, 1, None)[0]
    return float(np.sum((after[0] - after[1]) ** 2) - c * np.sum((x1 - x2) ** 2))


def local_gd_weighted_gap(pep, *, M: int, K: int, R: int, eta: float, mu: float, L: float, D2: float = 1.0):
    """Worst ``F(x_hat) - F*`` of deterministic FedAvg on ``M`` identical clients in ``F_{mu,L}`` with ``||x_0 -
    x*||^2 <= D2``, ``x_hat`` the average of ``xbar^(r,k)`` (``r < R``, ``k < K``) with weights
    ``(1 + 1/KR)^-(rK+k+1)``, normalised."""
    roles = Roles()
    clients = smooth_clients(pep, roles, 1, mu, L) * M
    x_star, x0 = _start(pep, clients[:1], D2, None)
    states = local_gd_rounds(pep, clients, x0, K=K, R=R, eta=eta)
    T = K * R
    weights = [(1 + 1 / T) ** -(r * K + k + 1) for r in range(R) for k in range(K)]
    shadows = [states[r][k][0] for r in range(R) for k in range(K)]  # identical clients: xbar = x_m
    x_hat = shadows[0] * weights[0]
    for w, p in zip(weights[1:], shadows[1:], strict=True):
        x_hat = x_hat + w * p
    x_hat = x_hat * (1 / sum(weights))
    f = clients[0]
    pep.set_performance_metric(f.value(x_hat) - f.value(x_star))
    roles.points.update(x0=x0, x_star=x_star)
    return roles


def replay_local_gd_weighted_gap(worst: WorstCase, *, M: int, K: int, R: int, eta: float, mu: float, L: float, **_):
    """``F(x_hat) - F*`` of :func:`fedavg.round` on ``M`` copies of the interpolated worst function."""
    problem = InterpolatedProblem(worst.functions * M, worst.points["x_star"], L, mu)
    states = _replay_states(problem, worst.points["x0"], M=M, K=K, R=R, eta=eta)
    shadows = states[:, :K].mean(axis=2).reshape(K * R, -1)
    weights = (1 + 1 / (K * R)) ** -np.arange(1, K * R + 1)
    x_hat = weights @ shadows / weights.sum()
    return float(problem.value(x_hat) - problem.value(worst.points["x_star"]))


def local_gd_gradient_norm(pep, *, M: int, K: int, R: int, eta: float, L: float, G2: float, Delta: float):
    """Worst ``(1/KR) sum_{r<R, k<K} ||grad F(xbar^(r,k))||^2`` of deterministic FedAvg on ``M`` identical L-smooth
    (non-convex) clients with ``||grad F||^2 <= G2`` and ``F(x_0) - F <= Delta`` at every evaluated point (the
    expressible form of ``F(x_0) - inf F <= Delta``: the class contains the printed one)."""
    roles = Roles()
    clients = smooth_clients(pep, roles, 1, -L, L) * M
    f = clients[0]
    x0 = pep.set_initial_point()
    states = local_gd_rounds(pep, clients, x0, K=K, R=R, eta=eta)
    points = [states[r][k][0] for r in range(R) for k in range(K)] + [states[-1][-1][0]]  # identical: xbar = x_m
    total = None
    for i, p in enumerate(points):
        g = f.gradient(p)
        pep.add_constraint(g**2 <= G2)
        pep.add_constraint(f.value(x0) - f.value(p) <= Delta)
        if i < K * R:
            total = g**2 if total is None else total + g**2
    pep.set_performance_metric(total * (1 / (K * R)))
    roles.points.update(x0=x0)
    return roles


def replay_local_gd_gradient_norm(worst: WorstCase, *, M: int, K: int, R: int, eta: float, L: float, **_) -> float:
    """The averaged squared gradient norm of :func:`fedavg.round` on ``M`` copies of the interpolated worst function."""
    problem = InterpolatedProblem(worst.functions * M, worst.points["x0"], L, -L)
    states = _replay_states(problem, worst.points["x0"], M=M, K=K, R=R, eta=eta)
    shadows = states[:, :K].mean(axis=2).reshape(K * R, -1)
    return float(np.mean(np.sum(problem.grad(shadows) ** 2, axis=-1)))


def gd_lipschitz(pep, *, k: int, eta: float, mu: float, L: float):
    """Worst ``||z_k - y_k||^2`` of ``k`` gradient steps from two starts with ``||z_0 - y_0||^2 <= 1`` on one function
    in ``F_{mu,L}``: the squared Lipschitz constant of the ``k``-step gradient map."""
    roles = Roles()
    (f,) = smooth_clients(pep, roles, 1, mu, L)
    z0, y0 = pep.set_initial_point(), pep.set_initial_point()
    pep.set_initial_condition((z0 - y0) ** 2 <= 1)
    z, y = z0, y0
    for _ in range(k):
        z, y = z - eta * f.gradient(z), y - eta * f.gradient(y)
    pep.set_performance_metric((z - y) ** 2)
    roles.points.update(z0=z0, y0=y0)
    return roles


def replay_gd_lipschitz(worst: WorstCase, *, k: int, eta: float, mu: float, L: float, **_) -> float:
    """``||z_k - y_k||^2`` of :func:`fedavg.sgd` with exact gradients from both starts on the worst function."""
    z0, y0 = worst.points["z0"], worst.points["y0"]
    oracle = ExactGradient(InterpolatedProblem(worst.functions, z0, L, mu))
    z = fedavg.sgd(oracle, z0, eta, k, None, record_at=[k]).final[0]
    y = fedavg.sgd(oracle, y0, eta, k, None, record_at=[k]).final[0]
    return float(np.sum((z - y) ** 2))
