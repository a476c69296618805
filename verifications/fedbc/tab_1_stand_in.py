"""Table 1 and Figures 3 and 7(e) on a scaled-down Synthetic(0.5, 0.5): whether the printed observations reproduce.

Printed: Table 1 (global test accuracy, 30 devices, 10 sampled, E = 1, 5, 10, 25, 50 local training epochs, e.g.
FedBC 87.83 / 87.48 against FedAvg 83.61 / 83.42 at E = 1 / 5), Fig. 3 (synthetic, 30 devices, E = 5: (a) FedBC has
the lowest train loss; (b) the lambda-based coefficients of the min and max user are "one order of magnitude" closer
than the n_i-based ones; (c) users with n_i < 300 get a larger lambda-coefficient than n-coefficient, and vice versa;
(d) FedBC has the lowest variance of per-device test accuracy), Fig. 7(e) (lambda at rounds 1/50/100/200, most
change in the first 50 rounds).

The runs are :mod:`.synthetic_runs` (FedBC with cold and warm local starts, n-weighted FedAvg, and in the full
profile q-FedAvg (q = 1), FedProx and SCAFFOLD). Full profile: the printed local work, E local epochs (``K_i = E
ceil(n_i/20)`` steps of batch 20), at every printed column of Table 1, E = 1, 5, 10, 25, 50, 200 rounds (Fig. 7(e)
shows round 200), 5 seeds; the step sizes are the authors'
script's (0.01, SCAFFOLD 0.1, lr_lambda = 1e-3), not tuned over Appendix E.2's grids (about 125 configurations per
E, beyond a CPU budget). Quick profile: K = E local steps, E in {1, 5}, 30 rounds. Every verdict is on that
stand-in: ``fails`` means the observation does not reproduce here, not that the paper is wrong. Intervals:
Student-t over the 5 seeds of the paired differences, one-sided 5% (Bonferroni over a claim's entries).
"""

from __future__ import annotations

import numpy as np

from fedtheory.fit import mc_mean
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points

from . import PAPER
from . import synthetic_runs as sr

TABLE_1 = {
    "FedAvg": {1: (83.61, 0.43), 5: (83.42, 0.58), 10: (83.49, 0.70), 25: (83.73, 0.57), 50: (82.94, 0.66)},
    "q-FedAvg": {1: (87.12, 0.25), 5: (86.76, 0.15), 10: (86.46, 0.28), 25: (86.76, 0.12), 50: (86.71, 0.12)},
    "FedProx": {1: (86.23, 0.42), 5: (85.59, 0.37), 10: (85.34, 0.61), 25: (85.00, 0.63), 50: (85.34, 0.48)},
    "Scaffold": {1: (83.84, 0.09), 5: (82.95, 0.30), 10: (83.48, 0.21), 25: (83.60, 0.21), 50: (82.80, 0.62)},
    "FedBC": {1: (87.83, 0.35), 5: (87.48, 0.18), 10: (87.43, 0.20), 25: (86.99, 0.11), 50: (87.26, 0.12)},
}
"""Table 1, columns E = 1, 5, 10, 25 and 50: (mean, std) over 5 runs, in %."""
FIG_3_E = 5
"""Fig. 3 is drawn at E = 5."""
THRESHOLD = 300
"""Fig. 3(c): the data size separating the users whose lambda-coefficient exceeds their n-coefficient."""
ORDER = 0.1
"""Fig. 3(b): "one order of magnitude less"."""
STYLES = ("-", "-", "--", ":", "-.", (0, (5, 1, 1, 1)))
"""Line styles per method (FedProx lies on FedAvg at this scale)."""
SCALE = (
    f"quick: K = E local steps, T = {sr.ROUNDS['quick']} rounds; full: E local epochs (K_i = E ceil(n_i/20) steps), "
    f"T = {sr.ROUNDS['full']} rounds"
)


def one_sided(samples: np.ndarray, entries: int) -> tuple[float, float, float]:
    """Mean and the Student-t interval over seeds (last axis) whose lower end is a one-sided 95% bound, Bonferroni
    over ``entries`` (two-sided 1 - 0.1/entries)."""
    est = mc_mean(np.asarray(samples, dtype=float), axis=-1, confidence=0.9, family_size=entries)
    return float(est.mean), float(est.lo), float(est.hi)


