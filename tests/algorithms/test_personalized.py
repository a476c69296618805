"""Personalised methods: Per-FedAvg with alpha = 0 is local SGD (FedAvg), pFedMe's inner steps converge to the
closed-form prox, the personalised primal-dual round by hand, one-step fine-tuning, Ditto (by hand, its global model
is FedAvg, lambda = 0 is local GD, a large lambda pins the personal models to the global one, its personal step is the
primal-dual local step at lambda/2), bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import client_server as cs
from fedtheory.algorithms import personalized as ps
from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import InvalidParameterError, ZeroMultiplierMassError
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)


def quad(rng, N, d=3):
    G = rng.normal(size=(N, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + 0.3 * np.eye(d), 2 * rng.normal(size=(N, d)))


@settings(max_examples=20)
@given(N=st.integers(2, 5), K=st.integers(1, 4), n=st.integers(1, 5), seed=seeds)
def test_per_fedavg_with_alpha_zero_is_local_sgd(N, K, n, seed):
    rng = np.random.default_rng(seed)
    oracle, x = ExactGradient(quad(rng, N)), rng.normal(size=(2, 3))
    sizes = tuple(rng.integers(1, 9, N).astype(float))
    ours = ps.per_fedavg_round(
        x, oracle, ps.PerFedAvgParams(0.0, 0.07, K, N, min(n, N), sizes), np.random.default_rng(1)
    )
    ref = cs.fedavg_round(x, oracle, cs.ClientServerParams(0.07, K, N, min(n, N), sizes), np.random.default_rng(1))
    assert np.allclose(ours, ref, rtol=0, atol=1e-13)


def test_per_fedavg_one_step_by_hand():
    rng = np.random.default_rng(2)
    problem = quad(rng, 3)
    x = rng.normal(size=(1, 3))
    w = np.broadcast_to(x, (3, 3))
    v = w - 0.1 * problem.client_grad(w)
    expected = (w - 0.05 * problem.client_grad(v)).mean(axis=0)
    got = ps.per_fedavg_round(x, ExactGradient(problem), ps.PerFedAvgParams(0.1, 0.05, 1, 3, 3), None)
    assert np.allclose(got[0], expected, atol=1e-13)


@settings(max_examples=20)
@given(N=st.integers(2, 4), mu=st.floats(0.1, 10), seed=seeds)
def test_pfedme_inner_steps_converge_to_the_exact_prox(N, mu, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    w = rng.normal(size=(2, N, 3))
    exact = ps.prox_quadratic(problem, w, mu)
    stationary = problem.client_grad(exact) + mu * (exact - w)
    assert np.allclose(stationary, 0, atol=1e-10)
    steps = ps.prox_steps(w, ExactGradient(problem), mu, 1 / (problem.L + mu), 3000, None)
    assert np.allclose(steps, exact, atol=1e-9)


def test_pfedme_round_exact_against_inner_steps_and_by_hand():
    rng = np.random.default_rng(4)
    problem, x = quad(rng, 3), rng.normal(size=(1, 3))
    common = dict(eta=0.2, mu=2.0, K=4000, inner_lr=1 / (problem.L + 2), R=3, N=3, participants=3, server_beta=0.5)
    exact = ps.pfedme_round(x, ExactGradient(problem), ps.PFedMeParams(**common, exact=True), None)
    steps = ps.pfedme_round(x, ExactGradient(problem), ps.PFedMeParams(**common), None)
    w = np.broadcast_to(x, (3, 3))
    for _ in range(3):
        w = w - 0.2 * 2.0 * (w - np.linalg.solve(problem.A + 2 * np.eye(3), (problem.b + 2 * w)[..., None])[..., 0])
    assert np.allclose(exact[0], x[0] + 0.5 * (w.mean(axis=0) - x[0]), atol=1e-12)
    assert np.allclose(steps, exact, atol=1e-9)


def test_personalized_primal_dual_round_by_hand():
    rng = np.random.default_rng(5)
    problem = quad(rng, 3)
    state = pd.init(rng.normal(size=3), 3, lam0=np.array([0.5, 1.0, 2.0]))
    params = ps.PersonalizedPrimalDualParams(0.05, 0.02, 0.3, 2, 2, 3, 3)
    new = ps.personalized_primal_dual_round(state, ExactGradient(problem), params, None)
    z, lam = state.z[0], state.lam[0][:, None]
    w = np.broadcast_to(z, (3, 3))
    for _ in range(2):
        v = w
        for _ in range(2):
            v = v - 0.05 * (problem.client_grad(v) + 2 * lam * (v - z))
        w = w - 0.02 * problem.client_grad(v)
    lam_new = np.maximum(lam[:, 0] + 0.3 * np.sum((w - z) ** 2, -1), 0)
    assert np.allclose(new.x[0], w, atol=1e-13)
    assert np.allclose(new.lam[0], lam_new, atol=1e-13)
    assert np.allclose(new.z[0], lam_new @ w / lam_new.sum(), atol=1e-13)


def test_personalized_primal_dual_zero_mass_raises():
    problem = quad(np.random.default_rng(6), 3)
    params = ps.PersonalizedPrimalDualParams(0.05, 0.02, 0.0, 1, 1, 3, 3)
    with pytest.raises(ZeroMultiplierMassError):
        ps.personalized_primal_dual_round(pd.init(np.zeros(3), 3), ExactGradient(problem), params, None)


def test_fine_tune_is_one_local_gradient_step():
    rng = np.random.default_rng(7)
    problem = quad(rng, 4)
    x = rng.normal(size=(2, 3))
    out = ps.fine_tune(x, ExactGradient(problem), 0.1, None)
    xs = np.broadcast_to(x[:, None], (2, 4, 3))
    assert np.allclose(out, xs - 0.1 * problem.client_grad(xs), atol=1e-14)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="alpha"):
        ps.PerFedAvgParams(-0.1, 0.1, 1, 3, 3)
    with pytest.raises(InvalidParameterError, match="mu"):
        ps.PFedMeParams(0.1, 0.0, 2, 0.1, 1, 3, 3)
    with pytest.raises(InvalidParameterError, match="J"):
        ps.PersonalizedPrimalDualParams(0.1, 0.1, 0.1, 1, 0, 3, 3)
    with pytest.raises(InvalidParameterError, match="participants"):
        ps.PersonalizedPrimalDualParams(0.1, 0.1, 0.1, 1, 1, 3, 5)
    with pytest.raises(InvalidParameterError, match="lr"):
        ps.fine_tune(np.zeros((1, 3)), ExactGradient(quad(np.random.default_rng(0), 3)), 0.0, None)


# Ditto (Algorithm 1 of Li, Hu, Beirami, Smith 2021)
def ditto_params(**kw):
    base = dict(eta=0.05, lam=1.0, s=2, lr=0.05, K=3, N=4, participants=4)
    return ps.DittoParams(**{**base, **kw})


def test_ditto_round_by_hand():
    rng = np.random.default_rng(8)
    problem = quad(rng, 4)
    state = ps.DittoState(rng.normal(size=(1, 3)), rng.normal(size=(1, 4, 3)))
    new = ps.ditto_round(state, ExactGradient(problem), ditto_params(), None)
    w, v = state.w[0], state.v[0]
    for _ in range(2):
        v = v - 0.05 * (problem.client_grad(v) + 1.0 * (v - w))
    u = np.broadcast_to(w, (4, 3))
    for _ in range(3):
        u = u - 0.05 * problem.client_grad(u)
    assert np.allclose(new.v[0], v, atol=1e-13)
    assert np.allclose(new.w[0], u.mean(axis=0), atol=1e-13)
    assert new.t == 1 and new.sampled.all()


@settings(max_examples=20)
@given(N=st.integers(2, 5), K=st.integers(1, 4), n=st.integers(1, 5), seed=seeds)
def test_ditto_global_model_is_fedavg_and_unsampled_keep_personal(N, K, n, seed):
    rng = np.random.default_rng(seed)
    oracle, n = ExactGradient(quad(rng, N)), min(n, N)
    state = ps.ditto_init(rng.normal(size=(3, 3)), N, S=3)
    state.v = state.v + rng.normal(size=state.v.shape)
    params = ditto_params(N=N, K=K, participants=n)
    new = ps.ditto_round(state, oracle, params, np.random.default_rng(seed))
    ref = cs.fedavg_round(state.w, oracle, cs.ClientServerParams(0.05, K, N, n), np.random.default_rng(seed))
    assert np.allclose(new.w, ref, atol=1e-12)
    assert np.array_equal(new.v[~new.sampled], state.v[~new.sampled])
    assert new.sampled.sum(axis=1).tolist() == [n] * 3


@settings(max_examples=20)
@given(s=st.integers(1, 5), seed=seeds)
def test_ditto_lam_zero_is_local_gd_and_large_lam_pins_personal_to_global(s, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, 3)
    oracle, state = ExactGradient(problem), ps.ditto_init(rng.normal(size=3), 3)
    state.v = state.v + rng.normal(size=state.v.shape)
    local = ps.ditto_round(state, oracle, ditto_params(lam=0.0, s=s, N=3, participants=3), None)
    v = state.v[0]
    for _ in range(s):
        v = v - 0.05 * problem.client_grad(v)
    assert np.allclose(local.v[0], v, atol=1e-12)
    big = 1e9
    pinned = ps.ditto_round(
        state, oracle, ditto_params(eta=1 / (problem.L + big), lam=big, s=s, N=3, participants=3), None
    )
    assert np.abs(pinned.v[0] - state.w[0]).max() < 1e-6 * (1 + np.abs(state.v).max())


def test_ditto_personal_step_is_the_primal_dual_local_step_at_half_lambda():
    rng = np.random.default_rng(9)
    problem = quad(rng, 3)
    oracle, state = ExactGradient(problem), ps.ditto_init(rng.normal(size=(2, 3)), 3, S=2)
    state.v = state.v + rng.normal(size=state.v.shape)
    new = ps.ditto_round(state, oracle, ditto_params(lam=3.0, s=4, N=3, participants=3), None)
    same = pd.local_steps(state.v, state.w, np.full((2, 3), 1.5), oracle, 0.05, 4, None)
    assert np.allclose(new.v, same, atol=1e-13)
    assert not np.allclose(new.v, pd.local_steps(state.v, state.w, np.full((2, 3), 3.0), oracle, 0.05, 4, None))


def test_ditto_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="lam"):
        ditto_params(lam=-1.0)
    with pytest.raises(InvalidParameterError, match="s"):
        ditto_params(s=0)
    with pytest.raises(InvalidParameterError, match="eta"):
        ditto_params(eta=0.0)
    with pytest.raises(InvalidParameterError, match="participants"):
        ditto_params(participants=7)
    state = ps.ditto_init(np.zeros(3), 3)
    with pytest.raises(InvalidParameterError, match="params"):
        ps.ditto_round(state, ExactGradient(quad(np.random.default_rng(0), 3)), ditto_params(), None)
