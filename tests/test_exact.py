from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import density, moments, rational
from fedtheory.fit import mc_mean
from fedtheory.oracles import AdditiveGaussian, Minibatch, Rademacher
from fedtheory.problems import FederatedQuadratic, PiecewiseQuadratic, sparse_regression_data
from fedtheory.problems.piecewise import PiecewiseLinear


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


def test_rational_engine_merges_equal_states():
    # A random walk (F = 0): 2^k noise paths but only k + 1 distinct states.
    law = rational.propagate(lambda x, xi: (x[0] + xi[0],), [0], rational.FiniteNoise.rademacher(1), 20)
    assert law.n_states[-1] == 21 and law.mean[-1] == (0,)
    # E x_k^2 = k exactly
    law = rational.propagate(
        lambda x, xi: (x[0] + xi[0],),
        [0],
        rational.FiniteNoise.rademacher(1),
        10,
        functionals={"sq": lambda x: x[0] ** 2},
    )
    assert law.expectations["sq"] == list(range(11))


@settings(max_examples=15)
@given(
    ap=st.fractions(Fraction(1, 4), 2, max_denominator=8),
    am=st.fractions(Fraction(1, 4), 2, max_denominator=8),
    x0=st.fractions(-1, 1, max_denominator=4),
)
def test_rational_engine_against_monte_carlo(ap, am, x0):
    eta, k = Fraction(1, 4), 6
    p = PiecewiseQuadratic(ap, am)
    law = rational.propagate(rational.sgd_step(p.grad_exact, eta), [x0], rational.FiniteNoise.rademacher(1), k)
    pf = PiecewiseQuadratic(float(ap), float(am))
    xs = fedavg.sgd(Rademacher(pf, 1.0), [float(x0)], float(eta), k, np.random.default_rng(0), S=100_000).x[:, :, 0]
    est = mc_mean(xs, axis=1, family_size=k + 1)
    exact = np.array([float(m[0]) for m in law.mean])
    assert np.all((est.lo - 1e-12 <= exact) & (exact <= est.hi + 1e-12))


def test_finite_noise_validation():
    with pytest.raises(InvalidParameterError, match="probs"):
        rational.FiniteNoise(((Fraction(1),), (Fraction(-1),)), (Fraction(1, 2), Fraction(1, 3)))
    assert rational.FiniteNoise.axes(1, 3).mean == (0, 0, 0)


@settings(max_examples=10)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), x0=st.floats(-1, 1))
def test_density_engine_against_monte_carlo(ap, am, x0):
    p = PiecewiseQuadratic(ap, am)
    steps = [1, 3, 10, 30]
    dens = density.propagate(p.gradient_pieces(), 0.3, 0.5, x0, steps)
    xs = fedavg.sgd(AdditiveGaussian(p, 0.5), [x0], 0.3, 30, np.random.default_rng(1), S=100_000, record_at=steps).x[
        :, :, 0
    ]
    est = mc_mean(xs, axis=1, family_size=len(steps))
    assert np.all((est.lo - dens.mean_error <= dens.mean) & (dens.mean <= est.hi + dens.mean_error))
    assert np.allclose(dens.mass, 1, atol=1e-12)


def test_density_error_estimate_shrinks_quadratically():
    g = PiecewiseQuadratic(1.0, 0.1).gradient_pieces()
    errs = [density.propagate(g, 0.1, 1.0, 0.0, [50], du=du).mean_error[0] for du in (0.2, 0.1, 0.05)]
    assert errs[0] / errs[1] == pytest.approx(4, rel=0.15) and errs[1] / errs[2] == pytest.approx(4, rel=0.15)


def _three_kinks():
    """A continuous piecewise-linear gradient with kinks at 0, 0.31 and 0.73: the last two fall between nodes."""
    b, s = (0.0, 0.31, 0.73), (0.5, 2.0, 0.3, 1.5)
    c = [0.0]
    for j in range(1, 4):
        c.append(c[-1] + (s[j - 1] - s[j]) * b[j - 1])
    return PiecewiseLinear(b, s, tuple(c))


@pytest.mark.parametrize("du", [0.5, 0.4, 0.25, 0.1])
def test_density_error_estimate_bounds_the_error_on_coarse_accepted_grids(du):
    # The README tour's setting (true mean -0.0406) and an instance with kinks between nodes, against a grid 4-20x
    # finer; before the refusal below du = 8 reported -8.9e-24 +- 1e-15 here.
    psi = PiecewiseQuadratic.scaled_psi(0.5).gradient_pieces()
    for g, eta, sd, x0, steps in ((psi, 0.1, 1.0, 0.0, [1, 4, 16]), (_three_kinks(), 0.4, 0.8, -0.5, [2, 7])):
        res = density.propagate(g, eta, sd, x0, steps, du=du)
        ref = density.propagate(g, eta, sd, x0, steps, du=0.025)
        assert np.all(np.abs(res.mean - ref.mean) <= res.mean_error + ref.mean_error), (du, res.mean - ref.mean)
    g = _three_kinks()
    u = density.round_map(g, 0.4, 0.8, 5, (-1.0, 1.0), du=du)
    ref = density.round_map(g, 0.4, 0.8, 5, (-1.0, 1.0), du=du / 5)
    xs = np.linspace(u.grid[0], u.grid[-1], 181)  # nodes and points between them
    assert np.all(np.abs(u(xs) - ref(xs)) <= u.error_at(xs) + ref.error_at(xs))
    st_, st_ref = density.stationary(g, 0.4, 0.8, du=du), density.stationary(g, 0.4, 0.8, du=0.025)
    assert abs(st_.mean - st_ref.mean) <= st_.mean_error + st_ref.mean_error


