"""Federated quadratics ``F_m(x) = 1/2 x'A_m x - b_m'x + c_m`` and their constants.

These are the instances on which every moment of FedAvg is available in closed form
(:mod:`fedtheory.exact.moments`), and on which the iterate bias of Definition 2.5 vanishes.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

import numpy as np

from .._validate import finite_array, psd_matrices
from ..errors import InvalidParameterError
from .base import Problem


class FederatedQuadratic(Problem):
    """``F(x) = (1/M) sum_m [1/2 x'A_m x - b_m'x + c_m]``.

    Parameters
    ----------
    A : array (d, d) or (M, d, d)
        Symmetric positive semidefinite Hessians; a single matrix is shared by every client.
    b : array (d,) or (M, d)
        Linear terms. ``A`` of shape (d, d) with ``b`` of shape (M, d) gives clients with a common
        Hessian and shifted optima (the heterogeneity of Assumption 2.3 with finite zeta).
    c : float or array (M,), optional
        Constant terms (they only shift ``f_star``).

    Notes
    -----
    With identical clients (``A`` (d, d) and ``b`` (d,)) the problem is homogeneous and
    ``n_clients`` is ``None``.
    """

    def __init__(self, A, b, c=0.0):
        A = psd_matrices("A", A)
        b = finite_array("b", b, ndim=(1, 2))
        d = A.shape[-1]
        if b.shape[-1] != d:
            raise InvalidParameterError("b", f"vectors of length d = {d} to match A", f"shape {b.shape}")
        if A.ndim not in (2, 3):
            raise InvalidParameterError("A", "shape (d, d) or (M, d, d)", f"shape {A.shape}")
        homogeneous = A.ndim == 2 and b.ndim == 1
        M = 1 if homogeneous else (A.shape[0] if A.ndim == 3 else b.shape[0])
        if A.ndim == 3 and b.ndim == 2 and A.shape[0] != b.shape[0]:
            raise InvalidParameterError("b", f"one row per client (M = {A.shape[0]} from A)", f"shape {b.shape}")
        self.dim = d
        self.n_clients = None if homogeneous else M
        self.A = np.broadcast_to(A, (M, d, d)).copy()
        self.b = np.broadcast_to(b, (M, d)).copy()
        c = finite_array("c", c, ndim=(0, 1))
        if c.ndim == 1 and c.shape[0] != M:
            raise InvalidParameterError("c", f"a scalar or one value per client (M = {M})", f"shape {c.shape}")
        self.c = np.broadcast_to(c, (M,)).copy()
        self.A_mean = self.A.mean(axis=0)
        self.b_mean = self.b.mean(axis=0)

    # --- constants ------------------------------------------------------------------------------
    @cached_property
    def L(self) -> float:
        """``max_m lambda_max(A_m)``: every client objective is L-smooth (Assumption 2.1(b))."""
        return float(np.max(np.linalg.eigvalsh(self.A)[:, -1]))

    @cached_property
    def mu(self) -> float:
        """``lambda_min`` of the mean Hessian: the strong convexity of ``F``."""
        return float(np.linalg.eigvalsh(self.A_mean)[0])

    @cached_property
    def x_star(self) -> np.ndarray:
        """Minimum-norm minimiser of ``F``; raises if ``F`` is unbounded below."""
        x, *_ = np.linalg.lstsq(self.A_mean, self.b_mean, rcond=None)
        residual = np.linalg.norm(self.A_mean @ x - self.b_mean)
        if residual > 1e-9 * max(1.0, np.linalg.norm(self.b_mean)):
            raise InvalidParameterError(
                "b",
                "a mean of b_m in the range of the mean Hessian (otherwise F is unbounded below)",
                f"residual {residual:.3g}",
            )
        return x

    @cached_property
    def zeta_star(self) -> float:
        """Heterogeneity at the optimum: ``sqrt((1/M) sum_m ||grad F_m(x*)||^2)`` (Assumption 2.4)."""
        g = np.einsum("mij,j->mi", self.A, self.x_star) - self.b
        return float(np.sqrt(np.mean(np.sum(g**2, axis=-1))))

    @cached_property
    def zeta(self) -> float:
        """Uniform heterogeneity ``sqrt(max_m sup_x ||grad F_m - grad F||^2)`` (Assumption 2.3).

        Infinite unless every client has the same Hessian; then it is ``max_m ||b_m - b_mean||``.
        """
        if not np.allclose(self.A, self.A_mean[None], rtol=0, atol=1e-12 * max(1.0, self.L)):
            return float("inf")
        return float(np.max(np.linalg.norm(self.b - self.b_mean, axis=-1)))

    # --- evaluation -----------------------------------------------------------------------------
    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        quad = 0.5 * np.einsum("...i,ij,...j->...", x, self.A_mean, x)
        return quad - x @ self.b_mean + self.c.mean()

    def gap(self, x) -> np.ndarray:
        """``F(x) - F* = (x - x*)' A (x - x*) / 2``, computed without cancelling against ``F*``."""
        e = self.check_point(x) - self.x_star
        return 0.5 * np.einsum("...i,ij,...j->...", e, self.A_mean, e)

    def expected_gap(self, mean, cov) -> np.ndarray:
        """``E F(x) - F* = gap(mean) + tr(A cov)/2`` for ``x`` with mean ``(..., d)`` and covariance ``(..., d, d)``
        (any law: F is quadratic)."""
        return self.gap(mean) + 0.5 * np.einsum("ij,...ji->...", self.A_mean, np.asarray(cov, dtype=float))

    def grad(self, x) -> np.ndarray:
        x = self.check_point(x)
        return x @ self.A_mean.T - self.b_mean

    def client_grad(self, x, clients=None) -> np.ndarray:
        """``A_m x_m - b_m`` at client points ``x (..., M, d)``; given client indices ``clients (..., P)``, client
        ``clients[..., j]``'s gradient at ``x[..., j, :]`` for points ``x (..., P, d)``: only the listed clients."""
        if clients is not None:
            x, clients = self.check_client_subset(x, clients)
            if self.n_clients is None:
                return x @ self.A[0].T - self.b[0]
            return np.einsum("...mij,...mj->...mi", self.A[clients], x) - self.b[clients]
        x = self.check_client_points(x)
        if self.n_clients is None:
            return x @ self.A[0].T - self.b[0]
        return np.einsum("mij,...mj->...mi", self.A, x) - self.b

    # --- exact arithmetic -----------------------------------------------------------------------
    @cached_property
    def _exact(self) -> tuple[list[list[Fraction]], list[Fraction]]:
        """``A_mean`` and ``b_mean`` as exact rationals (each float is a dyadic rational)."""
        A = [[Fraction(float(v)) for v in row] for row in self.A.sum(axis=0)]
        M = self.A.shape[0]
        A = [[v / M for v in row] for row in A]
        b = [sum((Fraction(float(v)) for v in self.b[:, i]), Fraction(0)) / M for i in range(self.dim)]
        return A, b

    def grad_exact(self, x: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        """``grad F(x)`` in exact rational arithmetic, for :mod:`fedtheory.exact.rational`."""
        A, b = self._exact
        return tuple(sum((a * xi for a, xi in zip(row, x)), Fraction(0)) - bi for row, bi in zip(A, b))
