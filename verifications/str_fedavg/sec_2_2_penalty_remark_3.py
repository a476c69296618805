"""The penalty (3) of StR-FedAvg, its printed gradient and Moreau reading (Sect. 2.2), and Remark 3: finite
differences, exact sympy envelopes and the smoothness constants of ``F_lambda`` and ``g``.

Instance, ``F_lambda``, runs and readings: the docstring of :mod:`.ipir_runs` ("the module docstring" and "the
module's instance" of the claim statements).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control, seed_for
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.rounding import gamma

from .ipir_runs import EPS, L_F, LAM, MU, N_DIM, OUTER, PAPER, Instance, instance


# --- (3), Moreau envelope, Remark 3 ---------------------------------------------------------------------------------
def _fd_grad(F, y: np.ndarray, step: float = 1e-3) -> np.ndarray:
    """Central differences of ``F`` at ``y`` (points, n) with one Richardson extrapolation (error O(step^4))."""
    eye = np.eye(N_DIM)

    def central(s):
        return (F(y[:, None, :] + s * eye) - F(y[:, None, :] - s * eye)) / (2 * s)

    return (4 * central(step / 2) - central(step)) / 3


_FD_TEXT = (
    "central differences with one Richardson step (h = 1e-3) at 8 seeded points y ~ N(0, 4 I_100), away from the "
    "prox thresholds |y_i| = mu/eps by more than 1e-2 (the envelope is C^2 there), on the module's LS + LSP-envelope "
    "instance, lambda = 0.1; tolerance per entry: the finite-difference truncation and rounding bound of _fd_error"
)
FD_STEP = 1e-3
EPS_THRESHOLD = MU / EPS  # the prox of the log-sum penalty is 0 exactly for |x| <= mu/eps


def _fd_error(inst: Instance, y: np.ndarray, c: float) -> np.ndarray:
    """Bound on ``|grad_F(y, c) - _fd_grad(F)(y)|`` per entry, on every float64 build (in exact arithmetic they
    differ by the truncation term only).

    * Truncation: ``R = (4 c(h/2) - c(h))/3`` of the central differences ``c`` is ``F' + h^4 (F5(xi_1)/4 -
      F5(xi_2))/360`` (``F5`` the fifth derivative), so ``|R - F'| <= h^4 max|F5|/288``. ``dist^2`` is quadratic (no
      truncation); the envelope is ``x^2/(2 mu)`` below the threshold ``mu/eps`` and has ``M' = (x - p)/mu`` above it,
      with ``p = q - eps``, ``q = (w + r)/2``, ``w = |x| + eps``, ``r = sqrt(w^2 - 4 mu)``: ``M5 = -q4/mu =
      -6 (r^2 - 5 w^2)/r^7`` (``q4`` the fourth derivative of ``q``), so ``|M5| <= 30 w^2/r^7``, decreasing in ``w``:
      its value at the stencil's smallest ``|x|``.
    * Rounding of ``F = f + c dist^2`` (``e_F``, at every stencil point): the envelope's terms ``log1p(|p|/eps)`` and
      ``(x - p)^2/(2 mu)`` are stationary in ``p`` (``p`` is their argmin), so ``p``'s own error enters to second
      order; each term costs 4 ulp (numpy's SVML or libm log1p) and a few roundings, their sum ``gamma_{n+8}``.
      ``dist = ||(z - x_p) V||``: each coordinate a dot product within ``gamma_{n+1} |z - x_p||V_k|`` (Higham eq.
      (3.5)). ``R`` amplifies ``e_F`` by ``(4 (2/h) + 1/h)/3 = 3/h``.
    * The abscissae ``fl(y_i +- h)`` (``u |y_i|`` off: ``F'`` times ``u |y_i|/h`` per difference), the arithmetic of
      ``R``, and the analytic gradient ``(x - p)/mu + 2c (y - Pi y)``: ``p`` from the root formula (``sqrt`` of
      ``w^2 - 4 mu``, conditioned ``w^2/r^2``) and ``Pi y`` from two products with ``V``.
    """
    X, u, h = inst.X, np.finfo(float).eps / 2, FD_STEP
    V, part, n = X.row_basis, X.particular, N_DIM
    g = inst.grad_F(y, c)

    def e_F(z):
        p = OUTER.prox(z)
        f = np.sum(np.log1p(np.abs(p) / EPS) + (z - p) ** 2 / (2 * MU), axis=-1)
        w = z - part
        t, eta = w @ V, gamma(n + 1) * (np.abs(w) @ np.abs(V))
        d2 = np.sum(t * t, axis=-1)
        t_norm, eta_norm = np.sqrt(d2), np.linalg.norm(eta, axis=-1)
        e_d2 = 2 * t_norm * eta_norm + eta_norm**2 + gamma(V.shape[1] + 4) * d2
        return (gamma(n + 8) + 16 * u) * f + c * e_d2 + gamma(2) * (f + c * d2)

    eye = np.eye(n)
    rounding = 3 * np.max([e_F(y[:, None, :] + k * h * eye) for k in (1.0, -1.0, 0.5, -0.5)], axis=0) / h
    a = np.abs(y) - h
    above = a > MU / EPS
    w_min = np.where(above, a, 1.0) + EPS
    r_min = np.sqrt(np.where(above, w_min**2 - 4 * MU, 1.0))
    truncation = np.where(above, h**4 * 30 * w_min**2 / r_min**7 / 288, 0.0)
    step = 3 * np.abs(g) * 2 * u * (np.abs(y) + h) / h
    w_y = np.abs(y) + EPS
    r_y = np.sqrt(np.maximum(w_y**2 - 4 * MU, np.finfo(float).tiny))
    dp = np.where(np.abs(y) > MU / EPS, 8 * u * (w_y + w_y**2 / r_y), 0.0)
    proj = gamma(2 * n + 4) * (np.abs(y - part) @ np.abs(V) @ np.abs(V).T + np.abs(y))
    return truncation + rounding + step + dp / MU + 2 * c * proj + 2 * gamma(4) * np.abs(g)


def _fd_points() -> np.ndarray:
    y = 2 * np.random.default_rng(seed_for(f"{PAPER}/eq-3:points")).standard_normal((8, N_DIM))
    close = np.abs(np.abs(y) - MU / EPS) < 1e-2
    return np.where(close, y + 0.05, y)


@claim(
    f"{PAPER}/eq-3:grad",
    source="Sect. 2.2, text after (3) ('the gradient of the objective function is given by grad f(y) + "
    "(1/lambda)(y - Pi[y])')",
    statement="The printed gradient grad f(y) + (1/lambda)(y - Pi_{X_h^*}[y]) equals the gradient of F_lambda(y) = "
    f"f(y) + (1/lambda)||y - Pi[y]||^2 as defined in (3), computed by {_FD_TEXT}.",
    scope="printed",
    expect="fails",
)
def eq3_grad(ctx: Context) -> Evidence:
    """The printed gradient on the LS + LSP-envelope instance of :mod:`.ipir_runs` at 8 seeded points, against
    Richardson-extrapolated central differences of (3), with the rigorous truncation and rounding bound of
    :func:`_fd_error` as error bars."""
    inst = instance(ctx)
    y = _fd_points()
    fd = _fd_grad(lambda z: inst.F(z, 1 / LAM), y, FD_STEP)
    printed = (OUTER.grad(y) + (y - inst.X.project(y)) / LAM).ravel()
    error = _fd_error(inst, y, 1 / LAM).ravel()  # the FD error bound as error bars on the analytic side
    return Evidence(
        measured=printed, bound=fd.ravel(), relation="==", interval=(printed - error, printed + error),
        grid={"point": np.repeat(np.arange(len(y)), N_DIM), "coordinate": np.tile(np.arange(N_DIM), len(y))},
        witness={
            "max |printed - FD| / max |(y - Pi y)/lambda|": float(
                np.max(np.abs(printed - fd.ravel())) / np.max(np.abs(y - inst.X.project(y)) / LAM)),
            "reading": "the gradient of (3) is grad f + (2/lambda)(y - Pi y); the printed formula is the gradient of "
            "f + dist^2/(2 lambda) (see eq-3:grad-corrected)",
            "hypotheses": "(3) with f = M^mu_LSP (L_f-smooth, Assumption 3), X_h^* the affine solution set of a "
            "convex least-squares h, lambda = 0.1; the printed formula is claimed for every y",
        },
    )  # fmt: skip


@claim(
    f"{PAPER}/eq-3:grad-corrected",
    source="Sect. 2.2, (3) and the printed gradient after it, with the factors made consistent",
    statement="grad f(y) + (2/lambda)(y - Pi[y]) is the gradient of (3), and the printed grad f(y) + (1/lambda)(y - "
    f"Pi[y]) is the gradient of f(y) + (1/(2 lambda))||y - Pi[y]||^2; both by {_FD_TEXT}.",
    scope="corrected",
    expect="holds",
)
def eq3_grad_corrected(ctx: Context) -> Evidence:
    """The analytic gradients of (3) and of its Moreau reading on the instance and points of eq-3:grad, against
    Richardson-extrapolated central differences with the error bars of :func:`_fd_error`."""
    inst = instance(ctx)
    y = _fd_points()
    points = Points()
    for name, c in (("(3): coefficient 2/lambda", 1 / LAM), ("Moreau reading: printed gradient", 1 / (2 * LAM))):
        analytic = inst.grad_F(y, c).ravel()
        fd = _fd_grad(lambda z, c=c: inst.F(z, c), y, FD_STEP).ravel()
        error = _fd_error(inst, y, c).ravel()  # the FD error bound as error bars on the analytic side
        for m, b, e in zip(analytic, fd, error, strict=True):
            points.add(m, b, interval=(m - e, m + e), function=name)
    return points.evidence("==")


@cache
def _moreau_symbolic() -> tuple[sp.Expr, sp.Expr, list[sp.Symbol], sp.Symbol]:
    """Exact Moreau envelope min_z {I_X(z) + ||y - z||^2/(2 lambda)} for X = {z : U z = v} (U 2 x 4 rational),
    minimised over z = z_p + Z w (exact null basis), and the printed (1/lambda)||y - Pi y||^2 with Pi from U^+."""
    U = sp.Matrix([[1, 2, 0, -1], [0, 1, 3, 1]])
    v = sp.Matrix([1, -2])
    lam = sp.Symbol("lambda", positive=True)
    ys = list(sp.symbols("y1:5", real=True))
    y = sp.Matrix(ys)
    Z = sp.Matrix.hstack(*U.nullspace())
    zp = U.pinv() * v
    w = sp.Matrix(sp.symbols(f"w1:{Z.shape[1] + 1}", real=True))
    obj = ((y - zp - Z * w).T * (y - zp - Z * w))[0] / (2 * lam)
    sol = sp.solve(list(sp.Matrix([obj]).jacobian(w)), list(w), dict=True)[0]
    envelope = sp.simplify(obj.subs(sol))
    proj = (sp.eye(4) - U.pinv() * U) * y + U.pinv() * v
    printed = sp.simplify(((y - proj).T * (y - proj))[0] / lam)
    return envelope, printed, ys, lam


def _moreau_values(factor: Fraction) -> Evidence:
    envelope, printed, ys, lam = _moreau_symbolic()
    pts = [(1, 0, 0, 0), (Fraction(1, 3), -2, 5, Fraction(7, 2)), (0, 0, 0, 0), (-3, 1, Fraction(1, 7), 2)]
    points = Points()
    for yv in pts:
        for lv in (Fraction(1, 10), Fraction(1), Fraction(7, 3)):
            sub = {**dict(zip(ys, (sp.Rational(str(c)) for c in yv), strict=True)), lam: sp.Rational(str(lv))}
            m, b = sp.Rational(printed.subs(sub)) * sp.Rational(str(factor)), sp.Rational(envelope.subs(sub))
            points.add(Fraction(int(m.p), int(m.q)), Fraction(int(b.p), int(b.q)), y=str(yv), **{"lambda": float(lv)})
    return points.evidence(
        "==",
        witness={"printed / envelope (sympy)": str(sp.simplify(printed / envelope)),
                 "X": "{z : U z = v}, U = [[1, 2, 0, -1], [0, 1, 3, 1]], v = (1, -2)",
                 "hypotheses": "X is the solution set of the convex smooth h = ||U z - v||^2/2 (nonempty, affine); the "
                 "smoothing is claimed for every y and lambda > 0"},
    )  # fmt: skip


@claim(
    f"{PAPER}/sec-2.2:moreau",
    source="Sect. 2.2 ('the lambda-smoothed approximate of I_{X_h^*}(y) is (1/lambda)||y - Pi[y]||^2')",
    statement="(1/lambda)||y - Pi_X[y]||^2 equals the Moreau envelope min_z {I_X(z) + ||y - z||^2/(2 lambda)} (the "
    "convention the paper uses for M^mu_l1) for affine X = {z : U z = v}; sympy, exact minimisation over "
    "z = z_p + Z w (U 2 x 4 rational, Z an exact null basis), evaluated exactly at 4 rational y x lambda in "
    "{1/10, 1, 7/3}.",
    scope="printed",
    expect="fails",
)
def moreau(ctx: Context) -> Evidence:
    """The printed smoothing of the indicator of an affine set (U 2 x 4 rational) against its Moreau envelope,
    minimised exactly by sympy over an exact null-space parametrisation; compared in exact rationals."""
    return _moreau_values(Fraction(1))


@claim(
    f"{PAPER}/sec-2.2:moreau-corrected",
    source="Sect. 2.2, the lambda-smoothed indicator, with the factor 1/(2 lambda) of the envelope",
    statement="(1/(2 lambda))||y - Pi_X[y]||^2 equals min_z {I_X(z) + ||y - z||^2/(2 lambda)}; same instance and "
    "points as sec-2.2:moreau.",
    scope="corrected",
    expect="holds",
)
def moreau_corrected(ctx: Context) -> Evidence:
    """The smoothing with the factor 1/(2 lambda) on the instance and points of sec-2.2:moreau, against the same
    exact sympy envelope; compared in exact rationals."""
    return _moreau_values(Fraction(1, 2))


SMOOTH_DOMAIN = Domain(
    {
        "lam": Axis(1e-3, 1e3),
        "offset": Axis(-0.1, 0.1, log=False),
        "s": Axis(1e-6, 1.0),
        "angle": Axis(0.0, np.pi / 2, log=False),
    },
    note="Remark 3 claims L_f + 2/lambda for every lambda > 0 and every pair of points: lambda from 1e-3 to 1e3 on the "
    "module's instance (U, v, the LSP envelope fixed), y = (mu/eps + offset) 1 (every coordinate within 0.1 of the "
    "prox threshold, where the envelope's curvature reaches -1/(eps^2 - mu) = -L_f), z = y + s d with d = cos(angle) "
    "n + sin(angle) r (n a seeded unit vector of null(U), r one of row(U)), s from 1e-6 to 1; s below 1e-6 is left "
    "out (the quotient's rounding error, about u ||grad F(y)||/s, grows without bound as s -> 0).",
)


@claim(
    f"{PAPER}/remark-3:smooth",
    source="Remark 3 ('function F_lambda in problem (3) is L_f + 2/lambda-smooth')",
    statement="Lipschitz constant of grad F_lambda, F_lambda as in (3), on the module's instance (L_f = 20 the exact "
    "smoothness of the LSP envelope, lambda = 0.1): exact value sup_y ||grad^2 F_lambda(y)|| (the Hessian is "
    "D(y) + (2/lambda) U^+U with D diagonal in [-1/(eps^2 - mu), 1/mu]; the sup max{1/mu + 2/lambda, "
    "1/(eps^2 - mu)} is attained at y = 0, evaluated there by eigvalsh) and 2000 seeded pairs "
    "||grad F(y) - grad F(z)||/||y - z|| (y ~ N(0, 4I), z = y + N(0, s^2 I), s in {1e-3, 1e-2, 0.1, 1}), both "
    "<= L_f + 2/lambda; then a witness search over lambda in [1e-3, 1e3] and pairs near the prox threshold, where the "
    "envelope's curvature is most negative.",
    scope="printed",
    expect="holds",
)
def remark3_smooth(ctx: Context) -> Evidence:
    """The Lipschitz constant of grad F_lambda on the instance of :mod:`.ipir_runs`: its exact value (the Hessian's
    norm at y = 0, by eigvalsh, equal to the closed form in the witness) and 2000 seeded difference quotients,
    against the printed L_f + 2/lambda; then the witness search over :data:`SMOOTH_DOMAIN` (difference quotients)."""
    inst = instance(ctx)
    hess0 = np.eye(N_DIM) / MU + (2 / LAM) * inst.X.row_projector
    exact = float(np.max(np.abs(np.linalg.eigvalsh(hess0))))
    rng = np.random.default_rng(seed_for(f"{PAPER}/remark-3:smooth"))
    y = 2 * rng.standard_normal((2000, N_DIM))
    s = np.repeat([1e-3, 1e-2, 0.1, 1.0], 500)[:, None]
    z = y + s * rng.standard_normal(y.shape)
    ratios = np.linalg.norm(inst.grad_F(y, 1 / LAM) - inst.grad_F(z, 1 / LAM), axis=-1) / np.linalg.norm(y - z, axis=-1)
    points = Points()
    points.add(exact, L_F + 2 / LAM, kind="exact sup (y = 0)", lam=LAM)
    for ratio in ratios:
        points.add(ratio, L_F + 2 / LAM, kind="sampled pair", lam=LAM)
    row, null = inst.X.row_projector @ rng.standard_normal(N_DIM), rng.standard_normal(N_DIM)
    null -= inst.X.row_projector @ null
    row, null = row / np.linalg.norm(row), null / np.linalg.norm(null)

    def at(lam, offset, s, angle):
        y = np.full(N_DIM, EPS_THRESHOLD + offset)
        z = y + s * (np.cos(angle) * null + np.sin(angle) * row)
        ratio = np.linalg.norm(inst.grad_F(y, 1 / lam) - inst.grad_F(z, 1 / lam)) / np.linalg.norm(y - z)
        return float(ratio), L_F + 2 / lam, {"kind": "search pair"}

    points.search(at, SMOOTH_DOMAIN, "<=", ctx, scale=8)  # an evaluation is two gradients in R^100
    # rtol 1e-12: the rounding of the 100 x 100 eigvalsh and of the difference quotients
    return points.evidence(
        "<=", rtol=1e-12,
        witness={"exact L": exact, "closed form max{1/mu + 2/lambda, 1/(eps^2 - mu)}":
                 max(1 / MU + 2 / LAM, 1 / (EPS**2 - MU)), "largest sampled ratio": float(ratios.max()),
                 "printed L_f + 2/lambda": L_F + 2 / LAM},
    )  # fmt: skip


@claim(
    f"{PAPER}/remark-3:g",
    source="Remark 3 ('function g is 1-strongly convex and 1-smooth')",
    statement="g(x) = 1/2 ||x - y||^2 (problem (4)): the extreme eigenvalues of its Hessian (sympy, n = 4, symbolic "
    "y) are 1 and 1, i.e. the strong convexity and smoothness constants are exactly 1.",
    scope="printed",
    expect="holds",
)
def remark3_g(ctx: Context) -> Evidence:
    """The Hessian of g(x) = 1/2 ||x - y||^2 (n = 4, symbolic y) by sympy; its extreme eigenvalues are compared
    with 1 in exact rationals. Negative control: the same eigenvalues against 1/2 and 2."""
    xs, ys = sp.symbols("x1:5", real=True), sp.symbols("y1:5", real=True)
    g = sum((a - b) ** 2 for a, b in zip(xs, ys, strict=True)) / 2
    eig = sp.hessian(g, xs).eigenvals()
    lo, hi = min(eig), max(eig)
    measured, grid = [Fraction(int(lo)), Fraction(int(hi))], {"constant": ["mu_g (smallest)", "L_g (largest)"]}
    control = Evidence(measured=measured, bound=[Fraction(1, 2), Fraction(2)], relation="==", grid=grid)
    return Evidence(
        measured=measured, bound=[Fraction(1), Fraction(1)], relation="==", grid=grid,
        witness={"eigenvalues (multiplicity)": {str(k): int(v) for k, v in eig.items()},
                 "negative control": negative_control(control, "the printed constants 1, 1 replaced by 1/2, 2")},
    )  # fmt: skip
