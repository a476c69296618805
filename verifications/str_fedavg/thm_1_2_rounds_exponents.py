"""Rounds exponents of every printed R^up / R^lo statement of Theorems 1-2 of StR-FedAvg / IPIR-FedAvg:
``thm-1:*:rate`` and ``thm-2:*:rate``.

Nothing here runs Algorithm 1 or 2.

Each explicit bound (Propositions 3 and 6 with the theorem's schedule substituted) is a sum of terms
``C R^(-e) (ln R)^l`` whose rounds exponents are read off with sympy (:mod:`.rounds_exponent_terms`). The verdict
compares the largest exponent (derived vs printed; O(.) up to logarithmic factors, which ``tab-1:log-factors`` checks
separately).

Printed objects: Theorems 1 and 2, Remark 2, Propositions 3 and 6, the proof of Theorem 1.
"""

from __future__ import annotations

import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import SHORT_ROUNDING

from .rounds_exponent_terms import KAPPA_GRID, a_, b_, exponents, fmt, kap, p_, point_label, pts, r_, terms_at

PAPER = "str-fedavg"


# --- rounds exponents ----------------------------------------------------------------------------------------
def _rate_evidence(kind: str, printed: list[sp.Expr], power: sp.Expr, points: list[dict], names: list[str],
                   notes: dict) -> Evidence:  # fmt: skip
    """Largest derived rounds exponent vs largest printed one (derived <= printed: the printed O(.) is implied, up
    to logarithmic factors) at every grid point; term-by-term comparison and log factors in the witness. Negative
    control: the printed exponents halved."""
    grid_points, control, termwise = Points(), Points(), {}
    for point in points:
        derived = exponents(terms_at(kind, point), point, power)
        pr = [sp.simplify(x.subs(point)) for x in printed]
        d_max, p_max = max(d for d, _ in derived), max(pr)
        grid_points.add(float(d_max), float(p_max), **{str(k): float(v) for k, v in point.items()})
        control.add(float(d_max), float(p_max) / 2)
        logs = [l for d, l in derived if d == d_max and d_max not in (0, sp.oo)]
        termwise[point_label(point)] = (
            f"derived {fmt(d for d, _ in derived)} vs printed {fmt(pr)} (terms {', '.join(names)}); "
            f"log power at the largest: {max(logs) if logs else 'n/a'}"
        )
    halved = negative_control(
        control.evidence("<=", rtol=SHORT_ROUNDING, extended=True), "the printed exponents halved"
    )
    return grid_points.evidence(
        "<=", rtol=SHORT_ROUNDING, extended=True,  # sympy's oo: never
        witness={"per point: eps-exponents of the rounds, term by term": termwise, "negative control": halved} | notes,
    )  # fmt: skip


AB_THM1 = [(r_(2, 3), r_(1, 3)), (r_(3, 4), r_(1, 4)), (r_(1, 2), r_(1, 4)), (r_(3, 4), r_(1, 2)), (1, r_(1, 2))]
AB_THM2 = [
    (r_(1, 2), r_(1, 4)),
    (r_(1, 2), r_(1, 3)),
    (r_(3, 4), r_(1, 8)),
    (r_(3, 4), r_(1, 2)),
    (r_(9, 10), r_(1, 5)),
]


def _ab_points(pairs, **axes) -> list[dict]:
    return [pt | {a_: sp.nsimplify(av), b_: sp.nsimplify(bv)} for av, bv in pairs for pt in pts(**axes)]


_THETA_NOTE = {
    "theta^R": "theta^R - 1 ~ R^(p/2) for a + b = 1 (the value the proof uses, line 383); faster than any power for "
    "a + b < 1; ~ (p/2) mu_f^(1-a-b) ln R R^(1-a-b) -> 0 for a + b > 1, where the f-gap bound mu_f Q^2/(2(theta^R - "
    "1)) grows without bound (sympy limits)",
}
_THM1_I = "Theorem 1 Case i (gamma~ = 1/(mu_f^a R^a), eta = p ln R/(mu_f^b R^b), 'for some 0 < b < a <= 1')"
_THM1_I_GRID = (
    "(a, b) in {(2/3, 1/3), (3/4, 1/4), (1/2, 1/4), (3/4, 1/2), (1, 1/2)}, p in {1, 2, 3}; derived from Proposition 3 "
    "with theta^R - 1 from sympy limits (~ R^(p/2), as the proof's (8) uses, only when a + b = 1)"
)
_THM1_III = "Theorem 1 Case iii (gamma~ = p ln R/(mu_f R), any constant eta <= alpha/(2||grad f(x*)||))"
_THM1_III_GRID = (
    "eta in {1/10, 1/2, 1} (eta = 1/10 is admissible whenever alpha >= ||grad f(x*)||/5), p in {1, 2, 3}; derived from "
    "Proposition 3 Case iii with theta^R - 1 ~ R^(eta p/2) (sympy limit)"
)


