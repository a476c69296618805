"""Traced runs of Algorithm 1 shared by the structural claims (no claims here): every round's ``p^r``, local models and
gradients, the runs of the two reference implementations (the compact form (2) and SCAFFOLD option II), and the
rounding scales the identities are judged with.

Instance: the prescribed-minimiser quadratics of :func:`.instances.prescribed` (heterogeneous ``f_i``, ``g = theta
||.||_1``, exact ``x*``), ``d = 10``, ``theta = 0.5``, start ``x^1 = x* + 3 N(0, I)``, ``c^1 = 0``; the cases of
:data:`CASES` (``n, tau, eta~ L, eta_g, sigma``: ``sigma = 0`` runs with exact gradients, ``sigma > 0`` with
:class:`~fedtheory.oracles.AdditiveGaussian`), ``R`` = 40 rounds (300 full), ``S`` = 2 replicas (6 full). A run and
its reference share the seed of their noise, so the two see the same draws in the same order.

Judging: an identity's residual (inf-norm over coordinates and clients) is divided by its rounding scale, the sum of
the magnitudes of the terms the computation combines (:func:`server_scale`, :func:`correction_scale`), and compared
with 0 at ``SCALED_ROUNDING``. Every identity here is claimed for every run of Algorithm 1, so the claims also
search :data:`DOMAIN` with short runs (:func:`search_rounds`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.composite import decoupled, decoupled_compact
from fedtheory.harness.claims import Context, Evidence, negative_control, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import SCALED_ROUNDING
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.regularizers import L1

from . import PAPER
from .instances import prescribed

REGISTERS_CLAIMS = False

P = PAPER.key
D, THETA = 10, 0.5


@dataclass(frozen=True)
class Case:
    """One run's parameters: ``n`` clients, ``tau`` local steps, ``eta~ L``, ``eta_g``, gradient noise ``sigma``."""

    n: int
    tau: int
    eta_tilde_L: float
    eta_g: float
    sigma: float


CASES = (
    Case(5, 1, 0.1, 1.5, 0.0),
    Case(5, 1, 0.5, 3.0, 0.0),
    Case(5, 2, 0.3, 1.0, 0.5),
    Case(5, 5, 0.1, 1.5, 0.0),
    Case(5, 10, 0.05, 2.0, 1.0),
    Case(8, 5, 0.02, 4.0, 2.0),
)
CONTROL = 3
"""The case whose perturbed run (one client's ``c^1`` moved by 1 in every coordinate) and coupled-variant run feed
the negative controls."""


@dataclass(frozen=True)
class Rounds:
    """``R`` traced rounds of Algorithm 1 (or a variant), arrays with a leading round axis.

    ``x`` (R+1, S, d) and ``c`` (R+1, S, n, d): ``x^1 .. x^{R+1}``, ``c^1 .. c^{R+1}``; ``p`` (R, S, d) = ``P(x^r)``;
    ``z``, ``z_hat`` (R, tau+1, S, n, d); ``g`` (R, tau, S, n, d) the gradients queried; ``reference`` (R+1, S, d)
    the server models of the reference implementation from the same start and draws (the compact form (2) with
    ``g = theta ||.||_1``, SCAFFOLD option II with ``g = 0``), or ``None``; ``ref_c`` SCAFFOLD's ``c - c_i``.
    """

    problem: FederatedQuadratic
    regularizer: L1 | None
    params: decoupled.DecoupledParams
    x_star: np.ndarray
    x: np.ndarray
    c: np.ndarray
    p: np.ndarray
    z: np.ndarray
    z_hat: np.ndarray
    g: np.ndarray
    uploads: int
    downloads: int
    reference: np.ndarray | None = None
    ref_c: np.ndarray | None = None

    @property
    def R(self) -> int:
        return self.p.shape[0]


def amax(a, axis=-1) -> np.ndarray:
    """``max |a|`` over ``axis`` (the inf-norm)."""
    return np.max(np.abs(a), axis=axis)


def scaffold_ii(oracle, x0: np.ndarray, params: decoupled.DecoupledParams, R: int, rng) -> tuple:
    """SCAFFOLD with option II control variates, full participation, every control variate 0 at the start
    (Karimireddy et al., "SCAFFOLD: Stochastic Controlled Averaging for Federated Learning", ICML 2020, Algorithm 1):

        y_i <- y_i - eta (g_i(y_i) - c_i + c)           tau local steps from y_i = x
        c_i+ = c_i - c + (x - y_i) / (tau eta)          option II
        x <- x + eta_g mean_i (y_i - x),  c <- c + mean_i (c_i+ - c_i)

    Each client sends two d-vectors up (``y_i - x``, ``c_i+ - c_i``) and receives two (``x``, ``c``). ``x0`` (S, d);
    returns the server models (R+1, S, d) and ``c - c_i`` (R+1, S, n, d) at the start of each round.
    """
    S, d = x0.shape
    x, c, c_i = x0, np.zeros((S, 1, d)), np.zeros((S, params.n, d))
    xs, cs = [x], [c - c_i]
    for _ in range(R):
        y = np.broadcast_to(x[:, None, :], c_i.shape)
        for _ in range(params.tau):
            y = y - params.eta * (oracle(y, rng) - c_i + c)
        c_new = c_i - c + (x[:, None, :] - y) / (params.tau * params.eta)
        x = x + params.eta_g * (y.mean(axis=1) - x)
        c = c + (c_new - c_i).mean(axis=1, keepdims=True)
        c_i = c_new
        xs.append(x)
        cs.append(c - c_i)
    return np.stack(xs), np.stack(cs)


