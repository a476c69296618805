"""Theorems 2.22 and 2.23 (non-convex FedAvg, appendix A.5), through their printed telescoped bounds.

Instance: f(x; xi) = sum_i (1 - cos x_i) + <xi, x> in d = 2 with Rademacher noise of norm sigma, so Assumption 2.6
holds with L = 1, G = sqrt(d) + sigma (||grad f|| <= ||sin x|| + ||xi||), Assumption 2.5 with Q = 1, and
Delta = F(x^(0,0)) - inf F. E||grad F(xbar^(r,k))||^2 averaged over r < R, k < K is estimated by Monte Carlo
(simultaneous 99% intervals) at the step sizes the proofs prescribe; a witness search over the start, K and R runs
at sigma = 0, where FedAvg is gradient descent and exact.

Printed objects: Theorems 2.22 and 2.23 (section 2.5) and their proofs (appendix A.5).
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory.algorithms import fedavg
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import Rademacher
from fedtheory.problems import SeparableCosine

from .array_search import with_search

PAPER = "yuan-thesis"
D, SIGMA = 2, 0.5
X0 = np.array([2.0, -1.0])


def _average_grad_norm(eta: float, K: int, R: int, M: int, S: int, rng) -> np.ndarray:
    """(1/KR) sum_{r<R, k<K} ||grad F(xbar^(r,k))||^2 for each of S replicas."""
    problem = SeparableCosine(D)
    oracle = Rademacher(problem, SIGMA)
    server = np.broadcast_to(X0, (S, D)).copy()
    total = np.zeros(S)
    for _ in range(R):
        clients = np.broadcast_to(server[:, None, :], (S, M, D))
        for _ in range(K):
            total += np.sum(problem.grad(clients.mean(axis=1)) ** 2, axis=-1)
            clients = fedavg.local_sgd(clients, oracle, eta, 1, rng)
        server = clients.mean(axis=1)
    return total / (K * R)


def _deterministic(x0: np.ndarray, eta: float, steps: int) -> float:
    """(1/steps) sum_{n<steps} ||grad F(x_n)||^2 along gradient descent on F = sum_i (1 - cos x_i): FedAvg with
    sigma = 0, whose clients all follow the same path (plain float64 arithmetic, coordinate by coordinate)."""
    x, total = [float(v) for v in x0], 0.0
    for _ in range(steps):
        g = [math.sin(v) for v in x]
        total += sum(v * v for v in g)
        x = [v - eta * gv for v, gv in zip(x, g)]
    return total / steps


DETERMINISTIC_DOMAIN = Domain(
    {
        "K": Axis(1, 64, integer=True),
        "R": Axis(1, 64, integer=True),
        "x0_1": Axis(0.0, np.pi, log=False),
        "x0_2": Axis(0.0, np.pi, log=False),
    },
    note="The telescoped bounds hold for every sigma >= 0 (Assumption 2.6(b)); the search takes sigma = 0, where "
    "FedAvg is gradient descent with K R steps, exact in float64 (the Monte Carlo grid covers sigma = 0.5): "
    "F = sum_i (1 - cos x_i) in d = 2 (L = Q = 1, G = sqrt(2) = sup ||grad f||, Assumption 2.6(c) with equality), "
    "every start in [0, pi]^2 (Delta = F(x0) from 0 to 4; F is even and 2 pi-periodic in each coordinate), K and R "
    "from 1 to 64 at the proof's step size; M does not enter. Left out: sigma > 0 (Monte Carlo), K R > 4096 (a "
    "Python loop over the steps; the bounds are loosest there), d > 2 and other objectives.",
)


def _check(ctx: Context, step_rule, bound_of, label: str) -> Evidence:
    problem = SeparableCosine(D)
    L, Q, G = problem.L, problem.Q, np.sqrt(D) + SIGMA
    Delta = float(problem.value(X0)) - problem.f_star
    S = 2000 if ctx.quick else 20_000
    configs = [(M, K, R) for M in (4, 16) for K in (4, 16) for R in (4, 16)]
    points = Points()
    for i, (M, K, R) in enumerate(configs):
        eta = step_rule(L, Q, G, Delta, M, K, R, SIGMA)
        est = mc_mean(_average_grad_norm(eta, K, R, M, S, ctx.rng(i)), family_size=len(configs))
        points.add(
            float(est.mean),
            bound_of(L, Q, G, Delta, M, K, R, eta, SIGMA),
            interval=(float(est.lo), float(est.hi)),
            M=M,
            K=K,
            R=R,
            eta=eta,
        )

    def at(K, R, x0_1, x0_2):
        x0 = np.array([x0_1, x0_2])
        delta = float(problem.value(x0))
        if delta == 0.0:  # x0 = x*: every term is 0 and the step size is 0
            return 0.0, 0.0, {"eta": 0.0}
        eta = step_rule(L, Q, np.sqrt(D), delta, 1, K, R, 0.0)
        return _deterministic(x0, eta, K * R), bound_of(L, Q, np.sqrt(D), delta, 1, K, R, eta, 0.0), {"eta": eta}

    found = with_search(
        ctx,
        points.measured,
        points.bound,
        points.grid,
        [(at, DETERMINISTIC_DOMAIN, None)],
        "<=",
        interval=(points.lo, points.hi),
    )
    return Evidence(
        **found,
        relation="<=",
        rtol=ROUNDING,  # the deterministic runs: float64 over up to 4096 steps
        witness={
            "instance": "sum(1 - cos x_i) + <xi, x>, d = 2, Rademacher noise",
            "sigma": SIGMA,
            "G": G,
            "Delta": Delta,
            "replicas": S,
            "bound": label,
        },
    )


@claim(
    f"{PAPER}/thm-2.22:telescoped",
    source="proof of Theorem 2.22, appendix A.5.2",
    statement="With eta = min{1/L, sqrt(Delta M)/(sigma sqrt(LKR)), Delta^(1/3)/(K R^(1/3) L^(2/3) G^(2/3))}: "
    "(1/KR) sum_{r,k} E||grad F(xbar^(r,k))||^2 <= 2 Delta/(eta KR) + 8 L^2 eta^2 G^2 K^2 + L eta sigma^2/M "
    "(Monte Carlo on a grid; a witness search over the start, K and R at sigma = 0).",
    scope="printed",
    expect="holds",
)
def thm222(ctx: Context) -> Evidence:
    """f = sum_i (1 - cos x_i) + <xi, x> in d = 2 with Rademacher noise (sigma = 0.5) from (2, -1), M, K, R in {4, 16},
    at the proof's step size. Reference: Monte Carlo (2000 replicas; full profile 20,000) with simultaneous 99%
    intervals on the averaged squared gradient norm; the witness search over :data:`DETERMINISTIC_DOMAIN` at
    sigma = 0 (gradient descent, exact in float64, a zero-width interval)."""

    def rule(L, Q, G, Delta, M, K, R, sigma):
        noise = np.sqrt(Delta * M) / (sigma * np.sqrt(L * K * R)) if sigma > 0 else np.inf
        return min(1 / L, noise, Delta ** (1 / 3) / (K * R ** (1 / 3) * L ** (2 / 3) * G ** (2 / 3)))

    def bound(L, Q, G, Delta, M, K, R, eta, sigma):
        return 2 * Delta / (eta * K * R) + 8 * L**2 * eta**2 * G**2 * K**2 + L * eta * sigma**2 / M

    return _check(ctx, rule, bound, "2 Delta/(eta KR) + 8 L^2 eta^2 G^2 K^2 + L eta sigma^2/M")


@claim(
    f"{PAPER}/thm-2.23:telescoped",
    source="proof of Theorem 2.23, appendix A.5.1",
    statement="With eta = min{1/L, sqrt(M Delta)/(sigma sqrt(LKR)), Delta^(1/5)/(K R^(1/5) Q^(2/5) G^(4/5))}: "
    "(1/KR) sum_{r,k} E||grad F(xbar^(r,k))||^2 <= 2 Delta/(eta KR) + 8 Q^2 eta^4 G^4 K^4 + 2 L eta sigma^2/M "
    "(Monte Carlo on a grid; a witness search over the start, K and R at sigma = 0).",
    scope="printed",
    expect="holds",
)
def thm223(ctx: Context) -> Evidence:
    """The instance and configurations of thm-2.22:telescoped, at the step size of Theorem 2.23's proof. Reference:
    Monte Carlo (2000 replicas; full profile 20,000) with simultaneous 99% intervals, and the witness search of
    thm-2.22:telescoped at sigma = 0."""

    def rule(L, Q, G, Delta, M, K, R, sigma):
        noise = np.sqrt(M * Delta) / (sigma * np.sqrt(L * K * R)) if sigma > 0 else np.inf
        return min(1 / L, noise, Delta ** (1 / 5) / (K * R ** (1 / 5) * Q ** (2 / 5) * G ** (4 / 5)))

    def bound(L, Q, G, Delta, M, K, R, eta, sigma):
        return 2 * Delta / (eta * K * R) + 8 * Q**2 * eta**4 * G**4 * K**4 + 2 * L * eta * sigma**2 / M

    return _check(ctx, rule, bound, "2 Delta/(eta KR) + 8 Q^2 eta^4 G^4 K^4 + 2 L eta sigma^2/M")
