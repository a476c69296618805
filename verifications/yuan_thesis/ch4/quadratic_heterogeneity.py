"""FedDualAvg under bounded heterogeneity on quadratics (thesis section 4.4): the shared instances, traced runs and
bounds (no claims). The claims are in the sibling modules: Theorem 4.7 ((4.13), (4.37), the tuned rate, the
R-independent part at fixed eta_c) in :mod:`.thm_4_7_feddualavg_rate`; Lemma 4.11 and its chain (Proposition 4.15,
Claims 4.16-4.17, the convexity step) in :mod:`.lem_4_11_prop_4_15_claims_4_16_4_17`; Claims 4.18-4.19, the
deterministic step (4.32)-(4.36) and the noise step of Claim 4.17 in :mod:`.claims_4_17_4_19_proof_steps`; Remark 4.6
(LASSO) in :mod:`.remark_4_6_lasso`.

Instances (Assumption 4.2). ``d = 10``, one Hessian ``A = QQ'/d + 0.2 I`` (``Q`` standard normal, seeded)
shared by every client, ``F_m(x) = x'Ax/2 - c_m'x`` with ``c_m = cbar + s_het u_m`` (``cbar`` standard normal,
``u_m`` standard normal and centred over the ``M`` clients, seeded per ``M``), so ``F(x) = x'Ax/2 - cbar'x`` is the
same quadratic for every ``M`` and heterogeneity scale ``s_het``. Gradients are exact (``sigma = 0``) or carry
additive noise ``N(0, s^2 I)``, ``s = 0.5``, independent across clients, steps and replicas. ``psi`` is one of
``0.3 ||x||_1``, the indicator of the l2 ball of radius ``||A^-1 cbar||_2 / 2`` (active) and ``0.8 ||X||_nuc`` on
``X`` = the first 9 coordinates as a 3x3 matrix, the last coordinate free (:class:`~fedtheory.regularizers.Masked`);
``h = ||x||_2^2/2``, ``x^(0,0) = 0`` (in every ``dom psi``), ``eta_s = 1``. ``x*`` and ``Phi*`` come from
:func:`fedtheory.reference.composite_optimum` (KKT certificate in the witnesses). Remark 4.6 uses a LASSO with one
design shared by the clients (:mod:`.remark_4_6_lasso`).

Constants, in the norm of Assumption 4.2(c), ``||x|| = sqrt(x'Ax/||A||_2)``, whose dual is
``||y||_* = sqrt(||A||_2 y'A^-1 y)`` (Claim 4.19): ``L = ||A||_2`` (every ``f(.; xi)`` has Hessian ``A``),
``sigma^2 = ||A||_2 s^2 tr(A^-1)`` (Assumption 4.1(d) with equality), ``B^2 = D_h(x*, 0) = ||x*||^2/2`` and
``Z_het = max_m sup_x ||grad F_m(x) - grad F(x)||_* = s_het max_m ||u_m||_*``.

The reading of zeta. Eq. (4.12) prints ``||grad F_m - grad F||_* <= zeta^2`` (a norm bounded by a square), while
Assumption 2.3, which Remark 4.6 says it extends, bounds the *squared* norm by ``zeta^2``, and the proof of Claim 4.18
uses ``||delta_m||_*^2 <= zeta^2``. The claims whose bounds contain zeta are checked *as printed*, with the
smallest ``zeta`` that (4.12) admits, ``zeta^2 = Z_het``, and, where that fails, *corrected* (``:corrected``) with
``zeta = Z_het``. As printed, the left sides scale like ``s_het^2`` and the heterogeneity terms of the bounds like
``s_het``, so the grids hold ``s_het`` in {1, 10} (full: also 0.1).

Expectations: a quantity quadratic in the Gaussian noise given ``F^(r,k)`` (Proposition 4.15, Claim 4.17) is taken in
closed form (``E||v - eta_c (eps_m1 - eps_m2)||^2_{A^-1} = ||v||^2_{A^-1} + 2 eta_c^2 s^2 tr(A^-1)``) at every state
the runs visit; everything else is a Monte Carlo mean over replicas (all replicas and clients advance in one numpy
operation) with simultaneous 99% intervals (:func:`fedtheory.fit.mc_mean`, Bonferroni over the claim's estimates),
and exact (one deterministic run) at ``sigma = 0``.

Printed objects: Assumption 2.3, the output (4.9), Assumption 4.2, Remark 4.6, Theorem 4.7, Lemma 4.11, Proposition
4.15, Claims 4.16-4.19, the proofs of Proposition 4.15, of Lemma 4.11, of Claim 4.16, of Claim 4.17 ((4.32)-(4.36)) and
of Claims 4.18-4.19, and (4.37) in the proof of Theorem 4.7.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, Box, L2Ball, Masked, NuclearNorm

REGISTERS_CLAIMS = False  # shared instances, runs and bounds; the claims are in the sibling modules


PAPER = "yuan-thesis"
D = 10
NOISE = 0.5  # s: additive noise N(0, s^2 I)
S_STEP = 4  # replicas whose states enter the per-state checks of Proposition 4.15 and Claims 4.16-4.17
PSIS = ("l1", "l2-ball", "nuclear")
READINGS = ("printed", "corrected")
READING_TEXT = {
    "printed": "zeta^2 = Z_het (eq. (4.12) as printed: ||grad F_m - grad F||_* <= zeta^2); the heterogeneity terms "
    "of the bounds then grow like s_het while the left sides grow like s_het^2 (compare the ':corrected' ids)",
    "corrected": "zeta = Z_het (||grad F_m - grad F||_* <= zeta, as Assumption 2.3 and the proof of Claim 4.18 use)",
}


# --------------------------------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------------------------------
@family(f"{PAPER}/quadratic-heterogeneity:base")
def base(fam: Family) -> tuple[np.ndarray, np.ndarray]:
    """``A = QQ'/d + 0.2 I`` and ``cbar`` (both seeded)."""
    rng = fam.rng()
    Q = rng.standard_normal((D, D))
    return Q @ Q.T / D + 0.2 * np.eye(D), rng.standard_normal(D)


