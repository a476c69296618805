"""Objective families; each knows its constants (``L``, ``mu``, ``x_star``, ``f_star``)."""

from .base import Problem
from .composite_data import (
    LASSO_SETS,
    LOW_RANK_SETS,
    Composite,
    FederatedLassoData,
    LowRankData,
    MeanSquaredError,
    SparseLogisticData,
    density,
    federated_lasso,
    federated_low_rank,
    recovered_rank,
    sparse_logistic_sessions,
    support_recovery,
)
from .cosine import SeparableCosine
from .least_squares import Lasso, LeastSquares
from .logcosh import LogCoshQuadratic
from .logistic import LogisticRegression
from .piecewise import PiecewiseLinear, PiecewiseQuadratic
from .primal_averaging import AveragingExample, curved_constraint, disjoint_sparse_clients, sparse_averaging
from .quadratic import FederatedQuadratic
from .synthetic import a9a_like, epsilon_like, logistic_data, sparse_regression_data

__all__ = [
    "LASSO_SETS",
    "LOW_RANK_SETS",
    "AveragingExample",
    "Composite",
    "FederatedLassoData",
    "FederatedQuadratic",
    "Lasso",
    "LeastSquares",
    "LogCoshQuadratic",
    "LogisticRegression",
    "LowRankData",
    "MeanSquaredError",
    "PiecewiseLinear",
    "PiecewiseQuadratic",
    "Problem",
    "SeparableCosine",
    "SparseLogisticData",
    "a9a_like",
    "curved_constraint",
    "density",
    "disjoint_sparse_clients",
    "epsilon_like",
    "federated_lasso",
    "federated_low_rank",
    "logistic_data",
    "recovered_rank",
    "sparse_averaging",
    "sparse_logistic_sessions",
    "sparse_regression_data",
    "support_recovery",
]
