"""Worst cases over the whole function class (performance estimation) for the deterministic (sigma = 0) statements
of chapter 4 about FedDualAvg: Lemma 4.9 (4.15), Theorem 4.7 through (4.37), Lemma 4.11, Theorem C.11 (C.3) and
Lemma C.12, and the one-step and per-round inequalities Lemma C.14, Proposition 4.12, (4.21) and (4.27).

Every check solves :func:`fedtheory.pep.composite.feddualavg` (Euclidean ``h``, clients convex and ``L``-smooth,
``psi`` any convex function, ``||x^{(0,0)} - x*||^2 <= D2`` so ``B^2 = D_h(x*, x^{(0,0)}) = D2/2``, ``L = 1``,
``eta_s = 1``) at small ``(M, K, R)`` and ``eta_c`` in the printed range ``(0, 1/(4L)]`` (endpoint and interior); a
point whose worst case exceeds the printed right-hand side is replayed with fedtheory's FedDualAvg on the
interpolated instance.

Classes. Assumption 4.1 (sigma = 0) is expressed exactly. Assumption 4.2 is expressed on a sub-class: two clients
``f_1`` and ``f_2 = (L/2)||x - c||^2 - f_1`` (both in ``F_{0,L}``), whose average is the quadratic ``(L/4)||x -
c||^2`` with ``A = (L/2) I`` (the norm of Assumption 4.2(c) is then Euclidean and ``||.||_* = ||.||_2``); (4.12) as
printed, ``||grad F_m(x) - grad F(x)||_* <= zeta^2``, is imposed at every point where a client gradient is evaluated
(the expressible form of a uniform bound). Assumption C.1 (``||grad f||_* <= G``) is likewise imposed at the
evaluated points.

Not expressed here (no claim):

* Theorem 4.3 / Theorem C.13, Lemma C.15: "for sufficiently small eta_c" whose ``eta_c^max`` is not given; a fixed
  ``eta_c`` cannot test an existential step-size bound.
* (4.8), (4.10), (4.11), (4.13): printed with "<~" (no constants).
* the stochastic parts (sigma > 0) of every bound, Proposition 4.12's conditional expectations, Claims 4.16-4.18
  in expectation: stochastic noise is outside a deterministic performance estimation problem.
* Theorem 4.7 with a general Hessian ``A`` of the average: the norm of Assumption 4.2(c) depends on ``A``; only
  ``A`` proportional to the identity (the sub-class above) keeps the Euclidean geometry of the PEP.
* FedMiD: chapter 4 prints no fixed-step rate for it (only Theorem 4.3's existential statement).
* Non-Euclidean ``h`` (Remark 4.5's generality): Bregman geometries are outside PEPit's Euclidean Gram model.
"""

from __future__ import annotations

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import composite as pep_fco

PAPER = "yuan-thesis"
L = 1.0
ETAS = (0.25, 0.125)  # eta_c L: the endpoint 1/4 of the printed range and an interior point
FULL = ((2, 1, 2), (2, 2, 1), (2, 2, 2), (2, 3, 1))  # (M, K, R)
REPLAY = (
    "the worst instance is interpolated (clients in F_{0,L}, psi a max of affine pieces) and replayed with "
    "fedtheory.algorithms.composite.round (FedDualAvg)"
)
PAIR_HYPOTHESES = (
    "f_1 is an F_{0,L} interpolant, f_2 = (L/2)||x - c||^2 - f_1 is then in F_{0,L}, F = (L/4)||x - c||^2 is "
    "quadratic with A = (L/2) I (Assumption 4.2(b),(c)); (4.12) as printed holds at every evaluated point (a "
    "constraint of the SDP); psi convex and finite; x(0,0) in dom psi; eta_s = 1, eta_c <= 1/(4L); sigma = 0"
)


def _grid(ctx: Context, quick: tuple, **extra) -> list[dict]:
    shapes = quick if ctx.quick else FULL
    etas = ETAS[:1] if ctx.quick else ETAS
    return [dict(M=M, K=K, R=R, eta_c=e / L, L=L, **extra) for M, K, R in shapes for e in etas]


def _b2_term(eta_c, K, R, D2=1.0, **_) -> float:
    """``B^2/(eta_c K R)`` with ``B^2 = D_h(x*, x(0,0)) = D2/2``."""
    return D2 / 2 / (eta_c * K * R)


