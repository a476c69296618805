"""Certified references (`fedtheory.reference`, `fedtheory.conic`): statuses, certificates, routes."""

import cvxpy as cp
import numpy as np
import pytest
from rounding import EPS, LIBM_ULPS, gamma

from fedtheory import reference
from fedtheory.errors import ReferenceSolveError
from fedtheory.problems import Lasso, sparse_regression_data
from fedtheory.reference import solve


def _socp():
    x = cp.Variable(4)
    target = np.array([1.0, -2.0, 0.5, 3.0])
    return cp.Problem(cp.Minimize(cp.norm(x - target, 2) + 0.3 * cp.sum_squares(x)))


def test_infeasible_reference_problem_raises():
    x = cp.Variable(2)
    with pytest.raises(ReferenceSolveError, match="infeasible"):
        solve(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, x <= 0]))


def test_unbounded_reference_problem_raises():
    x = cp.Variable(2)
    with pytest.raises(ReferenceSolveError, match="unbounded"):
        solve(cp.Problem(cp.Minimize(x[0])))


def test_certificate_worse_than_requested_raises():
    x = cp.Variable(3)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(x - 1) + cp.norm1(x)))
    with pytest.raises(ReferenceSolveError, match="not certified by any route") as info:
        solve(problem, gap_tol=0.0, residual_tol=0.0)
    assert str(info.value).count("clarabel") == len(reference.ROUTES)  # every route tried and reported


def test_short_of_optimal_status_is_accepted_only_on_fedtheorys_certificate(monkeypatch):
    """Clarabel stopped by max_iter (AlmostSolved or MaxIterations) on the first route: its point is kept only if the
    certificate recomputed from the problem data is within the caller's tolerance, else the next route runs."""
    problem, exact = _socp(), _socp()
    exact_cert = solve(exact)
    starved = (("clarabel, starved", {**reference.SOLVER_OPTIONS, "max_iter": 3}), *reference.ROUTES[1:])
    monkeypatch.setattr(reference, "ROUTES", starved)
    cert = solve(problem, gap_tol=1e-8)
    assert cert["routes_tried"] == 2 and cert["route"] == reference.ROUTES[1][0] and cert["status"] == "Solved"
    assert abs(problem.value - exact.value) <= 1e-8 * max(1.0, abs(exact.value)) + exact_cert["duality_gap"]
    loose = _socp()
    cert = solve(loose, gap_tol=1.0, residual_tol=1.0)  # a tolerance the starved point meets: accepted as it is
    assert cert["route"] == "clarabel, starved" and cert["status"] in ("AlmostSolved", "MaxIterations")


def test_fedtheory_certificate_matches_clarabels_on_a_solved_problem():
    from fedtheory.conic import kkt_certificate

    problem = _socp()
    data, chain, _ = problem.get_problem_data("CLARABEL")
    raw = chain.solver.solve_via_data(data, False, False, dict(reference.SOLVER_OPTIONS))
    cert = kkt_certificate(data, raw.x, raw.s, raw.z)
    assert cert["cone_distance_exact"]
    # Clarabel's primal and dual objective values differ by the gap we recompute, up to the rounding of the two sums
    # x'P x + q'x + b'z (each term within gamma_{n+m+2} of its absolute value, Higham eq. (3.5)), done twice
    x, z = np.asarray(raw.x), np.asarray(raw.z)
    P = data.get("P")
    quad = 0.0 if P is None else float(np.abs(x) @ (abs(P) @ np.abs(x)))
    terms = quad + np.abs(data["c"]) @ np.abs(x) + np.abs(data["b"]) @ np.abs(z)
    assert abs(cert["duality_gap"] - abs(raw.obj_val - raw.obj_val_dual)) <= 2 * gamma(x.size + z.size + 2) * terms
    assert cert["primal_residual"] <= 1e-8 and cert["dual_residual"] <= 1e-8
    bad = kkt_certificate(data, raw.x, -np.asarray(raw.s), raw.z)  # the slack leaves the cone: the certificate sees it
    assert bad["primal_residual"] > 1e-2


