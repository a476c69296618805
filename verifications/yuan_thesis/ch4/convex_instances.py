"""Instances shared by the convex-analysis claims of chapter 4 and appendix C (no claims): the mirror-map geometries
with their norms, random SPD matrices, the quadratics Q-het / Q-idH, the commutation floor and the number of draws.

Instances.

* Mirror-map geometries (every one the library has, ``fedtheory.algorithms.composite``): Euclidean ``h`` with psi in
  {0, l1, (lam/2)||.||^2, elastic net, box, l2 ball, l1 ball, simplex, l1 with a free intercept, nuclear norm on a
  3 x 4 matrix}, the p-norm ``h = mu ||x||_p^2/(2(p - 1))`` (p = 1.2, 1.5; mu = 1 and, for Prop. C.5, 1/2 and 2)
  with psi in {0, l1}, the entropy ``h`` with the simplex indicator and alone. ``h`` is 1-strongly convex w.r.t.
  l2 and w.r.t. the norm of Assumption 4.2(c), ``||x|| = sqrt(x'Ax/||A||_2)`` (A random SPD, condition number 20)
  in the Euclidean case, mu-strongly convex w.r.t. l_p for the p-norm ``h`` and 1-strongly convex w.r.t. l1 on the
  simplex for the entropy (Pinsker); the plain entropy is not strongly convex on R^d_+ and only enters the
  statements that do not need it. d = 6 (12 for the nuclear norm). Duals y ~ s N(0, I), s log-uniform in
  [0.1, 10]; psi-weights t in {0, 0.05, 0.5, 2}.
* The quadratics Q-het and Q-idH (d = 10, M = 4, ``H_m = Q_m Q_m'/d + 0.2 I`` or one shared ``A``,
  ``c_m ~ N(0, I)``) for the FedMiD / FedDualAvg runs (Remark 4.10, (4.27) along a trajectory, the sanity check of
  Algorithm 5).

The claims are in ``app_c_1_convex_analysis`` (appendix C.1, (4.24), (4.27)), ``remark_4_10_prox_averaging``
(Remark 4.10, Algorithm 5's sanity check), ``remarks_4_5_4_8_rate_comparisons``, ``thm_4_7_c_11_proof_terms``,
``prop_4_12_lem_c_15_quadmax`` (the pure-algebra steps of the printed proofs; symbols in ``convex_symbolic``) and
``sec_4_4_3_claims_4_16_4_18`` (the steps of Claims 4.16-4.18).

Paper: chapter 4 and appendix C.1 of the thesis (the claim modules cite the printed objects).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import composite as fco
from fedtheory.harness.claims import Context
from fedtheory.harness.family import Family, family
from fedtheory.problems import FederatedQuadratic, random_rotation, spd_matrix
from fedtheory.regularizers import L1, Box, ElasticNet, L1Ball, L2Ball, Masked, NuclearNorm, Simplex, SquaredL2

REGISTERS_CLAIMS = False  # shared instances; the claims are in the sibling modules


PAPER = "yuan-thesis"
FLOOR = 1e-12  # a map that commutes with averaging differs from it by rounding only, far below this
T_GRID = (0.0, 0.05, 0.5, 2.0)  # psi-weights t of grad (h + t psi)^*
D = 6
NUCLEAR = (3, 4)


# ---------------------------------------------------------------------------------------------------------------------
# Geometries and norms
# ---------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Norm:
    """A norm on primal points and its dual norm, both over the last axis."""

    name: str
    primal: Callable[[np.ndarray], np.ndarray]
    dual: Callable[[np.ndarray], np.ndarray]


def lp_norm(p: float, q: float) -> Norm:
    """``||.||_p`` and its dual ``||.||_q`` (``1/p + 1/q = 1``)."""
    return Norm(f"l{p:g}", lambda v: np.linalg.norm(v, ord=p, axis=-1), lambda v: np.linalg.norm(v, ord=q, axis=-1))


def a_norm(A: np.ndarray) -> Norm:
    """The norm of Assumption 4.2(c), ``||x|| = sqrt(x'Ax/||A||_2)``, and its dual (Claim 4.19)
    ``||y||_* = sqrt(||A||_2 y'A^{-1}y)``."""
    top = float(np.linalg.eigvalsh(A)[-1])
    A_inv = np.linalg.inv(A)
    return Norm(
        "A-norm of Asm. 4.2(c)",
        lambda v: np.sqrt(np.einsum("...i,ij,...j->...", v, A, v) / top),
        lambda v: np.sqrt(top * np.einsum("...i,ij,...j->...", v, A_inv, v)),
    )


@dataclass(frozen=True)
class Geometry:
    """A mirror map with the norms w.r.t. which its ``h`` is ``mu``-strongly convex (none for the plain entropy)."""

    name: str
    mirror: fco.MirrorMap
    d: int
    norms: tuple[Norm, ...]
    mu: float = 1.0

    @property
    def indicator(self) -> bool:
        """Whether psi is a constraint (its prox is a projection)."""
        return hasattr(self.mirror.psi, "project")

    @property
    def entropy(self) -> bool:
        """Whether ``h`` is the entropy (primal points must stay in ``int dom h = R^d_+``)."""
        return isinstance(self.mirror, fco.Entropy)

    def norms_at(self, t: float) -> tuple[Norm, ...]:
        """The norms w.r.t. which ``h + t psi`` is ``mu``-strongly convex: none for the entropy at ``t = 0``
        (``h`` alone is not strongly convex on ``R^d_+``)."""
        return () if self.entropy and t == 0 else self.norms

    def duals(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` dual points ``s N(0, I)`` with ``s`` log-uniform in [0.1, 10]."""
        return 10 ** rng.uniform(-1, 1, size=(n, 1)) * rng.normal(size=(n, self.d))

    def primals(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` points of ``int dom h`` inside ``dom psi`` (images of the map for a constraint or the entropy)."""
        y = self.duals(rng, n)
        if self.indicator or self.entropy:
            return self.mirror(y, 1.0)
        return y


def random_spd(rng: np.random.Generator, d: int, condition: float = 20.0) -> np.ndarray:
    """``Q diag(lam) Q'`` with log-spaced eigenvalues in ``[1/condition, 1]`` and a Haar-like rotation."""
    return spd_matrix(random_rotation(rng, d), np.logspace(-np.log10(condition), 0, d))


@family(f"{PAPER}/convex-analysis-geometries")
def geometries(fam: Family) -> tuple[Geometry, ...]:
    """Every geometry of the library with the norms it is used with (module docstring)."""
    rng = fam.rng()
    A6, A12 = random_spd(rng, D), random_spd(rng, NUCLEAR[0] * NUCLEAR[1])
    euclid6 = (lp_norm(2, 2), a_norm(A6))
    intercept = np.ones(D, dtype=bool)
    intercept[-1] = False
    euclidean = {
        "psi = 0": None,
        "l1": L1(0.7),
        "(lam/2)||.||^2": SquaredL2(0.9),
        "elastic net": ElasticNet(0.5, 0.8),
        "box": Box(-0.5, 1.0),
        "l2 ball": L2Ball(1.3),
        "l1 ball": L1Ball(1.1),
        "simplex": Simplex(1.0),
        "l1, free intercept": Masked(L1(0.6), intercept),
    }
    out = [Geometry(f"Euclidean, {k}", fco.Euclidean(psi), D, euclid6) for k, psi in euclidean.items()]
    nuclear = Masked(NuclearNorm(0.8), np.ones(12, dtype=bool), NUCLEAR)
    out.append(Geometry("Euclidean, nuclear norm (3x4)", fco.Euclidean(nuclear), 12, (lp_norm(2, 2), a_norm(A12))))
    for p, psi, scale in ((1.5, None, 1.0), (1.5, L1(0.7), 1.0), (1.2, L1(0.7), 1.0), (1.5, L1(0.7), 0.5)):
        pnorm = fco.PNorm(p, psi, scale=scale)
        name = f"p-norm p={p:g}, mu={scale:g}, {'l1' if psi else 'psi = 0'}"
        out.append(Geometry(name, pnorm, D, (lp_norm(p, pnorm.q),), mu=scale))
    out.append(Geometry("p-norm p=1.5, mu=2, l1", fco.PNorm(1.5, L1(0.7), scale=2.0), D, (lp_norm(1.5, 3.0),), mu=2))
    out.append(Geometry("entropy, simplex", fco.Entropy(Simplex()), D, (lp_norm(1, np.inf),)))
    out.append(Geometry("entropy, psi = 0", fco.Entropy(None), D, ()))
    return tuple(out)


def draws(ctx: Context) -> int:
    return 64 if ctx.quick else 1000


def rel(a: np.ndarray, b: np.ndarray) -> float:
    """``max ||a - b||_inf / max(||b||_inf, tiny)`` over rows."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    num = np.max(np.abs(a - b), axis=-1)
    den = np.maximum(np.max(np.abs(b), axis=-1), 1e-300)
    return float(np.max(num / den))


@family(f"{PAPER}/convex-analysis-q")
def q_instances(fam: Family) -> dict[str, FederatedQuadratic]:
    """Q-het (client Hessians ``Q_m Q_m'/d + 0.2 I``) and Q-idH (one shared ``A``), d = 10, M = 4, ``c_m ~ N(0, I)``,
    ``F_m = x'H_m x/2 - c_m'x``."""
    rng = fam.rng()
    d, M = 10, 4
    Q = rng.normal(size=(M, d, d))
    H = Q @ np.swapaxes(Q, 1, 2) / d + 0.2 * np.eye(d)
    Q = rng.normal(size=(d, d))
    A = Q @ Q.T / d + 0.2 * np.eye(d)
    return {
        "Q-het": FederatedQuadratic(H, rng.normal(size=(M, d))),
        "Q-idH": FederatedQuadratic(A, rng.normal(size=(M, d))),
    }
