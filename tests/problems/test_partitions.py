"""Label partitions (``fedtheory.problems.partitions``): disjoint client index sets that cover at most the data, no
empty client, and class counts per client as each reading prescribes; bad input named."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError
from fedtheory.problems.partitions import (
    class_counts,
    dirichlet_by_class,
    dirichlet_by_client,
    iid_partition,
    pathological_partition,
)

ALPHAS = st.one_of(st.floats(0.05, 20.0), st.just(np.inf))


def _labels(seed: int, n: int, C: int) -> np.ndarray:
    """``n`` labels with every class present at least ``n // (2C)`` times, the rest random."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(C), n // (2 * C))
    return rng.permutation(np.concatenate([base, rng.integers(0, C, n - base.size)]))


def _check_disjoint(parts, n: int) -> np.ndarray:
    """Every part sorted, in range, non-empty; parts pairwise disjoint. Returns the used indices."""
    for p in parts:
        assert p.size > 0 and np.all(np.diff(p) > 0) and p.min() >= 0 and p.max() < n
    used = np.concatenate(parts)
    assert np.unique(used).size == used.size  # every sample at most once
    return used


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(60, 400), C=st.integers(2, 10), m=st.integers(1, 12), alpha=ALPHAS)
def test_dirichlet_by_class_splits_every_class_over_the_clients(seed, n, C, m, alpha):
    """Reading (a): every sample used exactly once, each class's samples all dealt; alpha = inf deals each class
    evenly (client counts of a class differ by at most one)."""
    y = _labels(seed, n, C)
    parts = dirichlet_by_class(np.random.default_rng(seed), y, m, alpha)
    assert len(parts) == m
    assert np.array_equal(np.sort(_check_disjoint(parts, n)), np.arange(n))
    counts = class_counts(parts, y, C)
    np.testing.assert_array_equal(counts.sum(axis=0), np.bincount(y, minlength=C))
    if np.isinf(alpha):
        assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(60, 400), C=st.integers(2, 10), m=st.integers(1, 12), alpha=ALPHAS)
def test_dirichlet_by_client_gives_fixed_sizes_from_unused_samples(seed, n, C, m, alpha):
    """Reading (b): every client holds exactly client_size samples, no sample twice, per-class counts within what
    the class has."""
    y = _labels(seed, n, C)
    size = n // m
    parts = dirichlet_by_client(np.random.default_rng(seed), y, m, alpha, size)
    _check_disjoint(parts, n)
    assert [p.size for p in parts] == [size] * m
    assert np.all(class_counts(parts, y, C).sum(axis=0) <= np.bincount(y, minlength=C))


def test_the_dirichlet_readings_concentrate_as_alpha_vanishes_and_spread_as_it_grows():
    """alpha = 1e-3: reading (a) gives each class essentially to one client, reading (b) each client essentially
    one class (classes abundant); alpha = inf in reading (b): label proportions near uniform (chi-square)."""
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(10), 200)
    counts = class_counts(dirichlet_by_class(rng, y, 4, 1e-3), y)  # 10 classes, each on one of 4 clients
    assert np.all(counts.max(axis=0) >= 0.99 * 200)
    y = np.repeat(np.arange(5), 400)
    counts = class_counts(dirichlet_by_client(rng, y, 8, 1e-3, 40), y)
    assert np.all(counts.max(axis=1) >= 0.95 * 40)
    counts = class_counts(dirichlet_by_client(rng, y, 40, np.inf, 40), y).sum(axis=0)  # 1600 draws, 5 classes
    chi2 = np.sum((counts - 320) ** 2 / 320)
    assert chi2 < 18.5  # the 0.999 quantile of chi-square with 4 degrees of freedom


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(100, 400), C=st.integers(2, 10), m=st.integers(1, 12))
def test_pathological_clients_hold_k_classes_split_evenly(seed, n, C, m):
    """Path(k): each client holds exactly k classes; a class held by h clients is split in h parts differing by at
    most one sample, all its samples used; a class nobody holds is unused."""
    y = _labels(seed, n, C)
    k = 1 + seed % C
    parts = pathological_partition(np.random.default_rng(seed), y, m, k)
    _check_disjoint(parts, n)
    counts = class_counts(parts, y, C)
    assert np.all((counts > 0).sum(axis=1) == k)
    totals = np.bincount(y, minlength=C)
    for c in range(C):
        held = counts[:, c][counts[:, c] > 0]
        assert held.sum() in (0, totals[c])
        if held.size:
            assert held.max() - held.min() <= 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), m=st.integers(1, 30))
def test_iid_partition_is_a_near_equal_split_of_everything(seed, n, m):
    m = min(m, n)
    parts = iid_partition(np.random.default_rng(seed), n, m)
    assert np.array_equal(np.sort(_check_disjoint(parts, n)), np.arange(n))
    sizes = [p.size for p in parts]
    assert max(sizes) - min(sizes) <= 1


def test_partitions_are_reproducible_from_the_generator():
    y = _labels(3, 200, 4)
    for make in (
        lambda r: dirichlet_by_class(r, y, 6, 0.3),
        lambda r: dirichlet_by_client(r, y, 6, 0.3, 30),
        lambda r: pathological_partition(r, y, 6, 2),
        lambda r: iid_partition(r, 200, 6),
    ):
        a, b = make(np.random.default_rng(7)), make(np.random.default_rng(7))
        assert all(np.array_equal(p, q) for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda r, y: dirichlet_by_class(r, y, 4, 0.0), "alpha"),
        (lambda r, y: dirichlet_by_class(r, y, 4, np.nan), "alpha"),
        (lambda r, y: dirichlet_by_class(r, y, 0, 0.3), "m"),
        (lambda r, y: dirichlet_by_class(r, y, 500, 0.3), "m"),
        (lambda r, y: dirichlet_by_class(r, y[None], 4, 0.3), "labels"),
        (lambda r, y: dirichlet_by_class(r, y.astype(float), 4, 0.3), "labels"),
        (lambda r, y: dirichlet_by_class(r, y, 4, 0.3, n_classes=2), "labels"),
        (lambda r, y: dirichlet_by_class(1, y, 4, 0.3), "rng"),
        (lambda r, y: dirichlet_by_client(r, y, 4, 0.3, 26), "client_size"),
        (lambda r, y: dirichlet_by_client(r, y, 4, -1.0, 10), "alpha"),
        (lambda r, y: pathological_partition(r, y, 4, 5), "k"),
        (lambda r, y: pathological_partition(r, y, 4, 0), "k"),
        (lambda r, y: pathological_partition(r, np.array([0, 1, 1, 1]), 4, 1), "k"),
        (lambda r, y: iid_partition(r, 3, 4), "m"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    y = np.repeat(np.arange(4), 25)
    with pytest.raises(InvalidParameterError, match=f"invalid {name}"):
        call(np.random.default_rng(0), y)
