"""Dimensional analysis of printed rates and bounds with sympy.

Every symbol is given its dimension as exponents of base dimensions, e.g. with ``x`` (length) and ``F``
(objective units): ``L -> {F: 1, x: -2}``, ``sigma -> {F: 1, x: -1}``, ``eta -> {x: 2, F: -1}``. A sum,
``Min`` or ``Max`` is consistent only when all its terms have the same dimension; the arguments of
``exp``/``log`` must be dimensionless.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from .errors import FedtheoryError

Dimension = dict[str, sp.Rational]


class DimensionError(FedtheoryError):
    """An expression adds, compares or exponentiates quantities of different dimensions."""


def _clean(d: Mapping[str, sp.Rational]) -> Dimension:
    return {k: sp.Rational(v) for k, v in d.items() if v != 0}


def dimension(expr, units: Mapping[sp.Symbol, Mapping[str, object]]) -> Dimension:
    """The dimension of ``expr`` (symbols missing from ``units`` are dimensionless).

    Raises
    ------
    DimensionError
        Naming the sub-expression whose terms disagree.
    """
    expr = sp.sympify(expr)
    if expr.is_Number or expr.is_NumberSymbol:
        return {}
    if expr.is_Symbol:
        return _clean(units.get(expr, {}))
    if expr.is_Mul:
        total: dict[str, sp.Rational] = {}
        for factor in expr.args:
            for k, v in dimension(factor, units).items():
                total[k] = total.get(k, 0) + v
        return _clean(total)
    if expr.is_Pow:
        base, exponent = expr.args
        if dimension(exponent, units):
            raise DimensionError(f"exponent {exponent} of {expr} is not dimensionless")
        if not exponent.is_Number:
            if dimension(base, units):
                raise DimensionError(f"{expr}: a dimensional base with a symbolic exponent")
            return {}
        return _clean({k: v * exponent for k, v in dimension(base, units).items()})
    if expr.is_Add or isinstance(expr, (sp.Min, sp.Max)):
        dims = [dimension(arg, units) for arg in expr.args]
        if any(d != dims[0] for d in dims):
            raise DimensionError(f"terms of {expr} have different dimensions: {dims}")
        return dims[0]
    if isinstance(expr, (sp.exp, sp.log)):
        if dimension(expr.args[0], units):
            raise DimensionError(f"argument of {expr.func.__name__} in {expr} is not dimensionless")
        return {}
    raise DimensionError(f"no dimension rule for {expr.func.__name__} in {expr}")


def check(expr, expected: Mapping[str, object], units) -> tuple[bool, str]:
    """``(consistent, message)``: whether ``expr`` has dimension ``expected``."""
    try:
        got = dimension(expr, units)
    except DimensionError as exc:
        return False, str(exc)
    want = _clean(expected)
    return got == want, f"dimension {got or 'dimensionless'}, expected {want or 'dimensionless'}"
