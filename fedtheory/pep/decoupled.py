"""Performance estimation of the decoupled-prox federated method (:mod:`fedtheory.algorithms.composite.decoupled`).

The method's deterministic round map (exact gradients, every client participating) is written on PEPit's points:

    p^r = P_{eta~}(x^r),   z^_{i,0} = z_{i,0} = p^r,
    z^_{i,t+1} = z^_{i,t} - eta (grad f_i(z_{i,t}) + c_i^r),   z_{i,t+1} = P_{(t+1) eta}(z^_{i,t+1}),
    x^{r+1} = p^r + eta_g (mean_i z^_{i,tau} - p^r),
    c_i^{r+1} = (p^r - x^{r+1}) / (eta_g eta tau) - (1/tau) sum_t grad f_i(z_{i,t}),

with ``eta = eta~ / (eta_g tau)``, ``c^1 = 0`` and every prox a
:func:`PEPit.primitive_steps.proximal_step` on one convex ``B_g``-Lipschitz regularizer ``g``
(:class:`PEPit.functions.ConvexLipschitzFunction`; ``B_g = 0`` means ``g = 0`` and every prox is the identity).
Clients are in ``F_{mu,L}`` (``mu = -L``: L-smooth, non-convex). No heterogeneity bound is imposed: the method's
analysis measures heterogeneity through the drift ``Lambda_i^r = eta tau (grad f_i(p^r) + c_i^r)`` inside its
Lyapunov functions, so the initial conditions bound those functions at the start instead.

Quantities per round ``r`` (as in :mod:`fedtheory.algorithms.composite.potentials`): the spread ``||Lambda^r -
mean Lambda^r||^2``, ``Omega^r = F(p^r) - F* + spread/(n eta~)``, ``Omega_sc^r = ||p^r - x*||^2 + spread/n``, the
gradient mapping ``G(p^r) = (p^r - P_{eta~}(p^r - eta~ grad f(p^r)))/eta~``, the drift ``sum_{t<tau} sum_i ||z_{i,t}^r
- p^r||^2`` and ``||p^{r+1} - p^r||^2``. ``F* = F(x*)`` with ``x*`` a stationary point of ``F = mean_i f_i + g``
(its minimiser when the clients are convex). Each formulation's replay runs fedtheory's own
:func:`~fedtheory.algorithms.composite.decoupled.round` on the interpolated clients
(:class:`~fedtheory.pep.interpolation.InterpolatedProblem`) and regularizer
(:class:`~fedtheory.pep.interpolation.InterpolatedRegularizer`) and evaluates the same metric with
:mod:`~fedtheory.algorithms.composite.potentials`.
"""

from __future__ import annotations

import numpy as np

from ..algorithms.composite import decoupled as alg
from ..algorithms.composite import potentials
from ..oracles import ExactGradient
from .interpolation import InterpolatedProblem, InterpolatedRegularizer
from .local_methods import average, smooth_clients
from .solve import Roles, WorstCase


def _total(items: list):
    """The sum of PEPit expressions (or points)."""
    total = items[0]
    for item in items[1:]:
        total = total + item
    return total


def _rounds(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, anchor: bool, mapping=()):
    """Run ``R`` rounds on PEPit's points; the per-round quantities of rounds ``1 .. R + 1`` (index ``r - 1``)."""
    from PEPit.functions import ConvexLipschitzFunction
    from PEPit.primitive_steps import proximal_step

    roles = Roles()
    clients = smooth_clients(pep, roles, n, mu, L)
    g = None
    if B_g > 0:
        g = pep.declare_function(ConvexLipschitzFunction, M=B_g)
        roles.functions.append(g)
        roles.classes.append((0.0, float("inf")))
    eta = eta_tilde / (eta_g * tau)

    def prox(v, step):
        if g is None:
            return v, 0
        point, _, value = proximal_step(v, g, step)
        return point, value

    q = {"roles": roles, "clients": clients, "g": g}
    if anchor:
        total = clients[0]
        for f in clients[1:]:
            total = total + f
        composite = total * (1 / n) if g is None else total * (1 / n) + g
        x_star = composite.stationary_point()
        q["x_star"], q["F_star"] = x_star, composite.value(x_star)
        roles.points["x_star"] = x_star
    x = pep.set_initial_point()
    roles.points["x1"] = x
    c = [None] * n
    q.update(p=[], spread=[], F=[], G2={}, drift=[])
    for r in range(R + 1):
        p, g_value = prox(x, eta_tilde)
        grads = [f.gradient(p) for f in clients]
        lam = [eta * tau * (gr if ci is None else gr + ci) for gr, ci in zip(grads, c, strict=True)]
        mean_lam = average(lam)
        spread = _total([(li - mean_lam) ** 2 for li in lam])
        q["p"].append(p)
        q["spread"].append(spread)
        q["F"].append(_total([f.value(p) for f in clients]) * (1 / n) + g_value)
        if r + 1 in mapping:
            grad = average(grads)
            x_tilde, _ = prox(p - eta_tilde * grad, eta_tilde)
            q["G2"][r + 1] = ((p - x_tilde) * (1 / eta_tilde)) ** 2 if g is not None else grad**2
        if r == R:
            break
        drift, sums, sent = [], [], []
        for i, f in enumerate(clients):
            z_hat = z = p
            total = None
            for t in range(tau):
                gr = grads[i] if t == 0 else f.gradient(z)
                total = gr if total is None else total + gr
                z_hat = z_hat - eta * (gr if c[i] is None else gr + c[i])
                if t < tau - 1:
                    z, _ = prox(z_hat, (t + 1) * eta)
                    drift.append((z - p) ** 2)
            sums.append(total)
            sent.append(z_hat)
        x = p + eta_g * (average(sent) - p)
        v = (p - x) * (1 / (eta_g * eta * tau))
        c = [v - s * (1 / tau) for s in sums]
        q["drift"].append(_total(drift) if drift else 0.0)
    roles.points["output"] = q["p"][-1]
    return q


