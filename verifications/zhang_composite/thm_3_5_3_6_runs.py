"""Theorems 3.5 (general non-convex) and 3.6 (proximal PL) at sigma = 0, exactly, along runs of Algorithm 1.

Each theorem bounds a measured quantity by a rate term plus a B_g term (the sigma term is 0 with exact gradients;
its Monte Carlo checks are the ``:sigma`` parts). Each part checks the same printed inequality rearranged to isolate
one term: ``:rate`` reads ``measured - (B_g term) <= (rate term)``, ``:bg`` reads ``measured - (rate term) <= (B_g
term)``. The verdicts coincide; the margins say how much of each printed term is used, and each part's witness
search minimises the slack relative to its own term, so that it hunts the instances where that term is the binding
one (small theta and small R for ``:rate``; a start near the minimiser, where the rate term vanishes, for ``:bg``).
Theorem 3.6's ``:rate`` (and 3.8's) is read in decrease form: ``Omega^1 - (Omega^{r+1} - B_g term) >= Omega^1 (1 -
(1 - mu eta~/3)^r)``, the contraction achieved against the contraction printed (margin >= 1 holds); as printed, both
sides tend to ``Omega^1`` as the steps vanish and a margin near 1 would say nothing. Entries are divided by the size
of their terms (their sides are differences of O(Omega^1) values).

Runs and instances: :mod:`.deterministic_runs`. Theorem 3.5 is searched over the non-convex clients (its Assumption
3.3(1) allows any smooth f), Theorem 3.6 over strongly convex quadratics, where F is prox-PL with mu = lambda_min of
the mean Hessian (``asm-3.3:2``).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim

from . import PAPER, printed
from .deterministic_runs import QUAD_L1, Comparison, evidence, grid_run, size

P = PAPER.key
GRID = (*QUAD_L1, "lasso", "wavy")
STRONGLY_CONVEX = (*QUAD_L1, "lasso")
GRID_TEXT = (
    "quad-l1 (n, d, theta, tau) in {{(5,10,.5,5), (30,20,.3,10), (3,5,2,20), (50,8,1,3)}}, LASSO (n = 5, m = 50, "
    "d = 10, theta = .05, tau = 5){wavy}, eta~ = 1/(10L), eta_g = max(1.5, sqrt(n/8)), R = 60 (300 in full), from "
    "x̄^1 = 0 and from Algorithm 2's start x̄^1 = x* - eta~ grad f(x*) (c^1 = 0)"
)


def thm_3_5_sides(part: str):
    """Theorem 3.5 at every ``R' <= R``: ``(1/R') sum_{r <= R'} ||G(p^r)||^2`` against ``Omega^1/(0.3 eta~ R')``
    and ``187 L^2 eta~^2 B_g^2/eta_g^2``, rearranged for ``part``."""

    def sides(inst, params, rec):
        R = rec.G2.shape[0] - 1
        Rs = np.arange(1, R + 1)[:, None]
        average = np.cumsum(rec.G2[:-1], axis=0) / Rs
        et, n, tau = params.eta_tilde, params.n, params.tau
        rate, _, bg = printed.thm_3_5_terms(rec.omega[0], et, Rs, 0.0, n, tau, 1, inst.L, inst.B_g, params.eta_g)
        return split(average, rate, bg, part, rounding=rec.size_p[0])

    return sides


def thm_3_6_sides(part: str):
    """Theorem 3.6 at every ``r <= R``: ``Omega^{r+1}`` against ``(1 - mu eta~/3)^r Omega^1`` and ``168 L^2 eta~^2
    B_g^2/(mu eta_g^2)``, rearranged for ``part``."""

    def sides(inst, params, rec):
        R = rec.omega.shape[0] - 1
        r = np.arange(1, R + 1)[:, None]
        et, n, tau = params.eta_tilde, params.n, params.tau
        rate, _, bg = printed.thm_3_6_terms(
            rec.omega[0], inst.mu, et, r, 0.0, n, tau, 1, inst.L, inst.B_g, params.eta_g
        )
        return split(rec.omega[1:], rate, bg, part, rec.omega[0], rec.size_p[1:] + rec.size_p[0])

    return sides


def split(measured, rate, bg, part: str, base=None, rounding=0.0) -> Comparison:
    """``measured <= rate + bg`` for ``part``: ``measured - bg <= rate`` or ``measured - rate <= bg``; with ``base``
    (``Omega^1``, which the rate term contracts) the ``:rate`` part in decrease form, ``base - (measured - bg) >= base
    - rate``: the decrease achieved against the printed contraction, which does not tend to 1 as the steps vanish.
    Entries are divided by the size of their terms (a difference on the left), with ``rounding`` the size of the
    first-order terms of the gaps in ``Omega`` (``Instance.first_order``)."""
    rate, bg = np.broadcast_arrays(rate, np.broadcast_to(bg, np.shape(rate)))
    scale = size(measured, rate, bg, 0.0 if base is None else base, rounding)
    if part == "rate":
        return Comparison(measured - bg, rate, scale, None if base is None else np.broadcast_to(base, rate.shape))
    return Comparison(measured - rate, bg, scale)


def theorem_evidence(ctx: Context, sides, grid: tuple, steps: str, search: tuple, witness: dict) -> Evidence:
    """Grid runs (the worst ``R'`` or ``r`` per run and start) plus the witness search."""
    return evidence(ctx, sides, [grid_run(ctx, name, steps) for name in grid], search, witness, scaled=True)


THM_3_5_NOTE = "Theorem 3.5: Assumptions 3.1, 3.2, 3.3(1) (any smooth f bounded below), 3.4 with sigma = 0 and (13)"
THM_3_6_NOTE = (
    "Theorem 3.6: Assumptions 3.1, 3.2, 3.3(2) (prox-PL: strongly convex f, mu = lambda_min), 3.4 with "
    "sigma = 0 and (13)"
)


def _thm_3_5(ctx: Context, part: str) -> Evidence:
    sides = thm_3_5_sides(part)
    measured = "(1/R') sum_{r <= R'} ||G(P(x̄^r))||^2"
    return theorem_evidence(ctx, sides, GRID, "13", ("wavy", "13", 48, THM_3_5_NOTE), {"measured": measured})


def _thm_3_6(ctx: Context, part: str) -> Evidence:
    return theorem_evidence(
        ctx,
        thm_3_6_sides(part),
        STRONGLY_CONVEX,
        "13",
        ("convex", "13", 48, THM_3_6_NOTE),
        {"measured": "Omega^{r+1}", "mu": "lambda_min of the mean Hessian (prox-PL constant: asm-3.3:2)"},
    )


THM_3_5 = "(1/R) sum_{r=1}^R ||G(P(x̄^r))||^2 <= Omega^1/(0.3 eta~ R) + 187 L^2 eta~^2 B_g^2/eta_g^2 (sigma = 0)"
THM_3_6 = "Omega^{R+1} <= (1 - mu eta~/3)^R Omega^1 + 168 L^2 eta~^2 B_g^2/(mu eta_g^2) (sigma = 0)"
SEARCH_TEXT = "; then a witness search over {what} (every R' <= R of each run)"


@claim(
    f"{P}/thm-3.5:rate",
    source="Theorem 3.5",
    statement=f"{THM_3_5}, read as measured - (B_g term) <= Omega^1/(0.3 eta~ R); on "
    + GRID_TEXT.format(wavy=", the non-convex wavy instance (n = 8, d = 6)")
    + SEARCH_TEXT.format(what="non-convex and convex clients and every step size (13) allows"),
    scope="printed",
    expect="holds",
)
def thm_3_5_rate(ctx: Context) -> Evidence:
    """Instance: the grid and the search of :func:`theorem_evidence` (Theorem 3.5 searched over the non-convex
    clients). Reading: sigma = 0 (exact gradients), every R' <= R of a run is an instance of the statement.
    Reference: exact runs; F* exact (prescribed or separable minimisers) or certified (quad-l1, LASSO)."""
    return _thm_3_5(ctx, "rate")


@claim(
    f"{P}/thm-3.5:bg",
    source="Theorem 3.5",
    statement=f"{THM_3_5}, read as measured - Omega^1/(0.3 eta~ R) <= 187 L^2 eta~^2 B_g^2/eta_g^2; grid and search "
    "as thm-3.5:rate",
    scope="printed",
    expect="holds",
)
def thm_3_5_bg(ctx: Context) -> Evidence:
    """Instance: as ``thm-3.5:rate``; the margin is the fraction of the B_g term the run needs beyond the rate term
    (negative: none). Reference: as ``thm-3.5:rate``."""
    return _thm_3_5(ctx, "bg")


def draw_bounds(path, run) -> None:
    """Omega^{r+1} along one run, from each start, against Theorem 3.6's terms (log scale)."""
    rec, inst, params = run.rec, run.inst, run.params
    r = np.arange(1, rec.omega.shape[0])
    fig, axes = plotting.figure(1, 2, width=3.6, height=3.0, sharey=True)
    for s, (ax, start) in enumerate(zip(axes, (r"from $\bar x^1 = 0$", "from Algorithm 2's start"))):
        rate, _, bg = printed.thm_3_6_terms(
            rec.omega[0, s], inst.mu, params.eta_tilde, r, 0.0, params.n, params.tau, 1, inst.L, inst.B_g, params.eta_g
        )
        ax.semilogy(r, rec.omega[1:, s], "k-", label=r"measured $\Omega^{r+1}$")
        ax.semilogy(r, rate, "C0--", label=r"$(1-\mu\tilde\eta/3)^r\,\Omega^1$")
        ax.semilogy(r, np.full(r.size, bg), "C1--", label=r"$168L^2\tilde\eta^2B_g^2/(\mu\eta_g^2)$")
        ax.semilogy(r, rate + bg, "C3-", lw=0.8, label="Theorem 3.6 (sum)")
        ax.set_xlabel("round r")
        ax.set_title(start)
    fig.suptitle(rf"Theorem 3.6 on {inst.name}: $\tilde\eta = 1/(10L)$, $\sigma = 0$", fontsize=9)
    axes[1].legend(loc="center right", fontsize=7)
    plotting.save(fig, path)


@claim(
    f"{P}/thm-3.6:rate",
    source="Theorem 3.6",
    statement=f"{THM_3_6}, read in decrease form Omega^1 - (Omega^(r+1) - B_g term) >= (1 - (1 - mu eta~/3)^r) "
    "Omega^1 at every r <= R, mu = "
    "lambda_min of the mean Hessian; on "
    + GRID_TEXT.format(wavy="")
    + SEARCH_TEXT.format(what="strongly convex quadratics and every step size (13) allows"),
    scope="printed",
    expect="holds",
    figure="thm-bounds",
)
def thm_3_6_rate(ctx: Context) -> Evidence:
    """Instance: the strongly convex grid instances and the search of :func:`theorem_evidence`. Reading: sigma = 0;
    every r <= R. Reference: exact runs, F* certified; prox-PL with mu = lambda_min holds on these instances
    (``asm-3.3:2``). Figure: Omega^{r+1} on quad-l1(5, 10, .5) against the printed terms."""
    ev = _thm_3_6(ctx, "rate")
    ctx.draw(draw_bounds, grid_run(ctx, "quad-l1(5,10,.5)", "13"))
    return ev


@claim(
    f"{P}/thm-3.6:bg",
    source="Theorem 3.6",
    statement=f"{THM_3_6}, read as Omega^(r+1) - (1 - mu eta~/3)^r Omega^1 <= 168 L^2 eta~^2 B_g^2/(mu eta_g^2) at "
    "every r <= R; grid and search as thm-3.6:rate",
    scope="printed",
    expect="holds",
)
def thm_3_6_bg(ctx: Context) -> Evidence:
    """Instance: as ``thm-3.6:rate``; the margin is the fraction of the B_g term the run needs beyond the rate term.
    Reference: as ``thm-3.6:rate``."""
    return _thm_3_6(ctx, "bg")
