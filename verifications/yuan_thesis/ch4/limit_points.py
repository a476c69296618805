"""The deterministic limit points of the four federated methods of thesis chapter 4: instances, runs to the limit
and closed forms (no claims). The claims are in the sibling modules: FedDualAvg (Algorithm 6) in
:mod:`.thm_4_3_feddualavg_limits`, FedMiD and FedMiD-OSP (Algorithms 5, 7) in :mod:`.thm_4_3_fedmid_limits`,
FedDualAvg-OSP (Algorithm 8) in :mod:`.alg_8_feddualavg_osp_limits`, and the curse of primal averaging (section
4.2.2, whose examples are run to their limits by :func:`run_to_limit`) in :mod:`.sec_4_2_2_curse_of_primal_averaging`.

Limit points (our own test protocol), exact gradients (sigma = 0), Euclidean ``h``, ``x^(0,0) = 0``,
``psi = 0.3 ||.||_1`` or the Euclidean ball of radius ``0.5 ||argmin F||``:

* Q-hom: ``d = 20``, ``n = 200``, ``A ~ N(0,1)``, ``x_true = (1_5, 0_15)``, ``b = A x_true + 0.5 N(0,1)``,
  ``F = ||Ax - b||^2/(2n)``, every client holding ``F`` (M = 1; M = 2 identical copies in the full profile);
* Q-idH: ``d = 10``, ``M = 4``, ``F_m = x'Hx/2 - c_m'x`` with one ``H = QQ'/d + 0.2 I`` and ``c_m ~ N(0, I)``;
* Q-het: as Q-idH with client Hessians ``H_m = Q_m Q_m'/d + 0.2 I``.

Step sizes follow Theorem C.13: ``eta := eta_s eta_c = 1/(4KL)`` and ``eta_c = eta/eta_s`` with
``eta_s in {1, 4}`` (full: ``{1, 4, 16}``), ``K in {1, 5}``; ``eta_s = 1`` also meets Theorem 4.7's ``eta_c <= 1/(4L)``.
A run has reached its limit when the server primal repeats, ``||x^(r,0) - x^(r-p,0)|| <= 64 eps max(1, ||x||,
||y||)`` (the rounding floor of the growing dual) for ``3p`` consecutive rounds with period ``p = 1`` (a limit) or
``p <= 4`` (a limit cycle; ``period = 0`` in a witness: neither within 5000 rounds, the last 8 iterates are used), and
the distance of a cycle to a point is its largest distance; ``x*`` comes from
:func:`fedtheory.reference.composite_optimum` and a limit "is ``x*``" when
``||x_lim - x*|| <= distance_bound + 1e-9 max(1, ||x*||)``. With sigma = 0 Theorem C.13 gives
``Phi(mean_{r <= R} x^(r,0)) - Phi* <= B^2/(eta K R) -> 0`` for every ``eta_c <= eta_c^max`` (a constant independent of
``R``), so a converging run's limit must be ``argmin F + psi`` (``F`` is strongly convex on every instance).

Closed forms (derived by us): FedMiD-OSP's limit minimises ``q_K + psi``
(:func:`fedtheory.algorithms.composite.fedmid_osp_fixed_point`). For FedDualAvg with ``psi = lam ||.||_1`` the server
primal on the support ``S`` of the limit is ``y - eta~ lam s`` (``s`` the signs) while off ``S`` it stays 0, so the
limit is FedAvg's fixed point (:func:`~fedtheory.algorithms.composite.fedavg_fixed_point`) for the restricted clients
``x_S'H_{m,SS}x_S/2 - (c_{m,S} - lam s)'x_S``, whatever ``eta_s``; it is ``x*`` when the clients share a Hessian or
``K = 1``. Both expand as ``x* + eta_c x' + O(eta_c^2)`` with the FedAvg drift coefficient
``x'_S = ((K - 1)/2) Hbar_SS^{-1} mean_m H_m g_m`` (``g_m`` the client gradient at ``x*``, shifted by ``lam s`` on ``S``
for FedDualAvg; FedMiD-OSP's local steps are unrestricted, FedDualAvg's stay on ``S``).

The printed objects: Algorithms 5-8, Theorems 4.3, 4.7 and C.13, FedMiD-OSP's rate remark (Section 4.5.1) and the
sentence that FedDualAvg-OSP "does not have any theoretical guarantees".
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context
from fedtheory.harness.family import Family, family
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, L2Ball

REGISTERS_CLAIMS = False  # shared instances, runs to the limit and closed forms; the claims are in the sibling modules


PAPER = "yuan-thesis"
LAM = 0.3
FLOOR = 64 * np.finfo(float).eps


# --------------------------------------------------------------------------------------------------
# instances, references, runs to the limit
# --------------------------------------------------------------------------------------------------
@family(f"{PAPER}/ch4-limit-quadratics")
def limit_quadratics(fam: Family) -> dict[str, FederatedQuadratic]:
    """Q-hom, Q-idH and Q-het of the module docstring (our own instances; one draw, the same in both profiles)."""
    rng = fam.rng()
    n, d = 200, 20
    A = rng.normal(size=(n, d))
    b = A @ np.r_[np.ones(5), np.zeros(d - 5)] + 0.5 * rng.normal(size=n)
    hom = FederatedQuadratic(A.T @ A / n, A.T @ b / n, b @ b / (2 * n))
    d, M = 10, 4
    c = rng.normal(size=(M, d))
    Q = rng.normal(size=(d, d))
    idh = FederatedQuadratic(np.broadcast_to(Q @ Q.T / d + 0.2 * np.eye(d), (M, d, d)), c)
    Qm = rng.normal(size=(M, d, d))
    het = FederatedQuadratic(Qm @ Qm.transpose(0, 2, 1) / d + 0.2 * np.eye(d), c)
    return {"Q-hom": hom, "Q-idH": idh, "Q-het": het}


def clients(ctx: Context | str, name: str) -> int:
    problem = limit_quadratics(ctx)[name]
    return 1 if problem.n_clients is None else problem.n_clients


def regularizer(ctx: Context | str, name: str, kind: str, scale: float = 1.0):
    """``scale * 0.3 ||.||_1`` or the ball of radius ``0.5 ||argmin F||``."""
    if kind == "l1":
        return L1(scale * LAM)
    return L2Ball(0.5 * float(np.linalg.norm(limit_quadratics(ctx)[name].x_star)))


@family(f"{PAPER}/ch4-limit-optimum")
def optimum(fam: Family, name: str, kind: str, scale: float = 1.0):
    """Certified ``argmin F + psi`` and its tolerance ``distance_bound + 1e-9 max(1, ||x*||)``."""
    ref = composite_optimum(limit_quadratics(fam.profile)[name], regularizer(fam.profile, name, kind, scale))
    return ref.x, ref.certificate["distance_bound"] + ROUNDING * max(1.0, float(np.linalg.norm(ref.x)))


def c13_params(algorithm: str, K: int, eta_s: float, M: int, L: float) -> fco.CompositeParams:
    """Theorem C.13's step sizes: ``eta_s eta_c = 1/(4KL)``."""
    return fco.CompositeParams(algorithm, 1.0 / (4 * K * L * eta_s), K, M, eta_s)


