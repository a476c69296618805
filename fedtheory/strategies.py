"""Hypothesis strategies for the objects a test of a federated method needs.

* :func:`federated_quadratics`: :class:`~fedtheory.problems.FederatedQuadratic` with prescribed ``L``, ``mu`` and
  heterogeneity at the optimum ``zeta_star``;
* :func:`connected_graphs` and :func:`mixing_matrices`: mixing matrices that satisfy the four conditions of the
  decentralized definition (:mod:`fedtheory.topology`);
* :func:`regularizers` and :func:`prox_cases`: regularizers of :mod:`fedtheory.regularizers` with the inputs of
  their prox (a point ``v`` and a step ``t > 0``);
* :func:`step_sizes`: step sizes inside a printed condition such as ``eta <= 1/(4L)``.

Every parameter is a value or a strategy, so the strategies compose (``federated_quadratics(mu=st.floats(0.01, 1))``).
They shrink towards simple objects and towards the edge of a printed condition: identity rotations, a path graph,
zero heterogeneity vectors, a step on the printed limit.

This module needs Hypothesis, which comes with the ``test`` extra (``pip install 'fedtheory[test]'``); ``import
fedtheory`` never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ModuleNotFoundError as exc:  # pragma: no cover - exercised only without the test extra
    raise ModuleNotFoundError(
        "fedtheory.strategies needs Hypothesis: install the test extra (pip install 'fedtheory[test]')",
        name=exc.name,
    ) from exc

from ._validate import positive
from .errors import InvalidParameterError
from .problems import FederatedQuadratic
from .regularizers import L1, Box, ElasticNet, L1Ball, L2Ball, Regularizer, Simplex, SquaredL2
from .topology import MixingMatrix, complete, exponential, metropolis, ring

SearchStrategy = st.SearchStrategy
UNIT = st.floats(0.0, 1.0, allow_nan=False)
"""A fraction in ``[0, 1]`` (shrinks to 0)."""
COORDINATE = st.floats(-10.0, 10.0, allow_nan=False)
"""One coordinate of a point or a direction (shrinks to 0)."""
DIMS = st.integers(2, 4)
"""Default dimensions of a problem."""
CLIENTS = st.integers(2, 8)
"""Default numbers of clients (nodes of a graph)."""
MUS = st.floats(1e-3, 1.0)
"""Default strong convexity (with the default ``L = 1``: condition numbers up to 1000)."""
ZETAS = st.floats(0.0, 10.0)
"""Default heterogeneity at the optimum."""
PROX_STEPS = st.floats(1e-3, 10.0)
"""Default prox steps ``t``."""


def as_strategy(value) -> SearchStrategy:
    """``value`` itself if it is a strategy, else the strategy that always draws it."""
    return value if isinstance(value, SearchStrategy) else st.just(value)


def vectors(dim: int, elements: SearchStrategy = COORDINATE) -> SearchStrategy[np.ndarray]:
    """Vectors of length ``dim`` with entries from ``elements`` (each entry shrinks on its own)."""
    return st.lists(elements, min_size=dim, max_size=dim).map(lambda xs: np.array(xs, dtype=float))


def rotations(dim: int) -> SearchStrategy[np.ndarray]:
    """Orthogonal ``(dim, dim)`` matrices: the Q factor of a drawn matrix (shrinks to the identity)."""
    return vectors(dim * dim).map(lambda g: _orthogonal(np.eye(dim) + g.reshape(dim, dim)))


def _orthogonal(G: np.ndarray) -> np.ndarray:
    """The Q factor of ``G`` with signs fixed by ``diag(R) >= 0`` (Householder QR: orthogonal even for singular G)."""
    Q, R = np.linalg.qr(G)
    return Q * np.where(np.diag(R) < 0, -1.0, 1.0)


@st.composite
def federated_quadratics(
    draw,
    *,
    dim: int | SearchStrategy[int] = DIMS,
    n_clients: int | SearchStrategy[int] = CLIENTS,
    L: float | SearchStrategy[float] = 1.0,
    mu: float | SearchStrategy[float] = MUS,
    zeta_star: float | SearchStrategy[float] = ZETAS,
    shared_hessian: bool | SearchStrategy[bool] = False,
) -> FederatedQuadratic:
    """Federated quadratics ``F = (1/M) sum_m 1/2 x'A_m x - b_m'x`` whose constants are the prescribed ones.

    Parameters
    ----------
    dim, n_clients : int or strategy of int
        The dimension ``d`` (at least 2 when ``L > mu``) and the number of clients ``M`` (at least 2 when
        ``zeta_star > 0``).
    L : float or strategy of float
        ``problem.L = max_m lambda_max(A_m)``, attained by client 0.
    mu : float or strategy of float
        ``problem.mu = lambda_min((1/M) sum_m A_m) > 0``, with ``mu <= L`` (draws with ``mu > L`` are rejected).
    zeta_star : float or strategy of float
        ``problem.zeta_star = sqrt((1/M) sum_m ||grad F_m(x*)||^2)``, the spread of the client gradients at the
        optimum (Assumption 2.4).
    shared_hessian : bool or strategy of bool
        One Hessian for every client (then ``problem.zeta = max_m ||grad F_m(x*)||`` is finite, Assumption 2.3);
        otherwise each client has its own, non-commuting one (when ``L > mu``: at ``L = mu`` every Hessian is
        ``mu I``, shared whatever this says).

    Notes
    -----
    Construction: a unit direction ``u`` is an eigenvector of every ``A_m`` with eigenvalue ``mu`` and each ``A_m``
    has its other eigenvalues in ``[mu, L]`` in a rotation of its own on ``u^perp``, so the mean Hessian has smallest
    eigenvalue exactly ``mu``; client 0 has ``L``. The gradients ``g_m`` at a drawn ``x*`` are drawn, centred
    (``sum_m g_m = 0`` makes ``x*`` the minimiser) and scaled to ``zeta_star``; then ``b_m = A_m x* - g_m``. The
    constants match to rounding (relative ``1e-9`` for moderate ``L / mu``).
    """
    d, M = draw(as_strategy(dim)), draw(as_strategy(n_clients))
    L_, mu_ = positive("L", draw(as_strategy(L))), positive("mu", draw(as_strategy(mu)))
    zeta = positive("zeta_star", draw(as_strategy(zeta_star)), allow_zero=True)
    shared = draw(as_strategy(shared_hessian))
    assume(mu_ <= L_)
    if d < 2 and mu_ < L_:
        raise InvalidParameterError("dim", "a dimension >= 2 when L > mu (one direction has mu, another L)", d)
    if M < 2 and zeta > 0:
        raise InvalidParameterError("n_clients", "at least 2 clients when zeta_star > 0", M)
    basis = draw(rotations(d))  # basis[:, 0] is u, the common eigenvector with eigenvalue mu
    hessians = []
    for m in range(1 if shared else M):
        spectrum = mu_ + (L_ - mu_) * draw(vectors(d - 1, UNIT))
        if m == 0 and d > 1:
            spectrum[-1] = L_
        inner = draw(rotations(d - 1)) if d > 1 else np.eye(0)
        rotation = basis @ np.block([[np.ones((1, 1)), np.zeros((1, d - 1))], [np.zeros((d - 1, 1)), inner]])
        A = rotation @ np.diag(np.concatenate([[mu_], spectrum])) @ rotation.T
        hessians.append((A + A.T) / 2)
    A = np.stack(hessians) if not shared else np.broadcast_to(hessians[0], (M, d, d))
    x_star = draw(vectors(d))
    g = draw(vectors(M * d)).reshape(M, d)
    g -= g.mean(axis=0)
    spread = np.sqrt(np.mean(np.sum(g**2, axis=1)))
    if zeta > 0 and spread == 0:  # shrunk to no spread: the simplest one, client 0 against client 1
        g[0, 0], g[1, 0] = 1.0, -1.0
        spread = np.sqrt(2.0 / M)
    g = g * (zeta / spread) if zeta > 0 else np.zeros_like(g)
    b = np.einsum("mij,j->mi", A, x_star) - g
    return FederatedQuadratic(A[0] if shared else A, b)


class ProblemAndStep(NamedTuple):
    """A problem and a step size drawn inside a condition on it."""

    problem: object
    step: float


def step_sizes(
    problem=None,
    *,
    upper: float | Callable[[object], float],
    lower: float | Callable[[object], float] = 0.0,
) -> SearchStrategy[float]:
    """Step sizes in ``(lower, upper]``, the printed condition of a theorem (``eta <= 1/(4L)``).

    Parameters
    ----------
    problem : object, optional
        What the bounds are computed from when they are callables (a problem, a dict of constants).
    upper, lower : float or callable of ``problem``
        The condition's ends: ``upper=lambda p: 1 / (4 * p.L)``. ``upper`` is included, ``lower`` excluded.

    Notes
    -----
    The step is ``upper - s (upper - lower)`` with ``s in [0, 1)``: it shrinks to ``upper``, the edge of the
    condition, where a printed bound is tightest. With a strategy of problems, draw both with
    :func:`problems_and_steps`.

    Raises
    ------
    InvalidParameterError
        If the condition is empty or not finite (``lower >= upper``).
    """
    hi = upper(problem) if callable(upper) else upper
    lo = lower(problem) if callable(lower) else lower
    if not (np.isfinite(hi) and np.isfinite(lo) and lo < hi):
        raise InvalidParameterError("upper", f"a finite condition lower < upper (lower = {lo})", hi)
    return st.floats(0.0, 1.0, exclude_max=True).map(lambda s: float(hi - s * (hi - lo))).filter(lambda t: lo < t)


def problems_and_steps(
    problems: SearchStrategy,
    *,
    upper: float | Callable[[object], float],
    lower: float | Callable[[object], float] = 0.0,
) -> SearchStrategy[ProblemAndStep]:
    """A problem from ``problems`` and a step in the condition ``(lower(p), upper(p)]`` on it (:func:`step_sizes`)."""
    return problems.flatmap(lambda p: step_sizes(p, upper=upper, lower=lower).map(lambda step: ProblemAndStep(p, step)))


@st.composite
def connected_graphs(draw, m: int | SearchStrategy[int] = CLIENTS) -> np.ndarray:
    """Adjacency matrices (symmetric, boolean, empty diagonal) of connected graphs on ``m`` nodes.

    A spanning tree (node ``i`` joined to a drawn earlier node) plus drawn extra edges; shrinks to the path.
    """
    n = draw(as_strategy(m))
    adj = np.zeros((n, n), dtype=bool)
    for i in range(1, n):
        parent = i - 1 - draw(st.integers(0, i - 1))
        adj[i, parent] = adj[parent, i] = True
    for i, j in zip(*np.triu_indices(n, 1)):
        if not adj[i, j] and draw(st.booleans()):
            adj[i, j] = adj[j, i] = True
    return adj


MIXING_KINDS = ("metropolis", "complete", "ring", "exponential")
"""What :func:`mixing_matrices` draws from: Metropolis weights on a random connected graph, the complete graph, the
ring (any self weight) and the symmetric exponential graph."""


@st.composite
def mixing_matrices(
    draw,
    m: int | SearchStrategy[int] = CLIENTS,
    kinds: tuple[str, ...] = MIXING_KINDS,
) -> MixingMatrix:
    """Symmetric mixing matrices of ``m`` clients satisfying conditions (1)-(4) of :mod:`fedtheory.topology`.

    Parameters
    ----------
    m : int or strategy of int
        The number of clients (a ring needs 3; a draw of a ring with fewer is Metropolis weights instead).
    kinds : tuple of str
        Some of :data:`MIXING_KINDS`; the first is what a draw shrinks to.
    """
    unknown = set(kinds) - set(MIXING_KINDS) if kinds else {"(none)"}
    if unknown:
        raise InvalidParameterError("kinds", f"a non-empty tuple of {', '.join(MIXING_KINDS)}", kinds)
    n = draw(as_strategy(m))
    kind = draw(st.sampled_from(kinds))
    if kind == "complete":
        return complete(n)
    if kind == "ring" and n >= 3:
        return ring(n, self_weight=draw(st.floats(0.05, 0.95)))
    if kind == "exponential" and n >= 2:
        return exponential(n, symmetric=True)
    return metropolis(draw(connected_graphs(n)))


REGULARIZER_KINDS = ("l1", "squared-l2", "elastic-net", "box", "l2-ball", "l1-ball", "simplex")
"""What :func:`regularizers` draws from (the nuclear norm acts on matrices and is left out)."""
WEIGHT = st.floats(0.0, 10.0, allow_nan=False)
RADIUS = st.floats(0.1, 10.0, allow_nan=False)


@st.composite
def regularizers(draw, dim: int = 3, kinds: tuple[str, ...] = REGULARIZER_KINDS) -> Regularizer:
    """Regularizers on vectors of length ``dim``: weights in ``[0, 10]``, radii and totals in ``[0.1, 10]``, boxes
    with ``lo <= hi`` (shrinks to ``L1(0)``, the first kind with zero weight)."""
    unknown = set(kinds) - set(REGULARIZER_KINDS) if kinds else {"(none)"}
    if unknown:
        raise InvalidParameterError("kinds", f"a non-empty tuple of {', '.join(REGULARIZER_KINDS)}", kinds)
    kind = draw(st.sampled_from(kinds))
    if kind == "l1":
        return L1(draw(WEIGHT))
    if kind == "squared-l2":
        return SquaredL2(draw(WEIGHT))
    if kind == "elastic-net":
        return ElasticNet(draw(WEIGHT), draw(WEIGHT))
    if kind == "box":
        lo, width = draw(vectors(dim)), draw(vectors(dim, st.floats(0.0, 10.0)))
        return Box(lo, lo + width)
    if kind == "l2-ball":
        return L2Ball(draw(RADIUS))
    if kind == "l1-ball":
        return L1Ball(draw(RADIUS))
    return Simplex(draw(RADIUS))


class ProxCase(NamedTuple):
    """A regularizer and the inputs of its prox: ``regularizer.prox(v, t)``."""

    regularizer: Regularizer
    v: np.ndarray
    t: float


def prox_cases(
    dim: int = 3,
    kinds: tuple[str, ...] = REGULARIZER_KINDS,
    steps: SearchStrategy[float] = PROX_STEPS,
) -> SearchStrategy[ProxCase]:
    """A regularizer (:func:`regularizers`), a finite point ``v`` of length ``dim`` and a prox step ``t > 0``."""
    return st.builds(ProxCase, regularizers(dim, kinds), vectors(dim), steps)
