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


def fedprox_synthetic(
    rng: np.random.Generator,
    *,
    n_clients: int,
    m: int,
    d: int,
    alpha: float,
    beta: float,
    C: int = 2,
    feature_scale: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The synthetic(alpha, beta) federated data of FedProx (Li et al., MLSys 2020; its ``generate_synthetic.py``).

    Client ``i`` draws ``u_i ~ N(0, alpha^2)``, ``B_i ~ N(0, beta^2)``, ``v_i ~ N(B_i, 1)^d``, a model
    ``W_i ~ N(u_i, 1)^(d x C)`` and ``b_i ~ N(u_i, 1)^C``, then ``m`` features ``a ~ N(v_i, diag(j^-1.2))`` labelled
    ``argmax_c softmax(a'W_i + b_i)_c``. ``alpha`` and ``beta`` are standard deviations (the reference code's
    ``scale=alpha``; the FedProx paper writes ``N(0, alpha)``). Choices the reference leaves to its caller, fixed
    here: every client holds the same number ``m`` of samples (the reference draws log-normal sizes), no intercept,
    no train/test split. Draw order: ``u``, ``B``, ``v``, ``W``, ``b``, then the feature noise, each one numpy call.

    ``alpha`` never changes a label: ``u_i`` shifts every class score ``a'W_ic + b_ic`` by the same
    ``u_i (1'a + 1)``, so the argmax (and hence, with the same generator, the whole data set) is the same for every
    ``alpha`` up to rounding. The heterogeneity of the data comes from ``beta`` (the spread of the client feature
    means ``v_i``) and from the independent client models ``W_i - u_i``.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_clients, m, d : int
        Clients, samples per client, feature dimension.
    alpha, beta : float
        Standard deviations of the client model shift ``u_i`` and of the client feature-mean centre ``B_i`` (>= 0).
    C : int, optional
        Number of classes (>= 2). With ``C = 2`` the labels are mapped ``0 -> -1``, ``1 -> +1`` (binary logistic
        regression); otherwise they are class indices ``0..C-1``.
    feature_scale : float, optional
        If given, every feature vector is multiplied by one common factor so that the largest row norm over all
        clients equals ``feature_scale`` (the labels are drawn before scaling, and the geometry of the data is kept);
        then the logistic loss is ``feature_scale^2 / 4``-smooth. The default keeps the raw scale: at large
        ``beta`` the rows have norm about ``beta sqrt(d)`` and the smoothness constant is of order ``beta^2 d / 4``.

    Returns
    -------
    features : array (n_clients, m, d)
    labels : array (n_clients, m)
        Floats in ``{-1, +1}`` for ``C = 2`` (what :class:`~fedtheory.problems.LogisticRegression` takes), else
        integer class indices.
    """
    rng = generator("rng", rng)
    n, m, d = (positive_int(k, v) for k, v in (("n_clients", n_clients), ("m", m), ("d", d)))
    C = positive_int("C", C, minimum=2)
    alpha, beta = positive("alpha", alpha, allow_zero=True), positive("beta", beta, allow_zero=True)
    if feature_scale is not None:
        feature_scale = positive("feature_scale", feature_scale)
    u = rng.normal(0.0, alpha, n)
    B = rng.normal(0.0, beta, n)
    v = rng.normal(B[:, None], 1.0, (n, d))
    W = rng.normal(u[:, None, None], 1.0, (n, d, C))
    b = rng.normal(u[:, None], 1.0, (n, C))
    features = v[:, None, :] + rng.standard_normal((n, m, d)) * np.arange(1, d + 1) ** -0.6
    classes = np.argmax(np.einsum("imd,idc->imc", features, W) + b[:, None, :], axis=-1)  # softmax keeps the argmax
    if feature_scale is not None:
        features *= feature_scale / np.max(np.linalg.norm(features, axis=-1))
    return features, (2.0 * classes - 1.0 if C == 2 else classes)
