"""Weak sharpness on concrete instances and the pointwise (Dirac) forms of Propositions 2 and 5 (StR-FedAvg,
spec sections 1.5, 3.2-3.4 and recipes V1-V4, V14, V18).

A proposition about ``E[.]`` at the output ``xbar^R`` has a deterministic special case: the Dirac distribution at a
point ``x``, with ``Err_eta`` replaced by the exact ``Err(x) := f_eta(x) - f_eta*`` (spec section 3, V3). Every
printed part of Propositions 2 and 5 and every printed proof equation ((5)-(7), (9)-(11), (13), (14)) is evaluated
AS PRINTED at each point of the instances below; two-sided statements are judged as the pair ``lower <= middle`` and
``middle <= upper`` (grid ``side``).

Instances (``h* = 0`` in all: the systems are consistent).

* LS(30, 50, 5) (spec 4.1, :func:`fedtheory.problems.bilevel.ls_instance`): ``U`` 30 x 50 with ``N(0, 1/50)``
  entries, 6 rows per client, ``N = 5``, ``v = U x_true`` with a 5-sparse Gaussian ``x_true``;
  ``h(y) = (1/(2N)) ||U y - v||^2``, ``X* = U^+ v + null(U)``.
  Weak sharp with ``kappa = 2`` and ``alpha_2 = sigma_30(U)^2/(2N)`` exactly (:func:`fedtheory.sharpness.
  least_squares_sharpness`, spec W-1), and with no ``alpha > 0`` for any other order.
* (A) LS with ``f = 1/2 ||x||^2`` (``mu_f = 1``): ``x* = U^+ v``, ``grad f(x*) = x*``, ``M = f* - inf f = f*``,
  Tikhonov point ``x_eta = (H + eta I)^{-1} U'v/N`` and ``Err(x) = 1/2 (x - x_eta)'(H + eta I)(x - x_eta)``
  (``H = U'U/N``), all closed forms (:func:`~fedtheory.problems.bilevel.tikhonov_point`,
  :func:`~fedtheory.problems.bilevel.tikhonov_gap`, :func:`~fedtheory.problems.bilevel.tikhonov_path`).
* (B) LS with the Huber outer ``f(x) = sum_i H_mu(x_i)``, ``mu = 0.05`` (convex, ``mu_f = 0``; spec W-5): ``x*``
  minimises ``f`` over ``X* = x_p + Z z`` and ``x_eta`` minimises ``h + eta f``
  (:func:`fedtheory.problems.bilevel.bilevel_optimum`, :func:`~fedtheory.problems.bilevel.tikhonov_reference`:
  Clarabel polished on its active set, with Fenchel duality-gap certificates, reported), ``M = f*`` (``inf f = 0``),
  ``grad f(x*) = clip(x*/mu, -1, 1)``.
* (C) ``h(x) = ||U x - v||_2`` (not squared; ``U`` 5 x 8 Gaussian, spec 4.3,
  :func:`~fedtheory.problems.bilevel.residual_norm_instance`) with ``f = 1/2 ||x - x0||^2``,
  ``x0 ~ N(0, 9 I)``: ``kappa = 1`` with ``alpha = sigma_r(U)`` exactly (spec W-2), ``x* = Pi(x0)``. ``h`` is not
  differentiable on ``X*``, so (C) is OUTSIDE Assumption 1 (``h_i`` L-smooth); the propositions' proofs use only
  convexity, weak sharpness and (strong) convexity of ``f``. For ``eta <= eta_crit = 1/||(U^+)'(x0 - x*)||`` the
  Tikhonov point is ``x*`` itself (exact regularization, spec W-2,
  :func:`~fedtheory.problems.bilevel.exact_regularization_threshold`), so ``f_eta* = eta f*``; the Case iii grid
  ``eta = {0.1, 0.5, 1} alpha/(2||grad f(x*)||)`` lies below ``eta_crit`` (claim ``prop-2:iii-exact``).

Points: 200 random ``x = x* + s w`` (``w ~ N(0, I/n)``, ``s`` log-uniform in ``[1e-3, 1e2]``) at every ``eta`` of
the grid (``{1e-3, 1e-2, 0.1, 1}`` for (A), (B); the Case iii grid for (C)), the Tikhonov points ``x_eta'`` of the
grid at every ``eta``, and every server iterate of deterministic runs of Algorithm 1
(:func:`fedtheory.algorithms.bilevel.run`, full participation, ``K = 5``, ``gamma_g = 1``,
``gamma_l = 1/(2K(L_h + eta L_f))``, ``R = 150``, ``eta in {0.1, 0.01}``) on (A) and (B); (C) has no gradient.

``M``: the proofs need ``f* - E f(xbar^R) < M`` "for some M > 0" (line 276); read as ``M := f* - inf f`` (spec
1.4, ``delta = 0``), which gives ``<=`` and suffices for every part.

Tolerance: rounding only, ``1e-9 |bound| + 1e-12 max(1, M)``.

Further claims: the weak-sharpness constants and admissible orders of the instances (V1, V2: exact ``alpha_2``,
ray scans of :func:`fedtheory.sharpness.sharpness_scan` against the closed forms, incl. ``||Ux - v||_1`` and a
log-cosh loss with no admissible order, LASSO local quadratic growth; figure ``weak-sharpness-scan``), (13) as
printed and corrected (``alpha`` outside vs inside the root), the Tikhonov path of (A) (V4, figure
``tikhonov-path``), the exact-regularization threshold of (C) against a direct certified SOCP and against the printed
Case iii condition (V14), and the slack constraint ``h <= h* + delta`` (V18, from its KKT conditions).

Paper text: ``shared/seeds/003_511a8e816d499631.txt``; weak sharpness (Notation) line 47, Related work (Tikhonov,
exact regularization, the slack constraint ``h <= h* + eps_h``) lines 27-29, Proposition 2 lines 251-268 and its
proof 270-324 ((5) at 274, (6) at 310, (7) at 318), Proposition 5 lines 427-441 and its proof 443-489 ((9) at 475,
(10) at 479, (11) at 487), (13) at line 593, (14) at line 624.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cvxpy as cp
import numpy as np

from fedtheory.algorithms.bilevel import StRParams, run
from fedtheory.fit import loglog_slope
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.problems import bilevel
from fedtheory.problems.bilevel import (
    HuberL1,
    InnerLeastSquares,
    ResidualNormInstance,
    SquaredDistance,
    bilevel_optimum,
    exact_regularization_threshold,
    ls_instance,
    residual_norm_instance,
    tikhonov_gap,
    tikhonov_point,
    tikhonov_reference,
)
from fedtheory.problems.logcosh import log_cosh
from fedtheory.problems.solution_sets import AffineSolutionSet
from fedtheory.reference import solve
from fedtheory.rounding import gamma, svd_error
from fedtheory.sharpness import (
    least_squares_sharpness,
    normal_directions,
    ray_rounding,
    residual_norm_sharpness,
    sharpness_scan,
)

PAPER = "str-fedavg"
RTOL = 1e-9
ETAS = (1e-3, 1e-2, 0.1, 1.0)
ALG_ETAS = (0.1, 0.01)
CASE_III = (0.1, 0.5, 1.0)  # eta / (alpha/(2 ||grad f(x*)||))
HUBER_MU = 0.05
N_POINTS = 200
KAPPAS = (1.0, 1.5, 2.0, 3.0)


# ---------------------------------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------------------------------
@cache
def _ls(scale: float = 1.0) -> InnerLeastSquares:
    """LS(30, 50, 5) of spec 4.1 (:func:`~fedtheory.problems.bilevel.ls_instance`, fixed seed), rows and responses
    multiplied by ``scale``."""
    inner = ls_instance(30, 50, 5, np.random.default_rng(seed_for("str-fedavg/instance:LS(30,50,5)"))).inner
    return inner if scale == 1.0 else InnerLeastSquares.split(scale * inner.U, scale * inner.v, inner.N)


@dataclass(frozen=True)
class _Rows:
    """Pointwise quantities of one instance, one entry per (point, eta).

    ``hg = h(x) - h*``, ``fg = f(x) - f*``, ``dist = dist(x, X*)``, ``sq = ||x - x*||^2``, ``err = f_eta(x) -
    f_eta*``; constants ``mu_f``, ``kappa``, ``alpha``, ``G = ||grad f(x*)||``, ``M = f* - inf f``.
    """

    name: str
    eta: np.ndarray
    kind: np.ndarray
    hg: np.ndarray
    fg: np.ndarray
    dist: np.ndarray
    sq: np.ndarray
    err: np.ndarray
    mu_f: float
    kappa: float
    alpha: float
    G: float
    M: float
    info: dict


def _random_points(rng: np.random.Generator, center: np.ndarray, count: int = N_POINTS) -> np.ndarray:
    """``x* + s w``, ``w ~ N(0, I/n)``, ``s`` log-uniform in ``[1e-3, 1e2]``."""
    n = center.size
    s = 10.0 ** rng.uniform(-3, 2, count)
    return center + s[:, None] * rng.standard_normal((count, n)) / np.sqrt(n)


def _run_alg1(inner: InnerLeastSquares, outer, eta: float, x0: np.ndarray, R: int = 150) -> np.ndarray:
    """Server iterates ``xbar^0..xbar^R`` of deterministic full-participation StR-FedAvg (K = 5, gamma_g = 1,
    ``gamma_l = 1/(2K(L_h + eta L_f))``)."""
    K = 5
    params = StRParams(K=K, gamma_l=1.0 / (2 * K * (inner.L_h + eta * outer.L)), gamma_g=1.0, eta=eta)
    return run(inner, outer, x0, params, R, np.random.default_rng(0)).x[:, 0]


def _stack(name, blocks, consts, info) -> _Rows:
    """Concatenate per-block dicts of arrays into :class:`_Rows`."""
    keys = ("eta", "kind", "hg", "fg", "dist", "sq", "err")
    cat = {k: np.concatenate([np.broadcast_to(b[k], b["hg"].shape) for b in blocks]) for k in keys}
    return _Rows(name, **cat, **consts, info=info)


@cache
def _instance_a() -> _Rows:
    """(A): LS(30, 50, 5) with ``f = 1/2 ||x||^2`` (module docstring)."""
    inner, rng = _ls(), np.random.default_rng(seed_for("str-fedavg/instance:A"))
    x_star = inner.x_star  # U^+ v = argmin_{X*} ||x||
    outer = SquaredDistance(np.zeros(inner.dim))
    f_star = float(outer.value(x_star))
    sharp = least_squares_sharpness(inner.U, inner.N)
    rand = _random_points(rng, x_star)
    algs = {eta: _run_alg1(inner, outer, eta, rng.standard_normal(inner.dim)) for eta in ALG_ETAS}

    def block(points, eta, kind):
        e = points - x_star
        return {
            "eta": eta,
            "kind": kind,
            "hg": inner.value(points),
            "fg": outer.value(points) - f_star,
            "dist": inner.solution_set.distance(points),
            "sq": np.sum(e * e, axis=1),
            "err": tikhonov_gap(inner, outer, eta, points),
        }

    tik_points = tikhonov_point(inner, outer, np.array(ETAS))
    blocks = [block(rand, eta, "random") for eta in ETAS]
    blocks += [block(tik_points, eta, "tikhonov") for eta in ETAS]
    blocks += [block(algs[eta], eta, "alg1") for eta in ALG_ETAS]
    consts = {"mu_f": 1.0, "kappa": 2.0, "alpha": sharp.alpha, "G": float(np.linalg.norm(x_star)), "M": f_star}
    return _stack("A: LS(30,50,5), f = 1/2||x||^2", blocks, consts, {"alg1_etas": list(ALG_ETAS)})


@cache
def _instance_b() -> _Rows:
    """(B): LS(30, 50, 5) with the Huber outer, ``mu = 0.05`` (module docstring)."""
    inner, rng = _ls(), np.random.default_rng(seed_for("str-fedavg/instance:B"))
    outer = HuberL1(HUBER_MU, dim=inner.dim)
    ref = bilevel_optimum(inner, outer)
    tik = tikhonov_reference(inner, outer, np.array(ETAS))
    f_eta_star = dict(zip(ETAS, tik.value))
    rand = _random_points(rng, ref.x_star)
    algs = {eta: _run_alg1(inner, outer, eta, rng.standard_normal(inner.dim)) for eta in ALG_ETAS}

    def block(points, eta, kind):
        hg, f = inner.value(points), outer.value(points)
        e = points - ref.x_star
        return {
            "eta": eta,
            "kind": kind,
            "hg": hg,
            "fg": f - ref.f_star,
            "dist": inner.solution_set.distance(points),
            "sq": np.sum(e * e, axis=1),
            "err": hg + eta * f - f_eta_star[eta],
        }

    blocks = [block(rand, eta, "random") for eta in ETAS]
    blocks += [block(tik.x, eta, "tikhonov") for eta in ETAS]
    blocks += [block(algs[eta], eta, "alg1") for eta in ALG_ETAS]
    consts = {
        "mu_f": 0.0,
        "kappa": 2.0,
        "alpha": least_squares_sharpness(inner.U, inner.N).alpha,
        "G": float(ref.grad_norm),
        "M": float(ref.M),
    }
    info = {
        "bilevel duality gap": float(ref.certificate["duality_gap"]),
        "Tikhonov duality gaps": np.asarray(tik.certificate["duality_gap"]).tolist(),
    }
    return _stack(f"B: LS(30,50,5), Huber outer mu = {HUBER_MU}", blocks, consts, info)


@dataclass(frozen=True)
class _RN:
    """(C): ``h = ||U x - v||_2`` on a consistent system with ``f = 1/2 ||x - x0||^2`` (spec W-2, 4.3), and the
    bilevel solution ``x* = Pi(x0)``.

    Attributes
    ----------
    case : ResidualNormInstance
        ``inner`` (:class:`~fedtheory.problems.bilevel.ResidualNorm`, ``alpha = sigma_r(U)``), ``outer``, ``x0``.
    x_star : ndarray
        ``Pi(x0)``.
    eta_crit : float
        ``1/||(U^+)'(x0 - x*)||``: ``x_eta = x*`` iff ``eta <= eta_crit``
        (:func:`~fedtheory.problems.bilevel.exact_regularization_threshold`, spec W-2).
    eta_paper : float
        The Case iii condition's bound ``alpha/(2 ||grad f(x*)||)`` (Prop. 2, line 265).
    """

    case: ResidualNormInstance
    x_star: np.ndarray
    eta_crit: float
    eta_paper: float

    @classmethod
    def draw(cls, rng: np.random.Generator, m: int = 5, n: int = 8) -> _RN:
        """:func:`~fedtheory.problems.bilevel.residual_norm_instance` (``U`` m x n Gaussian, ``x0 ~ N(0, 9I)``)."""
        case = residual_norm_instance(rng, m=m, n=n)
        h = case.inner
        x_star = h.solution_set.project(case.x0)
        eta_paper = h.alpha / (2 * float(np.linalg.norm(x_star - case.x0)))
        return cls(case, x_star, exact_regularization_threshold(h.U, h.v, case.x0), eta_paper)

    @property
    def h(self):
        return self.case.inner

    @property
    def x0(self) -> np.ndarray:
        return self.case.x0


@cache
def _rn() -> _RN:
    return _RN.draw(np.random.default_rng(seed_for("str-fedavg/instance:C")))


@cache
def _instance_c() -> _Rows:
    """(C) at the Case iii grid ``eta = {0.1, 0.5, 1} alpha/(2 ||grad f(x*)||)`` (module docstring)."""
    rn, rng = _rn(), np.random.default_rng(seed_for("str-fedavg/instance:C-points"))
    x_star = rn.x_star
    f_star = 0.5 * float(np.sum((x_star - rn.x0) ** 2))
    etas = [c * rn.eta_paper for c in CASE_III]
    assert max(etas) <= rn.eta_crit  # exact regularization: f_eta* = eta f* (spec W-2)
    rand = _random_points(rng, x_star)

    def block(points, eta, kind):
        hg, e = rn.h.value(points), points - x_star
        fg = 0.5 * np.sum((points - rn.x0) ** 2, axis=1) - f_star
        return {
            "eta": eta,
            "kind": kind,
            "hg": hg,
            "fg": fg,
            "dist": rn.h.solution_set.distance(points),
            "sq": np.sum(e * e, axis=1),
            "err": hg + eta * (0.5 * np.sum((points - rn.x0) ** 2, axis=1)) - eta * f_star,
        }

    blocks = [block(rand, eta, "random") for eta in etas] + [block(x_star[None], eta, "tikhonov") for eta in etas]
    consts = {"mu_f": 1.0, "kappa": 1.0, "alpha": rn.h.alpha, "G": float(np.linalg.norm(x_star - rn.x0)), "M": f_star}
    info = {
        "note": "h = ||Ux - v||_2 is not differentiable on X*: outside Assumption 1 (h_i L-smooth)",
        "eta_paper": rn.eta_paper,
        "eta_crit": rn.eta_crit,
        "f_eta*": "eta f* (exact regularization, eta <= eta_crit)",
    }
    return _stack("C: h = ||Ux - v||_2 (5x8), f = 1/2||x - x0||^2", blocks, consts, info)


INSTANCES = {"A": _instance_a, "B": _instance_b, "C": _instance_c}


# ---------------------------------------------------------------------------------------------------------------------
# Printed pointwise statements
# ---------------------------------------------------------------------------------------------------------------------
def _root(r: _Rows, value: np.ndarray) -> np.ndarray:
    """``((Err + eta M)/alpha)^{1/kappa}``-type roots, ``(value/alpha)^{1/kappa}``."""
    return (np.maximum(value, 0.0) / r.alpha) ** (1.0 / r.kappa)


def _sides(r: _Rows, part: str, mu: float) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``(side, lhs, rhs)`` pairs of the printed inequality ``part`` at every point of ``r`` (``lhs <= rhs``)."""
    eta, G, M = r.eta, r.G, r.M
    ws = _root(r, r.err + eta * M)
    parts = {
        "i-1": [("lower", 0 * r.hg, r.hg), ("upper", r.hg, r.err + eta * M)],
        "i-2": [("lower", mu / 2 * r.sq - G * r.dist, r.fg), ("upper", r.fg, r.err / eta)],
        "i-3": [("upper", r.sq, (2 / mu) * (G * r.dist + r.err / eta) if mu else np.full_like(r.sq, np.inf))],
        "ii-2": [("lower", mu / 2 * r.sq - G * ws, r.fg), ("upper", r.fg, r.err / eta)],
        "ii-3": [("upper", r.sq, (2 / mu) * (G * ws + r.err / eta) if mu else np.full_like(r.sq, np.inf))],
        "iii-1": [("lower", 0 * r.hg, r.hg), ("upper", r.hg, 2 * r.err)],
        "iii-2": [("lower", 0.5 * mu * r.sq - (2 * G / r.alpha) * r.err, r.fg), ("upper", r.fg, r.err / eta)],
        "iii-3": [("upper", r.sq, 2 * r.err / (eta * mu) if mu else np.full_like(r.sq, np.inf))],
        "eq-5": [("upper", r.hg + eta * r.fg, r.err)],
        "eq-6": [("lower", mu / 2 * r.sq - (G / r.alpha) * r.hg, r.fg)],
        "eq-7": [("upper", 0.5 * r.hg + eta * mu / 2 * r.sq, r.err)],
        "eq-11": [("upper", 0.5 * r.hg, r.err)],
        "eq-13": [("upper", r.dist, r.hg ** (1.0 / r.kappa) / r.alpha)],
        "eq-13:corrected": [("upper", r.dist, _root(r, r.hg))],
    }
    parts["ii-1"] = parts["i-1"]
    parts["eq-9"] = [("lower", -(G / r.alpha) * r.hg, r.fg)]
    parts["eq-10"] = parts["eq-5"]
    parts["eq-14"] = [("upper", r.dist, r.hg / r.alpha)]
    return parts[part]


