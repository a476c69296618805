"""Exact instances of the "curse of primal averaging" (thesis section 4.2.2, lines 1759-1769).

The thesis argues with two verbal examples: client optima on a curved boundary average to a point off the boundary,
and sparse client solutions average to a dense one. Both are made exact here with clients
``F_m(x) = ||x - c_m||^2 / 2`` sharing ``psi``: every optimum is then a proximal point,

    ``argmin_x F_m(x) + psi(x) = prox_psi(c_m)``,  ``argmin_x F(x) + psi(x) = prox_psi(mean_m c_m)``

(``F = ||x - mean_m c_m||^2/2 + const``), which is also the limit of local proximal gradient steps on one client
(``K -> infinity``). Instances (spec sections 4.1, 4.2): :func:`curved_constraint` (``psi`` the indicator of a
Euclidean ball), :func:`sparse_averaging` (the minimal 2-D l1 instance) and :func:`disjoint_sparse_clients`
(client supports on disjoint blocks). Data only: the algorithms live in :mod:`fedtheory.algorithms`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .._validate import finite_array, positive, positive_int
from ..errors import InvalidParameterError
from ..regularizers import L1, L2Ball, Regularizer
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


def curved_constraint(targets=((3.0, 1.0), (3.0, -1.0)), radius: float = 1.0) -> AveragingExample:
    """Client optima on the sphere of radius ``radius``, ``psi`` the indicator of the ball (spec section 4.1).

    Default: ``c_1 = (3, 1)``, ``c_2 = (3, -1)``, ``radius = 1``. Client solutions ``(3, +-1)/sqrt(10)`` lie on the
    sphere; their average ``(3/sqrt(10), 0)`` has norm ``radius cos(theta/2) < radius`` (``theta`` the angle between
    them, :func:`chord_midpoint_norm`) while ``x* = Proj((3, 0)) = (1, 0)`` is on the sphere.
    """
    return AveragingExample(targets, L2Ball(radius))


def chord_midpoint_norm(radius: float, angle: float) -> float:
    """``radius cos(angle/2)``: the norm of the average of two points on the sphere at angle ``angle``."""
    return positive("radius", radius) * float(np.cos(positive("angle", angle, allow_zero=True) / 2))


def sparse_averaging(a: float = 2.0, theta: float = 1.0) -> AveragingExample:
    """Minimal 2-D instance (spec section 4.2): ``psi = theta ||x||_1``, ``c_1 = (a, 0)``, ``c_2 = (a, 1.5 theta)``.

    With ``a > theta``: client solutions ``(a - theta, 0)`` and ``(a - theta, theta/2)``, average
    ``(a - theta, theta/4)`` (both coordinates non-zero), global ``x* = S_theta((a, 3 theta/4)) = (a - theta, 0)``.
    """
    theta = positive("theta", theta)
    if not positive("a", a) > theta:
        raise InvalidParameterError("a", f"a number > theta = {theta}", a)
    return AveragingExample([[a, 0.0], [a, 1.5 * theta]], L1(theta))


def disjoint_sparse_clients(n_clients: int, block: int, dim: int, value: float, theta: float) -> AveragingExample:
    """Client ``m`` has ``c_m = value`` on the block ``{m block, ..., (m + 1) block - 1}`` and 0 elsewhere.

    ``psi = theta ||x||_1`` with ``value > theta``: each client solution ``(value - theta)`` on its block has
    density ``block/dim``; their average has density ``M block/dim`` (the union of the blocks); the global optimum
    ``S_theta(mean c_m)`` is ``value/M - theta`` on the union if ``value > M theta`` and exactly 0 otherwise.
    """
    M, s, d = positive_int("n_clients", n_clients), positive_int("block", block), positive_int("dim", dim)
    if M * s > d:
        raise InvalidParameterError("dim", f"at least n_clients * block = {M * s}", d)
    theta = positive("theta", theta)
    if not positive("value", value) > theta:
        raise InvalidParameterError("value", f"a number > theta = {theta}", value)
    targets = np.zeros((M, d))
    targets[np.repeat(np.arange(M), s), np.arange(M * s)] = value
    return AveragingExample(targets, L1(theta))
