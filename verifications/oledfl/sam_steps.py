"""The SAM step of Algorithm 1 (OledFL-SAM), its reduction to OledFL-SGD, and the size of SAM's effect in lambda.

* ``alg-1:sam-step``: the ascent point ``x̆ = x + lambda g/||g||`` of the library (:func:`~fedtheory.algorithms.
  decentralized.sam_point`) is at distance lambda from ``x`` when ``g != 0``, equals ``x`` when ``lambda = 0``, and the
  guard for ``g = 0`` returns ``x`` (no NaN).
* ``alg-1:sam-zero-radius``: OledFL-SAM with ``lambda = 0`` is OledFL-SGD bit for bit (Remark 1: "lambda = 0 gives
  OledFL-SGD"), on the stochastic stand-in of :mod:`.stability_runs` (minibatch 1: both SAM queries see the sample).
* ``remark-1:sam-displacement`` and ``remark-1:sam-term`` (probes): on heterogeneous quadratics with exact gradients,
  the deterministic limit of DFedSAM moves away from DFedAvg's by a first-order amount in lambda, and so does the floor
  ``||grad f(x̄^∞)||^2`` (the T -> oo value of Theorem 1's left-hand side), against Theorem 1's ``phi lambda^2``.

Quadratic instance (our construction): m = 6 clients on the ring 1/3, d = 3, ``f_i = x'A_i x/2 - b_i'x`` with
``A_i = Q_i diag(U(1, 1.5)) Q_i'`` (random rotations) and ``b_i ~ N(0, 4I)``, seeded; K = 2, eta = 0.05 (below Theorem
1's step cap and with kappa = 1/2 - 18 eta^2 K^2 L^2 > 0 at B = 1). DFedAvg's limit is the exact fixed point of
:class:`~fedtheory.exact.gossip_linear.LinearLookahead`; DFedSAM's is the library's run started there and iterated
until a round moves the models by at most ``STALL`` (the error left is below ``rho/(1 - rho)`` times that move, rho the
measured contraction, recorded).

Printed objects: Algorithm 1, Remark 1, Theorem 1 (its lambda^2 term).
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import decentralized as dec
from fedtheory.exact.gossip_linear import LinearLookahead
from fedtheory.fit import loglog_slope
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.tolerances import ROUNDING, SHORT_ROUNDING
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.topology import ring

from . import printed as P
from .stability_runs import SameIndexOracle, SigmoidClients, instance

PAPER = "oledfl"
M, D, K, ETA = 6, 3, 2, 0.05
LAMBDAS = np.logspace(-4, -2, 9)
STALL = 1e-15  # a round that moves the models by at most this ends the run (the rounding floor of O(1) iterates)
MAX_ROUNDS = 5000


# --------------------------------------------------------------------------------------------------------------------
# The ascent point
# --------------------------------------------------------------------------------------------------------------------
def _ascent_entries(ctx: Context, perturb: float = 0.0) -> Evidence:
    """``||x̆ - x||`` against lambda (``g != 0``) and 0 (``g = 0`` or ``lambda = 0``) on seeded points: x ~ U[-1, 1]^3,
    g of norm 10^U(-100, 100) in random directions, every fourth row g = 0, lambda in {0, 0.01, 0.1, 1, 10}.
    ``perturb`` scales the radius by (1 + perturb) (the negative control). Relative rounding of ``x + lambda u - x``
    is below 4e-14 for |x| <= 1 and lambda >= 0.01."""
    rng = ctx.rng()
    n = 64 if ctx.quick else 4096
    x = rng.uniform(-1, 1, (n, D))
    g = rng.standard_normal((n, D))
    g *= 10.0 ** rng.uniform(-100, 100, (n, 1)) / np.linalg.norm(g, axis=-1, keepdims=True)
    g[::4] = 0.0
    measured, bound, kinds, radii = [], [], [], []
    for lam in (0.0, 0.01, 0.1, 1.0, 10.0):
        step = dec.sam_point(x, g, lam * (1 + perturb))
        gap = np.linalg.norm(step - x, axis=-1)
        zero = ~np.any(g, axis=-1)
        measured.append(gap)
        bound.append(np.where(zero, 0.0, lam))
        kinds.append(np.where(zero, "g = 0", "lambda = 0" if lam == 0 else "g != 0"))
        radii.append(np.full(n, lam))
    return Evidence(
        np.concatenate(measured),
        np.concatenate(bound),
        "==",
        rtol=SHORT_ROUNDING,
        grid={"case": np.concatenate(kinds), "lambda": np.concatenate(radii)},
    )


@claim(
    f"{PAPER}/alg-1:sam-step",
    source="Algorithm 1",
    statement="the SAM ascent point x̆ = x + lambda g/||g|| satisfies ||x̆ - x|| = lambda when g != 0 and x̆ = x when "
    "lambda = 0; the guard for g = 0 returns x (finite)",
    scope="printed",
    expect="holds",
)
def alg_1_sam_step(ctx: Context) -> Evidence:
    """Instance: seeded points and gradients of norms from 1e-100 to 1e100 (:func:`_ascent_entries`). Reference: the
    radius itself (rounding of the difference x̆ - x covered by SHORT_ROUNDING); x̆ = x exactly where expected (a NaN
    would make the verdict an error)."""
    ev = _ascent_entries(ctx)
    ev.witness = {
        "implementation": "fedtheory.algorithms.decentralized.sam_point",
        "negative control": negative_control(_ascent_entries(ctx, 1e-9), "the radius scaled by 1 + 1e-9"),
    }
    return ev


# --------------------------------------------------------------------------------------------------------------------
# lambda = 0 is OledFL-SGD
# --------------------------------------------------------------------------------------------------------------------
def _sgd_sam_difference(ctx: Context, radius: float) -> float:
    """Max |x_SAM - x_SGD| over 10 rounds of OledFL (beta = 0.2, K = 5, eta_t = 0.5/t) on the first 8 pairs of the
    stability stand-in, the same step seeds for both."""
    inst = instance(ctx)
    oracle = SameIndexOracle(SigmoidClients(np.concatenate([inst.v[:8], inst.neighbours[:8]])))
    W = ring(inst.v.shape[1])
    paths = []
    for sam in (None, radius):
        rng = np.random.default_rng(ctx.seed)
        state = dec.init(np.zeros(inst.v.shape[-1]), inst.v.shape[1], 16)
        xs = []
        for t in range(1, 11):
            state = dec.round(state, oracle, W, dec.oledfl(0.5 / t, 5, 0.2, sam_radius=sam), rng)
            xs.append(state.x)
        paths.append(np.stack(xs))
    return float(np.max(np.abs(paths[1] - paths[0])))


@claim(
    f"{PAPER}/alg-1:sam-zero-radius",
    source="Algorithm 1; Remark 1 ('lambda = 0 ... OledFL-SGD')",
    statement="OledFL-SAM with lambda = 0 produces OledFL-SGD's iterates bit for bit (stochastic minibatch-1 runs, "
    "the same sample streams)",
    scope="printed",
    expect="holds",
)
def alg_1_sam_zero_radius(ctx: Context) -> Evidence:
    """Instance: 8 data-set pairs of the stability stand-in (sigmoid loss, m = 10, ring, minibatch 1), OledFL with
    beta = 0.2, K = 5, 10 rounds. Reference: OledFL-SGD's run, compared exactly (max |difference| == 0)."""
    control = Evidence(_sgd_sam_difference(ctx, 1e-12), 0.0, "==")
    return Evidence(
        _sgd_sam_difference(ctx, 0.0),
        0.0,
        "==",
        witness={"negative control": negative_control(control, "lambda = 1e-12 instead of 0")},
    )


