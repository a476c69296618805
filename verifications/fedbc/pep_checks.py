"""Worst cases over the whole function class (performance estimation) for the deterministic per-round statements of
FedBC: Lemma B.1 ((27), (28), (35), (20), (43)), Lemma B.2 ((61)-(64), (65)) and the steps (69), (70), (72) of the
proof of Theorem 4.5, with sigma = 0 and every device participating (S = N).

Formulation and replay: :func:`fedtheory.pep.primal_dual.primal_dual_metric`. Clients: ``N`` functions, each
``L``-smooth and possibly non-convex (Assumption 4.2 with ``L_i = L``; PEPit's ``SmoothFunction``). Algorithm 1 with
Algorithm 2's warm-started ``K`` local gradient steps (eps > 0) or the exact oracle (9) (``K = 0``, eps = 0), the
server step (12), ``x_i^0 = z^0`` (H3), ``R`` rounds; the statement is read at the last round. Multipliers:
``lam_i`` fixed in ``Lambda = [lam_min, lam_max]`` with lam_min = 1 + L (H1) and lam_max < (1 + L)^2/L (H2): the
dual step (11) is a scalar recursion, and we take ``alpha -> 0``. This is a reading inside the hypotheses, not a
weakening: every statement holds for every alpha > 0, its alpha-terms (``alpha G^2``) vanish as ``alpha -> 0``,
and for a finite number of rounds the iterates depend continuously on alpha, so a printed inequality at every
alpha > 0 is equivalent, at ``alpha -> 0``, to the inequality with the multipliers held fixed and the alpha-terms
removed. Tolerances gamma_i cancel from every difference of Lagrangians at fixed multipliers.

Scale: the class is invariant under ``f(x) -> s^2 f(x/s)``, which scales every squared quantity (eps, delta^2, the
squared distances and gradients, the function values) by ``s^2``; hence eps = 1 (Lemma B.1 family) and delta = 1
(Lemma B.2 family) lose no generality, and an inequality with no constant term is checked at a unit scale
(``(1/N) sum_i ||x_i^R - z^R||^2 <= 1``). Assumption 4.3 (``max_{a,b in Lambda} ||a grad f_i(x) - b grad f_j(x)||
<= delta``, ``i != j``) is imposed at every point the method visits (each ``z^t`` and each ``x_i^t``), the
expressible form of a uniform bound over X: a holding verdict covers the larger class, and a failing replay's
interpolants meet the bound at those points (and Lemma B.2's proof uses it only there). Assumption 4.1 (a compact X
of diameter R containing the iterates and a stationary point) is met by any box holding the finitely many points;
R enters only through the alpha-terms.

Statements left without a class check:

* Theorem 4.5 ((14), (90)), (73)-(77), (83), (89): B_0 holds ``f_i(z*)`` at the global minimiser z* of a non-convex
  F; a PEP can declare stationary points but not a global minimum (a lower bound at every point of R^d), and (81)'s
  gradient bound G over X is likewise a condition at every point.
* Corollary 4.6 ((15), (93)-(100)): a statement on the dual recursion (95) over sign sequences and on alpha-driven
  multiplier dynamics, whose class quantifier is not over functions (checked exactly in cor_4_6).
* (37), (38), (45)-(47), (55)-(60), and the first inequality of (63): algebraic identities or steps in the
  multiplier projection and the weighted mean, not statements over a function class (checked in lem_b_1/lem_b_2).
* (26) and (62)'s sqrt(eps)-term with eps > 0 together with delta: inequalities between norms (not squared) with two
  independent constants are not linear in the Gram matrix; (27) (the square of (26) with (a + b)^2 <= 2a^2 + 2b^2)
  and (61)-(62) at eps = 0 are checked instead.
* Every expectation over device sampling (S < N, (48)-(53), Lemma B.1 (i)/(ii) and Lemma B.2 with partial
  participation) and over stochastic gradients (Assumption 4.4, the SGD oracle (24)): random objects, not a
  deterministic worst case.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import primal_dual as pep_pd

from .printed import M_1, C_0_eq61, C_0_text, M, consensus_terms

PAPER = "fedbc"
SETTINGS = {1.0: (2.0, 3.5), 0.5: (1.5, 4.0)}  # L -> (lam_min, lam_max): (H1) lam_min = 1 + L, (H2) lam_max < (1+L)^2/L
EPS = 1.0
CLASS = "N clients f_i, each L-smooth (non-convex allowed: Assumption 4.2 with L_i = L)"
SEARCH = "(worst case by performance estimation; a failing point is confirmed by replaying fedtheory's FedBC on the "
SEARCH += "interpolated instance)"


def _lams(N: int, box: tuple, order: str = "up") -> tuple:
    lo, hi = box
    lams = tuple(float(v) for v in np.linspace(lo, hi, N))
    return lams if order == "up" else lams[::-1]


def _gd_grid(ctx: Context, **metric) -> list[dict]:
    """Lemma B.1 family: K local GD steps, eps = 1. Quick: L = 1, (N, K, R) = (2, 2, 2), beta = 1/(L + 2 lam_max);
    full: also L = 1/2, (2, 1, 1), (3, 2, 2), (2, 3, 2), beta x {1, 1.9}, multipliers in both orders."""
    cases = ((2, 2, 2),) if ctx.quick else ((2, 1, 1), (2, 2, 2), (3, 2, 2), (2, 3, 2))
    grid = []
    for L in (1.0,) if ctx.quick else (1.0, 0.5):
        box = SETTINGS[L]
        for N, K, R in cases:
            for frac in (1.0,) if ctx.quick else (1.0, 1.9):
                for order in ("up",) if ctx.quick else ("up", "down"):
                    lams = _lams(N, box, order)
                    point = dict(N=N, K=K, R=R, beta=frac / (L + 2 * box[1]), lams=lams, box=box, L=L, eps=EPS)
                    grid.append({**point, **{k: (v(point) if callable(v) else v) for k, v in metric.items()}})
    return grid


GD_TEXT = (
    "at L in {1} (quick) / {1, 1/2} (full) with Lambda = [1 + L, lam_max], lam_max = 3.5 / 4 inside (H2), "
    "multipliers fixed at the ends (and middle) of Lambda (alpha -> 0), (N, K, R) in {(2, 2, 2)} / also "
    "{(2, 1, 1), (3, 2, 2), (2, 3, 2)}, beta = {1} / {1, 1.9} x 1/(L + 2 lam_max), eps = 1 (scale-free)"
)
GD_HYP = (
    "interpolants L-smooth by construction (A4.2); A4.1: a box holding the finitely many iterates; (H1): lam_i >= "
    "1 + L; oracle accuracy ||e_i^{t+1}||^2 <= eps (23) is a constraint of the SDP; alpha -> 0 (module docstring)"
)


def _checked(grid: list[dict], bound, hypotheses: str) -> Evidence:
    """:func:`class_evidence` on the primal-dual formulation."""
    return class_evidence(
        pep_pd.primal_dual_metric,
        pep_pd.replay_primal_dual_metric,
        grid,
        bound=bound,
        witness={"class": CLASS, "hypotheses": hypotheses},
    )


def _gd_claim(grid: list[dict], bound) -> Evidence:
    return _checked(grid, bound, GD_HYP)


@claim(
    f"{PAPER}/eq-27:pep",
    source="Lemma B.1 (proof), eq. (27)",
    statement="||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= 2 M_1^2 ||x_i^{t+1} - x_i^t||^2 + 2 eps (M_1 = L + 2 lam_max) "
    "over the whole class of " + CLASS + ", for device 1 at the last round, " + GD_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def eq_27_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the worst ||grad_x L_1||^2 - 2 M_1^2 ||dx_1||^2 against 2 eps.
    Reference: the SDP's worst case, certified by its dual."""
    grid = _gd_grid(ctx, metric="stationarity", devices=(0,), coef=lambda p: 2 * M_1(p["L"], p["box"][1]) ** 2)
    return _gd_claim(grid, bound=lambda eps, **_: 2 * eps)


