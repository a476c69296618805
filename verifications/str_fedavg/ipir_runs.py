"""IPIR-FedAvg (Algorithm 2) along deterministic runs: the instance, the penalty ``F_lambda`` of (3), the runs and
the hypotheses shared by the claim modules :mod:`.sec_2_2_penalty_remark_3`, :mod:`.alg_2_prop_7_case_i`,
:mod:`.thm_3_case_i` and :mod:`.thm_3_prop_7_case_ii` (no claims here).

Instance (our scale-down of Exp. 2, Sect. 5.2; the family ``str-fedavg/ipir:instance``, seeded from its name):

* inner ``h(y) = (1/N) sum_i 1/2 ||U_i y - v_i||^2`` with ``n = 100``, ``m = 73`` rows over ``N = 10`` clients
  (8 or 7 rows each), rows ``U_il ~ N(0, D_i^2/n)``, ``D_i = diag(exp(z_i/2))``, ``z_i ~ N(0, I)``;
  ``v = U x_true + 0.1 N(0, I)`` with ``x_true`` 5-sparse. ``U`` has full row rank, so the system is consistent,
  ``h* = h_i* = 0`` for every client and ``X_h^* = U^+ v + null(U)`` in closed form. ``U`` and ``v`` are scaled
  together (``X_h^*`` unchanged) so that ``lambda_max(H) = 1`` or ``max_i L_{h_i} = 5``, whichever binds
  (``H = U'U/N``, ``L_{h_i} = sigma_max(U_i)^2``). ``X_h^*`` is weak sharp only with ``kappa = 2``, with the exact
  constant ``alpha_2 = sigma_min^+(U)^2/(2N)`` (the closed-form weak-sharpness constant of least squares);
* inner clients as :class:`~fedtheory.problems.FederatedQuadratic` (``A_i = U_i'U_i``, ``b_i = U_i'v_i``,
  ``c_i = ||v_i||^2/2``), ``X_h^*`` as :class:`~fedtheory.problems.solution_sets.AffineSolutionSet`;
* outer ``f = M^mu_LSP``, the Moreau envelope of the log-sum penalty (Sect. 5.2) with
  ``eps = 0.5``, ``mu = 0.2`` (``sqrt(mu) <= eps``), evaluated with the printed prox
  (:class:`~fedtheory.problems.bilevel.LSPEnvelope`); ``f`` is nonconvex and
  ``L_f``-smooth with the exact ``L_f = max{1/mu, 1/(eps^2 - mu)} = 20`` (the envelope's second derivative is
  ``1/mu`` on ``|x_i| < mu/eps`` and ``(1 - prox'(x_i))/mu`` beyond, which tends to ``-1/(eps^2 - mu)`` at the
  threshold);
* Algorithm 2 with ``lambda = 0.1``, ``gamma = 3 lambda/(4(L_f lambda + 2))`` (the step condition of the proof of
  Theorem 3, at equality), ``y^0 ~ N(0, I)`` (seeded), ``T = 60`` outer iterations (quick) / ``T = 150`` (full),
  ``R_t = t + t0`` with ``t0 in {0, 2}`` (``t0 = 0`` as printed), inner StR-FedAvg with Theorem 3 Case i's
  schedule (``gamma~_t = R_t^(-7/12)``, ``eta_t = 2 ln R_t/R_t^(5/12)``, ``mu_f = 1``), ``K = 5`` local steps,
  ``gamma_g = sqrt(N)`` (Sect. 5.1), full participation, exact gradients (``sigma_f = sigma_h = 0``, so every run
  is its own expectation and the expectation over ``T*`` uniform is an exact average over ``t``), inner start
  ``xbar^0 = y^t`` (``warm_y``; the paper leaves it open), inner output the theta-average (our choice);
* the reference is the exact-projection outer loop (``x^t = Pi[y^t]``);
* Case ii (Prop 7 (ii), Theorem 3 (ii-1), (ii-2)): a constant ``eta = 1e-4``, ``gamma~_t = 2 ln R_t/R_t`` and
  ``R_t = t + 2``. No ``L_h``-smooth ``h`` with ``X_h^* != R^n`` is ``kappa = 1`` weak sharp (``h - h* <= L_h
  dist^2/2``), so Case ii's hypotheses cannot hold with Assumption 3; ``alpha`` is read as ``alpha_loc``, the
  smallest ratio ``(h - h*)/dist`` at the inner outputs (the points where (14) is applied), and ``eta = 1e-4``
  satisfies ``eta <= alpha_loc/(2 max_t ||grad F_lambda(x^{t*})||)``.

Readings. ``F_lambda`` is (3), ``f + (1/lambda) dist^2(., X_h^*)``, whose gradient is
``grad f + (2/lambda)(y - Pi y)``; Algorithm 2 and the printed gradient use ``grad f + (1/lambda)(y - Pi y)``,
the gradient of ``f + dist^2/(2 lambda)``, which is the Moreau envelope of the indicator in the paper's own
convention (the Huber envelope of Sect. 5.1: ``min_y {.. + ||x - y||^2/(2 mu)}``). Proposition 7 is Proposition 3
applied to problem (4) (the text before Proposition 7: "replacing mu_f and L_f with 1"), so its ``f`` is
``g_t = 1/2 ||x - y^t||^2``: ``||grad f(x^{t*})||
= ||x^{t*} - y^t|| = dist(y^t, X_h^*)``, ``M_t = g_t* - inf g_t = dist^2(y^t, X_h^*)/2`` (delta = 0), and in
Lemma 3's constants ``G_g = 0``, ``B_g = 1``, ``G_h = 0`` (every client interpolates), so ``G_ncvx^2 =
2 dist^2(y^t, X_h^*)``; ``sigma = 0`` and ``S = N`` remove every ``Y``/``Psi_1`` term. ``L_h = max_i L_{h_i}``.
``F_lambda^*`` (the infimum of a nonconvex function) is bracketed: ``0 <= F_lambda^* <= F_up``, the smallest value
of ``F_lambda`` seen along every run and the reference. Bounds that hold are evaluated with ``F_up`` (never larger
than the printed ones, so "holds" is conclusive), bounds that fail with ``0`` (never smaller, so "fails" is).

Witness search (Theorem 3 Case i and (12) over their printed domain): :class:`SeparableIPIR`, separable instances in
``d = 3`` (a flat direction of ``h``, client heterogeneity, a nonconvex cosine outer ``f``) on which every inner call
of Algorithm 2 is an exact affine map of ``y^t`` (:meth:`SeparableIPIR.inner_maps`), so a run of Algorithm 2 as
printed (``R_t = t``) costs ``O(T)`` and ``F_lambda^*`` is exact.

The hypotheses ``R_t >= 16(L_h + eta-hat)^2 (1 + B_ncvx^2)`` and ``gamma_l <= 1/(16 (L_h + eta)^2 (1 + B_ncvx^2)
K gamma_g)`` of Proposition 7 / Theorem 3 need ``R_t`` in the hundreds of thousands on this instance; they are not
met by any run here, which the witnesses state, so a violation found here is reported as outside the hypotheses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from fedtheory.algorithms.bilevel import ipir_run
from fedtheory.harness.claims import Context, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.problems import FederatedQuadratic
from fedtheory.problems.bilevel import LSPEnvelope
from fedtheory.problems.solution_sets import AffineSolutionSet

from . import printed

REGISTERS_CLAIMS = False  # shared instance and runs; the claims are in the sibling modules named in the docstring

PAPER = "str-fedavg"

N_DIM, M_ROWS, N_CLIENTS = 100, 73, 10
EPS, MU = 0.5, 0.2
LAM = 0.1
L_F = max(1 / MU, 1 / (EPS**2 - MU))  # exact smoothness of the LSP envelope (module docstring)
GAMMA = 3 * LAM / (4 * (L_F * LAM + 2))
C_LAM = 2 / LAM**2 + 2 * GAMMA * (L_F * LAM + 2) / LAM**3  # C_lambda of Theorem 3
K_LOCAL = 5
GAMMA_G = float(np.sqrt(N_CLIENTS))
T_OUTER = {"quick": 60, "full": 150}
T0S = (0, 2)
ETA_HAT_PRINTED = 11.0
KAPPA = 2.0
ETA_II, T0_II = 1e-4, 2  # Theorem 3 / Prop 7 Case ii: constant eta, R_t = t + 2 >= 2
P, A_EXP, B_EXP = 2.0, 7 / 12, 5 / 12

OUTER = LSPEnvelope(EPS, MU, dim=N_DIM)  # M^mu_LSP with the printed prox (Sect. 5.2)


# --- instance and F_lambda ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Instance:
    """The instance of the module docstring, with ``F_lambda`` and its gradient."""

    h: FederatedQuadratic
    X: AffineSolutionSet
    L_h: float
    alpha: float
    y0: np.ndarray

    def F(self, y: np.ndarray, c: float) -> np.ndarray:
        """``f(y) + c dist^2(y, X_h^*)``: (3) for ``c = 1/lambda``, the Moreau reading for ``c = 1/(2 lambda)``."""
        return OUTER.value(y) + c * self.X.distance(y) ** 2

    def grad_F(self, y: np.ndarray, c: float) -> np.ndarray:
        """Exact gradient of :meth:`F`: ``grad f(y) + 2c (y - Pi y)``."""
        return OUTER.grad(y) + 2 * c * (y - self.X.project(y))


@family(f"{PAPER}/ipir:instance")
def instance(fam: Family) -> Instance:
    """The Exp. 2 scale-down of the module docstring (the same in both profiles)."""
    rng = fam.rng()
    sizes = [len(c) for c in np.array_split(np.arange(M_ROWS), N_CLIENTS)]
    blocks = [
        rng.standard_normal((k, N_DIM)) * np.exp(0.5 * rng.standard_normal(N_DIM)) / np.sqrt(N_DIM) for k in sizes
    ]
    U = np.concatenate(blocks)
    x_true = np.zeros(N_DIM)
    x_true[rng.choice(N_DIM, 5, replace=False)] = rng.standard_normal(5)
    v = U @ x_true + 0.1 * rng.standard_normal(M_ROWS)
    lam_max = np.linalg.eigvalsh(U.T @ U / N_CLIENTS)[-1]
    L_max = max(np.linalg.norm(b, 2) ** 2 for b in blocks)
    s = min(1 / np.sqrt(lam_max), np.sqrt(5 / L_max))
    U, v = s * U, s * v
    edges = list(pairwise(np.cumsum([0, *sizes])))
    clients = tuple(U[lo:hi] for lo, hi in edges)
    A = np.stack([Ui.T @ Ui for Ui in clients])
    b = np.stack([U[lo:hi].T @ v[lo:hi] for lo, hi in edges])
    c = np.array([0.5 * v[lo:hi] @ v[lo:hi] for lo, hi in edges])
    X = AffineSolutionSet(U, v)
    return Instance(
        h=FederatedQuadratic(A, b, c), X=X,
        L_h=float(max(np.linalg.norm(Ui, 2) ** 2 for Ui in clients)),
        alpha=float(X.singular_values[-1] ** 2 / (2 * N_CLIENTS)),
        y0=np.random.default_rng(seed_for(f"{PAPER}/ipir:y0")).standard_normal(N_DIM),
    )  # fmt: skip


# --- runs -----------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One deterministic IPIR run (replica axis dropped) and the per-t quantities of Prop 7 / Theorem 3."""

    y: np.ndarray  # (T+1, n)
    x: np.ndarray  # (T, n) inner outputs
    x0: np.ndarray  # (T, n) inner starts
    R: np.ndarray
    eta: np.ndarray
    gamma_tilde: np.ndarray
    rounds: int
    floats: int
    proj: np.ndarray  # Pi y^t, (T, n)
    e2: np.ndarray  # ||x^t - Pi y^t||^2
    D0: np.ndarray  # ||xbar^0 - Pi y^t||^2
    dist: np.ndarray  # dist(y^t, X*)
    dist_x: np.ndarray  # dist(x^t, X*)


