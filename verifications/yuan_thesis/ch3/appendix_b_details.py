"""Appendix B's helper lemmas (B.32-B.34), the numeric estimates its proofs print, and the printed steps of the
proof of Theorem B.23.

Printed objects: Lemmas B.32-B.34 (appendix B.4), the statement of Theorem B.23 (appendix B.3.1) and its proof
(appendix B.3.4).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import SCALED_ROUNDING, SHORT_ROUNDING

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
    return Evidence(
        measured=list(items.values()), bound=1.0, relation="<=", rtol=SHORT_ROUNDING, grid={"estimate": list(items)}
    )


@claim(
    f"{PAPER}/lem-b.32",
    source="Lemma B.32 (the second brace is printed without 'max'; read with max, as its proof and every use, in the "
    "proofs of Propositions 3.16 and B.7, do)",
    statement="||[[A11, A12], [A21, A22]]||_2 <= max{||A11||, ||A22||} + max{||A12||, ||A21||} for any 2d x 2d block "
    "matrix (random matrices of several sizes and scales).",
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
    return points.evidence("<=", rtol=1e-12)  # rounding of the float64 spectral norms (SVD of at most 10 x 10)


@claim(
    f"{PAPER}/lem-b.33",
    source="Lemma B.33",
    statement="||x + y||^2 <= (1 + a)||x||^2 + (1 + 1/a)||y||^2 for every a > 0 (random x, y, a).",
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
    return Evidence(measured=lhs, bound=rhs, relation="<=", rtol=SHORT_ROUNDING)


def _phi(x, a, b, p, q):
    return x ** (-q) * np.log(a + b * x) ** p


@claim(
    f"{PAPER}/lem-b.34",
    source="Lemma B.34",
    statement="phi(x) = x^(-q) log^p(a + b x), a, p, q >= 1, b > 0, a >= exp(p/q), is decreasing on (0, inf): "
    "measured, the largest relative increase phi(x_(i+1))/phi(x_i) - 1 on log-spaced grids (<= 0 claimed).",
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
    return Evidence(measured=measured, bound=0.0, relation="<=", atol=SCALED_ROUNDING)


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
        witness={"points where lambda_4 is the largest": int(np.sum(ratio > 1)), "points": int(ratio.size)},
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
            "largest relative step (<= 0: decreasing everywhere)": largest,
            "why": "each is x^-1 log^p(a + b x) in x = lambda, lambda^2, lambda^5 with a = e^p, so Lemma B.34 makes it "
            "decreasing; the proof's use psi_i(lambda) <= psi_i(lambda_j) for lambda >= lambda_j needs exactly that",
        },
    )
