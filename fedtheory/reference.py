"""Certified reference optima from CVXPY with the Clarabel solver pinned at tight tolerances.

:func:`solve` runs Clarabel through CVXPY's solving chain, keeps Clarabel's own primal and dual
objective values and residuals, and raises :class:`~fedtheory.errors.ReferenceSolveError` unless the
solve reports ``Solved`` and its duality gap and residuals are within what the caller asked for.
Problem-specific wrappers add a certificate computed independently of the solver (a LASSO duality gap,
a gradient norm after Newton polishing, the proximal-gradient residual of a composite problem after accelerated
polishing) and record the solver's name and version. Where the conic solve is too slow or does not converge, the
logistic and composite references can skip it (``logistic_optimum(..., clarabel=False)``,
``composite_optimum(..., conic=False)``): the certificate, computed in numpy, is the same.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import TYPE_CHECKING

import numpy as np

from ._validate import positive_int
from .errors import InvalidParameterError, ReferenceSolveError
from .regularizers import (
    L1,
    Box,
    ElasticNet,
    L1Ball,
    L2Ball,
    Masked,
    NuclearNorm,
    Regularizer,
    Simplex,
    SquaredL2,
    soft_threshold,
)

if TYPE_CHECKING:  # CVXPY (about 1 s to import) is imported by the functions that build a problem
    import cvxpy as cp

SOLVER = "CLARABEL"
# Ten times tighter than Clarabel's defaults (1e-8); tighter makes second-order-cone solves stop at
# "AlmostSolved". Callers state the certificate they need (``gap_tol``), which is checked after the solve.
SOLVER_OPTIONS = {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9, "max_iter": 400}
# Routes tried in order until fedtheory's own certificate (:func:`fedtheory.conic.kkt_certificate`) meets the
# caller's tolerances: the pinned settings; Clarabel's default tolerances with more iterations (a solve that stalls
# just short of 1e-9 often ends "Solved" at 1e-8 with a certificate far below what callers ask); the pinned settings
# with iterative refinement pushed to machine precision and no presolve (a different factorisation path).
ROUTES = (
    ("clarabel", SOLVER_OPTIONS),
    ("clarabel, default tolerances", {"max_iter": 1000}),
    (
        "clarabel, refined",
        {
            **SOLVER_OPTIONS,
            "max_iter": 1000,
            "iterative_refinement_reltol": 1e-15,
            "iterative_refinement_abstol": 1e-15,
            "iterative_refinement_max_iter": 50,
            "presolve_enable": False,
        },
    ),
)


@dataclass(frozen=True)
class Reference:
    """A certified optimum.

    Attributes
    ----------
    x : ndarray
        The minimiser.
    value : float
        The optimal value.
    certificate : dict
        Numbers that certify optimality (``duality_gap``, ``primal_residual``, ``dual_residual``,
        ``kkt_residual``, ``gradient_norm``: whichever apply) and the ``route`` that produced them.
    solver : str
        Solver name and version, e.g. ``"CLARABEL 0.11.1"``.
    """

    x: np.ndarray
    value: float
    certificate: dict = field(default_factory=dict)
    solver: str = ""


def solver_version() -> str:
    return f"{SOLVER} {version('clarabel')}"


def solve(
    problem: cp.Problem, *, gap_tol: float = 1e-8, residual_tol: float = 1e-8, max_routes: int | None = None
) -> dict:
    """Solve ``problem`` with Clarabel and return a certificate computed by fedtheory.

    Each route of :data:`ROUTES` is tried in turn. A route is accepted when fedtheory's certificate of the returned
    primal-dual point (:func:`fedtheory.conic.kkt_certificate`: residuals with cone distances, duality gap,
    recomputed from the problem data) is within ``gap_tol * max(1, |objective|)`` and ``residual_tol``, whatever
    Clarabel's status: a status short of ``Solved`` (``AlmostSolved``, ``MaxIterations``...) is accepted only on that
    certificate, and never for exponential or power cones, whose distance fedtheory does not compute.

    Parameters
    ----------
    problem : cvxpy.Problem
    gap_tol, residual_tol : float
        The certificate the caller needs: duality gap relative to ``max(1, |objective|)``, and residuals.
    max_routes : int, optional
        Try at most this many routes (default: all); a caller that only needs a starting point passes 1.

    Returns
    -------
    dict
        ``duality_gap``, ``primal_residual``, ``dual_residual`` (fedtheory's), ``iterations``, ``status``
        (Clarabel's), ``route`` (which settings produced the point) and ``routes_tried``; the variables of
        ``problem`` hold the solution.

    Raises
    ------
    ReferenceSolveError
        If the problem is infeasible or unbounded, or no route gives a point with the requested certificate; the
        variables of ``problem`` then hold the point of the route whose certificate came closest.
    """
    import cvxpy as cp

    from .conic import kkt_certificate

    try:
        data, chain, inverse = problem.get_problem_data(SOLVER)
    except cp.error.SolverError as exc:  # pragma: no cover - depends on the problem's form
        raise ReferenceSolveError(f"reference problem cannot be given to Clarabel: {exc}") from None
    tried, closest = [], None
    for route, options in ROUTES[: len(ROUTES) if max_routes is None else positive_int("max_routes", max_routes)]:
        try:
            raw = chain.solver.solve_via_data(data, False, False, dict(options))
        except (cp.error.SolverError, RuntimeError, ValueError) as exc:  # pragma: no cover - solver internals
            tried.append(f"{route}: raised {exc}")
            continue
        status = str(raw.status)
        if status in ("PrimalInfeasible", "AlmostPrimalInfeasible"):
            raise ReferenceSolveError("reference problem is infeasible (Clarabel: primal infeasible)")
        if status in ("DualInfeasible", "AlmostDualInfeasible"):
            raise ReferenceSolveError("reference problem is unbounded (Clarabel: dual infeasible)")
        cert = kkt_certificate(data, raw.x, raw.s, raw.z)
        scale = max(1.0, abs(cert["primal_objective"]))
        residual = max(cert["primal_residual"], cert["dual_residual"])
        within = (
            cert["duality_gap"] <= gap_tol * scale
            and residual <= residual_tol
            and (status == "Solved" or cert["cone_distance_exact"])
        )
        tried.append(
            f"{route}: {status}, gap {cert['duality_gap']:.1e} (allowed {gap_tol * scale:.1e}), residuals "
            f"{cert['primal_residual']:.1e}/{cert['dual_residual']:.1e} (allowed {residual_tol:.1e})"
        )
        excess = max(cert["duality_gap"] / (gap_tol * scale + 1e-300), residual / (residual_tol + 1e-300))
        if closest is None or excess < closest[0]:
            closest = (excess, raw, options)
        if within:
            _unpack(problem, chain, inverse, raw, options)
            return {
                "duality_gap": cert["duality_gap"],
                "primal_residual": cert["primal_residual"],
                "dual_residual": cert["dual_residual"],
                "iterations": int(raw.iterations),
                "status": status,
                "route": route,
                "routes_tried": len(tried),
            }
    if closest is not None:
        try:
            _unpack(problem, chain, inverse, closest[1], closest[2])
        except cp.error.SolverError:  # CVXPY keeps no point for a solver error (NumericalError...)
            pass
    raise ReferenceSolveError("reference solve not certified by any route: " + "; ".join(tried))


def _unpack(problem: cp.Problem, chain, inverse, raw, options: dict) -> None:
    """Load Clarabel's point into ``problem``'s variables (a status CVXPY calls inaccurate warns; ours decides)."""
    inverse[-1].solver_options = dict(options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        problem.unpack_results(raw, chain, inverse)


def regularizer_expression(reg: Regularizer, x: cp.Expression) -> tuple[cp.Expression, list]:
    """``psi(x)`` as a CVXPY objective term and constraints (for every regularizer of the library).

    A :class:`~fedtheory.regularizers.Masked` regularizer needs a vector ``x`` of length ``reg.dim``; its penalised
    coordinates are reshaped in C order, as :meth:`Masked.block` does.
    """
    import cvxpy as cp

    if isinstance(reg, Masked):
        if x.ndim != 1 or x.shape[0] != reg.dim:
            raise InvalidParameterError("x", f"a CVXPY vector of length {reg.dim} for a Masked regularizer", x.shape)
        block = x[np.flatnonzero(reg.penalized)] if not reg.penalized.all() else x
        return regularizer_expression(reg.inner, cp.reshape(block, reg.shape, order="C"))
    if isinstance(reg, L1):
        return reg.lam * cp.norm1(x), []
    if isinstance(reg, SquaredL2):
        return 0.5 * reg.lam * cp.sum_squares(x), []
    if isinstance(reg, ElasticNet):
        return reg.l1 * cp.norm1(x) + 0.5 * reg.l2 * cp.sum_squares(x), []
    if isinstance(reg, NuclearNorm):
        return reg.lam * cp.normNuc(x), []
    if isinstance(reg, Box):
        return cp.Constant(0.0), [x >= np.broadcast_to(reg.lo, x.shape), x <= np.broadcast_to(reg.hi, x.shape)]
    if isinstance(reg, L2Ball):
        return cp.Constant(0.0), [cp.norm2(x) <= reg.radius]
    if isinstance(reg, L1Ball):
        return cp.Constant(0.0), [cp.norm1(x) <= reg.radius]
    if isinstance(reg, Simplex):
        return cp.Constant(0.0), [x >= 0, cp.sum(x) == reg.total]
    raise InvalidParameterError("reg", "a regularizer from fedtheory.regularizers", type(reg).__name__)


def prox_reference(reg: Regularizer, v, t: float, *, gap_tol: float = 1e-8) -> Reference:
    """``prox_{t psi}(v)`` by solving ``min psi(x) + ||x - v||^2/(2t)`` with Clarabel."""
    import cvxpy as cp

    v = np.asarray(v, dtype=float)
    x = cp.Variable(v.shape)
    term, constraints = regularizer_expression(reg, x)
    problem = cp.Problem(cp.Minimize(term + cp.sum_squares(x - v) / (2 * t)), constraints)
    cert = solve(problem, gap_tol=gap_tol)
    return Reference(np.asarray(x.value), float(problem.value), cert, solver_version())


def lasso_optimum(lasso, *, gap_tol: float = 1e-8) -> Reference:
    """Certified optimum of ``F(x) + lam ||x||_1`` for a :class:`~fedtheory.problems.Lasso`.

    Besides Clarabel's certificate, the LASSO duality gap is recomputed in numpy at the returned
    point from the dual-feasible scaling of the gradient (``kkt_residual`` is the norm of the
    proximal-gradient map with unit step).
    """
    import cvxpy as cp

    F, lam = lasso.smooth, lasso.regularizer.lam
    x = cp.Variable(F.dim)
    quad = 0.5 * cp.quad_form(x, cp.psd_wrap(F.A_mean)) - F.b_mean @ x + float(F.c.mean())
    problem = cp.Problem(cp.Minimize(quad + lam * cp.norm1(x)))
    cert = solve(problem, gap_tol=gap_tol)
    xv = np.asarray(x.value)
    grad = F.grad(xv)
    primal = float(lasso.value(xv))
    # Fenchel dual of min_x F(x) + lam||x||_1: D(u) = -F*(u) for ||u||_inf <= lam, with u the gradient
    # scaled into that ball; for quadratic F, -F*(u) = F(z) - u'z where A z = b + u.
    u = grad * min(1.0, lam / max(np.max(np.abs(grad)), np.finfo(float).tiny))
    z, *_ = np.linalg.lstsq(F.A_mean, F.b_mean + u, rcond=None)
    dual = float(F.value(z) - u @ z)
    cert["lasso_duality_gap"] = max(primal - dual, 0.0)
    cert["kkt_residual"] = float(np.linalg.norm(xv - soft_threshold(xv - grad, lam)))
    if cert["lasso_duality_gap"] > gap_tol * max(1.0, abs(primal)):
        raise ReferenceSolveError(f"LASSO duality gap {cert['lasso_duality_gap']:.2e} exceeds {gap_tol:.1e}")
    return Reference(xv, primal, cert, solver_version())


def _polish(step, x: np.ndarray, iterations: int) -> tuple[np.ndarray, float, int]:
    """FISTA with gradient restart on the proximal-gradient map ``step`` from ``x``.

    Returns the visited image ``z = step(.)`` (``x`` included) of smallest residual ``||z - step(z)||``, that residual
    and the number of steps taken (it stops early at the rounding floor ``1e-15 max(1, ||z||)``).
    """
    best, best_r = x, float(np.linalg.norm(x - step(x)))
    x_prev, y, t = x, x, 1.0
    for k in range(iterations):
        if best_r <= 1e-15 * max(1.0, float(np.linalg.norm(best))):
            return best, best_r, k
        x_new = step(y)
        r = float(np.linalg.norm(x_new - step(x_new)))
        if r < best_r:
            best, best_r = x_new, r
        t_new = (1.0 + np.sqrt(1.0 + 4.0 * t * t)) / 2.0
        if np.dot(y - x_new, x_new - x_prev) > 0:  # momentum points uphill: restart
            y, t_new = x_new, 1.0
        else:
            y = x_new + (t - 1.0) / t_new * (x_new - x_prev)
        x_prev, t = x_new, t_new
    return best, best_r, iterations


def composite_optimum(
    smooth,
    regularizer: Regularizer,
    *,
    shape: tuple[int, ...] | None = None,
    gap_tol: float = 1e-8,
    residual_tol: float = 1e-8,
    kkt_tol: float = 1e-9,
    polish: int = 1000,
    conic: bool = True,
) -> Reference:
    """Certified minimiser of ``Phi(x) = F(x) + psi(x)`` (thesis eq. (4.1)) for any regularizer of the library.

    Clarabel solves the conic form (:func:`solve` checks its status, duality gap and residuals); the certificate is
    then recomputed in numpy from the proximal-gradient map with step ``1/L``,

        ``T(x) = prox_{psi/L}(x - grad F(x)/L)``,   ``x*`` minimises ``Phi``  iff  ``T(x*) = x*``.

    Clarabel's point is polished by at most ``polish`` accelerated proximal-gradient steps (FISTA with gradient
    restart, O'Donoghue and Candes 2015) started at ``T(x_Clarabel)``; the returned point is the visited image
    ``x = T(z)`` with the smallest ``kkt_residual = ||x - T(x)||_2`` (an image of the prox: it lies in ``dom psi``,
    with the exact zeros of the prox). ``L`` is ``lambda_max`` of ``F``'s Hessian (quadratic) or ``smooth.L``
    (logistic). When ``F`` is ``mu``-strongly convex (``mu > 0``), ``T`` is a ``(1 - mu/L)``-contraction, so
    ``||x - x*|| <= (L/mu) kkt_residual`` (``distance_bound``).

    ``conic=False`` skips Clarabel and polishes from ``T(0)`` instead (for data sets where the conic solve takes
    minutes or does not converge, e.g. an exponential-cone logistic problem with tens of thousands of samples): the
    certificate is the same, since it does not depend on how the point was found, and ``polish`` is then the whole
    budget of the solve.

    Parameters
    ----------
    smooth : quadratic or LogisticRegression
        ``F``. A quadratic exposes ``A_mean``, ``b_mean`` and ``value`` (``F(x) = x'A x/2 - b'x + F(0)``):
        :class:`~fedtheory.problems.FederatedQuadratic`, :class:`~fedtheory.problems.LeastSquares`,
        :class:`~fedtheory.problems.MeanSquaredError`. A :class:`~fedtheory.problems.LogisticRegression` is solved in
        its exponential-cone form.
    regularizer : Regularizer
        ``psi``, applied to ``x.reshape(shape)`` (C order); indicators give constrained problems.
    shape : tuple of int, optional
        The shape ``psi`` sees, e.g. ``(d1, d2)`` for a :class:`~fedtheory.regularizers.NuclearNorm` on
        ``x = vec(X)``; default ``(d,)``.
    gap_tol, residual_tol : float
        Clarabel's certificate (relative duality gap, primal/dual residuals), see :func:`solve`.
    kkt_tol : float
        Largest accepted ``kkt_residual / max(1, ||x||)``.
    polish : int
        Largest number of polishing steps (0: return ``T(x_Clarabel)``, or ``T(0)`` without the conic solve).
    conic : bool
        Whether Clarabel gives the start (default) or the polish starts from ``T(0)``.

    Returns
    -------
    Reference
        ``certificate`` holds ``kkt_residual``, ``polish_iterations``, ``kkt_step`` (``1/L``) and, if ``mu > 0``,
        ``distance_bound``; with the conic solve also Clarabel's ``duality_gap``, ``primal_residual``,
        ``dual_residual``, ``iterations`` and ``kkt_residual_clarabel`` (at Clarabel's own point), without it
        ``conic`` (a note). ``solver`` names Clarabel's version, or the polish alone.

    Raises
    ------
    ReferenceSolveError
        If Clarabel fails or either certificate is worse than requested.
    InvalidParameterError
        If ``smooth``, ``shape``, ``polish`` or ``conic`` is not one the function accepts.
    """
    polish = positive_int("polish", polish, minimum=0)
    if not isinstance(conic, bool | np.bool_):
        raise InvalidParameterError("conic", "True or False", conic)
    logistic = all(hasattr(smooth, k) for k in ("features", "labels", "l2"))  # LogisticRegression's data, by duck type
    if not logistic and not all(hasattr(smooth, k) for k in ("A_mean", "b_mean", "dim")):
        raise InvalidParameterError(
            "smooth", "a quadratic (A_mean, b_mean) or a LogisticRegression", type(smooth).__name__
        )
    d = smooth.dim
    shape = (d,) if shape is None else tuple(int(n) for n in shape)
    if int(np.prod(shape)) != d:
        raise InvalidParameterError("shape", f"a shape with d = {d} entries", shape)
    if logistic:
        L, mu = smooth.L, smooth.l2
    else:
        eig = np.linalg.eigvalsh(np.asarray(smooth.A_mean, dtype=float))
        L, mu = float(eig[-1]), float(eig[0])
        mu = mu if mu > d * np.finfo(float).eps * L else 0.0  # below eigvalsh's rounding: not certified > 0
    if L <= 0:
        raise InvalidParameterError("smooth", "an objective with positive curvature (L > 0)", L)

    def step(z):  # T(z) = prox_{psi/L}(z - grad F(z)/L)
        return regularizer.prox((z - smooth.grad(z) / L).reshape(shape), 1.0 / L).reshape(d)

    if conic:
        x_solver, cert = _composite_clarabel(smooth, regularizer, shape, logistic, gap_tol, residual_tol)
        x_step = step(x_solver)
        cert["kkt_residual_clarabel"] = float(np.linalg.norm(x_solver - x_step))
    else:
        cert, x_step = {"conic": "not used: accelerated proximal gradient from 0"}, step(np.zeros(d))
    xv, cert["kkt_residual"], cert["polish_iterations"] = _polish(step, x_step, polish)
    cert["kkt_step"] = 1.0 / L
    if mu > 0:
        cert["distance_bound"] = L / mu * cert["kkt_residual"]
    if cert["kkt_residual"] > kkt_tol * max(1.0, float(np.linalg.norm(xv))):
        raise ReferenceSolveError(
            f"composite optimum not certified: proximal-gradient residual {cert['kkt_residual']:.2e} "
            f"exceeds {kkt_tol:.1e} * max(1, ||x||)"
        )
    value = float(smooth.value(xv) + regularizer.value(xv.reshape(shape)))
    if not np.isfinite(value):
        raise ReferenceSolveError("composite optimum not certified: psi is infinite at the returned point")
    return Reference(xv, value, cert, solver_version() if conic else "fedtheory accelerated proximal gradient")


def _composite_clarabel(
    smooth, regularizer: Regularizer, shape: tuple[int, ...], logistic: bool, gap_tol: float, residual_tol: float
) -> tuple[np.ndarray, dict]:
    """Clarabel's solve of the conic form of ``F(x) + psi(x.reshape(shape))``: its point and :func:`solve`'s
    certificate (``F`` logistic in its exponential-cone form, else quadratic)."""
    import cvxpy as cp

    d = smooth.dim
    x = cp.Variable(d)
    if logistic:
        X, y = smooth.features.reshape(-1, d), smooth.labels.reshape(-1)
        loss = cp.sum(cp.logistic(-cp.multiply(y, X @ x))) / X.shape[0] + 0.5 * smooth.l2 * cp.sum_squares(x)
    else:
        A, b = np.asarray(smooth.A_mean, dtype=float), np.asarray(smooth.b_mean, dtype=float)
        loss = 0.5 * cp.quad_form(x, cp.psd_wrap(A)) - b @ x + float(smooth.value(np.zeros(d)))
    term, constraints = regularizer_expression(regularizer, x if shape == (d,) else cp.reshape(x, shape, order="C"))
    cert = solve(cp.Problem(cp.Minimize(loss + term), constraints), gap_tol=gap_tol, residual_tol=residual_tol)
    return np.asarray(x.value, dtype=float), cert


def _logistic_clarabel(problem) -> tuple[np.ndarray, dict]:
    """Clarabel's exponential-cone solve of l2-logistic regression: its point and certificate (or the reason it is
    only a start)."""
    import cvxpy as cp

    X, y = problem.features.reshape(-1, problem.dim), problem.labels.reshape(-1)
    x = cp.Variable(problem.dim)
    loss = cp.sum(cp.logistic(-cp.multiply(y, X @ x))) / X.shape[0]
    cvx = cp.Problem(cp.Minimize(loss + 0.5 * problem.l2 * cp.sum_squares(x)))
    try:
        cert = solve(cvx, gap_tol=1e-7, residual_tol=1e-7, max_routes=1)  # only a start: Newton certifies
    except ReferenceSolveError as exc:
        if x.value is None:
            raise
        cert = {"clarabel": f"start only: {exc}"}
    return np.asarray(x.value, dtype=float), cert


def logistic_optimum(problem, *, grad_tol: float = 1e-11, clarabel: bool = True) -> Reference:
    """Certified minimiser of a :class:`~fedtheory.problems.LogisticRegression`.

    Clarabel solves the exponential-cone form; damped Newton steps then polish the point until the gradient norm
    (the certificate of an unconstrained smooth problem) is below ``grad_tol``. With ``l2 > 0`` the objective is
    ``l2``-strongly convex, so ``F(x) - F* <= ||grad F(x)||^2 / (2 l2)`` (``value_error_bound``). If Clarabel stops
    short of its tolerances (e.g. ``AlmostSolved`` on a large data set) its point only seeds Newton: the status is
    recorded and the gradient-norm certificate alone decides. ``clarabel=False`` starts Newton from 0 instead (for
    data sets where the conic solve takes minutes); the certificate is the same, since it does not depend on how the
    point was found.
    """
    if clarabel:
        xv, cert = _logistic_clarabel(problem)
    else:
        xv, cert = np.zeros(problem.dim), {"clarabel": "not used: damped Newton from 0"}
    for _ in range(100):
        g = problem.grad(xv)
        if np.linalg.norm(g) <= grad_tol:
            break
        step = np.linalg.solve(problem.hessian(xv), g)
        t, f0 = 1.0, float(problem.value(xv))
        while t > 1e-8 and float(problem.value(xv - t * step)) > f0 - 0.25 * t * float(g @ step):
            t /= 2
        xv = xv - t * step
    cert["gradient_norm"] = float(np.linalg.norm(problem.grad(xv)))
    if cert["gradient_norm"] > grad_tol:
        raise ReferenceSolveError(
            f"logistic optimum not certified: gradient norm {cert['gradient_norm']:.2e} "
            f"> {grad_tol:.1e} (is the problem strongly convex? set l2 > 0)"
        )
    if problem.l2 > 0:
        cert["value_error_bound"] = cert["gradient_norm"] ** 2 / (2 * problem.l2)
    return Reference(xv, float(problem.value(xv)), cert, solver_version())
