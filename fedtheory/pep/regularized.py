"""Performance estimation formulations of the regularized local round (StR-FedAvg) and their replays.

The regularized method runs local gradient steps on ``h_i + eta f_i`` (``h_i`` convex and ``L_h``-smooth, ``f_i``
in ``F_{mu_f, L_f}``) and averages the clients' moves with a global step ``gamma_g``; with exact gradients and all
``N`` clients taking part, one round is::

    y_{i,0} = x,   y_{i,k} = y_{i,k-1} - gamma_l (grad h_i(y_{i,k-1}) + eta grad f_i(y_{i,k-1})),   k = 1..K
    x+ = x + gamma_g (1/N) sum_i (y_{i,K} - x)

and the client drift is ``eps = (1/(K N)) sum_{k=1..K} sum_i ||y_{i,k} - x||^2``. ``f_eta = h + eta f`` is the
regularized objective (``h``, ``f`` the client means) and ``x_eta`` its stationary point.

Formulations (each ``name(pep, **params)``, each with ``replay_name(worst, **params)``):

* :func:`gradient_dissimilarity`: the worst ``(1/N) sum_i ||grad psi_i(x)||^2`` over ``N`` clients in
  ``F_{0,L}`` with minimizers, ``psi(x) - inf psi <= D`` and ``inf psi - (1/N) sum_i min psi_i <= Delta``;
* :func:`regularized_gradient_dissimilarity`: the worst ``(1/N) sum_i ||grad h_i(x) + eta grad f_i(x)||^2`` with
  ``f_eta(x) - f_eta^* <= gap`` and the heterogeneity :func:`regularized_dissimilarity` at most ``G2``;
* :func:`perturbed_strong_convexity`: the worst ``f_eta(z) - f_eta(y) + (eta mu_f/4)||y - z||^2 - <grad
  f_eta(x), z - y>`` with ``||z - x||^2 <= 1``;
* :func:`str_round_distance`: one round's worst ``||x+ - x_eta||^2 + gamma~ (f_eta(x) - f_eta^*) - c eps`` with
  ``||x - x_eta||^2 <= D2`` (``gamma~ = gamma_l gamma_g K``, ``c`` a parameter);
* :func:`str_round_drift`: one round's worst ``eps`` with ``f_eta(x) - f_eta^* <= gap`` and the heterogeneity
  :func:`regularized_dissimilarity` at most ``G2``;
* :func:`str_fedavg_average_gap`: ``R`` rounds' worst ``f_eta(xhat) - f_eta^* + w ||x_R - x_eta||^2`` at the
  ``theta``-weighted average ``xhat = sum_{r=1..R} theta^r x_{r-1} / sum_r theta^r`` with ``||x_0 - x_eta||^2 <=
  D2`` and the heterogeneity at most ``G2``.

Heterogeneity enters as a constraint on the clients' minimizers (:func:`regularized_dissimilarity`), not as a
uniform bound at every point; the replays run :func:`fedtheory.algorithms.bilevel.str_fedavg.run` on the interpolated
clients, or evaluate the interpolants where the statement is pointwise.
"""

from __future__ import annotations

import numpy as np

from ..algorithms.bilevel import str_fedavg
from .interpolation import InterpolatedFunction, InterpolatedProblem
from .local_methods import average, smooth_clients
from .solve import Roles, WorstCase


# --------------------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------------------
def regularized_clients(pep, roles: Roles, N: int, mu_f: float, L_f: float, L_h: float, eta: float):
    """Declare ``N`` inner clients ``h_i`` in ``F_{0,L_h}`` and ``N`` outer clients ``f_i`` in ``F_{mu_f,L_f}`` (in
    this order in ``roles``); return ``(h, f, f_eta)`` with ``f_eta = (1/N) sum_i (h_i + eta f_i)``."""
    h = smooth_clients(pep, roles, N, 0.0, L_h)
    f = smooth_clients(pep, roles, N, mu_f, L_f)
    total = h[0] + eta * f[0]
    for hi, fi in zip(h[1:], f[1:], strict=True):
        total = total + hi + eta * fi
    return h, f, total / N


def client_dissimilarity(clients: list, L: float):
    """``(2L/N)(min psi - (1/N) sum_i min psi_i)`` for ``psi = (1/N) sum_i psi_i`` (minimizers declared); returns
    the expression and the minimizer of ``psi``."""
    N = len(clients)
    total = clients[0]
    for c in clients[1:]:
        total = total + c
    mean = total / N
    floor = average([c.stationary_point(return_gradient_and_function_value=True)[2] for c in clients])
    x_min, _, top = mean.stationary_point(return_gradient_and_function_value=True)
    return (2 * L / N) * (top - floor), x_min, mean


