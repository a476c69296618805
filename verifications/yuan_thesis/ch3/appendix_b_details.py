"""Appendix B's helper lemmas (B.32-B.34), the numeric estimates its proofs print, and the printed steps of the
proofs of Theorem B.23 and Lemmas 3.24 and B.14.

Printed objects: Lemmas B.32-B.34 (appendix B.4), the statement of Theorem B.23 (appendix B.3.1) and its proof
(appendix B.3.4), the proofs of Lemma 3.24 (appendix B.1.3) and Lemma B.14 (appendix B.1.4).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.dimensions import check
from fedtheory.harness.claims import Context, Evidence, claim, negative_control, seed_for
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import SCALED_ROUNDING, SHORT_ROUNDING
from fedtheory.symbols import GRAD2, STEP, UNITS, K, L, sigma

from .stability import eta, gamma, mu

PAPER = "yuan-thesis"
E = np.e


@claim(
    f"{PAPER}/app-b:proof-constants",
    source="numeric estimates printed in the proofs of Lemmas 3.10, 3.11, 3.24, B.3, B.14 and Theorems B.1, B.21-B.23",
    statement="(1 + 1/K)^(4K) <= e^4 (K >= 1); 132 e^4 < e^9; 9^4 e^9 + 1 < e^18; 34/9 <= 4; (1/12) log^2(e^2 + 24) "
    "< 1; (18/1000) log^2(e^2 + 1000) < 1 (each as measured / bound).",
    scope="printed",
    expect="holds",
)
def proof_constants(ctx: Context) -> Evidence:
    """Each printed estimate as measured / bound in float64; (1 + 1/K)^(4K) maximised over log-spaced integers K in
    [1, 1e9]."""
    Ks = np.unique(np.geomspace(1, 1e9, 100).astype(np.int64))
    items = {
        "max_K (1 + 1/K)^(4K) / e^4": float(np.max(np.exp(4 * Ks * np.log1p(1 / Ks)))) / E**4,
        "132 e^4 / e^9": 132 * E**4 / E**9,
        "(9^4 e^9 + 1) / e^18": (9**4 * E**9 + 1) / E**18,
        "(34/9) / 4": 34 / 9 / 4,
        "(1/12) log^2(e^2 + 24)": np.log(E**2 + 24) ** 2 / 12,
        "(18/1000) log^2(e^2 + 1000)": 18 / 1000 * np.log(E**2 + 1000) ** 2,
    }
    control = negative_control(
        Evidence(measured=[*items.values(), 165 * E**4 / E**9], bound=1.0, relation="<=", rtol=SHORT_ROUNDING),
        "the list with 132 e^4 < e^9 replaced by 165 e^4 < e^9",
    )
    return Evidence(
        measured=list(items.values()),
        bound=1.0,
        relation="<=",
        rtol=SHORT_ROUNDING,
        grid={"estimate": list(items)},
        witness={"negative control": control},
    )


@claim(
    f"{PAPER}/lem-b.32",
    source="Lemma B.32 (the second brace is printed without 'max'; read with max, as its proof and every use, in the "
    "proofs of Propositions 3.16 and B.7, do)",
    statement="||[[A11, A12], [A21, A22]]||_2 <= max{||A11||, ||A22||} + max{||A12||, ||A21||} for any 2d x 2d block "
    "matrix (random matrices of several sizes and scales)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def lem_b32(ctx: Context) -> Evidence:
    """Random 2d x 2d block matrices, d <= 5, each block scaled by 10^U(-2, 2); 300 draws (full profile: 3000).
    Reference: spectral norms by numpy in float64."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-b.32"))
    points = Points()
    for _ in range(300 if ctx.quick else 3000):
        d = int(rng.integers(1, 6))
        blocks = rng.normal(size=(4, d, d)) * 10 ** rng.uniform(-2, 2, size=(4, 1, 1))
        A = np.block([[blocks[0], blocks[1]], [blocks[2], blocks[3]]])
        n = [np.linalg.norm(b, 2) for b in blocks]
        points.add(np.linalg.norm(A, 2), max(n[0], n[3]) + max(n[1], n[2]))

    def at(a11, a12, a21, a22, b11, b12, b21, b22):
        blocks = [np.diag([a, b]) for a, b in ((a11, b11), (a12, b12), (a21, b21), (a22, b22))]
        n = [np.linalg.norm(b, 2) for b in blocks]
        return np.linalg.norm(np.block([[blocks[0], blocks[1]], [blocks[2], blocks[3]]]), 2), max(n[0], n[3]) + max(
            n[1], n[2]
        )

    domain = Domain(
        {name: Axis(-1.0, 1.0, log=False) for name in ("a11", "a12", "a21", "a22", "b11", "b12", "b21", "b22")},
        note="Any block matrix: the search runs diagonal 2x2 blocks (entries a.. and b.. in [-1, 1], the bound being "
        "homogeneous), where the block norms are the largest moduli and the whole matrix splits into two 2x2 ones; "
        "full blocks up to 5x5 are left to the random draws.",
    )
    points.search(at, domain, "<=", ctx, scale=4)
    return points.evidence("<=", rtol=1e-12)  # rounding of the float64 spectral norms (SVD of at most 10 x 10)


