"""Lemmas A.1 and A.2 with stochastic gradients (sigma > 0), one round at a time by conditional Monte Carlo.

Both lemmas bound expectations given the state at the start of round ``r`` (``x^r``, ``c^r``): on their right sides
``||G(P(x^r))||^2`` and ``||Lambda^r - mean Lambda^r||^2`` are numbers of that state. So a state is fixed (reached by
one noisy path of ``r - 1`` rounds of Algorithm 1 from ``x^1`` with ``P(x^1) = x*`` or ``x^1 = 0``, ``c^1 = 0``),
``S`` replicas of round ``r`` are drawn from it in one vectorised call, and the Monte Carlo mean of each left side
(simultaneous 99% t-intervals, Bonferroni over the claim's entries) is compared with the right side:

* Lemma A.1, (21): ``E[sum_{t<tau} sum_i ||z_{i,t}^r - P(x^r)||^2] <= 20 tau^3 eta^2 n B_g^2 + 5 n tau^3 eta^2
  ||G||^2 + 5 tau ||Lambda^r - mean||^2 + 10 n tau^2 eta^2 sigma^2/b``;
* Lemma A.2: ``(1/n) E||Lambda^{r+1} - mean||^2 - 2 eta^2 tau^2 L^2 E||P(x^{r+1}) - P(x^r)||^2 <= (1/n) 4 eta^2 tau L^2
  (RHS of (21)) + 4 eta^2 tau sigma^2/b``.

The right sides are those of :mod:`.printed`. Instances: quad-l1 (n = 5, d = 10) at the lemmas' own step bound
``eta~ = eta_g/(sqrt(20) L)`` and at (13); then a witness search over clients with a prescribed minimiser
(heterogeneity ``spread``), ``n``, ``tau``, ``eta_g``, ``eta~`` up to the lemmas' bound, ``sigma^2/b`` (the Gaussian
oracle: ``sigma^2`` and ``b`` enter only as ``sigma^2/b``), ``theta``, the start of the path and the round ``r``.

Also here: (30) along the local steps of Algorithm 1 (``eq-30:along-runs``), the variance fact the proof of Lemma A.1
conditions on.

Printed objects: Lemma A.1 (21), Lemma A.2, (30), Assumption 3.4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.composite import decoupled, potentials
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim, negative_control, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Budget, Domain, search
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import AdditiveGaussian, Minibatch
from fedtheory.problems import LeastSquares
from fedtheory.regularizers import L1

from . import instances, printed

PAPER = "zhang-composite"
D = 10
CONFIDENCE = 0.99


def _replicas(quick: bool) -> int:
    """Replicas of the round drawn from each state."""
    return 256 if quick else 2000


def _budget(ctx: Context) -> Budget:
    """An evaluation (a path of up to 32 rounds, one round on ``S`` replicas) costs 0.05-0.2 s (quick) to 1 s
    (full): both profiles spend fewer evaluations than the default."""
    return Budget(sobol=16, starts=1, local=16) if ctx.quick else Budget(sobol=64, starts=2, local=32)


@family(f"{PAPER}/lem-a-sigma-instance")
def _instance(fam: Family, kind: str, n: int, theta: float, spread: float) -> tuple:
    """``(clients, x*)``: quad-l1 (``spread`` unused; ``x*`` by the conic solver) or clients with a prescribed
    minimiser (``x*`` exact), d = 10, the data seeded by ``kind`` and ``n``."""
    rng = np.random.default_rng(seed_for(f"{fam.name}:{kind}:{n}"))
    if kind == "quad-l1":
        problem = instances.quad_l1(rng, n, D, theta)[0]
        return problem, instances.optimum(problem, L1(theta)).x
    problem, _, x_star = instances.prescribed(rng, n, D, theta, spread=spread)
    return problem, x_star


@dataclass(frozen=True)
class Round:
    """Samples (S,) of both left sides from one state, the state's ``||G||^2`` and spread, and the constants."""

    lhs_a1: np.ndarray
    lhs_a2: np.ndarray
    G2: float
    spread: float
    eta: float
    L: float
    B_g: float


