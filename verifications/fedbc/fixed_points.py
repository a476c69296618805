"""FedBC's fixed points on quadratics: the solution of (7), the box saddle, the server step (12), warm vs cold local
starts (Algorithm 2 vs the authors' code), gradient balance and the 1-D dead zone.

Instances (our construction): ``Q(N, d, seed)``: ``f_i(x) = (x - b_i)'A_i(x - b_i)/2`` with ``A_i = Q_iQ_i' + 0.3 I``,
``Q_i ~ N(0, 1)^{d x d}``, ``b_i ~ N(0, 4 I)``, tolerances ``gamma_i = 0.3 U(0.1, 0.6) ||b_i - x*||^2`` (some
constraints active); ``S(N, seed)``: scalar ``a_i ~ U(0.5, 3)``, ``b_i ~ N(0, 4)``. FedBC is the library's
:mod:`fedtheory.algorithms.primal_dual` (full participation, ideal primal step (9) unless stated), run until one round
moves ``z`` and ``lam`` by less than 1e-14. References: :mod:`fedtheory.reference_constrained` (Clarabel, polished,
KKT certificate recomputed) and the closed forms of :mod:`fedtheory.exact.tolerance_fixed_points`.
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import primal_dual as pd
from fedtheory.errors import ReferenceSolveError
from fedtheory.exact import tolerance_fixed_points as tfp
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.reference import solve
from fedtheory.reference_constrained import tolerance_constrained_optimum

PAPER = "fedbc"
STILL = 1e-14
"""A run stops when one round moves ``z`` and ``lam`` by less than this (a fixed point up to rounding)."""


def quadratic_instance(N: int, d: int, seed: int) -> dict:
    """``Q(N, d, seed)`` with tolerances ``0.3 U(0.1, 0.6) ||b_i - x*||^2`` (module docstring)."""
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(N, d, d))
    A = Q @ Q.transpose(0, 2, 1) + 0.3 * np.eye(d)
    b = rng.normal(0.0, 2.0, (N, d))
    x_star = np.linalg.solve(A.sum(0), np.einsum("nij,nj->i", A, b))
    gamma = 0.3 * rng.uniform(0.1, 0.6, N) * np.sum((b - x_star) ** 2, axis=1)
    return {"A": A, "b": b, "x_star": x_star, "gamma": gamma}


def problem_of(A, b) -> FederatedQuadratic:
    """The library's quadratic (linear term ``A_i b_i``) of ``f_i = (x - b_i)'A_i(x - b_i)/2``."""
    A, b = np.asarray(A, dtype=float), np.asarray(b, dtype=float)
    if A.ndim == 1:
        A, b = A[:, None, None], b[:, None]
    return FederatedQuadratic(A, np.einsum("nij,nj->ni", A, b), 0.5 * np.einsum("ni,nij,nj->n", b, A, b))


ROUND_CAP = 20_000
"""Rounds after which a run that still moves is reported as not at a fixed point."""


def fedbc_limit(problem, gamma, params: pd.PrimalDualParams, *, lam0=1.0, z0=None, T: int = ROUND_CAP, S: int = 1):
    """Rounds of FedBC until one round moves ``z`` and ``lam`` by less than :data:`STILL` (or ``T`` rounds).

    ``gamma`` is ``(N,)`` or ``(S, N)`` (replicas with their own tolerances). Returns the last state and the rounds.
    """
    z0 = np.zeros(problem.dim) if z0 is None else z0
    state = pd.init(z0, params.N, lam0=lam0, gamma=gamma, S=S, dim=problem.dim)
    oracle = ExactGradient(problem)
    for t in range(1, T + 1):
        new = pd.round(state, oracle, params, None)
        moved = max(np.max(np.abs(new.z - state.z)), np.max(np.abs(new.lam - state.lam)))
        state = new
        if moved < STILL * max(1.0, float(np.max(np.abs(state.z)))):
            return state, t
    return state, T


@family(f"{PAPER}/fixed-points-vs-reference")
def fixed_vs_reference(fam: Family, box: tuple | None) -> list[dict]:
    """FedBC (exact oracle, alpha = 0.2, lam^0 = 1, full participation) against the certified solution of (7)
    (``box=None``, multipliers in [1e-12, inf)) or of the box saddle (``box = (lam_min, lam_max)``)."""
    shapes = ((5, 3, 0), (2, 1, 1)) if fam.quick else ((5, 3, 0), (2, 1, 1), (10, 3, 2), (5, 10, 3), (10, 1, 4))
    out = []
    for N, d, seed in shapes:
        inst = quadratic_instance(N, d, seed)
        ref = tolerance_constrained_optimum(inst["A"], inst["b"], inst["gamma"], lam_box=box)
        params = pd.PrimalDualParams(
            beta=1.0, alpha=0.2, K=1, N=N, participants=N, lam_box=box or (1e-12, np.inf), exact=True
        )
        state, rounds = fedbc_limit(problem_of(inst["A"], inst["b"]), inst["gamma"], params)
        out.append({"N": N, "d": d, "seed": seed, "inst": inst, "ref": ref, "state": state, "rounds": rounds})
    return out


def _limit_points(runs: list[dict], gamma_scale: float = 1.0) -> Points:
    """Distance of FedBC's limit (z and lam) to the reference, scaled; ``gamma_scale != 1`` compares with the
    reference of other tolerances (the negative control)."""
    points = Points()
    for run in runs:
        ref, st, inst = run["ref"], run["state"], run["inst"]
        if gamma_scale != 1.0:
            ref = tolerance_constrained_optimum(inst["A"], inst["b"], gamma_scale * inst["gamma"])
        dz = float(np.linalg.norm(st.z[0] - ref.z)) / max(1.0, float(np.linalg.norm(ref.z)))
        dl = float(np.max(np.abs(st.lam[0] - ref.lam))) / max(1.0, float(np.max(ref.lam)))
        for what, value in (("z", dz), ("lam", dl)):
            points.add(value, ROUNDING, N=run["N"], d=run["d"], seed=run["seed"], what=what, rounds=run["rounds"])
    return points


def _certificates(runs: list[dict]) -> dict:
    return {
        f"Q({r['N']},{r['d']},{r['seed']})": {
            "rounds": r["rounds"],
            "kkt_residual": r["ref"].certificate["kkt_residual"],
            "kkt_residual_clarabel": r["ref"].certificate["kkt_residual_clarabel"],
            "lam_ref": r["ref"].lam.tolist(),
        }
        for r in runs
    }


@claim(
    f"{PAPER}/eq-7:fixed-point",
    source="Section 3, eqs. (7)-(13)",
    statement="Algorithm 1 (ideal primal step (9), dual step (11), server step (12), full participation) solves the "
    "constrained problem (7): its limit (z, lam) is the certified solution of (7) with its constraint duals "
    "(relative distance <= 1e-9) on convex quadratics Q(N, d) with some constraints active",
    scope="printed",
    expect="holds",
    expect_full="fails",
)
def eq_7_fixed_point(ctx: Context) -> Evidence:
    """Instance: Q(5, 3, 0) and Q(2, 1, 1) (quick; also Q(10, 3), Q(5, 10), Q(10, 1) in full), alpha = 0.2, lam^0 = 1,
    Lambda = [1e-12, inf), z^0 = 0. Reading: "FedBC solves (7)" as the limit of Algorithm 1 being the KKT point of (7).
    Full profile: on Q(10, 1, 4) the dual ascent at alpha = 0.2 does not settle within 2 10^4 rounds (multipliers
    0.62 away from the constraint duals): the printed step reaches the solution only for a small enough alpha
    (eq-7:gamma-path scales it as 0.1/gamma); every run that settles is at the certified solution.
    Reference: Clarabel's solution polished on its active set, KKT residual recomputed (<= 1e-9).
    Negative control: the same distance to the solution of (7) with tolerances 1.5 gamma_i."""
    runs = fixed_vs_reference(ctx, None)
    control = negative_control(_limit_points(runs, 1.5).evidence("<="), "the solution of (7) with 1.5 gamma")
    witness = {"runs": _certificates(runs), "negative control": control}
    return _limit_points(runs).evidence("<=", witness=witness)


@claim(
    f"{PAPER}/eq-11:box-saddle",
    source="eq. (11) (projection on Lambda = [lam_min, lam_max])",
    statement="With the projected dual step (11) on Lambda = [0.8, 2.0], Algorithm 1's limit is the saddle point of "
    "the Lagrangian (8) over (x, z) x Lambda, i.e. the minimiser of sum f_i + max(lam_min g_i, lam_max g_i) "
    "(relative distance <= 1e-9)",
    scope="outside-hypotheses",
    expect="holds",
)
def eq_11_box_saddle(ctx: Context) -> Evidence:
    """Instance: as eq-7:fixed-point with Lambda = [0.8, 2.0] (no printed box satisfies (H1)-(H2) here: our probe of
    the box's effect). Reference: the certified box-saddle solution (multipliers from the epigraph duals).
    Negative control: the distance to the unboxed solution of (7)."""
    runs = fixed_vs_reference(ctx, (0.8, 2.0))
    control_runs = [
        {**r, "ref": tolerance_constrained_optimum(r["inst"]["A"], r["inst"]["b"], r["inst"]["gamma"])} for r in runs
    ]
    control = negative_control(_limit_points(control_runs).evidence("<="), "the solution of (7) without the box")
    witness = {"runs": _certificates(runs), "negative control": control}
    return _limit_points(runs).evidence("<=", witness=witness)


@claim(
    f"{PAPER}/eq-7:gradient-balance",
    source="Section 3, eqs. (9)-(12) (fixed points; our derivation)",
    statement="At Algorithm 1's limit (exact oracle, full participation) sum_i grad f_i(x_i) = 0 (relative to max_i "
    "||grad f_i(x_i)||, <= 1e-9), for Lambda = [1e-12, inf) and [0.8, 2.0]",
    scope="outside-hypotheses",
    expect="holds",
)
def eq_7_gradient_balance(ctx: Context) -> Evidence:
    """Instance: the runs of eq-7:fixed-point and eq-11:box-saddle that reach a fixed point (one round moves z and lam
    by less than 1e-14; the statement is about fixed points, so a run still moving at the round cap is listed in the
    witness, not judged). Reading: grad f_i = -2 lam_i (x_i - z) and the server step gives sum lam_i (x_i - z) = 0.
    Negative control: the balance at the first round's local models."""
    points, control, moving = Points(), Points(), []
    for box in (None, (0.8, 2.0)):
        for run in fixed_vs_reference(ctx, box):
            inst, st = run["inst"], run["state"]
            if run["rounds"] >= ROUND_CAP:
                moving.append({"N": run["N"], "d": run["d"], "seed": run["seed"], "box": str(box)})
                continue
            for x, pts in ((st.x[0], points), (inst["b"] * 0.5, control)):
                grads = np.einsum("nij,nj->ni", inst["A"], x - inst["b"])
                scale = max(1e-300, float(np.max(np.linalg.norm(grads, axis=1))))
                pts.add(float(np.linalg.norm(grads.sum(0))) / scale, ROUNDING, N=run["N"], box=str(box))
    ctrl = negative_control(control.evidence("<="), "the local models x_i = b_i/2 (not a fixed point)")
    return points.evidence("<=", witness={"negative control": ctrl, "runs not at a fixed point (not judged)": moving})


@claim(
    f"{PAPER}/eq-12",
    source="eq. (12)",
    statement="The server step z = sum lam_j x_j / sum lam_j minimises sum_j lam_j ||x_j - z||^2 (the Lagrangian (8) "
    "in z), against CVXPY and numpy's weighted average (relative 1e-9)",
    scope="printed",
    expect="holds",
)
def eq_12(ctx: Context) -> Evidence:
    """Instance: 20 (quick) / 200 random configurations, x_j ~ N(0, I_3), lam_j ~ U(0.01, 5), N in {2, 5, 10}.
    Reference: CVXPY/Clarabel's weighted least squares and ``np.average(weights=lam)``. Negative control: the plain
    mean against the weighted least squares."""
    import cvxpy as cp

    rng = ctx.rng()
    points, control = Points(), Points()
    for k in range(20 if ctx.quick else 200):
        N = (2, 5, 10)[k % 3]
        x, lam = rng.normal(size=(N, 3)), rng.uniform(0.01, 5.0, N)
        z = pd.server_step(x[None], lam[None], np.ones((1, N), dtype=bool), 1)[0]
        zc = cp.Variable(3)
        problem = cp.Problem(cp.Minimize(sum(lam[j] * cp.sum_squares(x[j] - zc) for j in range(N))))
        solve(problem, gap_tol=1e-10)
        ref, avg = np.asarray(zc.value), np.average(x, axis=0, weights=lam)
        scale = max(1.0, float(np.linalg.norm(avg)))
        points.add(float(np.linalg.norm(z - avg)) / scale, ROUNDING, N=N, reference="np.average")
        certified = float(np.linalg.norm(lam @ (ref - x))) / lam.sum()  # exact distance of ref to the minimiser
        points.add(float(np.linalg.norm(z - ref)) / scale, certified / scale + ROUNDING, N=N, reference="Clarabel")
        control.add(float(np.linalg.norm(x.mean(0) - avg)) / scale, ROUNDING, N=N, reference="plain mean")
    ctrl = negative_control(control.evidence("<="), "the plain mean instead of (12)")
    reading = (
        "Clarabel's point is within ||sum lam_j (z_ref - x_j)|| / sum lam_j of the minimiser (Hessian 2 sum lam I)"
    )
    return points.evidence("<=", witness={"negative control": ctrl, "Clarabel bound": reading})


@claim(
    f"{PAPER}/alg-2:warm-cold",
    source="Algorithm 2 (warm start) and the authors' code (cold start)",
    statement="With multipliers fixed at lam_i = c = 0.7 (alpha = 0), beta = 0.1: Algorithm 2's warm start has the "
    "same fixed point for K in {1, 5, 50}, sum w_i b_i / sum w_i with w_i = 2c a_i/(a_i + 2c); the cold start from "
    "z^t (the code) has w_i = (1 - (1 - beta(a_i + 2c))^K) a_i/(a_i + 2c), K-dependent (one round of the method "
    "from the closed-form state moves it by at most 1e-9, relative)",
    scope="outside-hypotheses",
    expect="holds",
)
def alg_2_warm_cold(ctx: Context) -> Evidence:
    """Instance: S(4, seed) scalar devices (3 seeds quick, 10 full) and Q(3, 2, 7) for the matrix forms. Check: the
    closed-form state (z*, x_i = local model at z*, lam = c) is a fixed point of the library's round with K local GD
    steps. Reference: :func:`fedtheory.exact.tolerance_fixed_points.fixed_multiplier_point`. Negative control: the
    warm-start closed form as the state of the cold start at K = 50 (the code's start moves it)."""
    points, control = Points(), Points()
    instances = []
    for seed in range(3 if ctx.quick else 10):
        rng = np.random.default_rng(seed)
        instances.append((f"S(4,{seed})", rng.uniform(0.5, 3.0, 4)[:, None, None], rng.normal(0, 2.0, (4, 1))))
    q = quadratic_instance(3, 2, 7)
    instances.append(("Q(3,2,7)", q["A"], q["b"]))
    c = 0.7
    for name, A, b in instances:
        problem, N = problem_of(A, b), b.shape[0]
        oracle = ExactGradient(problem)
        for K in (1, 5, 50):
            for start in ("warm", "cold"):
                z = tfp.fixed_multiplier_point(A, b, c, start=start, beta=0.1, K=K)
                params = pd.PrimalDualParams(beta=0.1, alpha=0.0, K=K, N=N, participants=N, start=start)
                targets = [(start, z, points)]
                if start == "cold" and K == 50:
                    targets.append(("warm form, cold start", tfp.fixed_multiplier_point(A, b, c), control))
                for label, zz, pts in targets:
                    state = pd.init(zz, N, lam0=c)
                    state.x[:] = pd.exact_local(problem, state.z, state.lam)  # the warm start's local models
                    moved = float(np.linalg.norm(pd.round(state, oracle, params, None).z[0] - zz))
                    pts.add(moved / max(1.0, float(np.linalg.norm(zz))), ROUNDING, instance=name, K=K, start=label)
    ctrl = negative_control(control.evidence("<="), "the warm-start closed form under the cold start, K = 50")
    return points.evidence("<=", witness={"negative control": ctrl})


@claim(
    f"{PAPER}/eq-7:dead-zone",
    source="eq. (7) with isotropic quadratics (our derivation)",
    statement="For f_i = (a_i/2)||x - b_i||^2, h_i(z) = min_{||x - z||^2 <= gamma_i} f_i = (a_i/2)(||z - b_i|| - "
    "sqrt(gamma_i))_+^2 (against CVXPY's inner problem, within its duality gap), and in 1-D the global model of (7) is "
    "the root of phi found by sorting the 2N breakpoints (against the certified solution of (7), 1e-9)",
    scope="outside-hypotheses",
    expect="holds",
    expect_full="inconclusive",
)
def eq_7_dead_zone(ctx: Context) -> Evidence:
    """Instance: h_i on 20 (quick) / 100 random z in 2-D with a = 1.7, b = (0.3, -0.5), gamma = 0.8; the root on S(5,
    seed), gamma_i = 0.3 U(0.1, 0.6)(b_i - x*)^2 (3 seeds quick, 20 full). Negative control: h_i without the dead
    zone (r_i = 0) against the inner problem. Algorithm 1's limit on these 1-D instances needs more than 2 10^4 rounds
    at alpha = 0.2 (slow dual ascent), so it is compared with the certified solution in eq-7:fixed-point instead.
    A seed whose reference Clarabel cannot certify (one of the 20 in full: KKT residual 1.8e-2 after polishing) makes
    the verdict inconclusive (worst ratio of the judged entries, with the interval (0, 2))."""
    import cvxpy as cp

    rng = ctx.rng()
    points, control, uncertified = Points(), Points(), []
    a, b, gamma = 1.7, np.array([0.3, -0.5]), 0.8
    for _ in range(20 if ctx.quick else 100):
        z = rng.normal(0.0, 2.0, 2)
        x = cp.Variable(2)
        inner = cp.Problem(cp.Minimize(a / 2 * cp.sum_squares(x - b)), [cp.sum_squares(x - z) <= gamma])
        gap = solve(inner)["duality_gap"]  # the value's certified error
        exact = float(tfp.dead_zone_value(z, [a], b[None], [gamma])[0])
        bound = gap + ROUNDING * max(1.0, exact)
        points.add(abs(exact - inner.value), bound, check="h_i vs inner CVXPY (its duality gap)", seed=-1)
        ball = tfp.dead_zone_value(z, [a], b[None], [0.0])[0]
        control.add(abs(float(ball) - inner.value), bound, check="h_i without dead zone", seed=-1)
    for seed in range(3 if ctx.quick else 20):
        r = np.random.default_rng(100 + seed)
        av, bv = r.uniform(0.5, 3.0, 5), r.normal(0.0, 2.0, 5)
        xs = float(np.sum(av * bv) / av.sum())
        gam = 0.3 * r.uniform(0.1, 0.6, 5) * (bv - xs) ** 2
        root = tfp.dead_zone_minimizer_1d(av, bv, gam)
        try:
            ref = tolerance_constrained_optimum(av[:, None, None], bv[:, None], gam)
        except ReferenceSolveError as exc:  # no certified reference: that comparison cannot be judged
            uncertified.append({"seed": seed, "reason": str(exc)})
            continue
        points.add(abs(root.z - ref.z[0]) / max(1.0, abs(root.z)), ROUNDING, check="root vs certified (7)", seed=seed)
    ctrl = negative_control(control.evidence("<="), "h_i without the dead zone")
    evidence = points.evidence("<=", witness={"negative control": ctrl, "uncertified references": uncertified})
    if uncertified:  # a reference too inaccurate for the check: the verdict is inconclusive, never a silent pass
        worst = float(np.max(np.asarray(points.measured) / np.asarray(points.bound)))
        return Evidence(worst, 1.0, "<=", interval=(0.0, 2.0), witness=evidence.witness)
    return evidence