def regularized_dissimilarity(h: list, f: list, L_h: float, L_f: float):
    """``2 G_f^2 + 4 L_f (f(x_h) - min f) + 2 G_h^2`` with ``G^2`` the :func:`client_dissimilarity` of the outer and
    inner clients and ``x_h`` a declared minimizer of ``h`` (``h(x_h) = min h``); returns the expression and ``x_h``.

    ``f(x_h) >= f^* := min_{argmin h} f``, so the constraint ``expression <= G2`` admits every instance whose
    ``2 G_f^2 + 4 L_f (f^* - min f) + 2 G_h^2`` is at most ``G2`` (take ``x_h`` a minimizer of ``f`` over ``argmin
    h``), and every instance it admits has that quantity at most ``G2``: the constraint is exact.
    """
    g_f, _, mean_f = client_dissimilarity(f, L_f)
    g_h, x_h, _ = client_dissimilarity(h, L_h)
    _, _, f_min = mean_f.stationary_point(return_gradient_and_function_value=True)
    return 2 * g_f + 4 * L_f * (mean_f.value(x_h) - f_min) + 2 * g_h, x_h


def bounded_dissimilarity_clients(pep, roles: Roles, N: int, mu_f: float, L_f: float, L_h: float, eta: float, G2):
    """:func:`regularized_clients` with the stationary point ``x_eta`` of ``f_eta`` (and ``f_eta^*``) and the
    heterogeneity :func:`regularized_dissimilarity` at most ``G2``; returns ``h, f, f_eta, x_eta, f_eta^*, x_h``."""
    h, f, f_eta = regularized_clients(pep, roles, N, mu_f, L_f, L_h, eta)
    x_eta, _, f_star = f_eta.stationary_point(return_gradient_and_function_value=True)
    spread, x_h = regularized_dissimilarity(h, f, L_h, L_f)
    pep.set_initial_condition(spread <= G2)
    return h, f, f_eta, x_eta, f_star, x_h


def str_round(h: list, f: list, x, *, K: int, gamma_l: float, gamma_g: float, eta: float):
    """One round with exact gradients from ``x`` over all clients: the new server point and ``sum_k sum_i ||y_{i,k}
    - x||^2`` (the numerator of the drift)."""
    local, drift = [], None
    for hi, fi in zip(h, f, strict=True):
        y = x
        for _ in range(K):
            y = y - gamma_l * (hi.gradient(y) + eta * fi.gradient(y))
            term = (y - x) ** 2
            drift = term if drift is None else drift + term
        local.append(y)
    return x + gamma_g * (average(local) - x), drift


def interpolated_pair(worst: WorstCase, N: int, mu_f: float, L_f: float, L_h: float):
    """The interpolated inner and outer problems ``(h, f)`` of a worst case (clients in declaration order)."""
    anchor = worst.points["x_eta"]
    h = InterpolatedProblem(worst.functions[:N], anchor, L_h, 0.0)
    f = InterpolatedProblem(worst.functions[N : 2 * N], anchor, L_f, mu_f)
    return h, f


def theta_weights(R: int, theta: float) -> np.ndarray:
    """``theta^r / sum_{s=1..R} theta^s`` for ``r = 1..R`` (the weights of ``x_0, ..., x_{R-1}``)."""
    w = theta ** np.arange(1, R + 1, dtype=float)
    return w / w.sum()


# --------------------------------------------------------------------------------------------------
# Pointwise inequalities
# --------------------------------------------------------------------------------------------------
def gradient_dissimilarity(pep, *, N: int, L: float, D: float, Delta: float):
    """Worst ``(1/N) sum_i ||grad psi_i(x)||^2`` over ``N`` clients in ``F_{0,L}`` with minimizers, ``psi(x) -
    inf psi <= D`` and ``inf psi - (1/N) sum_i min psi_i <= Delta``."""
    roles = Roles()
    clients = smooth_clients(pep, roles, N, 0.0, L)
    total = clients[0]
    for c in clients[1:]:
        total = total + c
    mean = total / N
    floors = [c.stationary_point(return_gradient_and_function_value=True)[2] for c in clients]
    x_psi, _, top = mean.stationary_point(return_gradient_and_function_value=True)
    x = pep.set_initial_point()
    pep.set_initial_condition(mean.value(x) - top <= D)
    pep.set_initial_condition(top - average(floors) <= Delta)
    pep.set_performance_metric(average([c.gradient(x) ** 2 for c in clients]))
    roles.points.update(x=x, x_psi=x_psi)
    return roles


def replay_gradient_dissimilarity(worst: WorstCase, *, N: int, **_) -> float:
    """``(1/N) sum_i ||grad psi_i(x)||^2`` of the interpolated clients at the worst point."""
    x = worst.points["x"]
    return float(np.mean([np.sum(InterpolatedFunction(d).grad(x[None])[0] ** 2) for d in worst.functions[:N]]))