def regularizer(ctx: Context | str, kind: str):
    """``psi`` of kind ``kind`` (module docstring); ``ctx``: a Context or a profile, for the instance's ``A``."""
    A, cbar = base(ctx)
    if kind == "l1":
        return L1(0.3)
    if kind == "l2-ball":
        return L2Ball(0.5 * float(np.linalg.norm(np.linalg.solve(A, cbar))))
    mask = np.ones(D, dtype=bool)
    mask[-1] = False
    return Masked(NuclearNorm(0.8), mask, (3, 3))


@family(f"{PAPER}/quadratic-heterogeneity-optimum")
def _optimum(fam: Family, kind: str):
    """Certified ``argmin F + psi`` (Clarabel + KKT polish) of the common ``F``."""
    A, cbar = base(fam.profile)
    return composite_optimum(FederatedQuadratic(A, cbar), regularizer(fam.profile, kind))


@dataclass(frozen=True)
class Instance:
    """A shared-Hessian federated quadratic with ``psi``, its constants and certified optimum."""

    problem: FederatedQuadratic
    psi: object
    A: np.ndarray
    A_inv: np.ndarray
    W: np.ndarray  # Cholesky factor, A^-1 = W W'
    L: float
    x_star: np.ndarray
    grad_star: np.ndarray  # grad F(x*)
    psi_star: float
    Z_het: float
    x0: np.ndarray
    witness: dict = field(default_factory=dict)

    @property
    def M(self) -> int:
        return self.problem.A.shape[0]

    @property
    def B2(self) -> float:
        """``B^2 = D_h(x*, x^(0,0)) = ||x* - x0||^2/2`` (Euclidean ``h``)."""
        return 0.5 * float(np.sum((self.x_star - self.x0) ** 2))

    def sigma2(self, noise: float) -> float:
        """``sigma^2 = sup E||eps||_*^2 = ||A|| s^2 tr(A^-1)`` for ``eps ~ N(0, s^2 I)``."""
        return self.L * noise**2 * float(np.trace(self.A_inv))

    def zeta2(self, reading: str) -> float:
        """``zeta^2``: ``Z_het`` as printed, ``Z_het^2`` corrected (module docstring)."""
        return self.Z_het if reading == "printed" else self.Z_het**2

    def qA(self, v: np.ndarray) -> np.ndarray:
        """``||v||^2_{A^-1} = v'A^-1 v = ||W'v||^2`` over the last axis."""
        w = v @ self.W
        return np.einsum("...i,...i->...", w, w)

    def phi_gap(self, x: np.ndarray) -> np.ndarray:
        """``Phi(x) - Phi(x*) = (x - x*)'A(x - x*)/2 + grad F(x*)'(x - x*) + psi(x) - psi(x*)`` (no cancellation
        against ``F*``)."""
        e = x - self.x_star
        return (
            0.5 * np.einsum("...i,ij,...j->...", e, self.A, e) + e @ self.grad_star + self.psi.value(x) - self.psi_star
        )


