"""The primal-dual method beyond consensus: server step as weighted least squares, zero multiplier mass refused,
reductions (equal fixed multipliers with a cold start are FedProx-style proximal local steps averaged), the exact
local oracle as the limit of local steps, warm-start fixed points independent of K, dual projection, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import InvalidParameterError, ZeroMultiplierMassError
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)


def quad(rng, N, d=3):
    G = rng.normal(size=(N, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + 0.3 * np.eye(d), 2 * rng.normal(size=(N, d)))


@settings(max_examples=30)
@given(N=st.integers(2, 6), seed=seeds)
def test_server_step_is_weighted_least_squares(N, seed):
    rng = np.random.default_rng(seed)
    x, lam = rng.normal(size=(2, N, 3)), rng.uniform(0.1, 2, size=(2, N))
    mask = np.ones((2, N), dtype=bool)
    z = pd.server_step(x, lam, mask, 1)
    grad = np.einsum("sn,snd->sd", lam, z[:, None] - x)  # gradient of sum_j lam_j ||x_j - z||^2 / 2
    assert np.allclose(grad, 0, atol=1e-12)
    assert np.allclose(pd.server_step(x, 7 * lam, mask, 1), z, atol=1e-13)
    assert np.allclose(pd.server_step(x, np.ones_like(lam), mask, 1), x.mean(axis=1), atol=1e-13)


def test_zero_multiplier_mass_is_a_typed_error():
    problem = quad(np.random.default_rng(0), 3)
    params = pd.PrimalDualParams(0.05, 0.0, 2, 3, 3)
    with pytest.raises(ZeroMultiplierMassError, match="round 1"):
        pd.run(ExactGradient(problem), np.zeros(3), params, 2, None, lam0=0.0)


@settings(max_examples=25)
@given(N=st.integers(2, 5), K=st.integers(1, 5), seed=seeds)
def test_equal_fixed_multipliers_cold_start_are_proximal_local_steps_averaged(N, K, seed):
    """lam_i = mu/2 fixed (alpha = 0), cold start: K GD steps on f_i + (mu/2)||x - z||^2, plain mean (FedProx)."""
    rng = np.random.default_rng(seed)
    problem, mu, beta = quad(rng, N), 0.8, 0.05
    params = pd.PrimalDualParams(beta, 0.0, K, N, N, start="cold")
    traj = pd.run(ExactGradient(problem), np.ones(3), params, 4, None, lam0=mu / 2)
    z = np.ones(3)
    for _ in range(4):
        w = np.broadcast_to(z, (N, 3)).copy()
        for _ in range(K):
            w = w - beta * (problem.client_grad(w) + mu * (w - z))
        z = w.mean(axis=0)
    assert np.allclose(traj.z[-1, 0], z, atol=1e-12)


@settings(max_examples=20)
@given(N=st.integers(2, 4), seed=seeds)
def test_exact_oracle_is_the_limit_of_local_steps(N, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    lam = rng.uniform(0.5, 2, size=(1, N))
    z = rng.normal(size=(1, 3))
    exact = pd.exact_local(problem, z, lam)
    beta = 1 / (problem.L + 2 * lam.max())
    steps = pd.local_steps(np.zeros((1, N, 3)), z, lam, ExactGradient(problem), beta, 3000, None)
    assert np.allclose(steps, exact, atol=1e-9)


@settings(max_examples=15)
@given(K=st.integers(1, 4), seed=seeds)
def test_warm_start_fixed_point_does_not_depend_on_K(K, seed):
    """With fixed multipliers the warm-start fixed point is the exact-oracle fixed point (any K, any stable beta)."""
    rng = np.random.default_rng(seed)
    problem = quad(rng, 3)
    beta = 0.5 / (problem.L + 2)
    common = dict(alpha=0.0, N=3, participants=3)
    warm = pd.run(ExactGradient(problem), np.zeros(3), pd.PrimalDualParams(beta, K=K, **common), 3000, None, lam0=1.0)
    exact = pd.run(
        ExactGradient(problem), np.zeros(3), pd.PrimalDualParams(beta, K=1, exact=True, **common), 3000, None, lam0=1.0
    )
    assert np.allclose(warm.z[-1], exact.z[-1], atol=1e-9)


def test_dual_step_projects_onto_the_box_and_uses_the_old_server_model():
    problem = quad(np.random.default_rng(1), 4)
    params = pd.PrimalDualParams(0.05, 10.0, 2, 4, 4, lam_box=(1.0, 3.0))
    state = pd.init(np.zeros(3), 4, lam0=2.0, gamma=0.1)
    new = pd.round(state, ExactGradient(problem), params, None)
    x_new = pd.local_steps(state.x, state.z, state.lam, ExactGradient(problem), 0.05, 2, None)
    expected = np.clip(2.0 + 10.0 * (np.sum((x_new - state.z[:, None]) ** 2, axis=-1) - 0.1), 1.0, 3.0)
    assert np.allclose(new.lam, expected, atol=1e-14)
    assert np.all((new.lam >= 1.0) & (new.lam <= 3.0))


def test_partial_participation_keeps_unsampled_devices_and_weights_sampled_ones():
    problem = quad(np.random.default_rng(2), 6)
    oracle = AdditiveGaussian(problem, 0.1)
    params = pd.PrimalDualParams(0.05, 0.1, 2, 6, 2, lam_box=(0.5, 5.0))
    state = pd.init(np.zeros(3), 6, lam0=1.0, S=4)
    new = pd.round(state, oracle, params, np.random.default_rng(3))
    assert np.all(new.sampled.sum(axis=1) == 2)
    assert np.array_equal(new.x[~new.sampled], state.x[~new.sampled])
    assert np.array_equal(new.lam[~new.sampled], state.lam[~new.sampled])
    assert np.allclose(new.z, pd.server_step(new.x, new.lam, new.sampled, 1))
    every = pd.round(
        state, oracle, pd.PrimalDualParams(0.05, 0.1, 2, 6, 2, (0.5, 5.0), update="all"), np.random.default_rng(3)
    )
    assert not np.array_equal(every.x[~every.sampled], state.x[~every.sampled])


def test_tolerance_heuristic_moves_gamma_by_the_old_multiplier():
    problem = quad(np.random.default_rng(4), 3)
    params = pd.PrimalDualParams(0.05, 0.1, 1, 3, 3, lam_box=(0.0, 10.0), eta_gamma=0.1)
    state = pd.init(np.zeros(3), 3, lam0=[1.0, 2.0, 3.0])
    new = pd.round(state, ExactGradient(problem), params, None)
    assert np.allclose(new.gamma, 0.1 * np.array([[1.0, 2.0, 3.0]]))


def test_bad_input_names_the_parameter():
    for kwargs, name in [
        ({"beta": 0.0}, "beta"),
        ({"alpha": -1.0}, "alpha"),
        ({"participants": 7}, "participants"),
        ({"lam_box": (2.0, 1.0)}, "lam_box"),
        ({"start": "hot"}, "start"),
        ({"update": "some"}, "update"),
    ]:
        base = {"beta": 0.1, "alpha": 0.1, "K": 1, "N": 6, "participants": 3} | kwargs
        with pytest.raises(InvalidParameterError, match=name):
            pd.PrimalDualParams(**base)
    with pytest.raises(InvalidParameterError, match="gamma"):
        pd.init(np.zeros(2), 3, gamma=-1.0)
    problem = quad(np.random.default_rng(5), 3)
    with pytest.raises(InvalidParameterError, match="rng"):
        pd.round(
            pd.init(np.zeros(3), 3, lam0=1.0), ExactGradient(problem), pd.PrimalDualParams(0.1, 0.1, 1, 3, 2), None
        )
