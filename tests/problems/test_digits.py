"""The digits network (``fedtheory.problems.digits``): the label-skew partition, the exact per-client and per-sample
gradients of the tanh network against finite differences and against each other, the unequal-size minibatch oracle,
and the bundled data."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError
from fedtheory.problems.digits import ClientMinibatch, TanhNetwork, federated_digits, label_skew_partition


def _network(seed: int, sizes=(3, 7, 5), p: int = 4, hidden: int = 3, C: int = 3) -> TanhNetwork:
    rng = np.random.default_rng(seed)
    feats = [rng.normal(size=(m, p)) for m in sizes]
    labels = [rng.integers(0, C, size=m) for m in sizes]
    return TanhNetwork(
        feats, labels, hidden=hidden, n_classes=C, test_features=rng.normal(size=(6, p)), test_labels=np.arange(6) % C
    )


def _loop_values(net: TanhNetwork, x: np.ndarray) -> np.ndarray:
    """f_i(x_i) by a plain loop over clients and samples (the reference for the vectorised code)."""
    W1, b1, W2, b2 = net.unpack(x)
    out = []
    for i, m in enumerate(net.counts):
        total = 0.0
        for a, y in zip(net.features[i, :m], net.labels[i, :m]):
            z = W2[i] @ np.tanh(W1[i] @ a + b1[i]) + b2[i]
            total += np.log(np.sum(np.exp(z - z.max()))) + z.max() - z[y]
        out.append(total / m)
    return np.array(out)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.1, 3.0))
def test_gradients_match_central_differences(seed, scale):
    """Directional derivatives of f_i along a random direction, by central differences (step 1e-5: truncation
    O(h^2 f''') ~ 1e-9 and rounding ~ 1e-16/h ~ 1e-11 for these O(1) objectives), against client_grad."""
    net = _network(seed % 1000)
    rng = np.random.default_rng(seed)
    x = scale * rng.normal(size=(2, net.n_clients, net.dim))
    v = rng.normal(size=x.shape)
    h = 1e-5
    fd = (net.client_values(x + h * v) - net.client_values(x - h * v)) / (2 * h)
    exact = np.sum(net.client_grad(x) * v, axis=-1)
    np.testing.assert_allclose(fd, exact, rtol=1e-6, atol=1e-7 * scale**2)
    np.testing.assert_allclose(net.client_values(x[0]), _loop_values(net, x[0]), rtol=1e-12)
    np.testing.assert_allclose(net.value(x[:, 0]), net.client_values(np.repeat(x[:, :1], 3, axis=1)).mean(-1))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_client_gradient_is_the_mean_of_its_sample_gradients(seed):
    """grad f_i = (1/m_i) sum_{l < m_i} grad f_il for clients of unequal sizes: the single-sample gradients at every
    index of every client (indices past m_i clipped, then masked out) average to client_grad."""
    net = _network(seed % 1000, sizes=(2, 9, 4, 1))
    x = np.random.default_rng(seed).normal(size=(net.n_clients, net.dim))
    m_max = int(net.counts.max())
    idx = np.minimum(np.arange(m_max)[:, None], net.counts - 1)[..., None]  # (m_max, n, 1)
    singles = net.sample_grad(np.broadcast_to(x, (m_max, *x.shape)), idx)
    mean = np.einsum("ln,lnd->nd", net.mask.T, singles) / net.counts[:, None]
    np.testing.assert_allclose(mean, net.client_grad(x), rtol=1e-10, atol=1e-13)


def test_minibatch_draws_each_clients_own_samples_uniformly():
    net = _network(0, sizes=(2, 50, 5))
    oracle = ClientMinibatch(net, 7)
    x = np.zeros((400, net.n_clients, net.dim))
    idx = oracle.indices(x.shape, np.random.default_rng(1))
    assert idx.shape == (400, 3, 7)
    for i, m in enumerate(net.counts):  # every index of each client appears, none beyond its size
        assert set(np.unique(idx[:, i])) == set(range(m))
    # uniform: the count of each index of the small client is Binomial(2800, 1/2); 5 sd = 132
    assert abs(np.sum(idx[:, 0] == 0) - 1400) < 132
    g = oracle(x[:3], np.random.default_rng(2))
    assert g.shape == (3, 3, net.dim)
    np.testing.assert_array_equal(g, net.sample_grad(x[:3], oracle.indices(x[:3].shape, np.random.default_rng(2))))


def test_partition_rule():
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 4, size=103)
    parts = label_skew_partition(np.random.default_rng(5), labels, 4)
    owned = np.concatenate(parts)
    assert np.array_equal(np.sort(owned), np.arange(103))  # every sample once
    share = 51 // 4  # floor(103 / 2) samples dealt in equal shares of 12, the other 55 by label
    off_label = [np.sum(labels[p] != i) for i, p in enumerate(parts)]
    assert sum(off_label) <= 4 * share
    for i, p in enumerate(parts):  # client i holds its share plus every label-i sample outside the dealt ones
        assert len(p) >= share and off_label[i] <= share
    again = label_skew_partition(np.random.default_rng(5), labels, 4)
    assert all(np.array_equal(a, b) for a, b in zip(parts, again, strict=True))
    all_by_label = label_skew_partition(rng, labels, 4, uniform_fraction=0.0)
    assert all(np.all(labels[p] == i) for i, p in enumerate(all_by_label))
    uniform = label_skew_partition(rng, labels[:100], 4, uniform_fraction=1.0)
    assert [len(p) for p in uniform] == [25] * 4


def test_federated_digits():
    net = federated_digits(np.random.default_rng(0))
    assert net.n_clients == 10 and net.n_inputs == 64 and net.n_classes == 10
    assert net.test_labels.size == 359 and net.counts.sum() == 1797 - 359
    assert len(set(net.counts)) > 1  # unequal client sizes
    assert net.features.max() <= 1.0 and net.features.min() >= 0.0
    for i in range(10):  # each client is dominated by its own label: its 71 dealt samples plus all its label-i rest
        counts = np.bincount(net.labels[i, : net.counts[i]], minlength=10)
        assert counts[i] > 3 * np.delete(counts, i).max()
    again = federated_digits(np.random.default_rng(0))
    assert np.array_equal(net.features, again.features) and np.array_equal(net.test_labels, again.test_labels)


def test_gradient_descent_learns_the_digits():
    """A data/label alignment check: 150 full-gradient steps from the random start reach test accuracy > 0.85."""
    net = federated_digits(np.random.default_rng(0))
    x = net.initial_point(np.random.default_rng(1))
    assert net.accuracy(x) < 0.3
    for _ in range(150):
        x = x - 1.0 * net.grad(x)
    assert net.accuracy(x) > 0.85 and net.accuracy(x, "train") > 0.85
    assert net.value(x) < 0.5


def test_initial_point_draws_the_weights_and_zeros_the_biases():
    net = _network(0, p=50, hidden=40)
    for S in (None, 3):
        x = net.initial_point(np.random.default_rng(4), S)
        assert x.shape == ((net.dim,) if S is None else (S, net.dim))
        W1, b1, W2, b2 = net.unpack(x)
        assert np.all(b1 == 0) and np.all(b2 == 0)
        assert 0.8 < np.std(W1) * np.sqrt(50) < 1.2 and 0.8 < np.std(W2) * np.sqrt(40) < 1.2


def test_rejects_bad_input():
    net = _network(0)
    with pytest.raises(InvalidParameterError, match="idx"):
        net.sample_grad(np.zeros((3, net.dim)), np.full((3, 1), 3))  # client 0 has 3 samples
    with pytest.raises(InvalidParameterError, match="split"):
        net.accuracy(np.zeros(net.dim), "valid")
    with pytest.raises(InvalidParameterError, match="client_labels"):
        TanhNetwork([np.zeros((2, 3))], [np.array([0, 5])], hidden=2, n_classes=3)
    with pytest.raises(InvalidParameterError, match="labels"):
        label_skew_partition(np.random.default_rng(0), [0, 1, 4], 3)
    with pytest.raises(InvalidParameterError, match="problem"):
        ClientMinibatch(object(), 3)
