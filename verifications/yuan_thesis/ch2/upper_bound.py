"""The FedAvg upper-bound analysis of section 2.1 and the stability lemmas of section 2.4.3, evaluated exactly.

On quadratics with Gaussian gradient noise every quantity in Lemmas 2.3, 2.4, 2.20, 2.21 and Proposition 2.1
is a function of the exact joint mean and covariance of the clients (``fedavg_client_moments``): expected
objective values, consensus distances and their (Gaussian) fourth moments. Instances: a homogeneous
quadratic and quadratics with a common Hessian and shifted client optima (the only quadratics with finite
zeta, Assumption 2.3), L = 1, sigma = 1.

Printed objects: Lemmas 2.3 and 2.4 (section 2.1.2, proofs in appendix A.1), Proposition 2.1 and its proof (section
2.1.2), Lemmas 2.20 and 2.21 with their proofs (section 2.4.3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import fedavg
from fedtheory.exact import moments
from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING, SHORT_ROUNDING
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import FederatedQuadratic, LogCoshQuadratic, random_rotation, spd_matrix

PAPER = "yuan-thesis"
D = 3


@dataclass(frozen=True)
class _Run:
    problem: FederatedQuadratic
    eta: float
    K: int
    M: int
    R: int
    sigma: float  # sqrt(E||xi||^2): Assumption 2.1(c) with equality
    sigma4: float  # (E||xi||^4)^(1/4): Assumption 2.5(b) with equality
    x0: np.ndarray
    cm: moments.ClientMoments


def _problem(kind: str, M: int) -> FederatedQuadratic:
    rng = np.random.default_rng(seed_for(f"{PAPER}/upper-bound-instances:{kind}"))
    A = spd_matrix(random_rotation(rng, D), [1.0, 0.4, 0.1])  # L = 1, mu = 0.1
    if kind == "homogeneous":
        return FederatedQuadratic(A, np.zeros(D))
    shifts = rng.normal(size=(M, D))
    return FederatedQuadratic(A, shifts - shifts.mean(axis=0))  # x* = 0, zeta = max ||b_m - b_mean||


@family(f"{PAPER}/upper-bound-client-moments")
def _runs(fam: Family, eta_max_L: float) -> tuple[_Run, ...]:
    """Exact client moments of FedAvg (R = 6 rounds from x0 = (2, 2, 2)) on the homogeneous and heterogeneous
    quadratics, Gaussian noise with covariance diag(0.5, 0.3, 0.2), eta L in eta_max_L * {1, 1/4, 1/32}."""
    runs = []
    cov = np.diag([0.5, 0.3, 0.2])  # tr = 1 = sigma^2
    sigma4 = float(np.trace(cov) ** 2 + 2 * np.trace(cov @ cov)) ** 0.25
    for kind in ("homogeneous", "heterogeneous"):
        for M in (2, 5) if fam.quick else (2, 5, 16):
            problem = _problem(kind, M)
            oracle = AdditiveGaussian(problem, cov=cov)
            for frac in (1.0, 0.25, 1 / 32):
                eta = frac * eta_max_L / problem.L
                for K in (1, 2, 5, 20) if fam.quick else (1, 2, 5, 10, 20, 40):
                    R = 6
                    x0 = np.full(D, 2.0)
                    cm = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(eta, K, M), x0, R)
                    runs.append(_Run(problem, eta, K, M, R, 1.0, sigma4, x0, cm))
    return tuple(runs)


def _parameters(run: _Run) -> dict:
    """The grid parameters of a run."""
    kind = "homogeneous" if run.problem.n_clients is None else "heterogeneous"
    return {"instance": kind, "M": run.M, "K": run.K, "eta_L": run.eta * run.problem.L}


def _zeta(run: _Run) -> float:
    return 0.0 if run.problem.n_clients is None else run.problem.zeta


# --------------------------------------------------------------------------------------------------
# The witness searches: quadratics with a common Hessian, written in its eigenbasis, every moment in closed form
# --------------------------------------------------------------------------------------------------


def _direction(polar: float, azimuth: float) -> np.ndarray:
    """The unit vector (sin polar cos azimuth, sin polar sin azimuth, cos polar)."""
    return np.array([np.sin(polar) * np.cos(azimuth), np.sin(polar) * np.sin(azimuth), np.cos(polar)])


def geometric_sums(q: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(q^n, sum_{j<n} q^j, sum_{j<n} (n - j) q^j)`` elementwise for ``0 <= q < 1``, by binary composition of segments
    (a segment of length n1 followed by one of length n2 gives P1 P2, A1 + P1 A2, C1 + n2 A1 + P1 C2): every term is
    positive, so nothing cancels when q is within rounding of 1 and no loop runs over the n steps."""
    P, A, C = np.ones_like(q), np.zeros_like(q), np.zeros_like(q)
    bP, bA, bC, size = q.copy(), np.ones_like(q), np.ones_like(q), 1
    while n:
        if n & 1:
            P, A, C = P * bP, A + P * bA, C + size * A + P * bC
        n >>= 1
        if n:
            bP, bA, bC, size = bP * bP, bA + bP * bA, bC + size * bA + bP * bC, 2 * size
    return P, A, C