def regularized_gradient_dissimilarity(pep, *, N, eta, mu_f, L_f, L_h, gap: float, G2: float):
    """Worst ``(1/N) sum_i ||grad h_i(x) + eta grad f_i(x)||^2`` with ``f_eta(x) - f_eta^* <= gap`` and the
    heterogeneity :func:`regularized_dissimilarity` at most ``G2``."""
    roles = Roles()
    h, f, f_eta, x_eta, f_star, x_h = bounded_dissimilarity_clients(pep, roles, N, mu_f, L_f, L_h, eta, G2)
    x = pep.set_initial_point()
    pep.set_initial_condition(f_eta.value(x) - f_star <= gap)
    pep.set_performance_metric(average([(hi.gradient(x) + eta * fi.gradient(x)) ** 2 for hi, fi in zip(h, f)]))
    roles.points.update(x=x, x_eta=x_eta, x_h=x_h)
    return roles


def replay_regularized_gradient_dissimilarity(worst: WorstCase, *, N, eta, mu_f, L_f, L_h, **_) -> float:
    """The same average on the interpolated pair at the worst point."""
    h, f = interpolated_pair(worst, N, mu_f, L_f, L_h)
    x = np.broadcast_to(worst.points["x"], (1, N, worst.points["x"].size))
    return float(np.mean(np.sum((h.client_grad(x) + eta * f.client_grad(x)) ** 2, axis=-1)))


def perturbed_strong_convexity(pep, *, eta: float, mu_f: float, L_f: float, L_h: float):
    """Worst ``f_eta(z) - f_eta(y) + (eta mu_f/4)||y - z||^2 - <grad f_eta(x), z - y>`` over ``h`` in ``F_{0,L_h}``,
    ``f`` in ``F_{mu_f,L_f}`` and points with ``||z - x||^2 <= 1`` (``f_eta = h + eta f``)."""
    roles = Roles()
    (h,), (f,), _ = regularized_clients(pep, roles, 1, mu_f, L_f, L_h, eta)
    x, y, z = pep.set_initial_point(), pep.set_initial_point(), pep.set_initial_point()
    pep.set_initial_condition((z - x) ** 2 <= 1)
    value = h.value(z) + eta * f.value(z) - h.value(y) - eta * f.value(y)
    slope = (h.gradient(x) + eta * f.gradient(x)) * (z - y)
    pep.set_performance_metric(value + eta * mu_f / 4 * (y - z) ** 2 - slope)
    roles.points.update(x=x, y=y, z=z)
    return roles


def replay_perturbed_strong_convexity(worst: WorstCase, *, eta: float, mu_f: float, **_) -> float:
    """The same expression on the interpolated ``h`` and ``f`` at the worst points."""
    h, f = (InterpolatedFunction(d) for d in worst.functions[:2])
    x, y, z = (worst.points[k][None] for k in "xyz")
    value = h.value(z) + eta * f.value(z) - h.value(y) - eta * f.value(y)
    slope = np.sum((h.grad(x) + eta * f.grad(x)) * (z - y))
    return float(value[0] + eta * mu_f / 4 * np.sum((y - z) ** 2) - slope)


# --------------------------------------------------------------------------------------------------
# One round and R rounds of the regularized method
# --------------------------------------------------------------------------------------------------
def str_round_distance(pep, *, N, K, gamma_l, gamma_g, eta, mu_f, L_f, L_h, drift_coefficient: float, D2: float = 1.0):
    """Worst ``||x_1 - x_eta||^2 + gamma~ (f_eta(x_0) - f_eta^*) - drift_coefficient eps`` of one round from ``x_0``
    with ``||x_0 - x_eta||^2 <= D2`` (``gamma~ = gamma_l gamma_g K``, ``eps`` the drift)."""
    roles = Roles()
    h, f, f_eta = regularized_clients(pep, roles, N, mu_f, L_f, L_h, eta)
    x_eta, _, f_star = f_eta.stationary_point(return_gradient_and_function_value=True)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_eta) ** 2 <= D2)
    x1, drift = str_round(h, f, x0, K=K, gamma_l=gamma_l, gamma_g=gamma_g, eta=eta)
    gt = gamma_l * gamma_g * K
    pep.set_performance_metric(
        (x1 - x_eta) ** 2 + gt * (f_eta.value(x0) - f_star) - drift_coefficient / (K * N) * drift
    )
    roles.points.update(x0=x0, x_eta=x_eta, output=x1)
    return roles


