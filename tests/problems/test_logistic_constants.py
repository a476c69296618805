"""Certified constants of logistic regression (``fedtheory.problems.logistic_constants``): every certified bound is
above its sampled lower estimate, on homogeneous and heterogeneous data."""

import numpy as np
import pytest
from scipy.special import expit

from fedtheory.problems import logistic_data
from fedtheory.problems.logistic_constants import LOSS_THIRD, certified_constants, sampled_constants


def test_loss_third_is_the_supremum_of_the_third_derivative():
    s = expit(np.linspace(-10, 10, 200_001))
    assert np.max(np.abs(s * (1 - s) * (1 - 2 * s))) == pytest.approx(LOSS_THIRD, rel=1e-9)


@pytest.mark.parametrize("n_clients", [1, 3])
def test_certified_constants_bound_their_sampled_estimates(n_clients):
    rng = np.random.default_rng(n_clients)
    problem = logistic_data(rng, n_clients=n_clients, n_per_client=20, dim=3, separation=1.0, l2=0.1)
    certified = certified_constants(problem)
    sampled = sampled_constants(problem, np.zeros(3), rng)
    for key, lower in sampled.items():
        assert 0 <= lower <= certified[key], key
    assert (certified["zeta"] == 0) == (n_clients == 1)  # one client: no heterogeneity
