"""Per-client step counts (``K_i``, e.g. E local epochs): :func:`fedtheory.algorithms.primal_dual.ragged_steps`, its
numba kernel against the numpy reference, and the rounds of FedBC and the client-server baselines that use it."""

import numpy as np
import pytest

from fedtheory import backends
from fedtheory.algorithms import client_server as cs
from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import InvalidParameterError
from fedtheory.problems.softmax import SoftmaxMinibatch, SoftmaxRegression

SIZES = (3, 7, 12, 5)
RTOL = 1e-12
"""float64 agreement: the kernel sums a step's samples in another order than numpy's matrix products (well
conditioned: a few dozen terms of size O(1))."""


def problem(l2: float = 0.1) -> SoftmaxRegression:
    rng = np.random.default_rng(7)
    feats = [rng.normal(size=(n, 4)) for n in SIZES]
    labels = [rng.integers(0, 3, size=n) for n in SIZES]
    return SoftmaxRegression(feats, labels, n_classes=3, l2=l2)


@pytest.fixture
def kernels():
    """Restore the process-wide kernel choice after the test."""
    before = backends.kernels()
    yield backends.set_kernels
    backends.set_kernels(before)


def inputs(S: int = 2):
    rng = np.random.default_rng(3)
    prob = problem()
    clients = np.array([[0, 2, 3], [1, 2, 3]])[:S]
    steps = np.array([[1, 4, 2], [3, 1, 5]])[:S]
    return prob, {
        "w0": 0.3 * rng.normal(size=(S, 3, prob.dim)),
        "clients": clients,
        "steps": steps,
        "pull": rng.random((S, 3)),
        "anchor": rng.normal(size=(S, prob.dim)),
        "correction": 0.1 * rng.normal(size=(S, 3, prob.dim)),
    }


def ragged(prob, args, seed: int = 11, eta: float = 0.2) -> np.ndarray:
    a = dict(args)
    w0, clients, steps = a.pop("w0"), a.pop("clients"), a.pop("steps")
    return pd.ragged_steps(SoftmaxMinibatch(prob, 2), w0, clients, steps, eta, np.random.default_rng(seed), **a)


def test_kernel_matches_numpy(kernels):
    prob, args = inputs()
    kernels("numpy")
    ref = ragged(prob, args)
    kernels("numba")
    fused = ragged(prob, args)
    np.testing.assert_allclose(fused, ref, rtol=RTOL, atol=RTOL * np.abs(ref).max())
    assert not np.allclose(ref, args["w0"])  # the steps moved every row


@pytest.mark.parametrize("kind", ["numpy", "numba"])
def test_equal_counts_are_local_steps(kernels, kind):
    """With one count K for every client and the same sample indices, the FedBC local steps of
    :func:`primal_dual.local_steps` (pull = 2 lam towards z, no correction)."""
    kernels(kind)
    prob, args = inputs()
    K, b = 3, 2
    args = dict(args, steps=np.full((2, 3), K), correction=None)
    ours = ragged(prob, args)
    blocks = np.full(6, K * b)  # replay ragged_steps's draw: (s, q) order, K blocks of b each
    idx = np.random.default_rng(11).integers(0, np.repeat(prob.counts[args["clients"].ravel()], blocks))
    idx = idx.reshape(2, 3, K, b)
    calls = iter(range(K))

    def oracle(w, rng):
        return prob.sample_grad(w, idx[:, :, next(calls)], clients=args["clients"])

    ref = pd.local_steps(args["w0"], args["anchor"], args["pull"] / 2, oracle, 0.2, K, None)
    np.testing.assert_allclose(ours, ref, rtol=RTOL, atol=RTOL * np.abs(ref).max())


def test_rounds_with_per_client_counts_agree_across_kernels(kernels):
    prob = problem()
    oracle, N = SoftmaxMinibatch(prob, 2), len(SIZES)
    K = (1, 3, 2, 4)
    params = cs.ClientServerParams(0.1, K, N, 2, sizes=SIZES)
    pd_params = pd.PrimalDualParams(0.1, 0.01, K, N, 2, start="cold", eta_gamma=0.01)
    out = {}
    for kind in ("numpy", "numba"):
        kernels(kind)
        x = np.zeros((2, prob.dim))
        sc = cs.scaffold_round(cs.scaffold_init(x, N, S=2), oracle, params, np.random.default_rng(5))
        state = pd.round(pd.init(x, N, lam0=1.0, S=2), oracle, pd_params, np.random.default_rng(5))
        out[kind] = [
            cs.fedavg_round(x, oracle, params, np.random.default_rng(5)),
            cs.fedprox_round(x, oracle, params, np.random.default_rng(5), mu=np.array([0.5, 1.0])),
            cs.qfedavg_round(x, oracle, params, np.random.default_rng(5), q=1.0, variant="code"),
            sc.x,
            sc.c_i,
            state.z,
            state.lam,
        ]
    for ref, fused in zip(out["numpy"], out["numba"], strict=True):
        assert np.all(np.isfinite(ref))
        np.testing.assert_allclose(fused, ref, rtol=RTOL, atol=RTOL * max(np.abs(ref).max(), 1.0))


def test_bad_counts_and_oracles_raise():
    prob, args = inputs()
    with pytest.raises(InvalidParameterError, match="K"):
        pd.PrimalDualParams(0.1, 0.0, (1, 2), len(SIZES), 2)
    with pytest.raises(InvalidParameterError, match="K"):
        cs.ClientServerParams(0.1, (1, 0, 1, 1), len(SIZES), 2)
    with pytest.raises(InvalidParameterError, match="steps"):
        ragged(prob, dict(args, steps=np.zeros((2, 3), dtype=int)))
    with pytest.raises(InvalidParameterError, match="anchor"):
        ragged(prob, dict(args, anchor=None))
    with pytest.raises(InvalidParameterError, match="oracle"):
        pd.ragged_steps(object(), args["w0"], args["clients"], args["steps"], 0.1, np.random.default_rng(0))
