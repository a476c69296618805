"""General convex FedAc (appendix B.3): FedAc-I/II run on the l2-augmented F~_lambda = F + (lambda/2)||x - x0||^2
(B.44), checked exactly on a singular quadratic (mu = 0) with the moments engine.

Instance: d = 3, Hessian eigenvalues (1, 0.1, 0) in a random basis (L = 1, F convex but not strongly convex),
b in the range, x^(0,0) = x* + v with v orthogonal to the null space and ||v|| = B = 1 (so x* is the optimum
nearest to the start); Gaussian noise of covariance diag(0.5, 0.3, 0.2) sigma^2. F~_lambda is again a quadratic,
(A + lambda I, b + lambda x0), with mu = lambda and smoothness L + lambda; the reported quantity is E F(xbar_ag)
- F* of the original F.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``; Theorem B.21 at line 4060, Theorem B.22 at 4074, Lemma B.24
at 4108, Proposition B.26 in appendix B.3.2.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from fedtheory.algorithms import fedac
from fedtheory.claims import Context, Evidence, claim, seed_for
from fedtheory.exact.fedac_moments import fedac_moments
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import FederatedQuadratic

from .convergence import NOISE, _record, sigma_assumption_32

PAPER = "yuan-thesis"
L = 1.0


@cache
def _instance():
    rng = np.random.default_rng(seed_for(f"{PAPER}/general-convex-quadratic"))
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    A = Q @ np.diag([1.0, 0.1, 0.0]) @ Q.T
    problem = FederatedQuadratic(A, A @ rng.normal(size=3))
    v = Q[:, :2] @ rng.normal(size=2)
    return problem, problem.x_star + v / np.linalg.norm(v)


def _gap_after(lam: float, params: fedac.FedAcParams, sigma: float, R: int) -> float:
    """E F(xbar_ag^(R,0)) - F* for FedAc on F~_lambda."""
    problem, x0 = _instance()
    augmented = FederatedQuadratic(problem.A_mean + lam * np.eye(3), problem.b_mean + lam * x0)
    mom = fedac_moments(AdditiveGaussian(augmented, cov=np.diag(NOISE * sigma**2)), params, x0, R)
    return float(problem.expected_gap(mom.mean[-1, 1], mom.cov[-1, 3:, 3:]))


def _grid(quick: bool, T_min: int):
    for sigma in (0.1, 1.0):
        for M in (1, 16) if quick else (1, 4, 16, 256):
            for K in (1, 8, 32) if quick else (1, 2, 8, 32, 128):
                for R in (8, 64, 256) if quick else (4, 8, 32, 64, 256, 1024):
                    if K * R >= T_min:
                        yield sigma, M, K, R


@claim(
    f"{PAPER}/lem-b.24",
    source="Lemma B.24, (B.45), line 4108",
    statement="For any lambda > 0 and eta <= 1/(L + lambda), FedAc-I on F~_lambda gives E F(xbar_ag) - F* <= lambda "
    "B^2/2 + (L B^2/2) exp(-sqrt(eta lambda K R^2)) + eta^(1/2) sigma^2/(2 lambda^(1/2) M K^(1/2)) + eta sigma^2/(2M) "
    "+ 390 eta^(3/2) L K^(1/2) sigma^2/lambda^(1/2) + 7 eta^2 L K sigma^2 + 390 eta^(3/2) lambda^(1/2) K^(1/2) sigma^2 "
    "+ 7 eta^2 lambda K sigma^2 (exact on a singular quadratic).",
    expect="holds",
)
def lem_b24(ctx: Context) -> Evidence:
    measured, bound, grid = [], [], {}
    for sigma, M, K, R in _grid(ctx.quick, 1):
        for lam in (1e-3, 1e-2, 1e-1):
            for frac in (1.0, 0.1, 1e-3):
                eta = frac / (L + lam)
                params = fedac.fedac_i(eta, lam, K, M, L=L + lam)
                measured.append(_gap_after(lam, params, sigma, R))
                s2 = float(NOISE.sum()) * sigma**2
                bound.append(
                    lam / 2
                    + L / 2 * np.exp(-np.sqrt(eta * lam * K * R**2))
                    + np.sqrt(eta) * s2 / (2 * np.sqrt(lam) * M * np.sqrt(K))
                    + eta * s2 / (2 * M)
                    + 390 * eta**1.5 * L * np.sqrt(K) * s2 / np.sqrt(lam)
                    + 7 * eta**2 * L * K * s2
                    + 390 * eta**1.5 * np.sqrt(lam * K) * s2
                    + 7 * eta**2 * lam * K * s2
                )
                _record(grid, sigma=sigma, M=M, K=K, R=R, lam=lam, eta_over_max=frac)
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=1e-9, grid=grid)


@claim(
    f"{PAPER}/thm-b.21",
    source="Theorem B.21, line 4060 (T >= 24)",
    statement="With lambda and eta as printed, FedAc-I on F~_lambda gives E F(xbar_ag^(R,0)) - F* <= (2 L B^2/(K R^2)) "
    "log^2(e^2 + K R^2) + (2 sigma B/sqrt(MKR)) log^2(e^2 + L sqrt(MKR) B/sigma) + (1005 L^(1/3) sigma^(2/3) B^(4/3)/"
    "(K^(1/3) R)) log^4(e^4 + L^(2/3) K^(1/3) R B^(2/3)/sigma^(2/3)) (exact on a singular quadratic, B = 1).",
    expect="holds",
)
def thm_b21(ctx: Context) -> Evidence:
    measured, bound, grid = [], [], {}
    B = 1.0
    for sigma, M, K, R in _grid(ctx.quick, 24):
        s = np.sqrt(float(NOISE.sum())) * sigma
        lam = max(
            s / (np.sqrt(M * K * R) * B),
            L ** (1 / 3) * s ** (2 / 3) / (K ** (1 / 3) * R * B ** (2 / 3)),
            2 * L / (K * R**2) * np.log(np.e**2 + K * R**2) ** 2,
        )
        eta = min(
            1 / (L + lam),
            np.log(np.e + min(lam * L * M * K * R * B**2 / s**2, lam**2 * K * R**3 * B**2 / s**2)) ** 2
            / (lam * K * R**2),
            L ** (1 / 3) * B ** (2 / 3) / (lam ** (2 / 3) * K ** (2 / 3) * R * s ** (2 / 3)),
            L**0.25 * B**0.5 / (lam**0.75 * K**0.75 * R * s**0.5),
        )
        measured.append(_gap_after(lam, fedac.fedac_i(eta, lam, K, M, L=L + lam), sigma, R))
        bound.append(
            2 * L * B**2 / (K * R**2) * np.log(np.e**2 + K * R**2) ** 2
            + 2 * s * B / np.sqrt(M * K * R) * np.log(np.e**2 + L * np.sqrt(M * K * R) * B / s) ** 2
            + 1005
            * L ** (1 / 3)
            * s ** (2 / 3)
            * B ** (4 / 3)
            / (K ** (1 / 3) * R)
            * np.log(np.e**4 + L ** (2 / 3) * K ** (1 / 3) * R * B ** (2 / 3) / s ** (2 / 3)) ** 4
        )
        _record(grid, sigma=sigma, M=M, K=K, R=R, lam=lam, eta=eta)
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=1e-9, grid=grid)


@claim(
    f"{PAPER}/thm-b.22",
    source="Theorem B.22, line 4074 (T >= 1000)",
    statement="With lambda and eta as printed, FedAc-II on F~_lambda gives E F(xbar_ag^(R,0)) - F* <= (10 L B^2/(K "
    "R^2)) log^2(e^2 + K R^2) + (5 sigma B/sqrt(MKR)) log(e + L sqrt(MKR) B/sigma) + (16411 L^(1/2) sigma^(1/2) "
    "B^(3/2)/(K^(1/4) R)) log^4(e^4 + L^(1/2) K^(1/4) R B^(1/2)/sigma^(1/2)) (exact on a singular quadratic).",
    expect="holds",
)
def thm_b22(ctx: Context) -> Evidence:
    measured, bound, grid = [], [], {}
    B = 1.0
    for sigma, M, K, R in _grid(ctx.quick, 1000):
        s = sigma_assumption_32(sigma)
        lam = max(
            s / (np.sqrt(M * K * R) * B),
            np.sqrt(L * s) / (K**0.25 * R * np.sqrt(B)),
            18 * L / (K * R**2) * np.log(np.e**2 + K * R**2) ** 2,
        )
        eta = min(
            1 / (L + lam),
            9
            * np.log(np.e + min(lam * L * M * K * R * B**2 / s**2, lam**3 * K * R**4 * B**2 / (L * s**2))) ** 2
            / (lam * K * R**2),
            L ** (1 / 3) * B ** (2 / 3) / (lam ** (2 / 3) * K ** (2 / 3) * R ** (2 / 3) * s ** (2 / 3)),
        )
        measured.append(_gap_after(lam, fedac.fedac_ii(eta, lam, K, M, L=L + lam), sigma, R))
        bound.append(
            10 * L * B**2 / (K * R**2) * np.log(np.e**2 + K * R**2) ** 2
            + 5 * s * B / np.sqrt(M * K * R) * np.log(np.e + L * np.sqrt(M * K * R) * B / s)
            + 16411
            * np.sqrt(L * s)
            * B**1.5
            / (K**0.25 * R)
            * np.log(np.e**4 + np.sqrt(L) * K**0.25 * R * np.sqrt(B) / np.sqrt(s)) ** 4
        )
        _record(grid, sigma=sigma, M=M, K=K, R=R, lam=lam, eta=eta)
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=1e-9, grid=grid)


@claim(
    f"{PAPER}/prop-b.26",
    source="Proposition B.26 (appendix B.3.2)",
    statement="For the potential Psi of F~_lambda (3.9): Psi^(R,0) >= F(xbar_ag^(R,0)) - F* - lambda B^2/2 (checked in "
    "expectation along FedAc-I runs) and Psi^(0,0) <= (L/2)||x^(0,0) - x*||^2, for lambda in {1e-3, ..., 1}.",
    expect="holds",
)
def prop_b26(ctx: Context) -> Evidence:
    problem, x0 = _instance()
    measured, bound, grid = [], [], {}
    for lam in (1e-3, 1e-2, 1e-1, 1.0):
        A_aug, b_aug = problem.A_mean + lam * np.eye(3), problem.b_mean + lam * x0
        aug = FederatedQuadratic(A_aug, b_aug)
        for K, R in ((4, 8), (16, 32)):
            params = fedac.fedac_i(0.5 / (L + lam), lam, K, 4, L=L + lam)
            mom = fedac_moments(AdditiveGaussian(aug, cov=np.diag(NOISE)), params, x0, R)
            psi = float(mom.psi()[-1])
            gap = _gap_after(lam, params, 1.0, R)
            measured.append(gap - lam / 2)
            bound.append(psi)
            _record(grid, lam=lam, K=K, R=R, check="Psi(R,0) >= F gap - lambda B^2/2")
        e0 = x0 - aug.x_star
        psi0 = 0.5 * e0 @ A_aug @ e0 + lam / 2 * e0 @ e0
        measured.append(float(psi0))
        bound.append(L / 2)  # B = 1
        _record(grid, lam=lam, K=0, R=0, check="Psi(0,0) <= L B^2/2")
    return Evidence(measured=measured, bound=bound, relation="<=", rtol=1e-9, grid=grid)
