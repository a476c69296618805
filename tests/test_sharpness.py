import itertools

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import Lasso, LeastSquares
from fedtheory.problems.solution_sets import AffineSolutionSet, LassoSolutionSet
from fedtheory.sharpness import (
    empirical_sharpness,
    least_squares_sharpness,
    normal_directions,
    residual_norm_sharpness,
    sharpness_scan,
)


def design(seed: int, m: int, n: int, rank: int) -> np.ndarray:
    """Gaussian ``m x n`` matrix of rank ``min(rank, m, n)``."""
    rng = np.random.default_rng(seed)
    k = min(rank, m, n)
    return rng.standard_normal((m, k)) @ rng.standard_normal((k, n))


designs = st.builds(design, st.integers(0, 10_000), st.integers(1, 7), st.integers(1, 7), st.integers(1, 7))


# --- least squares (spec W-1, V1) -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def ls_instance():
    """LS(30, 50, 5) of spec V1: consistent v, so h* = 0."""
    rng = np.random.default_rng(0)
    U = rng.standard_normal((30, 50))
    v = U @ rng.standard_normal(50)
    return U, v, 5, AffineSolutionSet(U, v)


def ls_value(U, v, N):
    return lambda y: np.sum((y @ U.T - v) ** 2, axis=-1) / (2 * N)


@given(U=designs, N=st.integers(1, 9), seed=st.integers(0, 10_000))
def test_least_squares_constants_are_the_extreme_positive_curvatures_and_sandwich_h(U, N, seed):
    # alpha_2 = lambda_min^+(H)/2 and beta = lambda_max(H)/2 with H = U'U/N (eigenvalues, not the SVD used inside)
    ls = least_squares_sharpness(U, N)
    eig = np.linalg.eigvalsh(U.T @ U / N)
    positive = eig[eig > 1e-9 * eig[-1]]
    assert ls.alpha == pytest.approx(positive[0] / 2, rel=1e-7)
    assert ls.beta == pytest.approx(positive[-1] / 2, rel=1e-9)
    # sandwich at random points, inconsistent v allowed (h* = (1/(2N)) ||(I - U U^+) v||^2)
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(U.shape[0])
    sol = AffineSolutionSet(U, v)
    h = ls_value(U, v, N)
    y = rng.standard_normal((20, U.shape[1])) * 3
    gap = h(y) - h(sol.particular)
    dist = sol.distance(y)
    scale = 1e-9 * (1 + h(y))
    assert np.all(ls.alpha * dist**2 <= gap + scale)
    assert np.all(gap <= ls.beta * dist**2 + scale)
    # the attaining direction: equality at y = Pi(y0) + s v_r
    s = 0.7
    along = sol.particular + s * ls.direction
    assert h(along) - h(sol.particular) == pytest.approx(ls.alpha * s**2, rel=1e-9, abs=1e-12)


def test_least_squares_admissible_alpha_per_kappa_with_reasons(ls_instance):
    U, _, N, _ = ls_instance
    ls = least_squares_sharpness(U, N)
    assert np.array_equal(ls.sup_alpha([1.0, 1.5, 2.0, 3.0]), [0.0, 0.0, ls.alpha, 0.0])
    assert "dist -> 0" in ls.reason(1.0) and "dist -> inf" in ls.reason(3.0) and "v_r" in ls.reason(2.0)
    sigma = np.linalg.svd(U, compute_uv=False)
    assert ls.alpha == pytest.approx(sigma[-1] ** 2 / (2 * N), rel=1e-12)
    assert np.linalg.norm(U @ ls.direction) == pytest.approx(sigma[-1], rel=1e-12)


def test_scan_recovers_alpha_2_exactly_when_v_r_is_sampled(ls_instance):
    U, v, N, sol = ls_instance
    ls = least_squares_sharpness(U, N)
    rng = np.random.default_rng(1)
    normals = np.vstack([ls.direction, normal_directions(sol, rng, 49)])
    scan = sharpness_scan(ls_value(U, v, N), 0.0, sol.project, rng.standard_normal(50), normals=normals)
    k2 = list(scan.kappas).index(2.0)
    assert scan.alpha_hat[k2] == pytest.approx(ls.alpha, rel=1e-9)
    assert scan.witnesses[k2]["direction"] == pytest.approx(list(ls.direction), abs=1e-12)
    # rho_kappa(s) = alpha_2 s^(2 - kappa) at every radius (rounding of h at s = 1e-6 is ~1e-9 relative)
    for k, kappa in enumerate(scan.kappas):
        assert np.allclose(scan.rho[k], ls.ray_ratio(kappa, scan.radii), rtol=1e-8, atol=0)
    assert scan.verdict == ("too small", "too small", "admissible", "too large")
    assert scan.slope_small == pytest.approx([1.0, 0.5, 0.0, -1.0], abs=1e-6)
    table = scan.summary()
    assert "too small" in table and "too large" in table and "50 rays" in table


