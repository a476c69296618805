"""The Synthetic(0.5, 0.5) runs behind Table 1 and Figures 3 and 7 (no claims): FedBC and baselines, E local epochs
(full profile) or E local steps (quick).

Our construction (scaled down from the paper's Appendix E and the authors' synthetic script):

* data: :func:`fedtheory.problems.synthetic_power_law.power_law_synthetic` with N = 30 devices (70 and 100 for Fig.
  7(f)), alpha = beta = 0.5,
  d = 60, 10 classes, sizes ``int(lognormal(4, 2)) + 50``, 80/20 split per device; one draw (the reference data are
  one generated file too); the model is softmax regression with a bias (``nn.Linear(60, 10)``), no l2 term;
* every method: 10 of the 30 devices sampled per round uniformly without replacement, minibatch SGD with batch 20,
  step 0.01 (the authors' script; Appendix E.2 tunes lr over {0.001, 0.01, 0.1, 0.5, 1} and each method's own
  parameter over its grid, about 125 configurations per E: not done, twenty times the runs), plain SGD (the code
  adds momentum 0.5), start z^0 = 0. Local work: the paper prints E as "local training epochs" (Table 1's caption,
  Section 5, Appendix E.2: "perform 5 local training epochs unless otherwise stated"; the caption's "i.e., K_i = E"
  names Algorithm 1's step count after it), so the full profile runs ``K_i = E ceil(n_i/20)`` steps on device i (E
  epochs of batch 20, the authors' code; minibatches drawn with replacement, not a shuffled pass:
  :func:`fedtheory.algorithms.primal_dual.ragged_steps`), at Table 1's E = 1, 5, 10, 25, 50 (:data:`EPOCHS`); the
  quick profile keeps ``K = E`` steps at E = 1, 5 (a device of n_i = 5613 samples would run 281 E steps a round);
* baselines (:mod:`fedtheory.algorithms.client_server`): FedAvg, the sampled devices' models averaged with weights
  ``n_i / sum_{sampled} n_j`` (training sizes); in the full profile also q-FedAvg (q = 1, step 0.01, ``L_q =
  1/0.01``, the code's n-weighted variant), FedProx (mu = 1) and SCAFFOLD (step 0.1), n-weighted as in the code
  (:data:`BASELINES`);
* FedBC: :mod:`fedtheory.algorithms.primal_dual` with dual step lr_lambda = 1e-3, the gamma heuristic
  ``gamma_i <- gamma_i + 1e-3 lambda_i``, ``lambda^0 = gamma^0 = 0`` and the box ``[0, inf)`` (the code's
  ``clamp(min=0)``), local starts "cold" (from z^t: the code) and "warm" (from x_i^t: Algorithm 2).
  ``lambda^0 = 0`` does not make the first server step 0/0: after the first local steps every sampled device has
  ``lambda_j^1 = lr_lambda ||x_j^1 - z^0||^2 > 0``; a zero multiplier mass would raise
  :class:`~fedtheory.errors.ZeroMultiplierMassError` and the claims reading the run would be errors (the smallest
  sampled mass is recorded);
* 5 seeds = 5 replicas of one vectorised run; the methods of one E share their generator seed, so they sample the
  same devices and the same minibatch indices round by round (paired comparisons).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms import client_server as cs
from fedtheory.algorithms import primal_dual as pd
from fedtheory.harness.claims import seed_for
from fedtheory.harness.family import Family, family
from fedtheory.problems.softmax import SoftmaxMinibatch, SoftmaxRegression
from fedtheory.problems.synthetic_power_law import PowerLawSynthetic, power_law_synthetic

REGISTERS_CLAIMS = False

N, PARTICIPANTS, ALPHA, BETA = 30, 10, 0.5, 0.5
LR, LR_LAMBDA, BATCH, SEEDS = 0.01, 1e-3, 20, 5
EPOCHS = {"quick": (1, 5), "full": (1, 5, 10, 25, 50)}
"""Table 1's columns E run per profile: every printed column in full (E = 25 and 50 are 75 of the 91 epoch-units,
most of the full profile's cost); E = 1, 5 in quick (as steps)."""
LOCAL_WORK = {"quick": "K = E local minibatch SGD steps", "full": "E local epochs: K_i = E ceil(n_i/20) steps"}
"""What E means per profile (the printed reading, epochs, in full)."""
ROUNDS = {"quick": 30, "full": 200}
EVERY = {"quick": 15, "full": 10}
"""Rounds between evaluations of z^t (the test and train sets cost more than a round; lambda is kept every round)."""
METHODS = ("FedAvg", "FedBC (cold)", "FedBC (warm)")
"""FedBC (cold): local steps from z^t, the authors' code; FedBC (warm): from x_i^t, Algorithm 2."""
BASELINES = {
    "FedAvg": ("fedavg", LR, {}),
    "q-FedAvg": ("qfedavg", LR, {"q": 1.0, "variant": "code"}),
    "FedProx": ("fedprox", LR, {"mu": 1.0}),
    "SCAFFOLD": ("scaffold", 0.1, {}),
}
"""Table 1's other columns, :mod:`fedtheory.algorithms.client_server` with n-weights: method, local step and options
as in the authors' synthetic script (q-FedAvg q = 1 with ``L_q = 1/step`` and the code's variant: ``||w^t -
w_k||^2`` in ``h_k``, ``Delta_k`` and ``h_k`` weighted by n_k; FedProx mu = 1, SCAFFOLD step 0.1); all but FedAvg
in the full profile only. q-FedAvg evaluates only the sampled devices' losses ``F_k(w^t)`` (about 0.04 s a round
here), but a run still costs about two FedAvg runs: kept out of the quick budget."""


