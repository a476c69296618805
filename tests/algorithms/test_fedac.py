"""FedAc (Algorithm 2): prescribed hyperparameters, and the reductions of spec section 2.4 as pathwise tests."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory.algorithms import fedac, fedavg
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient, Minibatch
from fedtheory.problems import FederatedQuadratic, LogisticRegression, logistic_data


def _quadratic(d=3, seed=0):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    return FederatedQuadratic(Q @ np.diag(np.linspace(1.0, 0.05, d)) @ Q.T, rng.normal(size=d))  # L = 1, mu = 0.05


def _logistic() -> LogisticRegression:
    """Homogeneous: every client samples the same 40 rows."""
    data = logistic_data(np.random.default_rng(1), n_clients=1, n_per_client=40, dim=3, l2=0.1)
    return LogisticRegression(data.features[0], data.labels[0], l2=0.1)


@given(
    kappa=st.floats(1.0, 1e6),
    eta_L=st.floats(1e-6, 1.0),
    K=st.integers(1, 10_000),
    which=st.sampled_from(["FedAc-I", "FedAc-II", "vanilla"]),
)
def test_prescribed_parameters_are_in_the_admissible_range(kappa, eta_L, K, which):
    # Section 3.2: gamma in [eta, sqrt(eta/mu)] and alpha, beta >= 1 for every eta in (0, 1/L] and K >= 1.
    L, mu = 1.0, 1.0 / kappa
    eta = eta_L / L
    p = {"FedAc-I": fedac.fedac_i, "FedAc-II": fedac.fedac_ii, "vanilla": fedac.vanilla}[which](eta, mu, K, 2, L=L)
    assert eta * (1 - 1e-12) <= p.gamma <= np.sqrt(eta / mu) * (1 + 1e-12)
    assert p.alpha >= 1 - 1e-12 and p.beta >= 1 - 1e-12
    if which == "FedAc-II":
        alpha = 3 / (2 * p.gamma * mu) - 0.5
        assert p.alpha == pytest.approx(alpha, rel=1e-9)
        if alpha > 1 + 1e-6:
            assert p.beta == pytest.approx((2 * alpha**2 - 1) / (alpha - 1), rel=1e-6)
    else:
        assert p.alpha == pytest.approx(1 / (p.gamma * mu), rel=1e-12)
        assert p.beta == pytest.approx(p.alpha + 1, rel=1e-12)


def test_fedac_ii_edge_case_gamma_mu_one():
    p = fedac.fedac_ii(1.0, 1.0, 1, 1, L=1.0)  # L = mu, eta = 1/L: gamma mu = 1
    assert p.alpha == 1.0 and p.beta == np.inf


@pytest.mark.parametrize("make", [fedac.fedac_i, fedac.fedac_ii, fedac.vanilla])
def test_gamma_equal_eta_is_fedavg_pathwise(make):
    # Spec 2.4(2): with gamma = eta and x_ag = x at the start, x = x_ag = x_md at every step: SGD with step eta.
    problem = _logistic()
    oracle = Minibatch(problem, 2)
    base = make(0.3, 0.1, 4, 5)
    params = fedac.FedAcParams(base.eta, base.eta, base.alpha_inv, base.beta_inv, 4, 5)
    ours = fedac.run(oracle, np.ones(3), params, 6, np.random.default_rng(3), S=7)
    ref = fedavg.run(oracle, np.ones(3), fedavg.FedAvgParams(0.3, 4, 5), 6, np.random.default_rng(3), S=7)
    np.testing.assert_allclose(ours.x_ag, ref.x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.x, ref.x, rtol=0, atol=1e-12)


@pytest.mark.parametrize("M,K", [(1, 1), (4, 3), (9, 8)])
def test_noiseless_fedac_is_centralized_generalized_agd(M, K):
    # Spec 2.4(3): without noise every client stays identical, for any M and K.
    problem = _logistic()
    params = fedac.fedac_i(0.2, 0.1, K, M)
    fed = fedac.run(ExactGradient(problem), np.ones(3), params, 5, np.random.default_rng(0))
    x, x_ag = np.ones(3), np.ones(3)
    a, b = params.alpha_inv, params.beta_inv
    for _ in range(5 * K):
        md = b * x + (1 - b) * x_ag
        g = problem.grad(md)
        x_ag, x = md - params.eta * g, (1 - a) * x + a * md - params.gamma * g
    np.testing.assert_allclose(fed.final[0], x_ag, rtol=1e-12, atol=1e-14)


def test_agd_is_fedac_i_with_one_client_one_step_and_eta_one_over_L():
    # Spec 2.4(1): FedAc-I with M = 1, sigma = 0, K = 1, eta = 1/L has Algorithm 3's parameters.
    L, mu = 1.0, 0.04
    p, agd = fedac.fedac_i(1 / L, mu, 1, 1, L=L), fedac.agd_params(L, mu)
    for name in ("eta", "gamma", "alpha_inv", "beta_inv"):
        assert getattr(p, name) == pytest.approx(getattr(agd, name), rel=1e-14)
    assert agd.alpha == pytest.approx(5.0) and agd.beta == pytest.approx(6.0)


def test_quadratic_averages_equal_centralized_ac_sa_with_averaged_noise():
    # Spec 2.4(4): on a quadratic with additive noise the updates are affine and commute with averaging, so the
    # server pair equals centralized generalized AC-SA driven by the clients' averaged noise, for any K.
    problem = _quadratic()
    oracle = AdditiveGaussian(problem, 0.5)
    params = fedac.FedAcParams(0.3, 0.9, 0.2, 0.15, 5, 4)
    fed = fedac.run(oracle, np.zeros(3), params, 3, np.random.default_rng(11), S=2)
    rng = np.random.default_rng(11)
    x = np.zeros((2, 3))
    x_ag = np.zeros((2, 3))
    a, b = params.alpha_inv, params.beta_inv
    for _ in range(3 * params.K):
        noise = oracle.noise((2, params.M, 3), rng).mean(axis=1)
        md = b * x + (1 - b) * x_ag
        g = problem.grad(md) + noise
        x_ag, x = md - params.eta * g, (1 - a) * x + a * md - params.gamma * g
    np.testing.assert_allclose(fed.final, x_ag, rtol=1e-10, atol=1e-12)


def test_minibatch_accelerated_sgd_is_vanilla_fedac_on_mk_clients():
    problem = _logistic()
    oracle = Minibatch(problem, 1)
    mb = fedac.minibatch_accelerated_sgd(oracle, np.zeros(3), 0.2, 0.1, 4, np.random.default_rng(2), M=3, K=5, S=2)
    ref = fedac.run(oracle, np.zeros(3), fedac.vanilla(0.2, 0.1, 1, 15), 4, np.random.default_rng(2), S=2)
    np.testing.assert_array_equal(mb.x_ag, ref.x_ag)


def test_l2_augmented_oracle_is_strongly_convex_around_the_center():
    problem = _quadratic()
    aug = fedac.L2Augmented(ExactGradient(problem), 0.5, np.ones(3))
    x = np.random.default_rng(0).normal(size=(2, 1, 3))
    np.testing.assert_allclose(aug(x, None), problem.client_grad(x) + 0.5 * (x - 1.0))


def test_vanilla_fedac_divergence_is_reported_with_its_round():
    problem = _quadratic()
    params = fedac.FedAcParams(1.9, 40.0, 0.05, 0.05, 4, 2, "vanilla")
    with pytest.raises(DivergenceError, match="vanilla"):
        fedac.run(ExactGradient(problem), np.ones(3), params, 500, np.random.default_rng(0))


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"eta": 0.1, "gamma": 0.1, "alpha_inv": 0.0, "beta_inv": 0.5, "K": 1, "M": 1}, "alpha_inv"),
        ({"eta": 0.1, "gamma": 0.1, "alpha_inv": 0.5, "beta_inv": 1.5, "K": 1, "M": 1}, "beta_inv"),
        ({"eta": -1.0, "gamma": 0.1, "alpha_inv": 0.5, "beta_inv": 0.5, "K": 1, "M": 1}, "eta"),
        ({"eta": 0.1, "gamma": 0.1, "alpha_inv": 0.5, "beta_inv": 0.5, "K": 0, "M": 1}, "K"),
    ],
)
def test_bad_parameters_name_the_parameter(kwargs, name):
    with pytest.raises(InvalidParameterError, match=name):
        fedac.FedAcParams(**kwargs)


def test_prescribed_step_outside_the_range_is_rejected():
    with pytest.raises(InvalidParameterError, match="eta"):
        fedac.fedac_i(2.0, 0.1, 4, 2, L=1.0)
    with pytest.raises(InvalidParameterError, match="mu"):
        fedac.agd_params(1.0, 2.0)


@pytest.mark.parametrize("make", [fedac.fedac_i, fedac.fedac_ii])
def test_exact_fedac_moments_agree_with_monte_carlo(make):
    from fedtheory.exact import fedac_moments
    from fedtheory.fit import mc_mean

    problem = _quadratic()
    oracle = AdditiveGaussian(problem, cov=np.diag([0.5, 0.3, 0.2]))
    params = make(0.4, problem.mu, 4, 3, L=problem.L)
    mom = fedac_moments.fedac_moments(oracle, params, np.ones(3), 5)
    traj = fedac.run(oracle, np.ones(3), params, 5, np.random.default_rng(5), S=40_000)
    gap = problem.value(traj.x_ag[-1]) - problem.f_star
    est = mc_mean(gap)
    assert est.lo <= mom.suboptimality()[-1] <= est.hi
    means = mc_mean(traj.x[-1], axis=0, family_size=3)
    assert np.all((means.lo <= mom.mean[-1, 0]) & (mom.mean[-1, 0] <= means.hi))


def test_exact_fedac_moments_without_noise_are_the_deterministic_run():
    from fedtheory.exact import fedac_moments

    problem = _quadratic()
    params = fedac.fedac_ii(0.5, problem.mu, 3, 2, L=problem.L)
    mom = fedac_moments.fedac_moments(ExactGradient(problem), params, np.ones(3), 4)
    run = fedac.run(ExactGradient(problem), np.ones(3), params, 4, np.random.default_rng(0))
    np.testing.assert_allclose(mom.mean[:, 1], run.x_ag[:, 0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mom.cov, 0.0, atol=0)


def test_within_round_deviation_covariance_agrees_with_monte_carlo():
    from fedtheory.exact import fedac_moments
    from fedtheory.fit import mc_mean

    problem = _quadratic()
    oracle = AdditiveGaussian(problem, cov=np.diag([0.5, 0.3, 0.2]))
    params = fedac.fedac_i(0.3, problem.mu, 5, 4, L=problem.L)
    covs = fedac_moments.deviation_covariances(oracle, params)
    S, d = 20_000, 3
    start = np.broadcast_to(np.ones(d), (S, params.M, d))
    x, x_ag = fedac.local_steps(start, start, oracle, params, np.random.default_rng(3))
    dev = np.concatenate([x - x.mean(axis=1, keepdims=True), x_ag - x_ag.mean(axis=1, keepdims=True)], axis=-1)
    est = mc_mean(np.sum(dev[:, 0] ** 2, axis=-1))  # client 0's squared deviation after K steps
    assert est.lo <= np.trace(covs[-1]) <= est.hi
    np.testing.assert_allclose(covs[0], 0.0)