@dataclass(frozen=True)
class _Eigen:
    """FedAvg on F_m(x) = x'Ax/2 - b_m'x with A = diag(lam) (L = max lam), seen in A's eigenbasis: every client has
    Gaussian gradient noise N(0, diag(noise)) (sigma^2 = sum noise), b_1 = bbar + delta, b_2 = bbar - delta and the
    other clients bbar (zeta = ||delta||, M >= 2), x^(0,0) = x* + e0.

    With a common Hessian the shadow xbar is SGD with noise covariance diag(noise)/M, whatever the clients do, and a
    client's deviation x_m - xbar restarts from 0 every round with mean eta sum_{j<k} T^j (b_m - bbar) and covariance
    eta^2 (1 - 1/M) sum_{j<k} T^j C T^j, T = I - eta A (diagonal here): every moment of Lemmas 2.3, 2.4, 2.20, 2.21
    and Proposition 2.1 is a geometric sum (agreement with ``fedavg_client_moments`` to 1e-14 was checked when this
    was written, and the claims record it on their first grid run)."""

    lam: np.ndarray
    noise: np.ndarray
    delta: np.ndarray
    e0: np.ndarray
    eta: float
    M: int

    def deviation(self, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean (len(k), d) and variances (len(k), d) of client 1's x_m - xbar at local steps ``k``."""
        k = np.asarray(k, dtype=float)[:, None]
        el = self.eta * self.lam
        g1 = -np.expm1(k * np.log1p(-el)) / el  # sum_{j<k} t^j
        g2 = -np.expm1(2 * k * np.log1p(-el)) / (el * (2 - el))  # sum_{j<k} t^(2j)
        return self.eta * self.delta * g1, self.eta**2 * (1 - 1 / self.M) * self.noise * g2

    def pair_variance(self, k: np.ndarray) -> np.ndarray:
        """Variances (len(k), d) of x_1 - x_2 (noise part: independent clients, 2 C per step)."""
        return 2 * self.M / (self.M - 1) * self.deviation(k)[1]

    def shadow(self, N: int) -> tuple[float, float]:
        """``sum_{n=1}^N E F(xbar^n) - F*`` and ``E||xbar^N - x*||^2``, n the global local-step count rK + k."""
        el = self.eta * self.lam
        q = (1 - el) ** 2
        P, A, C = geometric_sums(q, N)
        s = self.eta**2 * self.noise / self.M
        return 0.5 * float(np.sum(self.lam * (self.e0**2 * q * A + s * C))), float(np.sum(self.e0**2 * P + s * A))


def _eigen_run(kappa, start_eig, noise_eig, delta_eig, B, zeta, eta, M, sigma=1.0) -> _Eigen:
    """Hessian diag(1, 1/kappa, kappa^-start_eig, kappa^-noise_eig, kappa^-delta_eig) (L = 1, mu = 1/kappa), the start
    at distance B, the noise (trace sigma^2) and the shift delta (norm zeta) each along one of the last three."""
    lam = np.array([1.0, 1.0 / kappa, kappa**-start_eig, kappa**-noise_eig, kappa**-delta_eig])
    unit = np.eye(5)
    return _Eigen(lam, sigma**2 * unit[3], zeta * unit[4], B * unit[2], eta, M)


SECOND_MOMENT_AXES = {
    "kappa": Axis(1.0, 1e4),
    "eta_frac": Axis(1e-4, 1.0),
    "M": Axis(2, 1024, integer=True),
    "K": Axis(1, 1024, integer=True),
    "R": Axis(1, 1024, integer=True),
    "zeta": Axis(1e-5, 1e5),
    "B": Axis(1e-5, 1e5),
    "start_eig": Axis(0.0, 1.0, log=False),
    "noise_eig": Axis(0.0, 1.0, log=False),
    "delta_eig": Axis(0.0, 1.0, log=False),
}

SECOND_MOMENT_NOTE = (
    "Assumptions 2.1 and 2.3 on quadratics: finite zeta forces a common Hessian, and then every quantity is a sum over "
    "its eigen-directions, linear in the squared components of the start, of the noise variance and of each client's "
    "shift b_m - bbar, so the worst split of each lies along one eigen-direction (a linear function on a simplex is "
    "largest at a vertex). L = 1 and sigma = 1 by scaling (x -> cx scales B, sigma, zeta together: B and zeta stand "
    "for B/sigma and zeta/sigma, 1e-5 to 1e5); kappa = L/mu from 1 to 1e4; the start, the noise and the shift along "
    "eigen-directions with eigenvalues kappa^-start_eig, kappa^-noise_eig, kappa^-delta_eig (every eigenvalue in "
    "[mu, L]); clients 1 and 2 at bbar +- delta, the others at bbar (a client's deviation depends only on its own "
    "shift, so this attains every shift a client can have); M from 2, K and R from 1 to 1024; eta as a fraction "
    "eta_frac of the printed maximum. Left out: objectives that are not quadratic (no exact engine) and non-Gaussian "
    "noise (these second moments depend only on the covariance)."
)


def _second_moment_domain(names: tuple[str, ...], what: str) -> Domain:
    """The axes ``names`` of :data:`SECOND_MOMENT_AXES`, with ``what`` (the statement's own hypotheses) before the
    shared note."""
    return Domain({name: SECOND_MOMENT_AXES[name] for name in names}, note=f"{what} {SECOND_MOMENT_NOTE}")


def _engine_agreement() -> float:
    """The largest difference between :class:`_Eigen`'s closed forms and the exact engine (``fedavg_client_moments``)
    on one instance: client 1's deviation moments at every step and the shadow's summed gap and final distance. A
    guard: the searches read the closed forms, the grids the engine."""
    run = _eigen_run(10.0, 0.3, 0.6, 0.8, 1.5, 0.7, 0.1, 3)
    b = np.tile(run.lam * 2.0, (3, 1))  # bbar = A x* with x* = (2, ..., 2)
    b[0], b[1] = b[0] + run.delta, b[1] - run.delta
    problem = FederatedQuadratic(np.diag(run.lam), b)
    oracle = AdditiveGaussian(problem, cov=np.diag(run.noise))
    K, R = 4, 3
    cm = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(run.eta, K, 3), problem.x_star + run.e0, R)
    mean, cov = cm.deviation()
    closed_mean, closed_var = run.deviation(np.arange(K + 1))
    f, dist = _shadow_terms(_Run(problem, run.eta, K, 3, R, 1.0, 0.0, problem.x_star + run.e0, cm))
    gap_sum, dist_end = run.shadow(K * R)
    return float(
        max(
            np.abs(mean[:, :, 0] - closed_mean).max(),
            np.abs(np.diagonal(cov[:, :, 0], axis1=-2, axis2=-1) - closed_var).max(),
            abs(f[:, 1:].sum() - gap_sum),
            abs(dist[-1, -1] - dist_end),
        )
    )


