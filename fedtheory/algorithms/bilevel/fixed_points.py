"""Exact deterministic round maps and the client-drift fixed point of StR-FedAvg on quadratic clients.

With quadratic clients ``f_{eta,i} = h_i + eta f_i``, ``grad f_{eta,i}(x) = A_i x - b_i`` (``A_i`` the Hessian of
``h_i + eta f_i``), exact gradients and ``T_i = I - gamma_l A_i``, ``K`` local steps from ``x`` end at
``P_i x + gamma_l Q_i b_i`` with ``P_i = T_i^K`` and ``Q_i = sum_{j<K} T_i^j`` (so ``I - P_i = gamma_l A_i Q_i``).
With full participation the round map of Algorithm 1 is affine,

    ``x -> x + (gamma_g/N) sum_i [(P_i - I) x + gamma_l Q_i b_i]``,

and it is also the *expected* round map under uniform sampling of ``S`` clients without replacement (every client
enters the average with probability ``S/N`` and weight ``1/S``). Its fixed point,

    ``x_FP = [sum_i (I - P_i)]^{-1} sum_i (I - P_i) x_i^* = [sum_i A_i Q_i]^{-1} sum_i Q_i b_i``,

does not depend on ``gamma_g`` and equals ``x_eta^* = (sum_i A_i)^{-1} sum_i b_i`` when ``K = 1`` or the clients are
identical; the second form needs no invertible ``A_i`` (``x_i^* = A_i^{-1} b_i``).

Problems: any :class:`~fedtheory.problems.Problem` whose client gradients are affine in ``x``. A
:class:`~fedtheory.problems.FederatedQuadratic` (and subclasses such as ``LeastSquares``) gives ``A``, ``b``
directly; any other quadratic problem (e.g. an outer ``(mu/2)||x - x0||^2``, whose client gradient is
``mu x - mu x0``: ``A_i = mu I``, ``b_i = mu x0``) is read off its ``client_grad`` at ``0`` and the unit vectors,
and the affinity is checked at a further point.
"""

from __future__ import annotations

import numpy as np

from ..._validate import positive, positive_int
from ...errors import InvalidParameterError
from ...problems import FederatedQuadratic, Problem
from .str_fedavg import StRParams, client_count


def quadratic_clients(problem: Problem, N: int, *, name: str = "problem") -> tuple[np.ndarray, np.ndarray]:
    """Per-client Hessians ``A`` (N, n, n) and linear terms ``b`` (N, n) with ``client_grad_i(x) = A_i x - b_i``.

    Raises
    ------
    InvalidParameterError
        If the problem's client count is not ``N`` or its client gradients are not affine.
    """
    N = positive_int("N", N)
    if problem.n_clients is not None and problem.n_clients != N:
        raise InvalidParameterError("N", f"N = {problem.n_clients} (the clients of {name})", N)
    d = problem.dim
    if isinstance(problem, FederatedQuadratic):
        return np.broadcast_to(problem.A, (N, d, d)).copy(), np.broadcast_to(problem.b, (N, d)).copy()
    probes = np.zeros((d + 1, N, d))
    probes[1:] = np.eye(d)[:, None, :]
    G = problem.client_grad(probes)
    b = -G[0]
    A = np.moveaxis(G[1:] - G[0], 0, -1)  # A[i, :, j] = grad_i(e_j) - grad_i(0)
    z = np.linspace(-1.0, 2.0, d) + 0.5
    residual = problem.client_grad(np.broadcast_to(z, (N, d))) - (A @ z - b)
    scale = max(1.0, float(np.max(np.abs(A @ z))), float(np.max(np.abs(b))))
    if np.max(np.abs(residual)) > 1e-9 * scale:
        raise InvalidParameterError(name, "a quadratic problem (client gradients affine in x)", type(problem).__name__)
    return A, b


def regularized_clients(h: Problem, f: Problem, eta: float, N: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``A_i``, ``b_i`` of ``h_i + eta f_i`` (shapes (N, n, n), (N, n)) for quadratic ``h`` and ``f``."""
    eta = positive("eta", eta, allow_zero=True)
    N = client_count(h, f, N)
    Ah, bh = quadratic_clients(h, N, name="h")
    Af, bf = quadratic_clients(f, N, name="f")
    return Ah + eta * Af, bh + eta * bf


def _local_maps(A: np.ndarray, gamma_l: float, K: int) -> tuple[np.ndarray, np.ndarray]:
    """``P_i = T_i^K`` and ``Q_i = sum_{j<K} T_i^j`` with ``T_i = I - gamma_l A_i`` (Horner), shapes (N, n, n)."""
    eye = np.eye(A.shape[-1])
    T = eye - gamma_l * A
    Q = np.broadcast_to(eye, T.shape).copy()
    for _ in range(K - 1):
        Q = eye + T @ Q
    return eye - gamma_l * A @ Q, Q


def drift_fixed_point(
    h: Problem, f: Problem, eta: float, gamma_l: float, K: int, *, N: int | None = None
) -> np.ndarray:
    """``x_FP = [sum_i (I - P_i)]^{-1} sum_i (I - P_i) x_i^*``, the deterministic fixed point of Algorithm 1 with
    quadratic clients and full participation, for any ``gamma_g``.

    Raises
    ------
    InvalidParameterError
        If ``sum_i (I - P_i)`` is singular (no unique fixed point).
    """
    gamma_l, K = positive("gamma_l", gamma_l), positive_int("K", K)
    A, b = regularized_clients(h, f, eta, N)
    _, Q = _local_maps(A, gamma_l, K)
    H = np.einsum("mij,mjk->ik", A, Q)
    singular = np.linalg.svd(H, compute_uv=False)
    if singular[-1] <= 1e-13 * singular[0]:
        raise InvalidParameterError(
            "gamma_l", "a local step with sum_i (I - P_i) nonsingular (a unique fixed point)", gamma_l
        )
    return np.linalg.solve(H, np.einsum("mij,mj->i", Q, b))


def round_map(h: Problem, f: Problem, params: StRParams, *, N: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The affine round map ``xbar^r = M xbar^{r-1} + c`` of deterministic Algorithm 1 with full participation
    (the expected map under uniform participation): ``M = I + (gamma_g/N) sum_i (P_i - I)``,
    ``c = (gamma_g gamma_l/N) sum_i Q_i b_i``."""
    A, b = regularized_clients(h, f, params.eta, N)
    P, Q = _local_maps(A, params.gamma_l, params.K)
    n_clients = A.shape[0]
    M = np.eye(A.shape[-1]) + params.gamma_g * (P - np.eye(A.shape[-1])).sum(axis=0) / n_clients
    c = params.gamma_g * params.gamma_l * np.einsum("mij,mj->i", Q, b) / n_clients
    return M, c


def round_map_radius(h: Problem, f: Problem, params: StRParams, *, N: int | None = None) -> float:
    """``rho(I + (gamma_g/N) sum_i (P_i - I))``, the linear convergence rate of the deterministic round map."""
    M, _ = round_map(h, f, params, N=N)
    return float(np.max(np.abs(np.linalg.eigvals(M))))
