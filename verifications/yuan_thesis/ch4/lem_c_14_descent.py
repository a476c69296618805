"""Lemma C.14 (the one-round inequality of the proof of Theorem C.13) and its smooth-convex step, pathwise along
FedDualAvg.

Instances, noise and runs: ``rates_instances`` (its docstring).

Printed objects: Theorem C.13, Lemma C.14 and its proof.

Witness search: one round from an arbitrary state on ``d = 2`` quadratics (:func:`_c14_closed_form`).
"""

from __future__ import annotations

from itertools import product

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.regularizers import L1, L2Ball

from .rates_instances import KINDS, NOISE, PAPER, D, Instance, instance, instances, mc_evidence, run_rng

C14_ATOL = 1e-12  # absolute: rounding of the O(1) Bregman and Phi differences whose (L/2)-term side can vanish


def _points(inst: Instance, n: int) -> np.ndarray:
    """``x*`` and ``n`` seeded points of ``dom psi`` (Gaussian; scaled into the ball for the constrained instance)."""
    rng = run_rng(f"points:{inst.kind}:{inst.M}")
    z = rng.standard_normal((n, D))
    if isinstance(inst.mirror.psi, L2Ball):
        z *= inst.mirror.psi.radius * rng.random((n, 1)) / np.linalg.norm(z, axis=1, keepdims=True)
    return np.vstack([inst.x_star, z])


@family(f"{PAPER}/ch4-rates-run:c14")
def _lemma_c14(fam: Family, kind: str, M: int, K: int, s: float, eta_c: float, eta_s: float, R: int, S: int) -> dict:
    """Lemma C.14 and its smooth-convex step (in its proof) along ``S`` FedDualAvg paths, every round
    ``r < R``, at ``x`` = ``x*`` and 3 seeded points of ``dom psi``: arrays (R, S, 4), each inequality rearranged so
    that its right side is the nonnegative quadratic term:

    * ``lemma``: ``D~_{h_{r+1,0}}(x, ybar^{(r+1,0)}) - D~_{h_{r,0}}(x, ybar^{(r,0)}) + D~_{h_{r,0}}(xhat^{(r+1,0)},
      ybar^{(r,0)}) + eta K (Phi(xhat^{(r+1,0)}) - Phi(x)) - eta K <grad F(xhat^{(r,0)}) - gbar, xhat^{(r+1,0)} - x>``
      against ``(L/2) eta K ||xhat^{(r+1,0)} - xhat^{(r,0)}||^2``;
    * ``smooth``: ``F(xhat^{(r+1,0)}) - F(x) - <grad F(xhat^{(r,0)}), xhat^{(r+1,0)} - x>`` against
      ``(L/2) ||xhat^{(r+1,0)} - xhat^{(r,0)}||^2``.


    ``h_{r,0} = h + eta~^{(r,0)} psi`` with ``eta~^{(r,0)} = eta_s eta_c r K`` (the definition of eta~ in Appendix C)
    and ``xhat^{(r,0)} = x^{(r,0)}``."""
    inst = instance(fam.profile, kind, M, s)
    params = fco.CompositeParams("FedDualAvg", eta_c, K, M, eta_s=eta_s)
    rng = fam.rng()
    X = _points(inst, 3)[:, None, :]  # (4, 1, d): broadcast against replicas
    state = fco.init(inst.x0, inst.mirror, params, S, dim=D)
    eta_K = eta_s * eta_c * K
    out = {k: np.empty((R, S, X.shape[0])) for k in ("lemma", "lemma bound", "smooth", "smooth bound")}
    gen = inst.mirror.generalized_bregman
    for r in range(R):
        new, tr = fco.round(state, inst.oracle, inst.mirror, params, rng, trace=True)
        t0, t1 = fco.eta_tilde(params, r, 0), fco.eta_tilde(params, r + 1, 0)
        x0, x1, y0, y1 = state.x[None], new.x[None], state.y[None], new.y[None]
        gbar = tr.g.mean(axis=(0, 2))[None]  # (1/(MK)) sum_m sum_k g_m^(r,k)
        grad = inst.problem.grad(state.x)[None]  # grad F(xhat^(r,0))
        quad = inst.L / 2 * inst.primal_norm(x1 - x0) ** 2
        out["lemma"][r] = (
            gen(X, y1, t1)
            - gen(X, y0, t0)
            + gen(x1, y0, t0)
            + eta_K * (inst.phi(x1) - inst.phi(X))
            - eta_K * np.sum((grad - gbar) * (x1 - X), axis=-1)
        ).T
        out["lemma bound"][r] = np.broadcast_to(eta_K * quad, (X.shape[0], S)).T
        out["smooth"][r] = (inst.problem.value(x1) - inst.problem.value(X) - np.sum(grad * (x1 - X), axis=-1)).T
        out["smooth bound"][r] = np.broadcast_to(quad, (X.shape[0], S)).T
        state = new
    return out


