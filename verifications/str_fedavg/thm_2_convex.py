"""Theorem 2 of StR-FedAvg (convex outer: Huber ``M^mu_l1``, ``mu = 0.05``) along deterministic runs of Algorithm 1:
Proposition 6's bounds with the Case i schedule substituted (all outside the printed hypotheses), the slopes with the
figure ``gaps-vs-rounds`` (both theorems) and the pointwise checks of spec V15 at every iterate.

Instance, runs, printed constants and slope fits: :mod:`.thm_1_2_runs` (its docstring describes them).
Paper text: ``shared/seeds/003_511a8e816d499631.txt``; Theorem 2 lines 149-164, Remark 2 line 168, Table 1 lines
33-45, Proposition 6 lines 493-521, proof of Theorem 2 lines 522-524.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim

from .thm_1_2_runs import (
    PAPER,
    PS,
    RTOL,
    SC_EXPONENTS,
    SLOPE_STATEMENT,
    cv_run,
    cv_table,
    grid_exponents,
    huber_bilevel,
    instance,
    pointwise,
    reference_slopes,
    sc_table,
    slope_evidence,
    slope_rows,
)


def _cv_evidence(ctx: Context, gap: str, bound: str) -> Evidence:
    t = cv_table(grid_exponents(ctx, 12, 16))
    return Evidence(
        measured=t[gap],
        bound=t[bound],
        relation="<=",
        rtol=RTOL,
        grid={"R": t["R"], "output": t["kind"]},
        witness=t["witness"],
    )


@claim(
    f"{PAPER}/thm-2:i-1:explicit-outside",
    source="Proposition 6 (i-2), lines 501-505, with the Theorem 2 Case i schedule (line 153; proof, line 524)",
    statement="OUTSIDE the printed hypotheses (R < horizon ~3.1e8 of line 153 and the step condition): f(xhat^R) - "
    "f* <= 3 Q~^2/(eta gamma~ R) + 3(gamma~/eta) Y/S + 3(gamma~^2/eta) W/gamma_g^2, gamma~ = R^(-1/2), "
    "eta = R^(-1/4), along deterministic runs on LS(20,40,4) with the Huber outer (mu = 0.05), R in {2^8..2^12} "
    "(quick) / {2^8..2^16} (full), outputs theta_avg and printed (theta = 1)",
    expect="holds",
)
def thm2_i1_explicit(ctx: Context) -> Evidence:
    return _cv_evidence(ctx, "fg", "bf")


@claim(
    f"{PAPER}/thm-2:i-2:explicit-outside",
    source="Proposition 6 (i-1), lines 497-499, with the Theorem 2 Case i schedule (line 153; proof, line 524)",
    statement="OUTSIDE the printed hypotheses (as thm-2:i-1:explicit-outside): h(xhat^R) - h* <= 3 Q~^2/(gamma~ R) + "
    "3 gamma~ Y/S + 3 gamma~^2 W/gamma_g^2 + 2 eta M on the same runs and grid",
    expect="holds",
)
def thm2_i2_explicit(ctx: Context) -> Evidence:
    return _cv_evidence(ctx, "hg", "bh")


@claim(
    f"{PAPER}/thm-2:ii:explicit-outside",
    source="Proposition 6 (ii-2), lines 508-511, with the Theorem 2 schedule gamma~ = R^(-1/2), eta = R^(-1/4) (Thm 2 "
    "Case ii, line 157)",
    statement="OUTSIDE the printed hypotheses (as thm-2:i-1:explicit-outside; kappa = 2, alpha_2 exact): f(xhat^R) - "
    "f* >= -||grad f(x*)|| ((3 Q~^2/(gamma~ R) + 3 gamma~ Y/S + 3 gamma~^2 W/gamma_g^2 + 2 eta M)/alpha_2)^(1/2) on "
    "the Huber runs and grid of thm-2:i-1:explicit-outside",
    expect="holds",
)
def thm2_ii_explicit(ctx: Context) -> Evidence:
    t = cv_table(grid_exponents(ctx, 12, 16))
    G = huber_bilevel().grad_norm
    return Evidence(
        measured=t["fg"],
        bound=-G * np.sqrt(t["bh"] / instance().inner.alpha_2),
        relation=">=",
        rtol=RTOL,
        grid={"R": t["R"], "output": t["kind"]},
        witness=t["witness"],
    )


@claim(
    f"{PAPER}/thm-2:i:slopes",
    source="Proposition 6 (i-1)/(i-2), lines 493-505 with Theorem 2 Case i (line 153); Table 1 row cvx, lines 33-45",
    statement=SLOPE_STATEMENT + ": Thm 2 Case i runs (Huber outer), R in {2^8..2^12} (quick) / {2^10..2^16} (full) "
    "(Table 1: h U.B. eps^-4 -> -1/4, f L.B. kappa = 2 eps^-8 -> -1/8, dist -1/8); figure gaps-vs-rounds (both "
    "theorems)",
    expect="holds",
    figure="gaps-vs-rounds",
)
def thm2_slopes(ctx: Context) -> Evidence:
    t = cv_table(grid_exponents(ctx, 12, 16))
    _figure(ctx, t)
    m = (t["kind"] == "theta_avg") & (t["R"] >= (2**8 if ctx.quick else 2**10))
    R = t["R"][m].astype(float)
    refs = reference_slopes(R, t["fg"][m], t["bf_terms"][m], t["bh_terms"][m], -1 / 4, -1 / 4)
    rows = slope_rows(R, {"f-gap": t["fg"][m], "h-gap": t["hg"][m], "dist": t["dist"][m]}, refs)
    return slope_evidence(rows, ("metric", "reference", "sign"), {**t["witness"], "fit window R": R.tolist()})


def _figure(ctx: Context, cv: dict) -> None:
    """Figure ``gaps-vs-rounds``: inner and outer gaps of the theta_avg output vs R with the printed bounds."""
    path = ctx.figure_path("gaps-vs-rounds")
    if path is None:
        return
    sc = sc_table(SC_EXPONENTS)
    fig, axes = plotting.figure(1, 2, width=4.2, height=3.4)
    for p, color in zip(PS, ("C0", "C1")):
        m = (sc["p"] == p) & (sc["kind"] == "theta_avg")
        R = sc["R"][m]
        axes[0].loglog(R, np.abs(sc["fg"][m]), "o-", color=color, ms=3, label=f"|f - f*| (< 0), p = {p}")
        axes[0].loglog(R, sc["hg"][m], "s-", color=color, ms=3, mfc="none", label=f"h - h*, p = {p}")
        axes[0].loglog(R, sc["bf"][m], ":", color=color, label=f"f bound (l. 393), p = {p}")
        axes[0].loglog(R, sc["bh"][m], "--", color=color, label=f"h bound (l. 400), p = {p}")
        inside = R[sc["inside"][m]]
        if inside.size:
            axes[0].axvline(inside.min(), color=color, lw=0.8, alpha=0.5)
    axes[0].set_title("Thm 1 Case i (f = |x|^2/2)\nvertical: smallest R meeting hypotheses", fontsize=8)
    m = cv["kind"] == "theta_avg"
    R = cv["R"][m]
    fg = cv["fg"][m]
    axes[1].loglog(R, np.abs(fg), "o-", color="C2", ms=3, label="|f - f*|" + (" (< 0)" if np.all(fg < 0) else ""))
    axes[1].loglog(R, cv["hg"][m], "s-", color="C3", ms=3, mfc="none", label="h - h*")
    axes[1].loglog(R, cv["bf"][m], ":", color="C2", label="f bound (Prop 6, subst.)")
    axes[1].loglog(R, cv["bh"][m], "--", color="C3", label="h bound (Prop 6, subst.)")
    axes[1].set_title("Thm 2 Case i (Huber, mu = 0.05)\nall R outside hypotheses (R < 3e8)", fontsize=8)
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("rounds R")
        ax.legend(fontsize=6)
    plotting.save(fig, path)


@claim(
    f"{PAPER}/thm-2:i:iterates",
    source="Proposition 5 (i-2) lower bound, line 432 (pointwise, spec V15); weak sharpness, Notation line 47",
    statement="At every server iterate of the Thm 2 Case i runs (Huber outer, R in {2^8..2^12} quick / {2^8..2^16} "
    "full): f(x) - f* >= -||grad f(x*)|| dist(x, X*) and dist(x, X*) <= ((h(x) - h*)/alpha_2)^(1/2)",
    expect="holds",
)
def thm2_iterates(ctx: Context) -> Evidence:
    inst = instance()
    ref = huber_bilevel()
    f_star, G, cert = ref.f_star, ref.grad_norm, ref.certificate
    measured, bound, check = [], [], []
    for e in grid_exponents(ctx, 12, 16):
        xs = cv_run(2**e)[1].x[:, 0]
        m, b = pointwise(xs, inst.huber.value(xs) - f_star, 0.0, G, inst)
        measured.append(m)
        bound.append(b)
        check += ["prop-5:i-2 lower"] * len(xs) + ["weak sharpness"] * len(xs)
    return Evidence(
        measured=np.concatenate(measured),
        bound=np.concatenate(bound),
        relation=">=",
        rtol=RTOL,
        atol=1e-9,
        grid={"check": check},
        witness={"instance": "as thm-2:i-1:explicit-outside", "||grad f(x*)||": G, "bilevel reference": cert},
    )
