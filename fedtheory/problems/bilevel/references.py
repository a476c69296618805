"""Exact references of the simple bilevel problems: the bilevel optimum on the exact solution set and
the Tikhonov points, path and exact-regularization threshold.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from ..._validate import finite_array, positive
from ...errors import InvalidParameterError, ReferenceSolveError
from ...regularizers import L1
from ..base import Problem
from ..quadratic import FederatedQuadratic
from ..solution_sets import AffineSolutionSet
from .inner import InnerLeastSquares, ResidualNorm
from .outer import HuberL1, L1Norm, SquaredDistance


@dataclass(frozen=True)
class BilevelReference:
    """``x* in argmin_{x in X*_h} f(x)`` with ``X*_h`` represented exactly.

    Attributes
    ----------
    x_star : ndarray (n,)
    f_star : float
        ``f(x*)``, the bilevel value (``f*`` of problem (1)).
    h_star : float
        ``inf h``.
    grad_norm : float or None
        ``||grad f(x*)||`` (``None`` for the nonsmooth ``l1`` outer).
    g : ndarray (n,) or None
        For the ``l1`` outer: a dual certificate ``g in d||x*||_1 cap row(U)`` (``||g||_inf <= 1``, ``g_j =
        sign(x*_j)`` on the support), usable in place of ``grad f(x*)``; ``None`` otherwise.
    M : float
        ``f* - inf f`` (the ``M`` of the proof of Prop 2 with ``delta = 0``).
    certificate : dict
        ``solver``, ``version``, ``stationarity_residual`` (``||Z' grad f(x*)||``: the part of ``grad f(x*)``
        outside ``row(U)``; for ``l1`` that of ``g``), ``feasibility_residual`` (``dist(x*, X*_h)``) and, for
        Clarabel solves, ``duality_gap`` (recomputed in numpy from a dual-feasible point, an upper bound on
        ``f(x*) - f*``) with Clarabel's own certificate under ``clarabel``.
    """

    x_star: np.ndarray
    f_star: float
    h_star: float
    grad_norm: float | None
    g: np.ndarray | None
    M: float
    certificate: dict = field(default_factory=dict)


def _inner(inner) -> AffineSolutionSet:
    if not isinstance(inner, (InnerLeastSquares, ResidualNorm)):
        raise InvalidParameterError(
            "inner", "an InnerLeastSquares or ResidualNorm (an inner loss with an affine solution set)", inner
        )
    return inner.solution_set


def _quadratic(outer, dim: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(A, b)`` with ``f(x) = x'A x/2 - b'x + const`` for quadratic outers, else ``None``."""
    if isinstance(outer, SquaredDistance):
        return outer.mu * np.eye(dim), outer.mu * outer.x0
    if isinstance(outer, FederatedQuadratic):
        return outer.A_mean, outer.b_mean
    return None


def _check_outer(outer, inner):
    if isinstance(outer, str):
        if outer != "l1":
            raise InvalidParameterError("outer", "a Problem or the string 'l1'", outer)
        outer = L1Norm(dim=inner.dim)
    if not isinstance(outer, Problem):
        raise InvalidParameterError(
            "outer", "an outer Problem (SquaredDistance, FederatedQuadratic, HuberL1...)", outer
        )
    if outer.dim != inner.dim:
        raise InvalidParameterError("outer", f"a function on R^n with n = {inner.dim} (that of inner)", outer.dim)
    return outer


def _closed_form_certificate(sol: AffineSolutionSet, x: np.ndarray, g: np.ndarray) -> dict:
    return {
        "solver": "closed form",
        "version": f"numpy {np.__version__}",
        "stationarity_residual": float(np.linalg.norm(sol.null_basis.T @ g)),
        "feasibility_residual": float(sol.distance(x)),
    }


def _clarabel_certificate(cert: dict) -> dict:
    from importlib.metadata import version

    return {"solver": "CLARABEL", "version": version("clarabel"), "clarabel": cert}


