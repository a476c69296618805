"""Instances and runs shared by the rate claims of FedDualAvg and FedMiD (thesis chapter 4 and appendix C; no claims):
the heterogeneous FCO instances with certified constants, the seeded runs and the Monte Carlo entries.

Instances (``d = 4``, ``x^{(0,0)} = 0``, heterogeneous clients, Assumption 4.1 with certified constants):

* ``logistic-l1``: client ``m`` holds ``n = 3`` linearly independent Gaussian rows with random labels,
  ``F_m`` its logistic loss, ``psi = 0.03 ||x||_1``, Euclidean ``h``. ``L = max_m lambda_max(A_m'A_m)/(4n)``
  (attained at 0); the gradients of ``F_m`` fill the zonotope ``{-(1/n) sum_i t_i y_i a_i : t in (0,1)^n}``
  (independent rows), so ``G`` of Assumption C.1 is the exact supremum over its vertices and the noise support.
* ``quadratic-ball``: ``F_m(x) = x'H_m x/2 - b_m'x``, ``H_m = Q_m Q_m'/d + 0.2 I`` (the recipe of Q-het),
  ``psi`` the indicator of the l2 ball of radius ``0.5 ||argmin F||`` (active); ``L = max_m lambda_max(H_m)``;
  ``G = max_{m, xi} max_{||x|| <= rho} ||H_m x - b_m + xi||``, a trust-region problem solved exactly.
* ``logistic-l1-pnorm`` (Remark 4.5's "arbitrary norm"): the data of ``logistic-l1`` in the l1 / linf geometry,
  ``h = d^(2/q) ||x||_p^2/(2(p-1))``, ``p = 1 + 1/ln d`` (1-strongly convex w.r.t. l1),
  ``L = max_m max_j (1/(4n)) sum_i a_mij^2`` (l1-smoothness, attained at 0), ``G`` and ``sigma`` in linf.

Noise: ``grad f(x; xi) = grad F_m(x) + xi`` with Rademacher ``xi`` (each coordinate ``+-s/sqrt(d)``), so
``sigma = s`` (``s/sqrt(d)`` in linf) exactly and the gradients stay bounded; ``s = 0`` gives exact gradients, the
process is then deterministic and one path is its expectation (exact). ``x*`` and ``Phi*`` come from
:func:`fedtheory.reference.composite_optimum` (certificate in every witness), ``B^2 = D_h(x*, x^{(0,0)})``.
Expectations at ``s = 0.5`` are Monte Carlo means over replicas (vectorised), with fixed seeds (derived from the
computation, so claims that share a run share its numbers) and simultaneous 99% intervals.

The claims are in ``thm_c_13_4_3_small_client_lr`` (Theorems C.13 and 4.3), ``lem_c_14_descent``, ``lem_c_15_one_round``
(Lemmas C.14 and C.15 of Theorem C.13's proof), ``thm_c_11_4_4_bounded_gradients`` (Theorems C.11 and 4.4, Remark
4.5's generality) and ``lem_c_12_stability`` (Lemma C.12).

Printed objects: Assumptions 4.1 and C.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
from scipy.optimize import brentq

from fedtheory.algorithms import composite as fco
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import ExactGradient, Rademacher
from fedtheory.problems import FederatedQuadratic, LogisticRegression
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, L2Ball

REGISTERS_CLAIMS = False  # shared instances and runs; the claims are in the sibling modules


PAPER = "yuan-thesis"
D, N_ROWS = 4, 3  # dimension; rows per client of the logistic instances (N_ROWS <= D: independent rows)
LAM = 0.03  # psi = LAM ||x||_1 on the logistic instances
BALL = 0.5  # radius of the l2 ball = BALL * ||argmin F||_2 (the constraint is active)
NOISE = 0.5  # s: Rademacher gradient noise, every coordinate +-s/sqrt(d), ||xi||_2 = s exactly
KINDS = ("logistic-l1", "quadratic-ball", "logistic-l1-pnorm")


# --- instances ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Instance:
    """A heterogeneous FCO instance with certified constants of Assumptions 4.1 and C.1.

    ``norm`` is the norm of Assumption 4.1 (``"l2"`` or ``"l1"``); its dual is ``"l2"`` or ``"linf"``.
    """

    kind: str
    problem: object
    mirror: fco.MirrorMap
    norm: str
    s: float
    L: float
    sigma: float
    G: float
    x_star: np.ndarray
    phi_star: float
    x0: np.ndarray
    B2: float
    witness: dict

    @property
    def B(self) -> float:
        return float(np.sqrt(self.B2))

    @property
    def M(self) -> int:
        return int(self.problem.n_clients)

    @property
    def oracle(self):
        return Rademacher(self.problem, self.s) if self.s > 0 else ExactGradient(self.problem)

    def phi(self, x) -> np.ndarray:
        """``Phi = F + psi`` over the last axis."""
        return self.problem.value(x) + self.mirror.psi_value(x)

    def primal_norm(self, v) -> np.ndarray:
        return np.sum(np.abs(v), axis=-1) if self.norm == "l1" else np.linalg.norm(v, axis=-1)

    def dual_norm(self, v) -> np.ndarray:
        return np.max(np.abs(v), axis=-1) if self.norm == "l1" else np.linalg.norm(v, axis=-1)


def _signs(d: int) -> np.ndarray:
    """All ``2^d`` sign vectors, shape (2^d, d)."""
    return np.array(list(product((-1.0, 1.0), repeat=d)))


@family(f"{PAPER}/ch4-rates-instance:logistic")
def _logistic_data(fam: Family, M: int) -> LogisticRegression:
    """``M`` clients with ``N_ROWS`` Gaussian rows each (linearly independent) and random labels."""
    rng = fam.rng()
    A = rng.standard_normal((M, N_ROWS, D))
    y = rng.choice([-1.0, 1.0], size=(M, N_ROWS))
    if np.any(np.linalg.matrix_rank(A) < N_ROWS):
        raise RuntimeError("client rows must be linearly independent (the gradient bound G is then a supremum)")
    return LogisticRegression(A, y)


def _logistic_vertices(problem: LogisticRegression) -> np.ndarray:
    """Vertices ``-(1/n) sum_i t_i y_i a_i``, ``t in {0,1}^n``, of each client's gradient zonotope: (M, 2^n, d).

    ``grad F_m(x) = -(1/n) sum_i sigmoid(-y_i a_i'x) y_i a_i``; with linearly independent rows every
    ``t in (0, 1)^n`` is attained, so the closure of the gradient range is this zonotope."""
    t = (_signs(N_ROWS) + 1) / 2
    ya = problem.labels[..., None] * problem.features  # (M, n, d)
    return -np.einsum("vn,mnd->mvd", t, ya) / N_ROWS


def _ball_sup(H: np.ndarray, c: np.ndarray, radius: float) -> float:
    """``max_{||x||_2 <= radius} ||H x - c||_2`` for symmetric PSD ``H`` (a trust-region problem, solved exactly).

    With ``H = V diag(lam) V'`` and ``g = V'c`` the maximiser is ``z_i = -lam_i g_i/(nu - lam_i^2)`` with the unique
    ``nu > max lam^2`` giving ``||z|| = radius`` (second-order condition of a global maximum; the hard case
    ``lam_max g_max = 0`` does not occur for Gaussian data and is rejected)."""
    lam, V = np.linalg.eigh(H)
    g = V.T @ c
    top = lam[-1] ** 2
    w = (lam * g) ** 2
    if w[-1] <= 1e-24 * max(1.0, float(np.sum(w))):
        raise RuntimeError("trust-region hard case: the gradient bound needs the degenerate branch")

    def excess(t):  # ||z(nu)||^2 - radius^2 at nu = top + t
        return float(np.sum(w / (top + t - lam**2) ** 2)) - radius**2

    hi = float(np.sqrt(np.sum(w))) / radius
    lo = hi
    while excess(lo) < 0:
        lo /= 2
    t = brentq(excess, lo, hi, xtol=1e-15 * hi, rtol=4 * np.finfo(float).eps, maxiter=500)
    z = -lam * g / (top + t - lam**2)
    return float(np.linalg.norm(lam * z - g))


@family(f"{PAPER}/ch4-rates-instance:quadratic")
def quadratic_data(fam: Family, M: int) -> FederatedQuadratic:
    """The recipe of Q-het in ``d = 4``: ``H_m = Q_m Q_m'/d + 0.2 I``, ``c_m ~ N(0, I)``."""
    rng = fam.rng()
    Q = rng.standard_normal((M, D, D))
    return FederatedQuadratic(Q @ Q.transpose(0, 2, 1) / D + 0.2 * np.eye(D), rng.standard_normal((M, D)))


@family(f"{PAPER}/ch4-rates-certified-instance")
def instance(fam: Family, kind: str, M: int, s: float) -> Instance:
    """The instance ``kind`` with ``M`` clients and noise level ``s`` (0: exact gradients); ``x0 = 0``."""
    x0 = np.zeros(D)
    noises = s / np.sqrt(D) * _signs(D)  # the support of the Rademacher noise
    if kind == "quadratic-ball":
        problem = quadratic_data(fam.profile, M)
        psi = L2Ball(BALL * float(np.linalg.norm(problem.x_star)))
        mirror, norm = fco.Euclidean(psi), "l2"
        L = problem.L
        G = max(_ball_sup(H, b - xi, psi.radius) for H, b in zip(problem.A, problem.b) for xi in noises)
        sigma, psi_text = s, f"chi of the l2 ball of radius {psi.radius:.6g} = {BALL} ||argmin F||_2"
    else:
        problem = _logistic_data(fam.profile, M)
        psi = L1(LAM)
        v = _logistic_vertices(problem)
        if kind == "logistic-l1":
            mirror, norm = fco.Euclidean(psi), "l2"
            L = problem.L
            # max_xi ||v + xi||^2 = ||v||^2 + 2 (s/sqrt d) ||v||_1 + s^2 (xi_j = sign(v_j) s/sqrt(d))
            G = float(np.sqrt(np.max(np.sum(v**2, -1) + 2 * s / np.sqrt(D) * np.sum(np.abs(v), -1) + s**2)))
            sigma = s
        else:
            p = 1 + 1 / np.log(D)
            q = p / (p - 1)
            mirror, norm = fco.PNorm(p, psi, scale=D ** (2 / q)), "l1"
            L = float(np.max(np.sum(problem.features**2, axis=1)) / (4 * N_ROWS))  # max_j Hessian_jj at x = 0
            G = float(np.max(np.abs(v)) + s / np.sqrt(D))
            sigma = s / np.sqrt(D)
        psi_text = f"{LAM} ||x||_1"
    ref = composite_optimum(problem, psi)
    B2 = float(mirror.bregman(ref.x, x0))
    witness = {
        "F": (
            f"logistic, {M} clients x {N_ROWS} independent Gaussian rows in d = {D}, random labels"
            if kind != "quadratic-ball"
            else f"quadratic Q-het, M = {M}, d = {D}: H_m = Q_m Q_m'/d + 0.2 I, b_m ~ N(0, I)"
        ),
        "psi": psi_text,
        "h": "||x||_2^2/2" if norm == "l2" else f"d^(2/q) ||x||_p^2/(2(p-1)), p = 1 + 1/ln d = {mirror.p:.6g}",
        "norm / dual norm": "l2 / l2" if norm == "l2" else "l1 / linf",
        "noise": f"Rademacher, each coordinate +-{s}/sqrt(d): ||xi||_2 = {s}" if s else "none (exact gradients)",
        "L (certified, attained at x = 0)" if kind != "quadratic-ball" else "L = max_m lambda_max(H_m)": L,
        "sigma (exact)": sigma,
        "G (certified supremum)": G,
        "B^2 = D_h(x*, 0)": B2,
        "Phi*": ref.value,
        "x*": ref.x.tolist(),
        "x* certificate": {"kkt_residual": ref.certificate["kkt_residual"], "solver": ref.solver},
    }
    return Instance(kind, problem, mirror, norm, s, L, sigma, G, ref.x, ref.value, x0, B2, witness)


def instances(ctx: Context, kinds) -> dict:
    """Witnesses (constants, certificates) of the instances ``kinds`` with M in {2, 8} and both noise levels."""
    return {
        f"{k}, M = {M}, s = {s}": instance(ctx, k, M, s).witness for k in kinds for M in (2, 8) for s in (0.0, NOISE)
    }


# --- runs --------------------------------------------------------------------------------------------------------
def run_rng(key: str) -> np.random.Generator:
    """A generator seeded from the computation (not the claim): claims that share a run share its numbers."""
    return np.random.default_rng(seed_for(f"{PAPER}/ch4-rates-run:{key}"))


@family(f"{PAPER}/ch4-rates-run:server")
def server_stats(
    fam: Family, kind: str, M: int, K: int, s: float, algorithm: str, eta_c: float, eta_s: float, R: int, S: int
):
    """Server states of ``S`` replicas and, for every ``r = 1..R``, the gaps of ``xhat_r = (1/r) sum_{rho=1}^r
    x^{(rho,0)}`` (Theorem C.13's output), of the running mean of ``Phi(x^{(rho,0)})`` (the left side of the
    telescoped sum) and of the last iterate.

    Returns ``(x, y, average, telescope, last)``: ``x``, ``y`` of shape (R + 1, S, d) (``r = 0..R``; ``y`` is ``None``
    for FedMiD), the gaps of shape (R, S)."""
    inst = instance(fam.profile, kind, M, s)
    params = fco.CompositeParams(algorithm, eta_c, K, M, eta_s=eta_s)
    traj = fco.run(inst.oracle, inst.mirror, inst.x0, params, R, fam.rng(), S=S)
    xs = traj.x[1:]
    n = np.arange(1, R + 1)[:, None]
    last = inst.phi(xs) - inst.phi_star
    average = inst.phi(np.cumsum(xs, axis=0) / n[..., None]) - inst.phi_star
    return traj.x, traj.y, average, np.cumsum(last, axis=0) / n, last


def mc_evidence(
    samples: Points, witness: dict, *, relation: str = "<=", rtol: float = ROUNDING, atol: float = 0.0
) -> Evidence:
    """Evidence of ``samples``, whose points hold sample arrays as measured values (one value: exact; several: Monte
    Carlo replicas): exact entries as they are, Monte Carlo entries as means with simultaneous 99% intervals
    (Bonferroni over every Monte Carlo entry of the claim); the record of any witness search of ``samples`` is kept."""
    arrays = [np.atleast_1d(np.asarray(s, dtype=float)) for s in samples.measured]
    family_size = max(1, sum(s.size > 1 for s in arrays))
    rows = []  # (mean, lo, hi)
    for s in arrays:
        if s.size == 1:
            rows.append((float(s[0]),) * 3)
        else:
            est = mc_mean(s, family_size=family_size)
            rows.append((float(est.mean), float(est.lo), float(est.hi)))
    measured, lo, hi = (list(v) for v in zip(*rows))
    points = Points(measured, [float(b) for b in samples.bound], lo, hi, samples.grid, samples.searches)
    return points.evidence(relation, rtol=rtol, atol=atol, witness=witness)


# --- Theorem C.13 / 4.3: small client learning rate (also Lemma C.15) ------------------------------------------------


C13_KINDS = ("logistic-l1", "quadratic-ball")


def c13_grid(quick: bool) -> dict:
    """(M, K), round counts, the decreasing client learning rates eta_c L and the Monte Carlo replicas."""
    return {
        "MK": ((2, 2), (8, 5)) if quick else ((2, 2), (2, 10), (8, 5), (8, 10)),
        "rounds": (10, 30, 100, 300) if quick else (10, 30, 100, 300, 1000),
        "mc rounds": (10, 100) if quick else (10, 100, 1000),
        "eta_c L": (1e-2, 1e-3, 1e-4) if quick else (1e-2, 3e-3, 1e-3, 3e-4, 1e-4),
        "S": 100 if quick else 400,
    }
