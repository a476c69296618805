"""Rates of FedDualAvg and FedMiD with a small client learning rate: Theorem C.13 (and the telescoping step of its
proof) and Theorem 4.3.

Instances, noise and runs: ``rates_instances`` (its docstring).

Readings (stated in each claim):

* Theorem C.13's ``eta_c^max`` "may depend on eta and x(0,0)", so one ``eta_c`` must serve every ``R`` (and Lemma
  C.15's every ``r``). With heterogeneous clients, ``K > 1`` and ``sigma = 0`` FedDualAvg at a fixed ``eta_c > 0``
  converges to a point other than ``x*`` while ``B^2/(eta K R) -> 0``: the printed quantifier fails (exact closed form
  on quadratics with ``psi = 0``). The ``...-per-R`` and ``:per-round`` claims let ``eta_c^max`` depend on ``R`` (``r``)
  too and check the sequence ``eta_c L in {1e-2, 1e-3, 1e-4}`` at fixed ``eta = eta_s eta_c``, verdict at the
  smallest; the minibatch-DA limit and the trajectory distance to it are in the witnesses.
* "<~" (4.8), (4.10), (4.11): read with the absolute constant of the explicit version (4 for (4.8) and (4.10),
  5 for (4.11)); fitted exponents in ``R`` are reported in the witnesses.
* FedMiD's output in Theorem 4.3: ``(1/R) sum_{r=1}^R x^{(r,0)}`` over the server iterates (our reading of the
  output); FedMiD is Algorithm 5 as printed (client and server prox), whose small-``eta_c`` limit with
  ``psi = lambda ||.||_1`` approaches ``argmin F + 2 psi``.

Printed objects: Theorem 4.3, Theorem C.13 and its proof.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.fit import loglog_slope
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.oracles import ExactGradient
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1

from .printed import prescribed_thm_c13
from .rates_instances import (
    C13_KINDS,
    LAM,
    NOISE,
    PAPER,
    D,
    Instance,
    c13_grid,
    instance,
    instances,
    mc_evidence,
    quadratic_data,
    run_rng,
    server_stats,
)


def _c13_eta(inst: Instance, K: int, R: int, rule: str) -> float:
    """``eta = eta_s eta_c``: ``1/(4KL)`` or ``1/(8KL)`` (rules "1/(4KL)", "1/(8KL)"), or Theorem C.13's
    ``min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)}`` ("tuned", via ``prescribed_thm_c13``)."""
    if rule == "tuned":
        p = prescribed_thm_c13(1.0, inst.L, inst.B, inst.sigma, inst.M, K, R)
        return p.eta_s * p.eta_c
    return 1 / ({"1/(4KL)": 4, "1/(8KL)": 8}[rule] * K * inst.L)


def _c13_bound(inst: Instance, K: int, R: int, eta: float, rule: str) -> float:
    """``B^2/(eta K R) + 3 eta sigma^2/M`` (Theorem C.13), or ``4LB^2/R + 4 sigma B/(MKR)^(1/2)`` for the tuned
    ``eta`` (its tuned bound)."""
    if rule == "tuned":
        return 4 * inst.L * inst.B2 / R + 4 * inst.sigma * inst.B / np.sqrt(inst.M * K * R)
    return inst.B2 / (eta * K * R) + 3 * eta * inst.sigma**2 / inst.M


def _c13_run(ctx: Context, kind, M, K, s, algorithm, eta_c_L, rule, R, rounds, S):
    """``(instance, eta, x^{(r,0)} for r = 1..R, {statistic: samples at round R})`` of the run with
    ``eta_c = eta_c_L/L`` and ``eta_s = eta/eta_c``; statistics ``average``, ``telescope``, ``last`` of
    :func:`server_stats`. A run whose ``eta`` does not depend on ``R`` goes to ``max(rounds)`` once and serves every
    ``R``."""
    inst = instance(ctx, kind, M, s)
    eta = _c13_eta(inst, K, R, rule)
    fixed = rule != "tuned" or s == 0
    R_run = max(rounds) if fixed else R
    eta_c = eta_c_L / inst.L
    xs, _, average, telescope, last = server_stats(ctx, kind, M, K, s, algorithm, eta_c, eta / eta_c, R_run, S)
    stats = {"average": average[R - 1], "telescope": telescope[R - 1], "last": last[R - 1]}
    return inst, eta, xs[1 : R + 1], stats


@family(f"{PAPER}/ch4-minibatch-da-limit")
def _minibatch_da(fam: Family, kind: str, M: int, K: int, eta: float, R: int) -> np.ndarray:
    """Deterministic minibatch dual averaging, the ``eta_c -> 0`` limit of FedDualAvg at fixed ``eta``:
    ``y <- y - eta K mean_m grad F_m(x)``, ``x = grad (h + eta K (r + 1) psi)^*(y)``; ``x^{(r,0)}``, ``r = 1..R``."""
    inst = instance(fam.profile, kind, M, 0.0)
    traj = fco.dual_averaging(ExactGradient(inst.problem), inst.mirror, inst.x0, eta * K, R, run_rng("mbda"), M=M)
    return traj.x[1:, 0]


def _c13_entries(ctx: Context, algorithm: str, rule: str, statistic: str) -> tuple[Points, dict]:
    """Entries at the smallest ``eta_c`` of the sequence (sigma = 0 exact, sigma = s Monte Carlo) and, at sigma = 0,
    the whole sequence: measured/bound per ``eta_c``; for FedDualAvg the minibatch-DA limit and the trajectory
    distance ``max_r ||x^{(r,0)} - x_MB^{(r)}||_inf`` with its fitted order in ``eta_c``; the fitted exponent in ``R``
    of the measured value at the smallest ``eta_c``; each entry's measured value is its sample array."""
    g = c13_grid(ctx.quick)
    rules = (rule,) if rule != "1/(4KL)" or ctx.quick else ("1/(4KL)", "1/(8KL)")
    entries, sequence = Points(), {}
    for kind, (M, K), s, rl in product(C13_KINDS, g["MK"], (0.0, NOISE), rules):
        S, per_R, smallest = (1 if s == 0 else g["S"]), {}, []
        rounds = g["rounds"] if s == 0 else g["mc rounds"]
        for R in rounds:
            ratios, dists = {}, []
            for eta_c_L in g["eta_c L"] if s == 0 else g["eta_c L"][-1:]:
                inst, eta, xs, stats = _c13_run(ctx, kind, M, K, s, algorithm, eta_c_L, rl, R, rounds, S)
                bound = _c13_bound(inst, K, R, eta, rl)
                value = stats[statistic]
                ratios[eta_c_L] = float(np.mean(value) / bound)
                if s == 0 and algorithm == "FedDualAvg":
                    dists.append(float(np.max(np.abs(xs[:, 0] - _minibatch_da(ctx, kind, M, K, eta, R)))))
            entries.add(value, bound, kind=kind, M=M, K=K, R=R, sigma=inst.sigma, eta=rl, eta_c_L=eta_c_L)
            smallest.append(float(np.mean(value)))
            if s > 0:
                continue
            per_R[R] = {"measured/bound per eta_c L": ratios}
            if algorithm == "FedDualAvg":
                mb = _minibatch_da(ctx, kind, M, K, eta, R)
                limit = {
                    "average": inst.phi(mb.mean(axis=0)),
                    "telescope": np.mean(inst.phi(mb)),
                    "last": inst.phi(mb[-1]),
                }
                fit = loglog_slope(g["eta_c L"], dists) if min(dists) > 0 else None
                per_R[R]["minibatch DA limit: measured/bound"] = float((limit[statistic] - inst.phi_star) / bound)
                per_R[R]["max_r ||x^(r,0) - x_MB^(r)||_inf per eta_c"] = dists
                per_R[R]["fitted order of that distance in eta_c"] = None if fit is None else round(fit.slope, 4)
        if s == 0:
            slope = loglog_slope(rounds, smallest).slope if min(smallest) > 0 else None
            sequence[f"{kind}, M = {M}, K = {K}, eta = {rl}"] = {
                "per R (sigma = 0)": per_R,
                "fitted exponent in R at the smallest eta_c": None if slope is None else round(slope, 3),
            }
    return entries, sequence


