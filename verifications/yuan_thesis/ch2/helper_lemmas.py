"""Helper lemmas of appendix A: Lemma A.14 (third-order smoothness and averaging) and Lemma A.15 (moments of a
sum of independent zero-mean vectors).

Printed objects: Lemmas A.14 and A.15 (appendix A.6).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING, SHORT_ROUNDING
from fedtheory.problems import LogCoshQuadratic
from fedtheory.problems.logcosh import log_cosh

PAPER = "yuan-thesis"


@claim(
    f"{PAPER}/lem-a.14",
    source="Lemma A.14, appendix A.6",
    statement="For Q-third-order-smooth F and any x_1..x_M: ||grad F(xbar) - (1/M) sum_m grad F(x_m)||^2 <= "
    "(Q^2/(4M)) sum_m ||x_m - xbar||^4; checked on F = sum_i phi(x_i) (Q = 1) and on instance (A.15).",
    scope="printed",
    expect="holds",
)
def lem_a14(ctx: Context) -> Evidence:
    """F = sum_i phi(x_i) in d = 3 (Q = 1) and instance (A.15) with Q in {0.1, 3} in d = 1; M in {2, 5, 20}, 2000
    random configurations per (instance, M, spread), spreads 0.01 to 30. Both sides in float64."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-a.14"))
    points = Points()
    instances = {"sum phi(x_i), Q = 1": (lambda X: log_cosh(X), 1.0)}
    for Q in (0.1, 3.0):
        p = LogCoshQuadratic(1.0, Q)
        instances[f"(A.15), Q = {Q}"] = (lambda X, p=p: p.grad(X), Q)
    for name, (grad, Q) in instances.items():
        d = 3 if name.startswith("sum") else 1
        for M in (2, 5, 20):
            for scale in (0.01, 0.3, 3.0, 30.0):
                X = scale * rng.normal(size=(2000, M, d)) + rng.normal(size=(2000, 1, d))
                xbar = X.mean(axis=1)
                lhs = np.sum((grad(xbar) - grad(X).mean(axis=1)) ** 2, axis=-1)
                rhs = Q**2 / (4 * M) * np.sum(np.sum((X - xbar[:, None]) ** 2, axis=-1) ** 2, axis=-1)
                for m, b in zip(lhs, rhs):
                    points.add(m, b, instance=name, M=M, d=d, scale=scale)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        atol=1e-300,  # a floor under the relative test only: the smallest bound here is about 1e-22
        witness={"points": "2000 random configurations per (instance, M, scale)"},
    )


def _random_law(rng: np.random.Generator, d: int, n: int) -> tuple[list[tuple[Fraction, ...]], list[Fraction]]:
    """A zero-mean law on n rational points of Z^d / 4 with rational weights."""
    w = [Fraction(int(v), 1) for v in rng.integers(1, 6, size=n)]
    w = [v / sum(w) for v in w]
    pts = [tuple(Fraction(int(c), 4) for c in rng.integers(-8, 9, size=d)) for _ in range(n)]
    mean = tuple(sum((wi * p[j] for wi, p in zip(w, pts)), Fraction(0)) for j in range(d))
    return [tuple(c - m for c, m in zip(p, mean)) for p in pts], w


def _norm2(v) -> Fraction:
    return sum((c * c for c in v), Fraction(0))


@claim(
    f"{PAPER}/lem-a.15",
    source="Lemma A.15, appendix A.6 (as printed: x, y i.i.d.; as used in Lemma 2.21: "
    "independent, each with fourth moment <= sigma^4)",
    statement="For independent zero-mean x, y with E||x||^4, E||y||^4 <= sigma^4: E||x + y||^2 <= 2 sigma^2 and "
    "E||x + y||^4 <= 8 sigma^4 (exact, random finite laws); E||x + y||^3 <= 4 sigma^3 in float.",
    scope="printed",
    expect="holds",
)
def lem_a15(ctx: Context) -> Evidence:
    """Random zero-mean laws on rational points of Z^d / 4 (d <= 3), x and y i.i.d. or independent, 60 trials (full
    profile: 400). Reference: exact rational moments for p = 2 (compared through squares) and p = 4; float64 for
    p = 3."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-a.15"))
    points = Points()
    for trial in range(60 if ctx.quick else 400):
        d = int(rng.integers(1, 4))
        law_x = _random_law(rng, d, int(rng.integers(2, 6)))
        law_y = law_x if trial % 2 == 0 else _random_law(rng, d, int(rng.integers(2, 6)))
        s4 = max(sum((w * _norm2(p) ** 2 for p, w in zip(*law)), Fraction(0)) for law in (law_x, law_y))
        m2 = m4 = Fraction(0)
        m3 = 0.0
        for px, wx in zip(*law_x):
            for py, wy in zip(*law_y):
                n2 = _norm2(tuple(a + b for a, b in zip(px, py)))
                m2 += wx * wy * n2
                m4 += wx * wy * n2 * n2
                m3 += float(wx * wy) * float(n2) ** 1.5
        s = float(s4) ** 0.25
        # E||x+y||^2 <= 2 sigma^2  <=>  (E||x+y||^2)^2 <= 4 sigma^4: squares keep the comparison exact
        for moment, ratio in (("2", m2 * m2 / (4 * s4)), ("4", m4 / (8 * s4)), ("3", m3 / (4 * s**3))):
            points.add(float(ratio), law="i.i.d." if trial % 2 == 0 else "independent", d=d, moment=moment)
    return points.evidence(
        "<=",
        bound=1.0,
        rtol=SHORT_ROUNDING,
        witness={"measured": "E||x+y||^p / (c_p sigma^p) (p = 2 via squares, exact)"},
    )