@claim(
    f"{PAPER}/lem-b.33",
    source="Lemma B.33",
    statement="||x + y||^2 <= (1 + a)||x||^2 + (1 + 1/a)||y||^2 for every a > 0 (random x, y, a)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def lem_b33(ctx: Context) -> Evidence:
    """Random x, y in R^5 scaled by 10^U(-3, 3) and a = 10^U(-4, 4); 2000 draws (full profile: 20,000). Both sides in
    float64."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-b.33"))
    n = 2000 if ctx.quick else 20000
    x, y = rng.normal(size=(2, n, 5)) * 10 ** rng.uniform(-3, 3, size=(2, n, 1))
    a = 10 ** rng.uniform(-4, 4, n)
    lhs = np.sum((x + y) ** 2, axis=1)
    rhs = (1 + a) * np.sum(x**2, axis=1) + (1 + 1 / a) * np.sum(y**2, axis=1)
    points = Points()
    for left, right in zip(lhs, rhs):
        points.add(left, right)

    def at(angle, ratio, a):  # ||x|| = 1, ||y|| = ratio, angle between them
        return 1 + ratio**2 + 2 * ratio * np.cos(angle), (1 + a) + (1 + 1 / a) * ratio**2

    domain = Domain(
        {"angle": Axis(0.0, np.pi, log=False), "ratio": Axis(1e-4, 1e4), "a": Axis(1e-4, 1e4)},
        note="Any x, y and a > 0: both sides depend on ||y||/||x||, the angle between x and y and a only (||x|| = "
        "1 by homogeneity); equality at angle 0 and a = ||y||/||x||.",
    )
    points.search(at, domain, "<=", ctx, scale=2)
    return points.evidence("<=", rtol=SHORT_ROUNDING)


def _phi(x, a, b, p, q):
    return x ** (-q) * np.log(a + b * x) ** p


@claim(
    f"{PAPER}/lem-b.34",
    source="Lemma B.34",
    statement="phi(x) = x^(-q) log^p(a + b x), a, p, q >= 1, b > 0, a >= exp(p/q), is decreasing on (0, inf): "
    "measured, the largest relative increase phi(x_(i+1))/phi(x_i) - 1 on log-spaced grids (<= 0 claimed)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def lem_b34(ctx: Context) -> Evidence:
    """Random p, q in [1, 10], a = e^(p/q) U(1, 3), b = 10^U(-6, 6); 50 draws (full profile: 500), each on 4000
    log-spaced x in [1e-8, 1e12]. Measured in logs (float64), the largest relative increase between grid points."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-b.34"))
    x = np.geomspace(1e-8, 1e12, 4000)
    measured = []
    for _ in range(50 if ctx.quick else 500):
        p, q = rng.uniform(1, 10, 2)
        a = np.exp(p / q) * rng.uniform(1, 3)
        b = 10 ** rng.uniform(-6, 6)
        values = np.log(_phi(x, a, b, p, q))
        measured.append(float(np.max(np.expm1(np.diff(values)))))
    points = Points()
    for value in measured:
        points.add(value, 0.0)

    def at(p, q, a_over_min, b):
        return float(np.max(np.expm1(np.diff(np.log(_phi(x, np.exp(p / q) * a_over_min, b, p, q)))))), 0.0

    domain = Domain(
        {"p": Axis(1.0, 10.0), "q": Axis(1.0, 10.0), "a_over_min": Axis(1.0, 3.0), "b": Axis(1e-6, 1e6)},
        note="Lemma B.34's hypotheses p, q >= 1 (searched to 10), b > 0 (1e-6 to 1e6) and a >= exp(p/q) (a = exp(p/q) "
        "a_over_min, the boundary a = exp(p/q) included), each function on the same log-spaced x grid.",
    )
    points.search(at, domain, "<=", ctx, scale=2)
    return points.evidence("<=", atol=SCALED_ROUNDING)


