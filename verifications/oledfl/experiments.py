"""The experiments of Section V scaled down to convex stand-ins: data, partitions, topologies, methods and runs.

Printed (Section V-A): CIFAR-10/100 on deep networks, m = 100 clients, Dirichlet Dir(0.3), Dir(0.6), IID and
pathological Path(k) partitions; DFL clients all train every round and each picks 10 random neighbours per round; CFL
samples 10% of the clients; lr 0.1 decayed by 0.998 per round, T = 500, SAM radius 0.1, beta = 0.99 (CIFAR-10, random
topology); Ring, Grid, Exp and Full topologies in Table IV.

Our construction (the stand-in):

* **problem** -- l2-regularised softmax regression, C = 10, l2 = 1e-2 (``fedtheory.problems.softmax``), clients
  weighing equally in f whatever their sizes, f* certified by its gradient norm; data ``synthetic`` (d = 20 Gaussian
  classes with means ~ N(0, (4/d) I), 50 training samples per client, 2,000 held out) or ``digits`` (scikit-learn's
  8x8 digits, pixels / 16 and a constant input, 359 held out);
* **partitions** (``fedtheory.problems.partitions``) over m = 20 clients: ``Dir0.3``/``Dir0.6`` (reading (a), per
  class ``p_c ~ Dir(alpha 1_m)``), ``Dir0.3b``/``Dir0.6b`` (reading (b), per client label priors, fixed sizes),
  ``IID``, ``Path2``/``Path4``/``Path6`` (quick: Dir0.3, Dir0.6, IID, Path2; full: all but Dir0.6b); one seeded
  draw per (data, partition);
* **topologies** -- ``random`` (each client picks r = 2 of the 19 others every round, symmetric union,
  Metropolis-Hastings weights: the printed 10 of 100 scaled down), ``ring`` (1/3), ``torus`` (4 x 5, 1/5: our "Grid"),
  ``exp`` (symmetric exponential graph, uniform weights), ``complete``;
* **methods** (``fedtheory.algorithms.decentralized`` and ``.fedsam``) -- OledFL-SGD/SAM, DFedAvg, DFedSAM,
  DFedAvgM (theta = 0.9), D-PSGD (combine-then-adapt), FedAvg/FedSAM with 4 of 20 clients per round (20%); SAM radius
  0.1 (printed); K = 2 local steps of minibatch SGD (b = 10, with replacement from the client's own samples); the
  constant step ``eta = c/(K L)`` with c = 1/2 (``L`` the smoothness bound of the problem), not the printed lr 0.1
  with decay 0.998 (a deep network's schedule, meaningless for our L);
* **Ole's beta** -- the printed 0.99 and the beta tuned as the paper tuned it (Fig. 8(a)): the value of the grid with
  the smallest training suboptimality, found per topology on ``Dir0.3`` with its own seeds (:func:`tuning`), so the
  evaluation runs are independent of the choice.

Seeds. A seed is a minibatch stream: the data, the partition, the start ``x^0 = 0`` and the sequence of random
topologies are one draw shared by the seeds of a run (the seeds are the replica axis, the clients the client axis).
Within a run several methods that differ only by beta share the replica axis (``configs x seeds`` replicas) and draw
the same minibatches per seed (:class:`SharedDraws`); every decentralized run of one (data, partition, topology)
starts from one generator seed, so methods that draw alike (the same number of local steps) are paired seed by
seed. Intervals are 95% Student-t over the seeds.

A replica diverges when a client's model leaves the ball around x* of radius 100 (1 + ||x^0 - x*||) or stops
being finite: it is
flagged with its round, reset to ``x^0`` and frozen (its suboptimality and consensus distance are NaN from then on,
its accuracy that of ``x^0``, a constant predictor). A replica whose consensus distance grows more than 10-fold over
the second half of its run is diverging too (geometric growth within the run; stable runs here stay within a factor
1.3): the tuning of beta never picks a diverging beta.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from fedtheory import topology as topo
from fedtheory.algorithms import decentralized as dfl
from fedtheory.algorithms import fedsam
from fedtheory.fit import mc_mean
from fedtheory.harness.family import Family, family
from fedtheory.problems.partitions import (
    dirichlet_by_class,
    dirichlet_by_client,
    iid_partition,
    pathological_partition,
)
from fedtheory.problems.softmax import SoftmaxMinibatch, SoftmaxRegression, federated_softmax, softmax_data

from . import PAPER

REGISTERS_CLAIMS = False  # the stand-in's construction and runs; the claims are in tab_2_3_4_stand_in

M, N_CLASSES, L2, BATCH, K, STEP_C = 20, 10, 1e-2, 10, 2, 0.5
SAM_RADIUS, BETA_PRINTED, THETA, PARTICIPANTS, NEIGHBOURS = 0.1, 0.99, 0.9, 4, 2
DIVERGED, GROWTH = 100.0, 10.0
CONFIDENCE = 0.95
TOPOLOGIES = ("random", "ring", "torus", "exp", "complete")
TABLE_IV_TOPOLOGIES = ("ring", "torus", "exp", "complete")
"""Table IV's Ring, Grid, Exp and Full (our torus stands for the grid)."""
BETA_GRID = {
    "quick": (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99),
    "full": (0.0, *np.round(np.arange(1, 10) / 10, 1), 0.95, 0.99),
}
PARTITIONS = {
    "quick": ("Dir0.3", "Dir0.6", "IID", "Path2"),
    "full": ("Dir0.3", "Dir0.6", "Dir0.3b", "IID", "Path2", "Path4", "Path6"),
}
DATASETS = {"quick": ("synthetic",), "full": ("synthetic", "digits")}
SEEDS = 5
ROUNDS = {"quick": 40, "full": 300}
RECORD_EVERY = 2
"""Evaluation runs record every 2 rounds (the resolution of rounds to a target), tuning runs every 5."""
TUNING_FRACTION = 0.2
"""The tuning criterion: mean suboptimality over the last 20% of the rounds."""
SGD_GROUP, SAM_GROUP = (
    ("DFedAvg", "OledFL-SGD", "OledFL-SGD (beta 0.99)"),
    ("DFedSAM", "OledFL-SAM", "OledFL-SAM (beta 0.99)"),
)
DFL_METHODS = ("D-PSGD", "DFedAvgM", *SGD_GROUP, *SAM_GROUP)


