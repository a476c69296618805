"""Certified optimum of ``min sum_i f_i(x_i)`` subject to ``||x_i - z||^2 <= gamma_i`` (convex quadratic ``f_i``).

:func:`tolerance_constrained_optimum` solves the problem with CVXPY and Clarabel (:func:`fedtheory.reference.solve`:
pinned solver, tight tolerances, a conic certificate recomputed by fedtheory), reads the constraint duals as the
multipliers ``lam_i``, then polishes the point on the active set the solver found (Newton on the KKT equations in
``(z, lam_free)``, the local models in closed form) and recomputes the KKT certificate of the problem itself:

* stationarity ``A_i(x_i - b_i) + 2 lam_i (x_i - z) = 0`` and ``sum_i lam_i (x_i - z) = 0``;
* feasibility ``||x_i - z||^2 <= gamma_i``, ``lam_i >= 0`` and complementary slackness ``lam_i (||x_i - z||^2 -
  gamma_i) = 0``, together ``lam_i = P_[0, inf)(lam_i + g_i)``.

With a multiplier box ``[lam_min, lam_max]`` it solves the saddle problem ``min_{x,z} max_{lam in box} sum_i f_i +
lam_i g_i = min sum_i f_i + max(lam_min g_i, lam_max g_i)`` (``g_i = ||x_i - z||^2 - gamma_i``), certified by the same
stationarity and ``lam_i = P_box(lam_i + g_i)``. A point whose certificate exceeds ``kkt_tol`` is refused
(:class:`~fedtheory.errors.ReferenceSolveError`). ``f_i(x) = (x - b_i)'A_i(x - b_i)/2`` (``b_i`` the minimiser).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

from .errors import InvalidParameterError, ReferenceSolveError
from .reference import solve, solver_version


@dataclass(frozen=True)
class ConstrainedReference:
    """A certified optimum: server model ``z`` ``(d,)``, local models ``x`` ``(N, d)``, multipliers ``lam``
    ``(N,)``, the value ``sum_i f_i(x_i)``, the certificate (Clarabel's and fedtheory's KKT residuals) and the
    solver's name and version."""

    z: np.ndarray
    x: np.ndarray
    lam: np.ndarray
    value: float
    certificate: dict = field(default_factory=dict)
    solver: str = ""


def _local(A, b, z, lam) -> np.ndarray:
    """``argmin_x f_i(x) + lam_i ||x - z||^2 = (A_i + 2 lam_i I)^{-1}(A_i b_i + 2 lam_i z)``."""
    H = A + 2 * lam[:, None, None] * np.eye(A.shape[-1])
    return np.linalg.solve(H, (np.einsum("nij,nj->ni", A, b) + 2 * lam[:, None] * z)[..., None])[..., 0]


def kkt_residuals(A, b, gamma, z, x, lam, lam_box=(0.0, np.inf)) -> dict:
    """The KKT certificate of ``(z, x, lam)`` for the constrained (or box-saddle) problem, each residual scaled.

    ``stationarity``: ``max_i ||A_i(x_i - b_i) + 2 lam_i(x_i - z)||`` over ``max(1, max_i ||A_i(x_i - b_i)||)``;
    ``server``: ``||sum_i lam_i (x_i - z)||`` over ``max(1, sum_i lam_i ||x_i - z||)``; ``projection``: ``max_i |lam_i
    - P_box(lam_i + g_i)|`` over ``max(1, max gamma, max lam)`` (feasibility, the box and complementary slackness
    together); ``complementary_slackness``: ``max_i |lam_i g_i|`` (same scale; for the box ``[0, inf)``).
    ``kkt_residual`` is the largest of the first three.
    """
    A, b, gamma = np.asarray(A, float), np.asarray(b, float), np.asarray(gamma, float)
    grad = np.einsum("nij,nj->ni", A, x - b)
    diff = x - z
    g = np.sum(diff**2, axis=-1) - gamma
    stat = np.max(np.linalg.norm(grad + 2 * lam[:, None] * diff, axis=-1)) / max(
        1.0, float(np.max(np.linalg.norm(grad, axis=-1)))
    )
    server = np.linalg.norm(lam @ diff) / max(1.0, float(lam @ np.linalg.norm(diff, axis=-1)))
    scale = max(1.0, float(np.max(gamma)), float(np.max(lam)))
    proj = np.max(np.abs(lam - np.clip(lam + g, *lam_box))) / scale
    out = {
        "stationarity": float(stat),
        "server": float(server),
        "projection": float(proj),
        "complementary_slackness": float(np.max(np.abs(lam * g)) / scale),
        "max_violation": float(max(0.0, np.max(g))),
    }
    out["kkt_residual"] = max(out["stationarity"], out["server"], out["projection"])
    return out


