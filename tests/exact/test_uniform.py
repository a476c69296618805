"""The uniform-noise engine: exact window averages, agreement with Gauss-Legendre trees, finite differences and
Monte Carlo, the structural properties of Lemma A.12(d, e), and parameter validation."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rounding import UNIT_ROUNDOFF, gamma

from fedtheory.errors import InvalidParameterError
from fedtheory.exact import uniform
from fedtheory.fit import mc_mean
from fedtheory.problems import LogCoshQuadratic


def _instance(L, Q):
    p = LogCoshQuadratic(L, Q)
    return (lambda x: p.grad(np.asarray(x, dtype=float)[..., None])[..., 0]), p.hessian_1d, p.third_1d


def _tree(grad, eta, sigma, xs, k, m=10):
    """u_k(xs) by an m-point Gauss-Legendre rule per step (m^k paths): exact up to the rule's error on smooth u."""
    nodes, weights = np.polynomial.legendre.leggauss(m)
    X, W = np.asarray(xs, dtype=float)[:, None], np.ones(1)
    for _ in range(k):
        X = (X[..., None] - eta * (grad(X)[..., None] + sigma * nodes)).reshape(X.shape[0], -1)
        W = np.outer(W, weights / 2).ravel()
    return X @ W


def _exact_average(grid, values, a, b):
    """Trapezoid rule through every kink of the interpolant in [a, b]: exact for a piecewise-linear function."""
    t = np.unique(np.concatenate([[a, b], grid[(grid > a) & (grid < b)]]))
    return np.trapezoid(np.interp(t, grid, values), t) / (b - a)


def _window_error(grid, lo, hi, vmax, dvmax):
    """Rounding bound on ``T @ v`` minus the exact average over ``[lo, hi]`` (per window), ``|v| <= vmax``,
    ``|v_{j+1} - v_j| <= dvmax``. In index units ``a = (lo - x_0)/dx <= b <= G``: the window ends and the float nodes
    are ``u (2 (b + 1) + 2 max|x|/dx)`` off where the uniform-grid formula puts them, which moves the average by
    ``dvmax`` per unit at each end; each weight is ``(H(b - j) - H(a - j))/(b - a)`` with two <= 4u-accurate
    quadratics, so its ``n_w`` weights cost ``8 u vmax n_w/(b - a)`` (short windows cancel); the row sum and the
    reference trapezoid ``gamma_{n_w + 4} vmax`` each."""
    dx = (grid[-1] - grid[0]) / (grid.size - 1)
    a, b = (lo - grid[0]) / dx, (hi - grid[0]) / dx
    n_w = np.ceil(b - a) + 2
    shift = UNIT_ROUNDOFF * (2 * (b + 1) + 2 * np.max(np.abs(grid)) / dx)
    return 2 * dvmax * shift + 8 * UNIT_ROUNDOFF * vmax * n_w / (b - a) + 2 * gamma(n_w + 4) * vmax


def test_window_weights_average_the_interpolant_exactly():
    rng = np.random.default_rng(0)
    grid = -3.7 + 0.13 * np.arange(80)
    values = rng.normal(size=grid.size)
    a = rng.uniform(grid[0], grid[-1] - 1.5, 200)
    b = a + rng.uniform(1e-3, 1.5, a.size)
    T = uniform.window_weights(grid, a, b)
    expected = [_exact_average(grid, values, lo, hi) for lo, hi in zip(a, b)]
    vmax, dv = np.max(np.abs(values)), np.max(np.abs(np.diff(values)))
    assert np.all(np.abs(T @ values - expected) <= _window_error(grid, a, b, vmax, dv))
    assert np.all(np.abs(T.sum(axis=1).A1 - 1.0) <= _window_error(grid, a, b, 1.0, 0.0))
    # linear functions are averaged exactly
    assert np.all(np.abs(T @ grid - (a + b) / 2) <= _window_error(grid, a, b, np.max(np.abs(grid)), 0.13))


def test_window_sup_and_interpolation():
    rng = np.random.default_rng(1)
    grid = 0.25 * np.arange(-20, 21)
    values = rng.normal(size=(3, grid.size))
    a = rng.uniform(-5, 4, 50)
    b = np.minimum(a + rng.uniform(0, 1.2, a.size), 5)
    sup = uniform.window_sup(grid, values, a, b)
    # interpolate() reads the fraction t = (x - x_0)/dx - j off an index up to 40: t is off by <= 2 u 41, i.e. the value
    # by that times |v_{j+1} - v_j|; both interpolants round a few times more (<= 8 u |v|). Elementwise IEEE
    # arithmetic only, so every build gives these bits, but the bound is what the test may rely on.
    vmax = np.max(np.abs(values))
    tol = UNIT_ROUNDOFF * (2 * 41 * 2 * vmax + 8 * vmax)
    for i, (lo, hi) in enumerate(zip(a, b)):
        t = np.concatenate([[lo, hi], grid[(grid > lo) & (grid < hi)]])
        for row in range(3):
            assert sup[row, i] == pytest.approx(np.interp(t, grid, values[row]).max(), rel=0, abs=tol)
    np.testing.assert_allclose(uniform.interpolate(grid, values, a), [np.interp(a, grid, v) for v in values])


