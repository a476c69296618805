"""Solution sets of inner problems, represented exactly (no slack ``h <= h* + delta``).

The simple bilevel problems of the StR-FedAvg paper (problem (1))
minimise an outer loss over ``X*_h = argmin h``. For least squares ``h(y) = (1/(2N)) ||U y - v||^2`` the set is
the affine subspace ``U^+ v + null(U)``, with the closed-form projection
``Pi(y) = (I - U^+ U) y + U^+ v``. For the LASSO ``h(x) = (1/(2m)) ||A x - b||^2 + lam ||x||_1`` it is
the polytope ``{x : A x = yhat, ||x||_1 <= ||xhat||_1}``, projected onto by one certified QP per point.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .._validate import finite_array, positive
from ..errors import InvalidParameterError, ReferenceSolveError
from ..regularizers import L1
from .least_squares import LeastSquares


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
        """``Pi(y) = (I - U^+ U) y + U^+ v``."""
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


class LassoSolutionSet:
    """``X* = argmin h`` for the LASSO ``h(x) = (1/(2m)) ||A x - b||^2 + lam ||x||_1``.

    Every minimiser has the same fit ``yhat = A x`` (``h`` is strictly convex in ``A x``), hence the same
    ``||x||_1 = t``, and

        ``X* = {x : A x = yhat, ||x||_1 <= t}``,

    a polytope. Equivalently (R. J. Tibshirani, "The lasso problem and uniqueness", 2013, Sect. 2: every
    minimiser has the subgradient ``A' theta / lam``, with ``theta = (b - yhat)/m`` the unique dual solution)

        ``X* = {x : x_j = 0 off E, A_E x_E = yhat, s_j x_j >= 0 on E}``,

    ``E = {j : |A_j' theta| = lam}`` the equicorrelation set and ``s = sign(A_E' theta)``; then
    ``lam t = theta' yhat``.

    Parameters
    ----------
    A : array (m, n)
        Design; any shape and rank (a wide or rank-deficient ``A`` can make ``X*`` more than one point).
    b : array (m,)
        Responses.
    lam : float
        ``lam > 0`` (``lam = 0`` is least squares: use :class:`AffineSolutionSet`).
    tol : float, optional
        Largest accepted certificate (relative; see ``certificate``) and projection KKT residual.

    Attributes
    ----------
    fit : ndarray (m,)
        ``yhat``.
    l1_radius : float
        ``t = theta' yhat / lam``, the common ``l1`` norm of the minimisers.
    dual : ndarray (m,)
        ``theta = (b - yhat)/m``, the solution of the dual ``max b'theta - (m/2)||theta||^2`` s.t.
        ``||A' theta||_inf <= lam``.
    equicorrelation, signs : ndarray
        ``E`` (indices) and ``s``.
    xhat : ndarray (n,)
        A certified minimiser (the projection of the solver's point onto ``X*``).
    h_star : float
        ``h(xhat)``.
    certificate : dict
        Clarabel's and the proximal-gradient certificate of :func:`fedtheory.reference.composite_optimum`, and
        ``equicorrelation_residual`` (``max_E |A_j' theta / lam - s_j|``), ``dual_infeasibility``
        (``max(0, ||A' theta||_inf / lam - 1)``), ``equicorrelation_margin`` (``1 - max_{j not in E}
        |A_j' theta| / lam``, how clearly ``E`` is separated), ``lasso_duality_gap`` (``h(xhat)`` minus the dual
        value at the feasible scaling of ``theta``) and ``fit_shift`` (``||A x_solver - yhat||``).

    Notes
    -----
    Clarabel solves the LASSO; ``E`` and ``s`` are read off its (polished) point, and the fit is recomputed from
    the KKT system on ``E``, ``yhat = A_E A_E^+ b - m lam (A_E^+)' s``, so ``yhat``, ``theta``, ``t`` and ``h*``
    are exact up to rounding, not up to the solver's tolerance. ``X*`` is parametrised as
    ``x_E = z_p + N w`` (``z_p = A_E^+ yhat``, ``N`` an orthonormal basis of ``null(A_E)``), so a projection is a
    QP in ``w`` with the sign constraints only; Clarabel's answer is polished on its active set and certified by
    the KKT residual (stationarity from a non-negative least-squares fit of the multipliers, plus infeasibility
    and complementarity), which bounds the distance to the exact projection.
    """

    def __init__(self, A, b, lam: float, *, tol: float = 1e-9, rcond: float = 1e-12):
        A = finite_array("A", A, ndim=(2,))
        b = finite_array("b", b, ndim=(1,))
        if b.shape[0] != A.shape[0]:
            raise InvalidParameterError("b", f"a vector of length m = {A.shape[0]} (rows of A)", f"shape {b.shape}")
        self.A, self.b, self.lam = A, b, positive("lam", lam)
        self.tol = positive("tol", tol)
        from ..reference import composite_optimum  # CVXPY is imported only where a solve needs it

        m, self.dim = A.shape
        ref = composite_optimum(LeastSquares(A, b), L1(self.lam))
        corr = A.T @ (b - A @ ref.x) / (m * self.lam)
        self.equicorrelation = np.flatnonzero(np.abs(corr) >= 1.0 - 1e-6)
        self.signs = np.sign(corr[self.equicorrelation])
        if np.any(np.delete(ref.x, self.equicorrelation) != 0):
            raise ReferenceSolveError("LASSO solution set: the solver's support is not inside the equicorrelation set")
        AE = A[:, self.equicorrelation]
        left, sing, right = np.linalg.svd(AE, full_matrices=True)
        rank = int(np.sum(sing > rcond * (sing[0] if sing.size else 0.0)))
        pinv = right[:rank].T @ (left[:, :rank].T / sing[:rank, None])  # A_E^+
        self.fit = AE @ (pinv @ b) - m * self.lam * pinv.T @ self.signs
        self.dual = (b - self.fit) / m
        self.l1_radius = float(self.dual @ self.fit / self.lam)
        self._base, self._null = pinv @ self.fit, right[rank:].T
        self._G = -self.signs[:, None] * self._null  # X* in w: G w <= g
        self._g = self.signs * self._base
        self._qp = None
        corr = A.T @ self.dual / self.lam
        outside = np.delete(np.abs(corr), self.equicorrelation)
        cert = dict(ref.certificate)
        cert["equicorrelation_residual"] = float(np.max(np.abs(corr[self.equicorrelation] - self.signs), initial=0.0))
        cert["dual_infeasibility"] = max(float(np.max(np.abs(corr))) - 1.0, 0.0)
        cert["equicorrelation_margin"] = float(1.0 - np.max(outside, initial=0.0))
        cert["fit_shift"] = float(np.linalg.norm(A @ ref.x - self.fit))
        self.xhat = self.project(ref.x)
        self.h_star = float(self.value(self.xhat))
        theta = self.dual / max(1.0, float(np.max(np.abs(corr))))
        cert["lasso_duality_gap"] = self.h_star - float(b @ theta - 0.5 * m * theta @ theta)
        self.certificate = cert
        bad = {k: cert[k] for k in ("equicorrelation_residual", "dual_infeasibility")}
        bad["lasso_duality_gap"] = abs(cert["lasso_duality_gap"]) / max(1.0, abs(self.h_star))
        if max(bad.values()) > self.tol:
            worst = max(bad, key=bad.get)
            raise ReferenceSolveError(f"LASSO solution set not certified: {worst} = {bad[worst]:.2e} > {self.tol:.1e}")

    def value(self, x) -> np.ndarray:
        """``h(x) = (1/(2m)) ||A x - b||^2 + lam ||x||_1`` for points ``(..., n)``."""
        x = self._points(x)
        r = x @ self.A.T - self.b
        return np.sum(r * r, axis=-1) / (2 * self.A.shape[0]) + self.lam * np.sum(np.abs(x), axis=-1)

    def project(self, x) -> np.ndarray:
        """``Pi(x)``, one certified QP per point (see :meth:`project_certified`)."""
        return self.project_certified(x)[0]

    def project_certified(self, x) -> tuple[np.ndarray, np.ndarray]:
        """``Pi(x)`` for points ``(..., n)`` and the KKT residual of each.

        The residual is infeasibility + stationarity + complementarity of the QP in ``w``; for a feasible point
        with complementary multipliers the stationarity residual ``e`` makes it the exact projection of ``x - e``,
        so (projections being nonexpansive) it is within ``||e||`` of ``Pi(x)``.

        Raises
        ------
        ReferenceSolveError
            If a KKT residual exceeds ``tol * max(1, ||x||)``.
        """
        x = self._points(x)
        flat = x.reshape(-1, self.dim)
        out, residual = np.zeros_like(flat), np.zeros(flat.shape[0])
        for i, point in enumerate(flat):
            w, residual[i] = self._project_w(self._null.T @ (point[self.equicorrelation] - self._base))
            out[i, self.equicorrelation] = self._base + self._null @ w
            if residual[i] > self.tol * max(1.0, float(np.linalg.norm(point))):
                raise ReferenceSolveError(
                    f"LASSO projection not certified: KKT residual {residual[i]:.2e} at point {i}"
                )
        return out.reshape(x.shape), residual.reshape(x.shape[:-1])

    def distance(self, x) -> np.ndarray:
        """``dist(x, X*) = ||x - Pi(x)||``."""
        x = self._points(x)
        return np.linalg.norm(x - self.project(x), axis=-1)

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:
        """Whether ``||A x - yhat|| <= tol s`` and ``||x||_1 <= t + tol s``, ``s = max(1, ||xhat||)``."""
        x = self._points(x)
        scale = tol * max(1.0, float(np.linalg.norm(self.xhat)))
        fit = np.linalg.norm(x @ self.A.T - self.fit, axis=-1)
        return (fit <= scale) & (np.sum(np.abs(x), axis=-1) <= self.l1_radius + scale)

    def _project_w(self, target: np.ndarray) -> tuple[np.ndarray, float]:
        """Projection of ``target`` onto ``{w : G w <= g}`` and its KKT residual."""
        violation = float(np.linalg.norm(np.maximum(self._G @ target - self._g, 0.0)))
        if violation == 0.0 or target.size == 0:  # the unconstrained projection, or X* = {xhat}
            return target, violation
        import cvxpy as cp

        from ..reference import solve

        if self._qp is None:
            w, t = cp.Variable(target.size), cp.Parameter(target.size)
            self._qp = (cp.Problem(cp.Minimize(cp.sum_squares(w - t)), [self._G @ w <= self._g]), w, t)
        problem, w, t = self._qp
        t.value = target
        solve(problem)
        clarabel = np.asarray(w.value, dtype=float)
        scale = max(1.0, float(np.linalg.norm(target)), float(np.linalg.norm(self._g)))
        active = self._g - self._G @ clarabel <= 1e-6 * scale
        GJ = self._G[active]
        polished = target - np.linalg.pinv(GJ) @ (GJ @ target - self._g[active])
        candidates = [(self._kkt(target, v, active), i, v) for i, v in enumerate((polished, clarabel))]
        residual, _, best = min(candidates)
        return best, residual

    def _kkt(self, target: np.ndarray, w: np.ndarray, active: np.ndarray) -> float:
        """``||max(G w - g, 0)|| + min_{lambda >= 0} ||target - w - G_J' lambda|| + ||lambda * slack_J||``."""
        from scipy.optimize import nnls

        slack = self._g - self._G @ w
        if not np.any(active):
            return float(np.linalg.norm(np.minimum(slack, 0.0)) + np.linalg.norm(target - w))
        lam, stationarity = nnls(self._G[active].T, target - w)
        return float(np.linalg.norm(np.minimum(slack, 0.0)) + stationarity + np.linalg.norm(lam * slack[active]))

    def _points(self, x) -> np.ndarray:
        arr = np.asarray(x, dtype=float)
        if arr.ndim == 0 or arr.shape[-1] != self.dim:
            raise InvalidParameterError("x", f"points whose last axis has length n = {self.dim}", f"shape {arr.shape}")
        return arr