def ipir_trajectory(inst: Instance, t0: int, T: int, exact: bool = False, eta: float | None = None) -> Run:
    """IPIR run of ``T`` outer iterations (Case i schedule; Case ii when ``eta`` is given), or the exact-projection
    reference."""
    traj = ipir_run(
        inst.h, OUTER.grad, inst.y0, LAM, GAMMA, T, K_LOCAL, GAMMA_G, np.random.default_rng(0), t0=t0,
        init="warm_y", output="theta_avg", project=inst.X.project if exact else None, eta=eta,
    )  # fmt: skip
    y, x, x0 = traj.y[:, 0], traj.x[:, 0], traj.x0[:, 0]
    proj = inst.X.project(y[:-1])
    return Run(
        y, x, x0, traj.R, traj.eta, traj.gamma_tilde, traj.rounds, traj.floats, proj,
        np.sum((x - proj) ** 2, axis=-1), np.sum((x0 - proj) ** 2, axis=-1), inst.X.distance(y[:-1]),
        inst.X.distance(x),
    )  # fmt: skip


def outer_iterations(ctx: Context | Family) -> int:
    return T_OUTER["quick" if ctx.quick else "full"]


@family(f"{PAPER}/ipir-runs")
def _runs(fam: Family, t0: int, exact: bool, eta: float | None) -> Run:
    return ipir_trajectory(instance(fam.profile), t0, outer_iterations(fam), exact, eta)


