"""The 'quadratic maximum' steps of the printed proofs of Proposition 4.12 and Lemma C.15 (sympy, and random
empirical laws).

Printed objects: the proofs of Proposition 4.12 and Lemma C.15.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.tolerances import ROUNDING

from .convex_instances import PAPER, draws
from .convex_symbolic import K, L, M, constant, eta, sigma


def _quadmax_draws(rng: np.random.Generator, n: int, peak: float) -> tuple[np.ndarray, np.ndarray]:
    """``n`` scales ``c`` and, per scale, 16 non-negative samples ``a`` around ``peak c`` (the maximiser)."""
    c = 10 ** rng.uniform(-3, 3, size=(n, 1))
    spread = rng.uniform(0, 3, size=(n, 1))
    a = np.abs(peak * c * (1 + spread * rng.normal(size=(n, 16))))
    return c[:, 0], a


def _quadratic_max(expr: sp.Expr, a: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """The maximiser and maximum over ``a`` of a concave quadratic ``expr`` (raises if it is not concave)."""
    if not sp.diff(expr, a, 2).is_negative:
        raise RuntimeError(f"{expr} is not concave in {a}")
    (peak,) = sp.solve(sp.diff(expr, a), a)
    return peak, sp.simplify(expr.subs(a, peak))


@claim(
    f"{PAPER}/prop-4.12:step-quadmax",
    source="proof of Proposition 4.12 ('by quadratic maximum')",
    statement="(eta_c sigma/M^(1/2)) E a - (1/4) E a^2 <= eta_c^2 sigma^2/M for every law of a >= 0 (a = "
    "||x^(r,k+1) - x^(r,k)||): sympy max_a (c a - a^2/4) = c^2 at a = 2c with c = eta_c sigma/M^(1/2), and 64 random "
    "empirical laws (16 atoms around 2c, quick; Jensen E a^2 >= (E a)^2 is used); measured: LHS/RHS.",
    scope="printed",
    expect="holds",
)
def prop412_step_quadmax(ctx: Context) -> Evidence:
    """The maximum of the concave quadratic by sympy (exact ratio to eta_c^2 sigma^2/M) and random empirical laws of
    a >= 0 around the maximiser (largest ratio of the two sides), against 1."""
    a, c = sp.symbols("a c", positive=True)
    peak, value = _quadratic_max(c * a - a**2 / 4, a)
    symbolic = constant(value.subs(c, eta * sigma / sp.sqrt(M)) / (eta**2 * sigma**2 / M))
    cs, samples = _quadmax_draws(ctx.rng(0), draws(ctx), float(constant(peak / c)))
    ratio = (cs * samples.mean(1) - (samples**2).mean(1) / 4) / cs**2
    _, halved = _quadratic_max(c * a - a**2 / 8, a)  # the coefficient 1/4 of E a^2 halved: max = 2 c^2
    control = Evidence(constant(halved.subs(c, eta * sigma / sp.sqrt(M)) / (eta**2 * sigma**2 / M)), Fraction(1), "<=")
    return Evidence(
        measured=[symbolic, Fraction(float(np.max(ratio)))],
        bound=Fraction(1),
        relation="<=",
        rtol=ROUNDING,
        grid={"check": ["sympy: max_a / (eta_c^2 sigma^2/M)", "empirical laws: max LHS/RHS"]},
        witness={
            "maximiser": str(peak),
            "negative control": negative_control(control, "the coefficient 1/4 of E a^2 replaced by 1/8"),
        },
    )


@claim(
    f"{PAPER}/lem-c.15:step-quadmax",
    source="proof of Lemma C.15 (the 'quadratic optimum' step)",
    statement="For eta <= 1/(4KL): 1/2 - (L/2) eta K >= 3/8, and -(3/8) E a^2 + (eta sigma K^(1/2)/M^(1/2)) E a <= "
    "-(1/4) E a^2 + 2 eta^2 K sigma^2/M for every law of a >= 0 ('by quadratic optimum': max_a (c a - a^2/8) = 2c^2 "
    "at a = 4c); sympy, 64 random eta in (0, 1/(4KL)] and 64 random empirical laws around 4c (quick); measured: "
    "LHS/RHS.",
    scope="printed",
    expect="holds",
)
def lemc15_step_quadmax(ctx: Context) -> Evidence:
    """The coefficient 3/8 at eta = 1/(4KL) and the quadratic maximum by sympy (exact ratios), and random step sizes
    below 1/(4KL) and random empirical laws of a >= 0 around the maximiser (largest ratios), against 1."""
    a, c = sp.symbols("a c", positive=True)
    coef = sp.Rational(1, 2) - L * eta * K / 2
    at_edge = constant(sp.Rational(3, 8) / coef.subs(eta, 1 / (4 * K * L)))
    if not sp.diff(coef, eta).is_negative:
        raise RuntimeError("1/2 - L eta K/2 is not decreasing in eta")
    peak, value = _quadratic_max(c * a - a**2 / 8, a)
    symbolic = constant(value.subs(c, eta * sigma * sp.sqrt(K) / sp.sqrt(M)) / (2 * eta**2 * K * sigma**2 / M))
    rng = ctx.rng(0)
    u = rng.uniform(1e-6, 1, size=draws(ctx))
    coef_ratio = float(np.max(0.375 / (0.5 - u / 8)))  # eta = u/(4KL): L eta K/2 = u/8
    cs, samples = _quadmax_draws(rng, draws(ctx), float(constant(peak / c)))
    # -(3/8) E a^2 + c E a <= -(1/4) E a^2 + 2 c^2  <=>  (c E a - E a^2/8) / (2 c^2) <= 1
    ratio = (cs * samples.mean(1) - (samples**2).mean(1) / 8) / (2 * cs**2)
    return Evidence(
        measured=[at_edge, Fraction(coef_ratio), symbolic, Fraction(float(np.max(ratio)))],
        bound=Fraction(1),
        relation="<=",
        rtol=ROUNDING,
        grid={
            "check": [
                "3/8 / (1/2 - L eta K/2) at eta = 1/(4KL)",
                "random eta <= 1/(4KL): max 3/8 / (1/2 - L eta K/2)",
                "sympy: max_a (c a - a^2/8) / (2 eta^2 K sigma^2/M)",
                "empirical laws: max (c E a - E a^2/8)/(2 c^2) (= LHS vs RHS with E a^2/4 added)",
            ]
        },
        witness={
            "maximiser": str(peak),
            "negative control": negative_control(
                Evidence(constant(sp.Rational(3, 8) / coef.subs(eta, 1 / (2 * K * L))), Fraction(1), "<="),
                "eta = 1/(2KL) in place of the printed eta <= 1/(4KL): 1/2 - L eta K/2 = 1/4 < 3/8",
            ),
        },
    )
