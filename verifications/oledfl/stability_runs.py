"""Paired runs of OledFL-SGD on neighbouring data sets: what the Monte Carlo checks of Theorem 2 and Lemmas 6-9 read.

Instance (our construction). The per-sample loss is the sigmoid loss ``f(x; z) = 1/(1 + exp(y a'x))`` of a sample
``z = (a, y)``, ``y in {-1, +1}``: non-negative and bounded, so Theorem 2's ``U = sup_{x,z} f(x; z) = 1`` is finite.
It depends on ``z`` only through ``v = y a``; every feature vector has norm ``r = sqrt(6 sqrt 3)``, so the constants
are exact for every data set:

* ``L_G = r/4``: ``grad f(x; z) = -s(1 - s) v`` with ``s = f(x; z)``, and ``max s(1 - s) = 1/4`` (at ``v'x = 0``);
* ``L = r^2/(6 sqrt 3) = 1``: the Hessian is ``s(1 - s)(1 - 2s) v v'`` and ``max |s(1 - s)(1 - 2s)| = 1/(6 sqrt 3)``
  (attained), a smoothness constant of every per-sample loss and hence of every client objective (Assumption 1);
* ``sigma_l`` (Assumption 2, minibatch 1, the sample uniform among the client's ``S``): the variance of the sampled
  gradient is at most ``E||g||^2 <= L_G^2`` and at ``x = 0`` it equals ``(r^2/16)(1 - ||mean_j v_j||^2/r^2)``, so
  every valid ``sigma_l`` of a data set lies between its ``x = 0`` value and ``L_G``. Every printed right-hand side
  used here increases with ``sigma_l``; the claims evaluate them at :attr:`Instance.sigma_lo`, the smallest ``x = 0``
  value over all data sets (both of each pair, every client), which under-states each data set's right-hand side.

Client ``i`` draws ``v = r (mu_i + xi)/||mu_i + xi||``, ``xi ~ N(0, I_5)``, with client centres ``mu_i`` drawn once
(heterogeneous clients). ``m = 10`` clients hold ``S = 20`` samples each, ``d = 5``; the ring with weights 1/3;
``K = 5`` local steps; ``T = 60`` rounds numbered ``t = 1..T`` with ``eta_t = c/t`` (so ``eta_j = c/(j+1)`` for the
0-indexed round ``j``), and ``x̄^{T+1}`` is the mean after round ``T``; every client starts at ``x^0 = 0``. The
neighbouring data set replaces sample 0 of client 0 by a fresh draw of ``D_0`` with its label flipped (``v -> -v``).

The replica axis holds ``R`` data sets and then their ``R`` neighbours; one call of the library's round advances both
halves, and :class:`SameIndexOracle` draws one index per (replica, client) and step and uses it in both halves (the
same sample stream for the pair). Every ``(c, beta)`` run reads the same step seeds (a generator seeded from the runs'
family name alone), so runs at different ``beta`` share data sets and indices: differences across ``beta`` are paired.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from fedtheory.algorithms import decentralized as dec
from fedtheory.harness.claims import seed_for
from fedtheory.harness.family import Family, family
from fedtheory.oracles import Oracle
from fedtheory.problems.base import Problem
from fedtheory.topology import ring

from . import printed as P

REGISTERS_CLAIMS = False

PAPER = "oledfl"
M, N_SAMPLES, D, K, T = 10, 20, 5, 5, 60
RADIUS = float(np.sqrt(6 * np.sqrt(3)))
L_G = RADIUS / 4
L = RADIUS**2 / (6 * np.sqrt(3))
U = 1.0
W = ring(M)
PSI = float(W.psi)
C_CAP = 1 / (K**1.5 * L)  # Theorem 1's eta <= 1/(K^{3/2} L B) at t = 1, with B = 1 (bounded gradients: G = L_G)
C_RECIPE = 0.5 / L
BETA_CAP = float(P.thm2_beta_cap(M, PSI))
BETA_IN = BETA_CAP / 2  # inside Theorem 2's cap (alpha = 0 at the cap itself) and Theorem 1's
BETAS = (0.0, BETA_IN, 0.2, 0.4)
N_TEST = 40  # test samples per client and data set (the population loss of the generalisation gap)
DISK = (12, 512)  # the sup over test samples: radii x angles of the disk ||v|| <= r in the plane of the two outputs


def replicas(quick: bool) -> int:
    """Data-set pairs: 256 (quick), 2048 (full)."""
    return 256 if quick else 2048


def sigmoid(u: np.ndarray) -> np.ndarray:
    """The per-sample loss as a function of the margin ``u = v'x``: ``1/(1 + exp(u))``."""
    return expit(-u)


