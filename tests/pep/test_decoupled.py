"""Each decoupled-prox formulation against fedtheory's implementation on the interpolated worst instance."""

import numpy as np
import pytest

from fedtheory.harness.pep import class_evidence
from fedtheory.pep import decoupled as dc
from fedtheory.pep.solve import worst_case

STEPS = dict(eta_tilde=0.1, eta_g=1.5, L=1.0, D=1.0)
CASES = [
    (dc.decoupled_lyapunov_sc, dc.replay_decoupled_lyapunov_sc, dict(n=2, tau=2, R=1, mu=0.5, B_g=1.0)),
    (dc.decoupled_lyapunov_sc, dc.replay_decoupled_lyapunov_sc, dict(n=2, tau=2, R=1, mu=0.5, B_g=0.0)),
    (dc.decoupled_lyapunov, dc.replay_decoupled_lyapunov, dict(n=2, tau=1, R=2, mu=0.5, B_g=1.0)),
    (dc.decoupled_lyapunov, dc.replay_decoupled_lyapunov, dict(n=2, tau=2, R=2, mu=0.5, B_g=1.0, rate_term=False)),
    (
        dc.decoupled_lyapunov_sc,
        dc.replay_decoupled_lyapunov_sc,
        dict(n=2, tau=3, R=1, mu=0.5, B_g=1.0, rate_term=False),
    ),
    (dc.decoupled_lyapunov, dc.replay_decoupled_lyapunov, dict(n=2, tau=2, R=1, mu=0.5, B_g=0.0, rate_term=False)),
    (dc.decoupled_mapping, dc.replay_decoupled_mapping, dict(n=2, tau=2, R=1, mu=0.0, B_g=1.0)),
    (dc.decoupled_mapping, dc.replay_decoupled_mapping, dict(n=2, tau=2, R=1, mu=0.0, B_g=0.0, rate_term=False)),
    (dc.decoupled_descent, dc.replay_decoupled_descent, dict(n=2, tau=2, R=2, mu=0.0, B_g=1.0)),
    (dc.decoupled_contraction, dc.replay_decoupled_contraction, dict(n=2, tau=2, R=1, mu=0.5, B_g=1.0)),
    (dc.decoupled_drift, dc.replay_decoupled_drift, dict(n=2, tau=2, R=1, mu=-1.0, B_g=1.0)),
    (dc.decoupled_drift_recursion, dc.replay_decoupled_drift_recursion, dict(n=2, tau=2, R=1, mu=-1.0, B_g=1.0)),
]


@pytest.mark.parametrize(("formulation", "replay", "params"), CASES, ids=lambda c: getattr(c, "__name__", None))
def test_replay_matches_the_worst_case(formulation, replay, params):
    params = {**STEPS, **params}
    worst = worst_case(formulation, **params)
    assert worst.accuracy < 1e-6 * max(1.0, abs(worst.value))  # relative: the value sets the scale
    assert abs(worst.value - worst.primal) <= 10 * worst.accuracy
    assert abs(replay(worst, **params) - worst.primal) <= worst.replay_tolerance


def test_a_bound_below_the_worst_case_fails_with_a_confirming_replay():
    params = {**STEPS, "n": 2, "tau": 2, "R": 1, "mu": 0.5, "B_g": 0.0, "rate_term": False}
    worst = worst_case(dc.decoupled_lyapunov, **params)
    assert worst.value > 0.5  # Omega^2 / Omega^1 is a contraction of order one at these steps
    evidence = class_evidence(dc.decoupled_lyapunov, dc.replay_decoupled_lyapunov, [params], bound=[0.99 * worst.value])
    lo, hi = evidence.interval
    assert lo[0] > 0.99 * worst.value  # the replayed instance exceeds the bound: a concrete counterexample
    assert np.isclose(hi[0], worst.value + worst.accuracy)
    assert evidence.witness["replayed"] == lo[0]


def test_the_regularizer_is_active_and_keeps_its_lipschitz_constant():
    params = {**STEPS, "n": 2, "tau": 2, "R": 2, "mu": 0.5, "B_g": 1.0, "rate_term": False}
    worst = worst_case(dc.decoupled_lyapunov, **params)
    g = worst.functions[2]
    assert np.isinf(g.L)
    slopes = np.linalg.norm(g.G, axis=1)
    assert slopes.max() <= 1.0 + 1e-6
    assert slopes.min() > 0.1  # the worst instance uses a non-trivial regularizer: its proxes are exercised