def _uniform_in_R(ctx: Context) -> tuple[Points, dict]:
    """The literal quantifier of Theorem C.13: ``eta_c^max`` depends on ``eta`` and ``x^{(0,0)}`` only, so one ``eta_c``
    must serve every ``R``. Witness, exact: FedDualAvg with ``psi = 0`` (closed convex, Assumption 4.1(a)) on the
    quadratics of ``quadratic-ball`` without the ball, sigma = 0, ``eta = 1/(4KL)``, ``x^{(0,0)} = 0``.

    With ``psi = 0`` and Euclidean ``h`` a round is ``y <- y - eta K (Hbar_K y - bbar_K)``
    (``fco.fedmid_osp_surrogate``; ``eta = eta_s eta_c``), so ``x^{(r,0)} = x_inf + T^r (x0 - x_inf)`` with
    ``T = I - eta K Hbar_K`` symmetric and ``x_inf = fco.fedavg_fixed_point != x*`` for heterogeneous Hessians and
    ``K > 1``; the mean of ``x^{(1,0)}..x^{(R,0)}`` is ``x_inf + (1/R) T (I - T^R)(I - T)^{-1} (x0 - x_inf)`` for any
    ``R``. Its gap tends to
    ``F(x_inf) - F* > 0`` while ``B^2/(eta K R) -> 0``: the first ``R = 2^j`` where the gap exceeds the bound is
    reported for every ``eta_c`` of the sequence. The closed form is checked against ``fco.run`` (50 rounds)."""
    g = c13_grid(ctx.quick)
    entries, details = Points(), {}
    for M, K in ((2, 2), (8, 5)):
        problem = quadratic_data(ctx, M)
        mirror = fco.Euclidean(None)
        L, x_star = problem.L, problem.x_star
        B2, eta = 0.5 * float(x_star @ x_star), 1 / (4 * K * problem.L)
        for eta_c_L in g["eta_c L"]:
            eta_c = eta_c_L / L
            w, U = np.linalg.eigh(fco.fedmid_osp_surrogate(problem, eta_c, K).A_mean)
            tau = 1 - eta * K * w
            x_inf = fco.fedavg_fixed_point(problem, eta_c, K)
            e0 = U.T @ (np.zeros(D) - x_inf)

            def mean_gap(R, tau=tau, e0=e0, x_inf=x_inf, U=U, problem=problem):
                return float(problem.gap(x_inf + U @ (tau * (1 - tau**R) / (1 - tau) / R * e0)))

            R = next(2**j for j in range(200) if mean_gap(2**j) > B2 / (eta * K * 2**j))
            entries.add(mean_gap(R), B2 / (eta * K * R), M=M, K=K, eta_c_L=eta_c_L, R=R)
            params = fco.CompositeParams("FedDualAvg", eta_c, K, M, eta_s=eta / eta_c)
            run = fco.run(ExactGradient(problem), mirror, np.zeros(D), params, 50, run_rng("uniform")).x[1:, 0]
            closed = x_inf + (tau[None, :] ** np.arange(1, 51)[:, None] * e0) @ U.T
            details[f"M = {M}, K = {K}, eta_c L = {eta_c_L}"] = {
                "first failing R = 2^j": R,
                "F(x_inf) - F*": float(problem.gap(x_inf)),
                "R B^2/(eta K) (bound x R)": B2 / (eta * K),
                "max |closed form - fco.run| over 50 rounds": float(np.max(np.abs(run - closed))),
            }
    return entries, details


