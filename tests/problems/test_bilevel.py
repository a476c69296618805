"""Tests of fedtheory.problems.bilevel: the str-fedavg engines of spec 1.5 (W-1, W-2, W-5, W-6), the outer
smoothings of spec 2.3 and the instance library (spec 4, 5), with the property tests of spec section 7."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rounding import gamma
from scipy.optimize import linprog

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import (
    FederatedQuadratic,
    HuberL1,
    InnerLeastSquares,
    L1Norm,
    LogSumPenalty,
    LSPEnvelope,
    ResidualNorm,
    SquaredDistance,
    bilevel_optimum,
    drift_instance,
    exact_regularization_threshold,
    heterogeneous_regression,
    ls_instance,
    residual_norm_instance,
    residual_norm_tikhonov,
    tikhonov_gap,
    tikhonov_path,
    tikhonov_point,
    tikhonov_reference,
    tikhonov_value,
)


def design(seed: int, m: int, n: int, rank: int) -> np.ndarray:
    """Gaussian ``m x n`` matrix of rank ``min(rank, m, n)`` (rank-deficient ones included)."""
    rng = np.random.default_rng(seed)
    k = min(rank, m, n)
    return rng.standard_normal((m, k)) @ rng.standard_normal((k, n))


designs = st.builds(design, st.integers(0, 10_000), st.integers(2, 9), st.integers(1, 8), st.integers(1, 8))


def inner_from(U, seed: int, N: int = 2, consistent: bool = False) -> InnerLeastSquares:
    rng = np.random.default_rng(seed)
    v = U @ rng.standard_normal(U.shape[1]) if consistent else rng.standard_normal(U.shape[0])
    return InnerLeastSquares.split(U, v, min(N, U.shape[0]))


def row_space_residual(inner, g) -> float:
    """``||(I - U^+ U) g||`` computed with numpy's pinv (not the solution set's SVD)."""
    P = np.linalg.pinv(inner.U) @ inner.U
    return float(np.linalg.norm(g - P @ g))


# --- affine projection (spec 7) ---------------------------------------------------------------------------------


@given(U=designs, seed=st.integers(0, 10_000))
def test_affine_projection_properties(U, seed):
    inner = inner_from(U, seed)
    sol = inner.solution_set
    rng = np.random.default_rng(seed + 1)
    x, y = 3 * rng.standard_normal((2, 10, U.shape[1]))
    p, q = sol.project(x), sol.project(y)
    pinv = np.linalg.pinv(U)
    scale = 1e-9 * max(1.0, np.abs(x).max()) * max(1.0, np.linalg.norm(U, 2)) ** 2
    # Pi(x) = x - U^+(U x - v) (independent pinv) and idempotence
    np.testing.assert_allclose(p, x - (x @ U.T - inner.v) @ pinv.T, atol=scale)
    np.testing.assert_allclose(sol.project(p), p, atol=scale)
    # feasibility U Pi(x) = U U^+ v; normality (I - U^+ U)(x - Pi x) = 0
    np.testing.assert_allclose(p @ U.T, np.broadcast_to(U @ pinv @ inner.v, (10, U.shape[0])), atol=scale * 10)
    np.testing.assert_allclose((x - p) - (x - p) @ (pinv @ U).T, 0, atol=scale)
    # nonexpansive; orthogonality against any z in X*; dist = ||U^+ U x - U^+ v||
    assert np.all(np.linalg.norm(p - q, axis=-1) <= np.linalg.norm(x - y, axis=-1) + scale)
    z = sol.particular + rng.standard_normal((10, sol.null_basis.shape[1])) @ sol.null_basis.T
    assert np.all(np.abs(np.sum((x - p) * (z - p), axis=-1)) <= scale * 100)
    np.testing.assert_allclose(sol.distance(x), np.linalg.norm(x @ (pinv @ U).T - pinv @ inner.v, axis=-1), atol=scale)


# --- W-1: inner least squares -----------------------------------------------------------------------------------


def test_inner_least_squares_matches_its_client_blocks():
    rng = np.random.default_rng(0)
    U_blocks = [rng.standard_normal((m, 7)) for m in (1, 3, 2)]
    v_blocks = [rng.standard_normal(m) for m in (1, 3, 2)]
    h = InnerLeastSquares(U_blocks, v_blocks)
    y = rng.standard_normal((4, 3, 7))
    clients = np.stack([0.5 * np.sum((y[:, 0] @ u.T - w) ** 2, axis=-1) for u, w in zip(U_blocks, v_blocks)], -1)
    assert h.n_clients == h.N == 3 and list(h.sizes) == [1, 3, 2]
    np.testing.assert_allclose(h.value(y[:, 0]), np.sum((y[:, 0] @ h.U.T - h.v) ** 2, axis=-1) / 6, rtol=1e-12)
    np.testing.assert_allclose(h.value(y[:, 0]), FederatedQuadratic.value(h, y[:, 0]), rtol=1e-10)
    np.testing.assert_allclose(h.value(y[:, 0]), np.mean(clients, axis=-1), rtol=1e-12)  # (1/N) sum_i h_i
    grads = np.stack([(y[:, i] @ u.T - w) @ u for i, (u, w) in enumerate(zip(U_blocks, v_blocks))], axis=1)
    np.testing.assert_allclose(h.client_grad(y), grads, atol=1e-12)
    np.testing.assert_allclose(h.client_L, [np.linalg.eigvalsh(u.T @ u)[-1] for u in U_blocks], rtol=1e-12)
    assert h.L == h.L_h == pytest.approx(max(h.client_L)) and h.mu == 0.0  # m = 6 < n = 7
    np.testing.assert_allclose(h.hessian, h.U.T @ h.U / 3, atol=1e-14)
    np.testing.assert_allclose(h.x_star, np.linalg.pinv(h.U) @ h.v, atol=1e-10)
    residual = h.U @ np.linalg.lstsq(h.U, h.v, rcond=None)[0] - h.v
    assert h.h_star == pytest.approx(residual @ residual / 6, rel=1e-9, abs=1e-14)


def test_inner_least_squares_mu_is_positive_for_full_column_rank():
    rng = np.random.default_rng(1)
    h = InnerLeastSquares.split(rng.standard_normal((9, 3)), rng.standard_normal(9), 3)
    assert h.mu == pytest.approx(np.linalg.eigvalsh(h.hessian)[0], rel=1e-10)
    assert h.h_star > 0  # 9 generic equations in 3 unknowns are inconsistent


@given(U=designs, N=st.integers(1, 4), seed=st.integers(0, 10_000), consistent=st.booleans())
def test_weak_sharpness_sandwich_w1(U, N, seed, consistent):
    # alpha_2 dist^2 <= h - h* <= beta_2 dist^2 (spec W-1, 7), h - h* from the values (not inner_gap)
    h = inner_from(U, seed, N, consistent)
    rng = np.random.default_rng(seed)
    y = 3 * rng.standard_normal((20, U.shape[1]))
    gap = h.value(y) - h.h_star
    dist2 = h.solution_set.distance(y) ** 2
    tol = 1e-9 * max(1.0, float(np.max(h.value(y))))
    np.testing.assert_allclose(h.inner_gap(y), gap, atol=tol)
    assert np.all(h.alpha_2 * dist2 <= gap + tol) and np.all(gap <= h.beta_2 * dist2 + tol)
    eig = np.linalg.eigvalsh(h.hessian)
    positive = eig[eig > 1e-9 * eig[-1]]
    assert h.alpha_2 == pytest.approx(positive[0] / 2, rel=1e-6)
    assert h.beta_2 == pytest.approx(positive[-1] / 2, rel=1e-9)
    # attained along the right singular vector of sigma_r
    s = rng.uniform(0.1, 3.0)
    base = h.solution_set.project(y[0])
    point = base + s * h.solution_set.row_basis[:, -1]
    assert h.value(point) - h.h_star == pytest.approx(h.alpha_2 * s**2, rel=1e-6, abs=tol)


def test_row_sampling_is_unbiased_with_the_exact_variance():
    rng = np.random.default_rng(2)
    h = InnerLeastSquares([rng.standard_normal((m, 4)) for m in (2, 3, 1)], [rng.standard_normal(m) for m in (2, 3, 1)])
    x = rng.standard_normal((3, 4))
    # exact enumeration of one uniform row per client
    m_max = h.sizes.max()
    idx = np.minimum(np.arange(m_max)[:, None], h.sizes - 1)[..., None]  # (m_max, N, 1)
    weights = (np.arange(m_max)[:, None] < h.sizes) / h.sizes  # (m_max, N)
    g = h.sample_grad(np.broadcast_to(x, (m_max, 3, 4)), idx)
    mean = np.sum(weights[..., None] * g, axis=0)
    np.testing.assert_allclose(mean, h.client_grad(x), atol=1e-12)
    var = np.sum(weights * np.sum((g - mean) ** 2, axis=-1), axis=0)
    np.testing.assert_allclose(h.row_variance(x), var, rtol=1e-10)
    # the oracle: uniform draws, vectorised over replicas; sample mean within 5 standard errors
    oracle = h.rows()
    S = 40_000
    draws = oracle(np.broadcast_to(x, (S, 3, 4)), np.random.default_rng(3))
    se = np.sqrt(oracle.variance(x) / S)
    err = np.linalg.norm(draws.mean(axis=0) - h.client_grad(x), axis=-1)
    assert np.all(err <= 5 * se + 1e-9 * np.linalg.norm(h.client_grad(x), axis=-1))  # rounding only when m_i = 1
    rows = h.draw_rows(np.random.default_rng(4), (1000,))
    assert rows.shape == (1000, 3, 1) and np.all(rows[..., 0] < h.sizes) and np.all(rows >= 0)
    assert {int(r) for r in rows[:, 1, 0]} == {0, 1, 2}


# --- W-2: residual norms ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2])
def test_residual_norm_is_sharp_of_order_one(p):
    inst = residual_norm_instance(np.random.default_rng(5), p=p)
    h = inst.inner
    assert not h.smooth and h.L == np.inf and h.h_star == 0.0 and "Assumption 1" in h.violates
    rng = np.random.default_rng(6)
    x, y = 2 * rng.standard_normal((2, 200, h.dim))
    np.testing.assert_allclose(h.value(x), np.linalg.norm(x @ h.U.T - h.v, ord=p, axis=-1), rtol=1e-12)
    np.testing.assert_allclose(h.inner_gap(x), h.value(x), rtol=1e-9)
    # subgradient inequality and h - h* >= alpha dist
    g = h.subgradient(x)
    assert np.all(h.value(y) >= h.value(x) + np.sum(g * (y - x), axis=-1) - 1e-9)
    assert np.all(h.value(x) >= h.alpha * h.solution_set.distance(x) * (1 - 1e-9))
    exact = h.sharpness()
    if p == 2:
        assert h.alpha_exact and h.alpha == pytest.approx(exact.alpha, rel=1e-12)
        d = h.solution_set.row_basis[:, -1]
        assert h.value(h.x_star + 0.7 * d) == pytest.approx(0.7 * h.alpha, rel=1e-9)
    else:
        assert not h.alpha_exact and h.alpha <= exact.alpha * (1 + 1e-12)


# --- spec 2.3 / 7: Huber and LSP ------------------------------------------------------------------------------

vectors = st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=6).map(np.array)


@given(x=vectors, y_seed=st.integers(0, 1000), mu=st.floats(0.01, 2.0))
def test_huber_envelope_properties(x, y_seed, mu):
    f = HuberL1(mu, dim=x.size)
    y = np.random.default_rng(y_seed).uniform(-5, 5, x.size)
    p = f.prox(x)
    # prox = argmin_y ||y||_1 + ||y - x||^2/(2 mu): no grid point does better (componentwise)
    grid = np.linspace(-6, 6, 4001)[:, None]
    objective = np.abs(grid) + (grid - x) ** 2 / (2 * mu)
    assert np.all(np.abs(p) + (p - x) ** 2 / (2 * mu) <= objective.min(axis=0) + 1e-12)
    # Moreau decomposition, envelope value and gradient
    np.testing.assert_allclose(x, p + mu * np.clip(x / mu, -1, 1), atol=1e-12)
    np.testing.assert_allclose(f.value(x), np.sum(np.abs(p)) + np.sum((x - p) ** 2) / (2 * mu), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(f.grad(x), (x - p) / mu, atol=1e-12)
    # firm nonexpansiveness, oddness, bounds, 1/mu-Lipschitz gradient
    q = f.prox(y)
    assert np.sum((p - q) ** 2) <= np.sum((p - q) * (x - y)) + 1e-12
    np.testing.assert_allclose(f.prox(-x), -p)
    assert -1e-12 <= np.sum(np.abs(x)) - f.value(x) <= x.size * mu / 2 + 1e-12
    assert np.linalg.norm(f.grad(x) - f.grad(y)) <= np.linalg.norm(x - y) / mu * (1 + 1e-12) + 1e-12
    assert f.L == pytest.approx(1 / mu) and f.mu == 0 and f.inf_value == 0


def test_huber_gradient_matches_finite_differences_and_the_cvxpy_scaling():
    mu = 0.3
    f = HuberL1(mu, dim=7)
    x = np.array([-2.0, -0.31, -0.1, 0.0, 0.05, 0.29, 1.5])
    step = 1e-6
    fd = (f.value(x + step * np.eye(7)) - f.value(x - step * np.eye(7))) / (2 * step)
    np.testing.assert_allclose(fd, f.grad(x), atol=1e-8)
    cvx = np.array([cp.huber(t, mu).value for t in x]) / (2 * mu)  # H_mu(t) = cvx_huber(t, mu)/(2 mu)
    assert f.value(x) == pytest.approx(cvx.sum(), rel=1e-12)
    np.testing.assert_allclose(f.client_grad(np.stack([x, -x])), np.stack([f.grad(x), f.grad(-x)]))


regime = st.tuples(st.floats(0.05, 2.0), st.floats(0.02, 1.0)).map(lambda t: (t[0], t[1] * t[0] ** 2))


@given(eps_mu=regime, x=vectors)
def test_printed_lsp_prox_is_the_bruteforce_prox_in_the_printed_regime(eps_mu, x):
    eps, mu = eps_mu
    lsp = LogSumPenalty(eps, dim=x.size)
    p = lsp.prox(x, mu)
    np.testing.assert_allclose(p, lsp.prox_bruteforce(x, mu), atol=1e-6 * max(1.0, np.abs(x).max()))
    np.testing.assert_allclose(lsp.prox(-x, mu), -p)
    assert np.all(np.abs(p) <= np.abs(x) + 1e-15) and np.all(np.sign(p) * np.sign(x) >= 0)
    np.testing.assert_array_equal(p == 0, np.abs(x) <= mu / eps)
    ordered = np.sort(x)
    assert np.all(np.diff(lsp.prox(ordered, mu)) >= -1e-12)  # monotone nondecreasing


def test_lsp_outside_the_printed_regime_needs_allow_outside_and_differs_from_the_prox():
    lsp = LogSumPenalty(0.5, dim=1)
    x = np.linspace(-3, 3, 601)[:, None]
    with pytest.raises(InvalidParameterError, match="printed regime"):
        lsp.prox(x, 0.5)
    outside = lsp.prox(x, 0.5, allow_outside=True)
    assert np.max(np.abs(outside - lsp.prox_bruteforce(x, 0.5))) > 0.1  # the formula is not the prox there
    with pytest.raises(InvalidParameterError, match="mu <= eps"):
        LSPEnvelope(0.5, 0.5, dim=1)


@pytest.mark.parametrize(("eps", "mu"), [(0.5, 0.2), (0.5, 0.05)])
def test_lsp_envelope_value_gradient_and_smoothness_bound(eps, mu):
    env = LSPEnvelope(eps, mu, dim=1)
    lsp = env.lsp
    x = np.linspace(-3, 3, 241)[:, None]
    x = x[np.abs(np.abs(x[:, 0]) - mu / eps) > 1e-3]  # away from the kink |x| = mu/eps
    # value: min_y LSP(y) + (y - x)^2/(2 mu) at the brute-force minimiser
    y = lsp.prox_bruteforce(x, mu)
    np.testing.assert_allclose(env.value(x), lsp.value(y) + np.sum((x - y) ** 2, axis=-1) / (2 * mu), atol=1e-9)
    step = 1e-6
    fd = (env.value(x + step) - env.value(x - step)) / (2 * step)
    np.testing.assert_allclose(fd, env.grad(x)[:, 0], atol=1e-6)
    # L = max{1/mu, rho/(1 - mu rho)} bounds every slope of the gradient, and is approached
    fine = np.linspace(-3, 3, 600_001)[:, None]
    slopes = np.diff(env.grad(fine)[:, 0]) / np.diff(fine[:, 0])
    assert np.max(np.abs(slopes)) <= env.L * (1 + 1e-9)
    assert np.max(np.abs(slopes)) >= 0.99 * env.L
    rho = 1 / eps**2
    assert env.L == pytest.approx(max(1 / mu, rho / (1 - mu * rho))) and env.mu < 0 and env.inf_value == 0


def test_outer_functions_broadcast_over_clients():
    x0 = np.array([1.0, -2.0, 0.5])
    for f in (SquaredDistance(x0, 2.0), HuberL1(0.1, dim=3), LSPEnvelope(0.5, 0.2, dim=3), L1Norm(dim=3)):
        x = np.random.default_rng(7).standard_normal((5, 4, 3))
        assert f.n_clients is None
        np.testing.assert_allclose(f.client_grad(x), f.grad(x))
        assert f.value(f.x_star) == pytest.approx(f.inf_value, abs=1e-15)
    sq = SquaredDistance(x0, 2.0)
    assert sq.L == sq.mu == 2.0 and sq.value(x0 + 1) == pytest.approx(3.0)


# --- W-5: bilevel optimum -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ls():
    return ls_instance(12, 20, 3, np.random.default_rng(8))


def _quadratic_outer(n: int) -> FederatedQuadratic:
    rng = np.random.default_rng(9)
    B = rng.standard_normal((3, n, n))
    return FederatedQuadratic(B @ np.swapaxes(B, 1, 2) / n + 0.1 * np.eye(n), rng.standard_normal((3, n)))


def test_bilevel_optimum_quadratic_outers_closed_form_vs_cvxpy(ls):
    h = ls.inner
    sol = h.solution_set
    x0 = np.random.default_rng(10).standard_normal(20)
    ref = bilevel_optimum(h, SquaredDistance(x0, 3.0))
    np.testing.assert_allclose(ref.x_star, sol.project(x0), atol=1e-12)
    assert ref.f_star == pytest.approx(1.5 * sol.distance(x0) ** 2, rel=1e-10) and ref.M == ref.f_star
    min_norm = bilevel_optimum(h, SquaredDistance(np.zeros(20))).x_star
    np.testing.assert_allclose(min_norm, np.linalg.pinv(h.U) @ h.v, atol=1e-10)
    f = _quadratic_outer(20)
    ref = bilevel_optimum(h, f)
    x = cp.Variable(20)
    problem = cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, cp.psd_wrap(f.A_mean)) - f.b_mean @ x), [h.U @ x == h.v])
    problem.solve(solver="CLARABEL")
    # what Clarabel's point certifies: f is mu_f-strongly convex (mu_f >= 0.1), so ||z - x*||^2 <= 2 (f(z) - f*)/mu_f
    # for z = Pi(x) in X*, and f* = f(ref.x_star) up to rounding (gamma_{2n+4} of f's absolute terms)
    z = sol.project(x.value)

    def rounding(y):
        terms = np.abs(y) @ np.abs(f.A_mean) @ np.abs(y) / 2 + np.abs(f.b_mean) @ np.abs(y) + abs(f.c.mean())
        return gamma(44) * terms

    excess = f.value(z) - ref.f_star + rounding(z) + rounding(ref.x_star)
    assert np.linalg.norm(ref.x_star - x.value) <= np.linalg.norm(x.value - z) + np.sqrt(2 * max(excess, 0) / f.mu)
    # bilevel optimality: grad f(x*) in row(U); x* in X*; M = f* - inf f
    assert row_space_residual(h, f.grad(ref.x_star)) <= 1e-10 * max(1.0, ref.grad_norm)
    assert sol.distance(ref.x_star) <= 1e-12 and ref.certificate["solver"] == "closed form"
    assert ref.M == pytest.approx(ref.f_star - f.value(f.x_star), rel=1e-9)
    assert ref.h_star == h.h_star and ref.g is None
    z = sol.project(ref.x_star + np.random.default_rng(11).standard_normal((50, 20)))
    assert np.all(f.value(z) >= ref.f_star - 1e-12)


def test_bilevel_optimum_huber_is_certified_and_stationary(ls):
    h = ls.inner
    f = HuberL1(0.05, dim=20)
    ref = bilevel_optimum(h, f)
    # the certificate bilevel_optimum guarantees (it raises above tol max(1, |f*|), tol = 1e-8)
    gap = ref.certificate["duality_gap"]
    assert gap <= 1e-8 * max(1.0, ref.f_star) and ref.certificate["solver"] == "CLARABEL"
    assert row_space_residual(h, f.grad(ref.x_star)) <= 1e-9
    assert h.solution_set.distance(ref.x_star) <= 1e-12
    x = cp.Variable(20)  # the unreduced equality-constrained form, solved independently
    cp.Problem(cp.Minimize(cp.sum(cp.huber(x, 0.05)) / 0.1), [h.U @ x == h.v]).solve(solver="CLARABEL")
    # f is sqrt(20)-Lipschitz (|H_mu'| <= 1): f(x) >= f(Pi x) - sqrt(20) dist(x, X*) >= f* - ... >= f*_ref - gap - ...
    # (x may violate U x = v by Clarabel's feasibility tolerance); the rounding of f is gamma_24 of its terms
    slack = gap + np.sqrt(20) * h.solution_set.distance(x.value) + gamma(24) * (f.value(x.value) + ref.f_star)
    assert f.value(x.value) >= ref.f_star - slack and ref.f_star == pytest.approx(f.value(x.value), abs=1e-6)
    assert ref.grad_norm == pytest.approx(np.linalg.norm(f.grad(ref.x_star))) and ref.M == ref.f_star


def test_basis_pursuit_with_dual_certificate(ls):
    h = ls.inner
    ref = bilevel_optimum(h, "l1")
    assert ref.grad_norm is None and ref.certificate["in_subdifferential"]
    g, x = ref.g, ref.x_star
    assert row_space_residual(h, g) <= 1e-10 and np.max(np.abs(g)) <= 1 + 1e-12
    np.testing.assert_allclose(g[x != 0], np.sign(x[x != 0]), atol=1e-9)
    n = 20  # scipy HiGHS on x = a - b, a, b >= 0
    res = linprog(np.ones(2 * n), A_eq=np.hstack([h.U, -h.U]), b_eq=h.v, bounds=(0, None), method="highs")
    assert ref.f_star == pytest.approx(res.fun, rel=1e-8)
    assert ref.f_star <= np.sum(np.abs(ls.x_true)) + 1e-9  # x_true is feasible
    np.testing.assert_allclose(bilevel_optimum(h, L1Norm(dim=20)).x_star, x, atol=1e-12)


# --- Tikhonov points (spec 1.1, W-2, W-5, W-6) -------------------------------------------------------------------


def test_tikhonov_closed_forms_agree_with_the_linear_solve_and_are_monotone(ls):
    h = ls.inner
    etas = np.logspace(-4, 1, 12)
    path = tikhonov_path(h, 0.5, etas)
    x = tikhonov_point(h, SquaredDistance(np.zeros(20), 0.5), etas)
    for k, eta in enumerate(etas):  # one independent dense solve per eta
        direct = np.linalg.solve(h.U.T @ h.U / h.N + 0.5 * eta * np.eye(20), h.U.T @ h.v / h.N)
        np.testing.assert_allclose(x[k], direct, atol=1e-9)
    np.testing.assert_allclose(path.x_eta, x, atol=1e-10)
    np.testing.assert_allclose(path.inner_gap, h.value(x) - h.h_star, rtol=1e-7, atol=1e-15)
    np.testing.assert_allclose(path.distance, h.solution_set.distance(x), rtol=1e-9)
    np.testing.assert_allclose(path.offset, x - h.x_star, atol=1e-10)
    # classical monotonicity as eta decreases; ||x_eta|| <= ||x*||
    gap, norm = h.inner_gap(x), np.linalg.norm(x, axis=-1)
    assert np.all(np.diff(gap) >= -1e-15) and np.all(np.diff(norm) <= 1e-12)
    assert np.all(norm <= np.linalg.norm(h.x_star) + 1e-12)


def test_tikhonov_for_a_heterogeneous_quadratic_outer(ls):
    h, f = ls.inner, _quadratic_outer(20)
    etas = np.array([1e-3, 0.1, 2.0])
    ref = tikhonov_reference(h, f, etas)
    grad = h.grad(ref.x) + etas[:, None] * f.grad(ref.x)
    assert np.max(np.linalg.norm(grad, axis=-1)) <= 1e-10
    np.testing.assert_allclose(tikhonov_value(h, f, etas), h.value(ref.x) + etas * f.value(ref.x), rtol=1e-12)
    y = ref.x + 0.1 * np.random.default_rng(12).standard_normal((3, 20))
    direct = h.value(y) + etas * f.value(y) - ref.value
    np.testing.assert_allclose(tikhonov_gap(h, f, etas, y), direct, rtol=1e-7)
    assert np.all(direct > 0)
    # as eta -> 0 the Tikhonov point approaches the bilevel solution
    bil = bilevel_optimum(h, f).x_star
    dist = np.linalg.norm(tikhonov_point(h, f, np.array([1e-2, 1e-4, 1e-6])) - bil, axis=-1)
    assert np.all(np.diff(dist) < 0) and dist[-1] < 1e-3


def test_tikhonov_huber_is_certified(ls):
    h, f = ls.inner, HuberL1(0.05, dim=20)
    etas = np.array([0.01, 0.3])
    ref = tikhonov_reference(h, f, etas)
    grad = (ref.x @ h.U.T - h.v) @ h.U / h.N + etas[:, None] * f.grad(ref.x)
    assert np.max(np.linalg.norm(grad, axis=-1)) <= 1e-9
    assert np.all(ref.certificate["duality_gap"] <= 1e-9) and ref.certificate["solver"] == "CLARABEL"
    np.testing.assert_allclose(ref.x_solver, ref.x, atol=1e-4)
    assert np.all(ref.value <= h.value(ref.x_solver) + etas * f.value(ref.x_solver) + 1e-12)


# --- W-2: exact regularization -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_eta_crit_against_the_socp_on_both_sides(seed):
    inst = residual_norm_instance(np.random.default_rng(seed))
    U, v, x0 = inst.inner.U, inst.inner.v, inst.x0
    crit = exact_regularization_threshold(U, v, x0)
    x_star = x0 - np.linalg.pinv(U) @ (U @ x0 - v)
    assert crit == pytest.approx(1 / np.linalg.norm(np.linalg.pinv(U).T @ (x0 - x_star)), rel=1e-10)
    # the printed Case iii condition eta <= sigma_r/(2 ||x* - x0||) lies inside the exact-regularization range
    assert inst.inner.alpha / (2 * np.linalg.norm(x_star - x0)) <= crit
    for factor in (0.5, 0.95):
        ref = residual_norm_tikhonov(U, v, x0, factor * crit)
        assert np.linalg.norm(ref.x_solver - x_star) <= 1e-6 and ref.certificate["exact_regularization"]
    for factor in (1.1, 2.0):
        ref = residual_norm_tikhonov(U, v, x0, factor * crit)
        assert np.linalg.norm(ref.x_solver - x_star) >= 0.1 and inst.inner.value(ref.x_solver) >= 1e-2
        assert not ref.certificate["exact_regularization"] and ref.certificate["distance_bound"] <= 1e-10
        np.testing.assert_allclose(ref.x_solver, ref.x, atol=1e-3)
    via = tikhonov_reference(inst.inner, SquaredDistance(x0, 2.0), np.array([0.25 * crit, crit]))
    np.testing.assert_allclose(via.x[0], x_star, atol=1e-10)  # eta mu = 0.5 eta_crit
    assert not via.certificate["exact_regularization"][1]  # eta mu = 2 eta_crit


# --- instances (spec 4, 5) ---------------------------------------------------------------------------------------


def test_instance_recipes():
    a = ls_instance(12, 20, 3, np.random.default_rng(13))
    b = ls_instance(12, 20, 3, np.random.default_rng(13))
    np.testing.assert_array_equal(a.inner.U, b.inner.U)
    assert np.count_nonzero(a.x_true) == 5 and list(a.inner.sizes) == [4, 4, 4] and a.inner.h_star < 1e-25
    np.testing.assert_allclose(a.inner.v, a.inner.U @ a.x_true)
    d = drift_instance(np.random.default_rng(14))
    assert d.inner.U.shape == (8, 6) and list(d.inner.sizes) == [2] * 4 and d.eta == 0.3 and d.K == 10
    assert d.gamma_l == (0.05, 0.02, 0.01, 0.005) and d.outer.mu == 1.0 and not d.outer.x0.any()
    r = residual_norm_instance(np.random.default_rng(15), p=1)
    assert r.inner.U.shape == (5, 8) and r.inner.p == 1 and r.outer.x0 is not None
    hr = heterogeneous_regression(np.random.default_rng(16))
    h = hr.inner
    assert h.U.shape == (73, 100) and sorted(set(h.sizes)) == [7, 8] and h.N == 10
    lam = np.linalg.eigvalsh(h.hessian)[-1]
    assert lam <= 1 + 1e-12 and h.L_h <= 5 + 1e-12
    assert max(lam, h.L_h / 5) == pytest.approx(1.0, rel=1e-10)  # the binding constraint holds with equality
    assert h.solution_set.rank == 73 and h.h_star < 1e-25 and np.count_nonzero(hr.x_true) == 5
    shrunk = heterogeneous_regression(np.random.default_rng(16), row_scale=0.5)
    assert shrunk.scale == pytest.approx(hr.scale / 2) and shrunk.inner.L_h == pytest.approx(h.L_h / 4)


# --- bad input -----------------------------------------------------------------------------------------------------


def test_bad_input_is_rejected(ls):
    rng = np.random.default_rng(17)
    h = ls.inner
    cases = [
        (lambda: InnerLeastSquares([np.ones((2, 3))], [np.ones(3)]), "v_blocks"),
        (lambda: InnerLeastSquares([np.ones((2, 3)), np.ones((2, 4))], [np.ones(2)] * 2), "U_blocks"),
        (lambda: InnerLeastSquares(np.ones((2, 3)), np.ones(2)), "U_blocks"),
        (lambda: InnerLeastSquares.split(np.ones((2, 3)), np.ones(2), 3), "N"),
        (lambda: ResidualNorm(np.ones((2, 3)), np.ones(2), p=3), "p"),
        (lambda: ResidualNorm(np.ones((2, 3)), np.array([1.0, 2.0])), "v"),
        (lambda: HuberL1(0.0, dim=3), "mu"),
        (lambda: LogSumPenalty(-1.0, dim=3), "eps"),
        (lambda: bilevel_optimum(h, LSPEnvelope(0.5, 0.2, dim=20)), "outer"),
        (lambda: bilevel_optimum(h, HuberL1(0.1, dim=3)), "outer"),
        (lambda: bilevel_optimum(h, "l2"), "outer"),
        (lambda: bilevel_optimum(h.solution_set, "l1"), "inner"),
        (lambda: tikhonov_point(h, SquaredDistance(np.zeros(20)), np.array([0.1, 0.0])), "eta"),
        (lambda: tikhonov_point(h, "l1", 0.1), "outer"),
        (lambda: tikhonov_path(h, 1.0, np.ones((2, 2))), "etas"),
        (lambda: h.sample_grad(np.zeros((3, 20)), np.full((3, 1), 4)), "idx"),
        (lambda: ls_instance(12, 20, 3, 0), "rng"),
        (lambda: ls_instance(12, 4, 3, rng, sparsity=5), "sparsity"),
        (lambda: heterogeneous_regression(rng, m=5, N=10), "N"),
        (lambda: exact_regularization_threshold(np.ones((2, 3)), np.ones(2), np.ones(4)), "x0"),
    ]
    for call, name in cases:
        with pytest.raises(InvalidParameterError, match=f"invalid {name}"):
            call()
