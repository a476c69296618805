"""A small smooth network on federated image data: scikit-learn's bundled digits, split by a label-skewed rule.

* :class:`TanhNetwork` -- one hidden ``tanh`` layer and a softmax cross-entropy loss, its parameters one flat vector
  ``x`` (so a regularizer's prox acts on every weight), one finite sum per client with unequal client sizes
  (padded to the largest client with a mask), exact gradients per client and per sampled index, test accuracy.
* :class:`ClientMinibatch` -- the oracle drawing ``b`` indices per client uniformly, with replacement, from that
  client's own ``m_i`` samples.
* :func:`label_skew_partition` -- a fraction of the samples spread uniformly over the clients in equal parts, the
  rest given to the client named by the label (e.g. the MNIST split of composite federated learning experiments).
* :func:`federated_digits` -- the 1,797 8x8 digits (no download), a seeded held-out test split, the partition of the
  training part, and the network on it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import log_softmax

from .._validate import finite_array, generator, integer_array, positive, positive_int
from ..errors import InvalidParameterError
from .base import Oracle, Problem, class_labels, held_out_set, takes_clients


class TanhNetwork(Problem):
    """``f_i(x) = (1/m_i) sum_l CE(softmax(W2 tanh(W1 a_il + b1) + b2), y_il)``, ``f = (1/n) sum_i f_i``.

    The parameter vector is ``x = [vec W1 (h x p, row-major), b1 (h), vec W2 (C x h), b2 (C)]``, of dimension
    ``dim = h p + h + C h + C``. Each ``f_i`` is smooth (``tanh`` and the log-sum-exp are), non-convex, and weighs
    its own samples equally; clients weigh equally in ``f`` whatever their sizes.

    Parameters
    ----------
    client_features : sequence of arrays (m_i, p)
        Each client's inputs (sizes may differ).
    client_labels : sequence of integer arrays (m_i,)
        Each client's labels in ``0..n_classes-1``.
    hidden : int
        Width ``h`` of the hidden layer.
    n_classes : int
        Number of classes ``C``.
    test_features : array (m_test, p), optional
    test_labels : integer array (m_test,), optional
        A held-out set for :meth:`accuracy` with ``split="test"``.

    Attributes
    ----------
    features : array (n, m_max, p)
        Client inputs, zero-padded to the largest client.
    labels : int array (n, m_max)
        Client labels (0 in the padding).
    counts : int array (n,)
        ``m_i``.
    mask : array (n, m_max)
        1 on a client's samples, 0 in the padding.
    """

    def __init__(
        self,
        client_features: Sequence,
        client_labels: Sequence,
        *,
        hidden: int,
        n_classes: int,
        test_features=None,
        test_labels=None,
    ):
        if len(client_features) != len(client_labels) or len(client_features) == 0:
            raise InvalidParameterError(
                "client_labels", f"one label array per client ({len(client_features)} clients)", len(client_labels)
            )
        self.hidden = positive_int("hidden", hidden)
        self.n_classes = positive_int("n_classes", n_classes, minimum=2)
        feats = [finite_array(f"client_features[{i}]", a, ndim=2) for i, a in enumerate(client_features)]
        labs = [class_labels(f"client_labels[{i}]", y, self.n_classes) for i, y in enumerate(client_labels)]
        self.n_inputs = feats[0].shape[1]
        for i, (a, y) in enumerate(zip(feats, labs, strict=True)):
            if a.shape != (y.size, self.n_inputs) or y.size == 0:
                raise InvalidParameterError(
                    f"client_features[{i}]", f"a non-empty (m_i, {self.n_inputs}) array matching its labels", a.shape
                )
        self.n_clients = len(feats)
        self.counts = np.array([y.size for y in labs])
        m_max = int(self.counts.max())
        self.mask = (np.arange(m_max) < self.counts[:, None]).astype(float)
        self.features = np.zeros((self.n_clients, m_max, self.n_inputs))
        self.labels = np.zeros((self.n_clients, m_max), dtype=np.int64)
        for i, (a, y) in enumerate(zip(feats, labs, strict=True)):  # construction only; evaluation is vectorised
            self.features[i, : y.size], self.labels[i, : y.size] = a, y
        self._weights = self.mask / self.counts[:, None]
        self.dim = self.hidden * (self.n_inputs + 1) + self.n_classes * (self.hidden + 1)
        self.test_features, self.test_labels = held_out_set(test_features, test_labels, self.n_inputs, self.n_classes)

    # --- parameters -----------------------------------------------------------------------------
    def unpack(self, x) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Views ``W1 (..., h, p)``, ``b1 (..., h)``, ``W2 (..., C, h)``, ``b2 (..., C)`` of ``x (..., d)``."""
        h, p, C = self.hidden, self.n_inputs, self.n_classes
        cuts = np.cumsum([h * p, h, C * h])
        W1, b1, W2, b2 = np.split(x, cuts, axis=-1)
        return W1.reshape(*x.shape[:-1], h, p), b1, W2.reshape(*x.shape[:-1], C, h), b2

    def initial_point(self, rng: np.random.Generator, S: int | None = None) -> np.ndarray:
        """A random start (one ``(d,)``, or ``(S, d)``): ``W1 ~ N(0, 1/p)``, ``W2 ~ N(0, 1/h)``, zero biases.

        The origin is a stationary point of every ``f_i`` in the weights (no signal passes a zero layer), so runs
        start here instead.
        """
        rng = generator("rng", rng)
        shape = () if S is None else (positive_int("S", S),)
        x = np.zeros((*shape, self.dim))
        W1, _, W2, _ = self.unpack(x)
        W1[...] = rng.standard_normal(W1.shape) / np.sqrt(self.n_inputs)
        W2[...] = rng.standard_normal(W2.shape) / np.sqrt(self.hidden)
        return x

    # --- evaluation -----------------------------------------------------------------------------
    def _forward(self, x, inputs):
        """Hidden activations ``(..., m, h)`` and log-probabilities ``(..., m, C)`` of ``inputs (..., m, p)``."""
        W1, b1, W2, b2 = self.unpack(x)
        H = np.tanh(inputs @ np.swapaxes(W1, -1, -2) + b1[..., None, :])
        return H, log_softmax(H @ np.swapaxes(W2, -1, -2) + b2[..., None, :], axis=-1)

    def _loss_grad(self, x, inputs, labels, weights) -> tuple[np.ndarray, np.ndarray]:
        """``sum_l w_l CE_l`` and its gradient at client points ``x (..., n, d)`` over samples ``(..., n, m, .)``."""
        H, logp = self._forward(x, inputs)
        onehot = labels[..., None] == np.arange(self.n_classes)
        picked = np.take_along_axis(logp, np.broadcast_to(labels, logp.shape[:-1])[..., None], axis=-1)[..., 0]
        loss = -np.sum(weights * picked, axis=-1)
        delta2 = (np.exp(logp) - onehot) * weights[..., None]  # d loss / d logits
        _, _, W2, _ = self.unpack(x)
        delta1 = (delta2 @ W2) * (1.0 - H**2)  # d loss / d pre-activations
        grads = (
            np.swapaxes(delta1, -1, -2) @ inputs,
            delta1.sum(axis=-2),
            np.swapaxes(delta2, -1, -2) @ H,
            delta2.sum(axis=-2),
        )
        return loss, np.concatenate([g.reshape(*g.shape[: x.ndim - 1], -1) for g in grads], axis=-1)

    def client_values(self, x) -> np.ndarray:
        """``f_i(x_i)`` at client points ``x (..., n, d)``: shape ``(..., n)``."""
        x = self.check_client_points(x)
        return self._loss_grad(x, self.features, self.labels, self._weights)[0]

    def value(self, x) -> np.ndarray:
        """``f(x) = (1/n) sum_i f_i(x)`` at ``x (..., d)`` (the smooth part; add the regularizer separately)."""
        x = self.check_point(x)
        xs = np.broadcast_to(x[..., None, :], (*x.shape[:-1], self.n_clients, self.dim))
        return self.client_values(xs).mean(axis=-1)

    def client_grad(self, x) -> np.ndarray:
        """``grad f_i(x_i)`` at client points ``x (..., n, d)``: every client's full finite sum."""
        x = self.check_client_points(x)
        return self._loss_grad(x, self.features, self.labels, self._weights)[1]

    def sample_grad(self, x, idx, clients=None) -> np.ndarray:
        """Mean gradient of client ``i``'s samples ``idx[..., i, :]`` (each ``< m_i``) at client points ``x``; given
        client indices ``clients (..., P)``, row ``j`` is client ``clients[..., j]``'s, for points ``x (..., P, d)``
        and samples ``idx (..., P, b)``."""
        x, rows, idx = self.check_client_samples(x, idx, clients, self.counts, "m_i")
        weights = np.full(idx.shape, 1.0 / idx.shape[-1])
        return self._loss_grad(x, self.features[rows, idx], self.labels[rows, idx], weights)[1]

    def predict(self, x, inputs) -> np.ndarray:
        """Predicted classes of ``inputs (m, p)`` by the models ``x (..., d)``: shape ``(..., m)``."""
        x = self.check_point(x)
        return np.argmax(self._forward(x, finite_array("inputs", inputs, ndim=2))[1], axis=-1)

    def accuracy(self, x, split: str = "test") -> np.ndarray:
        """Fraction of correct predictions of the models ``x (..., d)`` on the ``"test"`` or ``"train"`` samples
        (every training sample once, whichever client holds it)."""
        if split == "test":
            if self.test_features is None:
                raise InvalidParameterError("split", '"train" (this network has no test set)', split)
            return np.mean(self.predict(x, self.test_features) == self.test_labels, axis=-1)
        if split == "train":
            keep = self.mask.astype(bool)
            return np.mean(self.predict(x, self.features[keep]) == self.labels[keep], axis=-1)
        raise InvalidParameterError("split", '"test" or "train"', split)


