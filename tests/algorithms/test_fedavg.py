import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory.algorithms import fedavg
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient, Minibatch, Oracle, Rademacher
from fedtheory.problems import FederatedQuadratic, PiecewiseQuadratic, logistic_data


def _quadratic(seed: int, d: int = 3, M: int | None = None) -> FederatedQuadratic:
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d))
    A = A @ A.T / d + 0.2 * np.eye(d)
    return FederatedQuadratic(A, rng.normal(size=(M, d) if M else d))


@given(seed=st.integers(0, 1000), M=st.integers(1, 6), eta=st.floats(0.01, 0.5))
def test_server_average_of_identical_clients_is_the_client_state(seed, M, eta):
    # With exact gradients on a homogeneous problem every client holds the same state, so the average is it.
    p = _quadratic(seed)
    x0 = np.random.default_rng(seed).normal(size=3)
    many = fedavg.run(ExactGradient(p), x0, fedavg.FedAvgParams(eta, 3, M), 4, np.random.default_rng(0))
    one = fedavg.run(ExactGradient(p), x0, fedavg.FedAvgParams(eta, 3, 1), 4, np.random.default_rng(0))
    assert np.allclose(many.x, one.x, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("oracle_cls", [AdditiveGaussian, Rademacher])
@given(seed=st.integers(0, 1000), M=st.integers(1, 5), R=st.integers(1, 6))
def test_fedavg_with_one_local_step_is_minibatch_sgd_pathwise(oracle_cls, seed, M, R):
    p = _quadratic(seed, M=M)
    oracle = oracle_cls(p, 0.7)
    x0 = np.ones(3)
    fa = fedavg.run(oracle, x0, fedavg.FedAvgParams(0.1, 1, M), R, np.random.default_rng(seed), S=4)
    mb = fedavg.minibatch_sgd(oracle, x0, 0.1, R, np.random.default_rng(seed), M=M, S=4)
    assert np.allclose(fa.x, mb.x, rtol=1e-12, atol=1e-12)


def test_fedavg_with_one_local_step_is_minibatch_sgd_for_minibatch_oracles():
    p = logistic_data(np.random.default_rng(0), n_clients=3, n_per_client=30, dim=4, l2=0.1)
    oracle = Minibatch(p, 5)
    fa = fedavg.run(oracle, np.zeros(4), fedavg.FedAvgParams(0.3, 1, 3), 5, np.random.default_rng(1), S=2)
    mb = fedavg.minibatch_sgd(oracle, np.zeros(4), 0.3, 5, np.random.default_rng(1), M=3, S=2)
    assert np.allclose(fa.x, mb.x, rtol=1e-12, atol=1e-14)


@given(
    seed=st.integers(0, 1000), M=st.integers(1, 6), K=st.integers(1, 5), R=st.integers(1, 5), eta=st.floats(0.01, 0.9)
)
def test_identical_clients_with_exact_gradients_are_gradient_descent(seed, M, K, R, eta):
    p = _quadratic(seed)
    x0 = np.random.default_rng(seed).normal(size=3)
    traj = fedavg.run(ExactGradient(p), x0, fedavg.FedAvgParams(eta / p.L, K, M), R, np.random.default_rng(0))
    z = x0.copy()
    for _ in range(K * R):
        z = z - eta / p.L * p.grad(z)
    assert np.allclose(traj.final[0], z, rtol=1e-12, atol=1e-12)


def test_single_client_fedavg_is_sgd_with_KR_steps():
    p = PiecewiseQuadratic(1.0, 0.5)
    oracle = AdditiveGaussian(p, 1.0)
    fa = fedavg.run(oracle, [0.3], fedavg.FedAvgParams(0.1, 4, 1), 3, np.random.default_rng(5), S=7)
    sg = fedavg.sgd(oracle, [0.3], 0.1, 12, np.random.default_rng(5), S=7, record_at=[0, 4, 8, 12])
    assert np.array_equal(fa.x, sg.x)


class _TableNoise(Oracle):
    """Exact gradient plus noise read from a table indexed (call, replica): replays any replica alone."""

    def __init__(self, problem, table, replicas):
        self.problem, self.table, self.replicas, self.calls = problem, table, replicas, 0

    def __call__(self, x, rng):
        g = self.problem.client_grad(x) + self.table[self.calls][self.replicas]
        self.calls += 1
        return g


@given(seed=st.integers(0, 1000), S=st.integers(1, 5), M=st.integers(1, 4))
def test_replicas_in_one_call_equal_separate_runs(seed, S, M):
    p = PiecewiseQuadratic([1.0, 2.0], [0.5, 0.1])
    K, R = 3, 4
    table = np.random.default_rng(seed).normal(size=(K * R, S, M, 2))
    params = fedavg.FedAvgParams(0.2, K, M)
    x0 = np.random.default_rng(seed + 1).normal(size=(S, 2))
    together = fedavg.run(_TableNoise(p, table, slice(None)), x0, params, R, None, S=S)
    for s in range(S):
        alone = fedavg.run(_TableNoise(p, table, slice(s, s + 1)), x0[s], params, R, None, S=1)
        assert np.array_equal(together.x[:, s], alone.x[:, 0])


def test_server_step_size_interpolates():
    p = _quadratic(0)
    x0 = np.ones(3)
    plain = fedavg.run(ExactGradient(p), x0, fedavg.FedAvgParams(0.1, 2, 2), 1, None)
    half = fedavg.run(ExactGradient(p), x0, fedavg.FedAvgParams(0.1, 2, 2, eta_server=0.5), 1, None)
    assert np.allclose(half.final, (x0 + plain.final) / 2)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"eta": 0.0, "K": 1, "M": 1}, "eta"),
        ({"eta": -1.0, "K": 1, "M": 1}, "eta"),
        ({"eta": 0.1, "K": 0, "M": 1}, "K"),
        ({"eta": 0.1, "K": 1.5, "M": 1}, "K"),
        ({"eta": 0.1, "K": 1, "M": 0}, "M"),
        ({"eta": 0.1, "K": 1, "M": 1, "eta_server": 0.0}, "eta_server"),
    ],
)
def test_bad_fedavg_parameters_name_the_parameter(kwargs, name):
    with pytest.raises(InvalidParameterError, match=f"invalid {name}:"):
        fedavg.FedAvgParams(**kwargs)


