"""Section 4.5.5, Task 4 (FEMNIST): the structural remark that every trajectory stays feasible, on a stand-in.

Protocol, tuning, seeds, the numeric readings of the qualitative statements and the lambda rule:
``experiments_protocol`` (its docstring).

Scale (every statement names its profile's scale):

* Task 4 (FEMNIST, Section 4.5.5) needs TensorFlow Federated data and a 62-class network: its training curves (Figs.
  4.12-4.14) are out of reach. Only the structural remark of Section 4.5.5.1 (every trajectory stays feasible) is
  checked, on a constrained binary logistic stand-in (:func:`_feasibility`).

Printed objects: Section 4.5.5 (Task 4), its feasibility remark in the "Evaluation Metrics" paragraph of Section
4.5.5.1.
"""

from __future__ import annotations

import itertools

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.tolerances import SHORT_ROUNDING
from fedtheory.oracles import Minibatch
from fedtheory.problems import logistic_data
from fedtheory.reference import logistic_optimum
from fedtheory.regularizers import L1Ball, L2Ball

from .experiments_protocol import METHODS, PAPER

FEMNIST_EC = (0.001, 0.003, 0.01, 0.03, 0.1)
FEMNIST_ES = (0.01, 0.03, 0.1, 0.3, 1.0)


@family(f"{PAPER}/ch4-feasibility")
def _feasibility(fam: Family) -> dict:
    """Largest ``||x||/radius`` along every trajectory: server models ``x^{(r,0)}`` and the sampled clients' iterates.

    Stand-in for section 4.5.5 (FEMNIST needs TensorFlow Federated data): binary logistic regression
    (:func:`fedtheory.problems.logistic_data`, 20 clients x 30 rows, ``d = 20``, separation 3, heterogeneity 1,
    ``l2 = 0.01``) under ``||x||_1 <= rho`` and ``||x||_2 <= rho`` with ``rho`` half the norm of the unconstrained
    optimum (active), ``x^{(0,0)} = 0``; 10 clients per round, batch 10, 10 local epochs (``K = 30``); full: R = 20
    and the printed grid ``eta_c`` in {0.001, ..., 0.1} x ``eta_s`` in {0.01, ..., 1}; quick: R = 10 and
    ``eta_c`` in {0.001, 0.1} x ``eta_s = 1``.
    """
    quick = fam.quick
    rng = np.random.default_rng(seed_for(f"{PAPER}/ch4-feasibility-data"))
    problem = logistic_data(rng, n_clients=20, n_per_client=30, dim=20, separation=3.0, heterogeneity=1.0, l2=0.01)
    x_star = logistic_optimum(problem).x
    ecs, ess = ((0.001, 0.1), (1.0,)) if quick else (FEMNIST_EC, FEMNIST_ES)
    R = 10 if quick else 20
    out = {}
    for ball, order in ((L1Ball, 1), (L2Ball, 2)):
        rho = 0.5 * float(np.linalg.norm(x_star, ord=order))
        mirror = fco.Euclidean(ball(rho))
        for a, ec, es in itertools.product(METHODS, ecs, ess):
            params = fco.CompositeParams(a, ec, 30, 20, es, 10)
            state = fco.init(np.zeros(problem.dim), mirror, params)
            run_rng = np.random.default_rng(seed_for(f"{PAPER}/ch4-feasibility-run:{a}:{ec}:{es}:{order}"))
            server, clients = 0.0, 0.0
            for _ in range(R):
                state, trace = fco.round(state, Minibatch(problem, 10), mirror, params, run_rng, trace=True)
                sampled = trace.weights[0] > 0
                norms = np.linalg.norm(trace.x[:, 0, sampled], ord=order, axis=-1)
                clients = max(clients, float(norms.max()) / rho)
                server = max(server, float(np.linalg.norm(state.x[0], ord=order)) / rho)
            key = (a, f"l{order} ball")
            prev = out.get(key, (0.0, 0.0))
            out[key] = (max(prev[0], server), max(prev[1], clients))
    return out


def _feasibility_evidence(ctx: Context, which: int) -> Evidence:
    table = _feasibility(ctx)
    keys = sorted(table)
    return Evidence(
        measured=[table[k][which] for k in keys],
        bound=1.0,
        relation="<=",
        rtol=SHORT_ROUNDING,  # a projection onto the ball and a norm in d = 20
        grid={"method": [k[0] for k in keys], "constraint": [k[1] for k in keys]},
        witness={
            "stand-in": "binary logistic regression, NOT FEMNIST (see _feasibility's docstring)",
            "max ||x||/rho over the run and the grid (server, clients)": {f"{k[0]}, {k[1]}": table[k] for k in keys},
            "grid, rounds": "printed 5 x 5, R = 20" if not ctx.quick else "eta_c in {0.001, 0.1} x eta_s = 1, R = 10",
        },
    )


@claim(
    f"{PAPER}/sec-4.5.5.1:feasible",
    source="Section 4.5.5.1 ('the constraints are always satisfied because all the trajectories of all the "
    "four algorithms are always in the feasible region')",
    statement="STAND-IN for FEMNIST (constrained binary logistic regression, l1 and l2 balls of half the "
    "unconstrained optimum's norm): every server model x^(r,0) of FedMiD, FedMiD-OSP, FedDualAvg and FedDualAvg-OSP "
    "(R = 20, quick 10) lies in the ball; measured: max ||x||/rho per method and ball over the step-size grid (<= 1 "
    "claimed; the trajectories read as the server models on which the metrics are evaluated).",
    scope="stand-in",
    expect="holds",
)
def feasible_server(ctx: Context) -> Evidence:
    """Constrained binary logistic stand-in (l1 and l2 balls): the largest ||x||/rho of the server models over the
    run and the step-size grid, per method and ball, against 1."""
    return _feasibility_evidence(ctx, 0)


@claim(
    f"{PAPER}/sec-4.5.5.1:feasible-clients",
    source="Section 4.5.5.1 (the same sentence, 'all the trajectories' read to include the clients' local iterates)",
    statement="STAND-IN for FEMNIST, as sec-4.5.5.1:feasible: every local iterate x_m^(r,k) of every sampled "
    "client lies "
    "in the ball too (for FedDualAvg and its OSP variant the retrieved primal grad (h + eta~ psi)^*(y), resp. "
    "grad h^*(y)); "
    "measured: max ||x||/rho per method and ball (<= 1 claimed).",
    scope="stand-in",
    expect="fails",
)
def feasible_clients(ctx: Context) -> Evidence:
    """Constrained binary logistic stand-in: the largest ||x||/rho of the sampled clients' local iterates over the
    run and the step-size grid, per method and ball, against 1."""
    return _feasibility_evidence(ctx, 1)
