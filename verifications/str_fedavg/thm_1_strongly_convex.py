"""Theorem 1 of StR-FedAvg (strongly convex outer, ``f = 1/2 ||x||^2``) along deterministic runs of Algorithm 1:
bound (8), the explicit f- and h-gap bounds of its proof inside and outside the printed hypotheses, Case ii, the
slopes (on ``R in {2^14..2^20}`` and asymptotic) and the pointwise checks at every iterate.

Instance, closed-form runs, printed constants and slope fits: :mod:`.thm_1_2_runs` (its docstring describes them).
Paper text: Theorem 1, Remark 2, Table 1, Proposition 3 and the proof of Theorem 1.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING

from .thm_1_2_runs import (
    PAPER,
    PS,
    SC_EXPONENTS,
    SLOPE_STATEMENT,
    add_pointwise,
    engine_dev,
    instance,
    sc_constants,
    sc_run_check,
    sc_slopes,
    sc_table,
    sc_witness,
    select,
)


@claim(
    f"{PAPER}/eq-8",
    source="Proof of Theorem 1, eq. (8)",
    statement="f(xhat^R) - f* <= mu_f Q^2/(2/(1 - p ln R/(2R))^R - 2) + [1/(p ln R mu_f^(a-b) R^(a-b))](Y/S + "
    "W/(mu_f^a R^a gamma_g^2)) along deterministic runs of Algorithm 1 (Thm 1 Case i, a = 2/3, b = 1/3, p in {1, 2}) "
    "on "
    "LS(20,40,4) with f = 1/2||x||^2, at every R in {2^8..2^20} that meets the horizon and step "
    "conditions; outputs theta_avg and printed",
    scope="printed",
    expect="holds",
)
def eq8(ctx: Context) -> Evidence:
    """Theorem 1 Case i runs on LS(20,40,4) with ``f = 1/2||x||^2`` (closed-form affine round map, cross-checked
    against library runs), at the grid points meeting the printed hypotheses: the f-gap against bound (8) with the
    exact constants of the instance."""
    t = sc_table(ctx, SC_EXPONENTS)
    m = t["inside"]
    return Evidence(
        measured=t["fg"][m],
        bound=t["b8"][m],
        relation="<=",
        rtol=ROUNDING,
        grid=select(t, m),
        witness={**sc_witness(ctx, t), "engine_dev": engine_dev(ctx)},
    )


@claim(
    f"{PAPER}/thm-1:i-1:explicit",
    source="Proof of Theorem 1 (i-1), final f-gap bound",
    statement="f(xhat^R) - f* <= mu_f Q^2/(2(R^(p/2) - 1)) + [1/(p ln R mu_f^(a-b) R^(a-b))](Y/S + W/(mu_f^a R^a "
    "gamma_g^2)), Q = ||xbar^0 - x_eta^*||, on the runs and grid of eq-8 (R meeting the printed hypotheses)",
    scope="printed",
    expect="holds",
)
def thm1_i1_explicit(ctx: Context) -> Evidence:
    """The runs and in-hypothesis grid of ``eq-8``: the f-gap against the final f-gap bound of the proof of Theorem 1,
    ``Q^2`` from the exact Tikhonov point."""
    t = sc_table(ctx, SC_EXPONENTS)
    m = t["inside"]
    return Evidence(
        measured=t["fg"][m],
        bound=t["bf"][m],
        relation="<=",
        rtol=ROUNDING,
        grid=select(t, m),
        witness={**sc_witness(ctx, t), "engine_dev": engine_dev(ctx)},
    )


@claim(
    f"{PAPER}/thm-1:i-2:explicit",
    source="Proof of Theorem 1 (i-2), h-gap bound",
    statement="h(xhat^R) - h* <= p ln R mu_f^(1-b) Q^2/(2 R^b (R^(p/2) - 1)) + Y/(S mu_f^a R^a) + W/(mu_f^(2a) R^(2a) "
    "gamma_g^2) + 2 p M ln R/(mu_f^b R^b), M = f* - inf f, on the runs and grid of eq-8",
    scope="printed",
    expect="holds",
)
def thm1_i2_explicit(ctx: Context) -> Evidence:
    """The runs and in-hypothesis grid of ``eq-8``: the h-gap against the h-gap bound of the proof of Theorem 1 (i-2),
    ``M`` from the certified bilevel optimum."""
    t = sc_table(ctx, SC_EXPONENTS)
    m = t["inside"]
    return Evidence(
        measured=t["hg"][m],
        bound=t["bh"][m],
        relation="<=",
        rtol=ROUNDING,
        grid=select(t, m),
        witness={**sc_witness(ctx, t), "engine_dev": engine_dev(ctx)},
    )


@claim(
    f"{PAPER}/thm-1:i:explicit-outside",
    source="Proof of Theorem 1 (bound (8), f- and h-gap bounds)",
    statement="OUTSIDE the printed hypotheses (R below the horizon or the step condition of Theorem 1 Case i): "
    "bound (8), the f-gap and the h-gap bounds of the proof of Theorem 1 at the grid points R in {2^8..2^20} that "
    "violate them, same runs as eq-8; not evidence for or against Theorem 1",
    scope="printed",
    expect="holds",
)
def thm1_explicit_outside(ctx: Context) -> Evidence:
    """The runs of ``eq-8`` at the grid points violating the printed hypotheses: bound (8), the f-gap and the h-gap
    bounds, one block each (judged, not evidence against Theorem 1)."""
    t = sc_table(ctx, SC_EXPONENTS)
    m = ~t["inside"]
    n = int(m.sum())
    sel = select(t, m)
    return Evidence(
        measured=np.concatenate([t["fg"][m], t["fg"][m], t["hg"][m]]),
        bound=np.concatenate([t["b8"][m], t["bf"][m], t["bh"][m]]),
        relation="<=",
        rtol=ROUNDING,
        grid={  # the names of the bounds, with their old line numbers, are compared across reports: kept as recorded
            "bound": ["eq-8"] * n + ["f-gap (line 393)"] * n + ["h-gap (line 400)"] * n,
            **{key: np.tile(val, 3) for key, val in sel.items()},
        },
        witness={**sc_witness(ctx, t), "engine_dev": engine_dev(ctx)},
    )


@claim(
    f"{PAPER}/thm-1:ii:explicit",
    source="Proposition 3 (ii-2), with the Theorem 1 Case i substitution of the proof of Theorem 1 (i-2) (Theorem 1 "
    "(ii))",
    statement="Case ii (kappa = 2, alpha_2 = sigma_20(U)^2/(2N) exact): f(xhat^R) - f* >= -||grad f(x*)|| ((Err + 2 "
    "eta M)/alpha_2)^(1/2), with Err + 2 eta M replaced by the printed h-gap bound of the proof of Theorem 1 "
    "(the proof's substitution), on the runs and in-hypothesis grid of eq-8",
    scope="printed",
    expect="holds",
)
def thm1_ii_explicit(ctx: Context) -> Evidence:
    """The runs and in-hypothesis grid of ``eq-8``: the f-gap against the Case ii lower bound with ``Err + 2 eta M``
    replaced by the printed h-gap bound, ``alpha_2`` exact (singular values)."""
    t, k = sc_table(ctx, SC_EXPONENTS), sc_constants(ctx)
    m = t["inside"]
    return Evidence(
        measured=t["fg"][m],
        bound=-k.G * np.sqrt(t["bh"][m] / instance(ctx).inner.alpha_2),
        relation=">=",
        rtol=ROUNDING,
        grid=select(t, m),
        witness={**sc_witness(ctx, t), "engine_dev": engine_dev(ctx)},
    )


@claim(
    f"{PAPER}/thm-1:i:slopes",
    source="Proof of Theorem 1; Table 1 row sc (Remark 2)",
    statement=SLOPE_STATEMENT + ": Thm 1 Case i runs, p in {1, 2}, R in {2^14..2^20} (grid end; Table 1: "
    "f, h U.B. eps^-3 -> -1/3, f L.B. kappa = 2 eps^-6 -> -1/6, dist -1/6)",
    scope="printed",
    expect="fails",
)
def thm1_slopes(ctx: Context) -> Evidence:
    """Log-log slopes (95% t-intervals) of the Theorem 1 gaps over ``R in {2^14..2^20}`` (closed-form runs) against
    the slopes the explicit bounds imply and Table 1's exponents, per ``p``."""
    t = sc_table(ctx, SC_EXPONENTS)
    witness = {
        **sc_witness(ctx, t),
        "fit window": "R in {2^14..2^20}, closed-form engine (runs cross-checked up to 2^12 / 2^14)",
        "lambda_min^+(H)": 2 * instance(ctx).inner.alpha_2,
        "reading": "pre-asymptotic window: the Tikhonov bias eta(R)/lambda_min^+(H) >= 1 here, so h(x_eta) - h* is "
        "still ~constant; the bounds themselves hold at every R (thm-1:i-2:explicit); see thm-1:i:slopes-asymptotic",
    }
    return sc_slopes(t, 14).evidence("<=", witness=witness)


