"""The server-side proof of Theorems 3.5 and 3.6 (Appendix A.5-A.6), display by display, at every round of exact runs.

Each printed inequality between quantities a run computes is checked at sigma = 0 with its printed constants, ``F*``
subtracted from both sides (gaps, computed without cancellation): (38) the virtual PGD step, (42) the gradient error
of the round, (43) and (44) the server descent, (46) the Lyapunov descent of Theorem 3.5, and, under prox-PL, (47),
(48), (49), (50) and (51). The ids carry ``:runs`` (the symbolic constant side of several displays is checked under
the bare ids). (41), ``(IV) + (V) <= (eta~/2)||grad f(p^r) - v^r||^2``, is Young's inequality, true for any two
vectors: a numeric check of it could not fail, so it is not one; it enters (43), which is checked.

The proof's context is (13) (the displays are steps of Theorems 3.5/3.6); (38), (42) and (43) need only Assumption
3.2 and the server identity (3), (44) also Lemma A.1 with the 1.15 of (34), (47)-(51) prox-PL. Searches: the
non-convex clients for (38)-(46), strongly convex quadratics (prox-PL with mu = lambda_min, ``asm-3.3:2``) for
(47)-(51); grid: the runs of :mod:`.deterministic_runs` at steps (13), from x̄^1 = 0 and from Algorithm 2's start.
Every entry is the worst round of a run, both sides divided by the size of the inequality's terms (a gap's terms
include its first-order ones, which cancel near ``x*``: ``Instance.first_order``); the displays
that bound ``F(.) - F*`` or ``Omega^{r+1}`` by ``F(P(x̄^r)) - F*`` (resp. ``Omega^r``) plus further terms are reported
in decrease form (the decrease achieved >= the decrease printed, relation ``>=``), so that a witness search hunts
where the printed decrease is tight rather than where small steps make both sides equal.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim

from . import PAPER, printed
from .deterministic_runs import QUAD_L1, Comparison, evidence, grid_run, size

P = PAPER.key
GRID = (*QUAD_L1, "lasso", "wavy")
STRONGLY_CONVEX = (*QUAD_L1, "lasso")
NOTE_13 = "the proof of Theorem 3.5: Assumptions 3.1-3.4 (3.3(1): any smooth f) with sigma = 0 and (13)"
NOTE_PL = "the proof of Theorem 3.6: Assumptions 3.1-3.4 (3.3(2): prox-PL) with sigma = 0 and (13)"
GRID_TEXT = (
    "every round of quad-l1 (n, d, theta, tau) in {{(5,10,.5,5), (30,20,.3,10), (3,5,2,20), (50,8,1,3)}}, LASSO "
    "(n = 5, m = 50, d = 10, theta = .05, tau = 5){wavy} at eta~ = 1/(10L), eta_g = max(1.5, sqrt(n/8)), R = 60 "
    "(300 in full), from x̄^1 = 0 and from Algorithm 2's start; then a witness search over {what} and every step "
    "(13) allows"
)
ALL_TEXT = GRID_TEXT.format(wavy=", the non-convex wavy instance (n = 8, d = 6)", what="non-convex clients")
PL_TEXT = GRID_TEXT.format(wavy="", what="strongly convex quadratics (mu = lambda_min)")


def _check(ctx: Context, sides, prox_pl: bool) -> Evidence:
    names, search = (STRONGLY_CONVEX, ("convex", "13", 24, NOTE_PL)) if prox_pl else (GRID, ("wavy", "13", 24, NOTE_13))
    return evidence(ctx, sides, [grid_run(ctx, name, "13") for name in names], search, {}, scaled=True)


def _common(inst, params):
    return params.eta_tilde, inst.L, params.n, params.tau


def _one_step(rec, lhs, rhs, *terms) -> Comparison:
    """A display about ``x~^{r+1}`` and ``p^r`` alone, in decrease form from ``F(p^r) - F*``; it says nothing
    (reads 0 <= 0) at a state that is ``x*`` to float64's resolution (``Record.at_min``)."""
    base = rec.gap_p[:-1]
    scale = np.where(rec.at_min[:-1], 0.0, size(lhs, base, rec.size_xt[:-1], rec.size_p[:-1], *terms))
    return Comparison(lhs, rhs, scale, base)


