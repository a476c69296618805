"""Lemma 2.3, Proposition 2.1 and Theorem 2.19 on l2-regularised logistic regression, by Monte Carlo.

The instance is the finite sum of section 1.1 of the thesis with its real sampling noise: client ``m`` holds rows
``(a_mi, y_mi)``, ``F_m(x) = (1/n) sum_i l(y_mi a_mi'x) + (l2/2)||x||^2`` with ``l(t) = log(1 + e^-t)``, and the
stochastic gradient ``grad f(x; xi)`` is the gradient of one row drawn uniformly with replacement. Data come from
:func:`fedtheory.problems.logistic_data` (two Gaussian classes, d = 4, seeded from the instance name):

* homogeneous (Assumption 2.2): every client samples rows of one shared data set of 64 rows;
* heterogeneous: client ``m`` owns 32 rows whose feature mean is shifted by a client-specific Gaussian vector.

Every constant a bound needs is a certified upper bound computed from the data
(:func:`fedtheory.problems.logistic_constants.certified_constants`, derivations in its docstring), never a fitted or
sampled value; a sampled lower estimate of each is reported next to it so the looseness is visible, and a sampled value
above its certified bound is an error. ``F*`` is the certified optimum of :func:`fedtheory.reference.logistic_optimum`.
Monte Carlo intervals are simultaneous 99% intervals (:func:`fedtheory.fit.mc_mean` with ``family_size`` the number of
grid points).

Paper text: Assumptions 2.1, 2.3 and 2.5, Proposition 2.1 (eq. (2.2)) and its proof with the step size, Lemma 2.3,
Theorem 2.19 (eq. (2.31)) and its proof with the step size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import fedavg
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import Minibatch
from fedtheory.problems import LogisticRegression, logistic_data
from fedtheory.problems.logistic_constants import certified_constants, sampled_constants
from fedtheory.reference import logistic_optimum

PAPER = "yuan-thesis"
D = 4
N_SHARED, N_PER_CLIENT = 64, 32  # rows of the homogeneous data set / of each heterogeneous client
SEPARATION, HETEROGENEITY, L2 = 2.0, 0.5, 0.05
PROP21_C = 18.5  # the term-by-term constant of the proof of Proposition 2.1, as in claim yuan-thesis/prop-2.1


@dataclass(frozen=True)
class _Instance:
    """A logistic-regression instance with certified constants (Assumptions 2.1, 2.3, 2.5)."""

    problem: LogisticRegression
    kind: str
    L: float  # max_m smoothness of F_m, Assumption 2.1(b)
    sigma2: float  # sup_x E||grad f - grad F_m||^2 <= sigma2, Assumption 2.1(c)
    sigma4: float  # sup_x (E||grad f - grad F_m||^4)^(1/4) <= sigma4, Assumption 2.5(b)
    zeta: float  # max_m sup_x ||grad F_m - grad F|| <= zeta, Assumption 2.3
    Q: float  # max_m Lipschitz constant of the Hessian of F_m, Assumption 2.5(a)
    x_star: np.ndarray  # certified minimiser of F
    f_star: float
    witness: dict

    @property
    def B(self) -> float:
        """``||x^(0,0) - x*||`` with ``x^(0,0) = 0``."""
        return float(np.linalg.norm(self.x_star))

    @property
    def label(self) -> str:
        return self.kind if self.problem.n_clients is None else f"{self.kind}, M = {self.problem.n_clients}"


def _certify(problem: LogisticRegression, kind: str, data: str, rng: np.random.Generator) -> _Instance:
    """The certified optimum and constants of ``problem``, checked against their sampled lower estimates."""
    reference = logistic_optimum(problem)
    const = certified_constants(problem)
    sampled = sampled_constants(problem, reference.x, rng)
    for key, lower in sampled.items():
        if lower > const[key] * (1 + ROUNDING):
            raise RuntimeError(f"certified {key} = {const[key]} is below a sampled value {lower}: a derivation bug")
    witness = {
        "data": data,
        "constants (certified)": {k: const[k] for k in ("L", "sigma2", "sigma4", "zeta", "Q")},
        "constants (sampled lower estimates)": sampled,
        "how": const["how"],
        "F*": reference.value,
        "F* certificate": {
            **reference.certificate,
            "solver": reference.solver,
            "F* error <= ||grad||^2/(2 l2)": reference.certificate["gradient_norm"] ** 2 / (2 * L2),
        },
        "x(0,0)": "0",
    }
    return _Instance(
        problem,
        kind,
        const["L"],
        const["sigma2"],
        const["sigma4"],
        const["zeta"],
        const["Q"],
        reference.x,
        reference.value,
        witness,
    )


@family(f"{PAPER}/logistic-instances:homogeneous")
def _homogeneous(fam: Family) -> _Instance:
    """One shared data set of ``N_SHARED`` rows that every client samples (any number of clients)."""
    rng = fam.rng()
    shared = logistic_data(rng, n_clients=1, n_per_client=N_SHARED, dim=D, separation=SEPARATION, l2=L2)
    problem = LogisticRegression(shared.features[0], shared.labels[0], l2=L2)
    data = f"logistic_data(d = {D}, separation = {SEPARATION}, l2 = {L2}): one shared set of {N_SHARED} rows"
    return _certify(problem, "homogeneous", data, rng)


@family(f"{PAPER}/logistic-instances:heterogeneous")
def _heterogeneous(fam: Family, M: int) -> _Instance:
    """``M`` clients owning ``N_PER_CLIENT`` rows each, feature means shifted per client."""
    rng = fam.rng()
    problem = logistic_data(
        rng, n_clients=M, n_per_client=N_PER_CLIENT, dim=D, separation=SEPARATION, heterogeneity=HETEROGENEITY, l2=L2
    )
    data = (
        f"logistic_data(d = {D}, separation = {SEPARATION}, l2 = {L2}, heterogeneity = {HETEROGENEITY}): "
        f"{M} clients x {N_PER_CLIENT} rows"
    )
    return _certify(problem, "heterogeneous", data, rng)


def _instances(ctx: Context, ms: tuple[int, ...]) -> list[tuple[_Instance, int]]:
    """(instance, M) pairs: the homogeneous instance and a heterogeneous one for every ``M``."""
    return [(_homogeneous(ctx), M) for M in ms] + [(_heterogeneous(ctx, M), M) for M in ms]


def _instance_witness(pairs: list[tuple[_Instance, int]]) -> dict:
    """Data, certified and sampled constants and the F* certificate of every instance used."""
    return {inst.label: inst.witness for inst, _ in pairs}


@dataclass(frozen=True)
class _RunSums:
    """Per-replica sums of one FedAvg run, each of shape (S,)."""

    value_gap: np.ndarray  # (1/KR) sum_{r<R} sum_{k=1..K} F(xbar^(r,k)) - F*
    consensus: np.ndarray  # sum_{r<R} sum_{k<K} sum_m ||x_m^(r,k) - xbar^(r,k)||^2
    final_distance: np.ndarray  # ||xbar^(R-1,K) - x*||^2
    x_hat: np.ndarray  # (S, d): the weighted average of Theorem 2.19


def _fedavg(
    inst: _Instance, eta: float, K: int, R: int, M: int, S: int, rng: np.random.Generator, *, values: bool
) -> _RunSums:
    """``S`` replicas of FedAvg (Algorithm 1) from ``x^(0,0) = 0`` with one sampled row per step, arrays (S, M, d).

    Records the sums of Lemma 2.3 / Proposition 2.1 (``F`` at every shadow iterate only when ``values``) and
    Theorem 2.19's ``x_hat = sum w_rk xbar^(r,k) / sum w_rk``, ``w_rk = (1 + 1/(KR))^-(rK+k+1)``, r < R, k < K.

    Returns
    -------
    _RunSums
        Per-replica sums; ``value_gap`` is zero unless ``values``.
    """
    p = inst.problem
    oracle = Minibatch(p, 1)
    server = np.zeros((S, D))
    value_gap, consensus = np.zeros(S), np.zeros(S)
    weighted, weights = np.zeros((S, D)), 0.0
    for r in range(R):
        clients = np.broadcast_to(server[:, None, :], (S, M, D))
        for k in range(K):
            xbar = clients.mean(axis=1)
            consensus += np.sum((clients - xbar[:, None, :]) ** 2, axis=(1, 2))
            w = (1 + 1 / (K * R)) ** -(r * K + k + 1)
            weighted += w * xbar
            weights += w
            clients = fedavg.local_sgd(clients, oracle, eta, 1, rng)
            if values:
                value_gap += p.value(clients.mean(axis=1)) - inst.f_star
        server = clients.mean(axis=1)
    return _RunSums(value_gap / (K * R), consensus, np.sum((server - inst.x_star) ** 2, axis=1), weighted / weights)


@claim(
    f"{PAPER}/lem-2.3:logistic",
    source="Lemma 2.3 (last LHS term read at r = R - 1, as in yuan-thesis/lem-2.3)",
    statement="For eta <= 1/(4L): E[(1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F*] + (1/(2 eta KR)) "
    "E||xbar^(R-1,K) - x*||^2 <= (1/(2 eta KR))||x^(0,0) - x*||^2 + eta sigma^2/M + "
    "(L/(MKR)) sum_r sum_{k<K} sum_m E||x_m^(r,k) - xbar^(r,k)||^2; checked on l2-regularised logistic regression "
    "(homogeneous and heterogeneous, one sampled row per step, certified L and sigma; simultaneous 99% intervals).",
    scope="printed",
    expect="holds",
)
def lem23_logistic(ctx: Context) -> Evidence:
    """Logistic regression, homogeneous and heterogeneous (M = 2, 8), with certified L, sigma and F*; FedAvg with one
    sampled row per step from x^(0,0) = 0 (1000 replicas, 4000 in the full profile): E[LHS - consensus term] by
    Monte Carlo with simultaneous 99% intervals, against B^2/(2 eta KR) + eta sigma^2/M."""
    S = 1000 if ctx.quick else 4000
    Rs = (4,) if ctx.quick else (4, 16)
    configs = [
        (inst, M, frac, K, R)
        for inst, M in _instances(ctx, (2, 8))
        for frac in (1.0, 0.25)
        for K in (1, 4, 16)
        for R in Rs
    ]
    points = Points()
    for i, (inst, M, frac, K, R) in enumerate(configs):
        eta = frac / (4 * inst.L)
        KR = K * R
        run = _fedavg(inst, eta, K, R, M, S, ctx.rng(i), values=True)
        # Both sides are random: LHS minus the RHS's consensus term is one random variable per replica.
        sample = run.value_gap + run.final_distance / (2 * eta * KR) - inst.L / (M * KR) * run.consensus
        est = mc_mean(sample, family_size=len(configs))
        bound = inst.B**2 / (2 * eta * KR) + eta * inst.sigma2 / M
        interval = (float(est.lo), float(est.hi))
        points.add(float(est.mean), bound, interval=interval, instance=inst.kind, M=M, K=K, R=R, eta_4L=frac)
    return points.evidence(
        "<=",
        witness={
            "measured": "E[LHS - (L/(MKR)) sum sum sum ||x_m - xbar||^2] (one random variable per replica)",
            "bound": "B^2/(2 eta KR) + eta sigma^2/M",
            "replicas": S,
            "instances": _instance_witness(_instances(ctx, (2, 8))),
        },
    )


@claim(
    f"{PAPER}/prop-2.1:logistic",
    source="Proposition 2.1, eq. (2.2); the step size in its proof",
    statement="With eta = min{1/(4L), sqrt(M) B/(sqrt(KR) sigma), B^(2/3)/(K^(2/3) R^(1/3) L^(1/3) sigma^(2/3)), "
    "B^(2/3)/(K R^(1/3) L^(1/3) zeta^(2/3))}, FedAvg attains E[(1/KR) sum sum F(xbar^(r,k))] - F* <= "
    "C((1) + (2) + (3) + (4)) with C = 18.5 (term-by-term constant of the proof, as in yuan-thesis/prop-2.1); "
    "checked on l2-regularised logistic regression (homogeneous, zeta = 0, and heterogeneous; one sampled row per "
    "step; certified L, sigma, zeta; simultaneous 99% intervals).",
    scope="printed",
    expect="holds",
)
def prop21_logistic(ctx: Context) -> Evidence:
    """The instances of lem-2.3:logistic (M = 2, 8; also 16 in the full profile) with certified L, sigma, zeta and F*;
    FedAvg with the prescribed step size (300 replicas, 2000 in the full profile): E[(1/KR) sum sum F(xbar^(r,k))] -
    F* over (1) + (2) + (3) + (4) by Monte Carlo with simultaneous 99% intervals, against C = 18.5."""
    S = 300 if ctx.quick else 2000
    Ms = (2, 8) if ctx.quick else (2, 8, 16)
    configs = [(inst, M, K, R) for inst, M in _instances(ctx, Ms) for K in (1, 4, 16) for R in (2, 8, 32)]
    points = Points()
    for i, (inst, M, K, R) in enumerate(configs):
        L, B, s, z = inst.L, inst.B, np.sqrt(inst.sigma2), inst.zeta
        steps = [
            1 / (4 * L),
            np.sqrt(M) * B / (np.sqrt(K * R) * s),
            B ** (2 / 3) / (K ** (2 / 3) * R ** (1 / 3) * L ** (1 / 3) * s ** (2 / 3)),
        ]
        if z > 0:
            steps.append(B ** (2 / 3) / (K * R ** (1 / 3) * L ** (1 / 3) * z ** (2 / 3)))
        eta = min(steps)
        rate = (
            L * B**2 / (K * R)
            + s * B / np.sqrt(M * K * R)
            + L ** (1 / 3) * s ** (2 / 3) * B ** (4 / 3) / (K ** (1 / 3) * R ** (2 / 3))
            + L ** (1 / 3) * z ** (2 / 3) * B ** (4 / 3) / R ** (2 / 3)
        )
        run = _fedavg(inst, eta, K, R, M, S, ctx.rng(i), values=True)
        est = mc_mean(run.value_gap / rate, family_size=len(configs))
        points.add(
            float(est.mean),
            interval=(float(est.lo), float(est.hi)),
            instance=inst.kind,
            M=M,
            K=K,
            R=R,
            eta_L=eta * L,
            step_branch=int(np.argmin(steps)),
        )
    return points.evidence(
        "<=",
        bound=PROP21_C,
        witness={
            "measured": "E[(1/KR) sum sum F(xbar^(r,k)) - F*] / ((1) + (2) + (3) + (4)), certified constants",
            "step_branch": "index of the minimum in the step-size rule (0: 1/(4L), 1: noise, 2: (3), 3: (4))",
            "max ratio": float(np.max(points.measured)),
            "replicas": S,
            "instances": _instance_witness(_instances(ctx, Ms)),
        },
    )


@claim(
    f"{PAPER}/thm-2.19:logistic",
    source="Theorem 2.19, eq. (2.31); its proof (bound before choosing eta, and the step size)",
    statement="FedAvg on homogeneous l2-regularised logistic regression (one sampled row per step) with eta = "
    "min{1/(2L), sqrt(M) B/(sqrt(KR) sigma), B^(1/3)/(K^(2/3) R^(1/3) Q^(1/3) sigma^(2/3))} and the weighted "
    "average x_hat: E F(x_hat) - F* <= 3B^2/(eta KR) + 96 eta^5 Q^2 K^3 R sigma^4 + eta sigma^2/M, with certified "
    "L, Q and sigma (fourth-moment bound, which also bounds the variance); simultaneous 99% intervals.",
    scope="printed",
    expect="holds",
)
def thm219_logistic(ctx: Context) -> Evidence:
    """The homogeneous instance of lem-2.3:logistic with certified L, Q, sigma and F*; FedAvg with the prescribed step
    size and the weighted average x_hat (2000 replicas, 20 000 in the full profile): E F(x_hat) - F* by Monte Carlo
    with simultaneous 99% intervals, against the bound before choosing eta."""
    S = 2000 if ctx.quick else 20_000
    inst = _homogeneous(ctx)
    L, Q, B = inst.L, inst.Q, inst.B
    s = max(np.sqrt(inst.sigma2), inst.sigma4)  # one sigma for Assumptions 2.1(c) and 2.5(b)
    configs = [(M, K, R) for M in (4, 16) for K in (4, 16) for R in (4, 16)]
    points, ratio = Points(), []
    for i, (M, K, R) in enumerate(configs):
        steps = [
            1 / (2 * L),
            np.sqrt(M) * B / (np.sqrt(K * R) * s),
            B ** (1 / 3) / (K ** (2 / 3) * R ** (1 / 3) * Q ** (1 / 3) * s ** (2 / 3)),
        ]
        eta = min(steps)
        run = _fedavg(inst, eta, K, R, M, S, ctx.rng(i), values=False)
        est = mc_mean(inst.problem.value(run.x_hat) - inst.f_star, family_size=len(configs))
        bound = 3 * B**2 / (eta * K * R) + 96 * eta**5 * Q**2 * K**3 * R * s**4 + eta * s**2 / M
        points.add(
            float(est.mean),
            bound,
            interval=(float(est.lo), float(est.hi)),
            M=M,
            K=K,
            R=R,
            eta_L=eta * L,
            step_branch=int(np.argmin(steps)),
        )
        rate = (
            L * B**2 / (K * R)
            + s * B / np.sqrt(M * K * R)
            + Q ** (1 / 3) * s ** (2 / 3) * B ** (5 / 3) / (K ** (1 / 3) * R ** (2 / 3))
        )
        ratio.append(float(est.mean) / rate)
    return points.evidence(
        "<=",
        witness={
            "sigma": s,
            "step_branch": "index of the minimum in the step-size rule (0: 1/(2L), 1: noise, 2: (3'))",
            "max measured/((1) + (2) + (3'))": float(np.max(ratio)),
            "replicas": S,
            "instance": inst.witness,
        },
    )
