import itertools

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rounding import EPS, UNIT_ROUNDOFF, gamma, svd_error

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import Lasso, LeastSquares
from fedtheory.problems.solution_sets import AffineSolutionSet, LassoSolutionSet
from fedtheory.sharpness import (
    empirical_sharpness,
    least_squares_sharpness,
    normal_directions,
    ray_rounding,
    residual_norm_sharpness,
    sharpness_scan,
)


def design(seed: int, m: int, n: int, rank: int) -> np.ndarray:
    """Gaussian ``m x n`` matrix of rank ``min(rank, m, n)``."""
    rng = np.random.default_rng(seed)
    k = min(rank, m, n)
    return rng.standard_normal((m, k)) @ rng.standard_normal((k, n))


designs = st.builds(design, st.integers(0, 10_000), st.integers(1, 7), st.integers(1, 7), st.integers(1, 7))
# The examples design(4214, 6, 6, 7) and design(7517, 2, 5, 7) below are the worst-conditioned among ~30000 draws of
# that strategy (kappa(U) = 2.5e5 and 2.3e5): every build runs them, whatever Hypothesis draws.


def ray_ratio_bounds(U, v, base, directions, radii, value, *, ord=2, power=1, floor=None):
    """Bounds ``lo(s) <= rho_kappa(s) / (value^power s^(power - kappa)/c) <= hi(s)``, valid for every float64 build,
    for the scan of ``h = ||U x - v||_ord^power / c`` (``v`` consistent, ``h* = 0``) along the rays
    ``base_j + s d_j`` (the unit ``d_j`` exactly as the scan normalises them; ray 0 is the one expected to attain
    the minimum, giving ``hi``; ``lo`` is the minimum over all rays, as the scan's ``rho`` is).

    The rounding of each ray is :func:`fedtheory.sharpness.ray_rounding` (Higham's componentwise bounds; ``floor`` is
    a lower bound on every ``||U d_j||`` known from the mathematics, e.g. ``sigma_r - svd_error`` for normals in
    ``row(U)``); ``gamma_{m+12}`` covers the norm, ``/c``, the powers ``s^kappa`` (< 1 ulp), the divisions and the
    reference's own few flops.
    """
    m = np.shape(U)[0]
    spread, a_lo, a_hi = ray_rounding(U, v, base, directions, radii, ord, floor=floor)
    g = gamma(m + 12)
    lo = (a_lo / value * np.maximum(1 - spread, 0)) ** power * (1 - g)
    hi = (a_hi[0] / value * (1 + spread[:, 0])) ** power * (1 + g)
    return lo.min(axis=1), hi


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


def ls_value_error(U, v, N, y) -> np.ndarray:
    """Bound on ``|fl(h(y)) - h(y)|`` for ``h = ls_value(U, v, N)``, a posteriori: the residual is computed to
    ``e = ||gamma_{n+1} (|U||y| + |v|)||`` (Higham eq. (3.5)), the squares, their sum and ``/2N`` to ``gamma_{m+2}``."""
    m, n = U.shape
    r = np.linalg.norm(y @ U.T - v, axis=-1)
    e = np.linalg.norm(gamma(n + 1) * (np.abs(y) @ np.abs(U).T + np.abs(v)), axis=-1)
    return (2 * r * e + e**2 + gamma(m + 2) * (r + e) ** 2) / (2 * N)


