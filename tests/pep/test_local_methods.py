"""Each client-server formulation against fedtheory's implementation on the interpolated worst instance."""

import pytest

from fedtheory.pep import local_methods as lm
from fedtheory.pep.solve import worst_case


@pytest.mark.parametrize(("M", "K", "R", "mu"), [(2, 1, 2, 0.1), (2, 2, 2, 0.1), (3, 2, 1, 0.0), (2, 3, 2, -1.0)])
def test_fedavg_replay_matches_the_worst_case(M, K, R, mu):
    params = dict(M=M, K=K, R=R, eta=0.5, mu=mu, L=1.0, zeta2=1.0)
    worst = worst_case(lm.fedavg_distance, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= worst.accuracy
    assert abs(lm.replay_fedavg_distance(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_published_values_and_the_cache():
    params = dict(M=2, K=1, R=2, eta=0.5, mu=0.1, L=1.0, zeta2=1.0)
    worst = worst_case(lm.fedavg_distance, **params)
    assert worst.value == pytest.approx(0.8145, abs=1e-4)  # PEPit 0.5.1, as measured when the layer was planned
    assert worst_case(lm.fedavg_distance, **params) is worst


NEW_FORMULATIONS = [
    (lm.fedavg_shadow_gap, lm.replay_fedavg_shadow_gap, dict(M=2, K=2, R=1, eta=0.25, mu=0.0, L=1.0, zeta2=1.0)),
    (lm.fedavg_shadow_lyapunov, lm.replay_fedavg_shadow_lyapunov, dict(M=2, K=2, R=1, eta=0.25, mu=0.1, L=1.0)),
    (lm.fedavg_consensus, lm.replay_fedavg_consensus, dict(M=3, K=3, k=2, eta=0.25, mu=0.0, L=1.0, zeta2=1.0)),
    (lm.local_gd_pair_step, lm.replay_local_gd_pair_step, dict(M=3, eta=0.25, mu=0.0, L=1.0, zeta2=1.0, c=1.5)),
    (lm.local_gd_weighted_gap, lm.replay_local_gd_weighted_gap, dict(M=2, K=2, R=2, eta=0.5, mu=0.0, L=1.0)),
    (
        lm.local_gd_gradient_norm,
        lm.replay_local_gd_gradient_norm,
        dict(M=2, K=2, R=2, eta=0.5, L=1.0, G2=1.0, Delta=1.0),
    ),
    (lm.gd_lipschitz, lm.replay_gd_lipschitz, dict(k=2, eta=0.5, mu=0.1, L=1.0)),
]


@pytest.mark.parametrize(
    ("formulation", "replay", "params"), NEW_FORMULATIONS, ids=lambda v: getattr(v, "__name__", "")
)
def test_local_formulations_replay_their_worst_case(formulation, replay, params):
    worst = worst_case(formulation, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= worst.accuracy
    assert abs(replay(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_gd_lipschitz_is_nonexpansive_and_the_gap_of_local_gd_matches_gd():
    """Known values: gradient steps with eta <= 2/L are non-expansive on F_{0,L} (a linear function attains 1); with
    zeta^2 = 0 and K = R = 1 the shadow gap is one gradient step's worst case L D^2 / (4 eta L + 2) (Drori-Teboulle)."""
    assert worst_case(lm.gd_lipschitz, k=3, eta=1.0, mu=0.0, L=1.0).value == pytest.approx(1.0, abs=1e-6)
    gd = worst_case(lm.fedavg_shadow_gap, M=2, K=1, R=1, eta=1.0, mu=0.0, L=1.0, zeta2=0.0)
    assert gd.value == pytest.approx(1 / 6, abs=1e-5)


def test_a_bound_below_a_new_worst_case_fails_with_a_confirming_replay():
    """Negative control for the new formulations: the consensus worst case against a bound 1% below it."""
    from fedtheory.harness.claims import judge
    from fedtheory.harness.pep import class_evidence

    grid = [dict(M=2, K=3, k=2, eta=0.25, mu=0.0, L=1.0, zeta2=1.0)]
    w = worst_case(lm.fedavg_consensus, **grid[0]).value
    ev = class_evidence(lm.fedavg_consensus, lm.replay_fedavg_consensus, grid, bound=[0.99 * w])
    assert judge(ev).verdict == "fails"
    assert ev.witness["replayed"] > 0.99 * w
