"""The proof steps of Lemma A.1 and of Appendix A.5-A.6, each against its printed
justification: (26), (30), (31), (41), (42) and (47) on exact expectations; (33), (34) and the sum over the clients
that gives (21) symbolically (sympy) over the step sizes the paper allows.

Engine (:func:`local_round`): one round of Algorithm 1's local phase (lines 5-10) from ``p^r = P(x̄^r)`` with control
variates ``c_i`` (any vectors with ``sum_i c_i = 0``), on ``n <= 3`` clients with 2-d quadratics ``f_i(x) = x'H_i x/2
- y_i'x`` (eigenvalues of ``H_i`` in [-1, 1]: non-convex allowed, ``L = max_i ||H_i||``), ``g = theta ||.||_1``
(``B_g = theta sqrt(2)``), and the stochastic gradient ``grad f_i(z) + xi`` with ``xi = s sigma_b rho(z) u(z)``: ``s``
a fair sign drawn at each (client, step), ``rho(z) = (1 + cos(omega z_1))/2`` and ``u(z) = (cos(omega z_2), sin(omega
z_2))``. The noise is conditionally unbiased with conditional variance ``sigma_b^2 rho^2 <= sigma^2/b := sigma_b^2``
and depends on the state (Assumption 3.4). Every expectation is exact: the mean over all ``2^(n tau)`` sign paths,
advanced as replicas in one numpy array.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain, searched
from fedtheory.harness.tolerances import ROUNDING, SHORT_ROUNDING
from fedtheory.regularizers import soft_threshold

from . import PAPER
from .proof_constants import (
    BG2,
    C115,
    DRIFT_34,
    ET,
    ETA,
    G2,
    GAM,
    LAM,
    RHS_21,
    S2,
    STEP_13,
    TAU,
    A,
    L,
    N,
    gamma_min,
)

P = PAPER.key
MAX_STEPS = 8  # n tau <= 8: at most 2^8 sign paths


def _rotation(angle: float) -> np.ndarray:
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def instance(n: int, eigs, angles, y, c, p, theta: float, sigma_b: float, omega: float) -> dict:
    """The quadratics, control variates (the last is minus the sum of the others) and round start."""
    H = np.stack([_rotation(angles[i]) @ np.diag(eigs[i]) @ _rotation(angles[i]).T for i in range(n)])
    c = np.asarray(c, dtype=float)[:n].copy()
    c[-1] = -c[:-1].sum(axis=0)
    return {
        "H": H,
        "y": np.asarray(y, dtype=float)[:n],
        "c": c,
        "p": np.asarray(p, dtype=float),
        "theta": theta,
        "sigma_b": sigma_b,
        "omega": omega,
        "L": float(np.max(np.abs(np.linalg.eigvalsh(H)))),
    }


def local_round(inst: dict, tau: int, eta: float, *, repeat_sign: bool = False) -> dict:
    """Algorithm 1's local phase over every sign path: ``z`` (paths, n, tau + 1, 2), the noise ``xi`` and the
    stochastic gradients ``g`` (paths, n, tau, 2). ``repeat_sign``: each client reuses its first sign at every step
    (noise that is not conditionally unbiased; the negative control of (30))."""
    n = len(inst["H"])
    paths = 2 ** (n * tau)
    bits = (np.arange(paths)[:, None] >> np.arange(n * tau)) & 1
    signs = (2.0 * bits - 1.0).reshape(paths, n, tau)
    if repeat_sign:
        signs = np.repeat(signs[:, :, :1], tau, axis=2)
    z = np.broadcast_to(inst["p"], (paths, n, 2)).copy()
    zhat = z.copy()
    zs, xis, gs = [z], [], []
    for t in range(tau):
        grad = np.einsum("nij,pnj->pni", inst["H"], z) - inst["y"]
        rho = (1 + np.cos(inst["omega"] * z[..., 0])) / 2
        u = np.stack([np.cos(inst["omega"] * z[..., 1]), np.sin(inst["omega"] * z[..., 1])], axis=-1)
        xi = signs[:, :, t, None] * inst["sigma_b"] * rho[..., None] * u
        zhat = zhat - eta * (grad + xi + inst["c"])  # line 9
        z = soft_threshold(zhat, (t + 1) * eta * inst["theta"])  # line 10: P_((t+1) eta)
        zs.append(z)
        xis.append(xi)
        gs.append(grad + xi)
    return {"z": np.stack(zs, axis=2), "xi": np.stack(xis, axis=2), "g": np.stack(gs, axis=2)}


def _grad_at_p(inst: dict) -> tuple[np.ndarray, np.ndarray]:
    """``grad f_i(p)`` (n, 2) and ``grad f(p)`` (2,)."""
    grads = inst["H"] @ inst["p"] - inst["y"]
    return grads, grads.mean(axis=0)


def _pgd(inst: dict, step: float) -> np.ndarray:
    """``P_step(p - step grad f(p))``."""
    return soft_threshold(inst["p"] - step * _grad_at_p(inst)[1], step * inst["theta"])


def sides(which: str, inst: dict, tau: int, eta: float, eta_g: float, *, repeat_sign: bool = False):
    """Both sides of the printed step ``which`` at every (client, t) it has: arrays ``(measured, bound)``."""
    if which == "eq-26":  # (II) = 2||x~_pgd - p||^2 <= 4 tau^2 eta^2 4 B_g^2 + 4 tau^2 eta^2 ||G_eta~(p)||^2
        eta_t = eta * eta_g * tau
        gmap = (inst["p"] - _pgd(inst, eta_t)) / eta_t
        two = np.array([2 * np.sum((_pgd(inst, (t + 1) * eta) - inst["p"]) ** 2) for t in range(tau)])
        bound = 16 * tau**2 * eta**2 * 2 * inst["theta"] ** 2 + 4 * tau**2 * eta**2 * np.sum(gmap**2)
        return two, np.full(tau, bound)
    run = local_round(inst, tau, eta, repeat_sign=repeat_sign)
    sb2, t1 = inst["sigma_b"] ** 2, np.arange(1, tau + 1)
    if which in ("eq-30", "eq-30:orthogonality"):  # E||(1/(t+1)) sum_(l<=t) xi_l||^2
        mean_noise = np.cumsum(run["xi"], axis=2) / t1[:, None]
        measured = np.mean(np.sum(mean_noise**2, axis=-1), axis=0)  # (n, tau)
        if which == "eq-30":
            return measured, np.broadcast_to(sb2 / t1, measured.shape)
        per_step = np.mean(np.sum(run["xi"] ** 2, axis=-1), axis=0)
        return measured, np.cumsum(per_step, axis=1) / t1**2
    grads, grad = _grad_at_p(inst)
    drift = np.mean(np.sum((run["z"] - inst["p"]) ** 2, axis=-1), axis=0)  # E||z_i,t - p||^2, (n, tau + 1)
    if which == "eq-31":  # (I) <= 8(t+1) eta^2 L^2 S_i,t + 4((t+1)/tau)^2 ||Λ_i - Λ̄||^2 + 8(t+1) eta^2 sigma^2/b
        pgd = np.stack([_pgd(inst, s * eta) for s in t1])  # x~_pgd at step (t+1) eta, (tau, 2)
        first = 2 * np.mean(np.sum((run["z"][:, :, 1:] - pgd) ** 2, axis=-1), axis=0)
        lam = eta * tau * (grads - grad + inst["c"])  # Λ_i - Λ̄
        s_it = np.cumsum(drift[:, :tau], axis=1)
        bound = 8 * t1 * eta**2 * inst["L"] ** 2 * s_it + 4 * (t1 / tau) ** 2 * np.sum(lam**2, axis=-1)[:, None]
        return first, bound + 8 * t1 * eta**2 * sb2
    # eq-42: E||v - grad f(p)||^2 <= (2L^2/(n tau)) sum sum E||z_i,t - p||^2 + (2/(tau n)) sigma^2/b
    n = len(inst["H"])
    v = run["g"].mean(axis=(1, 2))
    measured = np.mean(np.sum((v - grad) ** 2, axis=-1))
    bound = 2 * inst["L"] ** 2 / (n * tau) * drift[:, :tau].sum() + 2 / (tau * n) * sb2
    return np.array([measured]), np.array([bound])


def _worst(measured: np.ndarray, bound: np.ndarray, relation: str) -> tuple[float, float, dict]:
    """The entry with the least slack (the judge's) and where it is: (client, t) for arrays (n, tau), t for (tau,),
    ``None`` for what an array does not have."""
    m, b = np.ravel(measured), np.ravel(bound)
    scale = np.where(b != 0, np.abs(b), 1.0)
    slack = -np.abs(m - b) / scale if relation == "==" else (b - m) / scale
    k = int(np.argmin(slack))
    names = {2: ("client", "t"), 1: ("t",)}.get(np.ndim(measured), ()) if m.size > 1 else ()
    found = zip(names, np.unravel_index(k, np.shape(measured)))
    where = dict.fromkeys(("client", "t")) | {key: int(v) for key, v in found}
    return float(m[k]), float(b[k]), where


def _evaluate(which: str, relation: str):
    """``evaluate`` of the witness search over :data:`DOMAIN` for the printed step ``which``."""

    def evaluate(n, tau_frac, u, eta_g, theta, sigma_b, omega, **rest):
        tau = 1 + round(tau_frac * (MAX_STEPS // n - 1))
        inst = instance(
            n,
            [(rest[f"eig{i}a"], rest[f"eig{i}b"]) for i in range(3)],
            [rest[f"angle{i}"] for i in range(3)],
            [(rest[f"y{i}a"], rest[f"y{i}b"]) for i in range(3)],
            [(rest[f"c{i}a"], rest[f"c{i}b"]) for i in range(3)],
            (rest["pa"], rest["pb"]),
            theta,
            sigma_b,
            omega,
        )
        eta = u / (np.sqrt(20) * tau * max(inst["L"], 1e-12))
        measured, bound, where = _worst(*sides(which, inst, tau, eta, eta_g), relation)
        return measured, bound, {"tau": tau, "eta": eta, "L": inst["L"], **where}

    return evaluate


DOMAIN = Domain(
    {
        "n": Axis(1, 3, log=False, integer=True),
        "tau_frac": Axis(0.0, 1.0, log=False),
        "u": Axis(1e-3, 1.0),
        "eta_g": Axis(0.1, 100.0),
        "theta": Axis(1e-3, 3.0),
        "sigma_b": Axis(1e-3, 3.0),
        "omega": Axis(0.0, 3.0, log=False),
        **{f"eig{i}{k}": Axis(-1.0, 1.0, log=False) for i in range(3) for k in "ab"},
        **{f"angle{i}": Axis(0.0, np.pi, log=False) for i in range(3)},
        **{f"{v}{i}{k}": Axis(-3.0, 3.0, log=False) for v in "yc" for i in range(3) for k in "ab"},
        "pa": Axis(-3.0, 3.0, log=False),
        "pb": Axis(-3.0, 3.0, log=False),
    },
    note="Lemma A.1's setting (Assumptions 3.1, 3.2, 3.4; eta~ <= eta_g/(sqrt(20) L), i.e. eta tau L = u/sqrt(20), "
    "u in (0, 1], any eta_g > 0) on the engine's instances (module docstring): n <= 3 clients, tau from 1 to 8/n "
    "(tau_frac), 2-d quadratics with eigenvalues in [-1, 1] at any orientation, linear terms, control variates "
    "(summing to 0) and round start in [-3, 3]^2, theta, sigma^2/b = sigma_b^2 and the noise's state dependence "
    "omega. Left out: d > 2, non-quadratic f_i, other noise laws and more than 2^8 paths.",
)


@family(f"{P}/lemma-a1-steps")
def _instances(fam: Family) -> list[dict]:
    """Seeded instances of the engine: (n, tau) in {(1, 8), (2, 4), (3, 2), (2, 3)}, two draws each."""
    rng = fam.rng()
    out = []
    for n, tau in ((1, 8), (2, 4), (3, 2), (2, 3)) * 2:
        inst = instance(
            n,
            rng.uniform(-1, 1, (3, 2)),
            rng.uniform(0, np.pi, 3),
            rng.uniform(-3, 3, (3, 2)),
            rng.uniform(-3, 3, (3, 2)),
            rng.uniform(-3, 3, 2),
            float(10 ** rng.uniform(-2, 0.5)),
            float(10 ** rng.uniform(-2, 0.5)),
            float(rng.uniform(0, 3)),
        )
        out.append({"inst": inst, "n": n, "tau": tau, "eta_g": float(10 ** rng.uniform(-1, 2))})
    return out


def _engine_evidence(ctx: Context, which: str, relation: str, rtol: float, witness: dict) -> Evidence:
    """The step ``which`` on the seeded instances at eta tau L = u/sqrt(20), u in {1, 0.1}, then the search."""
    points = Points()
    for k, row in enumerate(_instances(ctx)):
        for u in (1.0, 0.1):
            eta = u / (np.sqrt(20) * row["tau"] * row["inst"]["L"])
            measured, bound, where = _worst(*sides(which, row["inst"], row["tau"], eta, row["eta_g"]), relation)
            points.add(measured, bound, instance=k, n=row["n"], tau=row["tau"], eta=eta, u=u, **where)
    points.search(_evaluate(which, relation), DOMAIN, relation, ctx, scale=2)
    return points.evidence(relation, rtol=rtol, witness={"hypotheses": DOMAIN.note, **witness})


@claim(
    f"{P}/eq-26",
    source="eq. (26) (proof of Lemma A.1)",
    statement="(II) = 2||x~_pgd - P(x̄^r)||^2 <= 4 tau^2 eta^2 4 B_g^2 + 4 tau^2 eta^2 ||G_eta~(P(x̄^r))||^2 for every "
    "t <= tau - 1, x~_pgd = P_((t+1) eta)(P(x̄^r) - (t+1) eta grad f(P(x̄^r))) (Assumption 3.1, t <= tau - 1).",
    scope="printed",
    expect="holds",
)
def eq_26(ctx: Context) -> Evidence:
    """Instance: the engine's instances (module docstring; (II) is deterministic), g = theta||.||_1 with B_g =
    theta sqrt(2), at every t, with eta~ = eta eta_g tau. Reading: G_eta~ of (25), (p - P_eta~(p - eta~ grad f(p)))/
    eta~. Reference: soft-thresholding in float64, seeded instances and the witness search."""
    return _engine_evidence(ctx, "eq-26", "<=", ROUNDING, {})


@claim(
    f"{P}/eq-30:orthogonality",
    source="eq. (30) (proof of Lemma A.1; [22, Corollary C.1])",
    statement="E||(1/(t+1)) sum_(l=0)^t (grad f_i(z_i,l; B_i,l) - grad f_i(z_i,l))||^2 = (1/(t+1)^2) sum_(l=0)^t "
    "E[E[||grad f_i(z_i,l; B_i,l) - grad f_i(z_i,l)||^2 | F_t^r]] (the first, '=' step of (30)) along Algorithm 1's "
    "local steps, for conditionally unbiased noise (9).",
    scope="printed",
    expect="holds",
)
def eq_30_orthogonality(ctx: Context) -> Evidence:
    """Instance: the engine's local rounds, state-dependent noise (module docstring), every client and t. Reading:
    the cross terms vanish because each noise is conditionally unbiased given the past. Reference: exact means over
    every sign path; negative control: the same noise with each client's first sign repeated at every step (not
    conditionally unbiased), which must break the identity."""
    row = _instances(ctx)[0]
    eta = 1 / (np.sqrt(20) * row["tau"] * row["inst"]["L"])
    control = sides("eq-30:orthogonality", row["inst"], row["tau"], eta, row["eta_g"], repeat_sign=True)
    ev = Evidence(*control, "==", rtol=ROUNDING)
    witness = {"negative control": negative_control(ev, "each client's first sign repeated at every step")}
    return _engine_evidence(ctx, "eq-30:orthogonality", "==", ROUNDING, witness)


@claim(
    f"{P}/eq-30",
    source="eq. (30) (proof of Lemma A.1; [22, Corollary C.1])",
    statement="E||(1/(t+1)) sum_(l=0)^t (grad f_i(z_i,l; B_i,l) - grad f_i(z_i,l))||^2 <= sigma^2/((t+1) b) along "
    "Algorithm 1's local steps under Assumption 3.4, for every t <= tau - 1.",
    scope="printed",
    expect="holds",
)
def eq_30(ctx: Context) -> Evidence:
    """Instance: as eq-30:orthogonality, with sigma^2/b = sigma_b^2 the largest conditional variance. Reading: the
    bound is attained when the noise's scale rho is 1 (omega = 0). Reference: exact means over every sign path;
    negative control: the repeated-sign noise (variance sigma_b^2 at every step, fully correlated)."""
    row = _instances(ctx)[0]
    eta = 1 / (np.sqrt(20) * row["tau"] * row["inst"]["L"])
    flat = {**row["inst"], "omega": 0.0}
    control = Evidence(*sides("eq-30", flat, row["tau"], eta, row["eta_g"], repeat_sign=True), "<=", rtol=ROUNDING)
    witness = {"negative control": negative_control(control, "each client's first sign repeated, omega = 0")}
    return _engine_evidence(ctx, "eq-30", "<=", ROUNDING, witness)


@claim(
    f"{P}/eq-31",
    source="eq. (31) (proof of Lemma A.1, from (28)-(30))",
    statement="(I) = 2E||z_i,t+1 - x~_pgd||^2 <= 8(t+1) eta^2 L^2 sum_(l<=t) E||z_i,l - P(x̄^r)||^2 + 4((t+1)/tau)^2 "
    "E||Λ_i^r - Λ̄^r||^2 + 8(t+1) eta^2 sigma^2/b for every client and t <= tau - 1, Λ_i^r - Λ̄^r = eta tau (grad "
    "f_i(P(x̄^r)) - grad f(P(x̄^r)) + c_i^r).",
    scope="printed",
    expect="holds",
)
def eq_31(ctx: Context) -> Evidence:
    """Instance: the engine's local rounds (module docstring), every client and t, L = max_i ||H_i||. Reading:
    (I) as (23) defines it (z_i,t+1 = P_((t+1) eta)(ẑ_i,t+1)); Λ_i - Λ̄ = eta tau (grad f_i(p) - grad f(p) + c_i)
    (the definition of Λ^r with the identity for C^r of Appendix A.1, as (28) uses it), with the round's c_i.
    Reference: exact means over every sign path, seeded instances and the witness search."""
    return _engine_evidence(ctx, "eq-31", "<=", ROUNDING, {})


@claim(
    f"{P}/eq-42",
    source="eq. (42) (proof of Theorem 3.5)",
    statement="E||v^r - grad f(P(x̄^r))||^2 <= (2L^2/(n tau)) sum_i sum_t E||z_i,t^r - P(x̄^r)||^2 + (2/(tau n)) "
    "sigma^2/b, v^r = (1/(n tau)) sum_t sum_i grad f_i(z_i,t^r; B_i,t^r) (Assumptions 3.2, 3.4).",
    scope="printed",
    expect="holds",
)
def eq_42(ctx: Context) -> Evidence:
    """Instance: the engine's local rounds (module docstring) with all n clients, L = max_i ||H_i||. Reading: v^r
    of (3), the mean of the round's stochastic gradients. Reference: exact means over every sign path, seeded
    instances and the witness search."""
    return _engine_evidence(ctx, "eq-42", "<=", ROUNDING, {})


@claim(
    f"{P}/eq-41",
    source="eq. (41) (proof of Theorem 3.5)",
    statement="(IV) + (V) = -(1/(2 eta~))||P(x̄^(r+1)) - x~^(r+1)||^2 + <P(x̄^(r+1)) - x~^(r+1), grad f(P(x̄^r)) - v^r> "
    "<= (eta~/2)||grad f(P(x̄^r)) - v^r||^2 for every eta~ > 0 and all vectors.",
    scope="printed",
    expect="holds",
)
def eq_41(ctx: Context) -> Evidence:
    """Instance: a = P(x̄^(r+1)) - x~^(r+1) and b = grad f(P(x̄^r)) - v^r, any vectors (the inequality lives in their
    span: 2-d), eta~ > 0. Reading: the printed step is Young's inequality <a, b> <= ||a||^2/(2 eta~) + (eta~/2)||b||^2,
    tight at a = eta~ b. Reference: float64 on seeded vectors and the witness search; negative control: (eta~/4) in
    place of (eta~/2) at a = eta~ b."""

    def at(a_norm, b_norm, angle, eta_t):
        a = a_norm * np.array([np.cos(angle), np.sin(angle)])
        b = np.array([b_norm, 0.0])
        return float(-(a @ a) / (2 * eta_t) + a @ b), float(eta_t / 2 * (b @ b))

    points = Points()
    rng = ctx.rng()
    for _ in range(64):
        a_norm, b_norm, eta_t = 10 ** rng.uniform(-3, 3, 3)
        angle = rng.uniform(0, 2 * np.pi)
        points.add(*at(a_norm, b_norm, angle, eta_t), a_norm=a_norm, b_norm=b_norm, angle=angle, eta_t=eta_t)
    points.add(*at(0.5, 5.0, 0.0, 0.1), a_norm=0.5, b_norm=5.0, angle=0.0, eta_t=0.1)  # a = eta~ b: equality
    control = Evidence(at(0.5, 5.0, 0.0, 0.1)[0], 0.1 / 4 * 25, "<=")
    domain = Domain(
        {
            "a_norm": Axis(1e-4, 1e4),
            "b_norm": Axis(1e-4, 1e4),
            "angle": Axis(0, 2 * np.pi, log=False),
            "eta_t": Axis(1e-4, 1e2),
        },
        note="(41) holds for any vectors and any eta~ > 0 (the step does not use (13)); b along the first axis by "
        "rotation invariance. Left out: norms outside [1e-4, 1e4].",
    )
    points.search(at, domain, "<=", ctx, scale=4)
    witness = {"negative control": negative_control(control, "eta~/4 in place of eta~/2 at a = eta~ b")}
    return points.evidence("<=", rtol=ROUNDING, witness=witness)


def _prox_pl_sides(h2, xs1, xs2, zero, s1, s2, rho, phi, theta, a):
    """(47) on a separable prox-PL instance with L = 1: ``f(x) = sum_j h_j x_j^2/2 - y_j x_j``, ``h = (1, h2)``,
    ``g = theta ||.||_1``, ``mu = h2``, minimiser ``x*`` with the coordinates in ``zero`` set to 0 (``y = h x* +
    theta s``, ``s in d||x*||_1``), ``p = x* + rho (cos phi, sin phi)``, ``eta~ = a``: ``(F(x~) - F*, (1 - mu eta~)
    (F(p) - F*))``, the gaps computed without cancellation (``F(x) - F* = sum_j h_j d_j^2/2 + theta(|x_j| - s_j
    x_j)``)."""
    h = np.array([1.0, h2])
    xs = np.array([xs1, xs2]) * np.array([zero not in (1, 3), zero not in (2, 3)])
    s = np.where(xs != 0, np.sign(xs), np.array([s1, s2]))
    y = h * xs + theta * s

    def gap(x):
        return float(np.sum(h * (x - xs) ** 2 / 2 + theta * (np.abs(x) - s * x)))

    p = xs + rho * np.array([np.cos(phi), np.sin(phi)])
    x_tilde = soft_threshold(p - a * (h * p - y), a * theta)
    return gap(x_tilde), (1 - h2 * a) * gap(p)


@claim(
    f"{P}/eq-47",
    source="eq. (47) (proof of Theorem 3.6, 'where we have used that eta~ <= 1/(10L)')",
    statement="E F(x~^(r+1)) <= E[F(P(x̄^r)) - mu eta~ (F(P(x̄^r)) - F*)] for the virtual PGD step (4) from P(x̄^r), "
    "under the proximal PL inequality (Assumption 3.3-(2)) and eta~ <= 1/(10L).",
    scope="printed",
    expect="holds",
)
def eq_47(ctx: Context) -> Evidence:
    """Instance: separable strongly convex quadratics + theta||.||_1 in d = 2 (strong convexity gives the proximal
    PL inequality with mu = lambda_min, [11]), L = 1, mu in [1e-3, 1], any minimiser (sparse or not), start p at
    distance 1e-3..1e3, eta~ L in (0, 1/10] (:func:`_prox_pl_sides`). Reading: x~^(r+1) is deterministic given
    P(x̄^r), so the expectation is pointwise.
    Reference: closed-form soft-thresholding and exact minimiser; seeded instances and the witness search."""
    points = Points()
    rng = ctx.rng()
    names = ("h2", "xs1", "xs2", "zero", "s1", "s2", "rho", "phi", "theta", "a")
    for _ in range(64):
        row = (10 ** rng.uniform(-3, 0), *rng.uniform(-3, 3, 2), int(rng.integers(0, 4)), *rng.uniform(-1, 1, 2))
        row += (10 ** rng.uniform(-3, 3), rng.uniform(0, 2 * np.pi), 10 ** rng.uniform(-2, 0.5), rng.uniform(0, 0.1))
        points.add(*_prox_pl_sides(*row), **dict(zip(names, row)))
    domain = Domain(
        {
            "h2": Axis(1e-3, 1.0),
            "xs1": Axis(-3.0, 3.0, log=False),
            "xs2": Axis(-3.0, 3.0, log=False),
            "zero": Axis(0, 3, log=False, integer=True),
            "s1": Axis(-1.0, 1.0, log=False),
            "s2": Axis(-1.0, 1.0, log=False),
            "rho": Axis(1e-3, 1e3),
            "phi": Axis(0.0, 2 * np.pi, log=False),
            "theta": Axis(1e-3, 10.0),
            "a": Axis(1e-4, 0.1),
        },
        note="Theorem 3.6's (47) on prox-PL instances: separable 2-d strongly convex quadratics (L = 1, mu = h2 = "
        "lambda_min) + theta||.||_1, minimisers with 0, 1 or 2 zero coordinates (zero), any start at distance "
        "1e-3..1e3, eta~ L in (0, 1/10] ((13)). Left out: non-separable and non-convex prox-PL instances.",
    )
    points.search(lambda **p: _prox_pl_sides(*p.values()), domain, "<=", ctx, scale=4)
    return points.evidence("<=", rtol=ROUNDING, witness={"hypotheses": domain.note})


# --------------------------------------------------------------------------------------------------
# Lemma A.1's proof: (33), (34) and the sum over the clients
# --------------------------------------------------------------------------------------------------
T_ = sp.Symbol("t", nonnegative=True, integer=True)
STEP_33 = (8 * (T_ + 1) * ETA**2 * L**2).subs(ETA, ET / (GAM * TAU)).subs(ET, A / L)
"""The factor of S_i,t in (32), ``8 (t+1) eta^2 L^2``, with ``eta = eta~/(eta_g tau)`` and ``eta~ L = a``."""


@cache
def _lambdified_33():
    return sp.lambdify((T_, TAU, A, GAM), STEP_33, "numpy")


def _step_33(t, tau, a, eta_g):
    """(33)'s factor ``8 (t+1) eta^2 L^2`` at ``(t, tau, a, eta_g)`` (numpy)."""
    return _lambdified_33()(t, tau, a, eta_g)


