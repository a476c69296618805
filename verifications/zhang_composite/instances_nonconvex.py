"""Smooth non-convex clients for the checks of Theorem 3.5 and its lemmas (no claims).

Client ``i`` holds

    f_i(x) = (a/2)||x||^2 - b'x + beta sum_j (1 - cos(omega x_j)) + x'S_i x/2 - u_i'x,

with ``sum_i S_i = 0`` and ``sum_i u_i = 0``: the mean ``f = (a/2)||x||^2 - b'x + beta sum_j (1 - cos(omega x_j))`` is
separable, bounded below, and non-convex when ``beta omega^2 > a`` (its Hessian is ``diag(a + beta omega^2
cos(omega x_j))``); the symmetric ``S_i`` make the client Hessians indefinite even where ``f`` is convex (with ``beta =
0``: quadratics whose mean Hessian is ``a I`` and whose client Hessians are indefinite). Every constant is exact:

* ``L = max_i max(a + beta omega^2 + lambda_max(S_i), beta omega^2 - a - lambda_min(S_i))``, the largest ``||grad^2
  f_i(x)||`` over ``x`` (``grad^2 f_i = D(x) + S_i`` with ``D(x)`` diagonal in ``[a - beta omega^2, a + beta
  omega^2]``, every diagonal of that box attained; ``lambda_max`` is largest at ``D = (a + beta omega^2) I`` and
  ``lambda_min`` smallest at ``D = (a - beta omega^2) I``);
* ``F* = min f + theta ||.||_1`` coordinate by coordinate: ``h_j(u) = (a/2)u^2 - b_j u + beta (1 - cos(omega u)) +
  theta |u|`` on ``|u| <= (|b_j| + beta omega + theta)/a`` (outside, ``h_j`` increases away from 0), on a grid that
  contains 0, every discrete local minimum refined by a vectorised golden-section search and Newton's method on
  ``h_j' = 0`` (to the rounding of ``x*``); a minimum the grid could miss lies in one cell, within ``(a + beta
  omega^2) s^2/8`` of the grid's values (``s`` the spacing), which the certificate records.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from fedtheory.problems.base import Problem

REGISTERS_CLAIMS = False

GOLDEN = (np.sqrt(5.0) - 1) / 2
CELLS_PER_PERIOD = 1000
NEWTON_STEPS = 4  # from golden section's ~1e-8, quadratic convergence reaches rounding in two or three steps
GOLDEN_STEPS = 40  # brackets of two cells shrink by 0.618^40 ~ 4e-9


class WavyQuadratic(Problem):
    """The clients above; ``S`` (n, d, d) and ``u`` (n, d) are centred over the clients here.

    Parameters
    ----------
    a, beta, omega : float
        Curvature of the quadratic part, amplitude and frequency of the cosine part (``a > 0``, ``beta >= 0``).
    b : array (d,)
        Linear term of the mean.
    S : array (n, d, d)
        Symmetric client Hessian offsets.
    u : array (n, d)
        Client linear offsets.
    """

    def __init__(self, a: float, beta: float, omega: float, b, S, u):
        self.a, self.beta, self.omega = float(a), float(beta), float(omega)
        self.b = np.asarray(b, dtype=float)
        S = np.asarray(S, dtype=float)
        S = (S + np.swapaxes(S, -1, -2)) / 2
        self.S = S - S.mean(axis=0)
        u = np.asarray(u, dtype=float)
        self.u = u - u.mean(axis=0)
        self.dim = self.b.size
        self.n_clients = self.S.shape[0]

    @cached_property
    def L(self) -> float:
        """The exact smoothness constant of the clients (module docstring)."""
        eig = np.linalg.eigvalsh(self.S)
        curv = self.beta * self.omega**2
        return float(np.max(np.maximum(self.a + curv + eig[:, -1], curv - self.a - eig[:, 0])))

    @property
    def convex(self) -> bool:
        """Whether the mean ``f`` is convex (``beta omega^2 <= a``)."""
        return self.beta * self.omega**2 <= self.a

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        wave = np.sum(1 - np.cos(self.omega * x), axis=-1)
        return 0.5 * self.a * np.sum(x * x, axis=-1) - x @ self.b + self.beta * wave

    def client_grad(self, x) -> np.ndarray:
        x = self.check_client_points(x)
        smooth = self.a * x - self.b + self.beta * self.omega * np.sin(self.omega * x)
        return smooth + np.einsum("mij,...mj->...mi", self.S, x) - self.u

    def minimum(self, theta: float) -> tuple[np.ndarray, float, dict]:
        """``(x*, F*, certificate)`` of ``f + theta ||.||_1`` (module docstring)."""
        half = (np.abs(self.b) + self.beta * self.omega + theta) / self.a + 1.0  # (d,)
        period = 2 * np.pi / self.omega
        cells = int(np.ceil(np.max(half) / period * CELLS_PER_PERIOD))
        s = np.max(half) / cells
        grid = s * np.arange(-cells, cells + 1)[:, None] * np.ones(self.dim)  # (2 cells + 1, d), row `cells` is 0
        h = self._h_at(grid, np.arange(self.dim), theta)
        k, j = np.nonzero((h[1:-1] <= h[:-2]) & (h[1:-1] <= h[2:]))
        lo, hi = grid[k, j], grid[k + 2, j]
        for _ in range(GOLDEN_STEPS):  # golden-section search on every bracket at once
            x1, x2 = hi - GOLDEN * (hi - lo), lo + GOLDEN * (hi - lo)
            left = self._h_at(x1, j, theta) <= self._h_at(x2, j, theta)
            lo, hi = np.where(left, lo, x1), np.where(left, x2, hi)
        u = (lo + hi) / 2  # golden section resolves a minimum to ~sqrt(eps) only (values differ below rounding)
        for _ in range(NEWTON_STEPS):  # Newton on h'(u) = 0 where h is smooth (u != 0) and convex (h'' > 0)
            sign = np.sign(u)
            grad = self.a * u - self.b[j] + self.beta * self.omega * np.sin(self.omega * u) + theta * sign
            curv = self.a + self.beta * self.omega**2 * np.cos(self.omega * u)
            step = np.where((sign != 0) & (curv > 0), grad / np.where(curv > 0, curv, 1.0), 0.0)
            u = np.where(np.sign(u - step) == sign, u - step, u)
        cand_u = np.concatenate([np.zeros(self.dim), grid[k + 1, j], u])
        cand_j = np.concatenate([np.arange(self.dim), j, j])
        cand_h = self._h_at(cand_u, cand_j, theta)
        order = np.lexsort((cand_h, cand_j))
        first = order[np.r_[True, np.diff(cand_j[order]) != 0]]  # the smallest candidate of each coordinate
        x_star = cand_u[first]
        best = cand_h[first]
        certificate = {
            "method": "grid over |u| <= (|b_j| + beta omega + theta)/a + 1 with 0 a node, golden-section refinement "
            "of every discrete local minimum, then Newton steps on h'(u) = 0",
            "grid spacing": float(s),
            "largest miss a cell allows": float((self.a + self.beta * self.omega**2) * s**2 / 8),
        }
        return x_star, float(np.sum(best)), certificate

    def _h_at(self, u, j, theta: float) -> np.ndarray:
        """``h_j(u)`` for points ``u`` of coordinates ``j`` (broadcast)."""
        wave = 1 - np.cos(self.omega * u)
        return 0.5 * self.a * u * u - self.b[j] * u + self.beta * wave + theta * np.abs(u)

    def gap(self, x, x_star, theta: float) -> np.ndarray:
        """``F(x) - F(x*)`` over the last axis, each coordinate's difference as a sum of products of ``x_j - x*_j`` with
        bounded factors (no cancellation of O(1) values; the first-order terms cancel to second order near ``x*``)."""
        x = self.check_point(x)
        e, s = x - x_star, x + x_star
        w = self.omega / 2
        terms = (
            0.5 * self.a * e * s
            - self.b * e
            + 2 * self.beta * np.sin(w * s) * np.sin(w * e)
            + theta * (np.abs(x) - np.abs(x_star))
        )
        return np.sum(terms, axis=-1)


def wavy_l1(
    rng: np.random.Generator, n: int, d: int, *, curvature: float, spread: float, hessian_spread: float
) -> WavyQuadratic:
    """A seeded instance: ``a = 1``, ``omega = 3``, ``beta omega^2 = curvature`` (non-convex mean above 1), ``b``
    standard normal, client offsets ``u_i = spread w_i`` and ``S_i = hessian_spread (G_i + G_i')/(2 sqrt(d))`` with
    standard normal ``w_i``, ``G_i`` (both centred over the clients)."""
    omega = 3.0
    G = rng.standard_normal((n, d, d))
    return WavyQuadratic(
        1.0,
        curvature / omega**2,
        omega,
        rng.standard_normal(d),
        hessian_spread * (G + np.swapaxes(G, -1, -2)) / (2 * np.sqrt(d)),
        spread * rng.standard_normal((n, d)),
    )