@family(f"{PAPER}/lem-a-sigma-round")
def _round(fam: Family, inst: tuple, tau: int, eta_g: float, step: float, s: float, r: int, offset: float) -> Round:
    """Round ``r`` of Algorithm 1 with ``eta~ = step eta_g/(sqrt(20) L)`` and the Gaussian oracle of variance
    ``s = sigma^2/b``, drawn ``S`` times from the state that one noisy path of ``r - 1`` rounds from
    ``x^1 = (1 - offset)(x* - eta~ grad f(x*))`` (``P(x^1) = x*`` at offset 0, ``x^1 = 0`` at offset 1), ``c^1 = 0``
    reaches (common random numbers: the same seed for every evaluation)."""
    n, theta = inst[1], inst[2]
    (problem, x_star), g = _instance(fam.profile, *inst), L1(theta)
    L = problem.L
    eta_tilde = step * eta_g / (np.sqrt(20) * L)
    params = decoupled.DecoupledParams(eta_tilde / (eta_g * tau), eta_g, tau, n)
    oracle = AdditiveGaussian(problem, np.sqrt(s))
    path_rng, round_rng = (np.random.default_rng([seed_for(fam.name), k]) for k in (0, 1))
    x1 = (1 - offset) * (x_star - eta_tilde * problem.grad(x_star))
    path = decoupled.run(oracle, g, x1, params, r - 1, path_rng, record_every=max(r - 1, 1))
    S = _replicas(fam.quick)
    state = decoupled.DecoupledState(np.repeat(path.x[-1], S, axis=0), np.repeat(path.c[-1], S, axis=0), r)
    new, trace = decoupled.round(state, oracle, g, params, round_rng, trace=True)
    lhs_a1 = np.sum((trace.z[:tau] - trace.p[None, :, None, :]) ** 2, axis=(0, 2, 3))
    spread_new = potentials.drift_deviation(potentials.drift(problem, g, new, params))
    step_p = np.sum((decoupled.output(g, new.x, params) - trace.p) ** 2, axis=-1)
    lhs_a2 = spread_new / n - 2 * params.eta**2 * tau**2 * L**2 * step_p
    G = potentials.gradient_mapping(problem, g, path.x[-1], eta_tilde)[0]
    first = decoupled.DecoupledState(path.x[-1], path.c[-1], r)
    spread_now = float(potentials.drift_deviation(potentials.drift(problem, g, first, params))[0])
    return Round(lhs_a1, lhs_a2, float(np.sum(G**2)), spread_now, params.eta, L, theta * np.sqrt(D))


def rhs_terms(lemma: str, rnd: Round, tau: int, n: int, s: float) -> tuple[float, float]:
    """The printed right side split as ``(without sigma^2, the sigma^2 part)`` (:mod:`.printed`, ``b = 1``)."""
    if lemma == "a.1":
        full = printed.lemma_a1_rhs(tau, rnd.eta, n, rnd.B_g, rnd.G2, rnd.spread, s, 1)
        rest = printed.lemma_a1_rhs(tau, rnd.eta, n, rnd.B_g, rnd.G2, rnd.spread, 0.0, 1)
    else:
        full = printed.lemma_a2_rhs(tau, rnd.eta, n, rnd.L, rnd.B_g, rnd.G2, rnd.spread, s, 1)
        rest = printed.lemma_a2_rhs(tau, rnd.eta, n, rnd.L, rnd.B_g, rnd.G2, rnd.spread, 0.0, 1)
    return float(rest), float(full - rest)


@dataclass(frozen=True)
class Entry:
    samples: np.ndarray
    terms: tuple[float, float]
    params: dict


