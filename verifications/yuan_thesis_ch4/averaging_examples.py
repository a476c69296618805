"""The exact instances of the "curse of primal averaging" (Section 4.2.2 of the thesis).

The thesis argues with two verbal examples: client optima on a curved boundary average to a point off the boundary,
and sparse client solutions average to a dense one. Both are made exact with
:class:`fedtheory.problems.AveragingExample` (clients ``F_m(x) = ||x - c_m||^2 / 2`` sharing ``psi``):
:func:`curved_constraint` (``psi`` the indicator of a Euclidean ball), :func:`sparse_averaging` (the minimal 2-D l1
instance) and :func:`disjoint_sparse_clients` (client supports on disjoint blocks).
"""

from __future__ import annotations

import numpy as np

from fedtheory._validate import positive, positive_int
from fedtheory.errors import InvalidParameterError
from fedtheory.problems import AveragingExample
from fedtheory.regularizers import L1, L2Ball

REGISTERS_CLAIMS = False  # instances; the claims are in sec_4_2_2_curse_of_primal_averaging


def curved_constraint(targets=((3.0, 1.0), (3.0, -1.0)), radius: float = 1.0) -> AveragingExample:
    """Client optima on the sphere of radius ``radius``, ``psi`` the indicator of the ball (the curved-boundary example).

    Default: ``c_1 = (3, 1)``, ``c_2 = (3, -1)``, ``radius = 1``. Client solutions ``(3, +-1)/sqrt(10)`` lie on the
    sphere; their average ``(3/sqrt(10), 0)`` has norm ``radius cos(theta/2) < radius`` (``theta`` the angle between
    them, :func:`chord_midpoint_norm`) while ``x* = Proj((3, 0)) = (1, 0)`` is on the sphere.
    """
    return AveragingExample(targets, L2Ball(radius))


def chord_midpoint_norm(radius: float, angle: float) -> float:
    """``radius cos(angle/2)``: the norm of the average of two points on the sphere at angle ``angle``."""
    return positive("radius", radius) * float(np.cos(positive("angle", angle, allow_zero=True) / 2))


def sparse_averaging(a: float = 2.0, theta: float = 1.0) -> AveragingExample:
    """Minimal 2-D instance (the sparsity example): ``psi = theta ||x||_1``, ``c_1 = (a, 0)``, ``c_2 = (a, 1.5 theta)``.

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
