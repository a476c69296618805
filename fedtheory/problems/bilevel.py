"""Simple bilevel instances of the StR-FedAvg paper and their exact references.

Paper: ``shared/seeds/003_511a8e816d499631.txt`` (key ``str-fedavg``). Problem (1) (line 16) minimises an outer loss
``f`` over ``X*_h = argmin h`` for a federated inner loss ``h = (1/N) sum_i h_i`` (Assumption 1, line 109). This
module holds the spec's engines (spec section 1.5, W-1, W-2, W-5, W-6), the outer smoothings of Sect. 5 (spec 2.3)
and the instance library (spec sections 4 and 5).

Inner losses

- :class:`InnerLeastSquares` -- ``h(y) = (1/N) sum_i 1/2 ||U_i y - v_i||^2``, the inner level of problems (15)-(16)
  (lines 648, 671), with the exact solution set ``U^+ v + null(U)``, ``h*``, the inner gap and the weak-sharpness
  constants of spec W-1; :class:`RowSampling` is its one-row stochastic gradient (the stochastic variant of spec 5).
- :class:`ResidualNorm` -- ``h(x) = ||U x - v||_p`` (``p = 2`` or ``1``, consistent ``v``), weak sharp of order
  ``kappa = 1`` (spec W-2); it is not differentiable on ``X*_h`` (Assumption 1 fails: ``smooth = False``).

Outer functions (each a :class:`~fedtheory.problems.Problem` with ``n_clients = None``)

- :class:`SquaredDistance` ``(mu/2) ||x - x0||^2``; :class:`L1Norm` ``||x||_1`` (problem (15));
  :class:`HuberL1` ``M^mu_l1 = sum_i H_mu(x_i)`` (Sect. 5.1, line 652); :class:`LogSumPenalty` (Sect. 5.2, line 663)
  with the prox printed at line 667; :class:`LSPEnvelope` ``M^mu_LSP`` (line 665). A federated quadratic outer with
  heterogeneous ``f_i`` is a :class:`~fedtheory.problems.FederatedQuadratic`.

References (never the slack set ``{h <= h* + delta}``, spec W-4 step 2)

- :func:`bilevel_optimum` -- ``x* = argmin_{X*_h} f`` with ``X*_h = x_p + Z z`` parametrised exactly (spec W-5):
  reduced normal equations for quadratic outers, Clarabel (CVXPY) with a numpy duality-gap certificate for the Huber
  and ``l1`` outers (basis pursuit, with its dual certificate ``g in d||x*||_1 cap row(U)``).
- :func:`tikhonov_reference` / :func:`tikhonov_point` / :func:`tikhonov_value` / :func:`tikhonov_gap` -- the
  Tikhonov point ``x_eta* = argmin h + eta f`` and ``f_eta*`` (Sect. 1.1 of the spec); :func:`tikhonov_path` -- the
  eigen closed forms of spec W-6; :func:`exact_regularization_threshold` and :func:`residual_norm_tikhonov` -- the
  exact-regularization threshold ``eta_crit`` of spec W-2 and a certified SOCP solve.

Instances (spec section 4 items 1-3, spec section 5 Exp. 1 scale-down): :func:`ls_instance`, :func:`drift_instance`,
:func:`residual_norm_instance`, :func:`heterogeneous_regression`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .._validate import finite_array, positive, positive_int
from ..errors import InvalidParameterError, ReferenceSolveError
from ..regularizers import L1, soft_threshold
from .base import Problem
from .quadratic import FederatedQuadratic
from .solution_sets import AffineSolutionSet

# --------------------------------------------------------------------------------------------------------------------
# Inner losses
# --------------------------------------------------------------------------------------------------------------------


class InnerLeastSquares(FederatedQuadratic):
    """``h(y) = (1/N) sum_i h_i(y)``, ``h_i(y) = 1/2 ||U_i y - v_i||^2`` (problem (15), line 648; spec W-1).

    A :class:`~fedtheory.problems.FederatedQuadratic` with ``A_i = U_i'U_i``, ``b_i = U_i'v_i``,
    ``c_i = ||v_i||^2/2``, so ``h(y) = (1/(2N)) ||U y - v||^2`` with ``U``, ``v`` the stacked client blocks.

    Parameters
    ----------
    U_blocks : sequence of arrays (m_i, n)
        Client designs; the row counts ``m_i >= 1`` may differ.
    v_blocks : sequence of arrays (m_i,)
        Client responses.

    Attributes
    ----------
    U, v : ndarray (m, n), (m,)
        The stacked design and responses (client ``i`` owns rows ``offsets[i]:offsets[i+1]``).
    sizes : ndarray (N,)
        ``m_i``.
    N : int
        Number of clients.
    solution_set : AffineSolutionSet
        ``X*_h = U^+ v + null(U)`` (spec W-1).
    smooth : bool
        ``True``: every ``h_i`` is convex and ``L_{h_i}``-smooth (Assumption 1, line 109).

    Notes
    -----
    ``n_clients`` is ``N`` (also for ``N = 1``). ``x_star`` is the minimum-norm minimiser ``U^+ v`` and ``f_star``
    is ``h_star``.
    """

    smooth = True

    def __init__(self, U_blocks, v_blocks):
        if isinstance(U_blocks, np.ndarray) or isinstance(v_blocks, np.ndarray):
            raise InvalidParameterError("U_blocks", "a list of client blocks (use InnerLeastSquares.split)", "an array")
        U_blocks = [finite_array(f"U_blocks[{i}]", u, ndim=(2,)) for i, u in enumerate(U_blocks)]
        v_blocks = [finite_array(f"v_blocks[{i}]", w, ndim=(1,)) for i, w in enumerate(v_blocks)]
        if not U_blocks or len(U_blocks) != len(v_blocks):
            raise InvalidParameterError(
                "v_blocks", f"one response block per design block ({len(U_blocks)} designs)", len(v_blocks)
            )
        n = U_blocks[0].shape[1]
        for i, (u, w) in enumerate(zip(U_blocks, v_blocks)):
            if u.shape[0] < 1 or u.shape[1] != n:
                raise InvalidParameterError(f"U_blocks[{i}]", f"a design with >= 1 row and n = {n} columns", u.shape)
            if w.shape != (u.shape[0],):
                raise InvalidParameterError(f"v_blocks[{i}]", f"a vector of length m_i = {u.shape[0]}", w.shape)
        A = np.stack([u.T @ u for u in U_blocks])
        b = np.stack([u.T @ w for u, w in zip(U_blocks, v_blocks)])
        c = np.array([0.5 * float(w @ w) for w in v_blocks])
        super().__init__(A, b, c)
        self.n_clients = len(U_blocks)
        self.N = len(U_blocks)
        self.U_blocks = tuple(U_blocks)
        self.v_blocks = tuple(v_blocks)
        self.sizes = np.array([u.shape[0] for u in U_blocks])
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)])
        self.U = np.concatenate(U_blocks)
        self.v = np.concatenate(v_blocks)
        self.solution_set = AffineSolutionSet(self.U, self.v)
        m_max = int(self.sizes.max())
        self._U_pad = np.zeros((self.N, m_max, n))
        self._v_pad = np.zeros((self.N, m_max))
        for i, (u, w) in enumerate(zip(U_blocks, v_blocks)):
            self._U_pad[i, : u.shape[0]] = u
            self._v_pad[i, : u.shape[0]] = w

    @classmethod
    def split(cls, U, v, N: int) -> InnerLeastSquares:
        """Split stacked ``U`` (m, n), ``v`` (m,) into ``N`` consecutive blocks of ``floor(m/N)`` or ``ceil(m/N)``
        rows (``numpy.array_split``: the first ``m mod N`` clients get the extra row)."""
        U = finite_array("U", U, ndim=(2,))
        v = finite_array("v", v, ndim=(1,))
        N = positive_int("N", N)
        if v.shape[0] != U.shape[0]:
            raise InvalidParameterError("v", f"a vector of length m = {U.shape[0]} (rows of U)", v.shape)
        if N > U.shape[0]:
            raise InvalidParameterError("N", f"at most m = {U.shape[0]} clients (each needs a row)", N)
        return cls(np.array_split(U, N), np.array_split(v, N))

    # --- constants (spec W-1) -------------------------------------------------------------------------------------
    @cached_property
    def client_L(self) -> np.ndarray:
        """``L_{h_i} = sigma_max(U_i)^2`` (N,)."""
        return np.array([np.linalg.norm(u, 2) ** 2 for u in self.U_blocks])

    @cached_property
    def L_h(self) -> float:
        """``L_h = max_i L_{h_i}`` (spec 1.3, implementation of Assumption 1)."""
        return float(self.client_L.max())

    @property
    def L(self) -> float:
        """``L_h``: every ``h_i`` is ``L_h``-smooth."""
        return self.L_h

    @cached_property
    def mu(self) -> float:
        """``sigma_min(U)^2/N`` when ``U`` has full column rank, else 0 (over-parameterised: ``h`` is only convex)."""
        sol = self.solution_set
        return float(sol.singular_values[-1] ** 2 / self.N) if sol.rank == self.dim else 0.0

    @cached_property
    def hessian(self) -> np.ndarray:
        """``H = nabla^2 h = U'U/N`` (n, n)."""
        return self.U.T @ self.U / self.N

    @cached_property
    def alpha_2(self) -> float:
        """``alpha_2 = sigma_r(U)^2/(2N) = lambda_min^+(H)/2``: the largest ``alpha`` with
        ``h - h* >= alpha dist^2`` (weak sharpness of order ``kappa = 2``, Notation line 47; spec W-1)."""
        return float(self.solution_set.singular_values[-1] ** 2 / (2 * self.N))

    @cached_property
    def beta_2(self) -> float:
        """``beta_2 = sigma_1(U)^2/(2N)``: ``h - h* <= beta_2 dist^2`` (spec W-1)."""
        return float(self.solution_set.singular_values[0] ** 2 / (2 * self.N))

    @cached_property
    def x_star(self) -> np.ndarray:
        """``U^+ v``, the minimum-norm minimiser of ``h``."""
        return self.solution_set.particular.copy()

    @cached_property
    def h_star(self) -> float:
        """``h* = (1/(2N)) ||(I - U U^+) v||^2`` from the left singular vectors outside ``range(U)`` (no
        cancellation: 0 up to rounding for a consistent system)."""
        left = np.linalg.svd(self.U, full_matrices=True)[0]
        return float(np.sum((left[:, self.solution_set.rank :].T @ self.v) ** 2) / (2 * self.N))

    @property
    def f_star(self) -> float:
        """``h*``."""
        return self.h_star

    # --- evaluation ----------------------------------------------------------------------------------------------
    def value(self, x) -> np.ndarray:
        """``h(x) = (1/(2N)) ||U x - v||^2`` from the residual (no cancellation of ``c_i`` against the quadratic)."""
        x = self.check_point(x)
        return np.sum((x @ self.U.T - self.v) ** 2, axis=-1) / (2 * self.N)

    def inner_gap(self, y) -> np.ndarray:
        """``h(y) - h* = (1/(2N)) ||U (y - Pi y)||^2 = (1/(2N)) sum_k sigma_k^2 c_k^2`` (spec W-1), with ``c`` the
        coordinates of ``y - U^+ v`` in the orthonormal basis of ``row(U)``; no subtraction of ``h*``."""
        y = self.check_point(y, "y")
        sol = self.solution_set
        coef = (y - sol.particular) @ sol.row_basis
        return np.sum((coef * sol.singular_values) ** 2, axis=-1) / (2 * self.N)

    def gap(self, x) -> np.ndarray:
        """``h(x) - h*`` (:meth:`inner_gap`)."""
        return self.inner_gap(x)

    # --- row sampling (spec 5, stochastic variant) --------------------------------------------------------------
    def draw_rows(self, rng: np.random.Generator, shape: tuple[int, ...] = (), batch_size: int = 1) -> np.ndarray:
        """Row indices ``(*shape, N, batch_size)``: client ``i`` draws uniformly from its ``m_i`` rows, with
        replacement, independently across ``shape``, clients and draws."""
        batch_size = positive_int("batch_size", batch_size)
        return rng.integers(0, self.sizes[:, None], size=(*shape, self.N, batch_size))

    def sample_grad(self, x, idx) -> np.ndarray:
        """Unbiased gradient of ``h_i`` from rows ``idx`` (..., N, b) at client points ``x`` (..., N, n).

        ``m_i (1/b) sum_{l in idx_i} u_l (u_l'x_i - v_l)``: with ``l`` uniform on the ``m_i`` rows of client ``i``
        its expectation is ``sum_l u_l (u_l'x_i - v_l) = grad h_i(x_i)`` (``h_i`` sums its rows, problem (15)).
        """
        x = self.check_client_points(x)
        idx = np.asarray(idx)
        if idx.ndim < 2 or idx.shape[-2] != self.N or not np.issubdtype(idx.dtype, np.integer):
            raise InvalidParameterError("idx", f"integer row indices of shape (..., N = {self.N}, b)", idx.shape)
        if np.any(idx < 0) or np.any(idx >= self.sizes[:, None]):
            raise InvalidParameterError("idx", "indices 0 <= idx[..., i, :] < m_i (the rows of client i)", idx)
        clients = np.arange(self.N)[:, None]
        rows = self._U_pad[clients, idx]  # (..., N, b, n)
        r = np.einsum("...mbd,...md->...mb", rows, x) - self._v_pad[clients, idx]
        return self.sizes[:, None] * np.einsum("...mb,...mbd->...md", r, rows) / idx.shape[-1]

    def row_variance(self, x, batch_size: int = 1) -> np.ndarray:
        """Exact ``E ||g_i - grad h_i(x_i)||^2`` (..., N) of :meth:`sample_grad` with ``batch_size`` rows drawn
        with replacement: ``(1/b) (1/m_i) sum_l ||m_i u_l r_l - grad h_i(x_i)||^2``, ``r_l = u_l'x_i - v_l`` (a sum
        of squares, so no cancellation).

        It grows with ``||x||`` unless every row is interpolated, so Assumption 2 (a variance bound uniform in
        ``x``, line 117) holds only on bounded sets."""
        x = self.check_client_points(x)
        batch_size = positive_int("batch_size", batch_size)
        r = np.einsum("mld,...md->...ml", self._U_pad, x) - self._v_pad
        per_row = self.sizes[:, None, None] * r[..., None] * self._U_pad  # (..., N, m_max, n); 0 on padding
        mean = per_row.sum(axis=-2) / self.sizes[:, None]
        valid = np.arange(self._U_pad.shape[1]) < self.sizes[:, None]  # (N, m_max)
        spread = np.sum((per_row - mean[..., None, :]) ** 2, axis=-1) * valid
        return spread.sum(axis=-1) / self.sizes / batch_size

    def rows(self, batch_size: int = 1) -> RowSampling:
        """The row-sampling oracle (``batch_size`` rows per client and call; 1 is spec 5's stochastic variant)."""
        return RowSampling(self, batch_size)