def _evaluate_33(t_frac: float, tau: int, a: float, eta_g: float) -> tuple[float, float, dict]:
    """``8 (t+1) eta^2 L^2`` against ``1/(8 tau)`` at ``t = round(t_frac (tau - 2))``, the steps (33) is used at
    (``S_i,t+1`` for ``t + 1 <= tau - 1``)."""
    t = round(t_frac * (tau - 2))
    return float(_step_33(t, tau, a, eta_g)), 1 / (8 * tau), {"t": t}


def _evidence_33(ctx: Context, a_of: Callable, note: str, witness: dict) -> Evidence:
    """(33)'s factor against ``1/(8 tau)`` on a grid and by the witness search, ``a = a_of(u, eta_g)`` for ``u`` in
    (0, 1] (the step-size condition at hand)."""
    uu, gg, tt, ff = (x.ravel() for x in np.meshgrid([1.0, 0.5, 0.1], [0.1, 1.5, 10.0], [2, 3, 10, 100, 10**4], [0, 1]))
    a = a_of(uu, gg)
    t = np.round(ff * (tt - 2))
    grid = {"u": uu, "eta_g": gg, "tau": tt, "t": t, "a": a}
    ev = Evidence(_step_33(t, tt, a, gg), 1 / (8 * tt), "<=", rtol=SHORT_ROUNDING, grid=grid, witness=witness)

    def evaluate(u, eta_g, tau, t_frac):
        measured, bound, extra = _evaluate_33(t_frac, tau, a_of(u, eta_g), eta_g)
        return measured, bound, {**extra, "a": a_of(u, eta_g)}

    domain = Domain(
        {
            "u": Axis(1e-3, 1.0),
            "eta_g": Axis(1e-2, 1e2),
            "tau": Axis(2, 1e4, integer=True),
            "t_frac": Axis(0, 1, log=False),
        },
        note=note,
    )
    return searched(ev, evaluate, domain, ctx, scale=4)


