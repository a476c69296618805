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
from fedtheory.harness.tolerances import SHORT_ROUNDING
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


@claim(
    f"{PAPER}/lem-2.4",
    source="Lemma 2.4",
    statement="For eta <= 1/(4L), r < R and k < K: E||x_m^(r,k) - xbar^(r,k)||^2 <= 4K eta^2 sigma^2 + "
    "18 K^2 eta^2 zeta^2.",
    scope="printed",
    expect="holds",
)
def lem24(ctx: Context) -> Evidence:
    """FedAvg on the homogeneous and the shifted-optima quadratics (L = 1, sigma = 1), eta L in {1/4, 1/16, 1/128}.
    Reference: the exact joint client moments (Gaussian noise), maximised over r < R, k < K and m."""
    points = Points()
    for run in _runs(ctx, 0.25):
        mean, cov = run.cm.deviation()
        second, _ = moments.gaussian_norm_moments(mean[:, :-1], cov[:, :-1])  # k < K
        points.add(
            float(second.max()),
            4 * run.K * run.eta**2 * run.sigma**2 + 18 * run.K**2 * run.eta**2 * _zeta(run) ** 2,
            **_parameters(run),
        )
    return points.evidence("<=", witness={"measured": "max over r < R, k < K, m of E||x_m - xbar||^2 (exact)"})


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
    "x_2||^2 + 10K eta^2 zeta^2 + 2 eta^2 sigma^2 (one local step).",
    scope="printed",
    expect="holds",
)
def lem24_recursion(ctx: Context) -> Evidence:
    """Worst case over the two states: in closed form on the shifted quadratics, on a grid of (x_1, x_2) for the
    shifted log-cosh instance (A.15) (not quadratic; gradients F'(x) - b_m with zeta = max_m |b_m - b_mean|)."""
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


@claim(
    f"{PAPER}/lem-2.3",
    source="Lemma 2.3 (last LHS term read at r = R - 1)",
    statement="For eta <= 1/(4L): E[(1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F*] + (1/(2 eta KR)) "
    "E||xbar^(R-1,K) - x*||^2 <= (1/(2 eta KR))||x^(0,0) - x*||^2 + eta sigma^2/M + "
    "(L/(MKR)) sum_r sum_{k<K} sum_m E||x_m^(r,k) - xbar^(r,k)||^2.",
    scope="printed",
    expect="holds",
)
def lem23(ctx: Context) -> Evidence:
    """The runs of lem-2.4 (eta L in {1/4, 1/16, 1/128}). Reference: both sides from the exact means and
    covariances of the shadow iterates and of the clients' deviations (Gaussian noise)."""
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
    return points.evidence("<=", rtol=1e-12)  # rounding of the exact moment recursion over K R steps


@claim(
    f"{PAPER}/prop-2.1:telescoped",
    source="proof of Proposition 2.1, the bound after 'Telescoping r from 0 to R - 1'",
    statement="For eta <= 1/(4L): E[(1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F*] <= B^2/(2 eta KR) + eta sigma^2/M "
    "+ 4K eta^2 L sigma^2 + 18K^2 eta^2 L zeta^2.",
    scope="printed",
    expect="holds",
)
def prop21_telescoped(ctx: Context) -> Evidence:
    """The runs of lem-2.4 (eta L in {1/4, 1/16, 1/128}). Reference: the exact expected objective of the shadow
    iterates (exact Gaussian moments) against the telescoped bound."""
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
    return points.evidence("<=", rtol=1e-12)  # rounding of the exact moment recursion over K R steps


