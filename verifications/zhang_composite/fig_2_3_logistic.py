"""Figures 2 and 3 (sparse logistic regression on FedProx synthetic data) reproduced on stand-in data, and the
sentences of Section 3 about the experiments.

Data and steps (:mod:`.experiment_protocol`): FedProx synthetic(50, 50), binary, ``n = 30``, ``d = 20``; features
scaled so that the printed server step of the figure's first panel is ``1/L`` (the raw data have ``L`` near
``5e4``); ``x^1 = 0``. The printed steps: Proposed and FedDA ``eta = 4, eta_g = 15``, FedMid ``eta = 1, eta_g = 5``
(Figure 2); ``eta = 2, eta_g = 8`` (Figure 3). FedMid is run with its server prox (the FCO code) and without it (the
paper does not say which). Fast-FedDA is omitted: the paper does not define it and its update is in none of our
sources, so no claim is made about it.

* Figure 2 (full gradients, ``m_i = 100``, ``theta = 0.003``, ``tau in {1, 10}``): ``R = 7000`` rounds at
  ``tau = 1`` and ``700`` at ``tau = 10`` (full: ``20000`` and ``2000``; FedMid, far from converging either way, 500
  and 100 in the quick profile), recorded every 10 rounds; the optimality
  ``||G(x^r)|| / ||G(x^1)||`` (11) at every method's primal server model with its own ``eta~ = eta eta_g tau``.
* Figure 3 (minibatches of ``b in {1, 20}`` samples drawn with replacement, ``tau = 20``, ``theta = 5e-4``): the
  printed ``m_i = 2000`` (60,000 samples) in the full profile, ``m_i = 200`` in the quick one; the certified
  reference ``x*`` (proximal-gradient residual ``<= 1e-9``) comes from the conic solve polished by accelerated
  proximal gradient in the quick profile, from accelerated proximal gradient alone started at 0 in the full one
  (the exponential-cone solve does not converge at 60,000 samples; the certificate is the same). Replicas
  vectorised (16; full 64). The printed curves start at 0 and show a plateau; on this data the
  transient lasts thousands of rounds (a nearly flat direction), so the runs start at the plateau's centre instead:
  Algorithm 1 at its full-gradient fixed point (``x^1 = x* - eta~ grad f(x*)``, ``c_i = grad f(x*) - grad f_i(x*)``),
  FedDA at ``x*``; the plateau is the mean of ``||G(x^r)||^2`` over the second half of ``R = 40`` rounds (full 300).

Printed objects: Section 4.1 (Figures 2 and 3 and their discussion), the closing paragraph of Section 3 ("when we
eliminate sigma^2 by use of full gradients, our algorithm converges exactly and is unaffected by B_g (Fig. 2)") and
its last sentence ("Next, we proceed to validate the theoretical results in numerical experiments").

Seen here: (13) holds for none of the printed experiments, and at the printed steps it would hold only on data scaled
so small that ``x* = 0`` (sec-3:validate); Algorithm 1's ``sum_i c_i = 0`` is kept only to rounding, and once the
optimality is near 1e-12 the rounding that accumulates there (about 1.6e-15 per round at ``tau = 1``) biases the
server direction, so the optimality creeps back up (to about 3e-10 at round 20000).
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.algorithms.composite import decoupled, potentials
from fedtheory.fit import mc_mean
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.oracles import ExactGradient, Minibatch
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1

from .experiment_protocol import (
    FIG2,
    FIG3,
    PAPER,
    baseline_params,
    conditions,
    logistic_problem,
    optimality,
    primal_run,
)

PRECISION = 1e-10  # "machine precision" (our operationalisation)
FIG3_QUICK_M = 200  # Figure 3's samples per client in the quick profile (printed: FIG3.m = 2000, run in full)
# margins held at once by Figure 3's gradient mappings: 8 MB temporaries (at 128 MB, a quarter of the m_i = 2000 run
# was the kernel's page faults)
MAPPING_CHUNK = 2**20
METHODS2 = ("Proposed", "FedDA", "FedMid", "FedMid(no server prox)")


def _steps(exp, method: str) -> tuple[float, float]:
    return exp.steps["FedMid" if method.startswith("FedMid") else method]


@family(f"{PAPER}/fig-2-runs")
def fig2_runs(fam: Family) -> dict:
    """Figure 2's runs: per ``tau``, per method, the rounds and the optimality; the primal models of Proposed and
    FedDA at ``tau = 1`` (for the iterate comparison)."""
    problem, data = logistic_problem(fam.rng(), FIG2)
    regularizer = L1(FIG2.theta)
    oracle = ExactGradient(problem)
    out = {"data": data, "problem": problem, "panels": {}}
    rounds = {1: (7000, 500), 10: (700, 100)} if fam.quick else {1: (20000, 20000), 10: (2000, 2000)}
    for tau in FIG2.taus:
        panel = {}
        for method in METHODS2:
            eta, eta_g = _steps(FIG2, method)
            R = rounds[tau][1 if method.startswith("FedMid") else 0]
            t, x, c_sum = primal_run(method, oracle, regularizer, eta, eta_g, tau, R, None, record_every=10)
            opt = optimality(problem, regularizer, x[:, 0], eta * eta_g * tau)
            panel[method] = {"t": t, "opt": opt, "x": x[:, 0], "||sum c_i||": None if c_sum is None else c_sum[:, 0]}
        out["panels"][tau] = panel
    return out


def _first(opt: np.ndarray, t: np.ndarray, level: float) -> int | None:
    hit = np.flatnonzero(opt <= level)
    return int(t[hit[0]]) if hit.size else None


def _data_witness(runs: dict) -> dict:
    return {
        "data": {k: float(v) if k != "draws" else v for k, v in runs["data"].items()},
        "rounds": {tau: int(panel["Proposed"]["t"][-1]) for tau, panel in runs["panels"].items()},
    }


@claim(
    f"{PAPER}/fig-2:tau1:precision",
    source="Figure 2 (left) and its discussion in Section 4.1",
    statement="tau = 1, full gradients: 'Both FedDA and our algorithm converge to machine precision': the final "
    "optimality ||G(x^R)||/||G(x^1)|| of each is <= 1e-10 after R = 7000 rounds (holds) and after R = 20000 (full "
    "profile: fails, Algorithm 1 about 3e-10, the rounding accumulated in sum_i c_i), on the stand-in data (FedProx "
    "synthetic(50, 50), n = 30, d = 20, m_i = 100, theta = 0.003, printed steps eta = 4, eta_g = 15, features scaled "
    "to eta eta_g L = 1).",
    scope="stand-in",
    expect="holds",
    expect_full="fails",
    figure="fig-2",
)
def fig2_tau1_precision(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in at tau = 1. Reading: 'machine precision' = 1e-10 (our operationalisation).
    Reference: the gradient mapping (11) itself (no x* needed)."""
    runs = fig2_runs(ctx)
    panel = runs["panels"][1]
    points = Points()
    for method in ("Proposed", "FedDA"):
        points.add(float(panel[method]["opt"][-1]), method=method)
    ctx.draw(_draw_fig2, runs)
    witness = {
        **_data_witness(runs),
        **_drift_of_corrections(panel["Proposed"]),
        "min over the run (Proposed, FedDA)": [float(panel[m]["opt"].min()) for m in ("Proposed", "FedDA")],
        "first round <= 1e-10 (Proposed, FedDA)": [
            _first(panel[m]["opt"], panel[m]["t"], PRECISION) for m in ("Proposed", "FedDA")
        ],
    }
    return points.evidence("<=", bound=PRECISION, witness=witness)


