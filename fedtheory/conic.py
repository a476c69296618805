"""A certificate of a conic solve computed by fedtheory from the solver's returned vectors.

Clarabel solves the standard form (CVXPY's ``get_problem_data``)

    ``min 1/2 x'P x + q'x   s.t.   A x + s = b,  s in K``,   dual   ``P x + q + A'z = 0,  z in K*``,

and returns ``x``, ``s`` and ``z`` whatever its status. :func:`kkt_certificate` recomputes, in numpy and without
trusting the solver's own summary, the three numbers that make ``(x, s, z)`` an approximate primal-dual optimum:

* ``primal_residual = (||A x + s - b||_inf + dist(s, K)) / (1 + max(||A x||_inf, ||s||_inf, ||b||_inf))``;
* ``dual_residual = (||P x + q + A'z||_inf + dist(z, K*)) / (1 + max(||P x||_inf, ||A'z||_inf, ||q||_inf))``;
* ``duality_gap = |x'P x + q'x + b'z|`` (primal minus dual objective), to be compared with
  ``gap_tol max(1, |primal objective|)``.

The scaling is Clarabel's own termination test (its documentation, "Termination criteria"), with the cone distances
added: a point with small residuals whose ``s`` or ``z`` has left the cone is not certified. Distances are exact for
the zero, nonnegative, second-order and PSD (scaled triangle) cones; for exponential and power cones no projection is
computed and the certificate says so (``cone_distance_exact = False``), so it never accepts a solve on those cones by
itself.
"""

from __future__ import annotations

import numpy as np


def _soc_distance(v: np.ndarray) -> float:
    """Euclidean distance from ``v = (t, u)`` to the second-order cone ``||u|| <= t`` (self-dual)."""
    t, norm_u = float(v[0]), float(np.linalg.norm(v[1:]))
    if norm_u <= t:
        return 0.0
    if norm_u <= -t:
        return float(np.hypot(t, norm_u))
    return (norm_u - t) / np.sqrt(2.0)


def _psd_distance(v: np.ndarray) -> float:
    """Distance from a scaled upper triangle (column-major, off-diagonals times sqrt 2) to the PSD cone."""
    n = round((np.sqrt(8 * v.size + 1) - 1) / 2)
    cols, rows = np.tril_indices(n)  # column-major upper triangle: column c holds rows 0..c
    M = np.zeros((n, n))
    scale = np.where(rows == cols, 1.0, 1.0 / np.sqrt(2.0))
    M[rows, cols] = v * scale
    M[cols, rows] = v * scale
    lam = np.linalg.eigvalsh(M)
    return float(np.linalg.norm(np.minimum(lam, 0.0)))


def cone_distances(dims, v: np.ndarray) -> tuple[float, bool]:
    """``dist(v, K)`` for CVXPY's cone dimensions ``dims`` in Clarabel's order (zero, nonneg, SOC, PSD, exp, power).

    The cones used here are self-dual except the zero cone (dual: everything) and the exponential and power cones.
    Returns the distance for ``K`` and whether it is exact (``False`` when ``K`` has exponential or power cones, whose
    part is then left out).
    """
    return _distances(dims, v, dual=False)


def dual_cone_distances(dims, v: np.ndarray) -> tuple[float, bool]:
    """``dist(v, K*)`` (see :func:`cone_distances`)."""
    return _distances(dims, v, dual=True)


def _distances(dims, v: np.ndarray, *, dual: bool) -> tuple[float, bool]:
    parts, start = [], 0
    zero = int(dims.zero)
    if not dual:
        parts.append(float(np.linalg.norm(v[:zero])))
    start += zero
    nonneg = int(dims.nonneg)
    parts.append(float(np.linalg.norm(np.minimum(v[start : start + nonneg], 0.0))))
    start += nonneg
    for n in dims.soc:
        parts.append(_soc_distance(v[start : start + n]))
        start += n
    for n in dims.psd:
        size = n * (n + 1) // 2
        parts.append(_psd_distance(v[start : start + size]))
        start += size
    exact = int(dims.exp) == 0 and not list(dims.p3d) and not list(getattr(dims, "pnd", []))
    return float(np.linalg.norm(parts)), exact


def kkt_certificate(data: dict, x: np.ndarray, s: np.ndarray, z: np.ndarray) -> dict:
    """Residuals and gap of ``(x, s, z)`` for the conic problem ``data`` (module docstring).

    Parameters
    ----------
    data : dict
        CVXPY's problem data for Clarabel: ``P`` (optional), ``q`` (``c``), ``A``, ``b`` and ``dims``.
    x, s, z : ndarray
        The solver's primal point, slack and dual point.

    Returns
    -------
    dict
        ``primal_residual``, ``dual_residual``, ``duality_gap``, ``primal_objective`` and ``cone_distance_exact``.
    """
    A, b, q = data["A"], np.asarray(data["b"], dtype=float), np.asarray(data["c"], dtype=float)
    P = data.get("P")
    x, s, z = (np.asarray(v, dtype=float) for v in (x, s, z))
    Px = P @ x if P is not None else np.zeros_like(x)
    Ax, ATz = A @ x, A.T @ z
    dist_s, exact_s = cone_distances(data["dims"], s)
    dist_z, exact_z = dual_cone_distances(data["dims"], z)

    def inf_norm(*vs):
        return max((float(np.max(np.abs(v), initial=0.0)) for v in vs), default=0.0)

    primal = (inf_norm(Ax + s - b) + dist_s) / (1.0 + inf_norm(Ax, s, b))
    dual = (inf_norm(Px + q + ATz) + dist_z) / (1.0 + inf_norm(Px, ATz, q))
    primal_obj = 0.5 * float(x @ Px) + float(q @ x)
    return {
        "primal_residual": float(primal),
        "dual_residual": float(dual),
        "duality_gap": abs(float(x @ Px) + float(q @ x) + float(b @ z)),
        "primal_objective": primal_obj,
        "cone_distance_exact": bool(exact_s and exact_z),
    }