def bilevel_optimum(inner, outer, *, tol: float = 1e-8) -> BilevelReference:
    """``x* = argmin_{x in X*_h} f(x)`` on ``X*_h = x_p + Z z`` (``x_p = U^+ v``, ``Z`` an orthonormal basis of
    ``null(U)``), never on the slack set ``{h <= h* + delta}``.

    - Quadratic ``f(x) = x'A x/2 - b'x + c`` (:class:`SquaredDistance`,
      :class:`~fedtheory.problems.FederatedQuadratic`): the reduced normal equations ``Z'A Z z = Z'(b - A x_p)``
      (minimum-norm ``z`` if singular). For ``SquaredDistance(x0, mu)`` this is ``x* = Pi(x0)``;
      for ``mu/2 ||x||^2`` it is ``U^+ v``.
    - :class:`HuberL1` (``H_mu(t) = cp.huber(t, mu)/(2 mu)``): Clarabel on ``z``, then polished by the linear solve of
      the stationarity condition ``Z' grad f = 0`` on Clarabel's active set (kept only if its residual is smaller).
      Certificate: the dual point ``w = P_row grad f(x*) / max(1, ||.||_inf)`` (``w in row(U)``, ``||w||_inf <= 1``)
      gives ``f* >= w'x_p - (mu/2)||w||^2`` (Fenchel duality, ``(H_mu)^* = mu t^2/2`` on ``[-1, 1]``).
    - ``"l1"`` / :class:`L1Norm` (basis pursuit, problem (15)): Clarabel on ``min ||x||_1`` s.t. ``V_r'x = V_r'x_p``
      (``V_r`` an orthonormal basis of ``row(U)``, the constraint set ``X*_h`` without redundant rows), its dual
      variable giving ``g = -V_r nu``; the point is polished on its support (the vertex ``x_S`` with
      ``V_r[S]' x_S = V_r' x_p``) and ``g`` moved to the nearest ``V_r c`` with ``g_S = sign(x_S)``. Certificate: with
      ``g`` scaled to ``||g||_inf <= 1``, ``||x*||_1 - g'x_p >= f(x*) - f*``.

    Parameters
    ----------
    inner : InnerLeastSquares or ResidualNorm
    outer : Problem or "l1"
        Convex outers only (an :class:`LSPEnvelope` is rejected).
    tol : float
        Largest accepted ``duality_gap / max(1, |f*|)`` and stationarity residual ``/ max(1, ||grad f||)``.

    Raises
    ------
    ReferenceSolveError
        If a Clarabel solve fails or the certificate exceeds ``tol``, or a quadratic ``f`` is unbounded below on
        ``X*_h``.
    """
    sol = _inner(inner)
    outer = _check_outer(outer, inner)
    tol = positive("tol", tol)
    Z, xp = sol.null_basis, sol.particular
    quad = _quadratic(outer, inner.dim)
    if quad is not None:
        A, b = quad
        lhs, rhs = Z.T @ A @ Z, Z.T @ (b - A @ xp)
        z = np.linalg.lstsq(lhs, rhs, rcond=None)[0] if Z.shape[1] else np.zeros(0)
        x = xp + Z @ z
        g = outer.grad(x)
        cert = _closed_form_certificate(sol, x, g)
        if cert["stationarity_residual"] > tol * max(1.0, float(np.linalg.norm(g))):
            raise ReferenceSolveError(
                f"the quadratic outer is unbounded below on X*_h (reduced system residual "
                f"{cert['stationarity_residual']:.2e})"
            )
        M = float(outer.value(x)) if isinstance(outer, SquaredDistance) else float(outer.gap(x))  # gap: f - inf f
        return BilevelReference(x, float(outer.value(x)), inner.h_star, float(np.linalg.norm(g)), None, M, cert)
    if isinstance(outer, HuberL1):
        x, cert = _huber_bilevel(sol, outer, tol)
        g = outer.grad(x)
        return BilevelReference(
            x, float(outer.value(x)), inner.h_star, float(np.linalg.norm(g)), None, float(outer.value(x)), cert
        )
    if isinstance(outer, L1Norm):
        x, g, cert = _basis_pursuit(sol, tol)
        f = float(outer.value(x))
        return BilevelReference(x, f, inner.h_star, None, g, f, cert)
    raise InvalidParameterError(
        "outer", "a convex outer: SquaredDistance, FederatedQuadratic, HuberL1, L1Norm or 'l1'", type(outer).__name__
    )