def run_case(
    problem: FederatedQuadratic,
    regularizer: L1 | None,
    x_star: np.ndarray,
    params: decoupled.DecoupledParams,
    sigma: float,
    x0: np.ndarray,
    R: int,
    seed: int,
    *,
    perturb: float = 0.0,
    reference: bool = True,
) -> Rounds:
    """Algorithm 1 (``params.variant``) from ``x^1 = x0`` (S, d), ``c^1 = 0`` plus ``perturb`` on every coordinate of
    client 1's correction, traced for ``R`` rounds; with ``reference``, the compact form (2) (``g != 0``) or SCAFFOLD
    option II (``g = 0``) from ``x0`` with the same noise seed."""
    oracle = AdditiveGaussian(problem, sigma) if sigma > 0 else ExactGradient(problem)
    state = decoupled.init(x0, params, x0.shape[0])
    state.c[:, 0, :] += perturb
    rng = np.random.default_rng(seed)
    xs, cs, ps, zs, hats, gs = [state.x], [state.c], [], [], [], []
    for _ in range(R):
        state, tr = decoupled.round(state, oracle, regularizer, params, rng, trace=True)
        xs.append(state.x)
        cs.append(state.c)
        ps.append(tr.p)
        zs.append(tr.z)
        hats.append(tr.z_hat)
        gs.append(tr.g)
    ref = ref_c = None
    if reference and regularizer is None:
        ref, ref_c = scaffold_ii(oracle, x0, params, R, np.random.default_rng(seed))
    elif reference:
        rng = np.random.default_rng(seed)
        compact = decoupled_compact.init(x0, params, x0.shape[0])
        ref = [compact.x]
        for _ in range(R):
            compact = decoupled_compact.round(compact, oracle, regularizer, params, rng)
            ref.append(compact.x)
        ref = np.stack(ref)
    stack = np.stack
    return Rounds(
        problem, regularizer, params, x_star, stack(xs), stack(cs), stack(ps), stack(zs), stack(hats), stack(gs),
        state.uploads, state.downloads, ref, ref_c,
    )  # fmt: skip


def parameters(problem: FederatedQuadratic, n, tau, eta_tilde_L, eta_g, variant="decoupled"):
    """``DecoupledParams`` with ``eta~ = eta_tilde_L / L`` (``eta = eta~/(eta_g tau)``)."""
    return decoupled.DecoupledParams(eta_tilde_L / problem.L / (eta_g * tau), eta_g, tau, n, variant)


@family(f"{P}/alg-1-traced")
def traced(fam: Family, index: int, regularized: bool, perturb: float, variant: str) -> Rounds:
    """The traced run of ``CASES[index]`` (module docstring) with its reference; ``regularized=False`` is ``g = 0``
    (the same ``f_i``)."""
    case = CASES[index]
    rng = fam.rng()
    problem, regularizer, x_star = prescribed(rng, case.n, D, THETA)
    S = 2 if fam.quick else 6
    x0 = x_star + 3 * rng.normal(size=(S, D))
    params = parameters(problem, case.n, case.tau, case.eta_tilde_L, case.eta_g, variant)
    R = 40 if fam.quick else 300
    return run_case(
        problem, regularizer if regularized else None, x_star, params, case.sigma, x0, R, int(rng.integers(2**32)),
        perturb=perturb, reference=variant == "decoupled",
    )  # fmt: skip


def case_grid(case: Case) -> dict:
    """The parameters of a case, for :meth:`Points.add`."""
    return {
        "n": case.n, "tau": case.tau, "eta_tilde_L": case.eta_tilde_L, "eta_g": case.eta_g, "theta": THETA,
        "sigma": case.sigma,
    }  # fmt: skip


# --- rounding scales --------------------------------------------------------------------------------------------------
def server_scale(rd: Rounds) -> np.ndarray:
    """(R, S): the magnitudes that enter ``x^{r+1} = p^r + eta_g (mean_i z^_{i,tau} - p^r)`` and ``P(p^r - eta~ v^r)``:
    ``|x^{r+1}| + (1 + eta_g)|p^r| + eta_g max_i |z^_{i,tau}| + eta~ (max |g| + max_i |c_i^r|)``."""
    q = rd.params
    return (
        amax(rd.x[1:])
        + (1 + q.eta_g) * amax(rd.p)
        + q.eta_g * amax(rd.z_hat[:, -1], (-2, -1))
        + q.eta_tilde * (amax(rd.g, (1, -2, -1)) + amax(rd.c[:-1], (-2, -1)))
    )