def _pointwise(part: str, keys: tuple[str, ...], *, mu_zero: bool = False, extra: dict | None = None) -> Evidence:
    """Evidence for ``part`` on the instances ``keys`` (``mu_zero``: Prop. 5, where the lower bounds carry no
    ``mu_f`` term)."""
    measured, bound, grid = [], [], {"instance": [], "side": [], "eta": [], "point": [], "index": []}
    witness, scale = {}, 1.0
    for key in keys:
        r = INSTANCES[key]()
        scale = max(scale, r.M)
        for side, lhs, rhs in _sides(r, part, 0.0 if mu_zero else r.mu_f):
            measured.append(lhs)
            bound.append(rhs)
            grid["instance"] += [key] * lhs.size
            grid["side"] += [side] * lhs.size
            grid["eta"] += list(r.eta)
            grid["point"] += list(r.kind)
            grid["index"] += list(range(lhs.size))
        witness[key] = {
            "instance": r.name,
            "mu_f": 0.0 if mu_zero else r.mu_f,
            "kappa": r.kappa,
            "alpha": r.alpha,
            "||grad f(x*)||": r.G,
            "M = f* - inf f": r.M,
            "points": int(r.hg.size),
            **r.info,
        }
    witness.update(extra or {})
    return Evidence(
        measured=np.concatenate(measured),
        bound=np.concatenate(bound),
        relation="<=",
        rtol=RTOL,
        atol=1e-12 * scale,
        grid=grid,
        witness=witness,
    )