def _thm_b23_terms(rng, n: int) -> dict:
    """Random positive (L, sigma, Q, B, M, K, R) with T = KR >= 1000, and the printed lambda_1..lambda_4."""
    L, s, Q, B = (10 ** rng.uniform(-3, 3, n) for _ in range(4))
    M, K = (np.floor(10 ** rng.uniform(0, 4, n)) for _ in range(2))
    R = np.ceil(np.maximum(10 ** rng.uniform(0, 4, n), 1000 / K))
    lam = {
        "1": s / np.sqrt(M * K * R) / B,
        "2": L ** (1 / 3) * s ** (2 / 3) / (M ** (1 / 3) * K ** (1 / 3) * R * B ** (2 / 3)),
        "3": Q ** (1 / 3) * s ** (2 / 3) / (B ** (1 / 3) * K ** (1 / 3) * R ** (4 / 3)),
        "4": 18 * L / (K * R**2) * np.log(E**2 + K * R**2) ** 2,
    }
    return {"L": L, "sigma": s, "Q": Q, "B": B, "M": M, "K": K, "R": R, "lambda": lam}


@claim(
    f"{PAPER}/thm-b.23:proof-lambda",
    source="proof of Theorem B.23 ('Then lambda = max{lambda_1, lambda_2, lambda_3}'), against the statement of "
    "Theorem B.23",
    statement="The proof's 'lambda = max{lambda_1, lambda_2, lambda_3}' is the statement's lambda = max{lambda_1, "
    "lambda_2, lambda_3, lambda_4} (lambda_4 = (18L/(KR^2)) log^2(e^2 + KR^2)), on random parameters with T >= 1000.",
    scope="printed",
    expect="fails",
)
def thm_b23_lambda(ctx: Context) -> Evidence:
    """Random positive (L, sigma, Q, B, M, K, R) with KR >= 1000; 2000 draws (full profile: 20,000). Measured, the
    statement's lambda over the proof's, in float64 (1 claimed)."""
    t = _thm_b23_terms(np.random.default_rng(seed_for(f"{PAPER}/thm-b.23")), 2000 if ctx.quick else 20000)
    lam = t["lambda"]
    proof = np.maximum.reduce([lam["1"], lam["2"], lam["3"]])
    statement = np.maximum(proof, lam["4"])
    ratio = statement / proof
    return Evidence(
        measured=ratio,
        bound=1.0,
        relation="==",
        rtol=SHORT_ROUNDING,
        witness={
            "points where lambda_4 is the largest": int(np.sum(ratio > 1)),
            "points": int(ratio.size),
            "hypotheses": "Theorem B.23's parameters: L, sigma, Q, B > 0, integers M, K, R >= 1 with T = KR >= 1000 "
            "(every draw); the two lambdas are the printed definitions, so nothing else enters",
        },
    )


