"""Lemma 4.11 and its chain (thesis section 4.4): Proposition 4.15, Claims 4.16-4.17 and the convexity (Jensen) step
of Lemma 4.11's proof, checked on the fixed-eta_c campaign of FedDualAvg on shared-Hessian quadratics.

Instances, constants, the reading of zeta (``:corrected`` ids), the runs and the Monte Carlo conventions:
:mod:`.quadratic_heterogeneity`.

Printed objects: Assumption 2.3, Assumption 4.2, Lemma 4.11, Proposition 4.15, Claims 4.16-4.17, and the proofs of
Proposition 4.15, Lemma 4.11, Claim 4.16 and Claim 4.17.
"""

from __future__ import annotations

import numpy as np

from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING

from .quadratic_heterogeneity import (
    PAPER,
    S_STEP,
    campaign,
    common_witness,
    lem411_bound,
)


def _lem411(ctx: Context, reading: str) -> Evidence:
    runs = campaign(ctx)
    family_size = sum(run.disc[..., 0].size for run in runs.values() if run.disc.shape[-1] > 1)
    points = Points()
    for c, run in runs.items():
        if run.disc.shape[-1] == 1:  # sigma = 0: one exact run
            mean = low = high = run.disc[..., 0]
        else:
            est = mc_mean(run.disc, axis=-1, family_size=family_size)
            mean, low, high = est.mean, est.lo, est.hi
        bound = lem411_bound(c.instance(ctx), c.noisy, c.K, c.eta_c(ctx), reading)
        labels = c.labels()
        for (r, k), value in np.ndenumerate(mean):  # every round r and local step k = 0..K
            points.add(value, bound, interval=(low[r, k], high[r, k]), **labels, r=r, k=k)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            **common_witness(ctx, reading),
            "measured": "(1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||_*^2, ||y||_*^2 = ||A||_2 y'A^-1 y (Claim 4.19)",
            "largest ratio to the bound per configuration": _ratios_by_config(ctx, runs, reading),
        },
    )


def _ratios_by_config(ctx: Context, runs: dict, reading: str) -> list:
    out = []
    for c, run in runs.items():
        b = lem411_bound(c.instance(ctx), c.noisy, c.K, c.eta_c(ctx), reading)
        out.append({**c.labels(), "max_(r,k) mean / bound": float(run.disc.mean(axis=-1).max() / b)})
    return out


LEM_411_STATEMENT = (
    "For every k in {{0..K}} and every round r: (1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||_*^2 <= 7 eta_c^2 K sigma^2 + "
    "14 eta_c^2 K^2 zeta^2 (FedDualAvg, eta_s = 1, eta_c <= 1/(4L)), with {zeta}; shared-Hessian quadratics (d = 10) "
    "with psi in {{l1, l2 ball, masked nuclear}}, sigma in {{0, s = 0.5}}, M in {{2, 8}}, K in {{1, 10}} (full: also "
    "5), s_het in {{1, 10}} (full: also 0.1), eta_c = 1/(4L) (full: also 1/(16L)), R = 30 (full: 100): Monte Carlo "
    "(64 replicas; full 200; simultaneous 99% intervals) and exact at sigma = 0."
)


@claim(
    f"{PAPER}/lem-4.11",
    source="Lemma 4.11 (zeta of Assumption 4.2(a), (4.12))",
    statement=LEM_411_STATEMENT.format(zeta="zeta^2 = Z_het, the smallest value (4.12) admits as printed"),
    scope="printed",
    expect="fails",
)
def lem_411(ctx: Context) -> Evidence:
    """The fixed-eta_c campaign of FedDualAvg (every round and local step): the client dual discrepancy, exact at
    sigma = 0 and Monte Carlo means with simultaneous 99% intervals otherwise, against Lemma 4.11's bound with
    zeta^2 = Z_het."""
    return _lem411(ctx, "printed")


@claim(
    f"{PAPER}/lem-4.11:corrected",
    source="Lemma 4.11, with (4.12) read as ||grad F_m - grad F||_* <= zeta (Assumption 2.3; proof of Claim 4.18)",
    statement=LEM_411_STATEMENT.format(zeta="zeta = Z_het = max_m sup_x ||grad F_m(x) - grad F(x)||_*"),
    scope="printed",
    expect="holds",
)
def lem_411_corrected(ctx: Context) -> Evidence:
    """The campaign of lem-4.11 against the bound with zeta = Z_het (exact at sigma = 0, Monte Carlo with
    simultaneous 99% intervals otherwise)."""
    return _lem411(ctx, "corrected")


def _state_evidence(ctx: Context, key, relation: str = "<=", rtol: float = ROUNDING, note: str = "") -> Evidence:
    """Per-configuration worst visited state of one per-state inequality (``key`` of ``_Run.worst``)."""
    runs = campaign(ctx)
    points = Points()
    for c, run in runs.items():
        if key not in run.worst or run.worst[key][0] == -np.inf:  # absent, or 0 <= 0 at every state
            continue
        _, lhs, rhs = run.worst[key]
        points.add(lhs, rhs, **c.labels())
    reading = key[1] if isinstance(key, tuple) else None
    witness = {
        **common_witness(ctx, reading),
        "states": f"every F^(r,k), k < K, of the first {S_STEP} replicas of every run and every pair m1 < m2; each "
        "entry is a configuration's worst state (largest (lhs - rhs)/rhs)",
    }
    if note:
        witness["note"] = note
    return points.evidence(relation, rtol=rtol, witness=witness)