def _tightness_probe(mu_f: float) -> dict:
    """V3 tightness probe on (A): along ``x = x* + s u``, ``u = -grad f(x*)/||grad f(x*)||`` (normal to ``X*``),
    the ratio of ``f - f*`` to the printed lower bound ``(mu_f/2)||x - x*||^2 - ||grad f(x*)|| dist``."""
    ls = _ls()
    x_star = ls.x_star
    G = float(np.linalg.norm(x_star))
    s = np.logspace(-6, -1, 6)
    x = x_star - s[:, None] * x_star / G
    fg = 0.5 * np.sum(x * x, axis=1) - 0.5 * x_star @ x_star
    lower = mu_f / 2 * s**2 - G * ls.solution_set.distance(x)
    return {"tightness (A), s -> ratio (f - f*)/printed lower bound": dict(zip(s.tolist(), (fg / lower).tolist()))}


SRC_P2 = "Proposition 2, lines 251-268"
SRC_P5 = "Proposition 5, lines 427-441"
STMT = (
    "Dirac (pointwise) form with Err(x) = f_eta(x) - f_eta* exact, at 200 random points x eta grid, the Tikhonov "
    "points and Algorithm 1 iterates (module docstring) on "
)


def _pointwise_check(part: str, keys: tuple[str, ...], mu_zero: bool, probe: bool):
    """The claim function of one printed part (``probe``: add the V3 tightness probe to the witness)."""

    def check(ctx: Context) -> Evidence:
        extra = _tightness_probe(0.0 if mu_zero else 1.0) if probe else None
        return _pointwise(part, keys, mu_zero=mu_zero, extra=extra)

    return check


