"""Seeded data recipes for the problem families.

Every generator takes an explicit ``numpy.random.Generator`` so that a claim's numbers are a
function of its seed alone.
"""

from __future__ import annotations

import numpy as np

from .._validate import positive, positive_int
from .least_squares import LeastSquares
from .logistic import LogisticRegression


def logistic_data(
    rng: np.random.Generator,
    *,
    n_clients: int,
    n_per_client: int,
    dim: int,
    separation: float = 1.0,
    heterogeneity: float = 0.0,
    l2: float = 0.0,
) -> LogisticRegression:
    """Two Gaussian classes per client, means ``+-separation * w / 2`` with a shared unit direction ``w``.

    Each client's feature mean is shifted by ``heterogeneity`` times a client-specific Gaussian vector,
    so ``heterogeneity = 0`` gives identically distributed (but distinct) client samples.
    """
    M, n, d = (positive_int(k, v) for k, v in (("n_clients", n_clients), ("n_per_client", n_per_client), ("dim", dim)))
    positive("separation", separation, allow_zero=True)
    positive("heterogeneity", heterogeneity, allow_zero=True)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    y = rng.choice([-1.0, 1.0], size=(M, n))
    shift = heterogeneity * rng.standard_normal((M, 1, d))
    X = rng.standard_normal((M, n, d)) + 0.5 * separation * y[..., None] * w + shift
    return LogisticRegression(X, y, l2=l2)


def sparse_regression_data(
    rng: np.random.Generator, *, n_clients: int, n_per_client: int, dim: int, n_nonzero: int, noise: float = 0.1
) -> tuple[LeastSquares, np.ndarray]:
    """Gaussian designs and a ``n_nonzero``-sparse ground truth with +-1 entries; returns (problem, truth)."""
    M, n, d = (positive_int(k, v) for k, v in (("n_clients", n_clients), ("n_per_client", n_per_client), ("dim", dim)))
    s = positive_int("n_nonzero", n_nonzero)
    positive("noise", noise, allow_zero=True)
    truth = np.zeros(d)
    support = rng.choice(d, size=min(s, d), replace=False)
    truth[support] = rng.choice([-1.0, 1.0], size=support.size)
    X = rng.standard_normal((M, n, d))
    y = X @ truth + noise * rng.standard_normal((M, n))
    return LeastSquares(X, y), truth