_C13_GRID = (
    "instances logistic-l1 (psi = 0.03||x||_1) and quadratic-ball (l2-ball constraint), Euclidean h, x(0,0) = 0, "
    "(M, K) in {(2,2), (8,5)}, R in {10, 30, 100, 300} at sigma = 0 (exact) and R in {10, 100} at sigma = 0.5 (Monte "
    "Carlo, 100 replicas, Rademacher noise, simultaneous 99% intervals; full: more (M, K), R up to 1000, 400 "
    "replicas, 5 eta_c); eta_c L decreasing over {1e-2, 1e-3, 1e-4} with eta = eta_s eta_c fixed, verdict at the "
    "smallest eta_c (the whole sequence, the minibatch-DA limit and the trajectory distance to minibatch DA in the "
    "witness)"
)


def _c13_evidence(ctx: Context, algorithm: str, rule: str, statistic: str, *, uniform: bool) -> Evidence:
    entries, sequence = _c13_entries(ctx, algorithm, rule, statistic)
    witness = {
        "measured": {
            "average": "E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*)",
            "telescope": "(1/R) sum_{r=1}^R E Phi(x^(r,0)) - Phi(x*)",
        }[statistic],
        "eta_c sequence at sigma = 0": sequence,
        "instances": instances(ctx, C13_KINDS),
    }
    if uniform:
        extra, details = _uniform_in_R(ctx)
        for i, (m, b) in enumerate(zip(extra.measured, extra.bound)):
            params = {k: v[i] for k, v in extra.grid.items()}
            entries.add(m, b, kind="quadratic, psi = 0 (exact)", sigma=0.0, eta="1/(4KL)", **params)
        witness["uniform in R (eta_c^max independent of R, as printed)"] = details
    return mc_evidence(entries, witness)