def _register_pointwise():
    """Register the printed parts of Propositions 2 and 5 and the proof equations (5)-(7), (9)-(11), (14)."""
    specs = [
        ("prop-2:i-1", SRC_P2 + " (i-1), line 257", "0 <= h(x) - h* <= Err + eta M", ("A", "C"), False),
        (
            "prop-2:i-2",
            SRC_P2 + " (i-2), line 258",
            "(mu_f/2)||x - x*||^2 - ||grad f(x*)|| dist(x, X*) <= f(x) - f* <= Err/eta",
            ("A", "C"),
            False,
        ),
        (
            "prop-2:i-3",
            SRC_P2 + " (i-3), line 259",
            "||x - x*||^2 <= (2/mu_f)(||grad f(x*)|| dist(x, X*) + Err/eta)",
            ("A", "C"),
            False,
        ),
        ("prop-2:ii-1", SRC_P2 + " (ii-1), line 261", "0 <= h(x) - h* <= Err + eta M (kappa = 2)", ("A",), False),
        (
            "prop-2:ii-2",
            SRC_P2 + " (ii-2), line 262",
            "(mu_f/2)||x - x*||^2 - ||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} <= f(x) - f* <= Err/eta "
            "(kappa = 2, alpha = alpha_2)",
            ("A",),
            False,
        ),
        (
            "prop-2:ii-3",
            SRC_P2 + " (ii-3), line 263",
            "||x - x*||^2 <= (2/mu_f)(||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} + Err/eta) (kappa = 2)",
            ("A",),
            False,
        ),
        (
            "prop-2:iii-1",
            SRC_P2 + " (iii-1), line 266",
            "0 <= h(x) - h* <= 2 Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "prop-2:iii-2",
            SRC_P2 + " (iii-2), line 267",
            "0.5 mu_f ||x - x*||^2 - (2||grad f(x*)||/alpha) Err <= f(x) - f* <= Err/eta (kappa = 1, "
            "eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "prop-2:iii-3",
            SRC_P2 + " (iii-3), line 268",
            "||x - x*||^2 <= 2 Err/(eta mu_f) (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        ("prop-5:i-1", SRC_P5 + " (i-1), line 432", "0 <= h(x) - h* <= Err + eta M", ("A", "B", "C"), True),
        (
            "prop-5:i-2",
            SRC_P5 + " (i-2), line 433",
            "-||grad f(x*)|| dist(x, X*) <= f(x) - f* <= Err/eta",
            ("A", "B", "C"),
            True,
        ),
        ("prop-5:ii-1", SRC_P5 + " (ii-1), line 436", "0 <= h(x) - h* <= Err + eta M (kappa = 2)", ("A", "B"), True),
        (
            "prop-5:ii-2",
            SRC_P5 + " (ii-2), line 437",
            "-||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} <= f(x) - f* <= Err/eta (kappa = 2, alpha = alpha_2)",
            ("A", "B"),
            True,
        ),
        (
            "prop-5:iii-1",
            SRC_P5 + " (iii-1), line 440",
            "0 <= h(x) - h* <= 2 Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "prop-5:iii-2",
            SRC_P5 + " (iii-2), line 441",
            "-(2||grad f(x*)||/alpha) Err <= f(x) - f* <= Err/eta (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "eq-5",
            "Proof of Proposition 2 (i-1), eq. (5), line 274",
            "h(x) - h* + eta (f(x) - f*) <= Err (equality on C: exact regularization)",
            ("A", "B", "C"),
            False,
        ),
        (
            "eq-6",
            "Proof of Proposition 2 (iii-1), eq. (6), line 310",
            "(mu_f/2)||x - x*||^2 - (||grad f(x*)||/alpha)(h(x) - h*) <= f(x) - f* (kappa = 1)",
            ("C",),
            False,
        ),
        (
            "eq-7",
            "Proof of Proposition 2 (iii-1), eq. (7), line 318",
            "(1/2)(h(x) - h*) + (eta mu_f/2)||x - x*||^2 <= Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "eq-9",
            "Proof of Proposition 5 (iii-1), eq. (9), line 475",
            "-(||grad f(x*)||/alpha)(h(x) - h*) <= f(x) - f* (kappa = 1)",
            ("C",),
            True,
        ),
        (
            "eq-10",
            "Proof of Proposition 5 (iii-1), eq. (10), line 479",
            "h(x) - h* + eta (f(x) - f*) <= Err",
            ("A", "B", "C"),
            True,
        ),
        (
            "eq-11",
            "Proof of Proposition 5 (iii-1), eq. (11), line 487",
            "(1/2)(h(x) - h*) <= Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "eq-14",
            "Proof of Theorem 3 (ii-2), eq. (14), line 624",
            "dist(x, X*) <= (1/alpha)(h(x) - h*) (kappa = 1, Dirac conditional law)",
            ("C",),
            False,
        ),
    ]
    for label, source, text, keys, mu_zero in specs:
        where = ", ".join(keys)
        statement = f"{text}; {STMT}{where}" + (" (C is outside Assumption 1: h nonsmooth)" if "C" in keys else "")
        check = _pointwise_check(label.split(":")[-1], keys, mu_zero, label in ("prop-2:i-2", "prop-5:i-2"))
        check.__name__ = "pointwise_" + label.replace(":", "_").replace("-", "_")
        check.__doc__ = f"{label} ({source}), pointwise: {text}."
        claim(f"{PAPER}/{label}", source=source, statement=statement, expect="holds")(check)


_register_pointwise()


# ---------------------------------------------------------------------------------------------------------------------
# (13): the printed feasibility bound of the proof of Theorem 3
# ---------------------------------------------------------------------------------------------------------------------
EQ13_SCALE = 30.0  # rows x 30: alpha_2 = 900 sigma_30^2/(2N) > 1


@cache
def _eq13_rows() -> list[dict]:
    """``dist`` and ``h - h*`` on LS(30, 50, 5), on the same design with rows x ``EQ13_SCALE`` and on (C): 200 random
    points and the ray ``Pi(x0) + s v_r`` (``v_r`` attaining ``alpha``), ``s in 10^[-3, 2]``."""
    rng = np.random.default_rng(seed_for("str-fedavg/eq-13:points"))
    rays = np.logspace(-3, 2, 11)
    out = []
    for name, scale in (("LS(30,50,5)", 1.0), (f"LS(30,50,5) rows x {EQ13_SCALE:g}", EQ13_SCALE)):
        ls = _ls(scale)
        sharp = least_squares_sharpness(ls.U, ls.N)
        pts = np.vstack([_random_points(rng, ls.x_star), ls.x_star + rays[:, None] * sharp.direction])
        dist = ls.solution_set.distance(pts)
        out.append({"name": name, "kappa": 2.0, "alpha": sharp.alpha, "hg": ls.value(pts), "dist": dist})
    rn = _rn()
    d = residual_norm_sharpness(rn.h.U, 2).direction
    pts = np.vstack([_random_points(rng, rn.x_star), rn.x_star + rays[:, None] * d])
    dist = rn.h.solution_set.distance(pts)
    out.append({"name": "C: ||Ux - v||_2", "kappa": 1.0, "alpha": rn.h.alpha, "hg": rn.h.value(pts), "dist": dist})
    return out


def _eq13(corrected: bool) -> Evidence:
    rows = _eq13_rows()
    measured = np.concatenate([r["dist"] for r in rows])
    if corrected:
        bound = np.concatenate([(r["hg"] / r["alpha"]) ** (1 / r["kappa"]) for r in rows])
    else:
        bound = np.concatenate([r["hg"] ** (1 / r["kappa"]) / r["alpha"] for r in rows])
    grid = {
        "instance": np.concatenate([[r["name"]] * r["dist"].size for r in rows]),
        "alpha": np.concatenate([[r["alpha"]] * r["dist"].size for r in rows]),
        "kappa": np.concatenate([[r["kappa"]] * r["dist"].size for r in rows]),
        "index": np.concatenate([np.arange(r["dist"].size) for r in rows]),
    }
    witness = {
        r["name"]: {"kappa": r["kappa"], "alpha": r["alpha"], "alpha^(1/kappa - 1)": r["alpha"] ** (1 / r["kappa"] - 1)}
        for r in rows
    }
    witness["points"] = "200 random x* + s w and the ray Pi(x0) + s v_r (indices 200-210), s in 10^[-3, 2]"
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=RTOL, grid=grid, witness=witness)


