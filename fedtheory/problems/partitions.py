"""Label partitions of a labelled data set over ``m`` clients: the heterogeneous splits of federated experiments.

Every function takes an explicit :class:`numpy.random.Generator` and the labels ``y`` (``N`` integers in
``0..C-1``) and returns one sorted index array per client; the arrays are disjoint (every sample is used at most
once) and every client receives at least one sample.

* :func:`dirichlet_by_class` -- reading (a) of a Dirichlet split: per class ``c``, proportions ``p_c ~ Dir(alpha 1_m)``
  over the clients split that class's samples (client sizes vary; ``alpha = inf`` splits every class evenly).
* :func:`dirichlet_by_client` -- reading (b): per client, a label prior ``q_i ~ Dir(alpha 1_C)`` and a fixed client
  size (``alpha = inf``: the uniform prior).
* :func:`iid_partition` -- a uniformly random split into near-equal parts.
* :func:`pathological_partition` -- ``Path(k)``: each client holds ``k`` random classes, each class split evenly
  among the clients that hold it (the samples of a class no client drew are left out).
* :func:`class_counts` -- the ``(m, C)`` table of labels per client.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._validate import generator, integer_array, positive_int
from ..errors import InvalidParameterError

#: Redraws allowed before a Dirichlet split that keeps leaving a client empty is refused.
MAX_REDRAWS = 1000


def _labels(labels, n_classes: int | None) -> tuple[np.ndarray, int]:
    """``labels`` as a 1-d int array and the number of classes ``C`` (``max + 1`` unless given)."""
    y = integer_array("labels", labels, minimum=0)
    if y.ndim != 1 or y.size == 0:
        raise InvalidParameterError("labels", "a non-empty 1-d array of class labels", f"shape {y.shape}")
    C = int(y.max()) + 1 if n_classes is None else positive_int("n_classes", n_classes)
    if y.max() >= C:
        raise InvalidParameterError("labels", f"labels in 0..{C - 1} (n_classes = {C})", int(y.max()))
    return y, C


def _alpha(alpha) -> float:
    """``alpha > 0``, ``numpy.inf`` allowed (the even / uniform limit)."""
    if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or np.isnan(alpha) or alpha <= 0:
        raise InvalidParameterError("alpha", "a concentration > 0 (numpy.inf for the IID limit)", alpha)
    return float(alpha)


def _split(owner: np.ndarray, m: int) -> list[np.ndarray]:
    """Client ``i``'s sorted indices from the owner of each sample (``-1``: unused)."""
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(m + 1))
    return [np.sort(order[bounds[i] : bounds[i + 1]]) for i in range(m)]


def _shares(counts: np.ndarray, proportions: np.ndarray) -> np.ndarray:
    """Split ``counts[c]`` items by ``proportions[c]`` (rows sum to 1) with the largest-remainder rule: integer
    shares ``(C, m)`` whose row sums are ``counts``."""
    exact = counts[:, None] * proportions
    shares = np.floor(exact).astype(np.int64)
    short = counts - shares.sum(axis=1)
    rank = np.argsort(np.argsort(-(exact - shares), axis=1, kind="stable"), axis=1, kind="stable")
    return shares + (rank < short[:, None])