def test_scan_without_v_r_only_bounds_alpha_2_from_above(ls_instance):
    U, v, N, sol = ls_instance
    ls = least_squares_sharpness(U, N)
    rng = np.random.default_rng(2)
    points = sol.project(rng.standard_normal((30, 50))) + normal_directions(sol, rng, 30)
    scan = sharpness_scan(ls_value(U, v, N), 0.0, sol.project, points, kappas=2.0, radii=[1e-2, 1.0, 1e2])
    assert scan.alpha_hat[0] >= ls.alpha * (1 - 1e-9)
    assert scan.alpha_hat[0] <= ls.beta


def test_empirical_sharpness_is_the_minimum_ratio_with_its_witness(ls_instance):
    U, v, N, sol = ls_instance
    h = ls_value(U, v, N)
    points = np.random.default_rng(3).standard_normal((40, 50))
    result = empirical_sharpness(h, 0.0, sol.distance, points, 2.0)
    ratios = h(points) / sol.distance(points) ** 2
    assert result.alpha_hat == ratios.min() and result.index == int(np.argmin(ratios))
    assert np.array_equal(result.point, points[result.index])
    assert result.alpha_hat >= least_squares_sharpness(U, N).alpha


# --- residual norms, kappa = 1 (spec W-2, V2 (c), (d)) ---------------------------------------------------


@given(U=designs, seed=st.integers(0, 10_000))
def test_residual_l2_norm_is_sharp_of_order_one_with_alpha_sigma_r(U, seed):
    rng = np.random.default_rng(seed)
    v = U @ rng.standard_normal(U.shape[1])  # consistent: h* = 0
    sol = AffineSolutionSet(U, v)
    result = residual_norm_sharpness(U, 2)
    assert result.exact and result.kappa == 1.0
    assert result.alpha == pytest.approx(np.linalg.svd(U, compute_uv=False)[sol.rank - 1], rel=1e-12)
    normals = np.vstack([result.direction, normal_directions(sol, rng, 10)])

    def h(x):
        return np.linalg.norm(x @ U.T - v, axis=-1)

    scan = sharpness_scan(
        h, 0.0, sol.project, rng.standard_normal(U.shape[1]), radii=np.logspace(-3, 3, 13), normals=normals
    )
    assert scan.alpha_hat[0] == pytest.approx(result.alpha, rel=1e-9)
    assert scan.verdict[0] == "admissible"
    assert scan.verdict[1:] == ("too large",) * 3


@settings(max_examples=30)
@given(U=designs, seed=st.integers(0, 10_000))
def test_residual_l1_norm_alpha_is_certified_and_attained(U, seed):
    result = residual_norm_sharpness(U, 1)
    sol = AffineSolutionSet(U, np.zeros(U.shape[0]))
    assert result.exact and result.alpha == result.alpha_upper
    assert result.alpha >= result.sigma_r * (1 - 1e-12)
    assert np.linalg.norm(result.direction) == pytest.approx(1.0, rel=1e-12)
    assert np.allclose(sol.project(result.direction), 0, atol=1e-10)  # a normal: lies in row(U)
    assert np.sum(np.abs(U @ result.direction)) == pytest.approx(result.alpha, rel=1e-12)
    d = normal_directions(sol, np.random.default_rng(seed), 2000)
    assert np.all(np.sum(np.abs(d @ U.T), axis=-1) >= result.alpha * (1 - 1e-10))


def test_residual_l1_norm_full_row_rank_closed_form():
    # r = m: the candidates are U^+ e_i, so alpha = 1 / max_i ||U^+ e_i||
    U = np.random.default_rng(4).standard_normal((5, 8))
    result = residual_norm_sharpness(U, 1)
    assert result.alpha == pytest.approx(1 / np.max(np.linalg.norm(np.linalg.pinv(U), axis=0)), rel=1e-12)
    # the scan of spec V2 (d) with the attaining direction among 50 normals finds it
    rng = np.random.default_rng(5)
    v = U @ rng.standard_normal(8)
    sol = AffineSolutionSet(U, v)
    normals = np.vstack([result.direction, normal_directions(sol, rng, 49)])

    def h(x):
        return np.sum(np.abs(x @ U.T - v), axis=-1)

    scan = sharpness_scan(h, 0.0, sol.project, rng.standard_normal(8), normals=normals)
    assert scan.alpha_hat[0] == pytest.approx(result.alpha, rel=1e-9)
    assert scan.verdict == ("admissible", "too large", "too large", "too large")