def deterministic_run(ctx: Context | str, t0: int, exact: bool = False, eta: float | None = None) -> Run:
    """The profile's run of :func:`ipir_trajectory` (``T = 60`` quick, 150 full), computed once per profile."""
    return _runs(ctx, t0, exact, eta)


@family(f"{PAPER}/ipir-F-upper")
def F_upper(fam: Family, c: float) -> float:
    """Smallest value of ``f + c dist^2`` seen along every run and the reference (an upper bound on its infimum)."""
    ys = [deterministic_run(fam.profile, t0, exact).y for t0 in T0S for exact in (False, True)] + [
        deterministic_run(fam.profile, T0_II, eta=ETA_II).y
    ]
    inst = instance(fam.profile)
    return float(min(np.min(inst.F(y, c)) for y in ys))


def sup_eta() -> float:
    """``sup_{R >= 1} 2 ln R/R^(5/12)`` over the integers (the maximiser of the continuous function is e^(12/5))."""
    R = np.arange(1, 1000, dtype=float)
    return float(np.max(P * np.log(R) / R**B_EXP))


def eta_hats() -> dict[str, float]:
    return {"eta-hat = 11 (printed)": ETA_HAT_PRINTED, "eta-hat = sup_t eta_t": sup_eta()}


def hypotheses(inst: Instance, run: Run) -> dict:
    """Proposition 7's conditions on R_t and gamma_l at the run's schedule, eta-hat = 11."""
    eta = np.nan_to_num(run.eta)  # NaN at R_t = 0 (no schedule)
    B2 = printed.B2(eta, inst.L_h)  # B_ncvx^2 = max{4 eta, 4 L_h} (Lemma 3)
    R_needed = printed.prop3_horizon(inst.L_h, 1.0, ETA_HAT_PRINTED, B2)
    gamma_l_max = printed.gamma_l_max_lem5(inst.L_h, 1.0, eta, B2, K_LOCAL, GAMMA_G)
    gamma_l = run.gamma_tilde / (GAMMA_G * K_LOCAL)
    return {
        "R_t >= 16 (L_h + 11)^2 (1 + B_ncvx^2) (line 540)": f"met at {int(np.sum(run.R >= R_needed))} of "
        f"{len(run.R)} inner calls (needs R_t >= {float(R_needed.min()):.4g}; largest R_t {int(run.R.max())})",
        "gamma_l <= 1/(16 (L_h + eta)^2 (1 + B^2) K gamma_g) (line 540)": f"met at "
        f"{int(np.sum(gamma_l <= gamma_l_max))} of {len(run.R)} inner calls",
    }


