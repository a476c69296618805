"""Decentralized rounds: reductions pathwise (beta = 0 is DFedAvg, radius 0 SAM is SGD, the complete graph is
FedAvg, the lookahead equals DFedAvg on W_beta), averaging invariants, SAM geometry, counters, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import topology as tp
from fedtheory.algorithms import decentralized as dc
from fedtheory.algorithms import fedavg, fedsam
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)


def quad(rng, m, d=3):
    G = rng.normal(size=(m, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + 0.2 * np.eye(d), 2 * rng.normal(size=(m, d)))


def run(oracle, W, params, T, seed, S=3, x0=None):
    d = oracle.problem.dim
    return dc.run(oracle, W, np.ones(d) if x0 is None else x0, params, T, np.random.default_rng(seed), S=S)


@settings(max_examples=25)
@given(m=st.integers(3, 8), K=st.integers(1, 4), seed=seeds)
def test_beta_zero_is_dfedavg_bit_for_bit(m, K, seed):
    rng = np.random.default_rng(seed)
    oracle, W = AdditiveGaussian(quad(rng, m), 0.3), tp.ring(m)
    eta = 0.1 / oracle.problem.L
    a = run(oracle, W, dc.oledfl(eta, K, 0.0), 6, seed)
    b = run(oracle, W, dc.dfedavg(eta, K), 6, seed)
    assert np.array_equal(a.x, b.x)
    c = run(oracle, W, dc.oledfl(eta, K, 1e-3), 6, seed)
    assert not np.array_equal(a.x[-1], c.x[-1])


@settings(max_examples=25)
@given(m=st.integers(2, 6), K=st.integers(1, 4), beta=st.floats(0, 0.9), seed=seeds)
def test_sam_radius_zero_is_sgd_bit_for_bit(m, K, beta, seed):
    rng = np.random.default_rng(seed)
    oracle, W = AdditiveGaussian(quad(rng, m), 0.3), tp.complete(m)
    eta = 0.1 / oracle.problem.L
    a = run(oracle, W, dc.oledfl(eta, K, beta, sam_radius=0.0), 5, seed)
    b = run(oracle, W, dc.oledfl(eta, K, beta), 5, seed)
    assert np.array_equal(a.x, b.x)


@settings(max_examples=25)
@given(m=st.integers(2, 6), K=st.integers(1, 5), seed=seeds)
def test_complete_graph_dfedavg_is_fedavg(m, K, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, m)
    eta = 0.2 / problem.L
    a = run(ExactGradient(problem), tp.complete(m), dc.dfedavg(eta, K), 8, seed, S=1)
    b = fedavg.run(ExactGradient(problem), np.ones(3), fedavg.FedAvgParams(eta, K, m), 8, None)
    assert np.allclose(a.x[-1, 0], b.final[0], rtol=1e-12, atol=1e-12)
    assert np.allclose(a.x[-1, 0], a.x[-1, 0].mean(axis=0), atol=1e-12)  # consensus after every round


@settings(max_examples=25)
@given(m=st.integers(3, 7), K=st.integers(1, 5), beta=st.floats(0, 1.5), seed=seeds, varying=st.booleans())
def test_lookahead_is_dfedavg_with_the_shifted_matrix(m, K, beta, seed, varying):
    """X_0^t = W_beta X_K^{t-1}: the local models coincide with DFedAvg whose pre-step matrix is W_beta."""
    rng = np.random.default_rng(seed)
    oracle = AdditiveGaussian(quad(rng, m), 0.5)
    topology = tp.RandomNeighbours(m, 1) if varying else tp.ring(m)
    params = dc.oledfl(0.1 / oracle.problem.L, K, beta)
    state, r1 = dc.init(np.ones(3), m, 2), np.random.default_rng(seed)
    local, r2, previous = state.x.copy(), np.random.default_rng(seed), None
    for t in range(10):
        state, trace = dc.round(state, oracle, topology, params, r1, trace=True)
        W = tp.at_round(topology, t, r2)  # drawn before the local steps; it gossips at the end of round t
        start = local if t == 0 else previous.shifted(beta).gossip(local)
        local, previous = dc.local_steps(start, oracle, dc.dfedavg(params.eta, K), r2), W
        assert W.dense.tobytes() == trace.W.dense.tobytes()
        scale = 1 + np.abs(local).max()
        assert np.allclose(state.x_local, local, rtol=0, atol=1e-12 * scale)
        assert np.allclose(state.mean, W.gossip(local).mean(axis=-2), rtol=0, atol=1e-12 * scale)


@settings(max_examples=25)
@given(m=st.integers(2, 7), K=st.integers(1, 4), beta=st.floats(0, 0.9), seed=seeds)
def test_mean_dynamics_and_zero_sum_lookahead(m, K, beta, seed):
    """sum_i (x_i^t - x_{i,K}^{t-1}) = 0 and x̄^{t+1} = x̄^t - (eta/m) sum_i sum_k g_{i,k}^t."""
    rng = np.random.default_rng(seed)
    oracle = AdditiveGaussian(quad(rng, m), 0.5)
    params = dc.oledfl(0.1 / oracle.problem.L, K, beta, sam_radius=0.05)
    state, r = dc.init(np.ones(3), m, 2), np.random.default_rng(seed)
    for _ in range(5):
        before = state
        state, trace = dc.round(state, oracle, tp.RandomNeighbours(m, 1), params, r, trace=True)
        assert np.allclose((before.x - before.x_local).sum(axis=1), 0, atol=1e-12)
        step = params.eta * trace.grads.sum(axis=(0, 2)) / m
        assert np.allclose(state.mean, before.mean - step, atol=1e-12)


def test_sam_point_geometry_and_zero_gradient_guard():
    x = np.zeros((2, 3, 4))
    g = np.random.default_rng(0).normal(size=(2, 3, 4))
    g[0, 1] = 0
    p = dc.sam_point(x, g, 0.7)
    norms = np.linalg.norm(p - x, axis=-1)
    assert np.all(np.isfinite(p)) and norms[0, 1] == 0
    assert np.allclose(np.delete(norms.ravel(), 1), 0.7, rtol=1e-12)
    assert np.array_equal(dc.sam_point(x, g, 0.0), x)


def test_lookahead_start_is_lookahead_with_negative_coefficient():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(2, 5, 3))
    assert np.array_equal(dc.lookahead(x, y, -0.4), x + (-0.4) * (y - x))
    assert np.allclose(dc.lookahead(x, y, -0.4), x + 0.4 * (x - y), atol=1e-15)


def test_identity_mixing_with_one_step_is_independent_gradient_descent():
    rng = np.random.default_rng(4)
    problem = quad(rng, 4)
    eta = 0.1 / problem.L
    tr = run(ExactGradient(problem), tp.MixingMatrix(np.eye(4), check=False), dc.dfedavg(eta, 1), 20, 0, S=1)
    x = np.ones((4, 3))
    for _ in range(20):
        x = x - eta * problem.client_grad(x)
    assert np.allclose(tr.x[-1, 0], x, atol=1e-13)


def test_dpsgd_orders():
    rng = np.random.default_rng(5)
    problem, W = quad(rng, 5), tp.ring(5)
    eta = 0.1 / problem.L
    a = run(ExactGradient(problem), W, dc.dpsgd(eta), 3, 0, S=1)
    x = np.ones((5, 3))
    for _ in range(3):
        x = W.dense @ x - eta * problem.client_grad(x)
    assert np.allclose(a.x[-1, 0], x, atol=1e-13)
    b = run(ExactGradient(problem), W, dc.dpsgd(eta, combine_first=False), 3, 0, S=1)
    c = run(ExactGradient(problem), W, dc.dfedavg(eta, 1), 3, 0, S=1)
    assert np.array_equal(b.x, c.x)


def test_momentum_is_heavy_ball_reset_each_round():
    rng = np.random.default_rng(6)
    problem = quad(rng, 3)
    eta, theta = 0.05 / problem.L, 0.9
    state = dc.init(np.ones(3), 3)
    new = dc.round(state, ExactGradient(problem), tp.complete(3), dc.dfedavgm(eta, 3, theta), None)
    x = y_prev = np.ones((3, 3))
    for _ in range(3):
        y = x - eta * problem.client_grad(x)
        x, y_prev = y + theta * (y - y_prev), y
    assert np.allclose(new.x_local[0], x, atol=1e-13)


def test_counters():
    rng = np.random.default_rng(7)
    W = tp.ring(6)
    state = dc.init(np.ones(3), 6)
    for params in (dc.oledfl(0.01, 3, 0.5), dc.dfedsam(0.01, 3, 0.1, gossip_steps=2)):
        new = dc.round(state, ExactGradient(quad(rng, 6)), W, params, None)
        per_step = 1 if params.sam_radius is None else 2
        assert new.gradients == 6 * 3 * per_step
        assert new.messages == 2 * W.edges * params.gossip_steps


def test_fedsam_partial_participation_averages_participants_only():
    rng = np.random.default_rng(8)
    problem = quad(rng, 6)
    params = fedsam.FedSAMParams(0.1 / problem.L, 2, 6, 2)
    mask = fedsam.participation_mask(500, 6, 2, np.random.default_rng(0))
    assert np.all(mask.sum(axis=1) == 2)
    assert np.allclose(mask.mean(axis=0), 1 / 3, atol=0.07)
    x = fedsam.run(ExactGradient(problem), np.ones(3), params, 1, np.random.default_rng(1), S=4)[-1]
    r = np.random.default_rng(1)
    chosen = fedsam.participation_mask(4, 6, 2, r)
    local = np.ones((6, 3))
    for _ in range(2):
        local = local - params.eta * problem.client_grad(local)
    assert np.allclose(x, np.einsum("sm,md->sd", chosen, local) / 2, atol=1e-13)
    full = fedsam.run(ExactGradient(problem), np.ones(3), fedsam.FedSAMParams(params.eta, 2, 6, 6), 3, None)
    ref = fedavg.run(ExactGradient(problem), np.ones(3), fedavg.FedAvgParams(params.eta, 2, 6), 3, None)
    assert np.allclose(full[-1], ref.final, atol=1e-13)


def test_divergence_reports_the_round():
    problem = quad(np.random.default_rng(9), 4)
    with pytest.raises(DivergenceError, match="round"):
        run(ExactGradient(problem), tp.ring(4), dc.dfedavg(50.0 / problem.L, 2), 400, 0, S=1)


def test_bad_input_names_the_parameter():
    for kwargs, name in [
        ({"eta": 0.0, "K": 1}, "eta"),
        ({"eta": 0.1, "K": 0}, "K"),
        ({"eta": 0.1, "K": 1, "beta": np.nan}, "beta"),
        ({"eta": 0.1, "K": 1, "sam_radius": -1.0}, "sam_radius"),
        ({"eta": 0.1, "K": 1, "momentum": 1.0}, "momentum"),
        ({"eta": 0.1, "K": 2, "combine_first": True}, "combine_first"),
    ]:
        with pytest.raises(InvalidParameterError, match=name):
            dc.DecentralizedParams(**kwargs)
    problem = quad(np.random.default_rng(0), 4)
    with pytest.raises(InvalidParameterError, match="W"):
        run(ExactGradient(problem), tp.ring(5), dc.dfedavg(0.1, 1), 1, 0)
    with pytest.raises(InvalidParameterError, match="W"):
        run(ExactGradient(problem), np.eye(4), dc.dfedavg(0.1, 1), 1, 0)
    with pytest.raises(InvalidParameterError, match="participants"):
        fedsam.FedSAMParams(0.1, 1, 4, 5)
