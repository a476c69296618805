"""Outer functions of the simple bilevel problems: squared distance, l1, the Huber envelope, the log-sum
penalty with its printed prox and its envelope.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from ..._validate import finite_array, positive, positive_int
from ...errors import InvalidParameterError
from ...regularizers import soft_threshold
from ..base import Problem


class _Separable(Problem):
    """An outer function shared by every client (``n_clients = None``): ``client_grad`` is ``grad`` row by row."""

    n_clients = None
    inf_value = 0.0

    def __init__(self, dim: int):
        self.dim = positive_int("dim", dim)

    @cached_property
    def x_star(self) -> np.ndarray:
        """0, a minimiser (``inf f = f(0) = 0``)."""
        return np.zeros(self.dim)

    def client_grad(self, x) -> np.ndarray:
        return self.grad(self.check_client_points(x))


class SquaredDistance(_Separable):
    """``f(x) = (mu/2) ||x - x0||^2`` (with ``mu = 1`` the projection subproblem (4)).

    ``L = mu``-smooth and ``mu``-strongly convex, ``inf f = 0`` at ``x0``.
    """

    def __init__(self, x0, mu: float = 1.0):
        self.x0 = finite_array("x0", x0, ndim=(1,))
        super().__init__(self.x0.shape[0])
        self._mu = positive("mu", mu)

    @property
    def L(self) -> float:
        return self._mu

    @property
    def mu(self) -> float:
        return self._mu

    @cached_property
    def x_star(self) -> np.ndarray:
        return self.x0.copy()

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        return 0.5 * self._mu * np.sum((x - self.x0) ** 2, axis=-1)

    def grad(self, x) -> np.ndarray:
        return self._mu * (self.check_point(x) - self.x0)


class L1Norm(_Separable):
    """``f(x) = ||x||_1``, the outer level of problem (15); convex, not smooth (``L = inf``)."""

    L = math.inf
    mu = 0.0

    def value(self, x) -> np.ndarray:
        return np.sum(np.abs(self.check_point(x)), axis=-1)

    def grad(self, x) -> np.ndarray:
        """``sign(x)``, a subgradient."""
        return np.sign(self.check_point(x))

    def prox(self, x, t: float) -> np.ndarray:
        """``prox_{t ||.||_1}(x) = sign(x) max(|x| - t, 0)``."""
        return soft_threshold(self.check_point(x), positive("t", t))


class HuberL1(_Separable):
    """Moreau envelope of the ``l1`` norm, ``M^mu_l1(x) = min_y ||y||_1 + ||x - y||^2/(2 mu) = sum_i H_mu(x_i)``
    (Sect. 5.1), ``H_mu(t) = t^2/(2 mu)`` for ``|t| <= mu``, ``|t| - mu/2`` otherwise.

    ``grad M = (x - prox(x))/mu = clip(x/mu, -1, 1)``; ``M`` is convex and ``L = 1/mu``-smooth; ``inf M = 0``.

    Parameters
    ----------
    mu : float
        Smoothing parameter ``mu > 0``.
    dim : int
        Dimension ``n`` (keyword-only; the algorithms check ``f.dim == h.dim``).
    """

    mu = 0.0

    def __init__(self, mu: float, *, dim: int):
        super().__init__(dim)
        self.smoothing = positive("mu", mu)

    @property
    def L(self) -> float:
        return 1.0 / self.smoothing

    def value(self, x) -> np.ndarray:
        a = np.abs(self.check_point(x))
        m = self.smoothing
        return np.sum(np.where(a <= m, a * a / (2 * m), a - m / 2), axis=-1)

    def grad(self, x) -> np.ndarray:
        """``clip(x/mu, -1, 1)`` (equals ``(x - prox(x))/mu``)."""
        return np.clip(self.check_point(x) / self.smoothing, -1.0, 1.0)

    def prox(self, x) -> np.ndarray:
        """``prox^mu_l1(x) = sign(x) max(|x| - mu, 0)``."""
        return soft_threshold(self.check_point(x), self.smoothing)


class LogSumPenalty(_Separable):
    """``LSP(x) = sum_i log(1 + |x_i|/eps)`` (Sect. 5.2), ``eps > 0``.

    Nonconvex: ``(1/eps^2)``-weakly convex (``log(1 + t/eps)`` has curvature ``>= -1/eps^2`` on ``t > 0`` and a
    convex kink at 0), so ``mu = -1/eps^2``; not smooth at 0 (``L = inf``); ``inf LSP = 0`` at 0.

    Parameters
    ----------
    eps : float
    dim : int
        Keyword-only.
    """

    L = math.inf

    def __init__(self, eps: float, *, dim: int):
        super().__init__(dim)
        self.eps = positive("eps", eps)
        self.weak_convexity = 1.0 / self.eps**2

    @property
    def mu(self) -> float:
        """``-1/eps^2`` (negative: weakly convex, not convex)."""
        return -self.weak_convexity

    def value(self, x) -> np.ndarray:
        return np.sum(np.log1p(np.abs(self.check_point(x)) / self.eps), axis=-1)

    def grad(self, x) -> np.ndarray:
        """``sign(x)/(eps + |x|)``, the gradient off 0 and 0 at 0 (an element of the Clarke subdifferential
        ``[-1/eps, 1/eps]`` there)."""
        x = self.check_point(x)
        return np.sign(x) / (self.eps + np.abs(x))

    def in_printed_regime(self, mu: float) -> bool:
        """Whether ``sqrt(mu) <= eps``, the case of the printed prox."""
        return positive("mu", mu) <= self.eps**2

    def prox(self, x, mu: float, *, allow_outside: bool = False) -> np.ndarray:
        """The prox of ``mu LSP`` AS PRINTED (componentwise, "in the case where sqrt(mu) <= eps")::

            prox(x_i) = 0                                                   if |x_i| <= mu/eps
                      = sign(x_i) (|x_i| - eps + sqrt((|x_i| + eps)^2 - 4 mu))/2   otherwise.

        It is ``argmin_y LSP(y) + ||y - x||^2/(2 mu)`` in that regime (there ``y -> log(1 + y/eps) + (y - x)^2/(2 mu)``
        is convex on ``y >= 0``); the paper makes no claim outside it.

        Raises
        ------
        InvalidParameterError
            If ``sqrt(mu) > eps`` and not ``allow_outside`` (then the formula is evaluated verbatim and need not be
            the prox; compare :meth:`prox_bruteforce`).
        """
        x = self.check_point(x)
        mu = positive("mu", mu)
        if not allow_outside and not self.in_printed_regime(mu):
            raise InvalidParameterError(
                "mu",
                f"mu <= eps^2 = {self.eps**2:g} (the printed regime sqrt(mu) <= eps; "
                "pass allow_outside=True to evaluate the printed formula anyway)",
                mu,
            )
        a = np.abs(x)
        root = (a - self.eps + np.sqrt(np.maximum((a + self.eps) ** 2 - 4 * mu, 0.0))) / 2
        return np.where(a <= mu / self.eps, 0.0, np.sign(x) * root)

    def prox_bruteforce(self, x, mu: float, *, grid: int = 4001, refine: int = 80) -> np.ndarray:
        """``argmin_y log(1 + |y|/eps) + (y - x_i)^2/(2 mu)`` per component, by search (any ``mu > 0``).

        The minimiser has the sign of ``x_i`` and ``|y| <= |x_i|``; the objective is evaluated on ``grid`` points of
        ``[0, |x_i|]`` (with 0 kept as a candidate), and the best point is refined by ``refine`` golden-section steps
        on its two neighbouring cells (vectorised over components). Independent of the printed formula.
        """
        x = self.check_point(x)
        mu = positive("mu", mu)
        grid = positive_int("grid", grid, minimum=3)
        a = np.abs(x).reshape(-1)

        def phi(y):
            return np.log1p(y / self.eps) + (y - a[:, None] if y.ndim == 2 else y - a) ** 2 / (2 * mu)

        ys = a[:, None] * np.linspace(0.0, 1.0, grid)
        best = np.argmin(phi(ys), axis=1)
        step = a / (grid - 1)
        lo = np.maximum(ys[np.arange(a.size), best] - step, 0.0)
        hi = np.minimum(ys[np.arange(a.size), best] + step, a)
        ratio = (math.sqrt(5.0) - 1) / 2
        for _ in range(positive_int("refine", refine)):
            c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
            left = phi(c) <= phi(d)
            hi, lo = np.where(left, d, hi), np.where(left, lo, c)
        y = (lo + hi) / 2
        y = np.where(phi(np.zeros_like(a)) <= phi(y), 0.0, y)
        return (np.sign(x).reshape(-1) * y).reshape(x.shape)


class LSPEnvelope(_Separable):
    """Moreau envelope of the log-sum penalty, ``M^mu_LSP(x) = LSP(p(x)) + ||x - p(x)||^2/(2 mu)`` with ``p`` the
    printed prox (the paper writes ``f(prox_LSP(x))``, read ``f = LSP``), and
    ``grad M = (x - p(x))/mu``.

    Only the printed regime ``sqrt(mu) <= eps`` is accepted. ``LSP`` is ``rho = 1/eps^2``-weakly convex, so for
    ``mu < 1/rho`` the envelope is ``rho/(1 - mu rho)``-weakly convex (``mu`` attribute: its negative) and
    ``L = max{1/mu, rho/(1 - mu rho)}`` is an UPPER bound on the Lipschitz constant of its gradient. For LSP the bound
    is approached:
    ``M'' = 1/mu`` on ``|x| < mu/eps`` and ``M'' = -1/((eps + |p|)^2 - mu) -> -rho/(1 - mu rho)`` as ``|x| -> mu/eps``
    from above (the tests measure it). ``inf M = 0`` at 0.

    Parameters
    ----------
    eps, mu : float
        ``eps > 0`` and ``0 < mu <= eps^2``.
    dim : int
        Keyword-only.
    """

    def __init__(self, eps: float, mu: float, *, dim: int):
        super().__init__(dim)
        self.lsp = LogSumPenalty(eps, dim=dim)
        self.eps = self.lsp.eps
        self.smoothing = positive("mu", mu)
        if not self.lsp.in_printed_regime(self.smoothing):
            raise InvalidParameterError("mu", f"mu <= eps^2 = {self.eps**2:g} (the printed regime)", mu)
        rho, m = self.lsp.weak_convexity, self.smoothing
        self.weak_convexity = math.inf if m * rho >= 1 else rho / (1 - m * rho)

    @property
    def L(self) -> float:
        """``max{1/mu, rho/(1 - mu rho)}``, ``rho = 1/eps^2`` (an upper bound)."""
        return max(1.0 / self.smoothing, self.weak_convexity)

    @property
    def mu(self) -> float:
        """``-rho/(1 - mu rho)`` (negative: weakly convex)."""
        return -self.weak_convexity

    def prox(self, x) -> np.ndarray:
        """The printed ``prox_LSP`` with parameter ``mu`` (:meth:`LogSumPenalty.prox`)."""
        return self.lsp.prox(x, self.smoothing)

    def value(self, x) -> np.ndarray:
        x = self.check_point(x)
        p = self.prox(x)
        return self.lsp.value(p) + np.sum((x - p) ** 2, axis=-1) / (2 * self.smoothing)

    def grad(self, x) -> np.ndarray:
        x = self.check_point(x)
        return (x - self.prox(x)) / self.smoothing