_33_STATEMENT = "8(t+1) eta^2 L^2 <= 1/(8 tau) for every t <= tau - 2 (the steps of (33), so that S_i,t+1 <= (1 + 1/(8 "
"tau)) S_i,t + A^r), eta = eta~/(eta_g tau), "


@claim(
    f"{P}/eq-33",
    source="eq. (33) (proof of Lemma A.1)",
    statement=_33_STATEMENT + "under Lemma A.1's only step-size hypothesis eta~ <= eta_g/(sqrt(20) L).",
    scope="printed",
    expect="fails",
)
def eq_33(ctx: Context) -> Evidence:
    """Instance: eta~ L = u eta_g/sqrt(20), u in (0, 1], any eta_g > 0, tau >= 2. Reading: Lemma A.1 states only
    eta~ <= eta_g/(sqrt(20) L); the proof writes "since 8(t+1) eta^2 L^2 <= 1/(8 tau) when eta~ <= eta_g/(8L)", a
    stronger condition. At u = 1 the factor is 8 (t+1)/(20 tau^2) against 1/(8 tau): ratio 3.2 (t+1)/tau. Reference:
    the closed form (sympy, from eta = eta~/(eta_g tau)) on a grid and by the witness search."""
    witness = {
        "hypotheses": "eta~ L = u eta_g/sqrt(20) <= eta_g/sqrt(20) (Lemma A.1's hypothesis, u <= 1), eta_g > 0 (the "
        "lemma puts no other condition on it), t <= tau - 2 (a step of (33))",
    }
    note = "Lemma A.1: any eta_g > 0 and eta~ <= eta_g/(sqrt(20) L), i.e. a = eta~ L = u eta_g/sqrt(20), u in (0, 1]; "
    note += "tau >= 2 (for tau = 1 there is no step); t = round(t_frac (tau - 2)). Left out: eta_g outside [1e-2, 1e2] "
    note += "and tau > 1e4 (the factor depends on a/eta_g = u/sqrt(20), t and tau only)."
    return _evidence_33(ctx, lambda u, g: u * g / np.sqrt(20), note, witness)


