"""Quadratic instances of FedBC's analysis, the domain X as a box, the constants of Assumptions 4.1-4.3 computed
exactly, and Algorithm 1 run on them with every device-sampling path (exact expectations over the sampling).

Clients are the paper's ``f_i(x) = (x - c_i)'A_i (x - c_i)/2`` (the paper writes ``b_i`` for the centre ``c_i``):
``Q(N, d, seed)`` (``A_i = Q_i Q_i' + 0.3 I``, ``c_i ~ N(0, 4 I)``), ``S(N, seed)`` (scalar, ``a_i ~ U(0.5, 3)``,
``c_i ~ N(0, 4)``), the indefinite family (eigenvalues of ``A_i`` in ``[-L_i, L_i]``, both ends attained) and the
heterogeneity family ``f_i = ||x - s c_i||^2/2`` (``s = 0``: identical clients).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from fedtheory.algorithms import primal_dual as pd
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.problems.base import Problem

REGISTERS_CLAIMS = False  # instances and runs; the claims are in the sibling modules


@dataclass(frozen=True)
class Quadratics:
    """``N`` clients ``f_i(x) = (x - c_i)'A_i (x - c_i)/2`` with symmetric ``A`` ``(N, d, d)`` and centres ``c``."""

    A: np.ndarray
    c: np.ndarray
    name: str

    @property
    def N(self) -> int:
        return self.A.shape[0]

    @property
    def d(self) -> int:
        return self.A.shape[-1]

    @cached_property
    def eig(self) -> np.ndarray:
        return np.linalg.eigvalsh(self.A)

    @property
    def L_i(self) -> np.ndarray:
        """``L_i = max |eig(A_i)|`` (Assumption 4.2)."""
        return np.max(np.abs(self.eig), axis=-1)

    @property
    def L(self) -> float:
        return float(np.max(self.L_i))

    @property
    def convex(self) -> bool:
        return bool(np.all(self.eig >= 0))

    def grad(self, x: np.ndarray) -> np.ndarray:
        """``grad f_i(x_i)`` for ``x`` ``(..., N, d)``."""
        return np.einsum("nij,...nj->...ni", self.A, x - self.c)

    def grad_at(self, z: np.ndarray) -> np.ndarray:
        """``grad f_i(z)`` for every client at one point ``z`` ``(..., d)``: ``(..., N, d)``."""
        return self.grad(z[..., None, :])

    def value(self, x: np.ndarray) -> np.ndarray:
        """``f_i(x_i)`` for ``x`` ``(..., N, d)``."""
        e = x - self.c
        return 0.5 * np.einsum("...ni,nij,...nj->...n", e, self.A, e)

    def F_grad(self, z: np.ndarray) -> np.ndarray:
        """``grad F(z) = (1/N) sum_i grad f_i(z)``."""
        return self.grad_at(z).mean(axis=-2)

    @cached_property
    def x_star(self) -> np.ndarray:
        """The minimiser of ``F`` (convex instances with a positive definite mean Hessian)."""
        return np.linalg.solve(self.A.mean(0), np.einsum("nij,nj->i", self.A, self.c) / self.N)

    @cached_property
    def problem(self) -> Problem:
        """The library problem (``f_i = x'A_i x/2 - (A_i c_i)'x + c_i'A_i c_i/2`` for convex clients)."""
        if self.convex:
            return FederatedQuadratic(
                self.A,
                np.einsum("nij,nj->ni", self.A, self.c),
                c=0.5 * np.einsum("ni,nij,nj->n", self.c, self.A, self.c),
            )
        return _Indefinite(self)


class _Indefinite(Problem):
    """Client gradients of an indefinite :class:`Quadratics` for the library's oracles (gradients only)."""

    def __init__(self, q: Quadratics):
        self.q, self.dim, self.n_clients = q, q.d, q.N

    def client_grad(self, x) -> np.ndarray:
        return self.q.grad(np.asarray(x, dtype=float))


