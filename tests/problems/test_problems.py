from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rounding import EPS, LIBM_ULPS

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import (
    FederatedQuadratic,
    LeastSquares,
    LogisticRegression,
    PiecewiseQuadratic,
    logistic_data,
    sparse_regression_data,
)


def test_quadratic_constants_common_hessian():
    A = np.diag([1.0, 4.0])
    b = np.array([[1.0, 0.0], [-1.0, 2.0]])
    p = FederatedQuadratic(A, b)
    assert p.n_clients == 2 and p.L == 4.0 and p.mu == 1.0
    assert np.allclose(p.x_star, np.linalg.solve(A, b.mean(0)))
    assert np.isclose(p.zeta, np.linalg.norm(b[0] - b.mean(0)))
    g = np.einsum("ij,mj->mi", A, np.broadcast_to(p.x_star, (2, 2))) - b
    assert np.isclose(p.zeta_star, np.sqrt(np.mean(np.sum(g**2, -1))))
    assert np.allclose(p.grad(p.x_star), 0)


def test_quadratic_different_hessians_have_infinite_uniform_heterogeneity():
    p = FederatedQuadratic(np.stack([np.eye(2), 2 * np.eye(2)]), np.zeros((2, 2)))
    assert p.zeta == np.inf and p.zeta_star == 0


@pytest.mark.parametrize(
    "A, match",
    [
        (np.array([[1.0, 2.0], [0.0, 1.0]]), "symmetric"),
        (np.array([[1.0, 0.0], [0.0, -1.0]]), "positive semidefinite"),
        (np.ones((2, 3)), "square"),
    ],
)
def test_quadratic_rejects_bad_matrices(A, match):
    with pytest.raises(InvalidParameterError, match=match):
        FederatedQuadratic(A, np.zeros(2))


def test_quadratic_rejects_mismatched_dimensions_and_unbounded():
    with pytest.raises(InvalidParameterError, match="invalid b"):
        FederatedQuadratic(np.eye(2), np.zeros(3))
    with pytest.raises(InvalidParameterError, match="unbounded"):
        _ = FederatedQuadratic(np.diag([1.0, 0.0]), np.array([0.0, 1.0])).x_star
    with pytest.raises(InvalidParameterError, match="invalid x"):
        FederatedQuadratic(np.eye(2), np.zeros(2)).grad(np.zeros(3))
    with pytest.raises(InvalidParameterError, match="invalid M"):
        FederatedQuadratic(np.eye(2), np.zeros((3, 2))).client_grad(np.zeros((2, 2)))


@given(x=st.floats(-10, 10), ap=st.floats(0.1, 5), am=st.floats(0.1, 5))
def test_piecewise_gradient_and_exact_gradient(x, ap, am):
    p = PiecewiseQuadratic(ap, am)
    g = p.grad([x])[0]
    assert g == (ap if x >= 0 else am) * x
    assert float(p.grad_exact((Fraction(x),))[0]) == pytest.approx(g, rel=1e-15, abs=1e-300)
    assert p.gradient_pieces()(x) == pytest.approx(g)


def test_piecewise_scaled_psi_and_constants():
    p = PiecewiseQuadratic.scaled_psi(0.5)  # (L/2) psi with L = 1
    assert (p.a_plus[0], p.a_minus[0], p.L, p.mu) == (1.0, 0.5, 1.0, 0.5)
    assert p.value([[-2.0], [2.0]]).tolist() == [1.0, 2.0]
    with pytest.raises(InvalidParameterError, match="a_plus"):
        PiecewiseQuadratic(-1.0, 1.0)


def test_logistic_gradient_matches_finite_differences():
    p = logistic_data(np.random.default_rng(1), n_clients=3, n_per_client=20, dim=4, l2=0.1)
    x = np.random.default_rng(2).normal(size=4)
    eps = 1e-6
    fd = [(p.value(x + eps * e) - p.value(x - eps * e)) / (2 * eps) for e in np.eye(4)]
    assert np.allclose(p.grad(x), fd, atol=1e-8)
    assert np.allclose(p.grad(p.x_star), 0, atol=1e-10)
    with pytest.raises(InvalidParameterError, match="labels"):
        LogisticRegression(np.zeros((3, 2)), np.array([0.0, 1.0, 1.0]))


