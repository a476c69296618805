"""Lemmas 1, 2, 4 and 5 of the proof of Theorem 1, checked at every round of OledFL runs on quadratics.

Instances, runs, the per-round quantities and the reading of Assumption 3: :mod:`.lemma_runs`. Each printed right-hand
side is evaluated from the run's own quantities (``printed.py``), at the per-client ``(G^2, B^2)`` pair that makes it
smallest; a lemma is a statement for every round and instance, so each run enters at its worst round (both sides over
the round's rounding scale, the largest squared norm of its iterates). The grid (:func:`.lemma_runs.grid`) judges the
runs inside a lemma's printed hypotheses; the others are reported as outside-hypotheses probes, not judged. Then a
witness search over the lemma's domain.

The printed lambda^2 (SAM) terms do not scale with L (the proofs bound the SAM gradient error by lambda where
Assumption 1 gives L lambda): OledFL-SAM breaks Lemmas 1, 2, 4 and the inequality of Lemma 5's proof once L lambda is
large; the ``:corrected`` claims redo those terms. Lemma 5's printed beta cap lets gamma exceed 1.

Lemmas 1, 2 and 4 print no condition on beta; they serve Theorem 1, whose beta <= min{sqrt(10)(1 - psi)/40,
sqrt(5)/30} is taken as their domain (beta = 0.3 is a probe).

Printed objects: Lemma 1 (8) and its proof's final display (12), Lemma 2 (13), Lemma 4 (17), Lemma 5 and the
inequality before its division by mu, (30) of the proof of Lemma 9.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING

from . import printed as pf
from .lemma_runs import (
    EXACT,
    GRID_T,
    PAPER,
    Instance,
    M,
    Rounds,
    checked,
    grid,
    instance,
    lem5_beta_cap,
    lemma_runs_mc,
    proof_beta_cap,
    smallest,
    thm1_beta_cap,
)


# ---- right-hand sides per round -----------------------------------------------------------------------------------
def _pairs(inst: Instance) -> tuple[np.ndarray, np.ndarray]:
    return np.sqrt(inst.G2)[:, None, None], np.sqrt(inst.B2)[:, None, None]


def _C1(r: Rounds, inst: Instance, coefficient: int = 6, sam: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Lemma 1's right-hand side C_1^t (``coefficient`` of K beta^2 Delta^t; lambda scaled by ``sam``)."""
    G, B = _pairs(inst)
    C1 = pf.lem1_rhs(K=r.K, beta=r.beta, Delta=r.Delta[:-1], eta=r.eta, sigma=r.sigma, lam=sam * r.lam, G=G, B=B,
                     mean_grad_sq=r.mean_grad_sq[:-1], beta_coefficient=coefficient)  # fmt: skip
    return smallest(C1, inst.B2)


def _C2(r: Rounds, inst: Instance) -> tuple[np.ndarray, np.ndarray]:
    """Lemma 5's C_2^t at the valid pair that makes it smallest."""
    G, B = _pairs(inst)
    C2 = pf.lem5_C2(K=r.K, eta=r.eta, psi=inst.psi, sigma=r.sigma, G=G, B=B, lam=r.lam, m=M,
                    sum_grad_sq=r.sum_grad_sq, mean_grad_sq=r.mean_grad_sq[:-1])  # fmt: skip
    return smallest(C2, inst.B2)


def lem1_sides(coefficient: int = 6, corrected: bool = False) -> Callable:
    """V_1^t against (8) (``coefficient`` 6) or the proof's (12) (4); ``corrected``: SAM term 6 K L^2 lambda^2."""

    def sides(r: Rounds, inst: Instance) -> dict:
        rhs, B2 = _C1(r, inst, coefficient, np.sqrt(r.K) * inst.L if corrected else 1.0)
        return {"lhs": r.V1, "rhs": rhs, "scale": r.scale, "B2": B2}

    return sides


