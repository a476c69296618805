"""A smooth non-convex objective with bounded derivatives: ``F(x) = sum_i (1 - cos x_i)``.

``grad F = sin x`` (so ``||grad F|| <= sqrt(d)``), ``F'' = diag(cos x)`` (L = 1, not convex), third derivative
``-sin x`` (third-order smooth with Q = 1); ``inf F = 0`` at every multiple of 2 pi.
"""

from __future__ import annotations

import numpy as np

from .._validate import positive_int
from .base import Problem


class SeparableCosine(Problem):
    """``F(x) = sum_i (1 - cos x_i)`` in ``d`` dimensions (identical clients)."""

    def __init__(self, dim: int):
        self.dim = positive_int("dim", dim)

    L = 1.0
    mu = 0.0
    Q = 1.0

    @property
    def x_star(self) -> np.ndarray:
        return np.zeros(self.dim)

    @property
    def f_star(self) -> float:
        return 0.0

    def value(self, x) -> np.ndarray:
        return np.sum(1 - np.cos(self.check_point(x)), axis=-1)

    def grad(self, x) -> np.ndarray:
        return np.sin(self.check_point(x))

    def client_grad(self, x) -> np.ndarray:
        return self.grad(self.check_client_points(x))