def _replay_run(worst: WorstCase, N, K, R, gamma_l, gamma_g, eta, mu_f, L_f, L_h):
    """The interpolated pair and fedtheory's StR-FedAvg run (exact gradients, all clients) from the worst ``x0``."""
    h, f = interpolated_pair(worst, N, mu_f, L_f, L_h)
    params = str_fedavg.StRParams(K=K, gamma_l=gamma_l, gamma_g=gamma_g, eta=eta)
    traj = str_fedavg.run(h, f, worst.points["x0"], params, R, None, record_drift=True)
    x_eta = worst.points["x_eta"]
    f_star = float(h.value(x_eta[None])[0] + eta * f.value(x_eta[None])[0])

    def gap(x):
        return h.value(x) + eta * f.value(x) - f_star

    return traj, x_eta, gap


def replay_str_round_distance(
    worst: WorstCase, *, N, K, gamma_l, gamma_g, eta, mu_f, L_f, L_h, drift_coefficient, **_
) -> float:
    """The metric of :func:`str_round_distance` for one round of fedtheory's StR-FedAvg on the interpolated pair."""
    traj, x_eta, gap = _replay_run(worst, N, K, 1, gamma_l, gamma_g, eta, mu_f, L_f, L_h)
    x0, x1 = traj.x[0, 0], traj.x[1, 0]
    gt = gamma_l * gamma_g * K
    return float(np.sum((x1 - x_eta) ** 2) + gt * gap(x0[None])[0] - drift_coefficient * traj.drift[0, 0])


def str_round_drift(pep, *, N, K, gamma_l, gamma_g, eta, mu_f, L_f, L_h, gap: float, G2: float):
    """Worst drift ``eps`` of one round from ``x_0`` with ``f_eta(x_0) - f_eta^* <= gap`` and the heterogeneity
    :func:`regularized_dissimilarity` at most ``G2``."""
    roles = Roles()
    h, f, f_eta, x_eta, f_star, x_h = bounded_dissimilarity_clients(pep, roles, N, mu_f, L_f, L_h, eta, G2)
    x0 = pep.set_initial_point()
    pep.set_initial_condition(f_eta.value(x0) - f_star <= gap)
    _, drift = str_round(h, f, x0, K=K, gamma_l=gamma_l, gamma_g=gamma_g, eta=eta)
    pep.set_performance_metric(drift * (1 / (K * N)))
    roles.points.update(x0=x0, x_eta=x_eta, x_h=x_h)
    return roles


def replay_str_round_drift(worst: WorstCase, *, N, K, gamma_l, gamma_g, eta, mu_f, L_f, L_h, **_) -> float:
    """The drift of one round of fedtheory's StR-FedAvg on the interpolated pair (``eps_r`` as it records it)."""
    traj, _, _ = _replay_run(worst, N, K, 1, gamma_l, gamma_g, eta, mu_f, L_f, L_h)
    return float(traj.drift[0, 0])


def str_fedavg_average_gap(
    pep, *, N, K, R, gamma_l, gamma_g, eta, mu_f, L_f, L_h, theta: float, distance_weight: float, D2: float, G2: float
):
    """Worst ``f_eta(xhat) - f_eta^* + distance_weight ||x_R - x_eta||^2`` after ``R`` rounds, ``xhat`` the
    ``theta``-weighted average of ``x_0..x_{R-1}`` (:func:`theta_weights`), with ``||x_0 - x_eta||^2 <= D2`` and
    the heterogeneity :func:`regularized_dissimilarity` at most ``G2``."""
    roles = Roles()
    h, f, f_eta, x_eta, f_star, x_h = bounded_dissimilarity_clients(pep, roles, N, mu_f, L_f, L_h, eta, G2)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_eta) ** 2 <= D2)
    iterates = [x0]
    for _ in range(R):
        iterates.append(str_round(h, f, iterates[-1], K=K, gamma_l=gamma_l, gamma_g=gamma_g, eta=eta)[0])
    w = theta_weights(R, theta)
    xhat = iterates[0] * w[0]
    for wr, x in zip(w[1:], iterates[1:R], strict=True):
        xhat = xhat + wr * x
    pep.set_performance_metric(f_eta.value(xhat) - f_star + distance_weight * (iterates[R] - x_eta) ** 2)
    roles.points.update(x0=x0, x_eta=x_eta, x_h=x_h, output=xhat)
    return roles


def replay_str_fedavg_average_gap(
    worst: WorstCase, *, N, K, R, gamma_l, gamma_g, eta, mu_f, L_f, L_h, theta, distance_weight, **_
) -> float:
    """The metric of :func:`str_fedavg_average_gap` for ``R`` rounds of fedtheory's StR-FedAvg on the interpolated
    pair."""
    traj, x_eta, gap = _replay_run(worst, N, K, R, gamma_l, gamma_g, eta, mu_f, L_f, L_h)
    xs = traj.x[:, 0]
    xhat = theta_weights(R, theta) @ xs[:R]
    return float(gap(xhat[None])[0] + distance_weight * np.sum((xs[R] - x_eta) ** 2))
