"""Performance estimation of federated composite methods (FedMiD, FedDualAvg), and their replays.

The problem is ``min_x Phi(x) = F(x) + psi(x)`` with ``F = (1/M) sum_m f_m``, clients ``f_m`` convex and ``L``-smooth
and a convex, possibly non-smooth regularizer ``psi`` (a PEPit ``ConvexFunction``). The distance-generating function
is Euclidean, ``h = ||x||^2 / 2``, so the primal retrieval ``grad (h + t psi)^*(y)`` is ``prox_{t psi}(y)``, written
with :func:`PEPit.primitive_steps.proximal_step` (``t = 0`` is the identity). FedDualAvg is therefore dual averaging
with the prox of the accumulated weight ``eta~^{(r,k)} = eta_c (eta_s r K + k)`` applied to each client's dual state.

Client classes (``het``):

* ``"none"``: ``M`` clients in ``F_{0,L}``, nothing else (Assumption 4.1 with ``sigma = 0``).
* ``"quadratic-pair"``: ``M = 2`` clients ``f_1 in F_{0,L}`` and ``f_2 = (L/2)||x - c||^2 - f_1`` (then ``f_2 in
  F_{0,L}`` exactly), so the average ``F = (L/4)||x - c||^2`` is a quadratic with Hessian ``A = (L/2) I``, whose norm
  ``sqrt(x'Ax/||A||)`` is the Euclidean one; ``||grad f_m(x) - grad F(x)||^2 <= het2`` is imposed at every point
  where a client gradient is evaluated (a uniform bound is expressible only at the points the method visits). This
  is a sub-class of the quadratic heterogeneous class (two clients, isotropic Hessian of the average).
* ``"bounded"``: ``M`` clients in ``F_{0,L}`` with ``||grad f_m(x)||^2 <= G2`` at every evaluated point (a bounded
  gradient assumption, imposed at the visited points).

Each formulation returns :class:`~fedtheory.pep.solve.Roles` with the clients first and ``psi`` last (for the replay
the clients are ``worst.functions[:-1]`` and ``psi`` is ``worst.functions[-1]``); ``replay_<name>`` runs
:func:`fedtheory.algorithms.composite.round` on the interpolated instance with
:class:`~fedtheory.pep.interpolation.InterpolatedRegularizer` as ``psi``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import composite as fco
from ..errors import InvalidParameterError
from ..oracles import ExactGradient
from .interpolation import InterpolatedProblem, InterpolatedRegularizer
from .local_methods import average
from .solve import Roles, WorstCase

HETEROGENEITY = ("none", "quadratic-pair", "bounded")
METRICS = ("gap", "gap-discrepancy", "discrepancy")


class _PairClient:
    """``f_2 = (L/2)||x - c||^2 - f_1`` on PEPit points."""

    def __init__(self, f1, center, L: float):
        self.f1, self.center, self.L = f1, center, L

    def gradient(self, x):
        return self.L * (x - self.center) - self.f1.gradient(x)

    def value(self, x):
        return self.L / 2 * (x - self.center) ** 2 - self.f1.value(x)


def _clients(pep, roles: Roles, M: int, L: float, het: str):
    """Declare the clients of class ``het``; returns (client objects, the declared PEPit functions, center)."""
    from PEPit import Point
    from PEPit.functions import SmoothConvexFunction

    if het not in HETEROGENEITY:
        raise InvalidParameterError("het", f"one of {', '.join(HETEROGENEITY)}", het)
    if het == "quadratic-pair":
        if M != 2:
            raise InvalidParameterError("M", "2 for the quadratic pair class", M)
        f1 = pep.declare_function(SmoothConvexFunction, L=L)
        roles.functions.append(f1)
        roles.classes.append((0.0, L))
        center = Point()
        return [f1, _PairClient(f1, center, L)], [f1], center
    declared = []
    for _ in range(M):
        declared.append(pep.declare_function(SmoothConvexFunction, L=L))
        roles.functions.append(declared[-1])
        roles.classes.append((0.0, L))
    return declared, declared, None


def _regularizer(pep, roles: Roles):
    from PEPit.functions import ConvexFunction

    psi = pep.declare_function(ConvexFunction)
    roles.functions.append(psi)
    roles.classes.append((0.0, np.inf))
    return psi


def _retrieve(y, psi, t: float):
    """``prox_{t psi}(y)`` (``y`` itself at ``t = 0``)."""
    from PEPit.primitive_steps import proximal_step

    return y if t == 0 else proximal_step(y, psi, t)[0]


def _optimum(pep, clients, psi):
    """A minimiser ``x*`` of ``F + psi``: ``-grad F(x*)`` is a subgradient of ``psi`` at ``x*``."""
    from PEPit import Expression, Point

    x_star = Point()
    psi.add_point((x_star, -1.0 * average([f.gradient(x_star) for f in clients]), Expression()))
    return x_star


def _phi(clients, psi, x):
    return average([f.value(x) for f in clients]) + psi.value(x)


def _heterogeneity(pep, clients, declared, center, L: float, het: str, het2: float, G2: float) -> None:
    """The uniform assumption of class ``het`` at every point where a client gradient was evaluated."""
    if het == "none":
        return
    for f in declared:
        for x, g, _ in f.list_of_points:
            if het == "quadratic-pair":  # grad f_1 - grad F = g - (L/2)(x - c); f_2 has the opposite deviation
                pep.set_initial_condition((g - L / 2 * (x - center)) ** 2 <= het2)
            else:
                pep.set_initial_condition(g**2 <= G2)


@dataclass
class _Start:
    """A composite problem's declarations: roles, clients (and the declared ones, the pair's centre), psi, x*, x0."""

    roles: Roles
    clients: list
    declared: list
    center: object
    psi: object
    x_star: object
    x0: object


def _start(pep, M: int, L: float, het: str, D2: float) -> _Start:
    """Clients of class ``het``, a convex ``psi``, a minimiser ``x*`` of ``F + psi`` and ``||x0 - x*||^2 <= D2``."""
    roles = Roles()
    clients, declared, center = _clients(pep, roles, M, L, het)
    psi = _regularizer(pep, roles)
    x_star = _optimum(pep, clients, psi)
    x0 = pep.set_initial_point()
    pep.set_initial_condition((x0 - x_star) ** 2 <= D2)
    return _Start(roles, clients, declared, center, psi, x_star, x0)


def _close(pep, case: _Start, output, *, L: float, het: str, het2: float, G2: float) -> Roles:
    """The heterogeneity constraints at every evaluated point and the named points; the formulation's roles."""
    _heterogeneity(pep, case.clients, case.declared, case.center, L, het, het2, G2)
    case.roles.points.update(x0=case.x0, x_star=case.x_star, output=output)
    if case.center is not None:
        case.roles.points["center"] = case.center
    return case.roles


