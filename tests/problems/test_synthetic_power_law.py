"""Synthetic(alpha, beta) with log-normal client sizes (``fedtheory.problems.synthetic_power_law``): shapes, labels
equal to the argmax of the labelling models, sizes ``n_i >= 50`` and their law (quantiles of ``log(n_i - 50)``
with distribution-free intervals that account for the floor), the 80/20 split, the softmax problem built from it,
per-client accuracies, seeded determinism."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fedtheory.errors import InvalidParameterError
from fedtheory.problems.softmax import SoftmaxRegression
from fedtheory.problems.synthetic_power_law import power_law_synthetic


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    N=st.integers(1, 8),
    dim=st.integers(1, 12),
    C=st.integers(2, 6),
    alpha=st.floats(0, 2),
    beta=st.floats(0, 2),
)
def test_shapes_labels_sizes_and_split(seed, N, dim, C, alpha, beta):
    data = power_law_synthetic(
        np.random.default_rng(seed), n_clients=N, alpha=alpha, beta=beta, dim=dim, n_classes=C, size_log_sd=1.0
    )
    n = data.sizes.sum()
    assert data.features.shape == (n, dim) and data.labels.shape == data.client.shape == data.train.shape == (n,)
    assert data.models.shape == (N, dim, C) and data.intercepts.shape == (N, C) and data.means.shape == (N, dim)
    assert np.all(data.sizes >= 50) and np.array_equal(np.bincount(data.client, minlength=N), data.sizes)
    assert np.all(np.diff(data.client) >= 0)
    scores = np.einsum("nd,ndc->nc", data.features, data.models[data.client]) + data.intercepts[data.client]
    assert np.array_equal(data.labels, np.argmax(scores, axis=1))
    assert np.array_equal(data.train_sizes, (0.8 * data.sizes).astype(int))
    for i in range(N):  # the training part is the first int(0.8 n_i) samples of the client
        assert np.all(np.flatnonzero(data.train[data.client == i]) == np.arange(data.train_sizes[i]))


def test_feature_covariance_is_diag_j_power():
    data = power_law_synthetic(np.random.default_rng(3), n_clients=2, alpha=0.5, beta=0.5, dim=6, size_log_mean=9.0)
    noise = data.features - data.means[data.client]
    var = noise.var(axis=0, ddof=0)
    target = np.arange(1, 7) ** -1.2
    n = noise.shape[0]
    # the sample variance of n Gaussians has relative sd sqrt(2/n); 5 sd per coordinate
    assert np.all(np.abs(var / target - 1) < 5 * np.sqrt(2 / n))


def _bracket(sd: float, q: float) -> tuple[float, float]:
    """A distribution-free 99.9% interval for the q-quantile of Z from 10^4 sizes n_i = floor(exp(Z_i)) + 50:
    floor(exp(.)) is monotone, so the quantile lies between log(k-th order statistic of n - 50) and log(that + 1)
    with k from the binomial."""
    m = 10_000
    data = power_law_synthetic(
        np.random.default_rng(11), n_clients=m, alpha=0.5, beta=0.5, dim=1, n_classes=2, size_log_sd=sd
    )
    offset = np.sort(data.sizes - 50)
    lo_k, hi_k = stats.binom.ppf([0.0005, 0.9995], m, q).astype(int)
    lower = np.log(offset[lo_k - 1]) if offset[lo_k - 1] > 0 else -np.inf
    return lower, np.log(offset[hi_k] + 1)


@pytest.mark.parametrize("z", [-1.0, 0.0, 1.0])
def test_log_sizes_have_mean_4_and_sd_2(z):
    """log(n_i - 50) is N(4, 2^2) up to the floor: its median (the mean, 4) and its 15.9% and 84.1% quantiles
    (4 -+ 2, the sd) lie in their intervals."""
    lower, upper = _bracket(2.0, stats.norm.cdf(z))
    assert lower <= 4 + 2 * z <= upper


def test_wrong_size_law_is_detected():
    """Negative control: with sd 1.8 the 84.1% quantile (5.8) leaves the interval around 4 + 2 = 6."""
    lower, upper = _bracket(1.8, stats.norm.cdf(1.0))
    assert not lower <= 6.0 <= upper


def test_softmax_problem_and_client_accuracy():
    data = power_law_synthetic(np.random.default_rng(5), n_clients=4, alpha=0.5, beta=0.5, dim=5, n_classes=3)
    p = data.softmax(l2=0.1)
    assert isinstance(p, SoftmaxRegression) and p.n_inputs == 6 and p.dim == 18
    assert np.array_equal(p.counts, data.train_sizes) and p.test_labels.size == np.sum(~data.train)
    x = np.random.default_rng(0).normal(size=(2, 18))
    acc = data.client_test_accuracy(x)
    test_counts = data.sizes - data.train_sizes
    assert acc.shape == (2, 4)
    assert np.allclose(acc @ test_counts / test_counts.sum(), p.accuracy(x, "test"))
    # the labelling models themselves classify every sample correctly
    truth = np.concatenate([data.models, data.intercepts[:, None, :]], axis=1).transpose(0, 2, 1).reshape(4, -1)
    assert np.allclose(np.diagonal(data.client_test_accuracy(truth)), 1.0)


def test_seeded_determinism():
    a, b = (power_law_synthetic(np.random.default_rng(9), n_clients=5, alpha=0.5, beta=0.5) for _ in range(2))
    for field in ("features", "labels", "client", "train", "sizes", "models", "intercepts", "means"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    c = power_law_synthetic(np.random.default_rng(10), n_clients=5, alpha=0.5, beta=0.5)
    assert not np.array_equal(a.sizes, c.sizes) or not np.array_equal(a.features, c.features)


@pytest.mark.parametrize(
    "kwargs",
    [{"alpha": -1.0}, {"n_clients": 0}, {"train_fraction": 1.0}, {"train_fraction": 0.0}, {"min_size": 1}],
)
def test_bad_input(kwargs):
    args = {"n_clients": 3, "alpha": 0.5, "beta": 0.5} | kwargs
    with pytest.raises(InvalidParameterError):
        power_law_synthetic(np.random.default_rng(0), **args)
