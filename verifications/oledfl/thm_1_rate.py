"""The rates of Theorem 1 (main text) and Theorem 3 (its appendix restatement) at eta = c/sqrt(KT), and Remark 1.

Each bound term of Theorem 1 (printed.py: zeta, alpha, phi, the 1/(kappa eta K T) term) and of Theorem 3 is taken at
eta = c/sqrt(KT) in sympy and expanded into monomials K^a T^b (kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 tends to 1/2 along
every path the theorem allows, so it only changes constants). The O(.) of a printed rate with explicit K is read
uniformly over the pairs (K, T) the theorem allows: eta = c/sqrt(KT) <= 1/(K^{3/2} L B) iff T >= c^2 K^2 L^2 B^2, so K
grows at most like T^{1/2}. Along K = T^theta, a monomial ratio K^a T^b grows like T^{b + theta a}; a bound term is
O(its printed term) iff the largest exponent over theta in [0, 1/2] (attained at an end) is <= 0 for every monomial.
Exact exponents (sympy Rationals as fractions); 'fixed K' is theta = 0.

Printed objects: Theorem 1 and its rate, Theorem 3 and its rate, the last display of the proof of Theorem 1
(appendix), Remark 1.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain

from . import printed as pf

PAPER = "oledfl"
K, T, L, B, psi, c, D, G, sigma, lam, c_lam = sp.symbols("K T L B psi c D G sigma lambda c_lambda", positive=True)
ETA = c / sp.sqrt(K * T)  # the theorem's choice eta = O(1/sqrt(KT))
GAP2 = (1 - psi) ** 2

# The printed rates: main text (Theorem 1), appendix statement (Theorem 3); the proof's last line equals the main text.
RATE_MAIN = {
    "D": D / sp.sqrt(K * T),
    "G": K * L**2 * G**2 / (T * GAP2),
    "sigma": L * sigma**2 / (sp.sqrt(T) * K * GAP2),
    "lambda": L * lam**2 / (sp.sqrt(T) * K),
}
RATE_APPENDIX = {**RATE_MAIN, "lambda": L * lam**2 / (T * K)}


def bound_terms(theorem: str, eta: sp.Expr = ETA) -> dict[str, sp.Expr]:
    """The terms of Theorem 1's (``"thm-1"``) or Theorem 3's (``"thm-3"``) bound (printed.py), with kappa at its limit
    1/2, at step ``eta``; the -chi beta^2 term (<= 0 when gamma < 1) is left out of an upper bound's order."""
    kap = sp.Rational(1, 2)
    terms = {
        "D": D / (kap * eta * K * T),
        "G": pf.thm1_alpha(eta, K, L, psi, kap) * G**2,
        "sigma": pf.thm1_zeta(eta, L, psi, kap) * sigma**2,
        "lambda": pf.thm1_phi(K, eta, L, kap) * lam**2,
    }
    if theorem == "thm-3":  # Theorem 3 prints (1 + 9 K^2 eta L) L eta^2 lambda^2 without kappa; the rest as Theorem 1
        ref = pf.thm3_rhs(gap0=0, eta=eta, K=K, T=T, L=L, psi=psi, B=B, G=0, sigma=0, lam=lam, beta=0, Delta_T=0)
        terms["lambda"] = sp.expand(ref)
    return terms


def monomials(expr: sp.Expr) -> list[tuple[Fraction, Fraction]]:
    """The exponents (of K, of T) of each monomial of ``expr`` expanded (psi written 1 - gap, so that (1-psi)^2 stays
    one factor)."""
    out = []
    gap = sp.Symbol("gap", positive=True)
    for term in sp.Add.make_args(sp.expand(expr.subs(psi, 1 - gap))):
        powers = term.as_powers_dict()
        out.append(
            tuple(Fraction(int(sp.Rational(powers.get(s, 0)).p), int(sp.Rational(powers.get(s, 0)).q)) for s in (K, T))
        )
    return out


