"""Each FedAc formulation against fedtheory's FedAc on the interpolated worst instance, and a negative control."""

import numpy as np
import pytest

from fedtheory.algorithms.fedac import prescribed_gamma
from fedtheory.harness.claims import judge
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import accelerated as acc
from fedtheory.pep.solve import worst_case

MU, L = 0.1, 1.0


def _check(formulation, replay, params, **replay_extra):
    worst = worst_case(formulation, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= worst.accuracy
    assert abs(replay(worst, **params, **replay_extra) - worst.primal) <= worst.replay_tolerance
    return worst


@pytest.mark.parametrize(
    ("variant", "K", "R", "eta"),
    [("FedAc-I", 2, 2, 1.0), ("FedAc-II", 2, 2, 0.3), ("FedAc-I", 1, 3, 0.05), ("FedAc-II", 3, 1, 1.0)],
)
def test_potential_replay_matches_the_worst_case(variant, K, R, eta):
    weight = MU / 2 if variant == "FedAc-I" else MU / 6
    params = dict(K=K, R=R, eta=eta, gamma=prescribed_gamma(eta, MU, K), variant=variant, mu=MU, L=L, weight=weight)
    worst = _check(acc.fedac_potential, acc.replay_fedac_potential, params)
    assert 0 < worst.value < 1  # a contraction of the normalised potential
    for M in (1, 3):  # identical clients: FedAc is M-independent (pathwise)
        assert abs(acc.replay_fedac_potential(worst, **params, M=M) - worst.primal) <= worst.replay_tolerance


@pytest.mark.parametrize(("variant", "gamma"), [("FedAc-I", 0.5), ("FedAc-II", float(np.sqrt(0.5 / MU)))])
def test_one_step_potential_from_a_free_start_replays(variant, gamma):
    params = dict(K=1, R=1, eta=0.5, gamma=gamma, variant=variant, mu=MU, L=L, weight=MU / 2, free_start=True)
    worst = _check(acc.fedac_potential, acc.replay_fedac_potential, params)
    assert np.linalg.norm(worst.points["x0"] - worst.points["x_ag0"]) > 1e-6  # the start is a free pair


@pytest.mark.parametrize(("R", "weight"), [(2, 0.0), (0, MU / 2)])
def test_gap_replay_matches_the_worst_case(R, weight):
    params = dict(K=2, R=R, eta=1.0, gamma=prescribed_gamma(1.0, MU, 2), variant="FedAc-I", mu=MU, L=L, weight=weight)
    worst = _check(acc.fedac_gap, acc.replay_fedac_gap, params)
    if R == 0:
        assert worst.value == pytest.approx((L + MU) / 2, abs=1e-6)  # (L + mu)/2 B^2: the initial Psi's worst case


@pytest.mark.parametrize(("variant", "K", "gamma"), [("FedAc-I", 1, 0.5), ("FedAc-II", 2, 1.2), ("FedAc-I", 1, 2.0)])
def test_stability_replay_matches_the_worst_case(variant, K, gamma):
    params = dict(K=K, eta=0.4, gamma=gamma, variant=variant, mu=MU, L=L)
    _check(acc.fedac_stability, acc.replay_fedac_stability, params)


def test_a_bound_below_the_worst_case_fails_on_a_replayed_instance():
    """Negative control: Lemma 3.7's one-step contraction against a factor 1% below the worst case."""
    grid = [
        dict(K=1, R=1, eta=1.0, gamma=g, variant="FedAc-I", mu=MU, L=L, weight=MU / 2, free_start=True)
        for g in (1.0, float(np.sqrt(1 / MU)))
    ]
    w = [worst_case(acc.fedac_potential, **p).value for p in grid]
    assert all(v <= 1 - p["gamma"] * MU for v, p in zip(w, grid, strict=True))  # the printed factor holds
    ev = class_evidence(acc.fedac_potential, acc.replay_fedac_potential, grid, bound=[0.99 * v for v in w])
    assert judge(ev).verdict == "fails" and ev.pep["replayed"] == 2
    assert ev.witness["replayed"] > 0.99 * ev.witness["pep_worst"]


@pytest.mark.parametrize(("variant", "lam", "c"), [("FedAc-I", 0.5, 1.0), ("FedAc-II", 0.05, 0.3)])
def test_augmented_gap_replay_matches_the_worst_case(variant, lam, c):
    eta = c / (L + lam)
    params = dict(K=2, R=2, eta=eta, gamma=prescribed_gamma(eta, lam, 2), variant=variant, lam=lam, L=L)
    _check(acc.fedac_augmented_gap, acc.replay_fedac_augmented_gap, params)
