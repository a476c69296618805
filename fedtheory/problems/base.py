"""The protocol every objective family implements.

A problem is ``F(x) = (1/M) sum_m F_m(x)`` (thesis eq. (2.1)). Arrays put the coordinate axis last:
``value``/``grad`` take ``x`` of shape ``(..., d)``; ``client_grad`` takes ``(..., M, d)`` and evaluates
client ``m``'s gradient at row ``m``. A problem with ``n_clients is None`` has identical clients
(the homogeneous setting, Assumption 2.2) and accepts any ``M``. A problem whose ``client_grad`` (or
``sample_grad``) takes ``clients=`` (:func:`takes_clients`) also evaluates a listed subset of its clients: points
``(..., P, d)`` with client indices ``(..., P)``, at the cost of those ``P`` clients only.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from .._validate import finite_array, integer_array
from ..errors import InvalidParameterError


class Problem:
    """Base class: shape checks and the constants every family exposes.

    Attributes
    ----------
    dim : int
        Dimension ``d`` of ``x``.
    n_clients : int or None
        Number of distinct clients, or ``None`` when every client holds the same objective.
    """

    dim: int
    n_clients: int | None = None

    # --- constants (Assumption 2.1) -------------------------------------------------------------
    @property
    def L(self) -> float:  # pragma: no cover - abstract
        """Smoothness constant valid for every client objective ``F_m``."""
        raise NotImplementedError

    @property
    def mu(self) -> float:  # pragma: no cover - abstract
        """Strong-convexity constant of ``F`` (0 when only convex)."""
        raise NotImplementedError

    @property
    def x_star(self) -> np.ndarray:  # pragma: no cover - abstract
        """A minimiser of ``F``."""
        raise NotImplementedError

    @property
    def f_star(self) -> float:
        """``F(x_star)``."""
        return float(self.value(self.x_star))

    # --- evaluation -----------------------------------------------------------------------------
    def value(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def grad(self, x) -> np.ndarray:
        """Gradient of ``F`` at ``x`` of shape ``(..., d)``: the mean of the client gradients."""
        x = self.check_point(x)
        M = self.n_clients or 1
        xs = np.broadcast_to(x[..., None, :], (*x.shape[:-1], M, self.dim))
        return self.client_grad(xs).mean(axis=-2)

    def client_grad(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- checks ---------------------------------------------------------------------------------
    def check_point(self, x, name: str = "x") -> np.ndarray:
        """Return ``x`` as a float array whose last axis has length ``dim``."""
        arr = np.asarray(x, dtype=float)
        if arr.ndim == 0 or arr.shape[-1] != self.dim:
            raise InvalidParameterError(
                name, f"an array whose last axis has length d = {self.dim}", f"shape {arr.shape}"
            )
        return arr

    def check_clients(self, M: int) -> None:
        """Raise unless ``M`` clients are compatible with this problem."""
        if self.n_clients is not None and M != self.n_clients:
            raise InvalidParameterError("M", f"M = {self.n_clients} (the problem has {self.n_clients} clients)", M)

    def check_client_points(self, x) -> np.ndarray:
        """Check an array of client points ``(..., M, d)`` against the problem."""
        arr = self.check_point(x)
        if arr.ndim < 2:
            raise InvalidParameterError("x", "client points of shape (..., M, d)", f"shape {arr.shape}")
        self.check_clients(arr.shape[-2])
        return arr

    def check_client_subset(self, x, clients) -> tuple[np.ndarray, np.ndarray]:
        """Check points ``x (..., P, d)`` of the listed clients ``clients (..., P)`` (one index per point, each below
        ``n_clients``; any index ``>= 0`` with identical clients); returns both as arrays."""
        arr = self.check_point(x)
        clients = np.asarray(clients)
        if clients.dtype != np.int64:  # int64 arrays (what sampling gives) skip the conversion: checked once per step
            clients = integer_array("clients", clients)
        top = np.iinfo(np.int64).max if self.n_clients is None else self.n_clients
        if arr.ndim < 2 or clients.shape != arr.shape[:-1] or np.any((clients < 0) | (clients >= top)):
            raise InvalidParameterError(
                "clients",
                f"client indices in [0, {self.n_clients}), one per point of shape {arr.shape[:-1]}",
                f"shape {clients.shape}",
            )
        return arr, clients

    def check_client_samples(self, x, idx, clients, counts: np.ndarray, size: str):
        """Points, data rows and sample indices of a minibatch over clients of unequal sizes ``counts (n_clients,)``:
        every client's points ``x (..., n_clients, d)``, or with ``clients (..., P)`` the listed clients' ``x (..., P,
        d)``, and samples ``idx (..., ., b)`` each below its client's size (named ``size`` in the error). Returns
        ``(x, rows, idx)`` with ``rows`` indexing the clients' data as ``data[rows, idx]``."""
        if clients is None:
            x = self.check_client_points(x)
            rows = np.arange(self.n_clients)[:, None]
        else:
            x, clients = self.check_client_subset(x, clients)
            rows = clients[..., None]
        idx = integer_array("idx", idx, minimum=0)
        if idx.shape[:-1] != x.shape[:-1] or np.any(idx >= counts[rows]):
            raise InvalidParameterError(
                "idx", f"indices of shape {(*x.shape[:-1], 'b')} below each client's size {size}", idx.shape
            )
        return x, rows, idx