@claim(
    f"{P}/eq-33:proof-condition",
    source="eq. (33) (proof of Lemma A.1, 'when eta~ <= eta_g/(8L)')",
    statement=_33_STATEMENT + "under the proof's own condition eta~ <= eta_g/(8L).",
    scope="printed",
    expect="holds",
)
def eq_33_proof_condition(ctx: Context) -> Evidence:
    """Instance: eta~ L = u eta_g/8, u in (0, 1], any eta_g > 0, tau >= 2. Reading: the factor is at most
    8 tau eta^2 L^2 = 8 u^2/(64 tau) <= 1/(8 tau); the margin tends to 1 as t + 1 = tau - 1 -> oo. Reference: as
    eq-33; negative control: eta~ <= eta_g/(7.9 L) fails."""
    note = "The proof's condition: any eta_g > 0 and a = eta~ L = u eta_g/8, u in (0, 1]; tau >= 2, t = round(t_frac "
    note += (
        "(tau - 2)). Left out: eta_g outside [1e-2, 1e2] and tau > 1e4 (the factor depends on a/eta_g, t, tau only)."
    )
    control = _evidence_33(ctx, lambda u, g: u * g / 7.9, note, {})
    return _evidence_33(
        ctx,
        lambda u, g: u * g / 8,
        note,
        {
            "hypotheses": "eta~ L = u eta_g/8 <= eta_g/8, t <= tau - 2",
            "negative control": negative_control(control, "eta~ <= eta_g/(7.9 L) in place of eta_g/(8L)"),
        },
    )


