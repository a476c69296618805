"""FedDualAvg under bounded heterogeneity on quadratics (thesis section 4.4): Theorem 4.7 ((4.13), (4.37), the tuned
rate, the R-independent part at fixed eta_c), Lemma 4.11 and its chain (Proposition 4.15, Claims 4.16-4.19, the
deterministic step (4.32)-(4.36), the convexity step), Remark 4.6 (LASSO).

Instances (Assumption 4.2, line 1862). ``d = 10``, one Hessian ``A = QQ'/d + 0.2 I`` (``Q`` standard normal, seeded)
shared by every client, ``F_m(x) = x'Ax/2 - c_m'x`` with ``c_m = cbar + s_het u_m`` (``cbar`` standard normal,
``u_m`` standard normal and centred over the ``M`` clients, seeded per ``M``), so ``F(x) = x'Ax/2 - cbar'x`` is the
same quadratic for every ``M`` and heterogeneity scale ``s_het``. Gradients are exact (``sigma = 0``) or carry
additive noise ``N(0, s^2 I)``, ``s = 0.5``, independent across clients, steps and replicas. ``psi`` is one of
``0.3 ||x||_1``, the indicator of the l2 ball of radius ``||A^-1 cbar||_2 / 2`` (active) and ``0.8 ||X||_nuc`` on
``X`` = the first 9 coordinates as a 3x3 matrix, the last coordinate free (:class:`~fedtheory.regularizers.Masked`);
``h = ||x||_2^2/2``, ``x^(0,0) = 0`` (in every ``dom psi``), ``eta_s = 1``. ``x*`` and ``Phi*`` come from
:func:`fedtheory.reference.composite_optimum` (KKT certificate in the witnesses). Remark 4.6 uses a LASSO with one
design shared by the clients (:func:`_lasso`).

Constants, in the norm of Assumption 4.2(c), ``||x|| = sqrt(x'Ax/||A||_2)``, whose dual is
``||y||_* = sqrt(||A||_2 y'A^-1 y)`` (Claim 4.19): ``L = ||A||_2`` (every ``f(.; xi)`` has Hessian ``A``),
``sigma^2 = ||A||_2 s^2 tr(A^-1)`` (Assumption 4.1(d) with equality), ``B^2 = D_h(x*, 0) = ||x*||^2/2`` and
``Z_het = max_m sup_x ||grad F_m(x) - grad F(x)||_* = s_het max_m ||u_m||_*``.

The reading of zeta. Eq. (4.12) prints ``||grad F_m - grad F||_* <= zeta^2`` (a norm bounded by a square), while
Assumption 2.3, which Remark 4.6 says it extends, bounds the *squared* norm by ``zeta^2``, and the proof of Claim 4.18
(line 2298) uses ``||delta_m||_*^2 <= zeta^2``. The claims whose bounds contain zeta are checked *as printed*, with the
smallest ``zeta`` that (4.12) admits, ``zeta^2 = Z_het``, and, where that fails, *corrected* (``:corrected``) with
``zeta = Z_het``. As printed, the left sides scale like ``s_het^2`` and the heterogeneity terms of the bounds like
``s_het``, so the grids hold ``s_het`` in {1, 10} (full: also 0.1).

Expectations: a quantity quadratic in the Gaussian noise given ``F^(r,k)`` (Proposition 4.15, Claim 4.17) is taken in
closed form (``E||v - eta_c (eps_m1 - eps_m2)||^2_{A^-1} = ||v||^2_{A^-1} + 2 eta_c^2 s^2 tr(A^-1)``) at every state
the runs visit; everything else is a Monte Carlo mean over replicas (all replicas and clients advance in one numpy
operation) with simultaneous 99% intervals (:func:`fedtheory.fit.mc_mean`, Bonferroni over the claim's estimates),
and exact (one deterministic run) at ``sigma = 0``.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``; Assumption 2.3 at line 175, output (4.9) at 1846, Assumption 4.2
at 1862-1872, Remark 4.6 at 1874, Theorem 4.7 at 1878-1890, Lemma 4.11 at 1924-1926, Proposition 4.15 at 2102-2107,
Claims 4.16-4.19 at 2115-2133, the proofs of Proposition 4.15 at 2137-2147, of Lemma 4.11 at 2151-2172, of Claim 4.16
at 2176-2212, of Claim 4.17 at 2218-2290 ((4.32)-(4.36)), of Claims 4.18-4.19 at 2294-2304, (4.37) at 2312.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import cvxpy as cp
import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.fit import mc_mean
from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic, federated_lasso
from fedtheory.problems.composite_data import intercept_mask, with_intercept
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, L2Ball, Masked, NuclearNorm

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


def _record(grid: dict, **values) -> None:
    for key, v in values.items():
        grid.setdefault(key, []).append(v)


# --------------------------------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------------------------------
@cache
def _base() -> tuple[np.ndarray, np.ndarray]:
    """``A = QQ'/d + 0.2 I`` and ``cbar`` (both seeded)."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/quadratic-heterogeneity:base"))
    Q = rng.standard_normal((D, D))
    return Q @ Q.T / D + 0.2 * np.eye(D), rng.standard_normal(D)


def _regularizer(kind: str):
    A, cbar = _base()
    if kind == "l1":
        return L1(0.3)
    if kind == "l2-ball":
        return L2Ball(0.5 * float(np.linalg.norm(np.linalg.solve(A, cbar))))
    mask = np.ones(D, dtype=bool)
    mask[-1] = False
    return Masked(NuclearNorm(0.8), mask, (3, 3))


@cache
def _optimum(kind: str):
    """Certified ``argmin F + psi`` (Clarabel + KKT polish) of the common ``F``."""
    A, cbar = _base()
    return composite_optimum(FederatedQuadratic(A, cbar), _regularizer(kind))


@dataclass(frozen=True)
class _Instance:
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