@claim(
    f"{PAPER}/thm-c.13:bound",
    source="Theorem C.13 ('there exists eta_c^max > 0 (which may depend on eta and x(0,0))')",
    statement="For any eta in (0, 1/(4KL)] and x(0,0) in dom psi there is eta_c^max depending on eta and x(0,0) only "
    "such that for every eta_c in (0, eta_c^max] and every R, FedDualAvg (eta_s = eta/eta_c) yields "
    "E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*) <= B^2/(eta K R) + 3 eta sigma^2/M; eta = 1/(4KL) (also 1/(8KL) in "
    f"full); {_C13_GRID}. Uniformity in R as printed: exact closed form (psi = 0, sigma = 0, heterogeneous quadratics, "
    "M in {2, 8}, K in {2, 5}), for every eta_c of the sequence the first R = 2^j at which the gap exceeds the bound.",
    scope="printed",
    expect="fails",
)
def thm_c13_bound(ctx: Context) -> Evidence:
    """FedDualAvg runs on the certified instances along the decreasing eta_c sequence, plus the exact closed form on
    heterogeneous quadratics for one eta_c serving every R; exact at sigma = 0, Monte Carlo means with simultaneous
    99% intervals at sigma = 0.5."""
    ev = _c13_evidence(ctx, "FedDualAvg", "1/(4KL)", "average", uniform=True)
    ev.witness["hypotheses"] = (
        "Assumption 4.1 on the closed-form instance: psi = 0 (closed convex, dom psi = R^4); F_m = x'H_m x/2 - "
        "c_m'x, H_m = Q_mQ_m'/4 + 0.2 I (convex, L-smooth with L = max_m lambda_max(H_m); F strongly convex, so Phi "
        "attains its minimum); h = ||x||_2^2/2 (Legendre, 1-strongly convex); exact gradients (sigma = 0); full "
        "participation. eta = 1/(4KL) in (0, 1/(4KL)], x^(0,0) = 0 in dom psi, (M, K) in {(2, 2), (8, 5)}; "
        "eta_c^max may depend on eta and x^(0,0) only, and each eta_c L in {1e-2, 1e-3, 1e-4} has a first R = 2^j "
        "where the gap exceeds the bound (FedAvg's fixed point x_inf, O(eta_c) from x*, is not x*), so no eta_c "
        "serves every R."
    )
    return ev


@claim(
    f"{PAPER}/thm-c.13:bound-per-R",
    source="Theorem C.13, with eta_c^max allowed to depend on R (corrected quantifier)",
    statement="For any eta in (0, 1/(4KL)], x(0,0) in dom psi and R there is eta_c^max (depending on R too) such that "
    "FedDualAvg with eta_c <= eta_c^max, eta_s = eta/eta_c yields E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*) <= "
    f"B^2/(eta K R) + 3 eta sigma^2/M; eta = 1/(4KL) (also 1/(8KL) in full); {_C13_GRID}.",
    scope="corrected",
    expect="holds",
)
def thm_c13_bound_per_r(ctx: Context) -> Evidence:
    """The runs of thm-c.13:bound without the closed-form entries, verdict at the smallest eta_c; exact at sigma = 0,
    Monte Carlo means with simultaneous 99% intervals at sigma = 0.5."""
    return _c13_evidence(ctx, "FedDualAvg", "1/(4KL)", "average", uniform=False)