class RowSampling:
    """Stochastic gradients of :class:`InnerLeastSquares` clients from uniformly sampled rows.

    ``oracle(x (..., N, n), rng)`` returns :meth:`InnerLeastSquares.sample_grad` at fresh indices
    :meth:`InnerLeastSquares.draw_rows` (one numpy draw for all replicas and clients), the oracle protocol of
    :mod:`fedtheory.oracles`; ``variance(x)`` is the exact per-client variance.
    """

    def __init__(self, problem: InnerLeastSquares, batch_size: int = 1):
        if not isinstance(problem, InnerLeastSquares):
            raise InvalidParameterError("problem", "an InnerLeastSquares", type(problem).__name__)
        self.problem = problem
        self.batch_size = positive_int("batch_size", batch_size)

    def __call__(self, x, rng: np.random.Generator) -> np.ndarray:
        x = self.problem.check_client_points(x)
        return self.problem.sample_grad(x, self.problem.draw_rows(rng, x.shape[:-2], self.batch_size))

    def variance(self, x) -> np.ndarray:
        """``E ||g_i - grad h_i||^2`` at client points (..., N, n) (:meth:`InnerLeastSquares.row_variance`)."""
        return self.problem.row_variance(x, self.batch_size)


class ResidualNorm(Problem):
    """``h(x) = ||U x - v||_p`` with ``v`` in ``range(U)`` (spec W-2): weak sharp of order ``kappa = 1``.

    With ``d = x - Pi(x)`` in ``row(U)``, ``h(x) - h* = ||U d||_p`` and ``h* = 0``. For ``p = 2``,
    ``||U d||_2 >= sigma_r(U) ||d||`` with equality along ``v_r``, so ``alpha = sigma_r(U)`` exactly; for ``p = 1``,
    ``||U d||_1 >= ||U d||_2 >= sigma_r(U) ||d||``, so ``alpha = sigma_r(U)`` is a certified LOWER bound of the
    largest constant ``min_{d in row(U), ||d|| = 1} ||U d||_1`` (exact value: :meth:`sharpness`).

    Parameters
    ----------
    U : array (m, n)
    v : array (m,)
        Must lie in ``range(U)`` (a consistent system), up to ``1e-10 max(1, ||v||)``.
    p : int
        2 or 1.

    Attributes
    ----------
    smooth : bool
        ``False``: ``h`` is not differentiable on ``X*_h``, so Assumption 1 (``h_i`` ``L_h``-smooth, line 109) is
        violated; these instances serve the proof-level inequalities of Props 2/5 Case iii only.
    violates : str
        The hypothesis violated, in words.
    solution_set : AffineSolutionSet
        ``X*_h = {x : U x = v} = U^+ v + null(U)``.
    h_star : float
        0 (the system is consistent).
    alpha : float
        ``sigma_r(U)``; exact for ``p = 2``, a certified lower bound for ``p = 1`` (``alpha_exact``).
    alpha_exact : bool
    consistency_residual : float
        ``||(I - U U^+) v||`` (rounding only).
    kappa : float
        1.
    """

    smooth = False
    violates = "Assumption 1 (line 109): h is not differentiable on X*_h, so h_i is not L_h-smooth"
    kappa = 1.0

    def __init__(self, U, v, p: int = 2):
        if isinstance(p, bool) or p not in (1, 2):
            raise InvalidParameterError("p", "1 or 2", p)
        self.p = int(p)
        self.solution_set = AffineSolutionSet(U, v)
        self.U, self.v = self.solution_set.U, self.solution_set.v
        if self.solution_set.rank == 0:
            raise InvalidParameterError("U", "a design of rank >= 1", "U = 0")
        self.dim = self.U.shape[1]
        left = np.linalg.svd(self.U, full_matrices=True)[0]
        self.consistency_residual = float(np.linalg.norm(left[:, self.solution_set.rank :].T @ self.v))
        if self.consistency_residual > 1e-10 * max(1.0, float(np.linalg.norm(self.v))):
            raise InvalidParameterError(
                "v", "a vector in range(U) (a consistent system, spec W-2)", f"residual {self.consistency_residual:.3g}"
            )
        self.h_star = 0.0
        self.alpha = float(self.solution_set.singular_values[-1])
        self.alpha_exact = self.p == 2

    @property
    def L(self) -> float:
        """``inf``: ``h`` is not smooth."""
        return math.inf

    @property
    def mu(self) -> float:
        return 0.0

    @cached_property
    def x_star(self) -> np.ndarray:
        """``U^+ v``."""
        return self.solution_set.particular.copy()

    @property
    def f_star(self) -> float:
        return self.h_star

    def value(self, x) -> np.ndarray:
        """``||U x - v||_p``."""
        x = self.check_point(x)
        return np.linalg.norm(x @ self.U.T - self.v, ord=self.p, axis=-1)

    def inner_gap(self, x) -> np.ndarray:
        """``h(x) - h* = ||U (x - Pi x)||_p`` (the rounding of ``U U^+ v - v`` is not added)."""
        x = self.check_point(x)
        sol = self.solution_set
        return np.linalg.norm(((x - sol.particular) @ sol.row_projector) @ self.U.T, ord=self.p, axis=-1)

    def subgradient(self, x) -> np.ndarray:
        """A subgradient: ``U'e/||e||_2`` (``p = 2``; 0 at ``e = 0``) or ``U' sign(e)`` (``p = 1``), ``e = Ux - v``."""
        x = self.check_point(x)
        e = x @ self.U.T - self.v
        if self.p == 1:
            return np.sign(e) @ self.U
        norm = np.linalg.norm(e, axis=-1, keepdims=True)
        return np.divide(e, norm, out=np.zeros_like(e), where=norm > 0) @ self.U

    def grad(self, x) -> np.ndarray:
        """:meth:`subgradient` (``h`` is not differentiable where ``U x = v`` or, for ``p = 1``, ``(Ux - v)_j = 0``)."""
        return self.subgradient(x)

    def client_grad(self, x) -> np.ndarray:
        return self.subgradient(self.check_client_points(x))

    def sharpness(self):
        """The exact largest ``alpha`` (:func:`fedtheory.sharpness.residual_norm_sharpness`; enumeration for
        ``p = 1``)."""
        from ..sharpness import residual_norm_sharpness  # fedtheory.sharpness imports this package

        return residual_norm_sharpness(self.U, self.p)


