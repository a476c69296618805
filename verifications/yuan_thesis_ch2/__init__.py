"""Thesis chapter 2 and appendix A (Glasgow, Yuan, Ma): iterate bias and sharp bounds for FedAvg.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 2 at lines 115-790, appendix A at
2574-3272.
"""

from . import (
    bias_bounds,
    bias_direction,
    fedavg_bias,
    fedavg_third_order,
    helper_lemmas,
    iterate_bias,
    lemma_a5,
    lemma_a13,
    logistic_rates,
    lower_bound_components,
    lower_bound_sweep,
    nonconvex,
    proof_sketch,
    rates,
    stationary_bias,
    table_2_1,
    third_order,
    third_order_lower,
    upper_bound,
)

__all__ = [
    "bias_bounds",
    "bias_direction",
    "fedavg_bias",
    "fedavg_third_order",
    "helper_lemmas",
    "iterate_bias",
    "lemma_a5",
    "lemma_a13",
    "logistic_rates",
    "lower_bound_components",
    "lower_bound_sweep",
    "nonconvex",
    "proof_sketch",
    "rates",
    "stationary_bias",
    "table_2_1",
    "third_order",
    "third_order_lower",
    "upper_bound",
]
