"""Theorem 3 Case i of StR-FedAvg (IPIR-FedAvg, nonconvex outer): the bounds (i-1) and (i-2), inequality (12) and the
descent step of the proof of Theorem 3, evaluated along the deterministic IPIR runs and the exact-projection reference.

Instance, ``F_lambda``, runs and readings: the docstring of :mod:`.ipir_runs` ("the module docstring" and "the
module's instance" of the claim statements).
Paper text ``shared/seeds/003_511a8e816d499631.txt``: Lemma 3 at lines 182-184, Theorem 3 at 186-207, proof of
Theorem 3 at 556-634 ((12) at 568, (13) at 594).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim

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
    F,
    F_upper,
    Run,
    deterministic_run,
    eta_hats,
    hypotheses,
    instance,
    outer_iterations,
    stationarity,
)


# --- Theorem 3 Case i, (12) and the descent step along the run ------------------------------------------------------
def _thm3_i1_rhs(run: Run, T: int, F_star: float, eta_hat: float, agg) -> float:
    """Theorem 3 (i-1), lines 192-197, kappa = 2, sigma = 0, S = N (Y_n = 0); t-dependent D_0, ||grad g(x^t*)||,
    G_ncvx^2 = 2 dist^2(y^t) and M = dist^2(y^t)/2 aggregated over t = 0..T-1 by ``agg`` (max or mean)."""
    inst = instance()
    k = KAPPA
    D0, gnorm = agg(run.D0), agg(run.dist)
    G2, M = agg(2 * run.dist**2), agg(run.dist**2 / 2)
    Wn = printed.psi2(printed.smoothness(inst.L_h, 1.0, eta_hat), printed.V_sigma(eta_hat), K_LOCAL, GAMMA_G, G2)
    lnT = np.log(T)
    F0 = float(F(run.y[0], 1 / LAM))
    c_sharp = C_LAM * gnorm / inst.alpha ** (1 / k)
    return float(
        2 * (F0 - F_star) / (GAMMA * T) + C_LAM * D0 * (1 + lnT) / T + C_LAM * Wn * 3 / (2 * T**0.75 * lnT)
        + (4 * M) ** (1 / k) * (24 * k - 5) / (12 * k - 5) * lnT ** (1 / k) / T ** (5 / (12 * k))
        + c_sharp * D0 ** (1 / k) * 2 * 4 ** (1 / k) * (lnT + 1) ** (1 / k) / T ** (17 / (12 * k))
        + c_sharp * (2 * Wn) ** (1 / k) / T ** (1 / k)
    )  # fmt: skip


@claim(
    f"{PAPER}/thm-3:i-1",
    source="Theorem 3 (i-1), lines 190-197",
    statement="E||grad F_lambda(y^{T*})||^2 = (1/T) sum_{t<T} ||grad F_lambda(y^t)||^2 (deterministic run, T* "
    "uniform) <= the printed (i-1) bound (kappa = 2, alpha = alpha_2, sigma = 0, S = N so the Y_n terms vanish, "
    "F_lambda^* replaced by F_up >= F_lambda^*), F_lambda as in (3) with its exact gradient; the t-dependent "
    "E||xbar^0 - x^{t*}||^2, ||grad g(x^{t*})||, G_ncvx and M taken (a) as their max over t and (b) as their average "
    "over t; eta-hat in {11, sup_t eta_t}; IPIR runs of the module docstring (t0 in {0, 2}, T = 60 quick / 150 "
    "full). Outside Proposition 7's hypothesis on R_t.",
    expect="holds",
)
def thm3_i1(ctx: Context) -> Evidence:
    T = outer_iterations(ctx)
    F_up = F_upper(T)
    measured, bound, grid, witness = [], [], {"t0": [], "aggregate": [], "eta-hat": []}, {}
    for t0 in T0S:
        run = deterministic_run(t0, T)
        lhs = float(np.mean(stationarity(run, 1 / LAM)))
        for agg_name, agg in (("max over t", np.max), ("mean over t", np.mean)):
            for name, eh in eta_hats().items():
                measured.append(lhs)
                bound.append(_thm3_i1_rhs(run, T, F_up, eh, agg))
                grid["t0"].append(t0)
                grid["aggregate"].append(agg_name)
                grid["eta-hat"].append(name)
        ref = deterministic_run(t0, T, exact=True)
        witness[f"t0 = {t0}"] = {
            "LHS (3), exact gradient": lhs,
            "LHS with the printed gradient": float(np.mean(stationarity(run, 1 / (2 * LAM)))),
            "reference (exact projection) LHS (3) / printed gradient": (
                float(np.mean(stationarity(ref, 1 / LAM))),
                float(np.mean(stationarity(ref, 1 / (2 * LAM)))),
            ),
            "bound with F_lambda^* >= 0 (max over t, eta-hat = 11)": _thm3_i1_rhs(run, T, 0.0, ETA_HAT_PRINTED, np.max),
            "final dist(y^T, X*): IPIR / reference": (
                float(instance().X.distance(run.y[-1])),
                float(instance().X.distance(ref.y[-1])),
            ),
            "final F_lambda(y^T) (3): IPIR / reference": (float(F(run.y[-1], 1 / LAM)), float(F(ref.y[-1], 1 / LAM))),
            "hypotheses": hypotheses(run),
        }
    witness["F_up"] = F_up
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=1e-12, grid=grid, witness=witness)


@claim(
    f"{PAPER}/thm-3:i-2",
    source="Theorem 3 (i-2), lines 198-199",
    statement="dist(xbar^t_{eta_t}, X_h^*) <= (1/alpha)(ln t D_0/(t^(5/12)(t-1)) + Y_n/t^(7/12) + W_n/t^(7/6) + "
    "4 M ln t/t^(5/12))^(1/kappa) with t read as R_t >= 2, kappa = 2, alpha = alpha_2, Y_n = 0 (sigma = 0, S = N), "
    "per-t D_0 = ||xbar^0 - x^{t*}||^2, W_n = 18(L_h + eta-hat) G_ncvx^2/gamma_g^2 with G_ncvx^2 = 2 dist^2(y^t), "
    "M = dist^2(y^t)/2, eta-hat in {11, sup_t eta_t}; every inner output of the IPIR runs (t0 in {0, 2}, T = 60 quick "
    "/ 150 full). Outside Proposition 7's hypothesis on R_t.",
    expect="holds",
)
def thm3_i2(ctx: Context) -> Evidence:
    inst = instance()
    measured, bound, grid, witness = [], [], {"t0": [], "t": [], "eta-hat": []}, {}
    for t0 in T0S:
        run = deterministic_run(t0, outer_iterations(ctx))
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
            measured.append(run.dist_x[keep])
            bound.append(b)
            grid["t0"].append(np.full(keep.sum(), t0))
            grid["t"].append(np.flatnonzero(keep))
            grid["eta-hat"].append(np.full(keep.sum(), name, dtype=object))
            witness[f"t0 = {t0}, {name}: max LHS/bound"] = float(np.max(run.dist_x[keep] / b))
        tight = b * inst.alpha / inst.alpha ** (1 / KAPPA)  # ((.)/alpha)^(1/kappa), eta-hat = sup_t eta_t
        witness[
            f"t0 = {t0}: ((.)/alpha)^(1/kappa) for the printed (1/alpha)(.)^(1/kappa), eta-hat = sup: max ratio"
        ] = float(np.max(run.dist_x[keep] / tight))
    witness["alpha_2"] = inst.alpha
    return Evidence(
        measured=np.concatenate(measured), bound=np.concatenate(bound), relation="<=", rtol=1e-12,
        grid={k: np.concatenate(v) for k, v in grid.items()}, witness=witness,
    )  # fmt: skip


@claim(
    f"{PAPER}/eq-12",
    source="Proof of Theorem 3, (12), line 568",
    statement="(1/T') sum_{t<T'} ||grad F_lambda(y^t)||^2 <= 2 (F_lambda(y^0) - F_lambda^*)/(gamma T') + C_lambda "
    "sum_{t<T'} ||e^t||^2/T' for every prefix T' = 1..T of the deterministic IPIR runs (t0 in {0, 2}, T = 60 quick / "
    "150 full), e^t = x^t - Pi[y^t], F_lambda as in (3) with its exact gradient, F_lambda^* replaced by 0 <= "
    "F_lambda^* (both terms of (3) are >= 0), so the evaluated bound is never smaller than the printed one.",
    expect="fails",
)
def eq12(ctx: Context) -> Evidence:
    T = outer_iterations(ctx)
    measured, bound, grid, witness = [], [], {"t0": [], "T'": []}, {}
    Tp = np.arange(1, T + 1)
    for t0 in T0S:
        run = deterministic_run(t0, T)
        sides = {}
        for reading, c, F_star in (("(3)", 1 / LAM, 0.0), ("Moreau", 1 / (2 * LAM), F_upper(T, 1 / (2 * LAM)))):
            lhs = np.cumsum(stationarity(run, c)) / Tp
            sides[reading] = lhs, 2 * (float(F(run.y[0], c)) - F_star) / (GAMMA * Tp) + C_LAM * np.cumsum(run.e2) / Tp
        measured.append(sides["(3)"][0])
        bound.append(sides["(3)"][1])
        grid["t0"].append(np.full(T, t0))
        grid["T'"].append(Tp)
        witness[f"t0 = {t0}: max LHS/RHS, (3) with F* := 0"] = float(np.max(sides["(3)"][0] / sides["(3)"][1]))
        witness[f"t0 = {t0}: max LHS/RHS, Moreau reading f + dist^2/(2 lambda) with F* := F_up"] = float(
            np.max(sides["Moreau"][0] / sides["Moreau"][1]))  # fmt: skip
    return Evidence(
        measured=np.concatenate(measured), bound=np.concatenate(bound), relation="<=", rtol=1e-12,
        grid={k: np.concatenate(v) for k, v in grid.items()}, witness=witness,
    )  # fmt: skip


def _descent_sides(run: Run, c: float, coef_g: float | None, e_over: int) -> tuple[np.ndarray, np.ndarray]:
    """``F(y^{t+1})`` and ``F(y^t) - gamma (coef_g - gamma L') ||grad F(y^t)||^2 + (gamma/lambda^e_over +
    gamma^2 L'/lambda^2) ||e^t||^2`` (coef_g None: ``-gamma/2 ||grad F||^2``), ``L' = (L_f lambda + 2)/lambda``,
    ``F = f + c dist^2``."""
    Lp = (L_F * LAM + 2) / LAM
    Fy = F(run.y, c)
    g2 = stationarity(run, c)
    g_term = -GAMMA / 2 * g2 if coef_g is None else -GAMMA * (coef_g - GAMMA * Lp) * g2
    return Fy[1:], Fy[:-1] + g_term + (GAMMA / LAM**e_over + GAMMA**2 * Lp / LAM**2) * run.e2


def _descent_run(ctx: Context, coef_g: float | None, e_over: int) -> Evidence:
    """The descent inequality along the runs, F as in (3); the Moreau reading (c = 1/(2 lambda)) in the witness."""
    T = outer_iterations(ctx)
    measured, bound, grid, witness = [], [], {"t0": [], "t": [], "run": []}, {}
    for t0 in T0S:
        for label, exact in (("IPIR", False), ("exact projection", True)):
            run = deterministic_run(t0, T, exact)
            lhs, rhs = _descent_sides(run, 1 / LAM, coef_g, e_over)
            measured.append(lhs)
            bound.append(rhs)
            grid["t0"].append(np.full(T, t0))
            grid["t"].append(np.arange(T))
            grid["run"].append(np.full(T, label, dtype=object))
            m_lhs, m_rhs = _descent_sides(run, 1 / (2 * LAM), coef_g, e_over)
            witness[f"t0 = {t0}, {label}"] = {
                "violations (steps t < T), (3)": int(np.sum(lhs > rhs + 1e-12 * np.abs(rhs))),
                "violations (steps t < T), Moreau reading f + dist^2/(2 lambda) (the function the update descends)":
                    int(np.sum(m_lhs > m_rhs + 1e-12 * np.abs(m_rhs))),
                "max (F(y^{t+1}) - RHS), Moreau reading": float(np.max(m_lhs - m_rhs)),
            }  # fmt: skip
    return Evidence(
        measured=np.concatenate(measured), bound=np.concatenate(bound), relation="<=", rtol=1e-12,
        grid={k: np.concatenate(v) for k, v in grid.items()},
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
    source="Proof of Theorem 3 (i-1), line 564 ('Setting theta = 2, we obtain')",
    statement="F_lambda(y^{t+1}) <= F_lambda(y^t) - gamma(5/4 - gamma(L_f lambda + 2)/lambda)||grad F_lambda(y^t)||^2 "
    f"+ (gamma/lambda^2 + gamma^2 (L_f lambda + 2)/lambda^3)||e^t||^2 at every t, {_RUN_TEXT}.",
    expect="fails",
)
def proof_descent_run(ctx: Context) -> Evidence:
    return _descent_run(ctx, 5 / 4, 2)


@claim(
    f"{PAPER}/thm-3:proof-step:run",
    source="Proof of Theorem 3 (i-1), line 564 ('Therefore, we obtain')",
    statement="F_lambda(y^{t+1}) <= F_lambda(y^t) - (gamma/2)||grad F_lambda(y^t)||^2 + (gamma/lambda + gamma^2 "
    f"(L_f lambda + 2)/lambda^3)||e^t||^2 at every t, {_RUN_TEXT}.",
    expect="fails",
)
def proof_step_run(ctx: Context) -> Evidence:
    return _descent_run(ctx, None, 1)