def _entry(lemma: str, ctx: Context, inst: tuple, run: tuple) -> Entry:
    """The entry of ``lemma`` on instance ``inst`` and round ``run = (tau, eta_g, step, s, r, offset)``."""
    rnd = _round(ctx, inst, *run)
    (kind, n, theta, spread), (tau, eta_g, step, s, r, offset) = inst, run
    params = {"kind": kind, "n": n, "tau": tau, "eta_g": eta_g, "step": step, "sigma^2/b": s, "theta": theta}
    params.update({"spread": spread, "r": r, "offset": offset, "||G||^2": rnd.G2, "||Lambda - mean||^2": rnd.spread})
    return Entry(rnd.lhs_a1 if lemma == "a.1" else rnd.lhs_a2, rhs_terms(lemma, rnd, tau, n, s), params)


def _base(lemma: str, ctx: Context) -> list[Entry]:
    """n = 5, tau = 5, eta_g = 1.5, sigma^2/b = 100, at the lemmas' step bound and at (13)'s eta~ = 1/(10L):
    quad-l1 (theta = 0.5) from P(x^1) = x* and from x^1 = 0, states r in {1, 10, 50}; and clients with a prescribed
    minimiser and no heterogeneity at it (theta = 0.05, spread 0) at r = 1 from P(x^1) = x*, where G and Lambda - mean
    vanish and the sigma^2 term is the right side's only sizeable term."""
    at_13 = 0.1 * np.sqrt(20) / 1.5
    quad = [
        _entry(lemma, ctx, ("quad-l1", 5, 0.5, 0.0), (5, 1.5, step, 100.0, r, offset))
        for step in (1.0, at_13)
        for offset in (0.0, 1.0)
        for r in (1, 10, 50)
    ]
    return quad + [
        _entry(lemma, ctx, ("prescribed", 5, 0.05, 0.0), (5, 1.5, step, 100.0, 1, 0.0)) for step in (1.0, at_13)
    ]


DOMAIN = Domain(
    {
        "n": Axis(2, 16, integer=True),
        "tau": Axis(1, 10, integer=True),
        "eta_g": Axis(0.1, 10.0),
        "step": Axis(1e-2, 1.0),
        "s": Axis(1e-2, 1e4),
        "theta": Axis(1e-3, 1.0),
        "spread": Axis(1e-3, 10.0),
        "r": Axis(1, 32, integer=True),
        "offset": Axis(0.0, 1.0, log=False),
    },
    note="Lemmas A.1/A.2 assume 3.1, 3.2, 3.4 and eta~ <= eta_g/(sqrt(20) L) only: clients with a prescribed sparse "
    "minimiser (instances.prescribed, the quad-l1 Hessians, d = 10, seeded by n; spread = the heterogeneity of grad "
    "f_i(x*)), g = theta ||.||_1, eta~ = step eta_g/(sqrt(20) L) with step in (0, 1] (from 1e-2) and any eta_g > 0 "
    "(0.1 to 10 searched), the Gaussian oracle of variance s = sigma^2/b (b = 1 covers every b), the state of round r "
    "reached by one noisy path from x^1 = (1 - offset)(x* - eta~ grad f(x*)) (P(x^1) = x* at offset 0, x^1 = 0 at "
    "offset 1). Left out: n > 16, tau > 10 (cost), r > 32 (later states are near the "
    "stationary law, which r = 32 already samples at the larger steps), d != 10.",
)


def _search(lemma: str, ctx: Context) -> tuple[list[Entry], dict]:
    """The witness search over :data:`DOMAIN`, the objective the ratio of the mean left side to the right side; the
    two lemmas share the Sobol stage (one seed) and with it the rounds."""
    rows: dict[tuple, Entry] = {}

    def at(n, tau, eta_g, step, s, theta, spread, r, offset):
        e = _entry(lemma, ctx, ("prescribed", n, theta, spread), (tau, eta_g, step, s, r, offset))
        rows[(n, tau, eta_g, step, s, theta, spread, r, offset)] = e
        return float(np.mean(e.samples)), sum(e.terms)

    found = search(at, DOMAIN, "<=", seed=seed_for(f"{PAPER}/lem-a.1-a.2:sigma:search"), budget=_budget(ctx))
    return [rows[tuple(p.values())] for p in found.parameters], found.record


