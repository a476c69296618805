"""Seeded data of federated composite problems (sparse and low-rank regression, sparse logistic regression) and
their recovery metrics.

* Federated LASSO with client-specific feature means: :func:`federated_lasso`.
* Federated low-rank matrix estimation with the nuclear norm: :func:`federated_low_rank`.
* Sessions as clients for l1-logistic regression, subjects held out for validation: :func:`sparse_logistic_sessions`.
* Metrics: :func:`support_recovery` (precision, recall, F1, density of the estimated support), :func:`density`,
  :func:`recovered_rank`; each takes the cutoff below which an entry or singular value counts as zero.

Both regression tasks have an intercept ``x^0`` that ``psi`` leaves out. It is represented by a constant-1 feature
appended to every sample as the *last* coordinate of ``x``, and by a :class:`~fedtheory.regularizers.Masked`
regularizer that leaves that coordinate unpenalised. The loss is the squared error without a factor 1/2 (as Keras'
``MeanSquaredError``), implemented by :class:`MeanSquaredError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import InvalidParameterError
from ..regularizers import L1, Masked, NuclearNorm, Regularizer
from .base import Problem, finite_sum_data, sample_rows
from .logistic import LogisticRegression


def intercept_mask(dim: int) -> np.ndarray:
    """Boolean mask of length ``dim``: True (penalised) everywhere except the last coordinate (the intercept)."""
    mask = np.ones(positive_int("dim", dim, minimum=2), dtype=bool)
    mask[-1] = False
    return mask


def with_intercept(features) -> np.ndarray:
    """Append the constant-1 feature that carries the intercept ``x^0``: shape (..., p) -> (..., p + 1)."""
    features = np.asarray(features, dtype=float)
    return np.concatenate([features, np.ones((*features.shape[:-1], 1))], axis=-1)


class MeanSquaredError(Problem):
    """Squared error without 1/2, one data set per client: ``F_m(x) = (1/n) sum_i (z_mi'x - y_mi)^2``.

    (The expectation over the client's empirical distribution.)
    ``F(x) = x'A x/2 - b'x + F(0)`` with ``A = 2 Z'Z/N`` and ``b = 2 Z'y/N`` over the ``N = M n`` pooled rows
    (``A_mean``, ``b_mean``: the interface of :func:`fedtheory.reference.composite_optimum`). Unlike
    :class:`~fedtheory.problems.LeastSquares` it stores no per-client Hessian, so paper-scale data (``d = 1025``,
    256 clients) fit in memory.

    Parameters
    ----------
    features : array (n, p) or (M, n, p)
        Rows ``z``; one shared data set, or one per client (equal ``n``).
    targets : array (n,) or (M, n)
        Responses ``y``.
    """

    def __init__(self, features, targets):
        X, y = finite_sum_data(features, targets, "targets")
        self.n_clients = X.shape[0] if X.ndim == 3 else None
        self.features = X if X.ndim == 3 else X[None]
        self.targets = y if y.ndim == 2 else y[None]
        self.n_samples = self.features.shape[1]
        self.dim = self.features.shape[2]

    # --- constants ------------------------------------------------------------------------------
    @cached_property
    def A_mean(self) -> np.ndarray:
        """Hessian of ``F``: ``2 Z'Z / N`` over the pooled rows."""
        Z = self.features.reshape(-1, self.dim)
        return 2.0 * (Z.T @ Z) / Z.shape[0]

    @cached_property
    def b_mean(self) -> np.ndarray:
        """``-grad F(0) = 2 Z'y / N``."""
        Z = self.features.reshape(-1, self.dim)
        return 2.0 * (Z.T @ self.targets.reshape(-1)) / Z.shape[0]

    @cached_property
    def L(self) -> float:
        """``max_m 2 lambda_max(Z_m'Z_m / n)``: every client objective is L-smooth (from the smaller Gram matrix)."""
        Z = self.features
        gram = Z @ np.swapaxes(Z, 1, 2) if self.n_samples < self.dim else np.swapaxes(Z, 1, 2) @ Z
        return float(2.0 * np.max(np.linalg.eigvalsh(gram)[:, -1]) / self.n_samples)

    @cached_property
    def mu(self) -> float:
        """``lambda_min(A_mean)``: the strong convexity of ``F`` (0 up to rounding when ``N < p``)."""
        return float(np.linalg.eigvalsh(self.A_mean)[0])

    @cached_property
    def x_star(self) -> np.ndarray:
        """Minimum-norm least-squares solution over the pooled rows."""
        x, *_ = np.linalg.lstsq(self.features.reshape(-1, self.dim), self.targets.reshape(-1), rcond=None)
        return x

    # --- evaluation -----------------------------------------------------------------------------
    def _client_data(self, M: int) -> tuple[np.ndarray, np.ndarray]:
        if self.n_clients is not None:
            return self.features, self.targets
        return (
            np.broadcast_to(self.features, (M, *self.features.shape[1:])),
            np.broadcast_to(self.targets, (M, self.n_samples)),
        )

    def value(self, x) -> np.ndarray:
        """``F(x)``: the mean squared residual over all rows (computed from residuals, not from ``A``)."""
        x = self.check_point(x)
        r = np.einsum("mnp,...p->...mn", self.features, x) - self.targets
        return np.mean(r**2, axis=(-1, -2))

    def grad(self, x) -> np.ndarray:
        x = self.check_point(x)
        return x @ self.A_mean - self.b_mean

    def client_grad(self, x) -> np.ndarray:
        """``grad F_m(x_m) = (2/n) Z_m'(Z_m x_m - y_m)`` at client points ``x`` (..., M, p)."""
        x = self.check_client_points(x)
        Z, y = self._client_data(x.shape[-2])
        r = np.einsum("mnp,...mp->...mn", Z, x) - y
        return 2.0 * np.einsum("...mn,mnp->...mp", r, Z) / self.n_samples

    def sample_grad(self, x, idx, clients=None) -> np.ndarray:
        """Gradient of the batch-mean squared error of rows ``idx`` (..., M, b) at client points ``x`` (..., M, p).

        Parameters
        ----------
        clients : int array broadcastable to ``idx.shape[:-1]``, optional
            Whose data each client row uses (partial participation: the sampled clients of a round, per replica).
            Default: row ``m`` is client ``m`` (then the client axis must hold every client).
        """
        x = self.check_point(x)
        idx = np.asarray(idx)
        if clients is None:
            x = self.check_client_points(x)
            Z = sample_rows(self.features, self.n_clients, idx)
            y = sample_rows(self.targets, self.n_clients, idx)
        else:
            clients = np.asarray(clients)
            if not np.issubdtype(clients.dtype, np.integer) or np.any((clients < 0) | (clients >= len(self.features))):
                raise InvalidParameterError("clients", f"client indices in [0, {len(self.features)})", clients)
            rows = np.broadcast_to(clients, idx.shape[:-1])[..., None]
            Z, y = self.features[rows, idx], self.targets[rows, idx]
        r = np.einsum("...mbp,...mp->...mb", Z, x) - y
        return 2.0 * np.einsum("...mb,...mbp->...mp", r, Z) / idx.shape[-1]


class Composite:
    """``Phi(x) = F(x) + psi(x)`` with ``psi`` acting on the flat vector ``x``.

    Attributes
    ----------
    smooth : Problem
        ``F``.
    regularizer : Regularizer
        ``psi``.
    """

    def __init__(self, smooth: Problem, regularizer: Regularizer):
        if not isinstance(regularizer, Regularizer):
            raise InvalidParameterError("regularizer", "a regularizer from fedtheory.regularizers", regularizer)
        self.smooth, self.regularizer, self.dim = smooth, regularizer, smooth.dim

    def value(self, x) -> np.ndarray:
        """``F(x) + psi(x)``."""
        return self.smooth.value(x) + self.regularizer.value(x)

    def solve(self, **tolerances):
        """Certified optimum (see :func:`fedtheory.reference.composite_optimum`)."""
        from ..reference import composite_optimum

        return composite_optimum(self.smooth, self.regularizer, **tolerances)


@dataclass(frozen=True)
class FederatedLassoData:
    """Data of the federated LASSO with the intercept as the last coordinate of ``x``.

    Attributes
    ----------
    smooth : MeanSquaredError
        ``F`` on ``z = (a, 1)``: ``F_m(x, x^0) = (1/n) sum_i (a_mi'x + x^0 - b_mi)^2``.
    x_real : array (d,)
        ``(1_{d1}, 0_{d0})``.
    intercept_real : float
        ``x^0_real``.
    client_means : array (M, d)
        ``mu_m``.
    """

    smooth: MeanSquaredError
    x_real: np.ndarray
    intercept_real: float
    client_means: np.ndarray

    @property
    def features(self) -> np.ndarray:
        """The observations ``a_m^(i)``, shape (M, n, d) (a view without the constant feature)."""
        return self.smooth.features[..., :-1]

    @property
    def targets(self) -> np.ndarray:
        """The responses ``b_m^(i)``, shape (M, n)."""
        return self.smooth.targets

    @property
    def truth(self) -> np.ndarray:
        """``(x_real, x^0_real)`` in the coordinates of the problem."""
        return np.append(self.x_real, self.intercept_real)

    def regularizer(self, lam: float) -> Masked:
        """``lam ||x||_1`` on the weights, the intercept unpenalised."""
        return Masked(L1(lam), intercept_mask(self.smooth.dim))

    def problem(self, lam: float) -> Composite:
        """The composite objective: mean squared error plus ``lam ||x||_1`` on the weights."""
        return Composite(self.smooth, self.regularizer(lam))

    @staticmethod
    def split(x) -> tuple[np.ndarray, np.ndarray]:
        """``(weights (..., d), intercept (...))`` of points ``x`` (..., d + 1)."""
        x = np.asarray(x, dtype=float)
        return x[..., :-1], x[..., -1]


def federated_lasso(
    rng: np.random.Generator, *, d1: int, d0: int, n_clients: int, n_per_client: int
) -> FederatedLassoData:
    """Synthetic federated LASSO data: a sparse truth, client-specific feature means, Gaussian noise.

    ``x_real = (1_{d1}, 0_{d0})``, ``x^0_real ~ N(0, 1)``; client ``m`` has a fixed mean ``mu_m ~ N(0, I_d)`` and
    ``n`` samples ``a = mu_m + delta``, ``delta ~ N(0, I_d)``, ``b = a'x_real + x^0_real + eps``, ``eps ~ N(0, 1)``,
    all independent. Draw order: ``x^0_real``, ``mu`` (M, d), ``delta`` (M, n, d), ``eps`` (M, n).
    """
    rng = generator("rng", rng)
    d1, d0 = positive_int("d1", d1), positive_int("d0", d0, minimum=0)
    M, n = positive_int("n_clients", n_clients), positive_int("n_per_client", n_per_client)
    d = d1 + d0
    x_real = np.concatenate([np.ones(d1), np.zeros(d0)])
    intercept = float(rng.standard_normal())
    mu = rng.standard_normal((M, d))
    a = mu[:, None, :] + rng.standard_normal((M, n, d))
    b = a @ x_real + intercept + rng.standard_normal((M, n))
    return FederatedLassoData(MeanSquaredError(with_intercept(a), b), x_real, intercept, mu)


@dataclass(frozen=True)
class LowRankData:
    """Data of the nuclear-norm regression; ``x = (vec(X), x^0)`` with ``vec`` in C (row-major) order.

    Attributes
    ----------
    smooth : MeanSquaredError
        ``F_m(X, x^0) = (1/n) sum_i (<A_mi, X> + x^0 - b_mi)^2`` on rows ``(vec(A), 1)``.
    X_real : array (d, d)
        ``diag(I_r, 0)``.
    intercept_real : float
        ``x^0_real``.
    client_means : array (M, d, d)
        ``mu_m``.
    """

    smooth: MeanSquaredError
    X_real: np.ndarray
    intercept_real: float
    client_means: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.X_real.shape

    @property
    def truth(self) -> np.ndarray:
        """``(vec(X_real), x^0_real)`` in the coordinates of the problem."""
        return np.append(self.X_real.reshape(-1), self.intercept_real)

    def regularizer(self, lam: float) -> Masked:
        """``lam ||X||_nuc`` on the matrix block, the intercept unpenalised."""
        return Masked(NuclearNorm(lam), intercept_mask(self.smooth.dim), shape=self.shape)

    def problem(self, lam: float) -> Composite:
        """The composite objective: mean squared error plus ``lam ||X||_nuc`` on the matrix block."""
        return Composite(self.smooth, self.regularizer(lam))

    def split(self, x) -> tuple[np.ndarray, np.ndarray]:
        """``(X (..., d, d), intercept (...))`` of points ``x`` (..., d^2 + 1)."""
        x = np.asarray(x, dtype=float)
        return x[..., :-1].reshape(*x.shape[:-1], *self.shape), x[..., -1]


def federated_low_rank(
    rng: np.random.Generator, *, d: int, rank: int, n_clients: int, n_per_client: int
) -> LowRankData:
    """Synthetic low-rank matrix estimation data: a rank-``r`` truth, client-specific means, Gaussian noise.

    ``X_real = diag(I_r, 0) in R^{d x d}``, ``x^0_real ~ N(0, 1)``; client ``m`` has a fixed mean ``mu_m`` with
    iid ``N(0, 1)`` entries and ``n`` samples ``A = mu_m + delta`` (iid ``N(0, 1)`` entries),
    ``b = <A, X_real> + x^0_real + eps``, ``eps ~ N(0, 1)``. Draw order: ``x^0_real``, ``mu`` (M, d, d),
    ``delta`` (M, n, d, d), ``eps`` (M, n).
    """
    rng = generator("rng", rng)
    d, r = positive_int("d", d), positive_int("rank", rank)
    if r > d:
        raise InvalidParameterError("rank", f"a rank <= d = {d}", r)
    M, n = positive_int("n_clients", n_clients), positive_int("n_per_client", n_per_client)
    X_real = np.zeros((d, d))
    X_real[np.arange(r), np.arange(r)] = 1.0
    intercept = float(rng.standard_normal())
    mu = rng.standard_normal((M, d, d))
    A = (mu[:, None] + rng.standard_normal((M, n, d, d))).reshape(M, n, d * d)
    b = A @ X_real.reshape(-1) + intercept + rng.standard_normal((M, n))
    return LowRankData(MeanSquaredError(with_intercept(A), b), X_real, intercept, mu)


@dataclass(frozen=True)
class SparseLogisticData:
    """Sessions as clients for l1-logistic regression, the intercept as the last coordinate of ``x``.

    Attributes
    ----------
    train, validation : LogisticRegression
        Training sessions (every subject but the last) and validation sessions (the last subject), rows ``(a, 1)``.
    w_real : array (d,)
        The sparse ground truth.
    subject : array (M_train,)
        The subject of each training client.
    """

    train: LogisticRegression
    validation: LogisticRegression
    w_real: np.ndarray
    subject: np.ndarray

    def regularizer(self, lam: float) -> Masked:
        """``lam ||w||_1`` on the weights, the intercept unpenalised."""
        return Masked(L1(lam), intercept_mask(self.train.dim))

    def problem(self, lam: float) -> Composite:
        """Training objective: mean logistic loss + ``lam ||w||_1``."""
        return Composite(self.train, self.regularizer(lam))

    @staticmethod
    def split(x) -> tuple[np.ndarray, np.ndarray]:
        """``(weights (..., d), intercept (...))`` of points ``x`` (..., d + 1)."""
        x = np.asarray(x, dtype=float)
        return x[..., :-1], x[..., -1]


def sparse_logistic_sessions(
    rng: np.random.Generator,
    *,
    n_subjects: int = 6,
    sessions: int = 6,
    scans: int = 18,
    dim: int = 200,
    n_nonzero: int = 10,
    signal: float = 0.6,
    subject_scale: float = 0.5,
    session_scale: float = 0.25,
) -> SparseLogisticData:
    """Sessions of subjects as clients for sparse logistic regression (e.g. a stand-in for an fMRI task).

    ``n_subjects`` subjects with ``sessions`` sessions of ``scans`` scans each, one client per session, the first
    ``n_subjects - 1`` subjects for training and the last for validation, binary labels, a sparse linear signal:
    ``dim`` features; ``w_real`` has ``signal`` on its first ``n_nonzero`` coordinates and 0 elsewhere; subject
    ``j`` has a mean ``nu_j ~ N(0, subject_scale^2 I)``, its session ``m`` the mean
    ``mu_m = nu_j + N(0, session_scale^2 I)``; a scan is ``a = mu_m + N(0, I)`` with label ``+1`` with probability
    ``sigmoid(a'w_real)``, else ``-1``. Defaults: 30 training clients of 18 scans (540 samples), 6 validation
    clients, ``d = 200``. Draw order: ``nu``, session offsets, scan noise, label uniforms.
    """
    rng = generator("rng", rng)
    J, S, n = (positive_int(k, v) for k, v in (("n_subjects", n_subjects), ("sessions", sessions), ("scans", scans)))
    if J < 2:
        raise InvalidParameterError("n_subjects", "at least 2 (one is held out for validation)", J)
    d, s = positive_int("dim", dim), positive_int("n_nonzero", n_nonzero)
    if s > d:
        raise InvalidParameterError("n_nonzero", f"at most dim = {d}", s)
    for name, value in (("signal", signal), ("subject_scale", subject_scale), ("session_scale", session_scale)):
        positive(name, value, allow_zero=True)
    w_real = np.concatenate([np.full(s, float(signal)), np.zeros(d - s)])
    nu = subject_scale * rng.standard_normal((J, 1, d))
    mu = (nu + session_scale * rng.standard_normal((J, S, d))).reshape(J * S, d)
    a = mu[:, None, :] + rng.standard_normal((J * S, n, d))
    p = 1.0 / (1.0 + np.exp(-(a @ w_real)))
    y = np.where(rng.random((J * S, n)) < p, 1.0, -1.0)
    z = with_intercept(a)
    split = (J - 1) * S
    subject = np.repeat(np.arange(J - 1), S)
    return SparseLogisticData(
        LogisticRegression(z[:split], y[:split]), LogisticRegression(z[split:], y[split:]), w_real, subject
    )


# --- recovery metrics ---------------------------------------------------------------------------------------------
class SupportRecovery(NamedTuple):
    """Support-recovery scores, each of shape ``x.shape[:-1]``."""

    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    density: np.ndarray


def density(x, cutoff: float) -> np.ndarray:
    """Fraction of coordinates with ``|x_i| >= cutoff`` over the last axis (smaller entries count as zero)."""
    return np.mean(np.abs(np.asarray(x, dtype=float)) >= positive("cutoff", cutoff, allow_zero=True), axis=-1)


def support_recovery(x, x_real, *, cutoff: float) -> SupportRecovery:
    """Precision, recall, F1 and density of the estimated support ``{i : |x_i| >= cutoff}``.

    ``precision = TP / #predicted``, ``recall = TP / #true``, ``F1 = 2 TP / (#predicted + #true)`` (the harmonic
    mean of the two), ``density = #predicted / d``, with true support ``{i : x_real_i != 0}``. An empty predicted
    support has precision 0 (scikit-learn's ``zero_division=0``).

    Parameters
    ----------
    x : array (..., d)
        Estimates (weights only: drop the intercept first).
    x_real : array (d,)
        Ground truth with a non-empty support.
    """
    x = np.asarray(x, dtype=float)
    truth = np.asarray(x_real, dtype=float) != 0
    if truth.shape != x.shape[-1:] or not truth.any():
        raise InvalidParameterError("x_real", f"a vector of length {x.shape[-1]} with a non-empty support", x_real)
    predicted = np.abs(x) >= positive("cutoff", cutoff, allow_zero=True)
    tp = np.sum(predicted & truth, axis=-1)
    n_pred, n_true = np.sum(predicted, axis=-1), int(truth.sum())
    precision = np.where(n_pred > 0, tp / np.maximum(n_pred, 1), 0.0)
    return SupportRecovery(precision, tp / n_true, 2.0 * tp / (n_pred + n_true), n_pred / x.shape[-1])


def recovered_rank(X, *, cutoff: float) -> np.ndarray:
    """Number of singular values greater than ``cutoff`` of matrices ``X`` (..., d1, d2)."""
    X = np.asarray(X, dtype=float)
    if X.ndim < 2:
        raise InvalidParameterError("X", "matrices of shape (..., d1, d2)", f"shape {X.shape}")
    return np.sum(np.linalg.svd(X, compute_uv=False) > positive("cutoff", cutoff, allow_zero=True), axis=-1)
