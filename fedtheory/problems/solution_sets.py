"""Solution sets of inner problems, represented exactly (no slack ``h <= h* + delta``).

The simple bilevel problems of the StR-FedAvg paper (``shared/seeds/003_511a8e816d499631.txt``, problem (1))
minimise an outer loss over ``X*_h = argmin h``. For least squares ``h(y) = (1/(2N)) ||U y - v||^2`` the set is
the affine subspace ``U^+ v + null(U)`` (spec W-1), with the closed-form projection
``Pi(y) = (I - U^+ U) y + U^+ v``.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .._validate import finite_array
from ..errors import InvalidParameterError


class AffineSolutionSet:
    """``X* = {y : U'U y = U'v} = U^+ v + null(U)``, the minimisers of ``||U y - v||^2``.

    Parameters
    ----------
    U : array (m, n)
        Stacked design; any rank (rank-deficient and wide designs give a non-trivial null space).
    v : array (m,)
        Responses; an inconsistent system is allowed (``X*`` is then the least-squares solution set).
    rcond : float, optional
        Relative cutoff for the singular values treated as zero (the numerical rank).

    Notes
    -----
    Every method takes points of shape ``(..., n)``. ``row_projector`` is ``U^+ U``, the orthogonal projector
    onto ``row(U) = null(U)^perp``; ``y - Pi(y)`` lies in ``row(U)`` (normality).
    """

    def __init__(self, U, v, *, rcond: float = 1e-12):
        U = finite_array("U", U, ndim=(2,))
        v = finite_array("v", v, ndim=(1,))
        if v.shape[0] != U.shape[0]:
            raise InvalidParameterError("v", f"a vector of length m = {U.shape[0]} (rows of U)", f"shape {v.shape}")
        self.U = U
        self.v = v
        self.dim = U.shape[1]
        left, singular, right = np.linalg.svd(U, full_matrices=True)
        cutoff = rcond * (singular[0] if singular.size else 0.0)
        self.rank = int(np.sum(singular > cutoff))
        self.singular_values = singular[: self.rank]
        self.row_basis = right[: self.rank].T
        self.null_basis = right[self.rank :].T
        coef = (left[:, : self.rank].T @ v) / self.singular_values
        self.particular = self.row_basis @ coef

    @cached_property
    def pinv(self) -> np.ndarray:
        """Moore-Penrose pseudo-inverse ``U^+`` at the numerical rank."""
        return self.row_basis @ np.linalg.pinv(self.U @ self.row_basis)

    @cached_property
    def row_projector(self) -> np.ndarray:
        """``U^+ U``: orthogonal projector onto ``row(U)``."""
        return self.row_basis @ self.row_basis.T

    def project(self, y) -> np.ndarray:
        """``Pi(y) = (I - U^+ U) y + U^+ v`` (spec W-1)."""
        y = self._points(y)
        return y - (y - self.particular) @ self.row_projector

    def distance(self, y) -> np.ndarray:
        """``dist(y, X*) = ||U^+ U y - U^+ v||``."""
        y = self._points(y)
        return np.linalg.norm((y - self.particular) @ self.row_basis, axis=-1)

    def contains(self, y, *, tol: float = 1e-10) -> np.ndarray:
        """Whether ``dist(y, X*) <= tol * max(1, ||U^+ v||)``."""
        return self.distance(y) <= tol * max(1.0, float(np.linalg.norm(self.particular)))

    def _points(self, y) -> np.ndarray:
        arr = np.asarray(y, dtype=float)
        if arr.ndim == 0 or arr.shape[-1] != self.dim:
            raise InvalidParameterError("y", f"points whose last axis has length n = {self.dim}", f"shape {arr.shape}")
        return arr