def stationarity(inst: Instance, run: Run, c: float) -> np.ndarray:
    return np.sum(inst.grad_F(run.y[:-1], c) ** 2, axis=-1)


# --- witness search: IPIR-FedAvg on separable instances, deterministic, exact ----------------------------------------
class SeparableIPIR:
    """The witness search's instances of Theorem 3 (d = 3): inner clients ``h_i(x) = sum_j a_ij (x_j - u_ij)^2/2``
    with curvatures ``L_h (1 - het_a s_i)(1, rho_h, 0)`` and optima ``zeta_h o_i (1, -1, 0)`` (``s_i`` from 0 to 1,
    ``o_i`` from -1 to 1 over the clients; the third coordinate is the flat direction of ``h``, so ``X_h^*`` is a
    line, 2-weak sharp with ``alpha_2`` half the smaller curvature of ``h``); outer ``f(y) = sum_j (L_f/omega^2)(1 -
    cos(omega (y_j - c_j)))`` with ``c = sep (1, 1, 1)/sqrt(3)`` from ``X_h^*``'s point: ``L_f``-smooth, nonconvex,
    bounded below. ``F_lambda`` is (3); its infimum is exact (coordinate-wise: 0 on the flat coordinate, a 1-D
    minimisation on the others)."""

    def __init__(self, L_h, rho_h, het_a, zeta_h, N, L_f, omega, sep, lam):
        self.a = L_h * self.curvature_shape(rho_h, het_a, N)
        o = np.zeros(1) if N == 1 else np.linspace(-1.0, 1.0, N)
        self.u = zeta_h * np.outer(o, [1.0, -1.0, 0.0])
        self.N, self.L_f, self.omega, self.lam = N, L_f, omega, lam
        self.curved = np.array([True, True, False])
        A = self.a.mean(0)
        self.ubar = np.where(self.curved, (self.a * self.u).sum(0) / np.where(self.curved, self.a.sum(0), 1.0), 0.0)
        self.h_star = float(np.mean(np.sum(self.a * (self.u - self.ubar) ** 2, axis=1)) / 2)
        self.alpha = float(np.min(A[self.curved]) / 2)
        self.L_h = float(self.a.max())
        self.c = self.ubar + sep * np.ones(3) / np.sqrt(3)
        self.F_star = self._F_star()

    @staticmethod
    def curvature_shape(rho_h, het_a, N) -> np.ndarray:
        """The clients' curvatures of ``h`` for ``L_h = 1``: ``(1 - het_a s_i)(1, rho_h, 0)``."""
        s = np.zeros(1) if N == 1 else np.linspace(0.0, 1.0, N)
        return np.outer(1 - het_a * s, [1.0, rho_h, 0.0])

    def f(self, y):
        return np.sum(self.L_f / self.omega**2 * (1 - np.cos(self.omega * (y - self.c))), axis=-1)

    def grad_f(self, y):
        return self.L_f / self.omega * np.sin(self.omega * (y - self.c))

    def project(self, y):
        return np.where(self.curved, self.ubar, y)

    def F(self, y):
        """(3): ``f + (1/lambda) dist^2``."""
        return self.f(y) + np.sum((y - self.project(y)) ** 2, axis=-1) / self.lam

    def grad_F(self, y):
        return self.grad_f(y) + 2 / self.lam * (y - self.project(y))

    def _F_star(self) -> float:
        """``inf F_lambda``: per curved coordinate ``min_y (L_f/omega^2)(1 - cos(omega (y - c))) + (y - ubar)^2/
        lambda`` on a grid over the interval where the minimiser lies (``|y - ubar|^2/lambda <= value at ubar``), then
        Newton; 0 on the flat coordinate."""
        total = 0.0
        for j in np.flatnonzero(self.curved):
            u, c = self.ubar[j], self.c[j]
            w, k = self.omega, self.L_f / self.omega**2

            def value(y, u=u, c=c, w=w, k=k):
                return k * (1 - np.cos(w * (y - c))) + (y - u) ** 2 / self.lam

            width = np.sqrt(self.lam * value(u)) + 1e-12
            y = np.linspace(u - width, u + width, 801)
            y0 = float(y[np.argmin(value(y))])
            for _ in range(20):
                d1 = k * w * math.sin(w * (y0 - c)) + 2 * (y0 - u) / self.lam
                d2 = k * w * w * math.cos(w * (y0 - c)) + 2 / self.lam
                if d2 <= 0 or abs(d1) <= 1e-15 * (abs(d2 * y0) + 1e-300):
                    break
                y0 -= d1 / d2
            total += float(min(value(y0), np.min(value(y))))
        return total

    def inner_maps(self, T: int, K: int, gamma_g: float) -> tuple[np.ndarray, np.ndarray]:
        """Algorithm 1 on problem (4) at ``y`` (``g = ||x - y||^2/2``, mu_f = 1), ``R_t = t`` rounds with Theorem 3
        Case i's schedule ``gamma~ = R^(-7/12)``, ``eta = 2 ln R/R^(5/12)``, start ``y``, theta-average output, is
        affine in ``y`` per coordinate: ``x^t = A_t y + b_t``. Returns ``A``, ``b`` of shape ``(T, 3)`` (``t = 0``:
        no round, ``x^0 = y^0``). A round maps ``x`` to ``x_fp + (1 - D)(x - x_fp)`` with ``x_fp`` affine in ``y``;
        the output is ``x_fp + decay (y - x_fp)``, ``decay = sum_{j<R} theta^(j+1) (1 - D)^j/sum_{j<R}
        theta^(j+1)``."""
        R = np.arange(1, T, dtype=float)[:, None, None]
        gt, eta = R**-A_EXP, P * np.log(R) / R**B_EXP
        gc = gt / (gamma_g * K) * (self.a + eta)
        omp = np.where(gc < 0.5, -np.expm1(K * np.log1p(-np.minimum(gc, 0.5))), 1 - (1 - gc) ** K)  # 1 - (1-gc)^K
        c = self.a + eta
        safe = np.where(c > 0, c, 1.0)
        weight = omp.sum(1)
        w_safe = np.where(weight > 0, weight, 1.0)
        alpha = (omp * self.a * self.u / safe).sum(1) / w_safe  # x_fp = alpha + beta y; c = 0: no step, x_fp = y
        beta = np.where(weight > 0, (omp * eta / safe).sum(1) / w_safe, 1.0)
        D = gamma_g * omp.mean(1)
        log_theta = -np.log1p(-0.5 * eta[:, :, 0] * gt[:, :, 0])
        decay = _geometric_ratio(log_theta, 1 - D, R[:, :, 0])
        A = np.vstack([np.ones((1, 3)), (1 - decay) * beta + decay])
        b = np.vstack([np.zeros((1, 3)), (1 - decay) * alpha])
        return A, b