class ClientMinibatch(Oracle):
    """Mean gradient of ``b`` samples per client, drawn uniformly with replacement from that client's ``m_i``.

    Unbiased for ``grad f_i`` with variance ``sigma_i^2 / b`` (``sigma_i^2`` the per-sample variance of client
    ``i``), for clients of any sizes.
    """

    def __init__(self, problem: TanhNetwork, batch_size: int):
        if not isinstance(problem, TanhNetwork):
            raise InvalidParameterError("problem", "a TanhNetwork", type(problem).__name__)
        self.problem = problem
        self.batch_size = positive_int("batch_size", batch_size)

    def indices(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        """Sample indices ``(..., n, b)`` for client points of shape ``shape = (..., n, d)``: one numpy call."""
        rng = generator("rng", rng)
        return rng.integers(0, self.problem.counts[:, None], size=(*shape[:-1], self.batch_size))

    def __call__(self, x, rng) -> np.ndarray:
        x = self.problem.check_client_points(x)
        return self.problem.sample_grad(x, self.indices(x.shape, rng))

    @property
    def client_subsets(self) -> bool:
        """Whether :meth:`on_clients` evaluates the listed clients only (the problem's ``sample_grad`` takes
        ``clients=``)."""
        return takes_clients(self.problem.sample_grad)

    def on_clients(self, clients, n_clients: int | None = None):
        """The oracle ``(x, rng)`` at the points ``x (..., P, d)`` of the listed clients ``clients (..., P)``: the rows
        ``clients`` of a call at every client's points (the indices of every client are drawn, the listed clients'
        are used); ``n_clients``, if given, must be the problem's."""
        if not self.client_subsets:
            raise InvalidParameterError("oracle", "a problem whose sample_grad takes clients= (client_subsets)")
        N = self.problem.n_clients
        self.problem.check_clients(N if n_clients is None else n_clients)
        clients = integer_array("clients", clients, minimum=0)
        if clients.ndim < 1 or np.any(clients >= N):
            raise InvalidParameterError("clients", f"an array (..., P) of client indices below {N}", clients)
        rows = clients[..., None]

        def call(x, rng):
            idx = self.indices((*clients.shape[:-1], N, 1), rng)  # the shape of points at every client (d unused)
            return self.problem.sample_grad(x, np.take_along_axis(idx, rows, axis=-2), clients=clients)

        return call


def label_skew_partition(
    rng: np.random.Generator, labels, n_clients: int, *, uniform_fraction: float = 0.5
) -> list[np.ndarray]:
    """Indices of each client's samples: a uniform part in equal shares, the rest by label (label ``l`` to client
    ``l``).

    A random ``n_clients * floor(uniform_fraction * N / n_clients)`` of the ``N`` samples are dealt to the clients in
    equal shares; every remaining sample goes to the client its label names, so client sizes differ with the label
    counts. Draws one permutation of ``N``.

    Parameters
    ----------
    rng : numpy.random.Generator
    labels : integer array (N,)
        Labels in ``0..n_clients-1``.
    n_clients : int
    uniform_fraction : float, optional
        The share of samples spread uniformly, in ``[0, 1]``.

    Returns
    -------
    list of int arrays
        Client ``i``'s sample indices, sorted.
    """
    rng = generator("rng", rng)
    n = positive_int("n_clients", n_clients)
    y = integer_array("labels", labels, minimum=0)
    if y.ndim != 1 or (y.size and y.max() >= n):
        raise InvalidParameterError("labels", f"a 1-d array of labels in 0..{n - 1} (label l goes to client l)", y)
    frac = positive("uniform_fraction", uniform_fraction, allow_zero=True)
    if frac > 1:
        raise InvalidParameterError("uniform_fraction", "a number in [0, 1]", frac)
    share = int(frac * y.size) // n
    order = rng.permutation(y.size)
    owner = np.empty(y.size, dtype=np.int64)
    owner[order[: n * share]] = np.repeat(np.arange(n), share)
    rest = order[n * share :]
    owner[rest] = y[rest]
    return [np.flatnonzero(owner == i) for i in range(n)]


def federated_digits(
    rng: np.random.Generator,
    *,
    hidden: int = 16,
    n_clients: int = 10,
    test_fraction: float = 0.2,
    uniform_fraction: float = 0.5,
) -> TanhNetwork:
    """scikit-learn's bundled digits (1,797 8x8 images, pixels scaled to [0, 1]) on a :class:`TanhNetwork`.

    A seeded ``round(test_fraction * 1797)`` images are held out as the test set; the rest are split by
    :func:`label_skew_partition` (half uniformly in equal shares, half by label), both with ``rng``.
    """
    from sklearn.datasets import load_digits  # scikit-learn is imported only when the data are wanted

    rng = generator("rng", rng)
    positive("test_fraction", test_fraction)
    if test_fraction >= 1:
        raise InvalidParameterError("test_fraction", "a number in (0, 1)", test_fraction)
    data = load_digits()
    inputs, labels = data.data / 16.0, data.target.astype(np.int64)
    order = rng.permutation(labels.size)
    n_test = round(test_fraction * labels.size)
    test, train = order[:n_test], np.sort(order[n_test:])
    parts = label_skew_partition(rng, labels[train], n_clients, uniform_fraction=uniform_fraction)
    return TanhNetwork(
        [inputs[train[p]] for p in parts],
        [labels[train[p]] for p in parts],
        hidden=hidden,
        n_classes=10,
        test_features=inputs[test],
        test_labels=labels[test],
    )