@claim(
    f"{PAPER}/eq-13",
    source="Proof of Theorem 3 (i-2), eq. (13), line 593",
    statement=(
        "Printed: E[dist | F_t] <= (1/alpha)(E[h | F_t] - h*)^{1/kappa} 'with order kappa >= 1'; Dirac conditional "
        "law, i.e. dist(x, X*) <= (1/alpha)(h(x) - h*)^{1/kappa} at every x, on LS(30,50,5) (kappa = 2, alpha_2 < 1), "
        f"the same design with rows x {EQ13_SCALE:g} (kappa = 2, alpha_2 > 1) and C (kappa = 1): 200 random points "
        "and the ray along v_r each. Weak sharpness only gives ((h - h*)/alpha)^{1/kappa}; the printed form is "
        "smaller by alpha^{1 - 1/kappa} when alpha > 1, kappa > 1"
    ),
    expect="fails",
)
def eq13(ctx: Context) -> Evidence:
    """(13) as printed: ``dist <= (1/alpha) (h - h*)^{1/kappa}`` pointwise."""
    return _eq13(corrected=False)


@claim(
    f"{PAPER}/eq-13:corrected",
    source="Proof of Theorem 3 (i-2), eq. (13), line 593 (corrected)",
    statement=(
        "dist(x, X*) <= ((h(x) - h*)/alpha)^{1/kappa} (what alpha-weak sharpness of order kappa gives; the printed "
        "(1/alpha)(.)^{1/kappa} with alpha moved inside the root), on the instances and points of eq-13; equality "
        "along v_r"
    ),
    expect="holds",
)
def eq13_corrected(ctx: Context) -> Evidence:
    """(13) corrected: ``dist <= ((h - h*)/alpha)^{1/kappa}``."""
    return _eq13(corrected=True)


# ---------------------------------------------------------------------------------------------------------------------
# Weak sharpness of the instances (Notation, line 47; spec W-1, W-2, W-3, V1, V2)
# ---------------------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/notation:weak-sharp:ls",
    source="Notation, line 47 (weak sharpness); spec W-1, V1",
    statement=(
        "LS(30,50,5): alpha_2 = sigma_30(U)^2/(2N) and beta = sigma_1(U)^2/(2N) satisfy alpha_2 dist^2 <= h - h* <= "
        "beta dist^2 at 10^4 points Pi(x0) + s w (s log-uniform in [1e-6, 1e3], w ~ N(0, I)), with h evaluated "
        "directly and dist by the closed-form projection; and no larger alpha is admissible: along Pi(x0) + s v_r "
        "(s = 1e-3..1e2) h - h* <= alpha_2 s^2 (equality)"
    ),
    expect="holds",
)
def weak_sharp_ls(ctx: Context) -> Evidence:
    """V1: the exact kappa = 2 constant of least squares (spec W-1)."""
    ls, rng = _ls(), ctx.rng()
    sharp = least_squares_sharpness(ls.U, ls.N)
    n = ls.dim
    base = ls.solution_set.project(rng.standard_normal(n))
    s = 10.0 ** rng.uniform(-6, 3, 10_000)
    pts = base + s[:, None] * rng.standard_normal((s.size, n))
    d2 = ls.solution_set.distance(pts) ** 2
    gap = ls.value(pts)
    ray = np.logspace(-3, 2, 11)
    gap_ray = ls.value(base + ray[:, None] * sharp.direction)
    # tolerance, derived: the equality along v_r holds up to the rounding of h next to X* (ray_rounding, ~1e-9
    # relative at s = 1e-3), of ||U v_r|| against the computed sigma_r (a_hi) and of alpha_2 s^2 (gamma_{m+10})
    spread, _, a_hi = ray_rounding(ls.U, ls.v, base[None], sharp.direction[None], ray, 2)
    rtol = float(np.max((a_hi[0] / sharp.singular_values[-1] * (1 + spread[:, 0])) ** 2)) * (1 + gamma(40)) - 1
    measured = np.concatenate([sharp.alpha * d2, gap, gap_ray])
    bound = np.concatenate([gap, sharp.beta * d2, sharp.alpha * ray**2])
    side = ["alpha_2 dist^2 <= gap"] * s.size + ["gap <= beta dist^2"] * s.size + ["gap along v_r <= alpha_2 s^2"] * 11
    radius = np.concatenate([s, s, ray])
    ratio = gap / d2
    witness = {
        "alpha_2": sharp.alpha,
        "beta": sharp.beta,
        "min ratio (h - h*)/dist^2 over samples": float(ratio.min()),
        "max ratio": float(ratio.max()),
        "ratio along v_r": (gap_ray / ray**2).tolist(),
    }
    witness["rtol (rounding along v_r)"] = rtol
    return Evidence(measured, bound, "<=", rtol=rtol, grid={"side": side, "s": radius}, witness=witness)


@cache
def _scans() -> dict:
    """Ray scans (spec W-4 step 4, V2) of four instances: ``rho_kappa(s) = min_d (h(Pi x0 + s d) - h*)/s^kappa`` over
    50 random unit normals plus the direction attaining the closed-form ``alpha``, ``s in 10^[-6, 3]``,
    ``kappa in {1, 1.5, 2, 3}``; with the closed forms (sup of admissible ``alpha`` per ``kappa``, each with a bound on
    its own rounding) and, for the residual losses, the scan's rounding bracket (:func:`_scan_bracket`)."""
    rng = np.random.default_rng(seed_for("str-fedavg/notation:weak-sharp:scan"))
    out = {}
    ls = _ls()
    sharp = least_squares_sharpness(ls.U, ls.N)
    rn = _rn()
    l2, l1 = residual_norm_sharpness(rn.h.U, 2), residual_norm_sharpness(rn.h.U, 1)
    A = rng.standard_normal((10, 20)) / np.sqrt(20)
    lc = AffineSolutionSet(A, A @ rng.standard_normal(20))
    # Errors of the closed forms: sigma_r is within E = m n eps sigma_1 of the exact value (backward-stable SVD,
    # Weyl); the l1 minimum is ||B c||_1 at LAPACK's null vector c of r - 1 rows B_Z of B = U V, |c - c*| <=
    # E_B/sigma_{r-1}(B_Z) <= E_B/sigma_r(U) (Wedin; interlacing, as r = m here), plus its sums (gamma_{m+n+r}).
    E_ls, E_rn = svd_error(ls.U), svd_error(rn.h.U)
    sigma_ls = sharp.singular_values[-1]
    B = rn.h.U @ rn.h.solution_set.row_basis
    m, n = rn.h.U.shape
    l1_error = np.sum(np.linalg.norm(B, axis=1)) * svd_error(B) / l2.sigma_r
    l1_error += gamma(m + n + B.shape[1]) * np.sum(np.abs(rn.h.U) @ np.abs(l1.direction))
    ls_error = (2 * sigma_ls * E_ls + E_ls**2) / (2 * ls.N) + gamma(3) * sharp.alpha
    cases = {  # h, X*, attaining direction, {kappa: (alpha, its error)}, (ord, power, c) of h = ||U x - v||^power/c
        "LS(30,50,5)": (ls.value, ls.solution_set, sharp.direction, {2.0: (sharp.alpha, ls_error)}, (2, 2, 2 * ls.N)),
        "||Ux - v||_2 (5x8)": (rn.h.value, rn.h.solution_set, l2.direction, {1.0: (l2.alpha, E_rn)}, (2, 1, 1)),
        "||Ux - v||_1 (5x8)": (
            lambda x: np.sum(np.abs(np.asarray(x) @ rn.h.U.T - rn.h.v), axis=-1),
            rn.h.solution_set,
            l1.direction,
            {1.0: (l1.alpha, l1_error)},
            (1, 1, 1),
        ),
        "log-cosh (10x20)": (
            lambda x: np.mean(log_cosh(np.asarray(x) @ A.T - lc.v), axis=-1),
            lc,
            lc.row_basis[:, -1],
            {},
            None,
        ),
    }
    for name, (h, sol, direction, closed, form) in cases.items():
        normals = np.vstack([normal_directions(sol, rng, 50), direction])
        base = sol.project(rng.standard_normal(sol.U.shape[1]))
        scan = sharpness_scan(h, 0.0, sol.project, base, KAPPAS, normals=normals)
        bracket = None
        if form is not None:  # the rays exactly as the scan builds them (base projected again, normals normalised)
            rays = (sol.project(np.atleast_2d(base)), normals / np.linalg.norm(normals, axis=-1)[:, None])
            bracket = _scan_bracket(sol.U, sol.v, *rays, scan.radii, *form[:2])
        out[name] = (scan, closed, bracket)
    return out