def _polish(A, b, gamma, z, lam, free) -> tuple[np.ndarray, np.ndarray]:
    """Newton (MINPACK's hybrid method) on ``sum lam_i(x_i(z) - z) = 0`` and ``g_j = 0`` for the free ``j``."""
    if not np.any(lam > 0):
        return z, lam  # no multiplier mass: z is any point of the intersection of the balls; keep the solver's
    d = z.size

    def equations(v):
        zz, ll = v[:d], lam.copy()
        ll[free] = v[d:]
        diff = _local(A, b, zz, ll) - zz
        return np.concatenate([ll @ diff, np.sum(diff[free] ** 2, axis=-1) - gamma[free]])

    sol = optimize.root(equations, np.concatenate([z, lam[free]]), method="hybr", options={"xtol": 1e-15})
    out = lam.copy()
    out[free] = sol.x[d:]
    return sol.x[:d], out


def tolerance_constrained_optimum(
    A, b, gamma, *, lam_box: tuple[float, float] | None = None, gap_tol: float = 1e-8, kkt_tol: float = 1e-9
) -> ConstrainedReference:
    """Certified solution of ``min sum_i (x_i - b_i)'A_i(x_i - b_i)/2`` s.t. ``||x_i - z||^2 <= gamma_i``.

    Parameters
    ----------
    A : array (N, d, d)
        Symmetric positive definite curvatures.
    b : array (N, d)
        Device minimisers.
    gamma : array (N,)
        Tolerances ``>= 0``.
    lam_box : (float, float), optional
        ``(lam_min, lam_max)`` with ``0 <= lam_min <= lam_max < inf``: solve the box-saddle problem instead.
    gap_tol : float
        Clarabel's certificate (:func:`fedtheory.reference.solve`).
    kkt_tol : float
        Largest accepted ``kkt_residual`` (:func:`kkt_residuals`) after polishing.

    Returns
    -------
    ConstrainedReference
        ``certificate`` holds Clarabel's numbers, fedtheory's residuals at Clarabel's point (``*_clarabel``) and at
        the returned point, and the number of free multipliers (``active``).

    Raises
    ------
    ReferenceSolveError
        If Clarabel fails or the polished point is not certified to ``kkt_tol``.
    """
    import cvxpy as cp  # imported where the problem is built (about 1 s)

    A, b = np.asarray(A, dtype=float), np.asarray(b, dtype=float)
    N, d = b.shape
    gamma = np.broadcast_to(np.asarray(gamma, dtype=float), (N,)).copy()
    if A.shape != (N, d, d) or np.any(np.linalg.eigvalsh(A)[:, 0] <= 0):
        raise InvalidParameterError("A", f"(N, d, d) = ({N}, {d}, {d}) symmetric positive definite matrices", A.shape)
    if np.any(gamma < 0):
        raise InvalidParameterError("gamma", "tolerances >= 0", gamma)
    box = (0.0, np.inf) if lam_box is None else tuple(float(v) for v in lam_box)
    if not (0 <= box[0] <= box[1]) or (lam_box is not None and not np.isfinite(box[1])):
        raise InvalidParameterError("lam_box", "(lam_min, lam_max) with 0 <= lam_min <= lam_max < inf", lam_box)
    x, z = cp.Variable((N, d)), cp.Variable(d)
    value = sum(0.5 * cp.quad_form(x[i] - b[i], cp.psd_wrap(A[i])) for i in range(N))
    if lam_box is None:
        cons = [cp.sum_squares(x[i] - z) <= gamma[i] for i in range(N)]
        problem = cp.Problem(cp.Minimize(value), cons)
    else:  # epigraph s_i >= ||x_i - z||^2: its dual is the multiplier in the box
        s = cp.Variable(N)
        cons = [cp.sum_squares(x[i] - z) <= s[i] for i in range(N)]
        penalty = cp.sum(cp.maximum(box[0] * (s - gamma), box[1] * (s - gamma)))
        problem = cp.Problem(cp.Minimize(value + penalty), cons)
    cert = solve(problem, gap_tol=gap_tol)
    lam = np.array([float(np.ravel(c.dual_value)[0]) for c in cons])
    zc, xc = np.asarray(z.value, dtype=float), np.asarray(x.value, dtype=float)
    for key, v in kkt_residuals(A, b, gamma, zc, xc, lam, box).items():
        cert[f"{key}_clarabel"] = v
    rel = 1e-6 * max(1.0, float(np.max(lam)))
    free = (lam > box[0] + rel) & (lam < box[1] - rel)
    fixed = np.where(lam <= box[0] + rel, box[0], box[1])
    lam = np.where(free, lam, fixed)
    zp, lp = _polish(A, b, gamma, zc, lam, free)
    xp = _local(A, b, zp, lp) if np.any(lp > 0) else b.copy()
    residuals = kkt_residuals(A, b, gamma, zp, xp, lp, box)
    cert.update(residuals, active=int(free.sum()))
    if residuals["kkt_residual"] > kkt_tol:
        raise ReferenceSolveError(
            f"constrained optimum not certified: KKT residual {residuals['kkt_residual']:.2e} > {kkt_tol:.1e} "
            f"(Clarabel's point: {cert['kkt_residual_clarabel']:.2e})"
        )
    fval = float(0.5 * np.einsum("ni,nij,nj->", xp - b, A, xp - b))
    return ConstrainedReference(zp, xp, lp, fval, cert, solver_version())
