"""The prox-PL gap function D_g and the largest prox-PL constant of a sample (`fedtheory.proximal_pl`)."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import FederatedQuadratic
from fedtheory.proximal_pl import largest_prox_pl_mu, prox_pl_gap
from fedtheory.reference import composite_optimum, solve
from fedtheory.regularizers import L1, Box, ElasticNet, SquaredL2

vectors = arrays(np.float64, 4, elements=st.floats(-10, 10))
alphas = st.floats(1e-3, 1e3)
regularizers = st.sampled_from([None, L1(0.0), L1(0.7), ElasticNet(0.3, 0.5), SquaredL2(2.0)])


@given(grad=vectors, x=vectors, reg=regularizers, alpha=alphas)
def test_gap_is_nonnegative(grad, x, reg, alpha):
    assert prox_pl_gap(grad, x, reg, alpha) >= 0


@given(grad=vectors, x=vectors, reg=regularizers, a=alphas, b=alphas)
def test_gap_is_nondecreasing_in_alpha(grad, x, reg, a, b):
    lo, hi = sorted((a, b))
    small, large = prox_pl_gap(grad, x, reg, lo), prox_pl_gap(grad, x, reg, hi)
    assert small <= large + 1e-12 * (1 + large)


@given(grad=vectors, x=vectors, alpha=alphas)
def test_gap_without_regularizer_is_the_squared_gradient(grad, x, alpha):
    assert prox_pl_gap(grad, x, None, alpha) == pytest.approx(grad @ grad, rel=1e-13, abs=1e-300)
    assert prox_pl_gap(grad, x, L1(0.0), alpha) == pytest.approx(grad @ grad, rel=1e-12, abs=1e-12)


@given(grad=vectors, x=vectors, alpha=alphas)
def test_gap_over_alpha_is_nonincreasing(grad, x, alpha):
    """D_g(x, alpha)/alpha is nonincreasing: the constants a point allows form an interval."""
    reg = L1(0.4)
    assert prox_pl_gap(grad, x, reg, 2 * alpha) / (2 * alpha) <= prox_pl_gap(grad, x, reg, alpha) / alpha * (1 + 1e-12)


@settings(max_examples=8)
@given(grad=vectors, x=vectors, alpha=st.floats(0.1, 10), reg=st.sampled_from([L1(0.7), ElasticNet(0.3, 0.5)]))
def test_gap_matches_a_clarabel_solve_of_the_inner_minimisation(grad, x, alpha, reg):
    y = cp.Variable(4)
    if isinstance(reg, ElasticNet):
        penalty = reg.l1 * cp.norm1(y) + 0.5 * reg.l2 * cp.sum_squares(y)
    else:
        penalty = reg.lam * cp.norm1(y)
    inner = grad @ (y - x) + alpha / 2 * cp.sum_squares(y - x) + penalty - float(reg.value(x))
    problem = cp.Problem(cp.Minimize(inner))
    cert = solve(problem)  # Clarabel at 1e-9; its recomputed duality gap bounds the error of the value
    reference = -2 * alpha * problem.value
    tol = 2 * alpha * (cert["duality_gap"] + 1e-9 * max(1.0, abs(problem.value)))
    assert abs(prox_pl_gap(grad, x, reg, alpha) - reference) <= tol


def test_gap_broadcasts_alpha_and_points():
    rng = np.random.default_rng(0)
    grad, x, alpha = rng.normal(size=(3, 5, 4)), rng.normal(size=(5, 4)), rng.uniform(0.1, 3, (3, 5))
    out = prox_pl_gap(grad, x, L1(0.5), alpha)
    assert out.shape == (3, 5)
    loop = [[prox_pl_gap(grad[i, j], x[j], L1(0.5), alpha[i, j]) for j in range(5)] for i in range(3)]
    np.testing.assert_array_equal(out, np.array(loop))
    assert prox_pl_gap(grad, x, L1(0.5), 2.0).shape == (3, 5)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="alpha"):
        prox_pl_gap(np.ones(3), np.ones(3), L1(1.0), 0.0)
    with pytest.raises(InvalidParameterError, match="grad"):
        prox_pl_gap(np.ones(2), np.ones(3), L1(1.0), 1.0)
    with pytest.raises(InvalidParameterError, match="domain"):
        prox_pl_gap(np.ones(2), np.full(2, 3.0), Box(-1.0, 1.0), 1.0)
    with pytest.raises(InvalidParameterError, match="gap"):
        largest_prox_pl_mu(np.ones((2, 3)), np.ones((2, 3)), [1.0, -1.0], None)
    with pytest.raises(InvalidParameterError, match="rtol"):
        largest_prox_pl_mu(np.ones((2, 3)), np.ones((2, 3)), 1.0, None, rtol=1e-20)


def _strongly_convex(seed: int):
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(4, 6, 6))
    problem = FederatedQuadratic(M @ np.swapaxes(M, 1, 2) / 6 + 0.1 * np.eye(6), 3 * rng.normal(size=(4, 6)))
    reg = L1(0.5)
    ref = composite_optimum(problem, reg)

    def gap(X):  # F(X) - F* in its Taylor form at x* (no cancellation against F*)
        e = X - ref.x
        quad = 0.5 * np.einsum("...i,ij,...j->...", e, problem.A_mean, e)
        return e @ problem.grad(ref.x) + quad + reg.value(X) - reg.value(ref.x)

    return problem, reg, ref, gap, rng


@pytest.mark.parametrize("seed", [0, 1])
def test_strongly_convex_quadratic_with_l1_is_prox_pl_with_lambda_min(seed):
    problem, reg, ref, gap, rng = _strongly_convex(seed)
    X = ref.x + 10.0 ** rng.uniform(-3, 3, (500, 1)) * rng.normal(size=(500, 6))
    mu = problem.mu
    assert np.all(mu * gap(X) <= prox_pl_gap(problem.grad(X), X, reg, mu) / 2 * (1 + 1e-9))
    flat = np.linalg.eigh(problem.A_mean)[1][:, 0]  # along it the inequality is an equality
    x = ref.x + 0.01 * flat
    assert mu * gap(x) == pytest.approx(prox_pl_gap(problem.grad(x), x, reg, mu) / 2, rel=1e-8)


def test_largest_mu_satisfies_the_inequality_and_is_tight_at_its_point():
    problem, reg, ref, gap, rng = _strongly_convex(2)
    X = ref.x + 10.0 ** rng.uniform(-2, 2, (200, 1)) * rng.normal(size=(200, 6))
    est = largest_prox_pl_mu(X, problem.grad(X), gap(X), reg)
    assert est.mu_max.shape == (200,) and est.mu == est.mu_max.min() and np.array_equal(est.point, X[est.index])
    assert est.mu >= problem.mu * (1 - 1e-9)  # the instance's constant is at least lambda_min
    assert np.all(est.mu * gap(X) <= prox_pl_gap(problem.grad(X), X, reg, est.mu) / 2)
    up, x = est.mu * (1 + 1e-9), X[est.index]
    assert up * gap(x) > prox_pl_gap(problem.grad(x), x, reg, up) / 2
    each = est.mu_max * (1 + 1e-9)
    assert np.all(each * gap(X) > prox_pl_gap(problem.grad(X), X, reg, each) / 2)


@given(x=arrays(np.float64, (6, 3), elements=st.floats(-5, 5)))
def test_largest_mu_without_regularizer_is_the_pl_ratio(x):
    """g = 0: mu_max(x) = ||grad f(x)||^2 / (2 (f(x) - f*)) for f = x'Ax/2 (a minimiser x = 0 allows every mu)."""
    A = np.diag([1.0, 2.0, 5.0])
    grad, gap = x @ A, 0.5 * np.einsum("ni,ij,nj->n", x, A, x)
    est = largest_prox_pl_mu(x, grad, gap, None)
    moving = gap > 1e-200
    ratio = np.sum(grad**2, axis=-1)[moving] / (2 * gap[moving])
    np.testing.assert_allclose(est.mu_max[moving], ratio, rtol=1e-11)
    assert np.all(np.isinf(est.mu_max[gap == 0]))
    assert est.mu >= 1.0 * (1 - 1e-11)


def test_a_point_that_allows_no_mu_reports_zero():
    """A stationary point above F* (a saddle of a non-convex f): grad f = 0 and g = 0 give D_g = 0 for every mu."""
    est = largest_prox_pl_mu(np.zeros((1, 2)), np.zeros((1, 2)), [1.0], None)
    assert est.mu == 0.0 and est.mu_max[0] == 0.0
