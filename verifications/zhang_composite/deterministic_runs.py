"""Algorithm 1 with exact gradients (sigma = 0), run once per instance, and every per-round quantity the theorem,
lemma and proof-chain checks read (no claims).

Per round ``r`` (``p^r = P_{eta~}(x̄^r)``, ``x~^{r+1}`` the virtual PGD iterate (4), ``v^r`` the average of the round's
gradients (3)): ``Omega^r`` (10), ``Omega_sc^r`` (Remark 3.7), ``||G(p^r)||^2`` (11), ``spread = ||Lambda^r - mean
Lambda^r||^2`` (closed form ``Lambda_i = eta tau (grad f_i(p^r) + c_i^r)``), ``F(p^r) - F*`` and ``F(x~^{r+1}) - F*``
(each instance's cancellation-free gap, and the size of its first-order terms, which a check's scale includes:
they round at ``eps`` times that size), ``||x~^{r+1} - p^r||^2``, ``mean_i ||grad f_i(p^r)||^2``, ``||P(x̄^{r+1}) -
p^r||^2``, the drift ``sum_t sum_i ||z_{i,t}^r - p^r||^2`` from the round's trace, ``||v^r - grad f(p^r)||^2`` and the
terms (IV), (V) of (40). Every start runs as one replica of the vectorised method.

Instances:

* the grid: quad-l1 ``(n, d, theta, tau)`` in {(5, 10, .5, 5), (30, 20, .3, 10), (3, 5, 2, 20),
  (50, 8, 1, 3)}, LASSO (n = 5, m = 50, d = 10, theta = .05, tau = 5) with a certified reference
  (:func:`.instances.optimum`), and a non-convex one (:mod:`.instances_nonconvex`, n = 8, d = 6, curvature 5);
* for the witness searches, seeded families with an exact minimiser: :func:`convex_instance` (strongly convex
  quadratics with a prescribed ``x*``, ``L = 1``) and :func:`wavy_instance` (the non-convex clients).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from fedtheory.algorithms.composite import decoupled
from fedtheory.harness.claims import Context, Evidence
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.problems.base import Problem
from fedtheory.regularizers import L1

from . import printed
from .instances import lasso, optimum, quad_l1
from .instances_nonconvex import wavy_l1

REGISTERS_CLAIMS = False


@dataclass(frozen=True)
class Instance:
    """A problem of the checks with its exact constants.

    ``mu`` is ``lambda_min`` of the mean Hessian where ``f`` is strongly convex (then Assumption 3.3(2) holds with it,
    ``asm-3.3:2``), ``None`` where ``f`` is non-convex; ``gap(x) = F(x) - F*`` without cancellation of O(1) values."""

    name: str
    problem: Problem
    reg: L1
    L: float
    mu: float | None
    x_star: np.ndarray
    F_star: float
    gap: Callable[[np.ndarray], np.ndarray]
    note: str

    def first_order(self, x) -> np.ndarray:
        """``sum_j (|grad_j f(x*)| + theta) |x_j - x*_j|``: the size of the first-order terms of ``gap(x)``, which
        cancel to second order near ``x*`` (so that ``gap`` rounds at ``eps`` times this, not times the gap)."""
        weight = np.abs(self.problem.grad(self.x_star)) + self.reg.lam
        return np.sum(weight * np.abs(np.asarray(x, dtype=float) - self.x_star), axis=-1)

    @property
    def B_g(self) -> float:
        """Assumption 3.1 for ``theta ||.||_1``: ``B_g = theta sqrt(d)``."""
        return self.reg.lam * np.sqrt(self.x_star.size)

    def describe(self) -> dict:
        return {
            "instance": self.name,
            "L": self.L,
            "mu": self.mu,
            "B_g": self.B_g,
            "F*": self.F_star,
            "note": self.note,
        }


def quadratic(name: str, problem: FederatedQuadratic, reg: L1, x_star, note: str) -> Instance:
    """An instance with quadratic clients and minimiser ``x_star``: ``F(x) - F* = e'H e/2 + sum_j (theta (|x_j| -
    |x*_j|) + q_j e_j)`` with ``e = x - x*``, ``q = grad f(x*)``; where ``x_j`` has the sign ``s_j != 0`` of ``x*_j``
    the l1 term is ``(theta s_j + q_j) e_j`` (0 up to the minimiser's KKT residual), so that near ``x*`` every term is
    computed to its own relative precision (``e`` is exact there)."""
    x_star = np.asarray(x_star, dtype=float)
    q, H, theta = problem.grad(x_star), problem.A_mean, reg.lam
    s = np.sign(x_star)

    def gap(x):
        x = np.asarray(x, dtype=float)
        e = x - x_star
        same = (np.sign(x) == s) & (s != 0)
        l1 = np.where(same, (theta * s + q) * e, theta * (np.abs(x) - np.abs(x_star)) + q * e)
        return 0.5 * np.einsum("...i,ij,...j->...", e, H, e) + np.sum(l1, axis=-1)

    F_star = float(problem.value(x_star) + reg.value(x_star))
    mu = problem.mu if problem.mu > 0 else None
    return Instance(name, problem, reg, problem.L, mu, x_star, F_star, gap, note)


@lru_cache(maxsize=256)
def convex_instance(n: int, d: int, theta: float, kappa: float, hess: float, spread: float, draw: int) -> Instance:
    """Seeded strongly convex clients with a prescribed minimiser (``L = 1``): ``f_i = (x - x*)'H_i(x - x*)/2 +
    v_i'x``, ``H_i = (I/kappa + hess W_i)/L0`` with Wishart ``W_i = M_i M_i'/d`` and ``L0`` the largest client
    curvature, ``-mean_i v_i`` in the subdifferential of ``theta ||.||_1`` at ``x*`` (so ``x*`` minimises ``F``
    exactly), ``v_i - mean_i v_i = spread w_i`` (centred normal ``w_i``); about half the coordinates of ``x*`` are
    0."""
    rng = np.random.default_rng([draw, n, d])
    M = rng.standard_normal((n, d, d))
    H = np.eye(d) / kappa + hess * M @ np.swapaxes(M, -1, -2) / d
    H /= np.max(np.linalg.eigvalsh(H)[:, -1])
    x_star = np.where(rng.random(d) < 0.5, 0.0, rng.standard_normal(d) + np.sign(rng.standard_normal(d)))
    v = np.where(x_star != 0, -theta * np.sign(x_star), rng.uniform(-theta, theta, d))
    w = rng.standard_normal((n, d))
    v_i = v + spread * (w - w.mean(axis=0))
    b = np.einsum("nij,j->ni", H, x_star) - v_i
    problem = FederatedQuadratic(H, b, 0.5 * np.einsum("i,nij,j->n", x_star, H, x_star))
    note = f"convex_instance(n={n}, d={d}, theta={theta:.4g}, kappa={kappa:.4g}, hess={hess:.4g}, spread={spread:.4g})"
    return quadratic("prescribed-minimiser quadratics + l1", problem, L1(theta), x_star, note)


@lru_cache(maxsize=256)
def wavy_instance(n: int, d: int, theta: float, curvature: float, hess: float, spread: float, draw: int) -> Instance:
    """The non-convex clients of :mod:`.instances_nonconvex` with ``theta ||.||_1`` and their exact ``F*``."""
    problem = wavy_l1(
        np.random.default_rng([draw, n, d]), n, d, curvature=curvature, spread=spread, hessian_spread=hess
    )
    x_star, F_star, certificate = problem.minimum(theta)
    note = (
        f"wavy_l1(n={n}, d={d}, curvature={curvature:.4g}, hess={hess:.4g}, spread={spread:.4g}), "
        f"{'convex' if problem.convex else 'non-convex'} mean f; F* certificate {certificate}"
    )
    gap = lambda x: problem.gap(x, x_star, theta)  # noqa: E731
    return Instance("non-convex wavy clients + l1", problem, L1(theta), problem.L, None, x_star, F_star, gap, note)


@lru_cache(maxsize=16)
def grid_instance(name: str) -> Instance:
    """The grid's instances (module docstring), seeded from their names."""
    rng = np.random.default_rng(list(name.encode()))
    if name == "lasso":
        problem, reg = lasso(rng, 5, 50, 10, 0.05)
    elif name == "wavy":
        return wavy_instance(8, 6, 0.3, 5.0, 1.0, 1.0, 0)
    else:
        n, d, theta, _ = QUAD_L1[name]
        problem, reg = quad_l1(rng, n, d, theta)
    ref = optimum(problem, reg)
    note = f"{name}; x* certified: KKT residual {ref.certificate.get('kkt_residual')}"
    return quadratic(name, problem, reg, ref.x, note)


QUAD_L1 = {
    "quad-l1(5,10,.5)": (5, 10, 0.5, 5),
    "quad-l1(30,20,.3)": (30, 20, 0.3, 10),
    "quad-l1(3,5,2)": (3, 5, 2.0, 20),
    "quad-l1(50,8,1)": (50, 8, 1.0, 3),
}
GRID_TAU = {**{k: v[3] for k, v in QUAD_L1.items()}, "lasso": 5, "wavy": 5}
"""Grid instance -> local steps tau."""


RESOLUTION = 1e-14
"""A state with ``||P(x̄^r) - x*|| <= RESOLUTION (1 + ||x*||)`` is ``x*`` to float64's resolution (a few ulps: the
iterate itself rounds at ``2.2e-16 ||x*||``); a display whose terms are functions of that state alone reads ``0 <=
0`` there in exact arithmetic and rounding noise in float64 (``Record.at_min``)."""


@dataclass
class Record:
    """Per-round quantities of one run, ``S`` starts each: state quantities at ``r = 1 .. R+1`` (shape (R+1, S)),
    round quantities at ``r = 1 .. R`` (shape (R, S)); module docstring."""

    omega: np.ndarray
    omega_sc: np.ndarray
    G2: np.ndarray
    spread: np.ndarray
    gap_p: np.ndarray
    gap_xt: np.ndarray
    size_p: np.ndarray
    size_xt: np.ndarray
    xt2: np.ndarray
    gradf2: np.ndarray
    at_min: np.ndarray
    dP2: np.ndarray
    drift: np.ndarray
    v_err2: np.ndarray
    IV: np.ndarray
    V: np.ndarray


def record(inst: Instance, params: decoupled.DecoupledParams, x0: np.ndarray, R: int) -> Record:
    """Run Algorithm 1 (exact gradients) for ``R`` rounds from the server models ``x0`` (S, d), ``c^1 = 0``."""
    oracle, reg, et = ExactGradient(inst.problem), inst.reg, params.eta_tilde
    state = decoupled.init(x0, params, x0.shape[0])
    xs, cs, vs, drifts = [state.x], [state.c], [], []
    for _ in range(R):
        state, tr = decoupled.round(state, oracle, reg, params, None, trace=True)
        drifts.append(np.sum((tr.z[:-1] - tr.p[None, :, None, :]) ** 2, axis=(0, 2, 3)))
        vs.append(tr.g.mean(axis=(0, 2)))
        xs.append(state.x)
        cs.append(state.c)
    P = decoupled.output(reg, np.stack(xs), params)  # (R+1, S, d)
    C = np.stack(cs)
    grads = inst.problem.client_grad(np.broadcast_to(P[:, :, None, :], C.shape))
    grad_f = grads.mean(axis=2)
    lam = params.eta * params.tau * (grads + C)
    spread = np.sum((lam - lam.mean(axis=2, keepdims=True)) ** 2, axis=(2, 3))
    xt = decoupled.prox(reg, P - et * grad_f, et)
    gap_p = inst.gap(P)
    v = np.stack(vs) if vs else np.zeros((0, *P.shape[1:]))
    step = P[1:] - xt[:-1]
    return Record(
        omega=gap_p + spread / (params.n * et),
        omega_sc=np.sum((P - inst.x_star) ** 2, axis=-1) + spread / params.n,
        G2=np.sum(((P - xt) / et) ** 2, axis=-1),
        spread=spread,
        gap_p=gap_p,
        gap_xt=inst.gap(xt),
        size_p=inst.first_order(P),
        size_xt=inst.first_order(xt),
        xt2=np.sum((xt - P) ** 2, axis=-1),
        gradf2=np.mean(np.sum(grads**2, axis=-1), axis=-1),
        at_min=np.linalg.norm(P - inst.x_star, axis=-1) <= RESOLUTION * (1 + np.linalg.norm(inst.x_star)),
        dP2=np.sum((P[1:] - P[:-1]) ** 2, axis=-1),
        drift=np.stack(drifts) if drifts else np.zeros((0, P.shape[1])),
        v_err2=np.sum((v - grad_f[:-1]) ** 2, axis=-1),
        IV=-np.sum(step**2, axis=-1) / (2 * et),
        V=np.sum(step * (grad_f[:-1] - v), axis=-1),
    )


def starts(inst: Instance, params: decoupled.DecoupledParams, distance: float, S: int, seed: int) -> np.ndarray:
    """``S`` server models ``x̄^1 = x* - eta~ grad f(x*) + distance u_s`` (``u_s`` seeded unit directions); with
    ``distance = 0``, ``P(x̄^1) = x*``: Algorithm 2's start (``c^1 = 0`` as Algorithm 1 prescribes)."""
    d = inst.x_star.size
    u = np.random.default_rng([seed, d, S]).standard_normal((S, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return inst.x_star - params.eta_tilde * inst.problem.grad(inst.x_star) + distance * u


def hypotheses(inst: Instance, params: decoupled.DecoupledParams) -> dict:
    """How ``inst`` and ``params`` meet each printed hypothesis (recorded with every witness)."""
    et, eg, L, n = params.eta_tilde, params.eta_g, inst.L, params.n
    mu = inst.mu
    return {
        "Assumption 3.1": f"g = {inst.reg.lam:.4g} ||.||_1: convex, B_g = theta sqrt(d) = {inst.B_g:.4g}",
        "Assumption 3.2": f"every f_i is L-smooth with the exact L = {L:.6g}",
        "Assumption 3.3": (
            f"(2): f is {mu:.4g}-strongly convex, so F is prox-PL with mu = lambda_min = {mu:.4g} (asm-3.3:2); "
            "(1) holds too"
            if mu is not None
            else "(1): f smooth, bounded below, not assumed convex"
        ),
        "Assumption 3.4": "exact gradients: sigma = 0",
        "(13)": bool(printed.condition_13(et, eg, L, n)),
        "Lemmas A.1/A.2: eta~ <= eta_g/(sqrt(20) L)": bool(printed.condition_lemmas(et, eg, L)),
        "(33): eta~ <= eta_g/(8L)": bool(printed.condition_lemma_proof(et, eg, L)),
        "Theorem 3.8: eta~ <= mu/(150 L^2), eta_g = sqrt(n)": mu is not None
        and bool(printed.condition_thm_3_8(et, eg, L, mu, n)),
        "eta~ L": float(et * L),
        "eta_g": float(eg),
        "tau": params.tau,
        "n": n,
    }


def params_13(inst: Instance, n: int, tau: int, eta_L: float, eta_g: float | None = None) -> decoupled.DecoupledParams:
    """Steps with ``eta~ = eta_L/L`` and ``eta_g`` (default ``max(1.5, sqrt(n/8))``, the smallest (13) allows)."""
    eta_g = max(1.5, np.sqrt(n / 8)) if eta_g is None else eta_g
    eta = eta_L / inst.L / (eta_g * tau) * (1 - 1e-15)  # a few ulps inside: the rounded eta~ stays in the condition
    return decoupled.DecoupledParams(eta, eta_g, tau, n)


@dataclass
class Run:
    """A grid run: its instance, steps, record and what the starts were."""

    inst: Instance
    params: decoupled.DecoupledParams
    rec: Record
    starts: tuple[str, ...]


STARTS = ("x̄^1 = 0", "x̄^1 = x* - eta~ grad f(x*) (P(x̄^1) = x*)")


@family("zhang-composite/deterministic-runs")
def grid_run(fam: Family, name: str, steps: str) -> Run:
    """Algorithm 1 on grid instance ``name`` from the two starts of :data:`STARTS`, with ``steps``:

    * ``"13"``: ``eta~ = 1/(10L)``, ``eta_g = max(1.5, sqrt(n/8))`` (the largest eta~ of (13)); R = 60 (300 in full);
    * ``"thm-3.8"``: ``eta~ = mu/(150 L^2)``, ``eta_g = sqrt(n)``; R = 80 (2000 in full);
    * ``"lemma:<eta_g>:<k>"``: ``eta~ = eta_g/(k L)`` (``k = sqrt(20)``: the lemmas' own boundary, or 8: (33)'s);
      R = 30 (200 in full).
    """
    inst = grid_instance(name)
    n, tau = inst.problem.n_clients, GRID_TAU[name]
    if steps == "13":
        params, R = params_13(inst, n, tau, 0.1), 60 if fam.quick else 300
    elif steps == "thm-3.8":
        params = params_13(inst, n, tau, inst.mu / (150 * inst.L), np.sqrt(n))
        R = 80 if fam.quick else 2000
    else:
        _, eta_g, k = steps.split(":")
        eg, kk = float(eta_g), (np.sqrt(20.0) if k == "sqrt20" else float(k))
        params, R = params_13(inst, n, tau, eg / kk, eg), 30 if fam.quick else 200
    rule = "13" if steps == "13" else "thm-3.8" if steps == "thm-3.8" else "lemma"
    check_steps(STEPS[rule][0](inst, params), rule, inst, params)
    x0 = np.stack([np.zeros(inst.x_star.size), starts(inst, params, 0.0, 1, 0)[0]])
    return Run(inst, params, record(inst, params, x0, R), STARTS)


class Comparison(NamedTuple):
    """``lhs <= rhs`` at every entry (rounds x starts) of a run, ``scale`` the size of the inequality's terms there
    (0 marks an entry that says nothing: every term exactly 0, or a state at float64's resolution of ``x*``). With
    ``base`` (a term on both sides: ``F(P(x̄^r)) - F*`` or ``Omega^r``) the entries are reported in decrease form,
    ``base - lhs >= base - rhs``: the decrease achieved against the decrease printed."""

    lhs: np.ndarray
    rhs: np.ndarray
    scale: np.ndarray
    base: np.ndarray | None = None

    @property
    def relation(self) -> str:
        return "<=" if self.base is None else ">="

    def sides(self, *, scaled: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(measured, bound)`` at every entry, divided by the entry's scale when ``scaled`` (a tolerance on the
        terms' rounding, not on their difference; the margin is unchanged)."""
        unit = np.where(self.scale > 0, self.scale, 1.0) if scaled else 1.0
        if self.base is None:
            return self.lhs / unit, self.rhs / unit
        return (self.base - self.lhs) / unit, (self.base - self.rhs) / unit

    def worst(self, *, scaled: bool) -> tuple | None:
        """The index of the least slack ``(rhs - lhs)/scale`` among the entries that say something (``None``: none
        does); scaled, an entry whose two sides are both 0 to the rounding tolerance says nothing either."""
        judged = self.scale > 0
        if scaled:
            m, b = self.sides(scaled=True)
            judged &= np.maximum(np.abs(m), np.abs(b)) > SCALED_ROUNDING
        if not judged.any():
            return None
        slack = np.where(judged, (self.rhs - self.lhs) / np.where(judged, self.scale, 1.0), np.inf)
        return tuple(int(k) for k in np.unravel_index(np.argmin(slack), slack.shape))

    def entry(self, i: tuple, *, scaled: bool) -> tuple[float, float]:
        """``(measured, bound)`` at ``i`` (:meth:`sides`)."""
        m, b = self.sides(scaled=scaled)
        return float(m[i]), float(b[i])

    def start(self, s: int) -> Comparison:
        """The entries of start ``s``."""
        return Comparison(*(None if a is None else a[:, s] for a in self))


Sides = Callable[[Instance, decoupled.DecoupledParams, Record], Comparison]
"""A check: ``(inst, params, rec) -> Comparison``."""
SILENT = {"<=": (-1e300, 1.0), ">=": (1e300, -1.0)}
"""The entry of a searched instance on which the check says nothing at any round and start (every term 0, or 0 to
rounding): a conventional pair far inside the bound, flagged ``"every term 0"`` in its parameters, so that it is
never the worst entry (a search must record every evaluation)."""


def add_grid(points: Points, runs: list[Run], sides: Sides, *, scaled: bool) -> tuple[list[dict], str]:
    """One entry per grid run and start, its worst round (a start on which the check says nothing adds none);
    returns the runs' instances with their hypotheses, for the witness, and the relation."""
    described, relation = [], "<="
    for run in runs:
        comparison = sides(run.inst, run.params, run.rec)
        relation = comparison.relation
        for s, start in enumerate(run.starts):
            one = comparison.start(s)
            i = one.worst(scaled=scaled)
            if i is not None:
                m, b = one.entry(i, scaled=scaled)
                points.add(m, b, instance=run.inst.name, start=start, r=i[0] + 1, **_steps(run.inst, run.params))
        described.append({**run.inst.describe(), "hypotheses": hypotheses(run.inst, run.params)})
    return described, relation


def _steps(inst: Instance, params: decoupled.DecoupledParams) -> dict:
    return {
        "n": params.n,
        "tau": params.tau,
        "eta~ L": float(params.eta_tilde * inst.L),
        "eta_g": float(params.eta_g),
        "(13)": bool(printed.condition_13(params.eta_tilde, params.eta_g, inst.L, params.n)),
        "eta~ <= eta_g/(sqrt(20) L)": bool(printed.condition_lemmas(params.eta_tilde, params.eta_g, inst.L)),
        "eta~ <= eta_g/(8L)": bool(printed.condition_lemma_proof(params.eta_tilde, params.eta_g, inst.L)),
    }


Steps = Callable[[Instance, dict], decoupled.DecoupledParams]


def steps_13(inst: Instance, axes: dict) -> decoupled.DecoupledParams:
    """(13): ``eta~ = eta_L/L``, ``eta_g = eta_g_factor max(1.5, sqrt(n/8))``."""
    eta_g = axes["eta_g_factor"] * max(1.5, np.sqrt(axes["n"] / 8))
    return params_13(inst, axes["n"], axes["tau"], axes["eta_L"], eta_g)


def steps_lemma(inst: Instance, axes: dict) -> decoupled.DecoupledParams:
    """The lemmas' condition: ``eta~ = eta_frac eta_g/(sqrt(20) L)``, any ``eta_g``."""
    return params_13(inst, axes["n"], axes["tau"], axes["eta_frac"] * axes["eta_g"] / np.sqrt(20), axes["eta_g"])


def steps_thm_3_8(inst: Instance, axes: dict) -> decoupled.DecoupledParams:
    """Theorem 3.8: ``eta~ = eta_frac mu/(150 L^2)``, ``eta_g = sqrt(n)``."""
    eta_L = axes["eta_frac"] * inst.mu / (150 * inst.L)
    return params_13(inst, axes["n"], axes["tau"], eta_L, np.sqrt(axes["n"]))


STEPS = {
    "13": (
        lambda inst, p: printed.condition_13(p.eta_tilde, p.eta_g, inst.L, p.n),
        steps_13,
        {"eta_L": Axis(1e-3, 0.1), "eta_g_factor": Axis(1.0, 10.0)},
        "steps (13): eta~ L in [1e-3, 1/10], eta_g = factor max(1.5, sqrt(n/8)) with factor in [1, 10]",
    ),
    "lemma": (
        lambda inst, p: printed.condition_lemmas(p.eta_tilde, p.eta_g, inst.L),
        steps_lemma,
        {"eta_frac": Axis(1e-3, 1.0, log=False), "eta_g": Axis(1e-2, 1e3)},
        "the lemmas' condition: eta~ = frac eta_g/(sqrt(20) L), frac in [1e-3, 1] (linear: the boundary frac = 1 "
        "is where (33)'s condition eta~ <= eta_g/(8L) fails), eta_g in [1e-2, 1e3] (the lemmas put no condition on "
        "eta_g; eta~ L reaches 220)",
    ),
    "thm-3.8": (
        lambda inst, p: printed.condition_thm_3_8(p.eta_tilde, p.eta_g, inst.L, inst.mu, p.n),
        steps_thm_3_8,
        {"eta_frac": Axis(1e-3, 1.0)},
        "Theorem 3.8's steps: eta~ = frac mu/(150 L^2), frac in [1e-3, 1], eta_g = sqrt(n)",
    ),
}


def check_steps(holds, steps: str, inst: Instance, params: decoupled.DecoupledParams) -> None:
    """Refuse a run whose steps miss the step rule ``steps`` it was built for (a bug, never a verdict)."""
    if not holds:
        raise RuntimeError(f"steps {steps} violated: {hypotheses(inst, params)}")


def search_domain(kind: str, steps: str, rounds: int, note: str) -> Domain:
    """The domain of a search over ``kind`` ("wavy": every f the claim allows, non-convex included; "convex":
    strongly convex quadratics) with step rule ``steps`` (:data:`STEPS`) and up to ``rounds`` rounds."""
    axes = {**(WAVY if kind == "wavy" else CONVEX), **STEPS[steps][2], "R": Axis(1, rounds, integer=True)}
    family_note = (
        "the non-convex clients of instances_nonconvex (mean curvature beta omega^2 in [1e-2, 30]: non-convex f "
        "above 1; indefinite client Hessians)"
        if kind == "wavy"
        else "strongly convex quadratics with a prescribed minimiser, L = 1, H_i = I/kappa + hess W_i (kappa in [1, "
        "1e3])"
    )
    return Domain(axes, note=f"{note}; {family_note}; {CLIENTS_NOTE}; {STEPS[steps][3]}; R <= {rounds} rounds")


def search_evaluate(kind: str, steps: str, sides: Sides, *, scaled: bool) -> Callable[..., tuple]:
    """``evaluate`` of a search: the worst round and start of ``sides`` on the instance at the axes."""

    def evaluate(**axes):
        inst = search_instance(kind, axes)
        condition, rule = STEPS[steps][:2]
        params = rule(inst, axes)
        check_steps(condition(inst, params), steps, inst, params)
        rec = record(inst, params, starts(inst, params, axes["start"], SEARCH_S, axes["draw"]), axes["R"])
        comparison = sides(inst, params, rec)
        found = {"L": inst.L, "mu": inst.mu, **_steps(inst, params)}
        i = comparison.worst(scaled=scaled)
        if i is None:
            return (*SILENT[comparison.relation], {"r": None, "start index": None, "every term 0": True, **found})
        m, b = comparison.entry(i, scaled=scaled)
        return m, b, {"r": i[0] + 1, "start index": i[1], "every term 0": False, **found}

    return evaluate


# --- witness-search domains ------------------------------------------------------------------------------------------
CLIENTS = {
    "n": Axis(1, 64, integer=True),
    "d": Axis(1, 8, integer=True),
    "tau": Axis(1, 16, integer=True),
    "theta": Axis(1e-3, 10.0),
    "spread": Axis(1e-3, 1e2),
    "hess": Axis(1e-3, 10.0),
    "start": Axis(1e-3, 1e2),
    "draw": Axis(0, 1023, log=False, integer=True),
}
"""Axes shared by every search: clients, dimension, local steps, l1 weight, gradient heterogeneity ``spread`` and
Hessian heterogeneity ``hess``, the distance of the starts from Algorithm 2's start, the seeded draw."""
WAVY = {**CLIENTS, "curvature": Axis(1e-2, 30.0)}
CONVEX = {**CLIENTS, "kappa": Axis(1.0, 1e3)}
SEARCH_S = 4
"""Starts per evaluated instance (one replica each), at distance ``start`` from Algorithm 2's start."""
CLIENTS_NOTE = (
    "n <= 64 clients, d <= 8, tau <= 16 (an evaluation costs R tau local steps), l1 weight theta in [1e-3, 10], "
    "client gradient heterogeneity (spread) in [1e-3, 1e2], Hessian heterogeneity (hess) in [1e-3, 10], four starts "
    "at distance 'start' in [1e-3, 1e2] from Algorithm 2's start x* - eta~ grad f(x*) (seeded directions; the grid "
    "runs Algorithm 2's start itself), c^1 = 0, exact gradients (sigma = 0)"
)


def search_instance(kind: str, axes: dict) -> Instance:
    """The searched instance of ``kind`` ("wavy" or "convex") at the search's parameters ``axes``."""
    common = (axes["n"], axes["d"], axes["theta"])
    if kind == "wavy":
        return wavy_instance(*common, axes["curvature"], axes["hess"], axes["spread"], axes["draw"])
    return convex_instance(*common, axes["kappa"], axes["hess"], axes["spread"], axes["draw"])


def size(*terms) -> np.ndarray:
    """``sum |term|``: the scale of an inequality whose terms are ``terms`` (arrays of one shape)."""
    return sum(np.abs(t) for t in terms)


def evidence(
    ctx: Context, sides: Sides, runs: list[Run], search: tuple[str, str, int, str], witness: dict, *, scaled: bool
) -> Evidence:
    """The evidence of a check: one entry per grid run and start (its worst round), then the witness search
    ``search = (kind, steps, rounds, note)`` (:func:`search_domain`). ``scaled``: entries divided by the size of
    their terms and judged with :data:`~fedtheory.harness.tolerances.SCALED_ROUNDING` (inequalities whose sides
    are differences of O(1) values), else raw and judged with ``ROUNDING`` (bounds made of positive terms)."""
    points = Points()
    described, relation = add_grid(points, runs, sides, scaled=scaled)
    kind, steps, rounds, note = search
    domain = search_domain(kind, steps, rounds, note)
    points.search(search_evaluate(kind, steps, sides, scaled=scaled), domain, relation, ctx)
    witness = {
        **witness,
        "hypotheses": "every entry's columns say which step conditions hold ((13), the lemmas', (33)'s); each run "
        "is refused unless its step rule holds; the assumptions are met as listed per grid instance, and by the "
        "search's instances as its domain note says",
        "entries": ENTRIES[relation] + (" (divided by the size of the inequality's terms)" if scaled else ""),
        "grid": described,
    }
    tolerance = {"atol": SCALED_ROUNDING} if scaled else {"rtol": ROUNDING}
    return points.evidence(relation, witness=witness, **tolerance)


ENTRIES = {
    "<=": "the worst round of each run: lhs <= rhs",
    ">=": "the worst round of each run in decrease form, base - lhs >= base - rhs (base: F(P(x̄^r)) - F* or Omega^r, "
    "on both sides): the decrease achieved against the decrease the display prints",
}
