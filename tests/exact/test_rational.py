"""The exact law over finite noise (`fedtheory.exact.rational`) and its float64 enumeration."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import rational
from fedtheory.fit import mc_mean
from fedtheory.oracles import Rademacher
from fedtheory.problems import PiecewiseQuadratic


def test_rational_engine_merges_equal_states():
    # A random walk (F = 0): 2^k noise paths but only k + 1 distinct states.
    law = rational.propagate(lambda x, xi: (x[0] + xi[0],), [0], rational.FiniteNoise.rademacher(1), 20)
    assert law.n_states[-1] == 21 and law.mean[-1] == (0,)
    # E x_k^2 = k exactly
    law = rational.propagate(
        lambda x, xi: (x[0] + xi[0],),
        [0],
        rational.FiniteNoise.rademacher(1),
        10,
        functionals={"sq": lambda x: x[0] ** 2},
    )
    assert law.expectations["sq"] == list(range(11))


@settings(max_examples=15)
@given(
    ap=st.fractions(Fraction(1, 4), 2, max_denominator=8),
    am=st.fractions(Fraction(1, 4), 2, max_denominator=8),
    x0=st.fractions(-1, 1, max_denominator=4),
)
def test_rational_engine_against_monte_carlo(ap, am, x0):
    eta, k = Fraction(1, 4), 6
    p = PiecewiseQuadratic(ap, am)
    law = rational.propagate(rational.sgd_step(p.grad_exact, eta), [x0], rational.FiniteNoise.rademacher(1), k)
    pf = PiecewiseQuadratic(float(ap), float(am))
    xs = fedavg.sgd(Rademacher(pf, 1.0), [float(x0)], float(eta), k, np.random.default_rng(0), S=100_000).x[:, :, 0]
    est = mc_mean(xs, axis=1, family_size=k + 1)
    exact = np.array([float(m[0]) for m in law.mean])
    assert np.all((est.lo - 1e-12 <= exact) & (exact <= est.hi + 1e-12))


def test_finite_noise_validation():
    with pytest.raises(InvalidParameterError, match="probs"):
        rational.FiniteNoise(((Fraction(1),), (Fraction(-1),)), (Fraction(1, 2), Fraction(1, 3)))
    assert rational.FiniteNoise.axes(1, 3).mean == (0, 0, 0)


@given(ap=st.floats(0.1, 2.0), am=st.floats(0.1, 2.0), eta=st.floats(0.05, 1.0), x0=st.floats(-2, 2))
@settings(max_examples=20)
def test_float_enumeration_matches_rational_enumeration(ap, am, eta, x0):
    p = PiecewiseQuadratic(ap, am)
    exact = rational.propagate(
        rational.sgd_step(p.grad_exact, eta),
        [x0],
        rational.FiniteNoise.rademacher(1),
        8,
        functionals={"sq": lambda x: x[0] ** 2},
    )
    floats = rational.propagate_float(lambda x, xi: x - eta * (p.grad(x) + xi), [x0], [[1.0], [-1.0]], [0.5, 0.5], 8)
    for k, law in enumerate(floats):
        assert law.mean[0] == pytest.approx(float(exact.mean[k][0]), rel=1e-12, abs=1e-14)
        assert law.expect(lambda x: x[:, 0] ** 2) == pytest.approx(float(exact.expectations["sq"][k]), rel=1e-12)
        assert law.probs.sum() == pytest.approx(1.0, abs=1e-14)


def test_float_enumeration_merges_and_validates():
    laws = rational.propagate_float(lambda x, xi: x + xi, [0.0], [[1.0], [-1.0]], [0.5, 0.5], 20)
    assert laws[-1].states.shape[0] == 21  # a lattice walk: k + 1 states, not 2^k
    with pytest.raises(InvalidParameterError, match="noise_probs"):
        rational.propagate_float(lambda x, xi: x + xi, [0.0], [[1.0], [-1.0]], [0.5, 0.4], 2)