@example(U=design(4214, 6, 6, 7), N=3, seed=1)
@example(U=design(7517, 2, 5, 7), N=7, seed=2)
@given(U=designs, N=st.integers(1, 9), seed=st.integers(0, 10_000))
def test_least_squares_constants_are_the_extreme_positive_curvatures_and_sandwich_h(U, N, seed):
    # alpha_2 = lambda_min^+(H)/2 and beta = lambda_max(H)/2 with H = U'U/N (eigenvalues, not the SVD used inside)
    ls = least_squares_sharpness(U, N)
    (m, n), E = U.shape, svd_error(U)
    eig = np.linalg.eigvalsh(U.T @ U / N)
    # forming U'U/N costs gamma_{m+1} |U|'|U| (<= ||U||_F^2), eigvalsh n^2 eps ||H|| (Householder tridiagonalisation's
    # backward error, Weyl): zero eigenvalues stay below e_gram, and lambda_min^+ = sigma_r^2/N is resolved only to
    # e_gram, i.e. relative ~ (m + n^2) eps kappa(U)^2
    e_gram = gamma(m + 1) * np.linalg.norm(U, "fro") ** 2 / N + n * n * EPS * np.max(np.abs(eig))
    positive = eig[eig > e_gram]

    def tol(sigma):  # sigma^2/(2N) from the SVD (sigma within E, Weyl) against an eigenvalue of H within e_gram
        return (e_gram + (2 * sigma * E + E**2) / N) / 2 + gamma(3) * sigma**2 / (2 * N)

    assert ls.alpha == pytest.approx(positive[0] / 2, rel=0, abs=tol(ls.singular_values[-1]))
    assert ls.beta == pytest.approx(positive[-1] / 2, rel=0, abs=tol(ls.singular_values[0]))
    # sandwich at random points, inconsistent v allowed (h* = (1/(2N)) ||(I - U U^+) v||^2)
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(U.shape[0])
    sol = AffineSolutionSet(U, v)
    h = ls_value(U, v, N)
    y = rng.standard_normal((20, U.shape[1])) * 3
    p = sol.particular
    gap = h(y) - h(p)
    dist = sol.distance(y)
    # exact: alpha dist^2 <= h(y) - h* <= beta dist^2, with equality when rank(U) = 1. Rounding: h (ls_value_error);
    # p = U^+ v off by dp (Higham Thm 20.1, SVD solve with backward error E: eps_A kappa = E/sigma_r); the computed
    # row(U) off by the angle E/sigma_r (Wedin); the dot products of dist to gamma_{n+1}
    sigma_r, r_star = ls.singular_values[-1], np.linalg.norm(p @ U.T - v)
    dp = 2 * E / sigma_r * (np.linalg.norm(p) + r_star / sigma_r) / (1 - E / sigma_r)
    e_dist = dp + np.linalg.norm(y - p, axis=-1) * E / sigma_r
    e_dist += gamma(n + 2) * np.linalg.norm(np.abs(y - p) @ np.abs(sol.row_basis), axis=-1)
    e_gap = ls_value_error(U, v, N, y) + ls_value_error(U, v, N, p) + UNIT_ROUNDOFF * np.abs(gap)

    def scale(c):  # |c fl(dist)^2 - c dist^2| and the gap's own error
        return e_gap + c * (2 * dist * e_dist + e_dist**2 + gamma(3) * dist**2)

    assert np.all(ls.alpha * dist**2 <= gap + scale(ls.alpha))
    assert np.all(gap <= ls.beta * dist**2 + scale(ls.beta))
    # the attaining direction: equality at y = p + s v_r, where h(y) - h(p) = s^2 ||U v_r||^2/(2N) + s <U v_r, r(p)>/N,
    # ||U v_r|| = sigma_r up to E (backward-stable SVD) and |<U v_r, r(p)>| <= ||U v_r|| sigma_1 dp (r* is normal to
    # range(U)); along is rounded to u |along|
    s = 0.7
    along = p + s * ls.direction
    a = sigma_r + E + gamma(n) * np.linalg.norm(np.abs(U) @ np.abs(ls.direction))
    sigma_1 = ls.singular_values[0]
    exact = s**2 * (a**2 - sigma_r**2) / (2 * N) + s * a * sigma_1 * (dp + UNIT_ROUNDOFF * np.linalg.norm(along)) / N
    e_along = exact + ls_value_error(U, v, N, along) + ls_value_error(U, v, N, p) + gamma(4) * ls.alpha * s**2
    assert h(along) - h(p) == pytest.approx(ls.alpha * s**2, rel=0, abs=e_along)