def correction_scale(rd: Rounds) -> np.ndarray:
    """(R, S): the rounding scale of ``c^{r+1} = (p^r - x^{r+1})/eta~ - (1/tau) sum_t g_{i,t}`` and of the gradient
    averages: :func:`server_scale` over ``eta~`` plus ``max |g|``."""
    return server_scale(rd) / rd.params.eta_tilde + amax(rd.g, (1, -2, -1))


def path_scale(scale: np.ndarray) -> np.ndarray:
    """(R, S): the rounding scale of a difference of two paths after ``r`` rounds, the per-round scales added."""
    return np.cumsum(scale, axis=0)


# --- the witness search --------------------------------------------------------------------------------------------
SEARCH_R, SEARCH_D, SEARCH_S = 2, 6, 2
AXES = {
    "n": Axis(1, 16, integer=True),
    "tau": Axis(1, 12, integer=True),
    "eta_tilde_L": Axis(1e-3, 10.0),
    "eta_g": Axis(0.1, 30.0),
    "theta": Axis(1e-3, 10.0),
    "sigma": Axis(1e-3, 10.0),
}
NOTE = (
    "Algorithm 1's identities are claimed for every run: any n >= 1, tau >= 1, eta, eta_g > 0, start and oracle. "
    "Searched: n in 1..16, tau in 1..12, eta~ L in [1e-3, 10] (past 2/L the runs grow, the identities still hold), "
    "eta_g in [0.1, 30], theta in [1e-3, 10], Gaussian gradient noise sigma in [1e-3, 10] (sigma = 0 is in the "
    f"runs), on the prescribed-minimiser instance with d = {SEARCH_D}, {SEARCH_S} replicas from x* + 3 N(0, I), "
    f"{SEARCH_R} rounds (the identities are per round; round 2 is the first with c != 0, the long runs are the "
    "runs of the cases)."
)
DOMAIN = Domain(AXES, note=NOTE)
SEARCH_SEED = seed_for(f"{P}/alg-1-search")


@functools.cache
def search_rounds(n, tau, eta_tilde_L, eta_g, theta, sigma, regularized: bool = True, reference: bool = False):
    """A short traced run at one point of :data:`DOMAIN` (module docstring), with its reference if asked."""
    rng = np.random.default_rng([SEARCH_SEED, n, tau])
    problem, regularizer, x_star = prescribed(rng, n, SEARCH_D, theta)
    x0 = x_star + 3 * rng.normal(size=(SEARCH_S, SEARCH_D))
    params = parameters(problem, n, tau, eta_tilde_L, eta_g)
    seed = int(rng.integers(2**32))
    reg = regularizer if regularized else None
    return run_case(problem, reg, x_star, params, sigma, x0, SEARCH_R, seed, reference=reference)


def worst(values: np.ndarray) -> float:
    """The largest entry (a search evaluation's measured value)."""
    return float(np.max(values))


# --- judging ----------------------------------------------------------------------------------------------------------
PERTURBED = "client 1's c^1 moved by 1 in every coordinate (sum_i c_i^1 != 0)"


def judged(points: Points, control: np.ndarray, what: str, **witness) -> Evidence:
    """The evidence ``residual == 0`` at ``SCALED_ROUNDING`` with the negative control on ``control``."""
    ev = Evidence(control, 0.0, "==", atol=SCALED_ROUNDING)
    witness["negative control"] = negative_control(ev, what)
    return points.evidence("==", atol=SCALED_ROUNDING, witness=witness)


def over_cases(ctx: Context, residuals, *, regularized: tuple[bool, ...] = (True,), cases=None) -> Points:
    """A point per case, regularizer (``g = theta ||.||_1`` or ``g = 0``) and named residual (``residuals(rounds) ->
    {name: (R, S) array}``): the worst entry."""
    points = Points()
    for reg in regularized:
        for i in range(len(CASES)) if cases is None else cases:
            rd = traced(ctx, i, reg, 0.0, "decoupled")
            for name, values in residuals(rd).items():
                points.add(worst(values), 0.0, quantity=name, g="theta ||.||_1" if reg else "0", **case_grid(CASES[i]))
    return points


def search_points(points: Points, residuals, ctx: Context, domain: Domain = DOMAIN, *, reference=False, **fixed):
    """Search ``domain`` for the largest scaled residual of :func:`search_rounds` (``fixed``: the parameters the
    domain does not search, and ``regularized``); the worst residual's name is recorded with each evaluation."""

    def at(**params):
        values = residuals(search_rounds(**fixed, **params, reference=reference))
        name = max(values, key=lambda k: worst(values[k]))
        return worst(values[name]), 0.0, {"quantity": name}

    points.search(at, domain, "==", ctx)