def quadratic_instance(A, b, c, psi, ref, x0, witness) -> Instance:
    problem = FederatedQuadratic(A, b, c)
    A_mean = problem.A_mean
    A_inv = np.linalg.inv(A_mean)
    L = float(np.linalg.eigvalsh(A_mean)[-1])
    dev = problem.b - problem.b_mean
    Z = float(np.sqrt(L * np.max(np.einsum("mi,ij,mj->m", dev, A_inv, dev))))
    x_star = ref.x
    return Instance(
        problem,
        psi,
        A_mean,
        A_inv,
        np.linalg.cholesky(A_inv),
        L,
        x_star,
        problem.grad(x_star),
        float(psi.value(x_star)),
        Z,
        x0,
        witness,
    )


@family(f"{PAPER}/quadratic-heterogeneity-instance")
def instance(fam: Family, kind: str, M: int, scale: float) -> Instance:
    """The instance with ``psi`` of kind ``kind``, ``M`` clients and heterogeneity scale ``s_het = scale``; the client
    directions ``u_m`` are seeded per ``M``."""
    A, cbar = base(fam.profile)
    rng = np.random.default_rng(seed_for(f"{PAPER}/quadratic-heterogeneity:clients:{M}"))
    u = rng.standard_normal((M, D))
    u -= u.mean(axis=0)
    ref = _optimum(fam.profile, kind)
    witness = {
        "x* certificate": {k: ref.certificate[k] for k in ("kkt_residual", "duality_gap") if k in ref.certificate},
        "solver": ref.solver,
    }
    return quadratic_instance(A, cbar + scale * u, 0.0, regularizer(fam.profile, kind), ref, np.zeros(D), witness)


def instances_witness(ctx: Context) -> dict:
    A = base(ctx)[0]
    out = {
        "A": "QQ'/10 + 0.2 I (seeded), eigenvalues in "
        f"[{np.linalg.eigvalsh(A)[0]:.4g}, {np.linalg.eigvalsh(A)[-1]:.4g}]",
        "L = ||A||_2": float(np.linalg.eigvalsh(A)[-1]),
        "sigma^2 (s = 0.5)": instance(ctx, "l1", 2, 1.0).sigma2(NOISE),
        "x^(0,0)": "0",
    }
    for kind in PSIS:
        inst = instance(ctx, kind, 2, 1.0)
        out[f"psi = {kind}"] = {"B^2": inst.B2, "Phi* certificate": inst.witness}
    for M in (2, 8):
        out[f"Z_het at s_het = 1, M = {M}"] = instance(ctx, "l1", M, 1.0).Z_het
    return out


def oracle_for(inst: Instance, noisy: bool):
    return (
        AdditiveGaussian(inst.problem, cov=NOISE**2 * np.eye(inst.problem.dim))
        if noisy
        else ExactGradient(inst.problem)
    )


# --------------------------------------------------------------------------------------------------
# Runs: FedDualAvg (Algorithm 6, eta_s = 1) with every client state traced
# --------------------------------------------------------------------------------------------------
def _worst(lhs: np.ndarray, rhs: np.ndarray) -> tuple[float, float, float]:
    """``(score, lhs, rhs)`` at the entry with the largest relative excess ``(lhs - rhs)/rhs`` (``lhs <= rhs`` is
    what is checked; ``lhs > 0 = rhs`` scores inf; ``0 <= 0``, e.g. two clients in the same state without noise,
    scores -inf: it says nothing)."""
    lhs, rhs = np.ravel(lhs), np.ravel(rhs)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(rhs > 0, (lhs - rhs) / np.where(rhs > 0, rhs, 1.0), np.where(lhs > 0, np.inf, -np.inf))
    i = int(np.argmax(score))
    return float(score[i]), float(lhs[i]), float(rhs[i])


def _keep(store: dict, key, new: tuple[float, float, float]) -> None:
    if key not in store or new[0] > store[key][0]:
        store[key] = new


