"""Lemmas 1, 2, 4, 5 and Theorem 1 over the whole function class, by performance estimation (sigma = 0, lambda = 0).

Each claim solves, at small (m, K, R), the worst case over every m-tuple of L-smooth (non-convex) clients of the
printed inequality's left side minus its homogeneous right-hand terms, for deterministic OledFL-SGD (beta > 0) and
DFedAvg (beta = 0) with a fixed mixing matrix (:mod:`fedtheory.pep.gossip`); the remaining right-hand term is the
printed constant times G^2. Assumption 3 is read per client, ``||grad f_i(y)||^2 <= G^2 + B^2 ||grad f(y)||^2``; "for
all y" is expressible only at the points the problem holds, so it is imposed at every point where a client is
evaluated (every client is evaluated at every such point). The inequalities are checked at the last round ``t = R -
1`` of an R-round run from ``x_i^0 = x_{i,K}^{-1} = x^0`` (so R = 2 reaches ``Delta^t > 0``). A grid point whose worst
case exceeds the bound is confirmed by replaying fedtheory's OledFL (:mod:`fedtheory.algorithms.decentralized`) on the
interpolated instance.

G^2 = 1 loses no generality: ``f_i -> s^2 f_i(./s)`` keeps L and maps the class with G to the class with sG, and both
sides scale by s^2. The G = 0 instances form a cone inside the class, so a finite worst case also certifies them (a
G-free part that failed would make the problem unbounded, and the solve would raise, not report a hold). The margin is
(left side minus the homogeneous right-hand terms) over the G^2 term, not left side over right side.

Statements with no claim here (their class is not expressible as a performance estimation problem):

- Lemma 1, 2, 4, 5 and Theorem 1 with sigma > 0: expectations over stochastic gradients (Assumption 2) are not a
  worst case over deterministic functions.
- The lambda > 0 (SAM) parts: the step ``x + lambda g/||g||`` divides by a norm, not a linear combination of points.
- Theorem 2, Lemmas 6, 8 (stability): an expectation over the random index of the replaced sample.
- Lemma 7 with sigma = 0 and Lemma 9: need L-smooth clients with bounded gradients (Assumption 4), a class without
  exact interpolation conditions in PEPit; Lemma 7's deterministic part ``(1 + eta L)`` is also attained exactly
  (tight), which the verdict cannot separate from the bound.
- Lemma 10 and Lemma 3: inequalities on numbers and on the matrix W, with no function class.
- Theorem 1's rate and Remarks 1-3: orders in T, K, not a bound at fixed constants.
"""

from __future__ import annotations

import numpy as np

from fedtheory import topology
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import gossip

from . import printed as pf
from .lemma_runs import PAPER, beta_at_gamma, lem5_beta_cap, proof_beta_cap, thm1_beta_cap

L, G2 = 1.0, 1.0
TOPOLOGIES = {"complete-2": topology.complete(2), "lazy-ring-3": topology.ring(3, 0.5), "ring-4": topology.ring(4)}
QUICK = (("complete-2", 2, 2),)
FULL = (("complete-2", 2, 2), ("complete-2", 2, 3), ("complete-2", 3, 2), ("lazy-ring-3", 2, 2))
"""(topology, K, R) of the grids: quick profile and full profile."""
CONSENSUS_QUICK = (("lazy-ring-3", 2, 2),)
CONSENSUS_FULL = (("lazy-ring-3", 2, 2), ("lazy-ring-3", 3, 2), ("lazy-ring-3", 2, 3))
"""Lemma 4's grids (on the complete graph the aggregated models agree and its left side is zero)."""

