"""Theorem 3 Case i of StR-FedAvg (IPIR-FedAvg, nonconvex outer): the bounds (i-1) and (i-2), inequality (12) and the
descent step of the proof of Theorem 3, evaluated along the deterministic IPIR runs and the exact-projection reference.

Instance, ``F_lambda``, runs and readings: the docstring of :mod:`.ipir_runs` ("the module docstring" and "the
module's instance" of the claim statements).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import SHORT_ROUNDING

from . import printed
from .ipir_runs import (
    C_LAM,
    ETA_HAT_PRINTED,
    GAMMA,
    GAMMA_G,
    K_LOCAL,
    KAPPA,
    L_F,
    LAM,
    PAPER,
    T0S,
    F_upper,
    Instance,
    Run,
    deterministic_run,
    eta_hats,
    hypotheses,
    instance,
    outer_iterations,
    stationarity,
)


# --- Theorem 3 Case i, (12) and the descent step along the run ------------------------------------------------------
def _thm3_i1_rhs(inst: Instance, run: Run, T: int, F_star: float, eta_hat: float, agg) -> float:
    """Theorem 3 (i-1), kappa = 2, sigma = 0, S = N (Y_n = 0); t-dependent D_0, ||grad g(x^t*)||,
    G_ncvx^2 = 2 dist^2(y^t) and M = dist^2(y^t)/2 aggregated over t = 0..T-1 by ``agg`` (max or mean)."""
    k = KAPPA
    D0, gnorm = agg(run.D0), agg(run.dist)
    G2, M = agg(2 * run.dist**2), agg(run.dist**2 / 2)
    Wn = printed.psi2(printed.smoothness(inst.L_h, 1.0, eta_hat), printed.V_sigma(eta_hat), K_LOCAL, GAMMA_G, G2)
    lnT = np.log(T)
    F0 = float(inst.F(run.y[0], 1 / LAM))
    c_sharp = C_LAM * gnorm / inst.alpha ** (1 / k)
    return float(
        2 * (F0 - F_star) / (GAMMA * T) + C_LAM * D0 * (1 + lnT) / T + C_LAM * Wn * 3 / (2 * T**0.75 * lnT)
        + (4 * M) ** (1 / k) * (24 * k - 5) / (12 * k - 5) * lnT ** (1 / k) / T ** (5 / (12 * k))
        + c_sharp * D0 ** (1 / k) * 2 * 4 ** (1 / k) * (lnT + 1) ** (1 / k) / T ** (17 / (12 * k))
        + c_sharp * (2 * Wn) ** (1 / k) / T ** (1 / k)
    )  # fmt: skip


@claim(
    f"{PAPER}/thm-3:i-1",
    source="Theorem 3 (i-1)",
    statement="E||grad F_lambda(y^{T*})||^2 = (1/T) sum_{t<T} ||grad F_lambda(y^t)||^2 (deterministic run, T* "
    "uniform) <= the printed (i-1) bound (kappa = 2, alpha = alpha_2, sigma = 0, S = N so the Y_n terms vanish, "
    "F_lambda^* replaced by F_up >= F_lambda^*), F_lambda as in (3) with its exact gradient; the t-dependent "
    "E||xbar^0 - x^{t*}||^2, ||grad g(x^{t*})||, G_ncvx and M taken (a) as their max over t and (b) as their average "
    "over t; eta-hat in {11, sup_t eta_t}; IPIR runs of the module docstring (t0 in {0, 2}, T = 60 quick / 150 "
    "full). Outside Proposition 7's hypothesis on R_t.",
    scope="printed",
    expect="holds",
)
def thm3_i1(ctx: Context) -> Evidence:
    """The average squared gradient of (3) along the deterministic IPIR runs of :mod:`.ipir_runs`, against the
    printed (i-1) bound evaluated in closed form with the exact ``alpha_2`` and ``F_lambda^*`` replaced by the
    upper bracket ``F_up``."""
    inst = instance(ctx)
    T = outer_iterations(ctx)
    F_up = F_upper(ctx, 1 / LAM)
    points, witness = Points(), {}
    for t0 in T0S:
        run = deterministic_run(ctx, t0)
        lhs = float(np.mean(stationarity(inst, run, 1 / LAM)))
        for agg_name, agg in (("max over t", np.max), ("mean over t", np.mean)):
            for name, eh in eta_hats().items():
                points.add(
                    lhs, _thm3_i1_rhs(inst, run, T, F_up, eh, agg), t0=t0, aggregate=agg_name, **{"eta-hat": name}
                )
        ref = deterministic_run(ctx, t0, True)
        witness[f"t0 = {t0}"] = {
            "LHS (3), exact gradient": lhs,
            "LHS with the printed gradient": float(np.mean(stationarity(inst, run, 1 / (2 * LAM)))),
            "reference (exact projection) LHS (3) / printed gradient": (
                float(np.mean(stationarity(inst, ref, 1 / LAM))),
                float(np.mean(stationarity(inst, ref, 1 / (2 * LAM)))),
            ),
            "bound with F_lambda^* >= 0 (max over t, eta-hat = 11)": _thm3_i1_rhs(
                inst, run, T, 0.0, ETA_HAT_PRINTED, np.max
            ),
            "final dist(y^T, X*): IPIR / reference": (
                float(inst.X.distance(run.y[-1])),
                float(inst.X.distance(ref.y[-1])),
            ),
            "final F_lambda(y^T) (3): IPIR / reference": (
                float(inst.F(run.y[-1], 1 / LAM)),
                float(inst.F(ref.y[-1], 1 / LAM)),
            ),
            "hypotheses": hypotheses(inst, run),
        }
    witness["F_up"] = F_up
    return points.evidence("<=", rtol=SHORT_ROUNDING, witness=witness)


@claim(
    f"{PAPER}/thm-3:i-2",
    source="Theorem 3 (i-2)",
    statement="dist(xbar^t_{eta_t}, X_h^*) <= (1/alpha)(ln t D_0/(t^(5/12)(t-1)) + Y_n/t^(7/12) + W_n/t^(7/6) + "
    "4 M ln t/t^(5/12))^(1/kappa) with t read as R_t >= 2, kappa = 2, alpha = alpha_2, Y_n = 0 (sigma = 0, S = N), "
    "per-t D_0 = ||xbar^0 - x^{t*}||^2, W_n = 18(L_h + eta-hat) G_ncvx^2/gamma_g^2 with G_ncvx^2 = 2 dist^2(y^t), "
    "M = dist^2(y^t)/2, eta-hat in {11, sup_t eta_t}; every inner output of the IPIR runs (t0 in {0, 2}, T = 60 quick "
    "/ 150 full). Outside Proposition 7's hypothesis on R_t.",
    scope="printed",
    expect="holds",
)
def thm3_i2(ctx: Context) -> Evidence:
    """The distance of every inner output of the deterministic IPIR runs of :mod:`.ipir_runs` to the closed-form
    X_h^*, against the printed (i-2) bound with t read as R_t and the exact ``alpha_2``."""
    inst = instance(ctx)
    points, witness = Points(), {}
    for t0 in T0S:
        run = deterministic_run(ctx, t0)
        keep = run.R >= 2
        R = run.R[keep].astype(float)
        D0, d = run.D0[keep], run.dist[keep]
        for name, eh in eta_hats().items():
            Wn = 18 * (inst.L_h + eh) * 2 * d**2 / GAMMA_G**2
            inner = (
                np.log(R) * D0 / (R ** (5 / 12) * (R - 1))
                + Wn / R ** (7 / 6)
                + 4 * (d**2 / 2) * np.log(R) / R ** (5 / 12)
            )
            b = inner ** (1 / KAPPA) / inst.alpha
            for t, lhs, bound in zip(np.flatnonzero(keep), run.dist_x[keep], b, strict=True):
                points.add(lhs, bound, t0=t0, t=t, **{"eta-hat": name})
            witness[f"t0 = {t0}, {name}: max LHS/bound"] = float(np.max(run.dist_x[keep] / b))
        tight = b * inst.alpha / inst.alpha ** (1 / KAPPA)  # ((.)/alpha)^(1/kappa), eta-hat = sup_t eta_t
        witness[
            f"t0 = {t0}: ((.)/alpha)^(1/kappa) for the printed (1/alpha)(.)^(1/kappa), eta-hat = sup: max ratio"
        ] = float(np.max(run.dist_x[keep] / tight))
    witness["alpha_2"] = inst.alpha
    return points.evidence("<=", rtol=SHORT_ROUNDING, witness=witness)


@claim(
    f"{PAPER}/eq-12",
    source="Proof of Theorem 3, (12)",
    statement="(1/T') sum_{t<T'} ||grad F_lambda(y^t)||^2 <= 2 (F_lambda(y^0) - F_lambda^*)/(gamma T') + C_lambda "
    "sum_{t<T'} ||e^t||^2/T' for every prefix T' = 1..T of the deterministic IPIR runs (t0 in {0, 2}, T = 60 quick / "
    "150 full), e^t = x^t - Pi[y^t], F_lambda as in (3) with its exact gradient, F_lambda^* replaced by 0 <= "
    "F_lambda^* (both terms of (3) are >= 0), so the evaluated bound is never smaller than the printed one.",
    scope="printed",
    expect="fails",
)
def eq12(ctx: Context) -> Evidence:
    """Both sides of (12) for every prefix of the deterministic IPIR runs of :mod:`.ipir_runs`, with the exact
    gradient of (3) and ``F_lambda^*`` replaced by its lower bracket 0; the Moreau reading, with ``F_up``, is in
    the witness."""
    inst = instance(ctx)
    T = outer_iterations(ctx)
    points, witness = Points(), {}
    Tp = np.arange(1, T + 1)
    for t0 in T0S:
        run = deterministic_run(ctx, t0)
        sides = {}
        for reading, c, F_star in (("(3)", 1 / LAM, 0.0), ("Moreau", 1 / (2 * LAM), F_upper(ctx, 1 / (2 * LAM)))):
            lhs = np.cumsum(stationarity(inst, run, c)) / Tp
            sides[reading] = (
                lhs,
                2 * (float(inst.F(run.y[0], c)) - F_star) / (GAMMA * Tp) + C_LAM * np.cumsum(run.e2) / Tp,
            )
        for n, lhs, rhs in zip(Tp, *sides["(3)"], strict=True):
            points.add(lhs, rhs, t0=t0, **{"T'": n})
        witness[f"t0 = {t0}: max LHS/RHS, (3) with F* := 0"] = float(np.max(sides["(3)"][0] / sides["(3)"][1]))
        witness[f"t0 = {t0}: max LHS/RHS, Moreau reading f + dist^2/(2 lambda) with F* := F_up"] = float(
            np.max(sides["Moreau"][0] / sides["Moreau"][1]))  # fmt: skip
    return points.evidence("<=", rtol=SHORT_ROUNDING, witness=witness)


def _descent_sides(
    inst: Instance, run: Run, c: float, coef_g: float | None, e_over: int
) -> tuple[np.ndarray, np.ndarray]:
    """``F(y^{t+1})`` and ``F(y^t) - gamma (coef_g - gamma L') ||grad F(y^t)||^2 + (gamma/lambda^e_over +
    gamma^2 L'/lambda^2) ||e^t||^2`` (coef_g None: ``-gamma/2 ||grad F||^2``), ``L' = (L_f lambda + 2)/lambda``,
    ``F = f + c dist^2``."""
    Lp = (L_F * LAM + 2) / LAM
    Fy = inst.F(run.y, c)
    g2 = stationarity(inst, run, c)
    g_term = -GAMMA / 2 * g2 if coef_g is None else -GAMMA * (coef_g - GAMMA * Lp) * g2
    return Fy[1:], Fy[:-1] + g_term + (GAMMA / LAM**e_over + GAMMA**2 * Lp / LAM**2) * run.e2


def _descent_run(ctx: Context, coef_g: float | None, e_over: int) -> Evidence:
    """The descent inequality along the runs, F as in (3); the Moreau reading (c = 1/(2 lambda)) in the witness."""
    inst = instance(ctx)
    points, witness = Points(), {}
    for t0 in T0S:
        for label, exact in (("IPIR", False), ("exact projection", True)):
            run = deterministic_run(ctx, t0, exact)
            lhs, rhs = _descent_sides(inst, run, 1 / LAM, coef_g, e_over)
            for t, m, b in zip(range(len(lhs)), lhs, rhs, strict=True):
                points.add(m, b, t0=t0, t=t, run=label)
            m_lhs, m_rhs = _descent_sides(inst, run, 1 / (2 * LAM), coef_g, e_over)
            witness[f"t0 = {t0}, {label}"] = {
                "violations (steps t < T), (3)": int(np.sum(lhs > rhs + SHORT_ROUNDING * np.abs(rhs))),
                "violations (steps t < T), Moreau reading f + dist^2/(2 lambda) (the function the update descends)":
                    int(np.sum(m_lhs > m_rhs + SHORT_ROUNDING * np.abs(m_rhs))),
                "max (F(y^{t+1}) - RHS), Moreau reading": float(np.max(m_lhs - m_rhs)),
            }  # fmt: skip
    return points.evidence(
        "<=", rtol=SHORT_ROUNDING,
        witness={**witness, "gamma": GAMMA, "L_f": L_F, "lambda": LAM,
                 "reading": "with F as in (3) the update of Algorithm 2 is y - gamma(grad F_lambda(y) - (y - Pi y)/"
                 "lambda + e/lambda), not the update the proof expands (grad F_lambda + e/lambda)"},
    )  # fmt: skip


_RUN_TEXT = (
    "along the IPIR runs and the exact-projection reference of the module docstring (t0 in {0, 2}, T = 60 quick / 150 "
    "full), F_lambda as in (3), grad F_lambda its exact gradient, e^t = x^t - Pi[y^t], gamma = 3 lambda/(4(L_f lambda "
    "+ 2)), y^{t+1} the update of Algorithm 2"
)


@claim(
    f"{PAPER}/thm-3:proof-descent:run",
    source="Proof of Theorem 3 (i-1) ('Setting theta = 2, we obtain')",
    statement="F_lambda(y^{t+1}) <= F_lambda(y^t) - gamma(5/4 - gamma(L_f lambda + 2)/lambda)||grad F_lambda(y^t)||^2 "
    f"+ (gamma/lambda^2 + gamma^2 (L_f lambda + 2)/lambda^3)||e^t||^2 at every t, {_RUN_TEXT}.",
    scope="printed",
    expect="fails",
)
def proof_descent_run(ctx: Context) -> Evidence:
    """The descent inequality the proof obtains with theta = 2, at every step of the deterministic IPIR runs and
    the exact-projection reference of :mod:`.ipir_runs`, with F_lambda as in (3) and its exact gradient."""
    return _descent_run(ctx, 5 / 4, 2)


@claim(
    f"{PAPER}/thm-3:proof-step:run",
    source="Proof of Theorem 3 (i-1) ('Therefore, we obtain')",
    statement="F_lambda(y^{t+1}) <= F_lambda(y^t) - (gamma/2)||grad F_lambda(y^t)||^2 + (gamma/lambda + gamma^2 "
    f"(L_f lambda + 2)/lambda^3)||e^t||^2 at every t, {_RUN_TEXT}.",
    scope="printed",
    expect="fails",
)
def proof_step_run(ctx: Context) -> Evidence:
    """The descent step the proof concludes (coefficient gamma/2), at every step of the deterministic IPIR runs and
    the exact-projection reference of :mod:`.ipir_runs`, with F_lambda as in (3) and its exact gradient."""
    return _descent_run(ctx, None, 1)