@dataclass
class _Run:
    """Statistics of one FedDualAvg run on ``S`` replicas.

    ``disc[r, k]`` (S,): ``(1/M) sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2``, ``k = 0..K``. ``gap[R']`` (S,):
    ``Phi(x^) - Phi*`` for the output (4.9) after ``R'`` rounds; ``overhead[R']`` (S,): the discrepancy term of (4.15),
    ``(L/(M K R')) sum_{r<R'} sum_{k<K} sum_m ||ybar - y_m||_*^2``. ``worst[name]``: ``(score, lhs, rhs)`` of a
    per-state inequality at its worst visited state (:func:`_worst`).
    """

    disc: np.ndarray
    gap: dict
    overhead: dict
    worst: dict


def pairs(v: np.ndarray, iu) -> np.ndarray:
    """Client differences ``v_{m1} - v_{m2}`` over the pairs ``m1 < m2``: (..., M, d) -> (..., P, d)."""
    return v[..., iu[0], :] - v[..., iu[1], :]


def _deviation(y: np.ndarray) -> np.ndarray:
    """``y_m - ybar`` over the client axis (-2), as ``(y_m - y_1) - mean_m (y_m - y_1)``: exactly 0 when every client
    holds the same state (the broadcast state at ``k = 0``)."""
    z = y - y[..., :1, :]
    return z - z.mean(axis=-2, keepdims=True)


def _step_checks(inst: Instance, tr, eta_c: float, K: int, noisy: bool, worst: dict) -> None:
    """Proposition 4.15, Claims 4.16-4.17 and the convexity step of Lemma 4.11 at every state ``F^(r,k)``,
    ``k < K``, of one round's trace (the first :data:`S_STEP` replicas), over every pair of clients ``m1 < m2``."""
    M = inst.M
    iu = np.triu_indices(M, 1)
    x, g, y = tr.x[:, :S_STEP], tr.g[:, :S_STEP], tr.y[:, :S_STEP]  # (K, s, M, d), (K, s, M, d), (K+1, s, M, d)
    grad_m = inst.problem.client_grad(x)
    delta = grad_m - inst.problem.grad(x)  # delta_m^(r,k) = grad F_m(x_m) - grad F(x_m)
    eps = g - grad_m  # realised eps_m^(r,k)
    dy, dy1 = pairs(y[:-1], iu), pairs(y[1:], iu)
    dAx, dd, de = pairs(x, iu) @ inst.A, pairs(delta, iu), pairs(eps, iu)
    noise_term = 2 * eta_c**2 * NOISE**2 * float(np.trace(inst.A_inv)) if noisy else 0.0  # E||eta_c D eps||^2_{A^-1}
    s2 = inst.sigma2(NOISE) if noisy else 0.0
    q_dy, q_dd, q_dy1 = inst.qA(dy), inst.qA(dd), inst.qA(dy1)
    v = dy - eta_c * dAx  # Claim 4.17's F^(r,k)-measurable part
    # Proposition 4.15: E[||D y^(r,k+1)||^2_{A^-1} | F^(r,k)] = ||v - eta_c D delta||^2 + noise_term (exact)
    lhs_prop = inst.qA(v - eta_c * dd) + noise_term
    for reading in READINGS:
        rhs = (1 + 1 / K) * q_dy + 2 * (1 + 1 / K) * eta_c**2 * s2 / inst.L
        _keep(
            worst, ("prop-4.15", reading), _worst(lhs_prop, rhs + 4 * (1 + K) * eta_c**2 * inst.zeta2(reading) / inst.L)
        )
    # Claim 4.17 (exact conditional expectation) and Claim 4.16 (pathwise, realised noise)
    _keep(worst, "claim-4.17", _worst(inst.qA(v) + noise_term, q_dy + 2 * eta_c**2 * s2 / inst.L))
    rhs_416 = (1 + K) * eta_c**2 * q_dd + (1 + 1 / K) * inst.qA(v - eta_c * de)
    _keep(worst, "claim-4.16", _worst(q_dy1, rhs_416))
    if not noisy:  # Lemma 4.11's convexity step, pathwise exact at sigma = 0
        q_pairs = inst.qA(pairs(y, iu))  # (K+1, s, P)
        avg = inst.qA(_deviation(y)).mean(axis=-1)  # (K+1, s)
        _keep(worst, "jensen every pair", _worst(avg, q_pairs.min(axis=-1)))
        _keep(worst, "jensen max pair", _worst(avg, q_pairs.max(axis=-1)))