def _agreement_witness() -> dict:
    gap = _engine_agreement()
    if gap > 1e-10:
        raise AssertionError(f"the search's closed forms differ from the exact engine by {gap}")
    return {"search's closed forms vs the exact engine (one instance)": gap}


@claim(
    f"{PAPER}/lem-2.4",
    source="Lemma 2.4",
    statement="For eta <= 1/(4L), r < R and k < K: E||x_m^(r,k) - xbar^(r,k)||^2 <= 4K eta^2 sigma^2 + "
    "18 K^2 eta^2 zeta^2 (exact on quadratics with a common Hessian; a grid and a witness search over the lemma's "
    "whole domain).",
    scope="printed",
    expect="holds",
)
def lem24(ctx: Context) -> Evidence:
    """FedAvg on the homogeneous and the shifted-optima quadratics (L = 1, sigma = 1), eta L in {1/4, 1/16, 1/128},
    and the witness search over :data:`SECOND_MOMENT_AXES` (eta up to 1/(4L), K up to 1024). Reference: the exact
    joint client moments (grid) and their closed forms in the Hessian's eigenbasis (search), maximised over r < R,
    k < K and m."""
    points = Points()
    for run in _runs(ctx, 0.25):
        mean, cov = run.cm.deviation()
        second, _ = moments.gaussian_norm_moments(mean[:, :-1], cov[:, :-1])  # k < K
        points.add(
            float(second.max()),
            4 * run.K * run.eta**2 * run.sigma**2 + 18 * run.K**2 * run.eta**2 * _zeta(run) ** 2,
            **_parameters(run),
        )

    def at(kappa, eta_frac, M, K, zeta, noise_eig, delta_eig):
        eta = eta_frac / 4
        mean, var = _eigen_run(kappa, 0.0, noise_eig, delta_eig, 0.0, zeta, eta, M).deviation(np.arange(K))
        second = np.sum(mean**2, axis=1) + np.sum(var, axis=1)
        return float(second.max()), 4 * K * eta**2 + 18 * K**2 * eta**2 * zeta**2, {"eta_L": eta}

    names = ("kappa", "eta_frac", "M", "K", "zeta", "noise_eig", "delta_eig")
    points.search(
        at,
        _second_moment_domain(
            names,
            "Lemma 2.4: eta = eta_frac/(4L); the deviation restarts every round, so R and the start do not enter.",
        ),
        "<=",
        ctx,
        scale=8,
    )
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "measured": "max over r < R, k < K, m of E||x_m - xbar||^2 (exact)",
            "hypotheses": "quadratics with a common Hessian with eigenvalues in [mu, L] = [1/kappa, 1] (Assumption "
            "2.1(a), (b)), Gaussian noise with E||xi||^2 = sigma^2 (2.1(c) with equality), zeta = max_m ||b_m - "
            "bbar|| = sup_x ||grad F_m - grad F|| (2.3 with equality), eta L <= 1/4",
            **_agreement_witness(),
        },
    )


def _recursion_excess_quadratic(A: np.ndarray, db: np.ndarray, eta: float, K: int) -> float:
    """sup over Delta of ||(I - eta A) Delta + eta db||^2 - (1 + 1/K)||Delta||^2, in closed form.

    For clients with a common Hessian A and linear terms b_1, b_2, one local step maps the difference of two
    clients to Delta' = (I - eta A) Delta + eta (b_1 - b_2) - eta (xi_1 - xi_2). The objective is a concave
    quadratic in Delta (||I - eta A|| <= 1 < sqrt(1 + 1/K)); with P = I - eta A its maximum is
    eta^2 db' P (c I - P^2)^-1 P db + eta^2 ||db||^2, c = 1 + 1/K.
    """
    P = np.eye(A.shape[0]) - eta * A
    c = 1 + 1 / K
    Pd = P @ db
    return float(eta**2 * Pd @ np.linalg.solve(c * np.eye(A.shape[0]) - P @ P, Pd) + eta**2 * db @ db)


