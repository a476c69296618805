"""Concrete functions in a class that interpolate a worst case's data, for replaying an algorithm on them.

For the smooth class ``F_{mu,L}`` (``mu < L``; ``mu = -L`` is the L-smooth non-convex class) the interpolant is
``f(x) = mu/2 ||x||^2 + h(x)`` with ``h`` the conjugate of the smallest ``1/(L - mu)``-strongly convex function
through the shifted data (Taylor, Hendrickx and Glineur, 2017, Theorem 4): ``h* = max_i q_i`` with
``q_i(s) = c_i + <a_i, s> + ||s||^2 / (2 l)``, ``l = L - mu``. It lies in the class whatever the data, and reproduces
them (values and gradients) when they satisfy the class's interpolation conditions. Its gradient at ``x`` is
``mu x + s*`` with ``s* = l (x - sum_i lam_i a_i)`` and ``lam`` the maximiser over the simplex of
``sum_i lam_i c_i - (l/2) ||sum_i lam_i a_i - x||^2``. For a non-smooth convex function the interpolant is the
maximum of the affine pieces, whose proximal map solves the same simplex problem. The simplex problems are solved
with Clarabel for all queries at once and then polished on their active sets to machine precision.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from ..errors import InvalidParameterError
from ..problems.base import Problem
from ..reference import SOLVER_OPTIONS
from ..regularizers import Regularizer, prox_parameter
from .solve import SOLVER, FunctionData


def max_affine_argmin(c: np.ndarray, A: np.ndarray, x: np.ndarray, ell: np.ndarray) -> np.ndarray:
    """For each query ``q``, ``argmin_s max_i (c_qi + <A_qi, s>) + ||s||^2/(2 ell_q) - <s, x_q>``.

    ``c (Q, n)``, ``A (Q, n, r)``, ``x (Q, r)``, ``ell (Q,)``; returns ``s (Q, r)``. Clarabel solves the dual over
    the simplex (``s = ell (x - A' lam)``) for all queries as one problem; the point is then polished on its active
    pieces by solving the optimality conditions exactly, kept when it lowers the objective.
    """
    import cvxpy as cp  # imported where the problem is built (about 1 s)

    Q, n, r = A.shape
    lam = cp.Variable(Q * n, nonneg=True)  # query-major: lam[q * n + i]
    blocks = sparse.block_diag(list(np.swapaxes(A, 1, 2)), format="csr")  # (Q r, Q n): one block per query
    weights = np.repeat(np.sqrt(ell / 2), r)
    resid = cp.multiply(weights, blocks @ lam - x.reshape(-1))
    sums = sparse.kron(sparse.eye(Q), np.ones((1, n)), format="csr")
    problem = cp.Problem(cp.Maximize(c.reshape(-1) @ lam - cp.sum_squares(resid)), [sums @ lam == 1])
    problem.solve(solver=SOLVER, **SOLVER_OPTIONS)
    if lam.value is None:
        raise InvalidParameterError("data", "interpolation data whose simplex problem Clarabel solves", problem.status)
    s = ell[:, None] * (x - np.einsum("qir,qi->qr", A, lam.value.reshape(Q, n)))
    return _polish(s, c, A, x, ell)


def _objective(s, c, A, x, ell) -> np.ndarray:
    pieces = c + np.einsum("qir,qr->qi", A, s)
    return pieces.max(axis=1) + np.sum(s**2, axis=1) / (2 * ell) - np.sum(s * x, axis=1)


def _polish(s, c, A, x, ell) -> np.ndarray:
    """Solve ``c_i + <a_i, s> = T`` on the active pieces, ``s/ell + A' lam = x``, ``sum lam = 1``, ``lam_i = 0``
    off them (least squares, batched), and keep the solution where it does not raise the objective."""
    Q, n, r = A.shape
    pieces = c + np.einsum("qir,qr->qi", A, s)
    top = pieces.max(axis=1, keepdims=True)
    active = pieces >= top - 1e-6 * (1 + np.abs(top))
    size = r + 1 + n  # unknowns s, T, lam
    K = np.zeros((Q, size, size))
    rhs = np.zeros((Q, size))
    K[:, :n, :r] = np.where(active[:, :, None], A, 0.0)  # active: <a_i, s> - T = -c_i
    K[:, :n, r] = np.where(active, -1.0, 0.0)
    K[:, :n, r + 1 :] = np.where(active[:, :, None], 0.0, np.eye(n))  # inactive: lam_i = 0
    rhs[:, :n] = np.where(active, -c, 0.0)
    K[:, n : n + r, :r] = np.eye(r) / ell[:, None, None]  # s/ell + A' lam = x
    K[:, n : n + r, r + 1 :] = np.swapaxes(A, 1, 2)
    rhs[:, n : n + r] = x
    K[:, n + r, r + 1 :] = 1.0  # sum lam = 1
    rhs[:, n + r] = 1.0
    new = np.einsum("qij,qj->qi", np.linalg.pinv(K), rhs)[:, :r]
    better = _objective(new, c, A, x, ell) <= _objective(s, c, A, x, ell)
    return np.where(better[:, None], new, s)


class InterpolatedFunction:
    """The interpolant of one :class:`~fedtheory.pep.solve.FunctionData`: ``grad(x)`` and ``value(x)`` on ``(...,
    r)`` points, in the data's class."""

    def __init__(self, data: FunctionData):
        if not data.mu < data.L:
            raise InvalidParameterError("data", "a class with mu < L", (data.mu, data.L))
        self.data = data
        self.mu, self.L = data.mu, data.L
        X, G, F = data.X, data.G, data.F
        if np.isfinite(self.L):
            self.ell = self.L - self.mu
            Gs = G - self.mu * X
            Fs = F - self.mu / 2 * np.sum(X**2, axis=1)
            self.c = -Fs + np.sum(Gs**2, axis=1) / (2 * self.ell)  # q_i(s) = c_i + <a_i, s> + ||s||^2/(2 l)
            self.a = X - Gs / self.ell
        else:
            self.c, self.a = F - np.sum(G * X, axis=1), G  # the affine pieces F_i + <G_i, x - X_i>

    def _conjugate_point(self, x: np.ndarray) -> np.ndarray:
        """``s* = argmax_s <s, x> - h*(s)``, the gradient of ``h`` at ``x``."""
        flat = x.reshape(-1, x.shape[-1])
        Q = flat.shape[0]
        s = max_affine_argmin(
            np.broadcast_to(self.c, (Q, self.c.size)),
            np.broadcast_to(self.a, (Q, *self.a.shape)),
            flat,
            np.full(Q, self.ell),
        )
        return s.reshape(x.shape)

    def grad(self, x) -> np.ndarray:
        """The interpolant's gradient (a subgradient for a non-smooth function) at ``x``."""
        x = np.asarray(x, dtype=float)
        if not np.isfinite(self.L):
            pieces = self.c + x @ self.a.T
            return self.a[np.argmax(pieces, axis=-1)]
        return self.mu * x + self._conjugate_point(x)

    def value(self, x) -> np.ndarray:
        """The interpolant's value at ``x``."""
        x = np.asarray(x, dtype=float)
        if not np.isfinite(self.L):
            return np.max(self.c + x @ self.a.T, axis=-1)
        s = self._conjugate_point(x)
        hstar = np.max(self.c + s @ self.a.T, axis=-1) + np.sum(s**2, axis=-1) / (2 * self.ell)
        return self.mu / 2 * np.sum(x**2, axis=-1) + np.sum(s * x, axis=-1) - hstar

    def prox(self, v, t) -> np.ndarray:
        """``argmin_x f(x) + ||x - v||^2/(2t)`` for a non-smooth convex interpolant (max of affine pieces)."""
        if np.isfinite(self.L):
            raise InvalidParameterError("data", "a non-smooth convex function (L = inf) for prox", self.L)
        v = np.asarray(v, dtype=float)
        flat = v.reshape(-1, v.shape[-1])
        Q = flat.shape[0]
        # x = v + u with u = argmin_u max_i (c_i + <a_i, v> + <a_i, u>) + ||u||^2/(2t)
        u = max_affine_argmin(
            self.c + flat @ self.a.T,
            np.broadcast_to(self.a, (Q, *self.a.shape)),
            np.zeros_like(flat),
            np.full(Q, float(t)),
        )
        return (flat + u).reshape(v.shape)


class InterpolatedProblem(Problem):
    """A federated problem whose client ``m`` is the interpolant of ``data[m]``; ``x_star`` the worst case's
    stationary point (its stationarity is up to the solve's accuracy: see :meth:`stationarity`)."""

    def __init__(self, data, x_star, L: float, mu: float):
        self.clients = [InterpolatedFunction(d) for d in data]
        self.n_clients = len(self.clients)
        self.dim = int(np.asarray(x_star).size)
        self._x_star = np.asarray(x_star, dtype=float)
        self._L, self._mu = float(L), float(mu)

    @property
    def L(self) -> float:
        return self._L

    @property
    def mu(self) -> float:
        return self._mu

    @property
    def x_star(self) -> np.ndarray:
        return self._x_star

    def client_grad(self, x) -> np.ndarray:
        x = self.check_client_points(x)
        return np.stack([f.grad(x[..., m, :]) for m, f in enumerate(self.clients)], axis=-2)  # one QP per client

    def value(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.mean([f.value(x) for f in self.clients], axis=0)

    def stationarity(self) -> float:
        """``||grad F(x_star)||``: how far the extracted point is from stationary."""
        return float(np.linalg.norm(self.grad(self._x_star[None])))


class InterpolatedRegularizer(Regularizer):
    """A convex regularizer interpolating a worst case's non-smooth function; ``prox`` is exact (polished)."""

    def __init__(self, data: FunctionData):
        self.function = InterpolatedFunction(data)

    def value(self, x) -> np.ndarray:
        return self.function.value(x)

    def prox(self, v, t) -> np.ndarray:
        return self.function.prox(v, prox_parameter(t))

    def in_subdifferential(self, p, g, *, tol: float = 1e-8) -> np.ndarray:
        """``g in partial psi(p)`` iff ``prox_psi(p + g) = p``."""
        p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
        return np.linalg.norm(self.prox(p + g, 1.0) - p, axis=-1) <= tol * (1 + np.linalg.norm(p, axis=-1))
