"""The vectorised step-size sweep against the algorithms it replicates, and its bookkeeping."""

import numpy as np
import pytest

from fedtheory.algorithms import fedac, fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.oracles import Minibatch
from fedtheory.problems import LogisticRegression, logistic_data
from fedtheory.sweeps.fedac import _fedac_coefficients, run_sweep


def _problem():
    data = logistic_data(np.random.default_rng(0), n_clients=1, n_per_client=60, dim=4, l2=0.1)
    return LogisticRegression(data.features[0], data.labels[0], l2=0.1)


@pytest.mark.parametrize("algorithm", ["fedac-i", "fedac-ii", "vanilla", "fedavg"])
def test_one_step_size_one_seed_is_the_algorithm(algorithm):
    # A sweep with a single (eta, seed) replica draws the same samples as the algorithm's own run.
    p = _problem()
    sw = run_sweep(p, 0.0, algorithm, M=3, K=4, T=12, etas=[0.2], seeds=1, rng=np.random.default_rng(7), eval_every=4)
    o = Minibatch(p, 1)
    if algorithm == "fedavg":
        ref = fedavg.run(o, np.zeros(4), fedavg.FedAvgParams(0.2, 4, 3), 3, np.random.default_rng(7)).x[:, 0]
    else:
        make = {"fedac-i": fedac.fedac_i, "fedac-ii": fedac.fedac_ii, "vanilla": fedac.vanilla}[algorithm]
        ref = fedac.run(o, np.zeros(4), make(0.2, 0.1, 4, 3), 3, np.random.default_rng(7)).x_ag[:, 0]
    np.testing.assert_allclose(sw.gap[0, 0], p.value(ref), rtol=1e-12)
    np.testing.assert_array_equal(sw.rounds_at, [0, 1, 2, 3])


def test_divergent_step_sizes_are_recorded_as_infinite():
    # eta l2 = 5: the l2 term alone multiplies the iterate by -4 per step, so the run overflows within the budget.
    p = _problem()
    sw = run_sweep(p, 0.0, "fedavg", M=2, K=8, T=512, etas=[0.01, 50.0], seeds=2, rng=np.random.default_rng(0))
    assert np.all(np.isfinite(sw.gap[0]))
    assert np.all(sw.gap[1, :, -1] == np.inf)
    assert sw.best().shape == (2,) and np.all(np.isfinite(sw.best()))


def test_sweep_validation():
    p = _problem()
    with pytest.raises(InvalidParameterError, match="algorithm"):
        run_sweep(p, 0.0, "adam", M=2, K=2, T=4, etas=[0.1], seeds=1, rng=np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="T"):
        run_sweep(p, 0.0, "fedavg", M=2, K=3, T=4, etas=[0.1], seeds=1, rng=np.random.default_rng(0))


def _materialised(p, algorithm, M, K, T, etas, seeds, rng):
    """The minibatch baselines as M K one-row clients taking one step per round (the sweep's former layout), the
    suboptimality after every round."""
    S, d, R = len(etas) * seeds, p.dim, T // K
    eta = np.repeat(etas, seeds)[:, None, None]
    oracle = Minibatch(p, 1)
    x, x_ag = np.zeros((S, d)), np.zeros((S, d))
    if algorithm == "mb-ac-sgd":
        a, b, gamma = (c[:, None, None] for c in _fedac_coefficients("vanilla", np.repeat(etas, seeds), p.l2, 1))
    gaps = [p.value(x)]
    for _ in range(R):
        cx = np.broadcast_to(x[:, None, :], (S, M * K, d))
        if algorithm == "mb-ac-sgd":
            md = b * cx + (1 - b) * np.broadcast_to(x_ag[:, None, :], (S, M * K, d))
            g = oracle(md, rng)
            x, x_ag = ((1 - a) * cx + a * md - gamma * g).mean(axis=1), (md - eta * g).mean(axis=1)
        else:
            x = (cx - eta * oracle(cx, rng)).mean(axis=1)
        gaps.append(p.value(x_ag if algorithm == "mb-ac-sgd" else x))
    return np.stack(gaps, axis=-1).reshape(len(etas), seeds, R + 1)


@pytest.mark.parametrize("algorithm", ["mb-sgd", "mb-ac-sgd"])
def test_minibatch_baselines_equal_their_materialised_clients(algorithm):
    # One row with a batch of M K rows draws the indices that M K one-row clients draw, in the same order, and the
    # update is linear in the gradient: same seed, same iterates (to rounding), at a fraction of the memory.
    p, etas = _problem(), [0.05, 0.3]
    M, K, T, seeds = 3, 4, 32, 2
    sw = run_sweep(p, 0.0, algorithm, M=M, K=K, T=T, etas=etas, seeds=seeds, rng=np.random.default_rng(5), eval_every=K)
    ref = _materialised(p, algorithm, M, K, T, etas, seeds, np.random.default_rng(5))
    np.testing.assert_array_equal(sw.rounds_at, np.arange(T // K + 1))
    np.testing.assert_allclose(sw.gap, ref, rtol=1e-12, atol=0)