class Oracle:
    """Base class of stochastic gradient oracles (:mod:`fedtheory.oracles`); ``oracle(x, rng)`` returns stochastic
    gradients at client points ``x``. Defined here, beside :class:`Problem`, because problems with their own sampling
    (``fedtheory.problems.digits``) define oracles too: importing ``fedtheory.oracles`` first is then no cycle."""

    problem: Problem

    def __call__(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


def takes_clients(method) -> bool:
    """Whether a problem's evaluation ``method`` (``client_grad``, ``sample_grad``, ``client_values``) takes
    ``clients=``: then it evaluates a listed subset of the clients only."""
    return callable(method) and _takes_clients(getattr(method, "__func__", method))


@functools.cache
def _takes_clients(function) -> bool:
    """:func:`takes_clients` of one function, read from its signature once."""
    return "clients" in inspect.signature(function).parameters


def finite_sum_data(features, responses, response_name: str) -> tuple[np.ndarray, np.ndarray]:
    """Validate one data set ``(n, d)`` / ``(n,)`` or one per client ``(M, n, d)`` / ``(M, n)``."""
    X = finite_array("features", features, ndim=(2, 3))
    y = finite_array(response_name, responses, ndim=(1, 2))
    if X.ndim - 1 != y.ndim or X.shape[:-1] != y.shape:
        raise InvalidParameterError(response_name, f"shape {X.shape[:-1]} to match features", f"shape {y.shape}")
    return X, y


def sample_rows(data: np.ndarray, n_clients: int | None, idx: np.ndarray, clients=None) -> np.ndarray:
    """Rows ``idx`` (shape (..., M, b)) of each client's data ``(M_data, n, ...)``: shape (..., M, b, ...); given
    client indices ``clients`` (..., M), row ``m`` samples client ``clients[..., m]``'s data instead of client ``m``'s.

    With identical clients (``n_clients is None``) every client samples the one shared data set.
    """
    M = idx.shape[-2]
    if n_clients is None:
        rows = np.zeros((M, 1), dtype=int)
    else:
        rows = np.arange(M)[:, None] if clients is None else np.asarray(clients)[..., None]
    return data[rows, idx]


def class_labels(name: str, labels, n_classes: int) -> np.ndarray:
    """``labels`` as a 1-d integer array with values in ``0..n_classes - 1``."""
    y = integer_array(name, labels, minimum=0)
    if y.ndim != 1 or (y.size and y.max() >= n_classes):
        raise InvalidParameterError(name, f"a 1-d array of labels in 0..{n_classes - 1}", y)
    return y


def held_out_set(test_features, test_labels, n_inputs: int, n_classes: int):
    """A held-out set ``(features (n_test, n_inputs), labels (n_test,))``, both given or both ``None``."""
    if (test_features is None) != (test_labels is None):
        raise InvalidParameterError("test_labels", "given together with test_features", test_labels)
    if test_features is None:
        return None, None
    features = finite_array("test_features", test_features, ndim=2)
    labels = class_labels("test_labels", test_labels, n_classes)
    if features.shape != (labels.size, n_inputs):
        raise InvalidParameterError(
            "test_features", f"an (n_test, {n_inputs}) array matching test_labels", features.shape
        )
    return features, labels