def test_least_squares_admissible_alpha_per_kappa_with_reasons(ls_instance):
    U, _, N, _ = ls_instance
    ls = least_squares_sharpness(U, N)
    assert np.array_equal(ls.sup_alpha([1.0, 1.5, 2.0, 3.0]), [0.0, 0.0, ls.alpha, 0.0])
    assert "dist -> 0" in ls.reason(1.0) and "dist -> inf" in ls.reason(3.0) and "v_r" in ls.reason(2.0)
    # two backward-stable SVDs (jobz 'A' inside, 'N' here): sigma_r agrees to 2 svd_error (Weyl), ~2 n eps kappa
    # sigma_r; ||U v_r|| = sigma_r(U + E) +- ||E|| for LAPACK's v_r, then gamma_{n+1} (product), gamma_{m+2} (norm)
    sigma, E = np.linalg.svd(U, compute_uv=False), svd_error(U)
    tol = (4 * sigma[-1] * E + 4 * E**2) / (2 * N) + gamma(4) * ls.alpha
    assert ls.alpha == pytest.approx(sigma[-1] ** 2 / (2 * N), rel=0, abs=tol)
    e_norm = 2 * E + gamma(51) * np.linalg.norm(np.abs(U) @ np.abs(ls.direction)) + gamma(32) * sigma[-1]
    assert np.linalg.norm(U @ ls.direction) == pytest.approx(sigma[-1], rel=0, abs=e_norm)


def test_scan_recovers_alpha_2_exactly_when_v_r_is_sampled(ls_instance):
    U, v, N, sol = ls_instance
    ls = least_squares_sharpness(U, N)
    rng = np.random.default_rng(1)
    normals = np.vstack([ls.direction, normal_directions(sol, rng, 49)])
    x0 = rng.standard_normal(50)
    scan = sharpness_scan(ls_value(U, v, N), 0.0, sol.project, x0, normals=normals)
    k2 = list(scan.kappas).index(2.0)
    # Exactly, rho_kappa(s) = alpha_2 s^(2 - kappa) on the v_r ray and more on the others; in float64 the small radii
    # carry the rounding of h near X* (relative delta/(s sigma_r), ~1e-8 at s = 1e-6, of either sign depending on
    # the BLAS build), bounded per radius by ray_ratio_bounds (rays and base point exactly as the scan builds them)
    sigma_r = ls.singular_values[-1]
    directions = normals / np.linalg.norm(normals, axis=-1)[:, None]
    base = sol.project(np.atleast_2d(x0))
    lo, hi = ray_ratio_bounds(
        U, v, base, directions, scan.radii, sigma_r, power=2, floor=sigma_r - svd_error(U)
    )  # floor: ||U d|| >= sigma_r on row(U) (Weyl: the computed sigma_r is within svd_error)
    assert lo.min() * ls.alpha <= scan.alpha_hat[k2] <= hi.min() * ls.alpha  # [1 - 3e-6, 1 + 4e-13] here
    # the witness is the v_r ray, d = v_r/fl||v_r||: |d - v_r| <= |v_r| (|1 - ||v_r||| + 2 gamma_{n+2})
    tol = np.max(np.abs(ls.direction)) * (abs(1 - np.linalg.norm(ls.direction)) + 2 * gamma(52))
    assert scan.witnesses[k2]["direction"] == pytest.approx(list(ls.direction), rel=0, abs=tol)
    for k, kappa in enumerate(scan.kappas):
        ref = ls.ray_ratio(kappa, scan.radii)
        assert np.all(lo * ref <= scan.rho[k]) and np.all(scan.rho[k] <= hi * ref)
    assert scan.verdict == ("too small", "too small", "admissible", "too large")
    # slope over the first decade: |slope - (2 - kappa)| <= (|log rho/ref| at both ends + rounding of the logs)/log 10
    r, rho = scan.radii, scan.rho
    i = max(1, int(np.searchsorted(r, 10 * r[0], side="right")) - 1)
    span = np.log(r[i] / r[0])
    dev = np.maximum(-np.log(lo), np.log(hi))
    logs = np.abs(np.log(rho[:, 0])) + np.abs(np.log(rho[:, i])) + np.abs(2 - scan.kappas) * span
    assert np.all(np.abs(scan.slope_small - (2 - scan.kappas)) <= (dev[0] + dev[i] + gamma(4) * logs) / span)
    table = scan.summary()
    assert "too small" in table and "too large" in table and "50 rays" in table