def _quadratic_instance(A, b, c, psi, ref, x0, witness) -> _Instance:
    problem = FederatedQuadratic(A, b, c)
    A_mean = problem.A_mean
    A_inv = np.linalg.inv(A_mean)
    L = float(np.linalg.eigvalsh(A_mean)[-1])
    dev = problem.b - problem.b_mean
    Z = float(np.sqrt(L * np.max(np.einsum("mi,ij,mj->m", dev, A_inv, dev))))
    x_star = ref.x
    return _Instance(
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


@cache
def _instance(kind: str, M: int, scale: float) -> _Instance:
    A, cbar = _base()
    rng = np.random.default_rng(seed_for(f"{PAPER}/quadratic-heterogeneity:clients:{M}"))
    u = rng.standard_normal((M, D))
    u -= u.mean(axis=0)
    ref = _optimum(kind)
    witness = {
        "x* certificate": {k: ref.certificate[k] for k in ("kkt_residual", "duality_gap") if k in ref.certificate},
        "solver": ref.solver,
    }
    return _quadratic_instance(A, cbar + scale * u, 0.0, _regularizer(kind), ref, np.zeros(D), witness)


def _instances_witness() -> dict:
    A = _base()[0]
    out = {
        "A": "QQ'/10 + 0.2 I (seeded), eigenvalues in "
        f"[{np.linalg.eigvalsh(A)[0]:.4g}, {np.linalg.eigvalsh(A)[-1]:.4g}]",
        "L = ||A||_2": float(np.linalg.eigvalsh(A)[-1]),
        "sigma^2 (s = 0.5)": _instance("l1", 2, 1.0).sigma2(NOISE),
        "x^(0,0)": "0",
    }
    for kind in PSIS:
        inst = _instance(kind, 2, 1.0)
        out[f"psi = {kind}"] = {"B^2": inst.B2, "Phi* certificate": inst.witness}
    for M in (2, 8):
        out[f"Z_het at s_het = 1, M = {M}"] = _instance("l1", M, 1.0).Z_het
    return out


def _oracle(inst: _Instance, noisy: bool):
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


def _pairs(v: np.ndarray, iu) -> np.ndarray:
    """Client differences ``v_{m1} - v_{m2}`` over the pairs ``m1 < m2``: (..., M, d) -> (..., P, d)."""
    return v[..., iu[0], :] - v[..., iu[1], :]


def _deviation(y: np.ndarray) -> np.ndarray:
    """``y_m - ybar`` over the client axis (-2), as ``(y_m - y_1) - mean_m (y_m - y_1)``: exactly 0 when every client
    holds the same state (the broadcast state at ``k = 0``)."""
    z = y - y[..., :1, :]
    return z - z.mean(axis=-2, keepdims=True)


def _step_checks(inst: _Instance, tr, eta_c: float, K: int, noisy: bool, worst: dict) -> None:
    """Proposition 4.15, Claims 4.16-4.17 and the convexity step of Lemma 4.11 at every state ``F^(r,k)``,
    ``k < K``, of one round's trace (the first :data:`S_STEP` replicas), over every pair of clients ``m1 < m2``."""
    M = inst.M
    iu = np.triu_indices(M, 1)
    x, g, y = tr.x[:, :S_STEP], tr.g[:, :S_STEP], tr.y[:, :S_STEP]  # (K, s, M, d), (K, s, M, d), (K+1, s, M, d)
    grad_m = inst.problem.client_grad(x)
    delta = grad_m - inst.problem.grad(x)  # delta_m^(r,k) = grad F_m(x_m) - grad F(x_m)
    eps = g - grad_m  # realised eps_m^(r,k)
    dy, dy1 = _pairs(y[:-1], iu), _pairs(y[1:], iu)
    dAx, dd, de = _pairs(x, iu) @ inst.A, _pairs(delta, iu), _pairs(eps, iu)
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
        q_pairs = inst.qA(_pairs(y, iu))  # (K+1, s, P)
        avg = inst.qA(_deviation(y)).mean(axis=-1)  # (K+1, s)
        _keep(worst, "jensen every pair", _worst(avg, q_pairs.min(axis=-1)))
        _keep(worst, "jensen max pair", _worst(avg, q_pairs.max(axis=-1)))


def _run(
    inst: _Instance, K: int, R: int, eta_c: float, noisy: bool, S: int, records, seed_key: str, checks: bool = True
) -> _Run:
    """``R`` rounds of FedDualAvg on ``S`` replicas (``S = 1`` when ``noisy`` is False), recording ``_Run``; the
    per-state checks (:func:`_step_checks`) only with ``checks``."""
    mirror = fco.Euclidean(inst.psi)
    params = fco.CompositeParams("FedDualAvg", eta_c, K, inst.M)
    oracle = _oracle(inst, noisy)
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

    def instance(self) -> _Instance:
        return _instance(self.kind, self.M, self.scale)

    def eta_c(self) -> float:
        return self.eta_L / self.instance().L

    def labels(self) -> dict:
        return {
            "psi": self.kind,
            "sigma": "s = 0.5" if self.noisy else "0",
            "M": self.M,
            "K": self.K,
            "s_het": self.scale,
            "eta_c L": self.eta_L,
        }


def _scales(quick: bool) -> tuple[float, ...]:
    return (1.0, 10.0) if quick else (0.1, 1.0, 10.0)


def _replicas(quick: bool) -> int:
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
        for scale in _scales(quick)
        for eta_L in etas
    ]
    R, records = (30, (10, 30)) if quick else (100, (10, 30, 100))
    return configs, R, records, _replicas(quick)


@cache
def _campaign(quick: bool) -> dict:
    configs, R, records, S = _plan(quick)
    return {
        c: _run(c.instance(), c.K, R, c.eta_c(), c.noisy, S, set(records), f"{PAPER}/quadratic-heterogeneity:{c}")
        for c in configs
    }


def _estimates(samples: list, family: int) -> tuple[list, list, list]:
    """Means and simultaneous 99% intervals; a single sample (a deterministic run) is exact: ``lo = hi = value``."""
    mean, lo, hi = [], [], []
    for s in samples:
        s = np.asarray(s, dtype=float)
        if s.shape[0] == 1:
            mean.append(float(s[0]))
            lo.append(float(s[0]))
            hi.append(float(s[0]))
        else:
            est = mc_mean(s, family_size=family)
            mean.append(float(est.mean))
            lo.append(float(est.lo))
            hi.append(float(est.hi))
    return mean, lo, hi


def _rhs_437(inst: _Instance, noisy: bool, M: int, K: int, R: int, eta_c: float, reading: str) -> float:
    """``B^2/(eta_c K R) + eta_c sigma^2/M + 7 eta_c^2 L K sigma^2 + 14 eta_c^2 L K^2 zeta^2`` (4.37)."""
    s2 = inst.sigma2(NOISE) if noisy else 0.0
    return (
        inst.B2 / (eta_c * K * R)
        + eta_c * s2 / M
        + 7 * eta_c**2 * inst.L * K * s2
        + 14 * eta_c**2 * inst.L * K**2 * inst.zeta2(reading)
    )


def _lem411_bound(inst: _Instance, noisy: bool, K: int, eta_c: float, reading: str) -> float:
    """``7 eta_c^2 K sigma^2 + 14 eta_c^2 K^2 zeta^2`` (Lemma 4.11)."""
    s2 = inst.sigma2(NOISE) if noisy else 0.0
    return 7 * eta_c**2 * K * s2 + 14 * eta_c**2 * K**2 * inst.zeta2(reading)


def _common_witness(ctx: Context, reading: str | None) -> dict:
    _, R, records, S = _plan(ctx.quick)
    out = {
        "runs": f"FedDualAvg, eta_s = 1, x^(0,0) = 0, R = {R} rounds (outputs at R' in {list(records)}), {S} replicas "
        "when sigma > 0, one exact run when sigma = 0",
        "instances": _instances_witness(),
    }
    if reading is not None:
        out["zeta"] = READING_TEXT[reading]
    return out