# --------------------------------------------------------------------------------------------------------------------
# The size of SAM's effect: deterministic limits on quadratics
# --------------------------------------------------------------------------------------------------------------------
def _limit(oracle: ExactGradient, W, start: np.ndarray, params: dec.DecentralizedParams) -> tuple[np.ndarray, dict]:
    """Iterate the library's rounds from the models ``start`` (m, d) until a round moves them by at most STALL;
    returns x̄ and the record (rounds, last move, contraction estimate, error bound rho/(1 - rho) x last move)."""
    state = dec.DecentralizedState(start[None].copy(), start[None].copy())
    moves = []
    for _ in range(MAX_ROUNDS):
        new = dec.round(state, oracle, W, params, None)
        moves.append(float(np.max(np.abs(new.x - state.x))))
        state = new
        if moves[-1] <= STALL:
            break
    else:
        raise RuntimeError(f"DFedSAM did not settle in {MAX_ROUNDS} rounds (last move {moves[-1]:.3g})")
    tail = np.asarray(moves[len(moves) // 2 :])
    tail = tail[tail > 10 * STALL]
    rho = float(np.exp(np.mean(np.diff(np.log(tail))))) if tail.size > 2 else 0.0
    return state.mean[0], {"rounds": len(moves), "last move": moves[-1], "rho": rho, "error": rho / (1 - rho) * STALL}


@family(f"{PAPER}/sam-limits")
def sam_limits(fam: Family) -> dict:
    """DFedAvg's and DFedSAM's deterministic limits x̄^∞ on the quadratic instance (module docstring) for every
    lambda of :data:`LAMBDAS`, the floors ||grad f(x̄^∞)||^2 and the constants of Theorem 1's lambda^2 term."""
    rng = fam.rng()
    Q = np.linalg.qr(rng.standard_normal((M, D, D)))[0]
    A = np.einsum("mij,mj,mkj->mik", Q, rng.uniform(1.0, 1.5, (M, D)), Q)
    b = 2 * rng.standard_normal((M, D))
    W = ring(M)
    linear = LinearLookahead(A, b, W.dense, ETA, K, 0.0)
    oracle = ExactGradient(FederatedQuadratic(A, b))
    start = linear.fixed_models
    avg, check = _limit(oracle, W, start, dec.dfedavg(ETA, K))
    if np.max(np.abs(avg - linear.output)) > 1e-13:
        raise RuntimeError("the library's DFedAvg run leaves the exact fixed point")
    A_mean, b_mean = A.mean(axis=0), b.mean(axis=0)

    def floor(x):
        return float(np.sum((A_mean @ x - b_mean) ** 2))

    sam, records = [], []
    for lam in LAMBDAS:
        x, record = _limit(oracle, W, start, dec.dfedsam(ETA, K, float(lam)))
        sam.append(x)
        records.append(record)
    L = float(np.max(np.linalg.eigvalsh(A)))
    return {
        "displacement": np.linalg.norm(np.stack(sam) - linear.output, axis=-1),
        "floor effect": np.array([floor(x) - floor(linear.output) for x in sam]),
        "floor": floor(linear.output),
        "L": L,
        "records": records,
        "DFedAvg check": check,
        "local gradient norms at the limit": np.linalg.norm(
            np.einsum("mij,mj->mi", A, linear.fixed_start) - b, axis=-1
        ).tolist(),
    }


QUAD = (
    f"m = {M}, ring 1/3, d = {D}, f_i = x'A_i x/2 - b_i'x, eig(A_i) ~ U(1, 1.5), b_i ~ N(0, 4I) (seeded), K = {K}, "
    f"eta = {ETA}, exact gradients, lambda in [1e-4, 1e-2] (9 log-spaced)"
)


def leading_exponent(lambdas: np.ndarray, values: np.ndarray, rel_error: float) -> tuple[float, float, np.ndarray]:
    """The exponent p of ``values ~ a lambda^p (1 + O(lambda))``: the pairwise log-log slopes ``s_j`` at ``mu_j =
    sqrt(lambda_j lambda_{j+1})`` are ``p + b mu_j + O(mu^2)``, so Richardson's extrapolation of the two smallest gives
    p to O(mu^2). Returns ``(p, half-width, pairwise slopes)``: the half-width is the gap to the same extrapolation one
    pair up plus the effect of a relative error ``rel_error`` of every value."""
    slopes = np.diff(np.log(values)) / np.diff(np.log(lambdas))
    mu = np.sqrt(lambdas[1:] * lambdas[:-1])

    def extrapolate(j: int) -> float:
        return float((slopes[j] * mu[j + 1] - slopes[j + 1] * mu[j]) / (mu[j + 1] - mu[j]))

    rounding = 2 * rel_error / np.log(lambdas[1] / lambdas[0]) * (mu[0] + mu[1]) / (mu[1] - mu[0])
    return extrapolate(0), abs(extrapolate(0) - extrapolate(1)) + float(rounding), slopes


@claim(
    f"{PAPER}/remark-1:sam-displacement",
    source="Remark 1; Algorithm 1",
    statement="probe: ||x̄^∞_DFedSAM(lambda) - x̄^∞_DFedAvg|| is first order in lambda: the exponent of its leading "
    "term (pairwise log-log slopes on lambda in [1e-4, 1e-2], extrapolated to lambda -> 0) is 1",
    scope="outside-hypotheses",
    expect="holds",
)
def remark_1_sam_displacement(ctx: Context) -> Evidence:
    """Instance: the quadratic instance (module docstring). Reading: at a heterogeneous limit the local gradients are
    non-zero, so the SAM perturbation lambda A_i g/||g|| is first order in lambda. Reference: deterministic limits
    (DFedAvg exact, DFedSAM iterated to its rounding floor); :func:`leading_exponent` with the runs' error bound. The
    least-squares slope over the whole window and its 95% t-interval are recorded: on deterministic points that
    interval measures the window's departure from a power law (the second-order term), not sampling noise."""
    lim = sam_limits(ctx)
    disp = lim["displacement"]
    rel = max(r["error"] for r in lim["records"]) / float(np.min(disp))
    p, half, slopes = leading_exponent(LAMBDAS, disp, rel)
    fit = loglog_slope(LAMBDAS, disp)
    control = Evidence(p, 2.0, "==", interval=(p - half, p + half), rtol=ROUNDING)
    return Evidence(
        p,
        1.0,
        "==",
        interval=(p - half, p + half),
        rtol=ROUNDING,
        witness={
            "instance": QUAD,
            "displacement": disp.tolist(),
            "displacement/lambda": (disp / LAMBDAS).tolist(),
            "pairwise slopes": slopes.tolist(),
            "window fit (95% t-interval)": [fit.slope, fit.lo, fit.hi],
            "limits": {"DFedAvg run": lim["DFedAvg check"], "DFedSAM runs": lim["records"]},
            "local gradient norms at DFedAvg's limit": lim["local gradient norms at the limit"],
            "negative control": negative_control(control, "exponent 2 (a second-order effect)"),
        },
    )


@claim(
    f"{PAPER}/remark-1:sam-term",
    source="Remark 1; Theorem 1 (its term phi lambda^2)",
    statement="probe: the change of the deterministic floor ||grad f(x̄^∞)||^2 caused by SAM (lambda against 0) is at "
    "most Theorem 1's phi lambda^2 = (eta L/kappa)(1 + 9K^2 eta L) lambda^2",
    scope="outside-hypotheses",
    expect="fails",
)
def remark_1_sam_term(ctx: Context) -> Evidence:
    """Instance: the quadratic instance (module docstring); kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 at B = 1 (the smallest
    B; a larger B lowers kappa and raises phi). Reading: Theorem 1 bounds the whole left-hand side, not SAM's share of
    it, so this is a probe of how SAM's effect scales, never a verdict on the theorem. Reference: deterministic limits
    (:func:`sam_limits`)."""
    lim = sam_limits(ctx)
    phi = float(P.thm1_phi(K, ETA, lim["L"], P.kappa(ETA, K, lim["L"], 1.0)))
    effect = np.abs(lim["floor effect"])
    return Evidence(
        effect,
        phi * LAMBDAS**2,
        "<=",
        rtol=ROUNDING,
        grid={"lambda": LAMBDAS},
        witness={
            "instance": QUAD,
            "phi": phi,
            "floor at lambda = 0": lim["floor"],
            "log-log slope of the floor effect": loglog_slope(LAMBDAS, effect).slope,
        },
    )