def growth(term: sp.Expr, reference: sp.Expr) -> dict[str, Fraction]:
    """Largest exponent of T in ``term/reference`` along K = T^theta: at theta = 0 (fixed K) and over theta in
    [0, 1/2] (every (K, T) the theorem allows)."""
    (ref,) = monomials(reference)
    ratios = [(a - ref[0], b - ref[1]) for a, b in monomials(term)]
    return {
        "fixed K": max(b for _, b in ratios),
        "uniform": max(max(b, b + a / 2) for a, b in ratios),
    }


@family(f"{PAPER}/rate-exponents")
def _exponents(fam: Family) -> dict:
    """Growth exponents of every bound term against every printed rate term (module docstring)."""
    summed_28 = {**bound_terms("thm-1"), "lambda": bound_terms("thm-1")["lambda"] / K}  # (28) summed exactly
    pairs = {
        "thm-1": (bound_terms("thm-1"), RATE_MAIN),
        "thm-3": (bound_terms("thm-3"), RATE_APPENDIX),
        "thm-3 vs main text": (bound_terms("thm-3"), RATE_MAIN),
        "thm-1 vs appendix": (bound_terms("thm-1"), RATE_APPENDIX),
        "(28) summed vs main text": (summed_28, RATE_MAIN),
    }
    return {name: {t: growth(bt[t], rt[t]) for t in rt} for name, (bt, rt) in pairs.items()}


def _rate_evidence(ctx: Context, pair: str, also: tuple[str, ...]) -> Evidence:
    """Per term the uniform growth exponent of bound term / printed term, against 0."""
    table = _exponents(ctx)
    points = Points()
    for term, g in table[pair].items():
        points.add(g["uniform"], Fraction(0), term=term)
    feasible = sp.solve(sp.Eq(ETA, pf.thm1_eta_cap(K, L, B)), T)
    kappa_zero = sp.solve(sp.Eq(pf.kappa(ETA, K, L, B), 0), T)
    witness = {
        "fixed-K exponents": {t: str(g["fixed K"]) for t, g in table[pair].items()},
        "monomials of the bound terms": {t: sp.sstr(sp.expand(e)) for t, e in bound_terms(pair[:5]).items()},
        "feasibility (sympy)": f"eta = c/sqrt(KT) <= 1/(K^(3/2) L B) iff T >= {sp.sstr(feasible[0])}; kappa > 0 iff "
        f"T > {sp.sstr(kappa_zero[0])}",
        **{f"uniform exponents, {name}": {t: str(g["uniform"]) for t, g in table[name].items()} for name in also},
        "hypotheses": "K >= 2, T >= c^2 K^2 L^2 B^2 (eta = c/sqrt(KT) within Theorem 1's cap), psi in [0, 1), "
        "beta within the cap (its term is <= 0 where gamma < 1 and is left out of the order)",
    }
    return points.evidence("<=", witness=witness)


@claim(
    f"{PAPER}/thm-1:rate",
    source="Theorem 1 (rate, main text)",
    statement="With eta = O(1/sqrt(KT)), Theorem 1's bound is O(D/sqrt(KT) + K L^2 G^2/(T(1-psi)^2) + L sigma^2/"
    "(sqrt(T) K (1-psi)^2) + L lambda^2/(sqrt(T) K)) term by term, uniformly over the (K, T) the theorem allows; "
    "measured: per term the largest growth exponent in T of bound term/printed term along K = T^theta, theta in "
    "[0, 1/2] (exact).",
    scope="printed",
    expect="fails",
)
def thm1_rate(ctx: Context) -> Evidence:
    """Instance: eta = c/sqrt(KT), symbolic c, L, B, psi, D, G, sigma, lambda. Reading: O(.) uniform in K where
    eta is admissible (K <= sqrt(T)/(cLB)). Reference: sympy; the sigma term is L sigma^2/sqrt(KT), a factor
    sqrt(K) above the printed one; phi lambda^2 gives L lambda^2/sqrt(KT) + 9 c^2 K L^2 lambda^2/T. At fixed K every
    term matches (witness)."""
    return _rate_evidence(ctx, "thm-1", ("thm-1 vs appendix", "(28) summed vs main text"))