def test_scan_without_v_r_only_bounds_alpha_2_from_above(ls_instance):
    U, v, N, sol = ls_instance
    ls = least_squares_sharpness(U, N)
    rng = np.random.default_rng(2)
    points = sol.project(rng.standard_normal((30, 50))) + normal_directions(sol, rng, 30)
    scan = sharpness_scan(ls_value(U, v, N), 0.0, sol.project, points, kappas=2.0, radii=[1e-2, 1.0, 1e2])
    # every exact ratio is >= alpha_2 (x - Pi x leaves row(U) only by rounding, which enters squared); the rounding of
    # h is bounded by ray_ratio_bounds, with floor sigma_r - svd_error (Weyl), about 1e-10 at s = 1e-2
    base = sol.project(points)
    delta = points - base
    directions = delta / np.linalg.norm(delta, axis=-1)[:, None]
    sigma_r = ls.singular_values[-1]
    lo, _ = ray_ratio_bounds(U, v, base, directions, scan.radii, sigma_r, power=2, floor=sigma_r - svd_error(U))
    assert scan.alpha_hat[0] >= ls.alpha * min(1.0, lo.min())
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


@example(U=design(4214, 6, 6, 7), seed=1)
@example(U=design(7517, 2, 5, 7), seed=2)
@given(U=designs, seed=st.integers(0, 10_000))
def test_residual_l2_norm_is_sharp_of_order_one_with_alpha_sigma_r(U, seed):
    rng = np.random.default_rng(seed)
    v = U @ rng.standard_normal(U.shape[1])  # consistent: h* = 0
    sol = AffineSolutionSet(U, v)
    result = residual_norm_sharpness(U, 2)
    assert result.exact and result.kappa == 1.0
    # two LAPACK paths (jobz 'A' inside, 'N' here) for sigma_r: each within svd_error of the exact value (Weyl), i.e.
    # relative m n eps kappa(U); kappa reaches ~1e5 among these designs
    sigma = np.linalg.svd(U, compute_uv=False)
    assert result.alpha == pytest.approx(sigma[sol.rank - 1], rel=0, abs=2 * svd_error(U))
    normals = np.vstack([result.direction, normal_directions(sol, rng, 10)])

    def h(x):
        return np.linalg.norm(x @ U.T - v, axis=-1)

    x0 = rng.standard_normal(U.shape[1])
    radii = np.logspace(-3, 3, 13)
    scan = sharpness_scan(h, 0.0, sol.project, x0, radii=radii, normals=normals)
    # rounding of h near X*: relative delta/(s sigma_r), ~1e-9 at s = 1e-3 for kappa ~ 1e5 (ray_ratio_bounds)
    base = sol.project(np.atleast_2d(x0))
    directions = normals / np.linalg.norm(normals, axis=-1)[:, None]
    lo, hi = ray_ratio_bounds(U, v, base, directions, radii, result.alpha, floor=result.alpha - svd_error(U))
    assert lo.min() * result.alpha <= scan.alpha_hat[0] <= hi.min() * result.alpha
    assert scan.verdict[0] == "admissible"
    assert scan.verdict[1:] == ("too large",) * 3


