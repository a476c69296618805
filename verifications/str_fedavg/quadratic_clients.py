"""The instances of Lemmas 1-4 of StR-FedAvg (section 3.1), federated quadratics batched over instances
(:mod:`fedtheory.problems.batched_quadratics`), Lemma 1's printed ``G^2`` and the per-cell reduction of inequalities
shared by :mod:`.lem_1_gradient_dissimilarity`,
:mod:`.lem_2_3_regularized_dissimilarity` and :mod:`.lem_4_perturbed_strong_convexity`; no claims. The claim
statements' "module docstring" is this one.

Instances (all quadratic, so every minimiser, infimum and gap is a closed form; arrays carry an instance axis and
a point axis and every family is evaluated in one numpy operation per shape ``(N, n)``, never a loop over
instances):

* ``Q``: random convex quadratic clients ``psi_i(x) = 1/2 (x - c_i)'A_i(x - c_i) + const`` with ``N`` in [2, 6],
  ``n`` in [1, 4]. ``A_i = M_i M_i' s_i / n`` with ``M_i`` Gaussian ``n x k_i`` (random rank ``k_i`` in [1, n],
  so ``A_i`` may be singular) and ``s_i`` log-uniform in [0.1, 10]; per instance the Hessians are independent,
  shared by the clients (``A_i = A_1``) or shared and isotropic (``A_i = s I``), each with probability 1/3.
  Centres ``c_i`` are Gaussian with a log-uniform scale in [0.1, 10]. For Lemmas 2 and 3 the inner ``h`` and the
  outer ``f`` are two independent such families; for Lemma 4 ``f_i`` gets ``+ mu_0 I`` (``mu_0`` log-uniform in
  [0.01, 1]).
* ``V13`` (our recipe for Lemmas 2 and 3): ``N`` in {2, 3}, ``n`` in {2, 3, 4}; ``h_i(x) = 1/2 (a_i'x - b_i)^2``
  (one row per client, ``b = A x_true``, a consistent system, so ``h_i* = h* = 0``) and ``f_i(x) = 1/2 x'P_i x -
  q_i'x`` with ``P_i = M M' u + 1e-3 I`` (``M`` Gaussian ``n x n``, ``u`` log-uniform in [0.01, 10]), ``q_i``
  Gaussian.
* ``V13-anchored``: ``V13`` with ``b = A argmin f``, so that ``argmin f`` lies in ``X_h^*`` and ``f* = inf f``
  (the corner where the ``4 L_f (f* - inf f)`` term of Lemma 2's ``G^2`` vanishes).

Exact quantities: client minimisers ``c_i`` (``A_i^+ b_i``), ``argmin`` of an average by the pseudo-inverse (an
eigendecomposition with eigenvalues below ``1e-10 lambda_max`` set to zero), ``inf psi - (1/N) sum_i psi_i(x_i*) =
(1/N) sum_i 1/2 (xbar - c_i)'A_i(xbar - c_i)``, gaps ``psi(x) - inf psi = 1/2 (x - xbar)'Abar(x - xbar)``, the
bilevel solution ``x* = argmin_{X_h^*} f`` (``X_h^* = argmin h + null(Hbar)``, minimised over the null space) and
``f* - inf f = f(x*) - inf f``, the Tikhonov point ``x_eta = (Hbar + eta Fbar)^+ (Hbar c_h + eta Fbar c_f)`` and
``f_eta(x) - f_eta* = 1/2 (x - x_eta)'(Hbar + eta Fbar)(x - x_eta)``. Smoothness and strong convexity constants
are the exact client constants: ``L_psi = max_i lambda_max(A_i)``, ``mu_f = min_i lambda_min(F_i)``.

Every inequality ``lhs <= rhs`` is reported per cell (e.g. a family and an ``eta``) at its worst entry: the violated
entry with the largest ``lhs/(rhs + tol)`` if there is one, else the entry with the largest ``lhs/(rhs + tol)``,
``tol = 1e-9 |rhs| + 1e-12 scale``. ``scale`` bounds the size of the terms whose rounding enters either side (e.g.
``L^2 ||x - c_i||^2`` for ``||grad psi_i(x)||^2``), so ``tol`` covers rounding only, also where both sides vanish
(clients with a common minimiser). ``measured`` and ``bound`` are ``lhs`` and ``rhs`` divided by ``scale`` (judged
with the same tolerance), so the margin is ``lhs/rhs``. The witness lists, per cell, the number of entries and of
violations, the largest ratio and the worst violation, and the data of the overall worst entry.

Paper text: Assumption 1, Lemmas 1-3, Remark 3, Lemma 4, problem (4) and the proofs of Lemmas 1-3 (Appendices A-C).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from fedtheory.harness.claims import Evidence, seed_for
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING
from fedtheory.problems.batched_quadratics import QuadraticClients, squared_norm

REGISTERS_CLAIMS = False  # shared instances and reduction; the claims are in the sibling modules

PAPER = "str-fedavg"
ETAS = (0.01, 0.1, 0.5, 1.0, 2.0, 11.0)  # V13's grid plus 2 and the printed eta-hat = 11 of Thm 3 / Prop 7
Q_SHAPES = tuple((N, n) for N in range(2, 7) for n in range(1, 5))
V13_SHAPES = tuple((N, n) for N in (2, 3) for n in (2, 3, 4))
N_RANDOM = 20  # random points per instance (V13)


def lemma_1_G2(clients: QuadraticClients, printed: bool = True) -> np.ndarray:
    """Lemma 1's ``G_psi^2 = (2 L_psi / N) D`` as printed; ``2 L_psi D`` (the proof's step 3) otherwise."""
    return 2 * clients.L * clients.D / (clients.N if printed else 1)


# --------------------------------------------------------------------------------------------------
# Instance generators
# --------------------------------------------------------------------------------------------------
def log_uniform(rng: np.random.Generator, lo: float, hi: float, size) -> np.ndarray:
    return 10.0 ** rng.uniform(np.log10(lo), np.log10(hi), size=size)


def _hessians(rng: np.random.Generator, B: int, N: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Family ``Q`` Hessians (B, N, n, n) and the kind per instance (0 independent, 1 shared, 2 isotropic)."""
    M = rng.standard_normal((B, N, n, n))
    rank = rng.integers(1, n + 1, size=(B, N))
    M = M * (np.arange(n) < rank[..., None])[..., None, :]
    scale = log_uniform(rng, 0.1, 10.0, (B, N, 1, 1))
    independent = scale * (M @ np.swapaxes(M, -1, -2)) / n
    shared = np.broadcast_to(independent[:, :1], independent.shape)
    isotropic = scale[:, :1] * np.eye(n)
    kind = rng.integers(0, 3, size=B)
    k = kind[:, None, None, None]
    A = np.where(k == 0, independent, np.where(k == 1, shared, isotropic))
    return A, kind


