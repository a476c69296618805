"""Exact heterogeneity constants of federated problems whose client gradients are affine (quadratic clients).

Bounded gradient dissimilarity in the form ``||grad f_i(x)||^2 <= G^2 + B^2 ||grad f(x)||^2`` for all ``x`` (e.g. the
heterogeneity assumption of decentralized local-SGD analyses) has, for a given ``B^2``, a smallest ``G^2``. With client
gradients ``grad f_i(x) = A_i x - b_i`` (``f_i = x'A_i x/2 - b_i'x`` for symmetric ``A_i``) and ``grad f(x) = Abar x -
bbar`` (the client average), the excess of client ``i``,

    e_i(x) = ||A_i x - b_i||^2 - B^2 ||Abar x - bbar||^2 = -x'Q_i x + 2 q_i'x + r_i,
    Q_i = B^2 Abar'Abar - A_i'A_i,   q_i = B^2 Abar'bbar - A_i'b_i,   r_i = ||b_i||^2 - B^2 ||bbar||^2,

is a concave quadratic exactly when ``Q_i`` is positive semidefinite; its supremum is finite iff moreover ``q_i`` lies
in the range of ``Q_i``, and then it is ``q_i'Q_i^+ q_i + r_i``, attained at ``x = Q_i^+ q_i``. Two readings:

* ``"per-client"``: ``G^2(B^2) = max_i sup_x e_i(x)`` (the inequality for every client at every point);
* ``"client-averaged"``: ``G^2(B^2) = sup_x (1/m) sum_i e_i(x)`` (the client average at a common point), the same
  closed form with ``A_i'A_i``, ``A_i'b_i`` and ``||b_i||^2`` averaged over clients.

:func:`smallest_B2` is the infimum of the feasible ``B^2`` (a generalized eigenvalue); above it ``G^2(B^2)`` is finite
and decreasing, and it usually blows up as ``B^2`` comes down to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import finite_array
from .errors import InvalidParameterError

READINGS = ("per-client", "client-averaged")
"""How the dissimilarity inequality is read: for every client (``max_i``) or on the client average."""

_EIG_TOL = 1e-12
"""Eigenvalues of ``Q`` below this fraction of its scale count as zero (eigh's rounding is about 1e-16 d)."""


@dataclass(frozen=True)
class Dissimilarity:
    """The smallest ``G^2`` for a given ``B^2``, and where it is attained.

    Attributes
    ----------
    B2, G2 : float
        The pair: ``||grad f_i(x)||^2 <= G2 + B2 ||grad f(x)||^2`` for all ``x`` (in the given reading), with equality
        at ``maximiser`` (for client ``client`` in the per-client reading).
    reading : str
        One of :data:`READINGS`.
    maximiser : array (d,)
        A point where the supremum is attained (the minimum-norm one).
    client : int or None
        The client attaining the maximum (per-client reading); ``None`` for the client-averaged reading.
    per_client : array (m,) or None
        ``sup_x e_i(x)`` of every client (per-client reading).
    """

    B2: float
    G2: float
    reading: str
    maximiser: np.ndarray
    client: int | None
    per_client: np.ndarray | None


def _affine(A, b) -> tuple[np.ndarray, np.ndarray]:
    A = finite_array("A", A, ndim=3)
    b = finite_array("b", b, ndim=2)
    m, d = A.shape[0], A.shape[-1]
    if A.shape != (m, d, d):
        raise InvalidParameterError("A", "square client matrices of shape (m, d, d)", f"shape {A.shape}")
    if b.shape != (m, d):
        raise InvalidParameterError("b", f"one vector per client, shape ({m}, {d})", f"shape {b.shape}")
    return A, b


def _check_reading(reading: str) -> str:
    if reading not in READINGS:
        raise InvalidParameterError("reading", f"one of {', '.join(READINGS)}", reading)
    return reading


def _moments(A: np.ndarray, b: np.ndarray, reading: str) -> tuple:
    """``Abar'Abar``, ``Abar'bbar``, ``||bbar||^2`` and the client terms ``A_i'A_i``, ``A_i'b_i``, ``||b_i||^2`` (one
    row per client, or their average as a single row for the client-averaged reading)."""
    Abar, bbar = A.mean(axis=0), b.mean(axis=0)
    H, g, c = Abar.T @ Abar, Abar.T @ bbar, float(bbar @ bbar)
    Hi = np.einsum("mki,mkj->mij", A, A)
    gi = np.einsum("mki,mk->mi", A, b)
    ci = np.einsum("mi,mi->m", b, b)
    if reading == "client-averaged":
        Hi, gi, ci = Hi.mean(axis=0, keepdims=True), gi.mean(axis=0, keepdims=True), ci.mean(keepdims=True)
    return H, g, c, Hi, gi, ci


def _suprema(H, g, c, Hi, gi, ci, B2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sup_x e(x)`` for every ``B^2`` (axis 0) and client row (axis 1), ``inf`` where unbounded, and the
    minimum-norm maximisers ``(n_B, rows, d)`` (NaN where unbounded)."""
    Q = B2[:, None, None, None] * H - Hi[None]
    q = B2[:, None, None] * g - gi[None]
    r = ci[None] - B2[:, None] * c
    lam, U = np.linalg.eigh(Q)
    scale = B2[:, None, None] * np.linalg.norm(H, 2) + np.linalg.norm(Hi, 2, axis=(-2, -1))[None, :, None]
    q_scale = B2[:, None, None] * np.linalg.norm(g) + np.linalg.norm(gi, axis=-1)[None, :, None]
    coef = np.einsum("brji,brj->bri", U, q)  # q in the eigenbasis of Q
    zero = np.abs(lam) <= _EIG_TOL * scale
    unbounded = np.any(lam < -_EIG_TOL * scale, axis=-1) | np.any(
        zero & (np.abs(coef) > np.sqrt(_EIG_TOL) * (q_scale + 1e-300)), axis=-1
    )
    inv = np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, lam))
    value = np.sum(coef**2 * inv, axis=-1) + r
    x = np.einsum("brij,brj->bri", U, coef * inv)
    return np.where(unbounded, np.inf, value), np.where(unbounded[..., None], np.nan, x)


def dissimilarity_curve(A, b, B2, *, reading: str = "per-client") -> np.ndarray:
    """The smallest ``G^2`` for each ``B^2`` of the array ``B2`` (``inf`` where no finite ``G^2`` exists).

    Parameters
    ----------
    A : array (m, d, d)
        Client gradient matrices (the Hessians of quadratic clients).
    b : array (m, d)
        Client offsets: ``grad f_i(x) = A_i x - b_i``.
    B2 : array of float
        Values of ``B^2 >= 0``.
    reading : str
        One of :data:`READINGS`.
    """
    A, b = _affine(A, b)
    B2 = finite_array("B2", B2)
    if np.any(B2 < 0):
        raise InvalidParameterError("B2", "values B^2 >= 0", B2)
    values, _ = _suprema(*_moments(A, b, _check_reading(reading)), B2.ravel())
    return values.max(axis=1).reshape(B2.shape)


def dissimilarity(A, b, B2: float, *, reading: str = "per-client") -> Dissimilarity:
    """The smallest ``G^2`` with ``||grad f_i(x)||^2 <= G^2 + B2 ||grad f(x)||^2`` for all ``x`` (module docstring),
    with the point (and client) attaining it.

    Raises
    ------
    InvalidParameterError
        If no finite ``G^2`` exists for this ``B2`` (it is below :func:`smallest_B2`, or at it with linear terms
        outside the range): the error names ``B2``.
    """
    A, b = _affine(A, b)
    reading = _check_reading(reading)
    if not np.isscalar(B2) or not np.isfinite(B2) or B2 < 0:
        raise InvalidParameterError("B2", "a number B^2 >= 0", B2)
    values, maximisers = _suprema(*_moments(A, b, reading), np.array([float(B2)]))
    values, maximisers = values[0], maximisers[0]
    if not np.all(np.isfinite(values)):
        B2_min = smallest_B2(A, b, reading=reading)
        raise InvalidParameterError(
            "B2", f"a B^2 with a finite G^2 ({reading} reading: B^2 > {B2_min:.6g}, the smallest feasible value)", B2
        )
    i = int(np.argmax(values))
    per_client = values if reading == "per-client" else None
    client = i if reading == "per-client" else None
    return Dissimilarity(float(B2), float(values[i]), reading, maximisers[i], client, per_client)


def smallest_B2(A, b, *, reading: str = "per-client") -> float:
    """The infimum of the ``B^2`` with a finite ``G^2``: ``max_i lambda_max(A_i'A_i, Abar'Abar)`` (the largest
    generalized eigenvalue on the range of ``Abar``) per client, or that of the client average of ``A_i'A_i``.

    Every larger ``B^2`` has a finite ``G^2``; the infimum itself does when the linear terms allow it (identical
    clients: ``B^2 = 1`` with ``G^2 = 0``).

    Raises
    ------
    InvalidParameterError
        If no ``B^2`` works: some client (or the average) has ``A_i v != 0`` for a ``v`` with ``Abar v = 0``.
    """
    A, b = _affine(A, b)
    H, _, _, Hi, _, _ = _moments(A, b, _check_reading(reading))
    h, U = np.linalg.eigh(H)
    keep = h > _EIG_TOL * max(float(h[-1]), 1e-300)
    R, N = U[:, keep], U[:, ~keep]
    if N.size and np.any(np.linalg.norm(Hi @ N, axis=(-2, -1)) > _EIG_TOL * np.linalg.norm(Hi, 2, axis=(-2, -1))):
        raise InvalidParameterError(
            "A", "client matrices that vanish on the null space of their average (otherwise no B works)", reading
        )
    if not R.size:
        return 0.0
    whiten = R / np.sqrt(h[keep])  # R S^{-1/2}
    pencil = np.einsum("ki,mkl,lj->mij", whiten, Hi, whiten)
    return float(np.max(np.linalg.eigvalsh(pencil)[:, -1]))