def lem2_sides(corrected: bool = False) -> Callable:
    """V_2^t against (13); ``corrected``: SAM term 2 eta^2 K^2 L^2 lambda^2."""

    def sides(r: Rounds, inst: Instance) -> dict:
        lam = r.lam * (r.K * inst.L if corrected else 1.0)
        rhs = pf.lem2_rhs(K=r.K, eta=r.eta, sigma=r.sigma, m=M, sum_grad_sq=r.sum_grad_sq, lam=lam)
        return {"lhs": r.V2, "rhs": rhs, "scale": r.scale}

    return sides


def lem4_sides(corrected: bool = False) -> Callable:
    """(1/m) sum_i ||x_i^t - xbar^t||^2 against C_1^t/(1 - psi)^2 (17); ``corrected``: C_1 of ``lem-1:corrected``."""

    def sides(r: Rounds, inst: Instance) -> dict:
        C1, B2 = _C1(r, inst, sam=np.sqrt(r.K) * inst.L if corrected else 1.0)
        return {"lhs": r.consensus[:-1], "rhs": pf.lem4_rhs(C1, inst.psi), "scale": r.scale, "B2": B2}

    return sides


def lem5_pre_sides(r: Rounds, inst: Instance) -> dict:
    """mu Delta^{t+1} against 5(1 + 24 eta^2 K^2 L^2 + 6K/(1 - psi)^2) beta^2 Delta^t + 5 C_2^t."""
    C2, B2 = _C2(r, inst)
    mu, rhs = pf.lem5_pre_recursion(K=r.K, beta=r.beta, psi=inst.psi, eta=r.eta, L=inst.L, Delta=r.Delta[:-1], C2=C2)
    return {"lhs": mu * r.Delta[1:], "rhs": rhs, "scale": r.scale, "B2": B2}


def lem5_sides(r: Rounds, inst: Instance) -> dict:
    """Delta^t against (Delta^t - Delta^{t+1})/(1 - gamma) + 5 C_2^t/(mu (1 - gamma)) (C_2^t at its smallest)."""
    C2, B2 = _C2(r, inst)
    rhs = pf.lem5_rhs(K=r.K, beta=r.beta, psi=inst.psi, Delta=r.Delta[:-1], Delta_next=r.Delta[1:], C2=C2)
    gamma = np.full_like(rhs, float(pf.lem5_gamma(r.K, r.beta, inst.psi)))
    return {"lhs": r.Delta[:-1], "rhs": rhs, "scale": r.scale, "B2": B2, "gamma": gamma}


# ---- hypotheses -----------------------------------------------------------------------------------------------------
def _lem1_inside(run, inst: Instance, eta: float) -> bool:
    return eta <= pf.lem1_eta_cap(run.K, inst.L) * EXACT and run.beta <= thm1_beta_cap(inst.psi) * EXACT


def _lem2_inside(run, inst: Instance, eta: float) -> bool:
    return run.beta <= thm1_beta_cap(inst.psi) * EXACT


def _lem4_inside(run, inst: Instance, eta: float) -> bool:
    return eta < pf.lem4_eta_cap(run.K, inst.L) and run.beta <= thm1_beta_cap(inst.psi) * EXACT


def _lem5_inside(run, inst: Instance, eta: float) -> bool:
    return eta <= pf.lem5_eta_cap(run.K, inst.L) * EXACT and run.beta <= lem5_beta_cap(run.K, inst.psi) * EXACT


def _lem5_corrected_inside(run, inst: Instance, eta: float) -> bool:
    return run.lam == 0 and _lem5_inside(run, inst, eta) and run.beta <= proof_beta_cap(run.K, inst.psi) * EXACT