def run_to_limit(problem, mirror, params, *, max_rounds: int = 5000) -> tuple[np.ndarray, int, int]:
    """Deterministic rounds from ``x^(0,0) = 0`` until the server primal repeats with a period ``p <= 4``:
    ``||x^(r,0) - x^(r-p,0)|| <= 64 eps max(1, ||x||, ||y||)`` (the rounding floor of the growing dual) for ``3p``
    consecutive rounds, ``p`` the smallest such period.

    Returns
    -------
    points : ndarray (p, d)
        The limit (``p = 1``), the ``p`` points of the limit cycle, or, if neither appears within ``max_rounds``
        (``period = 0``: no limit found), the last 8 server primals.
    rounds, period : int
    """
    oracle = ExactGradient(problem)
    state = fco.init(np.zeros(problem.dim), mirror, params)
    history, streak = [state.x[0]], {p: 0 for p in range(1, 5)}
    for _ in range(max_rounds):
        state = fco.round(state, oracle, mirror, params, None)
        x = state.x[0]
        floor = FLOOR * max(1.0, float(np.linalg.norm(x)), 0.0 if state.y is None else float(np.linalg.norm(state.y)))
        for p in streak:
            close = len(history) >= p and np.linalg.norm(x - history[-p]) <= floor
            streak[p] = streak[p] + 1 if close else 0
        history = [*history, x][-8:]
        for p in streak:
            if streak[p] >= 3 * p:
                return np.array(history[-p:]), state.r, p
    return np.array(history), state.r, 0


@family(f"{PAPER}/ch4-limit-runs")
def limit(fam: Family, name: str, kind: str, algorithm: str, K: int, eta_s: float, M: int | None = None):
    """``(points, rounds, period)`` of :func:`run_to_limit` on a named instance with Theorem C.13's step sizes."""
    problem = limit_quadratics(fam.profile)[name]
    params = c13_params(algorithm, K, eta_s, M or clients(fam.profile, name), problem.L)
    return run_to_limit(problem, fco.Euclidean(regularizer(fam.profile, name, kind)), params)


def distance(points: np.ndarray, target: np.ndarray) -> float:
    """Largest distance from a limit (or the points of a limit cycle) to ``target``."""
    return float(np.max(np.linalg.norm(np.atleast_2d(points) - target, axis=-1)))