def _stats(x: np.ndarray) -> list[float]:
    """``[mean, std]`` over seeds, in %, rounded."""
    return [round(100 * float(np.mean(x)), 2), round(100 * float(np.std(x, ddof=1)), 2)]


def _table(profile: str) -> dict:
    return {
        f"{m} E={E}": _stats(sr.runs(profile, m, E).accuracy[-1])
        for E in sr.EPOCHS[profile]
        for m in sr.methods(profile)
    }


# ---- Table 1 -------------------------------------------------------------------------------------------------------
def _draw_tab_1(path, profile: str) -> None:
    """Global test accuracy of z^t against rounds per method (mean over seeds, band = min..max), one panel per E."""
    fig, axes = plotting.figure(1, len(sr.EPOCHS[profile]), width=3.6, height=2.8, squeeze=False)
    for ax, E in zip(axes[0], sr.EPOCHS[profile], strict=True):
        for j, method in enumerate(sr.methods(profile)):
            r = sr.runs(profile, method, E)
            acc = 100 * r.accuracy
            ax.plot(r.rounds, acc.mean(axis=1), color=f"C{j}", ls=STYLES[j], label=method)
            ax.fill_between(r.rounds, acc.min(axis=1), acc.max(axis=1), color=f"C{j}", alpha=0.2)
        for name, color in (("FedBC", "C1"), ("FedAvg", "C0")):
            ax.axhline(TABLE_1[name][E][0], color=color, ls=":", lw=0.8)
        ax.set(title=f"E = {E} (dotted: Table 1)", xlabel="round", ylabel="global test accuracy (%)")
    axes[0, 0].legend(fontsize=7)
    plotting.save(fig, path)


def _baselines(profile: str) -> tuple[str, ...]:
    """FedAvg, and in the full profile Table 1's other columns."""
    return tuple(m for m in sr.methods(profile) if not m.startswith("FedBC"))


def _tab_1(ctx: Context, method: str) -> Evidence:
    epochs = sr.EPOCHS[ctx.profile]
    points, entries = Points(), [(E, b) for E in epochs for b in _baselines(ctx.profile)]
    for E, base in entries:
        diff = sr.runs(ctx.profile, method, E).accuracy[-1] - sr.runs(ctx.profile, base, E).accuracy[-1]
        mean, lo, hi = one_sided(100 * diff, len(entries))
        points.add(mean, interval=(lo, hi), E=E, baseline=base)
    witness = sr.setup(ctx.profile) | {
        "global test accuracy [mean, std] % over seeds (round T)": _table(ctx.profile),
        "Table 1 (printed, E = 1 / 5 / 10 / 25 / 50)": {k: list(v.values()) for k, v in TABLE_1.items()},
        "printed FedBC - FedAvg": {E: round(TABLE_1["FedBC"][E][0] - TABLE_1["FedAvg"][E][0], 2) for E in epochs},
        "smallest sampled multiplier mass (no 0/0)": {E: sr.runs(ctx.profile, method, E).min_mass for E in epochs},
        "training sizes n_i": sr.instance(ctx.profile).train_sizes.tolist(),
    }
    return points.evidence(">", bound=0.0, witness=witness)


@claim(
    f"{PAPER.key}/tab-1:stand-in",
    source="Table 1",
    statement="FedBC's global test accuracy exceeds FedAvg's (quick) and also q-FedAvg's (q = 1), FedProx's "
    "and SCAFFOLD's (full) at E = 1 and E = 5 (quick) and at every printed E = 1, 5, 10, 25, 50 (full) (paired over "
    "5 seeds, one-sided 5%, Bonferroni over the entries). Stand-in: "
    "Synthetic(0.5, 0.5), N = 30, 10 sampled, local SGD (batch 20, step 0.01), FedBC as the authors' code "
    f"(cold start from z^t, lr_lambda = 1e-3, gamma heuristic, lambda^0 = 0), n-weighted baselines; {SCALE}",
    scope="stand-in",
    expect="fails",
    expect_full="inconclusive",
    figure="tab-1-stand-in",
)
def tab_1_stand_in(ctx: Context) -> Evidence:
    """Instance: :mod:`.synthetic_runs`, FedBC (cold) and the baselines of the profile at E in {1, 5} (quick, local
    steps), {1, 5, 10, 25, 50} (full, local epochs). Reading: per
    (E, baseline), the paired difference (FedBC - baseline, in %) of the pooled test accuracy of z^T over the 5
    seeds, its mean with a one-sided 95% Student-t bound (Bonferroni over the entries), against 0. Reference: the
    pooled test set (the union of the devices' 20% parts); the printed table and every run's accuracy are in the
    witness."""
    ctx.draw(_draw_tab_1, ctx.profile)
    return _tab_1(ctx, "FedBC (cold)")