HYP_LEM1 = "eta <= sqrt(3)/(6KL) and K >= 2 (Lemma 1), beta <= min{sqrt(10)(1 - psi)/40, sqrt(5)/30} (Theorem 1)"
HYP_LEM2 = (
    "Lemma 2 prints no step condition (the search scales eta up to 1/(KL), the largest step of the proof's lemmas); "
    "beta <= min{sqrt(10)(1 - psi)/40, sqrt(5)/30} (Theorem 1)"
)
HYP_LEM4 = "0 < eta < 1/(6KL) (Lemma 4), K >= 2, beta <= min{sqrt(10)(1 - psi)/40, sqrt(5)/30} (Theorem 1)"
HYP_LEM5 = "eta <= 1/(KL), beta^2 <= min{(1 - psi)^2/(30K), 1/(60(2 + K/(1 - psi)^2))} (Lemma 5), K >= 2"
HYP_LEM5_CORRECTED = (
    "lambda = 0, eta <= 1/(KL), beta^2 <= min{(1 - psi)^2/(240K), 1/300} (the cap of the proof of Theorem 1, under "
    "which gamma < 1), K >= 2"
)
GRID_TEXT = (
    "grid: heterogeneous quadratics (m = 8, d = 3, x* = 0) with L in {1, 10}, ring 1/3 and complete (full profile: "
    "also lazy ring, exponential, random, offsets' scale 0.01), identical clients (A_i = L I, G = 0, B = 1) with L in "
    "{10, 100} (full: {1, 10, 100}), small offsets with L = 100 (ring, complete), starts at 3 distances, K in {2, 4} "
    "(and 40 at Theorem 1's stated step), beta in {0, 0.05, 0.3} and at Lemma 5's cap, lambda in {0, 1} (full: {0, "
    "0.1, 1}), steps 0.9 x the caps of Lemmas 1, 4, 5 and of the whole proof (and 0.01 x the latter), "
    f"{GRID_T['quick']} rounds ({GRID_T['full']} full); then a witness search"
)


def _lem1_cap(K, L, B):
    return pf.lem1_eta_cap(K, L)


def _theorem_beta(K, psi):
    return thm1_beta_cap(psi)


def _lem2_cap(K, L, B):
    return pf.lem5_eta_cap(K, L)


def _lem4_cap(K, L, B):
    return pf.lem4_eta_cap(K, L) * (1 - 1e-9)  # strict: eta < 1/(6KL)


def _lem5_cap(K, L, B):
    return pf.lem5_eta_cap(K, L)


SAM_NOTE = (
    "the SAM term of the proof bounds ||grad f_i(x + lambda g/||g||) - grad f_i(x)||^2 by lambda^2, where Assumption 1 "
    "gives L^2 lambda^2: the printed lambda^2 terms do not scale with L (on identical clients A_i = L I near x*, "
    "each SAM step moves eta L lambda)"
)


# ---- Lemma 1 --------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/lem-1",
    source="Lemma 1, eq. (8)",
    statement="V_1^t = (1/m) sum_i sum_{k<K} ||x_{i,k}^t - x_i^t||^2 <= 6K beta^2 Delta^t + 3K^2 eta^2 (sigma^2 + "
    "6 lambda^2 + 6K G^2) + 18 K^3 eta^2 B^2 (1/m) sum_i ||grad f(x_i^t)||^2 at every round, for eta <= "
    f"sqrt(3)/(6KL) and K >= 2, sigma = 0; {GRID_TEXT}. Fails for OledFL-SAM once L lambda is large (identical "
    "clients, L = 10, lambda = 1, start 1e-3 from x*: ratio about 1.4); OledFL-SGD (lambda = 0) holds with ratio "
    "< 0.02.",
    scope="printed",
    expect="fails",
)
def lem_1(ctx: Context) -> Evidence:
    """Instance: the grid and search of the module docstring, sigma = 0. Reading: V_1 with x_i^t the aggregated model;
    per-client (G, B), smallest right side. Reference: the runs' own iterates (library OledFL with trace=True)."""
    return checked(ctx, lem1_sides(), _lem1_inside, HYP_LEM1, _lem1_cap, _theorem_beta, witness={"why": SAM_NOTE})