def _evidence(lemma: str, ctx: Context) -> Evidence:
    found, record = _search(lemma, ctx)
    entries = _base(lemma, ctx) + found
    points, control = Points(), Points()
    needed = []
    for e in entries:
        est = mc_mean(e.samples, confidence=CONFIDENCE, family_size=len(entries))
        rest, sigma = e.terms
        interval = (float(est.lo), float(est.hi))
        points.add(float(est.mean), rest + sigma, interval=interval, **e.params)
        control.add(float(est.mean), rest, interval=interval)
        needed.append((max(0.0, (interval[1] - rest) / sigma), e.params))
    points.searches.append(record)
    worst = max(needed, key=lambda c: c[0])
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "instance": "one state per entry (one noisy path of r - 1 rounds of Algorithm 1 from x^1 = (1 - offset)(x* "
            "- eta~ grad f(x*)), c^1 = 0), "
            f"round r drawn {_replicas(ctx.quick)} times from it; quad-l1 (n = 5, theta = 0.5) and the search's "
            "prescribed-minimiser clients",
            "hypotheses": {
                "asm-3.1": "g = theta ||.||_1, B_g = theta sqrt(d)",
                "asm-3.2": "quadratic f_i, L = max_i lambda_max(H_i)",
                "asm-3.4": "grad f_i(z) + xi, xi ~ N(0, (sigma^2/(b d)) I) independent of the past (E||xi||^2 = "
                "sigma^2/b)",
                "step": "eta~ = step eta_g/(sqrt(20) L) <= eta_g/(sqrt(20) L)",
            },
            "fraction of the printed sigma^2 term the upper interval end needs (worst entry)": {
                "fraction": worst[0],
                "at": worst[1],
            },
            "negative control": negative_control(
                control.evidence("<=", rtol=ROUNDING), "the printed right side without its sigma^2 terms"
            ),
        },
    )


GRID_TEXT = (
    f" Conditional Monte Carlo ({_replicas(True)} replicas of round r from one state; full {_replicas(False)}) on "
    "quad-l1 and on clients with a prescribed minimiser (n = tau = 5, eta_g = 1.5) at eta~ = eta_g/(sqrt(20) L) and at "
    "(13), and in a witness search over n, tau, eta_g, eta~, sigma^2/b, theta, the heterogeneity, the start and r."
)


@claim(
    f"{PAPER}/lem-a.1:sigma",
    source="Lemma A.1, (21)",
    statement="With stochastic gradients (Assumption 3.4) and eta~ <= eta_g/(sqrt(20) L): E[sum_{t<tau} sum_i "
    "||z_{i,t}^r - P(x^r)||^2 | round-r state] <= 20 tau^3 eta^2 n B_g^2 + 5 n tau^3 eta^2 ||G(P(x^r))||^2 + 5 tau "
    "||Lambda^r - mean Lambda^r||^2 + 10 n tau^2 eta^2 sigma^2/b." + GRID_TEXT,
    scope="printed",
    expect="holds",
)
def lem_a1_sigma(ctx: Context) -> Evidence:
    """Instance: quad-l1 and prescribed-minimiser clients with the Gaussian oracle. Reading: the expectation given
    the state at the start of round r, by S replicas of that round; G and Lambda of the state are numbers. Reference:
    the printed right side (printed.lemma_a1_rhs)."""
    return _evidence("a.1", ctx)