CLASS = (
    "m L-smooth clients (L = 1, non-convex) with ||grad f_i(y)||^2 <= G^2 + B^2 ||grad f(y)||^2 (G^2 = 1) at every "
    "point where a client is evaluated (the expressible form of Assumption 3's 'for all x')"
)
HYPOTHESES = {
    "clients": "the replayed clients are the interpolants of the worst case: L-smooth by construction",
    "heterogeneity": "Assumption 3 (per client, G^2 = 1, B^2 as in the grid) is a constraint of the problem at every "
    "evaluated point, so the replayed instance meets it there (up to the solve's accuracy); it is not imposed "
    "elsewhere",
    "noise": "sigma = 0 and lambda = 0 (exact gradients, OledFL-SGD)",
}


def _W(name: str) -> tuple:
    return tuple(tuple(float(w) for w in row) for row in TOPOLOGIES[name].dense)


def _psi(name: str) -> float:
    return float(TOPOLOGIES[name].psi)


def _grid(ctx: Context, shapes, etas, betas, B2s=(1.0,)) -> list[dict]:
    """Points ``(topology, K, R, eta, beta, B2)``; ``etas(K, B2)`` and ``betas(K, psi)`` give the printed range. The
    quick profile keeps the first shape, the first B^2, the first step and the last beta (one solve per claim)."""
    grid = []
    for name, K, R in shapes[0] if ctx.quick else shapes[1]:
        for B2 in B2s[:1] if ctx.quick else B2s:
            for eta in etas(K, B2)[:1] if ctx.quick else etas(K, B2):
                for beta in betas(K, _psi(name))[-1:] if ctx.quick else betas(K, _psi(name)):
                    grid.append(dict(topology=name, K=K, R=R, eta=float(eta), beta=float(beta), L=L, G2=G2, B2=B2))
    return grid


def _with_terms(grid: list[dict], metric: str) -> list[dict]:
    """Name each point's metric (a key of ``METRICS``)."""
    return [{**p, "metric": metric} for p in grid]


def _params(topology: str, metric: str, **p) -> dict:
    """The formulation's parameters: the mixing matrix as a tuple of rows, the metric's terms (and normalisation)."""
    p = {**p, "W": _W(topology)}
    chosen = METRICS[metric](p)
    return {**p, "terms": chosen[0], **({"normalize": chosen[1]} if len(chosen) > 1 else {})}


def round_gap(pep, **point):
    """:func:`fedtheory.pep.gossip.oledfl_round_gap` at a grid point (topology and metric named)."""
    return gossip.oledfl_round_gap(pep, **_params(**point))


def replay_round_gap(worst, **point) -> float:
    """:func:`fedtheory.pep.gossip.replay_oledfl_round_gap` at a grid point."""
    return gossip.replay_oledfl_round_gap(worst, **_params(**point))


def _evidence(grid, bound, extra: dict) -> Evidence:
    return class_evidence(
        round_gap,
        replay_round_gap,
        grid,
        bound=bound,
        witness={"class": CLASS, "hypotheses": HYPOTHESES, **extra},
    )


def _psi_of(W: tuple) -> float:
    return float(np.linalg.norm(np.array(W) - 1 / len(W), 2))


# ---- Lemma 1 -------------------------------------------------------------------------------------------------------
def _lem1_terms(coefficient: int):
    def terms(p):
        K, eta, beta, B2 = p["K"], p["eta"], p["beta"], p["B2"]
        return ((("drift", 1.0), ("delta", -coefficient * K * beta**2), ("grad_agg", -18 * K**3 * eta**2 * B2)),)

    return terms


def _lem1_bound(K, eta, G2, **_):
    return 18 * K**3 * eta**2 * G2


def _lem1_grid(ctx: Context, coefficient: int) -> list[dict]:
    def etas(K, B2):
        return (float(pf.lem1_eta_cap(K, L)), 0.5 * float(pf.lem1_eta_cap(K, L)))

    def betas(K, psi):
        return (0.5 * thm1_beta_cap(psi), thm1_beta_cap(psi), 0.0)  # quick: beta = 0, shared with proof-4k

    grid = _grid(ctx, (QUICK, FULL), etas, betas, (1.0, 4.0))
    # at beta = 0 the two readings are one problem: name it once so that it is solved once
    return [{**p, "metric": "lem-1:6k" if p["beta"] == 0 else f"lem-1:{coefficient}k"} for p in grid]


