"""Least squares and LASSO: ``F_m(x) = (1/(2n)) ||A_m x - y_m||^2``, optionally ``+ lam ||x||_1``."""

from __future__ import annotations

import numpy as np

from .._validate import positive
from ..errors import InvalidParameterError
from ..regularizers import L1
from .base import finite_sum_data, sample_rows
from .quadratic import FederatedQuadratic


class LeastSquares(FederatedQuadratic):
    """Federated least squares, a :class:`FederatedQuadratic` that also samples single rows.

    Parameters
    ----------
    features : array (n, d) or (M, n, d)
        Design matrices (one shared, or one per client with equal ``n``).
    targets : array (n,) or (M, n)
        Responses.
    """

    def __init__(self, features, targets):
        X, y = finite_sum_data(features, targets, "targets")
        n = X.shape[-2]
        A = np.einsum("...ni,...nj->...ij", X, X) / n
        b = np.einsum("...ni,...n->...i", X, y) / n
        c = np.sum(y**2, axis=-1) / (2 * n)
        super().__init__(A, b, c)
        self.features = X if X.ndim == 3 else X[None]
        self.targets = y if y.ndim == 2 else y[None]
        self.n_samples = n

    def sample_grad(self, x, idx) -> np.ndarray:
        """Mean gradient of rows ``idx`` (shape (..., M, b)) at client points ``x`` (..., M, d)."""
        x = self.check_client_points(x)
        A = sample_rows(self.features, self.n_clients, idx)
        r = np.einsum("...mbd,...md->...mb", A, x) - sample_rows(self.targets, self.n_clients, idx)
        return np.einsum("...mb,...mbd->...md", r, A) / idx.shape[-1]


class Lasso:
    """The composite problem ``min_x F(x) + lam ||x||_1`` with ``F`` a :class:`LeastSquares`.

    Attributes
    ----------
    smooth : LeastSquares
        The smooth part ``F``.
    regularizer : L1
        ``psi(x) = lam ||x||_1``.
    """

    def __init__(self, smooth: LeastSquares, lam: float):
        if not isinstance(smooth, LeastSquares):
            raise InvalidParameterError("smooth", "a LeastSquares problem", type(smooth).__name__)
        self.smooth = smooth
        self.regularizer = L1(positive("lam", lam, allow_zero=True))
        self.dim = smooth.dim

    def value(self, x) -> np.ndarray:
        """``F(x) + lam ||x||_1``."""
        return self.smooth.value(x) + self.regularizer.value(x)

    def solve(self, *, gap_tol: float = 1e-8):
        """Certified optimum (see :func:`fedtheory.reference.lasso_optimum`)."""
        from ..reference import lasso_optimum

        return lasso_optimum(self, gap_tol=gap_tol)