PROP_415_STATEMENT = (
    "At every state F^(r,k) visited by the runs of lem-4.11 (first {s} replicas) and every pair m1 != m2: "
    "E[||y_m1^(r,k+1) - y_m2^(r,k+1)||^2_(A^-1) | F^(r,k)] <= (1 + 1/K)||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) + 2(1 + "
    "1/K) eta_c^2 sigma^2/||A|| + 4(1 + K) eta_c^2 zeta^2/||A||, with {zeta}; the left side exactly (Gaussian noise: "
    "||v||^2_(A^-1) + 2 eta_c^2 s^2 tr(A^-1))."
)


@claim(
    f"{PAPER}/prop-4.15",
    source="Proposition 4.15",
    statement=PROP_415_STATEMENT.format(s=S_STEP, zeta="zeta^2 = Z_het ((4.12) as printed)"),
    scope="printed",
    expect="fails",
)
def prop_415(ctx: Context) -> Evidence:
    """Every state of the campaign's first replicas and every client pair: the conditional expectation in closed form
    (Gaussian noise), worst state per configuration, against the bound with zeta^2 = Z_het."""
    return _state_evidence(ctx, ("prop-4.15", "printed"))


@claim(
    f"{PAPER}/prop-4.15:corrected",
    source="Proposition 4.15, with (4.12) read as ||grad F_m - grad F||_* <= zeta",
    statement=PROP_415_STATEMENT.format(s=S_STEP, zeta="zeta = Z_het"),
    scope="printed",
    expect="holds",
)
def prop_415_corrected(ctx: Context) -> Evidence:
    """The states of prop-4.15 (closed-form conditional expectation, worst state per configuration) against the
    bound with zeta = Z_het."""
    return _state_evidence(ctx, ("prop-4.15", "corrected"))


@claim(
    f"{PAPER}/claim-4.16",
    source="Claim 4.16, (4.28)",
    statement=f"Pathwise (realised noise), at every state of the runs of lem-4.11 (first {S_STEP} replicas) and every "
    "pair m1 != m2: ||y_m1^(r,k+1) - y_m2^(r,k+1)||^2_(A^-1) <= (1 + K) eta_c^2 ||delta_m1 - delta_m2||^2_(A^-1) + (1 "
    "+ 1/K)||y_m1 - y_m2 - eta_c A(x_m1 - x_m2) - eta_c (eps_m1 - eps_m2)||^2_(A^-1) (all at (r,k)).",
    scope="printed",
    expect="holds",
)
def claim_416(ctx: Context) -> Evidence:
    """Every state of the campaign's first replicas and every client pair, with the realised noise (pathwise): the
    worst state per configuration of (4.28)."""
    return _state_evidence(ctx, "claim-4.16")


@claim(
    f"{PAPER}/claim-4.17",
    source="Claim 4.17",
    statement=f"At every state F^(r,k) of the runs of lem-4.11 (first {S_STEP} replicas; eta_c = 1/(4L), full also "
    "1/(16L)) and every pair m1 != m2: E[||y_m1 - y_m2 - eta_c A(x_m1 - x_m2) - eta_c(eps_m1 - eps_m2)||^2_(A^-1) | "
    "F^(r,k)] <= ||y_m1 - y_m2||^2_(A^-1) + 2 eta_c^2 sigma^2 ||A||^-1; the left side exactly (||y_m1 - y_m2 - eta_c "
    "A(x_m1 - x_m2)||^2 + 2 eta_c^2 s^2 tr(A^-1)).",
    scope="printed",
    expect="holds",
)
def claim_417(ctx: Context) -> Evidence:
    """Every state of the campaign's first replicas and every client pair: the conditional expectation in closed form
    (Gaussian noise), worst state per configuration, against the printed bound."""
    return _state_evidence(
        ctx,
        "claim-4.17",
        note="at a synchronised state (k = 0, y_m1 = y_m2) with noise both sides equal 2 eta_c^2 s^2 tr(A^-1) = 2 "
        "eta_c^2 sigma^2/||A||: the bound is attained",
    )


def _jensen(ctx: Context, key: str) -> Evidence:
    """The convexity step at every state of the sigma = 0 runs (exact), worst state per configuration."""
    return _state_evidence(ctx, key, note="sigma = 0 runs only (the expectations are the values); norms in A^-1")


@claim(
    f"{PAPER}/lem-4.11:step-jensen",
    source="proof of Lemma 4.11 ('Let m1, m2 be two arbitrary clients', and the step 'by convexity')",
    statement="As printed, for two arbitrary clients m1 != m2: (1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||^2_(A^-1) <= "
    "E||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) ('by convexity'); checked for every pair at every (r,k) of the sigma = 0 "
    "runs of lem-4.11 (exact); each entry is a configuration's worst state against its closest pair.",
    scope="printed",
    expect="fails",
)
def lem_411_step_jensen(ctx: Context) -> Evidence:
    """The sigma = 0 runs of the campaign (exact): the average discrepancy against the closest pair of clients at
    every state, worst state per configuration."""
    return _jensen(ctx, "jensen every pair")


@claim(
    f"{PAPER}/lem-4.11:step-jensen-corrected",
    source="proof of Lemma 4.11, the step 'by convexity', with the pair (m1, m2) maximising the right side",
    statement="(1/M) sum_m ||ybar^(r,k) - y_m^(r,k)||^2_(A^-1) <= max_(m1, m2) ||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) "
    "(what the proof needs, since its bound on E||y_m1 - y_m2||^2 is uniform over pairs), at every (r,k) of the "
    "sigma = 0 runs of lem-4.11 (exact).",
    scope="printed",
    expect="holds",
)
def lem_411_step_jensen_corrected(ctx: Context) -> Evidence:
    """The sigma = 0 runs of the campaign (exact): the average discrepancy against the farthest pair of clients at
    every state, worst state per configuration."""
    return _jensen(ctx, "jensen max pair")