def test_bad_shapes_and_client_counts():
    p = _quadratic(0, M=3)
    with pytest.raises(InvalidParameterError, match="invalid M"):
        fedavg.run(ExactGradient(p), np.zeros(3), fedavg.FedAvgParams(0.1, 1, 2), 1, None)
    with pytest.raises(InvalidParameterError, match="invalid x0"):
        fedavg.run(ExactGradient(p), np.zeros(2), fedavg.FedAvgParams(0.1, 1, 3), 1, None)
    with pytest.raises(InvalidParameterError, match="invalid sigma"):
        AdditiveGaussian(p, -1.0)


def test_divergence_reports_the_round():
    p = FederatedQuadratic(np.eye(1), np.zeros(1))
    # eta = 3 multiplies the iterate by (1 - 3)^10 = 1024 per round: 1e300 -> 1e303 -> 1e306 -> inf in round 3.
    with pytest.raises(DivergenceError, match="diverged at round 3") as err:
        fedavg.run(ExactGradient(p), [1e300], fedavg.FedAvgParams(3.0, 10, 2), 10, None)
    assert err.value.round == 3
    # SGD multiplies by -2 per step; at step 27 the gradient term 3 * 6.7e307 overflows.
    with pytest.raises(DivergenceError, match="SGD diverged at step 27"):
        fedavg.sgd(ExactGradient(p), [1e300], 3.0, 40, None)
