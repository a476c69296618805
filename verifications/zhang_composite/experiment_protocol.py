"""Section 4's experiment protocol and the runs "at convergence" shared by the experiment claims (no claims).

* The printed parameters of Figures 2 and 3 (:data:`FIG2`, :data:`FIG3`; Section 4.1), written once.
* The step mapping to the baselines (ours: not printed in the paper): Algorithm 1's local step ``eta`` is the
  baselines' client step ``eta_c`` and its global step ``eta_g`` their server step ``eta_s``, with ``K = tau`` local
  steps and full participation (:func:`baseline_params`). FedMid is Algorithm 5 of Yuan et al. (server prox
  ``P_{eta_s eta_c K}``; "FedMiD(no server prox)" the plain average), FedDA their Algorithm 6
  (:mod:`fedtheory.algorithms.composite`). Fast-FedDA is not defined in the paper and its update is in none of our
  sources: it is omitted, and no claim is made about it.
* The optimality metric of Section 4.1, ``||G(P(x^r))|| / ||G(P(x^1))||`` with ``G`` the gradient mapping of step
  ``eta~ = eta eta_g tau`` (11); for a baseline the same mapping at its primal server model (our default), so
  every method of a panel is measured with one step (:func:`optimality`).
* The logistic stand-in data (:func:`logistic_problem`): FedProx's synthetic(alpha, beta) generator
  (:func:`fedtheory.problems.fedprox_synthetic`, binary, alpha and beta read as standard deviations, equal client
  sizes), features scaled by one common factor chosen so that the printed server step of the figure's first panel
  is ``1/L`` (``eta eta_g tau L = 1``; the raw data have ``L`` near ``5e4``, where every printed step diverges), and
  redrawn while ``0`` is stationary (``||grad f(0)||_inf <= theta``, where the metric is ``0/0``).
* Fixed points of the deterministic round maps (full gradients, quadratic clients, ``g = theta ||.||_1``: piecewise
  affine maps): Algorithm 1 and its ablations on ``(x^r, c_1^r, ..., c_{n-1}^r)`` (``c_n = -sum`` of the others:
  ``sum_i c_i = 0`` is conserved, except by the coupled variant, which keeps every ``c_i``), FedMid on ``x^r``, all
  by :func:`fedtheory.algorithms.composite.affine_fixed_point`; FedDA, whose dual grows without bound, by its
  closed form on the support of a long run (:func:`feddualavg_limit`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.algorithms.composite import decoupled, potentials
from fedtheory.errors import InvalidParameterError
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic, LogisticRegression, fedprox_synthetic
from fedtheory.regularizers import L1

from .printed import condition_13, condition_lemmas

REGISTERS_CLAIMS = False  # the shared protocol; the claims are in the sibling modules

PAPER = "zhang-composite"


@dataclass(frozen=True)
class Experiment:
    """One printed experiment of Section 4.1: data sizes, ``theta``, ``tau`` values and the steps per method."""

    n: int
    d: int
    m: int
    theta: float
    alpha: float
    beta: float
    taus: tuple[int, ...]
    steps: dict  # method -> (eta, eta_g)
    batches: tuple[int, ...] = ()


FIG2 = Experiment(
    n=30,
    d=20,
    m=100,
    theta=0.003,
    alpha=50.0,
    beta=50.0,
    taus=(1, 10),
    steps={"Proposed": (4.0, 15.0), "FedDA": (4.0, 15.0), "FedMid": (1.0, 5.0)},
)
"""Figure 2 as printed: full gradients, ``(alpha, beta) = (50, 50)``, hand-tuned steps."""

FIG3 = Experiment(
    n=30,
    d=20,
    m=2000,
    theta=0.0005,
    alpha=50.0,
    beta=50.0,
    taus=(20,),
    steps={"Proposed": (2.0, 8.0), "FedDA": (2.0, 8.0)},
    batches=(1, 20),
)
"""Figure 3 as printed ("the other settings are the same as those in Fig. 2"): minibatches of ``b`` samples."""

BASELINES = {"FedDA": "FedDualAvg", "FedMid": "FedMiD", "FedMid(no server prox)": "FedMiD(no server prox)"}
"""The paper's names of the baselines -> the library's algorithms."""


def baseline_params(method: str, eta: float, eta_g: float, tau: int, n: int) -> fco.CompositeParams:
    """The baseline's parameters for Algorithm 1's steps: ``eta_c = eta``, ``eta_s = eta_g``, ``K = tau``, ``M = n``."""
    return fco.CompositeParams(BASELINES[method], eta, tau, n, eta_g)


def conditions(eta: float, eta_g: float, tau: int, n: int, L: float) -> dict:
    """Whether ``(eta, eta_g, tau)`` meets (13) and the Lemmas' ``eta~ <= eta_g/(sqrt(20) L)``, with ``eta~ L``."""
    eta_tilde = eta * eta_g * tau
    return {
        "eta~ = eta eta_g tau": eta_tilde,
        "eta~ L": eta_tilde * L,
        "(13): eta~ <= 1/(10L) and eta_g >= max(1.5, sqrt(n/8))": bool(condition_13(eta_tilde, eta_g, L, n)),
        "Lemmas A.1/A.2: eta~ <= eta_g/(sqrt(20) L)": bool(condition_lemmas(eta_tilde, eta_g, L)),
    }