def _drift_of_corrections(run: dict) -> dict:
    """Algorithm 1's ``||sum_i c_i^r||`` (0 in exact arithmetic) at the round of its smallest optimality and at the
    end, with the optimality there: rounding that accumulates in ``sum_i c_i`` biases the server direction
    ``v^r = mean g + mean c`` and, once converged, the optimality grows with it."""
    best = int(np.argmin(run["opt"]))
    return {
        "Algorithm 1: (round, ||sum_i c_i||, optimality) at its best and at the end": [
            [int(run["t"][i]), float(run["||sum c_i||"][i]), float(run["opt"][i])] for i in (best, -1)
        ]
    }


def _contraction(opt: np.ndarray, t: np.ndarray, x: np.ndarray) -> tuple[float, list]:
    """Per-round contraction of the optimality after support identification: the geometric mean of the successive
    ratios over the recorded rounds where the support has been stable for 50 rounds and ``1e-9 <= opt <= 1e-4``
    (below, the rounding floor; above, the transient)."""
    support = np.abs(x) > 0
    changed = np.flatnonzero(np.any(support[1:] != support[:-1], axis=1))
    stable_from = (t[changed[-1] + 1] if changed.size else t[0]) + 50
    window = np.flatnonzero((t >= stable_from) & (opt >= 1e-9) & (opt <= 1e-4))
    if window.size < 2:
        return float("nan"), []
    a, b = window[0], window[-1]
    return float((opt[b] / opt[a]) ** (1.0 / (t[b] - t[a]))), [int(t[a]), int(t[b])]