@dataclass(frozen=True)
class Instance:
    """One (data, partition): the problem (with its certified optimum) and the partition's description."""

    problem: SoftmaxRegression
    data: str
    partition: str
    certificate: dict
    """The optimum's certificate (gradient norm, the bound on f(x) - f* it gives)."""

    @property
    def eta(self) -> float:
        return STEP_C / (K * self.problem.L)


@dataclass(frozen=True)
class Curves:
    """A run's records: ``gap`` f(x̄^t) - f* and ``consensus`` (1/m) sum ||x_i^t - x̄^t||^2 at ``rounds``, shape
    ``(records, configs, seeds)`` (NaN after a divergence); final held-out ``accuracy`` and ``diverged`` (the round,
    0 where none), shape ``(configs, seeds)``."""

    rounds: np.ndarray
    gap: np.ndarray
    consensus: np.ndarray
    accuracy: np.ndarray
    diverged: np.ndarray

    def config(self, c: int) -> Curves:
        """The records of config ``c`` alone (``configs`` axis of length 1)."""
        pick = slice(c, c + 1)
        return Curves(self.rounds, self.gap[:, pick], self.consensus[:, pick], self.accuracy[pick], self.diverged[pick])

    def rounds_to(self, eps: float) -> np.ndarray:
        """Per (config, seed), the first recorded round with ``gap <= eps``; the run's length ``T`` where never
        (the printed convention for '>500')."""
        hit = self.gap <= eps
        return np.where(hit.any(axis=0), self.rounds[hit.argmax(axis=0)], self.rounds[-1]).astype(float)

    def diverging(self) -> np.ndarray:
        """Per (config, seed): diverged, or a consensus distance that grew more than :data:`GROWTH`-fold over the
        second half of the records (geometric growth not yet past the divergence radius)."""
        with np.errstate(invalid="ignore"):
            grew = self.consensus[-1] > GROWTH * self.consensus[self.rounds.size // 2]
        return (self.diverged > 0) | grew

    def tail(self) -> np.ndarray:
        """Per (config, seed), the mean gap over the last :data:`TUNING_FRACTION` of the records (inf if diverging,
        :meth:`diverging`)."""
        n = max(1, int(np.ceil(TUNING_FRACTION * self.rounds.size)))
        return np.where(self.diverging(), np.inf, np.mean(self.gap[-n:], axis=0))


class SharedDraws(SoftmaxMinibatch):
    """The minibatch oracle on ``configs x seeds`` replicas (config-major) where every config of one seed draws the
    same indices: configs are compared seed by seed on the same samples."""

    def __init__(self, problem: SoftmaxRegression, batch_size: int, seeds: int):
        super().__init__(problem, batch_size)
        self.seeds = seeds

    def indices(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        per_seed = super().indices((self.seeds, *shape[1:]), rng)
        return np.tile(per_seed, (shape[0] // self.seeds, 1, 1))


def topology(name: str) -> topo.Topology:
    """The mixing matrix (or time-varying topology) called ``name`` on :data:`M` clients."""
    makers = {
        "random": lambda: topo.RandomNeighbours(M, NEIGHBOURS),
        "ring": lambda: topo.ring(M),
        "torus": lambda: topo.torus(4, 5),
        "exp": lambda: topo.exponential(M),
        "complete": lambda: topo.complete(M),
    }
    return makers[name]()


def spectrum(name: str, rng: np.random.Generator, draws: int = 200) -> dict[str, float]:
    """psi, lambda_2 and lambda_min of a topology (their means over ``draws`` rounds of the random one), and the
    fraction of rounds whose ``W_0.99 = 1.99 W - 0.99 I`` has an eigenvalue below -1 (the printed beta expands a
    disagreement direction of that round)."""
    W = topology(name)
    mats = [topo.at_round(W, t, rng) for t in range(draws if name == "random" else 1)]
    out = {k: float(np.mean([getattr(w, k) for w in mats])) for k in ("psi", "lambda_2", "lambda_min")}
    shifted = [(1 + BETA_PRINTED) * w.lambda_min - BETA_PRINTED for w in mats]
    return out | {"rounds with lambda_min(W_0.99) < -1": float(np.mean(np.array(shifted) < -1))}


@family(f"{PAPER.key}/stand-in-data")
def raw_data(fam: Family, data: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Training and held-out ``(features, labels)`` of ``data``: one seeded draw (synthetic) or split (digits)."""
    rng = fam.rng()
    if data == "synthetic":
        X, y = softmax_data(rng, M * 50 + 2000, 20, N_CLASSES)
        return X[: M * 50], y[: M * 50], X[M * 50 :], y[M * 50 :]
    from sklearn.datasets import load_digits  # bundled with scikit-learn: no download

    digits = load_digits()
    X = np.hstack([digits.data / 16.0, np.ones((digits.target.size, 1))])
    order = rng.permutation(digits.target.size)
    test, train = order[:359], np.sort(order[359:])
    return X[train], digits.target[train], X[test], digits.target[test]


def partition(rng: np.random.Generator, labels: np.ndarray, name: str) -> list[np.ndarray]:
    """The client indices of partition ``name`` (module docstring) over :data:`M` clients."""
    if name == "IID":
        return iid_partition(rng, labels.size, M)
    if name.startswith("Path"):
        return pathological_partition(rng, labels, M, int(name[4:]), n_classes=N_CLASSES)
    alpha = float(name[3:].rstrip("b"))
    if name.endswith("b"):
        return dirichlet_by_client(rng, labels, M, alpha, min(50, labels.size // M), n_classes=N_CLASSES)
    return dirichlet_by_class(rng, labels, M, alpha, n_classes=N_CLASSES)


@family(f"{PAPER.key}/stand-in-instance")
def instance(fam: Family, data: str, name: str) -> Instance:
    """The problem of (data, partition), its optimum certified once here for every run."""
    X, y, X_test, y_test = raw_data(fam.profile, data)
    parts = partition(fam.rng(), y, name)
    problem = federated_softmax(X, y, parts, n_classes=N_CLASSES, l2=L2, test_features=X_test, test_labels=y_test)
    return Instance(problem, data, name, problem.optimum.certificate)


def run_decentralized(
    inst: Instance, name: str, params: dfl.DecentralizedParams, betas, T: int, seed: int, record_every: int = 1
) -> Curves:
    """``T`` rounds of a decentralized method on topology ``name`` with one lookahead ``beta`` per config
    (``len(betas) x SEEDS`` replicas, :class:`SharedDraws`), recording every ``record_every`` rounds."""
    problem = inst.problem
    oracle = SharedDraws(problem, BATCH, SEEDS)
    rng, W = np.random.default_rng(seed), topology(name)
    betas = np.asarray(betas, dtype=float)
    S = betas.size * SEEDS
    beta = np.repeat(betas, SEEDS)[:, None, None]
    state = dfl.init(np.zeros(problem.dim), M, S)
    base = replace(params, beta=0.0)  # the lookahead start is applied here, per replica
    radius = DIVERGED * (1 + np.linalg.norm(problem.x_star))  # x^0 = 0
    diverged = np.zeros(S, dtype=int)
    rounds, gaps, cons = [], [], []
    for t in range(1, T + 1):
        start = dfl.lookahead(state.x, state.x_local, -beta) if betas.any() else state.x
        state = dfl.round(replace(state, x=start), oracle, W, base, rng)
        with np.errstate(invalid="ignore", over="ignore"):
            bad = ~(np.linalg.norm(state.x - problem.x_star, axis=-1).max(axis=-1) < radius)  # NaN is bad too
        if bad.any():
            diverged[bad & (diverged == 0)] = t
            state.x[bad], state.x_local[bad] = 0.0, 0.0
        if t % record_every == 0 or t == T:
            rounds.append(t)
            gaps.append(np.where(diverged > 0, np.nan, problem.value(state.mean) - problem.f_star))
            cons.append(np.where(diverged > 0, np.nan, dfl.consensus_distance(state.x)))
    shape = (len(rounds), betas.size, SEEDS)
    return Curves(
        np.array(rounds),
        np.reshape(gaps, shape),
        np.reshape(cons, shape),
        problem.accuracy(state.mean).reshape(shape[1:]),
        diverged.reshape(shape[1:]),
    )


def run_centralized(inst: Instance, sam_radius: float | None, T: int, seed: int) -> Curves:
    """``T`` rounds of FedAvg (``sam_radius=None``) or FedSAM with :data:`PARTICIPANTS` of :data:`M` clients."""
    problem = inst.problem
    params = fedsam.FedSAMParams(inst.eta, K, M, PARTICIPANTS, sam_radius)
    oracle = SharedDraws(problem, BATCH, SEEDS)
    x = fedsam.run(oracle, np.zeros(problem.dim), params, T, np.random.default_rng(seed), S=SEEDS)
    rounds = np.unique(np.append(np.arange(RECORD_EVERY, T + 1, RECORD_EVERY), T))
    x = x[rounds]
    gap = (problem.value(x) - problem.f_star)[:, None]
    return Curves(
        rounds,
        gap,
        np.full_like(gap, np.nan),
        problem.accuracy(x[-1])[None],
        np.zeros((1, SEEDS), dtype=int),
    )


@family(f"{PAPER.key}/stand-in-tuning")
def tuning(fam: Family, data: str, name: str, topology_name: str) -> Curves:
    """OledFL-SGD over the profile's beta grid (configs) on (data, partition, topology), with the tuning seeds."""
    inst = instance(fam.profile, data, name)
    params = dfl.oledfl(inst.eta, K, 0.0)
    seed = int(fam.rng().integers(2**63))
    grid, T = BETA_GRID[fam.profile], ROUNDS[fam.profile]
    return run_decentralized(inst, topology_name, params, grid, T, seed, record_every=5)


def tuned_beta(profile: str, data: str, topology_name: str) -> float:
    """The beta of the grid whose tuning runs on ``Dir0.3`` reach the smallest mean tail suboptimality."""
    tail = tuning(profile, data, "Dir0.3", topology_name).tail()
    return float(BETA_GRID[profile][int(np.argmin(tail.mean(axis=1)))])


@family(f"{PAPER.key}/stand-in-seed")
def run_seed(fam: Family, data: str, name: str, topology_name: str) -> int:
    """The one generator seed of every decentralized run on (data, partition, topology): runs that draw alike are
    paired seed by seed."""
    return int(fam.rng().integers(2**63))


@family(f"{PAPER.key}/stand-in-group")
def group(fam: Family, data: str, name: str, topology_name: str, methods: str) -> dict[str, Curves]:
    """One run of a group of methods on (data, partition, topology): ``"SGD"`` (DFedAvg, OledFL-SGD at the tuned and
    the printed beta, sharing the replica axis), ``"SAM"`` (the same with DFedSAM / OledFL-SAM), ``"DFedAvgM"`` or
    ``"D-PSGD"``."""
    inst = instance(fam.profile, data, name)
    T, seed = ROUNDS[fam.profile], run_seed(fam.profile, data, name, topology_name)
    every = RECORD_EVERY
    if methods in ("DFedAvgM", "D-PSGD"):
        params = dfl.dfedavgm(inst.eta, K, THETA) if methods == "DFedAvgM" else dfl.dpsgd(inst.eta)
        return {methods: run_decentralized(inst, topology_name, params, (0.0,), T, seed, every)}
    names, radius = (SGD_GROUP, None) if methods == "SGD" else (SAM_GROUP, SAM_RADIUS)
    wanted = (0.0, tuned_beta(fam.profile, data, topology_name), BETA_PRINTED)
    betas = sorted(set(wanted))
    curves = run_decentralized(inst, topology_name, dfl.oledfl(inst.eta, K, 0.0, radius), betas, T, seed, every)
    return {method: curves.config(betas.index(beta)) for method, beta in zip(names, wanted, strict=True)}


def decentralized(profile: str, data: str, name: str, topology_name: str, methods=DFL_METHODS) -> dict[str, Curves]:
    """The runs of ``methods`` (names of :data:`DFL_METHODS`) on (data, partition, topology)."""
    out = {}
    for key, members in (("SGD", SGD_GROUP), ("SAM", SAM_GROUP), ("DFedAvgM", ("DFedAvgM",)), ("D-PSGD", ("D-PSGD",))):
        if set(members) & set(methods):
            out |= group(profile, data, name, topology_name, key)
    return {method: out[method] for method in methods}


@family(f"{PAPER.key}/stand-in-centralized")
def centralized(fam: Family, data: str, name: str) -> dict[str, Curves]:
    """FedAvg and FedSAM on (data, partition), from one generator seed."""
    inst = instance(fam.profile, data, name)
    T, seed = ROUNDS[fam.profile], int(fam.rng().integers(2**63))
    return {"FedAvg": run_centralized(inst, None, T, seed), "FedSAM": run_centralized(inst, SAM_RADIUS, T, seed)}


def interval(samples: np.ndarray, family_size: int = 1) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval over the last axis (Bonferroni over ``family_size`` estimates)."""
    est = mc_mean(np.asarray(samples, dtype=float), axis=-1, confidence=CONFIDENCE, family_size=family_size)
    return float(est.mean), float(est.lo), float(est.hi)


def setup(profile: str) -> dict:
    """The stand-in's settings for a claim's witness."""
    return {
        "stand-in": "softmax regression (C = 10, l2 = 1e-2) on seeded synthetic data / 8x8 digits, NOT CIFAR on deep "
        "networks",
        "data": list(DATASETS[profile]),
        "clients": M,
        "K": K,
        "eta": f"c/(K L), c = {STEP_C}, constant (not the printed 0.1 decayed by 0.998)",
        "batch": BATCH,
        "SAM radius": SAM_RADIUS,
        "DFedAvgM theta": THETA,
        "CFL participation": f"{PARTICIPANTS} of {M}",
        "random topology": f"each client picks {NEIGHBOURS} of {M - 1} per round, Metropolis-Hastings weights",
        "rounds": ROUNDS[profile],
        "seeds": SEEDS,
        "beta grid (tuning)": list(BETA_GRID[profile]),
        "interval": "95% Student-t over seeds (paired where methods share draws), Bonferroni over a claim's entries",
    }