@claim(
    f"{PAPER}/thm-3:rate",
    source="Theorem 3 (appendix restatement of Theorem 1, rate)",
    statement="With eta = O(1/sqrt(KT)), Theorem 3's bound is O(D/sqrt(KT) + K L^2 G^2/(T(1-psi)^2) + L sigma^2/"
    "(sqrt(T) K (1-psi)^2) + L lambda^2/(T K)) term by term, uniformly over the (K, T) the theorem allows; measured: "
    "per term the largest growth exponent of bound term/printed term along K = T^theta, theta in [0, 1/2] (exact).",
    scope="printed",
    expect="fails",
)
def thm3_rate(ctx: Context) -> Evidence:
    """Instance: as :func:`thm1_rate` with Theorem 3's lambda term (1 + 9 K^2 eta L) L eta^2 lambda^2. Reference:
    sympy; its lambda term is L c^2 lambda^2/(KT) + 9 c^3 L^2 lambda^2 K^(1/2)/T^(3/2): the printed L lambda^2/(TK)
    holds at fixed K, not uniformly; the sigma term fails as in Theorem 1."""
    return _rate_evidence(ctx, "thm-3", ("thm-3 vs main text",))


# --- Remark 1 ---------------------------------------------------------------------------------------------------------
def _dominant_growth(terms: dict[str, sp.Expr]) -> Points:
    """Per term, the uniform growth exponent of term/(1/sqrt(KT)) at eta = c/sqrt(KT), lambda = c_lambda/sqrt(T)."""
    points = Points()
    for name, term in terms.items():
        points.add(growth(term.subs(lam, c_lam / sp.sqrt(T)), 1 / sp.sqrt(K * T))["uniform"], Fraction(0), term=name)
    return points


@claim(
    f"{PAPER}/remark-1:sam-negligible",
    source="Remark 1",
    statement="With lambda = O(1/sqrt(T)), the SAM term L lambda^2/(sqrt(T) K) = O(1/(K T^(3/2))) 'can be neglected in "
    "comparison to the dominant term O(1/sqrt(KT))'; judged on the term as printed and on Theorem 1's phi lambda^2 at "
    "eta = c/sqrt(KT); measured: the largest growth exponent of term/(1/sqrt(KT)) along K = T^theta, theta in "
    "[0, 1/2], against < 0 (exact).",
    scope="printed",
    expect="holds",
)
def remark1_sam(ctx: Context) -> Evidence:
    """Instance: symbolic constants. Reading: negligible = a strictly smaller order uniformly in the allowed (K, T).
    Reference: sympy; the printed term is c_lambda^2 L/(K T^(3/2)) (exponent -1 at fixed K), phi lambda^2 gives
    1/(sqrt(K) T^(3/2)) + K/T^2 (exponents -1 and -3/4)."""
    terms = {"printed L lambda^2/(sqrt(T) K)": RATE_MAIN["lambda"], "phi lambda^2": bound_terms("thm-1")["lambda"]}
    points = _dominant_growth(terms)
    evidence = points.evidence("<")
    lam_0 = sp.Symbol("lambda_0", positive=True)
    control = _dominant_growth({"phi lambda^2, lambda fixed": bound_terms("thm-1")["lambda"].subs(lam, lam_0)})
    at_printed = sp.powsimp(RATE_MAIN["lambda"].subs(lam, c_lam / sp.sqrt(T)), force=True)
    evidence.witness = {
        "printed term at lambda = c_lambda/sqrt(T)": sp.sstr(at_printed),
        "negative control": negative_control(
            control.evidence("<"),
            "lambda not shrinking with T (lambda = c_lambda, the term is then of the dominant order)",
        ),
        "hypotheses": "K >= 2, T >= c^2 K^2 L^2 B^2 (eta = c/sqrt(KT) admissible), lambda = c_lambda/sqrt(T)",
    }
    return evidence