def _lem411(ctx: Context, reading: str) -> Evidence:
    runs = _campaign(ctx.quick)
    family = sum(run.disc[..., 0].size for run in runs.values() if run.disc.shape[-1] > 1)
    measured, lo, hi, bound, grid = [], [], [], [], {}
    for c, run in runs.items():
        R = run.disc.shape[0]
        if run.disc.shape[-1] == 1:  # sigma = 0: one exact run
            mean = low = high = run.disc[..., 0]
        else:
            est = mc_mean(run.disc, axis=-1, family_size=family)
            mean, low, high = est.mean, est.lo, est.hi
        measured.append(mean.ravel())
        lo.append(low.ravel())
        hi.append(high.ravel())
        bound.append(np.full(mean.size, _lem411_bound(c.instance(), c.noisy, c.K, c.eta_c(), reading)))
        rr, kk = np.meshgrid(np.arange(R), np.arange(c.K + 1), indexing="ij")
        for key, value in c.labels().items():
            grid.setdefault(key, []).extend([value] * mean.size)
        grid.setdefault("r", []).extend(rr.ravel().tolist())
        grid.setdefault("k", []).extend(kk.ravel().tolist())
    return Evidence(
        measured=np.concatenate(measured),
        bound=np.concatenate(bound),
        relation="<=",
        rtol=1e-9,
        interval=(np.concatenate(lo), np.concatenate(hi)),
        grid=grid,
        witness={
            **_common_witness(ctx, reading),
            "measured": "(1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||_*^2, ||y||_*^2 = ||A||_2 y'A^-1 y (Claim 4.19)",
            "largest ratio to the bound per configuration": _ratios_by_config(runs, reading),
        },
    )


def _ratios_by_config(runs: dict, reading: str) -> list:
    out = []
    for c, run in runs.items():
        b = _lem411_bound(c.instance(), c.noisy, c.K, c.eta_c(), reading)
        out.append({**c.labels(), "max_(r,k) mean / bound": float(run.disc.mean(axis=-1).max() / b)})
    return out


LEM_411_STATEMENT = (
    "For every k in {{0..K}} and every round r: (1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||_*^2 <= 7 eta_c^2 K sigma^2 + "
    "14 eta_c^2 K^2 zeta^2 (FedDualAvg, eta_s = 1, eta_c <= 1/(4L)), with {zeta}; shared-Hessian quadratics (d = 10) "
    "with psi in {{l1, l2 ball, masked nuclear}}, sigma in {{0, s = 0.5}}, M in {{2, 8}}, K in {{1, 10}} (full: also "
    "5), s_het in {{1, 10}} (full: also 0.1), eta_c = 1/(4L) (full: also 1/(16L)), R = 30 (full: 100): Monte Carlo "
    "(64 replicas; full 200; simultaneous 99% intervals) and exact at sigma = 0."
)


@claim(
    f"{PAPER}/lem-4.11",
    source="Lemma 4.11, lines 1924-1926 (zeta of Assumption 4.2(a), (4.12), line 1866)",
    statement=LEM_411_STATEMENT.format(zeta="zeta^2 = Z_het, the smallest value (4.12) admits as printed"),
    expect="fails",
)
def lem_411(ctx: Context) -> Evidence:
    return _lem411(ctx, "printed")


@claim(
    f"{PAPER}/lem-4.11:corrected",
    source="Lemma 4.11, lines 1924-1926, with (4.12) read as ||grad F_m - grad F||_* <= zeta (Assumption 2.3, line "
    "175; proof of Claim 4.18, line 2298)",
    statement=LEM_411_STATEMENT.format(zeta="zeta = Z_het = max_m sup_x ||grad F_m(x) - grad F(x)||_*"),
    expect="holds",
)
def lem_411_corrected(ctx: Context) -> Evidence:
    return _lem411(ctx, "corrected")


def _state_evidence(ctx: Context, key, relation: str = "<=", rtol: float = 1e-9, note: str = "") -> Evidence:
    """Per-configuration worst visited state of one per-state inequality (``key`` of ``_Run.worst``)."""
    runs = _campaign(ctx.quick)
    measured, bound, grid = [], [], {}
    for c, run in runs.items():
        if key not in run.worst or run.worst[key][0] == -np.inf:  # absent, or 0 <= 0 at every state
            continue
        _, lhs, rhs = run.worst[key]
        measured.append(lhs)
        bound.append(rhs)
        _record(grid, **c.labels())
    reading = key[1] if isinstance(key, tuple) else None
    witness = {
        **_common_witness(ctx, reading),
        "states": f"every F^(r,k), k < K, of the first {S_STEP} replicas of every run and every pair m1 < m2; each "
        "entry is a configuration's worst state (largest (lhs - rhs)/rhs)",
    }
    if note:
        witness["note"] = note
    return Evidence(measured=measured, bound=bound, relation=relation, rtol=rtol, grid=grid, witness=witness)


PROP_415_STATEMENT = (
    "At every state F^(r,k) visited by the runs of lem-4.11 (first {s} replicas) and every pair m1 != m2: "
    "E[||y_m1^(r,k+1) - y_m2^(r,k+1)||^2_(A^-1) | F^(r,k)] <= (1 + 1/K)||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) + 2(1 + "
    "1/K) eta_c^2 sigma^2/||A|| + 4(1 + K) eta_c^2 zeta^2/||A||, with {zeta}; the left side exactly (Gaussian noise: "
    "||v||^2_(A^-1) + 2 eta_c^2 s^2 tr(A^-1))."
)


@claim(
    f"{PAPER}/prop-4.15",
    source="Proposition 4.15, lines 2102-2107",
    statement=PROP_415_STATEMENT.format(s=S_STEP, zeta="zeta^2 = Z_het ((4.12) as printed)"),
    expect="fails",
)
def prop_415(ctx: Context) -> Evidence:
    return _state_evidence(ctx, ("prop-4.15", "printed"))


@claim(
    f"{PAPER}/prop-4.15:corrected",
    source="Proposition 4.15, lines 2102-2107, with (4.12) read as ||grad F_m - grad F||_* <= zeta",
    statement=PROP_415_STATEMENT.format(s=S_STEP, zeta="zeta = Z_het"),
    expect="holds",
)
def prop_415_corrected(ctx: Context) -> Evidence:
    return _state_evidence(ctx, ("prop-4.15", "corrected"))


@claim(
    f"{PAPER}/claim-4.16",
    source="Claim 4.16, (4.28), line 2117",
    statement=f"Pathwise (realised noise), at every state of the runs of lem-4.11 (first {S_STEP} replicas) and every "
    "pair m1 != m2: ||y_m1^(r,k+1) - y_m2^(r,k+1)||^2_(A^-1) <= (1 + K) eta_c^2 ||delta_m1 - delta_m2||^2_(A^-1) + (1 "
    "+ 1/K)||y_m1 - y_m2 - eta_c A(x_m1 - x_m2) - eta_c (eps_m1 - eps_m2)||^2_(A^-1) (all at (r,k)).",
    expect="holds",
)
def claim_416(ctx: Context) -> Evidence:
    return _state_evidence(ctx, "claim-4.16")


