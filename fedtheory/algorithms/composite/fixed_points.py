"""Closed-form deterministic fixed points of the federated composite methods on quadratics.

Clients ``F_m(x) = x'A_m x/2 - b_m'x`` (a :class:`~fedtheory.problems.FederatedQuadratic`), exact gradients, full
participation, Euclidean ``h``. With ``T_m = I - eta_c A_m`` and ``P_m = sum_{j<K} T_m^j``, ``K`` local gradient steps
from ``x`` end at ``x - eta_c P_m (A_m x - b_m)``, so the mean client displacement is
``Delta(x) = -eta_c K (Hbar_K x - bbar_K)`` with

    ``Hbar_K = (1/(M K)) sum_m A_m P_m = (1/(M eta_c K)) sum_m (I - T_m^K)``,   ``bbar_K = (1/(M K)) sum_m P_m b_m``.

* FedAvg (Algorithm 4; and FedMiD, FedMiD-OSP, FedDualAvg, FedDualAvg-OSP with ``psi = 0``): the fixed point
  ``x_inf = Hbar_K^{-1} bbar_K = [sum_m (I - T_m^K)]^{-1} sum_m (I - T_m^K) x_m^*`` (:func:`fedavg_fixed_point`),
  whatever ``eta_s`` (when the run converges). FedDualAvg-OSP's dual iterate ignores ``psi`` and follows FedAvg, so it
  converges to the same point while the server primal is ``grad (h + eta_s eta_c r K psi)^*`` of it.
* FedMiD-OSP (Algorithm 7): the server step is ``x <- prox_{eta_s eta_c K psi}(x - eta_s eta_c K grad q_K(x))``, a
  proximal-gradient step on ``q_K(x) = x'Hbar_K x/2 - bbar_K'x``; its fixed points minimise ``q_K + psi``
  (:func:`fedmid_osp_surrogate`, :func:`fedmid_osp_fixed_point`), whatever ``eta_s``.
* FedDualAvg (Algorithm 6): the server dual grows without bound, but the *consistent dual state*
  ``y^{(r,0)} = grad h(x^*) - eta_s eta_c r K grad F(x^*)`` at a minimiser ``x^*`` of ``F + psi`` is mapped to the same
  family one round later, every retrieved primal being ``x^*`` (:func:`feddualavg_consistent_dual`); this holds for
  identical clients (any ``K``, any participation) and for ``K = 1`` with full participation, for any ``h``.
* FedMiD (client prox) and FedDualAvg with different clients and ``K > 1``: no closed form; their round maps (and any
  deterministic round map with soft-thresholding) are piecewise affine, and :func:`affine_fixed_point` finds a fixed
  point exactly on its final piece.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._validate import finite_array, positive, positive_int
from ...errors import InvalidParameterError
from ...problems import FederatedQuadratic, Problem
from .federated import CompositeParams, eta_tilde
from .mirror import MirrorMap


def _check_quadratic(problem) -> FederatedQuadratic:
    if not isinstance(problem, FederatedQuadratic):
        raise InvalidParameterError("problem", "a FederatedQuadratic (closed forms need quadratic clients)", problem)
    return problem


def _local_sums(problem: FederatedQuadratic, eta_c: float, K: int) -> np.ndarray:
    """``P_m = sum_{j<K} (I - eta_c A_m)^j`` for every client, shape (M, d, d) (Horner, one matmul per ``j``)."""
    eta_c, K = positive("eta_c", eta_c), positive_int("K", K)
    if eta_c * problem.L >= 2:
        raise InvalidParameterError("eta_c", f"eta_c < 2/L = {2 / problem.L:.6g} (local steps must contract)", eta_c)
    eye = np.eye(problem.dim)
    T = eye - eta_c * problem.A
    P = np.broadcast_to(eye, T.shape).copy()
    for _ in range(K - 1):
        P = eye + T @ P
    return P


def fedmid_osp_surrogate(problem, eta_c: float, K: int) -> FederatedQuadratic:
    """The homogeneous quadratic ``q_K(x) = x'Hbar_K x/2 - bbar_K'x`` whose composite minimiser is FedMiD-OSP's fixed
    point. ``Hbar_K -> mean_m A_m`` as ``eta_c -> 0``; for identical clients
    ``Hbar_K = (I - (I - eta_c A)^K)/(eta_c K)``. Needs ``eta_c < 2/L`` (then ``Hbar_K`` is positive semidefinite)."""
    problem = _check_quadratic(problem)
    P = _local_sums(problem, eta_c, K)
    H = np.einsum("mij,mjk->ik", problem.A, P) / (problem.A.shape[0] * K)
    b = np.einsum("mij,mj->i", P, problem.b) / (problem.A.shape[0] * K)
    return FederatedQuadratic(0.5 * (H + H.T), b)


def fedavg_fixed_point(problem, eta_c: float, K: int) -> np.ndarray:
    """``x_inf = [sum_m (I - T_m^K)]^{-1} sum_m (I - T_m^K) x_m^*``, computed as ``Hbar_K^{-1} bbar_K``
    (no client Hessian needs to be invertible).

    Raises
    ------
    InvalidParameterError
        If ``eta_c >= 2/L`` or ``Hbar_K`` is singular (no unique fixed point).
    """
    q = fedmid_osp_surrogate(problem, eta_c, K)
    if np.linalg.eigvalsh(q.A_mean)[0] <= 1e-14 * max(1.0, q.L):
        raise InvalidParameterError("problem", "a problem whose averaged K-step map has a unique fixed point", problem)
    return np.linalg.solve(q.A_mean, q.b_mean)


def fedmid_osp_fixed_point(
    problem, mirror: MirrorMap, eta_c: float, K: int, *, kkt_tol: float = 1e-12, max_polish: int = 100_000
):
    """FedMiD-OSP's deterministic fixed point ``argmin_x q_K(x) + psi(x)`` (Euclidean ``h``), certified.

    :func:`fedtheory.reference.composite_optimum` solves the surrogate with Clarabel (its own residual check relaxed
    to ``1e-3``: the point only seeds the polish); the point is then polished by proximal-gradient steps
    ``z <- T(z) = prox_{psi/L_q}(z - grad q_K(z)/L_q)`` until ``||z - T(z)||`` stops decreasing (at most
    ``max_polish`` steps). ``certificate["kkt_residual"]`` is recomputed there and must be at most
    ``kkt_tol max(1, ||z||)``. With ``K = 1`` the surrogate is ``F`` itself and the point is ``argmin F + psi``.

    Returns
    -------
    Reference

    Raises
    ------
    ReferenceSolveError
        If the polished residual exceeds ``kkt_tol max(1, ||z||)``.
    """
    from ...errors import ReferenceSolveError
    from ...reference import Reference, composite_optimum

    if not getattr(mirror, "euclidean", False):
        raise InvalidParameterError("mirror", "a Euclidean mirror map (the closed-form fixed point)", mirror)
    q = fedmid_osp_surrogate(problem, eta_c, K)
    if mirror.psi is None:
        x = fedavg_fixed_point(problem, eta_c, K)
        return Reference(x, float(q.value(x)), {"kkt_residual": float(np.linalg.norm(q.grad(x)))})
    ref = composite_optimum(q, mirror.psi, kkt_tol=1e-3)
    L = q.L

    def step(z):
        return mirror.psi.prox(z - q.grad(z) / L, 1.0 / L)

    z, steps = ref.x, 0
    res = float(np.linalg.norm(z - step(z)))
    while steps < positive_int("max_polish", max_polish, minimum=0):
        nxt = step(z)
        new_res = float(np.linalg.norm(nxt - step(nxt)))
        if new_res >= res:
            break
        z, res, steps = nxt, new_res, steps + 1
    if res > positive("kkt_tol", kkt_tol) * max(1.0, float(np.linalg.norm(z))):
        raise ReferenceSolveError(f"FedMiD-OSP fixed point not certified: residual {res:.2e} after {steps} steps")
    cert = dict(ref.certificate, kkt_residual=res, polish_steps=steps)
    return Reference(z, float(q.value(z) + mirror.psi_value(z)), cert, ref.solver)


def feddualavg_consistent_dual(problem, mirror: MirrorMap, x_star, params: CompositeParams, r: int) -> np.ndarray:
    """``y^{(r,0)} = grad h(x^*) - eta_s eta_c r K grad F(x^*)``, shape (d,).

    For a minimiser ``x^*`` of ``F + psi`` (the caller's responsibility, e.g. from
    :func:`fedtheory.reference.composite_optimum`), ``-grad F(x^*) in partial psi(x^*)`` makes every retrieved primal
    ``grad (h + eta~^{(r,k)} psi)^*(grad h(x^*) - eta~^{(r,k)} grad F(x^*))`` equal ``x^*``, so a deterministic
    FedDualAvg round maps ``y^{(r,0)}`` to ``y^{(r+1,0)}`` of the same form. Valid for identical clients, or
    ``K = 1`` with full participation.
    """
    if not isinstance(problem, Problem):
        raise InvalidParameterError("problem", "a Problem from fedtheory.problems", type(problem).__name__)
    if params.algorithm != "FedDualAvg":
        raise InvalidParameterError("params", "FedDualAvg parameters (the OSP variant has no such state)", params)
    if problem.n_clients is not None:
        if params.K > 1:
            raise InvalidParameterError("K", "K = 1 when clients differ (no closed form for K > 1)", params.K)
        if not params.full_participation:
            raise InvalidParameterError("clients_per_round", "full participation when clients differ", params)
    x_star = finite_array("x_star", mirror.check_primal("x_star", x_star), ndim=1)
    return mirror.grad_h(x_star) - eta_tilde(params, positive_int("r", r, minimum=0), 0) * problem.grad(x_star)


@dataclass(frozen=True)
class AffineFixedPoint:
    """A fixed point of a piecewise-affine map found by :func:`affine_fixed_point`.

    Attributes
    ----------
    x : ndarray
        The fixed point.
    residual : float
        ``||T(x) - x||_inf / max(1, ||x||_inf)``.
    iterations : int
        Plain iterations of ``T`` before the solve that succeeded.
    jacobian : ndarray
        ``J`` of the affine piece at ``x`` (finite differences; exact up to rounding on the piece).
    spectral_radius : float
        ``rho(J)``: the fixed point attracts nearby iterates on its piece when it is below 1.
    """

    x: np.ndarray
    residual: float
    iterations: int
    jacobian: np.ndarray
    spectral_radius: float


def _jacobian(step, s: np.ndarray, h: float) -> np.ndarray:
    base = step(s)
    cols = [(step(s + h * e) - base) / h for e in np.eye(s.size)]
    return np.stack(cols, axis=1)


def affine_fixed_point(
    step, s0, *, iterations: int = 100_000, tol: float = 1e-13, h: float = 1e-6, newton: int = 8
) -> AffineFixedPoint:
    """A fixed point ``x = T(x)`` of a piecewise-affine map ``T`` (a deterministic round map with soft-thresholding),
    exact to rounding.

    Iterate ``T`` from ``s0``; at checkpoints (after 10, 40, 160, ... iterations) take the affine piece at the
    current point, ``T(y) = J y + c`` (``J`` by finite differences of size ``h max(1, ||s||)``, ``c = T(s) - J s``),
    and refine ``x <- x - (I - J)^{-1} (x - T(x))`` (Newton on the piece; a few steps absorb the finite-difference
    error of ``J``). Accept when ``||T(x) - x||_inf <= tol max(1, ||x||_inf)``: then ``x`` is a fixed point of ``T``
    itself, whichever piece it lies on.

    Parameters
    ----------
    step : callable
        ``T``, mapping a flat float vector to one of the same length.
    s0 : array (k,)
        Start.
    iterations : int
        Most plain iterations in all.
    tol : float
        Accepted relative residual.
    h : float
        Relative finite-difference step (points closer than this to a kink of ``T`` need more iterations).
    newton : int
        Newton steps per attempt.

    Raises
    ------
    InvalidParameterError
        If no fixed point is certified within ``iterations`` (the iterates diverge, cycle, or converge too slowly),
        or the fixed point found is not isolated (``I - J`` singular: a conserved quantity of ``T`` makes a
        continuum of fixed points, and one of them would be returned arbitrarily).
    """
    s = finite_array("s0", s0, ndim=1).copy()
    iterations = positive_int("iterations", iterations)
    tol, h = positive("tol", tol), positive("h", h)
    done, checkpoint = 0, 10
    while True:
        while done < min(checkpoint, iterations):
            s = np.asarray(step(s), dtype=float)
            done += 1
        if not np.all(np.isfinite(s)):
            break
        scale = max(1.0, float(np.max(np.abs(s))))
        J = _jacobian(step, s, h * scale)
        solve = np.eye(s.size) - J
        x = s
        with np.errstate(all="ignore"):
            for _ in range(newton):
                try:
                    x = x - np.linalg.solve(solve, x - step(x))
                except np.linalg.LinAlgError:
                    break
        if np.all(np.isfinite(x)):
            residual = float(np.max(np.abs(step(x) - x)) / max(1.0, float(np.max(np.abs(x)))))
            if residual <= tol:
                if np.linalg.svd(solve, compute_uv=False)[-1] <= 1e-7:
                    raise InvalidParameterError(
                        "step",
                        "a map whose fixed point is isolated (I - J is singular here: write the map on coordinates "
                        "that eliminate its conserved quantities)",
                        f"smallest singular value of I - J {np.linalg.svd(solve, compute_uv=False)[-1]:.1e}",
                    )
                rho = float(np.max(np.abs(np.linalg.eigvals(J)))) if s.size else 0.0
                return AffineFixedPoint(x, residual, done, J, rho)
        if done >= iterations:
            break
        checkpoint *= 4
    raise InvalidParameterError(
        "iterations", f"enough iterations to certify a fixed point (none within {iterations}, tol {tol:.0e})", done
    )