@claim(
    f"{PAPER}/lem-1:proof-4k",
    source="Lemma 1 (proof, final display (12))",
    statement="The proof's final display: V_1^t <= 3 eta^2 K^2 (sigma^2 + 6 lambda^2 + 6K G^2) + 18 K^3 eta^2 B^2 "
    f"(1/m) sum_i ||grad f(x_i^t)||^2 + 4K beta^2 Delta^t at every round, eta <= sqrt(3)/(6KL); {GRID_TEXT}. Fails "
    "as Lemma 1 does (the SAM term); the smaller 4K beta^2 holds on every OledFL-SGD run.",
    scope="printed",
    expect="fails",
)
def lem_1_proof_4k(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-1``, with 4K beta^2 Delta^t."""
    return checked(ctx, lem1_sides(4), _lem1_inside, HYP_LEM1, _lem1_cap, _theorem_beta, witness={"why": SAM_NOTE})


@claim(
    f"{PAPER}/lem-1:corrected",
    source="Lemma 1, eq. (8), with the SAM term of its proof's first inequality (9) redone",
    statement="Corrected: V_1^t <= 6K beta^2 Delta^t + 3K^2 eta^2 (sigma^2 + 6K L^2 lambda^2 + 6K G^2) + 18 K^3 eta^2 "
    "B^2 (1/m) sum_i ||grad f(x_i^t)||^2 (the SAM error ||grad f_i(x + lambda u) - grad f_i(x)|| <= L lambda enters "
    f"(9) with the factor 2K of the other terms); eta <= sqrt(3)/(6KL), sigma = 0; {GRID_TEXT}.",
    scope="corrected",
    expect="holds",
)
def lem_1_corrected(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-1``, with 6 K L^2 lambda^2 in place of 6 lambda^2."""
    return checked(ctx, lem1_sides(corrected=True), _lem1_inside, HYP_LEM1, _lem1_cap, _theorem_beta)


# ---- Lemma 2 --------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/lem-2",
    source="Lemma 2, eq. (13)",
    statement="V_2^t = ||xbar^{t+1} - xbar^t||^2 <= K eta^2 sigma^2 + (2 eta^2/m^2) ||sum_i sum_{k<K} grad "
    f"f_i(x_{{i,k}}^t)||^2 + 2 eta^2 lambda^2 at every round, sigma = 0; {GRID_TEXT}. With lambda = 0 the ratio is "
    "exactly 1/2 (V_2 = (eta^2/m^2)||sum sum grad f_i||^2); OledFL-SAM fails (each SAM gradient is off by up to L "
    "lambda, K steps per round: the lambda term lacks K^2 L^2).",
    scope="printed",
    expect="fails",
)
def lem_2(ctx: Context) -> Evidence:
    """Instance: the grid and search, sigma = 0. Reading: V_2 from the aggregated models' means. Reference: the runs."""
    return checked(ctx, lem2_sides(), _lem2_inside, HYP_LEM2, _lem2_cap, _theorem_beta, witness={"why": SAM_NOTE})