def test_residual_l1_norm_rank_two_matches_a_dense_angle_grid():
    U = design(5, 7, 5, 2)
    result = residual_norm_sharpness(U, 1)
    basis = AffineSolutionSet(U, np.zeros(7)).row_basis
    B = U @ basis
    theta = np.linspace(0, np.pi, 200_001)
    grid = np.min(np.sum(np.abs(np.stack([np.cos(theta), np.sin(theta)], 1) @ B.T), axis=1))
    lipschitz = np.sum(np.linalg.norm(B, axis=1))  # of theta -> ||B (cos, sin)||_1
    assert result.alpha <= grid <= result.alpha + lipschitz * (theta[1] - theta[0]) / 2


def test_residual_l1_norm_falls_back_to_bounds_beyond_max_subsets():
    U = np.random.default_rng(6).standard_normal((12, 8))  # binom(12, 7) = 792 subsets
    exact = residual_norm_sharpness(U, 1)
    bounds = residual_norm_sharpness(U, 1, max_subsets=50, rng=np.random.default_rng(0))
    assert exact.exact and not bounds.exact and "not certified" in bounds.method
    assert bounds.alpha == bounds.sigma_r <= exact.alpha <= bounds.alpha_upper
    assert len(list(itertools.combinations(range(12), 7))) == 792 > 50


# --- LASSO solution set (spec W-3) -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def lasso_unique():
    rng = np.random.default_rng(7)
    A, b = rng.standard_normal((10, 20)), rng.standard_normal(10)
    return LassoSolutionSet(A, b, 0.1)


@pytest.fixture(scope="module")
def lasso_segment():
    """Repeated columns: the minimiser is not unique (X* has dimension >= 1)."""
    rng = np.random.default_rng(8)
    A, b = rng.standard_normal((10, 12)), rng.standard_normal(10)
    return LassoSolutionSet(np.hstack([A, A[:, :4]]), b, 0.05)


def test_lasso_certificate_and_agreement_with_the_lasso_reference(lasso_unique):
    S = lasso_unique
    cert = S.certificate
    for key in ("duality_gap", "kkt_residual", "equicorrelation_residual", "dual_infeasibility"):
        assert 0 <= cert[key] <= 1e-9, key
    assert abs(cert["lasso_duality_gap"]) <= 1e-12 and cert["equicorrelation_margin"] > 0
    ref = Lasso(LeastSquares(S.A, S.b), S.lam).solve()
    assert np.allclose(S.xhat, ref.x, atol=1e-6) and S.h_star == pytest.approx(ref.value, rel=1e-8)
    assert S.l1_radius == pytest.approx(np.sum(np.abs(S.xhat)), rel=1e-12)
    assert np.allclose(S.fit, S.A @ S.xhat, atol=1e-12)
    x = np.random.default_rng(9).standard_normal((5, 20))
    assert np.array_equal(S.project(x), np.broadcast_to(S.xhat, x.shape))  # generic A: X* = {xhat}


def test_lasso_projection_is_feasible_idempotent_and_normal(lasso_segment):
    S = lasso_segment
    rng = np.random.default_rng(10)
    x = S.xhat + 2 * rng.standard_normal((12, S.dim))
    z, residual = S.project_certified(x)
    assert np.all(residual <= 1e-12)
    assert np.ptp(z, axis=0).max() > 1e-2  # X* is not a point
    assert np.all(S.contains(z)) and not np.any(S.contains(x))
    assert np.allclose(S.value(z), S.h_star, rtol=1e-12, atol=1e-14)
    assert np.allclose(S.project(z), z, atol=1e-12)
    # variational inequality <x - Pi x, y - Pi x> <= 0 for every y in X* (here the other projections)
    vi = np.einsum("id,ijd->ij", x - z, z[None] - z[:, None])
    assert np.max(vi) <= 1e-10
    assert np.allclose(S.distance(x), np.linalg.norm(x - z, axis=-1), rtol=1e-12)
    # cross-check against the W-3 description solved directly (CVXPY, 1e-6 as in spec section 6)
    for point, proj in zip(x[:4], z[:4], strict=True):
        y = cp.Variable(S.dim)
        cons = [S.A @ y == S.fit, cp.norm1(y) <= S.l1_radius * (1 + 1e-10)]
        cp.Problem(cp.Minimize(cp.sum_squares(y - point)), cons).solve(solver="CLARABEL")
        assert np.linalg.norm(y.value - proj) <= 1e-6


