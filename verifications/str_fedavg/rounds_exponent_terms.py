"""Rounds exponents of the explicit bounds of StR-FedAvg / IPIR-FedAvg, shared by the complexity claims
(:mod:`.thm_1_2_rounds_exponents`, :mod:`.tab_1_remark_4_communication`; :mod:`.thm_3_proof_subst_descent` uses the
sympy symbols). No claims.

Each explicit bound is a sum of terms ``C R^(-e) (ln R)^l``; a term <= eps needs R ~ eps^(-1/e) (ln 1/eps)^(l/e)
rounds, and a lower bound ``-||grad f(x*)|| (bound/alpha)^(1/kappa) >= -eps`` needs eps^(-kappa/e). Terms are
transcribed from Propositions 3 and 6 with the theorem's schedule substituted (the proof of Theorem 1 starts there;
Theorem 2's proof "is similar"); (e, l) are read off with sympy (``expand_log``). theta^R - 1 = (1 - u/R)^(-R) - 1,
u = R eta mu_f gamma~/2, is replaced by its asymptotic form found with sympy limits: R^c when u ~ c ln R, u when
u -> 0, faster than any power when u/ln R -> oo. Q, Q~, W, Y, M, ||grad f(x*)||, alpha are positive constants
(Q~^2 <= E||xbar^0 - x_eta^*||^2 is read as a constant), and R^(p/2) - 1 ~ R^(p/2), 1 + ln T ~ ln T, t - 1 ~ t.

Printed objects: Theorems 1 and 2, Propositions 3 and 6, the proof of Theorem 1.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

REGISTERS_CLAIMS = False  # rounds-exponent helpers; the claims are in the sibling modules

# --- sympy symbols: outer iteration, kappa and the constants of Proposition 7 / Theorem 3 -------------------------
t_, T_ = sp.symbols("t T", positive=True)
kap = sp.Symbol("kappa", positive=True)
C_lam, G_t, alpha, D0, Yn, Wn, M = sp.symbols("C_lambda gradf_xt alpha D_0 Y_n W_n M", positive=True)

# --- rounds exponents ----------------------------------------------------------------------------------------
R_ = sp.Symbol("R", positive=True)
a_, b_, p_, eta_ = sp.symbols("a b p eta", positive=True)
mu, Q, Qt, W, Y, S, gg, Gx = sp.symbols("mu_f Q Qtilde W Y S gamma_g gradf_xstar", positive=True)
r_ = sp.Rational


@cache
def _decay(expr: sp.Expr | None, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """``(e, l)`` with ``expr ~ C x^(-e) (ln x)^l`` (``expand_log``); ``None`` decays faster than any power."""
    if expr is None:
        return sp.oo, sp.Integer(0)
    L = sp.expand_log(sp.log(expr), force=True)
    return sp.simplify(-L.coeff(sp.log(x))), sp.simplify(L.coeff(sp.log(sp.log(x))))


def _rounds(e: sp.Expr, l: sp.Expr, power: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Exponents (of 1/eps, of ln(1/eps)) of the rounds after which ``(C R^(-e) (ln R)^l)^(1/power) <= eps``."""
    if e == sp.oo:
        return sp.Integer(0), sp.Integer(0)
    if e <= 0:
        return sp.oo, sp.Integer(0)
    return power / e, l / e


@cache
def _theta_minus_one(u: sp.Expr) -> sp.Expr | None:
    """Asymptotic form of ``theta^R - 1 = (1 - u/R)^(-R) - 1`` (u = R eta mu_f gamma~/2) from sympy limits: ``R^c``
    if ``u ~ c ln R``; ``u`` if ``u -> 0``; ``None`` (faster than any power) if ``u/ln R -> oo``."""
    c = sp.limit(u / sp.log(R_), R_, sp.oo)
    if c == sp.oo:
        return None
    if c == 0:
        if sp.limit(-R_ * sp.log(1 - u / R_) / u, R_, sp.oo) != 1:
            raise RuntimeError("theta^R - 1 is not asymptotic to u")
        return u
    return R_ ** sp.limit(-R_ * sp.log(1 - u / R_) / sp.log(R_), R_, sp.oo)


