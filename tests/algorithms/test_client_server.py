"""Server-client baselines: FedAvg with equal sizes is the library's FedAvg, FedProx with mu = 0 is FedAvg, SCAFFOLD
with identical clients is FedAvg and has no drift on quadratics, q-FedAvg with q = 0 and L_q = 1/eta is FedAvg with
equal weights and evaluates only the sampled clients' values (to rounding), data-size weights, client values, bad
input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import client_server as cs
from fedtheory.algorithms import fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.problems.softmax import SoftmaxMinibatch, SoftmaxRegression

seeds = st.integers(0, 2**16)


def quad(rng, N, d=3, c=0.0):
    G = rng.normal(size=(N, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + 0.3 * np.eye(d), 2 * rng.normal(size=(N, d)), c)


@settings(max_examples=20)
@given(N=st.integers(2, 5), K=st.integers(1, 4), seed=seeds)
def test_fedavg_equal_sizes_full_participation_is_library_fedavg(N, K, seed):
    rng = np.random.default_rng(seed)
    oracle = AdditiveGaussian(quad(rng, N), 0.5)
    x0 = rng.normal(size=3)
    ours = cs.run("fedavg", oracle, x0, cs.ClientServerParams(0.05, K, N, N, sizes=(2.0,) * N), 5,
                  np.random.default_rng(seed), S=3)  # fmt: skip
    ref = fedavg.run(oracle, x0, fedavg.FedAvgParams(0.05, K, N), 5, np.random.default_rng(seed), S=3)
    assert np.allclose(ours, ref.x, rtol=0, atol=1e-12)


@settings(max_examples=20)
@given(N=st.integers(2, 5), n=st.integers(1, 5), seed=seeds)
def test_fedprox_with_mu_zero_is_fedavg(N, n, seed):
    rng = np.random.default_rng(seed)
    oracle = AdditiveGaussian(quad(rng, N), 0.5)
    params = cs.ClientServerParams(0.05, 3, N, min(n, N), sizes=tuple(rng.integers(1, 50, N).astype(float)))
    a = cs.run("fedprox", oracle, np.ones(3), params, 4, np.random.default_rng(seed), S=4, mu=0.0)
    b = cs.run("fedavg", oracle, np.ones(3), params, 4, np.random.default_rng(seed), S=4)
    assert np.array_equal(a, b)


def test_data_size_weights_weigh_the_sampled_clients():
    x = np.arange(6.0).reshape(1, 3, 2)
    mask = np.array([[True, False, True]])
    assert np.allclose(cs.aggregate(x, mask, np.array([1.0, 5.0, 3.0])), (x[0, 0] + 3 * x[0, 2]) / 4)


@settings(max_examples=15)
@given(N=st.integers(2, 5), K=st.integers(1, 4), seed=seeds)
def test_scaffold_with_identical_clients_is_fedavg(N, K, seed):
    rng = np.random.default_rng(seed)
    G = rng.normal(size=(3, 3))
    problem = FederatedQuadratic(
        np.broadcast_to(G @ G.T / 3 + 0.3 * np.eye(3), (N, 3, 3)), np.tile(rng.normal(size=3), (N, 1))
    )
    params = cs.ClientServerParams(0.05, K, N, N)
    a = cs.run("scaffold", ExactGradient(problem), np.ones(3), params, 6, None)
    b = cs.run("fedavg", ExactGradient(problem), np.ones(3), params, 6, None)
    assert np.allclose(a, b, rtol=0, atol=1e-12)


@settings(max_examples=10)
@given(N=st.integers(2, 5), K=st.integers(2, 5), seed=seeds)
def test_scaffold_on_quadratics_reaches_the_minimiser_without_drift(N, K, seed):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    params = cs.ClientServerParams(0.3 / problem.L, K, N, N)
    x = cs.run("scaffold", ExactGradient(problem), np.zeros(3), params, 3000, None)[-1, 0]
    assert np.linalg.norm(x - problem.x_star) <= 1e-8 * (1 + np.linalg.norm(problem.x_star))


@settings(max_examples=20)
@given(N=st.integers(2, 5), n=st.integers(1, 5), seed=seeds)
def test_qfedavg_with_q_zero_is_fedavg_with_equal_weights(N, n, seed):
    rng = np.random.default_rng(seed)
    oracle = AdditiveGaussian(quad(rng, N), 0.3)
    params = cs.ClientServerParams(0.05, 3, N, min(n, N))
    a = cs.run("qfedavg", oracle, np.ones(3), params, 4, np.random.default_rng(seed), S=3, q=0.0, L_q=1 / 0.05)
    b = cs.run("fedavg", oracle, np.ones(3), params, 4, np.random.default_rng(seed), S=3)
    assert np.allclose(a, b, rtol=0, atol=1e-12)


def test_qfedavg_one_round_by_hand_and_code_variant():
    rng = np.random.default_rng(3)
    problem = quad(rng, 3, c=np.array([30.0, 40.0, 50.0]))
    params = cs.ClientServerParams(0.1, 2, 3, 3, sizes=(1.0, 2.0, 3.0))
    x, q = rng.normal(size=(1, 3)), 2.0
    w = np.broadcast_to(x, (3, 3)).copy()
    for _ in range(2):
        w = w - 0.1 * problem.client_grad(w)
    F = np.array([0.5 * x[0] @ problem.A[k] @ x[0] - problem.b[k] @ x[0] + problem.c[k] for k in range(3)])
    dw = 10 * (x - w)
    paper = x[0] - (F**q @ dw) / np.sum(q * F ** (q - 1) * np.sum(dw**2, -1) + 10 * F**q)
    n = np.array([1.0, 2.0, 3.0])
    code = x[0] - ((n * F**q) @ dw) / np.sum(n * (q * F ** (q - 1) * np.sum((x - w) ** 2, -1) + 10 * F**q))
    oracle = ExactGradient(problem)
    assert np.allclose(cs.qfedavg_round(x, oracle, params, None, q=q), paper, atol=1e-12)
    assert np.allclose(cs.qfedavg_round(x, oracle, params, None, q=q, variant="code"), code, atol=1e-12)


def test_client_values_of_quadratics_average_to_the_value():
    rng = np.random.default_rng(1)
    problem = quad(rng, 4, c=rng.normal(size=4))
    x = rng.normal(size=(2, 3))
    values = cs.client_values(problem, np.broadcast_to(x[:, None], (2, 4, 3)))
    assert np.allclose(values.mean(axis=1), problem.value(x), atol=1e-12)


def test_values_of_listed_clients_are_taken_from_every_clients_on_quadratics():
    rng = np.random.default_rng(2)
    problem = quad(rng, 5, c=rng.normal(size=5))
    x = rng.normal(size=(3, 5, 3))
    idx = np.argsort(rng.random((3, 5)), axis=1)[:, :2]
    full = cs.client_values(problem, x)
    assert np.array_equal(cs.client_values(problem, x, clients=idx), np.take_along_axis(full, idx, axis=1))


class _EveryClient(SoftmaxRegression):
    """The same problem whose client_values takes no client list: q-FedAvg evaluates every client (the old path)."""

    def client_values(self, x):
        return super().client_values(x)


def test_qfedavg_evaluating_only_the_sampled_clients_changes_nothing_but_rounding():
    """On softmax regression (unequal sizes), the listed-clients path agrees with the full padded evaluation at the
    sampled clients, and T rounds of q-FedAvg from one seed agree to rounding with the rounds that evaluate every
    client (bit for bit on quadratics: the values are taken from every client's there)."""
    rng = np.random.default_rng(5)
    sizes = (3, 40, 1, 7, 12, 2)
    feats, labels = [rng.normal(size=(n, 4)) for n in sizes], [rng.integers(0, 3, n) for n in sizes]
    fast, slow = SoftmaxRegression(feats, labels, n_classes=3, l2=0.0), _EveryClient(feats, labels, n_classes=3, l2=0.0)
    x = rng.normal(size=(4, 6, fast.dim))
    idx = np.argsort(rng.random((4, 6)), axis=1)[:, :3]
    np.testing.assert_allclose(
        cs.client_values(fast, x, clients=idx), np.take_along_axis(cs.client_values(slow, x), idx, 1), rtol=1e-13
    )
    params = cs.ClientServerParams(0.1, 3, 6, 3, sizes=tuple(float(n) for n in sizes))
    runs = [
        cs.run(
            "qfedavg",
            SoftmaxMinibatch(p, 2),
            np.zeros(fast.dim),
            params,
            5,
            np.random.default_rng(7),
            S=4,
            q=1.0,
            variant=variant,
        )
        for variant in ("paper", "code")
        for p in (fast, slow)
    ]
    for a, b in (runs[:2], runs[2:]):
        assert not np.allclose(a[-1], 0.0)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_bad_input_names_the_parameter():
    rng = np.random.default_rng(0)
    oracle = ExactGradient(quad(rng, 3))
    with pytest.raises(InvalidParameterError, match="participants"):
        cs.ClientServerParams(0.1, 2, 3, 4)
    with pytest.raises(InvalidParameterError, match="sizes"):
        cs.ClientServerParams(0.1, 2, 3, 3, sizes=(1.0, -1.0, 2.0))
    with pytest.raises(InvalidParameterError, match="eta"):
        cs.ClientServerParams(0.0, 2, 3, 3)
    params = cs.ClientServerParams(0.1, 2, 3, 3)
    with pytest.raises(InvalidParameterError, match="mu"):
        cs.fedprox_round(np.zeros((1, 3)), oracle, params, None, mu=-1.0)
    with pytest.raises(InvalidParameterError, match="variant"):
        cs.qfedavg_round(np.zeros((1, 3)), oracle, params, None, q=1.0, variant="other")
    with pytest.raises(InvalidParameterError, match="oracle"):  # quadratic values <= 0 somewhere: F^q undefined
        cs.qfedavg_round(np.ones((1, 3)) * 5, ExactGradient(quad(rng, 3, c=-1e6)), params, None, q=0.5)
    with pytest.raises(InvalidParameterError, match="clients"):
        cs.client_values(oracle.problem, np.zeros((2, 3, 3)), clients=np.array([[0], [3]]))
    with pytest.raises(InvalidParameterError, match="method"):
        cs.run("fedsgd", oracle, np.zeros(3), params, 1, None)
    with pytest.raises(InvalidParameterError, match="rng"):
        cs.fedavg_round(np.zeros((1, 3)), oracle, cs.ClientServerParams(0.1, 2, 3, 2), None)
