"""The instances of the paper's checks, each built once here (no claims).

* :func:`quad_l1` -- heterogeneous quadratics ``f_i = x'H_i x/2 - b_i'x``, ``H_i = M_i M_i'/d + 0.1 I`` (``M_i``
  standard normal), ``b_i = 3 N(0, I) + 2 (i - n/2)``, with ``g = theta ||.||_1``;
* :func:`lasso` -- ``f_i = ||A_i x - y_i||^2 / (2m)`` as the same quadratic class (``H_i = A_i'A_i/m``), exactly;
* :func:`prescribed` -- ``f_i = (x - x*)'H_i(x - x*)/2 + v_i'x`` with ``mean_i v_i = v`` and ``-v in partial g(x*)``:
  ``x*`` is the exact minimiser of ``F`` by construction (``n = 1`` is the Algorithm 2 instance);
* :func:`optimum` -- the certified minimiser of ``F = f + g`` (Clarabel, then the proximal-gradient KKT residual).

Every builder takes an explicit ``numpy.random.Generator``.
"""

from __future__ import annotations

import numpy as np

from fedtheory.problems import FederatedQuadratic
from fedtheory.reference import Reference, composite_optimum
from fedtheory.regularizers import L1

REGISTERS_CLAIMS = False


def quad_l1(rng: np.random.Generator, n: int, d: int, theta: float) -> tuple[FederatedQuadratic, L1]:
    """The "quad-l1(n, d, theta)" instance: heterogeneous strongly convex quadratics and ``theta ||.||_1``."""
    M = rng.normal(size=(n, d, d))
    H = M @ np.swapaxes(M, -1, -2) / d + 0.1 * np.eye(d)
    b = 3 * rng.normal(size=(n, d)) + 2 * (np.arange(1, n + 1)[:, None] - n / 2)
    return FederatedQuadratic(H, b), L1(theta)


def lasso(rng: np.random.Generator, n: int, m: int, d: int, theta: float) -> tuple[FederatedQuadratic, L1]:
    """``f_i = ||A_i x - y_i||^2/(2m)`` with Gaussian ``A_i`` (m, d) and ``y_i = A_i x_true + noise`` per client."""
    A = rng.normal(size=(n, m, d))
    x_true = np.where(rng.random(d) < 0.3, rng.normal(size=d), 0.0)
    y = A @ x_true + 0.1 * rng.normal(size=(n, m)) + rng.normal(size=(n, 1))  # a client shift: heterogeneity
    H = np.swapaxes(A, -1, -2) @ A / m
    b = np.einsum("nmd,nm->nd", A, y) / m
    c = np.sum(y**2, axis=-1) / (2 * m)
    return FederatedQuadratic(H, b, c), L1(theta)


def prescribed(
    rng: np.random.Generator, n: int, d: int, theta: float, *, spread: float = 1.0, sparsity: float = 0.5
) -> tuple[FederatedQuadratic, L1, np.ndarray]:
    """Clients whose composite minimiser is a chosen sparse ``x*`` exactly; returns ``(problem, g, x*)``.

    ``v_j = -theta sign(x*_j)`` on the support and uniform in ``[-theta, theta]`` off it, so ``-v in partial g(x*)``;
    ``v_i = v + spread w_i`` with ``mean_i w_i = 0`` (the heterogeneity), ``H_i`` as in :func:`quad_l1`.
    """
    x_star = np.where(rng.random(d) < sparsity, 0.0, rng.normal(size=d) + np.sign(rng.normal(size=d)))
    v = np.where(x_star != 0, -theta * np.sign(x_star), rng.uniform(-theta, theta, d))
    w = rng.normal(size=(n, d))
    v_i = v + spread * (w - w.mean(axis=0))
    M = rng.normal(size=(n, d, d))
    H = M @ np.swapaxes(M, -1, -2) / d + 0.1 * np.eye(d)
    b = np.einsum("nij,j->ni", H, x_star) - v_i  # grad f_i(x) = H_i (x - x*) + v_i
    c = 0.5 * np.einsum("i,nij,j->n", x_star, H, x_star)
    return FederatedQuadratic(H, b, c), L1(theta), x_star


_OPTIMA: dict[bytes, Reference] = {}


def optimum(problem: FederatedQuadratic, regularizer: L1) -> Reference:
    """Certified minimiser of ``f + theta ||.||_1`` (cached per instance data and ``theta``)."""
    key = (
        problem.A_mean.tobytes()
        + problem.b_mean.tobytes()
        + problem.c.tobytes()
        + np.float64(regularizer.lam).tobytes()
    )
    if key not in _OPTIMA:
        _OPTIMA[key] = composite_optimum(problem, regularizer)
    return _OPTIMA[key]
