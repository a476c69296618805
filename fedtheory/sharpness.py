"""Weak sharpness of solution sets: exact constants and a scan that decides which orders are admissible.

The StR-FedAvg paper (Notation paragraph) calls the solution
set ``X*_h`` of ``min h`` *alpha-weak sharp of order kappa >= 1* if

    ``h(x) - h* >= alpha dist(x, X*_h)^kappa``   for all ``x``.

Exact constants:

- :func:`least_squares_sharpness` -- ``h = (1/(2N)) ||U y - v||^2``: ``kappa = 2`` with
  ``alpha_2 = sigma_r(U)^2/(2N)``, attained along the right singular vector ``v_r``; no ``alpha > 0`` for any
  other ``kappa``.
- :func:`residual_norm_sharpness` -- ``h = ||U x - v||_p``, ``v`` in ``range(U)``: ``kappa = 1`` with
  ``alpha = sigma_r(U)`` for ``p = 2`` and ``alpha = min_{d in row(U), ||d|| = 1} ||U d||_1`` for ``p = 1``,
  computed exactly by enumerating the ``binom(m, r - 1)`` candidate directions.

Empirical constants: :func:`sharpness_scan` samples ``h`` along normal rays
``x = Pi(x0) + s d`` (on which ``dist(x, X*) = s`` exactly) and reports, per ``kappa``, the ratio
``rho_kappa(s) = min_d (h(x) - h*)/s^kappa`` and whether it vanishes at the small or the large end of the radii;
:func:`empirical_sharpness` is the minimum ratio over given points.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ._validate import finite_array, generator, positive, positive_int
from .errors import InvalidParameterError
from .problems.solution_sets import AffineSolutionSet
from .rounding import gamma

DEFAULT_KAPPAS = (1.0, 1.5, 2.0, 3.0)
DEFAULT_RADII = np.logspace(-6, 3, 37)  # 10^[-6, 3], four radii per decade


@dataclass(frozen=True)
class LeastSquaresSharpness:
    """Exact weak-sharpness constants of ``h(y) = (1/(2N)) ||U y - v||^2``.

    With ``d = y - Pi(y)`` in ``row(U)``, ``h(y) - h* = (1/(2N)) ||U d||^2``, so

        ``alpha_2 dist^2 <= h(y) - h* <= beta dist^2``,   ``alpha_2 = sigma_r^2/(2N)``, ``beta = sigma_1^2/(2N)``,

    with equality on the left along ``y = Pi(y) + s v_r``.

    Attributes
    ----------
    alpha : float
        ``alpha_2 = sigma_r(U)^2/(2N)``, the largest admissible constant for ``kappa = 2``.
    beta : float
        ``sigma_1(U)^2/(2N)``, the quadratic upper constant.
    direction : ndarray (n,)
        ``v_r``, the unit right singular vector of ``sigma_r``: a normal direction attaining ``alpha``.
    singular_values : ndarray (r,)
        The nonzero singular values of ``U``.
    N : int
        The ``N`` of ``1/(2N)``.
    """

    alpha: float
    beta: float
    direction: np.ndarray
    singular_values: np.ndarray
    N: int

    def sup_alpha(self, kappa) -> np.ndarray:
        """The largest ``alpha`` with ``h - h* >= alpha dist^kappa`` on all of ``R^n``: ``alpha_2`` at
        ``kappa = 2``, ``0`` otherwise (see :meth:`reason`)."""
        kappa = _kappas("kappa", kappa)
        return np.where(kappa == 2.0, self.alpha, 0.0)

    def reason(self, kappa: float) -> str:
        """Why :meth:`sup_alpha` is what it is at ``kappa``."""
        kappa = float(_kappas("kappa", kappa)[0])
        ratio = "(h - h*)/dist^kappa = (1/(2N)) ||U d||^2 dist^(2 - kappa) along a unit normal d"
        if kappa < 2.0:
            return f"{ratio}, which tends to 0 as dist -> 0 for kappa = {kappa:g} < 2: no alpha > 0"
        if kappa > 2.0:
            return f"{ratio}, which tends to 0 as dist -> inf for kappa = {kappa:g} > 2: no alpha > 0"
        return "(h - h*)/dist^2 = (1/(2N)) ||U d||^2 >= sigma_r^2/(2N), with equality at d = v_r"

    def ray_ratio(self, kappa: float, s) -> np.ndarray:
        """``min_d (h(Pi y + s d) - h*)/s^kappa = alpha_2 s^(2 - kappa)`` over unit normals ``d`` in ``row(U)``:
        the exact counterpart of :attr:`SharpnessScan.rho`."""
        kappa = float(_kappas("kappa", kappa)[0])
        s = finite_array("s", s)
        if np.any(s <= 0):
            raise InvalidParameterError("s", "radii > 0", s)
        return self.alpha * s ** (2.0 - kappa)


def least_squares_sharpness(U, N: int) -> LeastSquaresSharpness:
    """Exact weak-sharpness constants of ``h(y) = (1/(2N)) ||U y - v||^2``; they do not depend on
    ``v``.

    Parameters
    ----------
    U : array (m, n)
        Stacked design, any rank ``r >= 1`` (``U = 0`` makes ``X* = R^n``, where sharpness is vacuous).
    N : int
        Number of clients, the ``N`` in ``1/(2N)``.
    """
    sol = _solution_set(U)
    N = positive_int("N", N)
    sigma = sol.singular_values
    return LeastSquaresSharpness(
        alpha=float(sigma[-1] ** 2 / (2 * N)),
        beta=float(sigma[0] ** 2 / (2 * N)),
        direction=sol.row_basis[:, -1].copy(),
        singular_values=sigma.copy(),
        N=N,
    )


@dataclass(frozen=True)
class ResidualNormSharpness:
    """Weak sharpness of order ``kappa = 1`` of ``h(x) = ||U x - v||_p`` with ``v`` in ``range(U)``.

    With ``d = x - Pi(x)`` in ``row(U)`` (``Pi`` the Euclidean projection onto ``X* = U^+ v + null(U)``),
    ``h(x) - h* = ||U d||_p``, so the largest ``alpha`` is ``min_{d in row(U), ||d|| = 1} ||U d||_p``.

    Attributes
    ----------
    p : int
        1 or 2.
    alpha : float
        A certified admissible constant: the exact minimum when ``exact``, else the lower bound ``sigma_r``.
    alpha_upper : float
        ``||U direction||_p``, attained, so no constant above it is admissible.
    exact : bool
        Whether ``alpha`` is the minimum (``alpha == alpha_upper``).
    direction : ndarray (n,)
        A unit vector of ``row(U)`` attaining ``alpha_upper``.
    sigma_r : float
        ``sigma_r(U)``, a lower bound for both ``p`` (``||U d||_1 >= ||U d||_2 >= sigma_r ||d||``).
    method : str
        How ``alpha`` was obtained.
    kappa : float
        The order, 1.
    """

    p: int
    alpha: float
    alpha_upper: float
    exact: bool
    direction: np.ndarray
    sigma_r: float
    method: str
    kappa: float = 1.0


def residual_norm_sharpness(
    U, p: int, *, max_subsets: int = 100_000, rng: np.random.Generator | None = None
) -> ResidualNormSharpness:
    """``alpha = min_{d in row(U), ||d|| = 1} ||U d||_p`` for ``h = ||U x - v||_p``, ``kappa = 1``.

    ``p = 2``: ``alpha = sigma_r(U)``, attained at ``v_r``.

    ``p = 1``: write ``d = V_r c`` (``V_r`` an orthonormal basis of ``row(U)``, ``||c|| = 1``) and ``B = U V_r``
    (``m x r``, full column rank). At a minimiser ``c*`` let ``Z = {i : b_i' c* = 0}``; near ``c*`` on
    ``K = null(B_Z)`` the signs of the other rows are fixed, so ``||B c||_1 = g'c`` is linear there, with
    ``g'c* > 0``. A linear function on the unit sphere of ``K`` has no local minimum with a positive value when
    ``dim K >= 2``, so ``dim K = 1``: ``c*`` spans the null space of some ``r - 1`` linearly independent rows of
    ``B``. Enumerating all ``binom(m, r - 1)`` row subsets (each gives a unit vector, i.e. an upper bound) and
    taking the smallest ``||B c||_1`` is therefore exact. If there are more than ``max_subsets`` subsets, that many
    random ones give the upper bound ``alpha_upper`` and ``alpha`` is the certified lower bound ``sigma_r``.

    Parameters
    ----------
    U : array (m, n)
        Design of rank ``r >= 1``.
    p : int
        1 or 2.
    max_subsets : int
        Largest number of row subsets enumerated (or sampled) for ``p = 1``.
    rng : numpy.random.Generator, optional
        Draws the sampled subsets (default: seed 0); unused when the enumeration is exact.
    """
    sol = _solution_set(U)
    if p not in (1, 2) or isinstance(p, bool):
        raise InvalidParameterError("p", "1 or 2", p)
    max_subsets = positive_int("max_subsets", max_subsets)
    sigma_r = float(sol.singular_values[-1])
    if p == 2:
        v_r = sol.row_basis[:, -1].copy()
        return ResidualNormSharpness(2, sigma_r, sigma_r, True, v_r, sigma_r, "sigma_r(U), attained at v_r")
    B = sol.U @ sol.row_basis
    m, r = B.shape
    total = math.comb(m, r - 1)
    exact = total <= max_subsets
    rng = np.random.default_rng(0) if rng is None else generator("rng", rng)
    best, best_c = np.inf, None
    for rows in _row_subsets(m, r - 1, None if exact else max_subsets, rng):
        c = np.linalg.svd(B[rows], full_matrices=True)[2][:, -1, :]  # unit null vector of each B_Z
        values = np.sum(np.abs(c @ B.T), axis=-1)
        i = int(np.argmin(values))
        if values[i] < best:
            best, best_c = float(values[i]), c[i]
    direction = sol.row_basis @ best_c
    if exact:
        method = f"exact: minimum over all binom({m}, {r - 1}) = {total} null directions of r - 1 rows of U V_r"
        return ResidualNormSharpness(1, best, best, True, direction, sigma_r, method)
    method = (
        f"bounds: sigma_r(U) <= alpha <= the minimum over {max_subsets} random null directions "
        f"(of binom({m}, {r - 1}) = {total}); not certified exact"
    )
    return ResidualNormSharpness(1, sigma_r, best, False, direction, sigma_r, method)


@dataclass(frozen=True)
class SharpnessScan:
    """Result of :func:`sharpness_scan`.

    Attributes
    ----------
    kappas : ndarray (K,)
        Orders tested.
    radii : ndarray (S,)
        Distances ``s`` sampled along each ray.
    rho : ndarray (K, S)
        ``rho_kappa(s) = min over rays of (h(Pi x0 + s d) - h*)/s^kappa``.
    slope_small, slope_large : ndarray (K,)
        Log-log slope of ``rho_kappa`` over the first and the last decade of ``radii`` (``nan`` where
        ``rho <= 0``).
    verdict : tuple of str
        Per ``kappa``: ``"admissible"``; ``"too small"`` (``rho`` grows with ``s`` at the small end:
        ``slope_small > slope_tol``, so it tends to 0 as ``s -> 0``); ``"too large"`` (``slope_large <
        -slope_tol``: it tends to 0 as ``s -> inf``); ``"too small and too large"``; or ``"no alpha > 0"`` (a
        sample with ``h <= h*`` at positive distance: a wrong ``h*`` or ``X*``, or rounding at tiny radii).
        A diagnosis on the sampled range, not a proof.
    witnesses : tuple of dict
        Per ``kappa``, the sample attaining ``alpha_hat``: base point ``Pi(x0)``, direction ``d``, radius ``s``,
        ``gap = h - h*`` and ratio.
    n_rays : int
        Number of rays (base point, normal direction).
    slope_tol : float
        Threshold on the end slopes used by ``verdict``.
    """

    kappas: np.ndarray
    radii: np.ndarray
    rho: np.ndarray
    slope_small: np.ndarray
    slope_large: np.ndarray
    verdict: tuple
    witnesses: tuple = field(repr=False)
    n_rays: int = 0
    slope_tol: float = 0.1

    @property
    def inf(self) -> np.ndarray:
        """``inf_s rho_kappa(s)`` per ``kappa``."""
        return self.rho.min(axis=1)

    @property
    def sup(self) -> np.ndarray:
        """``sup_s rho_kappa(s)`` per ``kappa``."""
        return self.rho.max(axis=1)

    @property
    def alpha_hat(self) -> np.ndarray:
        """The largest ``alpha`` admissible at every sample, ``inf`` over all rays and radii (``= inf``)."""
        return self.inf

    def rows(self) -> list[dict]:
        """One dict per ``kappa``: ``kappa``, ``inf``, ``sup``, ``alpha_hat``, the end slopes and ``verdict``."""
        return [
            {
                "kappa": float(k),
                "inf": float(lo),
                "sup": float(hi),
                "alpha_hat": float(lo),
                "slope_small": float(a),
                "slope_large": float(b),
                "verdict": v,
            }
            for k, lo, hi, a, b, v in zip(
                self.kappas, self.inf, self.sup, self.slope_small, self.slope_large, self.verdict, strict=True
            )
        ]

    def summary(self) -> str:
        """A fixed-width table, one line per ``kappa`` (suitable as a claim witness)."""
        head = (
            f"{self.n_rays} rays, s in [{self.radii[0]:.0e}, {self.radii[-1]:.0e}]\n"
            f"{'kappa':>6} {'inf_s rho':>11} {'sup_s rho':>11} {'slope_0':>8} {'slope_inf':>9}  verdict"
        )
        lines = [
            f"{r['kappa']:6.3g} {r['inf']:11.4e} {r['sup']:11.4e} {r['slope_small']:8.3f} {r['slope_large']:9.3f}  "
            f"{r['verdict']}"
            for r in self.rows()
        ]
        return "\n".join([head, *lines])


def sharpness_scan(
    h,
    h_star: float,
    project,
    points,
    kappas=DEFAULT_KAPPAS,
    radii=None,
    *,
    normals=None,
    slope_tol: float = 0.1,
    normal_tol: float = 1e-8,
) -> SharpnessScan:
    """Scan ``rho_kappa(s) = min_d (h(Pi x0 + s d) - h*)/s^kappa`` along normal rays.

    For a closed convex ``X*`` and ``d`` a unit normal at ``p = Pi(x0)``, ``Pi(p + s d) = p`` for every
    ``s >= 0``, so ``dist(p + s d, X*) = s`` exactly and no projection of the samples is needed.

    Parameters
    ----------
    h : callable
        ``h(x)`` for points ``(..., n)``, returning ``(...)``.
    h_star : float
        ``min h``.
    project : callable
        ``Pi``, the Euclidean projection onto ``X*``, on points ``(P, n)``.
    points : array (P, n) or (n,)
        Without ``normals``: points outside ``X*``; ray ``j`` starts at ``Pi(x_j)`` with direction
        ``(x_j - Pi(x_j))/||x_j - Pi(x_j)||``. With ``normals``: the base points are ``Pi(points)``.
    kappas : sequence of float
        Orders ``kappa >= 1``.
    radii : array (S,), optional
        Increasing radii ``s > 0``, at least two; default ``10^[-6, 3]`` with four per decade.
    normals : array (D, n) or (n,), optional
        Directions normal to ``X*`` at the base points (normalised here), paired with them by broadcasting
        (one base point and ``D`` normals, or ``D`` of each). Each pair is checked: ``Pi(p + d) = p`` within
        ``normal_tol max(1, ||p||)``.
    slope_tol : float
        End-slope threshold of the verdict (see :class:`SharpnessScan`).

    Returns
    -------
    SharpnessScan
    """
    points = np.atleast_2d(finite_array("points", points, ndim=(1, 2)))
    kappas = _kappas("kappas", kappas)
    radii = DEFAULT_RADII if radii is None else finite_array("radii", radii, ndim=(1,))
    if radii.size < 2 or np.any(radii <= 0) or np.any(np.diff(radii) <= 0):
        raise InvalidParameterError("radii", "at least two increasing radii > 0", radii)
    slope_tol = positive("slope_tol", slope_tol)
    h_star = float(finite_array("h_star", h_star, ndim=(0,)))
    base = np.asarray(project(points), dtype=float)
    if base.shape != points.shape:
        raise InvalidParameterError("project", f"a projection returning shape {points.shape}", f"shape {base.shape}")
    if normals is None:
        delta = points - base
        length = np.linalg.norm(delta, axis=-1)
        if np.any(length <= 1e-12 * np.maximum(1.0, np.linalg.norm(base, axis=-1))):
            raise InvalidParameterError("points", "points outside X* (each gives the normal x - Pi(x))", points)
        direction = delta / length[:, None]
    else:
        base, direction = _paired_normals(project, base, normals, normal_tol)
    x = base[None] + radii[:, None, None] * direction[None]  # (S, J, n)
    gap = np.asarray(h(x), dtype=float)
    if gap.shape != x.shape[:-1]:
        raise InvalidParameterError("h", f"a function of points (..., n) returning (...); got shape {gap.shape}")
    gap = gap - h_star
    ratio = gap[None] / radii[None, :, None] ** kappas[:, None, None]  # (K, S, J)
    worst = ratio.reshape(kappas.size, -1).argmin(axis=1)
    s_idx, j_idx = np.unravel_index(worst, ratio.shape[1:])
    rho = ratio.min(axis=2)
    slope_small, slope_large = _end_slopes(radii, rho)
    verdict = tuple(_verdict(r, a, b, slope_tol) for r, a, b in zip(rho, slope_small, slope_large, strict=True))
    witnesses = tuple(
        {
            "kappa": float(kappas[k]),
            "base": base[j].tolist(),
            "direction": direction[j].tolist(),
            "s": float(radii[s]),
            "gap": float(gap[s, j]),
            "ratio": float(ratio[k, s, j]),
        }
        for k, (s, j) in enumerate(zip(s_idx, j_idx, strict=True))
    )
    return SharpnessScan(
        kappas, radii, rho, slope_small, slope_large, verdict, witnesses, n_rays=base.shape[0], slope_tol=slope_tol
    )


@dataclass(frozen=True)
class EmpiricalSharpness:
    """Result of :func:`empirical_sharpness`: ``alpha_hat = min_j (h(x_j) - h*)/dist(x_j, X*)^kappa``.

    Attributes
    ----------
    alpha_hat : float
        The smallest ratio (an upper bound on every admissible ``alpha`` of order ``kappa``).
    kappa : float
    index : int
        The point attaining it.
    point : ndarray (n,)
    distance : float
        ``dist(point, X*)``.
    gap : float
        ``h(point) - h*``.
    ratios : ndarray (P,)
        All ratios.
    """

    alpha_hat: float
    kappa: float
    index: int
    point: np.ndarray
    distance: float
    gap: float
    ratios: np.ndarray = field(repr=False)


def empirical_sharpness(h, h_star: float, distance, points, kappa: float) -> EmpiricalSharpness:
    """``min_j (h(x_j) - h*)/dist(x_j, X*)^kappa`` over ``points`` with its witness.

    Parameters
    ----------
    h, distance : callable
        ``h(x)`` and ``dist(x, X*)`` for points ``(P, n)``, returning ``(P,)``.
    h_star : float
        ``min h``.
    points : array (P, n) or (n,)
        Points outside ``X*``.
    kappa : float
        Order ``kappa >= 1``.
    """
    points = np.atleast_2d(finite_array("points", points, ndim=(1, 2)))
    kappa = float(_kappas("kappa", kappa)[0])
    h_star = float(finite_array("h_star", h_star, ndim=(0,)))
    dist = np.asarray(distance(points), dtype=float)
    gap = np.asarray(h(points), dtype=float)
    if dist.shape != points.shape[:1] or gap.shape != points.shape[:1]:
        raise InvalidParameterError("h", f"h and distance returning shape ({points.shape[0]},)")
    if np.any(dist <= 0):
        raise InvalidParameterError("points", "points outside X* (dist > 0)", f"{int(np.sum(dist <= 0))} inside")
    gap = gap - h_star
    ratios = gap / dist**kappa
    i = int(np.argmin(ratios))
    return EmpiricalSharpness(float(ratios[i]), kappa, i, points[i].copy(), float(dist[i]), float(gap[i]), ratios)


def normal_directions(solution_set: AffineSolutionSet, rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` random unit normals to an affine ``X* = U^+ v + null(U)``: Gaussian directions in ``row(U)``
    (the normal space at every point of ``X*``), shape ``(count, n)``.

    For a non-affine set (e.g. :class:`~fedtheory.problems.solution_sets.LassoSolutionSet`) pass points to
    :func:`sharpness_scan` instead: ``x - Pi(x)`` is a normal at ``Pi(x)``.
    """
    if not isinstance(solution_set, AffineSolutionSet):
        raise InvalidParameterError(
            "solution_set", "an AffineSolutionSet (else pass points to sharpness_scan)", type(solution_set).__name__
        )
    if solution_set.rank == 0:
        raise InvalidParameterError("solution_set", "a set with normals (U != 0; U = 0 gives X* = R^n)")
    rng, count = generator("rng", rng), positive_int("count", count)
    d = rng.standard_normal((count, solution_set.rank)) @ solution_set.row_basis.T
    return d / np.linalg.norm(d, axis=-1, keepdims=True)


def _solution_set(U) -> AffineSolutionSet:
    """``U^+ 0 + null(U)``: the SVD of ``U`` (checked) with rank >= 1."""
    U = finite_array("U", U, ndim=(2,))
    sol = AffineSolutionSet(U, np.zeros(U.shape[0]))
    if sol.rank == 0:
        raise InvalidParameterError("U", "a nonzero matrix (U = 0 gives X* = R^n, where sharpness is vacuous)")
    return sol


def _row_subsets(m: int, k: int, sample: int | None, rng: np.random.Generator, chunk: int = 4096):
    """Chunks ``(c, k)`` of all ``k``-subsets of ``range(m)`` in order, or of ``sample`` uniformly random ones."""
    if sample is None:
        subsets = itertools.combinations(range(m), k)
        while rows := list(itertools.islice(subsets, chunk)):
            yield np.asarray(rows, dtype=int).reshape(len(rows), k)
        return
    for start in range(0, sample, chunk):
        yield np.argsort(rng.random((min(chunk, sample - start), m)), axis=1)[:, :k]


def _kappas(name: str, value) -> np.ndarray:
    kappa = np.atleast_1d(finite_array(name, value, ndim=(0, 1)))
    if kappa.size == 0 or np.any(kappa < 1):
        raise InvalidParameterError(name, "orders kappa >= 1 (paper, Notation)", value)
    return kappa


def _paired_normals(project, base: np.ndarray, normals, normal_tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Broadcast base points and unit normals into rays, checking ``Pi(p + d) = p`` for each."""
    normals = np.atleast_2d(finite_array("normals", normals, ndim=(1, 2)))
    if normals.shape[-1] != base.shape[-1]:
        raise InvalidParameterError("normals", f"vectors of length n = {base.shape[-1]}", f"shape {normals.shape}")
    length = np.linalg.norm(normals, axis=-1)
    if np.any(length == 0):
        raise InvalidParameterError("normals", "nonzero directions", normals)
    try:
        count = np.broadcast_shapes(base.shape[:1], normals.shape[:1])
    except ValueError:
        raise InvalidParameterError(
            "normals", f"one direction per base point ({base.shape[0]}) or base points / normals of count 1"
        ) from None
    base = np.broadcast_to(base, count + base.shape[1:])
    direction = np.broadcast_to(normals / length[:, None], count + base.shape[1:])
    deviation = np.linalg.norm(np.asarray(project(base + direction), dtype=float) - base, axis=-1)
    allowed = normal_tol * np.maximum(1.0, np.linalg.norm(base, axis=-1))
    if np.any(deviation > allowed):
        raise InvalidParameterError(
            "normals", "unit normals to X* at Pi(points) (Pi(p + d) = p)", f"deviation {deviation.max():.2e}"
        )
    return base, direction


def _end_slopes(radii: np.ndarray, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Log-log slopes of ``rho`` (K, S) over the first and the last decade of ``radii`` (at least one step)."""
    lo = max(1, int(np.searchsorted(radii, 10 * radii[0], side="right")) - 1)
    hi = min(radii.size - 2, int(np.searchsorted(radii, radii[-1] / 10, side="left")))
    log_rho = np.log(np.where(rho > 0, rho, np.nan))
    small = (log_rho[:, lo] - log_rho[:, 0]) / np.log(radii[lo] / radii[0])
    large = (log_rho[:, -1] - log_rho[:, hi]) / np.log(radii[-1] / radii[hi])
    return small, large


def _verdict(rho: np.ndarray, slope_small: float, slope_large: float, slope_tol: float) -> str:
    if not np.min(rho) > 0:
        return "no alpha > 0"
    hits = (("too small", slope_small > slope_tol), ("too large", slope_large < -slope_tol))
    flags = [name for name, hit in hits if hit]
    return " and ".join(flags) or "admissible"


def ray_rounding(
    U, v, base, directions, radii, ord: int = 2, *, floor: float | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How far the computed ``||U x - v||_ord`` along rays ``x = base_j + s d_j`` can be from the exact one, on every
    float64 build (``v`` consistent, so the exact value is ``s ||U d_j||`` for ``base_j`` in ``X*``).

    Higham's componentwise bounds (:func:`fedtheory.rounding.gamma`: no summation order or FMA matters): the sample
    ``x = fl(base + s d)`` is off by ``gamma_2 (|base| + s|d|)``, its residual is computed to ``gamma_{n+1} (|U||x| +
    |v|)``, and ``|U base - v| <= |fl(U base - v)| + gamma_{n+1} (|U||base| + |v|)`` (the base point is in ``X*``
    only up to the rounding of its projection, a ``kappa(U)``-conditioned computation: this a posteriori term is what
    makes small radii inaccurate). So the computed residual is ``s U d + e`` with ``||e|| <= delta(s)``, and relative
    to the exact ``s ||U d||`` it is off by at most ``spread = delta(s)/(s ||U d||)``, which grows as ``1/s`` (about
    1e-8 at ``s = 1e-6`` on a least-squares instance with ``kappa(U) ~ 10``, of either sign depending on the build).

    Parameters
    ----------
    U, v : array
        ``h``'s data.
    base : array (J, n) or (n,)
        Points of ``X*`` as computed.
    directions : array (J, n)
        Unit directions.
    radii : array (S,)
    ord : int
        The norm of ``h``.
    floor : float, optional
        A lower bound on every ``||U d_j||`` known from the mathematics (e.g. ``sigma_r - svd_error(U)`` for unit
        normals in ``row(U)``); the unit ``d_j`` are in ``row(U)`` up to ``gamma_{2n}``.

    Returns
    -------
    spread : ndarray (S, J)
    a_lo, a_hi : ndarray (J,)
        Bounds on the exact ``||U d_j||_ord``.
    """
    U = np.asarray(U, dtype=float)
    m, n = U.shape
    base, d, radii = np.atleast_2d(base), np.atleast_2d(directions), np.asarray(radii, dtype=float)
    absU, g = np.abs(U), gamma(n + 1)
    residual = np.abs(base @ U.T - v) + g * (np.abs(base) @ absU.T + np.abs(v))  # >= |U base - v|
    reach = (np.abs(base)[None] + radii[:, None, None] * np.abs(d)[None]) @ absU.T  # |U| (|base| + s |d|)
    e = residual[None] + (gamma(2) + g * (1 + gamma(2))) * reach + g * np.abs(v)
    a = np.linalg.norm(d @ U.T, ord=ord, axis=-1)
    da = np.linalg.norm(gamma(n) * (np.abs(d) @ absU.T), ord=ord, axis=-1) + gamma(m + 2) * a
    a_lo, a_hi = a - da, a + da
    if floor is not None:
        a_lo = np.maximum(a_lo, floor * (1 - gamma(2 * n)))
    spread = np.linalg.norm(e, ord=ord, axis=-1) / (radii[:, None] * a_lo)
    return spread, a_lo, a_hi