def test_density_refuses_grids_that_do_not_resolve_the_kernel():
    psi = PiecewiseQuadratic.scaled_psi(0.5).gradient_pieces()
    for call in (
        lambda du: density.propagate(psi, eta=0.1, noise_sd=1.0, x0=0.0, steps=[16], du=du),
        lambda du: density.round_map(psi, 0.1, 1.0, 4, (-0.1, 0.1), du=du),
        lambda du: density.stationary(psi, 0.1, 1.0, du=du),
    ):
        for du in (8, 1.0, 0.51):
            with pytest.raises(InvalidParameterError, match=r"invalid du: .*at most 0\.5 in units of tau"):
                call(du)
        call(0.5)


def test_density_rejects_jumps_and_non_integer_steps():
    with pytest.raises(InvalidParameterError, match="invalid g: expected a continuous"):
        density.propagate(PiecewiseLinear((0.0,), (1.0, 1.0), (0.0, 1.0)), 0.1, 1.0, 0.0, [1])
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    for steps in ([2.5], [2.0], np.array([1.0, 3.0])):
        with pytest.raises(InvalidParameterError, match="invalid steps"):
            density.propagate(g, 0.1, 1.0, 0.0, steps)
    with pytest.raises(InvalidParameterError, match="invalid K"):
        density.round_map(g, 0.1, 1.0, 2.5, (-1.0, 1.0))


def test_density_bad_input():
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    with pytest.raises(InvalidParameterError, match="invalid eta"):
        density.propagate(g, 2.5, 1.0, 0.0, [1])
    with pytest.raises(InvalidParameterError, match="invalid steps"):
        density.propagate(g, 0.1, 1.0, 0.0, [0])
    with pytest.raises(InvalidParameterError, match="invalid noise_sd"):
        density.propagate(g, 0.1, -1.0, 0.0, [1])


@given(ap=st.floats(0.1, 2.0), am=st.floats(0.1, 2.0), eta=st.floats(0.05, 1.0), x0=st.floats(-2, 2))
@settings(max_examples=20)
def test_float_enumeration_matches_rational_enumeration(ap, am, eta, x0):
    p = PiecewiseQuadratic(ap, am)
    exact = rational.propagate(
        rational.sgd_step(p.grad_exact, eta),
        [x0],
        rational.FiniteNoise.rademacher(1),
        8,
        functionals={"sq": lambda x: x[0] ** 2},
    )
    floats = rational.propagate_float(lambda x, xi: x - eta * (p.grad(x) + xi), [x0], [[1.0], [-1.0]], [0.5, 0.5], 8)
    for k, law in enumerate(floats):
        assert law.mean[0] == pytest.approx(float(exact.mean[k][0]), rel=1e-12, abs=1e-14)
        assert law.expect(lambda x: x[:, 0] ** 2) == pytest.approx(float(exact.expectations["sq"][k]), rel=1e-12)
        assert law.probs.sum() == pytest.approx(1.0, abs=1e-14)


def test_float_enumeration_merges_and_validates():
    laws = rational.propagate_float(lambda x, xi: x + xi, [0.0], [[1.0], [-1.0]], [0.5, 0.5], 20)
    assert laws[-1].states.shape[0] == 21  # a lattice walk: k + 1 states, not 2^k
    with pytest.raises(InvalidParameterError, match="noise_probs"):
        rational.propagate_float(lambda x, xi: x + xi, [0.0], [[1.0], [-1.0]], [0.5, 0.4], 2)


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