def eq_38(inst, params, rec):
    et, L, _, _ = _common(inst, params)
    xt2 = rec.xt2[:-1]
    rhs = printed.eq_38_rhs(rec.gap_p[:-1], xt2, et, L)
    return _one_step(rec, rec.gap_xt[:-1], rhs, (L / 2 - 1 / (2 * et)) * xt2, xt2 / (2 * et))


def eq_42(inst, params, rec):
    """(42); where no local model moved (``tau = 1``, or a fixed point) ``v^r = grad f(p^r)`` by definition and the
    display reads 0 <= 0. ``v^r - grad f(p^r)`` is a difference of means of gradients of size ``||grad f_i||``: its
    square rounds at ``eps ||grad f_i|| ||v^r - grad f(p^r)||``, hence the geometric-mean term of the scale."""
    _, L, n, tau = _common(inst, params)
    rhs = printed.eq_42_rhs(rec.drift, L, n, tau, 0.0, 1)
    scale = size(rec.v_err2, rhs, np.sqrt(rec.gradf2[:-1] * (rec.v_err2 + rhs)))
    return Comparison(rec.v_err2, rhs, np.where(rec.drift > 0, scale, 0.0))


def _server(inst, params, rec, rhs, *terms) -> Comparison:
    """A display bounding ``F(P(x̄^{r+1})) - F*``, in decrease form from ``F(p^r) - F*``."""
    base = rec.gap_p[:-1]
    scale = size(rec.gap_p[1:], base, rec.size_p[1:], rec.size_p[:-1], *terms)
    return Comparison(rec.gap_p[1:], rhs, scale, base)


def _server_terms(inst, params, rec):
    """The terms (43) and (44) share: ``(L - 1/(2 eta~)) xt2``, ``(L/2 - 1/(2 eta~)) dP2``."""
    et, L, _, _ = _common(inst, params)
    return (L - 1 / (2 * et)) * rec.xt2[:-1], (L / 2 - 1 / (2 * et)) * rec.dP2


def eq_43(inst, params, rec):
    et, L, n, tau = _common(inst, params)
    rhs = printed.eq_43_rhs(rec.gap_p[:-1], rec.xt2[:-1], rec.dP2, rec.drift, et, L, n, tau, 0.0, 1)
    drift = et * L**2 / (n * tau) * rec.drift
    return _server(inst, params, rec, rhs, *_server_terms(inst, params, rec), drift)


def eq_44(inst, params, rec):
    et, L, n, tau = _common(inst, params)
    rhs = printed.eq_44_rhs(
        rec.gap_p[:-1], rec.xt2[:-1], rec.dP2, rec.G2[:-1], rec.spread[:-1], params.eta, et, L, n, tau, inst.B_g, 0, 1
    )
    terms = _server_terms(inst, params, rec)
    return _server(inst, params, rec, rhs, *terms, rhs - rec.gap_p[:-1] - sum(terms))


def eq_46(inst, params, rec):
    et, L, n, tau = _common(inst, params)
    omega, G2 = rec.omega[:-1], rec.G2[:-1]
    rhs = printed.eq_46_rhs(omega, G2, et, 0.0, n, tau, 1, L, inst.B_g, params.eta_g)
    terms = (rhs - omega + 0.3 * et * G2, 0.3 * et * G2, rec.size_p[1:], rec.size_p[:-1])
    scale = size(rec.omega[1:], omega, *terms)
    return Comparison(rec.omega[1:], rhs, scale, omega)


def eq_47(inst, params, rec):
    rhs = printed.eq_47_rhs(rec.gap_p[:-1], inst.mu, params.eta_tilde)
    return _one_step(rec, rec.gap_xt[:-1], rhs)