@claim(
    f"{PAPER}/thm-c.13:tuned",
    source="Theorem C.13, its tuned bound (same quantifier as the bound)",
    statement="With eta = min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)} (prescribed_thm_c13) and eta_c <= "
    "eta_c^max depending on eta and x(0,0) only, FedDualAvg yields E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*) <= "
    f"4LB^2/R + 4 sigma B/(M K R)^(1/2); {_C13_GRID}. At sigma = 0, eta = 1/(4KL) does not depend on R: the exact "
    "closed-form witness of yuan-thesis/thm-c.13:bound applies (its bound B^2/(eta K R) is 4LB^2/R).",
    scope="printed",
    expect="fails",
)
def thm_c13_tuned(ctx: Context) -> Evidence:
    """FedDualAvg at the prescribed eta (prescribed_thm_c13) along the eta_c sequence, plus the exact closed-form
    entries of thm-c.13:bound; exact at sigma = 0, Monte Carlo means with simultaneous 99% intervals at sigma = 0.5."""
    ev = _c13_evidence(ctx, "FedDualAvg", "tuned", "average", uniform=True)
    ev.witness["hypotheses"] = (
        "Assumption 4.1 on the closed-form instance: psi = 0 (closed convex, dom psi = R^4); F_m = x'H_m x/2 - "
        "c_m'x, H_m = Q_mQ_m'/4 + 0.2 I (convex, L-smooth with L = max_m lambda_max(H_m); F strongly convex, so Phi "
        "attains its minimum); h = ||x||_2^2/2 (Legendre, 1-strongly convex); exact gradients (sigma = 0); full "
        "participation. eta = 1/(4KL) in (0, 1/(4KL)], x^(0,0) = 0 in dom psi, (M, K) in {(2, 2), (8, 5)}; "
        "eta_c^max may depend on eta and x^(0,0) only, and each eta_c L in {1e-2, 1e-3, 1e-4} has a first R = 2^j "
        "where the gap exceeds the bound (FedAvg's fixed point x_inf, O(eta_c) from x*, is not x*), so no eta_c "
        "serves every R. At sigma = 0 the tuned eta = min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)} is 1/(4KL), and "
        "the tuned bound 4LB^2/R equals B^2/(eta K R)."
    )
    return ev


@claim(
    f"{PAPER}/thm-c.13:tuned-per-R",
    source="Theorem C.13, its tuned bound, with eta_c^max allowed to depend on R (corrected quantifier)",
    statement="With eta = min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)} and eta_c small enough for the given R, "
    "FedDualAvg yields E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*) <= 4LB^2/R + 4 sigma B/(M K R)^(1/2); "
    f"{_C13_GRID}.",
    scope="corrected",
    expect="holds",
)
def thm_c13_tuned_per_r(ctx: Context) -> Evidence:
    """The runs of thm-c.13:tuned without the closed-form entries, verdict at the smallest eta_c; exact at sigma = 0,
    Monte Carlo means with simultaneous 99% intervals at sigma = 0.5."""
    return _c13_evidence(ctx, "FedDualAvg", "tuned", "average", uniform=False)


@claim(
    f"{PAPER}/thm-c.13:proof-telescope",
    source="Proof of Theorem C.13, the telescoped sum (the index of D~_{h_{r,0}}(x, ybar^(r,0)) read as r = 0, x = x*)",
    statement="(1/R) sum_{r=1}^R E[Phi(x^(r,0)) - Phi(x*)] <= D~_{h_{0,0}}(x*, ybar^(0,0))/(eta K R) + 3 eta "
    "sigma^2/M = B^2/(eta K R) + 3 eta sigma^2/M for FedDualAvg at small eta_c (eta_c^max per R, as in "
    f"yuan-thesis/thm-c.13:bound-per-R); eta = 1/(4KL) (also 1/(8KL) in full); {_C13_GRID}.",
    scope="corrected",
    expect="holds",
)
def thm_c13_proof_telescope(ctx: Context) -> Evidence:
    """The runs of thm-c.13:bound-per-R with the running mean of Phi(x^(r,0)) (the left side of the telescoped sum)
    as the measured value; exact at sigma = 0, Monte Carlo means with simultaneous 99% intervals at sigma = 0.5."""
    return _c13_evidence(ctx, "FedDualAvg", "1/(4KL)", "telescope", uniform=False)