# --------------------------------------------------------------------------------------------------------------------
# Outer functions
# --------------------------------------------------------------------------------------------------------------------


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
    """``f(x) = (mu/2) ||x - x0||^2`` (spec W-2, W-5; with ``mu = 1`` the projection subproblem (4), line 88).

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
    """``f(x) = ||x||_1``, the outer level of problem (15) (line 648); convex, not smooth (``L = inf``)."""

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
    (Sect. 5.1, line 652; spec 2.3), ``H_mu(t) = t^2/(2 mu)`` for ``|t| <= mu``, ``|t| - mu/2`` otherwise.

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
        """``clip(x/mu, -1, 1)`` (spec 2.3; equals ``(x - prox(x))/mu``, line 652)."""
        return np.clip(self.check_point(x) / self.smoothing, -1.0, 1.0)

    def prox(self, x) -> np.ndarray:
        """``prox^mu_l1(x) = sign(x) max(|x| - mu, 0)`` (line 652)."""
        return soft_threshold(self.check_point(x), self.smoothing)


class LogSumPenalty(_Separable):
    """``LSP(x) = sum_i log(1 + |x_i|/eps)`` (Sect. 5.2, line 663), ``eps > 0``.

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
        """Whether ``sqrt(mu) <= eps``, the case of the printed prox (line 665)."""
        return positive("mu", mu) <= self.eps**2

    def prox(self, x, mu: float, *, allow_outside: bool = False) -> np.ndarray:
        """The prox of ``mu LSP`` AS PRINTED at line 667 (componentwise, "in the case where sqrt(mu) <= eps")::

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
                f"mu <= eps^2 = {self.eps**2:g} (the printed regime sqrt(mu) <= eps, line 665; "
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
    printed prox (line 665-667; the paper writes ``f(prox_LSP(x))``, read ``f = LSP``), and
    ``grad M = (x - p(x))/mu`` (line 665).

    Only the printed regime ``sqrt(mu) <= eps`` is accepted. ``LSP`` is ``rho = 1/eps^2``-weakly convex, so for
    ``mu < 1/rho`` the envelope is ``rho/(1 - mu rho)``-weakly convex (``mu`` attribute: its negative) and
    ``L = max{1/mu, rho/(1 - mu rho)}`` is an UPPER bound on the Lipschitz constant of its gradient (spec 2.3;
    ``L = inf`` at ``mu = eps^2``, where ``p`` is not Lipschitz at ``|x| = mu/eps``). For LSP the bound is approached:
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
            raise InvalidParameterError("mu", f"mu <= eps^2 = {self.eps**2:g} (the printed regime, line 665)", mu)
        rho, m = self.lsp.weak_convexity, self.smoothing
        self.weak_convexity = math.inf if m * rho >= 1 else rho / (1 - m * rho)

    @property
    def L(self) -> float:
        """``max{1/mu, rho/(1 - mu rho)}``, ``rho = 1/eps^2`` (an upper bound; spec 2.3)."""
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


# --------------------------------------------------------------------------------------------------------------------
# Bilevel optimum (spec W-5)
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BilevelReference:
    """``x* in argmin_{x in X*_h} f(x)`` with ``X*_h`` represented exactly (spec W-5).

    Attributes
    ----------
    x_star : ndarray (n,)
    f_star : float
        ``f(x*)``, the bilevel value (``f*`` of problem (1)).
    h_star : float
        ``inf h``.
    grad_norm : float or None
        ``||grad f(x*)||`` (``None`` for the nonsmooth ``l1`` outer).
    g : ndarray (n,) or None
        For the ``l1`` outer: a dual certificate ``g in d||x*||_1 cap row(U)`` (``||g||_inf <= 1``, ``g_j =
        sign(x*_j)`` on the support), usable in place of ``grad f(x*)`` (spec W-5); ``None`` otherwise.
    M : float
        ``f* - inf f`` (the ``M`` of the proof of Prop 2 with ``delta = 0``, spec 1.4).
    certificate : dict
        ``solver``, ``version``, ``stationarity_residual`` (``||Z' grad f(x*)||``: the part of ``grad f(x*)``
        outside ``row(U)``; for ``l1`` that of ``g``), ``feasibility_residual`` (``dist(x*, X*_h)``) and, for
        Clarabel solves, ``duality_gap`` (recomputed in numpy from a dual-feasible point, an upper bound on
        ``f(x*) - f*``) with Clarabel's own certificate under ``clarabel``.
    """

    x_star: np.ndarray
    f_star: float
    h_star: float
    grad_norm: float | None
    g: np.ndarray | None
    M: float
    certificate: dict = field(default_factory=dict)


def _inner(inner) -> AffineSolutionSet:
    if not isinstance(inner, (InnerLeastSquares, ResidualNorm)):
        raise InvalidParameterError(
            "inner", "an InnerLeastSquares or ResidualNorm (an inner loss with an affine solution set)", inner
        )
    return inner.solution_set


def _quadratic(outer, dim: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(A, b)`` with ``f(x) = x'A x/2 - b'x + const`` for quadratic outers, else ``None``."""
    if isinstance(outer, SquaredDistance):
        return outer.mu * np.eye(dim), outer.mu * outer.x0
    if isinstance(outer, FederatedQuadratic):
        return outer.A_mean, outer.b_mean
    return None