@claim(
    f"{PAPER}/lem-2.4:proof-recursion",
    source="proof of Lemma 2.4, appendix A.1.2, display after (A.5)",
    statement="For eta <= 1/(4L) and any two client states: E[||x_1' - x_2'||^2 | x_1, x_2] <= (1 + 1/K)||x_1 - "
    "x_2||^2 + 10K eta^2 zeta^2 + 2 eta^2 sigma^2 (one local step; worst pair of states in closed form on quadratics, "
    "a grid of states on a non-quadratic instance, and a witness search over the quadratics).",
    scope="printed",
    expect="holds",
)
def lem24_recursion(ctx: Context) -> Evidence:
    """Worst case over the two states: in closed form on the shifted quadratics, on a grid of (x_1, x_2) for the
    shifted log-cosh instance (A.15) (not quadratic; gradients F'(x) - b_m with zeta = max_m |b_m - b_mean|), and the
    witness search over quadratics (the shift difference along one eigen-direction of curvature lam)."""
    points = Points()
    sigma = 1.0  # E||xi_1 - xi_2||^2 = 2 sigma^2 exactly for independent noises with E||xi||^2 = sigma^2
    for M in (2, 5):
        p = _problem("heterogeneous", M)
        for frac in (1.0, 0.25, 1 / 32):
            eta = frac * 0.25 / p.L
            for K in (1, 2, 5, 20, 100):
                pairs = [(i, j) for i in range(M) for j in range(M) if i != j]
                excess = max(_recursion_excess_quadratic(p.A_mean, p.b[i] - p.b[j], eta, K) for i, j in pairs)
                points.add(
                    excess + 2 * eta**2 * sigma**2,
                    10 * K * eta**2 * p.zeta**2 + 2 * eta**2 * sigma**2,
                    instance="shifted quadratic",
                    M=M,
                    K=K,
                    eta_L=eta * p.L,
                )
    logcosh = LogCoshQuadratic(1.0, 0.5)
    shifts = np.array([0.7, -0.7])  # zeta = 0.7
    n = 301 if ctx.quick else 1201
    x1, x2 = np.meshgrid(np.linspace(-6, 6, n), np.linspace(-6, 6, n), indexing="ij")
    g = logcosh.grad
    for frac in (1.0, 0.25, 1 / 32):
        eta = frac * 0.25 / logcosh.L
        for K in (1, 2, 5, 20, 100):
            step = (x1 - x2) - eta * (g(x1[..., None])[..., 0] - shifts[0] - g(x2[..., None])[..., 0] + shifts[1])
            excess = step**2 - (1 + 1 / K) * (x1 - x2) ** 2
            points.add(
                float(excess.max()) + 2 * eta**2 * sigma**2,
                10 * K * eta**2 * 0.7**2 + 2 * eta**2 * sigma**2,
                instance="shifted (A.15), Q = L/2",
                M=2,
                K=K,
                eta_L=eta,
            )

    def at(lam, eta_frac, K):  # b_1 - b_2 = 2 zeta e (the largest a pair can differ), zeta = 1, sigma = 0
        eta = eta_frac / 4
        return _recursion_excess_quadratic(np.array([[lam]]), np.array([2.0]), eta, K), 10 * K * eta**2, {"eta_L": eta}

    domain = Domain(
        {"lam": Axis(1e-6, 1.0), "eta_frac": Axis(1e-4, 1.0), "K": Axis(1, 4096, integer=True)},
        note="The step of Lemma 2.4's proof for eta = eta_frac/(4L) on quadratics (finite zeta forces a common "
        "Hessian): the excess is a sum over eigen-directions, linear in the squared components of b_1 - b_2, so the "
        "worst difference lies along one eigen-direction, of curvature lam in (0, L], L = 1; its norm is 2 zeta (two "
        "clients at bbar +- zeta e), zeta = 1 by scaling; sigma = 0, the worst case (the noise adds 2 eta^2 sigma^2 to "
        "both sides). Left out: non-quadratic clients (the log-cosh grid above stands in for them).",
    )
    points.search(at, domain, "<=", ctx, scale=8)
    return points.evidence(
        "<=",
        rtol=SHORT_ROUNDING,
        witness={
            "measured": "sup over the two states of E||Delta'||^2 - (1 + 1/K)||Delta||^2, plus 2 eta^2 sigma^2",
            "quadratic": "closed form (concave quadratic in Delta)",
            "log-cosh": f"{n} x {n} grid of states on [-6, 6]^2",
        },
    )


def _shadow_terms(run: _Run):
    """Exact E F(xbar^(r,k)) - F* (R, K+1) and E||xbar^(r,k) - x*||^2 (R, K+1)."""
    mean, cov = run.cm.shadow()
    p = run.problem
    f = p.value(mean) - p.f_star + 0.5 * np.einsum("ij,rkji->rk", p.A_mean, cov)
    dist = np.sum((mean - p.x_star) ** 2, axis=-1) + np.trace(cov, axis1=-2, axis2=-1)
    return f, dist


def _eigen_sides(run: _Eigen, K: int, R: int) -> tuple[float, float, float]:
    """``(1/KR) sum_{n=1}^{KR} E F(xbar^n) - F*``, ``E||xbar^(R-1,K) - x*||^2`` and ``(1/K) sum_{k<K} (1/M) sum_m
    E||x_m^(r,k) - xbar^(r,k)||^2`` (the same in every round) of :class:`_Eigen`."""
    gap_sum, dist_end = run.shadow(K * R)
    mean, var = run.deviation(np.arange(K))
    spread = (2 / run.M) * np.sum(mean**2, axis=1) + np.sum(var, axis=1)  # clients 1, 2 shifted, the rest at bbar
    return gap_sum / (K * R), dist_end, float(spread.mean())