def _deal(rng: np.random.Generator, y: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """Owner of every sample: ``shares[c, i]`` random samples of class ``c`` go to client ``i`` (``-1``: unused)."""
    owner = np.full(y.size, -1, dtype=np.int64)
    for c in range(shares.shape[0]):  # C classes; each a permutation and one repeat
        members = rng.permutation(np.flatnonzero(y == c))
        take = shares[c]
        owner[members[: take.sum()]] = np.repeat(np.arange(take.size), take)
    return owner


def dirichlet_by_class(
    rng: np.random.Generator, labels, m: int, alpha: float, *, n_classes: int | None = None
) -> list[np.ndarray]:
    """Reading (a): per class ``c``, ``p_c ~ Dir(alpha 1_m)`` and the class's samples split in proportions ``p_c``.

    Every sample is used exactly once. The class-``c`` shares are ``n_c p_c`` rounded by largest remainders (so they
    sum to ``n_c``). A draw that leaves a client empty is redrawn (whole partition, at most :data:`MAX_REDRAWS`
    times). ``alpha = inf`` gives ``p_c = 1_m/m``: each class split evenly (a stratified IID split).

    Parameters
    ----------
    rng : numpy.random.Generator
    labels : integer array (N,)
    m : int
        Clients (at most ``N``).
    alpha : float
        Concentration ``> 0``, or ``numpy.inf``.
    n_classes : int, optional
        ``C`` (default ``max(labels) + 1``).

    Returns
    -------
    list of m sorted int arrays
    """
    rng = generator("rng", rng)
    y, C = _labels(labels, n_classes)
    m = positive_int("m", m)
    alpha = _alpha(alpha)
    if m > y.size:
        raise InvalidParameterError("m", f"at most N = {y.size} clients (each needs a sample)", m)
    counts = np.bincount(y, minlength=C)
    for _ in range(MAX_REDRAWS):
        p = np.full((C, m), 1.0 / m) if np.isinf(alpha) else rng.dirichlet(np.full(m, alpha), size=C)
        shares = _shares(counts, p)
        if np.all(shares.sum(axis=0) > 0):
            return _split(_deal(rng, y, shares), m)
    raise InvalidParameterError("alpha", f"a concentration leaving no client empty in {MAX_REDRAWS} draws", alpha)


def dirichlet_by_client(
    rng: np.random.Generator, labels, m: int, alpha: float, client_size: int, *, n_classes: int | None = None
) -> list[np.ndarray]:
    """Reading (b): per client, a label prior ``q_i ~ Dir(alpha 1_C)`` and ``client_size`` samples.

    Client ``i`` (in order) draws its class counts ``~ Multinomial(client_size, q_i)``; where a class has fewer
    unused samples than drawn, the shortfall is redrawn from ``q_i`` restricted to the classes with samples left, until
    the client is full. Every sample is used at most once (``m * client_size <= N`` of them). ``alpha = inf`` gives
    the uniform prior ``q_i = 1_C/C``.

    Parameters
    ----------
    rng : numpy.random.Generator
    labels : integer array (N,)
    m : int
    alpha : float
        Concentration ``> 0``, or ``numpy.inf``.
    client_size : int
        Samples per client; ``m * client_size <= N``.
    n_classes : int, optional

    Returns
    -------
    list of m sorted int arrays, each of ``client_size`` indices
    """
    rng = generator("rng", rng)
    y, C = _labels(labels, n_classes)
    m = positive_int("m", m)
    alpha = _alpha(alpha)
    size = positive_int("client_size", client_size)
    if m * size > y.size:
        raise InvalidParameterError("client_size", f"at most N/m = {y.size // m} samples per client", size)
    left = np.bincount(y, minlength=C)
    shares = np.zeros((C, m), dtype=np.int64)
    for i in range(m):  # m clients in turn: each depends on what the previous ones left
        q = np.full(C, 1.0 / C) if np.isinf(alpha) else rng.dirichlet(np.full(C, alpha))
        need = size
        while need:
            avail = left > 0
            w = np.where(avail, q, 0.0)
            w = w / w.sum() if w.sum() > 0 else avail / avail.sum()  # q_i puts no mass on what is left: uniform
            take = np.minimum(rng.multinomial(need, w), left)
            shares[:, i] += take
            left -= take
            need -= int(take.sum())
    return _split(_deal(rng, y, shares), m)


def iid_partition(rng: np.random.Generator, n_samples: int, m: int) -> list[np.ndarray]:
    """A uniformly random split of ``n_samples`` indices into ``m`` parts of sizes ``floor(N/m)`` or ``ceil(N/m)``.

    Raises
    ------
    InvalidParameterError
        If ``m > n_samples`` (a client would be empty).
    """
    rng = generator("rng", rng)
    n, m = positive_int("n_samples", n_samples), positive_int("m", m)
    if m > n:
        raise InvalidParameterError("m", f"at most n_samples = {n} clients", m)
    return [np.sort(part) for part in np.array_split(rng.permutation(n), m)]


def pathological_partition(
    rng: np.random.Generator, labels, m: int, k: int, *, n_classes: int | None = None
) -> list[np.ndarray]:
    """``Path(k)``: each client draws ``k`` distinct classes uniformly; each class is split evenly (sizes differing
    by at most one, random samples) among the clients that drew it.

    The samples of a class that no client drew are unused. A class with fewer samples than holders would leave a
    client without a sample of it; such a draw is refused.

    Parameters
    ----------
    rng : numpy.random.Generator
    labels : integer array (N,)
    m : int
    k : int
        Classes per client, ``1 <= k <= C``.
    n_classes : int, optional
    """
    rng = generator("rng", rng)
    y, C = _labels(labels, n_classes)
    m = positive_int("m", m)
    k = positive_int("k", k)
    if k > C:
        raise InvalidParameterError("k", f"at most C = {C} classes per client", k)
    chosen = np.argsort(rng.random((m, C)), axis=1)[:, :k]  # (m, k): k distinct classes per client
    holds = np.zeros((C, m), dtype=bool)
    holds[chosen.T, np.arange(m)] = True
    holders = holds.sum(axis=1)
    counts = np.bincount(y, minlength=C)
    if np.any(counts < holders):
        c = int(np.argmax(counts < holders))
        raise InvalidParameterError("k", f"a split where every class has a sample per holder (class {c})", k)
    even = np.where(holds, 1.0, 0.0) / np.maximum(holders, 1)[:, None]
    shares = _shares(np.where(holders > 0, counts, 0), even)
    return _split(_deal(rng, y, shares), m)


def class_counts(parts, labels, n_classes: int | None = None) -> np.ndarray:
    """The ``(m, C)`` table: ``counts[i, c]`` samples of class ``c`` held by client ``i``."""
    y, C = _labels(labels, n_classes)
    rows = [np.bincount(y[integer_array(f"parts[{i}]", p, minimum=0)], minlength=C) for i, p in enumerate(parts)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), C)