@claim(
    f"{PAPER}/remark-1:rate-optimal:order",
    source="Remark 1; Theorem 1 (rate)",
    statement="'OledFL achieves a convergence rate of O(1/sqrt(KT))' (with lambda = O(1/sqrt(T))): every term of "
    "Theorem 1's bound at eta = c/sqrt(KT) is O(1/sqrt(KT)) uniformly over the (K, T) the theorem allows; measured: "
    "per term the largest growth exponent of term/(1/sqrt(KT)) along K = T^theta, theta in [0, 1/2] (exact). The "
    "optimality cited from the literature is not checked.",
    scope="printed",
    expect="fails",
)
def remark1_order(ctx: Context) -> Evidence:
    """Instance: symbolic constants. Reading: uniform in the admissible K. Reference: sympy; the G^2 term
    9 c^2 K L^2 G^2/(kappa T) is O(1/sqrt(KT)) iff K = O(T^(1/3)) (exponent 3 theta/2 - 1/2); at fixed K every
    term is O(1/sqrt(KT))."""
    points = _dominant_growth(bound_terms("thm-1"))
    fixed = {
        n: str(growth(t.subs(lam, c_lam / sp.sqrt(T)), 1 / sp.sqrt(K * T))["fixed K"])
        for n, t in bound_terms("thm-1").items()
    }
    return points.evidence(
        "<=",
        witness={
            "fixed-K exponents": fixed,
            "holds iff": "K = O(T^(1/3)) (the G^2 term); at K = T^(1/2): exponent 1/4",
            "hypotheses": "K >= 2, T >= c^2 K^2 L^2 B^2, lambda = c_lambda/sqrt(T), psi in [0, 1)",
        },
    )


@claim(
    f"{PAPER}/remark-1:connectivity",
    source="Remark 1",
    statement="In the dominant term O(D/sqrt(KT) + L sigma^2/(sqrt(T) K (1-psi)^2)), and in Theorem 1's zeta sigma^2 "
    "that it comes from, a smaller psi (better connectivity) gives a smaller value: both increase in psi on [0, 1); "
    "measured: d/dpsi at K in {2, 5, 50}, T = 10^4, psi in {0, 0.1, ..., 0.9, 0.99} (D = L = sigma = c = 1), > 0; "
    "sympy proves the sign for all constants.",
    scope="printed",
    expect="holds",
)
def remark1_connectivity(ctx: Context) -> Evidence:
    """Instance: the grid in the statement. Reading: the dominant term as Remark 1 prints it, and zeta sigma^2 at
    eta = c/sqrt(KT), kappa = 1/2. Reference: sympy derivative (its sign proved with psi = 1 - gap, gap > 0)."""
    gap = sp.Symbol("gap", positive=True)
    dominant = RATE_MAIN["D"] + RATE_MAIN["sigma"]
    cases = {"printed dominant term": dominant, "zeta sigma^2": bound_terms("thm-1")["sigma"]}

    def slopes(exprs: dict) -> Points:
        points = Points()
        for name, expr in exprs.items():
            f = sp.lambdify((K, psi), sp.diff(expr, psi).subs({T: 10**4, D: 1, L: 1, sigma: 1, c: 1}))
            for k in (2, 5, 50):
                for p in (*np.arange(10) / 10, 0.99):
                    points.add(float(f(k, p)), 0.0, term=name, K=k, psi=float(p))
        return points

    proved = {name: bool(sp.factor(sp.diff(e, psi).subs(psi, 1 - gap)).is_positive) for name, e in cases.items()}
    if not all(proved.values()):
        raise RuntimeError(f"sympy does not prove the sign: {proved}")
    reversed_ = {"(1-psi)^2 in the numerator": RATE_MAIN["D"] + RATE_MAIN["sigma"] * GAP2**2}
    return slopes(cases).evidence(
        ">",
        witness={
            "sign proved by sympy": proved,
            "negative control": negative_control(slopes(reversed_).evidence(">"), "a term falling as psi grows"),
            "hypotheses": "psi in [0, 1), K >= 2, T >= K^2 (eta = c/sqrt(KT) admissible with c = L = B = 1)",
        },
    )


