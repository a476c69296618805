"""Kinked piecewise quadratics: the iterate-bias instances of thesis chapter 2.

``F(x) = sum_i q_i(x_i)`` with ``q_i(t) = a_plus_i t^2 / 2`` for ``t >= 0`` and ``a_minus_i t^2 / 2`` for
``t < 0``. The thesis's ``psi`` of eq. (2.4) is ``a_plus = 2, a_minus = 1``; Theorem 2.7 uses
``(L/2) psi`` (``a_plus = L, a_minus = L/2``), Lemma 2.11 uses ``(L/24) psi`` and Figure 2.1 uses
``a_plus = 2, a_minus = 0.2``. The gradient is continuous and piecewise linear, the Hessian jumps at 0,
so the instances satisfy Assumption 2.1' but not the third-order smoothness of Assumption 2.5'.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from .._validate import finite_array
from ..errors import InvalidParameterError
from .base import Problem


@dataclass(frozen=True)
class PiecewiseLinear:
    """A scalar piecewise-linear function ``g(x) = slopes[j] x + intercepts[j]`` on piece ``j``.

    Piece ``j`` is ``[breakpoints[j-1], breakpoints[j])`` with ``breakpoints[-1] = -inf`` and
    ``breakpoints[n] = +inf``; there is one more piece than breakpoints.
    """

    breakpoints: tuple[float, ...]
    slopes: tuple[float, ...]
    intercepts: tuple[float, ...]

    def __post_init__(self):
        for name in ("breakpoints", "slopes", "intercepts"):
            finite_array(name, getattr(self, name), ndim=1)
        if len(self.slopes) != len(self.breakpoints) + 1 or len(self.intercepts) != len(self.slopes):
            raise InvalidParameterError(
                "slopes",
                "one more slope and intercept than breakpoints",
                (len(self.breakpoints), len(self.slopes), len(self.intercepts)),
            )
        if any(b2 <= b1 for b1, b2 in zip(self.breakpoints, self.breakpoints[1:])):
            raise InvalidParameterError("breakpoints", "a strictly increasing sequence", self.breakpoints)

    def __call__(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        j = np.searchsorted(np.asarray(self.breakpoints, dtype=float), x, side="right")
        return np.asarray(self.slopes, dtype=float)[j] * x + np.asarray(self.intercepts, dtype=float)[j]


class PiecewiseQuadratic(Problem):
    """Separable kinked quadratic with curvature ``a_plus`` right of 0 and ``a_minus`` left of 0.

    Parameters
    ----------
    a_plus, a_minus : float or array (d,)
        Curvatures (>= 0, with ``a_plus + a_minus > 0`` per coordinate). Scalars give ``d = 1``.
        Exact rationals (``fractions.Fraction``) are kept for :meth:`grad_exact`.
    """

    def __init__(self, a_plus, a_minus):
        self._exact_params = tuple(tuple(v) if np.ndim(v) else (v,) for v in (a_plus, a_minus))
        ap = finite_array("a_plus", np.asarray(a_plus, dtype=float), ndim=(0, 1)).reshape(-1)
        am = finite_array("a_minus", np.asarray(a_minus, dtype=float), ndim=(0, 1)).reshape(-1)
        if ap.shape != am.shape:
            raise InvalidParameterError("a_minus", f"the shape of a_plus {ap.shape}", f"shape {am.shape}")
        for name, arr in (("a_plus", ap), ("a_minus", am)):
            if np.any(arr < 0):
                raise InvalidParameterError(name, "curvatures >= 0 (the instance must be convex)", arr)
        if np.any(ap + am <= 0):
            raise InvalidParameterError("a_plus", "a_plus + a_minus > 0 in every coordinate", ap)
        self.a_plus, self.a_minus = ap, am
        self.dim = ap.shape[0]

    @classmethod
    def scaled_psi(cls, scale) -> PiecewiseQuadratic:
        """``scale * psi`` with ``psi`` of thesis eq. (2.4): ``a_plus = 2 scale``, ``a_minus = scale``."""
        return cls(2 * scale, scale)

    @cached_property
    def L(self) -> float:
        return float(np.max(np.maximum(self.a_plus, self.a_minus)))

    @cached_property
    def mu(self) -> float:
        return float(np.min(np.minimum(self.a_plus, self.a_minus)))

    @cached_property
    def x_star(self) -> np.ndarray:
        return np.zeros(self.dim)

    @property
    def f_star(self) -> float:
        return 0.0

    @property
    def a_mean(self) -> np.ndarray:
        """``(a_plus + a_minus) / 2``: with ``delta`` below, ``F'(x) = a_mean x + delta |x|``."""
        return (self.a_plus + self.a_minus) / 2

    @property
    def delta(self) -> np.ndarray:
        """``(a_plus - a_minus) / 2``."""
        return (self.a_plus - self.a_minus) / 2

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        return 0.5 * np.sum(np.where(x >= 0, self.a_plus, self.a_minus) * x**2, axis=-1)

    def grad(self, x) -> np.ndarray:
        x = self.check_point(x)
        return np.where(x >= 0, self.a_plus, self.a_minus) * x

    def client_grad(self, x) -> np.ndarray:
        return self.grad(self.check_client_points(x))

    def gradient_pieces(self) -> PiecewiseLinear:
        """``F'`` as a :class:`PiecewiseLinear` (one-dimensional instances only)."""
        if self.dim != 1:
            raise InvalidParameterError("dim", "a one-dimensional instance for gradient_pieces", self.dim)
        return PiecewiseLinear((0.0,), (float(self.a_minus[0]), float(self.a_plus[0])), (0.0, 0.0))

    def grad_exact(self, x: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        """``grad F(x)`` in exact arithmetic; float curvatures enter as their exact dyadic values."""
        ap, am = ([v if isinstance(v, Fraction) else Fraction(float(v)) for v in p] for p in self._exact_params)
        return tuple((p if xi >= 0 else m) * xi for xi, p, m in zip(x, ap, am))