def _prop3_err(gt: sp.Expr, et: sp.Expr) -> list[sp.Expr | None]:
    """The three terms of Err_eta of Propositions 1/3 with Y/S and W/gamma_g^2 for the brackets:
    Q^2/(gamma~ sum theta^r) = eta mu_f Q^2/(2(theta^R - 1)) (proof of Theorem 1 (i-1)), gamma~ Y/S,
    gamma~^2 W/gamma_g^2."""
    th = _theta_minus_one(sp.simplify(R_ * et * mu * gt / 2))
    return [None if th is None else et * mu * Q**2 / (2 * th), gt * Y / S, gt**2 * W / gg**2]


@cache
def _thm1_case_i(av: sp.Rational, bv: sp.Rational) -> dict[str, list]:
    """Theorem 1 Case i schedule gamma~ = 1/(mu_f^a R^a), eta = p ln R/(mu_f^b R^b) in Proposition 3 Case i: f-gap
    Err/eta ((i-2) upper), h-gap Err + 2 eta M ((i-1))."""
    gt, et = 1 / (mu**av * R_**av), p_ * sp.log(R_) / (mu**bv * R_**bv)
    err = _prop3_err(gt, et)
    return {"f": [None if e is None else sp.simplify(e / et) for e in err], "h": [*err, 2 * et * M]}


@cache
def _thm1_case_iii() -> dict[str, list]:
    """Theorem 1 Case iii schedule gamma~ = p ln R/(mu_f R), constant eta, in Proposition 3 Case iii:
    f upper Err/eta, h 2 Err, f lower (2||grad f(x*)||/alpha) Err, ||xbar - x*||^2 <= 2 Err/(eta mu_f)."""
    err = _prop3_err(p_ * sp.log(R_) / (mu * R_), eta_)
    return {
        "f": [e / eta_ for e in err],
        "h": [2 * e for e in err],
        "f-lower": [2 * Gx / alpha * e for e in err],
        "dist2": [2 * e / (eta_ * mu) for e in err],
    }


def _thm2_err() -> list[sp.Expr]:
    """Err' of Proposition 6 with gamma~ = R^(-a): 3 Q~^2/(gamma~ R), 3 gamma~ Y/S,
    3 gamma~^2 W/gamma_g^2."""
    return [3 * Qt**2 * R_**a_ / R_, 3 * Y / (S * R_**a_), 3 * W / (gg**2 * R_ ** (2 * a_))]


def _thm2_case_i() -> dict[str, list]:
    """Theorem 2 Case i (eta = R^(-b)): f upper Err'/eta, h Err' + 2 eta M (Proposition 6 (i-1), (i-2))."""
    err = _thm2_err()
    return {"f": [e * R_**b_ for e in err], "h": [*err, 2 * M / R_**b_]}


def _thm2_case_iii() -> dict[str, list]:
    """Theorem 2 Case iii (constant eta): f upper Err'/eta, h 2 Err', f lower (2||grad f||/alpha) Err' (Proposition 6
    (iii-1), (iii-2))."""
    err = _thm2_err()
    return {"f": [e / eta_ for e in err], "h": [2 * e for e in err], "f-lower": [2 * Gx / alpha * e for e in err]}


def terms_at(kind: str, point: dict) -> list:
    """The explicit-bound terms of ``kind`` (``"thm1-i:f"``, ...) at a grid point."""
    family, metric = kind.split(":")
    if family == "thm1-i":
        return _thm1_case_i(point[a_], point[b_])[metric]
    if family == "thm1-iii":
        return _thm1_case_iii()[metric]
    if family == "thm2-i":
        return _thm2_case_i()[metric]
    return _thm2_case_iii()[metric]


def exponents(terms: list, point: dict, power: sp.Expr, x: sp.Symbol = R_) -> list[tuple[sp.Expr, sp.Expr]]:
    """(rounds exponent, log exponent) per term at ``point``."""
    out = []
    for expr in terms:
        e, l = _decay(expr, x)
        out.append(_rounds(sp.sympify(e).subs(point), sp.sympify(l).subs(point), sp.sympify(power).subs(point)))
    return out


def point_label(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


def fmt(xs) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


def pts(**axes) -> list[dict]:
    """Cartesian grid of sympy rationals; keys are the symbols' names."""
    symbols = {"a": a_, "b": b_, "p": p_, "kappa": kap, "eta": eta_}
    out = [{}]
    for name, values in axes.items():
        out = [o | {symbols[name]: sp.nsimplify(v)} for o in out for v in values]
    return out


KAPPA_GRID = [r_(5, 4), r_(3, 2), 2, 3, 5]