@claim(
    f"{PAPER}/fig-2:tau1:rate",
    source="Figure 2 (left) and its discussion in Section 4.1",
    statement="tau = 1: 'The same step size setting ensures that both algorithms converge at exactly the same rate': "
    "the per-round contraction of the optimality after support identification (geometric mean of the successive "
    "ratios where the support is stable for 50 rounds and 1e-9 <= optimality <= 1e-4) of Algorithm 1 and FedDA "
    "differ by at most 1e-3 (our tolerance for 'the same rate'), on the Figure 2 stand-in.",
    scope="stand-in",
    expect="holds",
)
def fig2_tau1_rate(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in at tau = 1. Reading: Algorithm 1 at tau = 1 is exactly proximal gradient
    descent with step eta eta_g on P(x^r); FedDA at K = 1 is dual averaging, a different iteration (its iterates
    differ: the witness gives the largest difference) whose retrieved primal on a fixed support moves by the same
    step, hence the same linear rate once the support is identified."""
    runs = fig2_runs(ctx)
    panel = runs["panels"][1]
    rates = {m: _contraction(panel[m]["opt"], panel[m]["t"], panel[m]["x"]) for m in ("Proposed", "FedDA")}
    diff = abs(rates["Proposed"][0] - rates["FedDA"][0])
    gap = np.linalg.norm(panel["Proposed"]["x"] - panel["FedDA"]["x"], axis=-1)
    witness = {
        **_data_witness(runs),
        "contraction per round and window (Proposed, FedDA)": {m: list(r) for m, r in rates.items()},
        "max_r ||P(x^r) - x_FedDA^r|| (not the same iteration)": float(gap.max()),
        "first recorded round where they differ by > 1e-12": int(panel["FedDA"]["t"][np.argmax(gap > 1e-12)])
        if (gap > 1e-12).any()
        else None,
    }
    return Evidence(measured=diff, bound=1e-3, relation="<=", witness=witness)


@claim(
    f"{PAPER}/fig-2:fedmid-worst",
    source="Figure 2 and its discussion in Section 4.1",
    statement="'FedMid performs the worst' (tau = 1) and 'FedDA and FedMid perform even worse' than Algorithm 1 "
    "(tau = 10): FedMid's optimality (printed steps eta = 1, eta_g = 5; with and without its server prox) after its "
    "R rounds (quick: 500 at tau = 1, 100 at tau = 10; full: as the others) exceeds that of Algorithm 1 and FedDA at "
    "tau = 1 and that of Algorithm 1 at tau = 10 at the same round, on the Figure 2 stand-in.",
    scope="stand-in",
    expect="holds",
)
def fig2_fedmid_worst(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in. Reading: 'worst' compared on the final optimality, each method measured with
    its own eta~ (our default: the paper does not say). Reference: the gradient mapping (11)."""
    runs = fig2_runs(ctx)
    points, finals = Points(), {}
    for tau, others in ((1, ("Proposed", "FedDA")), (10, ("Proposed",))):
        panel = runs["panels"][tau]
        last = int(panel["FedMid"]["t"][-1])
        at = {m: float(panel[m]["opt"][np.searchsorted(panel[m]["t"], last)]) for m in METHODS2}
        for method in ("FedMid", "FedMid(no server prox)"):
            bound = max(at[m] for m in others)
            points.add(at[method], bound, tau=tau, round=last, method=method, against=" and ".join(others))
        finals[f"tau = {tau}, round {last}"] = at
    return points.evidence(">", witness={**_data_witness(runs), "optimality at FedMid's last round": finals})


@claim(
    f"{PAPER}/fig-2:tau10:precision",
    source="Figure 2 (right) and its discussion in Section 4.1",
    statement="tau = 10: 'Our algorithm still achieves precise convergence': Algorithm 1's final optimality <= 1e-10 "
    "after R = 700 rounds (full 2000), on the Figure 2 stand-in (printed steps eta = 4, eta_g = 15, so eta~ = 10/L).",
    scope="stand-in",
    expect="holds",
)
def fig2_tau10_precision(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in at tau = 10. Reading: 'precise convergence' = 1e-10 (our operationalisation)."""
    runs = fig2_runs(ctx)
    opt = runs["panels"][10]["Proposed"]["opt"]
    witness = {**_data_witness(runs), "min over the run": float(opt.min())}
    return Evidence(measured=float(opt[-1]), bound=PRECISION, relation="<=", witness=witness)


@claim(
    f"{PAPER}/fig-2:tau10:rounds",
    source="Figure 2 and its discussion in Section 4.1",
    statement="tau = 10 'requires fewer communication rounds (roughly reduced by 1/tau)': the rounds Algorithm 1 needs "
    "to reach optimality 1e-10 at tau = 10 divided by those at tau = 1 lie in [0.05, 0.3] (our reading of "
    "'roughly 1/tau'; measured ratio/0.05 >= 1 and 0.3/ratio >= 1), on the Figure 2 stand-in; where a panel does not "
    "reach 1e-10 within its R, the smallest of 1e-8, 1e-6 reached by both is used (the witness says which).",
    scope="stand-in",
    expect="holds",
)
def fig2_tau10_rounds(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in, Algorithm 1 at tau = 1 and tau = 10 with the same (eta, eta_g) (so eta~
    grows with tau, as printed). Reading: the band [0.05, 0.3] around 1/tau = 0.1 is our operationalisation."""
    runs = fig2_runs(ctx)
    p1, p10 = runs["panels"][1]["Proposed"], runs["panels"][10]["Proposed"]
    for level in (PRECISION, 1e-8, 1e-6):
        r1, r10 = _first(p1["opt"], p1["t"], level), _first(p10["opt"], p10["t"], level)
        if r1 is not None and r10 is not None:
            break
    else:
        raise RuntimeError("Algorithm 1 reaches none of 1e-10, 1e-8, 1e-6 in both panels")
    ratio = r10 / r1
    points = Points()
    points.add(ratio / 0.05, check="ratio / 0.05")
    points.add(0.3 / ratio, check="0.3 / ratio")
    witness = {**_data_witness(runs), "level": level, "rounds (tau = 1, tau = 10)": [r1, r10], "ratio": ratio}
    return points.evidence(">=", bound=1.0, witness=witness)


@claim(
    f"{PAPER}/fig-2:tau10:feddualavg-plateau",
    source="Figure 2 (right) and its discussion in Section 4.1",
    statement="tau = 10: 'FedDA, due to client drift, only converges to a neighborhood of the first-order stationary "
    "points' and 'can no longer maintain a similar performance as our algorithm': FedDA's optimality over the last "
    "20% of the rounds stays above 1e-8 (our threshold) and above Algorithm 1's final optimality, on the Figure 2 "
    "stand-in.",
    scope="stand-in",
    expect="holds",
)
def fig2_tau10_feddualavg(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in at tau = 10 (printed steps for both). Reading: 'neighborhood' = a plateau above
    1e-8 over the last fifth of the run; its relative change there is in the witness (the drift-instance limits are
    fig-2:tau10:feddualavg-drift)."""
    runs = fig2_runs(ctx)
    panel = runs["panels"][10]
    opt = panel["FedDA"]["opt"]
    tail = opt[int(0.8 * opt.size) :]
    points = Points()
    points.add(float(tail.min()), 1e-8, against="1e-8")
    points.add(float(tail.min()), float(panel["Proposed"]["opt"][-1]), against="Algorithm 1's final optimality")
    witness = {
        **_data_witness(runs),
        "FedDA over the last 20%: min, max, relative change": [
            float(tail.min()),
            float(tail.max()),
            float(abs(tail[-1] - tail[0]) / tail[0]),
        ],
    }
    return points.evidence(">", witness=witness)


def _draw_fig2(path, runs: dict) -> None:
    """Optimality against rounds, one panel per tau (semilog), every method."""
    fig, axes = plotting.figure(1, 2, width=3.6, height=2.8)
    styles = {"Proposed": "-", "FedDA": "--", "FedMid": "-.", "FedMid(no server prox)": ":"}
    for ax, (tau, panel) in zip(axes, runs["panels"].items()):
        for method, style in styles.items():
            run = panel[method]
            ax.semilogy(run["t"], np.maximum(run["opt"], 1e-17), style, label=method)
        ax.axhline(PRECISION, color="0.6", lw=0.8)
        ax.set_xlabel("communication rounds r")
        ax.set_title(f"tau = {tau}")
    axes[0].set_ylabel(r"optimality $\|G(x^r)\|/\|G(x^1)\|$")
    axes[1].legend(fontsize=7)
    plotting.save(fig, path)


# --------------------------------------------------------------------------------------------------
# Figure 3: minibatches
# --------------------------------------------------------------------------------------------------
@family(f"{PAPER}/fig-3-runs")
def fig3_runs(fam: Family) -> dict:
    """Figure 3's runs from the plateau's centre on ``m_i`` samples per client (printed 2000 in full, 200 in quick):
    per (method, b), ``||G(x^r)||^2`` per record and replica (R + 1, S), and ``||G(0)||^2`` (the printed start)
    for the normalisation."""
    rng = fam.rng()
    m = FIG3_QUICK_M if fam.quick else FIG3.m
    problem, data = logistic_problem(rng, FIG3, m=m)
    regularizer = L1(FIG3.theta)
    ref = composite_optimum(problem, regularizer, kkt_tol=1e-9, polish=5000, conic=fam.quick)
    x_star, tau, n, d = ref.x, FIG3.taus[0], FIG3.n, FIG3.d
    S, R = (16, 40) if fam.quick else (64, 300)
    grads = problem.client_grad(np.broadcast_to(x_star, (n, d)))
    out = {
        "data": data,
        "problem": problem,
        "m_i": m,
        "x* solver": ref.solver,
        "x* kkt residual": ref.certificate["kkt_residual"],
        "nnz(x*)": int(np.count_nonzero(x_star)),
        "S": S,
        "R": R,
        "runs": {},
    }
    for method in ("Proposed", "FedDA"):
        eta, eta_g = FIG3.steps[method]
        eta_tilde = eta * eta_g * tau
        for b in FIG3.batches:
            oracle = Minibatch(problem, b)
            if method == "Proposed":
                params = decoupled.DecoupledParams(eta, eta_g, tau, n)
                start = decoupled.DecoupledState(
                    np.tile(x_star - eta_tilde * grads.mean(axis=0), (S, 1)),
                    np.tile(grads.mean(axis=0) - grads, (S, 1, 1)),
                )
                tr = decoupled.run(oracle, regularizer, None, params, R, rng, S=S, state=start)
                primal = decoupled.output(regularizer, tr.x, params)
            else:
                params = baseline_params(method, eta, eta_g, tau, n)
                primal = fco.run(oracle, fco.Euclidean(regularizer), x_star, params, R, rng, S=S).x
            G2 = _squared_mapping(problem, regularizer, primal, eta_tilde)
            G0 = potentials.prox_gradient_mapping(problem, regularizer, np.zeros(d), eta_tilde)
            out["runs"][method, b] = {"G2": G2, "G2 at 0": float(np.sum(G0**2))}
    return out


def _squared_mapping(problem, regularizer, primal: np.ndarray, eta_tilde: float) -> np.ndarray:
    """``||G(x)||^2`` at the primal models (records, S, d), evaluated over chunks of points so that the margins
    (points, n, m_i) held at once stay under :data:`MAPPING_CHUNK` (each point's value does not depend on its
    chunk)."""
    points = primal.reshape(-1, primal.shape[-1])
    size = max(1, MAPPING_CHUNK // (problem.n_clients * problem.n_samples))
    G2 = [
        np.sum(potentials.prox_gradient_mapping(problem, regularizer, points[i : i + size], eta_tilde) ** 2, axis=-1)
        for i in range(0, points.shape[0], size)
    ]
    return np.concatenate(G2).reshape(primal.shape[:-1])


def _plateau(run: dict, R: int, family_size: int):
    """MC mean (over replicas) of the per-replica mean of ``||G||^2 / ||G(0)||^2`` over the second half of the
    rounds, with its simultaneous 99% interval."""
    per_replica = run["G2"][R // 2 + 1 :].mean(axis=0) / run["G2 at 0"]
    return mc_mean(per_replica, family_size=family_size)


def _fig3_witness(runs: dict) -> dict:
    return {
        "data": {k: float(v) if k != "draws" else v for k, v in runs["data"].items()},
        "x* kkt residual, nnz(x*)": [runs["x* kkt residual"], runs["nnz(x*)"]],
        "samples per client m_i (printed 2000)": runs["m_i"],
        "x* solved by": runs["x* solver"],
        "replicas, rounds": [runs["S"], runs["R"]],
    }


def _batch_ratio(runs: dict) -> tuple[float, float, float, list]:
    """Plateau(b = 1) / plateau(b = 20) of Algorithm 1 with the conservative quotient of the two simultaneous 99%
    intervals (``inf`` where the denominator's interval reaches 0), and the two plateaus with their intervals."""
    p1, p20 = (_plateau(runs["runs"]["Proposed", b], runs["R"], family_size=2) for b in FIG3.batches)
    lo = float(max(p1.lo, 0.0) / p20.hi)
    hi = float(p1.hi / p20.lo) if p20.lo > 0 else np.inf
    return float(p1.mean / p20.mean), lo, hi, [[float(p.mean), float(p.lo), float(p.hi)] for p in (p1, p20)]


@claim(
    f"{PAPER}/fig-3:batch",
    source="Figure 3 and its discussion in Section 4.1",
    statement="Stochastic gradients: Algorithm 1 'converges to a neighborhood ... induced by the variance of "
    "stochastic gradients. When we increase the batch size from 1 to 20, the convergence precision of our algorithm "
    "improves': the plateau of ||G(P(x^r))||^2 with b = 1 exceeds that with b = 20 (measured ratio > 1 with a "
    "simultaneous 99% Monte Carlo interval); FedProx synthetic(50, 50) stand-in data with m_i = 2000 samples per "
    "client as printed (full profile; quick profile m_i = 200), tau = 20, eta = 2, eta_g = 8, "
    "theta = 5e-4, minibatches with replacement, runs started at the full-gradient fixed point, plateau = second "
    "half of R = 40 rounds (full 300), 16 replicas (full 64).",
    scope="stand-in",
    expect="holds",
    figure="fig-3",
)
def fig3_batch(ctx: Context) -> Evidence:
    """Instance: the Figure 3 stand-in. Reading: 'precision' = the plateau of the squared gradient mapping (Theorem
    3.5's left side). Reference: Monte Carlo over replicas; the ratio's interval is the conservative quotient of the
    two simultaneous intervals."""
    runs = fig3_runs(ctx)
    ratio, lo, hi, plateaus = _batch_ratio(runs)
    ctx.draw(_draw_fig3, runs)
    witness = {**_fig3_witness(runs), "plateau (b = 1, b = 20) with 99% intervals": plateaus}
    return Evidence(measured=ratio, bound=1.0, relation=">", interval=(lo, hi), witness=witness, extended=True)


@claim(
    f"{PAPER}/fig-3:batch-factor",
    source="Figure 3; Theorem 3.5 (the sigma^2/(n tau b) term)",
    statement="The theory's factor: the sigma^2 term of Theorems 3.5/3.6 scales as 1/b, so the plateau ratio b = 1 "
    "over b = 20 should be about 20; our band [8, 40] (measured ratio/8 >= 1 and 40/ratio >= 1 with the "
    "interval of fig-3:batch), on the Figure 3 stand-in (m_i = 2000 as printed in the full profile, 200 in the quick "
    "one).",
    scope="stand-in",
    expect="fails",
)
def fig3_batch_factor(ctx: Context) -> Evidence:
    """Instance: the Figure 3 stand-in (as fig-3:batch). Reading: the theorems bound the sigma^2 contribution by a
    1/b term; a plateau at the fixed point measures it only where the iterates stay on one piece of the proxes. Here
    the single support coordinate of x* and the dead zones of the others absorb most of the b = 20 noise (exact
    zeros), so the ratio is far above 20: the precision improves more than the 1/b term says."""
    runs = fig3_runs(ctx)
    ratio, lo, hi, plateaus = _batch_ratio(runs)
    points = Points()
    points.add(ratio / 8, interval=(lo / 8, hi / 8), check="ratio / 8")
    points.add(40 / ratio, interval=(40 / hi, 40 / lo if lo > 0 else np.inf), check="40 / ratio")
    witness = {
        **_fig3_witness(runs),
        "plateau (b = 1, b = 20) with 99% intervals": plateaus,
        "ratio and its interval": [ratio, lo, hi],
    }
    return points.evidence(">=", bound=1.0, witness=witness, extended=True)


@claim(
    f"{PAPER}/fig-3:feddualavg",
    source="Figure 3 and its discussion in Section 4.1",
    statement="'The other algorithms perform worse due to client drift': FedDA's plateau of ||G(x^r)||^2 at b = 20 "
    "exceeds Algorithm 1's (measured plateau ratio FedDA/Algorithm 1 > 1 with a 99% interval), on the Figure 3 "
    "stand-in (m_i = 2000 as printed in the full profile, 200 in the quick one; FedDA started at x*, the same "
    "steps).",
    scope="stand-in",
    expect="holds",
)
def fig3_feddualavg(ctx: Context) -> Evidence:
    """Instance: the Figure 3 stand-in at b = 20 (and b = 1 in the witness). Reading: 'worse' = a higher plateau."""
    runs = fig3_runs(ctx)
    R, points, info = runs["R"], Points(), {}
    for b in FIG3.batches:
        da, prop = (_plateau(runs["runs"][m, b], R, family_size=2) for m in ("FedDA", "Proposed"))
        ratio = float(da.mean / prop.mean)
        if b == 20:
            hi = float(da.hi / prop.lo) if prop.lo > 0 else np.inf
            points.add(ratio, interval=(float(max(da.lo, 0.0) / prop.hi), hi), b=b)
        info[f"b = {b}: plateaus (FedDA, Proposed), ratio"] = [float(da.mean), float(prop.mean), ratio]
    return points.evidence(">", bound=1.0, witness={**_fig3_witness(runs), **info}, extended=True)


def _draw_fig3(path, runs: dict) -> None:
    """Mean ``||G||^2/||G(0)||^2`` over replicas against rounds with its 99% band (drawn where its lower end is
    positive), Algorithm 1 and FedDA, b = 1, 20; round 0 (the fixed point itself, G = 0 to rounding) left out."""
    fig, ax = plotting.figure(width=4.6, height=3.0)
    for (method, b), run in runs["runs"].items():
        est = mc_mean(run["G2"][1:] / run["G2 at 0"], axis=1)
        r = np.arange(1, est.mean.size + 1)
        (line,) = ax.semilogy(r, est.mean, "-" if method == "Proposed" else "--", label=f"{method}, b = {b}")
        ax.fill_between(r, np.where(est.lo > 0, est.lo, np.nan), est.hi, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("rounds from the fixed point")
    ax.set_ylabel(r"$\|G(x^r)\|^2 / \|G(0)\|^2$")
    ax.set_title(f"Fig. 3 stand-in: m_i = {runs['m_i']}, tau = {FIG3.taus[0]}, S = {runs['S']}")
    ax.legend(fontsize=7)
    plotting.save(fig, path)


# --------------------------------------------------------------------------------------------------
# Section 3: the experiments and the theorems
# --------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/sec-3:bg-experiments",
    source="Section 3, closing paragraph ('... converges exactly and is unaffected by B_g (Fig. 2)')",
    statement="With full gradients Algorithm 1 'converges exactly and is unaffected by B_g': its final optimality in "
    "both panels of the Figure 2 stand-in (tau = 1, 10) is <= 1e-10, far below the level of the B_g residual of "
    "Theorem 3.5, sqrt(187 L^2 eta~^2 B_g^2 / eta_g^2)/||G(x^1)|| (in the witness); R = 7000 and 700 (holds), full "
    "profile 20000 and 2000 (fails at tau = 1: about 3e-10, the rounding accumulated in sum_i c_i, still far below "
    "the B_g level).",
    scope="stand-in",
    expect="holds",
    expect_full="fails",
)
def bg_experiments(ctx: Context) -> Evidence:
    """Instance: the Figure 2 stand-in runs. Reading: 'converges exactly' = optimality at rounding level (1e-10);
    the theorem's B_g term, in the same normalised units, shows how large the printed residual would be."""
    runs = fig2_runs(ctx)
    problem, points, info = runs["problem"], Points(), {}
    B_g = FIG2.theta * np.sqrt(FIG2.d)
    eta, eta_g = FIG2.steps["Proposed"]
    for tau, panel in runs["panels"].items():
        eta_tilde = eta * eta_g * tau
        G1 = float(
            np.linalg.norm(potentials.prox_gradient_mapping(problem, L1(FIG2.theta), np.zeros(FIG2.d), eta_tilde))
        )
        term = float(np.sqrt(187 * problem.L**2 * eta_tilde**2 * B_g**2 / eta_g**2)) / G1
        points.add(float(panel["Proposed"]["opt"][-1]), PRECISION, tau=tau)
        info[f"tau = {tau}: final optimality, the B_g residual of Theorem 3.5 in the same units"] = [
            float(panel["Proposed"]["opt"][-1]),
            term,
        ]
        info[f"tau = {tau}: rounding in the corrections"] = _drift_of_corrections(panel["Proposed"])
    return points.evidence("<=", witness={**_data_witness(runs), **info})


@claim(
    f"{PAPER}/sec-3:validate",
    source="Section 3 ('Next, we proceed to validate the theoretical results in numerical experiments'); Section 4.1",
    statement="Whether the printed experiments lie inside the theorems' hypotheses: eta~ L <= 1/10 of (13) (measured "
    "eta~ L with the L of the stand-in data) for Algorithm 1 in Figure 2 (tau = 1, 10) and Figure 3 (tau = 20) at the "
    "printed steps; "
    "eta_g >= max(1.5, sqrt(n/8)), Theorem 3.8's eta_g = sqrt(n) and the scale at which (13) would hold are in the "
    "witness. The paper does not assert that its experiments meet (13).",
    scope="outside-hypotheses",
    expect="fails",
)
def validate(ctx: Context) -> Evidence:
    """Instance: the stand-in data of Figures 2 and 3 (features scaled to eta eta_g tau_1 L = 1) and the printed
    steps. Reading: a record of the experiments against (13), not a verdict on the theorems. The witness also gives,
    per panel, the feature scale at which (13) would hold with the printed steps (L scales with the square of the
    features) and whether 0 is then stationary (||grad f(0)||_inf <= theta: a trivial problem)."""
    points, info = Points(), {}
    fig2, fig3 = fig2_runs(ctx), fig3_runs(ctx)
    for label, exp, runs in (("Figure 2", FIG2, fig2), ("Figure 3", FIG3, fig3)):
        problem = runs["problem"]
        L = runs["data"]["L"]
        for tau in exp.taus:
            eta, eta_g = exp.steps["Proposed"]
            cond = conditions(eta, eta_g, tau, exp.n, L)
            points.add(cond["eta~ L"], 0.1, experiment=label, tau=tau)
            entry = {**cond, "Theorem 3.8: eta_g = sqrt(n)": bool(np.isclose(eta_g, np.sqrt(exp.n)))}
            shrink = np.sqrt(0.1 / cond["eta~ L"])
            g0 = float(np.max(np.abs(problem.grad(np.zeros(exp.d))))) * shrink
            entry["feature scale factor at which eta~ L = 1/10"] = float(shrink)
            entry["||grad f(0)||_inf / theta at that scale (<= 1: x* = 0, a trivial problem)"] = g0 / exp.theta
            info[f"{label}, tau = {tau}"] = entry
    info["raw data (no feature scaling): L"] = [fig2["data"]["raw L"], fig3["data"]["raw L"]]
    return points.evidence("<=", witness=info)
