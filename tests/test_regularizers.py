import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from rounding import prox_distance_bound, svd_error

from fedtheory.errors import InvalidParameterError
from fedtheory.reference import prox_reference
from fedtheory.regularizers import (
    L1,
    Box,
    ElasticNet,
    L1Ball,
    L2Ball,
    NuclearNorm,
    Simplex,
    SquaredL2,
)

vectors = arrays(np.float64, st.integers(1, 6), elements=st.floats(-5, 5, allow_nan=False, width=64))
steps = st.floats(0.05, 5.0)
VECTOR_REGS = [L1(0.7), SquaredL2(1.3), ElasticNet(0.5, 0.8), Box(-1.0, 0.5), L2Ball(1.5), L1Ball(2.0), Simplex(1.0)]
IDS = [type(r).__name__ for r in VECTOR_REGS]


@pytest.mark.parametrize("reg", VECTOR_REGS, ids=IDS)
@given(v=vectors, t=steps)
def test_prox_satisfies_subdifferential_optimality(reg, v, t):
    assert reg.check_prox(v, t)


@pytest.mark.parametrize("reg", VECTOR_REGS, ids=IDS)
@given(data=st.data(), t=steps)
def test_prox_is_firmly_nonexpansive(reg, data, t):
    n = data.draw(st.integers(1, 6))
    u = data.draw(arrays(np.float64, n, elements=st.floats(-5, 5)))
    v = data.draw(arrays(np.float64, n, elements=st.floats(-5, 5)))
    pu, pv = reg.prox(u, t), reg.prox(v, t)
    assert np.sum((pu - pv) ** 2) <= np.dot(pu - pv, u - v) + 1e-9


@given(v=vectors, t=steps)
def test_moreau_l1_and_box(v, t):
    # prox_{t psi}(v) + t prox_{psi*/t}(v/t) = v with psi = lam||.||_1, psi* = indicator of [-lam, lam]^d
    lam = 0.7
    assert np.allclose(L1(lam).prox(v, t) + t * Box(-lam, lam).prox(v / t, 1 / t), v, atol=1e-12)


@given(v=vectors, t=steps)
def test_moreau_squared_l2(v, t):
    lam = 1.3  # (lam/2)||x||^2 has conjugate (1/(2 lam))||y||^2
    assert np.allclose(SquaredL2(lam).prox(v, t) + t * SquaredL2(1 / lam).prox(v / t, 1 / t), v, atol=1e-12)


@given(v=vectors, t=steps)
def test_moreau_l2_ball_and_scaled_norm(v, t):
    r = 1.5  # conjugate of the ball's indicator is r||.||_2, whose prox is block soft-thresholding
    u = v / t
    block = u * max(0.0, 1 - (r / t) / max(np.linalg.norm(u), 1e-300))
    assert np.allclose(L2Ball(r).prox(v, t) + t * block, v, atol=1e-10)


@given(m=arrays(np.float64, (3, 4), elements=st.floats(-3, 3)), t=steps)
def test_moreau_nuclear_and_spectral_ball(m, t):
    lam = 0.6  # conjugate of lam||.||_* is the indicator of the spectral-norm ball of radius lam
    U, s, Vt = np.linalg.svd(m / t, full_matrices=False)
    proj = (U * np.minimum(s, lam)) @ Vt
    assert np.allclose(NuclearNorm(lam).prox(m, t) + t * proj, m, atol=1e-10)


@given(m=arrays(np.float64, (3, 4), elements=st.floats(-3, 3)), t=steps)
def test_nuclear_prox_optimality(m, t):
    assert NuclearNorm(0.6).check_prox(m, t, tol=1e-7)


@pytest.mark.parametrize("reg", [*VECTOR_REGS, NuclearNorm(0.4)], ids=[*IDS, "NuclearNorm"])
@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), t=st.floats(0.1, 3.0))
def test_prox_agrees_with_cvxpy(reg, seed, t):
    rng = np.random.default_rng(seed)
    v = rng.normal(scale=2.0, size=(3, 3) if isinstance(reg, NuclearNorm) else 5)
    ref = prox_reference(reg, v, t)
    # the solver's accuracy is what its objective certifies (1-strong convexity of the prox objective)
    nuclear = (lambda z: 0.4 * 3 * svd_error(z)) if isinstance(reg, NuclearNorm) else None
    closed = reg.prox(v, t)
    assert np.linalg.norm(closed - ref.x) <= prox_distance_bound(reg, v, t, closed, ref.x, nuclear=nuclear)


def test_subdifferential_rejects_wrong_subgradients():
    assert not L1(1.0).in_subdifferential(np.array([1.0, 0.0]), np.array([0.5, 0.0]))
    assert not Box(0, 1).in_subdifferential(np.array([0.5]), np.array([1.0]))
    assert not Simplex().in_subdifferential(np.array([0.5, 0.5]), np.array([1.0, 0.0]))
    assert not L2Ball(1.0).in_subdifferential(np.array([1.0, 0.0]), np.array([-1.0, 0.0]))


@pytest.mark.parametrize("reg", [*VECTOR_REGS, NuclearNorm(0.4)], ids=[*IDS, "NuclearNorm"])
def test_prox_parameter_must_be_finite_and_positive(reg):
    v = np.ones((2, 2)) if isinstance(reg, NuclearNorm) else np.ones(3)
    for t in (-0.1, 0.0, 0, np.nan, np.inf, -np.inf):
        with pytest.raises(InvalidParameterError, match="invalid t: expected a finite prox step t > 0"):
            reg.prox(v, t)


def test_bad_regularizer_parameters():
    with pytest.raises(InvalidParameterError, match="lam"):
        L1(-1.0)
    with pytest.raises(InvalidParameterError, match="radius"):
        L2Ball(0.0)
    with pytest.raises(InvalidParameterError, match="lo"):
        Box(1.0, 0.0)
