"""The certified reference of the tolerance-constrained problem against the primal-dual method and closed forms."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import tolerance_fixed_points as tfp
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.reference_constrained import kkt_residuals, tolerance_constrained_optimum


def _instance(seed, N=3, d=2):
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(N, d, d))
    A = Q @ Q.transpose(0, 2, 1) + 0.3 * np.eye(d)
    b = rng.normal(0, 2, (N, d))
    xs = np.linalg.solve(A.sum(0), np.einsum("nij,nj->i", A, b))
    return A, b, 0.3 * rng.uniform(0.1, 0.6, N) * np.sum((b - xs) ** 2, 1)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([None, (0.8, 2.0)]))
def test_gradient_balance_and_method_fixed_point(seed, box):
    A, b, gamma = _instance(seed)
    ref = tolerance_constrained_optimum(A, b, gamma, lam_box=box)
    assert ref.certificate["kkt_residual"] <= 1e-9
    grads = np.einsum("nij,nj->ni", A, ref.x - b)
    assert np.linalg.norm(grads.sum(0)) <= 1e-9 * max(1.0, np.abs(grads).max())
    problem = FederatedQuadratic(A, np.einsum("nij,nj->ni", A, b))
    params = pd.PrimalDualParams(beta=1.0, alpha=0.2, K=1, N=3, participants=3, lam_box=box or (0, np.inf), exact=True)
    state = pd.init(ref.z, 3, lam0=ref.lam, gamma=gamma)  # the reference is a fixed point of the method
    new = pd.round(state, ExactGradient(problem), params, None)
    np.testing.assert_allclose(new.z[0], ref.z, atol=1e-9)
    np.testing.assert_allclose(new.lam[0], ref.lam, atol=1e-9)


def test_one_dimensional_breakpoint_root():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(0.5, 3, 5), rng.normal(0, 2, 5)
    gamma = 0.3 * rng.uniform(0.1, 0.6, 5) * (b - a @ b / a.sum()) ** 2
    ref = tolerance_constrained_optimum(a[:, None, None], b[:, None], gamma)
    assert abs(ref.z[0] - tfp.dead_zone_minimizer_1d(a, b, gamma).z) <= 1e-9


def test_certificate_sees_a_perturbed_point_and_bad_input():
    A, b, gamma = _instance(1)
    ref = tolerance_constrained_optimum(A, b, gamma)
    assert kkt_residuals(A, b, gamma, ref.z + 1e-3, ref.x, ref.lam)["kkt_residual"] > 1e-6
    with pytest.raises(InvalidParameterError):
        tolerance_constrained_optimum(A, b, -gamma)
    with pytest.raises(InvalidParameterError):
        tolerance_constrained_optimum(A, b, gamma, lam_box=(0.0, np.inf))