# --------------------------------------------------------------------------------------------------
# data and the optimality metric
# --------------------------------------------------------------------------------------------------
def logistic_problem(
    rng: np.random.Generator, exp: Experiment, *, m: int | None = None, draws: int = 50
) -> tuple[LogisticRegression, dict]:
    """FedProx synthetic(alpha, beta) data of ``exp`` (``m`` samples per client, default printed), features scaled so
    that the Proposed method's server step of the first panel is ``1/L``; redrawn while ``0`` is stationary.

    Returns the problem and a record: the scale, ``L``, the raw ``L``, ``||grad f(0)||_inf / theta`` and the draws."""
    eta, eta_g = exp.steps["Proposed"]
    step = eta * eta_g * exp.taus[0]
    for draw in range(1, draws + 1):
        A, y = fedprox_synthetic(
            rng, n_clients=exp.n, m=exp.m if m is None else m, d=exp.d, alpha=exp.alpha, beta=exp.beta
        )
        raw = LogisticRegression(A, y).L
        scale = 1.0 / np.sqrt(step * raw)
        problem = LogisticRegression(scale * A, y)
        ratio = float(np.max(np.abs(problem.grad(np.zeros(exp.d))))) / exp.theta
        if ratio > 1:
            return problem, {
                "feature scale": scale,
                "L": problem.L,
                "raw L": raw,
                "||grad f(0)||_inf/theta": ratio,
                "draws": draw,
            }
    raise RuntimeError(f"0 stationary on {draws} draws of the data")


def optimality(problem, regularizer, primal: np.ndarray, eta_tilde: float) -> np.ndarray:
    """``||G(x^r)|| / ||G(x^1)||`` over the first axis of ``primal`` (records, ..., d): the gradient mapping (11) of
    step ``eta_tilde`` at the primal models (Algorithm 1's ``P_{eta~}(x^r)``, a baseline's server model)."""
    G = np.linalg.norm(potentials.prox_gradient_mapping(problem, regularizer, primal, eta_tilde), axis=-1)
    return G / G[:1]


