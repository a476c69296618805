"""Thesis chapter 4 and appendix C (Yuan, Zaheer, Reddi): federated composite optimization, FedMiD and FedDualAvg.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 4 at lines 1630-2573, appendix C at 4432-4781.
"""

from . import (
    convex_analysis,
    dual_shadow,
    experiments,
    primal_averaging,
    quadratic_heterogeneity,
    rates,
)

__all__ = [
    "convex_analysis",
    "dual_shadow",
    "experiments",
    "primal_averaging",
    "quadratic_heterogeneity",
    "rates",
]
