"""The discussion after Theorem 3.5: how the residual scales with the batch size, the local steps and the step size,
and what is left with full gradients (our protocol), on LASSO.

Instance: :func:`.instances.lasso` (n = 5, m = 50, d = 10, theta = 0.05), Algorithm 1 with eta_g = 2, eta~ = 1/(10L)
(tau = 5 unless varied), the Gaussian oracle of variance sigma^2/b (Assumption 3.4 with equality), from
``P(x^1) = x*`` (``x^1 = x* - eta~ grad f(x*)``), ``c^1 = 0``. The *plateau* of a replica is its mean over the last
half of the rounds (after more than ten time constants ``1/(mu eta~)`` of the transient) of

* ``F(P(x^r)) - F*`` (Theorem 3.6's quantity, bounded by ``Omega^r``; the metric of the experiments), and
* ``||G(P(x^r))||^2`` (Theorem 3.5's quantity).

No exact expectation exists (the prox is non-linear), so the plateaus are Monte Carlo means over ``S`` replicas and
each log-log slope over a grid comes with a delta-method interval from the replicas (:func:`slope_interval`),
simultaneous 99% over the claim's slopes. Two noise levels: sigma^2 = 1 (per-round noise below the l1 threshold on
most zero coordinates) and sigma^2 = 100 (above it). A finite-window slope compared with an O(.) statement is not the
printed statement: every claim here is scope ``stand-in``.

Printed objects: the paragraph after Theorem 3.5 (its four sentences), the matching sentences after Theorem 3.6.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.composite import decoupled, potentials
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import SCALED_ROUNDING
from fedtheory.oracles import AdditiveGaussian, ExactGradient

from . import instances

PAPER = "zhang-composite"
N, M, D, THETA, ETA_G = 5, 50, 10, 0.05, 2.0
CONFIDENCE = 0.99
SIGMA2 = (1.0, 100.0)
METRICS = ("F - F*", "||G||^2")


def _sizes(quick: bool) -> tuple[int, int]:
    """Rounds at eta~ = 1/(10L) (scaled by 1/(10 eta~ L) for smaller steps) and replicas."""
    return (100, 16) if quick else (600, 64)


def _step_grid(quick: bool) -> tuple[float, ...]:
    """The values of eta~ L (all within (13))."""
    return (0.1, 0.05) if quick else (0.1, 0.05, 0.025)


@family(f"{PAPER}/residual-lasso")
def _lasso(fam: Family) -> tuple:
    """The LASSO instance and its certified optimum."""
    problem, g = instances.lasso(fam.rng(), N, M, D, THETA)
    return problem, g, instances.optimum(problem, g)


@dataclass(frozen=True)
class Plateau:
    """Per metric: the plateau of each replica (S,) (one entry for a full-gradient run), and the run's first value."""

    values: dict[str, np.ndarray]
    first: dict[str, float]


