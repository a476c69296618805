"""Thesis chapter 3 and appendix B (Yuan, Ma): FedAc, and the initial-value instability of Nesterov's AGD.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 3 at lines 791-1643, appendix B at 3273-4431.
"""

from . import (
    any_eta,
    appendix_b_details,
    convergence,
    experiments,
    experiments_settings,
    general_convex,
    instability,
    logistic_mc,
    one_step,
    one_step_fedac_ii,
    potential,
    rates,
    stability,
    table_3_1,
)

__all__ = [
    "any_eta",
    "appendix_b_details",
    "convergence",
    "experiments",
    "experiments_settings",
    "general_convex",
    "instability",
    "logistic_mc",
    "one_step",
    "one_step_fedac_ii",
    "potential",
    "rates",
    "stability",
    "table_3_1",
]