def test_lasso_reference_is_certified_twice():
    ls, _ = sparse_regression_data(np.random.default_rng(0), n_clients=3, n_per_client=10, dim=12, n_nonzero=3)
    ref = Lasso(ls, 0.05).solve()
    assert ref.certificate["duality_gap"] < 1e-8
    assert ref.certificate["lasso_duality_gap"] < 1e-8
    assert ref.certificate["kkt_residual"] < 1e-6
    assert ref.solver.startswith("CLARABEL ")


def test_logistic_optimum_without_clarabel_gives_the_same_certified_point():
    from fedtheory.problems import LogisticRegression, logistic_data
    from fedtheory.reference import logistic_optimum

    data = logistic_data(np.random.default_rng(3), n_clients=1, n_per_client=80, dim=5, l2=1e-2)
    problem = LogisticRegression(data.features[0], data.labels[0], l2=1e-2)
    conic, newton = logistic_optimum(problem), logistic_optimum(problem, clarabel=False)
    assert newton.certificate["gradient_norm"] <= 1e-11 and "not used" in newton.certificate["clarabel"]
    # Both are certified by their gradient norms (<= grad_tol = 1e-11, however each point was found): F is
    # l2-strongly convex, so ||x - x*|| <= ||grad F(x)||/l2 and F(x) - F* <= ||grad F(x)||^2/(2 l2); the computed
    # gradient is off by gamma_{n+d+8} |X|'1/n (the sigmoid weights are <= 1), the values by gamma_{n+8} F plus two
    # elementary functions per term (LIBM_ULPS) and gamma_d |X||x| in the margins (log(1 + e^-z) is 1-Lipschitz)
    X, (n, d) = data.features[0], data.features[0].shape
    g_round = np.linalg.norm(gamma(n + d + 8) * (np.abs(X).sum(axis=0) / n + 1e-2 * np.abs(newton.x)))
    gradients = newton.certificate["gradient_norm"] + conic.certificate["gradient_norm"] + 2 * g_round
    assert np.linalg.norm(newton.x - conic.x) <= gradients / 1e-2
    e_val = (gamma(n + 8) + 2 * LIBM_ULPS * EPS) * newton.value + gamma(d) * np.mean(np.abs(X) @ np.abs(newton.x))
    values = newton.certificate["value_error_bound"] + conic.certificate["value_error_bound"]
    assert abs(newton.value - conic.value) <= values + 2 * e_val


def _sparse_logistic(l2: float):
    from fedtheory.problems import LogisticRegression, logistic_data

    data = logistic_data(np.random.default_rng(5), n_clients=3, n_per_client=40, dim=6, l2=l2)
    return LogisticRegression(data.features, data.labels, l2=l2)


def _step_rounding(problem, x: np.ndarray) -> float:
    """Bound on ``||fl(T(x)) - T(x)||`` for the map ``T(z) = prox_{psi/L}(z - grad F(z)/L)`` of the certificate.

    The logistic gradient is off by ``gamma_{n+d+8}`` of ``|X|'1/n + l2 |x|`` (the sigmoid weights are <= 1), the
    quadratic's by ``gamma_{d+2}`` of ``|A||x| + |b|``; ``z - g/L`` adds two roundings of ``|x| + |g|/L`` and the
    prox (1-Lipschitz) one more of its argument.
    """
    if hasattr(problem, "features"):
        X = problem.features.reshape(-1, problem.dim)
        n, L = X.shape[0], problem.L
        g_err = gamma(n + problem.dim + 8) * (np.abs(X).sum(axis=0) / n + problem.l2 * np.abs(x))
    else:
        A, b = problem.A_mean, problem.b_mean
        L = float(np.linalg.eigvalsh(A)[-1])
        g_err = gamma(problem.dim + 2) * (np.abs(A) @ np.abs(x) + np.abs(b))
    g = problem.grad(x)
    return float(np.linalg.norm(g_err) / L + 3 * EPS * (np.linalg.norm(x) + np.linalg.norm(g) / L))


