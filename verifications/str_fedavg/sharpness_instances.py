"""Instances, points and constants shared by the weak-sharpness claims of StR-FedAvg; no claims.

Used by :mod:`.prop_2_5_pointwise` (the pointwise Propositions 2 and 5 and the proof equations), by
:mod:`.thm_3_eq_13_feasibility` ((13)), by :mod:`.notation_weak_sharpness` (weak-sharpness constants and orders) and by
:mod:`.sec_1_tikhonov_exact_slack` (Tikhonov path, exact regularization, slack constraint). The claim statements'
"module docstring" is this one. Every instance is a family (:func:`fedtheory.harness.family.family`), drawn from a
generator seeded from the family's name.

Instances (``h* = 0`` in all: the systems are consistent).

* LS(30, 50, 5) (our least-squares design, :func:`fedtheory.problems.bilevel.ls_instance`): ``U`` 30 x 50 with
  ``N(0, 1/50)`` entries, 6 rows per client, ``N = 5``, ``v = U x_true`` with a 5-sparse Gaussian ``x_true``;
  ``h(y) = (1/(2N)) ||U y - v||^2``, ``X* = U^+ v + null(U)``.
  Weak sharp with ``kappa = 2`` and ``alpha_2 = sigma_30(U)^2/(2N)`` exactly (:func:`fedtheory.sharpness.
  least_squares_sharpness`), and with no ``alpha > 0`` for any other order.
* (A) LS with ``f = 1/2 ||x||^2`` (``mu_f = 1``): ``x* = U^+ v``, ``grad f(x*) = x*``, ``M = f* - inf f = f*``,
  Tikhonov point ``x_eta = (H + eta I)^{-1} U'v/N`` and ``Err(x) = 1/2 (x - x_eta)'(H + eta I)(x - x_eta)``
  (``H = U'U/N``), all closed forms (:func:`~fedtheory.problems.bilevel.tikhonov_point`,
  :func:`~fedtheory.problems.bilevel.tikhonov_gap`, :func:`~fedtheory.problems.bilevel.tikhonov_path`).
* (B) LS with the Huber outer ``f(x) = sum_i H_mu(x_i)``, ``mu = 0.05`` (convex, ``mu_f = 0``): ``x*``
  minimises ``f`` over ``X* = x_p + Z z`` and ``x_eta`` minimises ``h + eta f``
  (:func:`fedtheory.problems.bilevel.bilevel_optimum`, :func:`~fedtheory.problems.bilevel.tikhonov_reference`:
  Clarabel polished on its active set, with Fenchel duality-gap certificates, reported), ``M = f*`` (``inf f = 0``),
  ``grad f(x*) = clip(x*/mu, -1, 1)``.
* (C) ``h(x) = ||U x - v||_2`` (not squared; ``U`` 5 x 8 Gaussian,
  :func:`~fedtheory.problems.bilevel.residual_norm_instance`) with ``f = 1/2 ||x - x0||^2``,
  ``x0 ~ N(0, 9 I)``: ``kappa = 1`` with ``alpha = sigma_r(U)`` exactly, ``x* = Pi(x0)``. ``h`` is not
  differentiable on ``X*``, so (C) is OUTSIDE Assumption 1 (``h_i`` L-smooth); the propositions' proofs use only
  convexity, weak sharpness and (strong) convexity of ``f``. For ``eta <= eta_crit = 1/||(U^+)'(x0 - x*)||`` the
  Tikhonov point is ``x*`` itself (exact regularization,
  :func:`~fedtheory.problems.bilevel.exact_regularization_threshold`), so ``f_eta* = eta f*``; the Case iii grid
  ``eta = {0.1, 0.5, 1} alpha/(2||grad f(x*)||)`` lies below ``eta_crit`` (claim ``prop-2:iii-exact``).

Points: 200 random ``x = x* + s w`` (``w ~ N(0, I/n)``, ``s`` log-uniform in ``[1e-3, 1e2]``) at every ``eta`` of
the grid (``{1e-3, 1e-2, 0.1, 1}`` for (A), (B); the Case iii grid for (C)), the Tikhonov points ``x_eta'`` of the
grid at every ``eta``, and every server iterate of deterministic runs of Algorithm 1
(:func:`fedtheory.algorithms.bilevel.run`, full participation, ``K = 5``, ``gamma_g = 1``,
``gamma_l = 1/(2K(L_h + eta L_f))``, ``R = 150``, ``eta in {0.1, 0.01}``) on (A) and (B); (C) has no gradient.

``M``: the proof of Proposition 2 needs ``f* - E f(xbar^R) < M`` "for some M > 0"; read as ``M := f* - inf f``
(with ``delta = 0``), which gives ``<=`` and suffices for every part.

Paper text: weak sharpness (Notation), Proposition 2 (its Case iii condition) and the proof of Proposition 2 (``M``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.bilevel import StRParams, run
from fedtheory.harness.family import Family, family
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
from fedtheory.sharpness import least_squares_sharpness

REGISTERS_CLAIMS = False  # shared instances; the claims are in the sibling modules

PAPER = "str-fedavg"
ETAS = (1e-3, 1e-2, 0.1, 1.0)
ALG_ETAS = (0.1, 0.01)
CASE_III = (0.1, 0.5, 1.0)  # eta / (alpha/(2 ||grad f(x*)||))
HUBER_MU = 0.05
N_POINTS = 200


# ---------------------------------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------------------------------
@family(f"{PAPER}/instance:LS(30,50,5)")
def ls_30_50_5(fam: Family) -> InnerLeastSquares:
    """LS(30, 50, 5) (module docstring; :func:`~fedtheory.problems.bilevel.ls_instance`)."""
    return ls_instance(30, 50, 5, fam.rng()).inner


@dataclass(frozen=True)
class Rows:
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


def random_points(rng: np.random.Generator, center: np.ndarray, count: int = N_POINTS) -> np.ndarray:
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


def _stack(name, blocks, consts, info) -> Rows:
    """Concatenate per-block dicts of arrays into :class:`Rows`."""
    keys = ("eta", "kind", "hg", "fg", "dist", "sq", "err")
    cat = {k: np.concatenate([np.broadcast_to(b[k], b["hg"].shape) for b in blocks]) for k in keys}
    return Rows(name, **cat, **consts, info=info)


def _block_a(inner, outer, x_star, f_star, points, eta, kind) -> dict:
    """The pointwise quantities of :class:`Rows` on (A) at ``points`` (P, n) and one ``eta``."""
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


def _block_c(rn, x_star, f_star, points, eta, kind) -> dict:
    """The pointwise quantities of :class:`Rows` on (C) at ``points`` (P, n) and one ``eta <= eta_crit`` (exact
    regularization: ``f_eta* = eta f*``)."""
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


@family(f"{PAPER}/instance:A")
def _instance_a(fam: Family) -> Rows:
    """(A): LS(30, 50, 5) with ``f = 1/2 ||x||^2`` (module docstring)."""
    inner, rng = ls_30_50_5(fam.profile), fam.rng()
    x_star = inner.x_star  # U^+ v = argmin_{X*} ||x||
    outer = SquaredDistance(np.zeros(inner.dim))
    f_star = float(outer.value(x_star))
    sharp = least_squares_sharpness(inner.U, inner.N)
    rand = random_points(rng, x_star)
    algs = {eta: _run_alg1(inner, outer, eta, rng.standard_normal(inner.dim)) for eta in ALG_ETAS}

    def block(points, eta, kind):
        return _block_a(inner, outer, x_star, f_star, points, eta, kind)

    tik_points = tikhonov_point(inner, outer, np.array(ETAS))
    blocks = [block(rand, eta, "random") for eta in ETAS]
    blocks += [block(tik_points, eta, "tikhonov") for eta in ETAS]
    blocks += [block(algs[eta], eta, "alg1") for eta in ALG_ETAS]
    consts = {"mu_f": 1.0, "kappa": 2.0, "alpha": sharp.alpha, "G": float(np.linalg.norm(x_star)), "M": f_star}
    return _stack("A: LS(30,50,5), f = 1/2||x||^2", blocks, consts, {"alg1_etas": list(ALG_ETAS)})


@family(f"{PAPER}/instance:B")
def _instance_b(fam: Family) -> Rows:
    """(B): LS(30, 50, 5) with the Huber outer, ``mu = 0.05`` (module docstring)."""
    inner, rng = ls_30_50_5(fam.profile), fam.rng()
    outer = HuberL1(HUBER_MU, dim=inner.dim)
    ref = bilevel_optimum(inner, outer)
    tik = tikhonov_reference(inner, outer, np.array(ETAS))
    f_eta_star = dict(zip(ETAS, tik.value))
    rand = random_points(rng, ref.x_star)
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
class RN:
    """(C): ``h = ||U x - v||_2`` on a consistent system with ``f = 1/2 ||x - x0||^2``, and the
    bilevel solution ``x* = Pi(x0)``.

    Attributes
    ----------
    case : ResidualNormInstance
        ``inner`` (:class:`~fedtheory.problems.bilevel.ResidualNorm`, ``alpha = sigma_r(U)``), ``outer``, ``x0``.
    x_star : ndarray
        ``Pi(x0)``.
    eta_crit : float
        ``1/||(U^+)'(x0 - x*)||``: ``x_eta = x*`` iff ``eta <= eta_crit``
        (:func:`~fedtheory.problems.bilevel.exact_regularization_threshold`).
    eta_paper : float
        The Case iii condition's bound ``alpha/(2 ||grad f(x*)||)`` (Proposition 2).
    """

    case: ResidualNormInstance
    x_star: np.ndarray
    eta_crit: float
    eta_paper: float

    @classmethod
    def draw(cls, rng: np.random.Generator, m: int = 5, n: int = 8) -> RN:
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


@family(f"{PAPER}/instance:C")
def rn_c(fam: Family) -> RN:
    """(C) (module docstring)."""
    return RN.draw(fam.rng())


@family(f"{PAPER}/instance:C-points")
def _instance_c(fam: Family) -> Rows:
    """(C) at the Case iii grid ``eta = {0.1, 0.5, 1} alpha/(2 ||grad f(x*)||)`` (module docstring)."""
    rn, rng = rn_c(fam.profile), fam.rng()
    x_star = rn.x_star
    f_star = 0.5 * float(np.sum((x_star - rn.x0) ** 2))
    etas = [c * rn.eta_paper for c in CASE_III]
    assert max(etas) <= rn.eta_crit  # exact regularization: f_eta* = eta f*
    rand = random_points(rng, x_star)

    def block(points, eta, kind):
        return _block_c(rn, x_star, f_star, points, eta, kind)

    blocks = [block(rand, eta, "random") for eta in etas] + [block(x_star[None], eta, "tikhonov") for eta in etas]
    consts = {"mu_f": 1.0, "kappa": 1.0, "alpha": rn.h.alpha, "G": float(np.linalg.norm(x_star - rn.x0)), "M": f_star}
    info = {
        "note": "h = ||Ux - v||_2 is not differentiable on X*: outside Assumption 1 (h_i L-smooth)",
        "eta_paper": rn.eta_paper,
        "eta_crit": rn.eta_crit,
        "f_eta*": "eta f* (exact regularization, eta <= eta_crit)",
    }
    return _stack("C: h = ||Ux - v||_2 (5x8), f = 1/2||x - x0||^2", blocks, consts, info)


def search_frame(ctx, key: str) -> dict:
    """What the witness search of a pointwise claim needs on (A) or (C): ``x*``, the unit directions ``u1 = -grad
    f(x*)/||grad f(x*)||`` (normal to ``X*``: the Cauchy-Schwarz step of Proposition 2 is tight along it), ``u2`` in
    ``row(U)`` orthogonal to ``u1`` and ``u3`` in ``null(U)`` (along ``X*``), and, on (C), the Case iii bound
    ``alpha/(2 ||grad f(x*)||)`` on ``eta`` (below ``eta_crit``)."""
    if key == "A":
        inner = ls_30_50_5(ctx)
        x_star, grad, sol = inner.x_star, inner.x_star, inner.solution_set
        eta_max = None
    else:
        rn = rn_c(ctx)
        x_star, grad, sol, eta_max = rn.x_star, rn.x_star - rn.x0, rn.h.solution_set, rn.eta_paper
    u1 = -grad / np.linalg.norm(grad)
    u2 = next(w for w in (r - (r @ u1) * u1 for r in sol.row_basis.T) if np.linalg.norm(w) > 0.1)
    return {"x_star": x_star, "u": (u1, u2 / np.linalg.norm(u2), sol.null_basis[:, 0]), "eta_max": eta_max}


def pointwise_rows(ctx, key: str, x: np.ndarray, eta: float) -> Rows:
    """:class:`Rows` of (A) or (C) at arbitrary points ``x`` (P, n) and one ``eta`` (on (C), ``eta <= eta_crit``),
    with the formulas and constants of the instance families; for the witness search."""
    if key == "A":
        inner = ls_30_50_5(ctx)
        x_star, outer = inner.x_star, SquaredDistance(np.zeros(inner.dim))
        f_star = float(outer.value(x_star))
        block = _block_a(inner, outer, x_star, f_star, x, eta, "search")
        alpha = least_squares_sharpness(inner.U, inner.N).alpha
        consts = {"mu_f": 1.0, "kappa": 2.0, "alpha": alpha, "G": float(np.linalg.norm(x_star)), "M": f_star}
        return _stack("A", [block], consts, {})
    rn = rn_c(ctx)
    if eta > rn.eta_crit:
        raise ValueError(f"eta = {eta} above eta_crit = {rn.eta_crit}: f_eta* = eta f* does not hold")
    f_star = 0.5 * float(np.sum((rn.x_star - rn.x0) ** 2))
    block = _block_c(rn, rn.x_star, f_star, x, eta, "search")
    G = float(np.linalg.norm(rn.x_star - rn.x0))
    return _stack("C", [block], {"mu_f": 1.0, "kappa": 1.0, "alpha": rn.h.alpha, "G": G, "M": f_star}, {})


INSTANCES = {"A": _instance_a, "B": _instance_b, "C": _instance_c}
