"""Performance estimation formulations of FedAc (generalized accelerated local steps), and their replays.

FedAc (Algorithm 2 of Yuan and Ma) with hyperparameters ``(alpha, beta, eta, gamma)`` runs, on every client,

    x_md  = beta^-1 x + (1 - beta^-1) x_ag,   g = grad f(x_md),
    x_ag+ = x_md - eta g,                      x+ = (1 - alpha^-1) x + alpha^-1 x_md - gamma g,

and the server averages both sequences after ``K`` local steps. The formulations here are the homogeneous,
noiseless case (every client holds the same ``F`` in ``F_{mu,L}``, exact gradients): all clients then stay identical,
so server averaging is the identity and the round map is ``K`` steps of one client, whatever ``M``. Each replay runs
:func:`fedtheory.algorithms.fedac.run` on ``M`` identical copies of the interpolated worst function, which checks
that reduction pathwise as well. ``(1/alpha, 1/beta)`` come from ``gamma mu`` through
:func:`fedtheory.algorithms.fedac.inverse_coefficients` (``variant`` "FedAc-I" or "FedAc-II").

Metrics are the potentials ``F(x_ag) - F* + w ||x - x* ||^2`` (``w = mu/2``: FedAc-I's Psi; ``w = mu/6``: FedAc-II's
Phi), the gap ``F(x_ag) - F*``, and the transformed distance ``||X^-1 [D_ag; D]||^2`` between two runs, with
``X^-1 [a; b] = [(gamma/eta) a; b - (gamma/eta) a]``.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import fedac
from ..oracles import ExactGradient
from .interpolation import InterpolatedProblem
from .local_methods import smooth_clients
from .solve import Roles, WorstCase


def _coefficients(gamma: float, mu: float, variant: str) -> tuple[float, float]:
    a, b = fedac.inverse_coefficients(gamma * mu, variant)
    return float(a), float(b)


def _steps(f, x, x_ag, n: int, eta: float, gamma: float, a: float, b: float):
    """``n`` FedAc local steps of one client on PEPit points."""
    for _ in range(n):
        md = b * x + (1 - b) * x_ag
        g = f.gradient(md)
        x_ag = md - eta * g
        x = (1 - a) * x + a * md - gamma * g
    return x, x_ag


def fedac_potential(
    pep,
    *,
    K: int,
    R: int,
    eta: float,
    gamma: float,
    variant: str,
    mu: float,
    L: float,
    weight: float,
    free_start: bool = False,
):
    """Worst ``F(x_ag^(R,0)) - F* + weight ||x^(R,0) - x*||^2`` of noiseless homogeneous FedAc over ``F`` in
    ``F_{mu,L}`` with the same potential at the start at most 1.

    The start is ``x_ag^(0,0) = x^(0,0)`` (Algorithm 2), or, with ``free_start``, an arbitrary pair (the one-step
    inequalities hold at every state).
    """
    roles = Roles()
    (f,) = smooth_clients(pep, roles, 1, mu, L)
    x_star = f.stationary_point()
    f_star = f(x_star)
    x0 = pep.set_initial_point()
    x_ag0 = pep.set_initial_point() if free_start else x0
    pep.set_initial_condition(f(x_ag0) - f_star + weight * (x0 - x_star) ** 2 <= 1)
    a, b = _coefficients(gamma, mu, variant)
    x, x_ag = _steps(f, x0, x_ag0, K * R, eta, gamma, a, b)
    pep.set_performance_metric(f(x_ag) - f_star + weight * (x - x_star) ** 2)
    roles.points.update(x0=x0, x_ag0=x_ag0, x_star=x_star, x=x, x_ag=x_ag)
    return roles


def fedac_gap(pep, *, K: int, R: int, eta: float, gamma: float, variant: str, mu: float, L: float, weight: float = 0.0):
    """Worst ``F(x_ag^(R,0)) - F* + weight ||x^(R,0) - x*||^2`` of noiseless homogeneous FedAc over ``F`` in
    ``F_{mu,L}`` with ``||x^(0,0) - x*||^2 <= 1`` (``R = 0``: the initial potential)."""
    roles = Roles()
    (f,) = smooth_clients(pep, roles, 1, mu, L)
    x_star = f.stationary_point()
    f_star = f(x_star)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_star) ** 2 <= 1)
    a, b = _coefficients(gamma, mu, variant)
    x, x_ag = _steps(f, x0, x0, K * R, eta, gamma, a, b)
    pep.set_performance_metric(f(x_ag) - f_star + weight * (x - x_star) ** 2)
    roles.points.update(x0=x0, x_ag0=x0, x_star=x_star, x=x, x_ag=x_ag)
    return roles


def _transformed(d_ag, d, ratio: float):
    """``||X^-1 [d_ag; d]||^2`` with ``X^-1 [a; b] = [ratio a; b - ratio a]``, ``ratio = gamma/eta``."""
    return (ratio * d_ag) ** 2 + (d - ratio * d_ag) ** 2


def fedac_stability(pep, *, K: int, eta: float, gamma: float, variant: str, mu: float, L: float):
    """Worst ``||X^-1 [D_ag^(k); D^(k)]||^2`` after ``K`` noiseless FedAc steps of two runs on the same ``F`` in
    ``F_{mu,L}`` from arbitrary pairs ``(w, w_ag)``, ``(u, u_ag)`` with ``||X^-1 [D_ag; D]||^2 <= 1`` at the start
    (``D = w - u``, ``D_ag = w_ag - u_ag``)."""
    roles = Roles()
    (f,) = smooth_clients(pep, roles, 1, mu, L)
    x_star = f.stationary_point()
    w0, w_ag0, u0, u_ag0 = (pep.set_initial_point() for _ in range(4))
    ratio = gamma / eta
    pep.set_initial_condition(_transformed(w_ag0 - u_ag0, w0 - u0, ratio) <= 1)
    a, b = _coefficients(gamma, mu, variant)
    w, w_ag = _steps(f, w0, w_ag0, K, eta, gamma, a, b)
    u, u_ag = _steps(f, u0, u_ag0, K, eta, gamma, a, b)
    pep.set_performance_metric(_transformed(w_ag - u_ag, w - u, ratio))
    roles.points.update(x_star=x_star, w0=w0, w_ag0=w_ag0, u0=u0, u_ag0=u_ag0)
    return roles


def _run(worst: WorstCase, start: str, *, K: int, R: int, eta, gamma, variant, mu, L, M: int):
    """FedAc's server pair after ``R`` rounds on ``M`` identical copies of the interpolated worst function."""
    problem = InterpolatedProblem([worst.functions[0]] * M, worst.points["x_star"], L, mu)
    a, b = _coefficients(gamma, mu, variant)
    params = fedac.FedAcParams(eta, gamma, a, b, K, M, variant)
    traj = fedac.run(
        ExactGradient(problem), worst.points[start], params, R, None, x_ag0=worst.points[start.replace("0", "_ag0")]
    )
    return problem, traj.x[-1][0], traj.final[0]


