"""Seeded instances of simple bilevel problems: least-squares and residual-norm inner losses with a known truth."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import InvalidParameterError
from .inner import InnerLeastSquares, ResidualNorm
from .outer import SquaredDistance


@dataclass(frozen=True)
class RegressionInstance:
    """A least-squares inner problem with its ground truth.

    Attributes
    ----------
    inner : InnerLeastSquares
    x_true : ndarray (n,)
        The sparse vector that generated the responses.
    scale : float
        The factor applied to every row of ``U`` (normalisation times ``row_scale``).
    recipe : str
        The generating recipe, in words.
    """

    inner: InnerLeastSquares
    x_true: np.ndarray
    scale: float
    recipe: str


def _sparse(rng: np.random.Generator, n: int, sparsity: int) -> np.ndarray:
    sparsity = positive_int("sparsity", sparsity)
    if sparsity > n:
        raise InvalidParameterError("sparsity", f"at most n = {n}", sparsity)
    x = np.zeros(n)
    x[rng.choice(n, size=sparsity, replace=False)] = rng.standard_normal(sparsity)
    return x


def ls_instance(
    m: int, n: int, N: int, rng: np.random.Generator, *, sparsity: int = 5, row_scale: float = 1.0
) -> RegressionInstance:
    """LS(m, n, N): an underdetermined least-squares inner problem over ``N`` clients.

    Recipe: ``U`` has i.i.d. ``N(0, 1/n)`` entries (``m x n``), times ``row_scale``; ``x_true`` has ``sparsity``
    nonzero ``N(0, 1)`` entries on a uniformly random support; ``v = U x_true`` (consistent, ``h* = 0``); rows are
    split evenly into ``N`` consecutive clients (:meth:`InnerLeastSquares.split`). Draw order: ``U``, support,
    values.
    """
    rng = generator("rng", rng)
    m, n, N = positive_int("m", m), positive_int("n", n), positive_int("N", N)
    row_scale = positive("row_scale", row_scale)
    U = row_scale * rng.standard_normal((m, n)) / math.sqrt(n)
    x_true = _sparse(rng, n, sparsity)
    recipe = (
        f"LS({m}, {n}, {N}): U_ij ~ N(0, 1/n) x {row_scale:g}, x_true {sparsity}-sparse N(0, 1), "
        "v = U x_true, rows split evenly"
    )
    return RegressionInstance(InnerLeastSquares.split(U, U @ x_true, N), x_true, row_scale, recipe)


@dataclass(frozen=True)
class DriftInstance:
    """Heterogeneous LS clients for the client-drift fixed point.

    Attributes
    ----------
    inner : InnerLeastSquares
        LS(8, 6, 4) by default (2 rows per client).
    outer : SquaredDistance
        ``f = 1/2 ||x||^2``.
    eta : float
        0.3.
    K : int
        10.
    gamma_l : tuple of float
        ``(0.05, 0.02, 0.01, 0.005)``.
    x_true : ndarray
    """

    inner: InnerLeastSquares
    outer: SquaredDistance
    eta: float
    K: int
    gamma_l: tuple[float, ...]
    x_true: np.ndarray


def drift_instance(
    rng: np.random.Generator,
    *,
    m: int = 8,
    n: int = 6,
    N: int = 4,
    eta: float = 0.3,
    K: int = 10,
    gamma_l=(0.05, 0.02, 0.01, 0.005),
) -> DriftInstance:
    """``LS(m, n, N)`` (:func:`ls_instance`, default 8 x 6 with 4 clients of 2 rows), outer
    ``f = 1/2 ||x||^2``, ``eta = 0.3``, ``K = 10``, ``gamma_l in {0.05, 0.02, 0.01, 0.005}``."""
    base = ls_instance(m, n, N, rng, sparsity=min(5, n))
    gammas = tuple(positive("gamma_l", g) for g in gamma_l)
    return DriftInstance(
        base.inner, SquaredDistance(np.zeros(n)), positive("eta", eta), positive_int("K", K), gammas, base.x_true
    )


@dataclass(frozen=True)
class ResidualNormInstance:
    """``h = ||U x - v||_p`` (consistent) with ``f = 1/2 ||x - x0||^2``.

    Attributes
    ----------
    inner : ResidualNorm
    outer : SquaredDistance
    x0 : ndarray (n,)
    x_true : ndarray (n,)
    """

    inner: ResidualNorm
    outer: SquaredDistance
    x0: np.ndarray
    x_true: np.ndarray


def residual_norm_instance(
    rng: np.random.Generator, *, m: int = 5, n: int = 8, p: int = 2, x0_std: float = 3.0
) -> ResidualNormInstance:
    """``U`` (``m x n`` = 5 x 8) with i.i.d. ``N(0, 1)`` entries, ``x_true ~ N(0, I_n)``,
    ``v = U x_true`` (consistent), ``h = ||U x - v||_p``, ``f = 1/2 ||x - x0||^2`` with ``x0 ~ N(0, x0_std^2 I)``
    (``N(0, 9 I)`` by default). Draw order: ``U``, ``x_true``, ``x0``."""
    rng = generator("rng", rng)
    m, n = positive_int("m", m), positive_int("n", n)
    U = rng.standard_normal((m, n))
    x_true = rng.standard_normal(n)
    x0 = positive("x0_std", x0_std) * rng.standard_normal(n)
    return ResidualNormInstance(ResidualNorm(U, U @ x_true, p), SquaredDistance(x0), x0, x_true)


def heterogeneous_regression(
    rng: np.random.Generator,
    n: int = 100,
    m: int = 73,
    N: int = 10,
    noise: float = 0.1,
    *,
    sparsity: int = 5,
    lambda_max: float = 1.0,
    client_L_max: float = 5.0,
    row_scale: float = 1.0,
) -> RegressionInstance:
    """Heterogeneous sparse regression over ``N`` clients (a synthetic, scaled-down stand-in for a federated
    regression data set).

    Recipe:

    1. ``m`` rows split evenly into ``N`` clients (73 rows, 10 clients: 7-8 rows each, the first 3 get 8);
    2. client ``i`` draws ``z_i ~ N(0, I_n)``, ``D_i = diag(exp(0.5 z_i))`` and rows ``U_il ~ N(0, D_i^2/n)``
       (client heterogeneity);
    3. every row is multiplied by ``c = row_scale min{sqrt(lambda_max/lambda_max(H)),
       sqrt(client_L_max/max_i L_{h_i})}`` (``H = U'U/N``, ``L_{h_i} = sigma_max(U_i)^2``), so that
       ``lambda_max(H) <= 1`` and ``max_i L_{h_i} <= 5`` with equality in the binding one (``row_scale < 1``
       shrinks further, e.g. after an unstable round map);
    4. ``x_true`` is ``sparsity``-sparse (5) with ``N(0, 1)`` entries, ``v = U x_true + noise N(0, I_m)``; ``m < n``
       and ``U`` of full row rank make the system consistent anyway (``h* = 0`` up to rounding).

    Draw order: ``z_1..z_N``, the Gaussian rows, support, values, noise.
    """
    rng = generator("rng", rng)
    n, m, N = positive_int("n", n), positive_int("m", m), positive_int("N", N)
    noise, row_scale = positive("noise", noise, allow_zero=True), positive("row_scale", row_scale)
    if N > m:
        raise InvalidParameterError("N", f"at most m = {m} clients (each needs a row)", N)
    sizes = np.array([len(b) for b in np.array_split(np.arange(m), N)])
    client = np.repeat(np.arange(N), sizes)
    D = np.exp(0.5 * rng.standard_normal((N, n)))
    U = rng.standard_normal((m, n)) * D[client] / math.sqrt(n)
    blocks = np.split(U, np.cumsum(sizes)[:-1])
    lam = np.linalg.norm(U, 2) ** 2 / N
    L_max = max(np.linalg.norm(b, 2) ** 2 for b in blocks)
    scale = row_scale * min(
        math.sqrt(positive("lambda_max", lambda_max) / lam), math.sqrt(positive("client_L_max", client_L_max) / L_max)
    )
    U = scale * U
    x_true = _sparse(rng, n, sparsity)
    v = U @ x_true + noise * rng.standard_normal(m)
    recipe = (
        f"Exp. 1 scale-down: n = {n}, m = {m}, N = {N}, rows N(0, D_i^2/n) with D_i = diag(exp(0.5 z_i)), "
        f"scaled by {scale:.6g} (lambda_max(H) <= {lambda_max:g}, max L_hi <= {client_L_max:g}, row_scale "
        f"{row_scale:g}), x_true {sparsity}-sparse N(0, 1), v = U x_true + {noise:g} N(0, I)"
    )
    return RegressionInstance(InnerLeastSquares.split(U, v, N), x_true, scale, recipe)
