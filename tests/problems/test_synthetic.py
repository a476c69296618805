"""Seeded generators (``fedtheory.problems.synthetic``): the epsilon-like data (unit-norm dense rows, the Zipf-type
feature spectrum, logistic labels with the documented Bayes accuracy), random rotations and SPD matrices, and the
FedProx synthetic(alpha, beta) data (shapes, seeds, label balance, which parameter makes clients differ)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rounding import gamma
from scipy.special import expit

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import LogisticRegression
from fedtheory.problems.synthetic import epsilon_like, fedprox_synthetic


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 60),
    dim=st.integers(1, 30),
    decay=st.floats(0, 3),
    signal=st.floats(0, 10),
    l2=st.floats(1e-6, 1),
)
def test_rows_are_dense_unit_vectors_with_binary_labels(seed, n, dim, decay, signal, l2):
    p = epsilon_like(np.random.default_rng(seed), n=n, dim=dim, l2=l2, decay=decay, signal=signal)
    assert isinstance(p, LogisticRegression)
    X, y = p.features[0], p.labels[0]
    assert X.shape == (n, dim) and y.shape == (n,) and p.l2 == l2 and p.n_clients is None
    assert np.allclose(np.linalg.norm(X, axis=1), 1.0, rtol=1e-12)
    assert np.all(X != 0)  # dense
    assert set(np.unique(y)) <= {-1.0, 1.0}
    assert p.L <= 0.25 + l2 + 1e-12  # unit rows: lambda_max(X'X/n) <= 1


def test_same_seed_same_data():
    a, b = (epsilon_like(np.random.default_rng(7), n=50, dim=6) for _ in range(2))
    assert np.array_equal(a.features, b.features) and np.array_equal(a.labels, b.labels)


def test_feature_spectrum():
    """decay = 0: exchangeable coordinates, E x_j^2 = 1/d; decay = 1: second moments fall with j (the largest one
    several times the smallest) and the top eigenvalue of X'X/n, so L, grows."""
    n, d = 40000, 8
    flat = epsilon_like(np.random.default_rng(1), n=n, dim=d, decay=0.0)
    zipf = epsilon_like(np.random.default_rng(1), n=n, dim=d, decay=1.0)
    m0 = (flat.features[0] ** 2).mean(axis=0)
    m1 = (zipf.features[0] ** 2).mean(axis=0)
    assert np.allclose(m0, 1 / d, rtol=0.05)
    assert np.all(np.diff(m1) < 0) and m1[0] / m1[-1] > d / 2
    assert zipf.L > 1.5 * flat.L


def _fit_accuracy(p: LogisticRegression) -> float:
    """Training accuracy of the (nearly unregularized) logistic fit, by Newton's method."""
    X, y = p.features[0], p.labels[0]
    w = np.zeros(p.dim)
    for _ in range(30):
        s = expit(-y * (X @ w))
        g = -(X.T @ (y * s)) / len(y) + 1e-8 * w
        H = (X.T * (s * (1 - s))) @ X / len(y) + 1e-8 * np.eye(p.dim)
        w -= np.linalg.solve(H, g)
    return float(np.mean(np.sign(X @ w) == y))


@pytest.mark.parametrize(("signal", "low", "high"), [(5.3, 0.88, 0.92), (0.0, 0.45, 0.55)])
def test_labels_follow_the_logistic_model(signal, low, high):
    """With n >> d the fit recovers w_true, so its training accuracy is close to the Bayes accuracy; at d = 100 the
    margins (root mean square ``signal``) are near Gaussian, so that is E sigmoid(signal |N(0, 1)|): 0.90 at the
    default signal (the documented calibration), 1/2 without signal."""
    p = epsilon_like(np.random.default_rng(3), n=20000, dim=100, signal=signal)
    assert low <= _fit_accuracy(p) <= high
    g = np.random.default_rng(4).standard_normal(400000)
    assert abs(expit(signal * np.abs(g)).mean() - (low + high) / 2) < 0.01


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n": 0}, "n"),
        ({"dim": 0}, "dim"),
        ({"l2": 0.0}, "l2"),
        ({"decay": -1.0}, "decay"),
        ({"signal": -1.0}, "signal"),
    ],
)
def test_rejects_bad_parameters(kwargs, name):
    with pytest.raises(InvalidParameterError, match=name):
        epsilon_like(np.random.default_rng(0), **kwargs)