def _potential(problem, x, x_ag, weight: float) -> float:
    x_star = problem.x_star
    return float(problem.value(x_ag) - problem.value(x_star) + weight * np.sum((x - x_star) ** 2))


def replay_fedac_potential(worst: WorstCase, *, K, R, eta, gamma, variant, mu, L, weight, M: int = 2, **_) -> float:
    """The potential of :func:`fedtheory.algorithms.fedac.run` (``M`` identical clients) on the interpolated worst
    instance of :func:`fedac_potential`."""
    problem, x, x_ag = _run(worst, "x0", K=K, R=R, eta=eta, gamma=gamma, variant=variant, mu=mu, L=L, M=M)
    return _potential(problem, x, x_ag, weight)


def replay_fedac_gap(
    worst: WorstCase, *, K, R, eta, gamma, variant, mu, L, weight: float = 0.0, M: int = 2, **_
) -> float:
    """The metric of :func:`fedac_gap`, replayed with :func:`fedtheory.algorithms.fedac.run` (``M`` identical
    clients; ``R = 0`` evaluates the start)."""
    problem, x, x_ag = _run(worst, "x0", K=K, R=R, eta=eta, gamma=gamma, variant=variant, mu=mu, L=L, M=M)
    return _potential(problem, x, x_ag, weight)


def replay_fedac_stability(worst: WorstCase, *, K, eta, gamma, variant, mu, L, M: int = 2, **_) -> float:
    """The transformed distance of two runs of :func:`fedtheory.algorithms.fedac.run` (one round of ``K`` steps,
    ``M`` identical clients) on the interpolated worst instance of :func:`fedac_stability`."""
    common = dict(K=K, R=1, eta=eta, gamma=gamma, variant=variant, mu=mu, L=L, M=M)
    _, w, w_ag = _run(worst, "w0", **common)
    _, u, u_ag = _run(worst, "u0", **common)
    ratio = gamma / eta
    return float(np.sum((ratio * (w_ag - u_ag)) ** 2) + np.sum((w - u - ratio * (w_ag - u_ag)) ** 2))


def fedac_augmented_gap(pep, *, K: int, R: int, eta: float, gamma: float, variant: str, lam: float, L: float):
    """Worst ``F(x_ag^(R,0)) - F*`` of noiseless homogeneous FedAc run on the l2-augmented ``F + (lam/2) ||x -
    x^(0,0)||^2`` (hyperparameters with ``mu = lam``) over convex L-smooth ``F`` with ``||x^(0,0) - x*||^2 <= 1``."""
    roles = Roles()
    (f,) = smooth_clients(pep, roles, 1, 0.0, L)
    x_star = f.stationary_point()
    f_star = f(x_star)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_star) ** 2 <= 1)
    a, b = _coefficients(gamma, lam, variant)
    x, x_ag = x0, x0
    for _ in range(K * R):
        md = b * x + (1 - b) * x_ag
        g = f.gradient(md) + lam * (md - x0)
        x_ag = md - eta * g
        x = (1 - a) * x + a * md - gamma * g
    pep.set_performance_metric(f(x_ag) - f_star)
    roles.points.update(x0=x0, x_star=x_star, x_ag=x_ag)
    return roles


def replay_fedac_augmented_gap(worst: WorstCase, *, K, R, eta, gamma, variant, lam, L, M: int = 2, **_) -> float:
    """``F(x_ag^(R,0)) - F*`` of :func:`fedtheory.algorithms.fedac.run` with the
    :class:`~fedtheory.algorithms.fedac.L2Augmented` oracle (``M`` identical clients) on the interpolated worst
    instance of :func:`fedac_augmented_gap`."""
    problem = InterpolatedProblem([worst.functions[0]] * M, worst.points["x_star"], L, 0.0)
    x0 = worst.points["x0"]
    a, b = _coefficients(gamma, lam, variant)
    params = fedac.FedAcParams(eta, gamma, a, b, K, M, variant)
    traj = fedac.run(fedac.L2Augmented(ExactGradient(problem), lam, x0), x0, params, R, None)
    return float(problem.value(traj.final[0]) - problem.value(problem.x_star))