def _c14_entries(ctx: Context, left: str, right: str) -> tuple[Points, dict]:
    """Pathwise entries (worst over rounds, replicas and the 4 points x) for every instance and step size."""
    entries = Points()
    R, S = (30, 8) if ctx.quick else (200, 32)
    for kind, (M, K) in product(KINDS, ((2, 2), (8, 5))):
        s = NOISE
        inst = instance(ctx, kind, M, s)
        eta = 1 / (4 * K * inst.L)
        for eta_c_L in (eta * inst.L, 1e-2):  # eta_s = 1, and a small client step with eta_s = eta/eta_c
            eta_c = eta_c_L / inst.L
            out = _lemma_c14(ctx, kind, M, K, s, eta_c, eta / eta_c, R, S)
            slack = out[right] - out[left]
            i = np.unravel_index(np.argmin(slack), slack.shape)
            entries.add(
                out[left][i],
                out[right][i],
                kind=kind,
                M=M,
                K=K,
                sigma=inst.sigma,
                eta_c_L=eta_c_L,
                eta_s=eta / eta_c,
                r=int(i[0]),
                x=["x*", "random 1", "random 2", "random 3"][i[2]],
            )
    witness = {
        "setting": f"FedDualAvg, eta = eta_s eta_c = 1/(4KL), {R} rounds, {S} replicas (every path checked), "
        "eta_c = eta (eta_s = 1) and eta_c = 0.01/L",
        "instances": instances(ctx, KINDS),
    }
    return entries, witness


def _c14_closed_form(which: str):
    """``evaluate`` of the witness search of Lemma C.14 (``which = "lemma"``) and of its smooth-convex step
    (``"smooth"``) at one round from an arbitrary state: ``F(x) = x'Hx/2 - b'x`` in ``d = 2`` with ``H = U diag(1,
    1/kappa) U'`` (``L = 1``), Euclidean ``h``, ``psi = lam ||.||_1`` or the indicator of the unit l2 ball (``ball``),
    server dual ``ybar^(r,0)`` and averaged gradient ``gbar`` (the mean of the ``MK`` stochastic gradients: any vector)
    free, ``ybar^(r+1,0) = ybar^(r,0) - eta K gbar``, ``xhat^(r,0) = grad h_(r,0)^*(ybar^(r,0))`` with ``h_(r,0) = h +
    eta r K psi``, and a point ``x`` of ``dom psi``; both sides from the library's mirror map, each inequality
    rearranged as in the grid (right side the (L/2)-term), divided by ``|left| + right`` (:func:`_scaled`)."""

    def evaluate(kappa, theta, b, phi_b, y, phi_y, g, phi_g, x, phi_x, lam, ball, r, eta_K):
        U = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
        H = U @ np.diag([1.0, 1.0 / kappa]) @ U.T
        unit = lambda a: np.array([np.cos(a), np.sin(a)])  # noqa: E731
        bvec = b * unit(phi_b)
        mirror = fco.Euclidean(L2Ball(1.0) if ball else L1(lam))
        F = lambda z: 0.5 * z @ H @ z - bvec @ z  # noqa: E731
        y0 = y * unit(phi_y)
        gbar = g * unit(phi_g)
        point = (min(x, 1.0) if ball else x) * unit(phi_x)  # in dom psi
        t0, t1 = eta_K * r, eta_K * (r + 1)
        y1 = y0 - eta_K * gbar
        x0, x1 = mirror(y0, t0), mirror(y1, t1)
        quad = 0.5 * float(np.sum((x1 - x0) ** 2))
        grad = H @ x0 - bvec
        if which == "smooth":
            return _scaled(F(x1) - F(point) - float(grad @ (x1 - point)), quad)
        gen = mirror.generalized_bregman
        phi = lambda z: F(z) + float(mirror.psi_value(z))  # noqa: E731
        lhs = (
            gen(point, y1, t1)
            - gen(point, y0, t0)
            + gen(x1, y0, t0)
            + eta_K * (phi(x1) - phi(point))
            - eta_K * float((grad - gbar) @ (x1 - point))
        )
        return _scaled(float(lhs), eta_K * quad)

    return evaluate


def _scaled(lhs: float, rhs: float) -> tuple[float, float]:
    """Both sides over ``|lhs| + rhs``: the judge's slack is unchanged where ``rhs > 0``, and a round with no primal
    step (``rhs = 0``, ``lhs = -eta K D_F(x, xhat) <= 0``) reads -1 <= 0 instead of a degenerate ``-0 <= 0``."""
    scale = abs(lhs) + rhs
    return (lhs / scale, rhs / scale) if scale > 0 else (0.0, 0.0)


