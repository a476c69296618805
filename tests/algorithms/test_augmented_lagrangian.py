"""The augmented-Lagrangian primal-dual method (FedPD's Algorithm 1): one round by hand, the exact oracle against
many local steps, the fixed point is the consensus optimum x* (p = 1), p = 1 averages every round, p < 1 draws the
communications, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import augmented_lagrangian as al
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)


def quad(rng, N, d=3):
    G = rng.normal(size=(N, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + 0.3 * np.eye(d), 2 * rng.normal(size=(N, d)))


def test_round_by_hand():
    rng = np.random.default_rng(1)
    problem = quad(rng, 3)
    state = al.AugmentedLagrangianState(
        rng.normal(size=(1, 3, 3)), rng.normal(size=(1, 3, 3)), rng.normal(size=(1, 3, 3))
    )
    eta, lr = 0.5, 0.05
    new = al.round(state, ExactGradient(problem), al.AugmentedLagrangianParams(eta, 3, K=2, lr=lr), None)
    x, lam, x0 = state.x[0], state.lam[0], state.x0[0]
    for _ in range(2):
        x = x - lr * (problem.client_grad(x) + lam + (x - x0) / eta)
    lam = lam + (x - x0) / eta
    assert np.allclose(new.x[0], x, atol=1e-13)
    assert np.allclose(new.lam[0], lam, atol=1e-13)
    assert np.allclose(new.x0[0], np.broadcast_to((x + eta * lam).mean(axis=0), (3, 3)), atol=1e-13)
    assert new.communicated.all() and new.t == 1


@settings(max_examples=20)
@given(N=st.integers(2, 5), eta=st.floats(0.05, 5.0), seed=seeds)
def test_exact_oracle_solves_the_local_problem(N, eta, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    x0, lam = rng.normal(size=(2, N, 3)), rng.normal(size=(2, N, 3))
    x = al.exact_local(problem, x0, lam, eta)
    assert np.allclose(problem.client_grad(x) + lam + (x - x0) / eta, 0, atol=1e-10)
    steps = al.local_steps(x0, x0, lam, ExactGradient(problem), eta, 1 / (problem.L + 1 / eta), 3000, None)
    assert np.allclose(steps, x, atol=1e-8)


@settings(max_examples=15)
@given(N=st.integers(2, 5), eta=st.floats(0.2, 3.0), exact=st.booleans(), seed=seeds)
def test_fixed_point_is_the_consensus_optimum(N, eta, exact, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    lr = None if exact else 1 / (problem.L + 1 / eta)
    params = al.AugmentedLagrangianParams(eta, N, K=20, lr=lr, exact=exact)
    traj = al.run(ExactGradient(problem), np.zeros(3), params, 600, None)
    scale = 1 + np.abs(problem.x_star).max()
    assert np.abs(traj.server[-1, 0] - problem.x_star).max() < 1e-7 * scale
    assert np.abs(traj.x[-1, 0] - problem.x_star).max() < 1e-7 * scale
    assert np.abs(traj.lam[-1, 0].sum(axis=0)).max() < 1e-6 * scale  # the multipliers balance: sum grad f_i(x*) = 0


def test_full_communication_shares_one_server_model_and_p_below_one_draws():
    rng = np.random.default_rng(2)
    problem = quad(rng, 4)
    full = al.run(
        ExactGradient(problem), np.zeros((3, 3)), al.AugmentedLagrangianParams(1.0, 4, exact=True), 5, None, S=3
    )
    assert np.allclose(full.x0, full.x0[:, :, :1], atol=0) and full.communicated[1:].all()
    params = al.AugmentedLagrangianParams(1.0, 4, p=0.5, exact=True)
    half = al.run(ExactGradient(problem), np.zeros(3), params, 400, np.random.default_rng(3), S=8)
    rate = half.communicated[1:].mean()
    assert 0.4 < rate < 0.6
    apart = ~half.communicated[1:]
    spread = np.abs(half.x0[1:] - half.x0[1:, :, :1]).max(axis=(2, 3))
    assert np.all(spread[~apart] == 0) and np.any(spread[apart] > 0)
    with pytest.raises(InvalidParameterError, match="rng"):
        al.round(al.init(np.zeros(3), 4), ExactGradient(problem), params, None)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="eta"):
        al.AugmentedLagrangianParams(0.0, 3, exact=True)
    with pytest.raises(InvalidParameterError, match="p"):
        al.AugmentedLagrangianParams(1.0, 3, p=0.0, exact=True)
    with pytest.raises(InvalidParameterError, match="lr"):
        al.AugmentedLagrangianParams(1.0, 3)
    with pytest.raises(InvalidParameterError, match="K"):
        al.AugmentedLagrangianParams(1.0, 3, K=0, lr=0.1)
    problem = quad(np.random.default_rng(4), 3)
    with pytest.raises(InvalidParameterError, match="params"):
        al.round(
            al.init(np.zeros(3), 4), ExactGradient(problem), al.AugmentedLagrangianParams(1.0, 3, exact=True), None
        )
    with pytest.raises(InvalidParameterError, match="eta"):
        al.exact_local(problem, np.zeros((1, 3, 3)), np.zeros((1, 3, 3)), -1.0)
    with pytest.raises(DivergenceError):
        al.run(ExactGradient(problem), np.ones(3), al.AugmentedLagrangianParams(1.0, 3, K=50, lr=100.0), 50, None)
