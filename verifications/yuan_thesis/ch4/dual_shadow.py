"""Lemma 4.9 and its proof (section 4.4.2): the instances, the seeded FedDualAvg runs and their dual shadow sequence
(no claims). The claims are in the sibling modules: the pathwise steps ((4.14), Claims 4.13-4.14, (4.21) and the
proof steps) in :mod:`.lem_4_9_pathwise_steps`, Proposition 4.12 and its printed proof chain in
:mod:`.prop_4_12_one_step`, Lemma 4.9 itself in :mod:`.lem_4_9_ergodic_gap`.

With ``eta_s = 1`` the client-average ``ybar^{(r,k)}`` of FedDualAvg's duals runs dual averaging with the averaged
gradient, (4.14); Lemma 4.9 (4.15) bounds the ergodic gap of the shadow primals ``x^^{(r,k)} =
grad (h + eta~^{(r,k)} psi)^*(ybar^{(r,k)})`` (4.16) through Proposition 4.12 (one step in conditional expectation),
Claims 4.13 (an identity, printed ``=``) and 4.14 (a deterministic inequality) and (4.21). What the sibling
modules check:

* pathwise, on every local step of seeded stochastic runs: (4.14), Claim 4.13 at ``x*`` (and, as an extension, at
  arbitrary ``x``, ``gbar``, ``ybar``), Claim 4.14, (4.21), the triangle step of Claim 4.14's proof and the Jensen step
  of Lemma 4.9's proof;
* Proposition 4.12 at fixed states (states of the runs and a synchronized state at ``x*``) by Monte Carlo over the
  noise of one step, with the exactly-mean-zero control variate ``eta_c <avg_m eps_m, x^^{(r,k)} - x*>``;
* the printed proof chain of Proposition 4.12 (the product step and the variance step), exactly where a closed form
  exists (``psi = 0``: Gaussian moments and the non-central chi mean; Rademacher noise: exact enumeration) and by
  Monte Carlo otherwise;
* Lemma 4.9 by Monte Carlo over replicas (the discrepancy term is inside the expectation, so it is computed on the
  same paths), and exactly with ``sigma = 0``.

Instances (seeded; ``x^{(0,0)} = 0``; ``eta_s = 1``, full participation as in Assumption 4.1(e)).

* ``Q-het``: ``d = 10``, ``M = 4``, ``F_m(x) = x'H_m x/2 - c_m'x``, ``H_m = Q_m Q_m'/d + 0.2 I``, ``c_m ~ N(0, I)``
  (our own instance), additive noise ``eps ~ N(0, s^2 I)``, ``s = 0.5``. Euclidean ``h = ||x||_2^2/2`` with
  ``psi = 0.3 ||x||_1``, ``psi`` the indicator of the l2 ball of radius ``||argmin F||_2 / 2`` (active), and
  ``psi = 0``. Norm l2: ``L = max_m lambda_max(H_m)``, ``sigma^2 = E||eps||_2^2 = d s^2`` (attained at every x).
* ``Q-het, l1 geometry``: the same ``F`` and ``psi = 0.3 ||x||_1`` with ``||.|| = ||.||_1``, ``||.||_* = ||.||_inf``,
  ``h = c ||x||_p^2/(2(p - 1))``, ``p = 1 + 1/ln d``, ``c = d^(2 - 2/p)`` (1-strongly convex w.r.t. l1 since
  ``||v||_p >= d^(1/p - 1) ||v||_1``), ``L = max_m max_i (H_m)_ii`` (the sup of ``v'H_m v`` over the l1 unit ball is
  at a vertex), Rademacher noise ``+-s`` per coordinate, so ``sigma^2 = E||eps||_inf^2 = s^2`` exactly.
* ``N4``: ``x = (vec X, x^0)``, ``X`` 4 x 4, ``d = 17``, ``H_m = Q_m Q_m'/17 + 0.5 I``, ``psi = 0.5 ||X||_nuc`` through
  :class:`~fedtheory.regularizers.Masked` (intercept free), Gaussian noise as above.

``x*`` and ``Phi*`` come from :func:`fedtheory.reference.composite_optimum` (certificates in the witnesses).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis
from fedtheory.oracles import AdditiveGaussian, Rademacher
from fedtheory.problems import FederatedQuadratic
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, L2Ball, Masked, NuclearNorm

REGISTERS_CLAIMS = False  # shared instances and runs; the claims are in the sibling modules


PAPER = "yuan-thesis"
D, M, LAM, S_NOISE = 10, 4, 0.3, 0.5
NUC_SIDE, NUC_LAM = 4, 0.5
CONFIDENCE = 0.99


def l2(v) -> np.ndarray:
    return np.linalg.norm(v, axis=-1)


def _l1(v) -> np.ndarray:
    return np.sum(np.abs(v), axis=-1)


def linf(v) -> np.ndarray:
    return np.max(np.abs(v), axis=-1)


def inner(a, b) -> np.ndarray:
    return np.sum(a * b, axis=-1)


@dataclass(frozen=True)
class Instance:
    """A heterogeneous quadratic with ``psi``, a geometry (``h``, norm, dual norm) and its certified constants."""

    name: str
    problem: FederatedQuadratic
    mirror: fco.MirrorMap
    x_star: np.ndarray
    phi_star: float
    L: float  # smallest L of Assumption 4.1(c) in the instance's norm
    sigma2: float  # sigma^2 of Assumption 4.1(d) in the dual norm (attained at every x)
    noise: object  # the stochastic oracle (additive noise, independent of x)
    norm: Callable
    dual: Callable
    witness: dict

    @property
    def M(self) -> int:
        return self.problem.A.shape[0]

    @property
    def dim(self) -> int:
        return self.problem.dim

    @property
    def euclidean(self) -> bool:
        return self.mirror.euclidean

    def phi_gap(self, x) -> np.ndarray:
        """``Phi(x) - Phi(x*)`` over the last axis (``inf`` outside ``dom psi``)."""
        return self.problem.value(x) + self.mirror.psi_value(x) - self.phi_star

    def consistent_dual(self, t: float) -> np.ndarray:
        """``y = grad h(x*) - t grad F(x*)``: ``grad (h + t psi)^*(y) = x*`` since ``-grad F(x*) in d psi(x*)``."""
        return self.mirror.grad_h(self.x_star) - t * self.problem.grad(self.x_star)


def _optimum(problem: FederatedQuadratic, psi) -> tuple[np.ndarray, float, dict]:
    if psi is None:
        x = problem.x_star
        return x, float(problem.value(x)), {"x*": "argmin F (closed form, lstsq)"}
    ref = composite_optimum(problem, psi)
    cert = {k: ref.certificate[k] for k in ("kkt_residual", "duality_gap") if k in ref.certificate}
    return ref.x, ref.value, {"x*": "composite_optimum", **cert, "solver": ref.solver}


@family(f"{PAPER}/dual-shadow:instances")
def instances(fam: Family) -> dict[str, Instance]:
    """The five instances with their certified optima and constants (one draw, the same in both profiles)."""
    rng = fam.rng()
    Q = rng.standard_normal((M, D, D))
    het = FederatedQuadratic(Q @ Q.transpose(0, 2, 1) / D + 0.2 * np.eye(D), rng.standard_normal((M, D)))
    gauss = AdditiveGaussian(het, cov=S_NOISE**2 * np.eye(D))
    dn = NUC_SIDE * NUC_SIDE + 1
    Qn = rng.standard_normal((M, dn, dn))
    nuc = FederatedQuadratic(Qn @ Qn.transpose(0, 2, 1) / dn + 0.5 * np.eye(dn), rng.standard_normal((M, dn)))
    mask = np.r_[np.ones(dn - 1, dtype=bool), False]
    radius = 0.5 * float(np.linalg.norm(het.x_star))
    p = 1 + 1 / np.log(D)
    specs = {
        "Q-het, l1, Euclidean": (het, fco.Euclidean(L1(LAM)), gauss),
        "Q-het, l2 ball, Euclidean": (het, fco.Euclidean(L2Ball(radius)), gauss),
        "Q-het, psi = 0, Euclidean": (het, fco.Euclidean(None), gauss),
        "N4, nuclear (Masked), Euclidean": (
            nuc,
            fco.Euclidean(Masked(NuclearNorm(NUC_LAM), mask, (NUC_SIDE, NUC_SIDE))),
            AdditiveGaussian(nuc, cov=S_NOISE**2 * np.eye(dn)),
        ),
        "Q-het, l1, l1 geometry (p-norm h)": (
            het,
            fco.PNorm(p, L1(LAM), scale=D ** (2 - 2 / p)),
            Rademacher(het, S_NOISE * np.sqrt(D)),  # coordinates +-S_NOISE
        ),
    }
    out = {}
    for name, (problem, mirror, noise) in specs.items():
        x_star, phi_star, cert = _optimum(problem, mirror.psi)
        if mirror.euclidean:
            L, sigma2, norm, dual = problem.L, problem.dim * S_NOISE**2, l2, l2
            geometry = "h = ||x||_2^2/2, ||.|| = ||.||_* = l2, L = max_m lambda_max(H_m), sigma^2 = d s^2"
        else:
            L = float(np.max(np.diagonal(problem.A, axis1=1, axis2=2)))
            sigma2, norm, dual = S_NOISE**2, _l1, linf
            geometry = (
                f"h = c||x||_p^2/(2(p-1)), p = {p:.6f}, c = d^(2-2/p) = {D ** (2 - 2 / p):.6f}; ||.|| = l1, "
                "||.||_* = l_inf; L = max_m max_i (H_m)_ii; Rademacher noise +-s, sigma^2 = s^2"
            )
        witness = {
            "psi": type(mirror.psi).__name__ if mirror.psi is not None else "0",
            "geometry": geometry,
            "L": L,
            "sigma^2": sigma2,
            "D_h(x*, x0)": float(mirror.bregman(x_star, np.zeros(problem.dim))),
            **cert,
        }
        if isinstance(mirror.psi, L2Ball):
            witness["radius"] = radius
            witness["||x*||_2"] = float(np.linalg.norm(x_star))
        if isinstance(mirror.psi, Masked):
            witness["singular values of X*"] = np.linalg.svd(
                x_star[:-1].reshape(NUC_SIDE, NUC_SIDE), compute_uv=False
            ).tolist()
        out[name] = Instance(name, problem, mirror, x_star, phi_star, L, sigma2, noise, norm, dual, witness)
    return out


@dataclass(frozen=True)
class Path:
    """Every state of ``R`` rounds of FedDualAvg (``eta_s = 1``) on ``S`` replicas.

    ``y`` (R, K+1, S, M, d) client duals ``y_m^{(r,k)}``; ``x``, ``g`` (R, K, S, M, d) retrieved primals and queried
    gradients; ``server`` (R+1, S, d) server duals ``y^{(r,0)}``; ``ybar`` (R, K+1, S, d) the dual shadow;
    ``hat`` (R, K+1, S, d) the shadow primals (4.16) from :func:`fco.shadow_primals`.
    """

    inst: Instance
    factor: float  # eta_c L
    params: fco.CompositeParams
    y: np.ndarray
    x: np.ndarray
    g: np.ndarray
    server: np.ndarray
    ybar: np.ndarray
    hat: np.ndarray

    @property
    def eta(self) -> float:
        return self.params.eta_c

    @property
    def label(self) -> str:
        return f"eta_c L = {self.factor:g}"

    def t(self, r: int, k: int) -> float:
        return fco.eta_tilde(self.params, r, k)


def rounds(inst: Instance, params: fco.CompositeParams, R: int, S: int, rng, oracle=None):
    """Yield ``(r, trace, ybar, hat, state)`` for rounds ``r = 0..R-1`` of FedDualAvg from ``x^{(0,0)} = 0``."""
    oracle = inst.noise if oracle is None else oracle
    state = fco.init(np.zeros(inst.dim), inst.mirror, params, S)
    for r in range(R):
        state, tr = fco.round(state, oracle, inst.mirror, params, rng, trace=True)
        ybar = np.einsum("sm,ksmd->ksd", tr.weights, tr.y)  # the same average shadow_primals takes
        yield r, tr, ybar, fco.shadow_primals(tr, inst.mirror, params, r), state


def _path(inst: Instance, eta_factor: float, K: int, R: int, S: int) -> Path:
    params = fco.CompositeParams("FedDualAvg", eta_factor / inst.L, K, inst.M)
    rng = np.random.default_rng(seed_for(f"{PAPER}/dual-shadow:path:{inst.name}:{eta_factor}"))
    server = [np.zeros((S, inst.dim)) + inst.mirror.grad_h(np.zeros(inst.dim))]
    ys, xs, gs, ybars, hats = [], [], [], [], []
    for _, tr, ybar, hat, state in rounds(inst, params, R, S, rng):
        ys.append(tr.y)
        xs.append(tr.x)
        gs.append(tr.g)
        ybars.append(ybar)
        hats.append(hat)
        server.append(state.y)
    return Path(inst, eta_factor, params, *(np.stack(a) for a in (ys, xs, gs, server, ybars, hats)))


ETA_FACTORS = (0.25, 1 / 16)  # eta_c L: the largest the lemma allows, and a smaller one


@family(f"{PAPER}/dual-shadow-paths")
def paths(fam: Family) -> tuple[Path, ...]:
    """Stochastic runs of every instance at ``eta_c = 1/(4L)`` and ``1/(16L)``, K = 5 (R = 6, S = 2 quick; each run
    seeded from its instance and ``eta_c L``)."""
    K, R, S = (5, 6, 2) if fam.quick else (5, 30, 8)
    return tuple(_path(inst, f, K, R, S) for inst in instances(fam.profile).values() for f in ETA_FACTORS)


def path_witness(ctx: Context) -> dict:
    """The size of the runs of :func:`paths` and every instance's constants and certificates."""
    p = paths(ctx)[0]
    return {
        "runs": f"K = {p.params.K}, R = {p.y.shape[0]}, S = {p.y.shape[2]} replicas, x^(0,0) = 0, eta_s = 1",
        "instances": {name: inst.witness for name, inst in instances(ctx).items()},
    }


