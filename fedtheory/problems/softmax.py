"""l2-regularised multinomial logistic (softmax) regression over clients of unequal sizes.

* :class:`SoftmaxRegression` -- ``f_i(x) = (1/n_i) sum_l CE(W a_il, y_il) + (l2/2)||x||^2`` with ``x = vec W`` (``C x
  p``, row-major), ``f = (1/m) sum_i f_i``: clients weigh equally whatever their sizes. The data are padded to
  ``(m, n_max, p)`` with a weight mask, so client gradients at ``(S, m, d)`` points are two batched matmuls. Constants:
  ``L`` (a bound), ``mu = l2``; ``x_star``/``f_star`` from a certified reference (:func:`softmax_optimum`).
* :class:`SoftmaxMinibatch` -- the unequal-size minibatch oracle of
  :class:`~fedtheory.problems.digits.ClientMinibatch` on this problem.
* :func:`federated_softmax` -- the problem from one data set and a partition (:mod:`.partitions`).
* :func:`softmax_data`, :func:`binary_data` -- seeded synthetic data: Gaussian class means ``mu_c ~ N(0, (4/d) I)``
  with ``a = mu_y + N(0, I)``; binary ``a = 0.5 y w + N(0, I)``, ``y = +-1``, ``w`` a random unit vector.

Binary logistic regression is ``C = 2`` here (one weight row per class; with ``l2 > 0`` still strongly convex), or
:class:`~fedtheory.problems.LogisticRegression` when the clients have equal sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import LinearOperator, cg

from .._validate import finite_array, generator, integer_array, positive, positive_int
from ..errors import InvalidParameterError, ReferenceSolveError
from .base import Problem, class_labels, held_out_set
from .digits import ClientMinibatch


def _log_softmax(z: np.ndarray) -> np.ndarray:
    """``log softmax`` over the last axis (shifted by the maximum: no overflow)."""
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))


class SoftmaxOptimum(NamedTuple):
    """The certified minimiser: ``x``, ``value = f(x)`` and the ``certificate`` (gradient norm, the bounds it gives
    on ``f(x) - f*`` and ``||x - x*||`` by strong convexity, the solver steps)."""

    x: np.ndarray
    value: float
    certificate: dict


class SoftmaxRegression(Problem):
    """Federated l2-regularised softmax regression with unequal client sizes.

    Parameters
    ----------
    client_features : sequence of arrays (n_i, p)
    client_labels : sequence of integer arrays (n_i,)
        Labels in ``0..n_classes-1``; every client needs ``n_i >= 1`` samples.
    n_classes : int
        ``C >= 2``.
    l2 : float
        Weight of ``(l2/2)||x||^2``: the strong-convexity constant ``mu``; 0 is allowed for evaluation, but
        ``x_star`` needs ``l2 > 0``.
    test_features, test_labels : arrays (n_test, p), (n_test,), optional
        A held-out set for :meth:`accuracy` and :meth:`loss` with ``split="test"``.

    Attributes
    ----------
    features : array (m, n_max, p)
        Zero-padded client inputs.
    labels : int array (m, n_max)
    counts : int array (m,)
    weights : array (m, n_max)
        ``1/n_i`` on client ``i``'s samples, 0 in the padding.
    dim : int
        ``d = C p``.
    """

    def __init__(
        self,
        client_features: Sequence,
        client_labels: Sequence,
        *,
        n_classes: int,
        l2: float,
        test_features=None,
        test_labels=None,
    ):
        if len(client_features) != len(client_labels) or len(client_features) == 0:
            raise InvalidParameterError(
                "client_labels", f"one label array per client ({len(client_features)} clients)", len(client_labels)
            )
        self.n_classes = positive_int("n_classes", n_classes, minimum=2)
        self.l2 = positive("l2", l2, allow_zero=True)
        feats = [finite_array(f"client_features[{i}]", a, ndim=2) for i, a in enumerate(client_features)]
        labs = [class_labels(f"client_labels[{i}]", y, self.n_classes) for i, y in enumerate(client_labels)]
        self.n_inputs = feats[0].shape[1]
        for i, (a, y) in enumerate(zip(feats, labs, strict=True)):
            if a.shape != (y.size, self.n_inputs) or y.size == 0:
                raise InvalidParameterError(
                    f"client_features[{i}]", f"a non-empty (n_i, {self.n_inputs}) array matching its labels", a.shape
                )
        self.n_clients = len(feats)
        self.counts = np.array([y.size for y in labs])
        n_max = int(self.counts.max())
        mask = np.arange(n_max) < self.counts[:, None]
        self.features = np.zeros((self.n_clients, n_max, self.n_inputs))
        self.labels = np.zeros((self.n_clients, n_max), dtype=np.int64)
        self.features[mask], self.labels[mask] = np.concatenate(feats), np.concatenate(labs)
        self.weights = mask / self.counts[:, None]
        self._onehot = (self.labels[..., None] == np.arange(self.n_classes)) * mask[..., None]
        self.dim = self.n_classes * self.n_inputs
        self.test_features, self.test_labels = held_out_set(test_features, test_labels, self.n_inputs, self.n_classes)

    def weight_matrix(self, x) -> np.ndarray:
        """The ``(..., C, p)`` view of parameters ``x (..., d)``."""
        return np.reshape(x, (*np.shape(x)[:-1], self.n_classes, self.n_inputs))

    # --- constants ------------------------------------------------------------------------------
    @cached_property
    def L(self) -> float:
        """``max_i lambda_max(sum_l a_il a_il' / n_i) / 2 + l2``: a smoothness constant of every ``f_i`` (the
        cross-entropy's Hessian in the logits, ``diag(p) - pp'``, is at most ``I/2``)."""
        gram = np.einsum("mn,mnp,mnq->mpq", self.weights, self.features, self.features)
        return float(np.max(np.linalg.eigvalsh(gram)[:, -1]) / 2 + self.l2)

    @property
    def mu(self) -> float:
        """``l2``: a strong-convexity constant of every ``f_i`` and of ``f``."""
        return self.l2

    @cached_property
    def optimum(self) -> SoftmaxOptimum:
        """The certified minimiser (:func:`softmax_optimum` at its default tolerance)."""
        return softmax_optimum(self)

    @property
    def x_star(self) -> np.ndarray:
        return self.optimum.x

    @property
    def f_star(self) -> float:
        return self.optimum.value

    # --- evaluation -----------------------------------------------------------------------------
    def _logits(self, x, inputs) -> np.ndarray:
        """``W a`` for client points ``x (..., m, d)`` and samples ``inputs (..., m, n, p)``: ``(..., m, n, C)``,
        one batched matmul."""
        return inputs @ np.swapaxes(self.weight_matrix(x), -1, -2)

    def _grad(self, x, inputs, onehot, weights) -> np.ndarray:
        """Gradient of ``sum_l w_l CE_l + (l2/2)||x||^2`` at client points ``x (..., m, d)`` over samples ``inputs
        (..., m, n, p)`` with one-hot labels ``(..., m, n, C)`` and weights ``(..., m, n)``."""
        z = self._logits(x, inputs)
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        delta = (e / e.sum(axis=-1, keepdims=True) - onehot) * weights[..., None]  # d loss / d logits
        return (np.swapaxes(delta, -1, -2) @ inputs).reshape(x.shape) + self.l2 * x

    def client_values(self, x, clients=None) -> np.ndarray:
        """``f_i(x_i)`` at client points ``x (..., m, d)``: shape ``(..., m)``; or, given client indices ``clients
        (..., P)``, ``f_{clients[j]}(x_j)`` at points ``x (..., P, d)``: shape ``(..., P)``.

        The indexed form touches only the listed clients' own samples (no padding): the samples of every listed
        client are laid out end to end and their logits are one sparse-times-dense product, so its cost is the
        listed clients' sample count, not ``P n_max``. It agrees with the full form to rounding (the sums run in
        another order), not bit for bit.
        """
        if clients is None:
            x = self.check_client_points(x)
            logp = _log_softmax(self._logits(x, self.features))
            data = -np.sum(self.weights * np.sum(self._onehot * logp, axis=-1), axis=-1)
            return data + 0.5 * self.l2 * np.sum(x**2, axis=-1)
        x = self.check_point(x)
        clients = integer_array("clients", clients, minimum=0)
        if x.ndim < 2 or clients.shape != x.shape[:-1] or np.any(clients >= self.n_clients):
            raise InvalidParameterError(
                "clients",
                f"client indices below {self.n_clients}, one per point of shape {x.shape[:-1]}",
                f"shape {clients.shape}",
            )
        owner = clients.ravel()
        sizes = self.counts[owner]
        point = np.repeat(np.arange(owner.size), sizes)  # the point (and client) of each laid-out sample
        sample = np.arange(point.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        inputs, labels = self.features[owner[point], sample], self.labels[owner[point], sample]
        p = self.n_inputs
        spread = csr_matrix(  # row r holds sample r's inputs in the columns of its point's weights
            (inputs.ravel(), (point[:, None] * p + np.arange(p)).ravel(), np.arange(0, inputs.size + 1, p)),
            shape=(point.size, owner.size * p),
        )
        W = np.swapaxes(self.weight_matrix(x.reshape(-1, self.dim)), -1, -2).reshape(-1, self.n_classes)
        logp = _log_softmax(np.asarray(spread @ W))
        picked = np.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
        data = -np.bincount(point, weights=picked / sizes[point], minlength=owner.size)
        return data.reshape(clients.shape) + 0.5 * self.l2 * np.sum(x**2, axis=-1)

    def value(self, x) -> np.ndarray:
        """``f(x) = (1/m) sum_i f_i(x)`` at ``x (..., d)`` (one pass over the pooled samples, each weighing
        ``1/(m n_i)``)."""
        x = self.check_point(x)
        keep = self.weights > 0
        logp = _log_softmax(self.features[keep] @ np.swapaxes(self.weight_matrix(x), -1, -2))
        picked = np.take_along_axis(logp, np.broadcast_to(self.labels[keep][:, None], (*logp.shape[:-1], 1)), -1)
        data = -(picked[..., 0] @ self.weights[keep]) / self.n_clients
        return data + 0.5 * self.l2 * np.sum(x**2, axis=-1)

    def client_grad(self, x, clients=None) -> np.ndarray:
        """``grad f_i(x_i)`` at client points ``x (..., m, d)``: every client's full finite sum; given client indices
        ``clients (..., P)``, client ``clients[..., j]``'s at ``x[..., j, :]`` for points ``x (..., P, d)`` (only the
        listed clients' data)."""
        if clients is None:
            x = self.check_client_points(x)
            return self._grad(x, self.features, self._onehot, self.weights)
        x, clients = self.check_client_subset(x, clients)
        return self._grad(x, self.features[clients], self._onehot[clients], self.weights[clients])

    def sample_grad(self, x, idx, clients=None) -> np.ndarray:
        """Gradient of client ``i``'s mean loss over its samples ``idx[..., i, :]`` (each ``< n_i``) plus the l2
        term, at client points ``x (..., m, d)``; given client indices ``clients (..., P)``, row ``j`` is client
        ``clients[..., j]``'s, for points ``x (..., P, d)`` and samples ``idx (..., P, b)``."""
        x, rows, idx = self.check_client_samples(x, idx, clients, self.counts, "n_i")
        onehot = self.labels[rows, idx][..., None] == np.arange(self.n_classes)
        return self._grad(x, self.features[rows, idx], onehot, np.full(idx.shape, 1.0 / idx.shape[-1]))

    def _pooled(self, x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pooled samples ``a (N, p)``, their weights ``1/(m n_i)`` in ``f`` and probabilities ``(N, C)`` at one
        point ``x (d,)``."""
        x = self.check_point(x)
        if x.ndim != 1:
            raise InvalidParameterError("x", "one point of shape (d,)", f"shape {x.shape}")
        keep = self.weights > 0
        a = self.features[keep]
        return a, self.weights[keep] / self.n_clients, np.exp(_log_softmax(a @ self.weight_matrix(x).T))

    def hessian_vector(self, x, v) -> np.ndarray:
        """``hess f(x) v`` at one point ``x (d,)`` for directions ``v (..., d)``: the cost of a gradient."""
        a, w, prob = self._pooled(x)
        v = self.check_point(v, "v")
        U = a @ np.swapaxes(self.weight_matrix(v), -1, -2)  # (..., N, C): the logits' derivative along v
        R = w[:, None] * prob * (U - np.sum(prob * U, axis=-1, keepdims=True))
        return (np.swapaxes(R, -1, -2) @ a).reshape(v.shape) + self.l2 * v

    def hessian(self, x) -> np.ndarray:
        """Hessian ``(d, d)`` of ``f`` at one point ``x (d,)``: ``sum_l w_l (diag(p_l) - p_l p_l') kron a_l a_l'
        + l2 I`` (``w_l = 1/(m n_i)``); dense, for small ``d``."""
        return self.hessian_vector(x, np.eye(self.dim))

    # --- held-out metrics ----------------------------------------------------------------------------
    def _split(self, split: str) -> tuple[np.ndarray, np.ndarray]:
        if split == "test":
            if self.test_features is None:
                raise InvalidParameterError("split", '"train" (this problem has no test set)', split)
            return self.test_features, self.test_labels
        if split == "train":
            keep = self.weights > 0
            return self.features[keep], self.labels[keep]
        raise InvalidParameterError("split", '"test" or "train"', split)

    def predict(self, x, inputs) -> np.ndarray:
        """Predicted classes of ``inputs (n, p)`` by the models ``x (..., d)``: shape ``(..., n)``."""
        x = self.check_point(x)
        inputs = finite_array("inputs", inputs, ndim=2)
        return np.argmax(np.einsum("np,...cp->...nc", inputs, self.weight_matrix(x)), axis=-1)

    def accuracy(self, x, split: str = "test") -> np.ndarray:
        """Fraction of correct predictions of the models ``x (..., d)`` on the ``"test"`` or ``"train"`` samples
        (every training sample once)."""
        inputs, labels = self._split(split)
        return np.mean(self.predict(x, inputs) == labels, axis=-1)

    def loss(self, x, split: str = "test") -> np.ndarray:
        """Mean cross-entropy (no l2 term) of the models ``x (..., d)`` over the samples of ``split``, each weighing
        ``1/N`` (on ``"train"`` this differs from ``f`` when client sizes differ)."""
        inputs, labels = self._split(split)
        logits = np.einsum("np,...cp->...nc", inputs, self.weight_matrix(self.check_point(x)))
        index = np.broadcast_to(labels[:, None], (*logits.shape[:-1], 1))
        picked = np.take_along_axis(_log_softmax(logits), index, axis=-1)[..., 0]
        return -np.mean(picked, axis=-1)


def softmax_optimum(problem: SoftmaxRegression, *, grad_tol: float = 1e-10, newton_steps: int = 50) -> SoftmaxOptimum:
    """Certified minimiser of ``f``: scipy's L-BFGS (``gtol = 1e-12``) from 0, polished by damped Newton steps (the
    Newton system solved by conjugate gradients on Hessian-vector products, to relative residual ``min(0.1,
    ||grad f||)``) until ``||grad f|| <= grad_tol``.

    With ``l2 > 0``, ``f`` is ``l2``-strongly convex, so the gradient norm ``g`` certifies ``f(x) - f* <= g^2/(2 l2)``
    and ``||x - x*|| <= g/l2`` (recorded as ``value_error_bound`` and ``distance_bound``).

    Raises
    ------
    InvalidParameterError
        If ``l2 = 0`` (no strong convexity: a small gradient certifies nothing, e.g. on separable data).
    ReferenceSolveError
        If the gradient norm stays above ``grad_tol`` after ``newton_steps`` Newton steps.
    """
    if not isinstance(problem, SoftmaxRegression):
        raise InvalidParameterError("problem", "a SoftmaxRegression", type(problem).__name__)
    if problem.l2 <= 0:  # without strong convexity a small gradient certifies nothing (separable data: no minimiser)
        raise InvalidParameterError("problem", "a SoftmaxRegression with l2 > 0 (its gradient norm certifies)", 0.0)
    positive("grad_tol", grad_tol)

    def fun(x):
        return float(problem.value(x)), problem.grad(x)

    res = minimize(fun, np.zeros(problem.dim), jac=True, method="L-BFGS-B", options={"gtol": 1e-12, "maxiter": 5000})
    x, steps, cg_iterations = res.x, 0, 0
    g = problem.grad(x)
    while np.linalg.norm(g) > grad_tol and steps < newton_steps:

        def count(_):
            nonlocal cg_iterations
            cg_iterations += 1

        hess = LinearOperator((problem.dim, problem.dim), matvec=lambda v, x=x: problem.hessian_vector(x, v))
        direction, _ = cg(hess, g, rtol=min(0.1, float(np.linalg.norm(g))), callback=count)
        t, f0, slope = 1.0, float(problem.value(x)), float(g @ direction)
        rounding = slope <= 1e-12 * max(1.0, abs(f0))  # f cannot resolve the decrease: the full step (Newton's region)
        while not rounding and t > 1e-10 and float(problem.value(x - t * direction)) > f0 - 0.25 * t * slope:
            t /= 2
        x, steps = x - t * direction, steps + 1
        g = problem.grad(x)
    gnorm = float(np.linalg.norm(problem.grad(x)))
    if gnorm > grad_tol:
        raise ReferenceSolveError(f"softmax optimum not certified: gradient norm {gnorm:.2e} > {grad_tol:.1e}")
    cert = {"gradient_norm": gnorm, "lbfgs_iterations": int(res.nit), "newton_steps": steps}
    cert |= {"cg_iterations": cg_iterations, "route": "L-BFGS, then Newton-CG"}
    cert |= {"value_error_bound": gnorm**2 / (2 * problem.l2), "distance_bound": gnorm / problem.l2}
    return SoftmaxOptimum(x, float(problem.value(x)), cert)


class SoftmaxMinibatch(ClientMinibatch):
    """Mean gradient of ``b`` samples per client, drawn uniformly with replacement from that client's ``n_i``
    (:class:`~fedtheory.problems.digits.ClientMinibatch`'s draw), on a :class:`SoftmaxRegression`."""

    def __init__(self, problem: SoftmaxRegression, batch_size: int):
        if not isinstance(problem, SoftmaxRegression):
            raise InvalidParameterError("problem", "a SoftmaxRegression", type(problem).__name__)
        self.problem = problem
        self.batch_size = positive_int("batch_size", batch_size)


def federated_softmax(
    features, labels, parts: Sequence, *, n_classes: int, l2: float, test_features=None, test_labels=None
) -> SoftmaxRegression:
    """The :class:`SoftmaxRegression` whose client ``i`` holds the samples ``parts[i]`` of ``(features, labels)``."""
    X = finite_array("features", features, ndim=2)
    y = integer_array("labels", labels, minimum=0)
    if y.shape != X.shape[:1]:
        raise InvalidParameterError("labels", f"one label per row of features ({X.shape[0]})", f"shape {y.shape}")
    idx = [integer_array(f"parts[{i}]", p, minimum=0) for i, p in enumerate(parts)]
    if any(p.size and p.max() >= y.size for p in idx):
        raise InvalidParameterError("parts", f"index arrays into the {y.size} samples", "an index out of range")
    return SoftmaxRegression(
        [X[p] for p in idx],
        [y[p] for p in idx],
        n_classes=n_classes,
        l2=l2,
        test_features=test_features,
        test_labels=test_labels,
    )


def softmax_data(rng: np.random.Generator, n: int, dim: int, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` samples of ``C`` Gaussian classes: labels uniform, class means ``mu_c ~ N(0, (4/d) I)`` (drawn first),
    inputs ``a = mu_y + N(0, I)``. Returns ``(features (n, d), labels (n,))``.

    Two calls with generators of one seed give the same means, so a test set is the tail of one larger draw.
    """
    rng = generator("rng", rng)
    n, d, C = positive_int("n", n), positive_int("dim", dim), positive_int("n_classes", n_classes, minimum=2)
    means = rng.normal(0.0, 2.0 / np.sqrt(d), size=(C, d))
    y = rng.integers(0, C, size=n)
    return means[y] + rng.standard_normal((n, d)), y


def binary_data(rng: np.random.Generator, n: int, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` samples ``a = 0.5 y w + N(0, I)`` with ``y = +-1`` uniform and ``w`` a random unit vector (drawn first).
    Returns ``(features (n, d), labels (n,) in {-1, +1})``; ``(labels + 1) // 2`` are the classes of ``C = 2``."""
    rng = generator("rng", rng)
    n, d = positive_int("n", n), positive_int("dim", dim)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    y = rng.choice(np.array([-1, 1]), size=n)
    return 0.5 * y[:, None] * w + rng.standard_normal((n, d)), y