@claim(
    f"{P}/eq-33:under-13",
    source="eq. (33) and condition (13)",
    statement=_33_STATEMENT + "under (13) (the theorems' condition, which implies eta~ <= eta_g/(8L)): Lemmas A.1 and "
    "A.2 hold as proved when their hypothesis reads eta~ <= eta_g/(8L) in place of eta_g/(sqrt(20) L).",
    scope="corrected",
    expect="holds",
)
def eq_33_under_13(ctx: Context) -> Evidence:
    """Instance: (13), a in (0, 1/10], eta_g >= max(1.5, sqrt(n/8)). Reading: the repair of eq-33 (Lemma A.1's
    hypothesis replaced by the proof's eta~ <= eta_g/(8L)) covers the theorems: under (13) the factor is at most
    64 a^2/eta_g^2 <= 0.64/2.25 of 1/(8 tau). Reference: the closed form on a grid and by the witness search."""
    tt, aa, gg, ff = (x.ravel() for x in np.meshgrid([2, 3, 10, 10**4], [0.1, 0.05, 0.01], [1.5, 3.0, 40.0], [0, 1]))
    t = np.round(ff * (tt - 2))
    ev = Evidence(
        _step_33(t, tt, aa, gg),
        1 / (8 * tt),
        "<=",
        rtol=SHORT_ROUNDING,
        grid={"tau": tt, "a": aa, "eta_g": gg, "t": t},
        witness={"hypotheses": STEP_13},
    )

    def evaluate(a, n, eta_g_over_min, tau, t_frac):
        return _evaluate_33(t_frac, tau, a, eta_g_over_min * float(gamma_min(n)))

    domain = Domain(
        {
            "a": Axis(1e-4, 0.1),
            "n": Axis(1, 1e4, integer=True),
            "eta_g_over_min": Axis(1.0, 100.0),
            "tau": Axis(2, 1e4, integer=True),
            "t_frac": Axis(0, 1, log=False),
        },
        note=f"{STEP_13}; tau >= 2, t = round(t_frac (tau - 2)); eta_g searched as a factor >= 1 of its minimum.",
    )
    return searched(ev, evaluate, domain, ctx, scale=4)