def l1_rounding(U, V, d) -> np.ndarray:
    """``gamma_{m+n+r} || |U| |V| |V' d| ||_1`` per row of ``d``: bounds the rounding of ``||U V c||_1`` (``c = V'd``)
    however the product is associated (``U (V c)`` or ``(U V) c``), in any summation order (Higham eq. (3.5))."""
    (m, n), r = U.shape, V.shape[1]
    return gamma(m + n + r) * np.sum((np.abs(np.atleast_2d(d)) @ np.abs(V)) @ np.abs(V).T @ np.abs(U).T, axis=-1)


@settings(max_examples=30)
@example(U=design(4214, 6, 6, 7), seed=1)
@example(U=design(7517, 2, 5, 7), seed=2)
@given(U=designs, seed=st.integers(0, 10_000))
def test_residual_l1_norm_alpha_is_certified_and_attained(U, seed):
    result = residual_norm_sharpness(U, 1)
    sol = AffineSolutionSet(U, np.zeros(U.shape[0]))
    V = sol.row_basis
    slack = l1_rounding(U, V, result.direction)[0]
    assert result.exact and result.alpha == result.alpha_upper
    # alpha >= ||U d||_2 >= sigma_r (equality at m = 1): up to svd_error (Weyl) and the rounding of ||U V c||_1
    assert result.alpha >= result.sigma_r - svd_error(U) - slack
    # ||V c|| = 1 up to the orthonormality of LAPACK's V and the norm: a few n eps (not kappa-dependent)
    assert np.linalg.norm(result.direction) == pytest.approx(1.0, rel=1e-12)
    assert np.allclose(sol.project(result.direction), 0, atol=1e-10)  # a normal: lies in row(U)
    # the same ||U V c||_1, associated differently: within twice the rounding bound
    assert np.sum(np.abs(U @ result.direction)) == pytest.approx(result.alpha, rel=0, abs=2 * slack)
    # exact ||U d||_1 >= alpha* for unit d in row(U); the computed alpha exceeds alpha* by at most slack plus
    # sum_i ||b_i|| |c - c*|, where c is LAPACK's null vector of the r - 1 rows B_Z of B = U V vanishing at the
    # minimiser: |c - c*| <= svd_error(B_Z)/sigma_{r-1}(B_Z) (Wedin's sin-theta bound)
    B, r = U @ V, V.shape[1]
    Z = np.argsort(np.abs(B @ (V.T @ result.direction)))[: r - 1]
    gap = np.linalg.svd(B[Z], compute_uv=False)[-1] if r > 1 else np.inf
    null_error = np.sum(np.linalg.norm(B, axis=1)) * svd_error(B[Z]) / gap if r > 1 else 0.0
    d = normal_directions(sol, np.random.default_rng(seed), 2000)
    floor = result.alpha - slack - null_error - l1_rounding(U, V, d)
    assert np.all(np.sum(np.abs(d @ U.T), axis=-1) >= floor)


def test_residual_l1_norm_full_row_rank_closed_form():
    # r = m: the candidates are U^+ e_i, so alpha = 1 / max_i ||U^+ e_i||
    U = np.random.default_rng(4).standard_normal((5, 8))
    result = residual_norm_sharpness(U, 1)
    # U^+ (Wedin: ||dU^+|| <= sqrt2 ||U^+||^2 ||E||, ||E|| <= svd_error) and the enumeration's null vectors of
    # r - 1 rows of B = U V (interlacing: kappa(B_Z) <= kappa(U), so ||B dc||_1 <= sqrt(m) sigma_1 svd_error/sigma_r)
    # are each off by ~ svd_error kappa(U): relative 2 sqrt(m) svd_error sigma_1/sigma_r^2 covers both
    sigma = np.linalg.svd(U, compute_uv=False)
    rel = 2 * np.sqrt(5) * svd_error(U) * sigma[0] / sigma[-1] ** 2
    assert result.alpha == pytest.approx(1 / np.max(np.linalg.norm(np.linalg.pinv(U), axis=0)), rel=rel)
    # the scan of spec V2 (d) with the attaining direction among 50 normals finds it
    rng = np.random.default_rng(5)
    v = U @ rng.standard_normal(8)
    sol = AffineSolutionSet(U, v)
    normals = np.vstack([result.direction, normal_directions(sol, rng, 49)])

    def h(x):
        return np.sum(np.abs(x @ U.T - v), axis=-1)

    x0 = rng.standard_normal(8)
    scan = sharpness_scan(h, 0.0, sol.project, x0, normals=normals)
    # rounding of h near X* (ray_ratio_bounds, l1): ~1e-9 at s = 1e-6; the others' ||U d||_1 exceed alpha
    base = sol.project(np.atleast_2d(x0))
    directions = normals / np.linalg.norm(normals, axis=-1)[:, None]
    lo, hi = ray_ratio_bounds(U, v, base, directions, scan.radii, result.alpha, ord=1)
    assert lo.min() * result.alpha <= scan.alpha_hat[0] <= hi.min() * result.alpha
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