def run_feddualavg(
    inst: Instance, K: int, R: int, eta_c: float, noisy: bool, S: int, records, seed_key: str, checks: bool = True
) -> _Run:
    """``R`` rounds of FedDualAvg on ``S`` replicas (``S = 1`` when ``noisy`` is False), recording ``_Run``; the
    per-state checks (:func:`_step_checks`) only with ``checks``."""
    mirror = fco.Euclidean(inst.psi)
    params = fco.CompositeParams("FedDualAvg", eta_c, K, inst.M)
    oracle = oracle_for(inst, noisy)
    rng = np.random.default_rng(seed_for(seed_key))
    S = S if noisy else 1
    state = fco.init(inst.x0, mirror, params, S)
    total = np.zeros((S, inst.problem.dim))
    disc = np.empty((R, K + 1, S))
    gap, overhead, worst = {}, {}, {}
    for r in range(R):
        state, tr = fco.round(state, oracle, mirror, params, rng, trace=True)
        shadows = fco.shadow_primals(tr, mirror, params, r)  # (K+1, S, d): x^(r,k) of eq. (4.16)
        total += shadows[1:].sum(axis=0)
        disc[r] = inst.L * inst.qA(_deviation(tr.y)).mean(axis=-1)
        if checks:
            _step_checks(inst, tr, eta_c, K, noisy, worst)
        if r + 1 in records:
            gap[r + 1] = inst.phi_gap(total / (K * (r + 1)))
            overhead[r + 1] = inst.L / (K * (r + 1)) * disc[: r + 1, :K].sum(axis=(0, 1))
    return _Run(disc, gap, overhead, worst)


# --------------------------------------------------------------------------------------------------
# The fixed-eta_c campaign: Theorem 4.7 / (4.37), Lemma 4.11, Proposition 4.15, Claims 4.16-4.17
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Config:
    kind: str
    noisy: bool
    M: int
    K: int
    scale: float
    eta_L: float

    def instance(self, ctx: Context | str) -> Instance:
        return instance(ctx, self.kind, self.M, self.scale)

    def eta_c(self, ctx: Context | str) -> float:
        return self.eta_L / self.instance(ctx).L

    def labels(self) -> dict:
        return {
            "psi": self.kind,
            "sigma": "s = 0.5" if self.noisy else "0",
            "M": self.M,
            "K": self.K,
            "s_het": self.scale,
            "eta_c L": self.eta_L,
        }


def scales(quick: bool) -> tuple[float, ...]:
    return (1.0, 10.0) if quick else (0.1, 1.0, 10.0)


def replicas(quick: bool) -> int:
    """Monte Carlo replicas of every run with noise."""
    return 64 if quick else 200


def _plan(quick: bool) -> tuple[list[_Config], int, tuple[int, ...], int]:
    """Configurations, ``R``, the recorded ``R' <= R`` and replicas of the fixed-eta_c campaign."""
    Ks, etas = ((1, 10), (0.25,)) if quick else ((1, 5, 10), (0.25, 1 / 16))
    configs = [
        _Config(kind, noisy, M, K, scale, eta_L)
        for kind in PSIS
        for noisy in (False, True)
        for M in (2, 8)
        for K in Ks
        for scale in scales(quick)
        for eta_L in etas
    ]
    R, records = (30, (10, 30)) if quick else (100, (10, 30, 100))
    return configs, R, records, replicas(quick)


@family(f"{PAPER}/quadratic-heterogeneity-campaign")
def campaign(fam: Family) -> dict:
    """The fixed-eta_c campaign: one traced run per configuration, each seeded from its configuration."""
    configs, R, records, S = _plan(fam.quick)
    return {
        c: run_feddualavg(
            c.instance(fam.profile),
            c.K,
            R,
            c.eta_c(fam.profile),
            c.noisy,
            S,
            set(records),
            f"{PAPER}/quadratic-heterogeneity:{c}",
        )
        for c in configs
    }