def eq_48(inst, params, rec):
    et, L, _, _ = _common(inst, params)
    xt2 = rec.xt2[:-1]
    rhs = printed.eq_48_rhs(rec.gap_p[:-1], xt2, inst.mu, et, L)
    return _one_step(rec, rec.gap_xt[:-1], rhs, (L / 3 - 2 / (3 * et)) * xt2, inst.mu * et / 3 * rec.gap_p[:-1])


def eq_49(inst, params, rec):
    et, L, _, _ = _common(inst, params)
    gap, xt2 = rec.gap_p[:-1], rec.xt2[:-1]
    rhs = printed.eq_49_rhs(gap, xt2, rec.dP2, rec.IV, rec.V, inst.mu, et, L)
    terms = ((5 * L / 6 - 1 / (6 * et)) * xt2, (L / 2 - 1 / (2 * et)) * rec.dP2, rec.IV, rec.V, inst.mu * et * gap)
    return _server(inst, params, rec, rhs, *terms)


def eq_50(inst, params, rec):
    et, L, n, tau = _common(inst, params)
    gap, xt2 = rec.gap_p[:-1], rec.xt2[:-1]
    rhs = printed.eq_50_rhs(gap, xt2, rec.dP2, rec.drift, inst.mu, et, L, n, tau, 0.0, 1)
    drift = et * L**2 / (n * tau) * rec.drift
    terms = (xt2 / (12 * et), (L / 2 - 1 / (2 * et)) * rec.dP2, drift, inst.mu * et * gap)
    return _server(inst, params, rec, rhs, *terms)


def eq_51(inst, params, rec):
    et, L, n, tau = _common(inst, params)
    omega = rec.omega[:-1]
    rhs = printed.eq_51_rhs(omega, inst.mu, et, 0.0, n, tau, 1, L, inst.B_g, params.eta_g)
    scale = size(rec.omega[1:], omega, rhs - omega, rec.size_p[1:], rec.size_p[:-1])
    return Comparison(rec.omega[1:], rhs, scale, omega)