def _omega(q, r: int, n: int, eta_tilde: float):
    """``Omega^r`` (1-based ``r``)."""
    return q["F"][r - 1] - q["F_star"] + q["spread"][r - 1] * (1 / (n * eta_tilde))


def _omega_sc(q, r: int, n: int):
    """``Omega_sc^r`` (1-based ``r``)."""
    return (q["p"][r - 1] - q["x_star"]) ** 2 + q["spread"][r - 1] * (1 / n)


def decoupled_lyapunov_sc(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0, rate_term=True):
    """Worst ``Omega_sc^{R+1} - (1 - mu eta~/3)^R Omega_sc^1`` (``rate_term``; else ``Omega_sc^{R+1}``) over ``n``
    clients in ``F_{mu,L}`` and a convex ``B_g``-Lipschitz ``g`` with ``Omega_sc^1 <= D``."""
    q = _rounds(pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=True)
    start = _omega_sc(q, 1, n)
    pep.set_initial_condition(start <= D)
    rho = (1 - mu * eta_tilde / 3) ** R if rate_term else 0.0
    pep.set_performance_metric(_omega_sc(q, R + 1, n) - rho * start)
    return q["roles"]


def decoupled_lyapunov(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0, rate_term=True):
    """Worst ``Omega^{R+1} - (1 - mu eta~/3)^R Omega^1`` (``rate_term``; else ``Omega^{R+1}``) over ``n`` clients
    in ``F_{mu,L}`` (``mu >= 0``) and a convex ``B_g``-Lipschitz ``g`` with ``Omega^1 <= D``."""
    q = _rounds(pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=True)
    start = _omega(q, 1, n, eta_tilde)
    pep.set_initial_condition(start <= D)
    rho = (1 - mu * eta_tilde / 3) ** R if rate_term else 0.0
    pep.set_performance_metric(_omega(q, R + 1, n, eta_tilde) - rho * start)
    return q["roles"]


def decoupled_mapping(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0, rate_term=True):
    """Worst ``(1/R) sum_{r<=R} ||G(p^r)||^2 - Omega^1/(0.3 eta~ R)`` (``rate_term``; else the average alone) over
    ``n`` clients in ``F_{mu,L}`` (``mu >= 0``) and a convex ``B_g``-Lipschitz ``g`` with ``Omega^1 <= D``."""
    q = _rounds(
        pep,
        n=n,
        tau=tau,
        R=R,
        eta_tilde=eta_tilde,
        eta_g=eta_g,
        mu=mu,
        L=L,
        B_g=B_g,
        anchor=True,
        mapping=tuple(range(1, R + 1)),
    )
    start = _omega(q, 1, n, eta_tilde)
    pep.set_initial_condition(start <= D)
    mean = _total([q["G2"][r] for r in range(1, R + 1)]) * (1 / R)
    pep.set_performance_metric(mean - (start * (1 / (0.3 * eta_tilde * R)) if rate_term else 0))
    return q["roles"]


