"""Mirror maps ``grad (h + t psi)^*`` of chapter 4 and the Bregman divergences built on them.

For a distance-generating function ``h`` (Assumption 4.1(b)) and a regularizer ``psi`` every method of the
chapter moves between a primal point ``x`` and a dual point ``y`` with

    ``grad h`` (primal -> dual),  ``grad (h + t psi)^*(y) = argmin_x { <-y, x> + t psi(x) + h(x) }`` (dual -> primal),

the second by Proposition C.4 and eq. (4.7); ``t = 0`` gives ``grad h^*``, the inverse of
``grad h`` (Proposition C.7). The convention ``0 * psi = 0`` (also for indicators) makes the ``t = 0`` map
of FedDualAvg's first local step ``grad h^*``, as identity (4.24) uses.

Geometries:

* :class:`Euclidean` -- ``h = ||x||_2^2/2`` with any vector regularizer of :mod:`fedtheory.regularizers`; the map is
  ``prox_{t psi}`` (the setting of every experiment of the chapter). A nuclear norm acts on a flat
  ``x = vec(X)`` through :class:`~fedtheory.regularizers.Masked` (which also leaves an intercept free).
* :class:`PNorm` -- ``h = c ||x||_p^2 / (2(p - 1))``, ``1 < p <= 2``, 1-strongly convex w.r.t. ``||.||_p`` (``c = 1``)
  and Legendre on ``R^d``; with ``psi = lam ||.||_1`` the map is ``grad h^*(S_{t lam}(y))`` (``h`` is
  sign-preserving). The non-Euclidean geometry the spec uses for the theory instances (Remark 4.5, Prop. C.5).
* :class:`Entropy` -- ``h = sum_i x_i log x_i`` on ``R^d_+`` with ``psi`` the simplex indicator: the map is
  ``softmax`` and a mirror step is the exponentiated-gradient step (a mirror-map unit test: ``h`` is 1-strongly
  convex w.r.t. ``||.||_1`` on the simplex only, by Pinsker).

Every map is vectorised over leading axes (replicas, clients).
"""

from __future__ import annotations

import numpy as np
from scipy.special import softmax, xlogy

from ..._validate import finite_array, positive
from ...errors import InvalidParameterError
from ...regularizers import L1, ElasticNet, Masked, NuclearNorm, Regularizer, Simplex, SquaredL2


def _regularizer(psi) -> Regularizer | None:
    if psi is not None and not isinstance(psi, Regularizer):
        raise InvalidParameterError("psi", "None or a regularizer from fedtheory.regularizers", type(psi).__name__)
    return psi