ELL = sp.Symbol("l", nonnegative=True, integer=True)


def _geometric(term: sp.Expr) -> sp.Expr:
    """``sum_(l=0)^(tau-2) term`` in closed form (sympy), the generic branch of its Piecewise: the ratio of a
    geometric term is ``1 + 1/(8 tau)`` or ``exp(1/(8 tau))``, never 1 for a finite tau."""
    total = sp.summation(term, (ELL, 0, TAU - 2))
    return total.args[-1][0] if isinstance(total, sp.Piecewise) else total


@cache
def chain_34() -> dict[str, sp.Expr]:
    """The four members of the printed chain after (34), summed in closed form by sympy:
    ``sum_(l=0)^(tau-2) (1 + 1/(8 tau))^l <= sum exp(l/(8 tau)) <= sum exp(1/8) <= 1.15 tau``."""
    return {
        "sum": _geometric((1 + 1 / (8 * TAU)) ** ELL),
        "exp": _geometric(sp.exp(ELL / (8 * TAU))),
        "exp-eighth": _geometric(sp.exp(sp.Rational(1, 8))),
        "bound": C115 * TAU,
    }


@cache
def chain_34_slopes() -> dict[str, sp.Expr]:
    """``lim_(tau -> oo) member/tau`` of each member of the chain (sympy); the limit of a ratio of members is the
    ratio of these (none is 0)."""
    return {name: sp.limit(expr / TAU, TAU, sp.oo) for name, expr in chain_34().items()}


