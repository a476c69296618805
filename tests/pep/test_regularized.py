"""Each regularized-round formulation against fedtheory's implementation (or the interpolants) on its worst case."""

import pytest

from fedtheory.harness.pep import class_evidence
from fedtheory.pep import regularized as rg
from fedtheory.pep.solve import worst_case

ROUND = dict(N=2, K=2, gamma_l=0.2, gamma_g=1.0, eta=0.5, mu_f=0.5, L_f=1.0, L_h=1.0)
CASES = [
    (rg.gradient_dissimilarity, rg.replay_gradient_dissimilarity, dict(N=2, L=1.0, D=1.0, Delta=1.0)),
    (rg.perturbed_strong_convexity, rg.replay_perturbed_strong_convexity, dict(eta=0.5, mu_f=0.5, L_f=1.0, L_h=1.0)),
    (
        rg.regularized_gradient_dissimilarity,
        rg.replay_regularized_gradient_dissimilarity,
        dict(N=2, eta=0.5, mu_f=0.0, L_f=1.0, L_h=1.0, gap=1.0, G2=1.0),
    ),
    (rg.str_round_distance, rg.replay_str_round_distance, dict(ROUND, drift_coefficient=1.8)),
    (rg.str_round_drift, rg.replay_str_round_drift, dict(ROUND, gap=1.0, G2=1.0)),
    (
        rg.str_fedavg_average_gap,
        rg.replay_str_fedavg_average_gap,
        dict(ROUND, K=1, R=2, theta=1.1, distance_weight=0.5, D2=1.0, G2=1.0),
    ),
]


@pytest.mark.parametrize(("formulation", "replay", "params"), CASES, ids=[c[0].__name__ for c in CASES])
def test_replay_matches_the_worst_case(formulation, replay, params):
    worst = worst_case(formulation, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= max(worst.accuracy, 1e-9 * (1 + abs(worst.primal)))
    assert abs(replay(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_lemma_1_worst_case_and_a_failing_bound_is_replayed():
    params = dict(N=2, L=1.0, D=1.0, Delta=1.0)
    worst = worst_case(rg.gradient_dissimilarity, **params)
    assert worst.value == pytest.approx(4.0, abs=1e-6)  # 2 L (D + Delta): each client at its own worst
    ev = class_evidence(rg.gradient_dissimilarity, rg.replay_gradient_dissimilarity, [params], bound=[3.0])
    lo, hi = ev.interval
    assert lo[0] > 3.0 and hi[0] >= lo[0]  # the replayed instance exceeds the bound: a confirmed failure


def test_a_bound_just_below_the_worst_case_fails_with_a_replay():
    params = dict(eta=0.5, mu_f=0.5, L_f=1.0, L_h=1.0)
    worst = worst_case(rg.perturbed_strong_convexity, **params)
    bound = worst.value - 1e-3
    ev = class_evidence(rg.perturbed_strong_convexity, rg.replay_perturbed_strong_convexity, [params], bound=[bound])
    assert ev.interval[0][0] > bound
    assert "replayed" in ev.witness
