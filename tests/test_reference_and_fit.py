import cvxpy as cp
import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError, ReferenceSolveError
from fedtheory.fit import loglog_slope, mc_mean
from fedtheory.problems import Lasso, sparse_regression_data
from fedtheory.reference import solve


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
    with pytest.raises(ReferenceSolveError, match="certificate worse"):
        solve(problem, gap_tol=0.0, residual_tol=0.0)


def test_lasso_reference_is_certified_twice():
    ls, _ = sparse_regression_data(np.random.default_rng(0), n_clients=3, n_per_client=10, dim=12, n_nonzero=3)
    ref = Lasso(ls, 0.05).solve()
    assert ref.certificate["duality_gap"] < 1e-8
    assert ref.certificate["lasso_duality_gap"] < 1e-8
    assert ref.certificate["kkt_residual"] < 1e-6
    assert ref.solver.startswith("CLARABEL ")


def test_loglog_slope_recovers_exponent_with_interval():
    rng = np.random.default_rng(0)
    x = np.logspace(0, 3, 20)
    fit = loglog_slope(x, 3 * x**1.5 * np.exp(0.01 * rng.normal(size=x.size)))
    assert fit.lo < 1.5 < fit.hi and fit.hi - fit.lo < 0.02
    exact = loglog_slope(x, x**-2)
    assert exact.slope == pytest.approx(-2) and exact.hi - exact.lo < 1e-10


def test_mc_mean_interval_and_family_size():
    rng = np.random.default_rng(1)
    est = mc_mean(rng.normal(size=(10_000, 3)))
    wider = mc_mean(rng.normal(size=(10_000, 3)), family_size=3)
    assert np.all(est.lo < 0) and np.all(est.hi > 0)
    assert np.all((wider.hi - wider.lo) > (est.hi - est.lo))
    with pytest.raises(InvalidParameterError, match="confidence"):
        mc_mean([1.0, 2.0], confidence=1.5)
    with pytest.raises(InvalidParameterError, match="invalid y"):
        loglog_slope([1, 2, 3], [1, -1, 2])


def test_logistic_optimum_without_clarabel_gives_the_same_certified_point():
    from fedtheory.problems import LogisticRegression, logistic_data
    from fedtheory.reference import logistic_optimum

    data = logistic_data(np.random.default_rng(3), n_clients=1, n_per_client=80, dim=5, l2=1e-2)
    problem = LogisticRegression(data.features[0], data.labels[0], l2=1e-2)
    conic, newton = logistic_optimum(problem), logistic_optimum(problem, clarabel=False)
    assert newton.certificate["gradient_norm"] <= 1e-11 and "not used" in newton.certificate["clarabel"]
    assert np.allclose(newton.x, conic.x, atol=1e-9) and abs(newton.value - conic.value) <= 1e-12