def _scan_bracket(U, v, base, directions, radii, ord: int, power: int) -> tuple[float, float]:
    """``(lo, hi)`` with ``lo <= alpha_hat / A <= hi`` on every float64 build, for the scan's ``alpha_hat`` at the order
    ``kappa = power`` of ``h = ||U x - v||_ord^power / c`` (any ``c``), where ``A = min_j ||U d_j||_ord^power / c`` is
    the exact minimum over the sampled unit normals: each ray's ratio is within ``(1 +- spread)^power``
    (:func:`fedtheory.sharpness.ray_rounding`) of its exact value, and ``gamma_{m+8}`` covers the norm, ``/c``,
    ``s^kappa`` and the division."""
    spread, _, _ = ray_rounding(U, v, base, directions, radii, ord)
    g = gamma(U.shape[0] + 8)
    lo = float(np.min(np.maximum(1 - spread, 0.0))) ** power * (1 - g)
    hi = float(np.max(np.min(1 + spread, axis=0))) ** power * (1 + g)
    return lo, hi


@claim(
    f"{PAPER}/notation:weak-sharp:alpha",
    source="Notation, line 47 (weak sharpness); spec W-1, W-2, V2",
    statement=(
        "The ray scan's alpha_hat = inf_{s, d} (h(Pi x0 + s d) - h*)/s^kappa (51 normals incl. the attaining one, "
        "s in 10^[-6, 3]) equals the closed-form largest admissible alpha at the admissible order: LS(30,50,5) "
        "kappa = 2, alpha_2 = sigma_30^2/(2N); ||Ux - v||_2 kappa = 1, sigma_r(U); ||Ux - v||_1 kappa = 1, the exact "
        "enumeration minimum of ||Ud||_1 over unit d in row(U) (U 5x8)"
    ),
    expect="holds",
)
def weak_sharp_alpha(ctx: Context) -> Evidence:
    """V2: the scan attains the closed-form constants (and finds nothing smaller).

    Tolerance: rounding only, derived. ``alpha_hat`` samples ``h`` down to ``s = 1e-6``, where ``h`` is evaluated next
    to ``X*`` with a relative rounding of ``delta/(s ||U d||)`` (about 1e-8 on LS(30,50,5); sign and size depend on
    the BLAS build, so a fixed ``rtol = 1e-9`` decided the verdict by luck): the interval is where the exact sampled
    minimum can be given ``alpha_hat`` (:func:`_scan_bracket`), widened by the closed form's own error.
    """
    names, measured, bound, lo, hi = [], [], [], [], []
    for name, (scan, closed, bracket) in _scans().items():
        for kappa, (alpha, error) in closed.items():
            names.append(f"{name}, kappa = {kappa:g}")
            value = float(scan.alpha_hat[list(scan.kappas).index(kappa)])
            measured.append(value)
            bound.append(alpha)
            lo.append(value / bracket[1] - error)
            hi.append(value / bracket[0] + error)
    witness = {name: {"alpha": b, "interval": [a, z]} for name, b, a, z in zip(names, bound, lo, hi, strict=True)}
    return Evidence(
        np.array(measured), np.array(bound), "==", interval=(lo, hi), grid={"instance": names}, witness=witness
    )


ADMISSIBLE = {
    "LS(30,50,5)": {2.0},
    "||Ux - v||_2 (5x8)": {1.0},
    "||Ux - v||_1 (5x8)": {1.0},
    "log-cosh (10x20)": set(),
}


@claim(
    f"{PAPER}/notation:weak-sharp:kappa",
    source="Notation, line 47 (weak sharpness: 'for all x'); spec V2",
    statement=(
        "Per instance and kappa in {1, 1.5, 2, 3}, the ray scan's verdict (admissible / rho -> 0 at small or large s) "
        "matches the closed form: least squares is weak sharp only with kappa = 2 (ratio alpha_2 s^{2 - kappa}); "
        "||Ux - v||_p only with kappa = 1 (ratio ||Ud||_p s^{1 - kappa}); log-cosh h = mean log cosh(Ax - b) (10x20, "
        "consistent) with no kappa (quadratic at small s, linear at large s). Measured: number of mismatches"
    ),
    expect="holds",
    figure="weak-sharpness-scan",
)
def weak_sharp_kappa(ctx: Context) -> Evidence:
    """V2: which orders are globally admissible, scan vs closed form; figure ``weak-sharpness-scan``."""
    scans = _scans()
    mismatch, names, table = [], [], {}
    for name, (scan, _, _) in scans.items():
        for kappa, verdict in zip(scan.kappas, scan.verdict, strict=True):
            names.append(f"{name}, kappa = {kappa:g}")
            mismatch.append(int((verdict == "admissible") != (float(kappa) in ADMISSIBLE[name])))
        table[name] = scan.summary()
    path = ctx.figure_path("weak-sharpness-scan")
    if path is not None:
        fig, ax = plotting.figure(width=4.6, height=3.2)
        for i, (name, (scan, closed, _)) in enumerate(scans.items()):
            color = f"C{i}"
            ax.semilogy(scan.kappas, scan.alpha_hat, "osD^"[i] + "-", color=color, markersize=7 - i, label=name)
            for kappa, (alpha, _) in closed.items():
                ax.semilogy([kappa], [alpha], "*", color=color, markersize=13, markerfacecolor="none")
        ax.plot([], [], "*", color="gray", markerfacecolor="none", markersize=11, label="closed-form alpha")
        ax.set_xlabel("order kappa")
        ax.set_ylabel("alpha_hat = inf_s,d (h - h*)/s^kappa")
        ax.set_title("Ray scans, s in [1e-6, 1e3], 51 normals")
        ax.legend(fontsize=7, loc="upper right")
        plotting.save(fig, path)
    return Evidence(np.array(mismatch), 0, "==", grid={"instance, kappa": names}, witness=table)