def lasso_value_error(A, b, lam, x) -> float:
    """Bound on the rounding of ``h(x) = ||A x - b||^2/(2m) + lam ||x||_1`` in either form (residual, or the expanded
    quadratic ``x'A'A x/(2m) - b'A x/m + b'b/(2m)``): ``gamma_{2n+m+4}`` times the sum of the absolute terms."""
    m, n = A.shape
    return gamma(2 * n + m + 4) * (np.sum((np.abs(A) @ np.abs(x) + np.abs(b)) ** 2) / m + lam * np.sum(np.abs(x)))


def lasso_distance_bound(S, x, excess: float) -> float:
    """``||x - xhat||`` for the unique LASSO minimiser (``A_E`` of full column rank) from ``h(x) - h* <= excess``.

    Exactly, ``h(x) - h* = ||A x - yhat||^2/(2m) + lam sum_j (|x_j| - c_j x_j)`` with ``c = A'theta/lam``
    (``|c_j| <= 1 - margin`` off ``E``, ``c_j = s_j`` up to the equicorrelation residual on ``E``). So
    ``||x_{E^c}||_1 <= e/(lam margin)`` and ``||A x - yhat|| <= sqrt(2 m e)`` with ``e`` the excess plus
    ``lam res ||x||_1``, and ``||x_E - xhat_E|| <= (sqrt(2 m e) + ||A_{E^c}|| ||x_{E^c}||_1)/sigma_min(A_E)``.
    """
    cert, E = S.certificate, S.equicorrelation
    e = excess + S.lam * cert["equicorrelation_residual"] * np.sum(np.abs(x))
    off = e / (S.lam * cert["equicorrelation_margin"])
    rest = np.delete(S.A, E, axis=1)
    sigma_min = np.linalg.svd(S.A[:, E], compute_uv=False)[-1]
    return off + (np.sqrt(2 * S.A.shape[0] * e) + np.linalg.norm(rest, 2) * off) / sigma_min