@claim(
    f"{PAPER.key}/tab-1:stand-in-warm",
    source="Table 1",
    statement="As tab-1:stand-in with FedBC's local steps started from the device's previous model x_i^t "
    f"(Algorithm 2's warm start) instead of z^t; {SCALE}",
    scope="stand-in",
    expect="fails",
)
def tab_1_stand_in_warm(ctx: Context) -> Evidence:
    """Instance: :mod:`.synthetic_runs`, FedBC (warm) and the baselines at the profile's E. Reading and reference as
    ``tab-1:stand-in``."""
    return _tab_1(ctx, "FedBC (warm)")


# ---- Figure 3 ------------------------------------------------------------------------------------------------------
def _coefficients(profile: str) -> tuple[np.ndarray, np.ndarray]:
    """Per round t >= 1 and seed, the lambda- and n-coefficients ``(T, S, 2)`` of the min- and max-data users among
    the devices sampled in round t: ``lambda_j^t / sum_{S_t} lambda`` and ``n_j / sum_{S_t} n``."""
    r, n = sr.runs(profile, "FedBC (cold)", FIG_3_E), sr.instance(profile).train_sizes.astype(float)
    mask, lam = r.sampled[1:], r.lam[1:]
    by_size = np.where(mask, n, np.nan)
    users = np.stack([np.nanargmin(by_size, axis=-1), np.nanargmax(by_size, axis=-1)], axis=-1)  # (T, S, 2)
    lam_c = np.take_along_axis(lam, users, -1) / np.sum(np.where(mask, lam, 0.0), axis=-1, keepdims=True)
    n_c = n[users] / np.sum(np.where(mask, n, 0.0), axis=-1, keepdims=True)
    return lam_c, n_c