def feddualavg(
    pep,
    *,
    M: int,
    K: int,
    R: int,
    eta_c: float,
    L: float,
    eta_s: float = 1.0,
    het: str = "none",
    het2: float = 0.0,
    G2: float = 0.0,
    D2: float = 1.0,
    metric: str = "gap",
):
    """Worst case of deterministic FedDualAvg (Algorithm 6, Euclidean ``h``) over the client class ``het`` and every
    convex ``psi``, from ``x^{(0,0)}`` with ``||x^{(0,0)} - x*||^2 <= D2``.

    Metrics: ``"gap"`` is ``Phi(x^) - Phi(x*)`` at the output (4.9) ``x^ = (1/(KR)) sum_r sum_{k=1..K}
    prox_{eta~^{(r,k)} psi}(ybar^{(r,k)})``; ``"gap-discrepancy"`` subtracts ``(L/(MKR)) sum_r sum_{k<K} sum_m
    ||ybar^{(r,k)} - y_m^{(r,k)}||^2``; ``"discrepancy"`` is ``(1/M) sum_m ||ybar^{(R-1,K)} - y_m^{(R-1,K)}||^2``
    (the client duals of the last round before averaging).
    """
    if metric not in METRICS:
        raise InvalidParameterError("metric", f"one of {', '.join(METRICS)}", metric)
    case = _start(pep, M, L, het, D2)
    clients, psi, x_star, x0 = case.clients, case.psi, case.x_star, case.x0
    y, server = x0, x0
    shadows, spread = [], []
    for r in range(R):
        if r > 0 and eta_s != 1:
            server = _retrieve(y, psi, eta_c * eta_s * r * K)
        duals = [y] * M
        for k in range(K):
            t = eta_c * (eta_s * r * K + k)
            mean = average(duals)
            spread.append(average([(d - mean) ** 2 for d in duals]))
            primals = [server] * M if k == 0 else [_retrieve(d, psi, t) for d in duals]
            duals = [d - eta_c * f.gradient(x) for d, f, x in zip(duals, clients, primals, strict=True)]
            shadows.append(_retrieve(average(duals), psi, eta_c * (eta_s * r * K + k + 1)))
        last = average([(d - average(duals)) ** 2 for d in duals])
        y = y + eta_s * (average(duals) - y)
        server = shadows[-1]
    x_hat = average(shadows)
    gap = _phi(clients, psi, x_hat) - _phi(clients, psi, x_star)
    if metric == "gap":
        pep.set_performance_metric(gap)
    elif metric == "gap-discrepancy":
        total = spread[0]
        for s in spread[1:]:
            total = total + s
        pep.set_performance_metric(gap - L / (K * R) * total)
    else:
        pep.set_performance_metric(last)
    return _close(pep, case, x_hat, L=L, het=het, het2=het2, G2=G2)