@claim(
    f"{PAPER}/thm-b.23:proof-monotone",
    source="proof of Theorem B.23 ('By Lemma B.34, psi_2, psi_3, psi_5 are increasing')",
    statement="psi_2, psi_3 and psi_5 of (B.58) are increasing in lambda: measured, the smallest relative change "
    "psi(lambda_(i+1))/psi(lambda_i) - 1 along log-spaced lambda grids (>= 0 claimed).",
    scope="printed",
    expect="fails",
)
def thm_b23_monotone(ctx: Context) -> Evidence:
    """Random parameters as in thm-b.23:proof-lambda (20 draws; full profile: 200), each on 2000 log-spaced lambda in
    [1e-9, 1e9]. Measured in logs (float64), the smallest relative change of each function between grid points."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/thm-b.23:psi"))
    t = _thm_b23_terms(rng, 20 if ctx.quick else 200)
    lam = np.geomspace(1e-9, 1e9, 2000)[:, None]
    L, s, Q, B, M, K, R = (t[k][None, :] for k in ("L", "sigma", "Q", "B", "M", "K", "R"))
    psi = {
        "psi_2": np.log(4 * s**2 / (lam * M * K * R)) + np.log(np.log(E + lam * L * M * K * R * B**2 / s**2)),
        "psi_3": np.log(55 * L * s**2 / (lam**2 * M * K * R**3))
        + 3 * np.log(np.log(E**3 + lam**2 * M * K * R**3 * B**2 / s**2)),
        "psi_5": 18
        + np.log(Q**2 * s**4 / (lam**5 * K**2 * R**8))
        + 8 * np.log(np.log(E**8 + lam**5 * L * K**2 * R**8 * B**2 / (Q**2 * s**4))),
    }  # logs of the functions, to stay finite across the grid
    measured = {name: float(np.min(np.expm1(np.diff(v, axis=0)))) for name, v in psi.items()}
    largest = {name: float(np.max(np.expm1(np.diff(v, axis=0)))) for name, v in psi.items()}
    return Evidence(
        measured=list(measured.values()),
        bound=0.0,
        relation=">=",
        grid={"function": list(measured)},
        witness={
            "hypotheses": "Theorem B.23's parameters (every draw: L, sigma, Q, B > 0, KR >= 1000) and lambda > 0 on "
            "the grid; psi_2, psi_3, psi_5 are the printed terms of (B.58), so nothing else enters",
            "largest relative step (<= 0: decreasing everywhere)": largest,
            "why": "each is x^-1 log^p(a + b x) in x = lambda, lambda^2, lambda^5 with a = e^p, so Lemma B.34 makes it "
            "decreasing; the proof's use psi_i(lambda) <= psi_i(lambda_j) for lambda >= lambda_j needs exactly that",
        },
    )


# --------------------------------------------------------------------------------------------------
# Printed constants of the proofs of Lemmas 3.24 and B.14
# --------------------------------------------------------------------------------------------------


@claim(
    f"{PAPER}/lem-3.24:const",
    source="proof of Lemma 3.24",
    statement="(289/324) * 49 < 44, in exact rationals; 289/324 = (1/4)(sqrt(17)/3)^4 is Proposition B.9's constant "
    "(Claims B.10 and B.11) and 49 = 7^2 comes from telescoping Proposition B.8.",
    scope="printed",
    expect="holds",
)
def lem_324_const(ctx: Context) -> Evidence:
    """(289/324) * 49 against 44 in exact rationals (Fractions); the witness re-derives 289/324 from Proposition
    B.9's factor (1/4)(17/9)^2."""
    b9 = Fraction(1, 4) * Fraction(17, 9) ** 2  # (Q^2/4) (sqrt(17) eta/(3 gamma))^4 without Q, eta, gamma
    control = negative_control(Evidence(Fraction(289, 324) * 49, Fraction(43), "<"), "the constant 44 replaced by 43")
    return Evidence(
        measured=Fraction(289, 324) * 49,
        bound=Fraction(44),
        relation="<",
        witness={
            "(1/4)(17/9)^2": str(b9),
            "equals the printed 289/324": b9 == Fraction(289, 324),
            "negative control": control,
        },
    )


