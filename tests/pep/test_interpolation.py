"""The interpolants of :mod:`fedtheory.pep.interpolation`: in their class, and through their data."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.pep.interpolation import InterpolatedFunction, InterpolatedRegularizer, max_affine_argmin
from fedtheory.pep.solve import FunctionData


def _quadratic_data(seed, n, r, mu, L):
    """Points, gradients and values of a random quadratic with spectrum in [mu, L]."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(r, r)))
    H = q @ np.diag(rng.uniform(mu, L, r)) @ q.T
    b = rng.normal(size=r)
    X = rng.normal(size=(n, r))
    return FunctionData(X=X, G=X @ H - b, F=0.5 * np.sum(X @ H * X, 1) - X @ b, mu=mu, L=L), H, b


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 4), st.sampled_from([(0.1, 1.0), (0.0, 2.0), (-1.0, 1.0)])
)
def test_interpolant_reproduces_data_and_stays_in_class(seed, n, r, cls):
    mu, L = cls
    data, _, _ = _quadratic_data(seed, n, r, max(mu, 0.0), L)
    data = FunctionData(data.X, data.G, data.F, mu, L)
    f = InterpolatedFunction(data)
    np.testing.assert_allclose(f.grad(data.X), data.G, atol=1e-9 * (1 + np.abs(data.G).max()))
    np.testing.assert_allclose(f.value(data.X), data.F, atol=1e-9 * (1 + np.abs(data.F).max()))
    rng = np.random.default_rng(seed + 1)
    y, z = rng.normal(0, 2, (2, 8, r))
    gy, gz = f.grad(y), f.grad(z)
    dist = np.linalg.norm(y - z, axis=1)
    assert np.all(np.linalg.norm(gy - gz, axis=1) <= L * dist * (1 + 1e-7) + 1e-9)  # L-smooth
    assert np.all(np.sum((gy - gz) * (y - z), 1) >= mu * dist**2 - 1e-7 * (1 + dist**2))  # mu-monotone


def test_max_affine_argmin_matches_a_brute_force_minimum():
    rng = np.random.default_rng(3)
    c, A, x = rng.normal(size=(1, 5)), rng.normal(size=(1, 5, 2)), rng.normal(size=(1, 2))
    s = max_affine_argmin(c, A, x, np.array([0.7]))[0]
    grid = np.stack(np.meshgrid(*(np.linspace(-4, 4, 801),) * 2), -1).reshape(-1, 2)
    phi = lambda p: np.max(c[0] + p @ A[0].T, -1) + np.sum(p**2, -1) / 1.4 - p @ x[0]  # noqa: E731
    assert phi(s) <= phi(grid).min() + 1e-12


def test_regularizer_prox_reproduces_proximal_points():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(4, 3))
    G = np.sign(X)  # subgradients of ||.||_1 at points off the axes
    data = FunctionData(X=X, G=G, F=np.abs(X).sum(1), mu=0.0, L=np.inf)
    psi = InterpolatedRegularizer(data)
    t = 0.3
    np.testing.assert_allclose(psi.prox(X + t * G, t), X, atol=1e-10)
    assert psi.in_subdifferential(X, G).all()
    assert not psi.in_subdifferential(X, G + 0.5).any()  # negative control: not a subgradient