def _stmt_i(ctx: Context) -> Evidence:
    grid = _gd_grid(ctx, metric="stationarity", coef=lambda p: 2 * M_1(p["L"], p["box"][1]) ** 2)
    return _gd_claim(grid, bound=lambda eps, L, box, **_: 2 * M_1(L, box[1]) ** 2 * eps)


@claim(
    f"{PAPER}/eq-28:pep",
    source="Lemma B.1 (proof), eq. (28)",
    statement="(1/N) sum_i ||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= 2 M_1^2 [(1/N) sum_i ||x_i^{t+1} - x_i^t||^2 + "
    "eps] over the whole class of " + CLASS + ", S = N, at the last round, " + GD_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def eq_28_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the worst mean ||grad_x L_i||^2 - 2 M_1^2 mean ||dx_i||^2 against
    2 M_1^2 eps. Reference: the SDP's worst case, certified by its dual."""
    return _stmt_i(ctx)


@claim(
    f"{PAPER}/lem-b.1:i:pep",
    source="Lemma B.1 (i), eq. (20)",
    statement="For the iterates of Algorithm 1 with S = N (sigma = 0): (1/N) sum_i ||grad_x L_i(x_i^t, z^t, "
    "lam_i^t)||^2 <= 2 M_1^2 [(1/N) sum_i ||x_i^{t+1} - x_i^t||^2 + eps] over the whole class of "
    + CLASS
    + ", "
    + GD_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def lem_b1_i_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), full participation only (the printed lemma's failure in lem_b_1 comes from
    devices left out of S_t, not covered here). Reading: as eq-28:pep. Reference: the SDP's worst case."""
    return _stmt_i(ctx)


@claim(
    f"{PAPER}/eq-35:pep",
    source="Lemma B.1 (proof), eq. (35)",
    statement="L_i(x_i^{t+1}, z^t, lam_i^t) - L_i(x_i^t, z^t, lam_i^t) <= eps/(2L) - (lam_i^t - L_i)||x_i^{t+1} - "
    "x_i^t||^2 over the whole class of " + CLASS + ", for device 1 at the last round, " + GD_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def eq_35_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L_i = L (so eps/(2L) = eps/(2 L_i); the printed failure in lem_b_1 needs
    L_i < L). Reading: the worst I + (lam_1 - L)||dx_1||^2 against eps/(2L). Reference: the SDP's worst case."""
    grid = _gd_grid(ctx, metric="local_decrease", devices=(0,), coef=lambda p: p["lams"][0] - p["L"])
    return _gd_claim(grid, bound=lambda eps, L, **_: eps / (2 * L))


@claim(
    f"{PAPER}/lem-b.1:ii:pep",
    source="Lemma B.1 (ii), eqs. (21)/(43)",
    statement="Under lam_i^t >= 1 + L_i, S = N: (1/N) sum_i ||x_i^{t+1} - x_i^t||^2 <= (1/N) sum_i [L_i(x_i^t, z^t, "
    "lam_i^t) - L_i(x_i^{t+1}, z^{t+1}, lam_i^{t+1})] + eps/(2L) + alpha G^2 + lam_max (1/N) sum_i ||x_i^{t+1} - "
    "z^{t+1}||^2 over the whole class of " + CLASS + ", alpha -> 0, " + GD_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def lem_b1_ii_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: alpha -> 0 removes alpha G^2 (the failure in lem_b_1 comes from
    alpha G^2 < alpha G, a multiplier effect outside this reading); the worst mean ||dx||^2 - mean dLag - lam_max
    mean ||x^{t+1} - z^{t+1}||^2 against eps/(2L). Reference: the SDP's worst case."""
    grid = _gd_grid(ctx, metric="lagrangian_descent", coef=lambda p: p["box"][1])
    return _gd_claim(grid, bound=lambda eps, L, **_: eps / (2 * L))


@claim(
    f"{PAPER}/eq-72:pep",
    source="Proof of Theorem 4.5, eq. (72)",
    statement="(1/N) sum ||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= (2M_1^2/N) sum [L_i^t - L_i^{t+1}] + (lam_max/N) sum "
    "||x_i^{t+1} - z^{t+1}||^2 + M_1^2 eps/L + alpha M_1^2 G^2 over the whole class of "
    + CLASS
    + ", S = N, alpha -> 0, "
    + GD_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def eq_72_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the worst mean ||grad_x L_i||^2 - 2 M_1^2 mean dLag - lam_max mean
    ||x^{t+1} - z^{t+1}||^2 against M_1^2 eps/L (alpha -> 0). Reference: the SDP's worst case."""
    grid = _gd_grid(
        ctx, metric="lagrangian_stationarity", coef=lambda p: (2 * M_1(p["L"], p["box"][1]) ** 2, p["box"][1])
    )
    return _gd_claim(grid, bound=lambda eps, L, box, **_: M_1(L, box[1]) ** 2 * eps / L)


# ---------------------------------------------------------------- Lemma B.2 (exact oracle, eps = 0, delta = 1)
def _exact_grid(ctx: Context, metric: str, Ns=(2,), **extra) -> list[dict]:
    """Quick: N = 2 at L = 1 and L = 1/2, R = 1 (R = 2 at L = 1 for the sum over rounds); full: L in {1, 1/2}, N in
    ``Ns``, R in {1, 2, 3}, multipliers at both ends of Lambda in both orders and all at lam_max."""
    if ctx.quick:
        cases = [(1.0, 2, 2 if metric == "consensus" else 1, "up"), (0.5, 2, 1, "up")]
    else:
        cases = [(L, N, R, o) for L in (1.0, 0.5) for N in Ns for R in (1, 2, 3) for o in ("up", "down", "top")]
    grid = []
    for L, N, R, order in cases:
        box = SETTINGS[L]
        lams = (box[1],) * N if order == "top" else _lams(N, box, order)
        grid.append(dict(N=N, K=0, R=R, beta=1.0, lams=lams, box=box, L=L, metric=metric, **extra))
    return grid


EXACT_TEXT = (
    "with the exact oracle (9) (eps = 0), S = N, delta = 1 (scale-free), at L in {1, 1/2} with Lambda = [1 + L, "
    "lam_max], lam_max = 3.5 / 4 inside (H2), multipliers fixed in Lambda (alpha -> 0), N = 2 and R = 1 (R = 2 at L "
    "= 1 for sums over rounds) (quick) / N in {2, 3} where the statement allows, R in {1, 2, 3} (full)"
)
EXACT_HYP = (
    "interpolants L-smooth by construction (A4.2); A4.3 with delta = 1 at every visited point is a constraint of the "
    "SDP; (H1) lam_i >= 1 + L, (H2) lam_max < (1 + L)^2/L; exact oracle (eps = 0); alpha -> 0 (module docstring)"
)


def _signed_square(v: float) -> float:
    """``v |v|``: ``||u||^2 <= v |v|`` iff ``||u|| <= v`` (for v < 0 both are false)."""
    return float(v * abs(v))


def _exact_claim(grid: list[dict], bound) -> Evidence:
    return _checked(grid, bound, EXACT_HYP)


def _spread_bound(C0):
    return lambda L, box, **_: _signed_square(1.0 / (C0(L, box[1]) * (1 + L) ** 2))


@claim(
    f"{PAPER}/eq-61:pep",
    source="Lemma B.2 (proof), (61)",
    statement="(1 - lam_max L_i/(1 + L_i)^2) ||x_i^{t+1} - x_j^{t+1}|| <= sqrt(eps)/(1 + L_i) + delta/(1 + L_i)^2 "
    "over the whole class of "
    + CLASS
    + " satisfying Assumption 4.3, for devices 1, 2 at the last round, "
    + EXACT_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def eq_61_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: squared, ||x_1 - x_2||^2 against (delta/((1+L)^2 C))^2, C the
    (61) coefficient (positive under (H2)). Reference: the SDP's worst case."""
    return _exact_claim(_exact_grid(ctx, "spread", delta2=1.0), bound=_spread_bound(C_0_eq61))


@claim(
    f"{PAPER}/eq-62:pep",
    source="Lemma B.2 (proof), (62)",
    statement="||x_i^{t+1} - x_j^{t+1}|| <= sqrt(eps)/(C_0 (1 + L_i)) + delta/(C_0 (1 + L_i)^2) with C_0 := 1 - "
    "lam_max/(4L) over the whole class of " + CLASS + " satisfying Assumption 4.3, for devices 1, 2 at the last "
    "round, " + EXACT_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="fails",
)
def eq_62_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: squared with the sign kept (``||u||^2 <= v|v|`` iff ``||u|| <=
    v``); at L = 1/2, lam_max = 4 (inside (H1)-(H2)) C_0 = -1 and the right side is negative, so any instance with
    x_1 != x_2 is a witness. Reference: the SDP's worst case and its replay."""
    return _exact_claim(_exact_grid(ctx, "spread", delta2=1.0), bound=_spread_bound(C_0_text))


@claim(
    f"{PAPER}/eq-63:pep",
    source="Lemma B.2 (proof), (63)",
    statement="max_{i,j} ||x_i - x_j||^2 <= sum_{j != i} [2 S(N-1) eps/(C_0^2 N (1+L_i)^2) + S(N-1) delta^2/(C_0^2 "
    "N (1+L_i)^4)] (the right inequality, C_0 := 1 - lam_max/(4L)) over the whole class of " + CLASS + " satisfying "
    "Assumption 4.3, N = 2, " + EXACT_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def eq_63_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), N = 2 (the maximum over pairs is the one pair). Reading: eps = 0, S = N.
    Reference: the SDP's worst case."""
    grid = _exact_grid(ctx, "spread", delta2=1.0)
    return _exact_claim(
        grid, bound=lambda N, L, box, **_: (N - 1) * N * (N - 1) / (C_0_text(L, box[1]) ** 2 * N * (1 + L) ** 4)
    )


def _consensus_bound(N, R, L, box, **_):
    return R * consensus_terms(0.0, 1.0, N, N, C_0_text(L, box[1]), [L] * N)[1]


@claim(
    f"{PAPER}/eq-64:pep",
    source="Lemma B.2 (proof), (64)",
    statement="(1/N) sum_{t<T} sum_i ||x_i^{t+1} - z^{t+1}||^2 <= T eps S(N-1)/(C_0^2 N^2) sum_i (1+L_i)^-2 + T "
    "delta^2 S(N-1)/(C_0^2 N^2) sum_i (1+L_i)^-4 (C_0 := 1 - lam_max/(4L), T = R) over the whole class of "
    + CLASS
    + " satisfying Assumption 4.3, "
    + EXACT_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def eq_64_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: S = N (E_t is the identity), eps = 0. Reference: the SDP's worst
    case."""
    return _exact_claim(_exact_grid(ctx, "consensus", Ns=(2, 3), delta2=1.0), bound=_consensus_bound)


@claim(
    f"{PAPER}/lem-b.2:pep",
    source="Lemma B.2, (44) with (64)-(65)",
    statement="With S = N: (1/T) sum_{t<T} (1/N) sum_i ||x_i^{t+1} - z^{t+1}||^2 <= (65)/T over the whole class of "
    + CLASS
    + " satisfying Assumption 4.3, "
    + EXACT_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def lem_b2_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), full participation (the printed lemma's failure in lem_b_2 comes from devices
    left out of S_t). Reading: (64) divided by T, the eps-term at eps = 0. Reference: the SDP's worst case."""
    grid = _exact_grid(ctx, "consensus", Ns=(2, 3), delta2=1.0)
    solved = _exact_claim(grid, bound=_consensus_bound)
    R = np.array([p["R"] for p in grid], dtype=float)
    lo, hi = solved.interval
    return Evidence(
        measured=np.asarray(solved.measured) / R,
        bound=np.asarray(solved.bound) / R,
        relation="<=",
        interval=(np.asarray(lo) / R, np.asarray(hi) / R),
        atol=solved.atol,
        grid=solved.grid,
        witness=solved.witness,
        pep=solved.pep,
    )


# ---------------------------------------------------------------- Theorem 4.5 steps (69), (70)
THM_TEXT = (
    "at (z^t, x_i^t) after t = R rounds with the exact oracle, S = N, at L in {1, 1/2} with Lambda = [1 + L, "
    "lam_max] inside (H1)-(H2), multipliers fixed in Lambda (alpha -> 0), N = 2, R = 1 (quick) / N in {2, 3}, "
    "R in {1, 2, 3} (full); the inequality is homogeneous, checked at (1/N) sum ||x_i^t - z^t||^2 <= 1"
)


THM_HYP = EXACT_HYP.replace("A4.3 with delta = 1 at every visited point is a constraint of the SDP", "A4.3 unused")


def _thm_grid(ctx: Context, coef: tuple) -> list[dict]:
    return _exact_grid(ctx, "server_gradient", Ns=(2, 3), coef=coef, normalize="consensus")


@claim(
    f"{PAPER}/eq-69:pep",
    source="Proof of Theorem 4.5, eq. (69)",
    statement="||grad f(z^t)||^2 <= (4/N) sum ||grad f_i(z^t) - grad f_i(x_i^t)||^2 + (8 lam_max/N) sum ||x_i^t - "
    "z^t||^2 + (2/N) sum ||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 over the whole class of "
    + CLASS
    + ", "
    + THM_TEXT
    + " "
    + SEARCH
    + ".",
    scope="printed",
    expect="holds",
)
def eq_69_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the worst left side minus the gradient terms against 8 lam_max at
    unit mean consensus distance. Reference: the SDP's worst case."""
    return _checked(_thm_grid(ctx, (4.0, 2.0)), lambda box, **_: 8 * box[1], THM_HYP)


@claim(
    f"{PAPER}/eq-70:pep",
    source="Proof of Theorem 4.5, eq. (70)",
    statement="||grad f(z^t)||^2 <= (4(L^2 + 2 lam_max)/N) sum ||z^t - x_i^t||^2 + (2/N) sum ||grad_x L_i(x_i^t, z^t, "
    "lam_i^t)||^2 over the whole class of " + CLASS + ", " + THM_TEXT + " " + SEARCH + ".",
    scope="printed",
    expect="holds",
)
def eq_70_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the worst left side minus (2/N) sum ||grad_x L_i||^2 against M =
    4(L^2 + 2 lam_max) at unit mean consensus distance. Reference: the SDP's worst case."""
    return _checked(_thm_grid(ctx, (0.0, 2.0)), lambda L, box, **_: M(L, box[1]), THM_HYP)
