"""Each client-server formulation against fedtheory's implementation on the interpolated worst instance."""

import pytest

from fedtheory.pep import local_methods as lm
from fedtheory.pep.solve import worst_case


@pytest.mark.parametrize(("M", "K", "R", "mu"), [(2, 1, 2, 0.1), (2, 2, 2, 0.1), (3, 2, 1, 0.0), (2, 3, 2, -1.0)])
def test_fedavg_replay_matches_the_worst_case(M, K, R, mu):
    params = dict(M=M, K=K, R=R, eta=0.5, mu=mu, L=1.0, zeta2=1.0)
    worst = worst_case(lm.fedavg_distance, **params)
    assert worst.accuracy < 1e-6
    assert abs(worst.value - worst.primal) <= worst.accuracy
    assert abs(lm.replay_fedavg_distance(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_published_values_and_the_cache():
    params = dict(M=2, K=1, R=2, eta=0.5, mu=0.1, L=1.0, zeta2=1.0)
    worst = worst_case(lm.fedavg_distance, **params)
    assert worst.value == pytest.approx(0.8145, abs=1e-4)  # PEPit 0.5.1, as measured when the layer was planned
    assert worst_case(lm.fedavg_distance, **params) is worst