class SigmoidClients(Problem):
    """The sigmoid loss on one data set per replica: ``v`` of shape ``(R, m, n, d)`` (rows ``v = y a``).

    ``sample_grad(x, idx)`` evaluates client ``i``'s sample ``idx[r, i]`` at ``x[r, i]`` for every replica ``r``.
    """

    def __init__(self, v: np.ndarray):
        self.v = np.asarray(v, dtype=float)
        self.n_clients, self.n_samples, self.dim = self.v.shape[1:]
        self._rows = self.v.reshape(-1, self.dim)  # one row per (replica, client, sample)
        self._first = self.n_samples * np.arange(self.v.shape[0] * self.n_clients).reshape(self.v.shape[:2])

    @property
    def L(self) -> float:
        """``max ||v||^2/(6 sqrt 3)``: the exact per-sample smoothness constant (module docstring)."""
        return float(np.max(np.sum(self.v**2, axis=-1)) / (6 * np.sqrt(3)))

    def sample_grad(self, x: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``grad f(x_i; v_{i, idx_i}) = -s(1 - s) v`` per replica and client: ``x`` (R, m, d), ``idx`` (R, m)."""
        v = np.take(self._rows, self._first + idx, axis=0)
        s = sigmoid(np.einsum("rmd,rmd->rm", v, x))
        return -(s * (1 - s))[..., None] * v


class SameIndexOracle(Oracle):
    """Minibatch 1: one index per (replica, client), uniform in ``0..n-1``, drawn from the step's generator and used
    in both halves of the replica axis (data sets, then their neighbours). ``drawn`` logs the indices (R, m)."""

    def __init__(self, problem: SigmoidClients):
        self.problem = problem
        self.drawn: list[np.ndarray] = []

    def __call__(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        half = x.shape[0] // 2
        idx = rng.integers(0, self.problem.n_samples, size=(half, x.shape[1]))
        self.drawn.append(idx)
        return self.problem.sample_grad(x, np.concatenate([idx, idx]))


@dataclass(frozen=True)
class Instance:
    """The data sets (``v`` (R, m, n, d), the neighbours' sample ``v_new`` (R, d)), test sets ``v_test``
    (R, m, N_TEST, d) and ``sigma_lo``, the smallest ``x = 0`` gradient standard deviation (module docstring)."""

    v: np.ndarray
    v_new: np.ndarray
    v_test: np.ndarray
    centres: np.ndarray
    sigma_lo: float

    @property
    def neighbours(self) -> np.ndarray:
        """The neighbouring data sets: sample 0 of client 0 replaced by ``v_new``."""
        v = self.v.copy()
        v[:, 0, 0] = self.v_new
        return v


def _draw(rng: np.random.Generator, centres: np.ndarray, shape: tuple) -> np.ndarray:
    """Samples ``v = r (mu_i + xi)/||mu_i + xi||`` of shape ``(*shape[:2], m, ..., d)`` with client axis 1."""
    z = centres.reshape(1, M, *([1] * (len(shape) - 2)), D) + rng.standard_normal((*shape, D))
    return RADIUS * z / np.linalg.norm(z, axis=-1, keepdims=True)


def _x0_std(v: np.ndarray) -> np.ndarray:
    """The standard deviation of the sampled gradient at ``x = 0`` per replica and client: (R, m)."""
    return np.sqrt(np.maximum(RADIUS**2 - np.sum(v.mean(axis=2) ** 2, axis=-1), 0.0) / 16)


@family(f"{PAPER}/stability-data")
def instance(fam: Family) -> Instance:
    """``R`` data sets of the module's instance, their neighbours and test sets (module docstring)."""
    rng = fam.rng()
    centres = rng.standard_normal((M, D))  # heterogeneous client centres, ||mu_i|| about sqrt(5)
    R = replicas(fam.quick)
    v = _draw(rng, centres, (R, M, N_SAMPLES))
    v_new = -_draw(rng, centres, (R, M, 1))[:, 0, 0]  # a fresh draw of D_0 with its label flipped
    v_test = _draw(rng, centres, (R, M, N_TEST))
    tilde = v.copy()
    tilde[:, 0, 0] = v_new
    sigma_lo = float(np.min(np.maximum(_x0_std(v).max(axis=1), _x0_std(tilde).max(axis=1))))
    return Instance(v, v_new, v_test, centres, sigma_lo)


@dataclass(frozen=True)
class PairedRuns:
    """One ``(c, beta)`` run on every pair: ``xbar`` (T+1, 2, R, d) the means ``x̄`` after 0..T rounds on the data
    sets (index 0) and their neighbours (1); ``local_gap`` (T, K+1, R, m) ``||x_{i,k} - x̃_{i,k}||`` in each round;
    ``idx`` (T, K, R, m) the sampled indices (the same in both runs); ``consensus`` (T+1, R, m) ``||x_i - x̄||`` on the
    data sets; ``eta`` (T,) the step of each round; ``stability`` (R,) ``sup_z |f(x̄^{T+1}; z) - f(x̃̄^{T+1}; z)|``
    per pair (:func:`sup_loss_gap`)."""

    c: float
    beta: float
    xbar: np.ndarray
    local_gap: np.ndarray
    idx: np.ndarray
    consensus: np.ndarray
    eta: np.ndarray
    stability: np.ndarray


def _distance(x: np.ndarray) -> np.ndarray:
    """``||x_{i} - x̃_{i}||`` between the halves of the replica axis: (..., 2R, m, d) -> (..., R, m)."""
    half = x.shape[-3] // 2
    return np.linalg.norm(x[..., :half, :, :] - x[..., half:, :, :], axis=-1)


@family(f"{PAPER}/stability-runs")
def paired_runs(fam: Family, c: float, beta: float) -> PairedRuns:
    """OledFL-SGD (Algorithm 1 with ``lambda = 0``) with ``eta_j = c/(j+1)`` in the 0-indexed round ``j`` on every
    data set and its neighbour; the step seeds come from the family's name alone (the same for every ``(c, beta)``)."""
    inst = instance(fam.profile)
    R = inst.v.shape[0]
    oracle = SameIndexOracle(SigmoidClients(np.concatenate([inst.v, inst.neighbours])))
    rng = np.random.default_rng(seed_for(fam.name))
    state = dec.init(np.zeros(D), M, 2 * R)
    xbar, gaps, idx, consensus = [state.mean], [], [], [np.zeros((R, M))]
    eta = c / np.arange(1, T + 1)
    for j in range(T):
        oracle.drawn.clear()
        state, trace = dec.round(state, oracle, W, dec.oledfl(eta[j], K, beta), rng, trace=True)
        xbar.append(state.mean)
        gaps.append(_distance(trace.local))
        idx.append(np.stack(oracle.drawn))
        consensus.append(np.linalg.norm(state.x[:R] - state.mean[:R, None], axis=-1))
    xbar = np.stack(xbar)
    xbar = np.stack([xbar[:, :R], xbar[:, R:]], axis=1)
    stability = sup_loss_gap(xbar[-1, 0], xbar[-1, 1])
    return PairedRuns(c, beta, xbar, np.stack(gaps), np.stack(idx), np.stack(consensus), eta, stability)


def sup_loss_gap(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``sup_z |f(p; z) - f(q; z)|`` over every sample ``z`` of the support (``||v|| <= r``) per replica: ``p``, ``q``
    (R, d). Only ``v``'s component in the plane of ``p`` and ``q`` matters, so the sup is over the disk of radius
    ``r`` there, on a polar grid of :data:`DISK` points: a lower estimate of the sup, within 2e-4 of it on our runs
    (checked against a grid of 400 radii x 1600 angles)."""
    e1 = p - q
    n1 = np.linalg.norm(e1, axis=-1, keepdims=True)
    e1 = np.divide(e1, n1, out=np.zeros_like(e1), where=n1 > 0)
    e2 = p - np.sum(p * e1, axis=-1, keepdims=True) * e1
    n2 = np.linalg.norm(e2, axis=-1, keepdims=True)
    e2 = np.divide(e2, n2, out=np.zeros_like(e2), where=n2 > 1e-12 * (1 + np.linalg.norm(p, axis=-1, keepdims=True)))
    rho = np.linspace(0, RADIUS, DISK[0])[:, None]
    theta = np.linspace(0, 2 * np.pi, DISK[1], endpoint=False)[None, :]
    a, b = (rho * np.cos(theta)).ravel(), (rho * np.sin(theta)).ravel()  # v = a e1 + b e2
    up = np.sum(p * e1, -1)[:, None] * a + np.sum(p * e2, -1)[:, None] * b
    uq = np.sum(q * e1, -1)[:, None] * a + np.sum(q * e2, -1)[:, None] * b
    return np.max(np.abs(sigmoid(up) - sigmoid(uq)), axis=-1)


def generalisation_gap(inst: Instance, x: np.ndarray) -> np.ndarray:
    """Test loss (the client-averaged mean over the fresh test sets) minus training loss (over the data set) at the
    outputs ``x`` (R, d) of the runs on the data sets: (R,)."""
    train = sigmoid(np.einsum("rmnd,rd->rmn", inst.v, x)).mean(axis=(1, 2))
    test = sigmoid(np.einsum("rmnd,rd->rmn", inst.v_test, x)).mean(axis=(1, 2))
    return test - train


def max_t_S(psi: float) -> float:
    """``sup_{t >= 1} t S_t`` with ``S_t = sum_{j<t} psi^{t-1-j}/(j+1)`` (Lemma 10's sum), by ``S_t = psi S_{t-1} +
    1/t`` up to ``t = 60/(1 - psi)`` (the maximiser sits near ``1/(1 - psi)``; ``t S_t -> 1/(1 - psi)``)."""
    s, best = 0.0, 0.0
    for t in range(1, int(60 / (1 - psi)) + 2):
        s = psi * s + 1 / t
        best = max(best, t * s)
    return best