def limit_grid(ctx: Context) -> list[tuple[str, int, float]]:
    return [
        (n, K, s) for n in ("Q-hom", "Q-idH", "Q-het") for K in (1, 5) for s in ((1, 4) if ctx.quick else (1, 4, 16))
    ]


# --------------------------------------------------------------------------------------------------
# closed forms for psi = lam ||.||_1 on quadratics (module docstring)
# --------------------------------------------------------------------------------------------------
def _support(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    S = np.flatnonzero(x)
    return S, np.sign(x[S])


def feddualavg_l1_limit(problem: FederatedQuadratic, lam: float, eta_c: float, K: int, x_star):
    """FedDualAvg's limit: FedAvg's fixed point for the clients restricted to ``S = supp x*`` with linear terms
    ``c_{m,S} - lam s``, zero off ``S``; ``None`` outside the regime where that is self-consistent.

    The regime: along the limiting round every client iterate keeps the signs ``s`` on ``S`` (no coordinate is
    thresholded) and, off ``S``, ``|sum_k mean_m grad_i F_m(x_m^(k))| < K lam`` (the dual grows slower than the
    threshold ``eta~ lam``).
    """
    S, s = _support(x_star)
    A = problem.A[:, S][:, :, S]
    z = fco.fedavg_fixed_point(FederatedQuadratic(A, problem.b[:, S] - lam * s), eta_c, K)
    x = np.zeros((problem.A.shape[0], problem.dim))
    x[:, S] = z
    accumulated = np.zeros(problem.dim)
    for _ in range(K):
        if np.any(np.sign(x[:, S]) != s):
            return None
        g = problem.client_grad(x)
        accumulated += g.mean(axis=0)
        x[:, S] -= eta_c * (g[:, S] + lam * s)
    off = np.setdiff1d(np.arange(problem.dim), S)
    if np.any(np.abs(accumulated[off]) >= K * lam):
        return None
    out = np.zeros(problem.dim)
    out[S] = z
    return out


def _drift_coefficient(problem: FederatedQuadratic, K: int, x_star, shift: float, restricted: bool) -> np.ndarray:
    """``x'_S = ((K - 1)/2) Hbar_SS^{-1} mean_m H_m g_m``, ``g_m = grad F_m(x*)`` (``+ shift s`` on ``S``)."""
    S, s = _support(x_star)
    g = problem.client_grad(np.broadcast_to(x_star, (problem.A.shape[0], problem.dim)))
    if restricted:
        v = np.einsum("mij,mj->i", problem.A[:, S][:, :, S], g[:, S] + shift * s) / problem.A.shape[0]
    else:
        v = (np.einsum("mij,mj->i", problem.A, g) / problem.A.shape[0])[S]
    out = np.zeros(problem.dim)
    out[S] = (K - 1) / 2 * np.linalg.solve(problem.A_mean[np.ix_(S, S)], v)
    return out


def expansion(ctx: Context, name: str, K: int, which: str) -> tuple[tuple[float, float, dict], dict]:
    """``||(x(eta_c) - x*)/eta_c - x'|| <= 0.01 ||x'||`` at ``eta_c = eta/4^6`` (closed form): ``(measured, bound,
    parameters)`` of that point, and the sweep."""
    problem = limit_quadratics(ctx)[name]
    x_star, _ = optimum(ctx, name, "l1")
    eta = 1 / (4 * K * problem.L)
    restricted = which == "FedDualAvg"
    slope = _drift_coefficient(problem, K, x_star, LAM if restricted else 0.0, restricted)
    sweep = {}
    for j in range(7):
        eta_c = eta / 4**j
        if restricted:
            x = feddualavg_l1_limit(problem, LAM, eta_c, K, x_star)
        else:
            x = fco.fedmid_osp_fixed_point(problem, fco.Euclidean(L1(LAM)), eta_c, K).x
        if x is not None:
            sweep[eta_c] = x
    eta_c = min(sweep)
    deviation = float(np.linalg.norm((sweep[eta_c] - x_star) / eta_c - slope))
    where = {"instance": name, "K": K, "eta_s": eta / eta_c, "check": "first-order coefficient of the distance"}
    point = (deviation, 0.01 * float(np.linalg.norm(slope)), where)
    info = {
        f"{name}, K={K}": {
            "||x'|| (predicted d/d eta_c of ||x_lim - x*||)": float(np.linalg.norm(slope)),
            "||x_lim - x*|| / eta_c at eta_c = eta/4^j (j where the closed form is valid)": {
                f"j={round(np.log(eta / e) / np.log(4))}": float(np.linalg.norm(x - x_star) / e)
                for e, x in sorted(sweep.items(), reverse=True)
            },
        }
    }
    return point, info