def decoupled_descent(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0):
    """Worst ``Omega^{R+1} - Omega^R + 0.3 eta~ ||G(p^R)||^2`` (round ``R``'s descent, after ``R - 1`` rounds from
    ``c = 0``) over ``n`` clients in ``F_{mu,L}`` (``mu >= 0``) and a convex ``B_g``-Lipschitz ``g``, ``Omega^1 <=
    D``."""
    q = _rounds(
        pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=True, mapping=(R,)
    )
    pep.set_initial_condition(_omega(q, 1, n, eta_tilde) <= D)
    step = _omega(q, R + 1, n, eta_tilde) - _omega(q, R, n, eta_tilde)
    pep.set_performance_metric(step + 0.3 * eta_tilde * q["G2"][R])
    return q["roles"]


def decoupled_contraction(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0):
    """Worst ``Omega^{R+1} - (1 - mu eta~/3) Omega^R`` (round ``R``, after ``R - 1`` rounds from ``c = 0``) over
    ``n`` clients in ``F_{mu,L}`` and a convex ``B_g``-Lipschitz ``g`` with ``Omega^1 <= D``."""
    q = _rounds(pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=True)
    pep.set_initial_condition(_omega(q, 1, n, eta_tilde) <= D)
    rho = 1 - mu * eta_tilde / 3
    pep.set_performance_metric(_omega(q, R + 1, n, eta_tilde) - rho * _omega(q, R, n, eta_tilde))
    return q["roles"]


def _start_gradients(q, n: int, D: float, pep) -> None:
    """``(1/n) sum_i ||grad f_i(p^1)||^2 <= D``: the scale of the start (no minimiser is assumed)."""
    p = q["p"][0]
    pep.set_initial_condition(_total([f.gradient(p) ** 2 for f in q["clients"]]) * (1 / n) <= D)


def decoupled_drift(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0):
    """Worst ``sum_{t<tau} sum_i ||z_{i,t}^R - p^R||^2 - 5 n tau^3 eta^2 ||G(p^R)||^2 - 5 tau ||Lambda^R - mean||^2``
    (round ``R`` after ``R - 1`` rounds from ``c = 0``) over ``n`` clients in ``F_{mu,L}`` (``mu = -L``: non-convex)
    and a convex ``B_g``-Lipschitz ``g``, with ``(1/n) sum_i ||grad f_i(p^1)||^2 <= D``."""
    q = _rounds(
        pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=False, mapping=(R,)
    )
    _start_gradients(q, n, D, pep)
    eta = eta_tilde / (eta_g * tau)
    rest = 5 * n * tau**3 * eta**2 * q["G2"][R] + 5 * tau * q["spread"][R - 1]
    pep.set_performance_metric(q["drift"][R - 1] - rest)
    return q["roles"]


def decoupled_drift_recursion(pep, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, D=1.0):
    """Worst ``(1/n)||Lambda^{R+1} - mean||^2 - 2 eta^2 tau^2 L^2 ||p^{R+1} - p^R||^2 - (4 eta^2 tau L^2/n)(5 n tau^3
    eta^2 ||G(p^R)||^2 + 5 tau ||Lambda^R - mean||^2)`` over the class of :func:`decoupled_drift`."""
    q = _rounds(
        pep, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, mu=mu, L=L, B_g=B_g, anchor=False, mapping=(R,)
    )
    _start_gradients(q, n, D, pep)
    eta = eta_tilde / (eta_g * tau)
    moved = 2 * eta**2 * tau**2 * L**2 * (q["p"][R] - q["p"][R - 1]) ** 2
    rest = 5 * n * tau**3 * eta**2 * q["G2"][R] + 5 * tau * q["spread"][R - 1]
    pep.set_performance_metric(q["spread"][R] * (1 / n) - moved - (4 * eta**2 * tau * L**2 / n) * rest)
    return q["roles"]


