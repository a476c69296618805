"""The deterministic (sigma = 0) statements on Algorithm 1 over their whole function classes, by performance estimation.

Each claim computes, at small ``(n, tau, R)`` and the printed step sizes, the exact worst case of a printed inequality
over a function class (an SDP, :mod:`fedtheory.pep.decoupled`): clients in ``F_{mu,L}`` and one convex
``B_g``-Lipschitz regularizer ``g`` (Assumption 3.1), every prox an exact proximal step on ``g``. Algorithm 1 assumes
no bound on heterogeneity; its Lyapunov functions carry it (``Lambda^1``), so the start is normalised by ``Omega^1 <=
D`` (theorems, (46), (51)) or by ``(1/n) sum_i ||grad f_i(p^1)||^2 <= D`` (Lemmas A.1, A.2). The ``:rate`` parts take
``g = 0`` (B_g-Lipschitz for every ``B_g > 0``, so the printed bound holds with its B_g term removed): the problem is
then homogeneous and ``D = 1`` is no restriction; the ``:bg`` parts keep ``B_g = 1`` and read ``measured - (rate
term) <= (B_g term)``. A worst case above its bound is replayed with fedtheory's
:func:`~fedtheory.algorithms.composite.decoupled.round` on the interpolated clients and regularizer.

Function classes used, each inside the printed hypotheses:

* Theorem 3.8 (f mu-strongly convex, each f_i L-smooth): every client in ``F_{mu,L}`` (a subclass).
* Theorem 3.6 and (51) (proximal PL): every client in ``F_{mu,L}``; then F is proximal PL with the same ``mu``.
* Theorem 3.5 and (46) (general non-convex f): convex clients ``F_{0,L}``, where ``F* = F(x*)`` at a stationary point
  ``x*`` of ``F`` is expressible (for non-convex clients ``F* = inf F`` is not an interpolable quantity).
* Lemmas A.1 and A.2: the printed class itself (L-smooth non-convex clients, convex B_g-Lipschitz ``g``).

Statements of the paper with no claim here (class not expressible, or not deterministic):

* Theorems 3.5, 3.6, 3.8 ``:sigma`` parts and Lemmas A.1/A.2 with sigma > 0: expectations over stochastic gradients
  (Assumption 3.4), not a worst case over functions.
* Theorem 3.6 over the whole proximal-PL class (Assumption 3.3(2)): the prox-PL inequality involves ``F*`` and a
  minimisation over all ``y``; it has no known interpolation conditions (only its strongly convex subclass is used).
* Theorem 3.5 over non-convex clients: ``F* = inf F`` of a non-convex function is not a quantity of the
  interpolation data (the convex subclass is used).
* Fact 1 (non-convex smooth f, any z): an inequality for one proximal step, not a statement on Algorithm 1; and the
  server chain (38)-(45), (47)-(50): intermediate proof displays, checked along runs and symbolically elsewhere.
* Algorithm 2's stationarity and the remarks of Section 3 and Appendix A.2: constructions and qualitative text.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import decoupled as pep_dc

from . import PAPER, printed

P = PAPER.key
MU, L, B_G = 0.5, 1.0, 1.0
HYPOTHESES = {
    "clients": "interpolants of the worst case's data: in F_{mu,L} by construction (Taylor-Hendrickx-Glineur)",
    "regularizer": "max of affine pieces with slopes of norm <= B_g: convex and B_g-Lipschitz (Assumption 3.1)",
    "start": "x̄^1 free, c^1 = 0 as Algorithm 1 prescribes; the normalisation of the start is a constraint of the SDP",
    "steps": "the grid's (eta~, eta_g) meet the printed step-size condition; eta = eta~/(eta_g tau)",
}


def _sizes(ctx: Context, quick: tuple, full: tuple) -> tuple:
    return quick if ctx.quick else quick + full


def _grid(ctx: Context, sizes: tuple, steps: tuple, *, mu: float, B_g: float, extra: dict | None = None) -> list:
    scales = (1.0,) if ctx.quick or B_g == 0 else (0.1, 1.0, 10.0)
    return [
        dict(n=n, tau=tau, R=R, eta_tilde=et, eta_g=eg, mu=mu, L=L, B_g=B_g, D=D, **(extra or {}))
        for n, tau, R in sizes
        for et, eg in steps
        for D in scales
    ]


def _evidence(formulation, replay, grid, bound, cls: str) -> Evidence:
    return class_evidence(formulation, replay, grid, bound, witness={"class": cls, "hypotheses": HYPOTHESES})


# --- Theorem 3.8 ----------------------------------------------------------------------------------------------------
def _steps_3_8(ctx: Context, n: int) -> tuple:
    et = MU / (150 * L**2)
    eg = float(np.sqrt(n))
    return ((et, eg),) if ctx.quick else ((et, eg), (et / 2, eg))


def _grid_3_8(ctx: Context, B_g: float, extra: dict) -> list:
    sizes = _sizes(ctx, ((2, 2, 1),), ((2, 1, 2), (2, 2, 2), (3, 2, 1), (2, 3, 1)))
    return [
        point for size in sizes for point in _grid(ctx, (size,), _steps_3_8(ctx, size[0]), mu=MU, B_g=B_g, extra=extra)
    ]


SC_CLASS = "n clients in F_{0.5,1} (a subclass of Theorem 3.8's: f 0.5-strongly convex, each f_i 1-smooth)"
GRID_3_8 = (
    "(n, tau, R) in {(2,2,1)} (full: also (2,1,2), (2,2,2), (3,2,1), (2,3,1)), eta~ in {mu/(150 L^2)} (full: and "
)


@claim(
    f"{P}/thm-3.8:rate:pep",
    source="Theorem 3.8",
    statement="As printed with sigma = 0 and g = 0 (B_g-Lipschitz for every B_g > 0): Omega_sc^{R+1} <= (1 - mu "
    "eta~/3)^R Omega_sc^1 over the whole class of n clients in F_{0.5,1}, at " + GRID_3_8 + "half of it), eta_g = "
    "sqrt(n) (worst case by performance estimation; a failing point is confirmed by replaying fedtheory's Algorithm 1 "
    "on the interpolated instance).",
    scope="printed",
    expect="holds",
)
def thm_3_8_rate_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), ``Omega_sc^1 <= 1`` (homogeneous). Reading: sigma = 0, B_g term removed.
    Reference: worst case certified by its dual; replay of :func:`fedtheory.algorithms.composite.decoupled.round`."""
    grid = _grid_3_8(ctx, 0.0, {"rate_term": False})
    bound = lambda mu, eta_tilde, R, **_: printed.thm_3_8_terms(1.0, mu, eta_tilde, R, 0, 1, 1, 1, 0, 1)[0]  # noqa: E731
    return _evidence(pep_dc.decoupled_lyapunov_sc, pep_dc.replay_decoupled_lyapunov_sc, grid, bound, SC_CLASS)