class PairProblem(InterpolatedProblem):
    """Two clients: the interpolant ``f_1`` of ``data[0]`` and ``f_2 = (L/2)||x - c||^2 - f_1``."""

    def __init__(self, data, x_star, center, L: float):
        super().__init__(data, x_star, L, 0.0)
        self.center = np.asarray(center, dtype=float)
        self.n_clients = 2

    def client_grad(self, x) -> np.ndarray:
        x = self.check_client_points(x)
        g1 = self.clients[0].grad(x[..., 0, :])
        g2 = self.L * (x[..., 1, :] - self.center) - self.clients[0].grad(x[..., 1, :])
        return np.stack([g1, g2], axis=-2)

    def value(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return self.L / 4 * np.sum((x - self.center) ** 2, axis=-1)


def interpolated_instance(worst: WorstCase, *, L: float, het: str = "none", **_):
    """The replay's problem and mirror map: the interpolated clients and ``psi`` of a worst case."""
    psi = InterpolatedRegularizer(worst.functions[-1])
    anchor = worst.points["x_star"] if "x_star" in worst.points else worst.points["x"]
    if het == "quadratic-pair":
        problem = PairProblem(worst.functions[:-1], anchor, worst.points["center"], L)
    else:
        problem = InterpolatedProblem(worst.functions[:-1], anchor, L, 0.0)
    return problem, fco.Euclidean(psi)


def replay_feddualavg(
    worst: WorstCase, *, M: int, K: int, R: int, eta_c: float, L: float, eta_s: float = 1.0, metric="gap", **params
) -> float:
    """The metric of :func:`feddualavg` for :func:`fedtheory.algorithms.composite.round` (``"FedDualAvg"``) run on
    the interpolated worst instance, with the output (4.9) from
    :func:`fedtheory.algorithms.composite.shadow_primals`."""
    problem, mirror = interpolated_instance(worst, L=L, **params)
    oracle = ExactGradient(problem)
    cp = fco.CompositeParams("FedDualAvg", eta_c, K, M, eta_s)
    state = fco.init(worst.points["x0"], mirror, cp)
    shadows, spread, last = [], 0.0, 0.0
    for r in range(R):
        state, trace = fco.round(state, oracle, mirror, cp, None, trace=True)
        shadows.append(fco.shadow_primals(trace, mirror, cp, r)[1:, 0])
        dev = trace.y[:, 0] - trace.y[:, 0].mean(axis=1, keepdims=True)  # (K+1, M, d)
        spread += float(np.sum(dev[:K] ** 2)) / M
        last = float(np.sum(dev[K] ** 2)) / M
    x_hat = np.concatenate(shadows).mean(axis=0)
    x_star = worst.points["x_star"]

    def phi(x):
        return float(problem.value(x) + mirror.psi_value(x))

    gap = phi(x_hat) - phi(x_star)
    if metric == "gap":
        return gap
    if metric == "gap-discrepancy":
        return gap - L / (K * R) * spread
    return last


def fedmid(
    pep,
    *,
    M: int,
    K: int,
    R: int,
    eta_c: float,
    L: float,
    eta_s: float = 1.0,
    het: str = "none",
    het2: float = 0.0,
    G2: float = 0.0,
    D2: float = 1.0,
):
    """Worst ``Phi(x^{(R,0)}) - Phi(x*)`` of deterministic FedMiD (Algorithm 5, Euclidean ``h``: every local step
    ``prox_{eta_c psi}(y - eta_c grad f_m(y))``, the server step ``prox_{eta_s eta_c K psi}(x + eta_s (ybar - x))``)
    over the client class ``het`` and every convex ``psi``, from ``||x^{(0,0)} - x*||^2 <= D2``."""
    case = _start(pep, M, L, het, D2)
    clients, psi, x_star, x0 = case.clients, case.psi, case.x_star, case.x0
    x = x0
    for _ in range(R):
        local = [x] * M
        for _ in range(K):
            local = [_retrieve(y - eta_c * f.gradient(y), psi, eta_c) for y, f in zip(local, clients, strict=True)]
        x = _retrieve(x + eta_s * (average(local) - x), psi, eta_s * eta_c * K)
    pep.set_performance_metric(_phi(clients, psi, x) - _phi(clients, psi, x_star))
    return _close(pep, case, x, L=L, het=het, het2=het2, G2=G2)


def replay_fedmid(worst: WorstCase, *, M: int, K: int, R: int, eta_c: float, L: float, eta_s: float = 1.0, **params):
    """``Phi(x^{(R,0)}) - Phi(x*)`` of :func:`fedtheory.algorithms.composite.run` (``"FedMiD"``) on the interpolated
    worst instance."""
    problem, mirror = interpolated_instance(worst, L=L, **params)
    cp = fco.CompositeParams("FedMiD", eta_c, K, M, eta_s)
    state = fco.init(worst.points["x0"], mirror, cp)
    for _ in range(R):
        state = fco.round(state, ExactGradient(problem), mirror, cp, None)
    x, x_star = state.x[0], worst.points["x_star"]
    return float(problem.value(x) + mirror.psi_value(x) - problem.value(x_star) - mirror.psi_value(x_star))


ROUND_METRICS = ("descent", "one-step", "shadow-step", "retrieval")


def _bregman(x, y, psi, t: float):
    """``D~_{h + t psi}(x, y) = (h + t psi)(x) - (h + t psi)(z) - <y, x - z>``, ``z = prox_{t psi}(y)`` (Def. C.9,
    Euclidean ``h``), and ``z``."""
    z = _retrieve(y, psi, t)
    value = 0.5 * x**2 - 0.5 * z**2 - y * (x - z)
    if t != 0:
        value = value + t * (psi.value(x) - psi.value(z))
    return value, z


def feddualavg_round(
    pep,
    *,
    M: int,
    K: int,
    r: int,
    eta_c: float,
    L: float,
    eta_s: float = 1.0,
    metric: str = "descent",
    k: int = 0,
):
    """One round ``r`` of deterministic FedDualAvg from any server dual ``y^{(r,0)}`` (Euclidean ``h``, ``M`` clients
    in ``F_{0,L}``, convex ``psi``), with ``eta = eta_s eta_c`` and ``h_{r,k} = h + (eta r K + eta_c k) psi``.

    ``"descent"`` (any point ``x`` in ``dom psi``, normalised by ``D~_{h_{r,0}}(x, y^{(r,0)}) <= 1``): the worst
    ``D~_{h_{r+1,0}}(x, y^{(r+1,0)}) + D~_{h_{r,0}}(x^{(r+1,0)}, y^{(r,0)}) + eta K (Phi(x^{(r+1,0)}) - Phi(x)) - (L/2)
    eta K ||x^{(r+1,0)} - x^{(r,0)}||^2 - eta K <grad F(x^{(r,0)}) - (1/(MK)) sum_{m,k} grad f_m(x_m^{(r,k)}),
    x^{(r+1,0)} - x>``, at most 1 exactly when the one-round inequality holds on the class.

    ``"one-step"`` (``x = x*`` a minimiser of ``Phi``, local step ``k`` of round ``r``, normalised by
    ``D~_{h_{r,k}}(x*, ybar^{(r,k)}) <= 1``): the worst ``D~_{h_{r,k+1}}(x*, ybar^{(r,k+1)}) + eta_c (Phi(x^^{(r,k+1)})
    - Phi(x*)) - eta_c L (1/M) sum_m ||ybar^{(r,k)} - y_m^{(r,k)}||^2`` with ``x^^{(r,k)} = prox_{eta~ psi}(ybar^{(r,
    k)})``, at most 1 exactly when the one-step inequality holds on the class.

    ``"shadow-step"`` (local step ``k`` of round ``r``, normalised by ``D~_{h_{r,k}}(x^^{(r,k+1)}, ybar^{(r,k)}) <=
    1``): the worst ``(eta_c L + 1/4) ||x^^{(r,k+1)} - x^^{(r,k)}||^2``.

    ``"retrieval"`` (local step ``k`` of round ``r``, normalised by ``||y_1^{(r,k)} - ybar^{(r,k)}||^2 <= 1``): the
    worst ``||x_1^{(r,k)} - x^^{(r,k)}||^2`` (client 1's retrieved primal against the shadow).
    """
    from PEPit import Point

    if metric not in ROUND_METRICS:
        raise InvalidParameterError("metric", f"one of {', '.join(ROUND_METRICS)}", metric)
    if not 0 <= k < K:
        raise InvalidParameterError("k", f"a local step in [0, K = {K})", k)
    roles = Roles()
    clients, _, _ = _clients(pep, roles, M, L, "none")
    psi = _regularizer(pep, roles)
    eta = eta_s * eta_c
    y = Point()
    x = _optimum(pep, clients, psi) if metric == "one-step" else Point()
    server = _retrieve(y, psi, eta * r * K)
    duals, grads = [y] * M, []
    for j in range(K):
        t = eta * r * K + eta_c * j
        primals = [server] * M if j == 0 else [_retrieve(d, psi, t) for d in duals]
        step = [f.gradient(p) for f, p in zip(clients, primals, strict=True)]
        if metric == "retrieval" and j == k:
            mean = average(duals)
            pep.set_initial_condition((duals[0] - mean) ** 2 <= 1)
            pep.set_performance_metric((primals[0] - _retrieve(mean, psi, t)) ** 2)
        if metric == "shadow-step" and j == k:
            mean = average(duals)
            shadow = _retrieve(mean, psi, t)
            nxt = _retrieve(mean - eta_c * average(step), psi, t + eta_c)
            three, _ = _bregman(nxt, mean, psi, t)
            pep.set_initial_condition(three <= 1)
            pep.set_performance_metric((eta_c * L + 0.25) * (nxt - shadow) ** 2)
        if metric == "one-step" and j == k:
            mean = average(duals)
            before, _ = _bregman(x, mean, psi, t)
            after, shadow = _bregman(x, mean - eta_c * average(step), psi, t + eta_c)
            spread = average([(d - mean) ** 2 for d in duals])
            gap = _phi(clients, psi, shadow) - _phi(clients, psi, x)
            pep.set_initial_condition(before <= 1)
            pep.set_performance_metric(after + eta_c * gap - eta_c * L * spread)
        grads += step
        duals = [d - eta_c * g for d, g in zip(duals, step, strict=True)]
    y_next = y + eta_s * (average(duals) - y)
    if metric == "descent":
        before, _ = _bregman(x, y, psi, eta * r * K)
        after, x_next = _bregman(x, y_next, psi, eta * (r + 1) * K)
        three, _ = _bregman(x_next, y, psi, eta * r * K)
        gF = average([f.gradient(server) for f in clients])
        drift = (gF - average(grads)) * (x_next - x)
        gap = _phi(clients, psi, x_next) - _phi(clients, psi, x)
        pep.set_initial_condition(before <= 1)
        pep.set_performance_metric(
            after + three + eta * K * gap - L / 2 * eta * K * (x_next - server) ** 2 - eta * K * drift
        )
    roles.points.update(y=y, x=x)
    return roles


def replay_feddualavg_round(
    worst: WorstCase, *, M: int, K: int, r: int, eta_c: float, L: float, eta_s: float = 1.0, metric="descent", k=0
) -> float:
    """The metric of :func:`feddualavg_round` for one :func:`fedtheory.algorithms.composite.round` (``"FedDualAvg"``)
    from the worst server dual on the interpolated instance."""
    problem, mirror = interpolated_instance(worst, L=L)
    cp = fco.CompositeParams("FedDualAvg", eta_c, K, M, eta_s)
    eta = eta_s * eta_c
    y, x = worst.points["y"][None], worst.points["x"]
    state = fco.CompositeState(mirror(y, eta * r * K), y, r)
    new, trace = fco.round(state, ExactGradient(problem), mirror, cp, None, trace=True)

    def phi(z):
        return float(problem.value(z) + mirror.psi_value(z))

    if metric == "retrieval":
        t = eta * r * K + eta_c * k
        mean = trace.y[k, 0].mean(axis=0)
        return float(np.sum((trace.x[k, 0, 0] - mirror(mean, t)) ** 2))
    if metric == "shadow-step":
        t = eta * r * K + eta_c * k
        mean = trace.y[k, 0].mean(axis=0)
        nxt = mirror(mean - eta_c * trace.g[k, 0].mean(axis=0), t + eta_c)
        return (eta_c * L + 0.25) * float(np.sum((nxt - mirror(mean, t)) ** 2))
    if metric == "one-step":
        t = eta * r * K + eta_c * k
        ys = trace.y[:, 0]  # (K+1, M, d)
        mean = ys[k].mean(axis=0)
        after_y = mean - eta_c * trace.g[k, 0].mean(axis=0)
        spread = float(np.sum((ys[k] - mean) ** 2)) / M
        after = float(mirror.generalized_bregman(x, after_y, t + eta_c))
        return after + eta_c * (phi(mirror(after_y, t + eta_c)) - phi(x)) - eta_c * L * spread
    x_next, server = new.x[0], state.x[0]
    after = float(mirror.generalized_bregman(x, new.y[0], eta * (r + 1) * K))
    three = float(mirror.generalized_bregman(x_next, y[0], eta * r * K))
    drift = float(np.dot(problem.grad(server[None])[0] - trace.g[:, 0].mean(axis=(0, 1)), x_next - x))
    gap = phi(x_next) - phi(x)
    return after + three + eta * K * gap - L / 2 * eta * K * float(np.sum((x_next - server) ** 2)) - eta * K * drift