@claim(
    f"{P}/eq-38:runs",
    source="eq. (38)",
    statement="F(x~^{r+1}) <= F(P(x̄^r)) + (L/2 - 1/(2 eta~))||x~^{r+1} - P(x̄^r)||^2 - (1/(2 eta~))||x~^{r+1} - "
    "P(x̄^r)||^2 (Fact 1 at the virtual PGD step) on " + ALL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_38_runs(ctx: Context) -> Evidence:
    """Instance: the runs and search of the module docstring. Reading: both sides minus F*. Reference: exact runs,
    gaps without cancellation."""
    return _check(ctx, eq_38, prox_pl=False)


@claim(
    f"{P}/eq-42:runs",
    source="eq. (42)",
    statement="sigma = 0: ||v^r - grad f(P(x̄^r))||^2 <= (2 L^2/(n tau)) sum_i sum_t ||z_{i,t}^r - P(x̄^r)||^2 on "
    + ALL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_42_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-38:runs``. Reading: ``v^r`` the mean of the round's gradients (3). Reference: the gradients
    and local models of the round's trace."""
    return _check(ctx, eq_42, prox_pl=False)


@claim(
    f"{P}/eq-43:runs",
    source="eq. (43)",
    statement="sigma = 0: F(P(x̄^{r+1})) <= F(P(x̄^r)) + (L - 1/(2 eta~))||x~^{r+1} - P(x̄^r)||^2 + (L/2 - 1/(2 eta~))"
    "||P(x̄^{r+1}) - P(x̄^r)||^2 + (eta~/2)(2L^2/(n tau)) sum_i sum_t ||z_{i,t}^r - P(x̄^r)||^2 on " + ALL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_43_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-38:runs``. Reading: both sides minus F*. Reference: exact runs."""
    return _check(ctx, eq_43, prox_pl=False)


@claim(
    f"{P}/eq-44:runs",
    source="eq. (44)",
    statement="sigma = 0: (43) with its drift term replaced by (eta~/2) 2L^2 (1/(n tau)) 1.15 tau (4 tau^2 eta^2 n "
    "4 B_g^2 + 4 n tau^2 eta^2 ||G||^2 + 4 ||Lambda^r - mean Lambda^r||^2) on " + ALL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_44_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-38:runs``. Reading: both sides minus F*. Reference: exact runs."""
    return _check(ctx, eq_44, prox_pl=False)


@claim(
    f"{P}/eq-46:runs",
    source="eq. (46)",
    statement="sigma = 0: Omega^{r+1} <= Omega^r + 2.8 * 20 L^2 eta~^3 B_g^2/eta_g^2 - 0.3 eta~ ||G(P(x̄^r))||^2 on "
    + ALL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_46_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-38:runs``. Reading: sigma = 0. Reference: exact runs, Omega with the closed-form spread."""
    return _check(ctx, eq_46, prox_pl=False)


@claim(
    f"{P}/eq-47:runs",
    source="eq. (47)",
    statement="prox-PL: F(x~^{r+1}) <= F(P(x̄^r)) - mu eta~ (F(P(x̄^r)) - F*), mu = lambda_min, on " + PL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_47_runs(ctx: Context) -> Evidence:
    """Instance: the strongly convex runs and search of the module docstring. Reading: both sides minus F*; mu the
    prox-PL constant lambda_min (``asm-3.3:2``). Reference: exact runs."""
    return _check(ctx, eq_47, prox_pl=True)


@claim(
    f"{P}/eq-48:runs",
    source="eq. (48)",
    statement="prox-PL: F(x~^{r+1}) <= F(P(x̄^r)) + (L/3 - 2/(3 eta~))||x~^{r+1} - P(x̄^r)||^2 - (mu eta~/3)"
    "(F(P(x̄^r)) - F*) on " + PL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_48_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-47:runs``. Reading: both sides minus F*. Reference: exact runs."""
    return _check(ctx, eq_48, prox_pl=True)


@claim(
    f"{P}/eq-49:runs",
    source="eq. (49)",
    statement="prox-PL: F(P(x̄^{r+1})) <= F(P(x̄^r)) + (5L/6 - 1/(6 eta~))||x~^{r+1} - P(x̄^r)||^2 + (L/2 - 1/(2 "
    "eta~))||P(x̄^{r+1}) - P(x̄^r)||^2 - (mu eta~/3)(F(P(x̄^r)) - F*) + (IV) + (V) on " + PL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_49_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-47:runs``. Reading: (IV) = -(1/(2 eta~))||P(x̄^{r+1}) - x~^{r+1}||^2, (V) = <P(x̄^{r+1}) -
    x~^{r+1}, grad f(P(x̄^r)) - v^r> as named in (40). Reference: exact runs."""
    return _check(ctx, eq_49, prox_pl=True)


@claim(
    f"{P}/eq-50:runs",
    source="eq. (50)",
    statement="prox-PL, sigma = 0: F(P(x̄^{r+1})) - F* <= (1 - mu eta~/3)(F(P(x̄^r)) - F*) - (1/(12 eta~))||x~^{r+1} "
    "- P(x̄^r)||^2 + (L/2 - 1/(2 eta~))||P(x̄^{r+1}) - P(x̄^r)||^2 + (eta~/2)(2L^2/(n tau)) sum_i sum_t ||z_{i,t}^r - "
    "P(x̄^r)||^2 on " + PL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_50_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-47:runs``. Reading: the display as printed (its justification's sign is checked
    symbolically under ``eq-50``). Reference: exact runs."""
    return _check(ctx, eq_50, prox_pl=True)


@claim(
    f"{P}/eq-51:runs",
    source="eq. (51)",
    statement="prox-PL, sigma = 0: Omega^{r+1} <= (1 - mu eta~/3) Omega^r + 2.8 * 20 L^2 eta~^3 B_g^2/eta_g^2 on "
    + PL_TEXT,
    scope="printed",
    expect="holds",
)
def eq_51_runs(ctx: Context) -> Evidence:
    """Instance: as ``eq-47:runs``. Reading: (51) divided by eta~ (the display after it). Reference: exact runs."""
    return _check(ctx, eq_51, prox_pl=True)