def _thm43_evidence(ctx: Context, algorithm: str) -> Evidence:
    """(4.8) read with the constant 4 of Theorem C.13's tuned bound: the entries of ``:tuned-per-R`` for
    ``algorithm``, the last server iterate and (FedMiD, l1) the distance of the limit to argmin F + 2 psi."""
    entries, sequence = _c13_entries(ctx, algorithm, "tuned", "average")
    _, last_sequence = _c13_entries(ctx, algorithm, "tuned", "last")
    g = c13_grid(ctx.quick)
    limits = {}
    for M, K in g["MK"]:
        inst = instance(ctx, "logistic-l1", M, 0.0)
        R = max(g["rounds"])
        xs = _c13_run(ctx, "logistic-l1", M, K, 0.0, algorithm, g["eta_c L"][-1], "tuned", R, g["rounds"], 1)[2]
        x_final = xs[-1, 0]
        double = composite_optimum(inst.problem, L1(2 * LAM)).x
        limits[f"logistic-l1, M = {M}, K = {K}, smallest eta_c, R = {R}"] = {
            "||x^(R,0) - x*||_2": float(np.linalg.norm(x_final - inst.x_star)),
            "||x^(R,0) - argmin F + 2 psi||_2": float(np.linalg.norm(x_final - double)),
        }
    witness = {
        "measured": "E Phi((1/R) sum_{r=1}^R x^(r,0)) - Phi(x*) (server iterates, spec 3.1)",
        "reading": "'<~' with the absolute constant 4 of Theorem C.13's tuned bound (line 4645); 'sufficiently small "
        "eta_c' for the given R (eta_c^max per R); eta_s = eta/eta_c with Theorem C.13's eta",
        "eta_c sequence at sigma = 0": sequence,
        "last server iterate x^(R,0): measured/bound per eta_c (sigma = 0)": last_sequence,
        "l1 limits": limits,
        "instances": instances(ctx, C13_KINDS),
    }
    return mc_evidence(entries, witness)


_THM43 = (
    "ALG with eta_s = eta/eta_c, eta = min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)} (the Theta of (4.8) with "
    "Theorem C.13's constants) outputs xhat = (1/R) sum_{r=1}^R x^(r,0) with E Phi(xhat) - Phi(x*) <= 4 (LB^2/R + "
    "sigma B/(M K R)^(1/2)) ('<~' read with the constant 4 of Theorem C.13's tuned bound; 'sufficiently small eta_c' "
    "per R); " + _C13_GRID + "; the fitted exponent in R at sigma = 0 and the last iterate in the witness."
)


@claim(
    f"{PAPER}/thm-4.3:feddualavg",
    source="Theorem 4.3, (4.8)",
    statement=_THM43.replace("ALG", "FedDualAvg"),
    scope="printed",
    expect="holds",
)
def thm_43_feddualavg(ctx: Context) -> Evidence:
    """FedDualAvg at Theorem C.13's prescribed eta along the eta_c sequence, checked against 4 (LB^2/R + sigma
    B/(MKR)^(1/2)); exact at sigma = 0, Monte Carlo means with simultaneous 99% intervals at sigma = 0.5."""
    return _thm43_evidence(ctx, "FedDualAvg")


@claim(
    f"{PAPER}/thm-4.3:fedmid",
    source="Theorem 4.3, (4.8) (FedMiD as printed in Algorithm 5: client and server prox)",
    statement=_THM43.replace("ALG", "FedMiD"),
    scope="printed",
    expect="fails",
)
def thm_43_fedmid(ctx: Context) -> Evidence:
    """FedMiD (Algorithm 5 as printed) at Theorem C.13's prescribed eta along the eta_c sequence, checked against 4
    (LB^2/R + sigma B/(MKR)^(1/2)); exact at sigma = 0, Monte Carlo means with simultaneous 99% intervals at
    sigma = 0.5; the distance of the l1 limit to argmin F + 2 psi in the witness."""
    ev = _thm43_evidence(ctx, "FedMiD")
    ev.witness["hypotheses"] = (
        "Assumption 4.1 on logistic-l1 (d = 4, M = 8 heterogeneous clients with convex logistic losses, L-smooth "
        "with the certified L; psi = 0.03||.||_1; h = ||x||_2^2/2; exact gradients, sigma = 0; full participation); "
        "eta_s = eta/eta_c with eta = 1/(4KL) (the min at sigma = 0), i.e. eta_s = Theta(1/(eta_c K L)) as printed; "
        "eta_c L = 1e-4, the smallest of the decreasing sequence, K = 5, R = 300, x^(0,0) = 0. Smaller eta_c does not "
        "help: x^(R,0) is 3e-4 from argmin F + 2 psi (witness 'l1 limits'). Our readings: x-hat the mean of the "
        "server iterates, '<~' with Theorem C.13's constant 4."
    )
    return ev