@claim(
    f"{PAPER}/lem-2.20",
    source="Lemma 2.20 (setting of Theorem 2.19: eta <= 1/(2L))",
    statement="Homogeneous: E (1/M) sum_m ||xbar^(r,k) - x_m^(r,k)||^4 <= 192 eta^4 K^2 sigma^4 with sigma^4 the "
    "fourth-moment bound of Assumption 2.5(b).",
    scope="printed",
    expect="holds",
)
def lem220(ctx: Context) -> Evidence:
    """The homogeneous quadratic, Gaussian noise, eta L in {1/2, 1/8, 1/64}, sigma^4 = (E||xi||^4) exactly.
    Reference: the exact fourth moments of the clients' deviations (exact Gaussian moments), maximised over r, k."""
    runs = [r for r in _runs(ctx, 0.5) if r.problem.n_clients is None]
    points = Points()
    for run in runs:
        mean, cov = run.cm.deviation()
        _, fourth = moments.gaussian_norm_moments(mean, cov)
        points.add(float(fourth.mean(axis=-1).max()), 192 * run.eta**4 * run.K**2 * run.sigma4**4, **_parameters(run))
    return points.evidence(
        "<=",
        witness={"sigma^4": runs[0].sigma4 ** 4, "noise": "Gaussian, cov diag(0.5, 0.3, 0.2)"},
    )


@claim(
    f"{PAPER}/lem-2.21",
    source="Lemma 2.21 (setting of Lemma 2.20)",
    statement="For any pair m1, m2 and k < K: sqrt(E||Delta^(r,k+1)||^4) <= sqrt(E||Delta^(r,k)||^4) + "
    "sqrt(192) eta^2 sigma^2, Delta = x_m1 - x_m2.",
    scope="printed",
    expect="holds",
)
def lem221(ctx: Context) -> Evidence:
    """The runs of lem-2.20 (homogeneous, eta L in {1/2, 1/8, 1/64}). Reference: the exact fourth moment of the
    difference of two clients (exact Gaussian moments); measured, its largest one-step increment of the root."""
    runs = [r for r in _runs(ctx, 0.5) if r.problem.n_clients is None]
    points = Points()
    for run in runs:
        mean, cov = run.cm.pair_difference()
        _, fourth = moments.gaussian_norm_moments(mean, cov)
        root = np.sqrt(fourth)  # (R, K+1)
        increments = root[:, 1:] - root[:, :-1]
        points.add(float(increments.max()), np.sqrt(192) * run.eta**2 * run.sigma4**2, **_parameters(run))
    return points.evidence("<=")


@claim(
    f"{PAPER}/lem-2.20:proof-jensen",
    source="proof of Lemma 2.20",
    statement="(1/M) sum_m E||xbar - x_m||^4 <= E||x_m1 - x_m2||^4 (the Jensen step).",
    scope="printed",
    expect="holds",
)
def lem220_jensen(ctx: Context) -> Evidence:
    """The runs of lem-2.20 (homogeneous, eta L in {1/2, 1/8, 1/64}), every r and k. Reference: both fourth
    moments from the exact Gaussian moments of the deviations and of the pair differences."""
    runs = [r for r in _runs(ctx, 0.5) if r.problem.n_clients is None]
    measured, bound = [], []
    for run in runs:
        _, dev4 = moments.gaussian_norm_moments(*run.cm.deviation())
        _, pair4 = moments.gaussian_norm_moments(*run.cm.pair_difference())
        measured.append(dev4.mean(axis=-1).ravel())
        bound.append(pair4.ravel())
    bound = np.concatenate(bound)
    # At k = 0 both sides are 0 (every client equals the average); rounding there is ~1e-35. rtol 1e-12: rounding of
    # the exact moment recursion; atol 1e-12 times the largest fourth moment: those k = 0 entries.
    return Evidence(
        measured=np.concatenate(measured),
        bound=bound,
        relation="<=",
        rtol=1e-12,
        atol=1e-12 * float(bound.max()),
        witness={"tolerance": "1e-12 relative: float rounding"},
    )