def q_clients(
    rng: np.random.Generator, B: int, N: int, n: int, mu0: bool = False
) -> tuple[QuadraticClients, np.ndarray]:
    """Family ``Q`` (module docstring); ``mu0`` adds ``mu_0 I`` (strongly convex clients, Lemma 4)."""
    A, kind = _hessians(rng, B, N, n)
    if mu0:
        A = A + log_uniform(rng, 0.01, 1.0, (B, 1, 1, 1)) * np.eye(n)
    c = log_uniform(rng, 0.1, 10.0, (B, 1, 1)) * rng.standard_normal((B, N, n))
    return QuadraticClients(A, c), kind


def v13(rng: np.random.Generator, B: int, N: int, n: int, anchored: bool) -> tuple[QuadraticClients, QuadraticClients]:
    """Family ``V13``: one-row consistent least-squares ``h_i`` and strongly convex quadratic ``f_i`` (module
    docstring)."""
    a = rng.standard_normal((B, N, n))
    M = rng.standard_normal((B, N, n, n))
    P = log_uniform(rng, 0.01, 10.0, (B, N, 1, 1)) * (M @ np.swapaxes(M, -1, -2)) + 1e-3 * np.eye(n)
    q = rng.standard_normal((B, N, n))
    f = QuadraticClients(P, np.linalg.solve(P, q[..., None])[..., 0])
    x_true = f.xbar if anchored else rng.standard_normal((B, n))
    b = np.einsum("bni,bi->bn", a, x_true)
    h = QuadraticClients(a[..., :, None] * a[..., None, :], a * (b / squared_norm(a))[..., None])
    return h, f


# --------------------------------------------------------------------------------------------------
# Parametrised instances for the witness search
# --------------------------------------------------------------------------------------------------
N_MAX, n_MAX = 16, 6  # the largest client count and dimension the search's instances reach


@cache
def _frame(name: str) -> dict:
    """Fixed ingredients of :func:`param_clients` and :func:`param_point`, seeded from ``name`` (the same for every
    evaluation): per-client skew-symmetric generators, client centre directions and a point direction."""
    rng = np.random.default_rng(seed_for(name))
    skew = rng.standard_normal((N_MAX, n_MAX, n_MAX))
    return {
        "skew": skew - np.swapaxes(skew, -1, -2),
        "centres": rng.standard_normal((N_MAX, n_MAX)),
        "direction": rng.standard_normal(n_MAX),
    }