CHAIN_TEXT = {
    "sum": "sum_(l=0)^(tau-2) (1 + 1/(8 tau))^l",
    "exp": "sum_(l=0)^(tau-2) exp(l/(8 tau))",
    "exp-eighth": "sum_(l=0)^(tau-2) exp(1/8)",
    "bound": "1.15 tau",
}
STEPS_34 = {  # claim part -> (left member, right member, what the step uses, smallest tau with a nonzero side)
    "": ("sum", "bound", "the display (34): the geometric sum of (33) is at most 1.15 tau", 1),
    "exp": ("sum", "exp", "first inequality of the chain: (1 + x)^l <= exp(l x)", 2),
    "exp-eighth": ("exp", "exp-eighth", "second inequality: l/(8 tau) <= 1/8 for l <= tau - 2", 2),
    "constant": ("exp-eighth", "bound", "third inequality: (tau - 1) exp(1/8) <= 1.15 tau", 1),
}


def _chain_34_claim(part: str) -> None:
    """Register the claim of one inequality of (34)'s chain, for every tau >= 1."""
    left, right, what, first = STEPS_34[part]
    text = f"For every tau >= 1: {CHAIN_TEXT[left]} <= {CHAIN_TEXT[right]} ({what}"

    @claim(
        f"{P}/eq-34" + (f":{part}" if part else ""),
        source="eq. (34) (proof of Lemma A.1)",
        statement=text + ("; at tau = 1 both sides are empty sums, 0)." if first == 2 else ")."),
        scope="printed",
        expect="holds",
    )
    def check(ctx: Context) -> Evidence:
        """Instance: every tau = 1..256 (from 2 where both sides are sums, equal to 0 at tau = 1), a log grid to
        10^5, the limit tau -> oo of the ratio (sympy) and the witness search over tau <= 10^5. Reading: the sums
        in sympy's closed form. Reference: sympy closed forms in float64, whose relative rounding (about tau eps, from
        (1 + 1/(8 tau))^(tau - 1)) stays below 1e-10 up to tau = 10^5; beyond, the limit entry."""
        lhs, rhs = chain_34()[left], chain_34()[right]
        f, g = (sp.lambdify(TAU, e, "numpy") for e in (lhs, rhs))
        tau = np.unique(np.r_[np.arange(first, 257), np.round(np.logspace(np.log10(257), 5, 30))])
        limit = chain_34_slopes()[left] / chain_34_slopes()[right]
        witness = {"closed forms": f"{sp.sstr(lhs)} <= {sp.sstr(rhs)}", "limit of the ratio, tau -> oo": sp.sstr(limit)}
        if right == "bound":  # the printed constant 1.15 at work: 1.05 in its place must fail
            control = Evidence(f(tau.astype(float)), 1.05 * tau, "<=", rtol=ROUNDING)
            witness["negative control"] = negative_control(control, "1.05 tau in place of 1.15 tau")
        ev = Evidence(
            np.r_[np.broadcast_to(f(tau.astype(float)), tau.shape), float(limit)],
            np.r_[np.broadcast_to(g(tau.astype(float)), tau.shape), 1.0],
            "<=",
            rtol=ROUNDING,
            grid={"tau": np.r_[tau.astype(object), None], "entry": ["tau"] * tau.size + ["limit of the ratio"]},
            witness=witness,
        )
        note = "(34) is used for every tau >= 1 (tau >= 2 here: at tau = 1 both sums are 0); tau > 1e5 is the "
        note += "limit entry (sympy)."
        domain = Domain({"tau": Axis(first, 1e5, integer=True)}, note=note if first == 2 else note.split(" (")[0] + ".")
        return searched(ev, lambda tau: (float(f(tau)), float(g(tau))), domain, ctx, scale=4)

    check.__name__ = "eq_34" + (f"_{part.replace('-', '_')}" if part else "")