@claim(
    f"{PAPER}/lem-a.2:sigma",
    source="Lemma A.2",
    statement="With stochastic gradients and eta~ <= eta_g/(sqrt(20) L): (1/n) E||Lambda^{r+1} - mean||^2 - 2 eta^2 "
    "tau^2 L^2 E||P(x^{r+1}) - P(x^r)||^2 <= (1/n) 4 eta^2 tau L^2 (RHS of (21)) + 4 eta^2 tau sigma^2/b, given the "
    "round-r state." + GRID_TEXT,
    scope="printed",
    expect="holds",
)
def lem_a2_sigma(ctx: Context) -> Evidence:
    """Instance: as Lemma A.1 (the same rounds). Reading: the left side from the state after round r, Lambda^{r+1}
    by its closed form eta tau (grad f_i(P(x^{r+1})) + c_i^{r+1}). Reference: printed.lemma_a2_rhs."""
    return _evidence("a.2", ctx)


# --- (30) along the local steps ---------------------------------------------------------------------------------------
EQ30_B = 4  # batch size of both oracles


def _eq30_rounds(quick: bool) -> tuple[int, int]:
    """Rounds traced and replicas of the runs of (30)."""
    return (12, 32) if quick else (60, 128)


@family(f"{PAPER}/eq-30-runs")
def _eq30_runs(fam: Family, oracle_kind: str) -> dict:
    """Algorithm 1 (tau = 5, eta_g = 2, eta~ = 1/(10L)) on LASSO data (n = 5, m = 50, d = 10, theta = 0.05; the
    recipe of :func:`.instances.lasso`, kept as rows) from ``x^1 = 0``, every round traced; per local step ``t``,
    pooled over rounds, replicas and clients: ``||(1/(t+1)) sum_{l<=t} xi_l||^2`` (``xi_l = g_l - grad f_i(z_l)``) and,
    for the mini-batch oracle, the paired ``(1/(t+1)^2) sum_{l<=t} V_i(z_l)/b`` with ``V_i(z)`` the exact variance of
    one row's gradient at ``z``; the same for the noise of step 0 repeated (the negative control's non-martingale
    noise)."""
    rng = fam.rng()
    n, m, tau, theta = 5, 50, 5, 0.05
    A = rng.normal(size=(n, m, D))
    x_true = np.where(rng.random(D) < 0.3, rng.normal(size=D), 0.0)
    y = A @ x_true + 0.1 * rng.normal(size=(n, m)) + rng.normal(size=(n, 1))
    problem = LeastSquares(A, y)
    sigma2 = 1.0  # the Gaussian oracle's sigma^2 (Assumption 3.4 with equality)
    oracle = Minibatch(problem, EQ30_B) if oracle_kind == "mini-batch" else AdditiveGaussian(problem, 0.5)
    eta_tilde = 0.1 / problem.L
    params = decoupled.DecoupledParams(eta_tilde / (2.0 * tau), 2.0, tau, n)
    R, S = _eq30_rounds(fam.quick)
    state = decoupled.init(np.zeros(D), params, S)
    avg, cond, repeated, visited = ([[] for _ in range(tau)] for _ in range(4))
    for _ in range(R):
        state, trace = decoupled.round(state, oracle, L1(theta), params, rng, trace=True)
        z = trace.z[:tau]  # (tau, S, n, d): the points the gradients were queried at
        xi = trace.g - problem.client_grad(z)
        residual = np.einsum("imd,tsid->tsim", A, z) - y  # (tau, S, n, m)
        rows = residual[..., None] * A  # per-row gradients (tau, S, n, m, d)
        V = np.mean(np.sum(rows**2, axis=-1), axis=-1) - np.sum(np.mean(rows, axis=-2) ** 2, axis=-1)
        for t in range(tau):
            avg[t].append(np.sum(xi[: t + 1].mean(axis=0) ** 2, axis=-1).ravel())
            cond[t].append(V[: t + 1].sum(axis=0).ravel() / ((t + 1) ** 2 * EQ30_B))
            repeated[t].append(np.sum(xi[0] ** 2, axis=-1).ravel())
            visited[t].append(V[t].ravel())
    return {
        "avg": [np.concatenate(a) for a in avg],
        "conditional": [np.concatenate(c) for c in cond],
        "repeated": [np.concatenate(c) for c in repeated],
        "sup V": float(max(np.max(v) for vs in visited for v in vs)),
        "sigma^2": sigma2,
    }