@claim(
    f"{PAPER}/lem-2.3",
    source="Lemma 2.3 (last LHS term read at r = R - 1)",
    statement="For eta <= 1/(4L): E[(1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F*] + (1/(2 eta KR)) "
    "E||xbar^(R-1,K) - x*||^2 <= (1/(2 eta KR))||x^(0,0) - x*||^2 + eta sigma^2/M + "
    "(L/(MKR)) sum_r sum_{k<K} sum_m E||x_m^(r,k) - xbar^(r,k)||^2 (exact on quadratics with a common Hessian; a "
    "grid and a witness search over the lemma's whole domain).",
    scope="printed",
    expect="holds",
)
def lem23(ctx: Context) -> Evidence:
    """The runs of lem-2.4 (eta L in {1/4, 1/16, 1/128}) and the witness search over :data:`SECOND_MOMENT_AXES`.
    Reference: both sides from the exact means and covariances of the shadow iterates and of the clients'
    deviations (grid: the exact engine; search: their closed forms in the Hessian's eigenbasis)."""
    points = Points()
    for run in _runs(ctx, 0.25):
        f, dist = _shadow_terms(run)
        KR = run.K * run.R
        mean, cov = run.cm.deviation()
        second, _ = moments.gaussian_norm_moments(mean[:, :-1], cov[:, :-1])
        points.add(
            f[:, 1:].sum() / KR + dist[-1, -1] / (2 * run.eta * KR),
            np.sum((run.x0 - run.problem.x_star) ** 2) / (2 * run.eta * KR)
            + run.eta * run.sigma**2 / run.M
            + run.problem.L / (run.M * KR) * second.sum(),
            **_parameters(run),
        )

    def at(kappa, eta_frac, M, K, R, zeta, B, start_eig, noise_eig, delta_eig):
        eta = eta_frac / 4
        gap, dist_end, spread = _eigen_sides(_eigen_run(kappa, start_eig, noise_eig, delta_eig, B, zeta, eta, M), K, R)
        lhs = gap + dist_end / (2 * eta * K * R)
        return lhs, B**2 / (2 * eta * K * R) + eta / M + spread, {"eta_L": eta}

    points.search(
        at, _second_moment_domain(tuple(SECOND_MOMENT_AXES), "Lemma 2.3: eta = eta_frac/(4L)."), "<=", ctx, scale=8
    )
    return points.evidence(  # rounding of the exact moment recursion over K R steps
        "<=", rtol=1e-12, witness={"hypotheses": HYPOTHESES_21, **_agreement_witness()}
    )


HYPOTHESES_21 = (
    "quadratics with a common Hessian with eigenvalues in [mu, L] = [1/kappa, 1] (Assumption 2.1(a), (b)), Gaussian "
    "noise with E||xi||^2 = sigma^2 (2.1(c) with equality), zeta = max_m ||b_m - bbar|| (2.3 with equality), "
    "B = ||x^(0,0) - x*||, eta L <= 1/4"
)


@claim(
    f"{PAPER}/prop-2.1:telescoped",
    source="proof of Proposition 2.1, the bound after 'Telescoping r from 0 to R - 1'",
    statement="For eta <= 1/(4L): E[(1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F*] <= B^2/(2 eta KR) + eta sigma^2/M "
    "+ 4K eta^2 L sigma^2 + 18K^2 eta^2 L zeta^2 (exact on quadratics with a common Hessian; a grid and a witness "
    "search over the whole domain).",
    scope="printed",
    expect="holds",
)
def prop21_telescoped(ctx: Context) -> Evidence:
    """The runs of lem-2.4 (eta L in {1/4, 1/16, 1/128}) and the witness search over :data:`SECOND_MOMENT_AXES`.
    Reference: the exact expected objective of the shadow iterates (grid: exact Gaussian moments; search: their
    closed forms) against the telescoped bound."""
    points = Points()
    for run in _runs(ctx, 0.25):
        f, _ = _shadow_terms(run)
        L, KR, B2 = run.problem.L, run.K * run.R, float(np.sum((run.x0 - run.problem.x_star) ** 2))
        points.add(
            f[:, 1:].sum() / KR,
            B2 / (2 * run.eta * KR)
            + run.eta * run.sigma**2 / run.M
            + 4 * run.K * run.eta**2 * L * run.sigma**2
            + 18 * run.K**2 * run.eta**2 * L * _zeta(run) ** 2,
            **_parameters(run),
        )

    def at(kappa, eta_frac, M, K, R, zeta, B, start_eig, noise_eig):
        eta = eta_frac / 4
        gap, _, _ = _eigen_sides(_eigen_run(kappa, start_eig, noise_eig, 0.0, B, zeta, eta, M), K, R)
        bound = B**2 / (2 * eta * K * R) + eta / M + 4 * K * eta**2 + 18 * K**2 * eta**2 * zeta**2
        return gap, bound, {"eta_L": eta}

    names = ("kappa", "eta_frac", "M", "K", "R", "zeta", "B", "start_eig", "noise_eig")
    points.search(
        at,
        _second_moment_domain(
            names,
            "The telescoped bound of Proposition 2.1's proof: eta = "
            "eta_frac/(4L); the shifts do not move the shadow (common Hessian), only zeta in the bound.",
        ),
        "<=",
        ctx,
        scale=8,
    )
    return points.evidence("<=", rtol=1e-12, witness={"hypotheses": HYPOTHESES_21})  # rounding over K R steps