GRID_TEXT = (
    "at (topology, K, R) in {(complete m = 2, 2, 2)} (full profile: also (complete 2, 2, 3), (complete 2, 3, 2), "
    "(lazy ring 1/2, 1/4, 1/4 with m = 3, 2, 2)), the inequality at the last round t = R - 1"
)


@claim(
    f"{PAPER}/lem-1:pep",
    source="Lemma 1, eq. (8)",
    statement="As printed with sigma = 0, lambda = 0: V_1^t <= 6K beta^2 Delta^t + 18 K^3 eta^2 G^2 + 18 K^3 eta^2 B^2 "
    f"(1/m) sum_i ||grad f(x_i^t)||^2 over the whole class of {CLASS}, {GRID_TEXT}, eta in {{sqrt(3)/(6KL), half of "
    "it}}, beta in {0, Theorem 1's cap} (full: also half the cap), B^2 = 1 (full: also 4) (worst case by performance "
    "estimation; a failing point is confirmed by replaying fedtheory's OledFL on the interpolated instance).",
    scope="printed",
    expect="holds",
)
def lem_1_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above. Reading: sigma = lambda = 0 part of (8), per-client Assumption 3
    at the evaluated points. Reference: the SDP's certified worst case; replay of OledFL where it exceeds the bound."""
    return _evidence(_lem1_grid(ctx, 6), _lem1_bound, {})


