"""Verdicts from worst cases over a class: holds, a replay-confirmed failure, and the report's pep record."""

import json

import pytest

from fedtheory.harness.claims import judge
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import local_methods as lm
from fedtheory.pep.solve import worst_case

GRID = [dict(M=2, K=1, R=2, eta=0.5, mu=0.1, L=1.0, zeta2=1.0), dict(M=2, K=2, R=2, eta=0.5, mu=0.1, L=1.0, zeta2=1.0)]


def test_a_bound_above_every_worst_case_holds_without_replay():
    ev = class_evidence(lm.fedavg_distance, lm.replay_fedavg_distance, GRID, bound=[0.9, 0.9])
    assert judge(ev).verdict == "holds"
    assert ev.pep["points"] == 2 and ev.pep["replayed"] == 0
    assert ev.pep["worst_case"] == pytest.approx(0.8145, abs=1e-4)
    json.dumps(ev.pep)  # the report stores it as is


def test_a_bound_below_the_worst_case_fails_on_a_replayed_instance():
    """Negative control: the same worst cases against a bound 1% below them."""
    w = [worst_case(lm.fedavg_distance, **p).value for p in GRID]
    ev = class_evidence(lm.fedavg_distance, lm.replay_fedavg_distance, GRID, bound=[0.99 * v for v in w])
    out = judge(ev)
    assert out.verdict == "fails" and ev.pep["replayed"] == 2
    assert ev.witness["replayed"] > 0.99 * ev.witness["pep_worst"]  # a concrete instance of the class breaks it


def test_a_worst_case_within_the_accuracy_of_its_bound_holds():
    w = worst_case(lm.fedavg_distance, **GRID[0])
    ev = class_evidence(lm.fedavg_distance, lm.replay_fedavg_distance, GRID[:1], bound=[w.value - 0.5 * w.accuracy])
    assert judge(ev).verdict == "holds" and ev.pep["replayed"] == 0


def test_a_bound_between_the_replay_and_the_worst_case_is_inconclusive():
    w = worst_case(lm.fedavg_distance, **GRID[1])
    replayed = lm.replay_fedavg_distance(w, **GRID[1])
    assert replayed < w.value - 10 * w.accuracy  # this instance's replay gap is wider than the accuracy
    ev = class_evidence(lm.fedavg_distance, lm.replay_fedavg_distance, GRID[1:], bound=[(replayed + w.value) / 2])
    assert judge(ev).verdict == "inconclusive"


def test_empty_grid_is_refused():
    with pytest.raises(ValueError, match="grid"):
        class_evidence(lm.fedavg_distance, lm.replay_fedavg_distance, [], bound=[])
