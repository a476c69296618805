"""Pathwise steps of Lemma 4.9's proof (section 4.4.2) on every local step of seeded stochastic FedDualAvg runs: the
dual shadow recursion (4.14), Claim 4.13 at ``x*`` (and, as an extension, at arbitrary ``x``, ``gbar``, ``ybar``),
Claim 4.14, (4.21), the triangle step of Claim 4.14's proof and the Jensen step of Lemma 4.9's proof.

Instances, runs and shadow primals: :mod:`.dual_shadow`.
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING
from fedtheory.regularizers import L2Ball

from .dual_shadow import (
    PAPER,
    Instance,
    Path,
    add_entries,
    inner,
    instances,
    linf,
    path_witness,
    paths,
)


# --- (4.14) ---------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/eq-4.14",
    source="eq. (4.14) (again (4.25))",
    statement="Along FedDualAvg runs with eta_s = 1 (full participation, stochastic gradients): ybar^(r,k+1) = "
    "ybar^(r,k) - eta_c (1/M) sum_m grad f(x_m^(r,k); xi_m^(r,k)) at every local step, and ybar^(r,K) = y^(r+1,0) "
    "(the server dual). Instances: Q-het with psi = l1 / l2 ball / 0 (Euclidean h), N4 nuclear norm via Masked, Q-het "
    "l1 in the l1 geometry (p-norm h); eta_c L in {1/4, 1/16}. Measured: max-norm residual / (1 + ||ybar||_inf + "
    "eta_c ||gbar||_inf), tolerance 1e-12 (rounding of a 4-term mean).",
    scope="printed",
    expect="holds",
)
def eq_414(ctx: Context) -> Evidence:
    """Every local step of the seeded stochastic FedDualAvg runs of dual_shadow (five instances, eta_c L in {1/4,
    1/16}): the residual of the recursion and of the round boundary in the max norm, divided by the size of its
    terms, against 0 (float64)."""
    points = Points()
    for p in paths(ctx):
        gbar = p.g.mean(axis=3)
        resid = p.ybar[:, 1:] - p.ybar[:, :-1] + p.eta * gbar
        scale = 1 + linf(p.ybar[:, :-1]) + p.eta * linf(gbar)
        add_entries(points, linf(resid) / scale, 0.0, instance=p.inst.name, eta=p.label, relation="local step (4.14)")
        boundary = linf(p.ybar[:, -1] - p.server[1:]) / (1 + linf(p.server[1:]))
        add_entries(points, boundary, 0.0, instance=p.inst.name, eta=p.label, relation="ybar^(r,K) = y^(r+1,0)")
    return points.evidence("==", atol=SCALED_ROUNDING, witness=path_witness(ctx))


# --- Claim 4.13 -----------------------------------------------------------------------------------------------------
def _claim413_terms(mirror: fco.MirrorMap, x, yb0, yb1, gbar, eta: float, t0: float, t1: float):
    """Both sides of (4.18) at ``x`` (``yb0, yb1`` the shadows ``ybar^(r,k)``, ``ybar^(r,k+1)`` with weights ``t0``,
    ``t1 = t0 + eta_c``), each divided by a scale of the rounding error: ``1 + sum of |terms| + |h_{r,k+1}(x)| +
    |h_{r,k+1}(x^^(r,k+1))|``."""
    xh1 = mirror(yb1, t1)
    lhs = mirror.generalized_bregman(x, yb1, t1)
    terms = (
        mirror.generalized_bregman(x, yb0, t0),
        -mirror.generalized_bregman(xh1, yb0, t0),
        -eta * (mirror.psi_value(xh1) - mirror.psi_value(x)),
        -eta * inner(gbar, xh1 - x),
    )
    scale = 1 + np.abs(lhs) + sum(np.abs(v) for v in terms)
    scale = scale + np.abs(mirror.regularized_h(x, t1)) + np.abs(mirror.regularized_h(xh1, t1))
    return lhs / scale, sum(terms) / scale


def _in_dom(inst: Instance, rng, shape) -> np.ndarray:
    """Random points of ``dom psi``: N(0, 4 I), or uniform in the ball for the ball indicator."""
    z = 2.0 * rng.standard_normal((*shape, inst.dim))
    if isinstance(inst.mirror.psi, L2Ball):
        radius = inst.mirror.psi.radius * rng.uniform(size=(*shape, 1)) ** (1 / inst.dim)
        z = radius * z / np.linalg.norm(z, axis=-1, keepdims=True)
    return z


@claim(
    f"{PAPER}/claim-4.13",
    source="Claim 4.13, eq. (4.18)",
    statement="Printed as an equality: D~_{h_{r,k+1}}(x*, ybar^(r,k+1)) = D~_{h_{r,k}}(x*, ybar^(r,k)) - "
    "D~_{h_{r,k}}(x^^(r,k+1), ybar^(r,k)) - eta_c (psi(x^^(r,k+1)) - psi(x*)) - eta_c <gbar, x^^(r,k+1) - x*>, "
    "h_{r,k} = h + eta_c (rK + k) psi, gbar the averaged stochastic gradient; at every local step of the runs of "
    "eq-4.14 (all five instances, eta_c L in {1/4, 1/16}). Measured: both sides / (1 + sum of |terms| + "
    "|h_{r,k+1}(x*)| + |h_{r,k+1}(x^)|), tolerance 1e-12.",
    scope="printed",
    expect="holds",
)
def claim_413(ctx: Context) -> Evidence:
    """Every local step of the runs of eq-4.14 at x = x*: both sides of (4.18) in float64, each divided by a scale of
    its rounding error, compared for equality."""
    points = Points()
    for p in paths(ctx):
        R, K = p.ybar.shape[:2]
        for r in range(R):
            for k in range(K - 1):
                lhs, rhs = _claim413_terms(
                    p.inst.mirror,
                    p.inst.x_star,
                    p.ybar[r, k],
                    p.ybar[r, k + 1],
                    p.g[r, k].mean(axis=1),
                    p.eta,
                    p.t(r, k),
                    p.t(r, k + 1),
                )
                add_entries(points, lhs, rhs, instance=p.inst.name, eta=p.label, r=r, k=k)
    return points.evidence("==", atol=SCALED_ROUNDING, witness=path_witness(ctx))


@claim(
    f"{PAPER}/claim-4.13:arbitrary",
    source="Claim 4.13, eq. (4.18); its proof never uses optimality of x*",
    statement="Extended: (4.18) with x* replaced by an arbitrary x in dom psi and/or gbar by an arbitrary vector "
    "(ybar^(r,k+1) := ybar^(r,k) - eta_c gbar), and with arbitrary ybar, t = eta_c(rK + k) and eta_c > 0. Variants: "
    "(a) random x, the runs' states and averaged gradients; (b) x*, the runs' states, random gbar ~ N(0, 4 I); (c) "
    "random x, ybar ~ N(0, 4 I), gbar ~ N(0, 4 I), eta_c L ~ U(0, 2), rK + k ~ U{0..50}; all five instances. Same "
    "normalisation and tolerance as claim-4.13.",
    scope="printed",
    expect="holds",
)
def claim_413_arbitrary(ctx: Context) -> Evidence:
    """(4.18) at random points of dom psi, random averaged gradients and random (ybar, t, eta_c) on the five
    instances, along the runs of eq-4.14 and off them; both sides in float64, normalised as in claim-4.13."""
    rng = ctx.rng()
    points = Points()
    for p in paths(ctx):
        inst = p.inst
        R, K, S = p.ybar.shape[0], p.ybar.shape[1], p.ybar.shape[2]
        for r in range(R):
            for k in range(K - 1):
                t0, t1, yb0 = p.t(r, k), p.t(r, k + 1), p.ybar[r, k]
                x = _in_dom(inst, rng, (S,))
                terms = _claim413_terms(inst.mirror, x, yb0, p.ybar[r, k + 1], p.g[r, k].mean(1), p.eta, t0, t1)
                add_entries(points, *terms, instance=inst.name, variant="(a) random x, run's gbar")
                gbar = 2.0 * rng.standard_normal((S, inst.dim))
                terms = _claim413_terms(inst.mirror, inst.x_star, yb0, yb0 - p.eta * gbar, gbar, p.eta, t0, t1)
                add_entries(points, *terms, instance=inst.name, variant="(b) x*, random gbar")
    for inst in instances(ctx).values():
        for _ in range(20 if ctx.quick else 200):
            x = _in_dom(inst, rng, (4,))
            y, gbar = 2.0 * rng.standard_normal((2, 4, inst.dim))
            eta, j = float(rng.uniform(0, 2)) / inst.L, int(rng.integers(0, 51))
            terms = _claim413_terms(inst.mirror, x, y, y - eta * gbar, gbar, eta, eta * j, eta * (j + 1))
            add_entries(points, *terms, instance=inst.name, variant="(c) random x, ybar, gbar, t, eta_c")
    return points.evidence("==", atol=SCALED_ROUNDING, witness=path_witness(ctx))


# --- Claim 4.14, (4.21) and the proof steps ------------------------------------------------------------------------
def _steps(p: Path):
    """Yield ``(r, k, yb0, xh0, xh1, y_m, x_m, g_m)`` for every local step of a path."""
    R, K = p.g.shape[:2]
    for r in range(R):
        for k in range(K):
            yield r, k, p.ybar[r, k], p.hat[r, k], p.hat[r, k + 1], p.y[r, k], p.x[r, k], p.g[r, k]


@claim(
    f"{PAPER}/claim-4.14",
    source="Claim 4.14, eq. (4.19)",
    statement="Pathwise: F(x^^(r,k+1)) - F(x*) <= <gbar, x^^(r,k+1) - x*> + <(1/M) sum_m (grad F_m(x_m) - grad "
    "f(x_m; xi_m)), x^^(r,k+1) - x*> + L ||x^^(r,k+1) - x^^(r,k)||^2 + (L/M) sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2 at "
    "every local step of the runs of eq-4.14 (eta_c L in {1/4, 1/16}), norms and L of each instance's geometry. "
    "Measured: both sides / (|LHS| + |RHS|), tolerance 1e-10.",
    scope="printed",
    expect="holds",
)
def claim_414(ctx: Context) -> Evidence:
    """Every local step of the runs of eq-4.14, in each instance's norm and L: both sides in float64, divided by
    |LHS| + |RHS|."""
    points = Points()
    for p in paths(ctx):
        inst = p.inst
        F = inst.problem.value
        for r, k, yb0, xh0, xh1, ym, xm, gm in _steps(p):
            gbar = gm.mean(axis=1)
            noise = (inst.problem.client_grad(xm) - gm).mean(axis=1)
            disc = np.mean(inst.dual(yb0[:, None, :] - ym) ** 2, axis=1)
            lhs = F(xh1) - F(inst.x_star)
            rhs = (
                inner(gbar, xh1 - inst.x_star)
                + inner(noise, xh1 - inst.x_star)
                + inst.L * inst.norm(xh1 - xh0) ** 2
                + inst.L * disc
            )
            scale = np.abs(lhs) + np.abs(rhs) + 1e-300
            add_entries(points, lhs / scale, rhs / scale, instance=inst.name, eta=p.label, r=r, k=k)
    # float64 rounding of both sides over |LHS| + |RHS|, whose terms (F values, inner products) nearly cancel
    return points.evidence("<=", atol=1e-10, witness=path_witness(ctx))


@claim(
    f"{PAPER}/eq-4.21",
    source="eq. (4.21) (from Prop. C.10 and eta_c <= 1/(4L))",
    statement="Pathwise for eta_c <= 1/(4L): -D~_{h_{r,k}}(x^^(r,k+1), ybar^(r,k)) + eta_c L ||x^^(r,k+1) - "
    "x^^(r,k)||^2 <= -(1/4) ||x^^(r,k+1) - x^^(r,k)||^2 at every local step of the runs of eq-4.14 (eta_c L in "
    "{1/4, 1/16}; all five instances). Measured: LHS / ||x^^(r,k+1) - x^^(r,k)||^2 against -1/4 (steps with "
    "x^^(r,k+1) = x^^(r,k) skipped), tolerance 1e-9 (D~ is a difference of O(1) numbers).",
    scope="printed",
    expect="holds",
)
def eq_421(ctx: Context) -> Evidence:
    """Every local step of the runs of eq-4.14 (five instances): the left side over the squared step, in float64,
    against -1/4; steps with a zero step are skipped and counted."""
    points = Points()
    skipped = 0
    for p in paths(ctx):
        inst = p.inst
        for r, k, yb0, xh0, xh1, *_ in _steps(p):
            step2 = inst.norm(xh1 - xh0) ** 2
            lhs = -inst.mirror.generalized_bregman(xh1, yb0, p.t(r, k)) + p.eta * inst.L * step2
            keep = step2 > 0
            skipped += int(np.sum(~keep))
            add_entries(points, lhs[keep] / step2[keep], -0.25, instance=inst.name, eta=p.label, r=r, k=k)
    return points.evidence(
        "<=",
        atol=1e-9,  # rounding of D~, a difference of O(1) numbers, over the squared step
        witness={
            **path_witness(ctx),
            "skipped (zero step)": skipped,
            "tightness": "with psi = 0 and Euclidean h, D~ = ||step||^2/2 exactly, so eta_c L = 1/4 gives equality",
        },
    )


@claim(
    f"{PAPER}/claim-4.14:step-triangle",
    source="proof of Claim 4.14 (the triangle step)",
    statement="Pathwise: ||x^^(r,k+1) - x_m^(r,k)||^2 <= 2 ||x^^(r,k+1) - x^^(r,k)||^2 + 2 ||x^^(r,k) - x_m^(r,k)||^2 "
    "for every client and local step of the runs of eq-4.14, in each instance's primal norm. Measured: LHS / RHS "
    "against 1, tolerance 1e-12.",
    scope="printed",
    expect="holds",
)
def claim_414_triangle(ctx: Context) -> Evidence:
    """Every client and local step of the runs of eq-4.14, in each instance's primal norm: LHS / RHS in float64
    against 1."""
    points = Points()
    for p in paths(ctx):
        n = p.inst.norm
        for _, _, _, xh0, xh1, _, xm, _ in _steps(p):
            lhs = n(xh1[:, None] - xm) ** 2
            rhs = 2 * n(xh1 - xh0)[:, None] ** 2 + 2 * n(xh0[:, None] - xm) ** 2
            keep = rhs > 0
            add_entries(points, lhs[keep] / rhs[keep], 1.0, instance=p.inst.name, eta=p.label)
    return points.evidence("<=", atol=SCALED_ROUNDING, witness=path_witness(ctx))


@claim(
    f"{PAPER}/lem-4.9:step-jensen",
    source="proof of Lemma 4.9 (the Jensen step)",
    statement="Pathwise (hence in expectation): Phi((1/(KR')) sum_{r<R'} sum_{k=1..K} x^^(r,k)) - Phi(x*) <= "
    "(1/(KR')) sum_{r<R'} sum_{k=1..K} (Phi(x^^(r,k)) - Phi(x*)) for every R' <= R on the runs of eq-4.14. "
    "Tolerance 1e-9 relative.",
    scope="printed",
    expect="holds",
)
def lem49_jensen(ctx: Context) -> Evidence:
    """The shadow primals of the runs of eq-4.14: Phi-gap of the running ergodic average against the running mean of
    the Phi-gaps, for every prefix of rounds (float64)."""
    points = Points()
    for p in paths(ctx):
        inst = p.inst
        R, K = p.hat.shape[0], p.hat.shape[1] - 1
        counts = K * np.arange(1, R + 1)[:, None]
        avg = np.cumsum(p.hat[:, 1:].sum(axis=1), axis=0) / counts[..., None]
        mean_gap = np.cumsum(inst.phi_gap(p.hat[:, 1:]).sum(axis=1), axis=0) / counts
        for r in range(R):
            add_entries(points, inst.phi_gap(avg[r]), mean_gap[r], instance=inst.name, eta=p.label, R=r + 1)
    # atol: an absolute floor for gaps that vanish (Phi-gaps of O(1) values, rounded)
    return points.evidence("<=", rtol=ROUNDING, atol=1e-12, witness=path_witness(ctx))
