"""Figure 4 (Section 4, third experiment) on a stand-in: Algorithm 1 against FedDA on label-skewed image data.

Printed (Section 4): a CNN (d = 112,394) on MNIST split over 10 clients (30,000 images uniformly, 3,000 each, the other
30,000 by label l -> client l + 1), theta = 1e-4, eta = 0.005, eta_g = 1, b = 10, tau in {5, 10}, both methods; Fig. 4
plots test accuracy of the server model against communication rounds, and the text reads "our algorithm overcomes
client-drift issues and achieves higher accuracy with fewer communication rounds than FedDA" for both tau.

Stand-in (the MNIST download and a CNN are out of reach): scikit-learn's bundled digits (1,797 8x8 images), 359 held
out as the test set, the training part split by the printed rule (half dealt uniformly, 71 per client; the rest by
label l -> client l, unequal sizes), a one-hidden-layer tanh network (16 units, d = 1,210) with the same l1 weight,
softmax cross-entropy, minibatches of b = 10 drawn with replacement from each client's own samples
(:func:`fedtheory.problems.federated_digits`). The printed eta = 0.005 belongs to the CNN; here both methods use
eta = 1, eta_g = 1 (as printed): FedDA's tuned step, the value of the grid {0.1, 0.3, 0.5, 1, 2} with FedDA's smallest
final training objective F = f + theta ||.||_1 at both tau (full profile: 0.100 / 0.079 at tau = 5 / 10). Tuning the
baseline is the conservative choice for a claim that Algorithm 1 beats it; Algorithm 1's own argmin is also 1 at
tau = 5 and is 0.5 at tau = 10 (0.080 against 0.084 at 1). ``fig-4:step-sizes`` repeats the comparison over the whole
grid and records both methods' final objectives, so the choice is re-derived at every full run. Every step of the grid
is stable here (all runs stay finite and train).

Pairing: replica s of both methods starts from the same random network and draws the same minibatch indices (one
generator seed per (tau, eta), and both methods query the oracle once per local step on (S, n, d) points); the data
split is one seeded draw, so the intervals are over initialisations and minibatches on that split. Algorithm 1 is
read at its output ``P_eta~(x^r)``, FedDA at its server primal ``x^{(r,0)}`` (``fedtheory.algorithms.composite``,
Euclidean mirror map with theta ||.||_1), both after r completed rounds. Quick: 8 seeds, R = 40; full: 32 seeds,
R = 100.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.composite import CompositeParams, Euclidean, decoupled
from fedtheory.algorithms.composite import run as composite_run
from fedtheory.fit import mc_mean
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.problems import ClientMinibatch, TanhNetwork, federated_digits
from fedtheory.regularizers import L1

from . import PAPER

THETA, BATCH, ETA_G, TAUS = 1e-4, 10, 1.0, (5, 10)  # printed (Section 4, third experiment)
ETA = 1.0  # the stand-in's step: FedDA's tuned step on STEP_GRID (module docstring)
STEP_GRID = {"quick": (0.3, 1.0), "full": (0.1, 0.3, 0.5, 1.0, 2.0)}
TARGETS = (0.9, 0.95)  # test accuracies for rounds-to-target
HIDDEN = 16


@dataclass(frozen=True)
class _Data:
    net: TanhNetwork
    x0: np.ndarray  # (S, d): one random network per seed, shared by both methods
    R: int


@dataclass(frozen=True)
class _Runs:
    proposed: np.ndarray  # (R + 1, S) test accuracy after r = 0..R rounds
    fedda: np.ndarray
    objective: dict  # method -> (S,) final training objective f + theta ||.||_1


@family(f"{PAPER.key}/fig-4-data")
def _data(fam: Family) -> _Data:
    """The digits split, the network and one random start per seed."""
    rng = fam.rng()
    net = federated_digits(rng, hidden=HIDDEN)
    S, R = (8, 40) if fam.quick else (32, 100)
    return _Data(net, net.initial_point(rng, S), R)


@family(f"{PAPER.key}/fig-4-runs")
def _runs(fam: Family, tau: int, eta: float) -> _Runs:
    """Both methods from the same starts with the same minibatch stream (two generators of one seed)."""
    data = _data(fam.profile)
    net, S = data.net, data.x0.shape[0]
    oracle, g = ClientMinibatch(net, BATCH), L1(THETA)
    params = decoupled.DecoupledParams(eta, ETA_G, tau, net.n_clients)
    ours = decoupled.run(oracle, g, data.x0, params, data.R, np.random.default_rng(fam.seed), S=S)
    p = decoupled.output(g, ours.x, params)
    base = CompositeParams("FedDualAvg", eta_c=eta, K=tau, M=net.n_clients, eta_s=ETA_G)
    da = composite_run(oracle, Euclidean(g), data.x0, base, data.R, np.random.default_rng(fam.seed), S=S).x

    def objective(x):
        return net.value(x) + g.value(x)

    return _Runs(net.accuracy(p), net.accuracy(da), {"Algorithm 1": objective(p[-1]), "FedDA": objective(da[-1])})


def _first_round(acc: np.ndarray, target: float) -> np.ndarray:
    """Per seed, the first round count r with test accuracy >= target; ``R + 1`` where never (a lower bound)."""
    hit = acc >= target
    return np.where(hit.any(axis=0), hit.argmax(axis=0), acc.shape[0]).astype(float)


def _interval_point(points: Points, diff: np.ndarray, family_size: int, **parameters) -> None:
    est = mc_mean(diff, confidence=0.99, family_size=family_size)
    points.add(float(est.mean), interval=(float(est.lo), float(est.hi)), **parameters)


def _witness(ctx: Context) -> dict:
    data = _data(ctx)
    net = data.net
    return {
        "stand-in": "scikit-learn digits (8x8) on a 1-hidden-layer tanh network, NOT MNIST on the printed CNN",
        "data": {
            "train": int(net.counts.sum()),
            "test": int(net.test_labels.size),
            "client sizes": net.counts.tolist(),
            "partition": "71 per client dealt uniformly, the rest by label l -> client l",
        },
        "network": {"hidden": HIDDEN, "activation": "tanh", "d": net.dim},
        "steps": {"eta": ETA, "eta_g": ETA_G, "theta": THETA, "b": BATCH, "printed eta (CNN)": 0.005},
        "seeds": int(data.x0.shape[0]),
        "rounds": data.R,
        "interval": "paired over seeds (same start, same minibatches), Student t, 99% simultaneous (Bonferroni)",
    }


def _band(ax, x, samples: np.ndarray, color: str, label: str) -> None:
    """Mean over seeds (axis 1) with its pointwise 99% Student-t band."""
    est = mc_mean(samples, axis=1, confidence=0.99)
    ax.plot(x, est.mean, color=color, label=label)
    ax.fill_between(x, est.lo, est.hi, color=color, alpha=0.2, lw=0)


def _errorbars(ax, x, estimates, marker: str, label: str) -> None:
    mean = np.array([float(e.mean) for e in estimates])
    err = np.array([[float(e.mean - e.lo), float(e.hi - e.mean)] for e in estimates]).T
    ax.errorbar(x, mean, yerr=err, fmt=marker, capsize=2, label=label)


def _draw(path, ctx: Context) -> None:
    """Top: test accuracy vs rounds (tau = 5, 10) and the final difference over the step grid; bottom: the paired
    difference vs rounds and the rounds-to-target differences. Bands and bars: pointwise 99% Student-t intervals."""
    data = _data(ctx)
    fig, axes = plotting.figure(2, 3, width=3.3, height=2.6)
    rounds = np.arange(data.R + 1)
    for col, tau in enumerate(TAUS):
        runs = _runs(ctx, tau, ETA)
        top, bottom = axes[0, col], axes[1, col]
        _band(top, rounds, runs.proposed, "C0", "Algorithm 1")
        _band(top, rounds, runs.fedda, "C3", "FedDA")
        top.set(title=f"tau = {tau}, eta = {ETA:g}", xlabel="round", ylabel="test accuracy", ylim=(0.8, 1.0))
        top.legend(loc="lower right")
        _band(bottom, rounds, runs.proposed - runs.fedda, "C2", "paired difference")
        bottom.axhline(0.0, color="k", lw=0.8)
        bottom.set(title=f"tau = {tau}", xlabel="round", ylabel="accuracy: Alg. 1 - FedDA")
    etas = np.array(STEP_GRID[ctx.profile])
    for tau, marker, shift in zip(TAUS, "os", (0.96, 1.04), strict=True):
        final = [mc_mean(r.proposed[-1] - r.fedda[-1], confidence=0.99) for r in (_runs(ctx, tau, e) for e in etas)]
        _errorbars(axes[0, 2], etas * shift, final, marker, f"tau = {tau}")
        runs = _runs(ctx, tau, ETA)
        gaps = [mc_mean(_first_round(runs.fedda, t) - _first_round(runs.proposed, t), confidence=0.99) for t in TARGETS]
        _errorbars(axes[1, 2], np.array(TARGETS) + (shift - 1) / 8, gaps, marker, f"tau = {tau}")
    for ax in axes[:, 2]:
        ax.axhline(0.0, color="k", lw=0.8)
        ax.legend()
    axes[0, 2].set(xscale="log", title=f"final accuracy after R = {data.R}", xlabel="eta (both methods)")
    axes[0, 2].set_xticks(etas, [f"{e:g}" for e in etas], minor=False)
    axes[0, 2].minorticks_off()
    axes[0, 2].set_ylabel("Alg. 1 - FedDA")
    axes[1, 2].set(title=f"rounds to target (eta = {ETA:g})", xlabel="target test accuracy", xticks=TARGETS)
    axes[1, 2].set_ylabel("rounds: FedDA - Alg. 1")
    plotting.save(fig, path)


@claim(
    f"{PAPER.key}/fig-4",
    source="Fig. 4 and Section 4",
    statement="Algorithm 1 reaches a higher test accuracy than FedDA (tau = 5 and tau = 10, same steps): the "
    "final-round accuracy difference (paired over seeds) is > 0. Stand-in: digits on a tanh network, eta = 1 (FedDA's "
    "tuned step), 8 seeds and R = 40 (quick) / 32 seeds and R = 100 (full)",
    scope="stand-in",
    expect="inconclusive",
    figure="fig-4",
)
def fig_4(ctx: Context) -> Evidence:
    """Instance: the stand-in of the module docstring at eta = 1, tau in {5, 10}. Reading: per tau, the paired
    difference acc(Algorithm 1) - acc(FedDA) of the server models after R rounds, its mean over seeds with a 99%
    Student-t interval (Bonferroni over the two tau) against 0; the mean difference over all rounds (the area between
    the curves) is recorded beside it. Reference: none needed (both accuracies are measured on the same test set)."""
    points = Points()
    curves = {}
    for tau in TAUS:
        runs = _runs(ctx, tau, ETA)
        _interval_point(points, runs.proposed[-1] - runs.fedda[-1], len(TAUS), tau=tau)
        over_rounds = mc_mean((runs.proposed - runs.fedda).mean(axis=0), confidence=0.99)
        curves[f"tau={tau}"] = {
            "final accuracy (Algorithm 1, FedDA)": [float(runs.proposed[-1].mean()), float(runs.fedda[-1].mean())],
            "mean difference over rounds": [float(over_rounds.mean), float(over_rounds.lo), float(over_rounds.hi)],
        }
    ctx.draw(_draw, ctx)
    return points.evidence(">", bound=0.0, witness=_witness(ctx) | {"curves": curves})


@claim(
    f"{PAPER.key}/fig-4:rounds",
    source="Fig. 4 and Section 4",
    statement="Algorithm 1 needs fewer communication rounds than FedDA to reach a test accuracy of 0.9 and of 0.95 "
    "(tau = 5 and 10): rounds(FedDA) - rounds(Algorithm 1), paired over seeds, is > 0. Stand-in as fig-4 (eta = 1; "
    "8 seeds, R = 40 quick / 32 seeds, R = 100 full)",
    scope="stand-in",
    expect="fails",
)
def fig_4_rounds(ctx: Context) -> Evidence:
    """Instance: the runs of ``fig-4``. Reading: per tau and target accuracy, the first round count at which each
    method's server model reaches the target, R + 1 where it never does (a lower bound on the true count, so a
    censored Algorithm 1 never makes the difference look larger than it is); the paired difference's mean with a
    99% Student-t interval, Bonferroni over the four (tau, target) entries, against 0."""
    points = Points()
    censored = {}
    for tau in TAUS:
        runs = _runs(ctx, tau, ETA)
        for target in TARGETS:
            ours, base = _first_round(runs.proposed, target), _first_round(runs.fedda, target)
            _interval_point(points, base - ours, len(TAUS) * len(TARGETS), tau=tau, target=target)
            never = runs.proposed.shape[0]
            censored[f"tau={tau}, target={target}"] = [int(np.sum(ours == never)), int(np.sum(base == never))]
    witness = _witness(ctx) | {"runs that never reached the target (Algorithm 1, FedDA)": censored}
    return points.evidence(">", bound=0.0, witness=witness)


@claim(
    f"{PAPER.key}/fig-4:step-sizes",
    source="Fig. 4 and Section 4",
    statement="The final-accuracy advantage of Algorithm 1 over FedDA (> 0, paired over seeds) at every step eta of "
    "the grid (both methods at the same eta, eta_g = 1, tau = 5 and 10). Stand-in as fig-4; grid {0.3, 1} with 8 "
    "seeds and R = 40 (quick), {0.1, 0.3, 0.5, 1, 2} with 32 seeds and R = 100 (full)",
    scope="stand-in",
    expect="inconclusive",
)
def fig_4_step_sizes(ctx: Context) -> Evidence:
    """Instance: the stand-in of ``fig-4`` at each step of the profile's grid. Reading: per (eta, tau), the paired
    final-round accuracy difference with a 99% Student-t interval, Bonferroni over the grid, against 0. The final
    training objective f + theta ||.||_1 of each method (mean over seeds) is recorded per entry: its argmin over the
    grid is the step each method would be tuned to (``ETA`` is FedDA's)."""
    etas = STEP_GRID[ctx.profile]
    points = Points()
    objective = {}
    for eta in etas:
        for tau in TAUS:
            runs = _runs(ctx, tau, eta)
            _interval_point(points, runs.proposed[-1] - runs.fedda[-1], len(etas) * len(TAUS), eta=eta, tau=tau)
            objective[f"eta={eta}, tau={tau}"] = {k: float(v.mean()) for k, v in runs.objective.items()}
    tuned = {}
    for tau in TAUS:
        for method in ("Algorithm 1", "FedDA"):
            best = min(etas, key=lambda eta, tau=tau, method=method: objective[f"eta={eta}, tau={tau}"][method])
            tuned[f"{method}, tau={tau}"] = best
    witness = _witness(ctx) | {"final training objective": objective, "step with the smallest objective": tuned}
    return points.evidence(">", bound=0.0, witness=witness)
