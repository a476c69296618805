"""Synthetic(alpha, beta) softmax data with log-normal ("power-law") client sizes and a per-client train/test split.

:func:`power_law_synthetic` draws the reference recipe of FedProx's ``generate_synthetic.py`` in full, the parts that
:func:`~fedtheory.problems.synthetic.fedprox_synthetic` fixes otherwise: client sizes
``n_i = int(lognormal(size_log_mean, size_log_sd)) + min_size``, an intercept ``b_i`` in the labelling model, and a
split of every client's samples into its first ``int(train_fraction n_i)`` (train) and the rest (test).
:class:`PowerLawSynthetic` holds the pooled samples with their client index and turns them into a
:class:`~fedtheory.problems.softmax.SoftmaxRegression` (clients = train parts, pooled test set = the union of the test
parts) and per-client test accuracies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import InvalidParameterError
from .softmax import SoftmaxRegression


@dataclass(frozen=True)
class PowerLawSynthetic:
    """Pooled samples of a :func:`power_law_synthetic` draw, in client order.

    Attributes
    ----------
    features : array (n, d)
    labels : int array (n,)
    client : int array (n,)
        The client of each sample (non-decreasing).
    train : bool array (n,)
        Whether the sample is in its client's training part.
    sizes : int array (N,)
        ``n_i``, training plus test samples.
    models, intercepts : arrays (N, d, C), (N, C)
        The labelling models: ``label = argmax_c (a'W_i + b_i)_c``.
    means : array (N, d)
        The client feature means ``v_i``.
    """

    features: np.ndarray
    labels: np.ndarray
    client: np.ndarray
    train: np.ndarray
    sizes: np.ndarray
    models: np.ndarray
    intercepts: np.ndarray
    means: np.ndarray

    @property
    def n_clients(self) -> int:
        return self.sizes.size

    @property
    def n_classes(self) -> int:
        return self.intercepts.shape[1]

    @property
    def train_sizes(self) -> np.ndarray:
        """Training samples per client ``(N,)``."""
        return np.bincount(self.client[self.train], minlength=self.n_clients)

    def inputs(self, intercept: bool = True) -> np.ndarray:
        """The features, with a trailing constant 1 when ``intercept`` (a linear model with a bias, ``(n, d + 1)``)."""
        return np.hstack([self.features, np.ones((self.features.shape[0], 1))]) if intercept else self.features

    def softmax(self, *, l2: float = 0.0, intercept: bool = True) -> SoftmaxRegression:
        """Client ``i`` holds its training part; the test set is the union of the clients' test parts."""
        a, test = self.inputs(intercept), ~self.train
        cuts = np.cumsum(self.train_sizes)[:-1]
        return SoftmaxRegression(
            np.split(a[self.train], cuts),
            np.split(self.labels[self.train], cuts),
            n_classes=self.n_classes,
            l2=l2,
            test_features=a[test],
            test_labels=self.labels[test],
        )

    def client_test_accuracy(self, x, *, intercept: bool = True) -> np.ndarray:
        """Accuracy of the models ``x (..., C p)`` (rows of ``W`` stacked, as in ``SoftmaxRegression``) on each
        client's test part: ``(..., N)``."""
        a, test = self.inputs(intercept)[~self.train], ~self.train
        x = np.asarray(x, dtype=float)
        W = x.reshape(*x.shape[:-1], self.n_classes, a.shape[1])
        correct = np.argmax(a @ np.swapaxes(W, -1, -2), axis=-1) == self.labels[test]
        onehot = self.client[test][:, None] == np.arange(self.n_clients)
        counts = onehot.sum(axis=0)
        if np.any(counts == 0):
            raise InvalidParameterError("train_fraction", "a split leaving every client a test sample", counts.min())
        return (correct.astype(float) @ onehot) / counts


def power_law_synthetic(
    rng: np.random.Generator,
    *,
    n_clients: int,
    alpha: float,
    beta: float,
    dim: int = 60,
    n_classes: int = 10,
    size_log_mean: float = 4.0,
    size_log_sd: float = 2.0,
    min_size: int = 50,
    train_fraction: float = 0.8,
) -> PowerLawSynthetic:
    """Synthetic(alpha, beta) with log-normal client sizes (FedProx's ``generate_synthetic.py``, non-iid branch).

    Client ``i`` holds ``n_i = floor(exp(Z_i)) + min_size`` samples, ``Z_i ~ N(size_log_mean, size_log_sd^2)``; it
    draws ``u_i ~ N(0, alpha^2)``, ``B_i ~ N(0, beta^2)``, ``v_i ~ N(B_i, 1)^d``, ``W_i ~ N(u_i, 1)^(d x C)``,
    ``b_i ~ N(u_i, 1)^C`` and features ``a ~ N(v_i, diag(j^-1.2))``, ``j = 1..d``, labelled ``argmax_c (a'W_i +
    b_i)_c`` (the argmax of the softmax). ``alpha`` and ``beta`` are standard deviations, as in the reference code.
    Its first ``int(train_fraction n_i)`` samples are the training part, the rest the test part (the samples of a
    client are exchangeable, so this is the reference's shuffle-then-split in law). Draw order: sizes, ``u``, ``B``,
    ``v``, ``W``, ``b``, then the feature noise, each one numpy call.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_clients : int
    alpha, beta : float
        Standard deviations of ``u_i`` and ``B_i`` (>= 0).
    dim, n_classes : int
        ``d`` and ``C >= 2``.
    size_log_mean, size_log_sd : float
        Parameters of the log-normal size law (``size_log_sd >= 0``).
    min_size : int
        The size offset (>= 2, so that every client has a training and a test sample at ``train_fraction`` in
        ``[1/2, 1)``).
    train_fraction : float
        In ``(0, 1)``.
    """
    rng = generator("rng", rng)
    N, d = positive_int("n_clients", n_clients), positive_int("dim", dim)
    C = positive_int("n_classes", n_classes, minimum=2)
    alpha, beta = positive("alpha", alpha, allow_zero=True), positive("beta", beta, allow_zero=True)
    sd = positive("size_log_sd", size_log_sd, allow_zero=True)
    m0 = positive_int("min_size", min_size, minimum=2)
    if not (0 < train_fraction < 1) or int(train_fraction * m0) < 1 or int(train_fraction * m0) >= m0:
        raise InvalidParameterError(
            "train_fraction", f"a fraction in (0, 1) leaving >= 1 train and test sample of {m0}", train_fraction
        )
    sizes = rng.lognormal(float(size_log_mean), sd, N).astype(np.int64) + m0
    u = rng.normal(0.0, alpha, N)
    B = rng.normal(0.0, beta, N)
    v = rng.normal(B[:, None], 1.0, (N, d))
    W = rng.normal(u[:, None, None], 1.0, (N, d, C))
    b = rng.normal(u[:, None], 1.0, (N, C))
    client = np.repeat(np.arange(N), sizes)
    features = v[client] + rng.standard_normal((client.size, d)) * np.arange(1, d + 1) ** -0.6
    labels = np.argmax(np.einsum("nd,ndc->nc", features, W[client]) + b[client], axis=-1)
    rank = np.arange(client.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    train = rank < (train_fraction * sizes).astype(np.int64)[client]
    return PowerLawSynthetic(features, labels, client, train, sizes, W, b, v)
