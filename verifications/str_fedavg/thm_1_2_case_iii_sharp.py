"""Theorems 1 and 2, Case iii (``kappa = 1``) of StR-FedAvg, run OUTSIDE Assumption 1 on a nonsmooth instance.

Case iii (``kappa = 1``) cannot be instantiated inside Assumption 1: for an ``L``-smooth convex ``h`` with
``X* != R^n`` the gradient vanishes on ``X*`` and ``h(x) - h* <= (L/2) dist^2(x, X*)``, so ``h - h* >= alpha dist``
fails as ``dist -> 0``; only the degenerate ``X* = R^n`` (``h`` constant) is weak sharp of order 1 there. It is run
OUTSIDE the hypotheses on the nonsmooth residual-norm instance ``h = ||U x - v||_1/N`` (``U`` 5 x 8,
one row per client, ``N = 5``, client subgradients), ``f = 1/2 ||x - x0||^2``, where the printed ``W`` (through
``L_h``) is infinite, so only measured slopes are compared.

Slope fits and the horizon grid: :mod:`.thm_1_2_runs`. Paper text: Theorem 1 Case iii, Theorem 2 Case iii,
Table 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.bilevel import output, schedule_convex_sharp, schedule_sc_sharp, simulate, theta
from fedtheory.fit import loglog_slope
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.problems.solution_sets import AffineSolutionSet

from .thm_1_2_runs import A_CV, GAMMA_G, PAPER, PS, K, grid_exponents, slope_points


# ---------------------------------------------------------------------------------------------------------------------
# Theorem 1 Case iii on a nonsmooth kappa = 1 instance (outside Assumption 1)
# ---------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Sharp:
    """``h = (1/N) sum_i |u_i'x - v_i| = ||U x - v||_1/N`` (one row per client, ``N = 5``, ``U`` 5 x 8 Gaussian,
    consistent) with ``f_i = 1/2 ||x - x0||^2``, ``x0 ~ N(0, 9 I)``: weak sharp of order 1 with
    ``alpha >= sigma_r(U)/N`` (``||U d||_1 >= ||U d||_2 >= sigma_r ||d||`` on ``row(U)``), ``x* = Pi_{X*}(x0)``."""

    U: np.ndarray
    v: np.ndarray
    x0: np.ndarray
    sol: AffineSolutionSet

    @property
    def alpha(self) -> float:
        return float(self.sol.singular_values[-1] / self.U.shape[0])

    @property
    def x_star(self) -> np.ndarray:
        return self.sol.project(self.x0)

    def h(self, x) -> np.ndarray:
        return np.sum(np.abs(np.asarray(x) @ self.U.T - self.v), axis=-1) / self.U.shape[0]

    def h_oracle(self, y, rng=None) -> np.ndarray:
        """Client subgradients ``sign(u_i'y - v_i) u_i`` (``0`` at the kink) on ``(S, N, n)``."""
        return np.sign(np.einsum("ik,sik->si", self.U, y) - self.v)[..., None] * self.U


@family(f"{PAPER}/instance:residual-l1(5,8)")
def _sharp(fam: Family) -> _Sharp:
    """The residual-l1 instance (class docstring)."""
    rng = fam.rng()
    U = rng.standard_normal((5, 8))
    v = U @ rng.standard_normal(8)
    return _Sharp(U, v, 3.0 * rng.standard_normal(8), AffineSolutionSet(U, v))


def _sharp_gaps(ctx: Context, schedule, mu_f: float) -> tuple[np.ndarray, dict, dict]:
    """Runs of Algorithm 1 on :func:`_sharp` with ``schedule(R, eta)`` (constant ``eta = alpha/(2||grad f(x*)||)``);
    the theta_avg output's gaps per ``R`` and the witness."""
    inst = _sharp(ctx)
    x_star = inst.x_star
    G = float(np.linalg.norm(x_star - inst.x0))
    eta = inst.alpha / (2 * G)
    f_star = 0.5 * float(np.sum((x_star - inst.x0) ** 2))
    exps = grid_exponents(ctx, 12, 16)
    gaps = {"h-gap": [], "f-gap": [], "||x - x*||^2": []}
    for e in exps:
        params = schedule(2**e, eta)
        traj = simulate(
            inst.h_oracle, lambda x, rng: x - inst.x0, inst.x0[None], params, 2**e, np.random.default_rng(0), N=5
        )
        x = output(traj, theta(eta, mu_f, params.gamma_tilde), "theta_avg").x[0]
        gaps["h-gap"].append(float(inst.h(x)))
        gaps["f-gap"].append(0.5 * float(np.sum((x - inst.x0) ** 2)) - f_star)
        gaps["||x - x*||^2"].append(float(np.sum((x - x_star) ** 2)))
    witness = {
        "instance": "h = ||Ux - v||_1/5 (5 clients, one Gaussian row each, 5 x 8, consistent), f = 1/2||x - x0||^2",
        "hypotheses": "outside Assumption 1 (h_i not differentiable at their kinks); subgradient oracle",
        "alpha (certified sigma_r/N)": inst.alpha,
        "||grad f(x*)||": G,
        "eta = alpha/(2||grad f(x*)||)": eta,
    }
    return np.array([2.0**e for e in exps]), gaps, witness


@claim(
    f"{PAPER}/thm-1:iii:slopes-outside",
    source="Theorem 1 Case iii; Table 1 row sc kappa = 1",
    statement="OUTSIDE Assumption 1 (h nonsmooth; no L_h-smooth convex h with X* != R^n is weak sharp of order 1, "
    "since h - h* <= (L_h/2) dist^2 near X*): deterministic runs of Algorithm 1 with the Case iii schedule "
    "gamma~ = p ln R/R (mu_f = 1, p in {1, 2}, K = 2, gamma_g = 1) and the constant eta = alpha/(2||grad f(x*)||) "
    "(alpha the certified sigma_r(U)/N) on h = ||U x - v||_1/N (N = 5 clients, one row each), f = 1/2||x - x0||^2; "
    "fitted log-log slopes of h(xhat^R) - h*, |f(xhat^R) - f*| and ||xhat^R - x*||^2 over R in {2^8..2^12} (quick) / "
    "{2^8..2^16} (full), theta_avg output, are <= Table 1's -1 (eps^-1), <= the slope of ln R/R (the schedule's log "
    "factor) and <= -eta p/2 (theta^R = (1 - eta p ln R/(2R))^(-R) ~ R^(eta p/2) in the first term of Prop 3 (iii); "
    "see thm-1:iii:theta-R). The printed W (through L_h) is infinite here: the explicit bounds are vacuous. A probe, "
    "not a verdict on the paper: slopes over a finite window of R on an instance outside the hypotheses",
    scope="outside-hypotheses",
    expect="fails",
)
def thm1_iii_slopes(ctx: Context) -> Evidence:
    """Subgradient runs of Algorithm 1 (Case iii schedule, constant ``eta``) on the nonsmooth residual-l1 instance,
    outside Assumption 1: log-log slopes (95% t-intervals) of the gaps against Table 1's exponent, the slope of
    ``ln R/R`` and ``-eta p/2``, per ``p``; ``x*`` the exact projection of ``x0``."""
    points = Points()
    for p in PS:
        R, gaps, witness = _sharp_gaps(ctx, lambda R, eta, p=p: schedule_sc_sharp(R, 1.0, p, eta, GAMMA_G, K), mu_f=1.0)
        eta = witness["eta = alpha/(2||grad f(x*)||)"]
        log_ref = loglog_slope(R, np.log(R) / R).slope
        refs = {key: {"Table 1": -1.0, "ln R/R": log_ref, "-eta p/2 (Prop 3 (iii))": -eta * p / 2} for key in gaps}
        slope_points(points, R, gaps, refs, p=p)
    return points.evidence("<=", witness=witness)


@claim(
    f"{PAPER}/thm-2:iii:slopes-outside",
    source="Theorem 2 Case iii; Table 1 row cvx kappa = 1",
    statement="OUTSIDE Assumption 1 (as thm-1:iii:slopes-outside; no smooth h is weak sharp of order 1 unless X* = "
    "R^n): deterministic runs of Algorithm 1 with the Theorem 2 Case iii schedule gamma~ = R^(-1/2) (a = 1/2, K = 2, "
    "gamma_g = 1, theta = 1) and the constant eta = alpha/(2||grad f(x*)||) on the same instance (f convex; mu_f = 0 "
    "in the schedule and output); fitted log-log slopes of h(xhat^R) - h* and |f(xhat^R) - f*| over R in {2^8..2^12} "
    "(quick) / {2^8..2^16} (full) are <= Table 1's -1/2 (eps^-2) = -(1 - a) of the Q~ term of (iii-1)/(iii-2). A "
    "probe, not a verdict on the paper: slopes over a finite window of R on an instance outside the hypotheses",
    scope="outside-hypotheses",
    expect="fails",
)
def thm2_iii_slopes(ctx: Context) -> Evidence:
    """Subgradient runs of Algorithm 1 (Theorem 2 Case iii schedule, constant ``eta``) on the residual-l1 instance,
    outside Assumption 1: log-log slopes (95% t-intervals) of the h- and f-gaps against Table 1's ``-1/2``."""
    R, gaps, witness = _sharp_gaps(ctx, lambda R, eta: schedule_convex_sharp(R, A_CV, eta, GAMMA_G, K), mu_f=0.0)
    gaps = {key: gaps[key] for key in ("h-gap", "f-gap")}
    points = Points()
    slope_points(points, R, gaps, {key: {"Table 1": -0.5} for key in gaps})
    return points.evidence("<=", witness=witness)