def add_entries(points: Points, measured, bound, **parameters) -> None:
    """One point per entry of ``measured`` and ``bound`` (floats, broadcast against each other, flattened in C
    order), each with the same ``parameters``."""
    measured, bound = np.broadcast_arrays(np.asarray(measured, float), np.asarray(bound, float))
    for value, printed in zip(measured.ravel(), bound.ravel()):
        points.add(value, printed, **parameters)


# --- two heterogeneous quadratic clients in d = 2, the instances of the witness searches -----------------------------

TWO_CLIENT_AXES = {
    "kappa1": Axis(1.0, 1e4),
    "theta1": Axis(0.0, np.pi, log=False),
    "kappa2": Axis(1.0, 1e4),
    "theta2": Axis(0.0, np.pi, log=False),
    "top2": Axis(1e-3, 1.0),
    "b1": Axis(1e-3, 1e3),
    "phi_b1": Axis(0.0, 2 * np.pi, log=False),
    "b2": Axis(1e-3, 1e3),
    "phi_b2": Axis(0.0, 2 * np.pi, log=False),
}
"""The axes of :func:`two_clients` (the first axes of every search over them)."""


def polar(r: float, angle: float) -> np.ndarray:
    """The vector of length ``r`` at ``angle`` in the plane."""
    return r * np.array([np.cos(angle), np.sin(angle)])


def rotated(kappa: float, theta: float, top: float) -> np.ndarray:
    """``top U diag(1, 1/kappa) U'``, ``U`` the rotation by ``theta``."""
    U = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    return top * U @ np.diag([1.0, 1.0 / kappa]) @ U.T


def two_clients(kappa1, theta1, kappa2, theta2, top2, b1, phi_b1, b2, phi_b2) -> tuple[np.ndarray, np.ndarray]:
    """``(H, b)`` of two clients ``F_m(x) = x'H_m x/2 - b_m'x`` in ``d = 2``: ``||H_1|| = 1`` and ``||H_2|| = top2 <=
    1`` (so ``L = 1``), condition numbers ``kappa_m`` and eigenbases rotated by ``theta_m``, ``b_m`` in polar form."""
    H = np.stack([rotated(kappa1, theta1, 1.0), rotated(kappa2, theta2, top2)])
    return H, np.stack([polar(b1, phi_b1), polar(b2, phi_b2)])
