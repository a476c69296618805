"""Exact moments of FedAvg on quadratics (`fedtheory.exact.moments`) against closed forms and Monte Carlo."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import moments
from fedtheory.fit import mc_mean
from fedtheory.oracles import AdditiveGaussian, Minibatch, Rademacher
from fedtheory.problems import FederatedQuadratic, PiecewiseQuadratic, sparse_regression_data


@given(
    a=st.floats(0.1, 3.0),
    eta_a=st.floats(0.01, 1.9),
    sigma=st.floats(0.1, 2.0),
    M=st.integers(1, 50),
    K=st.integers(1, 20),
    R=st.integers(1, 10),
    x0=st.floats(-3, 3),
)
def test_moments_match_the_one_dimensional_closed_form(a, eta_a, sigma, M, K, R, x0):
    eta = eta_a / a
    p = FederatedQuadratic([[a]], [0.0])
    mom = moments.fedavg_moments(AdditiveGaussian(p, sigma), fedavg.FedAvgParams(eta, K, M), [x0], R)
    rho = 1 - eta * a
    g, w = rho**K, eta**2 * sigma**2 / M * sum(rho ** (2 * j) for j in range(K))
    var = sum(g ** (2 * r) for r in range(R)) * w
    assert mom.mean[-1, 0] == pytest.approx(g**R * x0, rel=1e-10, abs=1e-12)
    assert mom.cov[-1, 0, 0] == pytest.approx(var, rel=1e-10, abs=1e-14)
    subopt = moments.expected_suboptimality(p, mom)[-1]
    assert subopt == pytest.approx(0.5 * a * (g ** (2 * R) * x0**2 + var), rel=1e-9, abs=1e-14)


@pytest.mark.parametrize("oracle_cls", [AdditiveGaussian, Rademacher])
def test_moments_agree_with_monte_carlo(oracle_cls):
    rng = np.random.default_rng(3)
    A = np.stack([np.diag([1.0, 0.5]), np.array([[2.0, 0.3], [0.3, 0.4]])])
    p = FederatedQuadratic(A, rng.normal(size=(2, 2)))
    oracle, params = oracle_cls(p, 0.8), fedavg.FedAvgParams(0.2, 3, 2, eta_server=0.8)
    mom = moments.fedavg_moments(oracle, params, [1.0, -1.0], 4)
    S = 200_000
    x = fedavg.run(oracle, [1.0, -1.0], params, 4, np.random.default_rng(4), S=S).final
    est = mc_mean(x, family_size=2)
    assert np.all((est.lo <= mom.mean[-1]) & (mom.mean[-1] <= est.hi))
    cov = np.cov(x.T)
    assert np.allclose(cov, mom.cov[-1], rtol=0.03, atol=1e-4)  # sampling error of a covariance at S = 2e5


def test_moments_reject_non_quadratic_or_non_additive():
    p, _ = sparse_regression_data(np.random.default_rng(0), n_clients=2, n_per_client=5, dim=3, n_nonzero=1)
    with pytest.raises(InvalidParameterError, match="invalid oracle"):
        moments.fedavg_moments(Minibatch(p, 2), fedavg.FedAvgParams(0.1, 1, 2), np.zeros(3), 2)
    with pytest.raises(InvalidParameterError, match="invalid oracle"):
        moments.fedavg_moments(
            AdditiveGaussian(PiecewiseQuadratic(1, 1), 1.0), fedavg.FedAvgParams(0.1, 1, 2), [0.0], 2
        )


def test_client_moments_agree_with_monte_carlo():
    rng = np.random.default_rng(7)
    A = np.array([[1.0, 0.2], [0.2, 0.5]])
    p = FederatedQuadratic(A, rng.normal(size=(3, 2)))  # common Hessian, shifted clients
    oracle, params = AdditiveGaussian(p, 0.9), fedavg.FedAvgParams(0.3, 4, 3)
    cm = moments.fedavg_client_moments(oracle, params, [1.0, 0.0], 3)
    r, k, S = 2, 3, 200_000
    server = fedavg.run(oracle, [1.0, 0.0], params, r, np.random.default_rng(8), S=S).final
    clients = fedavg.local_sgd(np.broadcast_to(server[:, None], (S, 3, 2)), oracle, 0.3, k, np.random.default_rng(9))
    dev = clients - clients.mean(axis=1, keepdims=True)
    mean, cov = cm.deviation()
    second, fourth = moments.gaussian_norm_moments(mean[r, k], cov[r, k])
    est2 = mc_mean(np.sum(dev**2, -1), family_size=6)
    est4 = mc_mean(np.sum(dev**2, -1) ** 2, family_size=6)
    assert np.all((est2.lo <= second) & (second <= est2.hi))
    assert np.all((est4.lo <= fourth) & (fourth <= est4.hi))
    shadow_mean, _ = cm.shadow()
    est = mc_mean(clients.mean(axis=1), family_size=2)
    assert np.all((est.lo <= shadow_mean[r, k]) & (shadow_mean[r, k] <= est.hi))


@settings(max_examples=20)
@given(seed=st.integers(0, 1000), M=st.integers(2, 8), K=st.integers(1, 6))
def test_averaging_divides_the_covariance_by_M(seed, M, K):
    # spec P13: for identical clients, E xbar^(r,K) is one client's mean and Cov(xbar) = Cov(one client) / M.
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(2, 2))
    p = FederatedQuadratic(B @ B.T + 0.1 * np.eye(2), rng.normal(size=2))
    oracle = AdditiveGaussian(p, cov=np.diag(rng.uniform(0.1, 1.0, 2)))
    eta = 0.5 / p.L
    many = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(eta, K, M), np.ones(2), 1)
    one = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(eta, K, 1), np.ones(2), 1)
    mean_m, cov_m = many.shadow()
    mean_1, cov_1 = one.shadow()
    assert np.allclose(mean_m, mean_1, rtol=1e-12, atol=1e-14)
    assert np.allclose(cov_m, cov_1 / M, rtol=1e-10, atol=1e-15)


def test_fedavg_weighted_average_objective_agrees_with_monte_carlo():
    # The exact (xbar, sum rho xbar) recursion of weighted_average_gap against a seeded FedAvg run.
    from fedtheory.exact.moments import weighted_average_gap
    from fedtheory.fit import mc_mean

    rng = np.random.default_rng(9)
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    problem = FederatedQuadratic(Q @ np.diag([1.0, 10**-0.5, 0.1]) @ Q.T, rng.normal(size=3))
    x0 = problem.x_star + np.array([0.6, -0.48, 0.64])
    eta, K, R, M = 0.2, 4, 3, 2
    oracle = AdditiveGaussian(problem, cov=np.diag([0.5, 0.3, 0.2]))
    S, n = 40_000, K * R
    rho = (1 - eta * problem.mu / 2) ** (n - np.arange(n) - 1)
    rho /= rho.sum()
    exact = weighted_average_gap(oracle, eta, rho, M, x0)
    clients = np.broadcast_to(x0, (S, M, 3))
    total = np.zeros((S, 3))
    for t in range(n):
        total += rho[t] * clients.mean(axis=1)
        clients = fedavg.local_sgd(clients, oracle, eta, 1, rng)
        if (t + 1) % K == 0:
            clients = np.broadcast_to(clients.mean(axis=1)[:, None, :], clients.shape)
    e_s, e_x = total - problem.x_star, clients[:, 0] - problem.x_star
    values = 0.5 * np.einsum("si,ij,sj->s", e_s, problem.A_mean, e_s) + problem.mu / 2 * np.sum(e_x**2, axis=1)
    est = mc_mean(values)
    assert est.lo <= exact <= est.hi


def test_weighted_average_gap_needs_one_hessian():
    from fedtheory.exact.moments import weighted_average_gap

    problem = FederatedQuadratic(np.stack([np.eye(2), 2 * np.eye(2)]), np.zeros((2, 2)))
    with pytest.raises(InvalidParameterError, match="homogeneous"):
        weighted_average_gap(AdditiveGaussian(problem, sigma=1.0), 0.1, [1.0], 2, np.zeros(2))
