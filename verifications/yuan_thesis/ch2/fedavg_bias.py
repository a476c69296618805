"""Lemma 2.11: FedAvg's bias on f^(1) = (L/24)psi + xi x accumulates over rounds, in three regimes.

With infinitely many homogeneous clients one round maps x to u_K(x) = E[x_K | x_0 = x] (section 2.2), which
the density engine's backward pass computes on a grid; iterating it gives FedAvg with M = infinity. Each
application adds at most the map's error estimate, and |u_K'| <= 1 (Lemma A.8(c)) keeps errors from growing,
so R rounds carry at most R times the largest error. Finite M is checked by Monte Carlo. L = sigma = 1:
E x^(R,0) / (eta sigma) depends only on (eta L, K, R) on this instance.

Printed objects: Lemma 2.11 with eq. (2.11) (section 2.3; restated with a proof sketch in appendix A.3.1).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

from fedtheory.algorithms import fedavg
from fedtheory.exact import density
from fedtheory.fit import loglog_slope, mc_mean
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Budget, Domain
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import PiecewiseQuadratic

PAPER = "yuan-thesis"
F1 = PiecewiseQuadratic.scaled_psi(1 / 24)  # (L/24) psi with L = 1
ETA_L = (2.0, 1.0, 0.5, 0.1, 0.02, 0.005)
KS = (2, 8, 32)
RS = (1, 4, 16, 64)


def _x_range(eta: float, K: int) -> tuple[float, float]:
    # FedAvg's mean stays within a few stationary standard deviations of SGD (at most sqrt(K) noise steps).
    spread = eta * np.sqrt(min(K, 24 / eta)) * 6
    return -spread, spread


@cache
def _map(eta: float, K: int) -> density.RoundMap:
    return density.round_map(F1.gradient_pieces(), eta, 1.0, K, _x_range(eta, K))


def _rounds(eta: float, K: int, R: int) -> tuple[np.ndarray, np.ndarray]:
    """E x^(r,0) for r = 0..R with M = infinity from x^(0,0) = 0, and accumulated error bounds."""
    u = _map(eta, K)
    xs, errs = [0.0], [0.0]
    for _ in range(R):
        xs.append(float(u(xs[-1])))
        errs.append(errs[-1] + float(u.error_at(xs[-2])))
    return np.asarray(xs), np.asarray(errs)


def _rate(eta, K, R):
    y = eta * K
    return np.sqrt(eta) * np.minimum.reduce([np.ones_like(y * R), np.sqrt(y) * np.ones_like(R), y**1.5 * R])


@claim(
    f"{PAPER}/lem-2.11:sign",
    source="Lemma 2.11, eq. (2.11)",
    statement="FedAvg on f^(1) = (L/24)psi + xi x (Gaussian xi) from x^(0,0) = 0 with M = infinity: E x^(R,0) < 0 "
    "for eta L in {2, 1, 0.5, 0.1, 0.02, 0.005}, K in {2, 8, 32}, R in {1, 4, 16, 64}, and by a witness search over "
    "eta L <= 2, K >= 2 and R (the sign of (2.11)); the ratio to eta^(1/2) L^(-1/2) sigma min{1, (eta L K)^(1/2), "
    "(eta L K)^(3/2) R} is reported.",
    scope="printed",
    expect="holds",
    figure="fedavg-bias-rounds",
)
def lem211_sign(ctx: Context) -> Evidence:
    """f^(1) = (L/24)psi with Gaussian noise (L = sigma = 1), M = infinity, from x^(0,0) = 0, on the grid and by the
    witness search (a reduced budget in the quick profile: an evaluation is a run of the density engine). Reference:
    the density engine's one-round map u_K iterated R times, with the accumulated error bounds as intervals (the
    search: the upper end)."""
    points, ratios = Points(), []
    for eta in ETA_L:
        for K in KS:
            xs, errs = _rounds(eta, K, max(RS))
            for R in RS:
                points.add(xs[R], 0.0, interval=(xs[R] - errs[R], xs[R] + errs[R]), eta_L=eta, K=K, R=R)
                ratios.append(-xs[R] / float(_rate(np.array(eta), np.array(K), np.array(R))))
    ratios = np.asarray(ratios)
    worst = int(np.argmin(ratios))
    at_worst = {k: v[worst] for k, v in points.grid.items()}

    def at(eta_L, K, R):
        xs, errs = _rounds(eta_L, K, R)
        return float(xs[R] + errs[R]), 0.0  # the upper end of the engine's error bar

    domain = Domain(
        {"eta_L": Axis(1e-3, 2.0), "K": Axis(2, 64, integer=True), "R": Axis(1, 256, integer=True)},
        note="Lemma 2.11's sign on f^(1) with Gaussian noise from x^(0,0) = 0, M = infinity: every eta <= 2/L, K >= 2 "
        "(Theorem 2.8's) and R (L = sigma = 1 by scaling: E x^(R,0)/(eta sigma) depends on (eta L, K, R) alone). "
        "Measured: the upper end of the engine's error bar. Left out: eta L < 1e-3, K > 64 and R > 256 (the "
        "engine's cost grows with K and 1/eta; the bias has settled at the rounds' fixed point by then), finite M "
        "(lem-2.11:finite-m).",
    )
    points.search(at, domain, "<", ctx, budget=Budget(8, 1, 4) if ctx.quick else None)
    ctx.draw(_draw)
    return points.evidence(
        "<",
        witness={
            "inf of -E x / rate (an empirical c1)": float(ratios.min()),
            "at": at_worst,
            "sup of the ratio": float(ratios.max()),
            "hypotheses": "f^(1) = (L/24) psi + xi x with Gaussian xi (Assumption 2.1'), eta L <= 2, K >= 2, from 0",
        },
    )


def _fixed_point(eta: float, K: int) -> float:
    """The R -> infinity limit of FedAvg with M = infinity: the root of u_K(x) - x."""
    u = _map(eta, K)
    lo = u.grid[0] / 2
    return brentq(lambda x: float(u(x)) - x, lo, 0.0, xtol=1e-15, rtol=1e-12)


def local_exponents(x, y) -> np.ndarray:
    """The exponents of y ~ x^p between consecutive points: how the log-log slope moves across a window."""
    return np.diff(np.log(np.abs(y))) / np.diff(np.log(x))


@claim(
    f"{PAPER}/lem-2.11:regimes",
    source="Lemma 2.11, eq. (2.11), its three branches",
    statement="The three branches of (2.11) give eta-exponents of |E x^(R,0)|: 2 where eta L K R << 1 (one round, "
    "K = 2, eta L in [1e-4, 1e-3]), 1 where eta L K << 1 << eta L K R (R -> infinity, K = 2, eta L in "
    "[1e-3, 1e-2]) and 1/2 where eta L K >> 1 (R -> infinity, K = 1000, eta L in [0.1, 1], so the chain "
    "relaxes within a round: eta a_mean K >= 6); fitted exponents within 0.15 of 2, 1, 1/2, and so is every local "
    "exponent between neighbouring step sizes (the interval). Stand-in: the windows are ours, so this tells whether "
    "the printed branches show in them, not whether the asymptotic statement holds.",
    scope="stand-in",
    expect="holds",
)
def lem211_regimes(ctx: Context) -> Evidence:
    """f^(1) with Gaussian noise (L = sigma = 1), M = infinity: one round (K = 2) and the rounds' fixed point (K = 2
    and K = 1000). Reference: the density engine's round maps (brentq for the fixed points); the log-log slope in
    eta over each window, with the range of the local exponents between neighbouring step sizes as its interval (a
    deterministic range over the window, not a confidence interval: the values are exact up to the engine's
    error)."""
    curves = {}
    etas = np.geomspace(1e-4, 1e-3, 6)
    curves["eta L K R << 1 (2)"] = (etas, [-_rounds(e, 2, 1)[0][1] for e in etas], 2.0)
    etas = np.geomspace(1e-3, 1e-2, 6)
    curves["eta L K << 1 << eta L K R (1)"] = (etas, [-_fixed_point(e, 2) for e in etas], 1.0)
    etas = np.geomspace(1e-1, 1.0, 6)
    curves["eta L K >> 1 (1/2)"] = (etas, [-_fixed_point(e, 1000) for e in etas], 0.5)
    fits = {name: (loglog_slope(x, y), local_exponents(x, y), p) for name, (x, y, p) in curves.items()}
    return Evidence(
        measured=[f.slope for f, _, _ in fits.values()],
        bound=[p for _, _, p in fits.values()],
        relation="==",
        atol=0.15,  # the statement's tolerance on an exponent, not rounding
        interval=([loc.min() for _, loc, _ in fits.values()], [loc.max() for _, loc, _ in fits.values()]),
        grid={"regime": list(fits)},
        witness={name: {"slope": f.slope, "local exponents": loc} for name, (f, loc, _) in fits.items()},
    )


@claim(
    f"{PAPER}/lem-2.11:finite-m",
    source="Lemma 2.11 (any number of clients M)",
    statement="With finite M in {1, 4, 16}, eta L = 0.1, K = 16, R in {1, 4, 16}: E x^(R,0) < 0 (simultaneous 99% "
    "Monte Carlo intervals); for R = 1 it equals u_K(0) whatever M is.",
    scope="printed",
    expect="holds",
)
def lem211_finite_m(ctx: Context) -> Evidence:
    """f^(1) with Gaussian noise (L = sigma = 1), eta L = 0.1, K = 16, M in {1, 4, 16}, from 0. Reference: Monte
    Carlo FedAvg runs (50,000 replicas; full profile 400,000) with simultaneous 99% intervals; at R = 1 the intervals
    are compared with the density engine's u_K(0)."""
    S = 50_000 if ctx.quick else 400_000
    eta, K = 0.1, 16
    oracle = AdditiveGaussian(F1, 1.0)
    points = Points()
    one_round = []
    for i, M in enumerate((1, 4, 16)):
        traj = fedavg.run(oracle, [0.0], fedavg.FedAvgParams(eta, K, M), 16, ctx.rng(i), S=S)
        est = mc_mean(traj.x[[1, 4, 16], :, 0], axis=1, family_size=9)
        for R, mean, lo, hi in zip((1, 4, 16), est.mean, est.lo, est.hi):
            points.add(mean, interval=(lo, hi), M=M, R=R)
        one_round.append([float(est.lo[0]), float(est.hi[0])])
    exact = float(_map(eta, K)(0.0))
    agree = all(a <= exact <= b for a, b in one_round)
    return points.evidence(
        "<",
        bound=0.0,
        witness={
            "replicas": S,
            "u_K(0) (density engine)": exact,
            "R = 1 intervals contain u_K(0)": agree,
            "R = 1 intervals": one_round,
        },
    )