def _huber_bilevel(sol: AffineSolutionSet, outer: HuberL1, tol: float) -> tuple[np.ndarray, dict]:
    """Certified ``argmin_{X*} sum H_mu`` (see :func:`bilevel_optimum`)."""
    Z, xp, mu = sol.null_basis, sol.particular, outer.smoothing
    if Z.shape[1] == 0:
        x, cert = xp.copy(), {"solver": "closed form", "version": f"numpy {np.__version__}"}
    else:
        import cvxpy as cp

        from ...reference import solve

        z = cp.Variable(Z.shape[1])
        problem = cp.Problem(cp.Minimize(cp.sum(cp.huber(xp + Z @ z, mu)) / (2 * mu)))
        cert = _clarabel_certificate(solve(problem))
        candidates = [xp + Z @ np.asarray(z.value)]
        a = candidates[0]
        quad, lin = np.abs(a) <= mu, np.abs(a) > mu
        ZQ, s = Z[quad], np.where(lin, np.sign(a), 0.0)
        rhs = -ZQ.T @ xp[quad] - mu * (Z.T @ s)
        candidates.append(xp + Z @ np.linalg.lstsq(ZQ.T @ ZQ, rhs, rcond=None)[0])
        x = min(candidates, key=lambda c: float(np.linalg.norm(Z.T @ outer.grad(c))))
    grad = outer.grad(x)
    w = grad @ sol.row_projector
    w = w / max(1.0, float(np.max(np.abs(w))))
    f = float(outer.value(x))
    cert["duality_gap"] = max(f - (float(w @ xp) - 0.5 * mu * float(w @ w)), 0.0)
    cert["stationarity_residual"] = float(np.linalg.norm(Z.T @ grad))
    cert["feasibility_residual"] = float(sol.distance(x))
    if cert["duality_gap"] > tol * max(1.0, abs(f)):
        raise ReferenceSolveError(f"Huber bilevel optimum not certified: duality gap {cert['duality_gap']:.2e}")
    return x, cert


def _basis_pursuit(sol: AffineSolutionSet, tol: float) -> tuple[np.ndarray, np.ndarray, dict]:
    """Certified ``argmin_{X*} ||x||_1`` and its dual certificate (see :func:`bilevel_optimum`)."""
    V, xp = sol.row_basis, sol.particular
    n = xp.shape[0]
    if V.shape[1] == 0:  # X* = R^n
        x, g = np.zeros(n), np.zeros(n)
        cert = {"solver": "closed form", "version": f"numpy {np.__version__}"}
    else:
        import cvxpy as cp

        from ...reference import solve

        var = cp.Variable(n)
        constraint = V.T @ var == V.T @ xp
        problem = cp.Problem(cp.Minimize(cp.norm1(var)), [constraint])
        cert = _clarabel_certificate(solve(problem))
        x_solver = sol.project(np.asarray(var.value))
        g_solver = -V @ np.asarray(constraint.dual_value)
        support = np.abs(x_solver) > 1e-7 * max(1.0, float(np.max(np.abs(x_solver))))
        VS = V[support]
        candidates = [(x_solver, g_solver)]
        xS = np.linalg.lstsq(VS.T, V.T @ xp, rcond=None)[0]
        x_vertex = np.zeros(n)
        x_vertex[support] = xS
        if sol.distance(x_vertex) <= 1e-12 * max(1.0, float(np.linalg.norm(xp))):
            c = V.T @ g_solver  # nearest c to the solver's with V[S] c = sign(x_S), i.e. g_S = sign(x_S)
            g_vertex = V @ (c + np.linalg.pinv(VS) @ (np.sign(xS) - VS @ c))
            candidates += [(x_vertex, g_vertex), (x_vertex, g_solver)]
        x, g = min(candidates, key=lambda c: _l1_gap(c[0], c[1], xp))
    g = g / max(1.0, float(np.max(np.abs(g))))
    f = float(np.sum(np.abs(x)))
    cert["duality_gap"] = _l1_gap(x, g, xp)
    cert["stationarity_residual"] = float(np.linalg.norm(sol.null_basis.T @ g))
    cert["feasibility_residual"] = float(sol.distance(x))
    on = x != 0
    cert["support_sign_residual"] = float(np.max(np.abs(g[on] - np.sign(x[on])), initial=0.0))
    cert["in_subdifferential"] = bool(L1(1.0).in_subdifferential(x, g, tol=1e-6))
    if cert["duality_gap"] > tol * max(1.0, f):
        raise ReferenceSolveError(f"basis pursuit optimum not certified: duality gap {cert['duality_gap']:.2e}")
    return x, g, cert