def _check_outer(outer, inner):
    if isinstance(outer, str):
        if outer != "l1":
            raise InvalidParameterError("outer", "a Problem or the string 'l1'", outer)
        outer = L1Norm(dim=inner.dim)
    if not isinstance(outer, Problem):
        raise InvalidParameterError(
            "outer", "an outer Problem (SquaredDistance, FederatedQuadratic, HuberL1...)", outer
        )
    if outer.dim != inner.dim:
        raise InvalidParameterError("outer", f"a function on R^n with n = {inner.dim} (that of inner)", outer.dim)
    return outer


def _closed_form_certificate(sol: AffineSolutionSet, x: np.ndarray, g: np.ndarray) -> dict:
    return {
        "solver": "closed form",
        "version": f"numpy {np.__version__}",
        "stationarity_residual": float(np.linalg.norm(sol.null_basis.T @ g)),
        "feasibility_residual": float(sol.distance(x)),
    }


def _clarabel_certificate(cert: dict) -> dict:
    from importlib.metadata import version

    return {"solver": "CLARABEL", "version": version("clarabel"), "clarabel": cert}


def bilevel_optimum(inner, outer, *, tol: float = 1e-8) -> BilevelReference:
    """``x* = argmin_{x in X*_h} f(x)`` on ``X*_h = x_p + Z z`` (``x_p = U^+ v``, ``Z`` an orthonormal basis of
    ``null(U)``; spec W-4 step 2, W-5), never on the slack set ``{h <= h* + delta}``.

    - Quadratic ``f(x) = x'A x/2 - b'x + c`` (:class:`SquaredDistance`,
      :class:`~fedtheory.problems.FederatedQuadratic`): the reduced normal equations ``Z'A Z z = Z'(b - A x_p)``
      (minimum-norm ``z`` if singular). For ``SquaredDistance(x0, mu)`` this is ``x* = Pi(x0)``;
      for ``mu/2 ||x||^2`` it is ``U^+ v``.
    - :class:`HuberL1` (``H_mu(t) = cp.huber(t, mu)/(2 mu)``): Clarabel on ``z``, then polished by the linear solve of
      the stationarity condition ``Z' grad f = 0`` on Clarabel's active set (kept only if its residual is smaller).
      Certificate: the dual point ``w = P_row grad f(x*) / max(1, ||.||_inf)`` (``w in row(U)``, ``||w||_inf <= 1``)
      gives ``f* >= w'x_p - (mu/2)||w||^2`` (Fenchel duality, ``(H_mu)^* = mu t^2/2`` on ``[-1, 1]``).
    - ``"l1"`` / :class:`L1Norm` (basis pursuit, problem (15)): Clarabel on ``min ||x||_1`` s.t. ``V_r'x = V_r'x_p``
      (``V_r`` an orthonormal basis of ``row(U)``, the constraint set ``X*_h`` without redundant rows), its dual
      variable giving ``g = -V_r nu``; the point is polished on its support (the vertex ``x_S`` with
      ``V_r[S]' x_S = V_r' x_p``) and ``g`` moved to the nearest ``V_r c`` with ``g_S = sign(x_S)``. Certificate: with
      ``g`` scaled to ``||g||_inf <= 1``, ``||x*||_1 - g'x_p >= f(x*) - f*``.

    Parameters
    ----------
    inner : InnerLeastSquares or ResidualNorm
    outer : Problem or "l1"
        Convex outers only (an :class:`LSPEnvelope` is rejected).
    tol : float
        Largest accepted ``duality_gap / max(1, |f*|)`` and stationarity residual ``/ max(1, ||grad f||)``.

    Raises
    ------
    ReferenceSolveError
        If a Clarabel solve fails or the certificate exceeds ``tol``, or a quadratic ``f`` is unbounded below on
        ``X*_h``.
    """
    sol = _inner(inner)
    outer = _check_outer(outer, inner)
    tol = positive("tol", tol)
    Z, xp = sol.null_basis, sol.particular
    quad = _quadratic(outer, inner.dim)
    if quad is not None:
        A, b = quad
        lhs, rhs = Z.T @ A @ Z, Z.T @ (b - A @ xp)
        z = np.linalg.lstsq(lhs, rhs, rcond=None)[0] if Z.shape[1] else np.zeros(0)
        x = xp + Z @ z
        g = outer.grad(x)
        cert = _closed_form_certificate(sol, x, g)
        if cert["stationarity_residual"] > tol * max(1.0, float(np.linalg.norm(g))):
            raise ReferenceSolveError(
                f"the quadratic outer is unbounded below on X*_h (reduced system residual "
                f"{cert['stationarity_residual']:.2e})"
            )
        M = float(outer.value(x)) if isinstance(outer, SquaredDistance) else float(outer.gap(x))  # gap: f - inf f
        return BilevelReference(x, float(outer.value(x)), inner.h_star, float(np.linalg.norm(g)), None, M, cert)
    if isinstance(outer, HuberL1):
        x, cert = _huber_bilevel(sol, outer, tol)
        g = outer.grad(x)
        return BilevelReference(
            x, float(outer.value(x)), inner.h_star, float(np.linalg.norm(g)), None, float(outer.value(x)), cert
        )
    if isinstance(outer, L1Norm):
        x, g, cert = _basis_pursuit(sol, tol)
        f = float(outer.value(x))
        return BilevelReference(x, f, inner.h_star, None, g, f, cert)
    raise InvalidParameterError(
        "outer", "a convex outer: SquaredDistance, FederatedQuadratic, HuberL1, L1Norm or 'l1'", type(outer).__name__
    )


