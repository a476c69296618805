"""Partial participation computes only the sampled clients' local work, with the round of computing every client.

The reference is the full computation: the same oracle behind a wrapper without ``at_clients`` (so every round takes
its every-client path, today's computation), fed a generator of the same seed. Agreement is to 1e-12 relative
(float64 rounding of the same arithmetic on other array shapes; in practice it is bit for bit). A counting problem
checks that the work scales with the number of sampled clients ``P``, not ``N``.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import client_server as cs
from fedtheory.algorithms import personalized as pz
from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient, Minibatch, Rademacher
from fedtheory.problems import FederatedQuadratic, LeastSquares, LogisticRegression
from fedtheory.problems.digits import ClientMinibatch, TanhNetwork
from fedtheory.problems.softmax import SoftmaxMinibatch, SoftmaxRegression

REL = 1e-12
seeds = st.integers(0, 2**16)


class Full:
    """The oracle without ``at_clients``: rounds compute every client (the reference)."""

    def __init__(self, oracle):
        self.oracle, self.problem = oracle, oracle.problem

    def __call__(self, x, rng):
        return self.oracle(x, rng)


class CountingQuadratic(FederatedQuadratic):
    """A quadratic recording the client rows its gradients evaluate."""

    rows = 0

    def client_grad(self, x, clients=None):
        self.rows += int(np.prod(np.shape(x)[:-1]))
        return super().client_grad(x, clients)


def quadratic(rng, N, d, *, homogeneous=False, cls=FederatedQuadratic):
    G = rng.standard_normal((1 if homogeneous else N, d, d))
    A = G @ np.swapaxes(G, -1, -2) / d + 0.5 * np.eye(d)
    b = rng.standard_normal((1 if homogeneous else N, d))
    return cls(A[0], b[0], 50.0) if homogeneous else cls(A, b, 50.0)  # c > 0: positive values for q-FedAvg


def softmax(rng, N, p=3, C=3):
    sizes = rng.integers(2, 7, size=N)
    return SoftmaxRegression(
        [rng.standard_normal((n, p)) for n in sizes], [rng.integers(0, C, n) for n in sizes], n_classes=C, l2=0.1
    )


def tanh_network(rng, N, p=3, C=3):
    sizes = rng.integers(2, 7, size=N)
    return TanhNetwork(
        [rng.standard_normal((n, p)) for n in sizes], [rng.integers(0, C, n) for n in sizes], hidden=2, n_classes=C
    )


ORACLES = {
    "quadratic-exact": lambda rng, N, d: ExactGradient(quadratic(rng, N, d)),
    "quadratic-gaussian-cov": lambda rng, N, d: AdditiveGaussian(
        quadratic(rng, N, d), cov=np.eye(d) * 0.1 + 0.05 * np.ones((d, d))
    ),
    "quadratic-rademacher": lambda rng, N, d: Rademacher(quadratic(rng, N, d), 0.3),
    "homogeneous-gaussian": lambda rng, N, d: AdditiveGaussian(quadratic(rng, N, d, homogeneous=True), 0.3),
    "softmax-minibatch": lambda rng, N, d: SoftmaxMinibatch(softmax(rng, N), 3),
    "softmax-exact": lambda rng, N, d: ExactGradient(softmax(rng, N)),
    "tanh-minibatch": lambda rng, N, d: ClientMinibatch(tanh_network(rng, N), 2),
    "least-squares-homogeneous": lambda rng, N, d: Minibatch(
        LeastSquares(rng.standard_normal((6, d)), rng.standard_normal(6)), 2
    ),
}

sizes = st.tuples(st.integers(3, 6), st.integers(1, 5), st.integers(1, 3), seeds)  # N, P (< N), S, seed


def make(name, N, seed):
    return ORACLES[name](np.random.default_rng(seed), N, 2)


def close(new, ref):
    new, ref = np.asarray(new, dtype=float), np.asarray(ref, dtype=float)
    assert new.shape == ref.shape
    assert np.all(np.abs(new - ref) <= REL * np.maximum(1.0, np.abs(ref))), np.max(np.abs(new - ref))


def both(step, oracle, seed):
    """``step(oracle, rng)`` on the subset path and the reference path, with generators of one seed; also checks
    that both leave the generator in the same state."""
    rng_new, rng_ref = np.random.default_rng(seed), np.random.default_rng(seed)
    new, ref = step(oracle, rng_new), step(Full(oracle), rng_ref)
    assert rng_new.random() == rng_ref.random()
    return new, ref


@pytest.mark.parametrize("name", sorted(ORACLES))
@settings(max_examples=8)
@given(size=sizes)
def test_on_clients_is_the_listed_rows_of_a_full_call(name, size):
    N, P, S, seed = size
    oracle, P = make(name, N, seed), min(P, N)
    rng = np.random.default_rng(seed)
    x = 0.3 * rng.standard_normal((S, N, oracle.problem.dim))
    clients = np.sort(np.argsort(rng.random((S, N)), axis=1)[:, :P], axis=1)
    assert oracle.client_subsets
    r_new, r_ref = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    sub = oracle.on_clients(clients, N)(np.take_along_axis(x, clients[..., None], axis=1), r_new)
    close(sub, np.take_along_axis(oracle(x, r_ref), clients[..., None], axis=1))
    assert r_new.random() == r_ref.random()


def client_server_rounds(N, P, S, seed, dim):
    rng = np.random.default_rng(seed)
    sizes = tuple(rng.uniform(1.0, 3.0, N))
    params = cs.ClientServerParams(0.05, 2, N, P, sizes)
    x = 0.2 * rng.standard_normal((S, dim))
    state = cs.ScaffoldState(x, 0.1 * rng.standard_normal((S, dim)), 0.1 * rng.standard_normal((S, N, dim)), 3)
    mu = rng.uniform(0.0, 1.0, S)
    return {
        "fedavg": lambda o, r: cs.fedavg_round(x, o, params, r),
        "fedprox": lambda o, r: cs.fedprox_round(x, o, params, r, mu=mu),
        "scaffold": lambda o, r: cs.scaffold_round(state, o, params, r, eta_g=0.7),
        "qfedavg": lambda o, r: cs.qfedavg_round(x, o, params, r, q=1.5),
        "qfedavg-code": lambda o, r: cs.qfedavg_round(x, o, params, r, q=0.5, variant="code"),
    }


def fields(state):
    if isinstance(state, np.ndarray):
        return [state]
    return [np.asarray(v) for v in vars(state).values() if v is not None]


@pytest.mark.parametrize("name", sorted(ORACLES))
@settings(max_examples=10)
@given(size=sizes, method=st.sampled_from(sorted(client_server_rounds(3, 1, 1, 0, 2))))
def test_client_server_rounds_equal_the_full_computation(name, size, method):
    N, P, S, seed = size
    oracle = make(name, N, seed)
    if method.startswith("qfedavg") and not (
        hasattr(oracle.problem, "client_values") or isinstance(oracle.problem, FederatedQuadratic)
    ):
        return  # q-FedAvg needs the clients' values
    step = client_server_rounds(N, min(P, N - 1), S, seed, oracle.problem.dim)[method]
    new, ref = both(step, oracle, seed)
    for a, b in zip(fields(new), fields(ref), strict=True):
        close(a, b)


def primal_dual_rounds(N, P, S, seed, dim):
    rng = np.random.default_rng(seed)
    z = 0.2 * rng.standard_normal((S, dim))
    state = pd.init(z, N, lam0=rng.uniform(0.5, 2.0, N), gamma=rng.uniform(0.0, 0.1, N), S=S)
    state.x = state.x + 0.1 * rng.standard_normal(state.x.shape)
    ditto = pz.ditto_init(z, N, S=S)
    ditto.v = ditto.v + 0.1 * rng.standard_normal(ditto.v.shape)
    rounds = {}
    for start in pd.STARTS:
        for update in pd.UPDATES:
            params = pd.PrimalDualParams(0.05, 0.1, 2, N, P, start=start, update=update, eta_gamma=0.01)
            rounds[f"fedbc-{start}-{update}"] = lambda o, r, params=params: pd.round(state, o, params, r)
    per = pz.PerFedAvgParams(0.02, 0.05, 2, N, P, tuple(rng.uniform(1.0, 2.0, N)))
    pfedme = pz.PFedMeParams(0.05, 2.0, 2, 0.03, 2, N, P, server_beta=0.8)
    ppd = pz.PersonalizedPrimalDualParams(0.03, 0.05, 0.1, 2, 2, N, P)
    dp = pz.DittoParams(0.05, 0.5, 2, 0.04, 2, N, P)
    return rounds | {
        "per-fedavg": lambda o, r: pz.per_fedavg_round(z, o, per, r),
        "pfedme": lambda o, r: pz.pfedme_round(z, o, pfedme, r),
        "personalised-primal-dual": lambda o, r: pz.personalized_primal_dual_round(state, o, ppd, r),
        "ditto": lambda o, r: pz.ditto_round(ditto, o, dp, r),
    }


@pytest.mark.parametrize("name", sorted(ORACLES))
@settings(max_examples=12)
@given(size=sizes, method=st.sampled_from(sorted(primal_dual_rounds(3, 1, 1, 0, 2))))
def test_primal_dual_and_personalised_rounds_equal_the_full_computation(name, size, method):
    N, P, S, seed = size
    oracle = make(name, N, seed)
    step = primal_dual_rounds(N, min(P, N - 1), S, seed, oracle.problem.dim)[method]
    new, ref = both(step, oracle, seed)
    for a, b in zip(fields(new), fields(ref), strict=True):
        close(a, b)


@pytest.mark.parametrize("seed", [0, 1])
def test_exact_pfedme_on_the_sampled_clients(seed):
    rng = np.random.default_rng(seed)
    oracle = ExactGradient(quadratic(rng, 6, 3))
    params = pz.PFedMeParams(0.05, 2.0, 2, 0.03, 2, 6, 2, exact=True)
    z = rng.standard_normal((4, 3))
    new, ref = both(lambda o, r: pz.pfedme_round(z, o, params, r), oracle, seed)
    close(new, ref)


@pytest.mark.parametrize("P", [1, 3, 12])
def test_local_work_scales_with_the_sampled_clients(P):
    S, N, K, d = 4, 12, 3, 2
    oracle = ExactGradient(quadratic(np.random.default_rng(0), N, d, cls=CountingQuadratic))
    x = np.zeros((S, d))
    cs.fedavg_round(x, oracle, cs.ClientServerParams(0.1, K, N, P), np.random.default_rng(1))
    assert oracle.problem.rows == S * P * K
    oracle.problem.rows = 0
    state = pd.init(x, N, lam0=1.0, S=S)
    pd.round(state, oracle, pd.PrimalDualParams(0.1, 0.1, K, N, P), np.random.default_rng(1))
    assert oracle.problem.rows == S * P * K
    oracle.problem.rows = 0
    pd.round(state, oracle, pd.PrimalDualParams(0.1, 0.1, K, N, P, update="all"), np.random.default_rng(1))
    assert oracle.problem.rows == S * N * K  # every device updates: every device's work
    oracle.problem.rows = 0
    cs.fedavg_round(x, Full(oracle), cs.ClientServerParams(0.1, K, N, P), np.random.default_rng(1))
    assert oracle.problem.rows == S * N * K  # no subset entry: today's full computation


def test_a_problem_without_subsets_falls_back_to_every_client():
    rng = np.random.default_rng(3)
    N, d = 5, 2
    oracle = Minibatch(LogisticRegression(rng.standard_normal((N, 4, d)), rng.choice([-1.0, 1.0], (N, 4))), 2)
    if oracle.client_subsets:  # the problem has gained a subset path: nothing falls back
        return
    assert pd.working_set(oracle, pd.sample(3, N, 2, rng)).shape == (3, N)
    with pytest.raises(InvalidParameterError):
        oracle.on_clients(np.zeros((3, 2), dtype=int))
    params = cs.ClientServerParams(0.1, 2, N, 2)
    new, ref = both(lambda o, r: cs.fedavg_round(np.zeros((3, d)), o, params, r), oracle, 4)
    np.testing.assert_array_equal(new, ref)


def test_on_clients_refuses_bad_subsets():
    rng = np.random.default_rng(0)
    oracle = AdditiveGaussian(quadratic(rng, 4, 2), 0.1)
    x = np.zeros((2, 3, 2))
    with pytest.raises(InvalidParameterError, match="clients"):
        oracle.on_clients(np.zeros((2, 2), dtype=int))(x, rng)  # one index per point
    with pytest.raises(InvalidParameterError, match="clients"):
        oracle.on_clients(np.full((2, 3), 4))  # below N
    with pytest.raises(InvalidParameterError, match="clients"):
        oracle.on_clients(np.full((2, 3), 1.0))  # integers
    with pytest.raises(InvalidParameterError, match="M"):
        oracle.on_clients(np.zeros((2, 3), dtype=int), 5)  # the problem's N
    homogeneous = AdditiveGaussian(quadratic(rng, 4, 2, homogeneous=True), 0.1)
    with pytest.raises(InvalidParameterError, match="n_clients"):
        homogeneous.on_clients(np.zeros((2, 3), dtype=int))  # identical clients: N must be given
    with pytest.raises(InvalidParameterError, match="clients"):
        homogeneous.on_clients(np.zeros((2, 2), dtype=int), 4)(x, rng)  # one index per point