def _rate_claim(label: str, source: str, what: str, kind: str, printed, power, points, names, grid_text, expect,
                hypotheses: str, notes=None):  # fmt: skip
    """Register ``<label>:rate``; ``hypotheses`` says how every grid point meets the case's printed hypotheses."""

    def check(ctx: Context) -> Evidence:
        """sympy reads the rounds exponents of every term of the explicit bound at each grid point (exact rationals,
        compared as floats); the largest derived one against the largest printed one."""
        return _rate_evidence(kind, printed, power, points, names, {"hypotheses": hypotheses} | (notes or {}))

    check.__name__ = check.__qualname__ = "rate_" + label.replace("-", "_").replace(":", "_")
    return claim(
        f"{PAPER}/{label}:rate",
        source=source,
        statement=f"{what}: the largest eps-exponent of the printed O(.) is at least the largest one derived from the "
        f"explicit bounds (O(.) up to logarithmic factors; exact asymptotic exponents from sympy, not fitted slopes); "
        f"{grid_text}.",
        scope="printed",
        expect=expect,
    )(check)


_HYP_I = (
    "Theorem 1 Case i: 0 < b < a <= 1 and p >= 1 at every grid point (mu_f, L_h, L_f, Q, W, Y, M are any positive "
    "constants: the exponents depend on (a, b, p) alone)"
)
_HYP_II = _HYP_I.replace("at every grid point", "and kappa > 1 at every grid point")
_HYP_III = (
    "Theorem 1 Case iii: kappa = 1 weak sharpness, which under Assumption 1 holds only for X_h^* = R^n (h constant); "
    "there grad f(x*) = 0, so every constant eta > 0 meets eta <= alpha/(2||grad f(x*)||), and p >= 1: every grid "
    "point (eta, p) is admissible, and the exponents depend on (eta, p) alone"
)
_HYP_2I = "Theorem 2 Case i: 0 < b < a <= 1 at every grid point (the exponents depend on (a, b) alone)"
_HYP_2II = "Theorem 2 Case ii: 0 <= a, b <= 1 (a, b not in {0, 1}) and kappa > 1 at every grid point"
_HYP_2III = (
    "Theorem 2 Case iii: kappa = 1 (under Assumption 1 only X_h^* = R^n, where every constant eta is admissible) and "
    "0 < a < 1 at every grid point"
)
F3, H4 = ["Q^2", "Y/S", "W/gamma_g^2"], ["Q^2", "Y/S", "W/gamma_g^2", "M"]
rate_thm1_i1 = _rate_claim(
    "thm-1:i-1", "Theorem 1 (i-1); explicit bound: Proposition 3 (i-2) upper",
    f"{_THM1_I}: R_f^up = O((mu_f Q^2/eps)^(2/p) + (W/(p mu_f^(2a-b) eps gamma_g^2))^(1/(2a-b)) + "
    "(Y/(p mu_f^(a-b) eps S))^(1/(a-b)))",
    "thm1-i:f", [2 / p_, 1 / (a_ - b_), 1 / (2 * a_ - b_)], 1, _ab_points(AB_THM1, p=[1, 2, 3]), F3, _THM1_I_GRID,
    "fails", _HYP_I, _THETA_NOTE,
)  # fmt: skip
rate_thm1_i2 = _rate_claim(
    "thm-1:i-2", "Theorem 1 (i-2); explicit bound: Proposition 3 (i-1)",
    f"{_THM1_I}: R_h^up = O((mu_f^(1-b) p Q^2/eps)^(2/(bp)) + (W/(mu_f^(2a) eps gamma_g^2))^(1/(2a)) + "
    "(Y/(mu_f^a eps S))^(1/a) + (pM/(mu_f^b eps))^(1/b))",
    "thm1-i:h", [2 / (b_ * p_), 1 / a_, 1 / (2 * a_), 1 / b_], 1, _ab_points(AB_THM1, p=[1, 2, 3]), H4,
    _THM1_I_GRID, "fails", _HYP_I, _THETA_NOTE,
)  # fmt: skip
rate_thm1_ii1 = _rate_claim(
    "thm-1:ii-1", "Theorem 1 (ii-1); explicit bound: Proposition 3 (ii-2) lower",
    f"{_THM1_I} with X_h^* alpha-weak sharp of order kappa > 1: R_f^lo = O(||grad f(x*)||^kappa ((mu_f^(1-b) p Q^2/"
    "(alpha eps^kappa))^(2/(bp)) + (W/(mu_f^(2a) alpha eps^kappa gamma_g^2))^(1/(2a)) + (Y/(mu_f^a alpha eps^kappa "
    "S))^(1/a) + (pM/(mu_f^b alpha eps^kappa))^(1/b))), rounds until -||grad f(x*)||((Err + 2 eta M)/alpha)^(1/kappa) "
    ">= -eps",
    "thm1-i:h", [kap * x for x in (2 / (b_ * p_), 1 / a_, 1 / (2 * a_), 1 / b_)], kap,
    _ab_points(AB_THM1, p=[1, 2, 3], kappa=KAPPA_GRID), H4, _THM1_I_GRID + ", kappa in {5/4, 3/2, 2, 3, 5}", "fails",
    _HYP_II, _THETA_NOTE,
)  # fmt: skip
_III = [2 / p_, sp.Integer(1), r_(1, 2)]
rate_thm1_iii1 = _rate_claim(
    "thm-1:iii-1", "Theorem 1 (iii-1); explicit bound: Proposition 3 (iii-2) upper",
    f"{_THM1_III}: R_f^up = O((mu_f Q^2/eps)^(2/p) + sqrt(pW/(eta mu_f^2 eps gamma_g^2)) + pY/(eta mu_f eps S))",
    "thm1-iii:f", _III, 1, pts(eta=[r_(1, 10), r_(1, 2), 1], p=[1, 2, 3]), F3, _THM1_III_GRID, "fails", _HYP_III,
)  # fmt: skip
rate_thm1_iii2 = _rate_claim(
    "thm-1:iii-2", "Theorem 1 (iii-2); explicit bound: Proposition 3 (iii-1)",
    f"{_THM1_III}: R_h^up = O((eta mu_f p Q^2/eps)^(2/p) + sqrt(pW/(mu_f^2 eps gamma_g^2)) + pY/(mu_f eps S))",
    "thm1-iii:h", _III, 1, pts(eta=[r_(1, 10), r_(1, 2), 1], p=[1, 2, 3]), F3, _THM1_III_GRID, "fails", _HYP_III,
)  # fmt: skip
rate_thm1_iii3 = _rate_claim(
    "thm-1:iii-3", "Theorem 1 (iii-3); explicit bound: Proposition 3 (iii-2) lower",
    f"{_THM1_III}: R_f^lo = O((||grad f(x*)||/alpha)((eta mu_f p Q^2/eps)^(2/p) + sqrt(pW/(mu_f^2 eps gamma_g^2)) + "
    "pY/(mu_f eps S))), rounds until -(2||grad f(x*)||/alpha) Err >= -eps",
    "thm1-iii:f-lower", _III, 1, pts(eta=[r_(1, 10), r_(1, 2), 1], p=[1, 2, 3]), F3, _THM1_III_GRID, "fails", _HYP_III,
)  # fmt: skip
rate_thm1_iii4 = _rate_claim(
    "thm-1:iii-4", "Theorem 1 (iii-4); explicit bound: Proposition 3 (iii-3)",
    f"{_THM1_III}: R^up_(||xbar^R - x*||^2) = O((pQ^2/eps)^(2/p) + sqrt(pW/(eta mu_f^3 eps gamma_g^2)) + "
    "pY/(eta mu_f^2 eps S))",
    "thm1-iii:dist2", _III, 1, pts(eta=[r_(1, 10), r_(1, 2), 1], p=[1, 2, 3]), F3, _THM1_III_GRID, "fails", _HYP_III,
)  # fmt: skip
_THM2_I = "Theorem 2 Case i (gamma~ = R^(-a), eta = R^(-b), 'for some 0 < b < a <= 1'; Q~^2 a positive constant)"
_THM2_I_GRID = (
    "(a, b) in {(1/2, 1/4), (1/2, 1/3), (3/4, 1/8), (3/4, 1/2), (9/10, 1/5)} (a + b = 1 is left out: the printed root "
    "index 1 - (a + b) is 0 there)"
)
rate_thm2_i1 = _rate_claim(
    "thm-2:i-1", "Theorem 2 (i-1); explicit bound: Proposition 6 (i-2) upper",
    f"{_THM2_I}: R_f^up = O((Q~^2/eps)^(1/(1-(a+b))) + (W/(eps gamma_g^2))^(1/(2a-b)) + (Y/(eps S))^(1/(a-b)))",
    "thm2-i:f", [1 / (1 - a_ - b_), 1 / (a_ - b_), 1 / (2 * a_ - b_)], 1, _ab_points(AB_THM2), F3, _THM2_I_GRID,
    "fails", _HYP_2I,
    {"Q~ term": "3 Q~^2 R^(a+b-1)/... does not decay for a + b >= 1 (the printed root index 1 - (a+b) is <= 0)"},
)  # fmt: skip
rate_thm2_i2 = _rate_claim(
    "thm-2:i-2", "Theorem 2 (i-2); explicit bound: Proposition 6 (i-1)",
    f"{_THM2_I}: R_h^up = O((Q~^2/eps)^(1/(1-a)) + (W/(eps gamma_g^2))^(1/(2a)) + (Y/(eps S))^(1/a) + (M/eps)^(1/b))",
    "thm2-i:h", [1 / (1 - a_), 1 / a_, 1 / (2 * a_), 1 / b_], 1, _ab_points(AB_THM2), H4, _THM2_I_GRID, "holds",
    _HYP_2I,
)  # fmt: skip
rate_thm2_ii = _rate_claim(
    "thm-2:ii", "Theorem 2 (ii); explicit bound: Proposition 6 (ii-2) lower",
    "Theorem 2 Case ii (kappa > 1, gamma~ = R^(-a), eta = R^(-b), 'for some 0 <= a, b <= 1'): R_f^lo = "
    "O(||grad f(x*)||^kappa ((Q~^2/(alpha eps^kappa))^(1/(1-a)) + (W/(alpha eps^kappa gamma_g^2))^(1/(2a)) + "
    "(Y/(alpha eps^kappa S))^(1/a) + (M/(alpha eps^kappa))^(1/b))), rounds until -||grad f(x*)||((Err' + 2 eta M)/"
    "alpha)^(1/kappa) >= -eps",
    "thm2-i:h", [kap / (1 - a_), kap / a_, kap / (2 * a_), kap / b_], kap,
    _ab_points([(r_(1, 2), r_(1, 4)), (r_(3, 4), r_(1, 2)), (r_(1, 4), r_(1, 2)), (r_(1, 3), r_(2, 3))],
               kappa=KAPPA_GRID),
    H4, "(a, b) in {(1/2, 1/4), (3/4, 1/2), (1/4, 1/2), (1/3, 2/3)} (a or b in {0, 1} make a printed root index 0), "
    "kappa in {5/4, 3/2, 2, 3, 5}", "holds", _HYP_2II,
)  # fmt: skip
_THM2_III = "Theorem 2 Case iii (kappa = 1, gamma~ = R^(-a), constant eta <= alpha/(2||grad f(x*)||))"
_A_III = pts(a=[r_(1, 4), r_(1, 2), r_(3, 4)])
_P_III = [1 / (1 - a_), 1 / a_, 1 / (2 * a_)]
rate_thm2_iii1 = _rate_claim(
    "thm-2:iii-1", "Theorem 2 (iii-1); explicit bound: Proposition 6 (iii-2) upper",
    f"{_THM2_III}: R_f^up = O((Q~^2/(eta eps))^(1/(1-a)) + (W/(eta eps gamma_g^2))^(1/(2a)) + (Y/(eta eps S))^(1/a))",
    "thm2-iii:f", _P_III, 1, _A_III, F3, "a in {1/4, 1/2, 3/4}", "holds", _HYP_2III,
)  # fmt: skip
rate_thm2_iii2 = _rate_claim(
    "thm-2:iii-2", "Theorem 2 (iii-2); explicit bound: Proposition 6 (iii-1)",
    f"{_THM2_III}: R_h^up = O((Q~^2/eps)^(1/(1-a)) + (W/(eps gamma_g^2))^(1/(2a)) + (Y/(eps S))^(1/a))",
    "thm2-iii:h", _P_III, 1, _A_III, F3, "a in {1/4, 1/2, 3/4}", "holds", _HYP_2III,
)  # fmt: skip
rate_thm2_iii3 = _rate_claim(
    "thm-2:iii-3", "Theorem 2 (iii-3); explicit bound: Proposition 6 (iii-2) lower",
    f"{_THM2_III}: R_f^lo = O((||grad f(x*)||/alpha)((Q~^2/eps)^(1/(1-a)) + (W/(eps gamma_g^2))^(1/(2a)) + "
    "(Y/(eps S))^(1/a)))",
    "thm2-iii:f-lower", _P_III, 1, _A_III, F3, "a in {1/4, 1/2, 3/4}", "holds", _HYP_2III,
)  # fmt: skip