@settings(max_examples=8)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), K=st.integers(1, 30))
def test_round_map_agrees_with_forward_propagation(ap, am, K):
    g = PiecewiseQuadratic(ap, am).gradient_pieces()
    u = density.round_map(g, 0.2, 0.5, K, (-0.4, 0.4))
    for x0 in u.grid[:: max(1, u.grid.size // 5)]:
        fwd = density.propagate(g, 0.2, 0.5, float(x0), [K])
        assert abs(u(x0) - fwd.mean[0]) <= u.error_at(x0) + fwd.mean_error[0]


def test_round_map_bad_input():
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    with pytest.raises(InvalidParameterError, match="invalid x_range"):
        density.round_map(g, 0.1, 1.0, 4, (1.0, -1.0))
    u = density.round_map(g, 0.1, 1.0, 4, (-0.1, 0.1))
    with pytest.raises(InvalidParameterError, match="invalid x"):
        u(5.0)


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


@settings(max_examples=15)
@given(ap=st.floats(0.1, 1.0), am=st.floats(0.1, 1.0), eta=st.floats(0.05, 1.0), sigma=st.floats(0.1, 2.0))
def test_conditional_mean_is_monotone_lipschitz_concave_below_gd(ap, am, eta, sigma):
    # spec P4: with F' convex (a_plus >= a_minus) and eta L <= 1, u_k is nondecreasing, 1-Lipschitz, concave and
    # u_k <= z_k; the mirrored instance (F' concave) reverses concavity and the inequality.
    a_plus, a_minus = max(ap, am), min(ap, am)
    for flip in (1.0, -1.0):
        p = PiecewiseQuadratic(a_plus, a_minus) if flip > 0 else PiecewiseQuadratic(a_minus, a_plus)
        h = 0.05
        xs = np.arange(-2, 2 + h / 2, h)
        X, z = xs[:, None], xs.copy()
        for _ in range(8):
            g = p.grad(X[..., None])[..., 0]
            X = np.concatenate([X - eta * (g + sigma), X - eta * (g - sigma)], axis=1)
            z = z - eta * p.grad(z[:, None])[:, 0]
            u = X.mean(axis=1)
            slopes = np.diff(u) / h
            assert np.all(slopes >= -1e-9) and np.all(slopes <= 1 + 1e-9)
            assert np.all(flip * np.diff(u, n=2) <= 1e-9)
            assert np.all(flip * (u - z) <= 1e-9)


@settings(max_examples=8)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), eta=st.floats(0.05, 0.5))
def test_stationary_law_is_the_long_run_law(ap, am, eta):
    # The banded fixed-point solve equals forward propagation run until it has forgotten its start.
    g = PiecewiseQuadratic(ap, am).gradient_pieces()
    st_ = density.stationary(g, eta, 1.0)
    k = int(np.ceil(40 / (eta * min(ap, am))))  # (1 - eta a)^k < e^-40
    fwd = density.propagate(g, eta, 1.0, 0.0, [k])
    assert abs(st_.mean - fwd.mean[0]) <= st_.mean_error + fwd.mean_error[0]
    assert st_.density.sum() * (st_.grid[1] - st_.grid[0]) == pytest.approx(1.0, abs=1e-12)
    assert np.all(st_.density > -1e-12)


def test_stationary_law_of_a_linear_chain_is_gaussian():
    # a_+ = a_- = a: x_inf ~ N(0, eta^2 / (1 - (1 - eta a)^2)) exactly.
    eta, a = 0.3, 1.5
    res = density.stationary(PiecewiseQuadratic(a, a).gradient_pieces(), eta, 1.0)
    var = eta**2 / (1 - (1 - eta * a) ** 2)
    exact = np.exp(-0.5 * res.grid**2 / var) / np.sqrt(2 * np.pi * var)
    assert np.max(np.abs(res.density - exact)) < 1e-6 * exact.max()
    assert abs(res.mean) <= res.mean_error + 1e-12


def test_stationary_bad_input():
    with pytest.raises(InvalidParameterError, match="eta"):
        density.stationary(PiecewiseQuadratic(1.0, 0.0).gradient_pieces(), 0.1, 1.0)  # no restoring force left
    with pytest.raises(InvalidParameterError, match="eta"):
        density.stationary(PiecewiseQuadratic(1.0, 1.0).gradient_pieces(), 2.5, 1.0)


def test_smooth_drift_round_map_against_monte_carlo():
    # u_K(x0) for the smooth gradient of (A.15) against a seeded Monte Carlo of the same chain.
    from fedtheory.problems import LogCoshQuadratic

    p = LogCoshQuadratic(1.0, 2.0)
    drift = density.SmoothDrift(lambda x: p.grad(x[..., None])[..., 0], (0.5, 1.0))
    eta, K, x0 = 0.4, 6, 0.3
    u = density.round_map(drift, eta, 1.0, K, (-0.5, 0.5))
    fwd = density.propagate(drift, eta, 1.0, x0, [K])
    rng = np.random.default_rng(7)
    x = np.full(400_000, x0)
    for _ in range(K):
        x = x - eta * (p.grad(x[:, None])[:, 0] + rng.standard_normal(x.size))
    est = mc_mean(x)
    assert est.lo <= float(u(x0)) <= est.hi
    assert abs(float(u(x0)) - fwd.mean[0]) <= float(u.error_at(x0)) + fwd.mean_error[0]


def test_smooth_drift_validation():
    with pytest.raises(InvalidParameterError, match="slopes"):
        density.SmoothDrift(np.sin, (1.0, 0.5))
    with pytest.raises(InvalidParameterError, match="eta"):
        density.round_map(density.SmoothDrift(np.tanh, (0.0, 1.0)), 3.0, 1.0, 2, (-1.0, 1.0))
    with pytest.raises(InvalidParameterError, match="g"):
        density.propagate(np.tanh, 0.1, 1.0, 0.0, [1])