def _final_coefficients(profile: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """At round T, over all devices: n_i ``(N,)``, lambda-coefficients ``(S, N)`` and n-coefficients ``(N,)``."""
    n = sr.instance(profile).train_sizes.astype(float)
    lam = sr.runs(profile, "FedBC (cold)", FIG_3_E).lam[-1]
    return n, lam / lam.sum(axis=-1, keepdims=True), n / n.sum()


def _draw_fig_3(path, profile: str) -> None:
    """(a) pooled train loss, (b) coefficients of the min/max-data user (mean over seeds, smoothed), (c) lambda- vs
    n-coefficients at T against n_i, (d) variance of per-device test accuracy; E = 5."""
    fig, axes = plotting.figure(1, 4, width=3.2, height=2.7)
    for j, method in enumerate(sr.methods(profile)):
        r = sr.runs(profile, method, FIG_3_E)
        axes[0].plot(r.rounds, r.train_loss.mean(axis=1), color=f"C{j}", ls=STYLES[j], label=method)
        axes[3].plot(r.rounds, r.variance.mean(axis=1), color=f"C{j}", ls=STYLES[j], label=method)
    axes[0].set(title="(a) train loss of z^t", xlabel="round")
    axes[0].legend(fontsize=7)
    axes[3].set(title="(d) var. of device accuracy (%^2)", xlabel="round")
    lam_c, n_c = _coefficients(profile)
    width = min(10, lam_c.shape[0])
    t = np.arange(width, lam_c.shape[0] + 1)
    for k, who in enumerate(("min user", "max user")):
        for c, ls, what in ((lam_c, "-", "lambda"), (n_c, "--", "n")):
            smooth = np.convolve(c[:, :, k].mean(axis=1), np.ones(width) / width, mode="valid")
            axes[1].semilogy(t, smooth, color=f"C{k}", ls=ls, label=f"{what}, {who}")
    axes[1].set(title=f"(b) coefficients ({width}-round mean)", xlabel="round")
    axes[1].legend(fontsize=6)
    n, lam_f, n_f = _final_coefficients(profile)
    axes[2].loglog(n, lam_f[0], "o", ms=3, label="lambda-coefficient (seed 0)")
    axes[2].loglog(n, n_f, "x", ms=3, label="n-coefficient")
    axes[2].axvline(THRESHOLD, color="k", ls=":", lw=0.8)
    axes[2].set(title="(c) coefficients at T", xlabel="n_i (training samples)")
    axes[2].legend(fontsize=6)
    plotting.save(fig, path)


def _paired(ctx: Context, field: str, what: str) -> Evidence:
    """Each baseline minus FedBC (cold) of ``field`` at T, E = 5, over seeds, against 0 (one-sided 5%, Bonferroni
    over the baselines)."""
    values = {m: getattr(sr.runs(ctx.profile, m, FIG_3_E), field)[-1] for m in sr.methods(ctx.profile)}
    points, bases = Points(), _baselines(ctx.profile)
    for base in bases:
        mean, lo, hi = one_sided(values[base] - values["FedBC (cold)"], len(bases))
        points.add(mean, interval=(lo, hi), baseline=base)
    witness = sr.setup(ctx.profile) | {
        f"{what} at T [mean, std] over seeds": {
            m: [round(float(v.mean()), 4), round(float(v.std(ddof=1)), 4)] for m, v in values.items()
        },
    }
    return points.evidence(">", bound=0.0, witness=witness)


@claim(
    f"{PAPER.key}/fig-3:a",
    source="Figure 3(a)",
    statement="FedBC has a lower train loss than FedAvg (quick), and than q-FedAvg, FedProx and SCAFFOLD (full) "
    "(E = 5; paired over 5 seeds at the last round, one-sided 5%, Bonferroni). Stand-in as tab-1:stand-in, FedBC cold "
    f"start; {SCALE}",
    scope="stand-in",
    expect="fails",
    expect_full="holds",
    figure="fig-3-stand-in",
)
def fig_3_a(ctx: Context) -> Evidence:
    """Instance: :mod:`.synthetic_runs` at E = 5. Reading: per baseline, the paired difference baseline - FedBC of
    the pooled mean cross-entropy of z^T on the training samples, with a one-sided 95% Student-t bound (Bonferroni),
    against 0. Reference: the
    union of the devices' training parts."""
    ctx.draw(_draw_fig_3, ctx.profile)
    return _paired(ctx, "train_loss", "pooled train loss")


@claim(
    f"{PAPER.key}/fig-3:b",
    source="Figure 3(b)",
    statement="The lambda-coefficients lambda_j/sum_{S_t} lambda of the min- and max-data users among the sampled "
    "devices are eventually one order of magnitude closer together than their n-coefficients n_j/sum_{S_t} n: |gap "
    "of lambda| <= 0.1 |gap of n| (mean over the second half of the rounds, E = 5, FedBC cold start, 5 seeds). "
    f"Stand-in as tab-1:stand-in; {SCALE}",
    scope="stand-in",
    expect="inconclusive",
    expect_full="fails",
)
def fig_3_b(ctx: Context) -> Evidence:
    """Instance: FedBC (cold) at E = 5. Reading: per round t >= 1, among the 10 sampled devices, the users with the
    fewest and the most training samples; the ratio of the gaps of their lambda- and n-coefficients, averaged over
    the rounds t > T/2 per seed (the text: the min user's coefficient "eventually catches" the max user's); its
    mean over seeds with a one-sided 95% upper bound, against 0.1. Reference: the
    multipliers after round t and the training sizes."""
    lam_c, n_c = _coefficients(ctx.profile)
    ratio = np.abs(lam_c[..., 1] - lam_c[..., 0]) / (n_c[..., 1] - n_c[..., 0])  # (T, S)
    ratio = ratio[ratio.shape[0] // 2 :]  # "eventually": the second half of training
    mean, lo, hi = one_sided(ratio.mean(axis=0), 1)
    witness = sr.setup(ctx.profile) | {
        "mean over rounds t > T/2 of the gap ratio, per seed": np.round(ratio.mean(axis=0), 4).tolist(),
        "mean lambda-coefficients [min user, max user]": np.round(lam_c.mean(axis=(0, 1)), 4).tolist(),
        "mean n-coefficients [min user, max user]": np.round(n_c.mean(axis=(0, 1)), 4).tolist(),
    }
    return Evidence(mean, ORDER, "<=", interval=(lo, hi), witness=witness)


@claim(
    f"{PAPER.key}/fig-3:c",
    source="Figure 3(c)",
    statement="At the end of training, every user with n_i < 300 has a larger lambda-coefficient lambda_i/sum lambda "
    "than n-coefficient n_i/sum n, and every user with n_i > 300 a smaller one (all 30 devices, E = 5, FedBC cold "
    f"start, each of 5 seeds). Stand-in as tab-1:stand-in; {SCALE}",
    scope="stand-in",
    expect="fails",
)
def fig_3_c(ctx: Context) -> Evidence:
    """Instance: FedBC (cold) at E = 5. Reading: per seed, the fraction of the 30 devices on the printed side of the
    n-coefficient (above it for n_i < 300, below for n_i > 300), against 1 (exact counts, no interval). Reference:
    lambda^T and the training sizes n_i."""
    n, lam_f, n_f = _final_coefficients(ctx.profile)
    agree = np.where(n < THRESHOLD, lam_f > n_f, lam_f < n_f)
    points = Points()
    for s, row in enumerate(agree):
        points.add(float(row.mean()), 1.0, seed=s)
    witness = sr.setup(ctx.profile) | {
        "n_i (training)": n.astype(int).tolist(),
        "lambda-coefficient / n-coefficient (seed 0)": np.round(lam_f[0] / n_f, 3).tolist(),
        "devices off the printed side, per seed": [np.flatnonzero(~row).tolist() for row in agree],
    }
    return points.evidence(">=", witness=witness)


@claim(
    f"{PAPER.key}/fig-3:d",
    source="Figure 3(d)",
    statement="FedBC has a lower variance of per-device test accuracy (of the global model) than FedAvg (quick), "
    "and than q-FedAvg, FedProx and SCAFFOLD (full) (E = 5; paired over 5 seeds at the last round, "
    f"one-sided 5%, Bonferroni). Stand-in as tab-1:stand-in, FedBC cold start; {SCALE}",
    scope="stand-in",
    expect="holds",
    expect_full="inconclusive",
)
def fig_3_d(ctx: Context) -> Evidence:
    """Instance: :mod:`.synthetic_runs` at E = 5. Reading: the variance over the 30 devices of the test accuracy (in
    %) of z^T on each device's 20% part; per baseline, the paired difference baseline - FedBC with a one-sided 95%
    Student-t bound (Bonferroni), against 0. Reference: the devices' test parts."""
    return _paired(ctx, "variance", "variance of per-device test accuracy (%^2)")


# ---- Figure 7(e) ---------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER.key}/fig-7:e",
    source="Figure 7(e)",
    statement="For the majority of devices lambda changes most in the first quarter of training (rounds 1 to 50 of "
    "200): |lambda_i^{T/4} - lambda_i^1| > |lambda_i^T - lambda_i^{T/4}| for more than half of the 30 devices (E = 5, "
    f"FedBC cold start, 5 seeds, one-sided 5%). Stand-in as tab-1:stand-in; {SCALE} (the quarter: round "
    f"{sr.ROUNDS['quick'] // 4} quick, {sr.ROUNDS['full'] // 4} full)",
    scope="stand-in",
    expect="fails",
    expect_full="holds",
)
def fig_7_e(ctx: Context) -> Evidence:
    """Instance: FedBC (cold) at E = 5. Reading: per seed, the fraction of the 30 devices whose multiplier moved
    more over rounds 1..T/4 than over T/4..T; its mean over seeds with a one-sided 95% lower bound, against 1/2.
    Reference: the recorded multipliers of all 30 devices."""
    lam = sr.runs(ctx.profile, "FedBC (cold)", FIG_3_E).lam
    T = lam.shape[0] - 1
    early, late = np.abs(lam[T // 4] - lam[1]), np.abs(lam[T] - lam[T // 4])
    mean, lo, hi = one_sided(np.mean(early > late, axis=-1), 1)
    witness = sr.setup(ctx.profile) | {
        "rounds compared": [1, T // 4, T],
        "lambda at those rounds (seed 0)": [np.round(lam[t, 0], 6).tolist() for t in (1, T // 4, T)],
        "fraction of devices changing most early, per seed": np.round(np.mean(early > late, axis=-1), 3).tolist(),
        "median over devices of early / late change (seed 0)": float(np.median(early[0] / late[0])),
    }
    return Evidence(mean, 0.5, ">", interval=(lo, hi), witness=witness)
