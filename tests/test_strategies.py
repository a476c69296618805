"""fedtheory.strategies draw what they promise: the prescribed constants, Definition-1 mixing matrices, valid prox
inputs, steps inside the condition."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory import strategies as fs
from fedtheory.errors import InvalidParameterError
from fedtheory.topology import MixingMatrix, adjacency_of


@given(data=st.data(), L=st.floats(0.5, 5.0), mu=st.floats(1e-2, 0.5), zeta=st.floats(0.0, 10.0), shared=st.booleans())
def test_quadratics_have_the_prescribed_constants(data, L, mu, zeta, shared):
    p = data.draw(fs.federated_quadratics(L=L, mu=mu, zeta_star=zeta, shared_hessian=shared))
    assert p.L == pytest.approx(L, rel=1e-9) and p.mu == pytest.approx(mu, rel=1e-9)
    assert p.zeta_star == pytest.approx(zeta, rel=1e-8, abs=1e-9)
    assert np.isfinite(p.zeta) == (shared or L == mu)  # at L = mu every Hessian is mu I: shared in any case
    assert np.all(np.linalg.eigvalsh(p.A) >= mu * (1 - 1e-9))


@given(W=fs.mixing_matrices(m=st.integers(1, 8)))
def test_mixing_matrices_meet_definition_1(W):
    MixingMatrix(W.dense, adjacency=adjacency_of(W.dense))  # conditions (1)-(3), checked on construction
    assert W.eigenvalues[0] > -1 and W.eigenvalues[-1] <= 1 + 1e-12  # condition (4)


@given(adj=fs.connected_graphs())
def test_graphs_are_connected_and_undirected(adj):
    assert np.array_equal(adj, adj.T) and not adj.diagonal().any()
    reach = np.linalg.matrix_power(np.eye(len(adj)) + adj, len(adj))
    assert np.all(reach > 0)


@given(case=fs.prox_cases(dim=4))
def test_prox_inputs_are_valid(case):
    assert case.t > 0 and np.isfinite(case.t) and case.v.shape == (4,) and np.all(np.isfinite(case.v))
    assert case.regularizer.check_prox(case.v, case.t, tol=1e-7)


@given(case=fs.problems_and_steps(fs.federated_quadratics(), upper=lambda p: 1 / (4 * p.L), lower=lambda p: 0.0))
def test_steps_lie_inside_the_condition(case):
    assert 0 < case.step <= 1 / (4 * case.problem.L)


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
def test_bad_requests_are_named():
    with pytest.raises(InvalidParameterError, match="upper"):
        fs.step_sizes(upper=0.0)
    with pytest.raises(InvalidParameterError, match="kinds"):
        fs.mixing_matrices(kinds=("star",)).example()
    with pytest.raises(InvalidParameterError, match="dim"):
        fs.federated_quadratics(dim=1, L=1.0, mu=0.5).example()