class MirrorMap:
    """A distance-generating function ``h`` with ``grad h``, ``grad h^*`` and ``grad (h + t psi)^*``.

    Attributes
    ----------
    psi : Regularizer or None
        The regularizer (``None`` is ``psi = 0``).
    euclidean : bool
        Whether ``h = ||x||_2^2 / 2`` (``grad h`` and ``grad h^*`` are the identity).
    """

    psi: Regularizer | None = None
    euclidean: bool = False

    def h(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def grad_h(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def grad_h_conj(self, y) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _regularized(self, y: np.ndarray, t: float) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, y, t) -> np.ndarray:
        """``grad (h + t psi)^*(y) = argmin_x {<-y, x> + t psi(x) + h(x)}`` (eq. (4.7)) for ``t >= 0``."""
        t = positive("t", t, allow_zero=True)
        if t == 0 or self.psi is None:
            return self.grad_h_conj(y)
        return self._regularized(np.asarray(y, dtype=float), t)

    def psi_value(self, x) -> np.ndarray:
        """``psi(x)`` over the last axis (0 for ``psi = None``; ``inf`` outside an indicator's set)."""
        x = np.asarray(x, dtype=float)
        return np.zeros(x.shape[:-1]) if self.psi is None else self.psi.value(x)

    def regularized_h(self, x, t) -> np.ndarray:
        """``(h + t psi)(x)`` with ``0 * psi = 0``."""
        t = positive("t", t, allow_zero=True)
        return self.h(x) if t == 0 else self.h(x) + t * self.psi_value(x)

    def bregman(self, x, x0) -> np.ndarray:
        """``D_h(x, x0) = h(x) - h(x0) - <grad h(x0), x - x0>`` (Definition C.8)."""
        x, x0 = np.asarray(x, dtype=float), np.asarray(x0, dtype=float)
        return self.h(x) - self.h(x0) - np.sum(self.grad_h(x0) * (x - x0), axis=-1)

    def generalized_bregman(self, x, y, t) -> np.ndarray:
        """``D~_g(x, y) = g(x) - g(grad g^*(y)) - <y, x - grad g^*(y)>``, ``g = h + t psi`` (Def. C.9)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        z = self(y, t)
        return self.regularized_h(x, t) - self.regularized_h(z, t) - np.sum(y * (x - z), axis=-1)

    def check_primal(self, name: str, x) -> np.ndarray:
        """Return ``x`` as a finite float array after checking it lies in ``int dom h``."""
        return finite_array(name, x)


class Euclidean(MirrorMap):
    """``h(x) = ||x||_2^2 / 2``: ``grad h = grad h^* = id`` and ``grad (h + t psi)^*(y) = prox_{t psi}(y)``.

    Parameters
    ----------
    psi : Regularizer, optional
        Any vector regularizer of :mod:`fedtheory.regularizers` (indicators included: then the map is the
        projection for every ``t > 0``). A :class:`~fedtheory.regularizers.NuclearNorm` must be wrapped in
        :class:`~fedtheory.regularizers.Masked` with the matrix ``shape``, so that it acts on ``x = vec(X)``.
    """

    euclidean = True

    def __init__(self, psi: Regularizer | None = None):
        self.psi = _regularizer(psi)
        if isinstance(psi, NuclearNorm):
            raise InvalidParameterError(
                "psi", "a vector regularizer: wrap NuclearNorm in Masked(inner, penalized, shape) to act on vec(X)", psi
            )

    def h(self, x) -> np.ndarray:
        return 0.5 * np.sum(np.square(x), axis=-1)

    def grad_h(self, x) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def grad_h_conj(self, y) -> np.ndarray:
        return np.asarray(y, dtype=float)

    def _regularized(self, y, t):
        return self.psi.prox(y, t)

    def subgradient(self, x) -> np.ndarray:
        """An element of ``partial psi(x)``: ``lam sign(x)`` for the l1 part (0 at 0), ``lam x`` for the l2 part.

        The subgradient FedAvg(subgradient) uses; defined for :class:`~fedtheory.regularizers.L1`,
        :class:`~fedtheory.regularizers.SquaredL2`, :class:`~fedtheory.regularizers.ElasticNet` and
        :class:`~fedtheory.regularizers.Masked` around one of them (0 on the free coordinates).
        """
        return _subgradient(self.psi, np.asarray(x, dtype=float))


def _subgradient(psi, x: np.ndarray) -> np.ndarray:
    if psi is None:
        return np.zeros_like(x)
    if isinstance(psi, L1):
        return psi.lam * np.sign(x)
    if isinstance(psi, SquaredL2):
        return psi.lam * x
    if isinstance(psi, ElasticNet):
        return psi.l1 * np.sign(x) + psi.l2 * x
    if isinstance(psi, Masked) and len(psi.shape) == 1:
        out = np.zeros_like(x)
        out[..., psi.penalized] = _subgradient(psi.inner, psi.block(x))
        return out
    raise InvalidParameterError(
        "psi", "None, L1, SquaredL2, ElasticNet or Masked(vector one of them) for a subgradient", type(psi).__name__
    )


def _is_l1(psi) -> bool:
    return isinstance(psi, L1) or (isinstance(psi, Masked) and isinstance(psi.inner, L1) and len(psi.shape) == 1)


def _grad_half_sq_norm(v: np.ndarray, r: float) -> np.ndarray:
    """``grad (||v||_r^2 / 2) = sign(v) (|v|/||v||_r)^(r-1) ||v||_r`` (0 at 0), computed without overflow."""
    a = np.abs(v)
    big = np.max(a, axis=-1, keepdims=True)
    safe = np.where(big > 0, big, 1.0)
    norm = big * np.sum((a / safe) ** r, axis=-1, keepdims=True) ** (1 / r)
    return np.sign(v) * (a / np.where(norm > 0, norm, 1.0)) ** (r - 1) * norm


class PNorm(MirrorMap):
    """``h(x) = scale ||x||_p^2 / (2(p - 1))`` for ``1 < p <= 2``; ``psi`` is ``None`` or ``lam ||.||_1``.

    ``h`` is ``scale``-strongly convex w.r.t. ``||.||_p`` and Legendre on ``R^d``; its conjugate is
    ``h^*(y) = (p - 1) ||y||_q^2 / (2 scale)``, ``1/p + 1/q = 1``, so

        ``grad h(x) = (scale/(p - 1)) grad(||x||_p^2/2)``,  ``grad h^*(y) = ((p - 1)/scale) grad(||y||_q^2/2)``,
        ``grad (h + t lam ||.||_1)^*(y) = grad h^*(S_{t lam}(y))``

    (``h`` is sign-preserving). ``p = 2``, ``scale = 1`` is :class:`Euclidean`; the standard
    choice for ``l1`` geometry is ``p = 1 + 1/ln d``.

    Parameters
    ----------
    p : float
        In ``(1, 2]``.
    psi : L1 or Masked(L1), optional
        The l1 regularizer (on all or on some coordinates).
    scale : float
        Positive multiple of ``h`` (e.g. to make ``h`` 1-strongly convex w.r.t. another norm).
    """

    def __init__(self, p: float, psi: Regularizer | None = None, *, scale: float = 1.0):
        p = positive("p", p)
        if not 1 < p <= 2:
            raise InvalidParameterError("p", "a number in (1, 2]", p)
        self.p, self.q = p, p / (p - 1)
        self.scale = positive("scale", scale)
        self.psi = _regularizer(psi)
        if psi is not None and not _is_l1(psi):
            raise InvalidParameterError(
                "psi", "None, L1 or Masked(L1) (the closed form grad h^*(S_{t lam}(y)) of a sign-preserving h)", psi
            )

    def h(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        norm = np.sum(x * _grad_half_sq_norm(x, self.p), axis=-1)  # <x, grad(||x||^2/2)> = ||x||_p^2
        return self.scale * norm / (2 * (self.p - 1))

    def grad_h(self, x) -> np.ndarray:
        return self.scale / (self.p - 1) * _grad_half_sq_norm(np.asarray(x, dtype=float), self.p)

    def grad_h_conj(self, y) -> np.ndarray:
        return (self.p - 1) / self.scale * _grad_half_sq_norm(np.asarray(y, dtype=float), self.q)

    def _regularized(self, y, t):
        return self.grad_h_conj(self.psi.prox(y, t))


class Entropy(MirrorMap):
    """``h(x) = sum_i x_i log x_i`` on ``R^d_+``; ``psi`` is ``None`` or the simplex indicator ``chi_Delta``.

    ``grad h(x) = 1 + log x``, ``grad h^*(y) = exp(y - 1)`` and, for ``psi`` the indicator of
    ``{x >= 0, sum x = total}`` and ``t > 0``, ``grad (h + t psi)^*(y) = total softmax(y)``. A mirror step
    ``grad (h + eta psi)^*(grad h(x) - eta g)`` is the exponentiated-gradient step ``x exp(-eta g) / Z``.
    """

    def __init__(self, psi: Regularizer | None = None):
        self.psi = _regularizer(psi)
        if psi is not None and not isinstance(psi, Simplex):
            raise InvalidParameterError("psi", "None or Simplex (the closed form softmax)", psi)

    def h(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.where(np.all(x >= 0, axis=-1), np.sum(xlogy(x, np.maximum(x, 0.0)), axis=-1), np.inf)

    def grad_h(self, x) -> np.ndarray:
        return 1.0 + np.log(np.asarray(x, dtype=float))

    def grad_h_conj(self, y) -> np.ndarray:
        return np.exp(np.asarray(y, dtype=float) - 1.0)

    def _regularized(self, y, t):
        return self.psi.total * softmax(y, axis=-1)

    def check_primal(self, name: str, x) -> np.ndarray:
        x = finite_array(name, x)
        if np.any(x <= 0):
            raise InvalidParameterError(name, "entries > 0 (the interior of dom h = R^d_+)", x)
        return x