@claim(
    f"{PAPER}/lem-2:corrected",
    source="Lemma 2, eq. (13), with the SAM term of its proof (15) redone",
    statement="Corrected (sigma = 0): V_2^t <= (2 eta^2/m^2) ||sum_i sum_k grad f_i(x_{i,k}^t)||^2 + 2 eta^2 K^2 L^2 "
    "lambda^2 (xbar^{t+1} - xbar^t = -(eta/m) sum_i sum_k g_{i,k}^t and each SAM gradient is within L lambda of "
    f"grad f_i(x_{{i,k}}^t)); {GRID_TEXT}.",
    scope="corrected",
    expect="holds",
)
def lem_2_corrected(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-2``, with 2 eta^2 K^2 L^2 lambda^2 in place of 2 eta^2 lambda^2."""
    return checked(ctx, lem2_sides(corrected=True), _lem2_inside, HYP_LEM2, _lem2_cap, _theorem_beta)


# ---- Lemma 4 --------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/lem-4",
    source="Lemma 4, eq. (17)",
    statement="(1/m) sum_i ||x_i^t - xbar^t||^2 <= C_1^t/(1 - psi)^2 with C_1^t the right side of (8) at round t, "
    f"for 0 < eta < 1/(6KL); {GRID_TEXT}. Holds for OledFL-SGD with a wide margin; fails for OledFL-SAM once L "
    "lambda is large and the step small (small offsets, ring, L = 100, lambda = 1: the SAM steps spread the clients "
    "by about eta L lambda per step, C_1's lambda term is 18 K^2 eta^2 lambda^2 without L^2).",
    scope="printed",
    expect="fails",
)
def lem_4(ctx: Context) -> Evidence:
    """Instance: the grid and search, sigma = 0. Reading: the consensus distance of the aggregated models against
    C_1^t of the same round. Reference: the runs."""
    return checked(ctx, lem4_sides(), _lem4_inside, HYP_LEM4, _lem4_cap, _theorem_beta, witness={"why": SAM_NOTE})


@claim(
    f"{PAPER}/lem-4:corrected",
    source="Lemma 4, eq. (17), with C_1 of the corrected Lemma 1",
    statement="Corrected: (1/m) sum_i ||x_i^t - xbar^t||^2 <= C_1^t/(1 - psi)^2 with the SAM term of C_1 read as 6K "
    f"L^2 lambda^2 (lem-1:corrected), for 0 < eta < 1/(6KL); {GRID_TEXT}.",
    scope="corrected",
    expect="holds",
)
def lem_4_corrected(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-4``, with the corrected C_1."""
    return checked(ctx, lem4_sides(corrected=True), _lem4_inside, HYP_LEM4, _lem4_cap, _theorem_beta)


# ---- Lemma 5 --------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/lem-5:pre-recursion",
    source="Lemma 5 (proof, the inequality before dividing by mu)",
    statement="(1 - 30K beta^2/(1 - psi)^2) Delta^{t+1} <= 5(1 + 24 eta^2 K^2 L^2 + 6K/(1 - psi)^2) beta^2 Delta^t + "
    f"5 C_2^t at every round, for eta <= 1/(KL) and beta within Lemma 5's cap (the O(eta^4) terms the proof omits "
    f"are not added); {GRID_TEXT}. Holds for OledFL-SGD; fails for OledFL-SAM at large L (the lambda^2 term of C_2 "
    "does not scale with L).",
    scope="printed",
    expect="fails",
)
def lem_5_pre(ctx: Context) -> Evidence:
    """Instance: the grid and search, sigma = 0. Reading: C_2^t at the valid pair making it smallest. Reference: the
    runs."""
    return checked(ctx, lem5_pre_sides, _lem5_inside, HYP_LEM5, _lem5_cap, lem5_beta_cap, witness={"why": SAM_NOTE})


@claim(
    f"{PAPER}/lem-5",
    source="Lemma 5",
    statement="Delta^t <= (Delta^t - Delta^{t+1})/(1 - gamma) + 5 C_2^t/(mu (1 - gamma)) at every round, gamma mu = "
    "5 beta^2 (25 + 6K/(1 - psi)^2), mu = 1 - 30K beta^2/(1 - psi)^2, for eta <= 1/(KL) and beta^2 <= min{(1 - "
    f"psi)^2/(30K), 1/(60(2 + K/(1 - psi)^2))}}; {GRID_TEXT}. At that cap gamma = (25 + 6r)/(24 + 6r) > 1 (r = K/(1 - "
    "psi)^2), so 1 - gamma < 0 and the right side is negative (C_2^t > 0 and Delta^t - Delta^{t+1} + 5 C_2^t/mu > "
    "0): fails at every round of every grid run at the cap, OledFL-SGD and identical clients included.",
    scope="printed",
    expect="fails",
)
def lem_5(ctx: Context) -> Evidence:
    """Instance: the grid (with beta at Lemma 5's cap) and search, sigma = 0. Reading: C_2^t at the valid pair making
    it smallest. Reference: the runs."""
    return checked(ctx, lem5_sides, _lem5_inside, HYP_LEM5, _lem5_cap, lem5_beta_cap)