@claim(
    f"{PAPER}/claim-4.17",
    source="Claim 4.17, lines 2121-2123",
    statement=f"At every state F^(r,k) of the runs of lem-4.11 (first {S_STEP} replicas; eta_c = 1/(4L), full also "
    "1/(16L)) and every pair m1 != m2: E[||y_m1 - y_m2 - eta_c A(x_m1 - x_m2) - eta_c(eps_m1 - eps_m2)||^2_(A^-1) | "
    "F^(r,k)] <= ||y_m1 - y_m2||^2_(A^-1) + 2 eta_c^2 sigma^2 ||A||^-1; the left side exactly (||y_m1 - y_m2 - eta_c "
    "A(x_m1 - x_m2)||^2 + 2 eta_c^2 s^2 tr(A^-1)).",
    expect="holds",
)
def claim_417(ctx: Context) -> Evidence:
    return _state_evidence(
        ctx,
        "claim-4.17",
        note="at a synchronised state (k = 0, y_m1 = y_m2) with noise both sides equal 2 eta_c^2 s^2 tr(A^-1) = 2 "
        "eta_c^2 sigma^2/||A||: the bound is attained",
    )


def _jensen(ctx: Context, key: str) -> Evidence:
    return _state_evidence(ctx, key, note="sigma = 0 runs only (the expectations are the values); norms in A^-1")


@claim(
    f"{PAPER}/lem-4.11:step-jensen",
    source="proof of Lemma 4.11, lines 2151 ('Let m1, m2 be two arbitrary clients') and 2161-2165",
    statement="As printed, for two arbitrary clients m1 != m2: (1/M) sum_m E||ybar^(r,k) - y_m^(r,k)||^2_(A^-1) <= "
    "E||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) ('by convexity'); checked for every pair at every (r,k) of the sigma = 0 "
    "runs of lem-4.11 (exact); each entry is a configuration's worst state against its closest pair.",
    expect="fails",
)
def lem_411_step_jensen(ctx: Context) -> Evidence:
    return _jensen(ctx, "jensen every pair")


@claim(
    f"{PAPER}/lem-4.11:step-jensen-corrected",
    source="proof of Lemma 4.11, lines 2161-2165, with the pair (m1, m2) maximising the right side",
    statement="(1/M) sum_m ||ybar^(r,k) - y_m^(r,k)||^2_(A^-1) <= max_(m1, m2) ||y_m1^(r,k) - y_m2^(r,k)||^2_(A^-1) "
    "(what the proof needs, since its bound on E||y_m1 - y_m2||^2 is uniform over pairs), at every (r,k) of the "
    "sigma = 0 runs of lem-4.11 (exact).",
    expect="holds",
)
def lem_411_step_jensen_corrected(ctx: Context) -> Evidence:
    return _jensen(ctx, "jensen max pair")


# --------------------------------------------------------------------------------------------------
# Theorem 4.7 at fixed eta_c: (4.37), (4.13)
# --------------------------------------------------------------------------------------------------
def _theorem_entries(ctx: Context, reading: str):
    """Per (configuration, recorded R'): gap samples, the (4.37) right side, the overhead samples, the labels."""
    runs = _campaign(ctx.quick)
    out = []
    for c, run in runs.items():
        inst = c.instance()
        for R in sorted(run.gap):
            rhs = _rhs_437(inst, c.noisy, c.M, c.K, R, c.eta_c(), reading)
            out.append((c, R, run.gap[R], rhs, run.overhead[R]))
    return out


THM_47_GRID = (
    "FedDualAvg (eta_s = 1) on shared-Hessian quadratics (d = 10) with psi in {l1, l2 ball, masked nuclear}, sigma "
    "in {0, s = 0.5}, (M, K, R) in {2, 8} x {1, 10} x {10, 30} (full: K also 5, R also 100), s_het in {1, 10} (full: "
    "also 0.1), eta_c = 1/(4L) (full: also 1/(16L)); Monte Carlo (64 replicas; full 200; simultaneous 99% "
    "intervals), exact at sigma = 0"
)
HOMOGENEOUS_GRID = (
    "; and identical clients (s_het = 0, zeta = 0) with sigma = 0, M = 2, K in {1, 5, 10}, R in {10, 100} (full: "
    "also 1000), exact (spec V10(i): the bound is B^2/(eta_c K R))"
)


def _homogeneous_R(quick: bool) -> tuple[int, ...]:
    return (10, 100) if quick else (10, 100, 1000)


@cache
def _homogeneous(quick: bool) -> list:
    """Exact runs with identical clients (``s_het = 0``, ``zeta = 0``) and ``sigma = 0`` (spec V10(i)): FedDualAvg is
    then dual averaging for ``KR`` steps and (4.37) reduces to ``B^2/(eta_c K R)``."""
    Rs = _homogeneous_R(quick)
    out = []
    for kind in PSIS:
        inst = _instance(kind, 2, 0.0)
        for K in (1, 5, 10):
            key = f"{PAPER}/quadratic-heterogeneity:homogeneous:{kind}:{K}"
            run = _run(inst, K, Rs[-1], 0.25 / inst.L, False, 1, set(Rs), key, checks=False)
            out.extend((kind, K, R, inst, run.gap[R]) for R in Rs)
    return out


def _thm47(ctx: Context, reading: str) -> Evidence:
    entries = _theorem_entries(ctx, reading)
    family = sum(np.size(e[2]) > 1 for e in entries)
    measured, lo, hi = _estimates([e[2] for e in entries], family)
    bound, grid = [e[3] for e in entries], {}
    for c, R, *_ in entries:
        _record(grid, **c.labels(), R=R)
    slopes = {}
    for kind, K, R, inst, gap in _homogeneous(ctx.quick):
        value = float(gap[0])
        measured.append(value)
        lo.append(value)
        hi.append(value)
        bound.append(_rhs_437(inst, False, 2, K, R, 0.25 / inst.L, reading))
        _record(grid, psi=kind, sigma="0", M=2, K=K, s_het=0.0, R=R, **{"eta_c L": 0.25})
        slopes.setdefault(f"{kind}, K = {K}", []).append((R, value))
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        interval=(lo, hi),
        grid=grid,
        witness={
            **_common_witness(ctx, reading),
            "measured": "E Phi(x^) - Phi(x*), x^ the output (4.9)",
            "identical clients (s_het = 0, sigma = 0): log-log slope of the gap in R (B^2/(eta_c K R) has -1)": {
                key: float(np.polyfit(np.log([r for r, _ in v]), np.log([g for _, g in v]), 1)[0])
                for key, v in slopes.items()
            },
        },
    )


THM_47_STATEMENT = (
    "E Phi(x^) - Phi(x*) <= B^2/(eta_c K R) + eta_c sigma^2/M + 7 eta_c^2 L K sigma^2 + 14 eta_c^2 L K^2 zeta^2 "
    "((4.13) with its '<~' as the '<=' that (4.37) proves) for x^ of (4.9), with {zeta}; "
)


@claim(
    f"{PAPER}/thm-4.7",
    source="Theorem 4.7, (4.13), line 1880, with the constants of (4.37), line 2312 ((4.13) prints the same right-hand "
    "side with '<~', which an unspecified constant makes unrefutable; this explicit reading is what is checked)",
    statement=THM_47_STATEMENT.format(zeta="zeta^2 = Z_het ((4.12) as printed)") + THM_47_GRID + HOMOGENEOUS_GRID + ".",
    expect="holds",
)
def thm_47(ctx: Context) -> Evidence:
    return _thm47(ctx, "printed")