def test_lasso_certificate_and_agreement_with_the_lasso_reference(lasso_unique):
    S = lasso_unique
    cert = S.certificate
    m, n = S.A.shape
    # the certificates composite_optimum accepts (gap_tol 1e-8 relative, kkt_tol 1e-9 relative; the solver's route may
    # differ between builds) and the ones LassoSolutionSet itself refuses to exceed (tol = 1e-9)
    assert 0 <= cert["duality_gap"] <= 1e-8 * max(1.0, S.h_star)
    assert 0 <= cert["kkt_residual"] <= 1e-9 * max(1.0, np.linalg.norm(S.xhat))
    for key in ("equicorrelation_residual", "dual_infeasibility"):
        assert 0 <= cert[key] <= S.tol, key
    # h(xhat) - D(theta) is exactly 0 at the KKT point of E: what is left is the rounding of the two evaluations
    # (lasso_value_error; the dual b'theta - m theta'theta/2 costs no more) and lam ||xhat||_1 times the KKT residuals
    slack = 2 * lasso_value_error(S.A, S.b, S.lam, S.xhat)
    slack += S.lam * np.sum(np.abs(S.xhat)) * (cert["equicorrelation_residual"] + cert["dual_infeasibility"])
    assert abs(cert["lasso_duality_gap"]) <= slack and cert["equicorrelation_margin"] > 0
    ref = Lasso(LeastSquares(S.A, S.b), S.lam).solve()
    # both values are within their own duality gaps above h* (and the dual values below it), up to rounding
    e_ref = lasso_value_error(S.A, S.b, S.lam, ref.x)
    excess = ref.certificate["lasso_duality_gap"] + abs(cert["lasso_duality_gap"]) + slack + 2 * e_ref
    assert S.h_star == pytest.approx(ref.value, rel=0, abs=excess)
    assert np.linalg.norm(S.xhat - ref.x) <= lasso_distance_bound(S, ref.x, excess)
    # ||xhat||_1 = s'xhat_E = theta'A_E xhat_E/lam = theta'yhat/lam: equal up to the equicorrelation residual, the
    # fit shift ||A xhat - yhat|| and the rounding of the two sums
    shift = np.linalg.norm(S.A @ S.xhat - S.fit)
    l1 = np.sum(np.abs(S.xhat))
    rounding = gamma(m + n) * (np.abs(S.dual) @ (np.abs(S.A) @ np.abs(S.xhat) + np.abs(S.fit))) / S.lam
    tol = cert["equicorrelation_residual"] * l1 + np.linalg.norm(S.dual) * shift / S.lam + rounding
    assert S.l1_radius == pytest.approx(l1, rel=0, abs=tol)
    # xhat = A_E^+ yhat with yhat in range(A_E): A xhat = yhat up to the SVD solve (kappa(A_E) svd_error relative) and
    # the product (gamma_n)
    AE = S.A[:, S.equicorrelation]
    sigma = np.linalg.svd(AE, compute_uv=False)
    atol = 2 * svd_error(AE) / sigma[-1] * np.linalg.norm(S.fit) + gamma(n) * np.abs(S.A) @ np.abs(S.xhat)
    assert np.all(np.abs(S.fit - S.A @ S.xhat) <= atol)
    x = np.random.default_rng(9).standard_normal((5, 20))
    assert np.array_equal(S.project(x), np.broadcast_to(S.xhat, x.shape))  # generic A: X* = {xhat}


def test_lasso_projection_is_feasible_idempotent_and_normal(lasso_segment):
    S = lasso_segment
    rng = np.random.default_rng(10)
    x = S.xhat + 2 * rng.standard_normal((12, S.dim))
    z, residual = S.project_certified(x)
    # X* is a segment (null(A_E) has dimension 1): the polished projection is a few flops per entry on |x| <= 10, so
    # its KKT residual is a few gamma_16 |x| ~ 1e-14 at most (1e-15 here) on any build, and h(z) = h* to the same
    # rounding (h* ~ 0.14); the library itself would accept up to tol max(1, ||x||) = 1e-8
    assert np.all(residual <= 1e-12)
    assert np.ptp(z, axis=0).max() > 1e-2  # X* is not a point
    assert np.all(S.contains(z)) and not np.any(S.contains(x))
    assert np.allclose(S.value(z), S.h_star, rtol=1e-12, atol=1e-14)
    assert np.allclose(S.project(z), z, atol=1e-12)
    # variational inequality <x - Pi x, y - Pi x> <= 0 for every y in X* (here the other projections); exactly <= 0,
    # rounding ~ gamma_16 |x - z| |z| ~ 1e-14
    vi = np.einsum("id,ijd->ij", x - z, z[None] - z[:, None])
    assert np.max(vi) <= 1e-10
    assert np.allclose(S.distance(x), np.linalg.norm(x - z, axis=-1), rtol=1e-12)  # the same projection: ~n eps
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