def primal_run(
    method: str,
    oracle,
    regularizer,
    eta: float,
    eta_g: float,
    tau: int,
    R: int,
    rng,
    *,
    S: int = 1,
    record_every: int = 1,
    variant: str = "decoupled",
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Rounds ``t``, primal server models (records, S, d) of ``method`` ("Proposed", with ``variant``, or a key of
    :data:`BASELINES`) from ``0``, and for Algorithm 1 ``||sum_i c_i^r||`` (records, S; 0 in exact arithmetic): its
    ``P_{eta~}(x^r)`` (first record ``r = 1``), a baseline's ``x^r`` (first record its start)."""
    n, d = oracle.problem.n_clients, oracle.problem.dim
    if method == "Proposed":
        params = decoupled.DecoupledParams(eta, eta_g, tau, n, variant)
        tr = decoupled.run(oracle, regularizer, np.zeros(d), params, R, rng, S=S, record_every=record_every)
        return tr.t - 1, decoupled.output(regularizer, tr.x, params), np.linalg.norm(tr.c.sum(axis=2), axis=-1)
    params = baseline_params(method, eta, eta_g, tau, n)
    tr = fco.run(oracle, fco.Euclidean(regularizer), np.zeros(d), params, R, rng, S=S, record_every=record_every)
    return tr.t, tr.x, None


# --------------------------------------------------------------------------------------------------
# fixed points of the deterministic round maps
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limit:
    """A method's deterministic limit: the primal ``x`` (the output ``P_{eta~}(x^r)`` for Algorithm 1), the full state
    where there is one, and how it was certified."""

    x: np.ndarray
    state: object
    record: dict


def decoupled_limit(problem, regularizer: L1, params: decoupled.DecoupledParams) -> Limit:
    """The fixed point of Algorithm 1's round map (variant ``params.variant``) from ``x^1 = 0``, ``c^1 = 0``."""
    n, d = params.n, problem.dim
    oracle = ExactGradient(problem)
    reduced = params.variant != "coupled"  # sum_i c_i = 0 is conserved: drop c_n

    def unpack(s):
        x, c = s[:d], s[d:].reshape(-1, d)
        if reduced:
            c = np.vstack([c, -c.sum(axis=0)])
        return decoupled.DecoupledState(x[None], c[None])

    def step(s):
        new = decoupled.round(unpack(s), oracle, regularizer, params, None)
        return np.concatenate([new.x[0], new.c[0, : n - 1 if reduced else n].ravel()])

    s, record = _fixed_point(step, np.zeros(d * (n if reduced else n + 1)))
    state = unpack(s)
    return Limit(decoupled.output(regularizer, state.x[0], params), state, record)


def composite_limit(problem, regularizer: L1, params: fco.CompositeParams) -> Limit:
    """The fixed point of FedMid's server map (with or without its server prox) from ``x = 0``."""
    oracle, mirror = ExactGradient(problem), fco.Euclidean(regularizer)

    def step(x):
        return fco.round(fco.CompositeState(x[None], None), oracle, mirror, params, None).x[0]

    x, record = _fixed_point(step, np.zeros(problem.dim))
    return Limit(x, None, record)


def _fixed_point(step, s0: np.ndarray, *, plain: int = 200, tol: float = 1e-13) -> tuple[np.ndarray, dict]:
    """A fixed point of ``step`` from ``s0``: ``plain`` iterations first (a map whose iterates land exactly on a fixed
    point, e.g. every prox in its dead zone, is done there, whatever its Jacobian), then
    :func:`~fedtheory.algorithms.composite.affine_fixed_point` from the last iterate."""
    s = s0
    for k in range(1, plain + 1):
        s, previous = np.asarray(step(s), dtype=float), s
        residual = float(np.max(np.abs(s - previous)) / max(1.0, float(np.max(np.abs(s)))))
        if residual <= tol:
            return s, {"residual": residual, "iterations": k, "how": "plain iteration"}
    fp = fco.affine_fixed_point(step, s, tol=tol)
    record = {"residual": fp.residual, "iterations": plain + fp.iterations, "spectral radius": fp.spectral_radius}
    return fp.x, {**record, "how": "affine solve on the final piece"}


def feddualavg_limit(problem: FederatedQuadratic, regularizer: L1, params: fco.CompositeParams, start) -> Limit:
    """FedDA's deterministic limit (Euclidean ``h``, ``g = theta ||.||_1``, quadratic clients).

    With weights ``eta~ = eta_s eta_c r K + eta_c k`` growing without bound, a coordinate ``j`` whose dual stays
    within a bounded distance of the threshold (the set ``S``, side ``s_j``) has retrieved primals
    ``s_j max(s_j u_j, 0)`` with the shifted dual ``u_j = y_j - eta~ theta s_j``, and every other coordinate is 0 for
    good (its dual sinks ever deeper inside ``[-eta~ theta, eta~ theta]``). On ``u_S`` a round is a stationary
    piecewise-affine map: clients ``u <- u - eta_c (grad_S f_i(x) + theta s)`` from the server's ``u``, the server
    ``u <- u + eta_s mean_i (u_i^K - u)``. Its fixed point (:func:`_fixed_point`, from ``start`` on ``S``) is the
    limit when the mean gradient of the client trajectories (over clients and local steps) is strictly below
    ``theta`` in absolute value off ``S``. ``S`` starts as the support of ``start`` (e.g. ``x*``) and is refined: a
    coordinate for which the map has no fixed point (its shifted dual drifts to the far side) leaves ``S``, else the
    worst off-support violator enters it on the side that decreases ``F``, until certified.

    Raises
    ------
    RuntimeError
        If no support is certified within ``2 d`` refinements.
    """
    theta, d = regularizer.lam, problem.dim
    u0 = np.asarray(start, dtype=float).copy()
    history = []
    for _ in range(2 * d + 1):
        S = u0 != 0
        history.append(int(S.sum()))
        found = _shifted_limit(problem, theta, u0, params)
        if isinstance(found, np.ndarray):  # no fixed point: the coordinates that drifted to the far side leave S
            u0[S] = np.where(np.sign(found) == np.sign(u0[S]), found, 0.0)
            continue
        x, u, mean_grad, record = found
        excess = np.where(S, -np.inf, np.abs(mean_grad) - theta)
        if not excess.max() >= 0:
            slack = float(min(-excess.max(), theta))
            record = {
                **record,
                "|S| (duals at the threshold)": int(S.sum()),
                "of which server primal 0, clients active": int(np.count_nonzero(S & (x == 0))),
                "off-support slack theta - max|mean gradient|": slack,
                "refinements (|S|)": history,
            }
            return Limit(x, None, record)
        u0[S] = u
        j = int(np.argmax(excess))
        u0[j] = -np.sign(mean_grad[j]) * 1e-9 * max(1.0, float(np.max(np.abs(u))))
    raise RuntimeError(f"FedDA limit not certified: the support refinement did not settle ({history})")


def _shifted_limit(problem: FederatedQuadratic, theta: float, u0: np.ndarray, params: fco.CompositeParams):
    """The fixed point of FedDA's stationary round map on the shifted duals of ``S = {u0 != 0}`` with the sides of
    ``u0`` (:func:`feddualavg_limit`), started at ``u0``: ``(primal, shifted dual, mean full gradient of the client
    trajectories, record)``, or, when the map has no fixed point, the shifted dual after 100 plain iterations."""
    signs = np.sign(u0)
    S = np.flatnonzero(signs)
    n, d = problem.b.shape

    def trajectories(u):
        """Client primals (K, n, d) of a round from the server's shifted dual ``u`` on ``S``, and the clients' final
        shifted duals (n, |S|)."""
        ui = np.broadcast_to(u, (n, S.size)).copy()
        xs = []
        for _ in range(params.K):
            x = np.zeros((n, d))
            x[:, S] = signs[S] * np.maximum(signs[S] * ui, 0.0)
            xs.append(x)
            ui -= params.eta_c * (problem.client_grad(x)[:, S] + theta * signs[S])
        return np.stack(xs), ui

    def step(u):
        return u + params.eta_s * (trajectories(u)[1].mean(axis=0) - u)

    u, record = np.zeros(0), {"residual": 0.0, "how": "empty support"}
    if S.size:
        try:
            u, record = _fixed_point(step, u0[S])
        except InvalidParameterError:
            u = u0[S]
            for _ in range(100):
                u = step(u)
            return u
    x = np.zeros(d)
    x[S] = signs[S] * np.maximum(signs[S] * u, 0.0)
    xs, _ = trajectories(u)
    return x, u, problem.client_grad(xs).mean(axis=(0, 1)), record