def _draw(path) -> None:
    fig, axes = plotting.figure(1, len(KS), width=3.2, height=2.8)
    colors = plotting.plt.cm.viridis(np.linspace(0.05, 0.9, len(ETA_L)))
    for ax, K in zip(axes, KS):
        for eta, c in zip(ETA_L, colors):
            xs, _ = _rounds(eta, K, 256)
            r = np.arange(1, xs.size)
            ax.plot(r, -xs[1:] / np.sqrt(eta), color=c, label=f"ηL = {eta:g}")
            ax.plot(r, _rate(np.array(eta), np.array(K), r) / np.sqrt(eta), color=c, ls=":", lw=0.9)
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="round R",
            ylabel="−E x^(R,0) / (η^½ L^-½ σ)",
            title=f"(L/24)ψ, M = ∞, K = {K}",
        )
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=len(ETA_L),
        fontsize=7,
        title="solid: exact (density engine); dotted: min{1, (ηLK)^½, (ηLK)^3/2 R} of (2.11)",
        title_fontsize=7,
    )
    plotting.save(fig, path)


def _abs_mean(c: float, s: np.ndarray) -> np.ndarray:
    """E|c + s Z| = s sqrt(2/pi) e^{-c^2/(2 s^2)} + c (1 - 2 Phi(-c/s)), and |c| at s = 0."""
    s = np.asarray(s, dtype=float)
    out = np.full(s.shape, abs(c))
    pos = s > 0
    out[pos] = s[pos] * np.sqrt(2 / np.pi) * np.exp(-(c**2) / (2 * s[pos] ** 2)) + c * (1 - 2 * norm.cdf(-c / s[pos]))
    return out