# --- replays --------------------------------------------------------------------------------------------------------
def replay_rounds(worst: WorstCase, *, n, tau, R, eta_tilde, eta_g, mu, L, B_g, **_) -> dict:
    """Run ``R`` rounds (and round ``R + 1``'s server quantities) of
    :func:`fedtheory.algorithms.composite.decoupled.round` on the interpolated worst instance.

    Returns
    -------
    dict
        Per-round arrays (index ``r - 1``): ``omega``, ``omega_sc`` (with an anchor), ``spread``, ``G2``, ``drift``
        (rounds ``1 .. R``), ``dP2`` (rounds ``1 .. R``) and the parameters used.
    """
    anchor = worst.points.get("x_star", worst.points["x1"])
    problem = InterpolatedProblem(worst.functions[:n], anchor, L, mu)
    regularizer = InterpolatedRegularizer(worst.functions[n]) if B_g > 0 else None
    params = alg.DecoupledParams(eta_tilde / (eta_g * tau), eta_g, tau, n)
    oracle = ExactGradient(problem)
    state = alg.init(worst.points["x1"], params, dim=problem.dim)
    x_star = worst.points.get("x_star")
    F_star = None
    if x_star is not None:
        F_star = float(potentials.composite_value(problem, regularizer, x_star[None])[0])
    out = {k: [] for k in ("omega", "omega_sc", "spread", "G2", "drift", "dP2", "p")}
    for r in range(R + 1):
        lam = potentials.drift(problem, regularizer, state, params)
        out["spread"].append(float(potentials.drift_deviation(lam)[0]))
        out["G2"].append(float(np.sum(potentials.gradient_mapping(problem, regularizer, state.x, eta_tilde) ** 2)))
        if x_star is not None:
            out["omega"].append(float(potentials.lyapunov(problem, regularizer, state, params, F_star)[0]))
            out["omega_sc"].append(float(potentials.lyapunov_sc(problem, regularizer, state, params, x_star)[0]))
        p = alg.output(regularizer, state.x, params)[0]
        out["p"].append(p)
        if r == R:
            break
        state, trace = alg.round(state, oracle, regularizer, params, None, trace=True)
        out["drift"].append(float(np.sum((trace.z[:tau] - trace.p[None, :, None, :]) ** 2)))
    out["dP2"] = [float(np.sum((b - a) ** 2)) for a, b in zip(out["p"][:-1], out["p"][1:], strict=True)]
    return out


def replay_decoupled_lyapunov_sc(worst: WorstCase, *, R, mu, eta_tilde, rate_term=True, **params) -> float:
    """The metric of :func:`decoupled_lyapunov_sc` replayed."""
    o = replay_rounds(worst, R=R, mu=mu, eta_tilde=eta_tilde, **params)["omega_sc"]
    return o[R] - ((1 - mu * eta_tilde / 3) ** R if rate_term else 0.0) * o[0]


def replay_decoupled_lyapunov(worst: WorstCase, *, R, mu, eta_tilde, rate_term=True, **params) -> float:
    """The metric of :func:`decoupled_lyapunov` replayed."""
    o = replay_rounds(worst, R=R, mu=mu, eta_tilde=eta_tilde, **params)["omega"]
    return o[R] - ((1 - mu * eta_tilde / 3) ** R if rate_term else 0.0) * o[0]


def replay_decoupled_mapping(worst: WorstCase, *, R, eta_tilde, rate_term=True, **params) -> float:
    """The metric of :func:`decoupled_mapping` replayed."""
    out = replay_rounds(worst, R=R, eta_tilde=eta_tilde, **params)
    mean = float(np.mean(out["G2"][:R]))
    return mean - (out["omega"][0] / (0.3 * eta_tilde * R) if rate_term else 0.0)


def replay_decoupled_descent(worst: WorstCase, *, R, eta_tilde, **params) -> float:
    """The metric of :func:`decoupled_descent` replayed."""
    out = replay_rounds(worst, R=R, eta_tilde=eta_tilde, **params)
    return out["omega"][R] - out["omega"][R - 1] + 0.3 * eta_tilde * out["G2"][R - 1]


def replay_decoupled_contraction(worst: WorstCase, *, R, mu, eta_tilde, **params) -> float:
    """The metric of :func:`decoupled_contraction` replayed."""
    out = replay_rounds(worst, R=R, mu=mu, eta_tilde=eta_tilde, **params)
    return out["omega"][R] - (1 - mu * eta_tilde / 3) * out["omega"][R - 1]


def replay_decoupled_drift(worst: WorstCase, *, n, tau, R, eta_tilde, eta_g, **params) -> float:
    """The metric of :func:`decoupled_drift` replayed."""
    out = replay_rounds(worst, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, **params)
    eta = eta_tilde / (eta_g * tau)
    rest = 5 * n * tau**3 * eta**2 * out["G2"][R - 1] + 5 * tau * out["spread"][R - 1]
    return out["drift"][R - 1] - rest


def replay_decoupled_drift_recursion(worst: WorstCase, *, n, tau, R, eta_tilde, eta_g, L, **params) -> float:
    """The metric of :func:`decoupled_drift_recursion` replayed."""
    out = replay_rounds(worst, n=n, tau=tau, R=R, eta_tilde=eta_tilde, eta_g=eta_g, L=L, **params)
    eta = eta_tilde / (eta_g * tau)
    moved = 2 * eta**2 * tau**2 * L**2 * out["dP2"][R - 1]
    rest = 5 * n * tau**3 * eta**2 * out["G2"][R - 1] + 5 * tau * out["spread"][R - 1]
    return out["spread"][R] / n - moved - (4 * eta**2 * tau * L**2 / n) * rest
