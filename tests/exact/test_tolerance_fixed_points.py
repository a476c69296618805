"""Closed forms of :mod:`fedtheory.exact.tolerance_fixed_points` against the simulated primal-dual method."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import primal_dual as pd
from fedtheory.exact import tolerance_fixed_points as tfp
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic

scalars = st.lists(st.floats(0.5, 3.0), min_size=2, max_size=5)


def _problem(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return FederatedQuadratic(a[:, None, None], (a * b)[:, None])


@settings(max_examples=25, deadline=None)
@given(scalars, st.integers(0, 10**6), st.floats(0.1, 2.0))
def test_server_step_is_weighted_least_squares(a, seed, scale):
    rng = np.random.default_rng(seed)
    x, lam = rng.normal(size=(1, len(a), 3)), np.asarray(a)[None]
    z = pd.server_step(x, lam, np.ones_like(lam, dtype=bool), 1)[0]
    np.testing.assert_allclose(lam[0] @ (x[0] - z), 0.0, atol=1e-12)  # the gradient of sum lam ||x - z||^2
    np.testing.assert_allclose(z, pd.server_step(x, scale * lam, np.ones_like(lam, dtype=bool), 1)[0], atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(scalars, st.integers(0, 10**6), st.sampled_from([1, 3, 7]), st.floats(0.2, 2.0))
def test_warm_start_fixed_point_is_K_invariant_and_cold_weights(a, seed, K, c):
    b = np.random.default_rng(seed).normal(0, 2, len(a))
    warm = tfp.fixed_multiplier_point(a, b, c)
    w = 2 * c * np.asarray(a) / (np.asarray(a) + 2 * c)
    np.testing.assert_allclose(warm, [w @ b / w.sum()], rtol=1e-12)
    problem, N = _problem(a, b), len(a)
    for start in ("warm", "cold"):
        z = tfp.fixed_multiplier_point(a, b, c, start=start, beta=0.1, K=K)
        state = pd.init(z, N, lam0=c)
        state.x[:] = pd.exact_local(problem, state.z, state.lam)
        params = pd.PrimalDualParams(beta=0.1, alpha=0.0, K=K, N=N, participants=N, start=start)
        np.testing.assert_allclose(pd.round(state, ExactGradient(problem), params, None).z[0], z, atol=1e-12)
    wc = (1 - (1 - 0.1 * (np.asarray(a) + 2 * c)) ** K) * np.asarray(a) / (np.asarray(a) + 2 * c)
    np.testing.assert_allclose(tfp.fixed_multiplier_point(a, b, c, start="cold", beta=0.1, K=K), [wc @ b / wc.sum()])
    wf = 1 - (1 - 0.1 * np.asarray(a)) ** K
    np.testing.assert_allclose(tfp.fixed_multiplier_point(a, b, 0.0, start="cold", beta=0.1, K=K), [wf @ b / wf.sum()])


@settings(max_examples=30, deadline=None)
@given(scalars, st.integers(0, 10**6))
def test_dead_zone_root_is_stationary(a, seed):
    rng = np.random.default_rng(seed)
    a = np.asarray(a)
    b, gamma = rng.normal(0, 2, a.size), rng.uniform(0, 1, a.size)
    m = tfp.dead_zone_minimizer_1d(a, b, gamma)
    r = np.sqrt(gamma)
    phi = np.sum(a * (np.maximum(m.z - b - r, 0) - np.maximum(b - r - m.z, 0)))
    assert abs(phi) <= 1e-12 * max(1.0, np.sum(a * np.abs(b)))
    grid = np.linspace(b.min() - 2, b.max() + 2, 401)
    values = tfp.dead_zone_value(grid[:, None], a, b[:, None], gamma).sum(-1)
    assert tfp.dead_zone_value([m.z], a, b[:, None], gamma).sum() <= values.min() + 1e-12


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_dead_zone_value_is_the_inner_minimum(seed):
    rng = np.random.default_rng(seed)
    z, b, a, gamma = rng.normal(size=2), rng.normal(size=(1, 2)), rng.uniform(0.5, 3), rng.uniform(0.01, 2)
    x, lam = tfp.ball_local_solution(z, [a], b, [gamma])
    assert np.sum((x[0] - z) ** 2) <= gamma * (1 + 1e-12)
    h = tfp.dead_zone_value(z, [a], b, [gamma])[0]
    np.testing.assert_allclose(a / 2 * np.sum((x[0] - b[0]) ** 2), h, atol=1e-12)
    np.testing.assert_allclose(a * (x[0] - b[0]) + 2 * lam[0] * (x[0] - z), 0.0, atol=1e-12)  # stationarity
    angles = rng.uniform(0, 2 * np.pi, 200)  # no feasible point does better
    pts = z + np.sqrt(gamma) * np.stack([np.cos(angles), np.sin(angles)], 1) * rng.uniform(0, 1, (200, 1))
    assert np.all(a / 2 * np.sum((pts - b[0]) ** 2, 1) >= h - 1e-12)


def test_zero_tolerance_asymptotics_approach_the_method():
    """The t^(1/3) laws hold to leading order: the relative deviation shrinks from T = 2500 to T = 20000."""
    a, b, alpha = np.array([1.0, 2.0, 0.7]), np.array([0.0, 1.0, -1.5]), 0.5
    asym = tfp.zero_tolerance_asymptotics(a, b, alpha)
    problem = _problem(a, b)
    params = pd.PrimalDualParams(beta=1.0, alpha=alpha, K=1, N=3, participants=3, exact=True)
    state, dev = pd.init(np.zeros(1), 3, lam0=1.0), {}
    for t in range(1, 20_001):
        state = pd.round(state, ExactGradient(problem), params, None)
        if t in (2500, 20_000):
            lam_dev = np.max(np.abs(state.lam[0] / (asym.kappa * t ** (1 / 3)) - 1))
            dev[t] = (lam_dev, abs((state.z[0, 0] - asym.x_star) * t ** (1 / 3) / asym.C - 1))
    assert dev[20_000][0] < dev[2500][0] and dev[20_000][1] < dev[2500][1]
    assert max(dev[20_000]) < 0.15


def test_heuristic_discrete_closed_form_matches_the_recursion():
    d, eta = 0.8, 1e-2
    lam, gamma = 0.0, 0.0
    lams, gams = [lam], [gamma]
    for _ in range(400):
        lam, gamma = max(0.0, lam + eta * (d - gamma)), gamma + eta * lam
        lams.append(lam)
        gams.append(gamma)
    lc, gc = tfp.tolerance_heuristic_discrete(d, eta, 400)
    np.testing.assert_allclose(lc, lams, atol=1e-12)
    np.testing.assert_allclose(gc, gams, atol=1e-12)
    ret = tfp.tolerance_heuristic_discrete(d, eta)
    assert np.pi / eta <= ret.t_star <= np.pi / eta + 2
    assert abs(ret.gamma / (2 * d) - 1) < 0.01
    assert tfp.tolerance_heuristic_ode(d, eta, 1e6)[1] == 2 * d


def test_gd_rate_and_sgd_stationary_value():
    mu, lam, beta, sigma = np.array([0.5, 1.0, 3.0]) - 0.4, 0.2, 0.2, 0.3
    H = np.diag(mu + 2 * lam)
    g = np.ones(3)
    rho = tfp.local_gd_rate(mu, lam, beta)
    for k in range(1, 30):
        g = g - beta * H @ g
        assert np.linalg.norm(g) <= rho**k * np.sqrt(3) * (1 + 1e-12)
    h = mu + 2 * lam
    P2 = (1 - beta * h) ** 2
    np.testing.assert_allclose(
        tfp.sgd_stationary_value(mu, lam, beta, sigma), np.sum(h**2 * beta**2 * sigma**2 / (1 - P2))
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_dead_zone_value_is_convex_differentiable_and_zero_on_the_ball(seed, d):
    rng = np.random.default_rng(seed)
    a, gamma, b = rng.uniform(0.5, 3, 1), rng.uniform(0.01, 2, 1), rng.normal(size=(1, d))
    r = np.sqrt(gamma[0])
    inside = b[0] + r * rng.uniform(0, 1) * (u := rng.normal(size=d)) / np.linalg.norm(u)
    assert tfp.dead_zone_value(inside, a, b, gamma)[0] == 0.0
    z, w, t = rng.normal(0, 2, (2, d)), rng.normal(0, 2, d), rng.uniform(0, 1, 9)[:, None]
    h = lambda p: tfp.dead_zone_value(p, a, b, gamma)[..., 0]  # noqa: E731
    chord = (1 - t[:, 0]) * h(z[0]) + t[:, 0] * h(z[1])
    assert np.all(h((1 - t) * z[0] + t * z[1]) <= chord + 1e-12 * (1 + np.abs(chord)))  # convex along a segment
    dist = np.linalg.norm(w - b[0])
    grad = a[0] * max(dist - r, 0.0) * (w - b[0]) / dist  # the gradient of (a/2)(||w - b|| - r)_+^2
    eps, e = 1e-6, np.eye(d)
    fd = (h(w + eps * e) - h(w - eps * e)) / (2 * eps)
    np.testing.assert_allclose(fd, grad, atol=1e-6 * (1 + np.abs(grad).max()))
    assert h(b[0] + 1.5 * r * e[0]) > 0.0  # negative control: the value is not zero off the ball