@family(f"{PAPER}/residual-runs")
def _plateau(fam: Family, s: float, tau: int, step: float, start: str = "x*") -> Plateau:
    """Algorithm 1 with noise variance ``s = sigma^2/b`` (``s = 0``: full gradients, one replica), ``tau`` local steps,
    ``eta~ = step/L``, from ``P(x^1) = x*`` or from ``x^1 = 0``; every run draws from the family's seed (common
    random numbers across ``s``)."""
    problem, g, ref = _lasso(fam.profile)
    R0, S = _sizes(fam.quick)
    R = round(R0 * 0.1 / step) * (6 if s == 0 else 1)  # full gradients: run on to rounding
    eta_tilde = step / problem.L
    params = decoupled.DecoupledParams(eta_tilde / (ETA_G * tau), ETA_G, tau, N)
    x1 = ref.x - eta_tilde * problem.grad(ref.x) if start == "x*" else np.zeros(D)
    oracle = ExactGradient(problem) if s == 0 else AdditiveGaussian(problem, np.sqrt(s))
    traj = decoupled.run(oracle, g, x1, params, R, fam.rng(), S=1 if s == 0 else S)
    p = decoupled.output(g, traj.x, params)
    series = {
        "F - F*": potentials.composite_value(problem, g, p) - ref.value,
        "||G||^2": np.sum(potentials.gradient_mapping(problem, g, traj.x, eta_tilde) ** 2, axis=-1),
    }  # (R + 1, S) each
    window = slice(R // 2, None) if s else slice(-R // 6, None)
    return Plateau(
        {k: v[window].mean(axis=0) if s else v[window].max(axis=0) for k, v in series.items()},
        {k: float(v[0, 0]) for k, v in series.items()},
    )


def slope_interval(x, samples, family_size: int) -> tuple[float, float, float]:
    """``(slope, lo, hi)``: the least-squares slope of ``log mean`` on ``log x`` over the grid ``x`` (K,), with a
    simultaneous 99% interval from the replicas ``samples`` (K, S) by the delta method: the slope moves by
    ``sum_k w_k (mean_k - m_k)/m_k``, the mean over replicas of ``u_s = sum_k w_k samples_{k,s}/m_k``, whose Student t
    interval (:func:`fedtheory.fit.mc_mean`) gives the slope's (valid for paired and for independent grid points)."""
    lx = np.log(np.asarray(x, dtype=float))
    w = (lx - lx.mean()) / np.sum((lx - lx.mean()) ** 2)
    samples = np.asarray(samples, dtype=float)
    m = samples.mean(axis=1)
    slope = float(np.sum(w * np.log(m)))
    u = np.sum(w[:, None] * samples / m[:, None], axis=0)
    est = mc_mean(u, confidence=CONFIDENCE, family_size=family_size)
    half = float(est.hi - est.mean)
    return slope, slope - half, slope + half


def _slopes(ctx: Context, vary: str, metrics: tuple[str, ...], family_size: int) -> list[tuple]:
    """``(sigma^2, metric, grid, plateaus, (slope, lo, hi))`` for the grid of ``vary``: b in {1, 4, 16} (tau = 5),
    tau in {1, 4, 16} at fixed eta~ (b = 1), or eta~ L in :func:`_step_grid` (tau = 5, b = 1)."""
    out = []
    for sigma2 in SIGMA2:
        if vary == "b":
            grid, runs = (1, 4, 16), [_plateau(ctx, sigma2 / b, 5, 0.1) for b in (1, 4, 16)]
        elif vary == "tau":
            grid, runs = (1, 4, 16), [_plateau(ctx, sigma2, tau, 0.1) for tau in (1, 4, 16)]
        else:
            grid = _step_grid(ctx.quick)
            runs = [_plateau(ctx, sigma2, 5, step) for step in grid]
        for metric in metrics:
            samples = np.stack([r.values[metric] for r in runs])
            out.append((sigma2, metric, grid, samples.mean(axis=1), slope_interval(grid, samples, family_size)))
    return out


def _slope_evidence(rows: list[tuple], vary: str, relation: str, bound: float, witness: dict) -> Evidence:
    points = Points()
    for sigma2, metric, grid, _, (slope, lo, hi) in rows:
        points.add(slope, bound, interval=(lo, hi), sigma2=sigma2, metric=metric, varied=vary, grid=str(grid))
    table = {
        f"sigma^2 = {sigma2}, {metric}": {"grid": list(grid), "plateau": [float(v) for v in means], "slope": slope}
        for sigma2, metric, grid, means, (slope, _, _) in rows
    }
    return points.evidence(relation, witness={**witness, "plateaus and slopes": table})


INSTANCE = (
    "LASSO (instances.lasso: n = 5, m = 50, d = 10, theta = 0.05), Algorithm 1 with eta_g = 2, eta~ = 1/(10L), tau = "
    "5, the Gaussian oracle of variance sigma^2/b, from P(x^1) = x*, c^1 = 0; plateau = a replica's mean over the last "
    "half of the rounds"
)
QUICK, FULL = _sizes(True), _sizes(False)
SIZES = f"{QUICK[0]} rounds at eta~ = 1/(10L), {QUICK[1]} replicas; full {FULL[0]}, {FULL[1]}"


@claim(
    f"{PAPER}/sec-3:thm3.5-discussion:batch",
    source="Section 3, the paragraph after Theorem 3.5 (and after Theorem 3.6)",
    statement="'The first term in the residual is dictated by the stochastic gradient variance sigma^2 and can be "
    "mitigated by employing a large batch size b': on LASSO the plateaus of F(P(x^r)) - F* and ||G||^2 fall as b grows "
    f"over {{1, 4, 16}} (log-log slope < 0, simultaneous 99% intervals), at sigma^2 in {{1, 100}} ({SIZES}).",
    scope="stand-in",
    expect="holds",
)
def batch(ctx: Context) -> Evidence:
    """Instance: LASSO, Algorithm 1 at (13)'s largest step, b in {1, 4, 16}. Reading: the slope of the log plateau
    in log b with a delta-method interval (the theory's sigma^2/(n tau b) has slope -1: the slopes are in the
    witness). Reference: F* certified by the conic solver."""
    rows = _slopes(ctx, "b", METRICS, 4)
    witness = {
        "instance": INSTANCE,
        "printed sigma^2 term": "20 sigma^2/(n tau b)",
        "interval holds the exponent -1 of sigma^2/(n tau b)": {
            f"sigma^2 = {sigma2}, {metric}": bool(lo <= -1 <= hi) for sigma2, metric, _, _, (_, lo, hi) in rows
        },
    }
    return _slope_evidence(rows, "b", "<", 0.0, witness)


@claim(
    f"{PAPER}/sec-3:thm3.5-discussion:order",
    source="Section 3, the paragraph after Theorem 3.5",
    statement="'Algorithm 1 converges sublinearly to a residual error of order O(sigma^2/(n tau b) + L^2 eta~^2 "
    "B_g^2/eta_g^2)', its dependence on tau: on LASSO at fixed eta~ (b = 1) the plateaus of ||G(P(x^r))||^2 and "
    "F(P(x^r)) - F* fall as tau grows over {1, 4, 16} (log-log slope < 0, simultaneous 99% intervals), at sigma^2 in "
    f"{{1, 100}} ({SIZES}); the slopes against the -1 of sigma^2/(n tau b) in the witness.",
    scope="stand-in",
    expect="holds",
)
def order(ctx: Context) -> Evidence:
    """Instance: LASSO, Algorithm 1 at (13)'s largest eta~, eta = eta~/(eta_g tau). Reading: the slope of the log
    plateau in log tau with a delta-method interval. An O(.) is an upper bound (Theorem 3.5 holds with a wide margin:
    thm-3.5:sigma), so the exponent is reported, not judged: whether each interval holds -1 is in the witness."""
    rows = _slopes(ctx, "tau", METRICS, 4)
    return _slope_evidence(
        rows,
        "tau",
        "<",
        0.0,
        {
            "instance": INSTANCE,
            "interval holds the exponent -1 of sigma^2/(n tau b)": {
                f"sigma^2 = {sigma2}, {metric}": bool(lo <= -1 <= hi) for sigma2, metric, _, _, (_, lo, hi) in rows
            },
        },
    )


@claim(
    f"{PAPER}/sec-3:thm3.5-discussion:full-gradient",
    source="Section 3, the paragraph after Theorem 3.5",
    statement="'If full local gradients are used, then sigma^2 = 0, rendering this residual term zero': on LASSO with "
    "full gradients from x^1 = 0 the run leaves no residual, F(P(x^r)) - F* and ||G(P(x^r))||^2 over the last sixth "
    "of 6R rounds at most 1e-12 of their first values (rounding), at eta~ L in {0.1, 0.05}, while every stochastic "
    "plateau (b up to 16) is far above that.",
    scope="stand-in",
    expect="holds",
)
def full_gradient(ctx: Context) -> Evidence:
    """Instance: LASSO, Algorithm 1 with exact gradients. Reading: the largest value over the last sixth of the run,
    relative to the first, against 0 with the tolerance of a scaled float64 quantity. Negative control: the
    stochastic plateaus (sigma^2 = 1, b = 16) in the same check."""
    points, control = Points(), Points()
    for step in (0.1, 0.05):
        run = _plateau(ctx, 0.0, 5, step, "0")
        for metric in METRICS:
            points.add(float(run.values[metric][0]) / run.first[metric], 0.0, metric=metric, step=step)
    noisy = _plateau(ctx, SIGMA2[0] / 16, 5, 0.1)
    start = _plateau(ctx, 0.0, 5, 0.1, "0").first
    for metric in METRICS:
        control.add(float(np.mean(noisy.values[metric])) / start[metric], 0.0)
    return points.evidence(
        "<=",
        atol=SCALED_ROUNDING,
        witness={
            "instance": INSTANCE.replace(
                "the Gaussian oracle of variance sigma^2/b, from P(x^1) = x*", "exact gradients, from x^1 = 0"
            ),
            "what remains": "the paragraph's B_g term 187 L^2 eta~^2 B_g^2/eta_g^2 is not visible either (the "
            "residual reaches rounding)",
            "negative control": negative_control(
                control.evidence("<=", atol=SCALED_ROUNDING), "the stochastic plateau (sigma^2 = 1, b = 16)"
            ),
        },
    )


@claim(
    f"{PAPER}/sec-3:thm3.5-discussion:step",
    source="Section 3, the paragraph after Theorem 3.5 (and after Theorem 3.6)",
    statement="Probe beside 'a smaller step size can effectively reduce this residual' (printed of the B_g term, "
    "which full-gradient runs never show, :full-gradient): the stochastic plateau of F(P(x^r)) - F*, whose printed "
    "sigma^2 term does not depend on eta~, falls with eta~ on LASSO (log-log slope in eta~ > 0, simultaneous 99% "
    f"intervals) at sigma^2 in {{1, 100}}, b = 1 ({SIZES}; the rounds grow as 1/eta~).",
    scope="outside-hypotheses",
    expect="holds",
)
def step(ctx: Context) -> Evidence:
    """Instance: LASSO, Algorithm 1, eta~ L on a grid within (13). Reading: the slope of the log plateau of F - F*
    in log eta~ with a delta-method interval; the slope of the ||G||^2 plateau (whose printed sigma^2 term does not
    depend on eta~) and the printed B_g exponent 2 in the witness."""
    rows = _slopes(ctx, "step", ("F - F*",), 2)
    grad = _slopes(ctx, "step", ("||G||^2",), 2)
    return _slope_evidence(
        rows,
        "step",
        ">",
        0.0,
        {
            "instance": INSTANCE,
            "printed B_g term": "187 L^2 eta~^2 B_g^2/eta_g^2 (slope 2 in eta~); not observed (:full-gradient)",
            "slopes of the ||G||^2 plateau in eta~ (slope, lo, hi)": {f"sigma^2 = {r[0]}": list(r[4]) for r in grad},
        },
    )