@claim(
    f"{PAPER}/notation:weak-sharp:lasso",
    source="Notation, line 47 (weak sharpness); spec W-3 (LASSO inner problem, local quadratic growth)",
    statement=(
        "LASSO h = (1/(2m))||Ax - b||^2 + lam||x||_1 (A 20x40 Gaussian/sqrt(40), b Gaussian, lam = 0.05; X* a "
        "certified polytope, LassoSolutionSet): at 10 random points per radius r in {1e-3, 1e-2, 0.1, 1} around the "
        "minimiser, the quadratic-growth ratio (h - h*)/dist^2 stays bounded away from 0 (alpha_hat_2(r) > 0, local "
        "kappa = 2), while the kappa = 1 ratio (h - h*)/dist -> 0 as r -> 0 (reported)"
    ),
    expect="holds",
)
def weak_sharp_lasso(ctx: Context) -> Evidence:
    """W-3: empirical quadratic growth of the LASSO solution set."""
    from fedtheory.problems.solution_sets import LassoSolutionSet

    rng = ctx.rng()
    A = rng.standard_normal((20, 40)) / np.sqrt(40)
    b = rng.standard_normal(20)
    lasso = LassoSolutionSet(A, b, 0.05)
    radii = np.array([1e-3, 1e-2, 0.1, 1.0])
    w = rng.standard_normal((radii.size, 10, 40))
    pts = lasso.xhat + radii[:, None, None] * w / np.linalg.norm(w, axis=-1, keepdims=True)
    flat = pts.reshape(-1, 40)
    dist = lasso.distance(flat).reshape(radii.size, 10)
    gap = (lasso.value(flat) - lasso.h_star).reshape(radii.size, 10)
    q2 = (gap / dist**2).min(axis=1)
    q1 = (gap / dist).min(axis=1)
    witness = {
        "alpha_hat_1(r)": dict(zip(radii.tolist(), q1.tolist())),
        "h*": lasso.h_star,
        "certificate": {k: v for k, v in lasso.certificate.items() if isinstance(v, float)},
    }
    return Evidence(q2, 0.0, ">", grid={"r": radii}, witness=witness)


# ---------------------------------------------------------------------------------------------------------------------
# Tikhonov path (spec W-6, V4)
# ---------------------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/sec-1:tikhonov-path",
    source="Related work, line 27 (Tikhonov regularization); Proposition 2 (i-1), (ii-3), lines 257, 263",
    statement=(
        "Instance A (LS(30,50,5), f = 1/2||x||^2), eta in 10^[-4, 0] (20 values), Tikhonov points x_eta = "
        "(H + eta I)^{-1} U'v/N (Err(x_eta) = 0): (a) Prop 2 (i-1) at x_eta, h(x_eta) - h* <= eta M; (b) the orders "
        "it implies are not contradicted by the path: the printed order 1 of h(x_eta) - h* and the order 1/4 of "
        "||x_eta - x*|| implied by (ii-3) at Err = 0 (||x - x*||^2 <= (2/mu_f)||grad f(x*)||(eta M/alpha_2)^{1/2}) "
        "lie below the lower ends of the 95% intervals of the log-log slopes fitted for eta <= 1e-2"
    ),
    expect="holds",
    figure="tikhonov-path",
)
def tikhonov_path(ctx: Context) -> Evidence:
    """V4: Prop 2 (i-1) along the Tikhonov path and its decay orders; figure ``tikhonov-path``."""
    ls = _ls()
    x_star = ls.x_star
    M = 0.5 * x_star @ x_star
    eta = np.logspace(-4, 0, 20)
    tp = bilevel.tikhonov_path(ls, 1.0, eta)  # (H + eta I)^{-1} U'v/N in the singular basis (spec W-6)
    x_eta = tp.x_eta
    gap = ls.value(x_eta)
    dist = tp.distance
    small = eta <= 1e-2
    fit_h, fit_d = loglog_slope(eta[small], gap[small]), loglog_slope(eta[small], dist[small])
    path = ctx.figure_path("tikhonov-path")
    if path is not None:
        fig, ax = plotting.figure(width=4.4, height=3.2)
        ax.loglog(eta, gap, "o-", markersize=3, label="h(x_eta) - h*")
        ax.loglog(eta, eta * M, "--", label="eta M (Prop 2 (i-1), Err = 0)")
        ax.loglog(eta, dist, "s-", markersize=3, label="||x_eta - x*|| = dist(x_eta, X*)")
        ax.set_xlabel("eta")
        ax.set_title(
            f"Tikhonov path, LS(30,50,5), f = ||x||^2/2\nslopes (eta <= 1e-2): gap {fit_h.slope:.2f}, "
            f"dist {fit_d.slope:.2f}"
        )
        ax.legend(fontsize=7)
        plotting.save(fig, path)
    measured = np.concatenate([gap, [1.0, 0.25]])
    bound = np.concatenate([eta * M, [fit_h.lo, fit_d.lo]])
    quantity = ["h(x_eta) - h* <= eta M"] * eta.size + ["printed order 1 <= slope of gap", "order 1/4 <= slope of dist"]
    witness = {
        "slope h(x_eta) - h*": [fit_h.slope, fit_h.lo, fit_h.hi],
        "slope ||x_eta - x*||": [fit_d.slope, fit_d.lo, fit_d.hi],
        "closed-form orders (W-6)": "gap ~ eta^2 (1/2) sum x*_i^2/lambda_i, dist ~ eta ||H^+ x*||",
        "M = f* - inf f": M,
        "linear-solve check max |x_eta - solve|": float(
            np.max(np.abs(x_eta - tikhonov_point(ls, SquaredDistance(np.zeros(ls.dim)), eta)))
        ),
    }
    grid = {"quantity": quantity, "eta": np.concatenate([eta, [np.nan, np.nan]])}
    return Evidence(measured, bound, "<=", rtol=RTOL, grid=grid, witness=witness)


# ---------------------------------------------------------------------------------------------------------------------
# Exact regularization for kappa = 1 (spec W-2, V14)
# ---------------------------------------------------------------------------------------------------------------------
def _tikhonov_socp(rn: _RN, eta: float) -> tuple[np.ndarray, float, dict]:
    """``argmin ||Ux - v||_2 + (eta/2)||x - x0||^2`` by Clarabel (certified), its value and certificate."""
    x = cp.Variable(rn.x0.size)
    prob = cp.Problem(cp.Minimize(cp.norm(rn.h.U @ x - rn.h.v, 2) + eta / 2 * cp.sum_squares(x - rn.x0)))
    cert = solve(prob)
    return x.value, float(prob.value), cert


@claim(
    f"{PAPER}/sec-1:exact-regularization",
    source="Related work, line 27 (exact regularization [21, 20, 5, 6]); spec W-2, V14",
    statement=(
        "Instance C (h = ||Ux - v||_2, U 5x8, f = 1/2||x - x0||^2): x_eta* = x* exactly iff eta <= eta_crit = "
        "1/||(U^+)'(x0 - x*)||. Certified SOCP (Clarabel) at eta/eta_crit in {0.25, 0.5, 0.99, 1.01, 1.5, 3} and at "
        "the printed Case iii bound eta_paper: the excess f_eta(x*) - f_eta* is <= tol below eta_crit and > tol above "
        "it, tol = 1e-7 max(1, f_eta(x*)) (100x Clarabel's gap tolerance)"
    ),
    expect="holds",
)
def exact_regularization(ctx: Context) -> Evidence:
    """V14: the exact-regularization threshold of the residual-norm instance, closed form vs certified SOCP."""
    rn = _rn()
    x_star = rn.x_star
    f_star = 0.5 * float(np.sum((x_star - rn.x0) ** 2))
    ratios = [0.25, 0.5, 0.99, 1.01, 1.5, 3.0, rn.eta_paper / rn.eta_crit]
    measured, bound, labels, dev, gaps, routes = [], [], [], [], [], []
    for rho in ratios:
        eta = rho * rn.eta_crit
        x_eta, value, cert = _tikhonov_socp(rn, eta)
        excess = eta * f_star - value  # f_eta(x*) = h* + eta f* = eta f*
        tol = 1e-7 * max(1.0, eta * f_star)
        below = rho <= 1
        measured.append(excess if below else tol)
        bound.append(tol if below else excess)
        labels.append(f"eta/eta_crit = {rho:.4g} ({'excess <= tol' if below else 'excess > tol'})")
        dev.append(float(np.linalg.norm(x_eta - x_star)))
        gaps.append(cert["duality_gap"])
        routes.append(f"{cert['route']} ({cert['status']})")
    witness = {
        "eta_crit": rn.eta_crit,
        "eta_paper = alpha/(2||grad f(x*)||)": rn.eta_paper,
        "||x_eta - x*|| per eta/eta_crit": dict(zip([f"{r:.4g}" for r in ratios], dev)),
        "duality gaps (fedtheory certificate)": gaps,
        "clarabel routes (status)": routes,
    }
    return Evidence(np.array(measured), np.array(bound), "<=", grid={"eta": labels}, witness=witness)


