"""Seeded data recipes for the problem families.

Every generator takes an explicit ``numpy.random.Generator`` so that a claim's numbers are a
function of its seed alone.
"""

from __future__ import annotations

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import InvalidParameterError
from .least_squares import LeastSquares
from .logistic import LogisticRegression


def random_rotation(rng: np.random.Generator, d: int) -> np.ndarray:
    """A ``d x d`` orthogonal matrix: the ``Q`` factor of a matrix of ``d^2`` standard normal draws (Haar-distributed
    up to the signs of its columns). Draws ``rng.normal(size=(d, d))``."""
    rng = generator("rng", rng)
    Q, _ = np.linalg.qr(rng.normal(size=(positive_int("d", d), d)))
    return Q


def spd_matrix(rotation, eigenvalues) -> np.ndarray:
    """``Q diag(eigenvalues) Q'``: the symmetric matrix with eigenvectors the columns of ``rotation``."""
    Q = np.asarray(rotation, dtype=float)
    lam = np.asarray(eigenvalues, dtype=float)
    if Q.ndim != 2 or Q.shape != (lam.size, lam.size):
        raise InvalidParameterError(
            "rotation", f"a ({lam.size}, {lam.size}) matrix, one column per eigenvalue", Q.shape
        )
    return Q @ np.diag(lam) @ Q.T


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
    rng = generator("rng", rng)
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
    rng = generator("rng", rng)
    M, n, d = (positive_int(k, v) for k, v in (("n_clients", n_clients), ("n_per_client", n_per_client), ("dim", dim)))
    s = positive_int("n_nonzero", n_nonzero)
    positive("noise", noise, allow_zero=True)
    truth = np.zeros(d)
    support = rng.choice(d, size=min(s, d), replace=False)
    truth[support] = rng.choice([-1.0, 1.0], size=support.size)
    X = rng.standard_normal((M, n, d))
    y = X @ truth + noise * rng.standard_normal((M, n))
    return LeastSquares(X, y), truth


def a9a_like(rng: np.random.Generator, *, n: int = 4000, dim: int = 123, l2: float = 1e-3) -> LogisticRegression:
    """A seeded stand-in for LibSVM's a9a (thesis section 3.7): binary features, identical clients.

    ``X in {0, 1}^(n x dim)`` with feature ``j`` Bernoulli(``p_j``), ``p_j ~ U(0.02, 0.25)`` (a9a has about 14
    non-zeros per row over 123 features); ``w_true ~ N(0, I/4)``; ``y_i = +1`` with probability
    ``sigmoid(x_i' w_true)``, else ``-1``. Every client samples the same ``n`` rows (homogeneous, as in chapter 3).
    """
    rng = generator("rng", rng)
    n, dim = positive_int("n", n), positive_int("dim", dim)
    positive("l2", l2)
    p = rng.uniform(0.02, 0.25, dim)
    X = (rng.random((n, dim)) < p).astype(float)
    w = rng.normal(0.0, 0.5, dim)
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-X @ w)), 1.0, -1.0)
    return LogisticRegression(X, y, l2=l2)


def epsilon_like(
    rng: np.random.Generator,
    *,
    n: int = 20000,
    dim: int = 200,
    l2: float = 1e-4,
    decay: float = 1.0,
    signal: float = 5.3,
) -> LogisticRegression:
    """A seeded stand-in for the PASCAL 2008 epsilon set (thesis section 3.7.4): dense, unit-norm rows.

    ``z_i ~ N(0, diag(j^-decay))`` over ``j = 1..dim`` (correlated dense features have a decaying spectrum; with
    i.i.d. features the objective would be nearly perfectly conditioned), ``x_i = z_i / ||z_i||`` (epsilon's rows
    are normalised to unit length); ``w_true`` is a Gaussian direction scaled so that the margins ``x_i'w_true``
    have root mean square ``signal`` on the drawn rows; ``y_i = +1`` with probability ``sigmoid(x_i'w_true)``, else
    ``-1``. With near-Gaussian margins the Bayes accuracy is ``E sigmoid(signal |N(0, 1)|)``, 0.90 at the default
    ``signal = 5.3``, about what linear classifiers reach on epsilon. Every client samples the same ``n`` rows
    (homogeneous, as in chapter 3).
    """
    rng = generator("rng", rng)
    n, dim = positive_int("n", n), positive_int("dim", dim)
    positive("l2", l2)
    decay = positive("decay", decay, allow_zero=True)
    signal = positive("signal", signal, allow_zero=True)
    Z = rng.standard_normal((n, dim)) * np.arange(1, dim + 1) ** (-decay / 2)
    X = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    margins = X @ rng.standard_normal(dim)
    margins *= signal / np.sqrt(np.mean(margins**2))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-margins)), 1.0, -1.0)
    return LogisticRegression(X, y, l2=l2)
