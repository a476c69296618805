"""Lemmas A.1 (drift bound (21)) and A.2 (drift recursion) at sigma = 0, exactly, at every round of Algorithm 1.

Both lemmas assume only Assumptions 3.1, 3.2, 3.4 and ``eta~ <= eta_g/(sqrt(20) L)`` (no condition on ``eta_g``, f
may be non-convex); their proof needs ``8(t+1) eta^2 L^2 <= 1/(8 tau)`` at (33), "when ``eta~ <= eta_g/(8L)``", which
the stated condition does not imply (``eta = eta~/(eta_g tau)`` can reach ``1/(sqrt(20) L tau)``). Every entry records
which of the two conditions (and (13)) its steps meet; the grid includes the lemmas' own boundary ``eta~ =
eta_g/(sqrt(20) L)`` and (33)'s boundary ``eta~ = eta_g/(8L)`` with ``eta_g`` in {1.5, 3}, and the witness search
covers the whole stated condition.

With exact gradients Lemma A.1 reads, per round ``r``: ``sum_{t<tau} sum_i ||z_{i,t}^r - P(x̄^r)||^2 <= 20 tau^3 eta^2
n B_g^2 + 5 n tau^3 eta^2 ||G(P(x̄^r))||^2 + 5 tau ||Lambda^r - mean Lambda^r||^2``; Lemma A.2: ``(1/n)||Lambda^{r+1}
- mean||^2 - 2 eta^2 tau^2 L^2 ||P(x̄^{r+1}) - P(x̄^r)||^2 <= (4 eta^2 tau L^2/n) (RHS of (21))``. Runs and
instances: :mod:`.deterministic_runs`.
"""

from __future__ import annotations

from fedtheory.harness.claims import Context, Evidence, claim

from . import PAPER, printed
from .deterministic_runs import QUAD_L1, Comparison, evidence, grid_run, size

P = PAPER.key
GRID = (*QUAD_L1, "lasso", "wavy")
BOUNDARY = ("quad-l1(5,10,.5)", "quad-l1(3,5,2)", "wavy")
BOUNDARY_STEPS = ("lemma:1.5:sqrt20", "lemma:3:sqrt20", "lemma:1.5:8", "lemma:3:8")
NOTE = (
    "Lemmas A.1/A.2: Assumptions 3.1, 3.2, 3.4 with sigma = 0 and eta~ <= eta_g/(sqrt(20) L) (f may be non-convex; "
    "the proof's (33) condition eta~ <= eta_g/(8L) is not assumed)"
)
GRID_TEXT = (
    "every round of: quad-l1 (n, d, theta, tau) in {(5,10,.5,5), (30,20,.3,10), (3,5,2,20), (50,8,1,3)}, LASSO (n = 5, "
    "m = 50, d = 10, theta = .05, tau = 5) and the non-convex wavy instance (n = 8, d = 6) at steps (13) (eta~ = "
    "1/(10L), R = 60); quad-l1(5,10,.5), quad-l1(3,5,2) and wavy at eta~ = eta_g/(sqrt(20) L) and eta~ = eta_g/(8L), "
    "eta_g in {1.5, 3} (R = 30); each from x̄^1 = 0 and from Algorithm 2's start; then a witness search over "
    "non-convex clients and every step the lemmas' condition allows"
)


def lemma_a1_sides(inst, params, rec):
    """(21) at every round: the drift of round ``r`` against the lemma's bound at ``r``."""
    rhs = printed.lemma_a1_rhs(params.tau, params.eta, params.n, inst.B_g, rec.G2[:-1], rec.spread[:-1], 0.0, 1)
    return Comparison(rec.drift, rhs, rhs)


def lemma_a2_sides(inst, params, rec):
    """Lemma A.2 at every round, both sides divided by the size of their terms."""
    eta, tau, n, L = params.eta, params.tau, params.n, inst.L
    moved = 2 * eta**2 * tau**2 * L**2 * rec.dP2
    lhs = rec.spread[1:] / n - moved
    rhs = printed.lemma_a2_rhs(tau, eta, n, L, inst.B_g, rec.G2[:-1], rec.spread[:-1], 0.0, 1)
    return Comparison(lhs, rhs, size(rec.spread[1:] / n, moved, rhs))


def _runs(ctx: Context) -> list:
    boundary = [grid_run(ctx, name, steps) for name in BOUNDARY for steps in BOUNDARY_STEPS]
    return [grid_run(ctx, name, "13") for name in GRID] + boundary


@claim(
    f"{P}/lem-a.1",
    source="Lemma A.1",
    statement="Under eta~ <= eta_g/(sqrt(20) L), with sigma = 0: sum_{t=0}^{tau-1} sum_i ||z_{i,t}^r - P(x̄^r)||^2 "
    "<= 5 tau^3 eta^2 n 4 B_g^2 + 5 n tau^3 eta^2 ||G(P(x̄^r))||^2 + 5 tau ||Lambda^r - mean Lambda^r||^2 at every "
    "round; " + GRID_TEXT,
    scope="printed",
    expect="holds",
)
def lem_a1(ctx: Context) -> Evidence:
    """Instance: the grid and the search (:mod:`.deterministic_runs`); the worst round of each run. Reading: sigma =
    0; ``G_{eta~ g}`` of the statement is ``G`` of (11). Reference: the drift from the round's trace (post-prox local
    models ``z_{i,t}``, t < tau), the spread from the closed form of ``Lambda``."""
    return evidence(ctx, lemma_a1_sides, _runs(ctx), ("wavy", "lemma", 24, NOTE), {}, scaled=False)


@claim(
    f"{P}/lem-a.2",
    source="Lemma A.2",
    statement="Under eta~ <= eta_g/(sqrt(20) L), with sigma = 0: (1/n)||Lambda^{r+1} - mean Lambda^{r+1}||^2 - 2 "
    "eta^2 tau^2 L^2 ||P(x̄^{r+1}) - P(x̄^r)||^2 <= (1/n) 4 eta^2 tau L^2 (RHS of (21)) at every round; grid and "
    "search as lem-a.1",
    scope="printed",
    expect="holds",
)
def lem_a2(ctx: Context) -> Evidence:
    """Instance: as ``lem-a.1``. Reading: sigma = 0. Reference: ``Lambda^{r+1}`` from its closed form at the state of
    round r + 1; entries divided by the size of their terms (a difference on the left)."""
    return evidence(ctx, lemma_a2_sides, _runs(ctx), ("wavy", "lemma", 24, NOTE), {}, scaled=True)