def _huber_bilevel(sol: AffineSolutionSet, outer: HuberL1, tol: float) -> tuple[np.ndarray, dict]:
    """Certified ``argmin_{X*} sum H_mu`` (see :func:`bilevel_optimum`)."""
    Z, xp, mu = sol.null_basis, sol.particular, outer.smoothing
    if Z.shape[1] == 0:
        x, cert = xp.copy(), {"solver": "closed form", "version": f"numpy {np.__version__}"}
    else:
        import cvxpy as cp

        from ..reference import solve

        z = cp.Variable(Z.shape[1])
        problem = cp.Problem(cp.Minimize(cp.sum(cp.huber(xp + Z @ z, mu)) / (2 * mu)))
        cert = _clarabel_certificate(solve(problem))
        candidates = [xp + Z @ np.asarray(z.value)]
        a = candidates[0]
        quad, lin = np.abs(a) <= mu, np.abs(a) > mu
        ZQ, s = Z[quad], np.where(lin, np.sign(a), 0.0)
        rhs = -ZQ.T @ xp[quad] - mu * (Z.T @ s)
        candidates.append(xp + Z @ np.linalg.lstsq(ZQ.T @ ZQ, rhs, rcond=None)[0])
        x = min(candidates, key=lambda c: float(np.linalg.norm(Z.T @ outer.grad(c))))
    grad = outer.grad(x)
    w = grad @ sol.row_projector
    w = w / max(1.0, float(np.max(np.abs(w))))
    f = float(outer.value(x))
    cert["duality_gap"] = max(f - (float(w @ xp) - 0.5 * mu * float(w @ w)), 0.0)
    cert["stationarity_residual"] = float(np.linalg.norm(Z.T @ grad))
    cert["feasibility_residual"] = float(sol.distance(x))
    if cert["duality_gap"] > tol * max(1.0, abs(f)):
        raise ReferenceSolveError(f"Huber bilevel optimum not certified: duality gap {cert['duality_gap']:.2e}")
    return x, cert


def _basis_pursuit(sol: AffineSolutionSet, tol: float) -> tuple[np.ndarray, np.ndarray, dict]:
    """Certified ``argmin_{X*} ||x||_1`` and its dual certificate (see :func:`bilevel_optimum`)."""
    V, xp = sol.row_basis, sol.particular
    n = xp.shape[0]
    if V.shape[1] == 0:  # X* = R^n
        x, g = np.zeros(n), np.zeros(n)
        cert = {"solver": "closed form", "version": f"numpy {np.__version__}"}
    else:
        import cvxpy as cp

        from ..reference import solve

        var = cp.Variable(n)
        constraint = V.T @ var == V.T @ xp
        problem = cp.Problem(cp.Minimize(cp.norm1(var)), [constraint])
        cert = _clarabel_certificate(solve(problem))
        x_solver = sol.project(np.asarray(var.value))
        g_solver = -V @ np.asarray(constraint.dual_value)
        support = np.abs(x_solver) > 1e-7 * max(1.0, float(np.max(np.abs(x_solver))))
        VS = V[support]
        candidates = [(x_solver, g_solver)]
        xS = np.linalg.lstsq(VS.T, V.T @ xp, rcond=None)[0]
        x_vertex = np.zeros(n)
        x_vertex[support] = xS
        if sol.distance(x_vertex) <= 1e-12 * max(1.0, float(np.linalg.norm(xp))):
            c = V.T @ g_solver  # nearest c to the solver's with V[S] c = sign(x_S), i.e. g_S = sign(x_S)
            g_vertex = V @ (c + np.linalg.pinv(VS) @ (np.sign(xS) - VS @ c))
            candidates += [(x_vertex, g_vertex), (x_vertex, g_solver)]
        x, g = min(candidates, key=lambda c: _l1_gap(c[0], c[1], xp))
    g = g / max(1.0, float(np.max(np.abs(g))))
    f = float(np.sum(np.abs(x)))
    cert["duality_gap"] = _l1_gap(x, g, xp)
    cert["stationarity_residual"] = float(np.linalg.norm(sol.null_basis.T @ g))
    cert["feasibility_residual"] = float(sol.distance(x))
    on = x != 0
    cert["support_sign_residual"] = float(np.max(np.abs(g[on] - np.sign(x[on])), initial=0.0))
    cert["in_subdifferential"] = bool(L1(1.0).in_subdifferential(x, g, tol=1e-6))
    if cert["duality_gap"] > tol * max(1.0, f):
        raise ReferenceSolveError(f"basis pursuit optimum not certified: duality gap {cert['duality_gap']:.2e}")
    return x, g, cert


