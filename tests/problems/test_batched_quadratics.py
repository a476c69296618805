"""Federated quadratics batched over instances (``fedtheory.problems.batched_quadratics``) against the one-instance
:class:`~fedtheory.problems.FederatedQuadratic` and the definitions of their closed forms."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rounding import gamma

from fedtheory.problems import FederatedQuadratic, random_rotation, spd_matrix
from fedtheory.problems.batched_quadratics import QuadraticClients, RegularizedClients, matvec, psd_pinv


def _clients(rng, B, N, n):
    A = np.stack([[spd_matrix(random_rotation(rng, n), rng.uniform(0.1, 2.0, n)) for _ in range(N)] for _ in range(B)])
    return QuadraticClients(A, rng.normal(size=(B, N, n)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), N=st.integers(1, 4), n=st.integers(1, 4))
def test_closed_forms_agree_with_the_one_instance_quadratic(seed, N, n):
    rng = np.random.default_rng(seed)
    clients = _clients(rng, 3, N, n)
    x = rng.normal(size=(3, 5, n))
    tol = 20 * gamma(16 * n * n)  # eigenvalues in [0.1, 2]: condition <= 20, an eigendecomposition and a solve deep
    for b in range(3):
        A, c = clients.A[b], clients.c[b]
        problem = FederatedQuadratic(A, np.einsum("mij,mj->mi", A, c))  # 1/2 x'A_m x - (A_m c_m)'x
        np.testing.assert_allclose(clients.xbar[b], problem.x_star, rtol=tol, atol=tol)
        np.testing.assert_allclose(clients.gap(x)[b], problem.gap(x[b]), rtol=tol, atol=tol)
        assert clients.L[b] == np.linalg.eigvalsh(A)[:, -1].max()
    np.testing.assert_allclose(clients.grads(x)[:, :, 0], matvec(clients.A[:, None, 0], x - clients.c[:, None, 0]))
    assert np.all(clients.D >= 0)


def test_pseudo_inverse_drops_the_null_space_and_regularization_interpolates():
    rng = np.random.default_rng(0)
    Q = random_rotation(rng, 3)
    A = spd_matrix(Q, [2.0, 1.0, 0.0])[None]
    P = psd_pinv(A)[0]
    np.testing.assert_allclose(P, spd_matrix(Q, [0.5, 1.0, 0.0]), atol=gamma(64))
    h, f = _clients(rng, 2, 3, 2), _clients(rng, 2, 3, 2)
    reg = RegularizedClients(h, f, 0.0)
    np.testing.assert_allclose(reg.x_eta, h.xbar, rtol=gamma(64) * 1e3)  # eta = 0 is the inner problem alone
    x = rng.normal(size=(2, 4, 2))
    assert np.all(RegularizedClients(h, f, 0.5).gap(x) >= 0)
