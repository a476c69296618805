"""The sympy symbols, normal forms and printed rate terms shared by the symbolic claims of chapter 4 and appendix C
(no claims): Remarks 4.5 and 4.8, the term-wise steps of Theorems 4.7 and C.11, the quadratic maxima.

Symbolic statements use sympy with positive symbols L, B, sigma, G, zeta, M, K, R, eta; each symbolic check is
repeated numerically at random constants with the library's prescribed step sizes.

Printed objects: (4.8), (4.11) and the proof of Theorem 4.7.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

REGISTERS_CLAIMS = False  # shared symbols and printed terms; the claims are in the sibling modules


L, B, sigma, zeta, G, M, K, R, eta = sp.symbols("L B sigma zeta G M K R eta", positive=True)
CONSTANTS = (L, B, sigma, zeta, G, M, K, R)
THIRD = sp.Rational(1, 3)


def reduce(expr: sp.Expr) -> sp.Expr:
    """Normal form of a product of powers of positive symbols."""
    return sp.simplify(sp.powsimp(sp.powdenest(sp.expand_power_base(expr, force=True), force=True), force=True))


def constant(expr: sp.Expr) -> Fraction:
    """The rational number ``expr`` reduces to; raises if it depends on a symbol or is irrational."""
    value = reduce(expr)
    if not value.is_Rational:
        raise RuntimeError(f"{expr} does not reduce to a rational constant (got {value})")
    return Fraction(int(value.p), int(value.q))


def exponents(monomial: sp.Expr) -> dict[sp.Symbol, sp.Expr]:
    """Exponent of each constant in a monomial, ``s d(log m)/ds``."""
    return {s: reduce(s * sp.diff(monomial, s) / monomial) for s in CONSTANTS}


# (4.8); (4.11) (the terms of each)
EQ_48 = (L * B**2 / R, sigma * B / sp.sqrt(M * K * R))
EQ_411 = (
    L * B**2 / (K * R),
    sigma * B / sp.sqrt(M * K * R),
    L**THIRD * B ** (4 * THIRD) * G ** (2 * THIRD) / R ** (2 * THIRD),
)


# Theorem 4.7's step-size candidates, rate terms and B^2/(eta K R) (from its proof)
CAND_47 = (
    1 / (4 * L),
    sp.sqrt(M) * B / (sigma * sp.sqrt(K * R)),
    B ** (2 * THIRD) / (L**THIRD * K ** (2 * THIRD) * R**THIRD * sigma ** (2 * THIRD)),
    B ** (2 * THIRD) / (L**THIRD * K * R**THIRD * zeta ** (2 * THIRD)),
)
MONO_47 = (
    L * B**2 / (K * R),
    sigma * B / sp.sqrt(M * K * R),
    L**THIRD * B ** (4 * THIRD) * sigma ** (2 * THIRD) / (K**THIRD * R ** (2 * THIRD)),
    L**THIRD * B ** (4 * THIRD) * zeta ** (2 * THIRD) / R ** (2 * THIRD),
)
DEC = B**2 / (eta * K * R)