def _l1_gap(x: np.ndarray, g: np.ndarray, xp: np.ndarray) -> float:
    """``||x||_1 - g'x_p`` after scaling ``g`` into ``||g||_inf <= 1`` (weak duality of basis pursuit)."""
    g = g / max(1.0, float(np.max(np.abs(g))))
    return max(float(np.sum(np.abs(x)) - g @ xp), 0.0)


# --------------------------------------------------------------------------------------------------------------------
# Tikhonov points (spec 1.1, W-2, W-5, W-6)
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TikhonovReference:
    """``x_eta* = argmin_x h(x) + eta f(x)`` and ``f_eta* = h(x_eta*) + eta f(x_eta*)`` (spec 1.1).

    Attributes
    ----------
    eta : ndarray
        The weights (shape of the ``eta`` passed).
    x : ndarray (*eta.shape, n)
    value : ndarray (eta.shape)
        ``f_eta*``.
    certificate : dict
        ``solver``, ``version`` and per-``eta`` arrays: ``gradient_norm`` (``||grad f_eta(x)||``, or a bound on the
        distance of 0 to the subdifferential), plus ``duality_gap`` / ``distance_bound`` where computed.
    x_solver : ndarray or None
        Clarabel's unpolished point (``None`` for closed forms).
    """

    eta: np.ndarray
    x: np.ndarray
    value: np.ndarray
    certificate: dict = field(default_factory=dict)
    x_solver: np.ndarray | None = None


def _etas(eta) -> np.ndarray:
    eta = finite_array("eta", eta)
    if np.any(eta <= 0):
        raise InvalidParameterError("eta", "regularization weights eta > 0", eta)
    return eta


def tikhonov_reference(inner, outer, eta, *, tol: float = 1e-8) -> TikhonovReference:
    """The Tikhonov point and value for every ``eta`` (an array is vectorised for quadratic outers).

    - :class:`InnerLeastSquares` with a quadratic outer ``x'A x/2 - b'x + c``: ``(H + eta A) x = U'v/N + eta b``
      (spec W-5: ``x_eta* = (H + eta mu I)^{-1}(U'v/N + eta mu x0)`` for ``(mu/2)||x - x0||^2``), one batched solve.
    - :class:`InnerLeastSquares` with :class:`HuberL1`: Clarabel per ``eta``, polished by the linear solve of the
      stationarity condition on Clarabel's active set; certified by the Fenchel duality gap with
      ``y = t grad h(x)``, ``t = min(1, eta/||grad h(x)||_inf)`` (``-y/eta`` is dual feasible for ``eta f``).
    - :class:`ResidualNorm` (``p = 2``) with :class:`SquaredDistance` ``(x0, mu)``: :func:`residual_norm_tikhonov`
      with weight ``eta mu``.

    Raises
    ------
    InvalidParameterError
        For other pairs, or a quadratic ``h + eta f`` that is not positive definite.
    ReferenceSolveError
        If a Clarabel solve is not certified to ``tol``.
    """
    etas = _etas(eta)
    outer = _check_outer(outer, inner)
    _inner(inner)
    if isinstance(inner, ResidualNorm):
        if inner.p != 2 or not isinstance(outer, SquaredDistance):
            raise InvalidParameterError("outer", "a SquaredDistance outer with a p = 2 ResidualNorm inner", outer)
        refs = [residual_norm_tikhonov(inner.U, inner.v, outer.x0, e * outer.mu, tol=tol) for e in etas.reshape(-1)]
        x = np.stack([r.x for r in refs]).reshape(*etas.shape, inner.dim)
        cert = _stack_certificates([r.certificate for r in refs], etas.shape)
        return TikhonovReference(
            etas, x, inner.value(x) + etas * outer.value(x), cert, np.stack([r.x_solver for r in refs]).reshape(x.shape)
        )
    quad = _quadratic(outer, inner.dim)
    if quad is not None:
        A, b = quad
        mats = inner.hessian + etas[..., None, None] * A
        if np.any(np.linalg.eigvalsh(mats)[..., 0] <= 0):
            raise InvalidParameterError("outer", "a quadratic with H + eta A positive definite for every eta", outer)
        rhs = inner.U.T @ inner.v / inner.N + etas[..., None] * b
        x = np.linalg.solve(mats, rhs[..., None])[..., 0]
        grad = inner.grad(x) + etas[..., None] * outer.grad(x)
        cert = {
            "solver": "closed form",
            "version": f"numpy {np.__version__}",
            "gradient_norm": np.linalg.norm(grad, axis=-1),
        }
        return TikhonovReference(etas, x, inner.value(x) + etas * outer.value(x), cert)
    if isinstance(outer, HuberL1):
        return _huber_tikhonov(inner, outer, etas, tol)
    raise InvalidParameterError("outer", "a SquaredDistance, FederatedQuadratic or HuberL1 outer", type(outer).__name__)


def _stack_certificates(certs: list[dict], shape: tuple[int, ...]) -> dict:
    out = {"solver": certs[0]["solver"], "version": certs[0]["version"]}
    for key, value in certs[0].items():
        if isinstance(value, numbers.Real):  # numbers and flags, one per eta
            out[key] = np.array([c[key] for c in certs], dtype=type(value)).reshape(shape)
    return out


def _huber_tikhonov(inner: InnerLeastSquares, outer: HuberL1, etas: np.ndarray, tol: float) -> TikhonovReference:
    import cvxpy as cp

    from ..reference import solve

    U, v, N, mu, n = inner.U, inner.v, inner.N, outer.smoothing, inner.dim
    x_var, weight = cp.Variable(n), cp.Parameter(nonneg=True)
    problem = cp.Problem(
        cp.Minimize(cp.sum_squares(U @ x_var - v) / (2 * N) + weight * cp.sum(cp.huber(x_var, mu)) / (2 * mu))
    )
    flat = etas.reshape(-1)
    xs, raw = np.zeros((flat.size, n)), np.zeros((flat.size, n))
    gaps, grads, clarabel = np.zeros(flat.size), np.zeros(flat.size), []

    def gradient(x, eta):
        return (x @ U.T - v) @ U / N + eta * outer.grad(x)

    for k, eta in enumerate(flat):
        weight.value = float(eta)
        clarabel.append(solve(problem))
        a = np.asarray(x_var.value)
        quad, lin = np.abs(a) <= mu, np.abs(a) > mu
        rhs = U.T @ v / N - eta * np.where(lin, np.sign(a), 0.0)
        polished = np.linalg.lstsq(inner.hessian + (eta / mu) * np.diag(quad.astype(float)), rhs, rcond=None)[0]
        x = min((a, polished), key=lambda c, e=eta: float(np.linalg.norm(gradient(c, e))))
        raw[k], xs[k], grads[k] = a, x, np.linalg.norm(gradient(x, eta))
        gh = (x @ U.T - v) @ U / N
        t = min(1.0, eta / max(float(np.max(np.abs(gh))), np.finfo(float).tiny))
        x_dual = t * x + (1 - t) * inner.x_star  # grad h(x_dual) = t grad h(x)
        y = t * gh
        dual = float(inner.value(x_dual)) - float(y @ x_dual) - mu / (2 * eta) * float(y @ y)
        primal = float(inner.value(x) + eta * outer.value(x))
        gaps[k] = max(primal - dual, 0.0)
        if gaps[k] > tol * max(1.0, abs(primal)):
            raise ReferenceSolveError(f"Huber Tikhonov point not certified at eta = {eta:g}: gap {gaps[k]:.2e}")
    x = xs.reshape(*etas.shape, n)
    cert = _clarabel_certificate(clarabel)
    cert["gradient_norm"] = grads.reshape(etas.shape)
    cert["duality_gap"] = gaps.reshape(etas.shape)
    return TikhonovReference(etas, x, inner.value(x) + etas * outer.value(x), cert, raw.reshape(x.shape))