def _l1_gap(x: np.ndarray, g: np.ndarray, xp: np.ndarray) -> float:
    """``||x||_1 - g'x_p`` after scaling ``g`` into ``||g||_inf <= 1`` (weak duality of basis pursuit)."""
    g = g / max(1.0, float(np.max(np.abs(g))))
    return max(float(np.sum(np.abs(x)) - g @ xp), 0.0)


@dataclass(frozen=True)
class TikhonovReference:
    """``x_eta* = argmin_x h(x) + eta f(x)`` and ``f_eta* = h(x_eta*) + eta f(x_eta*)``.

    Attributes
    ----------
    eta : ndarray
        The weights (shape of the ``eta`` passed).
    x : ndarray (*eta.shape, n)
    value : ndarray (eta.shape)
        ``f_eta*``.
    certificate : dict
        ``solver``, ``version`` and per-``eta`` arrays: ``gradient_norm`` (``||grad f_eta(x)||``, or a bound on the
        distance of 0 to the subdifferential), plus ``duality_gap`` / ``distance_bound`` where computed.
    x_solver : ndarray or None
        Clarabel's unpolished point (``None`` for closed forms).
    """

    eta: np.ndarray
    x: np.ndarray
    value: np.ndarray
    certificate: dict = field(default_factory=dict)
    x_solver: np.ndarray | None = None


def _etas(eta) -> np.ndarray:
    eta = finite_array("eta", eta)
    if np.any(eta <= 0):
        raise InvalidParameterError("eta", "regularization weights eta > 0", eta)
    return eta


def tikhonov_reference(inner, outer, eta, *, tol: float = 1e-8) -> TikhonovReference:
    """The Tikhonov point and value for every ``eta`` (an array is vectorised for quadratic outers).

    - :class:`InnerLeastSquares` with a quadratic outer ``x'A x/2 - b'x + c``: ``(H + eta A) x = U'v/N + eta b``
      (``x_eta* = (H + eta mu I)^{-1}(U'v/N + eta mu x0)`` for ``(mu/2)||x - x0||^2``), one batched solve.
    - :class:`InnerLeastSquares` with :class:`HuberL1`: Clarabel per ``eta``, polished by the linear solve of the
      stationarity condition on Clarabel's active set; certified by the Fenchel duality gap with
      ``y = t grad h(x)``, ``t = min(1, eta/||grad h(x)||_inf)`` (``-y/eta`` is dual feasible for ``eta f``).
    - :class:`ResidualNorm` (``p = 2``) with :class:`SquaredDistance` ``(x0, mu)``: :func:`residual_norm_tikhonov`
      with weight ``eta mu``.

    Raises
    ------
    InvalidParameterError
        For other pairs, or a quadratic ``h + eta f`` that is not positive definite.
    ReferenceSolveError
        If a Clarabel solve is not certified to ``tol``.
    """
    etas = _etas(eta)
    outer = _check_outer(outer, inner)
    _inner(inner)
    if isinstance(inner, ResidualNorm):
        if inner.p != 2 or not isinstance(outer, SquaredDistance):
            raise InvalidParameterError("outer", "a SquaredDistance outer with a p = 2 ResidualNorm inner", outer)
        refs = [residual_norm_tikhonov(inner.U, inner.v, outer.x0, e * outer.mu, tol=tol) for e in etas.reshape(-1)]
        x = np.stack([r.x for r in refs]).reshape(*etas.shape, inner.dim)
        cert = _stack_certificates([r.certificate for r in refs], etas.shape)
        return TikhonovReference(
            etas, x, inner.value(x) + etas * outer.value(x), cert, np.stack([r.x_solver for r in refs]).reshape(x.shape)
        )
    quad = _quadratic(outer, inner.dim)
    if quad is not None:
        A, b = quad
        mats = inner.hessian + etas[..., None, None] * A
        if np.any(np.linalg.eigvalsh(mats)[..., 0] <= 0):
            raise InvalidParameterError("outer", "a quadratic with H + eta A positive definite for every eta", outer)
        rhs = inner.U.T @ inner.v / inner.N + etas[..., None] * b
        x = np.linalg.solve(mats, rhs[..., None])[..., 0]
        grad = inner.grad(x) + etas[..., None] * outer.grad(x)
        cert = {
            "solver": "closed form",
            "version": f"numpy {np.__version__}",
            "gradient_norm": np.linalg.norm(grad, axis=-1),
        }
        return TikhonovReference(etas, x, inner.value(x) + etas * outer.value(x), cert)
    if isinstance(outer, HuberL1):
        return _huber_tikhonov(inner, outer, etas, tol)
    raise InvalidParameterError("outer", "a SquaredDistance, FederatedQuadratic or HuberL1 outer", type(outer).__name__)