@claim(
    f"{PAPER}/lem-4.9:pep",
    source="Lemma 4.9, eq. (4.15)",
    statement="As printed with sigma = 0: Phi(x^) - Phi(x*) <= D_h(x*, x(0,0))/(eta_c K R) + (L/(M K R)) sum_r "
    "sum_{k<K} sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2 for FedDualAvg (eta_s = 1) over the whole class of M clients in "
    "F_{0,L} and convex psi (Euclidean h), at (M, K, R) in {(2,1,2), (2,2,1), (2,2,2), (2,3,1)} and eta_c L in "
    "{1/4, 1/8} (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def lem_4_9_pep(ctx: Context) -> Evidence:
    """Instance: the whole class of Assumption 4.1 with sigma = 0 (PEP). Reading: the metric is the gap of (4.9) minus
    the discrepancy sum, the bound ``B^2/(eta_c K R)``. Reference: certified SDP worst cases; replay where exceeded."""
    grid = _grid(ctx, ((2, 1, 2),), metric="gap-discrepancy")
    return class_evidence(
        pep_fco.feddualavg,
        pep_fco.replay_feddualavg,
        grid,
        bound=lambda **p: _b2_term(**p),
        witness={"class": "M clients in F_{0,1}, psi convex, ||x0 - x*||^2 <= 1", "replay": REPLAY},
    )


def _pair_grid(ctx: Context, metric: str) -> list[dict]:
    zetas = (1.0, 30.0) if ctx.quick else (1.0, 10.0, 30.0)
    quick = ((2, 1, 2),)
    return [
        {**p, "het2": z**2, "zeta2": z} for z in zetas for p in _grid(ctx, quick, het="quadratic-pair", metric=metric)
    ]


def _pair_evidence(ctx: Context, metric: str, bound, hypotheses: str = PAIR_HYPOTHESES) -> Evidence:
    grid = _pair_grid(ctx, metric)
    stripped = [{k: v for k, v in p.items() if k != "zeta2"} for p in grid]
    return class_evidence(
        pep_fco.feddualavg,
        pep_fco.replay_feddualavg,
        stripped,
        bound=[bound(**p) for p in grid],
        witness={
            "class": "two clients with quadratic average, A = (L/2) I, (4.12) with zeta^2 in {1, 10, 30} as printed",
            "hypotheses": hypotheses,
            "replay": REPLAY,
        },
    )


@claim(
    f"{PAPER}/eq-4.37:pep",
    source="proof of Theorem 4.7, (4.37)",
    statement="As printed with sigma = 0: Phi(x^) - Phi(x*) <= B^2/(eta_c K R) + 14 eta_c^2 L K^2 zeta^2 for "
    "FedDualAvg (eta_s = 1) over the whole sub-class of Assumption 4.2 with M = 2 clients in F_{0,L} whose average "
    "is quadratic with A = (L/2) I, ||grad F_m - grad F||_* <= zeta^2 at every evaluated point ((4.12) as printed) "
    "and any convex psi, at (M, K, R) in {(2,1,2), (2,2,1), (2,2,2), (2,3,1)}, eta_c L in {1/4, 1/8} and zeta^2 in "
    "{1, 10, 30} (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def eq_4_37_pep(ctx: Context) -> Evidence:
    """Instance: the quadratic-pair sub-class of Assumption 4.2 (PEP). Reading: sigma = 0 part of (4.37), zeta^2 as
    printed in (4.12). Reference: certified SDP worst cases; replay of FedDualAvg where exceeded."""
    return _pair_evidence(
        ctx, "gap", lambda eta_c, K, R, zeta2, **p: _b2_term(eta_c, K, R) + 14 * eta_c**2 * L * K**2 * zeta2
    )


@claim(
    f"{PAPER}/lem-4.11:pep",
    source="Lemma 4.11 (zeta of Assumption 4.2(a), (4.12))",
    statement="As printed with sigma = 0, at k = K of the last round: (1/M) sum_m ||ybar^(r,K) - y_m^(r,K)||_*^2 <= "
    "14 eta_c^2 K^2 zeta^2 over the whole sub-class of Assumption 4.2 with M = 2 clients in F_{0,L} whose average "
    "is quadratic with A = (L/2) I, (4.12) as printed at every evaluated point, any convex psi, at (M, K, R) in "
    "{(2,1,2), (2,2,1), (2,2,2), (2,3,1)}, eta_c L in {1/4, 1/8} and zeta^2 in {1, 10, 30} (worst case by performance "
    "estimation; a failing point is confirmed by replaying FedDualAvg).",
    scope="printed",
    expect="fails",
)
def lem_4_11_pep(ctx: Context) -> Evidence:
    """Instance: the quadratic-pair sub-class of Assumption 4.2 (PEP). Reading: sigma = 0, the client duals of the
    last round before averaging. Reference: certified SDP worst cases; replay where exceeded."""
    return _pair_evidence(
        ctx,
        "discrepancy",
        lambda eta_c, K, zeta2, **p: 14 * eta_c**2 * K**2 * zeta2,
        PAIR_HYPOTHESES + "; at K = 1 the value eta_c^2 zeta^4 is also attained on all of R^d by f_m = (L/4)||x - "
        "c||^2 +- <u, x> with ||u|| = zeta^2 and psi = 0 (both clients query the server primal, their gradients "
        "differ by 2u), which meets (4.12) as printed everywhere",
    )


def _bounded_grid(ctx: Context, metric: str, quick: tuple) -> list[dict]:
    return _grid(ctx, quick, het="bounded", G2=1.0, metric=metric)


BOUNDED_WITNESS = {
    "class": "M clients in F_{0,1} with ||grad f_m||^2 <= G^2 = 1 at every evaluated point, psi convex",
    "hypotheses": "clients are F_{0,L} interpolants, the gradient bound of Assumption C.1 holds at every evaluated "
    "point (a constraint of the SDP), psi convex and finite, x(0,0) in dom psi, eta_s = 1, eta_c <= 1/(4L), "
    "sigma = 0",
    "replay": REPLAY,
}


@claim(
    f"{PAPER}/eq-c.3:pep",
    source="Theorem C.11, (C.3)",
    statement="As printed with sigma = 0: Phi(x^) - Phi(x*) <= B^2/(eta_c K R) + 4 eta_c^2 L (K - 1)^2 G^2 for "
    "FedDualAvg (eta_s = 1) over the whole class of M clients in F_{0,L} with ||grad f_m||_* <= G at every evaluated "
    "point and convex psi, at (M, K, R) in {(2,1,2), (2,2,1), (2,2,2), (2,3,1)} and eta_c L in {1/4, 1/8} (worst case "
    "by performance estimation).",
    scope="printed",
    expect="holds",
)
def eq_c_3_pep(ctx: Context) -> Evidence:
    """Instance: Assumptions 4.1 and C.1 with sigma = 0 (PEP). Reading: the sigma = 0 part of (C.3), G = 1.
    Reference: certified SDP worst cases; replay where exceeded."""
    grid = _bounded_grid(ctx, "gap", ((2, 2, 1),))
    return class_evidence(
        pep_fco.feddualavg,
        pep_fco.replay_feddualavg,
        grid,
        bound=lambda eta_c, K, R, G2, **p: _b2_term(eta_c, K, R) + 4 * eta_c**2 * L * (K - 1) ** 2 * G2,
        witness=BOUNDED_WITNESS,
    )


@claim(
    f"{PAPER}/lem-c.12:pep",
    source="Lemma C.12; k ranges over {0, ..., K} (y_m^(r,K) is defined)",
    statement="As printed with sigma = 0, at k = K of the last round: (1/M) sum_m ||y_m^(r,K) - ybar^(r,K)||_*^2 <= "
    "4 eta_c^2 (K - 1)^2 G^2 over the whole class of M clients in F_{0,L} with ||grad f_m||_* <= G at every "
    "evaluated point and convex psi, at (M, K, R) in {(2,1,2), (2,2,1), (2,2,2), (2,3,1)} and eta_c L in {1/4, 1/8} "
    "(worst case by performance estimation; a failing point is confirmed by replaying FedDualAvg).",
    scope="printed",
    expect="fails",
)
def lem_c_12_pep(ctx: Context) -> Evidence:
    """Instance: Assumptions 4.1 and C.1 with sigma = 0 (PEP). Reading: the client duals of the last round before
    averaging, G = 1. Reference: certified SDP worst cases; replay where exceeded. At K = 1 the bound is 0 while two
    clients with opposite gradients of norm G (linear functions, globally G-Lipschitz) already give eta_c^2 G^2."""
    grid = _bounded_grid(ctx, "discrepancy", ((2, 1, 2),))
    return class_evidence(
        pep_fco.feddualavg,
        pep_fco.replay_feddualavg,
        grid,
        bound=lambda eta_c, K, G2, **p: 4 * eta_c**2 * (K - 1) ** 2 * G2,
        witness={
            **BOUNDED_WITNESS,
            "hypotheses": BOUNDED_WITNESS["hypotheses"] + "; at K = 1 the linear clients f_m(x) = <g_m, x> with g_1 = "
            "-g_2, ||g_m|| = G meet Assumption C.1 on all of R^d and attain the same value eta_c^2 G^2",
        },
    )


TIGHT = (
    "the inequality is tight on the class: the certified worst case equals the normalisation 1 to the solver's "
    "accuracy, which the verdict allows (a hold over the class at these points)"
)


ANY_DUAL = "M clients in F_{0,1}, psi convex, any server dual"


def _step_grid(ctx: Context, quick: tuple, full: tuple, metric: str) -> list[dict]:
    """Local step ``k`` of round ``r`` at the profile's shapes ``(M, K, r, k)`` and steps ``eta_c L`` in ETAS."""
    return [
        dict(M=M, K=K, r=r, k=k, eta_c=e / L, L=L, metric=metric)
        for M, K, r, k in (quick if ctx.quick else full)
        for e in (ETAS[:1] if ctx.quick else ETAS)
    ]


def _normalised(grid: list[dict], klass: str) -> Evidence:
    """One-round worst cases of FedDualAvg normalised to a bound of 1 (tight ones hold within the accuracy)."""
    return class_evidence(
        pep_fco.feddualavg_round,
        pep_fco.replay_feddualavg_round,
        grid,
        bound=[1.0] * len(grid),
        witness={"class": klass, "reading": TIGHT},
    )


@claim(
    f"{PAPER}/lem-c.14:pep",
    source="Lemma C.14",
    statement="As printed (deterministic, any x in dom psi): D~_{h_{r+1,0}}(x, ybar^(r+1,0)) - D~_{h_{r,0}}(x, "
    "ybar^(r,0)) <= -D~_{h_{r,0}}(x^^(r+1,0), ybar^(r,0)) - eta K (Phi(x^^(r+1,0)) - Phi(x)) + (L/2) eta K "
    "||x^^(r+1,0) - x^^(r,0)||^2 + eta K <grad F(x^^(r,0)) - (1/(MK)) sum_m sum_k grad f_m(x_m^(r,k)), x^^(r+1,0) - "
    "x> for one FedDualAvg round from any server dual, over the whole class of M clients in F_{0,L} and convex psi "
    "(Euclidean h), at (M, K, r) in {(2,1,1), (2,2,0), (2,2,1), (3,2,1)}, eta = eta_s eta_c in {1/(4KL), 1/(8KL)} "
    "and eta_s in {1, 2} (worst case by performance estimation, normalised by D~_{h_{r,0}}(x, ybar^(r,0)) <= 1).",
    scope="printed",
    expect="holds",
)
def lem_c_14_pep(ctx: Context) -> Evidence:
    """Instance: one round from any server dual over the class of Assumption 4.1 (PEP). Reading: both sides moved to
    the left except ``D~_{h_{r,0}}(x, ybar^(r,0))``, normalised to at most 1, so the bound is 1. Reference: certified
    SDP worst cases; replay of one :func:`fedtheory.algorithms.composite.round` where exceeded."""
    shapes = ((2, 1, 1),) if ctx.quick else ((2, 1, 1), (2, 2, 0), (2, 2, 1), (3, 2, 1))
    scales = (4,) if ctx.quick else (4, 8)
    servers = (1.0,) if ctx.quick else (1.0, 2.0)
    grid = [
        dict(M=M, K=K, r=r, eta_c=1 / (s * K * L * es), eta_s=es, L=L, metric="descent")
        for M, K, r in shapes
        for s in scales
        for es in servers
    ]
    return _normalised(grid, ANY_DUAL + ", any x")


@claim(
    f"{PAPER}/prop-4.12:pep",
    source="Proposition 4.12",
    statement="As printed with sigma = 0 (one local step): D~_{h_{r,k+1}}(x*, ybar^(r,k+1)) <= D~_{h_{r,k}}(x*, "
    "ybar^(r,k)) - eta_c (Phi(x^^(r,k+1)) - Phi(x*)) + eta_c L (1/M) sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2 for "
    "FedDualAvg (eta_s = 1) from any server dual at the start of round r, over the whole class of M clients in "
    "F_{0,L} and convex psi (Euclidean h), at (M, K, r, k) in {(2,1,1,0), (2,2,0,1), (2,2,1,1), (2,3,1,2), "
    "(3,2,1,1)} and eta_c L in {1/4, 1/8} (worst case by performance estimation, normalised by D~_{h_{r,k}}(x*, "
    "ybar^(r,k)) <= 1).",
    scope="printed",
    expect="holds",
)
def prop_4_12_pep(ctx: Context) -> Evidence:
    """Instance: local step k of round r from any server dual over the class of Assumption 4.1 (PEP). Reading: sigma
    = 0, ``D~_{h_{r,k}}(x*, ybar^(r,k))`` normalised to at most 1, so the bound is 1. Reference: certified SDP worst
    cases; replay of one :func:`fedtheory.algorithms.composite.round` where exceeded."""
    return _normalised(
        _step_grid(
            ctx, ((2, 1, 1, 0),), ((2, 1, 1, 0), (2, 2, 0, 1), (2, 2, 1, 1), (2, 3, 1, 2), (3, 2, 1, 1)), "one-step"
        ),
        ANY_DUAL,
    )


@claim(
    f"{PAPER}/eq-4.21:pep",
    source="eq. (4.21) (from Prop. C.10 and eta_c <= 1/(4L))",
    statement="As printed: -D~_{h_{r,k}}(x^^(r,k+1), ybar^(r,k)) + eta_c L ||x^^(r,k+1) - x^^(r,k)||^2 <= -(1/4) "
    "||x^^(r,k+1) - x^^(r,k)||^2 for FedDualAvg (eta_s = 1) from any server dual at the start of round r, over the "
    "whole class of M clients in F_{0,L} and convex psi (Euclidean h), at (M, K, r, k) in {(2,1,1,0), (2,2,0,1), "
    "(2,2,1,1), (2,3,1,2)} and eta_c L in {1/4, 1/8} (worst case by performance estimation, normalised by "
    "D~_{h_{r,k}}(x^^(r,k+1), ybar^(r,k)) <= 1).",
    scope="printed",
    expect="holds",
)
def eq_4_21_pep(ctx: Context) -> Evidence:
    """Instance: local step k of round r from any server dual over the class of Assumption 4.1 (PEP). Reading: the
    worst ``(eta_c L + 1/4) ||x^^(r,k+1) - x^^(r,k)||^2`` against the normalised ``D~_{h_{r,k}}(x^^(r,k+1),
    ybar^(r,k)) <= 1`` (tight at eta_c = 1/(4L)). Reference: certified SDP worst cases; replay where exceeded."""
    return _normalised(
        _step_grid(ctx, ((2, 1, 1, 0),), ((2, 1, 1, 0), (2, 2, 0, 1), (2, 2, 1, 1), (2, 3, 1, 2)), "shadow-step"),
        ANY_DUAL,
    )


@claim(
    f"{PAPER}/eq-4.27:pep",
    source="eq. (4.27) (h*_{r,k} 1-smooth by Proposition C.5)",
    statement="As printed in the Euclidean case (A proportional to I, ||.|| = ||.||_* = ||.||_2): ||x_m^(r,k) - "
    "x^^(r,k)||^2 <= ||y_m^(r,k) - ybar^(r,k)||_*^2 along FedDualAvg (eta_s = 1) from any server dual at the start "
    "of round r, over the whole class of M clients in F_{0,L} and convex psi, at (M, K, r, k) in {(2,2,0,1), "
    "(2,2,1,1), (3,2,1,1), (2,3,1,2)} and eta_c L in {1/4, 1/8} (worst case by performance estimation, normalised by "
    "||y_1^(r,k) - ybar^(r,k)||^2 <= 1).",
    scope="printed",
    expect="holds",
)
def eq_4_27_pep(ctx: Context) -> Evidence:
    """Instance: local step k >= 1 of round r from any server dual over the class of Assumption 4.1 (PEP). Reading:
    client 1's retrieved primal against the shadow, the dual spread normalised to at most 1 (tight: prox is
    non-expansive). Reference: certified SDP worst cases; replay where exceeded."""
    return _normalised(
        _step_grid(ctx, ((2, 2, 0, 1),), ((2, 2, 0, 1), (2, 2, 1, 1), (3, 2, 1, 1), (2, 3, 1, 2)), "retrieval"),
        ANY_DUAL,
    )