@pytest.mark.parametrize("make", ["logistic", "least_squares"])
def test_sample_gradients_average_to_the_client_gradient(make):
    rng = np.random.default_rng(0)
    if make == "logistic":
        p = logistic_data(rng, n_clients=2, n_per_client=7, dim=3)
    else:
        p, _ = sparse_regression_data(rng, n_clients=2, n_per_client=7, dim=3, n_nonzero=2)
    x = rng.normal(size=(1, 2, 3))
    idx = np.broadcast_to(np.arange(7), (1, 2, 7))
    assert np.allclose(p.sample_grad(x, idx), p.client_grad(x))


def test_least_squares_is_the_quadratic_it_claims():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(10, 3)), rng.normal(size=10)
    p = LeastSquares(X, y)
    x = rng.normal(size=3)
    assert np.isclose(p.value(x), np.sum((X @ x - y) ** 2) / 20)
    assert np.allclose(p.x_star, np.linalg.lstsq(X, y, rcond=None)[0])


def test_dimensions_of_rates_and_inconsistencies():
    import sympy as sp

    from fedtheory.dimensions import DimensionError, check, dimension

    L, B, s, K, R = sp.symbols("L B sigma K R", positive=True)
    units = {L: {"F": 1, "x": -2}, B: {"x": 1}, s: {"F": 1, "x": -1}}
    third = (
        L ** sp.Rational(1, 3)
        * s ** sp.Rational(2, 3)
        * B ** sp.Rational(4, 3)
        / (K ** sp.Rational(1, 3) * R ** sp.Rational(2, 3))
    )
    assert check(third + L * B**2 / (K * R), {"F": 1}, units)[0]
    assert dimension(sp.Min(L * B**2, s * B / sp.sqrt(K * R)), units) == {"F": 1}
    ok, message = check(L * B**2 + s, {"F": 1}, units)
    assert not ok and "different dimensions" in message
    with pytest.raises(DimensionError, match="exp"):
        dimension(sp.exp(L), units)


@given(x=st.floats(-40, 40), Q=st.floats(0.01, 10))
def test_logcosh_instance_derivatives(x, Q):
    from fedtheory.problems import LogCoshQuadratic

    p = LogCoshQuadratic(1.0, Q)
    h = 1e-5 * max(1.0, abs(x))
    fd = (p.value([x + h]) - p.value([x - h])) / (2 * h)
    assert fd == pytest.approx(p.grad([x])[0], rel=1e-6, abs=1e-6)
    # the bounds are attained (third derivative = Q at x = 0, hessian -> 1 as x -> inf): up to one tanh/exp
    # (LIBM_ULPS ulp; the ratio 4e/(1 + e)^2 is at most 1-conditioned in e) and four roundings
    slack = (LIBM_ULPS + 4) * EPS
    assert 0.5 * (1 - slack) <= p.hessian_1d(x) <= 1.0 + slack and 0.0 <= p.third_1d(x) <= Q * (1 + slack)


def test_phi_closed_form_matches_quadrature():
    from scipy.integrate import quad
    from scipy.special import spence

    from fedtheory.problems.logcosh import log_cosh, phi

    for x in (-5.0, -0.3, 0.0, 1.7, 25.0):
        value, quad_error = quad(lambda t: log_cosh(t), 0, x, epsabs=1e-13)
        # quad's own error estimate, plus the closed form's rounding: its four terms (up to 320 at x = 25, cancelling
        # to 0.005 at x = -0.3) each to LIBM_ULPS ulp (spence, exp, log: numpy's AVX-512 SVML or libm)
        a = abs(x)
        terms = a**2 / 2 + a * np.log(2.0) + abs(spence(1 + np.exp(-2 * a))) / 2 + np.pi**2 / 24
        assert phi(x) == pytest.approx(value, rel=0, abs=quad_error + 2 * LIBM_ULPS * EPS * terms)


# log_cosh's error bound: each elementary function within LIBM_ULPS ulp (numpy's AVX-512 SVML kernels are documented
# at <= 4 ulp, glibc at <= 2), one ulp <= eps relative. |y| < 1: log1p(2 sinh(y/2)^2) has 4 + 2 * 4 + 1/2 ulp (the
# condition number of log1p is <= 1); |y| >= 1: |y| + log1p(e^-2|y|) - log 2 adds <= 4 ulp of 0.13 and of 0.69 and
# two roundings, cancelling at most 2.3x (log cosh 1 = 0.43): <= 11 ulp. 16 eps covers both, and mpmath's 1/2 ulp.
LOG_COSH_REL = 16 * EPS