C14_DOMAIN = Domain(
    {
        "kappa": Axis(1.0, 1e4),
        "theta": Axis(0.0, np.pi, log=False),
        "b": Axis(1e-3, 1e3),
        "phi_b": Axis(0.0, 2 * np.pi, log=False),
        "y": Axis(1e-3, 1e3),
        "phi_y": Axis(0.0, 2 * np.pi, log=False),
        "g": Axis(1e-3, 1e3),
        "phi_g": Axis(0.0, 2 * np.pi, log=False),
        "x": Axis(1e-3, 1e3),
        "phi_x": Axis(0.0, 2 * np.pi, log=False),
        "lam": Axis(1e-3, 10.0),
        "ball": Axis(0, 1, log=False, integer=True),
        "r": Axis(0, 10_000, log=False, integer=True),
        "eta_K": Axis(1e-4, 0.25),
    },
    note="Lemma C.14 is deterministic (pathwise) in Theorem C.13's setting (Assumption 4.1, eta = eta_s eta_c <= "
    "1/(4KL)) for every state F^(r,0), every realisation of the round's gradients and every x in dom psi: L = 1 by "
    "scaling, F a convex quadratic with cond(H) from 1 to 1e4 at any orientation and any linear term in d = 2, "
    "Euclidean h, psi = lam||.||_1 or the unit-ball indicator, any server dual, any averaged gradient gbar (the "
    "average of MK stochastic gradients can be any vector), any round r (psi-weight eta r K) and eta K in (0, 1/4]. "
    "Left out: non-Euclidean h and non-quadratic F (the grid runs the l1 geometry and logistic losses) and d > 2.",
)


def _searched(ctx: Context, which: str) -> Evidence:
    """The grid's worst entries per configuration plus the witness search over :data:`C14_DOMAIN`."""
    entries, witness = _c14_entries(ctx, which, f"{which} bound")
    entries.search(_c14_closed_form(which), C14_DOMAIN, "<=", ctx, scale=8)
    return mc_evidence(entries, witness, atol=C14_ATOL)


_C14_GRID = (
    "pathwise along FedDualAvg (every replica, every round r < 30; 200 in full) on logistic-l1, quadratic-ball "
    "(Euclidean h) and logistic-l1-pnorm (l1 norm, h = d^(2/q)||x||_p^2/(2(p-1))), (M, K) in {(2,2), (8,5)}, "
    "sigma = 0.5 (Rademacher), eta = eta_s eta_c = 1/(4KL) with eta_s = 1 and with eta_c = 0.01/L, at x = x* and 3 "
    "seeded points of dom psi; "
    "each inequality rearranged so that its right side is the nonnegative (L/2)-term; worst entry per configuration; "
    "tolerance 1e-9 relative, 1e-12 absolute; then a witness search over quadratics, states, averaged gradients, "
    "points x, rounds r and eta K in (0, 1/4L] (d = 2, Euclidean h, l1 or a ball)"
)


@claim(
    f"{PAPER}/lem-c.14",
    source="Lemma C.14",
    statement="D~_{h_{r+1,0}}(x, ybar^(r+1,0)) - D~_{h_{r,0}}(x, ybar^(r,0)) <= -D~_{h_{r,0}}(xhat^(r+1,0), "
    "ybar^(r,0)) - eta K (Phi(xhat^(r+1,0)) - Phi(x)) + (L/2) eta K ||xhat^(r+1,0) - xhat^(r,0)||^2 + eta K "
    f"<grad F(xhat^(r,0)) - (1/(MK)) sum_m sum_k grad f(x_m^(r,k); xi_m^(r,k)), xhat^(r+1,0) - x>; {_C14_GRID}.",
    scope="printed",
    expect="holds",
)
def lem_c14(ctx: Context) -> Evidence:
    """Noisy FedDualAvg paths on the three certified instances, at x* and 3 seeded points: the left side of the
    rearranged inequality at the worst round, replica and point per configuration (pathwise, exact values), against
    its (L/2)-term; then the witness search (:func:`_c14_closed_form`)."""
    return _searched(ctx, "lemma")


@claim(
    f"{PAPER}/lem-c.14:step-smooth-convex",
    source="Proof of Lemma C.14 ('by smoothness and convexity of F')",
    statement="F(xhat^(r+1,0)) <= F(x) + <grad F(xhat^(r,0)), xhat^(r+1,0) - x> + (L/2)||xhat^(r+1,0) - xhat^(r,0)||^2 "
    f"in the norm of Assumption 4.1 with its certified L; {_C14_GRID}.",
    scope="printed",
    expect="holds",
)
def lem_c14_step_smooth_convex(ctx: Context) -> Evidence:
    """The paths and points of lem-c.14: F(xhat^(r+1,0)) - F(x) - <grad F(xhat^(r,0)), xhat^(r+1,0) - x>, pathwise,
    worst entry per configuration against (L/2)||xhat^(r+1,0) - xhat^(r,0)||^2 in the certified norm and L; then the
    witness search (:func:`_c14_closed_form`)."""
    return _searched(ctx, "smooth")