def c_discrete(r: float, K: int) -> float:
    """Small-step limit at finite K: the root of (1/K) sum_{k<K} [c + r E|c + sqrt(k/K) Z|] = 0 (the round's K steps
    kept discrete; as K -> infinity the sum becomes an integral over the round, whose root is the limit c*)."""
    k = np.arange(K)
    return brentq(lambda c: float(np.mean(c + r * _abs_mean(c, np.sqrt(k / K)))), -10.0, 0.0, xtol=1e-15)


@claim(
    f"{PAPER}/lem-2.11:fixed-point-limit",
    source="Lemma 2.11, middle branch of (2.11) and its constant (derived)",
    statement="With infinitely many clients on (L/2)psi, the rounds' fixed point satisfies x_bar / (eta sigma sqrt(K)) "
    "-> c_K as eta -> 0 (K = 64), c_K the root of (1/K) sum_{k<K} [c + r E|c + sqrt(k/K) Z|] = 0 with "
    "r = delta/a_mean = 1/3; c_K tends to c* as K grows (the (eta L K)^(1/2) branch with its constant: a statement "
    "of ours that makes the printed unspecified c_1 explicit).",
    scope="corrected",
    expect="holds",
)
def lem211_fixed_point(ctx: Context) -> Evidence:
    """(L/2)psi with Gaussian noise, M = infinity, K = 64, eta a_mean K in {0.002, ..., 0.010}. Reference: the density
    engine's round map and its fixed point (brentq), extrapolated to eta -> 0 (quadratic fit; error bar: its distance
    to the linear fit plus the engine's errors through the fit), against c_K from ``c_discrete``."""
    psi = PiecewiseQuadratic.scaled_psi(0.5)  # a_plus = 1, a_minus = 1/2: a_mean = 3/4, delta = 1/4
    K = 64
    x = np.array([0.002, 0.004, 0.006, 0.008, 0.010])  # eta a_mean K
    ratios, errors = [], []
    for y in x:
        eta = y / (0.75 * K)
        spread = 10 * eta * np.sqrt(K)
        u = density.round_map(psi.gradient_pieces(), eta, 1.0, K, (-spread, spread))
        fixed = brentq(lambda z, u=u: float(u(z)) - z, -spread / 2, 0.0, xtol=1e-16)
        h = 1e-3 * spread
        contraction = 1 - (float(u(fixed + h)) - float(u(fixed - h))) / (2 * h)  # 1 - u'(x_bar), about eta a_mean K
        ratios.append(fixed / (eta * np.sqrt(K)))
        errors.append(float(u.error_at(fixed)) / contraction / (eta * np.sqrt(K)))
    ratios = np.asarray(ratios)
    # extrapolation to eta -> 0: the quadratic fit's intercept, as a weighted sum of the ratios; its error bar is
    # the distance to the linear fit's intercept (the extrapolation's own remainder) plus the engine's errors carried
    # through the weights (deterministic bounds, not a confidence interval)
    weights = {p: np.linalg.pinv(np.vander(x, p + 1))[-1] for p in (1, 2)}
    intercept = {p: float(w @ ratios) for p, w in weights.items()}
    half = abs(intercept[2] - intercept[1]) + float(np.abs(weights[2]) @ np.asarray(errors))
    return Evidence(
        measured=intercept[2],
        bound=c_discrete(1 / 3, K),
        relation="==",
        interval=([intercept[2] - half], [intercept[2] + half]),
        witness={
            "c_K at K = 64, 4096, 65536": [c_discrete(1 / 3, k) for k in (64, 4096, 65536)],
            "ratios at eta a_mean K = 0.002..0.010": ratios,
            "engine error on each ratio": errors,
            "extrapolation": "quadratic in eta a_mean K to 0; error bar: its distance to the linear extrapolation plus "
            "the engine's errors through the extrapolation weights",
            "linear extrapolation": intercept[1],
        },
    )