def test_grid_is_invariant_and_starts_from_the_identity():
    grad, hess, third = _instance(1.0, 0.2)
    eta, sigma = 0.3, 1.5
    r = uniform.derivatives(grad, hess, third, eta, sigma, 2, (-1.0, 4.0))
    x = r.grid
    assert x[0] <= -1 and x[-1] >= 4
    assert np.all(x - eta * (grad(x) + sigma) >= x[0]) and np.all(x - eta * (grad(x) - sigma) <= x[-1])
    np.testing.assert_array_equal(r.coarse.grid, x[::2])
    np.testing.assert_array_equal(r.u[0], x)
    assert np.all(r.du[0] == 1) and np.all(r.d2u[0] == 0)
    # u_1 = x - eta F'(x) (a linear u_0 is averaged exactly), u_1' = 1 - eta F'', u_1'' = -eta F''' (Lemma A.12(a-c))
    np.testing.assert_allclose(r.u[1], x - eta * grad(x), rtol=0, atol=1e-13)
    np.testing.assert_allclose(r.du[1], 1 - eta * hess(x), rtol=0, atol=1e-14)
    np.testing.assert_allclose(r.d2u[1], -eta * third(x), rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("L", "Q", "eta", "sigma"), [(1.0, 1 / 120, 0.5, 1.0), (2.0, 0.3, 0.1, 0.7), (1.0, 1.0, 0.8, 2.0)]
)
def test_agrees_with_gauss_legendre_trees_within_the_error_estimate(L, Q, eta, sigma):
    grad, hess, third = _instance(L, Q)
    r = uniform.derivatives(grad, hess, third, eta, sigma, 4, (-3.0, 3.0))
    xs = r.grid[(np.abs(r.grid) <= 2.5)][::7]  # nodes, so no interpolation enters
    cols = np.searchsorted(r.grid, xs)
    for k in range(5):
        tree = _tree(grad, eta, sigma, xs, k)
        assert np.all(np.abs(r.u[k, cols] - tree) <= r.u_error[k, cols] + 1e-14), k
    # the estimate is not vacuous: it is within a factor 10 of the actual error where the error is resolved
    actual = np.abs(r.u[4, cols] - _tree(grad, eta, sigma, xs, 4))
    assert np.all(r.u_error[4, cols] <= 10 * actual + 1e-12)


def test_derivatives_agree_with_finite_differences_of_trees():
    grad, hess, third = _instance(1.0, 0.25)
    eta, sigma = 0.4, 1.0
    r = uniform.derivatives(grad, hess, third, eta, sigma, 3, (-3.0, 3.0))
    cols = np.searchsorted(r.grid, [-1.0, 0.0, 0.5, 2.0])
    xs = r.grid[cols]
    for k in (1, 2, 3):

        def central(h, k=k):
            u = [_tree(grad, eta, sigma, xs + s * h, k) for s in (-1, 0, 1)]
            return (u[2] - u[0]) / (2 * h), (u[2] - 2 * u[1] + u[0]) / h**2

        (d1, d2), (d1c, d2c) = central(0.02), central(0.04)
        # central differences are second order: the change from h to 2h is 3x the error at h; plus rounding
        tol1, tol2 = np.abs(d1 - d1c) + 1e-11, np.abs(d2 - d2c) + 1e-9
        assert np.all(np.abs(r.du[k, cols] - d1) <= r.du_error[k, cols] + tol1), k
        assert np.all(np.abs(r.d2u[k, cols] - d2) <= r.d2u_error[k, cols] + tol2), k


def test_agrees_with_monte_carlo():
    L, Q, eta, sigma, K = 1.0, 0.05, 0.3, 1.0, 6
    grad, hess, third = _instance(L, Q)
    r = uniform.derivatives(grad, hess, third, eta, sigma, K, (-4.0, 4.0))
    x0 = np.array([-3.0, 0.0, 2.5])
    rng = np.random.default_rng(2024)
    x = np.repeat(x0[None, :], 400_000, axis=0)
    for k in range(1, K + 1):
        x = x - eta * (grad(x) + rng.uniform(-sigma, sigma, x.shape))
        est = mc_mean(x, family_size=K * x0.size)
        value = uniform.interpolate(r.grid, r.u[k], x0)
        err = uniform.interpolate(r.grid, r.u_error[k], x0)
        assert np.all((est.lo <= value + err) & (value - err <= est.hi)), (k, est.lo, value, est.hi)


def test_error_is_second_order():
    grad, hess, third = _instance(1.0, 0.5)
    eta, sigma, xs = 0.5, 1.0, np.array([0.0, 1.0])
    tree = _tree(grad, eta, sigma, xs, 3)
    errors = []
    for dx in (eta * sigma / 4, eta * sigma / 8):
        r = uniform.derivatives(grad, hess, third, eta, sigma, 3, (-2.0, 2.0), dx=dx)
        errors.append(np.abs(uniform.interpolate(r.grid, r.u[3], xs) - tree))
    np.testing.assert_allclose(errors[0] / errors[1], 4.0, rtol=0.1)


