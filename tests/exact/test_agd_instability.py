"""The exact AGD-instability constructor (Theorem 3.8): certificates, the difference recursion, the vertex search."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import FedtheoryError, InvalidParameterError
from fedtheory.exact import agd_instability as ins


def _isolated(bits):
    return not any(a == b == ins.L_STEP for a, b in itertools.pairwise(bits))


@settings(max_examples=25, deadline=None)
@given(
    s=st.integers(2, 30),
    pattern=st.lists(st.sampled_from([ins.MU, ins.L_STEP]), min_size=1, max_size=12).filter(_isolated),
    d_ag=st.fractions(-1, 1),
    d=st.fractions(-1, 1),
)
def test_built_instances_are_certified_and_follow_the_recursion(s, pattern, d_ag, d):
    if d_ag == 0 and d == 0:
        d = Fraction(1)
    inst = ins.build(s, pattern, direction=(d_ag, d))
    L = inst.objective.L
    for md in inst.w.md + inst.u.md:  # strong convexity and smoothness of the certified F, via secants
        for other in (md / 2, md + Fraction(1, 7)):
            slope = (inst.objective.grad(md) - inst.objective.grad(other)) / (md - other)
            assert 1 <= slope <= L
    for t, md in enumerate(inst.w.md):
        idx, dist = inst.objective.piece(md)
        assert (idx >= 0) == (pattern[t] == ins.L_STEP) and dist > 0
    assert inst.final_difference == (inst.eps * inst.predicted[-1][0], inst.eps * inst.predicted[-1][1])


def test_recursion_matches_floating_point_agd_on_the_built_function():
    inst = ins.build(5, (ins.MU, ins.L_STEP, ins.MU) * 3)
    x, x_ag, s, L = 1.0, 1.0, 5, 25.0
    for t in range(9):
        md = (x + s * x_ag) / (s + 1)
        g = float(inst.objective.grad(Fraction(md)))
        x_ag, x = md - g / L, (1 - 1 / s) * x + md / s - g / s
        assert x_ag == pytest.approx(float(inst.w.x_ag[t + 1]), rel=1e-12)
        assert x == pytest.approx(float(inst.w.x[t + 1]), rel=1e-12)


def test_best_amplification_matches_a_float_search_over_the_cube():
    # The vertex maximum bounds random interior curvatures h_t in [mu, L] and starts in the box.
    s, T = 5, 6
    best, pattern, v0 = ins.best_amplification(s, T, 0)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        h = rng.uniform(1, s * s, T)
        v = rng.uniform(-1, 1, 2)
        for ht in h:
            m = np.array(ins.step_matrix(Fraction(ht), s), dtype=float)
            v = m @ v
        assert abs(v[0]) <= float(best) * (1 + 1e-12)
    assert abs(ins.predicted_differences(pattern, s, v0)[-1][0]) == best


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="isolated"):
        ins.build(5, (ins.L_STEP, ins.L_STEP))
    with pytest.raises(InvalidParameterError, match="s"):
        ins.build(1, (ins.MU,))
    with pytest.raises(InvalidParameterError, match="direction"):
        ins.build(5, (ins.MU,), direction=(2, 0))
    obj = ins.BumpObjective(5, Fraction(2), ((Fraction(1, 2), Fraction(3, 4)),))
    with pytest.raises(FedtheoryError, match="overlaps"):
        obj.with_bump(Fraction(7, 10), Fraction(1, 10))
