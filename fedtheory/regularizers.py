"""Regularizers ``psi`` of composite problems ``F + psi``: value, proximal map, subdifferential test.

Each class implements

* ``value(x)``: ``psi(x)`` over the last axis (the last two for :class:`NuclearNorm`);
  indicators return 0 on the set and ``inf`` outside;
* ``prox(v, t)``: ``argmin_x psi(x) + ||x - v||^2 / (2t)`` for a finite ``t > 0`` (``t = 0`` would be the identity
  and is refused, as are negative, NaN and infinite ``t``);
* ``in_subdifferential(p, g)``: whether ``g`` lies in ``partial psi(p)`` (within ``tol``);
* ``check_prox(v, t)``: the optimality condition of the prox, ``(v - p)/t in partial psi(p)``.

Every method is vectorised over leading axes.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validate import integer_array, positive
from .errors import InvalidParameterError


def prox_parameter(t) -> float:
    """The prox step ``t`` as a float after checking it is finite and > 0."""
    if isinstance(t, bool) or not isinstance(t, numbers.Real) or not np.isfinite(float(t)) or t <= 0:
        raise InvalidParameterError("t", "a finite prox step t > 0 (the prox of t psi)", t)
    return float(t)


def soft_threshold(v, tau) -> np.ndarray:
    """``sign(v) max(|v| - tau, 0)``, the prox of ``tau ||.||_1``."""
    v = np.asarray(v, dtype=float)
    return np.sign(v) * np.maximum(np.abs(v) - tau, 0.0)


def project_simplex(v, total: float = 1.0) -> np.ndarray:
    """Euclidean projection of each row of ``v`` onto ``{x >= 0, sum x = total}`` (sort-based, exact)."""
    v = np.asarray(v, dtype=float)
    u = -np.sort(-v, axis=-1)
    css = np.cumsum(u, axis=-1) - total
    ind = np.arange(1, v.shape[-1] + 1)
    rho = np.sum(u - css / ind > 0, axis=-1, keepdims=True)  # number of positive entries, >= 1
    theta = np.take_along_axis(css, rho - 1, axis=-1) / rho
    return np.maximum(v - theta, 0.0)


class Regularizer:
    """Common behaviour; subclasses implement ``value``, ``prox`` and ``in_subdifferential``."""

    def value(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def prox(self, v, t) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def check_prox(self, v, t, *, tol: float = 1e-8) -> np.ndarray:
        """True where ``p = prox(v, t)`` satisfies ``(v - p)/t in partial psi(p)`` (needs ``t > 0``)."""
        t = prox_parameter(t)
        p = self.prox(v, t)
        return self.in_subdifferential(p, (np.asarray(v, dtype=float) - p) / t, tol=tol)


class L1(Regularizer):
    """``psi(x) = lam ||x||_1``."""

    def __init__(self, lam: float):
        self.lam = positive("lam", lam, allow_zero=True)

    def value(self, x) -> np.ndarray:
        return self.lam * np.sum(np.abs(x), axis=-1)

    def prox(self, v, t) -> np.ndarray:
        return soft_threshold(v, prox_parameter(t) * self.lam)

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        tol = tol * max(1.0, self.lam)
        ok = np.where(p != 0, np.abs(g - self.lam * np.sign(p)) <= tol, np.abs(g) <= self.lam + tol)
        return np.all(ok, axis=-1)


class SquaredL2(Regularizer):
    """``psi(x) = (lam/2) ||x||_2^2``."""

    def __init__(self, lam: float):
        self.lam = positive("lam", lam, allow_zero=True)

    def value(self, x) -> np.ndarray:
        return 0.5 * self.lam * np.sum(np.square(x), axis=-1)

    def prox(self, v, t) -> np.ndarray:
        return np.asarray(v, dtype=float) / (1.0 + prox_parameter(t) * self.lam)

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        scale = np.maximum(1.0, np.abs(self.lam * p))
        return np.all(np.abs(g - self.lam * p) <= tol * scale, axis=-1)


class ElasticNet(Regularizer):
    """``psi(x) = l1 ||x||_1 + (l2/2) ||x||_2^2``; its prox is the l1 prox followed by the l2 shrinkage."""

    def __init__(self, l1: float, l2: float):
        self.l1, self.l2 = positive("l1", l1, allow_zero=True), positive("l2", l2, allow_zero=True)
        self._lasso, self._ridge = L1(self.l1), SquaredL2(self.l2)

    def value(self, x) -> np.ndarray:
        return self._lasso.value(x) + self._ridge.value(x)

    def prox(self, v, t) -> np.ndarray:
        t = prox_parameter(t)
        return self._ridge.prox(self._lasso.prox(v, t), t)

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p = np.asarray(p, dtype=float)
        return self._lasso.in_subdifferential(p, np.asarray(g, dtype=float) - self.l2 * p, tol=tol)


class NuclearNorm(Regularizer):
    """``psi(X) = lam ||X||_*`` (sum of singular values) over the last two axes."""

    def __init__(self, lam: float):
        self.lam = positive("lam", lam, allow_zero=True)

    @staticmethod
    def _matrices(x, name: str) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        if x.ndim < 2:
            raise InvalidParameterError(name, "matrices of shape (..., m, n)", f"shape {x.shape}")
        return x

    def value(self, x) -> np.ndarray:
        return self.lam * np.sum(np.linalg.svd(self._matrices(x, "x"), compute_uv=False), axis=-1)

    def prox(self, v, t) -> np.ndarray:
        t = prox_parameter(t)
        U, s, Vt = np.linalg.svd(self._matrices(v, "v"), full_matrices=False)
        return (U * np.maximum(s - t * self.lam, 0.0)[..., None, :]) @ Vt

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        """``G in lam (U_r V_r' + W)`` with ``U_r'W = 0``, ``W V_r = 0``, ``||W||_2 <= 1``."""
        p, g = self._matrices(p, "p"), self._matrices(g, "g")
        tol = tol * max(1.0, self.lam)
        U, s, Vt = np.linalg.svd(p, full_matrices=False)
        out = np.empty(p.shape[:-2], dtype=bool)
        for idx in np.ndindex(out.shape):  # per matrix: the rank differs between matrices
            r = int(np.sum(s[idx] > tol))
            Ur, Vr = U[idx][:, :r], Vt[idx][:r].T
            G = g[idx]
            W = G - Ur @ (Ur.T @ G) - (G @ Vr) @ Vr.T + Ur @ (Ur.T @ G @ Vr) @ Vr.T
            ok = np.linalg.norm(Ur.T @ G - self.lam * Vr.T) <= tol if r else True
            ok = ok and (np.linalg.norm(G @ Vr - self.lam * Ur) <= tol if r else True)
            out[idx] = ok and np.linalg.norm(W, 2) <= self.lam + tol
        return out


class _Indicator(Regularizer):
    """Indicator of a closed convex set: its prox is the projection, whatever ``t > 0``."""

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def project(self, v) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def value(self, x) -> np.ndarray:
        return np.where(self.contains(x), 0.0, np.inf)

    def prox(self, v, t) -> np.ndarray:
        prox_parameter(t)
        return self.project(np.asarray(v, dtype=float))


class Box(_Indicator):
    """Indicator of ``{lo <= x <= hi}`` (bounds broadcast against ``x``; infinite bounds allowed, NaN not)."""

    def __init__(self, lo, hi):
        for name, bound in (("lo", lo), ("hi", hi)):
            try:
                arr = np.asarray(bound, dtype=float)
            except (TypeError, ValueError):
                raise InvalidParameterError(name, "numeric bounds (scalars or arrays)", bound) from None
            if np.any(np.isnan(arr)):
                raise InvalidParameterError(name, "bounds that are numbers or +-inf, not NaN", bound)
        self.lo, self.hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        try:
            crossed = np.any(self.lo > self.hi)
        except ValueError:
            raise InvalidParameterError("hi", f"bounds broadcasting against lo of shape {self.lo.shape}", hi) from None
        if crossed or np.any(self.lo == np.inf) or np.any(self.hi == -np.inf):
            raise InvalidParameterError("lo", "lower bounds lo <= upper bounds hi (a non-empty box)", (lo, hi))

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.all((x >= self.lo - tol) & (x <= self.hi + tol), axis=-1)

    def project(self, v) -> np.ndarray:
        return np.clip(v, self.lo, self.hi)

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        at_lo, at_hi = np.abs(p - self.lo) <= tol, np.abs(p - self.hi) <= tol
        ok = np.where(at_lo & at_hi, True, np.where(at_lo, g <= tol, np.where(at_hi, g >= -tol, np.abs(g) <= tol)))
        return self.contains(p, tol=tol) & np.all(ok, axis=-1)


class L2Ball(_Indicator):
    """Indicator of ``{||x||_2 <= radius}``."""

    def __init__(self, radius: float):
        self.radius = positive("radius", radius)

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:
        return np.linalg.norm(x, axis=-1) <= self.radius * (1 + tol)

    def project(self, v) -> np.ndarray:
        norm = np.linalg.norm(v, axis=-1, keepdims=True)
        return v * np.minimum(1.0, self.radius / np.maximum(norm, np.finfo(float).tiny))

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        on_sphere = np.linalg.norm(p, axis=-1) >= self.radius * (1 - tol)
        c = np.sum(g * p, axis=-1) / self.radius**2  # g = c p with c >= 0 on the sphere
        off = np.linalg.norm(g - c[..., None] * p, axis=-1)
        scale = np.maximum(1.0, np.linalg.norm(g, axis=-1))
        ok = np.where(on_sphere, (c >= -tol) & (off <= tol * scale), np.linalg.norm(g, axis=-1) <= tol)
        return self.contains(p, tol=tol) & ok


class L1Ball(_Indicator):
    """Indicator of ``{||x||_1 <= radius}``; projection by sorting (Duchi et al., 2008)."""

    def __init__(self, radius: float):
        self.radius = positive("radius", radius)

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:
        return np.sum(np.abs(x), axis=-1) <= self.radius * (1 + tol)

    def project(self, v) -> np.ndarray:
        inside = self.contains(v, tol=0.0)[..., None]
        return np.where(inside, v, np.sign(v) * project_simplex(np.abs(v), self.radius))

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        on_boundary = np.sum(np.abs(p), axis=-1) >= self.radius * (1 - tol)
        c = np.max(np.abs(g), axis=-1, keepdims=True)  # g in c * subdiff ||p||_1, c >= 0
        scale = np.maximum(1.0, c)
        cone = np.all(np.where(p != 0, np.abs(g - c * np.sign(p)) <= tol * scale, True), axis=-1)
        ok = np.where(on_boundary, cone, np.all(np.abs(g) <= tol, axis=-1))
        return self.contains(p, tol=tol) & ok


class Simplex(_Indicator):
    """Indicator of ``{x >= 0, sum x = total}``."""

    def __init__(self, total: float = 1.0):
        self.total = positive("total", total)

    def contains(self, x, *, tol: float = 1e-10) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.all(x >= -tol, axis=-1) & (np.abs(np.sum(x, axis=-1) - self.total) <= tol * max(1, self.total))

    def project(self, v) -> np.ndarray:
        return project_simplex(v, self.total)

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        """Normal cone: ``g_i = tau`` on the support of ``p`` and ``g_i <= tau`` off it."""
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        support = p > tol
        tau = np.max(np.where(support, g, -np.inf), axis=-1, keepdims=True)
        scale = np.maximum(1.0, np.abs(tau))
        ok = np.where(support, np.abs(g - tau) <= tol * scale, g <= tau + tol * scale)
        return self.contains(p, tol=tol) & np.all(ok, axis=-1)


class Masked(Regularizer):
    """``psi(x) = inner(x[penalized])``: a regularizer acting on some coordinates only, the others unpenalised.

    This is how a composite problem leaves a block of variables free, e.g. the intercept ``x^0`` of the federated
    LASSO (thesis eq. (4.38)) and of the nuclear-norm regression (4.39), which the thesis keeps out of ``psi``
    (the authors' code applies the prox to the dense kernel only). The penalised coordinates, in their order,
    are reshaped to ``shape`` before ``inner`` sees them (C order), so a flat vector ``(vec(X), x^0)`` can carry
    a :class:`NuclearNorm` on the matrix ``X``.

    Parameters
    ----------
    inner : Regularizer
        The regularizer of the penalised block.
    penalized : array of bool (d,)
        True where ``inner`` acts; False marks a free coordinate (prox = identity, subdifferential ``{0}``).
    shape : tuple of int, optional
        Shape of the penalised block as ``inner`` sees it; default ``(number of penalised coordinates,)``.
    """

    def __init__(self, inner: Regularizer, penalized, shape: tuple[int, ...] | None = None):
        if not isinstance(inner, Regularizer):
            raise InvalidParameterError("inner", "a regularizer from fedtheory.regularizers", type(inner).__name__)
        penalized = np.asarray(penalized)
        if penalized.dtype != bool or penalized.ndim != 1 or not penalized.any():
            raise InvalidParameterError("penalized", "a 1-D boolean mask with at least one True", penalized)
        k = int(penalized.sum())
        shape = (k,) if shape is None else tuple(integer_array("shape", shape, minimum=1).ravel().tolist())
        if int(np.prod(shape)) != k:
            raise InvalidParameterError("shape", f"a shape with {k} entries (the penalised coordinates)", shape)
        self.inner, self.penalized, self.shape = inner, penalized.copy(), shape
        self.dim = penalized.size

    def _split(self, x, name: str) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        if x.ndim == 0 or x.shape[-1] != self.dim:
            raise InvalidParameterError(name, f"an array whose last axis has length d = {self.dim}", f"shape {x.shape}")
        return x

    def block(self, x) -> np.ndarray:
        """The penalised coordinates of ``x`` (..., d) as ``inner`` sees them: shape ``(..., *shape)``."""
        x = self._split(x, "x")
        return x[..., self.penalized].reshape(*x.shape[:-1], *self.shape)

    def value(self, x) -> np.ndarray:
        return self.inner.value(self.block(x))

    def prox(self, v, t) -> np.ndarray:
        """``inner``'s prox on the penalised block, the identity on the free coordinates."""
        v = self._split(v, "v")
        out = v.copy()
        out[..., self.penalized] = self.inner.prox(self.block(v), t).reshape(*v.shape[:-1], -1)
        return out

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        """``g`` is a subgradient of ``inner`` on the penalised block and 0 (within ``tol``) on the free ones."""
        p, g = self._split(p, "p"), self._split(g, "g")
        free = np.all(np.abs(g[..., ~self.penalized]) <= tol, axis=-1)
        return free & self.inner.in_subdifferential(self.block(p), self.block(g), tol=tol)
