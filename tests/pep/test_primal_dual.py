"""Each primal-dual formulation against fedtheory's implementation on the interpolated worst instance."""

import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import primal_dual as pdp
from fedtheory.pep.solve import worst_case

L, BOX = 1.0, (2.0, 3.5)
BETA = 1 / (L + 2 * BOX[1])
BASE = dict(beta=BETA, lams=BOX, box=BOX, L=L)
CASES = [
    dict(N=2, K=2, R=2, metric="stationarity", coef=60.0, eps=1.0),
    dict(N=2, K=1, R=2, metric="local_decrease", coef=1.0, devices=(0,), eps=1.0),
    dict(N=2, K=2, R=1, metric="lagrangian_descent", coef=0.5, eps=1.0),
    dict(N=2, K=1, R=2, metric="lagrangian_stationarity", coef=(2.0, 3.5), eps=1.0),
    dict(N=2, K=0, R=1, metric="spread", delta2=1.0),
    dict(N=2, K=0, R=2, metric="consensus", delta2=1.0),
    dict(N=2, K=0, R=1, metric="server_gradient", coef=(0.0, 2.0), normalize="consensus"),
    dict(N=2, K=1, R=1, metric="spread", delta2=1.0, eps=0.5),
]


@pytest.mark.parametrize("case", CASES, ids=[c["metric"] + str(c["K"]) for c in CASES])
def test_replay_matches_the_worst_case(case):
    params = {**BASE, **case}
    worst = worst_case(pdp.primal_dual_metric, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= worst.accuracy
    replayed = pdp.replay_primal_dual_metric(worst, **params)
    assert abs(replayed - worst.primal) <= worst.replay_tolerance


def test_exact_oracle_is_stationary_and_the_server_step_weighted():
    params = {**BASE, **CASES[4]}
    worst = worst_case(pdp.primal_dual_metric, **params)
    problem, z, x = pdp.replay_trajectory(worst, **params)
    lams = np.array(BOX)
    for i in range(2):
        residual = problem.clients[i].grad(x[1][i]) + 2 * lams[i] * (x[1][i] - z[0])
        assert np.linalg.norm(residual) < 1e-9
    assert np.allclose(z[1], (lams[0] * x[1][0] + lams[1] * x[1][1]) / lams.sum())


def test_a_bound_below_the_worst_case_fails_with_a_confirming_replay():
    point = {**BASE, **CASES[4]}
    worst = worst_case(pdp.primal_dual_metric, **point)
    ev = class_evidence(pdp.primal_dual_metric, pdp.replay_primal_dual_metric, [point], bound=[0.99 * worst.value])
    lo, _ = ev.interval
    assert lo[0] > 0.99 * worst.value  # the replayed instance exceeds the bound: a concrete witness
    assert "replayed" in ev.witness


def test_parameters_are_checked():
    with pytest.raises(InvalidParameterError):
        worst_case(pdp.primal_dual_metric, **{**BASE, **CASES[0], "metric": "nope"})
    with pytest.raises(InvalidParameterError):
        worst_case(pdp.primal_dual_metric, **{**BASE, **CASES[0], "lams": (1.0, 3.5)})