def test_composite_optimum_without_the_conic_solve_gives_the_same_certified_point():
    """``conic=False`` polishes from ``T(0)`` with no Clarabel solve; both points are certified by the same residual
    ``||x - T(x)||``, and with ``F`` ``mu``-strongly convex ``||x - x*|| <= (L/mu) ||x - T(x)||`` for the exact
    ``T``: the two points lie within the sum of their bounds (computed residuals plus the rounding of ``T``)."""
    from fedtheory.problems import FederatedQuadratic
    from fedtheory.reference import composite_optimum
    from fedtheory.regularizers import L1, Box

    rng = np.random.default_rng(6)
    Q, _ = np.linalg.qr(rng.normal(size=(5, 5)))
    quadratic = FederatedQuadratic(Q @ np.diag([1.0, 0.7, 0.4, 0.2, 0.1]) @ Q.T, rng.normal(size=5))
    logistic = _sparse_logistic(1e-2)
    eig = np.linalg.eigvalsh(quadratic.A_mean)
    for problem, reg, L_over_mu in (
        (logistic, L1(0.02), logistic.L / 1e-2),
        (quadratic, Box(-0.3, 0.4), eig[-1] / eig[0]),
    ):
        conic = composite_optimum(problem, reg)
        plain = composite_optimum(problem, reg, conic=False, polish=5000)
        assert "not used" in plain.certificate["conic"] and "duality_gap" not in plain.certificate
        assert not plain.solver.startswith("CLARABEL") and conic.solver.startswith("CLARABEL ")
        assert plain.certificate["kkt_step"] == conic.certificate["kkt_step"]
        residuals = conic.certificate["kkt_residual"] + plain.certificate["kkt_residual"]
        rounding = _step_rounding(problem, conic.x) + _step_rounding(problem, plain.x)
        assert np.linalg.norm(conic.x - plain.x) <= L_over_mu * (residuals + rounding)
        assert np.array_equal(conic.x == 0, plain.x == 0)  # the same exact zeros of the prox (support identified)


def test_composite_optimum_without_the_conic_solve_reports_a_failed_certificate():
    """The negative control: stopped after 3 accelerated steps from ``T(0)`` (l2 = 1e-4, L/mu in the thousands) the
    residual is above the tolerance and the solve raises; the same instance with the budget certifies."""
    from fedtheory.reference import composite_optimum
    from fedtheory.regularizers import L1

    problem = _sparse_logistic(1e-4)
    with pytest.raises(ReferenceSolveError, match=r"proximal-gradient residual .* exceeds 1\.0e-09"):
        composite_optimum(problem, L1(0.02), conic=False, polish=3)
    ref = composite_optimum(problem, L1(0.02), conic=False, polish=20000)
    assert ref.certificate["kkt_residual"] <= 1e-9 * max(1.0, float(np.linalg.norm(ref.x)))


def test_composite_optimum_rejects_bad_input_without_the_conic_solve():
    from fedtheory.errors import InvalidParameterError
    from fedtheory.reference import composite_optimum
    from fedtheory.regularizers import L1

    problem = _sparse_logistic(1e-2)
    for bad in ("no", None, 1):
        with pytest.raises(InvalidParameterError, match="conic"):
            composite_optimum(problem, L1(0.02), conic=bad)
    with pytest.raises(InvalidParameterError, match="polish"):
        composite_optimum(problem, L1(0.02), conic=False, polish=-1)
    with pytest.raises(InvalidParameterError, match="smooth"):
        composite_optimum(object(), L1(0.02), conic=False)
    with pytest.raises(InvalidParameterError, match="shape"):
        composite_optimum(problem, L1(0.02), shape=(4, 2), conic=False)
