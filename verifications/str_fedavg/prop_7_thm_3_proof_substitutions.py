"""Substitutions of the IPIR-FedAvg schedules into Proposition 7 (Appendix F) and into the proof of Theorem 3 (ii-2).

Nothing here runs Algorithm 1 or 2: every claim is an identity or inequality between printed closed forms, checked
with sympy (an identity holds when the simplified difference is 0; otherwise the remainder is the witness), exact
rationals (``fractions.Fraction``), mpmath (30 digits) or float64 in log space where a sweep is large.

Schedules, theta and B^2: :mod:`.schedule_forms`. Printed objects: Theorem 3, Propositions 3 and 7, the proof of
Theorem 3 (ii-2) and Appendix F (proof of Proposition 7).
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.tolerances import ROUNDING

from .schedule_forms import brackets, random_constants

PAPER = "str-fedavg"


# --- substitutions into Proposition 7 (Appendix F) and Theorem 3 (ii-2) ---------------------------------------------
@claim(
    f"{PAPER}/prop-7:proof-subst",
    source="Appendix F (Proposition 3 (ii-3) with mu_f = L_f = 1, 'Invoking Theorem 1'); Proposition 7 Case i",
    statement="Substituting gamma~_t = R^-a, eta_t = p ln R/R^b into Appendix F's bound D_0/(theta^R - 1) + (2 "
    "gamma~/eta) Psi_1 + (2 gamma~^2/eta) W' + 2||grad f|| ((1/alpha)(eta D_0/(2(theta^R - 1)) + gamma~ Psi_1 + "
    "gamma~^2 W' + 2 eta M))^(1/kappa) gives at most the printed Proposition 7 (i) right-hand side. a + b = 1 only "
    "((a, b) in {(7/12, 5/12), (2/3, 1/3), (3/5, 2/5)}; there theta^R >= R^(p/2), so the first terms agree up to that "
    "slack; a + b != 1 is prop-7:i:theta-R), p in {1, 2}, R in {10, 1e2, 1e3, 1e4}, kappa in {5/4, 3/2, 2, 3, 5}, 10 "
    "seeded draws of (D_0, Psi_1, W', M, ||grad f(x^t*)||, alpha) ~ 10^U[-2, 2] each, plus one M-dominated draw.",
    scope="printed",
    expect="fails",
)
def prop7_proof_subst(ctx: Context) -> Evidence:
    """Float64 evaluation of Appendix F's bound with the Case i schedule substituted against the printed Proposition 7
    (i) right-hand side, on the (a, b, p, R, kappa) grid of the statement with seeded log-uniform constants."""
    rng = ctx.rng(0)
    rows = []
    for a, b in ((7 / 12, 5 / 12), (2 / 3, 1 / 3), (3 / 5, 2 / 5)):
        for p in (1.0, 2.0):
            for R in (10.0, 1e2, 1e3, 1e4):
                for kappa in (1.25, 1.5, 2.0, 3.0, 5.0):
                    for i in range(11):
                        draw = 10 ** rng.uniform(-2, 2, 6) if i < 10 else np.array([1e-8, 1e-8, 1e-8, 1.0, 1.0, 1.0])
                        rows.append((a, b, p, R, kappa, *draw))
    a, b, p, R, kappa, D, psi, w, M, g, alpha = (np.array(col) for col in zip(*rows))
    log_R = np.log(R)
    eta, gamma = p * log_R / R**b, R**-a
    theta_m1 = np.expm1(-R * np.log1p(-eta * gamma / 2))
    derived = (
        D / theta_m1
        + 2 * gamma / eta * psi
        + 2 * gamma**2 / eta * w
        + 2 * g * ((eta * D / (2 * theta_m1) + gamma * psi + gamma**2 * w + 2 * eta * M) / alpha) ** (1 / kappa)
    )
    rp = R ** (p / 2) - 1
    inner = p * log_R * D / (R**b * rp) + 2 * psi / R**a + 2 * w / R ** (2 * a) + 2 * p * log_R * M / R**b
    printed = (
        D / rp + 2 / (p * log_R * R ** (a - b)) * (psi + w / R**a) + g / alpha ** (1 / kappa) * inner ** (1 / kappa)
    )
    return Evidence(
        measured=derived, bound=printed, relation="<=", rtol=ROUNDING,
        grid={"a": a, "b": b, "p": p, "R": R, "kappa": kappa, "D_0": D, "Psi_1": psi, "W'": w, "M": M,
              "||grad f||": g, "alpha": alpha},
        witness={"reading": "Appendix F carries 2||grad f(x^t*)|| outside (.)^(1/kappa) (Proposition 3 (ii-3) with "
                 "mu_f = 1); the printed Proposition 7 has ||grad f(x^t*)||/alpha^(1/kappa) and at most doubles the "
                 "inside (the M term not at all), so its kappa-term is at most 2^(1/kappa - 1) < 1 times Appendix F's",
                 "fraction of the random draws violating":
                     float(np.mean((derived > printed * (1 + ROUNDING))[D > 1e-8])),
                 "hypotheses": "the Case i schedule gamma~_t = R^-a, eta_t = p ln R/R^b with a + b = 1 (the printed "
                 "(7/12, 5/12) and two more pairs), p >= 1, kappa > 1, eta gamma~/2 < 1, every constant > 0"},
    )  # fmt: skip


@claim(
    f"{PAPER}/thm-3:ii-2:proof-subst",
    source="Proof of Theorem 3 (ii-2) (Proposition 3 (iii-1) adapted; eq. (14))",
    statement="Substituting gamma~_t = 2 ln t/t (p = 2, R_t = t, mu_f = 1) into (14) with the printed bound "
    "gives (1/alpha)[eta D_0/(theta^t - 1) + (4 ln t/t) V(eta) + (8 (ln t)^2/t^2) W(eta)] (2/(gamma~ sum "
    "theta^r) = eta/(theta^t - 1) by thm-1:proof-sum), which should be at most the printed eta D_0/(alpha t) + (4 ln "
    "t/t) V(eta^) + (8 (ln t)^2/t^2) W(eta^), eta^ = 11. Grid: eta in {0.05, 0.2, 0.5, 1, 2, 5, 11}, alpha in {1/10, "
    "1, 10}, t in {10, 1e2, 1e3, 1e4} (points with eta gamma~/2 >= 1 skipped), 5 seeded draws of (D_0 ~ 10^U[-2, 2] "
    "and the bracket constants of thm-1:proof-eq8).",
    scope="printed",
    expect="fails",
)
def thm3_ii2_subst(ctx: Context) -> Evidence:
    """Float64 evaluation of (14) with the Case ii schedule and the adapted Proposition 3 (iii-1) bound against the
    printed bound at eta^ = 11, on the (eta, alpha, t) grid with seeded bracket constants and D_0."""
    rng = ctx.rng(0)
    rows = [
        (eta, alpha, t)
        for eta in (0.05, 0.2, 0.5, 1.0, 2.0, 5.0, 11.0)
        for alpha in (0.1, 1.0, 10.0)
        for t in (10.0, 1e2, 1e3, 1e4)
        if eta * math.log(t) / t < 1
        for _ in range(5)
    ]
    eta, alpha, t = (np.array(col) for col in zip(*rows))
    c = random_constants(rng, eta.size)
    D = 10 ** rng.uniform(-2, 2, eta.size)
    gamma = 2 * np.log(t) / t
    theta_m1 = np.expm1(-t * np.log1p(-eta * gamma / 2))
    v, w = brackets(eta, c)
    v_hat, w_hat = brackets(11.0, c)
    lt = np.log(t)
    derived = (eta * D / theta_m1 + 4 * lt / t * v + 8 * lt**2 / t**2 * w) / alpha
    printed = eta * D / (alpha * t) + 4 * lt / t * v_hat + 8 * lt**2 / t**2 * w_hat
    return Evidence(
        measured=derived, bound=printed, relation="<=", rtol=ROUNDING,
        grid={"eta": eta, "alpha": alpha, "t": t, "D_0": D},
        witness={"reading": "two slips: the D_0 term uses t where the schedule gives theta^t - 1 ~ t^eta (prop-7:ii:"
                 "theta-R), and the noise terms lose the 1/alpha of (14)",
                 "hypotheses": "gamma~_t = 2 ln t/t (p = 2, R_t = t), constant eta in (0, 11] (eta-hat = 11), "
                 "alpha > 0, eta gamma~/2 < 1, every constant > 0 (eta <= alpha/(2||grad F_lambda||) holds for a "
                 "gradient norm small enough; no other term depends on it)"},
    )  # fmt: skip
