"""StR-FedAvg / IPIR-FedAvg (Ebrahimi, Qiu, Cui, Yousefian, arXiv:2503.08634v2): weak sharpness and optimal-solution
selection.

Paper text: ``shared/seeds/003_511a8e816d499631.txt``; digest ``shared/spec/str-fedavg.md``.
"""

from . import (
    complexity,
    experiments,
    heterogeneity,
    ipir,
    rates,
    schedules,
    sharpness_bounds,
    theorems,
)

__all__ = [
    "complexity",
    "experiments",
    "heterogeneity",
    "ipir",
    "rates",
    "schedules",
    "sharpness_bounds",
    "theorems",
]
