"""A one-dimensional objective with bounded third derivative: thesis instance (A.15).

``F(x) = (3/8) L x^2 + (L^3 / (64 Q^2)) phi(4 Q x / L)`` with ``phi(x) = int_0^x log cosh(t) dt`` (A.14), so
``F'(x) = (3/4) L x + (L^2 / (16 Q)) log cosh(4 Q x / L)``, ``F'' = (3/4)L + (L/4) tanh(4Qx/L)`` in
``[L/2, L]`` and ``F''' = Q sech^2(4Qx/L)`` in ``[0, Q]`` with ``F'''(0) = Q`` (Lemma A.11).
"""

from __future__ import annotations

import numpy as np
from scipy.special import spence

from .._validate import positive
from .base import Problem


def log_cosh(y) -> np.ndarray:
    """``log cosh y`` to a few ulp of relative accuracy for every finite ``y``, without overflow.

    - ``|y| < 1``: ``log1p(2 sinh^2(y/2))`` (``cosh y = 1 + 2 sinh^2(y/2)``): no cancellation, so ``y^2/2`` is
      resolved down to ``|y| ~ 1e-154``, where ``y^2`` underflows (the large-``|y|`` form below loses all digits
      there: its three terms cancel to ``y^2/2``, e.g. a relative error of 2e-4 at ``|y| = 1e-6``);
    - ``|y| >= 1``: ``|y| + log1p(exp(-2|y|)) - log 2``, which does not overflow and cancels at most a factor
      ``1/log cosh 1 ~ 2.3``.
    """
    a = np.abs(np.asarray(y, dtype=float))
    small = a < 1
    s = np.sinh(np.where(small, a, 0.0) / 2)
    with np.errstate(over="ignore"):  # -2|y| is -inf near the float maximum, and exp(-inf) = 0 is the right tail
        tail = np.exp(-2 * a)
    return np.where(small, np.log1p(2 * s * s), a + np.log1p(tail) - np.log(2.0))[()]


def phi(x) -> np.ndarray:
    """``phi(x) = int_0^x log cosh t dt = x^2/2 - x log 2 + Li_2(-e^{-2x})/2 + pi^2/24`` for x >= 0.

    ``Li_2(z) = spence(1 - z)`` in scipy. ``phi' = log cosh`` is even, so ``phi`` is odd: the formula is
    evaluated at ``|x|`` (where it does not overflow) and signed.
    """
    x = np.asarray(x, dtype=float)
    a = np.abs(x)
    value = a**2 / 2 - a * np.log(2.0) + spence(1 + np.exp(-2 * a)) / 2 + np.pi**2 / 24
    return np.sign(x) * value


class LogCoshQuadratic(Problem):
    """Instance (A.15) with noiseless part ``F``; L-smooth, (L/2)-strongly convex, Q-third-order smooth."""

    def __init__(self, L: float, Q: float):
        self.L_ = positive("L", L)
        self.Q = positive("Q", Q)
        self.dim = 1

    @property
    def L(self) -> float:
        return self.L_

    @property
    def mu(self) -> float:
        return self.L_ / 2

    @property
    def x_star(self) -> np.ndarray:
        return np.zeros(1)

    @property
    def f_star(self) -> float:
        return 0.0

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)[..., 0]
        L, Q = self.L_, self.Q
        return 3 / 8 * L * x**2 + L**3 / (64 * Q**2) * phi(4 * Q * x / L)

    def grad(self, x) -> np.ndarray:
        x = self.check_point(x)
        L, Q = self.L_, self.Q
        return 3 / 4 * L * x + L**2 / (16 * Q) * log_cosh(4 * Q * x / L)

    def client_grad(self, x) -> np.ndarray:
        return self.grad(self.check_client_points(x))

    def hessian_1d(self, x) -> np.ndarray:
        """``F''(x)``."""
        return 3 / 4 * self.L_ + self.L_ / 4 * np.tanh(4 * self.Q * np.asarray(x, dtype=float) / self.L_)

    def third_1d(self, x) -> np.ndarray:
        """``F'''(x) = Q sech^2(4 Q x / L)`` with ``sech^2 y = 4 e^{-2|y|} / (1 + e^{-2|y|})^2`` (no overflow)."""
        e = np.exp(-2 * np.abs(4 * self.Q * np.asarray(x, dtype=float) / self.L_))
        return self.Q * 4 * e / (1 + e) ** 2
