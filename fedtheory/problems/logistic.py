"""Binary logistic regression with optional l2 weight, one data set per client.

``F_m(x) = (1/n) sum_i log(1 + exp(-y_mi a_mi'x)) + (l2/2)||x||^2`` with labels ``y in {-1, +1}``.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from scipy.special import expit, log_expit

from .._validate import positive
from ..errors import InvalidParameterError
from .base import Problem, finite_sum_data, sample_rows


class LogisticRegression(Problem):
    """Federated binary logistic regression (a finite sum per client).

    Parameters
    ----------
    features : array (n, d) or (M, n, d)
        One data set shared by every client, or one per client (equal sizes ``n``).
    labels : array (n,) or (M, n)
        Labels in ``{-1, +1}``.
    l2 : float, optional
        Weight of ``(l2/2)||x||^2``; it is the strong-convexity constant ``mu`` used by the thesis.
    """

    def __init__(self, features, labels, l2: float = 0.0):
        X, y = finite_sum_data(features, labels, "labels")
        if not np.all(np.isin(y, (-1.0, 1.0))):
            raise InvalidParameterError("labels", "values in {-1, +1}", np.unique(y)[:5])
        self.l2 = positive("l2", l2, allow_zero=True)
        self.n_clients = X.shape[0] if X.ndim == 3 else None
        self.features = X if X.ndim == 3 else X[None]
        self.labels = y if y.ndim == 2 else y[None]
        self.n_samples = self.features.shape[1]
        self.dim = self.features.shape[2]

    @cached_property
    def L(self) -> float:
        """``max_m lambda_max(A_m'A_m) / (4n) + l2``, a smoothness constant of every client objective."""
        gram = np.einsum("mni,mnj->mij", self.features, self.features) / self.n_samples
        return float(np.max(np.linalg.eigvalsh(gram)[:, -1]) / 4 + self.l2)

    @property
    def mu(self) -> float:
        """The l2 weight: a strong-convexity constant of ``F`` (the data term only adds curvature)."""
        return self.l2

    @cached_property
    def _optimum(self):
        from ..reference import logistic_optimum

        return logistic_optimum(self)

    @property
    def x_star(self) -> np.ndarray:
        """The minimiser, from a certified CVXPY solve polished by Newton steps (see ``reference``)."""
        return self._optimum.x

    @property
    def f_star(self) -> float:
        return self._optimum.value

    def _margins(self, x) -> np.ndarray:
        """``y_mi a_mi'x_m`` for client points ``x`` of shape (..., M, d): shape (..., M, n)."""
        return self.labels * np.einsum("mnd,...md->...mn", self.features, x)

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        xs = np.broadcast_to(x[..., None, :], (*x.shape[:-1], self.features.shape[0], self.dim))
        loss = -log_expit(self._margins(xs)).mean(axis=(-1, -2))
        return loss + 0.5 * self.l2 * np.sum(x**2, axis=-1)

    def _client_data(self, M: int) -> tuple[np.ndarray, np.ndarray]:
        """Features (M, n, d) and labels (M, n) of ``M`` clients (identical clients share one set)."""
        if self.n_clients is not None:
            return self.features, self.labels
        return (
            np.broadcast_to(self.features, (M, *self.features.shape[1:])),
            np.broadcast_to(self.labels, (M, self.n_samples)),
        )

    def client_grad(self, x) -> np.ndarray:
        x = self.check_client_points(x)
        feats, labels = self._client_data(x.shape[-2])
        z = labels * np.einsum("mnd,...md->...mn", feats, x)
        s = -labels * expit(-z)
        return np.einsum("...mn,mnd->...md", s, feats) / self.n_samples + self.l2 * x

    def sample_grad(self, x, idx) -> np.ndarray:
        """Mean gradient of the samples ``idx`` (shape (..., M, b)) at client points ``x`` (..., M, d)."""
        x = self.check_client_points(x)
        A = sample_rows(self.features, self.n_clients, idx)  # (..., M, b, d)
        y = sample_rows(self.labels, self.n_clients, idx)  # (..., M, b)
        z = y * np.einsum("...mbd,...md->...mb", A, x)
        s = -y * expit(-z)
        return np.einsum("...mb,...mbd->...md", s, A) / idx.shape[-1] + self.l2 * x

    def hessian(self, x) -> np.ndarray:
        """Hessian of ``F`` at a single point ``x`` (d,)."""
        x = self.check_point(x)
        z = self._margins(np.broadcast_to(x, (self.features.shape[0], self.dim)))
        w = expit(z) * expit(-z)
        H = np.einsum("mn,mni,mnj->ij", w, self.features, self.features) / (self.n_samples * self.features.shape[0])
        return H + self.l2 * np.eye(self.dim)
