"""Exact linear model of decentralized local GD with lookahead on quadratics.

Clients ``f_i(x) = 1/2 x'A_i x - b_i'x``; ``K`` exact gradient steps map a start ``x`` to ``M_i x + v_i`` with
``M_i = (I - eta A_i)^K`` and ``v_i = sum_{k<K} (I - eta A_i)^k eta b_i`` (``= (I - M_i) A_i^{-1} b_i`` when ``A_i``
is invertible). With lookahead ``beta`` and mixing matrix ``W``, the local starts obey

    X_0^{t+1} = (W_beta kron I) (blkdiag(M_i) X_0^t + v),     W_beta = (1 + beta) W - beta I,

from ``X_0^0 = x^0`` (every client). Its fixed point, spectral radius (stable iff < 1, and then the linear rate),
output ``x̄^∞ = mean_i(M_i x_{i,0}^∞ + v_i)`` and bias ``||x̄^∞ - x*||`` are exact up to one linear solve. Also: the
complete-graph closed form, the scalar instance in exact arithmetic (sympy), and the stability threshold of
identical Hessians.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.linalg
import sympy as sp

from .._validate import finite_array, positive, positive_int
from ..errors import InvalidParameterError


def local_gd_maps(A, b, eta: float, K: int) -> tuple[np.ndarray, np.ndarray]:
    """``(M_i, v_i)`` of ``K`` gradient steps of step ``eta`` on ``1/2 x'A_i x - b_i'x``: ``(m, d, d)``, ``(m, d)``."""
    A, b = finite_array("A", A, ndim=3), finite_array("b", b, ndim=2)
    eta, K = positive("eta", eta), positive_int("K", K)
    step = np.eye(A.shape[-1]) - eta * A
    M, v = np.broadcast_to(np.eye(A.shape[-1]), A.shape).copy(), np.zeros_like(b)
    for _ in range(K):
        M = step @ M
        v = np.einsum("mij,mj->mi", step, v) + eta * b
    return M, v


@dataclass
class LinearLookahead:
    """The affine round map of the local starts on quadratics (see the module docstring).

    Parameters
    ----------
    A : array (m, d, d), b : array (m, d)
        Client Hessians and linear terms.
    W : array (m, m)
        Mixing matrix (dense; a :class:`~fedtheory.topology.MixingMatrix`'s ``dense``).
    eta, K, beta
        Local step, local steps, lookahead coefficient.
    """

    A: np.ndarray
    b: np.ndarray
    W: np.ndarray
    eta: float
    K: int
    beta: float

    def __post_init__(self):
        self.A, self.b = finite_array("A", self.A, ndim=3), finite_array("b", self.b, ndim=2)
        self.W = finite_array("W", self.W, ndim=2)
        m, d = self.b.shape
        if self.A.shape != (m, d, d) or self.W.shape != (m, m):
            raise InvalidParameterError("A", f"shapes A (m, d, d), b (m, d), W (m, m) with m = {m}, d = {d}")
        self.M, self.v = local_gd_maps(self.A, self.b, self.eta, self.K)
        self.W_beta = (1 + self.beta) * self.W - self.beta * np.eye(m)

    @property
    def m(self) -> int:
        return self.b.shape[0]

    @property
    def d(self) -> int:
        return self.b.shape[1]

    @cached_property
    def transition(self) -> np.ndarray:
        """``(W_beta kron I) blkdiag(M_i)``, ``(m d, m d)``."""
        return np.kron(self.W_beta, np.eye(self.d)) @ scipy.linalg.block_diag(*self.M)

    @cached_property
    def offset(self) -> np.ndarray:
        """``(W_beta kron I) v``, ``(m d,)``."""
        return (self.W_beta @ self.v).ravel()

    @cached_property
    def spectral_radius(self) -> float:
        """``rho((W_beta kron I) blkdiag(M_i))``: the recursion converges iff < 1, at this linear rate."""
        return float(np.max(np.abs(np.linalg.eigvals(self.transition))))

    @cached_property
    def fixed_start(self) -> np.ndarray:
        """``X_0^∞`` ``(m, d)``: the solution of ``(I - transition) X = offset`` (1 must not be an eigenvalue)."""
        n = self.m * self.d
        return np.linalg.solve(np.eye(n) - self.transition, self.offset).reshape(self.m, self.d)

    @property
    def fixed_local(self) -> np.ndarray:
        """``X_K^∞ = M_i x_{i,0}^∞ + v_i``."""
        return np.einsum("mij,mj->mi", self.M, self.fixed_start) + self.v

    @property
    def fixed_models(self) -> np.ndarray:
        """The aggregated models ``x_i^∞ = sum_j w_ij x_{j,K}^∞``."""
        return self.W @ self.fixed_local

    @property
    def output(self) -> np.ndarray:
        """``x̄^∞``, the mean of the aggregated models (= the mean of ``X_K^∞``)."""
        return self.fixed_local.mean(axis=0)

    @cached_property
    def x_star(self) -> np.ndarray:
        """The minimiser of ``(1/m) sum_i f_i``."""
        return np.linalg.solve(self.A.sum(axis=0), self.b.sum(axis=0))

    @property
    def bias(self) -> float:
        """``||x̄^∞ - x*||``."""
        return float(np.linalg.norm(self.output - self.x_star))

    def iterate(self, x0, rounds: int) -> np.ndarray:
        """The local starts ``X_0^t``, ``t = 0..rounds``, from every client at ``x0``: ``(rounds + 1, m, d)``."""
        X = np.broadcast_to(np.asarray(x0, dtype=float), (self.m, self.d)).ravel()
        out = [X]
        for _ in range(positive_int("rounds", rounds, minimum=0)):
            X = self.transition @ X + self.offset
            out.append(X)
        return np.stack(out).reshape(-1, self.m, self.d)


def complete_graph_output(A, b, eta: float, K: int, beta: float) -> np.ndarray:
    """On the complete graph ``W = 11'/m``: ``x̄^∞ = (sum_i Omega_i)^{-1} sum_i (I + beta M_i)^{-1} v_i`` with
    ``Omega_i = (I + beta M_i)^{-1} (I - M_i)`` (``Omega_i c_i`` with ``c_i = A_i^{-1} b_i``)."""
    M, v = local_gd_maps(A, b, eta, K)
    eye = np.eye(M.shape[-1])
    inv = np.linalg.inv(eye + beta * M)
    Omega = inv @ (eye - M)
    return np.linalg.solve(Omega.sum(axis=0), np.einsum("mij,mj->i", inv, v))


def scalar_output_exact(a, c, W, eta, K: int, beta):
    """``x̄^∞`` of the scalar instance ``f_i = (a_i/2)(x - c_i)^2`` in exact (sympy) arithmetic: every argument may be
    a sympy number or symbol, ``W`` a sympy Matrix. Returns a sympy expression (simplified rational function)."""
    a, c = [sp.sympify(x) for x in a], [sp.sympify(x) for x in c]
    W, m = sp.Matrix(W), len(a)
    M = [(1 - eta * ai) ** K for ai in a]
    v = sp.Matrix([(1 - Mi) * ci for Mi, ci in zip(M, c, strict=True)])
    W_beta = (1 + beta) * W - beta * sp.eye(m)
    X = (sp.eye(m) - W_beta * sp.diag(*M)).LUsolve(W_beta * v)
    return sp.simplify(sum(M[i] * X[i] + v[i] for i in range(m)) / m)


def identical_hessian_threshold(lambda_min: float, s: float) -> float:
    """With ``A_i = a I`` and contraction ``s = (1 - eta a)^K`` in (0, 1]: the recursion is stable for
    ``0 <= beta < (1/s + lambda_min)/(1 - lambda_min)`` (the mode ``lambda_min`` leaves the unit disc there)."""
    if not 0 < s <= 1:
        raise InvalidParameterError("s", "a contraction (1 - eta a)^K in (0, 1]", s)
    return (1 / s + lambda_min) / (1 - lambda_min)
