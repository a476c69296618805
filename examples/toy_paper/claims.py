"""Theorem 1 (gradient descent contracts) and Proposition 2 (FedAvg is unbiased) of the toy paper.

Theorem 1 holds. Proposition 2 holds only with one local step or a shared Hessian: with client Hessians of their
own, the fixed point of FedAvg is not the minimiser, and the claim fails with that witness.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.problems import FederatedQuadratic

ROUNDING = 1e-10
"""Rounding of a few dozen float operations on numbers of size <= 10."""


def instance(ctx: Context, dim: int = 3, clients: int = 4) -> FederatedQuadratic:
    """Seeded quadratics with L = 1 and client Hessians of their own (eigenvalues in [0.1, 1])."""
    rng = ctx.rng()
    hessians = []
    for _ in range(clients):
        Q, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
        hessians.append(Q @ np.diag(rng.uniform(0.1, 1.0, size=dim)) @ Q.T)
    A = np.stack(hessians)
    return FederatedQuadratic(A / np.linalg.eigvalsh(A)[:, -1].max(), rng.normal(size=(clients, dim)))


@claim(
    "toy-paper/thm-1",
    source="Theorem 1",
    statement="Gradient descent with a step eta <= 1/L contracts: ||x_{t+1} - x*|| <= (1 - eta mu) ||x_t - x*||",
    scope="printed",
    expect="holds",
)
def thm_1(ctx: Context) -> Evidence:
    """Instance: the seeded quadratic, steps eta L in {1/4, 1/2, 1}, 20 steps from a seeded start.
    Reference: the distance to the exact minimiser at every step."""
    problem, points = instance(ctx), Points()
    for scale in (0.25, 0.5, 1.0):
        eta = scale / problem.L
        x = problem.x_star + ctx.rng(1).normal(size=problem.dim)
        for t in range(20):
            before = np.linalg.norm(x - problem.x_star)
            x = x - eta * problem.grad(x)
            points.add(np.linalg.norm(x - problem.x_star), (1 - eta * problem.mu) * before, eta_L=scale, t=t)
    return points.evidence("<=", rtol=ROUNDING, witness={"instance": "4 clients, d = 3, L = 1, seeded Hessians"})


def fedavg_fixed_point(problem: FederatedQuadratic, eta: float, local_steps: int) -> np.ndarray:
    """The fixed point of FedAvg's round (``local_steps`` gradient steps of size ``eta`` per client, then the mean):
    the round is ``x -> S x + c`` with ``S`` the mean of ``(I - eta A_m)^K``."""
    d = problem.dim
    S, c = np.zeros((d, d)), np.zeros(d)
    for A, b in zip(problem.A, problem.b):
        T = np.eye(d) - eta * A
        S += np.linalg.matrix_power(T, local_steps) / len(problem.A)
        c += sum(np.linalg.matrix_power(T, k) @ (eta * b) for k in range(local_steps)) / len(problem.A)
    return np.linalg.solve(np.eye(d) - S, c)


@claim(
    "toy-paper/prop-2",
    source="Proposition 2",
    statement="FedAvg with K local steps of size eta <= 1/L converges to the minimiser x* of F (no bias)",
    scope="printed",
    expect="fails",
)
def prop_2(ctx: Context) -> Evidence:
    """Instance: the seeded quadratic (client Hessians of their own), K in {1, 2, 5}, eta L in {1/4, 1}.
    Reference: FedAvg's fixed point in closed form (a linear solve) against x*."""
    problem, points = instance(ctx), Points()
    for K in (1, 2, 5):
        for scale in (0.25, 1.0):
            bias = np.linalg.norm(fedavg_fixed_point(problem, scale / problem.L, K) - problem.x_star)
            points.add(bias, 0.0, K=K, eta_L=scale)
    witness = {
        "instance": "4 clients, d = 3, L = 1, seeded Hessians of their own",
        "hypotheses": f"eta <= 1/L and F strongly convex (mu = {problem.mu:.3g}): the printed hypotheses hold",
    }
    return points.evidence("==", atol=ROUNDING, witness=witness)