@claim(
    f"{PAPER}/prop-2:iii-exact",
    source="Proposition 2 Case iii condition, line 265 (also Prop 5, line 439; Thm 1 (iii), line 141)",
    statement=(
        "On h = ||Ux - v||_2 with f = 1/2||x - x0||^2 (spec W-2; 200 random consistent instances, m x n in {5x8, "
        "3x10, 10x12, 20x30}, U Gaussian, x0 ~ N(0, 9I)), the printed Case iii condition eta <= alpha/(2||grad "
        "f(x*)||) = sigma_r/(2||x* - x0||) lies inside the exact-regularization range eta <= eta_crit (x_eta* = x*), "
        "so under Case iii the Tikhonov point is the bilevel solution; measured eta_paper, bound eta_crit "
        "(the ratio eta_crit/eta_paper is reported; >= 2 since ||(U^+)'w|| <= ||w||/sigma_r)"
    ),
    expect="holds",
)
def case_iii_exact(ctx: Context) -> Evidence:
    """V14: is the printed Case iii condition sufficient for exact regularization? (eta_paper vs eta_crit)."""
    rng = ctx.rng()
    paper, crit, shapes = [], [], []
    for m, n in ((5, 8), (3, 10), (10, 12), (20, 30)):
        for _ in range(50):
            rn = _RN.draw(rng, m, n)
            paper.append(rn.eta_paper)
            crit.append(rn.eta_crit)
            shapes.append(f"{m}x{n}")
    paper, crit = np.array(paper), np.array(crit)
    ratio = crit / paper
    rn = _rn()
    witness = {
        "eta_crit/eta_paper: min, median, max": [float(ratio.min()), float(np.median(ratio)), float(ratio.max())],
        "main instance C": {"eta_paper": rn.eta_paper, "eta_crit": rn.eta_crit, "ratio": rn.eta_crit / rn.eta_paper},
    }
    return Evidence(paper, crit, "<=", rtol=RTOL, grid={"shape": shapes}, witness=witness)


# ---------------------------------------------------------------------------------------------------------------------
# Slack constraint h <= h* + delta (Related work, line 29; spec V18)
# ---------------------------------------------------------------------------------------------------------------------
DELTAS = np.logspace(-8, -2, 7)


@cache
def _slack() -> dict:
    """Solutions of ``min f s.t. h(x) <= h* + delta`` from their KKT conditions (bisection on the multiplier's log).

    A (``f = 1/2||x||^2``): the Tikhonov point ``x_eta`` with ``h(x_eta) = delta`` (``h(x_eta)`` increases with
    ``eta``). C (``min 1/2||x - x0||^2 s.t. ||Ux - v||_2 <= delta``): ``x = x* + d``, ``d`` in ``row(U)``; in the right
    singular basis ``d_i = w_i/(1 + nu sigma_i^2)`` (``w = V'(x0 - x*)``) with ``||U d|| = (sum sigma_i^2 d_i^2)^{1/2}
    = delta``."""
    ls = _ls()
    lo, hi = np.full(DELTAS.size, np.log(1e-16)), np.full(DELTAS.size, np.log(1e6))
    for _ in range(200):
        mid = (lo + hi) / 2
        below = bilevel.tikhonov_path(ls, 1.0, np.exp(mid)).inner_gap < DELTAS
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    a = bilevel.tikhonov_path(ls, 1.0, np.exp(lo))
    a_dist = a.distance
    a_drop = -np.sum(a.offset * (a.x_star + a.offset / 2), axis=1)  # f* - f(x_eta), no cancellation
    rn = _rn()
    sigma, V = rn.h.solution_set.singular_values, rn.h.solution_set.row_basis
    w = V.T @ (rn.x0 - rn.x_star)  # x0 - x* lies in row(U); d = x_delta - x* = V d_r

    def shift(log_nu):
        return w / (1 + np.exp(log_nu) * sigma**2)

    c_dist, c_drop = [], []
    for delta in DELTAS:
        lo, hi = np.log(1e-16), np.log(1e16)
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if np.linalg.norm(sigma * shift(mid)) > delta else (lo, mid)
        d = shift(hi)
        c_dist.append(float(np.linalg.norm(d)))
        c_drop.append(float(0.5 * w @ w - 0.5 * np.sum((w - d) ** 2)))
    sharp = least_squares_sharpness(ls.U, ls.N)
    return {
        "A": {"dist": a_dist, "drop": a_drop, "alpha": sharp.alpha, "kappa": 2.0, "tol": 1e-12},
        "C": {"dist": np.array(c_dist), "drop": np.array(c_drop), "alpha": rn.h.alpha, "kappa": 1.0, "tol": 1e-12},
    }


@claim(
    f"{PAPER}/sec-1:slack",
    source="Related work, line 29 ('approximating the constraint as h(x) <= h* + eps_h ... may cause an "
    "undesirable deviation from the solution set')",
    statement=(
        "For every delta in 10^[-8, -2] the solution x_delta of min f s.t. h(x) <= h* + delta leaves X* and lowers "
        "the outer value below f*: dist(x_delta, X*) > tol and f* - f(x_delta) > tol, on A (LS(30,50,5), "
        "f = 1/2||x||^2) and C (||Ux - v||_2, f = 1/2||x - x0||^2), both from the KKT conditions by bisection on the "
        "multiplier, tol = 1e-12"
    ),
    expect="holds",
)
def slack_deviation(ctx: Context) -> Evidence:
    """V18: the slack constraint shifts the solution off ``X*``."""
    data = _slack()
    measured, bound, labels = [], [], []
    for key in ("A", "C"):
        d = data[key]
        for name in ("dist", "drop"):
            measured.append(d[name])
            bound.append(np.full(DELTAS.size, d["tol"]))
            labels += [f"{key}: {name}, delta = {x:.0e}" for x in DELTAS]
    witness = {
        key: {"dist": data[key]["dist"].tolist(), "f* - f(x_delta)": data[key]["drop"].tolist()} for key in ("A", "C")
    }
    return Evidence(np.concatenate(measured), np.concatenate(bound), ">", grid={"case": labels}, witness=witness)


@claim(
    f"{PAPER}/sec-1:slack:order",
    source="Related work, line 29; spec W-4 step 2, V18 (shift O((delta/alpha)^{1/kappa}))",
    statement=(
        "The slack solution's deviation obeys dist(x_delta, X*) <= (delta/alpha)^{1/kappa} (weak sharpness: A kappa "
        "= 2, alpha_2; C kappa = 1, sigma_r) for delta in 10^[-8, -2]; the fitted log-log slopes of dist vs delta "
        "are reported against 1/kappa"
    ),
    expect="holds",
)
def slack_order(ctx: Context) -> Evidence:
    """V18: the deviation is of order ``(delta/alpha)^{1/kappa}``."""
    data = _slack()
    measured, bound, labels, witness = [], [], [], {}
    for key in ("A", "C"):
        d = data[key]
        measured.append(d["dist"])
        bound.append((DELTAS / d["alpha"]) ** (1 / d["kappa"]))
        labels += [f"{key}, delta = {x:.0e}" for x in DELTAS]
        fit = loglog_slope(DELTAS, d["dist"])
        witness[key] = {"slope": [fit.slope, fit.lo, fit.hi], "1/kappa": 1 / d["kappa"], "alpha": d["alpha"]}
    return Evidence(
        np.concatenate(measured), np.concatenate(bound), "<=", rtol=1e-6, grid={"case": labels}, witness=witness
    )
