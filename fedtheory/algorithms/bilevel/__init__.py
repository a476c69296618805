"""Simple bilevel federated methods of the StR-FedAvg paper.

* :mod:`.str_fedavg` -- StR-FedAvg (Algorithm 1): :class:`StRParams`, ``round``/``run`` over ``(S, N, n)`` arrays,
  uniform client sampling, the client drift of Lemma 5, communication counters.
* :mod:`.outputs` -- ``theta`` and the printed / theta-averaged outputs of Propositions 1 and 4.
* :mod:`.schedules` -- the self-tuned schedules of Algorithm 1, Theorems 1-3, Proposition 7 and Sect. 5.1.
* :mod:`.fixed_points` -- exact round maps and the client-drift fixed point on quadratic clients.
* :mod:`.ipir` -- IPIR-FedAvg (Algorithm 2) with StR-FedAvg as the inexact projection.

Standard FedAvg is StR-FedAvg with ``eta = 0``: :func:`fedtheory.algorithms.fedavg.run`.
"""

from .fixed_points import drift_fixed_point, quadratic_clients, regularized_clients, round_map, round_map_radius
from .ipir import INITS, OUTPUTS, IPIRTrajectory, ipir_run
from .outputs import KINDS, Output, output, printed_weights, theta, weights
from .schedules import (
    schedule_convex,
    schedule_convex_sharp,
    schedule_ipir,
    schedule_prop7,
    schedule_sc_sharp,
    schedule_strongly_convex,
)
from .str_fedavg import StRParams, StRState, StRTrajectory, client_count, participation, round, run, simulate

__all__ = [
    "INITS",
    "KINDS",
    "OUTPUTS",
    "IPIRTrajectory",
    "Output",
    "StRParams",
    "StRState",
    "StRTrajectory",
    "client_count",
    "drift_fixed_point",
    "ipir_run",
    "output",
    "participation",
    "printed_weights",
    "quadratic_clients",
    "regularized_clients",
    "round",
    "round_map",
    "round_map_radius",
    "run",
    "schedule_convex",
    "schedule_convex_sharp",
    "schedule_ipir",
    "schedule_prop7",
    "schedule_sc_sharp",
    "schedule_strongly_convex",
    "simulate",
    "theta",
    "weights",
]
