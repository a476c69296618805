"""Exact moments of FedAc on quadratics (``fedtheory.exact.fedac_moments``): the round-by-round recursion against the
powered one-step map, and binary powering against repeated composition."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rounding import gamma

from fedtheory.algorithms import fedac
from fedtheory.exact.fedac_moments import fedac_moments, powered_gap, powered_potentials
from fedtheory.exact.moments import affine_power
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import FederatedQuadratic, random_rotation, spd_matrix


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(0, 40))
def test_binary_powering_is_repeated_composition(seed, n):
    rng = np.random.default_rng(seed)
    G = 0.3 * rng.normal(size=(3, 3))
    c, L = rng.normal(size=3), rng.normal(size=(3, 3))
    W = L @ L.T
    power = affine_power(G, c, W, n)
    step = (np.eye(3), np.zeros(3), np.zeros((3, 3)))
    for _ in range(n):
        step = (G @ step[0], G @ step[1] + c, G @ step[2] @ G.T + W)
    for a, b in zip(power, step):
        np.testing.assert_allclose(a, b, rtol=gamma(64 * max(n, 1)), atol=gamma(64 * max(n, 1)))


@pytest.mark.parametrize("build", [fedac.fedac_i, fedac.fedac_ii])
def test_powered_gap_is_the_recursion_s_last_round(build):
    rng = np.random.default_rng(1)
    problem = FederatedQuadratic(spd_matrix(random_rotation(rng, 3), [1.0, 0.3, 0.1]), rng.normal(size=3))
    C = np.diag([0.5, 0.3, 0.2])
    x0 = problem.x_star + rng.normal(size=3)
    params = build(0.05, problem.mu, 4, 8, L=1.0)
    exact = fedac_moments(AdditiveGaussian(problem, cov=C), params, x0, 16).suboptimality()[-1]
    # 64 steps of a contraction, multiplied in two orders: they differ by rounding (about 1e-14 relative)
    assert powered_gap(problem, C, params, x0, 16) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("build", [fedac.fedac_i, fedac.fedac_ii])
def test_powered_potentials_are_the_recursion_s_last_round(build):
    rng = np.random.default_rng(2)
    problem = FederatedQuadratic(spd_matrix(random_rotation(rng, 3), [1.0, 0.3, 0.1]), rng.normal(size=3))
    C = np.diag([0.5, 0.3, 0.2])
    x0 = problem.x_star + rng.normal(size=3)
    params = build(0.05, problem.mu, 4, 8, L=1.0)
    mom = fedac_moments(AdditiveGaussian(problem, cov=C), params, x0, 16)
    psi, phi = powered_potentials(problem, C, params, x0, 16)
    # as above: two multiplication orders of 64 contraction steps agree to rounding
    assert psi == pytest.approx(mom.psi()[-1], rel=1e-12)
    assert phi == pytest.approx(mom.phi()[-1], rel=1e-12)