def methods(profile: str) -> tuple[str, ...]:
    """The methods run in ``profile``: Table 1's other columns only in the full one (the quick budget)."""
    return METHODS + (tuple(BASELINES)[1:] if profile == "full" else ())


def setup(profile: str) -> dict:
    """The stand-in's settings for a claim's witness."""
    return {
        "data": f"Synthetic({ALPHA}, {BETA}), N = {N}, d = 60 (+ bias), 10 classes, sizes int(lognormal(4, 2)) + 50, "
        "80/20 split per device, one draw",
        "sampled per round": PARTICIPANTS,
        "local work": f"{LOCAL_WORK[profile]}, batch 20 (drawn with replacement), step 0.01, no momentum, no l2",
        "FedBC": f"lr_lambda = eta_gamma = {LR_LAMBDA}, lambda^0 = gamma^0 = 0, box [0, inf)",
        "FedAvg": "weights n_i / sum over the sampled devices (training sizes)",
        "rounds": ROUNDS[profile],
        "seeds": f"{SEEDS} (replicas; methods of one E share draws: paired)",
        "other columns": "q-FedAvg (q = 1, L_q = 1/0.01, the code's n-weighted variant), FedProx (mu = 1), SCAFFOLD "
        "(step 0.1), n-weighted, full profile only",
    }


@dataclass(frozen=True)
class Instance:
    data: PowerLawSynthetic
    problem: SoftmaxRegression

    @property
    def train_sizes(self) -> np.ndarray:
        return self.data.train_sizes


@family("fedbc/synthetic-data")
def instance(fam: Family, n_clients: int = N) -> Instance:
    """The one data draw of ``n_clients`` devices (the same in both profiles: the seed is the family's name, and N)."""
    seed = seed_for(fam.name if n_clients == N else f"{fam.name}:N={n_clients}")
    data = power_law_synthetic(np.random.default_rng(seed), n_clients=n_clients, alpha=ALPHA, beta=BETA)
    return Instance(data, data.softmax(l2=0.0))


@dataclass(frozen=True)
class Runs:
    """One method at one E: at the evaluated rounds ``rounds`` (every :data:`EVERY`, and ``T``), the global test
    accuracy and pooled train loss of ``z^t`` and the variance (in %^2) of its per-device test accuracies ``(R,
    S)``; the per-device accuracies at ``T`` ``(S, N)``; at every round ``t = 0..T`` the multipliers ``(T+1, S, N)``
    and the sampled devices ``(T+1, S, N)`` (row 0 empty); the smallest multiplier mass of a server step (these three
    None for the baselines)."""

    rounds: np.ndarray
    accuracy: np.ndarray
    train_loss: np.ndarray
    variance: np.ndarray
    client_accuracy: np.ndarray
    lam: np.ndarray | None
    sampled: np.ndarray | None
    min_mass: float | None


@family("fedbc/synthetic-runs")
def runs(fam: Family, method: str, E: int, n_clients: int = N) -> Runs:
    """``method`` (one of :func:`methods`) at ``E`` (:data:`LOCAL_WORK`: epochs in full, steps in quick) on
    ``n_clients`` devices (10 sampled) for the profile's rounds, every round recorded. Pass ``n_clients`` only when
    it is not :data:`N` (the cache key)."""
    inst = instance(fam.profile, *(() if n_clients == N else (n_clients,)))
    problem, data, sizes = inst.problem, inst.data, inst.train_sizes.astype(float)
    oracle = SoftmaxMinibatch(problem, BATCH)
    key = f"fedbc/synthetic-runs:E={E}" + ("" if n_clients == N else f":N={n_clients}")
    rng = np.random.default_rng(seed_for(key))  # shared by the methods: paired draws
    test_counts = data.sizes - data.train_sizes
    T, S = ROUNDS[fam.profile], SEEDS
    z = np.zeros((S, problem.dim))
    K = E if fam.quick else tuple(int(k) for k in E * np.ceil(inst.train_sizes / BATCH))  # steps, or epochs
    fedbc = method.startswith("FedBC")
    if fedbc:
        start = "cold" if method == "FedBC (cold)" else "warm"
        params = pd.PrimalDualParams(LR, LR_LAMBDA, K, n_clients, PARTICIPANTS, start=start, eta_gamma=LR_LAMBDA)
        state = pd.init(z, n_clients, lam0=0.0, gamma=0.0, S=S)
    else:
        name, step, options = BASELINES[method]
        base = cs.ClientServerParams(step, K, n_clients, PARTICIPANTS, sizes=tuple(sizes))
        state = cs.scaffold_init(z, n_clients, S=S) if name == "scaffold" else z
    acc, loss, var, lam, sampled, masses = [], [], [], [], [np.zeros((S, n_clients), dtype=bool)], []
    evaluated = np.unique(np.r_[np.arange(0, T + 1, EVERY[fam.profile]), T])
    for t in range(T + 1):
        if t in evaluated:
            client = data.client_test_accuracy(z)
            acc.append(client @ test_counts / test_counts.sum())
            var.append(np.var(100 * client, axis=-1))
            loss.append(problem.loss(z, "train"))
        if fedbc:
            lam.append(state.lam)
        if t == T:
            break
        if fedbc:
            state = pd.round(state, oracle, params, rng)
            z = state.z
            masses.append(np.min(np.sum(np.where(state.sampled, state.lam, 0.0), axis=1)))
            sampled.append(state.sampled)
        else:
            state = cs.ROUNDS[name](state, oracle, base, rng, **options)
            z = state.x if name == "scaffold" else state
    return Runs(
        evaluated,
        np.array(acc),
        np.array(loss),
        np.array(var),
        client,
        np.array(lam) if fedbc else None,
        np.array(sampled) if fedbc else None,
        float(min(masses)) if fedbc else None,
    )