@claim(
    f"{PAPER}/thm-1:i:slopes-asymptotic",
    source="Proof of Theorem 1; Table 1 row sc (Remark 2)",
    statement=SLOPE_STATEMENT + ": the same deterministic runs evaluated in closed form (exact affine round map) at "
    "R in {2^40, 2^44, ..., 2^60}, where eta(R) << lambda_min^+(H)",
    scope="printed",
    expect="holds",
)
def thm1_slopes_asymptotic(ctx: Context) -> Evidence:
    """As ``thm-1:i:slopes`` at ``R in {2^40, 2^44, ..., 2^60}``, where only the closed-form engine (exact affine
    round map) reaches."""
    t = sc_table(ctx, tuple(range(40, 61, 4)))
    witness = {
        **sc_witness(ctx, t),
        "fit window": "R in {2^40..2^60}",
        "lambda_min^+(H)": 2 * instance(ctx).inner.alpha_2,
    }
    return sc_slopes(t, 40).evidence("<=", witness=witness)


@claim(
    f"{PAPER}/thm-1:i:iterates",
    source="Proposition 2 (i-2) lower bound (pointwise); weak sharpness (Notation)",
    statement="At every server iterate of the Thm 1 Case i runs (p in {1, 2}, R in {2^8..2^12} quick / {2^8..2^14} "
    "full, library runs): f(x) - f* >= (mu_f/2)||x - x*||^2 - ||grad f(x*)|| dist(x, X*) and dist(x, X*) <= "
    "((h(x) - h*)/alpha_2)^(1/2), alpha_2 = sigma_20(U)^2/(2N)",
    scope="printed",
    expect="holds",
)
def thm1_iterates(ctx: Context) -> Evidence:
    """Every server iterate of the library runs of Theorem 1 Case i: the Proposition 2 (i-2) lower bound with the
    certified ``x*`` and the weak-sharpness bound with the exact ``alpha_2``."""
    inst, k = instance(ctx), sc_constants(ctx)
    points = Points()
    for e in range(8, (12 if ctx.quick else 14) + 1):
        for p in PS:
            xs = sc_run_check(ctx, 2**e, p)[1]
            fg = 0.5 * np.sum(xs * xs, axis=1) - k.f_star
            sq = 0.5 * np.sum((xs - k.x_star) ** 2, axis=1)
            add_pointwise(points, xs, fg, sq, k.G, inst, "prop-2:i-2 lower")
    return points.evidence(
        ">=",
        rtol=ROUNDING,
        atol=1e-12,  # absolute rounding where both sides vanish (iterates next to x*)
        witness={"instance": "as thm-1:i-1:explicit", "alpha_2": inst.inner.alpha_2, "||grad f(x*)||": k.G},
    )