@claim(
    f"{PAPER}/lem-1:proof-4k:pep",
    source="Lemma 1 (proof, final display (12))",
    statement="The proof's final display with sigma = 0, lambda = 0: V_1^t <= 4K beta^2 Delta^t + 18 K^3 eta^2 G^2 + "
    f"18 K^3 eta^2 B^2 (1/m) sum_i ||grad f(x_i^t)||^2 over the whole class of {CLASS}, {GRID_TEXT}, eta and beta as "
    "in lem-1:pep (performance estimation; failures replayed on fedtheory's OledFL).",
    scope="printed",
    expect="holds",
)
def lem_1_proof_4k_pep(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-1:pep`` with 4K beta^2."""
    return _evidence(_lem1_grid(ctx, 4), _lem1_bound, {})


# ---- Lemma 2 -------------------------------------------------------------------------------------------------------
def _lem2_terms(p):
    m, eta = len(p["W"]), p["eta"]
    return ((("mean_step", 1.0),), ("grad_sum", m**2 / (2 * eta**2)))


@claim(
    f"{PAPER}/lem-2:pep",
    source="Lemma 2, eq. (13)",
    statement="As printed with sigma = 0, lambda = 0: V_2^t = ||xbar^{t+1} - xbar^t||^2 <= (2 eta^2/m^2) ||sum_i "
    f"sum_k grad f_i(x_{{i,k}}^t)||^2 over the whole class of {CLASS}, {GRID_TEXT}, eta in {{1/(KL), half of it}} "
    "(Lemma 2 prints no step condition), beta in {0, Theorem 1's cap}; both sides are homogeneous of degree two, so "
    "the right side is normalised to 1 (performance estimation; failures replayed on fedtheory's OledFL).",
    scope="printed",
    expect="holds",
)
def lem_2_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: the ratio of the two sides (a scale-free statement: the class is
    closed under shrinking the instance). Reference: the certified worst case (1/2 exactly: V_2 is (eta^2/m^2) times
    the squared sum)."""

    def etas(K, B2):
        return (float(pf.lem5_eta_cap(K, L)), 0.5 * float(pf.lem5_eta_cap(K, L)))

    def betas(K, psi):
        return (0.0, thm1_beta_cap(psi))

    grid = _with_terms(_grid(ctx, (QUICK, FULL), etas, betas), "lem-2")
    return _evidence(grid, [1.0] * len(grid), {"normalisation": "(2 eta^2/m^2) ||sum sum grad f_i||^2 <= 1"})


# ---- Lemma 4 -------------------------------------------------------------------------------------------------------
def _lem4_terms(p):
    K, eta, beta, B2 = p["K"], p["eta"], p["beta"], p["B2"]
    s = 1 / (1 - _psi_of(p["W"])) ** 2
    return ((("consensus", 1.0), ("delta", -6 * K * beta**2 * s), ("grad_agg", -18 * K**3 * eta**2 * B2 * s)),)


@claim(
    f"{PAPER}/lem-4:pep",
    source="Lemma 4, eq. (17)",
    statement="As printed with sigma = 0, lambda = 0: (1/m) sum_i ||x_i^t - xbar^t||^2 <= C_1^t/(1 - psi)^2, C_1^t "
    f"the right side of (8), over the whole class of {CLASS}, at (topology, K, R) in {{(lazy ring m = 3, 2, 2)}} "
    "(full: also (lazy ring 3, 3, 2), (lazy ring 3, 2, 3)), eta in {0.999/(6KL), half of it}, beta in {0, "
    "Theorem 1's cap} (performance estimation; failures replayed on fedtheory's OledFL).",
    scope="printed",
    expect="holds",
)
def lem_4_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above. Reading: C_1^t with sigma = lambda = 0, per-client Assumption 3.
    Reference: the certified worst case; replay where it exceeds the bound."""

    def etas(K, B2):
        return (0.999 * float(pf.lem4_eta_cap(K, L)), 0.5 * float(pf.lem4_eta_cap(K, L)))

    def betas(K, psi):
        return (0.0, thm1_beta_cap(psi))

    grid = _with_terms(_grid(ctx, (CONSENSUS_QUICK, CONSENSUS_FULL), etas, betas), "lem-4")
    return _evidence(grid, lambda topology, K, eta, G2, **_: 18 * K**3 * eta**2 * G2 / (1 - _psi(topology)) ** 2, {})


# ---- Lemma 5 -------------------------------------------------------------------------------------------------------
def _c2_hom(p, scale: float) -> tuple:
    """``scale`` times the homogeneous part of C_2^t (sigma = lambda = 0), as negative metric terms."""
    K, eta, B2, m = p["K"], p["eta"], p["B2"], len(p["W"])
    r = K / (1 - _psi_of(p["W"])) ** 2
    return (("grad_sum", -scale * 2 * eta**2 / m**2), ("grad_agg", -scale * 4 * (9 * r + 1) * eta**2 * K**2 * B2))


def _c2_const(W, K, eta, G2) -> float:
    r = K / (1 - _psi_of(W)) ** 2
    return 4 * (9 * r + 1) * eta**2 * K**2 * G2


def _lem5_pre_terms(p):
    K, beta, eta, psi = p["K"], p["beta"], p["eta"], _psi_of(p["W"])
    mu = float(pf.lem5_mu(K, beta, psi))
    a = 5 * (1 + 24 * eta**2 * K**2 * L**2 + 6 * K / (1 - psi) ** 2) * beta**2
    return ((("delta_next", mu), ("delta", -a), *_c2_hom(p, 5.0)),)


def _lem5_terms(p):
    K, beta, psi = p["K"], p["beta"], _psi_of(p["W"])
    mu, gamma = float(pf.lem5_mu(K, beta, psi)), float(pf.lem5_gamma(K, beta, psi))
    # Delta^t - (Delta^t - Delta^{t+1})/(1 - gamma) - 5 C_2^t/(mu (1 - gamma)) <= 0
    return ((("delta", 1 - 1 / (1 - gamma)), ("delta_next", 1 / (1 - gamma)), *_c2_hom(p, 5 / (mu * (1 - gamma)))),)


def _lem5_grid(ctx: Context, metric: str, betas) -> list[dict]:
    def etas(K, B2):
        return (float(pf.lem5_eta_cap(K, L)), 0.5 * float(pf.lem5_eta_cap(K, L)))

    return _with_terms(_grid(ctx, (QUICK, FULL), etas, betas), metric)


def _lem5_pre_betas(K, psi):
    return (0.0, proof_beta_cap(K, psi), lem5_beta_cap(K, psi))


def _lem5_betas(K, psi):
    """Lemma 5's beta range where gamma < 1 (up to gamma = 0.9); at its cap gamma > 1 (see the claim). At gamma =
    0.99 Clarabel fails on (complete 2, K = 3, R = 2, eta = 1/(2KL)) (coefficients 1/(1 - gamma) = 100)."""
    return (0.0, proof_beta_cap(K, psi), min(beta_at_gamma(K, psi, 0.9), lem5_beta_cap(K, psi)))


@claim(
    f"{PAPER}/lem-5:pre-recursion:pep",
    source="Lemma 5 (its proof, before dividing by mu)",
    statement="As printed with sigma = 0, lambda = 0: (1 - 30K beta^2/(1 - psi)^2) Delta^{t+1} <= 5(1 + 24 eta^2 K^2 "
    f"L^2 + 6K/(1 - psi)^2) beta^2 Delta^t + 5 C_2^t over the whole class of {CLASS}, {GRID_TEXT}, eta in {{1/(KL), "
    "half of it}}, beta in {0, the cap of the proof of Theorem 1, Lemma 5's cap} (performance estimation; failures "
    "replayed on fedtheory's OledFL).",
    scope="printed",
    expect="holds",
)
def lem_5_pre_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above. Reading: C_2^t with sigma = lambda = 0. Reference: the certified
    worst case; replay where it exceeds the bound."""
    grid = _lem5_grid(ctx, "lem-5:pre", _lem5_pre_betas)
    return _evidence(grid, lambda topology, K, eta, G2, **_: 5 * _c2_const(_W(topology), K, eta, G2), {})


@claim(
    f"{PAPER}/lem-5:pep",
    source="Lemma 5",
    statement="As printed with sigma = 0, lambda = 0: Delta^t <= (Delta^t - Delta^{t+1})/(1 - gamma) + 5 C_2^t/(mu "
    f"(1 - gamma)) over the whole class of {CLASS}, {GRID_TEXT}, eta in {{1/(KL), half of it}}, beta in {{0, the cap "
    "of the proof of Theorem 1, the beta where gamma = 0.9}} (inside Lemma 5's cap). Beyond gamma = 1 (Lemma 5's cap "
    "reaches it) the right side is negative on every instance and the problem is unbounded: that part is lem-5's "
    "failure, not re-solved here.",
    scope="printed",
    expect="holds",
)
def lem_5_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above. Reading: as printed, gamma from gamma mu and mu. Reference: the
    certified worst case; replay of OledFL where it exceeds the bound."""
    grid = _lem5_grid(ctx, "lem-5", _lem5_betas)

    def bound(topology, K, eta, beta, G2, **_):
        psi, W = _psi(topology), _W(topology)
        mu, gamma = float(pf.lem5_mu(K, beta, psi)), float(pf.lem5_gamma(K, beta, psi))
        return 5 * _c2_const(W, K, eta, G2) / (mu * (1 - gamma))

    return _evidence(grid, bound, {})


# ---- Theorem 1 -----------------------------------------------------------------------------------------------------
def _thm1_terms(p):
    K, R, eta, beta, B2, psi = p["K"], p["R"], p["eta"], p["beta"], p["B2"], _psi_of(p["W"])
    kap = float(pf.kappa(eta, K, L, np.sqrt(B2)))
    gamma = float(pf.lem5_gamma(K, beta, psi))
    chi_per_delta = (3 + 72 / (1 - psi) ** 2) * L**2 / (kap * (1 - gamma) * R)
    return ((("grad_avg", 1.0), ("descent", -1 / (kap * eta * K * R)), ("delta_next", chi_per_delta * beta**2)),)


def _thm1_bound(topology, K, eta, B2, G2, **_):
    kap = float(pf.kappa(eta, K, L, np.sqrt(B2)))
    return float(pf.thm1_alpha(eta, K, L, _psi(topology), kap)) * G2


@claim(
    f"{PAPER}/thm-1:bound:pep",
    source="Theorem 1",
    statement="As printed with sigma = 0, lambda = 0: (1/T) sum_{t<T} ||grad f(xbar^t)||^2 <= (f(xbar^0) - "
    "f(xbar^T))/(kappa eta K T) + alpha G^2 - chi beta^2, kappa = 1/2 - 18 eta^2 K^2 L^2 B^2, gamma of Lemma 5, "
    f"Delta^T of the run, over the whole class of {CLASS}, at T = R and (topology, K, R) as in lem-1:pep, eta in "
    "{0.9, 0.5} x 1/(6KLB) (below Theorem 1's 1/(K^{3/2} L B), where kappa > 0), beta in {0, Theorem 1's cap, the "
    "beta where gamma = 0.99}, B^2 = 1 (full: also 4). As gamma -> 1 from below (inside the cap) chi -> infinity "
    "and the problem is unbounded (the failure thm-1:bound reports); gamma = 0.99 is the closest point solved.",
    scope="printed",
    expect="holds",
)
def thm_1_bound_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above. Reading: kappa at equality (the proof's), sigma = lambda = 0.
    Reference: the certified worst case; replay of OledFL where it exceeds the bound."""

    def etas(K, B2):
        return (0.9 / (6 * K * L * np.sqrt(B2)), 0.5 / (6 * K * L * np.sqrt(B2)))

    def betas(K, psi):
        return (thm1_beta_cap(psi), min(beta_at_gamma(K, psi, 0.99), thm1_beta_cap(psi)), 0.0)  # quick: beta = 0

    grid = _with_terms(_grid(ctx, (QUICK, FULL), etas, betas, (1.0, 4.0)), "thm-1")
    return _evidence(grid, _thm1_bound, {})


@claim(
    f"{PAPER}/thm-1:bound-corrected:pep",
    source="Theorem 1, with the beta cap of its proof (between (26) and (27))",
    statement="Corrected: Theorem 1's bound for OledFL-SGD (sigma = 0, lambda = 0) with beta^2 <= min{(1 - psi)^2/"
    f"(240K), 1/300}} over the whole class of {CLASS}, at T = R, (topology, K, R) and eta as in thm-1:bound:pep, beta "
    "in {0, half the cap, the cap}, B^2 = 1 (full: also 4) (performance estimation; failures replayed).",
    scope="corrected",
    expect="holds",
)
def thm_1_bound_corrected_pep(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``thm-1:bound:pep`` with the proof's beta cap."""

    def etas(K, B2):
        return (0.9 / (6 * K * L * np.sqrt(B2)), 0.5 / (6 * K * L * np.sqrt(B2)))

    def betas(K, psi):
        return (0.5 * proof_beta_cap(K, psi), proof_beta_cap(K, psi), 0.0)  # quick: beta = 0, shared

    grid = _with_terms(_grid(ctx, (QUICK, FULL), etas, betas, (1.0, 4.0)), "thm-1")
    return _evidence(grid, _thm1_bound, {})


METRICS = {
    "lem-1:6k": _lem1_terms(6),
    "lem-1:4k": _lem1_terms(4),
    "lem-2": _lem2_terms,
    "lem-4": _lem4_terms,
    "lem-5:pre": _lem5_pre_terms,
    "lem-5": _lem5_terms,
    "thm-1": _thm1_terms,
}
"""Each claim's metric: ``terms(point) -> (terms,)`` or ``(terms, normalisation)`` for :func:`round_gap`."""