def param_clients(
    name: str,
    N: int,
    n: int,
    kappa: float,
    rank: int,
    hetero: float,
    spread: float,
    client_scale: float = 1.0,
    mu0: float = 0.0,
) -> QuadraticClients:
    """One instance (B = 1) of ``N`` convex quadratic clients in dimension ``n``, a deterministic function of its
    parameters (``name`` picks fixed seeded ingredients): ``A_i = R_i diag(lam) R_i' + mu0 I`` with ``lam`` geometric
    from 1 to ``1/kappa`` over the first ``rank`` coordinates and 0 on the others (singular when ``rank < n``),
    ``R_i = (I - hetero S_i/2)^{-1}(I + hetero S_i/2)`` (a rotation; the Cayley transform) for fixed skew-symmetric
    ``S_i`` (``hetero = 0``: a shared Hessian), scaled by ``client_scale^(-i/(N - 1))``, centres ``c_i``
    of scale ``spread`` (fixed Gaussian directions)."""
    frame = _frame(name)
    lam = np.zeros(n)
    lam[:rank] = kappa ** -np.linspace(0.0, 1.0, rank)
    half = hetero / 2 * frame["skew"][:N, :n, :n]
    R = np.linalg.solve(np.eye(n) - half, np.eye(n) + half)  # Cayley transform: orthogonal, R = I at hetero = 0
    weight = client_scale ** -(np.arange(N) / max(N - 1, 1))  # client i's Hessian scale, 1 down to 1/client_scale
    A = weight[:, None, None] * np.einsum("mij,j,mkj->mik", R, lam, R) + mu0 * np.eye(n)
    return QuadraticClients(A[None], spread * frame["centres"][None, :N, :n])


def param_point(name: str, centre: np.ndarray, n: int, dist: float, angle: float, towards: np.ndarray) -> np.ndarray:
    """``centre + dist (cos(angle) d + sin(angle) t)`` (B = 1, one point: shape (1, 1, n)): ``d`` a fixed seeded unit
    direction, ``t`` the unit vector ``towards`` (e.g. the flattest eigenvector of the Hessian)."""
    d = _frame(name)["direction"][:n]
    d = d / np.linalg.norm(d)
    t = towards / max(np.linalg.norm(towards), 1e-300)
    return (centre.reshape(1, n) + dist * (np.cos(angle) * d + np.sin(angle) * t))[:, None, :]


CLIENT_AXES = {
    "N": Axis(1, N_MAX, integer=True),
    "n": Axis(1, n_MAX, log=False, integer=True),
    "kappa": Axis(1.0, 1e4),
    "rank_frac": Axis(0.0, 1.0, log=False),
    "hetero": Axis(0.0, 10.0, log=False),
    "spread": Axis(1e-3, 1e3),
    "client_scale": Axis(1.0, 1e2),
}
CLIENT_NOTE = (
    "quadratic clients A_i = R_i diag(lam) R_i' (lam geometric from 1 to 1/kappa on rank = max(1, round(rank_frac "
    "n)) coordinates, 0 elsewhere; R_i the Cayley rotation of hetero S_i, S_i fixed skew-symmetric; client i's "
    "Hessian scaled by client_scale^(-i/(N - 1)); centres of scale spread): N from 1 to 16 clients, n from 1 to 6, "
    "kappa from 1 to 1e4, singular or not, shared (hetero = 0, client_scale = 1) to unrelated Hessians whose "
    "largest eigenvalues differ by up to 100; L = 1 by scaling (every printed constant scales with L)"
)


def client_rank(n: int, rank_frac: float) -> int:
    """``max(1, round(rank_frac n))``."""
    return max(1, round(rank_frac * n))


def flattest(A: np.ndarray) -> np.ndarray:
    """The unit eigenvector of the smallest eigenvalue of the symmetric ``A`` (n, n)."""
    return np.linalg.eigh(A)[1][:, 0]


# --------------------------------------------------------------------------------------------------
# Reduction of lhs <relation> rhs over cells to their worst entries
# --------------------------------------------------------------------------------------------------
def violated(lhs: np.ndarray, rhs: np.ndarray, scale: np.ndarray, relation: str = "<=") -> np.ndarray:
    """Entries that break ``lhs <relation> rhs`` beyond rounding (``1e-9 |rhs| + 1e-12 scale``, as judged)."""
    tol = ROUNDING * np.abs(rhs) + SCALED_ROUNDING * scale
    return np.abs(lhs - rhs) > tol if relation == "==" else lhs > rhs + tol