@claim(
    f"{PAPER}/prop-2.1",
    source="Proposition 2.1, eq. (2.2)",
    statement="With the step size of its proof, FedAvg attains E[(1/KR) sum sum F(xbar^(r,k))] - F* <= "
    "C((1) + (2) + (3) + (4)); checked on quadratics with C = 18.5 (term-by-term constant of the proof).",
    scope="printed",
    expect="holds",
)
def prop21(ctx: Context) -> Evidence:
    """The homogeneous and the shifted-optima quadratics (L = 1, sigma = 1, Gaussian noise), M in {2, 8}, K in
    {1, 4, 16}, R in {2, 8, 32}, at the proof's step size. Reference: the exact expected objective of the shadow
    iterates (exact Gaussian moments) over the sum of the four rate terms, against C = 18.5."""
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
                    B, L, s = float(np.linalg.norm(x0 - problem.x_star)), problem.L, 1.0
                    steps = [
                        1 / (4 * L),
                        np.sqrt(M) * B / (np.sqrt(K * R) * s),
                        B ** (2 / 3) / (K ** (2 / 3) * R ** (1 / 3) * L ** (1 / 3) * s ** (2 / 3)),
                    ]
                    if zeta > 0:
                        steps.append(B ** (2 / 3) / (K * R ** (1 / 3) * L ** (1 / 3) * zeta ** (2 / 3)))
                    eta = min(steps)
                    cm = moments.fedavg_client_moments(oracle, fedavg.FedAvgParams(eta, K, M), x0, R)
                    f, _ = _shadow_terms(_Run(problem, eta, K, M, R, s, 0.0, x0, cm))
                    rate = (
                        L * B**2 / (K * R)
                        + s * B / np.sqrt(M * K * R)
                        + L ** (1 / 3) * s ** (2 / 3) * B ** (4 / 3) / (K ** (1 / 3) * R ** (2 / 3))
                        + L ** (1 / 3) * zeta ** (2 / 3) * B ** (4 / 3) / R ** (2 / 3)
                    )
                    points.add(f[:, 1:].sum() / (K * R) / rate, instance=kind, M=M, K=K, R=R)
    return points.evidence(
        "<=",
        bound=18.5,
        witness={
            "measured": "exact E[average F(xbar)] - F* over (1)+(2)+(3)+(4)",
            "max ratio": float(np.max(points.measured)),
        },
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
            "holds for": "eta L <= 1/4 (the proof's assumption)",
            "note": "lem-2.20 and lem-2.21 themselves hold on eta L <= 1/2 in the exact checks",
        },
    )


@claim(
    f"{PAPER}/lem-2.21:eq-2.37",
    source="proof of Lemma 2.21, eq. (2.37)",
    statement="E[||Delta'||^4 | F] <= ||Delta||^4 - 4 eta (1 - 2 eta L - 6 eta^3 L^3) ||Delta||^2 <Delta, Delta_grad> "
    "+ 16 eta^2 sigma^2 ||Delta||^2 + 192 eta^4 sigma^4, for eta L <= 1/2 (checked exactly on quadratics with "
    "Gaussian noise, sigma^4 the fourth-moment bound).",
    scope="printed",
    expect="holds",
)
def lem221_eq237(ctx: Context) -> Evidence:
    """Random 3-d quadratics with L = 1, Gaussian client noise with random diagonal covariance, eta L uniform on
    (0, 1/2), random Delta over four orders of magnitude. Reference: the exact Gaussian fourth moment of Delta'
    (closed form) against the printed right-hand side."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/lem-2.21:eq-2.37"))
    n = 4000 if ctx.quick else 40_000
    d = 3
    points = Points()
    for _ in range(n):
        A = spd_matrix(random_rotation(rng, d), np.concatenate([[1.0], rng.uniform(0, 1, d - 1)]))  # L = 1
        C = np.diag(rng.uniform(0.05, 1.0, d))
        s4 = float(np.trace(C) ** 2 + 2 * np.trace(C @ C))  # E||eps||^4 of one client's noise
        s2 = np.sqrt(s4)
        u = float(rng.uniform(0, 0.5))
        delta = rng.normal(size=d) * 10 ** rng.uniform(-2, 1)
        grad_gap = A @ delta
        # Delta' = Delta - eta (Delta_grad + Delta_eps), Delta_eps = eps_1 - eps_2 ~ N(0, 2C)
        _, fourth = moments.gaussian_norm_moments(delta - u * grad_gap, 2 * u**2 * C)
        n2 = float(delta @ delta)
        points.add(
            float(fourth),
            n2**2
            - 4 * u * (1 - 2 * u - 6 * u**3) * n2 * float(delta @ grad_gap)
            + 16 * u**2 * s2 * n2
            + 192 * u**4 * s4,
            eta_L=u,
        )
    return points.evidence(
        "<=",
        rtol=SHORT_ROUNDING,
        witness={"instances": n, "eta L": "uniform on (0, 1/2)"},
    )
