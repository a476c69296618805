"""Mixing matrices: the four conditions checked on construction, spectra against closed forms, sparse gossip,
the lookahead shift, the consensus-optimal beta and the Chebyshev recursion."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import topology as tp
from fedtheory.errors import InvalidParameterError

seeds = st.integers(0, 2**16)


def standard(m_side=4):
    m = m_side * m_side
    return [
        tp.complete(m),
        tp.ring(m),
        tp.ring(m, 0.5),
        tp.torus(m_side, m_side),
        tp.grid(m_side, m_side),
        tp.exponential(m),
        tp.random_neighbours(m, 2, np.random.default_rng(0)),
    ]


def random_graph(rng, m, p):
    adj = np.triu(rng.random((m, m)) < p, 1)
    adj |= adj.T
    ring = np.arange(m)
    adj[ring, (ring + 1) % m] = adj[(ring + 1) % m, ring] = True  # connected: a Hamiltonian cycle plus random edges
    return adj


@pytest.mark.parametrize("W", standard(), ids=lambda W: repr(W))
def test_standard_topologies_meet_the_four_conditions(W):
    D = W.dense
    assert np.allclose(D, D.T, atol=1e-15) and np.allclose(D.sum(axis=1), 1, atol=1e-14)
    assert D.min() >= 0 and D.max() <= 1
    eig = W.eigenvalues
    assert eig[-1] == pytest.approx(1, abs=1e-12) and eig[-2] < 1 - 1e-9 and eig[0] > -1
    assert W.psi == pytest.approx(max(abs(eig[-2]), abs(eig[0])), abs=1e-12)
    assert W.rho == pytest.approx(W.psi, abs=1e-12)


@settings(max_examples=40)
@given(m=st.integers(3, 30), p=st.floats(0.0, 0.6), seed=seeds)
def test_metropolis_weights_on_any_connected_graph_meet_the_conditions(m, p, seed):
    adj = random_graph(np.random.default_rng(seed), m, p)
    W = tp.metropolis(adj)
    assert np.array_equal(tp.adjacency_of(W.dense), adj)
    assert W.lambda_min > -1 and W.lambda_2 < 1 and W.psi < 1
    assert np.count_nonzero(np.isclose(W.eigenvalues, 1.0, atol=1e-10)) == 1


@settings(max_examples=30)
@given(m=st.integers(3, 20), p=st.floats(0.0, 0.6), seed=seeds, t=st.integers(1, 50))
def test_lemma_3_power_contraction(m, p, seed, t):
    W = tp.metropolis(random_graph(np.random.default_rng(seed), m, p))
    Wt = np.linalg.matrix_power(W.dense, t) - 1.0 / m
    assert np.linalg.norm(Wt, 2) <= W.psi**t + 1e-12


def test_ring_and_torus_spectra_match_circulant_closed_forms():
    m = 12
    j = np.arange(m)
    ring = np.sort(1 / 3 + 2 / 3 * np.cos(2 * np.pi * j / m))
    assert np.allclose(tp.ring(m).eigenvalues, ring, atol=1e-12)
    lam = np.cos(2 * np.pi * np.arange(5) / 5)
    torus = np.sort((1 + 2 * lam[:, None] + 2 * lam[None, :]).ravel() / 5)
    assert np.allclose(tp.torus(5, 5).eigenvalues, torus, atol=1e-12)


def test_complete_graph_has_psi_zero_and_gossip_averages():
    W = tp.complete(7)
    X = np.random.default_rng(1).normal(size=(3, 7, 2))
    assert W.psi == pytest.approx(0, abs=1e-14)
    assert np.allclose(W.gossip(X), X.mean(axis=1, keepdims=True))


@settings(max_examples=30)
@given(m=st.integers(3, 25), seed=seeds, steps=st.integers(1, 3))
def test_sparse_gossip_equals_the_dense_product_and_keeps_the_mean(m, seed, steps):
    rng = np.random.default_rng(seed)
    W = tp.random_neighbours(m, min(2, m - 1), rng)
    X = rng.normal(size=(4, m, 3))
    dense = np.einsum("ij,sjd->sid", np.linalg.matrix_power(W.dense, steps), X)
    assert np.allclose(W.gossip(X, steps), dense, atol=1e-13)
    assert np.allclose(W.gossip(X, steps).mean(axis=1), X.mean(axis=1), atol=1e-13)


def test_sparse_storage_holds_the_edges_only():
    W = tp.ring(100)
    assert W.sparse.nnz == 300 and W.edges == 100


@settings(max_examples=40)
@given(seed=seeds, beta=st.floats(-2, 3))
def test_shifted_matrix_algebra(seed, beta):
    W = tp.random_neighbours(10, 2, np.random.default_rng(seed))
    Wb = W.shifted(beta)
    assert np.allclose(Wb.dense.sum(axis=1), 1) and np.allclose(Wb.dense, Wb.dense.T)
    assert np.allclose(np.sort(Wb.eigenvalues), np.sort((1 + beta) * W.eigenvalues - beta), atol=1e-12)
    X = np.random.default_rng(seed).normal(size=(10, 2))
    assert np.allclose(Wb.gossip(X).mean(axis=0), X.mean(axis=0))
    assert np.array_equal(W.shifted(0.0).dense, W.dense)


@settings(max_examples=30)
@given(seed=seeds)
def test_shift_stays_nonnegative_exactly_up_to_the_diagonal_threshold(seed):
    W = tp.random_neighbours(12, 2, np.random.default_rng(seed))
    d = np.diag(W.dense)
    cap = np.min(d / (1 - d))
    assert W.shifted(cap * (1 - 1e-9)).dense.min() >= -1e-15
    assert W.shifted(cap * (1 + 1e-6)).dense.min() < 0
    above = (1 + W.lambda_min) / (1 - W.lambda_min)
    assert W.shifted(above * (1 - 1e-6)).eigenvalues[0] > -1
    assert W.shifted(above * (1 + 1e-6)).eigenvalues[0] < -1


@pytest.mark.parametrize("W", standard(), ids=lambda W: repr(W))
def test_consensus_optimal_beta_beats_a_fine_grid(W):
    beta, psi = tp.consensus_optimal_beta(W)
    grid = np.linspace(0, 2, 20001)
    assert psi <= tp.shifted_psi(W, grid).min() + 1e-12
    assert psi == pytest.approx(np.linalg.norm(W.shifted(beta).dense - 1 / W.m, 2), abs=1e-9)
    if W.lambda_2 + W.lambda_min <= 0:
        assert beta == 0


def test_complete_graph_shift_has_psi_beta():
    W = tp.complete(6)
    assert np.allclose(tp.shifted_psi(W, [0.0, 0.3, 0.7]), [0, 0.3, 0.7], atol=1e-12)


def test_chebyshev_rate_on_the_disagreement_subspace():
    W = tp.ring(20)
    eta = tp.chebyshev_parameter(W.psi)
    rho = np.max(np.abs(np.linalg.eigvals(tp.chebyshev_matrix(W, eta, disagreement=True))))
    assert rho == pytest.approx(np.sqrt(eta), rel=1e-5)
    X = np.random.default_rng(0).normal(size=(20, 3))
    iterates = tp.chebyshev_gossip(W, X, eta, 30)
    assert np.allclose(iterates.mean(axis=-2), X.mean(axis=0), atol=1e-12)


def test_directed_exponential_graph_is_doubly_stochastic_not_symmetric():
    W = tp.exponential(16, symmetric=False)
    assert not np.allclose(W.dense, W.dense.T)
    assert np.allclose(W.dense.sum(axis=0), 1) and W.rho < 1
    with pytest.raises(InvalidParameterError, match="symmetric"):
        _ = W.lambda_min


@pytest.mark.parametrize(
    "matrix, condition",
    [
        (
            0.5 * np.eye(3) + 0.5 * np.roll(np.eye(3), 1, axis=1),  # a directed cycle: doubly stochastic
            "symmetric",
        ),
        (np.eye(3), "connected"),
        (np.array([[0.0, 1.0], [1.0, 0.0]]), "condition 1"),  # eigenvalue -1: refused for its zero diagonal
        (np.array([[1.2, -0.2], [-0.2, 1.2]]), "entries in"),
        (np.array([[0.5, 0.5], [0.7, 0.3]]), "columns"),
    ],
)
def test_each_failed_condition_is_named(matrix, condition):
    with pytest.raises(InvalidParameterError, match=condition):
        tp.MixingMatrix(matrix)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="m"):
        tp.ring(2)
    with pytest.raises(InvalidParameterError, match="self_weight"):
        tp.ring(5, 1.0)
    with pytest.raises(InvalidParameterError, match="rows"):
        tp.torus(2, 5)
    with pytest.raises(InvalidParameterError, match="W"):
        tp.MixingMatrix(np.ones((2, 3)) / 3)
    with pytest.raises(InvalidParameterError, match="r"):
        tp.random_neighbours(5, 5, np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="adjacency"):
        tp.metropolis(np.triu(np.ones((3, 3), dtype=bool), 1))
    with pytest.raises(InvalidParameterError, match="X"):
        tp.ring(5).gossip(np.zeros((4, 3)))