def Q(N: int, d: int, seed: int) -> Quadratics:
    """``A_i = Q_i Q_i' + 0.3 I``, ``Q_i ~ N(0, 1)^{d x d}``, ``c_i ~ N(0, 4 I)``."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((N, d, d))
    return Quadratics(
        q @ q.transpose(0, 2, 1) + 0.3 * np.eye(d), 2.0 * rng.standard_normal((N, d)), f"Q({N},{d},{seed})"
    )


def S(N: int, seed: int) -> Quadratics:
    """Scalar clients ``a_i ~ U(0.5, 3)``, ``c_i ~ N(0, 4)``."""
    rng = np.random.default_rng(seed)
    return Quadratics(rng.uniform(0.5, 3.0, (N, 1, 1)), 2.0 * rng.standard_normal((N, 1)), f"S({N},{seed})")


def indefinite(N: int, d: int, seed: int, L_i) -> Quadratics:
    """Eigenvalues ``L_i (-1, 1, U(-1, 1), ...)`` (``d >= 2``) in a random basis, ``c_i ~ N(0, 4 I)``."""
    rng = np.random.default_rng(seed)
    L_i = np.broadcast_to(np.asarray(L_i, dtype=float), (N,))
    eig = np.concatenate([np.tile([-1.0, 1.0], (N, 1)), rng.uniform(-1, 1, (N, d - 2))], axis=1) * L_i[:, None]
    U = np.linalg.qr(rng.standard_normal((N, d, d)))[0]
    A = np.einsum("nij,nj,nkj->nik", U, eig, U)
    return Quadratics((A + A.transpose(0, 2, 1)) / 2, 2.0 * rng.standard_normal((N, d)), f"indefinite({N},{d},{seed})")


def heterogeneity(N: int, d: int, s: float, seed: int) -> Quadratics:
    """``f_i = ||x - s c_i||^2/2`` with ``c_i ~ N(0, 4 I)``; ``s = 0`` gives identical clients."""
    rng = np.random.default_rng(seed)
    return Quadratics(np.broadcast_to(np.eye(d), (N, d, d)).copy(), s * 2.0 * rng.standard_normal((N, d)), f"s={s}")


@dataclass(frozen=True)
class Box:
    """The domain ``X = [lo, hi]`` (a box), diameter ``R = ||hi - lo||`` (Assumption 4.1)."""

    lo: np.ndarray
    hi: np.ndarray

    @property
    def R(self) -> float:
        return float(np.linalg.norm(self.hi - self.lo))

    @property
    def vertices(self) -> np.ndarray:
        return np.array(list(itertools.product(*zip(self.lo, self.hi, strict=True))), dtype=float)

    def contains(self, x: np.ndarray, tol: float = 1e-12) -> bool:
        return bool(np.all(x >= self.lo - tol) and np.all(x <= self.hi + tol))


def bounding_box(*points: np.ndarray) -> Box:
    """The smallest box containing every point given (arrays ``(..., d)``)."""
    pts = np.concatenate([np.reshape(p, (-1, p.shape[-1])) for p in points])
    return Box(pts.min(axis=0), pts.max(axis=0))


def delta(q: Quadratics, box: Box, lam_min: float, lam_max: float) -> float:
    """Assumption 4.3 exactly: ``max_{i != j} max_{x in X} max_{a, b in Lambda} ||a grad f_i(x) - b grad f_j(x)||``.

    The norm is convex in ``(a, b)`` and, the gradients being affine, in ``x``: its maximum over the box
    ``Lambda^2 x X`` is at a vertex (``{lam_min, lam_max}^2`` times the ``2^d`` vertices of X)."""
    g = q.grad_at(box.vertices)  # (V, N, d)
    lams = np.array([lam_min, lam_max])
    diff = lams[:, None, None, None, None, None] * g[None, None, :, :, None] - (
        lams[None, :, None, None, None, None] * g[None, None, :, None, :]
    )  # (a, b, V, i, j, d)
    norms = np.linalg.norm(diff, axis=-1)
    off = ~np.eye(q.N, dtype=bool) if q.N > 1 else np.ones((1, 1), dtype=bool)
    return float(np.max(norms[..., off]))


def grad_bound(q: Quadratics, box: Box) -> float:
    """``max_i max_{x in X} ||grad f_i(x)||`` (the ``G`` of (81) and (88)), exact at the vertices of X."""
    return float(np.max(np.linalg.norm(q.grad_at(box.vertices), axis=-1)))


def lam_box(L_i, frac: float = 0.5, *, h2: bool = True) -> tuple[float, float]:
    """``[lam_min, lam_max]`` with ``lam_min = 1 + max_i L_i`` (H1) and, with ``h2``, ``lam_max = lam_min + frac
    (min_i (1 + L_i)^2/L_i - lam_min)`` (H2 strictly, for ``frac < 1``; raises if (H1) and (H2) leave nothing);
    without ``h2`` (a hypothesis only of Lemma B.2 and Theorem 4.5), ``lam_max = (1 + frac) lam_min``."""
    L_i = np.asarray(L_i, dtype=float)
    lo = 1.0 + float(L_i.max())
    if not h2:
        return lo, (1 + frac) * lo
    up = float(np.min((1 + L_i) ** 2 / L_i))
    if not lo < up:
        raise ValueError(f"(H1) and (H2) leave no multiplier for L_i = {L_i}")
    return lo, lo + frac * (up - lo)


@dataclass(frozen=True)
class Run:
    """Algorithm 1 along ``P`` sampling paths with probabilities ``weight`` ``(P,)``: ``z`` ``(T+1, P, d)``, ``x``
    ``(T+1, P, N, d)``, ``lam`` ``(T+1, P, N)``, ``mask`` and ``active`` ``(T, P, N)`` (sampled in round t; ran the
    oracle in round t); ``enumerated``: the paths are every sampling sequence (exact expectations), else Monte
    Carlo draws."""

    q: Quadratics
    z: np.ndarray
    x: np.ndarray
    lam: np.ndarray
    mask: np.ndarray
    active: np.ndarray
    weight: np.ndarray
    gamma: np.ndarray
    alpha: float
    box_lam: tuple[float, float]
    participants: int
    oracle: str
    enumerated: bool = True

    @property
    def T(self) -> int:
        return self.mask.shape[0]

    @cached_property
    def eps(self) -> float:
        """The oracle accuracy the run realised: ``max ||grad_x L_i(x_i^{t+1}, z^t, lam_i^t)||^2`` over the devices
        that ran the oracle (the smallest ``eps`` of (10)/(23) along the run)."""
        r = self.q.grad(self.x[1:]) + 2 * self.lam[:-1, ..., None] * (self.x[1:] - self.z[:-1, :, None])
        return float(np.max(np.where(self.active, np.sum(r**2, axis=-1), 0.0)))

    @cached_property
    def X(self) -> Box:
        """The domain: the smallest box holding every iterate, every centre and (convex instances) ``x*``."""
        extra = [self.q.x_star] if self.q.convex else []
        return bounding_box(self.z, self.x, self.q.c, *[e[None] for e in extra])

    def mean(self, values: np.ndarray) -> np.ndarray:
        """Expectation over the sampling paths of ``values`` ``(..., P, ...)`` with the path axis at position 1."""
        return np.einsum("tp...,p->t...", values, self.weight)


def sampling_paths(N: int, participants: int, T: int, paths: int | None, rng) -> tuple[np.ndarray, np.ndarray]:
    """Masks ``(T, P, N)`` and probabilities: every sequence of ``participants``-subsets when ``paths`` is ``None``
    (the exact law of uniform sampling without replacement), else ``paths`` sampled sequences (equal weights)."""
    if participants == N:
        return np.ones((T, 1, N), dtype=bool), np.ones(1)
    if paths is None:
        subsets = np.array([np.isin(np.arange(N), c) for c in itertools.combinations(range(N), participants)])
        seq = np.array(list(itertools.product(range(len(subsets)), repeat=T))).reshape(-1, T)
        masks = subsets[seq].transpose(1, 0, 2)
    else:
        masks = np.stack([pd.sample(paths, N, participants, rng) for _ in range(T)])
    return masks, np.full(masks.shape[1], 1.0 / masks.shape[1])


def alg1(
    q: Quadratics,
    *,
    T: int,
    box_lam: tuple[float, float],
    alpha: float,
    gamma,
    lam0,
    z0,
    participants: int,
    K: int | None = None,
    beta: float | None = None,
    update: str = "sampled",
    paths: int | None = None,
    rng=None,
) -> Run:
    """Algorithm 1 (warm-started Algorithm 2 with ``K`` steps of size ``beta``, or the exact local oracle for
    ``K = None``) with the library's pieces (:mod:`fedtheory.algorithms.primal_dual`: ``exact_local``,
    ``local_steps``, ``server_step``) along the sampling paths of :func:`sampling_paths`; the round is
    :func:`fedtheory.algorithms.primal_dual.round` with the sampled set given instead of drawn."""
    masks, weight = sampling_paths(q.N, participants, T, paths, rng)
    P = masks.shape[1]
    gam = np.broadcast_to(np.asarray(gamma, dtype=float), (q.N,)).copy()
    state = pd.init(np.broadcast_to(np.asarray(z0, dtype=float), (P, q.d)), q.N, lam0=lam0, gamma=gam, S=P)
    oracle = ExactGradient(q.problem)
    zs, xs, lams, actives = [state.z], [state.x], [state.lam], []
    z, x, lam = state.z, state.x, state.lam
    for t in range(T):
        mask = masks[t]
        active = mask if update == "sampled" else np.ones_like(mask)
        x_new = pd.exact_local(q.problem, z, lam) if K is None else pd.local_steps(x, z, lam, oracle, beta, K, None)
        x = np.where(active[..., None], x_new, x)
        drift = np.sum((x - z[:, None, :]) ** 2, axis=-1)
        lam = np.where(active, np.clip(lam + alpha * (drift - gam), *box_lam), lam)
        z = pd.server_step(x, lam, mask, t + 1)
        zs.append(z)
        xs.append(x)
        lams.append(lam)
        actives.append(active)
    return Run(
        q,
        np.stack(zs),
        np.stack(xs),
        np.stack(lams),
        masks,
        np.stack(actives),
        weight,
        gam,
        float(alpha),
        box_lam,
        participants,
        "exact" if K is None else f"K={K}, beta={beta:.3g}",
        paths is None or participants == q.N,
    )


def lagrangian(q: Quadratics, x: np.ndarray, z: np.ndarray, lam: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """``L_i(x_i, z, lam_i) = f_i(x_i) + lam_i (||x_i - z||^2 - gamma_i)`` for ``x`` ``(..., N, d)``, ``z``
    ``(..., d)``."""
    return q.value(x) + lam * (np.sum((x - z[..., None, :]) ** 2, axis=-1) - gamma)
