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
