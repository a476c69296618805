"""Inner losses of the simple bilevel problems: least squares with its exact solution set and row sampling, and
the residual norms.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from ..._validate import finite_array, generator, positive_int
from ...errors import InvalidParameterError
from ..base import Problem
from ..quadratic import FederatedQuadratic
from ..solution_sets import AffineSolutionSet


class InnerLeastSquares(FederatedQuadratic):
    """``h(y) = (1/N) sum_i h_i(y)``, ``h_i(y) = 1/2 ||U_i y - v_i||^2`` (problem (15)).

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
        ``X*_h = U^+ v + null(U)``.
    smooth : bool
        ``True``: every ``h_i`` is convex and ``L_{h_i}``-smooth (Assumption 1).

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

    # --- constants -------------------------------------------------------------------------------------
    @cached_property
    def client_L(self) -> np.ndarray:
        """``L_{h_i} = sigma_max(U_i)^2`` (N,)."""
        return np.array([np.linalg.norm(u, 2) ** 2 for u in self.U_blocks])

    @cached_property
    def L_h(self) -> float:
        """``L_h = max_i L_{h_i}``."""
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
        ``h - h* >= alpha dist^2`` (weak sharpness of order ``kappa = 2``, Notati)."""
        return float(self.solution_set.singular_values[-1] ** 2 / (2 * self.N))

    @cached_property
    def beta_2(self) -> float:
        """``beta_2 = sigma_1(U)^2/(2N)``: ``h - h* <= beta_2 dist^2``."""
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
        """``h(y) - h* = (1/(2N)) ||U (y - Pi y)||^2 = (1/(2N)) sum_k sigma_k^2 c_k^2``, with ``c`` the
        coordinates of ``y - U^+ v`` in the orthonormal basis of ``row(U)``; no subtraction of ``h*``."""
        y = self.check_point(y, "y")
        sol = self.solution_set
        coef = (y - sol.particular) @ sol.row_basis
        return np.sum((coef * sol.singular_values) ** 2, axis=-1) / (2 * self.N)

    def gap(self, x) -> np.ndarray:
        """``h(x) - h*`` (:meth:`inner_gap`)."""
        return self.inner_gap(x)

    # --- row sampling --------------------------------------------------------------
    def draw_rows(self, rng: np.random.Generator, shape: tuple[int, ...] = (), batch_size: int = 1) -> np.ndarray:
        """Row indices ``(*shape, N, batch_size)``: client ``i`` draws uniformly from its ``m_i`` rows, with
        replacement, independently across ``shape``, clients and draws."""
        batch_size, rng = positive_int("batch_size", batch_size), generator("rng", rng)
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
        ``x``) holds only on bounded sets."""
        x = self.check_client_points(x)
        batch_size = positive_int("batch_size", batch_size)
        r = np.einsum("mld,...md->...ml", self._U_pad, x) - self._v_pad
        per_row = self.sizes[:, None, None] * r[..., None] * self._U_pad  # (..., N, m_max, n); 0 on padding
        mean = per_row.sum(axis=-2) / self.sizes[:, None]
        valid = np.arange(self._U_pad.shape[1]) < self.sizes[:, None]  # (N, m_max)
        spread = np.sum((per_row - mean[..., None, :]) ** 2, axis=-1) * valid
        return spread.sum(axis=-1) / self.sizes / batch_size

    def rows(self, batch_size: int = 1) -> RowSampling:
        """The row-sampling oracle (``batch_size`` rows per client and call; 1 is the one-row stochastic variant)."""
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
    """``h(x) = ||U x - v||_p`` with ``v`` in ``range(U)``: weak sharp of order ``kappa = 1``.

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
        ``False``: ``h`` is not differentiable on ``X*_h``, so Assumption 1 (``h_i`` ``L_h``-smooth) is
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
    violates = "Assumption 1: h is not differentiable on X*_h, so h_i is not L_h-smooth"
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
                "v", "a vector in range(U) (a consistent system)", f"residual {self.consistency_residual:.3g}"
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
        from ...sharpness import residual_norm_sharpness  # fedtheory.sharpness imports this package

        return residual_norm_sharpness(self.U, self.p)