class Cells:
    """Per-cell worst entries of ``lhs <relation> rhs`` (module docstring); repeated labels merge into one cell."""

    def __init__(self, relation: str = "<="):
        self.relation = relation
        self.cells: dict[tuple, dict] = {}
        self.worst: dict = {"failed": False, "score": -np.inf}

    def add(self, labels: dict, lhs, rhs, scale, detail=None) -> np.ndarray:
        """Record entries of a cell; returns the violated ones. ``detail(index)`` describes an entry (dict)."""
        lhs, rhs, scale = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (lhs, rhs, scale)))
        bad = violated(lhs, rhs, scale, self.relation)
        if self.relation == "==":
            score_all = np.abs(lhs - rhs) / scale
        else:  # lhs / (rhs + rounding tolerance): <= 1 exactly when the entry holds
            den = rhs + ROUNDING * np.abs(rhs) + SCALED_ROUNDING * scale
            with np.errstate(divide="ignore", invalid="ignore"):
                score_all = np.where(den > 0, lhs / den, np.where(lhs > den, np.inf, -np.inf))
        k = int(np.argmax(np.where(bad, score_all, -np.inf) if bad.any() else score_all))
        entry = {
            "failed": bool(bad.flat[k]),
            "score": float(score_all.flat[k]),
            "measured": float(lhs.flat[k] / scale.flat[k]),
            "bound": float(rhs.flat[k] / scale.flat[k]),
        }
        key = tuple(labels.items())
        cell = self.cells.setdefault(key, {"labels": labels, "entries": 0, "violations": 0, "max": -np.inf})
        cell["entries"] += lhs.size
        cell["violations"] += int(bad.sum())
        cell["max"] = max(cell["max"], float(score_all.max()))
        worse_cell = "score" not in cell or (entry["failed"], entry["score"]) > (cell["failed"], cell["score"])
        worse = (entry["failed"], entry["score"]) > (self.worst["failed"], self.worst["score"])
        if worse_cell or worse:
            about = {"lhs": float(lhs.flat[k]), "rhs": float(rhs.flat[k])}
            if detail is not None:
                about.update(detail(np.unravel_index(k, lhs.shape)))
        if worse_cell:
            cell.update(entry)
            # failing cells keep their worst entry (without the instance data, which only the overall worst keeps)
            cell["entry"] = {k: v for k, v in about.items() if k != "instance"} if entry["failed"] else None
        if worse:
            self.worst = {**entry, **labels, **about}
        return bad

    def table(self) -> dict:
        name = "max |lhs - rhs|/scale" if self.relation == "==" else "max lhs/(rhs + tolerance)"
        table = {}
        for cell in self.cells.values():
            row = {"entries": cell["entries"], "violations": cell["violations"], name: cell["max"]}
            if cell["entry"] is not None:
                row["worst violation"] = cell["entry"]
            table[", ".join(f"{k}={v}" for k, v in cell["labels"].items())] = row
        return table

    def points(self) -> Points:
        """One point per cell (its worst entry, divided by its scale), the cell's labels as its parameters."""
        points = Points()
        for cell in self.cells.values():
            points.add(cell["measured"], cell["bound"], **cell["labels"])
        return points

    def witness(self, **witness) -> dict:
        """The per-cell table, the overall worst entry and ``witness``."""
        worst = {k: v for k, v in self.worst.items() if k not in ("failed", "score", "measured", "bound")}
        return {"per cell": self.table(), "worst entry": worst, **witness}

    def evidence(self, **witness) -> Evidence:
        """One entry per cell (:meth:`points`), judged with the tolerance of :func:`violated`."""
        return judged(self.points(), self.relation, self.witness(**witness))


def judged(points: Points, relation: str, witness: dict) -> Evidence:
    """``points`` (scaled sides) as evidence, with the tolerance of :func:`violated` (``ROUNDING`` relative,
    ``SCALED_ROUNDING`` absolute on the scaled sides)."""
    return points.evidence(relation, rtol=ROUNDING, atol=SCALED_ROUNDING, witness=witness)


def instance(clients: dict[str, QuadraticClients], b: int) -> dict:
    """``{"instance": ...}``: the client data of instance ``b`` (Hessians and minimisers)."""
    data = {}
    for name, cl in clients.items():
        data[f"{name}: Hessians A_i"] = cl.A[b].tolist()
        data[f"{name}: client minimisers c_i"] = cl.c[b].tolist()
    return {"instance": data}


def batch(quick: bool, family: str) -> int:
    """Instances per shape ``(N, n)``: V13 holds 3000 instances in all (as our recipe prescribes), 10x in the full
    profile."""
    per = {"Q": 150, "V13": 500, "V13-anchored": 500}[family]
    return per if quick else 10 * per
