"""The fused kernels of :mod:`fedtheory.kernels` against the numpy reference: same generator seed, same iterates to
float64 rounding (1e-12 relative to the iterates' scale; only the order of the d-term inner products differs)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import backends, kernels
from fedtheory.algorithms import fedac, fedavg
from fedtheory.oracles import AdditiveGaussian, ExactGradient, Minibatch
from fedtheory.problems import LeastSquares, LogisticRegression
from fedtheory.sweeps.fedac import ALGORITHMS, run_sweep

RTOL = 1e-12  # float64 rounding of K steps of d-term sums, well above 1e-16 * d * K


def _agree(kernel, reference):
    scale = max(1.0, float(np.max(np.abs(reference[np.isfinite(reference)]), initial=0.0)))
    np.testing.assert_array_equal(np.isfinite(kernel), np.isfinite(reference))
    np.testing.assert_allclose(kernel, reference, rtol=RTOL, atol=RTOL * scale, equal_nan=True)


def _problem(kind: str, per_client: bool, M: int, d: int, seed: int, n: int = 9):
    rng = np.random.default_rng(seed)
    shape = (M, n) if per_client else (n,)
    X = rng.standard_normal((*shape, d))
    if kind == "logistic":
        return LogisticRegression(X, np.where(rng.random(shape) < 0.5, -1.0, 1.0), l2=0.1)
    return LeastSquares(X, rng.standard_normal(shape))


def _run_both(run):
    """``run()`` under the numpy kernels and under numba, from the same seed inside ``run``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(backends.KERNELS_VARIABLE, "numpy")
        reference = run()
        mp.setenv(backends.KERNELS_VARIABLE, "numba")
        return run(), reference


shapes = st.fixed_dictionaries(
    {
        "S": st.integers(1, 4),
        "M": st.integers(1, 4),
        "K": st.integers(1, 5),
        "b": st.integers(1, 3),
        "d": st.integers(1, 6),
        "per_client": st.booleans(),
        "kind": st.sampled_from(["logistic", "least-squares"]),
        "seed": st.integers(0, 2**16),
    }
)


@settings(max_examples=25)
@given(shapes, st.sampled_from(["fedac", "fedavg"]), st.booleans())
def test_local_steps_match_numpy(case, algorithm, broadcast):
    problem = _problem(case["kind"], case["per_client"], case["M"], case["d"], case["seed"])
    oracle = Minibatch(problem, case["b"])
    S, M, d = case["S"], case["M"], case["d"]
    starts = np.random.default_rng(case["seed"] + 1).standard_normal((2, S, M, d))
    x, x_ag = np.broadcast_to(starts[0, :, :1], (S, M, d)) if broadcast else starts[0], starts[1]  # one broadcast
    if algorithm == "fedac":
        params = fedac.fedac_ii(0.05, 0.1, case["K"], M)
        kernel, reference = _run_both(
            lambda: np.stack(fedac.local_steps(x, x_ag, oracle, params, np.random.default_rng(case["seed"])))
        )
    else:
        kernel, reference = _run_both(
            lambda: fedavg.local_sgd(x, oracle, 0.05, case["K"], np.random.default_rng(case["seed"]))
        )
    assert kernel.shape == reference.shape
    _agree(kernel, reference)


@settings(max_examples=10)
@given(shapes)
def test_per_replica_coefficients_and_means_match_numpy(case):
    """Per-replica step sizes (the sweep's layout) and the client mean of :func:`fedtheory.kernels` against the
    numpy expressions of the sweep."""
    problem = _problem(case["kind"], case["per_client"], case["M"], case["d"], case["seed"])
    oracle = Minibatch(problem, case["b"])
    S, M, d, K = case["S"], case["M"], case["d"], case["K"]
    coef = np.random.default_rng(case["seed"] + 2).uniform(0.01, 0.2, (4, S, 1, 1))
    eta, a, b, gamma = coef
    x0 = np.broadcast_to(np.random.default_rng(case["seed"]).standard_normal((S, 1, d)), (S, M, d))
    rng = np.random.default_rng(case["seed"])
    cx = cag = x0
    for _ in range(K):
        md = b * cx + (1 - b) * cag
        g = oracle(md, rng)
        cag = md - eta * g
        cx = (1 - a) * cx + a * md - gamma * g
    spec = kernels.fused_oracle(oracle)
    kx, kag = kernels.fedac_local_steps(
        spec, x0, x0, np.random.default_rng(case["seed"]), K, eta, a, b, gamma, mean=True
    )
    _agree(np.stack([kx, kag]), np.stack([cx.mean(axis=1), cag.mean(axis=1)]))


def test_divergence_propagates_as_in_numpy():
    problem = _problem("least-squares", True, 3, 4, 0)
    x = np.broadcast_to(np.ones((2, 1, 4)), (2, 3, 4))
    with np.errstate(over="ignore", invalid="ignore"):
        kernel, reference = _run_both(
            lambda: fedavg.local_sgd(x, Minibatch(problem, 2), 1e3, 200, np.random.default_rng(1))
        )
    assert not np.all(np.isfinite(reference))
    _agree(kernel, reference)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_run_sweep_matches_numpy(algorithm):
    problem = _problem("logistic", False, 1, 5, 3, n=20)
    etas = [0.05, 0.5, 5.0]

    def sweep():
        return run_sweep(problem, 0.0, algorithm, M=3, K=2, T=8, etas=etas, seeds=2, rng=np.random.default_rng(4),
                         eval_every=2).gap  # fmt: skip

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(backends.SWEEP_ENGINE_VARIABLE, "numpy")
        kernel, reference = _run_both(sweep)
    _agree(kernel, reference)


class _Subclass(Minibatch):
    """A Minibatch subclass may change the oracle: it keeps the numpy path."""


def test_other_oracles_run_numpy(monkeypatch):
    monkeypatch.setenv(backends.KERNELS_VARIABLE, "numba")
    problem = _problem("logistic", False, 2, 3, 5)
    oracles = [AdditiveGaussian(problem, 0.3), ExactGradient(problem), _Subclass(problem, 2)]
    assert kernels.fused_oracle(Minibatch(problem, 2)) is not None
    assert all(kernels.fused_oracle(o) is None for o in oracles)

    def fail(*args, **kwargs):
        raise AssertionError("the kernel ran for an oracle it does not cover")

    monkeypatch.setattr(fedac, "fedac_local_steps", fail)
    monkeypatch.setattr(fedavg, "sgd_local_steps", fail)
    x = np.zeros((2, 2, 3))
    params = fedac.fedac_i(0.1, 0.1, 2, 2)
    for oracle in oracles:
        rng = np.random.default_rng(0)
        assert np.all(np.isfinite(fedac.local_steps(x, x, oracle, params, rng)[0]))
        assert np.all(np.isfinite(fedavg.local_sgd(x, oracle, 0.1, 2, rng)))
    monkeypatch.setenv(backends.KERNELS_VARIABLE, "numpy")
    assert kernels.fused_oracle(Minibatch(problem, 2)) is None
