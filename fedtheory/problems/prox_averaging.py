"""Clients whose composite optima are proximal points: where averaging client solutions goes wrong, in closed form.

With clients ``F_m(x) = ||x - c_m||^2 / 2`` sharing ``psi`` every optimum is a proximal point,

    ``argmin_x F_m(x) + psi(x) = prox_psi(c_m)``,  ``argmin_x F(x) + psi(x) = prox_psi(mean_m c_m)``

(``F = ||x - mean_m c_m||^2/2 + const``), which is also the limit of local proximal gradient steps on one client
(``K -> infinity``). So the average of the client solutions (what a server that averages primal iterates returns)
and the global optimum are both exact: client optima on a curved boundary average to a point off it, and sparse
client solutions average to a dense one. Data only: the algorithms live in :mod:`fedtheory.algorithms`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .._validate import finite_array
from ..errors import InvalidParameterError
from ..regularizers import Regularizer
from .quadratic import FederatedQuadratic


class AveragingExample:
    """Clients ``F_m(x) = ||x - c_m||^2 / 2`` with a shared regularizer ``psi``; every optimum in closed form.

    Parameters
    ----------
    targets : array (M, d)
        The client centres ``c_m``.
    regularizer : Regularizer
        ``psi``.
    """

    def __init__(self, targets, regularizer: Regularizer):
        self.targets = finite_array("targets", targets, ndim=2)
        if not isinstance(regularizer, Regularizer):
            raise InvalidParameterError("regularizer", "a regularizer from fedtheory.regularizers", regularizer)
        self.regularizer = regularizer

    @cached_property
    def problem(self) -> FederatedQuadratic:
        """``F_m(x) = x'x/2 - c_m'x + ||c_m||^2/2`` as a heterogeneous :class:`FederatedQuadratic`."""
        d = self.targets.shape[1]
        return FederatedQuadratic(np.eye(d), self.targets, 0.5 * np.sum(self.targets**2, axis=1))

    @cached_property
    def client_solutions(self) -> np.ndarray:
        """``argmin_x F_m(x) + psi(x) = prox_psi(c_m)``, shape (M, d)."""
        return self.regularizer.prox(self.targets, 1.0)

    @cached_property
    def client_average(self) -> np.ndarray:
        """The primal average of the client solutions (what a server averaging step returns)."""
        return self.client_solutions.mean(axis=0)

    @cached_property
    def x_star(self) -> np.ndarray:
        """``argmin_x F(x) + psi(x) = prox_psi(mean_m c_m)``."""
        return self.regularizer.prox(self.targets.mean(axis=0), 1.0)