#: Lemmas 2.20 and 2.21 (the setting of Theorem 2.19: homogeneous, eta <= 1/(2L)): the fourth moments depend on how
#: the noise splits over the eigen-directions, so the noise is spread over two of them.
FOURTH_MOMENT_DOMAIN = Domain(
    {
        "kappa": Axis(1.0, 1e4),
        "eta_frac": Axis(1e-4, 1.0),
        "M": Axis(2, 1024, integer=True),
        "K": Axis(1, 1024, integer=True),
        "noise_eig": Axis(0.0, 1.0, log=False),
        "noise_eig2": Axis(0.0, 1.0, log=False),
        "split": Axis(0.0, 1.0, log=False),
    },
    note="Lemmas 2.20 and 2.21 in the setting of Theorem 2.19: homogeneous quadratics (Q = 0), Hessian eigenvalues in "
    "[mu, L] = [1/kappa, 1] (L = 1 by scaling, kappa from 1 to 1e4), eta = eta_frac/(2L); Gaussian noise of trace "
    "sigma^2 = 1 (by scaling) split as (split, 1 - split) between eigen-directions with eigenvalues kappa^-noise_eig "
    "and kappa^-noise_eig2, sigma^4 = E||xi||^4 (Assumption 2.5(b) with equality); M from 2, K from 1 to 1024. The "
    "deviations restart every round, so R and the start do not enter. Left out: noise spread over three or more "
    "eigen-directions or not diagonal in the eigenbasis, non-Gaussian noise (no exact fourth moments), "
    "non-quadratic objectives.",
)


def _fourth_moment_run(kappa, eta_frac, M, noise_eig, noise_eig2, split) -> tuple[_Eigen, float]:
    """The homogeneous instance of :data:`FOURTH_MOMENT_DOMAIN` and its sigma^4 = E||xi||^4."""
    lam = np.array([1.0, 1.0 / kappa, kappa**-noise_eig, kappa**-noise_eig2])
    noise = np.array([0.0, 0.0, split, 1 - split])
    zero = np.zeros(4)
    return _Eigen(lam, noise, zero, zero, eta_frac / 2, M), float(np.sum(noise) ** 2 + 2 * np.sum(noise**2))


@claim(
    f"{PAPER}/lem-2.20",
    source="Lemma 2.20 (setting of Theorem 2.19: eta <= 1/(2L))",
    statement="Homogeneous: for r < R and k < K, E (1/M) sum_m ||xbar^(r,k) - x_m^(r,k)||^4 <= 192 eta^4 K^2 sigma^4 "
    "with sigma^4 the fourth-moment bound of Assumption 2.5(b) (exact on quadratics with Gaussian noise; a grid and "
    "a witness search).",
    scope="printed",
    expect="holds",
)
def lem220(ctx: Context) -> Evidence:
    """The homogeneous quadratic, Gaussian noise, eta L in {1/2, 1/8, 1/64}, sigma^4 = (E||xi||^4) exactly, and the
    witness search over :data:`FOURTH_MOMENT_DOMAIN`. Reference: the exact fourth moments of the clients'
    deviations (exact Gaussian moments; closed forms in the search), maximised over r and k < K."""
    runs = [r for r in _runs(ctx, 0.5) if r.problem.n_clients is None]
    points = Points()
    for run in runs:
        mean, cov = run.cm.deviation()
        _, fourth = moments.gaussian_norm_moments(mean[:, :-1], cov[:, :-1])  # k < K
        points.add(float(fourth.mean(axis=-1).max()), 192 * run.eta**4 * run.K**2 * run.sigma4**4, **_parameters(run))

    def at(kappa, eta_frac, M, K, noise_eig, noise_eig2, split):
        run, sigma4 = _fourth_moment_run(kappa, eta_frac, M, noise_eig, noise_eig2, split)
        var = run.deviation(np.arange(K))[1]
        fourth = np.sum(var, axis=1) ** 2 + 2 * np.sum(var**2, axis=1)  # Gaussian, mean 0, diagonal covariance
        return float(fourth.max()), 192 * run.eta**4 * K**2 * sigma4, {"eta_L": run.eta}

    points.search(at, FOURTH_MOMENT_DOMAIN, "<=", ctx, scale=8)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={"sigma^4 (grid)": runs[0].sigma4 ** 4, "noise (grid)": "Gaussian, cov diag(0.5, 0.3, 0.2)"},
    )


@claim(
    f"{PAPER}/lem-2.21",
    source="Lemma 2.21 (setting of Lemma 2.20)",
    statement="For any pair m1, m2 and k < K: sqrt(E||Delta^(r,k+1)||^4) <= sqrt(E||Delta^(r,k)||^4) + "
    "sqrt(192) eta^2 sigma^2, Delta = x_m1 - x_m2 (exact on quadratics with Gaussian noise; a grid and a witness "
    "search).",
    scope="printed",
    expect="holds",
)
def lem221(ctx: Context) -> Evidence:
    """The runs of lem-2.20 (homogeneous, eta L in {1/2, 1/8, 1/64}) and the witness search over
    :data:`FOURTH_MOMENT_DOMAIN`. Reference: the exact fourth moment of the difference of two clients (exact Gaussian
    moments; closed forms in the search); measured, its largest one-step increment of the root."""
    runs = [r for r in _runs(ctx, 0.5) if r.problem.n_clients is None]
    points = Points()
    for run in runs:
        mean, cov = run.cm.pair_difference()
        _, fourth = moments.gaussian_norm_moments(mean, cov)
        root = np.sqrt(fourth)  # (R, K+1)
        increments = root[:, 1:] - root[:, :-1]
        points.add(float(increments.max()), np.sqrt(192) * run.eta**2 * run.sigma4**2, **_parameters(run))

    def at(kappa, eta_frac, M, K, noise_eig, noise_eig2, split):
        run, sigma4 = _fourth_moment_run(kappa, eta_frac, M, noise_eig, noise_eig2, split)
        var = run.pair_variance(np.arange(K + 1))
        root = np.sqrt(np.sum(var, axis=1) ** 2 + 2 * np.sum(var**2, axis=1))
        return float(np.max(np.diff(root))), np.sqrt(192) * run.eta**2 * np.sqrt(sigma4), {"eta_L": run.eta}

    points.search(at, FOURTH_MOMENT_DOMAIN, "<=", ctx, scale=8)
    return points.evidence("<=", rtol=ROUNDING)