def _stack_certificates(certs: list[dict], shape: tuple[int, ...]) -> dict:
    out = {"solver": certs[0]["solver"], "version": certs[0]["version"]}
    for key, value in certs[0].items():
        if isinstance(value, numbers.Real):  # numbers and flags, one per eta
            out[key] = np.array([c[key] for c in certs], dtype=type(value)).reshape(shape)
    return out


def _huber_tikhonov(inner: InnerLeastSquares, outer: HuberL1, etas: np.ndarray, tol: float) -> TikhonovReference:
    import cvxpy as cp

    from ...reference import solve

    U, v, N, mu, n = inner.U, inner.v, inner.N, outer.smoothing, inner.dim
    x_var, weight = cp.Variable(n), cp.Parameter(nonneg=True)
    problem = cp.Problem(
        cp.Minimize(cp.sum_squares(U @ x_var - v) / (2 * N) + weight * cp.sum(cp.huber(x_var, mu)) / (2 * mu))
    )
    flat = etas.reshape(-1)
    xs, raw = np.zeros((flat.size, n)), np.zeros((flat.size, n))
    gaps, grads, clarabel = np.zeros(flat.size), np.zeros(flat.size), []

    def gradient(x, eta):
        return (x @ U.T - v) @ U / N + eta * outer.grad(x)

    for k, eta in enumerate(flat):
        weight.value = float(eta)
        clarabel.append(solve(problem))
        a = np.asarray(x_var.value)
        quad, lin = np.abs(a) <= mu, np.abs(a) > mu
        rhs = U.T @ v / N - eta * np.where(lin, np.sign(a), 0.0)
        polished = np.linalg.lstsq(inner.hessian + (eta / mu) * np.diag(quad.astype(float)), rhs, rcond=None)[0]
        x = min((a, polished), key=lambda c, e=eta: float(np.linalg.norm(gradient(c, e))))
        raw[k], xs[k], grads[k] = a, x, np.linalg.norm(gradient(x, eta))
        gh = (x @ U.T - v) @ U / N
        t = min(1.0, eta / max(float(np.max(np.abs(gh))), np.finfo(float).tiny))
        x_dual = t * x + (1 - t) * inner.x_star  # grad h(x_dual) = t grad h(x)
        y = t * gh
        dual = float(inner.value(x_dual)) - float(y @ x_dual) - mu / (2 * eta) * float(y @ y)
        primal = float(inner.value(x) + eta * outer.value(x))
        gaps[k] = max(primal - dual, 0.0)
        if gaps[k] > tol * max(1.0, abs(primal)):
            raise ReferenceSolveError(f"Huber Tikhonov point not certified at eta = {eta:g}: gap {gaps[k]:.2e}")
    x = xs.reshape(*etas.shape, n)
    cert = _clarabel_certificate(clarabel)
    cert["gradient_norm"] = grads.reshape(etas.shape)
    cert["duality_gap"] = gaps.reshape(etas.shape)
    return TikhonovReference(etas, x, inner.value(x) + etas * outer.value(x), cert, raw.reshape(x.shape))


def tikhonov_point(inner, outer, eta) -> np.ndarray:
    """``x_eta* = argmin h + eta f`` (:func:`tikhonov_reference`), shape ``(*eta.shape, n)``."""
    return tikhonov_reference(inner, outer, eta).x


def tikhonov_value(inner, outer, eta) -> np.ndarray:
    """``f_eta* = inf_x h(x) + eta f(x)`` (:func:`tikhonov_reference`), shape ``eta.shape``."""
    return tikhonov_reference(inner, outer, eta).value


def tikhonov_gap(inner: InnerLeastSquares, outer, eta, x) -> np.ndarray:
    """``f_eta(x) - f_eta* = (x - x_eta*)'(H + eta A)(x - x_eta*)/2`` for a quadratic outer (no cancellation against
    ``f_eta*``); ``eta`` (shape E) broadcasts against the leading axes of ``x`` (..., n)."""
    if not isinstance(inner, InnerLeastSquares):
        raise InvalidParameterError("inner", "an InnerLeastSquares", type(inner).__name__)
    outer = _check_outer(outer, inner)
    quad = _quadratic(outer, inner.dim)
    if quad is None:
        raise InvalidParameterError("outer", "a quadratic outer (SquaredDistance or FederatedQuadratic)", outer)
    etas = _etas(eta)
    x = inner.check_point(x)
    e = x - tikhonov_point(inner, outer, etas)
    mats = inner.hessian + etas[..., None, None] * quad[0]
    return 0.5 * np.einsum("...i,...ij,...j->...", e, mats, e)