@given(
    L=st.floats(0.5, 2.0),
    Q=st.floats(0.01, 1.0),
    eta_L=st.floats(0.05, 1.0),
    sigma=st.floats(0.2, 2.0),
    k_max=st.integers(1, 8),
)
def test_concave_increasing_with_slopes_between_the_curvature_bounds(L, Q, eta_L, sigma, k_max):
    # F' convex (F''' >= 0), F'' in [L/2, L] and eta L <= 1: u_k is nondecreasing and concave, and
    # (1 - eta L)^k <= u_k' <= (1 - eta L/2)^k (Lemma A.12(b)-(e)).
    eta = eta_L / L
    grad, hess, third = _instance(L, Q)
    r = uniform.derivatives(grad, hess, third, eta, sigma, k_max, (-2.0, 2.0), dx=eta * sigma / 4)
    k = np.arange(k_max + 1)[:, None]
    assert np.all(np.diff(r.u, axis=1) >= -(r.u_error[:, 1:] + r.u_error[:, :-1]))
    assert np.all(r.d2u <= r.d2u_error)
    assert np.all(r.du >= (1 - eta * L) ** k - r.du_error - 1e-15)
    assert np.all(r.du <= (1 - eta * L / 2) ** k + r.du_error + 1e-15)


@pytest.mark.parametrize("per_half_window", [2, 4, 16])
def test_error_estimate_bounds_the_error_as_a_sup_on_coarse_accepted_grids(per_half_window):
    # The estimate against a grid 16-128x finer, as a sup over the range (at a single node where the leading error
    # changes sign it need not hold: module docstring).
    grad, hess, third = _instance(1.5, 0.2)
    eta, sigma, k_max = 0.3, 1.2, 5
    r = uniform.derivatives(grad, hess, third, eta, sigma, k_max, (-2.0, 2.0), dx=eta * sigma / per_half_window)
    ref = uniform.derivatives(grad, hess, third, eta, sigma, k_max, (-2.0, 2.0), dx=eta * sigma / 256)
    xs = r.grid[(r.grid >= -2.0) & (r.grid <= 2.0)]
    for name in ("u", "du", "d2u"):
        value, error = (uniform.interpolate(r.grid, getattr(r, n), xs) for n in (name, f"{name}_error"))
        truth = uniform.interpolate(ref.grid, getattr(ref, name), xs)
        ref_error = uniform.interpolate(ref.grid, getattr(ref, f"{name}_error"), xs)
        slack = 1e-14 * (1 + np.abs(truth))  # the reference interpolated at nodes placed with other roundings
        assert np.all(np.max(np.abs(value - truth) - slack, axis=1) <= np.max(error + ref_error, axis=1)), name


def test_refuses_a_grid_coarser_than_half_the_noise_window():
    grad, hess, third = _instance(1.0, 0.1)
    for dx in (0.06, 0.1, 1.0):  # eta sigma = 0.1: at most 0.05
        with pytest.raises(InvalidParameterError, match=r"invalid dx: .*at most eta \* sigma / 2"):
            uniform.derivatives(grad, hess, third, 0.1, 1.0, 3, (-1.0, 1.0), dx=dx)
    uniform.derivatives(grad, hess, third, 0.1, 1.0, 3, (-1.0, 1.0), dx=0.05)


def test_rejects_bad_parameters():
    grad, hess, third = _instance(1.0, 0.1)
    ok = {"eta": 0.1, "sigma": 1.0, "k_max": 3, "x_range": (-1.0, 1.0)}
    for name, bad in [("eta", 0.0), ("eta", -1.0), ("sigma", 0.0), ("k_max", -1), ("k_max", 1.5), ("dx", 0.0)]:
        with pytest.raises(InvalidParameterError, match=f"invalid {name}"):
            uniform.derivatives(grad, hess, third, **{**ok, name: bad})
    for bad in [(1.0, -1.0), (0.0, np.inf), "ab"]:
        with pytest.raises(InvalidParameterError, match="invalid x_range"):
            uniform.derivatives(grad, hess, third, **{**ok, "x_range": bad})
    with pytest.raises(InvalidParameterError, match="invalid hess"):
        uniform.derivatives(grad, lambda x: np.ones(3), third, **ok)
    with pytest.raises(InvalidParameterError, match="invalid grad"):  # repulsive: no interval is mapped into itself
        uniform.derivatives(lambda x: -x, hess, third, **ok)
    r = uniform.derivatives(grad, hess, third, **ok)
    with pytest.raises(InvalidParameterError, match="invalid quantity"):
        r.estimate(lambda s: s.u[:, :3])
    with pytest.raises(InvalidParameterError, match="invalid lo, hi"):
        uniform.window_weights(r.grid, [0.5], [0.2])
    with pytest.raises(InvalidParameterError, match="invalid x"):
        uniform.interpolate(r.grid, r.u, [r.grid[-1] + 1])