_RHO = (1 + gamma**2 * mu / eta) ** (2 * K)
#: Proposition B.16 telescoped from (r, 0) times Proposition B.17's factor (as in the proof of Lemma B.14).
_DERIVED_B14 = sp.expand(2 * gamma**2 * sigma**2 * K * _RHO * 17 * eta**2 * L**2 / (9 * gamma**2))
#: The display in the proof of Lemma B.14.
_PRINTED_B14 = sp.Rational(34, 9) * eta**2 * sigma**2 * K * _RHO
_B14_UNITS = {**UNITS, gamma: STEP}


@claim(
    f"{PAPER}/lem-b.14:proof",
    source="proof of Lemma B.14",
    statement="The display (34/9) eta^2 sigma^2 K (1 + gamma^2 mu/eta)^(2K) equals telescoped Proposition B.16 (2 "
    "gamma^2 sigma^2 K (1 + gamma^2 mu/eta)^(2K)) times Proposition B.17's factor 17 eta^2 L^2/(9 gamma^2), has the "
    "units of ||grad F||^2, and 34/9 <= 4 gives the lemma's 4 eta^2 L^2 K sigma^2 (1 + gamma^2 mu/eta)^(2K) (sympy, "
    "exact rationals).",
    scope="printed",
    expect="fails",
)
def lem_b14_proof(ctx: Context) -> Evidence:
    """The printed display against telescoped Proposition B.16 times Proposition B.17's factor (sympy, exact), its
    units by dimensional analysis, and the constant 34/9 against 4."""
    ev = _b14_evidence(_PRINTED_B14)
    ev.witness["hypotheses"] = (
        "Lemma B.14's setting (FedAc-II, Assumption 3.2, gamma >= eta); the display is compared with the product of "
        "the printed Propositions B.16 (telescoped) and B.17 for every positive eta, gamma, mu, L, sigma and K "
        "(symbolic), so no instance is chosen"
    )
    return ev


@claim(
    f"{PAPER}/lem-b.14:proof-corrected",
    source="proof of Lemma B.14, with the factor L^2 that Proposition B.17 carries",
    statement="Corrected display (34/9) eta^2 L^2 sigma^2 K (1 + gamma^2 mu/eta)^(2K): equal to telescoped "
    "Proposition B.16 times Proposition B.17's factor, with the units of ||grad F||^2, and <= the lemma's bound since "
    "34/9 <= 4.",
    scope="corrected",
    expect="holds",
)
def lem_b14_proof_corrected(ctx: Context) -> Evidence:
    """The checks of lem-b.14:proof for the display with the factor L^2: sympy (exact) against telescoped
    Proposition B.16 times Proposition B.17's factor, dimensional analysis, and 34/9 <= 4; a negative control runs
    the same checks on the display as printed (without L^2), which must fail."""
    ev = _b14_evidence(_PRINTED_B14 * L**2)
    ev.witness["negative control"] = negative_control(_b14_evidence(_PRINTED_B14), "the display as printed")
    return ev


def _b14_evidence(display) -> Evidence:
    """The three steps of the proof of Lemma B.14 for a given ``display`` (0 = the step holds)."""
    consistent, units = check(display, GRAD2, _B14_UNITS)
    lemma = 4 * eta**2 * L**2 * K * sigma**2 * _RHO
    constant = sp.nsimplify(sp.simplify(_DERIVED_B14 / (eta**2 * L**2 * sigma**2 * K * _RHO)))
    items = {
        "B.16 telescoped x B.17 - display": int(sp.simplify(_DERIVED_B14 - display) != 0),
        "display has units of ||grad F||^2": int(not consistent),
        f"derived constant {constant} <= 4": int(not constant <= 4),
        "lemma bound - display >= 0 (sign of the ratio - 1)": int(not sp.simplify(lemma / display - 1).is_nonnegative),
    }
    return Evidence(
        measured=list(items.values()),
        bound=0,
        relation="==",
        grid={"step": list(items)},
        witness={
            "derived": str(_DERIVED_B14),
            "display": str(display),
            "units of the display": units,
            "ratio derived / display": str(sp.simplify(_DERIVED_B14 / display)),
        },
    )
