"""The exact instances of the "curse of primal averaging" (Section 4.2.2 of the thesis).

The thesis argues with two verbal examples: client optima on a curved boundary average to a point off the boundary,
and sparse client solutions average to a dense one. Both are made exact with
:class:`fedtheory.problems.AveragingExample` (clients ``F_m(x) = ||x - c_m||^2 / 2`` sharing ``psi``):
:func:`curved_constraint` (``psi`` the indicator of a Euclidean ball), :func:`sparse_averaging` (the minimal 2-D l1
instance) and :func:`disjoint_sparse_clients` (client supports on disjoint blocks).
"""

from __future__ import annotations

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import AveragingExample
from fedtheory.regularizers import L1, L2Ball

REGISTERS_CLAIMS = False  # instances; the claims are in sec_4_2_2_curse_of_primal_averaging


def curved_constraint(targets=((3.0, 1.0), (3.0, -1.0)), radius: float = 1.0) -> AveragingExample:
    """Client optima on the sphere of radius ``radius``, ``psi`` the indicator of the ball (curved boundary).

    Default: ``c_1 = (3, 1)``, ``c_2 = (3, -1)``, ``radius = 1``. Client solutions ``(3, +-1)/sqrt(10)`` lie on the
    sphere; their average ``(3/sqrt(10), 0)`` has norm ``radius cos(theta/2) < radius`` (``theta`` the angle between
    them) while ``x* = Proj((3, 0)) = (1, 0)`` is on the sphere.
    """
    return AveragingExample(targets, L2Ball(radius))


def sparse_averaging(a: float = 2.0, theta: float = 1.0) -> AveragingExample:
    """Minimal 2-D instance (the sparsity example): ``psi = theta ||x||_1``, ``c_1 = (a, 0)``, ``c_2 = (a, 1.5 theta)``.

    With ``a > theta``: client solutions ``(a - theta, 0)`` and ``(a - theta, theta/2)``, average
    ``(a - theta, theta/4)`` (both coordinates non-zero), global ``x* = S_theta((a, 3 theta/4)) = (a - theta, 0)``.
    """
    if not a > theta > 0:
        raise InvalidParameterError("a", f"a number > theta = {theta}", a)
    return AveragingExample([[a, 0.0], [a, 1.5 * theta]], L1(theta))