@dataclass(frozen=True)
class TikhonovPath:
    """The Tikhonov path of ``h = (1/(2N))||U y - v||^2`` with ``f = (mu/2)||x||^2``.

    With ``x* = U^+ v`` and the eigenpairs ``(lambda_k, u_k)`` of ``H = U'U/N`` (``lambda_k = sigma_k^2/N``),
    coordinates ``x*_k = u_k'x*``:

    - offset ``x_eta - x* = -eta mu (H + eta mu I)^{-1} x* = -sum_k (eta mu/(lambda_k + eta mu)) x*_k u_k``;
    - inner gap ``h(x_eta) - h* = 1/2 sum_k lambda_k (eta mu/(lambda_k + eta mu))^2 x*_k^2``;
    - ``dist(x_eta, X*) = ||x_eta - x*||`` (the offset lies in ``row(U)``).

    Attributes
    ----------
    eta : ndarray (E,)
    x_star : ndarray (n,)
    x_eta, offset : ndarray (E, n)
    inner_gap, distance : ndarray (E,)
    """

    eta: np.ndarray
    x_star: np.ndarray
    x_eta: np.ndarray
    offset: np.ndarray
    inner_gap: np.ndarray
    distance: np.ndarray


def tikhonov_path(inner: InnerLeastSquares, mu: float, etas) -> TikhonovPath:
    """Closed forms for ``f = (mu/2)||x||^2`` on every ``eta`` of ``etas`` (1-D)."""
    if not isinstance(inner, InnerLeastSquares):
        raise InvalidParameterError("inner", "an InnerLeastSquares", type(inner).__name__)
    mu = positive("mu", mu)
    etas = _etas(etas)
    if etas.ndim != 1:
        raise InvalidParameterError("etas", "a 1-D array of weights", etas.shape)
    sol = inner.solution_set
    lam = sol.singular_values**2 / inner.N
    coef = sol.row_basis.T @ sol.particular
    shrink = etas[:, None] * mu / (lam + etas[:, None] * mu)  # (E, r)
    offset = -(shrink * coef) @ sol.row_basis.T
    gap = 0.5 * np.sum(lam * (shrink * coef) ** 2, axis=-1)
    distance = np.sqrt(np.sum((shrink * coef) ** 2, axis=-1))
    return TikhonovPath(etas, sol.particular.copy(), sol.particular + offset, offset, gap, distance)


def exact_regularization_threshold(U, v, x0) -> float:
    """``eta_crit = 1/||(U^+)'(x0 - x*)||`` for ``h = ||U x - v||_2`` and ``f = 1/2 ||x - x0||^2``.

    ``x* = Pi(x0) = x0 - U^+(U x0 - v)``; the Tikhonov point equals ``x*`` iff ``eta (x0 - x*) = U'w`` for some
    ``||w|| <= 1``, and the minimum-norm ``w`` is ``eta (U^+)'(x0 - x*)``. ``inf`` when ``x0`` is in ``X*``.
    ``v`` must lie in ``range(U)`` (otherwise ``h`` is smooth at its minimisers and no ``eta`` regularises exactly).
    """
    h = ResidualNorm(U, v, 2)
    sol = h.solution_set
    x0 = _point("x0", x0, h.dim)
    coef = (x0 - sol.particular) @ sol.row_basis  # x0 - x* in the row basis
    norm = float(np.linalg.norm(coef / sol.singular_values))  # ||(U^+)'(x0 - x*)||
    return math.inf if norm == 0.0 else 1.0 / norm


def _point(name: str, x, dim: int) -> np.ndarray:
    x = finite_array(name, x, ndim=(1,))
    if x.shape[0] != dim:
        raise InvalidParameterError(name, f"a vector of length n = {dim}", x.shape)
    return x


