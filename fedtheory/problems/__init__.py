"""Objective families; each knows its constants (``L``, ``mu``, ``x_star``, ``f_star``)."""

from .base import Problem
from .cosine import SeparableCosine
from .least_squares import Lasso, LeastSquares
from .logcosh import LogCoshQuadratic
from .logistic import LogisticRegression
from .piecewise import PiecewiseLinear, PiecewiseQuadratic
from .quadratic import FederatedQuadratic
from .synthetic import a9a_like, logistic_data, sparse_regression_data

__all__ = [
    "FederatedQuadratic",
    "Lasso",
    "LeastSquares",
    "LogCoshQuadratic",
    "LogisticRegression",
    "PiecewiseLinear",
    "PiecewiseQuadratic",
    "Problem",
    "SeparableCosine",
    "a9a_like",
    "logistic_data",
    "sparse_regression_data",
]