def tikhonov_point(inner, outer, eta) -> np.ndarray:
    """``x_eta* = argmin h + eta f`` (:func:`tikhonov_reference`), shape ``(*eta.shape, n)``."""
    return tikhonov_reference(inner, outer, eta).x


def tikhonov_value(inner, outer, eta) -> np.ndarray:
    """``f_eta* = inf_x h(x) + eta f(x)`` (:func:`tikhonov_reference`), shape ``eta.shape``."""
    return tikhonov_reference(inner, outer, eta).value


def tikhonov_gap(inner: InnerLeastSquares, outer, eta, x) -> np.ndarray:
    """``f_eta(x) - f_eta* = (x - x_eta*)'(H + eta A)(x - x_eta*)/2`` for a quadratic outer (no cancellation against
    ``f_eta*``); ``eta`` (shape E) broadcasts against the leading axes of ``x`` (..., n)."""
    if not isinstance(inner, InnerLeastSquares):
        raise InvalidParameterError("inner", "an InnerLeastSquares", type(inner).__name__)
    outer = _check_outer(outer, inner)
    quad = _quadratic(outer, inner.dim)
    if quad is None:
        raise InvalidParameterError("outer", "a quadratic outer (SquaredDistance or FederatedQuadratic)", outer)
    etas = _etas(eta)
    x = inner.check_point(x)
    e = x - tikhonov_point(inner, outer, etas)
    mats = inner.hessian + etas[..., None, None] * quad[0]
    return 0.5 * np.einsum("...i,...ij,...j->...", e, mats, e)


@dataclass(frozen=True)
class TikhonovPath:
    """The Tikhonov path of ``h = (1/(2N))||U y - v||^2`` with ``f = (mu/2)||x||^2`` (spec W-6).

    With ``x* = U^+ v`` and the eigenpairs ``(lambda_k, u_k)`` of ``H = U'U/N`` (``lambda_k = sigma_k^2/N``),
    coordinates ``x*_k = u_k'x*``:

    - offset ``x_eta - x* = -eta mu (H + eta mu I)^{-1} x* = -sum_k (eta mu/(lambda_k + eta mu)) x*_k u_k``;
    - inner gap ``h(x_eta) - h* = 1/2 sum_k lambda_k (eta mu/(lambda_k + eta mu))^2 x*_k^2``;
    - ``dist(x_eta, X*) = ||x_eta - x*||`` (the offset lies in ``row(U)``).

    Attributes
    ----------
    eta : ndarray (E,)
    x_star : ndarray (n,)
    x_eta, offset : ndarray (E, n)
    inner_gap, distance : ndarray (E,)
    """

    eta: np.ndarray
    x_star: np.ndarray
    x_eta: np.ndarray
    offset: np.ndarray
    inner_gap: np.ndarray
    distance: np.ndarray


def tikhonov_path(inner: InnerLeastSquares, mu: float, etas) -> TikhonovPath:
    """Closed forms of spec W-6 for ``f = (mu/2)||x||^2`` on every ``eta`` of ``etas`` (1-D)."""
    if not isinstance(inner, InnerLeastSquares):
        raise InvalidParameterError("inner", "an InnerLeastSquares", type(inner).__name__)
    mu = positive("mu", mu)
    etas = _etas(etas)
    if etas.ndim != 1:
        raise InvalidParameterError("etas", "a 1-D array of weights", etas.shape)
    sol = inner.solution_set
    lam = sol.singular_values**2 / inner.N
    coef = sol.row_basis.T @ sol.particular
    shrink = etas[:, None] * mu / (lam + etas[:, None] * mu)  # (E, r)
    offset = -(shrink * coef) @ sol.row_basis.T
    gap = 0.5 * np.sum(lam * (shrink * coef) ** 2, axis=-1)
    distance = np.sqrt(np.sum((shrink * coef) ** 2, axis=-1))
    return TikhonovPath(etas, sol.particular.copy(), sol.particular + offset, offset, gap, distance)


def exact_regularization_threshold(U, v, x0) -> float:
    """``eta_crit = 1/||(U^+)'(x0 - x*)||`` for ``h = ||U x - v||_2`` and ``f = 1/2 ||x - x0||^2`` (spec W-2).

    ``x* = Pi(x0) = x0 - U^+(U x0 - v)``; the Tikhonov point equals ``x*`` iff ``eta (x0 - x*) = U'w`` for some
    ``||w|| <= 1``, and the minimum-norm ``w`` is ``eta (U^+)'(x0 - x*)``. ``inf`` when ``x0`` is in ``X*``.
    ``v`` must lie in ``range(U)`` (otherwise ``h`` is smooth at its minimisers and no ``eta`` regularises exactly).
    """
    h = ResidualNorm(U, v, 2)
    sol = h.solution_set
    x0 = _point("x0", x0, h.dim)
    coef = (x0 - sol.particular) @ sol.row_basis  # x0 - x* in the row basis
    norm = float(np.linalg.norm(coef / sol.singular_values))  # ||(U^+)'(x0 - x*)||
    return math.inf if norm == 0.0 else 1.0 / norm


def _point(name: str, x, dim: int) -> np.ndarray:
    x = finite_array(name, x, ndim=(1,))
    if x.shape[0] != dim:
        raise InvalidParameterError(name, f"a vector of length n = {dim}", x.shape)
    return x