def _printed_rate(K_, T_, G_, sigma_, lam_, psi_) -> float:
    """The main-text rate with unit constants (D = L = 1)."""
    g2 = (1 - psi_) ** 2
    return (
        1 / np.sqrt(K_ * T_)
        + K_ * G_**2 / (T_ * g2)
        + sigma_**2 / (np.sqrt(T_) * K_ * g2)
        + lam_**2 / (np.sqrt(T_) * K_)
    )


@claim(
    f"{PAPER}/remark-1:larger-K",
    source="Remark 1; Theorem 1 (rate)",
    statement="'A larger number of local epochs K also leads to a faster convergence rate': the printed rate "
    "D/sqrt(KT) + K L^2 G^2/(T(1-psi)^2) + L sigma^2/(sqrt(T) K (1-psi)^2) + L lambda^2/(sqrt(T) K) (unit constants) "
    "decreases from K to K + 1, for every K >= 2 and T >= K^2 (eta admissible with c = L = B = 1); measured: "
    "rate(K + 1)/rate(K) < 1 (float64).",
    scope="printed",
    expect="fails",
)
def remark1_larger_k(ctx: Context) -> Evidence:
    """Instance: K = 2..50 at T = 10^6 with G in {0, 1}, sigma = 1, lambda = 0, psi in {0, 0.5, 0.9}; then the search
    over K, T = K^2 10^u, G, sigma, lambda, psi. Reading: the printed rate with its constants set to 1 (D = L = 1 by
    scaling). Reference: closed form; the G^2 term grows like K, so with G > 0 the rate increases once K passes
    K* ~ (D^2 T (1-psi)^4/(4 L^4 G^4))^(1/3) (from the D term alone); with G = 0 every term decreases in K."""
    points, first = Points(), {}
    for g in (0.0, 1.0):
        for p in (0.0, 0.5, 0.9):
            for k in range(2, 51):
                ratio = _printed_rate(k + 1, 1e6, g, 1.0, 0.0, p) / _printed_rate(k, 1e6, g, 1.0, 0.0, p)
                points.add(ratio, 1.0, K=k, T=1e6, G=g, sigma=1.0, lam=0.0, psi=p)
                if ratio >= 1:
                    first.setdefault(f"G = {g}, psi = {p}", f"rate(K + 1) >= rate(K) from K = {k}")

    def at(K, u, G, sigma, lam, psi):
        T_ = K**2 * 10**u
        r = _printed_rate(K + 1, T_, G, sigma, lam, psi) / _printed_rate(K, T_, G, sigma, lam, psi)
        return r, 1.0, {"T": T_}

    domain = Domain(
        {
            "K": Axis(2, 1000, integer=True),
            "u": Axis(0.0, 6.0, log=False),
            "G": Axis(1e-3, 1e2),
            "sigma": Axis(1e-3, 1e2),
            "lam": Axis(1e-3, 1e1),
            "psi": Axis(0.0, 0.999, log=False),
        },
        note="Theorem 1 with eta = c/sqrt(KT) allows every K >= 2 with T >= c^2 K^2 L^2 B^2 (T = K^2 10^u, u in "
        "[0, 6]; c = L = B = D = 1 by scaling), any G, sigma, lambda >= 0 (searched from 1e-3) and psi in [0, 1).",
    )
    points.search(at, domain, "<", ctx, scale=4)
    return points.evidence(
        "<",
        witness={
            "grid, T = 10^6, sigma = 1, lambda = 0": first or "decreasing everywhere",
            "where it holds": "G = 0 (homogeneous clients): every term decreases in K; G > 0: only while K stays "
            "below the point where K L^2 G^2/(T(1-psi)^2) outgrows the decrease of the other terms",
            "Theorem 1's own terms": "alpha G^2 = 9 c^2 K L^2 (1 + 24/(1-psi)^2) G^2/(kappa T) grows with K too",
            "hypotheses": "K >= 2 integer, T >= K^2 (eta = c/sqrt(KT) <= 1/(K^(3/2) L B) with c = L = B = 1), "
            "psi in [0, 1), G, sigma, lambda >= 0",
        },
    )