def residual_norm_tikhonov(U, v, x0, eta: float, *, tol: float = 1e-8) -> TikhonovReference:
    """Certified ``x_eta = argmin ||U x - v||_2 + (eta/2)||x - x0||^2`` (an SOCP, solved by Clarabel).

    Clarabel solves the epigraph form ``min t + (eta/2) s`` s.t. ``||U(x0 + d) - v|| <= t``, ``||d||^2 <= s``
    (``x = x0 + d``; the direct form often stops at "AlmostSolved" at the pinned tolerances). Its point is kept in
    ``x_solver`` (accurate to about ``sqrt(2 gap/eta)``, 1e-4 here); the returned ``x`` is the best certified of two
    candidates:

    - ``x* = Pi(x0)`` with the subgradient ``eta (x* - x0) + U'w``, ``w = eta (U^+)'(x0 - x*)`` scaled into the unit
      ball (optimal iff ``eta <= eta_crit``);
    - the smooth stationary point ``x* + sum_k d_k b_k`` with ``d_k = c_k eta rho/(eta rho + sigma_k^2)``, ``c_k`` the
      row-basis coordinates of ``x0 - x*`` and ``rho = ||U x - v|| > 0`` the root of
      ``sum_k (eta sigma_k c_k/(eta rho + sigma_k^2))^2 = 1`` (bisection; it exists iff ``eta > eta_crit``).

    The objective is ``eta``-strongly convex, so a subgradient of norm ``r`` at ``x`` gives
    ``||x - x_eta|| <= r/eta`` (``distance_bound``) and ``F(x) - F* <= r^2/(2 eta)``.

    Raises
    ------
    ReferenceSolveError
        If ``distance_bound > tol max(1, ||x||)`` or the Clarabel solve fails.
    """
    import cvxpy as cp

    from ...reference import solve

    h = ResidualNorm(U, v, 2)
    sol, x0, eta = h.solution_set, _point("x0", x0, h.dim), positive("eta", eta)
    d, t, s = cp.Variable(h.dim), cp.Variable(), cp.Variable()  # x = x0 + d, epigraph form (Clarabel: "Solved")
    constraints = [cp.SOC(t, h.U @ d + (h.U @ x0 - h.v)), cp.sum_squares(d) <= s]
    cert = _clarabel_certificate(solve(cp.Problem(cp.Minimize(t + eta / 2 * s), constraints)))
    x_solver = x0 + np.asarray(d.value)
    x_star = sol.project(x0)
    sigma, basis = sol.singular_values, sol.row_basis
    c = (x0 - x_star) @ basis

    def residual(x, kink: bool) -> float:
        """Norm of a subgradient of the objective at ``x``: on ``X*`` (``kink``) with the minimum-norm ``w`` scaled
        into the unit ball, else the gradient."""
        if kink:
            w = eta * (sol.pinv.T @ (x0 - x))
            w = w / max(1.0, float(np.linalg.norm(w)))
            return float(np.linalg.norm(eta * (x - x0) + h.U.T @ w))
        e = h.U @ x - h.v
        return float(np.linalg.norm(eta * (x - x0) + h.U.T @ (e / np.linalg.norm(e))))

    candidates = [x_star]
    phi0 = float(np.sum((eta * c / sigma) ** 2))
    if phi0 > 1.0:  # a smooth stationary point exists: solve the secular equation for rho
        lo, hi = 0.0, float(np.linalg.norm(sigma * c)) + 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if np.sum((eta * sigma * c / (eta * mid + sigma**2)) ** 2) > 1.0:
                lo = mid
            else:
                hi = mid
        rho = (lo + hi) / 2
        candidates.append(x_star + (c * eta * rho / (eta * rho + sigma**2)) @ basis.T)
    residuals = [residual(x, k == 0) for k, x in enumerate(candidates)]
    best = int(np.argmin(residuals))
    x = candidates[best]
    cert["subgradient_residual"] = residuals[best]
    cert["distance_bound"] = residuals[best] / eta
    cert["solver_distance"] = float(np.linalg.norm(x_solver - x))
    cert["exact_regularization"] = best == 0
    if cert["distance_bound"] > tol * max(1.0, float(np.linalg.norm(x))):
        raise ReferenceSolveError(f"residual-norm Tikhonov point not certified: bound {cert['distance_bound']:.2e}")
    value = float(h.value(x) + eta / 2 * np.sum((x - x0) ** 2))
    return TikhonovReference(np.asarray(eta), x, np.asarray(value), cert, x_solver)