def residual_norm_tikhonov(U, v, x0, eta: float, *, tol: float = 1e-8) -> TikhonovReference:
    """Certified ``x_eta = argmin ||U x - v||_2 + (eta/2)||x - x0||^2`` (an SOCP, solved by Clarabel; spec W-2).

    Clarabel solves the epigraph form ``min t + (eta/2) s`` s.t. ``||U(x0 + d) - v|| <= t``, ``||d||^2 <= s``
    (``x = x0 + d``; the direct form often stops at "AlmostSolved" at the pinned tolerances). Its point is kept in
    ``x_solver`` (accurate to about ``sqrt(2 gap/eta)``, 1e-4 here); the returned ``x`` is the best certified of two
    candidates:

    - ``x* = Pi(x0)`` with the subgradient ``eta (x* - x0) + U'w``, ``w = eta (U^+)'(x0 - x*)`` scaled into the unit
      ball (optimal iff ``eta <= eta_crit``);
    - the smooth stationary point ``x* + sum_k d_k b_k`` with ``d_k = c_k eta rho/(eta rho + sigma_k^2)``, ``c_k`` the
      row-basis coordinates of ``x0 - x*`` and ``rho = ||U x - v|| > 0`` the root of
      ``sum_k (eta sigma_k c_k/(eta rho + sigma_k^2))^2 = 1`` (bisection; it exists iff ``eta > eta_crit``).

    The objective is ``eta``-strongly convex, so a subgradient of norm ``r`` at ``x`` gives
    ``||x - x_eta|| <= r/eta`` (``distance_bound``) and ``F(x) - F* <= r^2/(2 eta)``.

    Raises
    ------
    ReferenceSolveError
        If ``distance_bound > tol max(1, ||x||)`` or the Clarabel solve fails.
    """
    import cvxpy as cp

    from ..reference import solve

    h = ResidualNorm(U, v, 2)
    sol, x0, eta = h.solution_set, _point("x0", x0, h.dim), positive("eta", eta)
    d, t, s = cp.Variable(h.dim), cp.Variable(), cp.Variable()  # x = x0 + d, epigraph form (Clarabel: "Solved")
    constraints = [cp.SOC(t, h.U @ d + (h.U @ x0 - h.v)), cp.sum_squares(d) <= s]
    cert = _clarabel_certificate(solve(cp.Problem(cp.Minimize(t + eta / 2 * s), constraints)))
    x_solver = x0 + np.asarray(d.value)
    x_star = sol.project(x0)
    sigma, basis = sol.singular_values, sol.row_basis
    c = (x0 - x_star) @ basis

    def residual(x, kink: bool) -> float:
        """Norm of a subgradient of the objective at ``x``: on ``X*`` (``kink``) with the minimum-norm ``w`` scaled
        into the unit ball, else the gradient."""
        if kink:
            w = eta * (sol.pinv.T @ (x0 - x))
            w = w / max(1.0, float(np.linalg.norm(w)))
            return float(np.linalg.norm(eta * (x - x0) + h.U.T @ w))
        e = h.U @ x - h.v
        return float(np.linalg.norm(eta * (x - x0) + h.U.T @ (e / np.linalg.norm(e))))

    candidates = [x_star]
    phi0 = float(np.sum((eta * c / sigma) ** 2))
    if phi0 > 1.0:  # a smooth stationary point exists: solve the secular equation for rho
        lo, hi = 0.0, float(np.linalg.norm(sigma * c)) + 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if np.sum((eta * sigma * c / (eta * mid + sigma**2)) ** 2) > 1.0:
                lo = mid
            else:
                hi = mid
        rho = (lo + hi) / 2
        candidates.append(x_star + (c * eta * rho / (eta * rho + sigma**2)) @ basis.T)
    residuals = [residual(x, k == 0) for k, x in enumerate(candidates)]
    best = int(np.argmin(residuals))
    x = candidates[best]
    cert["subgradient_residual"] = residuals[best]
    cert["distance_bound"] = residuals[best] / eta
    cert["solver_distance"] = float(np.linalg.norm(x_solver - x))
    cert["exact_regularization"] = best == 0
    if cert["distance_bound"] > tol * max(1.0, float(np.linalg.norm(x))):
        raise ReferenceSolveError(f"residual-norm Tikhonov point not certified: bound {cert['distance_bound']:.2e}")
    value = float(h.value(x) + eta / 2 * np.sum((x - x0) ** 2))
    return TikhonovReference(np.asarray(eta), x, np.asarray(value), cert, x_solver)


# --------------------------------------------------------------------------------------------------------------------
# Instances (spec sections 4 and 5)
# --------------------------------------------------------------------------------------------------------------------


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


def _generator(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError("rng", "a numpy.random.Generator (explicit seeding)", type(rng).__name__)
    return rng


def ls_instance(
    m: int, n: int, N: int, rng: np.random.Generator, *, sparsity: int = 5, row_scale: float = 1.0
) -> RegressionInstance:
    """LS(m, n, N) of spec section 4 item 1.

    Recipe: ``U`` has i.i.d. ``N(0, 1/n)`` entries (``m x n``), times ``row_scale``; ``x_true`` has ``sparsity``
    nonzero ``N(0, 1)`` entries on a uniformly random support; ``v = U x_true`` (consistent, ``h* = 0``); rows are
    split evenly into ``N`` consecutive clients (:meth:`InnerLeastSquares.split`). Draw order: ``U``, support,
    values.
    """
    rng = _generator(rng)
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
    """Spec section 4 item 2: heterogeneous LS clients for the client-drift fixed point (spec 2.1).

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
    """Spec section 4 item 2: ``LS(m, n, N)`` (:func:`ls_instance`, default 8 x 6 with 4 clients of 2 rows), outer
    ``f = 1/2 ||x||^2``, ``eta = 0.3``, ``K = 10``, ``gamma_l in {0.05, 0.02, 0.01, 0.005}``."""
    base = ls_instance(m, n, N, rng, sparsity=min(5, n))
    gammas = tuple(positive("gamma_l", g) for g in gamma_l)
    return DriftInstance(
        base.inner, SquaredDistance(np.zeros(n)), positive("eta", eta), positive_int("K", K), gammas, base.x_true
    )


@dataclass(frozen=True)
class ResidualNormInstance:
    """Spec section 4 item 3: ``h = ||U x - v||_p`` (consistent) with ``f = 1/2 ||x - x0||^2``.

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
    """Spec section 4 item 3: ``U`` (``m x n`` = 5 x 8) with i.i.d. ``N(0, 1)`` entries, ``x_true ~ N(0, I_n)``,
    ``v = U x_true`` (consistent), ``h = ||U x - v||_p``, ``f = 1/2 ||x - x0||^2`` with ``x0 ~ N(0, x0_std^2 I)``
    (``N(0, 9 I)`` by default). Draw order: ``U``, ``x_true``, ``x0``."""
    rng = _generator(rng)
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
    """The synthetic scale-down of Exp. 1 (Sect. 5.1, lines 648-654; spec section 5).

    Recipe:

    1. ``m`` rows split evenly into ``N`` clients (73 rows, 10 clients: 7-8 rows each, the first 3 get 8);
    2. client ``i`` draws ``z_i ~ N(0, I_n)``, ``D_i = diag(exp(0.5 z_i))`` and rows ``U_il ~ N(0, D_i^2/n)``
       (client heterogeneity);
    3. every row is multiplied by ``c = row_scale min{sqrt(lambda_max/lambda_max(H)),
       sqrt(client_L_max/max_i L_{h_i})}`` (``H = U'U/N``, ``L_{h_i} = sigma_max(U_i)^2``), so that
       ``lambda_max(H) <= 1`` and ``max_i L_{h_i} <= 5`` with equality in the binding one (``row_scale < 1``
       shrinks further, e.g. after an unstable round map; spec 5);
    4. ``x_true`` is ``sparsity``-sparse (5) with ``N(0, 1)`` entries, ``v = U x_true + noise N(0, I_m)``; ``m < n``
       and ``U`` of full row rank make the system consistent anyway (``h* = 0`` up to rounding).

    Draw order: ``z_1..z_N``, the Gaussian rows, support, values, noise.
    """
    rng = _generator(rng)
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