@claim(
    f"{PAPER}/lem-5:corrected",
    source="Lemma 5, with the beta cap of the proof of Theorem 1",
    statement="Corrected: Lemma 5's recursion for OledFL-SGD (lambda = 0) with beta^2 <= min{(1 - psi)^2/(240K), "
    f"1/300}} (then gamma < 1) and eta <= 1/(KL); {GRID_TEXT}.",
    scope="corrected",
    expect="holds",
)
def lem_5_corrected(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``lem-5``, restricted to lambda = 0 and the proof's beta cap."""
    return checked(ctx, lem5_sides, _lem5_corrected_inside, HYP_LEM5_CORRECTED, _lem5_cap, proof_beta_cap, sgd=True)


# ---- Monte Carlo: Lemmas 1 and 2 in expectation -------------------------------------------------------------------
MC_SIGMA = 1.0
MC_POINTS = (
    (("identical", 1.0, 0.0, 0.0, "ring", (0.1,)), 2, 0.0),
    (("identical", 1.0, 0.0, 0.0, "complete", (0.1,)), 4, 0.05),
)
"""(instance, K, beta) of the Monte Carlo checks: identical clients (G = 0, B = 1 exactly), L = 1, start 0.1 from x*,
OledFL-SGD at 0.9 x Lemma 1's step, Gaussian noise E||xi||^2 = 1."""
MC_SIZE = {"quick": (1000, 5), "full": (20000, 20)}
"""Replicas and rounds per point."""


def _mc_evidence(ctx: Context, which: str) -> Evidence:
    """Per round, E[LHS] against E[RHS] (both linear in the run's quantities) with a 99% interval of the paired
    difference, simultaneous over every round and point (Bonferroni)."""
    S, T = MC_SIZE[ctx.profile]
    points = Points()
    for key, K, beta in MC_POINTS:
        inst = instance(*key)
        eta = 0.9 * float(pf.lem1_eta_cap(K, inst.L))
        r = lemma_runs_mc(ctx, key, eta, K, beta, 0.0, T, MC_SIGMA, S)
        if which == "lem-1":  # G = 0, B = 1 exactly (identical clients)
            lhs = r.V1
            rhs = pf.lem1_rhs(K=K, beta=beta, Delta=r.Delta[:-1], eta=eta, sigma=MC_SIGMA, lam=0.0, G=0.0, B=1.0,
                              mean_grad_sq=r.mean_grad_sq[:-1])  # fmt: skip
        else:
            lhs, rhs = r.V2, pf.lem2_rhs(K=K, eta=eta, sigma=MC_SIGMA, m=M, sum_grad_sq=r.sum_grad_sq, lam=0.0)
        diff = mc_mean(lhs - rhs, axis=1, family_size=T * len(MC_POINTS))
        for t in range(T):
            b = float(rhs[t].mean())
            points.add(float(lhs[t].mean()), b, interval=(b + diff.lo[t], b + diff.hi[t]), topology=key[4], K=K,
                       beta=beta, eta=eta, t=t)  # fmt: skip
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "setting": f"{S} replicas, {T} rounds, sigma = {MC_SIGMA} (AdditiveGaussian), seeded from the family name",
            "interval": "99% t-interval of the paired difference LHS - RHS per replica, Bonferroni over all entries, "
            "shifted by the mean RHS",
            "hypotheses": "identical clients satisfy Assumptions 1-3 with G = 0, B = 1; eta = 0.9 sqrt(3)/(6KL), K >= "
            "2, beta within Theorem 1's cap",
        },
    )


