"""Remark 4.10, the averaging structure: the proximal operator and client averaging do not commute (FedMiD misses the
primal analogue of (4.14), FedDualAvg satisfies (4.14) exactly), and the sanity check of Algorithm 5 (FedMiD with a
constraint is parallel projected SGD with periodic averaging).

Instances: Q-het of ``convex_instances`` (d = 10, M = 4) for the runs; random client points for the operators.

Printed objects: Algorithm 5 and the sanity check after it, (4.14), Remark 4.10.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.regularizers import L1, Box, L1Ball, L2Ball, NuclearNorm, Simplex, soft_threshold

from .convex_instances import FLOOR, NUCLEAR, PAPER, D, draws, q_instances, rel


def _soft_threshold_exact(v: tuple[Fraction, ...], t: Fraction) -> tuple[Fraction, ...]:
    """``S_t(v)`` in exact arithmetic."""
    return tuple((1 if a > 0 else -1) * max(abs(a) - t, Fraction(0)) for a in v)


def noncommutation(prox: Callable, v: np.ndarray) -> np.ndarray:
    """``||avg_m prox(v_m) - prox(avg_m v_m)||_2 / (||avg_m prox(v_m)||_2 + ||prox(avg_m v_m)||_2)`` for client
    points ``v`` of shape (n, M, d)."""
    a, b = prox(v).mean(axis=1), prox(v.mean(axis=1))
    return np.linalg.norm(a - b, axis=-1) / (np.linalg.norm(a, axis=-1) + np.linalg.norm(b, axis=-1) + 1e-300)


@claim(
    f"{PAPER}/remark-4.10",
    source="Remark 4.10",
    statement="The proximal operator and client averaging do not commute: avg_m prox(v_m) != prox(avg_m v_m) for "
    "(i) the toy v_1 = (1, 0.15), v_2 = (1, -0.05), t = 0.1 (soft threshold, exact rationals), and random "
    "client points (M in {2, 3, 5}) for (ii) soft thresholding with entries straddling the threshold, (iii) singular "
    "value thresholding of 3 x 4 matrices, (iv) projection on the l2 ball, (v) on the l1 ball; measured: max over "
    "draws of the relative difference, asserted > 1e-12 (rounding is ~1e-16; linear proxes, psi = 0 and "
    "(lam/2)||.||^2, stay at rounding: witness).",
    scope="printed",
    expect="holds",
)
def remark_410(ctx: Context) -> Evidence:
    """A two-client toy in exact rationals and random client points for four nonlinear proxes: the relative
    difference between the average of the proxes and the prox of the average, which must exceed the rounding floor
    1e-12 (linear proxes, which commute, give the floor in the witness)."""
    v1, v2, t = (Fraction(1), Fraction(3, 20)), (Fraction(1), Fraction(-1, 20)), Fraction(1, 10)
    s1, s2 = _soft_threshold_exact(v1, t), _soft_threshold_exact(v2, t)
    avg_of_prox = tuple((a + b) / 2 for a, b in zip(s1, s2))
    prox_of_avg = _soft_threshold_exact(tuple((a + b) / 2 for a, b in zip(v1, v2)), t)
    toy = max(abs(a - b) for a, b in zip(avg_of_prox, prox_of_avg))
    rng, n = ctx.rng(0), draws(ctx)
    nuclear = NuclearNorm(1.0)
    maps = {
        "soft threshold, t = 0.1": lambda v: soft_threshold(v, 0.1),
        "SVT 3x4, t = 1": lambda v: nuclear.prox(v.reshape(*v.shape[:-1], *NUCLEAR), 1.0).reshape(v.shape),
        "projection on the l2 ball (radius 1)": L2Ball(1.0).project,
        "projection on the l1 ball (radius 1)": L1Ball(1.0).project,
    }
    scale = {"soft threshold, t = 0.1": 0.1, "SVT 3x4, t = 1": 1.0}
    points = Points()
    points.add(float(toy), operator="toy of spec 4.5 (exact): ||avg S_t(v_m) - S_t(avg v_m)||_inf")
    for name, prox in maps.items():
        worst = 0.0
        for M in (2, 3, 5):
            d = 12 if "SVT" in name else D
            v = 3 * scale.get(name, 1.0) * rng.uniform(-1, 1, size=(n, M, d))
            worst = max(worst, float(np.max(noncommutation(prox, v))))
        points.add(worst, operator=name)
    linear = rng.normal(size=(n, 3, D))
    floor = {
        "psi = 0": float(np.max(noncommutation(lambda v: v, linear))),
        "(lam/2)||.||^2, t lam = 0.7": float(np.max(noncommutation(lambda v: v / 1.7, linear))),
    }
    return points.evidence(
        ">",
        bound=FLOOR,
        witness={
            "negative control": negative_control(
                Evidence(list(floor.values()), FLOOR, ">"), "linear proxes (psi = 0, (lam/2)||.||^2), which commute"
            ),
            "toy (exact)": {
                "avg_m S_t(v_m)": [str(a) for a in avg_of_prox],
                "S_t(avg_m v_m)": [str(b) for b in prox_of_avg],
                "supports": "{1, 2} vs {1}",
            },
            "linear proxes (commute; rounding floor)": floor,
        },
    )


def _l2_ball_radius(problem: FederatedQuadratic) -> float:
    """Half the norm of the unconstrained minimiser (the constraint is active)."""
    return 0.5 * float(np.linalg.norm(problem.x_star))


def _runs(problem: FederatedQuadratic) -> dict[str, fco.Euclidean]:
    """The two regularizers of the Remark 4.10 runs: l1 and an active l2-ball constraint."""
    return {
        "psi = 0.3||.||_1": fco.Euclidean(L1(0.3)),
        "psi = l2-ball indicator (radius ||argmin F||/2)": fco.Euclidean(L2Ball(_l2_ball_radius(problem))),
    }


@claim(
    f"{PAPER}/remark-4.10:fedmid",
    source="Remark 4.10 (relation (4.14))",
    statement="FedMiD does not satisfy the primal analogue of (4.14): along deterministic FedMiD on Q-het (eta_s = 1, "
    "eta_c = 0.1/L, K = 5, M = 4, R = 10, x^(0,0) = 0, exact gradients), e_k = ||xbar^(r,k+1) - prox_{eta_c psi}"
    "(xbar^(r,k) - eta_c avg_m g_m^(r,k))|| / ||xbar^(r,k+1)|| is > 1e-12 at some (r, k), for psi = 0.3||.||_1 and "
    "the l2-ball indicator (measured: max over the run; psi = 0 gives rounding only: witness).",
    scope="printed",
    expect="holds",
)
def remark_410_fedmid(ctx: Context) -> Evidence:
    """Deterministic FedMiD on Q-het with l1 and an active l2-ball constraint: the largest relative residual of the
    primal analogue of (4.14) over the run, which must exceed the rounding floor 1e-12 (psi = 0 gives the floor)."""
    problem = q_instances(ctx)["Q-het"]
    oracle = ExactGradient(problem)
    params = fco.CompositeParams("FedMiD", eta_c=0.1 / problem.L, K=5, M=4)
    points, witness = Points(), {}
    for name, mirror in {**_runs(problem), "psi = 0 (control)": fco.Euclidean(None)}.items():
        state, rng = fco.init(np.zeros(problem.dim), mirror, params), ctx.rng(0)
        errors = []
        for _ in range(10):
            state, trace = fco.round(state, oracle, mirror, params, rng, trace=True)
            xbar = trace.x.mean(axis=2)  # (K+1, S, d)
            step = mirror(xbar[:-1] - params.eta_c * trace.g.mean(axis=2), params.eta_c)
            size = np.linalg.norm(xbar[1:], axis=-1) + 1e-300
            errors.append(np.linalg.norm(xbar[1:] - step, axis=-1) / size)
        errors = np.concatenate(errors).ravel()
        if name.endswith("(control)"):
            control = Evidence(float(errors.max()), FLOOR, ">")
            witness["negative control"] = negative_control(control, "psi = 0: the prox is linear and commutes")
            continue
        points.add(float(errors.max()), psi=name)
        witness[f"{name}: steps with e_k > 1e-12"] = f"{int(np.sum(errors > FLOOR))} of {errors.size}"
    return points.evidence(">", bound=FLOOR, witness=witness)


@claim(
    f"{PAPER}/remark-4.10:feddualavg",
    source="(4.14); Remark 4.10",
    statement="FedDualAvg (eta_s = 1) satisfies (4.14) exactly: ybar^(r,k+1) = ybar^(r,k) - eta_c avg_m g_m^(r,k) "
    "for every r, k, and ybar^(r,K) = y^(r+1,0); Q-het, additive N(0, 0.25 I) gradient noise, eta_c = 0.1/L, K = 5, "
    "M = 4, R = 10, 8 replicas, psi = 0.3||.||_1 and the l2-ball indicator; measured: max relative residual.",
    scope="printed",
    expect="holds",
)
def remark_410_feddualavg(ctx: Context) -> Evidence:
    """Noisy FedDualAvg on Q-het with l1 and an active l2-ball constraint, every client state traced: the relative
    residuals of (4.14) at every local step and of the round boundary, against 0 up to rounding."""
    problem = q_instances(ctx)["Q-het"]
    oracle = AdditiveGaussian(problem, cov=0.25 * np.eye(problem.dim))
    params = fco.CompositeParams("FedDualAvg", eta_c=0.1 / problem.L, K=5, M=4)
    points = Points()
    for i, (name, mirror) in enumerate(_runs(problem).items()):
        rng = ctx.rng(i)
        state = fco.init(np.zeros(problem.dim), mirror, params, S=8)
        step_err = boundary_err = 0.0
        for _ in range(10):
            new, trace = fco.round(state, oracle, mirror, params, rng, trace=True)
            ybar = trace.y.mean(axis=2)
            step_err = max(step_err, rel(ybar[1:], ybar[:-1] - params.eta_c * trace.g.mean(axis=2)))
            boundary_err = max(boundary_err, rel(ybar[-1], new.y))
            state = new
        points.add(step_err, psi=name, identity="(4.14) at every local step")
        points.add(boundary_err, psi=name, identity="ybar^(r,K) = y^(r+1,0)")
    # eta_s = 2 (outside (4.14)'s eta_s = 1): the server dual moves twice as far as the clients' average
    doubled = fco.CompositeParams("FedDualAvg", eta_c=0.1 / problem.L, K=5, M=4, eta_s=2.0)
    mirror = next(iter(_runs(problem).values()))
    state = fco.init(np.zeros(problem.dim), mirror, doubled, S=8)
    new, trace = fco.round(state, oracle, mirror, doubled, ctx.rng(9), trace=True)
    control = Evidence(rel(trace.y.mean(axis=2)[-1], new.y), 0.0, "==", atol=ROUNDING)
    return points.evidence(
        "==",
        bound=0.0,
        atol=ROUNDING,  # on relative residuals: a relative rounding tolerance
        witness={"negative control": negative_control(control, "the round boundary with eta_s = 2")},
    )


def _projected_sgd(oracle, C, x0: np.ndarray, eta_c: float, K: int, weights: list[np.ndarray], rng):
    """Parallel projected SGD with periodic averaging (the sanity check after Algorithm 5): clients
    ``x <- Proj_C(x - eta_c g)`` for K steps, the server the ``weights``-average of the client states; returns server
    and client paths."""
    x, servers, clients = x0, [], []
    for w in weights:
        z = np.broadcast_to(x[:, None, :], (*w.shape, x.shape[-1]))
        path = [z]
        for _ in range(K):
            z = C.project(z - eta_c * oracle(z, rng))
            path.append(z)
        x = np.einsum("sm,smd->sd", w, z)
        servers.append(x)
        clients.append(np.stack(path))
    return servers, clients


@claim(
    f"{PAPER}/alg-5:sanity",
    source="Algorithm 5 and the sanity check after it",
    statement="FedMiD with psi = chi_C, eta_s = 1 and Euclidean h reduces to parallel projected SGD with periodic "
    "averaging, pathwise (every client state and server state of every round): Q-het, C in {l2 ball, l1 ball, box, "
    "simplex}, eta_c = 0.1/L, K = 5, M = 4, R = 10, 8 replicas, (a) full participation with additive N(0, 0.25 I) "
    "noise (same generator), (b) 2 of 4 clients per round with exact gradients (the library's sampled sets).",
    scope="printed",
    expect="holds",
)
def alg5_sanity(ctx: Context) -> Evidence:
    """Q-het with four constraint sets, full (noisy) and partial (exact) participation: the library's FedMiD states
    against an independent parallel projected SGD fed the same generator and client weights, maximum difference
    relative to the reference, against 0 up to rounding."""
    problem = q_instances(ctx)["Q-het"]
    d, S, R = problem.dim, 8, 10
    radius = _l2_ball_radius(problem)
    sets = {
        "l2 ball": L2Ball(radius),
        "l1 ball": L1Ball(radius),
        "box [-0.2, 0.3]": Box(-0.2, 0.3),
        "simplex": Simplex(1.0),
    }
    points = Points()
    bitwise = []
    for i, (name, C) in enumerate(sets.items()):
        x0 = C.project(np.zeros(d)) if name != "simplex" else np.full(d, 1.0 / d)
        mirror = fco.Euclidean(C)
        for mode, oracle, per_round in (
            ("full, stochastic", AdditiveGaussian(problem, cov=0.25 * np.eye(d)), None),
            ("2 of 4, exact gradients", ExactGradient(problem), 2),
        ):
            params = fco.CompositeParams("FedMiD", 0.1 / problem.L, 5, 4, clients_per_round=per_round)
            state = fco.init(x0, mirror, params, S=S)
            lib_servers, lib_clients, weights = [], [], []
            rng = ctx.rng(10 * i + (per_round or 0))
            for _ in range(R):
                state, trace = fco.round(state, oracle, mirror, params, rng, trace=True)
                lib_servers.append(state.x)
                lib_clients.append(trace.x)
                weights.append(trace.weights)
            ref_servers, ref_clients = _projected_sgd(
                oracle,
                C,
                np.broadcast_to(x0, (S, d)),
                params.eta_c,
                params.K,
                weights,
                ctx.rng(10 * i + (per_round or 0)),
            )
            for states, lib, ref in (("server", lib_servers, ref_servers), ("clients", lib_clients, ref_clients)):
                lib, ref = np.stack(lib), np.stack(ref)
                error = float(np.max(np.abs(lib - ref)) / max(1.0, float(np.max(np.abs(ref)))))
                points.add(error, C=name, participation=mode, states=states)
                bitwise.append(bool(np.array_equal(lib, ref)))
    return points.evidence(
        "==",
        bound=0.0,
        atol=SCALED_ROUNDING,
        witness={
            "measured": "max |library - reference| / max(1, max |reference|) over rounds, replicas, clients",
            "bitwise equal": f"{sum(bitwise)} of {len(bitwise)} (the server projection of an average already in C "
            "may move it by rounding)",
        },
    )