@claim(
    f"{PAPER}/prop-2.1",
    source="Proposition 2.1, eq. (2.2)",
    statement="With the step size of its proof, FedAvg attains E[(1/KR) sum sum F(xbar^(r,k))] - F* <= "
    "C((1) + (2) + (3) + (4)); checked on quadratics with C = 18.5 (term-by-term constant of the proof), on a grid "
    "and by a witness search over the whole domain.",
    scope="printed",
    expect="holds",
)
def prop21(ctx: Context) -> Evidence:
    """The homogeneous and the shifted-optima quadratics (L = 1, sigma = 1, Gaussian noise), M in {2, 8}, K in
    {1, 4, 16}, R in {2, 8, 32}, at the proof's step size, and the witness search over :data:`SECOND_MOMENT_AXES`.
    Reference: the exact expected objective of the shadow iterates (exact Gaussian moments; closed forms in the
    search) over the sum of the four rate terms, against C = 18.5."""
    cov = np.diag([0.5, 0.3, 0.2])
    points = Points()
    for kind in ("homogeneous", "heterogeneous"):
        for M in (2, 8):
            problem = _problem(kind, M)
            oracle = AdditiveGaussian(problem, cov=cov)
            zeta = 0.0 if kind == "homogeneous" else problem.zeta
            for K in (1, 4, 16):
                for R in (2, 8, 32):
                    x0 = np.full(D, 2.0)
                    B = float(np.linalg.norm(x0 - problem.x_star))
                    eta = _prop21_step(B, zeta, M, K, R)
                    cm = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(eta, K, M), x0, R)
                    f, _ = _shadow_terms(_Run(problem, eta, K, M, R, 1.0, 0.0, x0, cm))
                    ratio = f[:, 1:].sum() / (K * R) / _prop21_rate(B, zeta, M, K, R)
                    points.add(ratio, 18.5, instance=kind, M=M, K=K, R=R)

    def at(kappa, M, K, R, zeta, B, start_eig, noise_eig):
        eta = _prop21_step(B, zeta, M, K, R)
        gap, _, _ = _eigen_sides(_eigen_run(kappa, start_eig, noise_eig, 0.0, B, zeta, eta, M), K, R)
        return gap / _prop21_rate(B, zeta, M, K, R), 18.5, {"eta_L": eta}

    names = ("kappa", "M", "K", "R", "zeta", "B", "start_eig", "noise_eig")
    points.search(
        at,
        _second_moment_domain(
            names, "Proposition 2.1 at its proof's step size (zeta > 0: the homogeneous case is the limit zeta -> 0)."
        ),
        "<=",
        ctx,
        scale=8,
    )
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "measured": "exact E[average F(xbar)] - F* over (1)+(2)+(3)+(4)",
            "constant": "B^2/(2 eta KR) <= max{2(1), (2)/2, (3)/2, (4)/2}, eta sigma^2/M <= (2), 4K eta^2 L sigma^2 <= "
            "4(3), 18K^2 eta^2 L zeta^2 <= 18(4): at most 18.5 x the sum",
            "hypotheses": HYPOTHESES_21.replace("eta L <= 1/4", "eta the proof's step size (<= 1/(4L))"),
        },
    )


def _prop21_step(B, zeta, M, K, R, L=1.0, s=1.0) -> float:
    """The step size of Proposition 2.1's proof (the zeta-branch only when zeta > 0)."""
    steps = [
        1 / (4 * L),
        np.sqrt(M) * B / (np.sqrt(K * R) * s),
        B ** (2 / 3) / (K ** (2 / 3) * R ** (1 / 3) * L ** (1 / 3) * s ** (2 / 3)),
    ]
    if zeta > 0:
        steps.append(B ** (2 / 3) / (K * R ** (1 / 3) * L ** (1 / 3) * zeta ** (2 / 3)))
    return float(min(steps))


def _prop21_rate(B, zeta, M, K, R, L=1.0, s=1.0) -> float:
    """(1) + (2) + (3) + (4) of (2.2)."""
    return (
        L * B**2 / (K * R)
        + s * B / np.sqrt(M * K * R)
        + L ** (1 / 3) * s ** (2 / 3) * B ** (4 / 3) / (K ** (1 / 3) * R ** (2 / 3))
        + L ** (1 / 3) * zeta ** (2 / 3) * B ** (4 / 3) / R ** (2 / 3)
    )