def _geometric_ratio(log_theta, t, R):
    """``sum_{j<R} theta^j t^j/sum_{j<R} theta^j`` (``t`` any real, ``theta >= 1``), from ``expm1`` where ``theta
    t > 0`` (no cancellation near 1) and directly elsewhere."""

    def geometric(log_q, n):
        small = np.abs(log_q) < 1e-300
        safe = np.where(small, 1.0, log_q)
        return np.where(small, n, np.expm1(n * safe) / np.expm1(safe))

    positive = t > 0
    lq = log_theta + np.log(np.where(positive, t, 1.0))
    q = np.exp(log_theta) * t
    direct = (1 - q**R) / np.where(q == 1, 1.0, 1 - q)
    return np.where(positive, geometric(lq, R), direct) / geometric(log_theta, R)


def inner_expansion(a: np.ndarray, T: int, K: int, gamma_g: float) -> float:
    """The largest ``gamma_l c - 1`` and ``D - 1`` over the inner calls ``R_t = 1..T-1`` of Algorithm 2 with client
    curvatures ``a`` (a local step multiplies by ``1 - gamma_l c``, a round by ``1 - D``, both >= -1 iff this is <= 1):
    below 1 iff no local step or round of any inner loop expands."""
    R = np.arange(1, max(T, 2), dtype=float)[:, None, None]
    gt, eta = R**-A_EXP, P * np.log(R) / R**B_EXP
    gc = gt / (gamma_g * K) * (a + eta)
    D = gamma_g * (1 - (1 - gc) ** K).mean(1)
    return float(max(np.max(gc), np.max(D)) - 1)


def separable_ipir_run(inst: SeparableIPIR, y0, T: int, K: int, gamma_g: float, gamma: float) -> dict:
    """Algorithm 2 as printed (``R_t = t``, ``t = 0..T-1``) on :class:`SeparableIPIR`: the outer iterates ``y^t``,
    inner outputs ``x^t`` (:meth:`SeparableIPIR.inner_maps`), ``Pi[y^t]``."""
    A, b = inst.inner_maps(T, K, gamma_g)
    k, w, c, lam = inst.L_f / inst.omega, inst.omega, inst.c.tolist(), inst.lam
    ys = [list(map(float, y0))]
    for A_t, b_t in zip(A.tolist(), b.tolist()):  # Python floats: T steps of three coordinates
        y = ys[-1]
        ys.append([y[j] - gamma * (k * math.sin(w * (y[j] - c[j])) + (y[j] - A_t[j] * y[j] - b_t[j]) / lam)
                   for j in range(3)])  # fmt: skip
    y = np.array(ys)
    return {"y": y, "x": A * y[:-1] + b, "proj": inst.project(y[:-1])}