@claim(
    f"{PAPER}/eq-30:along-runs",
    source="(30) in the proof of Lemma A.1 (conditioning on F_t^r; [22, Cor. C.1])",
    statement="For noises xi_l = grad f_i(z_l; B_l) - grad f_i(z_l) of Algorithm 1's local steps (z_l depending on "
    "the earlier noises), E||(1/(t+1)) sum_{l<=t} xi_l||^2 = (1/(t+1)^2) sum_{l<=t} E[E[||xi_l||^2 | F_l]] <= "
    "sigma^2/((t+1) b): the cross terms vanish. Checked as the equality, t < tau = 5, on LASSO data (n = 5, m = 50, "
    "d = 10) with the Gaussian oracle (sigma^2 = 1, b = 4: E[||xi||^2 | F] = sigma^2/b) and the mini-batch oracle "
    "(b = 4 rows with replacement: E[||xi||^2 | F] = V(z)/b with V the exact row-gradient variance at z, paired), "
    "Monte Carlo over rounds, replicas and clients with simultaneous 99% intervals.",
    scope="printed",
    expect="holds",
)
def eq_30_along_runs(ctx: Context) -> Evidence:
    """Instance: LASSO rows, Algorithm 1 traced for R rounds on S replicas. Reading: per local step t the mean of
    ||avg noise||^2 against sigma^2/((t+1) b) (Gaussian) and the mean of ||avg noise||^2 - (1/(t+1)^2) sum V(z_l)/b
    against 0 (mini-batch), each as an equality judged by its interval (the printed <= follows: V <= sup V <=
    sigma^2 on the run). Reference: exact conditional variances. Negative control: the noise of step 0 repeated
    (conditionally unbiased but not a martingale difference) against sigma^2/((t+1) b)."""
    gauss, batch = _eq30_runs(ctx, "gaussian"), _eq30_runs(ctx, "mini-batch")
    tau = len(gauss["avg"])
    points, control = Points(), Points()
    family_size = 2 * tau
    for t in range(tau):
        bound = gauss["sigma^2"] / ((t + 1) * EQ30_B)
        est = mc_mean(gauss["avg"][t], confidence=CONFIDENCE, family_size=family_size)
        points.add(float(est.mean), bound, interval=(float(est.lo), float(est.hi)), oracle="gaussian", t=t)
        est = mc_mean(batch["avg"][t] - batch["conditional"][t], confidence=CONFIDENCE, family_size=family_size)
        points.add(float(est.mean), 0.0, interval=(float(est.lo), float(est.hi)), oracle="mini-batch (paired)", t=t)
        est = mc_mean(gauss["repeated"][t], confidence=CONFIDENCE, family_size=tau)
        control.add(float(est.mean), bound, interval=(float(est.lo), float(est.hi)))
    margin = {f"t = {t}": float(np.mean(batch["avg"][t]) / (batch["sup V"] / ((t + 1) * EQ30_B))) for t in range(tau)}
    return points.evidence(
        "==",
        witness={
            "instance": "LASSO rows (n = 5, m = 50, d = 10, theta = 0.05), Algorithm 1 with tau = 5, eta_g = 2, eta~ = "
            f"1/(10L) from x^1 = 0, {_eq30_rounds(ctx.quick)[0]} rounds x {_eq30_rounds(ctx.quick)[1]} replicas x 5 "
            "clients per entry",
            "hypotheses": {
                "(9), asm-3.4": "Gaussian: xi ~ N(0, (sigma^2/(b d)) I) independent of F_t^r; mini-batch: b rows drawn "
                "uniformly with replacement, unbiased, E[||xi||^2 | F_t^r] = V(z)/b <= sup V/b over the visited z",
            },
            "mini-batch: mean ||avg noise||^2 over the printed bound with sigma^2 = sup V over the run": margin,
            "negative control": negative_control(
                control.evidence("=="), "the noise of step 0 repeated at every step (not a martingale difference)"
            ),
        },
    )