@claim(
    f"{P}/thm-3.8:bg:pep",
    source="Theorem 3.8",
    statement="As printed with sigma = 0: Omega_sc^{R+1} - (1 - mu eta~/3)^R Omega_sc^1 <= 21 eta~ B_g^2/(mu eta_g^2) "
    "over the whole class of n clients in F_{0.5,1} and convex 1-Lipschitz g with Omega_sc^1 <= D (D = 1; full: D in "
    "{0.1, 1, 10}), at " + GRID_3_8 + "half of it), eta_g = sqrt(n) (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def thm_3_8_bg_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: sigma = 0, the rate term moved to the left. Reference: as
    ``thm-3.8:rate:pep``."""
    grid = _grid_3_8(ctx, B_G, {"rate_term": True})
    bound = lambda mu, eta_tilde, eta_g, B_g, R, **_: printed.thm_3_8_terms(  # noqa: E731
        0.0, mu, eta_tilde, R, 0, 1, 1, 1, B_g, eta_g
    )[2]
    return _evidence(pep_dc.decoupled_lyapunov_sc, pep_dc.replay_decoupled_lyapunov_sc, grid, bound, SC_CLASS)


# --- Theorems 3.5 and 3.6, (46), (51): condition (13) ---------------------------------------------------------------
def _steps_13(ctx: Context) -> tuple:
    return ((1 / (10 * L), 1.5),) if ctx.quick else ((1 / (10 * L), 1.5), (1 / (20 * L), 1.5), (1 / (10 * L), 3.0))


THEOREM_SIZES = ((2, 2, 1),), ((2, 1, 2), (2, 2, 2), (3, 2, 1), (2, 3, 1))
GRID_13 = (
    "(n, tau, R) in {(2,2,1)} (full: also (2,1,2), (2,2,2), (3,2,1), (2,3,1)) and (eta~, eta_g) = (1/(10L), 1.5) "
    "(full: also (1/(20L), 1.5), (1/(10L), 3)), all within (13)"
)
PL_CLASS = "n clients in F_{0.5,1} (f strongly convex: F is proximal PL with mu = 0.5, Assumption 3.3(2))"
CONVEX_CLASS = "n clients in F_{0,1} (convex: a subclass of Assumption 3.3(1)); F* = F(x*) at a minimiser of F"


def _theorem_grid(ctx: Context, mu: float, B_g: float, extra: dict | None = None) -> list:
    return _grid(ctx, _sizes(ctx, *THEOREM_SIZES), _steps_13(ctx), mu=mu, B_g=B_g, extra=extra)


@claim(
    f"{P}/thm-3.6:rate:pep",
    source="Theorem 3.6",
    statement="As printed with sigma = 0 and g = 0: Omega^{R+1} <= (1 - mu eta~/3)^R Omega^1 over the whole class of n "
    "clients in F_{0.5,1} (F proximal PL with mu = 0.5), at " + GRID_13 + " (worst case by performance estimation; a "
    "failing point is confirmed by replay).",
    scope="printed",
    expect="holds",
)
def thm_3_6_rate_pep(ctx: Context) -> Evidence:
    """Instance: the whole strongly convex class (PEP), ``Omega^1 <= 1``. Reading: sigma = 0, B_g term removed.
    Reference: worst case certified by its dual; replay of Algorithm 1 where it exceeds the bound."""
    grid = _theorem_grid(ctx, MU, 0.0, {"rate_term": False})
    bound = lambda mu, eta_tilde, R, **_: (1 - mu * eta_tilde / 3) ** R  # noqa: E731
    return _evidence(pep_dc.decoupled_lyapunov, pep_dc.replay_decoupled_lyapunov, grid, bound, PL_CLASS)


@claim(
    f"{P}/thm-3.6:bg:pep",
    source="Theorem 3.6",
    statement="As printed with sigma = 0: Omega^{R+1} - (1 - mu eta~/3)^R Omega^1 <= 168 L^2 eta~^2 B_g^2/(mu eta_g^2) "
    "over the whole class of n clients in F_{0.5,1} and convex 1-Lipschitz g with Omega^1 <= D (D = 1; full: D in "
    "{0.1, 1, 10}), at " + GRID_13 + " (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def thm_3_6_bg_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP). Reading: sigma = 0, the rate term moved to the left. Reference: as
    ``thm-3.6:rate:pep``."""
    grid = _theorem_grid(ctx, MU, B_G, {"rate_term": True})
    bound = lambda mu, eta_tilde, eta_g, B_g, R, n, tau, **_: printed.thm_3_6_terms(  # noqa: E731
        0.0, mu, eta_tilde, R, 0, n, tau, 1, L, B_g, eta_g
    )[2]
    return _evidence(pep_dc.decoupled_lyapunov, pep_dc.replay_decoupled_lyapunov, grid, bound, PL_CLASS)


@claim(
    f"{P}/thm-3.5:rate:pep",
    source="Theorem 3.5",
    statement="As printed with sigma = 0 and g = 0: (1/R) sum_{r=1}^R ||G(P(x̄^r))||^2 <= Omega^1/(0.3 eta~ R) over the "
    "whole class of n convex clients in F_{0,1} (a subclass of Assumption 3.3(1)), at " + GRID_13 + " (worst case by "
    "performance estimation; a failing point is confirmed by replay).",
    scope="printed",
    expect="holds",
)
def thm_3_5_rate_pep(ctx: Context) -> Evidence:
    """Instance: the convex class (PEP), ``Omega^1 <= 1``. Reading: sigma = 0, B_g term removed. Reference: worst
    case certified by its dual; replay of Algorithm 1 where it exceeds the bound."""
    grid = _theorem_grid(ctx, 0.0, 0.0, {"rate_term": False})
    bound = lambda eta_tilde, R, **_: 1 / (0.3 * eta_tilde * R)  # noqa: E731
    return _evidence(pep_dc.decoupled_mapping, pep_dc.replay_decoupled_mapping, grid, bound, CONVEX_CLASS)


@claim(
    f"{P}/thm-3.5:bg:pep",
    source="Theorem 3.5",
    statement="As printed with sigma = 0: (1/R) sum_{r=1}^R ||G(P(x̄^r))||^2 - Omega^1/(0.3 eta~ R) <= 187 L^2 eta~^2 "
    "B_g^2/eta_g^2 over the whole class of n convex clients in F_{0,1} and convex 1-Lipschitz g with Omega^1 <= D "
    "(D = 1; full: D in {0.1, 1, 10}), at " + GRID_13 + " (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def thm_3_5_bg_pep(ctx: Context) -> Evidence:
    """Instance: the convex class (PEP). Reading: sigma = 0, the rate term moved to the left. Reference: as
    ``thm-3.5:rate:pep``."""
    grid = _theorem_grid(ctx, 0.0, B_G, {"rate_term": True})
    bound = lambda eta_tilde, eta_g, B_g, R, n, tau, **_: printed.thm_3_5_terms(  # noqa: E731
        0.0, eta_tilde, R, 0, n, tau, 1, L, B_g, eta_g
    )[2]
    return _evidence(pep_dc.decoupled_mapping, pep_dc.replay_decoupled_mapping, grid, bound, CONVEX_CLASS)


ROUND_SIZES = ((2, 2, 1),), ((2, 2, 2), (3, 2, 1), (2, 3, 1), (2, 1, 3))
ROUND_TEXT = (
    "round R of a run from c^1 = 0 with (n, tau, R) in {(2,2,1)} (full: also (2,2,2), (3,2,1), (2,3,1), (2,1,3)), "
    "(eta~, eta_g) = (1/(10L), 1.5) (full: also (1/(20L), 1.5), (1/(10L), 3)), all within (13)"
)


@claim(
    f"{P}/eq-46:runs:pep",
    source="eq. (46)",
    statement="(46) with sigma = 0: Omega^{r+1} - Omega^r + 0.3 eta~ ||G(P(x̄^r))||^2 <= 2.8 * 20 L^2 eta~^3 "
    "B_g^2/eta_g^2 over the whole class of n convex clients in F_{0,1} (a subclass of Assumption 3.3(1)) and convex "
    "1-Lipschitz g with Omega^1 <= D (D = 1; full: D in {0.1, 1, 10}), at " + ROUND_TEXT + " (worst case by "
    "performance estimation).",
    scope="printed",
    expect="holds",
)
def eq_46_pep(ctx: Context) -> Evidence:
    """Instance: the convex class (PEP), the checked round reached from Algorithm 1's start. Reading: sigma = 0.
    Reference: worst case certified by its dual; replay of Algorithm 1 where it exceeds the bound."""
    grid = _grid(ctx, _sizes(ctx, *ROUND_SIZES), _steps_13(ctx), mu=0.0, B_g=B_G)
    bound = lambda eta_tilde, eta_g, B_g, n, tau, **_: printed.eq_46_rhs(  # noqa: E731
        0.0, 0.0, eta_tilde, 0, n, tau, 1, L, B_g, eta_g
    )
    return _evidence(pep_dc.decoupled_descent, pep_dc.replay_decoupled_descent, grid, bound, CONVEX_CLASS)


@claim(
    f"{P}/eq-51:runs:pep",
    source="eq. (51)",
    statement="(51) divided by eta~, with sigma = 0: Omega^{r+1} <= (1 - mu eta~/3) Omega^r + 2.8 * 20 L^2 eta~^3 "
    "B_g^2/eta_g^2 over the whole class of n clients in F_{0.5,1} (F proximal PL with mu = 0.5) and convex 1-Lipschitz "
    "g with Omega^1 <= D (D = 1; full: D in {0.1, 1, 10}), at " + ROUND_TEXT + " (worst case by performance "
    "estimation).",
    scope="printed",
    expect="holds",
)
def eq_51_pep(ctx: Context) -> Evidence:
    """Instance: the strongly convex class (PEP), the checked round reached from Algorithm 1's start. Reading: sigma
    = 0. Reference: as ``eq-46:runs:pep``."""
    grid = _grid(ctx, _sizes(ctx, *ROUND_SIZES), _steps_13(ctx), mu=MU, B_g=B_G)
    bound = lambda mu, eta_tilde, eta_g, B_g, n, tau, **_: printed.eq_51_rhs(  # noqa: E731
        0.0, mu, eta_tilde, 0, n, tau, 1, L, B_g, eta_g
    )
    return _evidence(pep_dc.decoupled_contraction, pep_dc.replay_decoupled_contraction, grid, bound, PL_CLASS)


# --- Lemmas A.1 and A.2: eta~ <= eta_g/(sqrt(20) L) -----------------------------------------------------------------
def _steps_lemma(ctx: Context) -> tuple:
    edge = ((1.5 / (np.sqrt(20) * L), 1.5),)
    more = ((3 / (np.sqrt(20) * L), 3.0), (1.5 / (8 * L), 1.5), (3 / (8 * L), 3.0))
    return edge if ctx.quick else edge + more


LEMMA_SIZES = ((2, 2, 1),), ((2, 2, 2), (3, 2, 1), (2, 3, 1), (2, 3, 2))
NONCONVEX_CLASS = "n L-smooth clients (non-convex, Assumption 3.2) and convex B_g-Lipschitz g (Assumption 3.1)"
LEMMA_TEXT = (
    "over the whole class of n 1-smooth non-convex clients and convex 1-Lipschitz g with (1/n) sum_i ||grad "
    "f_i(P(x̄^1))||^2 <= D (D = 1; full: D in {0.1, 1, 10}), at round R of a run from c^1 = 0 with (n, tau, R) in "
    "{(2,2,1)} (full: also (2,2,2), (3,2,1), (2,3,1), (2,3,2)) and eta~ = eta_g/(sqrt(20) L), eta_g = 1.5 (full: also "
    "eta_g = 3, and eta~ = eta_g/(8L) with eta_g in {1.5, 3}) (worst case by performance estimation)"
)


@claim(
    f"{P}/lem-a.1:pep",
    source="Lemma A.1",
    statement="(21) with sigma = 0: sum_{t=0}^{tau-1} sum_i ||z_{i,t}^r - P(x̄^r)||^2 - 5 n tau^3 eta^2 ||G(P(x̄^r))||^2 "
    "- 5 tau ||Lambda^r - mean Lambda^r||^2 <= 5 tau^3 eta^2 n 4 B_g^2 " + LEMMA_TEXT + ".",
    scope="printed",
    expect="holds",
)
def lem_a1_pep(ctx: Context) -> Evidence:
    """Instance: the printed class (PEP), the checked round reached from Algorithm 1's start. Reading: sigma = 0.
    Reference: worst case certified by its dual; replay of Algorithm 1 where it exceeds the bound."""
    grid = _grid(ctx, _sizes(ctx, *LEMMA_SIZES), _steps_lemma(ctx), mu=-L, B_g=B_G)
    bound = lambda n, tau, eta_tilde, eta_g, B_g, **_: printed.lemma_a1_rhs(  # noqa: E731
        tau, eta_tilde / (eta_g * tau), n, B_g, 0.0, 0.0, 0, 1
    )
    return _evidence(pep_dc.decoupled_drift, pep_dc.replay_decoupled_drift, grid, bound, NONCONVEX_CLASS)


@claim(
    f"{P}/lem-a.2:pep",
    source="Lemma A.2",
    statement="Lemma A.2 with sigma = 0: (1/n)||Lambda^{r+1} - mean||^2 - 2 eta^2 tau^2 L^2 ||P(x̄^{r+1}) - "
    "P(x̄^r)||^2 - (4 eta^2 tau L^2/n)(5 n tau^3 eta^2 ||G(P(x̄^r))||^2 + 5 tau ||Lambda^r - mean||^2) <= (4 eta^2 tau "
    "L^2/n) 5 tau^3 eta^2 n 4 B_g^2 " + LEMMA_TEXT + ".",
    scope="printed",
    expect="holds",
)
def lem_a2_pep(ctx: Context) -> Evidence:
    """Instance: as ``lem-a.1:pep``. Reading: sigma = 0. Reference: as ``lem-a.1:pep``."""
    grid = _grid(ctx, _sizes(ctx, *LEMMA_SIZES), _steps_lemma(ctx), mu=-L, B_g=B_G)
    bound = lambda n, tau, eta_tilde, eta_g, B_g, **_: printed.lemma_a2_rhs(  # noqa: E731
        tau, eta_tilde / (eta_g * tau), n, L, B_g, 0.0, 0.0, 0, 1
    )
    return _evidence(
        pep_dc.decoupled_drift_recursion, pep_dc.replay_decoupled_drift_recursion, grid, bound, NONCONVEX_CLASS
    )