@claim(
    f"{PAPER}/lem-2.21:condition",
    source="proof of Lemma 2.21, after (2.37) ('Since eta L <= 1/4')",
    statement="In the lemma's setting (that of Theorem 2.19, eta <= 1/(2L)), 1 - 2 eta L - 6 eta^3 L^3 > 0.",
    scope="printed",
    expect="fails",
)
def lem221_condition(ctx: Context) -> Evidence:
    """The factor 1 - 2u - 6u^3 in closed form at u = eta L on a uniform grid of (0, 1/2] (50,000 points)."""
    u = np.linspace(0, 0.5, 50_001)[1:]
    factor = 1 - 2 * u - 6 * u**3
    root = float(u[np.argmax(factor <= 0)])
    return Evidence(
        measured=factor,
        bound=0.0,
        relation=">",
        grid={"eta_L": u},
        witness={
            "sign change at eta L": root,
            "hypotheses": "Lemma 2.21 is stated in the setting of Lemma 2.20, that of Theorem 2.19, whose step size "
            "is min{1/(2L), ...}: eta L up to 1/2 is allowed; the proof's 'since eta L <= 1/4' is not implied",
            "holds for": "eta L <= 1/4 (the proof's assumption)",
            "note": "lem-2.20 and lem-2.21 themselves hold on eta L <= 1/2 in the exact checks",
        },
    )


@claim(
    f"{PAPER}/lem-2.21:eq-2.37",
    source="proof of Lemma 2.21, eq. (2.37)",
    statement="E[||Delta'||^4 | F] <= ||Delta||^4 - 4 eta (1 - 2 eta L - 6 eta^3 L^3) ||Delta||^2 <Delta, Delta_grad> "
    "+ 16 eta^2 sigma^2 ||Delta||^2 + 192 eta^4 sigma^4, for eta L <= 1/2 (checked exactly on quadratics with "
    "Gaussian noise, sigma^4 the fourth-moment bound; random instances and a witness search).",
    scope="printed",
    expect="holds",
)
def lem221_eq237(ctx: Context) -> Evidence:
    """Random 3-d quadratics with L = 1, Gaussian client noise with random diagonal covariance, eta L uniform on
    (0, 1/2), random Delta over four orders of magnitude, then the witness search over the step, the spectrum, the
    noise split and Delta. Reference: the exact Gaussian fourth moment of Delta' (closed form) against the printed
    right-hand side."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-2.21:eq-2.37"))
    n = 4000 if ctx.quick else 40_000
    d = 3
    points = Points()
    for _ in range(n):
        A = spd_matrix(random_rotation(rng, d), np.concatenate([[1.0], rng.uniform(0, 1, d - 1)]))  # L = 1
        C = np.diag(rng.uniform(0.05, 1.0, d))
        u = float(rng.uniform(0, 0.5))
        delta = rng.normal(size=d) * 10 ** rng.uniform(-2, 1)
        points.add(*_eq237_sides(A, C, delta, u), eta_L=u)

    def at(eta_L, kappa, mid, noise_polar, noise_azimuth, size, polar, azimuth):
        A = np.diag([1.0, kappa**-mid, 1.0 / kappa])
        C = np.diag(_direction(noise_polar, noise_azimuth) ** 2)  # trace 1 = sigma^2 by scaling
        return _eq237_sides(A, C, size * _direction(polar, azimuth), eta_L)

    domain = Domain(
        {
            "eta_L": Axis(1e-4, 0.5),
            "kappa": Axis(1.0, 1e4),
            "mid": Axis(0.0, 1.0, log=False),
            "noise_polar": Axis(0.0, np.pi / 2, log=False),
            "noise_azimuth": Axis(0.0, np.pi / 2, log=False),
            "size": Axis(1e-4, 1e4),
            "polar": Axis(0.0, np.pi / 2, log=False),
            "azimuth": Axis(0.0, np.pi / 2, log=False),
        },
        note="(2.37) for one step of two clients of a quadratic (convex, L-smooth: Hessian eigenvalues (1, "
        "kappa^-mid, 1/kappa), L = 1 by scaling) with independent Gaussian noise, eta L in (0, 1/2]; the noise "
        "covariance diagonal in the Hessian's eigenbasis with trace 1 (x -> cx scales Delta and sigma together; its "
        "split by two angles), Delta of size 1e-4 to 1e4 in any direction of the first octant (the sign of a "
        "component does not change any term). Left out: d > 3, noise covariances not diagonal in the eigenbasis, "
        "non-Gaussian noise (no exact fourth moment).",
    )
    points.search(at, domain, "<=", ctx, scale=8)
    return points.evidence(
        "<=",
        rtol=SHORT_ROUNDING,
        witness={"instances": n, "eta L": "uniform on (0, 1/2)"},
    )


def _eq237_sides(A: np.ndarray, C: np.ndarray, delta: np.ndarray, u: float) -> tuple[float, float]:
    """E||Delta'||^4 and the right-hand side of (2.37) for Delta' = Delta - eta (A Delta + eps_1 - eps_2), eps_m ~
    N(0, C) independent, eta L = u (L = 1); sigma^4 = E||eps||^4 and sigma^2 its square root."""
    s4 = float(np.trace(C) ** 2 + 2 * np.trace(C @ C))  # E||eps||^4 of one client's noise
    grad_gap = A @ delta
    _, fourth = moments.gaussian_norm_moments(delta - u * grad_gap, 2 * u**2 * C)
    n2 = float(delta @ delta)
    rhs = n2**2 - 4 * u * (1 - 2 * u - 6 * u**3) * n2 * float(delta @ grad_gap) + 16 * u**2 * np.sqrt(s4) * n2
    return float(fourth), rhs + 192 * u**4 * s4