def _eq437(ctx: Context, reading: str) -> Evidence:
    entries = _theorem_entries(ctx, reading)
    samples, bound, grid = [], [], {}
    for c, R, gap, _, overhead in entries:
        inst, eta_c = c.instance(), c.eta_c()
        s2 = inst.sigma2(NOISE) if c.noisy else 0.0
        samples.append(gap - overhead)  # paired: gap <= B^2/(eta_c K R) + eta_c sigma^2/M + overhead
        bound.append(inst.B2 / (eta_c * c.K * R) + eta_c * s2 / c.M)
        _record(grid, **c.labels(), R=R, step="first (Lemma 4.9): E gap - overhead <= B^2/(eta_c K R) + eta_c s^2/M")
        samples.append(overhead)
        bound.append(inst.L * _lem411_bound(inst, c.noisy, c.K, eta_c, reading))
        _record(
            grid, **c.labels(), R=R, step="second (Lemma 4.11): overhead <= L(7 eta_c^2 K s^2 + 14 eta_c^2 K^2 z^2)"
        )
    family = sum(np.size(s) > 1 for s in samples)
    measured, lo, hi = _estimates(samples, family)
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        interval=(lo, hi),
        grid=grid,
        witness={
            **_common_witness(ctx, reading),
            "overhead": "(L/(M K R)) sum_{r<R} sum_{k<K} sum_m ||ybar^(r,k) - y_m^(r,k)||_*^2 (per replica)",
        },
    )


EQ_437_STATEMENT = (
    "Both inequalities of (4.37): E Phi(x^) - Phi(x*) <= B^2/(eta_c K R) + eta_c sigma^2/M + (L/(M K R)) sum_r "
    "sum_(k<K) sum_m E||ybar^(r,k) - y_m^(r,k)||_*^2 (by Lemma 4.9; checked as a paired Monte Carlo mean) <= "
    "B^2/(eta_c K R) + eta_c sigma^2/M + L(7 eta_c^2 K sigma^2 + 14 eta_c^2 K^2 zeta^2) (by Lemma 4.11), with "
    "{zeta}; "
)


@claim(
    f"{PAPER}/eq-4.37",
    source="proof of Theorem 4.7, (4.37), line 2312",
    statement=EQ_437_STATEMENT.format(zeta="zeta^2 = Z_het ((4.12) as printed)") + THM_47_GRID + ".",
    expect="holds",
)
def eq_437(ctx: Context) -> Evidence:
    return _eq437(ctx, "printed")


# --------------------------------------------------------------------------------------------------
# Theorem 4.7 at the prescribed eta_c, and the R-independent part at fixed eta_c
# --------------------------------------------------------------------------------------------------
def _tuned_bound(inst: _Instance, noisy: bool, M: int, K: int, R: int, reading: str) -> float:
    """``4LB^2/(KR) + 2 sigma B/(MKR)^(1/2) + 8 L^(1/3) B^(4/3) sigma^(2/3)/(K^(1/3) R^(2/3)) + 15 L^(1/3) B^(4/3)
    zeta^(2/3)/R^(2/3)`` (Theorem 4.7, line 1890)."""
    L, B = inst.L, np.sqrt(inst.B2)
    sigma = np.sqrt(inst.sigma2(NOISE)) if noisy else 0.0
    zeta = np.sqrt(inst.zeta2(reading))
    return float(
        4 * L * B**2 / (K * R)
        + 2 * sigma * B / np.sqrt(M * K * R)
        + 8 * L ** (1 / 3) * B ** (4 / 3) * sigma ** (2 / 3) / (K ** (1 / 3) * R ** (2 / 3))
        + 15 * L ** (1 / 3) * B ** (4 / 3) * zeta ** (2 / 3) / R ** (2 / 3)
    )


def _tuned_mkr(quick: bool) -> tuple[tuple[int, int, int], ...]:
    if quick:
        return (2, 10, 10), (8, 1, 30), (8, 10, 30)
    return (2, 10, 10), (8, 1, 30), (8, 10, 30), (2, 1, 100), (8, 5, 100), (8, 10, 100)


@cache
def _tuned(quick: bool, reading: str) -> list:
    S = _replicas(quick)
    out = []
    for kind in PSIS:
        for noisy in (False, True):
            for scale in _scales(quick):
                for M, K, R in _tuned_mkr(quick):
                    inst = _instance(kind, M, scale)
                    sigma = np.sqrt(inst.sigma2(NOISE)) if noisy else 0.0
                    params = fco.prescribed_thm_4_7(
                        inst.L, np.sqrt(inst.B2), sigma, np.sqrt(inst.zeta2(reading)), M, K, R
                    )
                    key = f"{PAPER}/quadratic-heterogeneity:tuned:{reading}:{kind}:{noisy}:{scale}:{M}:{K}:{R}"
                    run = _run(inst, K, R, params.eta_c, noisy, S, {R}, key, checks=False)
                    out.append((kind, noisy, scale, M, K, R, params.eta_c * inst.L, run.gap[R], inst))
    return out


def _thm47_tuned(ctx: Context, reading: str) -> Evidence:
    entries = _tuned(ctx.quick, reading)
    family = sum(np.size(e[7]) > 1 for e in entries)
    measured, lo, hi = _estimates([e[7] for e in entries], family)
    bound, grid = [], {}
    for kind, noisy, scale, M, K, R, eta_L, _, inst in entries:
        bound.append(_tuned_bound(inst, noisy, M, K, R, reading))
        _record(grid, psi=kind, sigma="s = 0.5" if noisy else "0", s_het=scale, M=M, K=K, R=R, **{"eta_c L": eta_L})
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        interval=(lo, hi),
        grid=grid,
        witness={
            "instances": _instances_witness(),
            "zeta": READING_TEXT[reading],
            "eta_c": "fedtheory.algorithms.composite.prescribed_thm_4_7 (the printed minimum of four terms)",
            "replicas": _replicas(ctx.quick),
        },
    )


TUNED_STATEMENT = (
    "With eta_c = min{{1/(4L), M^(1/2) B/(sigma K^(1/2) R^(1/2)), B^(2/3)/(L^(1/3) K^(2/3) R^(1/3) sigma^(2/3)), "
    "B^(2/3)/(L^(1/3) K R^(1/3) zeta^(2/3))}}: E Phi(x^) - Phi(x*) <= 4LB^2/(KR) + 2 sigma B/(M K R)^(1/2) + 8 "
    "L^(1/3) B^(4/3) sigma^(2/3)/(K^(1/3) R^(2/3)) + 15 L^(1/3) B^(4/3) zeta^(2/3)/R^(2/3), with {zeta}; psi in "
    "{{l1, l2 ball, masked nuclear}}, sigma in {{0, s = 0.5}}, s_het in {{1, 10}} (full: also 0.1), (M, K, R) in "
    "{{(2,10,10), (8,1,30), (8,10,30)}} (full: also (2,1,100), (8,5,100), (8,10,100)); Monte Carlo (64 replicas; "
    "full 200; simultaneous 99% intervals), exact at sigma = 0."
)


@claim(
    f"{PAPER}/thm-4.7:tuned",
    source="Theorem 4.7, lines 1884-1890",
    statement=TUNED_STATEMENT.format(zeta="zeta^2 = Z_het ((4.12) as printed)"),
    expect="holds",
)
def thm_47_tuned(ctx: Context) -> Evidence:
    return _thm47_tuned(ctx, "printed")