@claim(
    f"{PAPER}/lem-1:monte-carlo",
    source="Lemma 1, eq. (8)",
    statement="E V_1^t <= 6K beta^2 E Delta^t + 3K^2 eta^2 (sigma^2 + 6K G^2) + 18 K^3 eta^2 B^2 (1/m) sum_i E||grad "
    "f(x_i^t)||^2 with Gaussian gradient noise (sigma = 1), OledFL-SGD on identical clients (G = 0, B = 1), ring K = 2 "
    "beta = 0 and complete K = 4 beta = 0.05, every round; Monte Carlo with a paired 99% interval.",
    scope="printed",
    expect="holds",
)
def lem_1_mc(ctx: Context) -> Evidence:
    """Instance: MC_POINTS. Reading: expectations over the noise, estimated per round. Reference: Monte Carlo."""
    return _mc_evidence(ctx, "lem-1")


@claim(
    f"{PAPER}/lem-2:monte-carlo",
    source="Lemma 2, eq. (13)",
    statement="E V_2^t <= K eta^2 sigma^2 + (2 eta^2/m^2) E||sum_i sum_k grad f_i(x_{i,k}^t)||^2 with Gaussian "
    "gradient noise (sigma = 1), OledFL-SGD on identical clients, ring K = 2 beta = 0 and complete K = 4 beta = 0.05, "
    "every round; Monte Carlo with a paired 99% interval.",
    scope="printed",
    expect="holds",
)
def lem_2_mc(ctx: Context) -> Evidence:
    """Instance: MC_POINTS. Reading: expectations over the noise, estimated per round. Reference: Monte Carlo."""
    return _mc_evidence(ctx, "lem-2")


# ---- (30) of the proof of Lemma 9 -----------------------------------------------------------------------------------
@claim(
    f"{PAPER}/eq-30",
    source="eq. (30) (proof of Lemma 9)",
    statement="||(I - P) X^{t+1}|| <= psi ||(I - P) X^t|| + 2 ||zeta^t||, zeta^t = W(X^t - Z^t) (Frobenius norms), at "
    f"every round of every deterministic grid run (sigma = 0) and pathwise on the Monte Carlo runs; {GRID_TEXT}.",
    scope="printed",
    expect="holds",
)
def eq_30(ctx: Context) -> Evidence:
    """Instance: every grid run (sigma = 0) and the Monte Carlo runs of ``lem-1:monte-carlo``. Reading: pathwise (it
    then holds in expectation). Reference: the runs' iterates."""
    points, control = Points(), Points()
    runs = [(run.rounds(ctx), instance(*run.inst)) for run in grid(ctx.profile)]
    S, T = MC_SIZE[ctx.profile]
    for key, K, beta in MC_POINTS:
        inst = instance(*key)
        runs.append((lemma_runs_mc(ctx, key, 0.9 * float(pf.lem1_eta_cap(K, inst.L)), K, beta, 0.0, T, MC_SIGMA, S),
                     inst))  # fmt: skip
    for r, inst in runs:
        lhs, rhs = r.disagreement[1:], inst.psi * r.disagreement[:-1] + 2 * r.zeta
        scale = np.sqrt(M * r.scale)
        t, s = np.unravel_index(int(np.argmax((lhs - rhs) / scale)), lhs.shape)
        points.add(lhs[t, s] / scale[t, s], rhs[t, s] / scale[t, s], psi=inst.psi, K=r.K, beta=r.beta, lam=r.lam,
                   sigma=r.sigma, t=int(t))  # fmt: skip
        t, s = np.unravel_index(int(np.argmax(lhs - inst.psi * r.disagreement[:-1])), lhs.shape)
        control.add(lhs[t, s], inst.psi * r.disagreement[:-1][t, s])
    ev = control.evidence("<=", rtol=ROUNDING, atol=SCALED_ROUNDING)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        atol=SCALED_ROUNDING,
        witness={"negative control": negative_control(ev, "(30) without its 2 ||zeta^t|| term")},
    )