@given(seed=st.integers(0, 10_000), d=st.integers(1, 6))
def test_random_spd_matrices_have_the_requested_spectrum(seed, d):
    from fedtheory.problems import random_rotation, spd_matrix

    rng = np.random.default_rng(seed)
    Q = random_rotation(rng, d)
    # Householder QR: Q is orthogonal to O(d^2 u) (Higham, Thm 19.4), plus the rounding of the product
    np.testing.assert_allclose(Q.T @ Q, np.eye(d), rtol=0, atol=gamma(4 * d * d))
    lam = np.geomspace(1.0, 1e-3, d)
    A = spd_matrix(Q, lam)
    np.testing.assert_allclose(A, A.T, rtol=0, atol=2 * d * gamma(d))
    np.testing.assert_allclose(np.linalg.eigvalsh(A)[::-1], lam, rtol=0, atol=gamma(8 * d * d))  # ||A|| = 1
    np.testing.assert_array_equal(Q, np.linalg.qr(np.random.default_rng(seed).normal(size=(d, d)))[0])
    with pytest.raises(InvalidParameterError, match="rotation"):
        spd_matrix(Q, np.ones(d + 1))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 8),
    m=st.integers(1, 30),
    d=st.integers(1, 12),
    C=st.integers(2, 5),
    alpha=st.floats(0, 60),
    beta=st.floats(0, 60),
)
def test_fedprox_shapes_labels_and_seed(seed, n, m, d, C, alpha, beta):
    X, y = fedprox_synthetic(np.random.default_rng(seed), n_clients=n, m=m, d=d, alpha=alpha, beta=beta, C=C)
    assert X.shape == (n, m, d) and y.shape == (n, m) and np.all(np.isfinite(X))
    assert set(np.unique(y)) <= ({-1.0, 1.0} if C == 2 else set(range(C)))
    X2, y2 = fedprox_synthetic(np.random.default_rng(seed), n_clients=n, m=m, d=d, alpha=alpha, beta=beta, C=C)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    if C == 2:
        assert LogisticRegression(X, y).n_clients == n


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), alpha=st.floats(0, 100), beta=st.floats(0, 60), C=st.integers(2, 10))
def test_fedprox_alpha_never_changes_the_data(seed, alpha, beta, C):
    """u_i shifts every class score of client i by the same u_i (1'a + 1), so the argmax label is that of alpha = 0
    (the draws are the same standard normals, shifted)."""
    kw = {"n_clients": 4, "m": 25, "d": 6, "beta": beta, "C": C}
    X0, y0 = fedprox_synthetic(np.random.default_rng(seed), alpha=0.0, **kw)
    X1, y1 = fedprox_synthetic(np.random.default_rng(seed), alpha=alpha, **kw)
    assert np.array_equal(X0, X1) and np.array_equal(y0, y1)


def _between_within(X: np.ndarray) -> float:
    """Spread of the client feature means over the mean within-client spread."""
    means = X.mean(axis=1)
    between = np.sum((means - means.mean(axis=0)) ** 2, axis=-1).mean()
    return float(between / np.sum(X.var(axis=1), axis=-1).mean())


@pytest.mark.parametrize("seed", range(5))
def test_fedprox_heterogeneity_grows_with_beta(seed):
    """beta spreads the client feature means v_i ~ N(B_i, 1) (B_i ~ N(0, beta^2)) and, with features concentrated
    around them (covariance diag(j^-1.2) <= I), makes each client's labels nearly constant."""
    kw = {"n_clients": 30, "m": 100, "d": 20, "alpha": 1.0}
    data = [fedprox_synthetic(np.random.default_rng(seed), beta=beta, **kw) for beta in (0.0, 1.0, 10.0, 50.0)]
    spread = [_between_within(X) for X, _ in data]
    purity = [float(np.abs(y.mean(axis=1)).mean()) for _, y in data]
    assert all(a < b for a, b in itertools.pairwise(spread))
    assert purity[-1] > max(purity[0], 0.85)


def test_fedprox_labels_are_balanced_over_clients():
    """The two class models are exchangeable, so over many clients each label is about half the data (here 400
    clients: the client means of y are independent with |.| <= 1, so 5 sd of their average is 5 / sqrt(400) = 0.25);
    both labels occur on most clients when the features are not pulled apart (beta = 0)."""
    _, y = fedprox_synthetic(np.random.default_rng(11), n_clients=400, m=50, d=20, alpha=1.0, beta=1.0)
    assert abs(y.mean()) < 0.25
    _, y0 = fedprox_synthetic(np.random.default_rng(12), n_clients=100, m=50, d=20, alpha=0.0, beta=0.0)
    assert np.mean(np.abs(y0.mean(axis=1)) < 1) > 0.5


def test_fedprox_feature_scale():
    raw, y = fedprox_synthetic(np.random.default_rng(4), n_clients=5, m=40, d=8, alpha=50.0, beta=50.0)
    X, y2 = fedprox_synthetic(
        np.random.default_rng(4), n_clients=5, m=40, d=8, alpha=50.0, beta=50.0, feature_scale=2.0
    )
    assert np.array_equal(y, y2)
    np.testing.assert_allclose(np.max(np.linalg.norm(X, axis=-1)), 2.0, rtol=1e-14)
    np.testing.assert_allclose(X / raw, X[0, 0, 0] / raw[0, 0, 0], rtol=1e-13)  # one common factor
    assert LogisticRegression(X, y).L <= 2.0**2 / 4 * (1 + 1e-12)
    with pytest.raises(InvalidParameterError, match="feature_scale"):
        fedprox_synthetic(np.random.default_rng(4), n_clients=5, m=4, d=8, alpha=1.0, beta=1.0, feature_scale=0.0)
    with pytest.raises(InvalidParameterError, match="C"):
        fedprox_synthetic(np.random.default_rng(4), n_clients=5, m=4, d=8, alpha=1.0, beta=1.0, C=1)
