"""Hypothesis properties of the decoupled-prox method and its analysis quantities (beyond the pathwise checks of
test_decoupled): equivariances, stationarity, and the l1 prox facts the analysis uses."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms.composite import decoupled, potentials
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.regularizers import L1

seeds = st.integers(0, 2**16)


def quad(rng, n, d):
    M = rng.normal(size=(n, d, d))
    return FederatedQuadratic(M @ np.swapaxes(M, -1, -2) / d + 0.1 * np.eye(d), 3 * rng.normal(size=(n, d)))


def run(problem, reg, params, x0, R):
    return decoupled.run(ExactGradient(problem), reg, x0, params, R, None)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 5), tau=st.integers(1, 4), seed=seeds)
def test_permuting_the_clients_leaves_the_server_path_unchanged(n, tau, seed):
    rng = np.random.default_rng(seed)
    problem, reg = quad(rng, n, 3), L1(0.4)
    perm = rng.permutation(n)
    permuted = FederatedQuadratic(problem.A[perm], problem.b[perm])
    params = decoupled.DecoupledParams(0.05 / problem.L / tau, 1.5, tau, n)
    a, b = run(problem, reg, params, np.ones(3), 8), run(permuted, reg, params, np.ones(3), 8)
    assert np.allclose(a.x, b.x, rtol=1e-12, atol=1e-12)
    assert np.allclose(a.c[:, :, perm], b.c, rtol=1e-12, atol=1e-11)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 4), tau=st.integers(1, 4), seed=seeds)
def test_without_a_regularizer_shifting_every_client_shifts_the_path(n, tau, seed):
    rng = np.random.default_rng(seed)
    problem, shift = quad(rng, n, 3), rng.normal(size=3)
    shifted = FederatedQuadratic(problem.A, problem.b + np.einsum("nij,j->ni", problem.A, shift))  # f_i(x - s)
    params = decoupled.DecoupledParams(0.05 / problem.L / tau, 1.5, tau, n)
    a, b = run(problem, None, params, np.ones(3), 8), run(shifted, None, params, np.ones(3) + shift, 8)
    assert np.allclose(a.x + shift, b.x, rtol=1e-11, atol=1e-11)


@settings(max_examples=30, deadline=None)
@given(d=st.integers(1, 6), theta=st.floats(0.01, 3.0), beta=st.floats(1e-3, 10.0), seed=seeds)
def test_a_stationary_point_for_one_prox_step_is_stationary_for_every_step(d, theta, beta, seed):
    """x = P_beta(x - beta v) for one beta > 0 iff -v in theta d||x||_1, hence for every beta' > 0; the gradient
    mapping vanishes there; and (w - P_s(w))/s is a subgradient, so its sup norm is at most theta
    (B_g = theta sqrt d)."""
    rng = np.random.default_rng(seed)
    reg = L1(theta)
    x = np.where(rng.random(d) < 0.5, 0.0, rng.normal(size=d))
    v = np.where(x != 0, -theta * np.sign(x), rng.uniform(-theta, theta, d))
    for step in (beta, 1.0, 1e-3):
        assert np.allclose(reg.prox(x - step * v, step), x, rtol=0, atol=1e-12 * (1 + np.abs(x).max() + step * theta))
    w, s = 5 * rng.normal(size=d), beta
    sub = (w - reg.prox(w, s)) / s
    rounding = 4 * np.finfo(float).eps * np.abs(w).max() / s  # (w - P(w)) / s cancels |w| before dividing by s
    assert np.max(np.abs(sub)) <= theta + rounding
    assert np.linalg.norm(sub) <= np.sqrt(d) * (theta + rounding)
    problem = FederatedQuadratic(np.eye(d), (x - v)[None])  # grad f(x) = x - (x - v) = v
    assert np.allclose(potentials.prox_gradient_mapping(problem, reg, x, beta), 0, atol=1e-12 * (1 + theta))


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 5), tau=st.integers(1, 4), seed=seeds)
def test_identical_clients_need_no_correction_and_the_lyapunov_function_is_the_gap(n, tau, seed):
    rng = np.random.default_rng(seed)
    one, reg = quad(rng, 1, 3), L1(0.3)
    problem = FederatedQuadratic(np.broadcast_to(one.A[0], (n, 3, 3)), np.broadcast_to(one.b[0], (n, 3)))
    params = decoupled.DecoupledParams(0.05 / problem.L / tau, 1.5, tau, n)
    state = decoupled.init(rng.normal(size=3), params)
    for _ in range(5):
        state = decoupled.round(state, ExactGradient(problem), reg, params, None)
        scale = 1e-12 * (1 + np.abs(state.x).max() / params.eta_tilde)
        assert np.max(np.abs(state.c)) <= scale
        gap = potentials.composite_value(problem, reg, decoupled.output(reg, state.x, params))
        omega = potentials.lyapunov(problem, reg, state, params, 0.0)
        assert np.allclose(omega, gap, rtol=1e-9, atol=1e-12)