def estimated(samples: Points, family_size: int) -> Points:
    """The points of ``samples``, whose measured values are sample arrays, as means with simultaneous 99% intervals
    (Bonferroni over ``family_size`` estimates), with their bounds and parameters; a single sample (a deterministic
    run) is exact: ``lo = hi = value``."""
    mean, lo, hi = [], [], []
    for s in samples.measured:
        s = np.asarray(s, dtype=float)
        if s.shape[0] == 1:
            mean.append(float(s[0]))
            lo.append(float(s[0]))
            hi.append(float(s[0]))
        else:
            est = mc_mean(s, family_size=family_size)
            mean.append(float(est.mean))
            lo.append(float(est.lo))
            hi.append(float(est.hi))
    return Points(mean, list(samples.bound), lo, hi, {k: list(v) for k, v in samples.grid.items()})


def rhs_437(inst: Instance, noisy: bool, M: int, K: int, R: int, eta_c: float, reading: str) -> float:
    """``B^2/(eta_c K R) + eta_c sigma^2/M + 7 eta_c^2 L K sigma^2 + 14 eta_c^2 L K^2 zeta^2`` (4.37)."""
    s2 = inst.sigma2(NOISE) if noisy else 0.0
    return (
        inst.B2 / (eta_c * K * R)
        + eta_c * s2 / M
        + 7 * eta_c**2 * inst.L * K * s2
        + 14 * eta_c**2 * inst.L * K**2 * inst.zeta2(reading)
    )


def lem411_bound(inst: Instance, noisy: bool, K: int, eta_c: float, reading: str) -> float:
    """``7 eta_c^2 K sigma^2 + 14 eta_c^2 K^2 zeta^2`` (Lemma 4.11)."""
    s2 = inst.sigma2(NOISE) if noisy else 0.0
    return 7 * eta_c**2 * K * s2 + 14 * eta_c**2 * K**2 * inst.zeta2(reading)


def common_witness(ctx: Context, reading: str | None) -> dict:
    _, R, records, S = _plan(ctx.quick)
    out = {
        "runs": f"FedDualAvg, eta_s = 1, x^(0,0) = 0, R = {R} rounds (outputs at R' in {list(records)}), {S} replicas "
        "when sigma > 0, one exact run when sigma = 0",
        "instances": instances_witness(ctx),
    }
    if reading is not None:
        out["zeta"] = READING_TEXT[reading]
    return out


# --------------------------------------------------------------------------------------------------
# Witness search: exact FedDualAvg on two-coordinate diagonal quadratics (closed-form prox, sigma = 0)
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Diagonal:
    """``F_m(x) = sum_i a_i x_i^2/2 - c_mi x_i`` (shared diagonal Hessian ``diag(a)``, ``L = max a``) with ``psi``
    either ``lam ||x||_1`` (``rho = None``) or the indicator of the box ``[-rho, rho]^d`` (``lam = 0``); ``h =
    ||x||_2^2/2``, start ``x0`` in ``dom psi``. Everything decouples per coordinate: ``x*``, ``Phi*``, ``Z_het`` and
    the bounded-gradient constant ``G`` over the box are in closed form."""

    a: np.ndarray
    c: np.ndarray  # (M, d)
    lam: float
    rho: float | None
    x0: np.ndarray

    def prox(self, y: np.ndarray, t: float) -> np.ndarray:
        """``grad (h + t psi)^*(y)``: soft-thresholding at ``t lam``, or the projection on the box."""
        if self.rho is not None:
            return np.minimum(np.maximum(y, -self.rho), self.rho)
        return y - np.minimum(np.maximum(y, -t * self.lam), t * self.lam)

    @property
    def L(self) -> float:
        return float(self.a.max())

    @property
    def x_star(self) -> np.ndarray:
        cbar = self.c.mean(axis=0)
        return self.prox(cbar, 1.0) / self.a if self.rho is None else np.clip(cbar / self.a, -self.rho, self.rho)

    @property
    def B2(self) -> float:
        return 0.5 * float(np.sum((self.x_star - self.x0) ** 2))

    @property
    def Z_het(self) -> float:
        """``max_m ||grad F_m - grad F||_*`` in the norm of Assumption 4.2(c): ``sqrt(L u' A^-1 u)``."""
        u = self.c - self.c.mean(axis=0)
        return float(np.sqrt(self.L * np.max(np.sum(u**2 / self.a, axis=1))))

    @property
    def G(self) -> float:
        """``max_m sup_{x in box} ||grad F_m(x)||_2 = max_m ||a rho + |c_m| ||_2`` (Assumption C.1, sigma = 0)."""
        return float(np.sqrt(np.max(np.sum((self.a * self.rho + np.abs(self.c)) ** 2, axis=1))))

    def gap(self, x: np.ndarray) -> float:
        """``Phi(x) - Phi*`` as ``e'Ae/2 + grad F(x*)'e + psi(x) - psi(x*)`` (no cancellation against ``F*``)."""
        xs, e = self.x_star, x - self.x_star
        psi = 0.0 if self.rho is not None else self.lam * float(np.sum(np.abs(x)) - np.sum(np.abs(xs)))
        return float(0.5 * np.sum(self.a * e**2) + (self.a * xs - self.c.mean(axis=0)) @ e + psi)

    def feddualavg(self, eta_c: float, K: int, R: int) -> tuple[np.ndarray, float]:
        """Exact FedDualAvg (``eta_s = 1``, full participation) for ``R`` rounds: the output (4.9), ``(1/(KR))
        sum_{r<R} sum_{k=1}^K grad (h + eta_c (rK + k) psi)^*(ybar^(r,k))``, and the overhead of (4.37),
        ``(L/(KR)) sum_r sum_{k<K} (1/M) sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2``."""
        y = np.tile(self.x0, (len(self.c), 1))  # grad h(x0) = x0
        total, overhead, inv_a = np.zeros_like(self.x0), 0.0, 1.0 / self.a
        for r in range(R):
            for k in range(K):
                t = eta_c * (r * K + k)
                if k:
                    overhead += float(np.sum((y - y.mean(axis=0)) ** 2 @ inv_a))
                y -= eta_c * (self.a * self.prox(y, t) - self.c)
                total += self.prox(y.mean(axis=0), t + eta_c)
            y[:] = y.mean(axis=0)
        overhead *= self.L / len(self.c)
        return total / (K * R), self.L * overhead / (K * R)