def test_lasso_quadratic_growth_at_small_radii(lasso_segment, lasso_unique):
    S = lasso_segment
    x = S.xhat + np.random.default_rng(11).standard_normal((15, S.dim))
    scan = sharpness_scan(S.value, S.h_star, S.project, x, kappas=[1.0, 2.0], radii=np.logspace(-6, -2, 9))
    assert np.all(scan.rho > 0) and scan.alpha_hat[1] > 0
    assert scan.verdict[0] == "admissible"  # random normals leave the support: h grows linearly along them
    # along the support of the unique minimiser the growth is quadratic only: kappa = 1 is too small there
    T = lasso_unique
    support = np.flatnonzero(T.xhat)
    normals = np.eye(T.dim)[support]
    scan = sharpness_scan(
        T.value, T.h_star, T.project, T.xhat, kappas=[1.0, 2.0], radii=np.logspace(-5, -2, 7), normals=normals
    )
    assert scan.verdict == ("too small", "admissible") and scan.alpha_hat[1] > 0
    growth = empirical_sharpness(T.value, T.h_star, T.distance, T.xhat + 1e-3 * normals, 2.0)
    assert growth.alpha_hat > 0


def test_lasso_with_lam_above_lam_max_has_solution_zero():
    rng = np.random.default_rng(12)
    A, b = rng.standard_normal((6, 9)), rng.standard_normal(6)
    lam_max = np.max(np.abs(A.T @ b)) / 6
    S = LassoSolutionSet(A, b, 2 * lam_max)
    assert S.equicorrelation.size == 0 and S.l1_radius == 0 and np.array_equal(S.xhat, np.zeros(9))
    assert S.h_star == pytest.approx(b @ b / 12, rel=1e-14)


# --- bad input -------------------------------------------------------------------------------------------


def test_bad_input_names_the_parameter(ls_instance, lasso_unique):
    U, v, N, sol = ls_instance
    h = ls_value(U, v, N)
    x0 = np.ones(50)
    cases = [
        (lambda: least_squares_sharpness(U, 0), "invalid N"),
        (lambda: least_squares_sharpness(np.zeros((3, 4)), 1), "invalid U"),
        (lambda: least_squares_sharpness(np.ones(4), 1), "invalid U"),
        (lambda: least_squares_sharpness(U, N).sup_alpha(0.5), "invalid kappa"),
        (lambda: residual_norm_sharpness(U, 3), "invalid p"),
        (lambda: residual_norm_sharpness(U, 1, max_subsets=0), "invalid max_subsets"),
        (lambda: sharpness_scan(h, 0.0, sol.project, x0, kappas=[0.5]), "invalid kappas"),
        (lambda: sharpness_scan(h, 0.0, sol.project, x0, radii=[1.0, 0.1]), "invalid radii"),
        (lambda: sharpness_scan(h, 0.0, sol.project, sol.particular), "invalid points"),
        (lambda: sharpness_scan(h, 0.0, sol.project, x0, normals=np.eye(50)[:3]), "invalid normals"),
        (lambda: sharpness_scan(h, 0.0, sol.project, np.ones((2, 50)), normals=np.ones((3, 50))), "invalid normals"),
        (lambda: sharpness_scan(lambda x: h(x).sum(), 0.0, sol.project, x0), "invalid h"),
        (lambda: sharpness_scan(h, np.nan, sol.project, x0), "invalid h_star"),
        (lambda: empirical_sharpness(h, 0.0, sol.distance, sol.particular, 2.0), "invalid points"),
        (lambda: normal_directions(lasso_unique, np.random.default_rng(0), 3), "invalid solution_set"),
        (lambda: normal_directions(sol, np.random.default_rng(0), 0), "invalid count"),
        (lambda: LassoSolutionSet(U, v, 0.0), "invalid lam"),
        (lambda: LassoSolutionSet(U, v[:3], 0.1), "invalid b"),
        (lambda: lasso_unique.project(np.ones(3)), "invalid x"),
    ]
    for call, match in cases:
        with pytest.raises(InvalidParameterError, match=match):
            call()