def _limit_run(inst: _Instance, K: int, R: int, eta_c: float) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic FedDualAvg (exact gradients, eta_s = 1) for ``R`` rounds: the shadow averages
    ``z_r = (1/K) sum_(k=1..K) x^(r-1,k)`` (eq. (4.16)) of rounds ``R/2`` and ``R``, shape (d,) each. The output (4.9)
    after ``R`` rounds is the running mean of ``z_1, ..., z_R``, so ``lim_R x^ = lim_r z_r`` when the latter exists."""
    mirror = fco.Euclidean(inst.psi)
    params = fco.CompositeParams("FedDualAvg", eta_c, K, inst.M)
    oracle, rng = ExactGradient(inst.problem), np.random.default_rng(0)  # no draws: exact gradients
    state = fco.init(inst.x0, mirror, params, 1)
    z = {}
    for r in range(R):
        if r + 1 in (R // 2, R):
            state, tr = fco.round(state, oracle, mirror, params, rng, trace=True)
            z[r + 1] = fco.shadow_primals(tr, mirror, params, r)[1:].mean(axis=0)[0]
        else:
            state = fco.round(state, oracle, mirror, params, rng)
    return z[R // 2], z[R]


def _floor_R(quick: bool) -> int:
    return 300 if quick else 2000


@cache
def _floor_runs(quick: bool) -> list:
    Ks, etas = ((1, 10), (0.25,)) if quick else ((1, 2, 5, 10), (0.25, 1 / 16))
    out = []
    for kind in PSIS:
        for K in Ks:
            for scale in _scales(quick):
                for eta_L in etas:
                    inst = _instance(kind, 8, scale)
                    out.append((kind, K, scale, eta_L, inst, *_limit_run(inst, K, _floor_R(quick), eta_L / inst.L)))
    return out


def _floor_seen(row: dict, mid: str, last: str) -> bool:
    """A positive limit: the gap at ``R`` exceeds ``1e-10`` and half the gap at ``R/2``."""
    return row[last] > 1e-10 and row[last] >= 0.5 * row[mid]


def _floor(ctx: Context, reading: str) -> Evidence:
    measured, bound, grid, table = [], [], {}, []
    R = _floor_R(ctx.quick)
    mid, last = f"Phi(z_{R // 2}) - Phi*", f"Phi(z_{R}) - Phi*"
    for kind, K, scale, eta_L, inst, z_mid, z_last in _floor_runs(ctx.quick):
        eta_c = eta_L / inst.L
        measured.append(float(inst.phi_gap(z_last)))
        bound.append(14 * eta_c**2 * inst.L * K**2 * inst.zeta2(reading))
        labels = {"psi": kind, "K": K, "s_het": scale, "eta_c L": eta_L}
        _record(grid, **labels)
        table.append(
            {
                **labels,
                mid: float(inst.phi_gap(z_mid)),
                last: measured[-1],
                f"||z_{R} - z_{R // 2}||_2": float(np.linalg.norm(z_last - z_mid)),
                "R-independent part of (4.37)": bound[-1],
            }
        )
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        grid=grid,
        witness={
            "instances": _instances_witness(),
            "zeta": READING_TEXT[reading],
            "measured": f"Phi(z_R) - Phi*, R = {R}, z_r the shadow average of round r (exact "
            "deterministic runs, M = 8): x^ of (4.9) is the running mean of z_1, ..., z_R, so lim_R Phi(x^) - Phi* = "
            "Phi(lim_r z_r) - Phi*",
            "per configuration": table,
            "vanishing or still falling (gap at R below 1e-10 or below half the gap at R/2)": [
                {k: row[k] for k in ("psi", "K", "s_het", "eta_c L")}
                for row in table
                if not _floor_seen(row, mid, last)
            ],
            "levelled off at a positive value (a floor: the error does not vanish)": [
                {k: row[k] for k in ("psi", "K", "s_het", "eta_c L")} for row in table if _floor_seen(row, mid, last)
            ],
        },
    )


FLOOR_STATEMENT = (
    "At a fixed eta_c <= 1/(4L) (not tuned to R), sigma = 0: lim_(R -> infinity) Phi(x^) - Phi(x*) (estimated by "
    "Phi(z_R) - Phi*, z_R the shadow average of round R = 300; full 2000) is at most the R-independent part of "
    "(4.37), eta_c sigma^2/M + 7 eta_c^2 L K sigma^2 + 14 eta_c^2 L K^2 zeta^2 = 14 eta_c^2 L K^2 zeta^2, with "
    "{zeta}; psi in {{l1, l2 ball, masked nuclear}}, M = 8, K in {{1, 10}} (full: 1, 2, 5, 10), s_het in {{1, 10}} "
    "(full: also 0.1), eta_c = 1/(4L) (full: also 1/(16L)); the witness reports where the measured limit is positive."
)


@claim(
    f"{PAPER}/thm-4.7:fixed-eta-floor",
    source="Theorem 4.7, (4.37), line 2312: its right side at fixed eta_c as R -> infinity (spec section 3.3)",
    statement=FLOOR_STATEMENT.format(zeta="zeta^2 = Z_het ((4.12) as printed)"),
    expect="holds",
)
def thm_47_floor(ctx: Context) -> Evidence:
    return _floor(ctx, "printed")


# --------------------------------------------------------------------------------------------------
# Remark 4.6: a LASSO instance of Assumption 4.2
# --------------------------------------------------------------------------------------------------
LASSO_P, LASSO_N, LASSO_M, LASSO_LAM = 20, 100, 8, 0.1


@cache
def _lasso() -> _Instance:
    """Federated LASSO (4.38) with one design shared by all clients and client-specific responses.

    ``F_m(x) = (1/n)||Z x - y_m||^2`` (squared error without 1/2, as (4.38)) with ``Z = [a, 1]`` (``n = 100`` rows,
    ``a ~ N(0, I_20)``, an unpenalised intercept), ``y_m = Z x_true + e_m``, ``x_true = (1_5, 0_15, x0_true)``,
    ``e_m ~ N(0, I_n)`` per client; ``psi = 0.1 ||weights||_1``. Then ``A_m = 2 Z'Z/n`` for every ``m``.
    """
    rng = np.random.default_rng(seed_for(f"{PAPER}/quadratic-heterogeneity:lasso"))
    Z = with_intercept(rng.standard_normal((LASSO_N, LASSO_P)))
    truth = np.append(np.r_[np.ones(5), np.zeros(LASSO_P - 5)], rng.standard_normal())
    y = Z @ truth + rng.standard_normal((LASSO_M, LASSO_N))
    A, b, c = 2 * Z.T @ Z / LASSO_N, 2 * y @ Z / LASSO_N, np.mean(y**2, axis=1)
    psi = Masked(L1(LASSO_LAM), intercept_mask(LASSO_P + 1))
    ref = composite_optimum(FederatedQuadratic(A, b, c), psi)
    witness = {
        "x* certificate": {k: ref.certificate[k] for k in ("kkt_residual", "duality_gap") if k in ref.certificate},
        "nonzero weights of x*": int(np.sum(np.abs(ref.x[:-1]) > 1e-9)),
    }
    return _quadratic_instance(A, b, c, psi, ref, np.zeros(LASSO_P + 1), witness)


def _section_45_lasso_heterogeneity() -> dict:
    """Why the section-4.5 LASSO data do not satisfy Assumption 4.2: client Gram matrices differ."""
    data = federated_lasso(
        np.random.default_rng(seed_for(f"{PAPER}/quadratic-heterogeneity:lasso-4.5")),
        d1=4,
        d0=12,
        n_clients=8,
        n_per_client=32,
    )
    Z = data.smooth.features
    A_m = 2 * np.swapaxes(Z, 1, 2) @ Z / Z.shape[1]
    spread = float(np.max(np.linalg.norm(A_m - A_m.mean(axis=0), ord=2, axis=(1, 2))))
    return {
        "generator": "federated_lasso(d1 = 4, d0 = 12, 8 clients x 32 rows), the section 4.5.2.1 recipe (scaled down)",
        "max_m ||A_m - A||_2": spread,
        "consequence": "grad F_m - grad F = (A_m - A)x - (b_m - b) is unbounded on dom psi = R^d: zeta = infinity, "
        "Assumption 4.2(a) fails for the chapter's own LASSO data; likewise one-row sampled gradients have a "
        "variance that grows with ||x||, so sigma = infinity on R^d (Assumption 4.1(d))",
    }


@claim(
    f"{PAPER}/remark-4.6",
    source="Remark 4.6, line 1874 ('this result still applies to ... LASSO')",
    statement="Theorem 4.7's bound (4.37) (zeta^2 = Z_het, (4.12) as printed) holds on a federated LASSO that "
    "satisfies Assumption 4.2: F_m(x) = (1/n)||Z x - y_m||^2 with one shared design Z (n = 100, 20 features + an "
    "unpenalised intercept), client-specific responses, psi = 0.1||weights||_1, L = ||2Z'Z/n||_2, exact gradients or "
    "additive noise N(0, 0.25 I), M = 8, K in {1, 10}, R in {10, 30}, eta_c = 1/(4L); Monte Carlo (64 replicas; full "
    "200; simultaneous 99% intervals), exact at sigma = 0.",
    expect="holds",
)
def remark_46(ctx: Context) -> Evidence:
    inst = _lasso()
    S = _replicas(ctx.quick)
    samples, bound, grid = [], [], {}
    for noisy in (False, True):
        for K in (1, 10):
            key = f"{PAPER}/quadratic-heterogeneity:lasso-run:{noisy}:{K}"
            run = _run(inst, K, 30, 0.25 / inst.L, noisy, S, {10, 30}, key, checks=False)
            for R in (10, 30):
                samples.append(run.gap[R])
                bound.append(_rhs_437(inst, noisy, LASSO_M, K, R, 0.25 / inst.L, "printed"))
                _record(grid, sigma="s = 0.5" if noisy else "0", K=K, R=R)
    family = sum(np.size(s) > 1 for s in samples)
    measured, lo, hi = _estimates(samples, family)
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        interval=(lo, hi),
        grid=grid,
        witness={
            "constants": {
                "L": inst.L,
                "sigma^2": inst.sigma2(NOISE),
                "Z_het": inst.Z_het,
                "zeta^2 (as printed)": inst.zeta2("printed"),
                "B^2": inst.B2,
            },
            "LASSO instance": inst.witness,
            "section 4.5 LASSO data": _section_45_lasso_heterogeneity(),
        },
    )


# --------------------------------------------------------------------------------------------------
# Claims 4.18, 4.19, the deterministic step (4.32)-(4.36) and the noise step of Claim 4.17
# --------------------------------------------------------------------------------------------------
def _claim418(ctx: Context, reading: str) -> Evidence:
    measured, bound, grid = [], [], {}
    for M in (2, 8, 32):
        for scale in _scales(ctx.quick):
            inst = _instance("l1", M, scale)
            delta = inst.problem.b_mean - inst.problem.b  # grad F_m - grad F = -(c_m - cbar), the same at every x
            iu = np.triu_indices(M, 1)
            measured.append(float(inst.qA(_pairs(delta, iu)).max()))
            bound.append(4 * inst.zeta2(reading) / inst.L)
            _record(grid, M=M, s_het=scale, Z_het=inst.Z_het)
    return Evidence(
        measured=measured,
        bound=bound,
        relation="<=",
        rtol=1e-9,
        grid=grid,
        witness={
            "measured": "max over pairs m1 < m2 of ||delta_m1 - delta_m2||^2_(A^-1) (deterministic and the same at "
            "every x: shared Hessian)",
            "zeta": READING_TEXT[reading],
            "A": "as in the other instances (d = 10)",
        },
    )


CLAIM_418_STATEMENT = (
    "E[||delta_m1^(r,k) - delta_m2^(r,k)||^2_(A^-1) | F^(r,k)] <= 4 ||A||_2^-1 zeta^2 for every pair of clients, "
    "with {zeta}; shared-Hessian quadratics (d = 10), M in {{2, 8, 32}}, s_het in {{1, 10}} (full: also 0.1), exact."
)


@claim(
    f"{PAPER}/claim-4.18",
    source="Claim 4.18, line 2129 (proof at 2294-2302)",
    statement=CLAIM_418_STATEMENT.format(zeta="zeta^2 = Z_het ((4.12) as printed)"),
    expect="fails",
)
def claim_418(ctx: Context) -> Evidence:
    return _claim418(ctx, "printed")


@claim(
    f"{PAPER}/claim-4.18:corrected",
    source="Claim 4.18, line 2129, with (4.12) read as ||grad F_m - grad F||_* <= zeta (as its proof uses, line 2298)",
    statement=CLAIM_418_STATEMENT.format(zeta="zeta = Z_het"),
    expect="holds",
)
def claim_418_corrected(ctx: Context) -> Evidence:
    return _claim418(ctx, "corrected")


def _random_spd(rng: np.random.Generator, d: int, condition: float) -> np.ndarray:
    U, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return U @ np.diag(np.geomspace(1.0, 1.0 / condition, d)) @ U.T


@claim(
    f"{PAPER}/claim-4.19",
    source="Claim 4.19, line 2133 (proof at 2304)",
    statement="The dual of ||x|| = sqrt(x'Ax/||A||_2) is ||y||_* = sqrt(||A||_2 y'A^-1 y): the formula against "
    "sup{<y, x> : x'Ax <= ||A||_2} solved by Clarabel (second-order cone), for the instance's A and random SPD A (d "
    "in {2, 10}, condition numbers 10 and 1e4), 5 random y each; tolerance 1e-6 relative (solver).",
    expect="holds",
)
def claim_419(ctx: Context) -> Evidence:
    rng = ctx.rng()
    mats = [("instance A", _base()[0])]
    mats += [(f"random d = {d}, cond = {k:g}", _random_spd(rng, d, k)) for d in (2, 10) for k in (10.0, 1e4)]
    measured, bound, grid = [], [], {}
    for name, A in mats:
        nA = float(np.linalg.eigvalsh(A)[-1])
        chol = np.linalg.cholesky(A / nA)  # x'Ax/||A|| = ||chol' x||^2
        for j in range(5):
            y = rng.standard_normal(A.shape[0])
            x = cp.Variable(A.shape[0])
            problem = cp.Problem(cp.Maximize(y @ x), [cp.norm(chol.T @ x, 2) <= 1])
            problem.solve(solver=cp.CLARABEL)
            measured.append(float(problem.value))
            bound.append(float(np.sqrt(nA * y @ np.linalg.solve(A, y))))
            _record(grid, A=name, draw=j)
    return Evidence(measured=measured, bound=bound, relation="==", rtol=1e-6, grid=grid)


def _step_draws(rng: np.random.Generator, kind: str, n: int):
    """Random dual pairs with a common ``t``: ``y ~ scale N(0, I)`` (scale in {0.3, 1, 3}), ``t`` in {0, 0.1, 0.5, 1,
    3}; returns ``Dy, Dx`` with ``x_i = grad (h + t psi)^*(y_i) = prox_{t psi}(y_i)``."""
    mirror = fco.Euclidean(_regularizer(kind) if kind != "l2-ball" else L2Ball(1.0))
    dys, dxs = [], []
    for t in (0.0, 0.1, 0.5, 1.0, 3.0):
        scale = rng.choice([0.3, 1.0, 3.0], size=(n, 1))
        y1, y2 = scale * rng.standard_normal((n, D)), scale * rng.standard_normal((n, D))
        dys.append(y1 - y2)
        dxs.append(mirror(y1, t) - mirror(y2, t))
    return np.concatenate(dys), np.concatenate(dxs)


def _step_values(A: np.ndarray, dy: np.ndarray, dx: np.ndarray, c: float) -> dict:
    """(I) + (II), (4.33) and (4.35) at ``eta_c = c/||A||``, divided by ``eta_c ||Dy||^2`` (by ``||Dy||^2`` for
    (4.35))."""
    eta = c / float(np.linalg.eigvalsh(A)[-1])
    quad = np.einsum("ni,ij,nj->n", dx, A, dx)
    norm = np.sum(dy**2, axis=1)
    return {
        "(4.36): (I) + (II) <= 0": (eta**2 * quad - 2 * eta * np.sum(dy * dx, axis=1)) / (eta * norm),
        "(4.33): (I) - 2 eta_c <Dx, grad h(x1) - grad h(x2)> <= 0": (eta**2 * quad - 2 * eta * np.sum(dx**2, axis=1))
        / (eta * norm),
        "(4.35): -<Dx, (y1 - grad h(x1)) - (y2 - grad h(x2))> <= 0": -np.sum(dx * (dy - dx), axis=1) / norm,
    }


@claim(
    f"{PAPER}/eq-4.36",
    source="proof of Claim 4.17, (4.32)-(4.36), lines 2240-2290",
    statement="For x_i = grad(h + t psi)^*(y_i) with the same t, h = ||x||^2/2 and eta_c ||A||_2 <= 1/4: (I) + (II) "
    "= eta_c^2 ||A(x1 - x2)||^2_(A^-1) - 2 eta_c <y1 - y2, x1 - x2> <= 0 (4.36), with its steps (4.33) and (4.35); "
    "psi in {0.3||.||_1, l2 ball of radius 1, 0.8||X||_nuc on a 3x3 block + free coordinate}, the instance's A and "
    "random SPD A (d = 10, condition 10 and 1e4), eta_c ||A|| in {1/8, 1/4}, t in {0, 0.1, 0.5, 1, 3}, 2000 random "
    "pairs each; each value divided by eta_c ||y1 - y2||^2, absolute tolerance 1e-12. The witness sweeps eta_c ||A|| "
    "up to 4.",
    expect="holds",
)
def eq_436(ctx: Context) -> Evidence:
    rng = ctx.rng()
    mats = [("instance A", _base()[0])] + [(f"random, cond = {k:g}", _random_spd(rng, D, k)) for k in (10.0, 1e4)]
    measured, grid, sweep = [], {}, {}
    for kind in PSIS:
        dy, dx = _step_draws(rng, kind, 400)
        for name, A in mats:
            for c in (0.125, 0.25):
                for step, values in _step_values(A, dy, dx, c).items():
                    measured.append(float(values.max()))
                    _record(grid, psi=kind, A=name, **{"eta_c ||A||": c, "step": step})
            for c in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0):
                value = _step_values(A, dy, dx, c)["(4.36): (I) + (II) <= 0"]
                sweep[f"{kind}, {name}, eta_c ||A|| = {c}"] = {
                    "fraction > 1e-12": float(np.mean(value > 1e-12)),
                    "max": float(value.max()),
                }
    return Evidence(
        measured=measured,
        bound=0.0,
        relation="<=",
        atol=1e-12,
        grid=grid,
        witness={
            "sweep of (4.36) beyond the printed condition": sweep,
            "note": "(I) + (II) <= eta_c (eta_c ||A|| - 2)||x1 - x2||^2 by firm non-expansiveness of the "
            "prox, so (4.36) holds for eta_c ||A|| <= 2; the printed eta_c <= 1/(4L) (L = ||A||_2) is 8x stricter "
            "than needed",
        },
    )


@claim(
    f"{PAPER}/claim-4.17:step-unbiased",
    source="proof of Claim 4.17, lines 2226-2232",
    statement="The library's additive Gaussian oracle (s = 0.5, d = 10, M = 8) at fixed client points: E[eps_m1 - "
    "eps_m2 | F^(r,k)] = 0 (every coordinate) and E||eta_c (eps_m1 - eps_m2)||^2_(A^-1) = 2 eta_c^2 sigma^2 "
    "||A||_2^-1, i.e. the printed '<=' is attained (sigma^2 = ||A|| s^2 tr(A^-1)); pairs (1,2), (3,6), (4,8), eta_c "
    "= 1/(4L), 50000 draws, simultaneous 99% intervals.",
    expect="holds",
)
def claim_417_step_unbiased(ctx: Context) -> Evidence:
    inst = _instance("l1", 8, 1.0)
    rng = ctx.rng()
    eta_c = 0.25 / inst.L
    x = np.broadcast_to(rng.standard_normal((1, 8, D)), (50_000, 8, D))
    eps = _oracle(inst, True)(x, rng) - inst.problem.client_grad(x)
    samples, bound, grid = [], [], {}
    for m1, m2 in ((0, 1), (2, 5), (3, 7)):
        de = eps[:, m1] - eps[:, m2]
        for i in range(D):
            samples.append(de[:, i])
            bound.append(0.0)
            _record(grid, pair=f"({m1 + 1},{m2 + 1})", quantity=f"E[(eps_m1 - eps_m2)_{i + 1}]")
        samples.append(eta_c**2 * inst.qA(de))
        bound.append(2 * eta_c**2 * inst.sigma2(NOISE) / inst.L)
        _record(grid, pair=f"({m1 + 1},{m2 + 1})", quantity="E||eta_c (eps_m1 - eps_m2)||^2_(A^-1)")
    measured, lo, hi = _estimates(samples, len(samples))
    return Evidence(measured=measured, bound=bound, relation="==", interval=(lo, hi), grid=grid)