def diagonal(kappa, lam_or_rho, cbar, phi_c, het, phi_u, M, start, phi_0, box: bool = False) -> Diagonal:
    """The instance with ``a = (1, 1/kappa)``, ``cbar = cbar (cos phi_c, sin phi_c)``, client offsets ``u_m = het
    (cos(phi_u + 2 pi m/M), sin(...))`` (centred for ``M >= 2``), and ``x0 = start (cos phi_0, sin phi_0)``, or in
    the box ``[-rho, rho]^2`` the point at the fraction ``start`` of the way from the centre to the boundary in that
    direction."""
    a = np.array([1.0, 1.0 / kappa])
    angles = phi_u + 2 * np.pi * np.arange(M) / M
    u = het * np.stack([np.cos(angles), np.sin(angles)], axis=1) if M > 1 else np.zeros((1, 2))
    c = cbar * np.array([np.cos(phi_c), np.sin(phi_c)]) + u
    direction = np.array([np.cos(phi_0), np.sin(phi_0)])
    if box:  # start in (0, 1]: the fraction of the way from the centre to the boundary of the box
        return Diagonal(a, c, 0.0, lam_or_rho, start * lam_or_rho * direction / np.max(np.abs(direction)))
    return Diagonal(a, c, lam_or_rho, None, start * direction)


def diagonal_engine_check() -> float:
    """``max |x^ - x^_fco|`` between :meth:`Diagonal.feddualavg` and ``fco.run`` (ergodic output (4.9)) on one
    l1 instance and one box instance (M = 3, K = 4, R = 6): the search's engine against the library's."""
    worst = 0.0
    for box, psi in ((False, L1(0.3)), (True, Box(-0.5, 0.5))):
        inst = diagonal(10.0, 0.5 if box else 0.3, 1.0, 0.4, 0.7, 0.2, 3, 0.8, 2.0, box=box)
        problem = FederatedQuadratic(np.diag(inst.a), inst.c, 0.0)
        params = fco.CompositeParams("FedDualAvg", 0.2, 4, 3)
        traj = fco.run(
            ExactGradient(problem), fco.Euclidean(psi), inst.x0, params, 6, np.random.default_rng(0), ergodic=True
        )
        worst = max(worst, float(np.max(np.abs(traj.x_hat[-1, 0] - inst.feddualavg(0.2, 4, 6)[0]))))
    return worst
