"""Communication accounting of Algorithms 1 and 2 of the StR-FedAvg paper: the simulator's float counters against
closed forms, with rounds counted independently from the oracle calls.

Instance (the Exp. 1 scale-down, used by both experiments), its certified references and the Exp. 2 runs:
:mod:`.sec_5_instances` (its docstring describes them).
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms.bilevel import run
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points

from .sec_5_instances import (
    DIM,
    GAMMA,
    GAMMA_G,
    KS,
    N_CLIENTS,
    PAPER,
    T0,
    Counting,
    exp2,
    exp_instance,
    experiment_rule,
    outer_iterations,
)


# --------------------------------------------------------------------------------------------------
# Communication accounting
# --------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/alg-1:communication",
    source="Algorithm 1 (communicate xbar^{r-1} to S clients, Delta y_i^r back)",
    statement="Per replica the simulator's float counter equals the closed form 2 n S R (n floats down and up per "
    "sampled client and round), with R counted independently from the oracle calls (K per round), on the Exp. 1 "
    "instance (n = 100, N = 10) for S in {10, 4}, K in {1, 3}, R in {1, 7}, exact integers.",
    scope="printed",
    expect="holds",
)
def communication(ctx: Context) -> Evidence:
    """Short runs of Algorithm 1 on the Exp. 1 scale-down of :mod:`.sec_5_instances`: the simulator's float counter
    against the closed form 2 n S R, with R counted from the oracle calls; exact integers."""
    e = exp_instance(ctx)
    points = Points()
    for S in (N_CLIENTS, 4):
        for K in (1, 3):
            for R in (1, 7):
                params = experiment_rule(R, GAMMA, K, GAMMA_G, "algorithm", clients_per_round=S)
                oracle = Counting(e.h)
                tr = run(e.h, e.huber, np.zeros(DIM), params, R, ctx.rng(S * 100 + K * 10 + R), h_oracle=oracle)
                rounds = oracle.calls // K
                points.add(tr.communication, 2 * DIM * S * rounds, S=S, K=K, R=R)
    return points.evidence("==", witness={"closed form": "2 n S R", "n": DIM})


@claim(
    f"{PAPER}/alg-2:communication",
    source="Algorithm 2",
    statement="IPIR-FedAvg floats per replica equal sum_t 2 n N R_t + n N T (inner rounds with full participation "
    "plus the broadcast of y^t), with sum_t R_t = T(T-1)/2 + t0 T for R_t = t + t0, on the Exp. 2 runs "
    "(T = 60, quick 30, t0 = 2, K in {1, 5, 10, 20}); the inner rounds are also counted independently from the "
    "oracle calls (K per round). Exact integers.",
    scope="printed",
    expect="holds",
)
def ipir_communication(ctx: Context) -> Evidence:
    """The Exp. 2 IPIR-FedAvg runs of :mod:`.sec_5_instances`: the simulator's float counter and the inner rounds
    counted from the oracle calls, against their closed forms; exact integers."""
    T = outer_iterations(ctx)
    runs = exp2(ctx)
    closed_rounds = T * (T - 1) // 2 + T0 * T
    points = Points()
    for K in KS:
        points.add(runs[K].floats, 2 * DIM * N_CLIENTS * closed_rounds + DIM * N_CLIENTS * T, K=K, quantity="floats")
        points.add(runs[K].oracle_calls // K, closed_rounds, K=K, quantity="inner rounds (oracle calls / K)")
    return points.evidence("==", witness={"T": T, "t0": T0, "sum_t R_t": closed_rounds, "n": DIM, "N": N_CLIENTS})
