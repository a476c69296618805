"""Shared pieces of the StR-FedAvg / IPIR-FedAvg schedule claims: the (a, b) pairs, the sympy symbols, the Theorem 1
Case i contraction 0.5 eta mu_f gamma~ and the Y- and W-brackets of Propositions 1/3. No claims.

Schedules (printed closed forms in log R, :mod:`.printed`): Algorithm 1 with gamma~ = gamma_l gamma_g K, strongly
convex gamma~ = 1/(mu_f R)^a, eta = p ln R/(mu_f^b R^b); convex gamma~ = R^-a, eta = R^-b; Theorem 1 Case iii
gamma~ = p ln R/(mu_f R) with a constant eta; Proposition 7 / Algorithm 2 with mu_f = L_f = 1: Case i gamma~_t =
R_t^-a, eta_t = p ln R_t/R_t^b (Theorem 3: p = 2, a = 7/12, b = 5/12, R_t = t), Case ii gamma~_t = p ln R_t/R_t with
a constant eta. theta := 1/(1 - 0.5 eta mu_f gamma~) (Proposition 1); B^2 := max{4 eta L_f, 4 L_h} (Lemma 2, with
B_f = B_h = 1 from Lemma 1) and B_ncvx^2 := max{4 eta, 4 L_h} (Lemma 3, B_g = B_h = 1).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

REGISTERS_CLAIMS = False  # shared schedule pieces; the claims are in the sibling modules

F = Fraction

#: (a, b) pairs inside "0 < b < a <= 1": Table 1's strongly convex and convex choices (Remark 2), Theorem 3's
#: (7/12, 5/12), and three more with a + b < 1, > 1, = 3/2.
AB = (
    (F(2, 3), F(1, 3)),
    (F(7, 12), F(5, 12)),
    (F(1, 2), F(1, 4)),
    (F(3, 4), F(1, 8)),
    (F(3, 4), F(1, 2)),
    (F(1), F(1, 2)),
)

# --- sympy symbols of the schedule identities ----------------------------------------------------------------------
eta_, gt_, mu_, c_, R_, p_, a_, b_ = sp.symbols("eta gamma mu c R p a b", positive=True)
theta_ = sp.Symbol("theta", positive=True)


def sym_residual(expr: sp.Expr, point: dict) -> Fraction | float:
    """0 (exactly) when ``expr`` simplifies to 0; otherwise its value at ``point`` (the witness)."""
    if sp.simplify(expr) == 0:
        return Fraction(0)
    return float(expr.subs(point))


def x_case_i(a, b, mu, p, R):
    """0.5 eta mu_f gamma~ under Theorem 1 Case i (gamma~ = 1/(mu_f R)^a, eta = p ln R/(mu_f^b R^b)), 30 digits."""
    with mpmath.workdps(30):
        mu, R, a, b = (mpmath.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else mpmath.mpf(v)
                       for v in (mu, R, a, b))  # fmt: skip
        return p * mpmath.log(R) / (mu**b * R**b) * mu / (mu * R) ** a / 2


def brackets(eta, c: dict):
    """The Y- and W-brackets of Propositions 1/3 at regularization ``eta``: V(eta) = (2 eta^2 sigma_f^2 +
    2 sigma_h^2)/(KS) + (1 - S/N)(4/S) G^2 and W(eta) = 9(L_h + eta L_f)(2 eta^2 sigma_f^2 + 2 sigma_h^2)/(K gamma_g^2)
    + 18 (L_h + eta L_f) G^2/gamma_g^2 (Propositions 1 and 3)."""
    v_sigma = 2 * eta**2 * c["sigma_f"] ** 2 + 2 * c["sigma_h"] ** 2
    big_v = v_sigma / (c["K"] * c["S"]) + (1 - c["S"] / c["N"]) * 4 / c["S"] * c["G"] ** 2
    lsum = c["L_h"] + eta * c["L_f"]
    big_w = 9 * lsum * v_sigma / (c["K"] * c["gamma_g"] ** 2) + 18 * lsum * c["G"] ** 2 / c["gamma_g"] ** 2
    return big_v, big_w


def random_constants(rng: np.random.Generator, n: int) -> dict:
    """Seeded constants for the bracket terms: sigma_f, sigma_h, G, L_h, L_f, M ~ 10^U[-2, 2], K in 1..20, N = 10,
    S in 1..N, gamma_g ~ 10^U[0, 1]."""
    out = {k: 10 ** rng.uniform(-2, 2, n) for k in ("sigma_f", "sigma_h", "G", "L_h", "L_f", "M")}
    out |= {"K": rng.integers(1, 21, n).astype(float), "N": np.full(n, 10.0), "gamma_g": 10 ** rng.uniform(0, 1, n)}
    out["S"] = rng.integers(1, 11, n).astype(float)
    return out
