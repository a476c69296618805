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
