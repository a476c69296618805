"""The decentralized-round formulation against fedtheory's OledFL/DFedAvg on the interpolated worst instance."""

import numpy as np
import pytest

from fedtheory import topology
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import gossip
from fedtheory.pep.solve import worst_case

COMPLETE2 = ((0.5, 0.5), (0.5, 0.5))
LAZY3 = tuple(tuple(float(w) for w in row) for row in topology.ring(3, 0.5).dense)
DRIFT = (("drift", 1.0), ("delta", -0.1), ("grad_agg", -1.0))


def _params(W, K, R, beta, terms, **extra):
    return dict(W=W, K=K, R=R, eta=0.1, beta=beta, L=1.0, G2=1.0, B2=1.0, terms=terms, **extra)


@pytest.mark.parametrize(
    ("W", "K", "R", "beta", "terms"),
    [
        (COMPLETE2, 2, 2, 0.3, DRIFT),  # OledFL, Lemma-1 shape
        (COMPLETE2, 2, 2, 0.0, (("grad_avg", 1.0), ("descent", -5.0), ("delta_next", 0.5))),  # DFedAvg, descent
        (LAZY3, 1, 2, 0.2, (("consensus", 1.0), ("grad_agg", -0.5))),  # consensus on a ring (no last round)
        (COMPLETE2, 1, 2, 0.2, (("delta_next", 1.0), ("delta", -0.5), ("grad_sum", -0.1))),
    ],
)
def test_round_gap_replay_matches_the_worst_case(W, K, R, beta, terms):
    params = _params(W, K, R, beta, terms)
    worst = worst_case(gossip.oledfl_round_gap, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= max(worst.accuracy, 1e-7)
    assert abs(gossip.replay_oledfl_round_gap(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_normalised_mean_step_is_half_the_squared_sum():
    """||xbar^{t+1} - xbar^t||^2 = (eta/m)^2 ||sum sum grad f_i||^2 exactly: worst ratio 1/2 against twice that."""
    m, eta = 2, 0.1
    params = _params(COMPLETE2, 2, 2, 0.3, (("mean_step", 1.0),), normalize=("grad_sum", m**2 / (2 * eta**2)))
    worst = worst_case(gossip.oledfl_round_gap, **params)
    assert worst.value == pytest.approx(0.5, abs=1e-6)


def test_round_quantities_on_a_known_instance():
    """Two scalar quadratics ``f_i = (x - c_i)^2/2`` (L = 1): one DFedAvg round from 0 on the complete graph."""
    from fedtheory.pep.interpolation import InterpolatedProblem
    from fedtheory.pep.solve import FunctionData

    # f_1 = (x + 1)^2/2 and f_2 = (x - 1)^2/2 given at the points the round visits (the interpolant reproduces them)
    xs = np.array([[0.5], [-0.25], [0.75], [0.25]])
    data = [FunctionData(X=xs, G=xs - c, F=0.5 * (xs[:, 0] - c) ** 2, mu=-1.0, L=1.0) for c in (-1.0, 1.0)]
    problem = InterpolatedProblem(data, np.zeros(1), 1.0, -1.0)
    q = gossip.round_quantities(problem, COMPLETE2, np.array([0.5]), K=1, R=1, eta=0.5, beta=0.0)
    # x_{1,1} = 0.5 - 0.5 * 1.5 = -0.25, x_{2,1} = 0.5 + 0.25 = 0.75; xbar^1 = 0.25
    assert q["drift"] == pytest.approx(0.0)
    assert q["grad_sum"] == pytest.approx(1.0)  # (1.5 - 0.5)^2
    assert q["mean_step"] == pytest.approx(0.0625)
    assert q["delta_next"] == pytest.approx(0.25)  # ((-0.25 - 0.25)^2 + (0.75 - 0.25)^2)/2
    assert q["descent"] == pytest.approx((0.5**2 + 1) / 2 - (0.25**2 + 1) / 2)  # f(x) = (x^2 + 1)/2


def test_a_bound_below_the_worst_case_fails_with_a_confirming_replay():
    """Negative control: the bound 0.99 x the certified worst case is refuted by the replayed instance."""
    params = _params(COMPLETE2, 2, 2, 0.3, DRIFT)
    worst = worst_case(gossip.oledfl_round_gap, **params)
    ev = class_evidence(gossip.oledfl_round_gap, gossip.replay_oledfl_round_gap, [params], [0.99 * worst.value])
    lo, _ = ev.interval
    assert lo[0] > 0.99 * worst.value
    assert "replayed" in ev.witness


def test_unknown_quantity_is_refused():
    with pytest.raises(ValueError, match="unknown round quantities"):
        worst_case(gossip.oledfl_round_gap, **_params(COMPLETE2, 1, 1, 0.0, (("nope", 1.0),)))
