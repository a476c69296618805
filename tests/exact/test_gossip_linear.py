"""The exact linear model of decentralized local GD with lookahead: against iterating the algorithm, the
complete-graph closed form, identical Hessians, the stability threshold and exact rational arithmetic."""

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import topology as tp
from fedtheory.algorithms import decentralized as dc
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import gossip_linear as gl
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)


def instance(rng, m, d=3):
    G = rng.normal(size=(m, d, d))
    return G @ np.swapaxes(G, -1, -2) / d + 0.3 * np.eye(d), 2 * rng.normal(size=(m, d))


@settings(max_examples=25)
@given(m=st.integers(3, 7), K=st.integers(1, 4), beta=st.floats(0, 0.6), seed=seeds)
def test_linear_model_iterates_like_the_algorithm(m, K, beta, seed):
    rng = np.random.default_rng(seed)
    A, b = instance(rng, m)
    problem, W = FederatedQuadratic(A, b), tp.ring(m)
    eta = 0.3 / problem.L / K
    lin = gl.LinearLookahead(A, b, W.dense, eta, K, beta)
    state = dc.init(np.ones(3), m)
    starts = lin.iterate(np.ones(3), 6)
    for t in range(6):
        state, trace = dc.round(state, ExactGradient(problem), W, dc.oledfl(eta, K, beta), None, trace=True)
        assert np.allclose(trace.start[0], starts[t], atol=1e-12 * (1 + np.abs(starts[t]).max()))


@settings(max_examples=25)
@given(m=st.integers(2, 6), K=st.integers(1, 5), beta=st.floats(0, 0.8), seed=seeds)
def test_fixed_point_is_the_limit_of_the_iteration(m, K, beta, seed):
    rng = np.random.default_rng(seed)
    A, b = instance(rng, m)
    L = np.linalg.eigvalsh(A)[:, -1].max()
    W = tp.ring(m) if m >= 3 else tp.complete(m)
    lin = gl.LinearLookahead(A, b, W.dense, 0.2 / L / K, K, beta)
    if lin.spectral_radius < 0.999:
        X = lin.iterate(np.zeros(3), 20000)[-1]
        assert np.allclose(X, lin.fixed_start, atol=1e-9 * (1 + np.abs(X).max()))


@settings(max_examples=25)
@given(m=st.integers(2, 6), K=st.integers(1, 5), beta=st.floats(0, 0.9), seed=seeds)
def test_complete_graph_closed_form(m, K, beta, seed):
    rng = np.random.default_rng(seed)
    A, b = instance(rng, m)
    eta = 0.5 / np.linalg.eigvalsh(A)[:, -1].max() / K
    closed = gl.complete_graph_output(A, b, eta, K, beta)
    assert np.allclose(closed, gl.LinearLookahead(A, b, tp.complete(m).dense, eta, K, beta).output, atol=1e-10)


@settings(max_examples=25)
@given(m=st.integers(3, 8), K=st.integers(1, 5), beta=st.floats(0, 0.5), seed=seeds)
def test_identical_hessians_have_no_bias(m, K, beta, seed):
    rng = np.random.default_rng(seed)
    A, b = instance(rng, 1)
    A = np.repeat(A, m, axis=0)
    b = rng.normal(size=(m, 3))
    W = tp.random_neighbours(m, 2, rng)
    lin = gl.LinearLookahead(A, b, W.dense, 0.3 / np.linalg.eigvalsh(A[0])[-1] / K, K, beta)
    if lin.spectral_radius < 1 - 1e-6:
        assert lin.bias <= 1e-10 * (1 + np.linalg.norm(lin.x_star))


def test_heterogeneous_hessians_have_a_bias():
    A, b = instance(np.random.default_rng(0), 5)
    assert gl.LinearLookahead(A, b, tp.ring(5).dense, 0.05, 4, 0.3).bias > 1e-3


@pytest.mark.parametrize("W", [tp.complete(6), tp.ring(8), tp.ring(8, 0.5), tp.torus(3, 3)], ids=repr)
@pytest.mark.parametrize("a, eta, K", [(1.0, 0.01, 1), (1.0, 0.1, 5), (2.0, 0.2, 2)])
def test_stability_threshold_of_identical_hessians(W, a, eta, K):
    s = (1 - eta * a) ** K
    beta_crit = gl.identical_hessian_threshold(W.lambda_min, s)
    A = np.repeat(a * np.eye(1)[None], W.m, axis=0)
    b = np.arange(W.m, dtype=float)[:, None]
    below = gl.LinearLookahead(A, b, W.dense, eta, K, beta_crit - 1e-6).spectral_radius
    above = gl.LinearLookahead(A, b, W.dense, eta, K, beta_crit + 1e-6).spectral_radius
    assert below < 1 < above


def test_two_clients_in_exact_arithmetic():
    h = sp.Rational(1, 2)
    W = sp.Matrix([[h, h], [h, h]])
    assert gl.scalar_output_exact([1, 3], [0, 1], W, sp.Rational(1, 4), 1, 0) == sp.Rational(3, 4)
    exact = gl.scalar_output_exact([1, 3], [0, 1], W, sp.Rational(1, 4), 1, h)
    lin = gl.LinearLookahead(np.array([[[1.0]], [[3.0]]]), np.array([[0.0], [3.0]]), np.full((2, 2), 0.5), 0.25, 1, 0.5)
    assert lin.output[0] == pytest.approx(float(exact), abs=1e-14)


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="A"):
        gl.LinearLookahead(np.ones((2, 2, 2)), np.ones((3, 2)), np.eye(3), 0.1, 1, 0.0)
    with pytest.raises(InvalidParameterError, match="eta"):
        gl.local_gd_maps(np.ones((2, 1, 1)), np.ones((2, 1)), 0.0, 1)
    with pytest.raises(InvalidParameterError, match="s"):
        gl.identical_hessian_threshold(-0.3, 1.5)