def _log_cosh_mp(y: float) -> float:
    """``log cosh y`` by mpmath with enough digits that ``cosh y = 1 + y^2/2 + ...`` keeps 40 of ``y^2/2``."""
    import mpmath

    digits = 40 + 2 * max(0, -int(np.floor(np.log10(abs(y))))) if y else 40
    with mpmath.workdps(digits):
        return float(mpmath.log(mpmath.cosh(mpmath.mpf(y))))


@pytest.mark.parametrize("y", [1e-150, 1e-8, 1e-6, -1e-6, 1e-3, 0.5, 0.999999, 1.0, 1.000001, 3.0, 20.0, 400.0, 1e300])
def test_log_cosh_relative_accuracy_at_fixed_points(y):
    """Regression: the overflow-safe ``|y| + log1p(e^{-2|y|}) - log 2`` alone lost ~2e-4 relative at 1e-6."""
    from fedtheory.problems.logcosh import log_cosh

    assert log_cosh(y) == pytest.approx(_log_cosh_mp(y), rel=LOG_COSH_REL, abs=0)


@given(st.floats(min_value=-710.0, max_value=710.0).filter(lambda y: y == 0 or abs(y) >= 1e-150))
def test_log_cosh_matches_mpmath(y):
    from fedtheory.problems.logcosh import log_cosh

    value = log_cosh(y)
    assert value == log_cosh(-y) and value >= 0
    assert value == pytest.approx(_log_cosh_mp(y), rel=LOG_COSH_REL, abs=0)


def test_log_cosh_vectorised_and_without_overflow():
    from fedtheory.problems.logcosh import log_cosh

    y = np.array([[0.0, 1e-6, -0.75], [1.0, -30.0, 1e308]])
    out = log_cosh(y)
    assert out.shape == y.shape
    assert np.array_equal(out, [[log_cosh(float(t)) for t in row] for row in y])
    assert out[1, 2] == 1e308 and np.isinf(log_cosh(np.inf))


def test_separable_cosine():
    from fedtheory.problems import SeparableCosine

    p = SeparableCosine(3)
    x = np.array([0.3, -1.0, 2.0])
    assert np.allclose(p.grad(x), np.sin(x)) and p.value(np.zeros(3)) == 0.0
    with pytest.raises(InvalidParameterError, match="dim"):
        SeparableCosine(0)


def test_a9a_like_is_seeded_binary_and_homogeneous():
    from fedtheory.problems import a9a_like

    p = a9a_like(np.random.default_rng(3), n=500, dim=20, l2=1e-2)
    q = a9a_like(np.random.default_rng(3), n=500, dim=20, l2=1e-2)
    assert p.n_clients is None
    X = p.features[0]
    assert set(np.unique(X)) <= {0.0, 1.0} and set(np.unique(p.labels)) <= {-1.0, 1.0}
    assert 0.02 * 20 * 0.5 < X.sum(axis=1).mean() < 0.25 * 20 * 1.5
    np.testing.assert_array_equal(X, q.features[0])


def test_quadratic_gap_is_value_minus_optimum_without_cancellation():
    from fedtheory.problems import FederatedQuadratic

    rng = np.random.default_rng(4)
    G = rng.normal(size=(3, 3))
    p = FederatedQuadratic(G @ G.T + 0.1 * np.eye(3), 1e4 * rng.normal(size=3))  # F* is large: value - F* cancels
    x = p.x_star + rng.normal(size=(5, 3))
    np.testing.assert_allclose(p.gap(x), p.value(x) - p.f_star, rtol=1e-6)
    e = x - p.x_star
    np.testing.assert_allclose(p.gap(x), 0.5 * np.einsum("si,ij,sj->s", e, p.A_mean, e), rtol=1e-14)
    cov = np.stack([np.eye(3) * s for s in range(5)])
    np.testing.assert_allclose(p.expected_gap(x, cov), p.gap(x) + 0.5 * np.trace(p.A_mean) * np.arange(5), rtol=1e-14)