for _part in STEPS_34:
    _chain_34_claim(_part)


@claim(
    f"{P}/lem-a.1:sum",
    source="Lemma A.1, eq. (21) (proof: 'Summing (34) over all the clients i completes the proof')",
    statement="sum_i 1.15 tau A_i^r = 1.15 tau (16 n tau^2 eta^2 B_g^2 + 4 n tau^2 eta^2 ||G||^2 + 4 E||Λ^r - Λ̄^r||^2 "
    "+ 8 n tau eta^2 sigma^2/b) is at most the right side of (21), 5 tau^3 eta^2 n 4 B_g^2 + 5 n tau^3 eta^2 ||G||^2 "
    "+ 5 tau E||Λ^r - Λ̄^r||^2 + 10 n tau^2 eta^2 sigma^2/b, for all n, tau, eta and nonnegative B_g^2, ||G||^2, "
    "E||Λ - Λ̄||^2, sigma^2/b.",
    scope="printed",
    expect="holds",
)
def lem_a1_sum(ctx: Context) -> Evidence:
    """Instance: the sum over clients of (34)'s bound against (21), each side a sympy expression in (n, tau, eta)
    and the four nonnegative terms. Reading: A^r of (32) per client (E||Λ_i - Λ̄||^2 sums to E||Λ - Λ̄||^2).
    Reference: sympy lambdified on a grid (each term alone and all together) and the witness search; negative
    control: 1.3 in place of 1.15."""
    args = (N, TAU, ETA, BG2, G2, LAM, S2)
    left, right = sp.lambdify(args, DRIFT_34, "numpy"), sp.lambdify(args, RHS_21, "numpy")
    control = sp.lambdify(args, DRIFT_34.subs(C115, sp.Rational(13, 10)), "numpy")
    basis = np.vstack([np.eye(4), np.ones(4)])
    n, tau, eta, k = (x.ravel() for x in np.meshgrid([1, 10, 1000], [1, 2, 100], [1e-3, 1.0], np.arange(5)))
    terms = basis[k].T
    grid = {"n": n, "tau": tau, "eta": eta, "terms (B_g^2, G, Λ, sigma^2/b)": [str(tuple(basis[i])) for i in k]}
    ev = Evidence(left(n, tau, eta, *terms), right(n, tau, eta, *terms), "<=", rtol=SHORT_ROUNDING, grid=grid)
    ev.witness = {
        "right - left": sp.sstr(sp.factor_terms(sp.expand(RHS_21 - DRIFT_34))),
        "negative control": negative_control(
            Evidence(control(n, tau, eta, *terms), right(n, tau, eta, *terms), "<="), "1.3 in place of 1.15"
        ),
    }
    domain = Domain(
        {
            "n": Axis(1, 1e4, integer=True),
            "tau": Axis(1, 1e4, integer=True),
            "eta": Axis(1e-6, 1e2),
            **{name: Axis(1e-6, 1e6) for name in ("Bg2", "G2", "Lam2", "s2")},
        },
        note="(21) for any n, tau, eta > 0 and nonnegative terms (the grid adds each term alone); bounded ranges only.",
    )
    return searched(ev, lambda **p: (float(left(*p.values())), float(right(*p.values()))), domain, ctx, scale=4)
