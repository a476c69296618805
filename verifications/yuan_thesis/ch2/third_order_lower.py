"""Theorem A.9 / 2.16: the third-order lower bound on instance (A.15), and the algebra of its proof.

The printed noise is uniform, U[-sigma, sigma], for which no exact engine applies: E x_k is estimated by Monte
Carlo with a control variate, the linear chain y_{k+1} = y_k - eta((3/4) L y_k + xi_k) driven by the
same noise, whose mean is exactly 0 from y_0 = 0; the estimate is the mean of x_k - y_k, judged with
simultaneous 99% intervals. L = sigma = 1, Q = L^2/(12 K sigma) (the largest the theorem admits).

Printed objects: Theorem A.9 with instance (A.15) and its proof (appendix A.4.2), Lemma A.12(f), Theorem 2.16.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.fit import mc_mean
from fedtheory.harness import plotting
from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import SCALED_ROUNDING
from fedtheory.problems import LogCoshQuadratic

from .array_search import with_search
from .upper_bound import geometric_sums

PAPER = "yuan-thesis"


def a9_bound(eta, k, Q, L=1.0, sigma=1.0):
    """0.005 eta^3 sigma^2 Q min{(k - 1)/(eta L), k (k - 1)} of (A.13)."""
    return 0.005 * eta**3 * sigma**2 * Q * np.minimum((k - 1) / (eta * L), k * (k - 1))


def _bias_mc(eta: float, K: int, S: int, seed: int, family_size: int, scale=None):
    """Simultaneous intervals for -(E x_k - z_k) (divided by ``scale[k-1]`` if given), k = 1..K, on (A.15) with
    additive gradient noise U[-1, 1] (L = sigma = 1), from the control-variate samples -(x_k - y_k)."""
    p = LogCoshQuadratic(1.0, 1.0 / (12 * K))
    rng = np.random.default_rng(seed)
    x, y = np.zeros(S), np.zeros(S)
    mean, lo, hi = np.empty(K), np.empty(K), np.empty(K)
    for k in range(K):
        xi = rng.uniform(-1.0, 1.0, S)
        x = x - eta * (p.grad(x[:, None])[:, 0] + xi)
        y = y - eta * (0.75 * y + xi)
        est = mc_mean(-(x - y) / (1.0 if scale is None else scale[k]), family_size=family_size)
        mean[k], lo[k], hi[k] = est.mean, est.lo, est.hi
    return mean, lo, hi


def _families(quick: bool):
    """(K, eta L, replicas): every printed step size for K in {10, 50}; K = 200 with eta L = 0.5 in the quick profile
    (the family where the bias has settled while the bound keeps growing) and with every step size in the full one."""
    S = 200_000 if quick else 400_000
    for K in (10, 50, 200):
        etas = sorted({1 / (2 * K), 0.01, 0.05, 0.1, 0.25, 0.5})
        for eta in etas if (K < 200 or not quick) else [0.5]:
            yield K, eta, S


@claim(
    f"{PAPER}/thm-a.9",
    figure="bias-third-order",
    source="Theorem A.9, eq. (A.13) (instance (A.15) with gradient noise xi x)",
    statement="On instance (A.15) with f = F + xi x, xi ~ U[-sigma, sigma], Q = L^2/(12 K sigma), from x* = 0: for "
    "eta L in {1/(2K), 0.01, 0.05, 0.1, 0.25, 0.5} and every k in [2, K - 1], -(E x_k - z_k) >= "
    "0.005 eta^3 sigma^2 Q min{(k-1)/(eta L), k(k-1)}. The theorem says 'there exists f'; this is the instance its "
    "proof constructs and claims the bound for, so a failure refutes the proof's construction, not the existence.",
    scope="printed",
    expect="fails",
)
def thm_a9(ctx: Context) -> Evidence:
    """Instance (A.15) with U[-1, 1] gradient noise (L = sigma = 1, Q = 1/(12K)) from x* = 0, K in {10, 50, 200}
    (K = 200 only at eta L = 0.5 in the quick profile). Reference: Monte Carlo with the linear control-variate chain,
    simultaneous 99% intervals, against the bound (A.13) at every k in [2, K - 1]."""
    data = _a9_data(ctx)
    ctx.draw(_draw, data["curves"])
    return _a9_evidence(data, small_steps_only=False)


@family(f"{PAPER}/thm-a.9-bias-estimates")
def _a9_data(fam: Family) -> dict:
    """Monte Carlo estimates of -(E x_k - z_k), k = 1..K, with simultaneous intervals, for every family (K, eta L)."""
    families = list(_families(fam.quick))
    n = sum(K - 2 for K, _, _ in families)
    curves = {}
    for i, (K, eta, S) in enumerate(families):
        mean, low, high = _bias_mc(eta, K, S, seed_for(f"{PAPER}/thm-a.9") + i, n)
        curves[K, eta] = (np.arange(1, K + 1), mean, low, high)
    return {"curves": curves, "replicas": families[0][2]}


WHY_A9_FAILS = (
    "for k > 1/(eta L) the bound grows like (k-1)/(eta L) while SGD reaches its stationary law and the bias levels "
    "off; the proof's Lemma A.12(f) uses -eta (1 - eta L) F_xxx where (d) only gives u_k' >= (1 - eta L)^k"
)


def _a9_evidence(data: dict, small_steps_only: bool) -> Evidence:
    """The estimates against (A.13) at k in [2, K - 1] (only k <= 1/(eta L) if ``small_steps_only``)."""
    points = Points()
    for (K, eta), (k, mean, low, high) in data["curves"].items():
        keep = (k >= 2) & (k <= K - 1)
        bound = a9_bound(eta, k[keep], 1.0 / (12 * K))
        for kk, m, lo, hi, b in zip(k[keep].tolist(), mean[keep], low[keep], high[keep], bound):
            if not small_steps_only or kk <= 1 / eta:
                points.add(m, b, interval=(lo, hi), K=K, eta_L=eta, k=kk)
    ratio = np.asarray(points.measured) / np.asarray(points.bound)
    return points.evidence(
        ">=",
        witness={
            "replicas": data["replicas"],
            "control variate": "linear chain, slope 3L/4",
            "min measured / bound": float(np.min(ratio)),
            "why it can fail": WHY_A9_FAILS,
            "hypotheses": "Q = L^2/(12 K sigma), the largest Theorem A.9 allows; eta L <= 1/2; 2 <= k < K; SGD and "
            "GD from the optimum x* = 0; (A.15)'s noise read as gradient noise xi x, xi ~ U[-sigma, sigma] "
            "(thm-a.9:instance-as-printed: with '+ xi' as printed there is no bias at all)",
        },
    )


@claim(
    f"{PAPER}/thm-a.9:k-le-inverse-eta-L",
    source="Theorem A.9, eq. (A.13), restricted to k <= 1/(eta L)",
    statement="Restricted to k <= 1/(eta L) (where the k(k-1) branch of (A.13) is active), the lower bound holds on "
    "the same families: -(E x_k - z_k) >= 0.005 eta^3 sigma^2 Q k(k-1).",
    scope="corrected",
    expect="holds",
)
def thm_a9_small_steps(ctx: Context) -> Evidence:
    """The estimates of thm-a.9 (same instance, Monte Carlo runs and simultaneous 99% intervals) at the steps
    k <= 1/(eta L) only, against the k(k-1) branch of (A.13)."""
    return _a9_evidence(_a9_data(ctx), small_steps_only=True)


@claim(
    f"{PAPER}/thm-a.9:instance-as-printed",
    source="instance (A.15) (noise term '+ xi')",
    statement="Instance (A.15) as printed, f(x; xi) = (3/8) L x^2 + (L^3/(64 Q^2)) phi(4Qx/L) + xi, xi ~ U[-sigma, "
    "sigma], satisfies the lower bound (A.13) from x* = 0: -(E x_k - z_k) >= 0.005 eta^3 sigma^2 Q min{(k-1)/(eta L), "
    "k(k-1)} (K = 10, eta L = 0.1, k in [2, K - 1]).",
    scope="printed",
    expect="fails",
)
def thm_a9_as_printed(ctx: Context) -> Evidence:
    """Instance (A.15) read literally (K = 10, eta L = 0.1, L = sigma = 1, Q = L^2/(12 K sigma)). Reference: the
    stochastic gradient is sympy's derivative of the printed f in x (phi as the integral (A.14)); SGD takes it with
    U[-sigma, sigma] noise (a 3-node Gauss-Legendre tree over every step), GD takes the library's F'; the bias against
    (A.13) at k in [2, K - 1]. Control: the same pipeline on f + xi x (gradient noise) sees the bias."""
    K, eta = 10, 0.1
    Q = 1.0 / (12 * K)
    xv, xi, tv = sp.symbols("x xi t", real=True)
    smooth = sp.Rational(3, 8) * xv**2 + sp.Integral(sp.log(sp.cosh(tv)), (tv, 0, 4 * Q * xv)) / (64 * Q**2)
    readings = {"as printed (+ xi)": smooth + xi, "gradient noise (+ xi x)": smooth + xi * xv}
    p = LogCoshQuadratic(1.0, Q)
    nodes, weights = np.polynomial.legendre.leggauss(3)
    biases = {}
    for name, f in readings.items():
        grad = sp.lambdify((xv, xi), sp.diff(f, xv), "numpy")
        x, w, z, bias = np.zeros(1), np.ones(1), 0.0, []
        for _ in range(K - 1):
            g = np.broadcast_to(grad(x[:, None], nodes[None, :]), (x.size, nodes.size))  # sigma = 1
            x = (x[:, None] - eta * g).ravel()
            w, z = np.outer(w, weights / 2).ravel(), z - eta * float(p.grad([z])[0])
            bias.append(-(float(w @ x) - z))
        biases[name] = np.array(bias)
    k = np.arange(1, K)
    keep = k >= 2
    control = biases["gradient noise (+ xi x)"][keep] / a9_bound(eta, k[keep], Q)
    return Evidence(
        measured=biases["as printed (+ xi)"][keep],
        bound=a9_bound(eta, k[keep], Q),
        relation=">=",
        grid={"k": k[keep]},
        witness={
            "stochastic gradient of the printed f (sympy)": str(sp.diff(readings["as printed (+ xi)"], xv)),
            "why": "an additive noise term has no gradient: SGD is GD and the bias is 0; with gradient noise "
            "(+ xi x, as thm-a.9 reads it) the bias is there",
            "control: bias / bound with + xi x, k = 2..9": control.tolist(),
            "hypotheses": "Q = L^2/(12 K sigma), the largest Theorem A.9 allows; eta L = 0.1 <= 1/2; k < K; SGD and GD "
            "from the optimum x* = 0; the noise xi ~ U[-sigma, sigma] as printed in (A.15)",
        },
    )


@claim(
    f"{PAPER}/thm-2.16",
    source="Theorem 2.16",
    statement="For eta <= 1/(2LK) and every integer k in [2, K]: |bias_k| >= c eta^3 k^2 Q sigma^2 on instance (A.15) "
    "(gradient noise U[-sigma, sigma], Q = L^2/(12K sigma)); checked with c = 0.0025 (Theorem A.9's 0.005 "
    "times k(k-1)/k^2 >= 1/2).",
    scope="printed",
    expect="holds",
)
def thm_216(ctx: Context) -> Evidence:
    """Instance (A.15) with U[-1, 1] gradient noise (L = sigma = 1, Q = 1/(12K)) from x* = 0, K in {10, 50}
    (full profile: also 200), eta L K in {0.5, 0.05}. Reference: Monte Carlo with the linear control-variate chain,
    simultaneous 99% intervals on -(E x_k - z_k)/(eta^3 k^2 Q sigma^2), k in [2, K]."""
    Ks = (10, 50) if ctx.quick else (10, 50, 200)
    S = 200_000 if ctx.quick else 400_000
    n = sum(K - 1 for K in Ks) * 2
    points = Points()
    for i, K in enumerate(Ks):
        for j, frac in enumerate((0.5, 0.05)):
            eta = frac / K
            k = np.arange(1, K + 1)
            scale = eta**3 * k**2 / (12 * K)
            mean, low, high = _bias_mc(eta, K, S, seed_for(f"{PAPER}/thm-2.16") + 10 * i + j, n, scale)
            keep = k >= 2
            for kk, m, lo, hi in zip(k[keep].tolist(), mean[keep], low[keep], high[keep]):
                points.add(m, interval=(lo, hi), K=K, eta_LK=frac, k=kk)
    return points.evidence(">=", bound=0.0025, witness={"measured": "-(E x_k - z_k) / (eta^3 k^2 Q sigma^2)"})


# --------------------------------------------------------------------------------------------------
# The algebra of the proof (exact / dense grids)
# --------------------------------------------------------------------------------------------------


def _double_sum(rho: np.ndarray, k_max: int) -> np.ndarray:
    """sum_{j=0}^{k-1} sum_{i=0}^{j-1} rho^(2i+1) for k = 1..k_max (columns), summed term by term.

    All terms are positive, so cumulative sums are accurate where the closed form (checked separately with
    sympy) cancels catastrophically (eta L -> 0).
    """
    inner = np.cumsum(np.concatenate([np.zeros_like(rho), rho ** (2 * np.arange(k_max - 1) + 1)], axis=1), axis=1)
    return np.cumsum(inner, axis=1)  # column k - 1 holds the sum for k


RATIONAL_POINTS = ((Fraction(1, 3), Fraction(1, 7), Fraction(1, 2)), (2, 5, 30))  # (eta L values, k values)


def _proof_grid():
    """eta L in (0, 1/2] (2000 values) x k in [2, 500], and the double sums there."""
    u = np.linspace(0.5 / 2000, 0.5, 2000)[:, None]
    sums = _double_sum(1 - u, 500)[:, 1:]
    U, K = np.broadcast_arrays(u, np.arange(2, 501)[None, :].astype(float))
    return U, K, sums


@claim(
    f"{PAPER}/thm-a.9:proof-doublesum-closed",
    source="proof of Theorem A.9, the display for k > 1/(eta L)",
    statement="sum_{j} sum_{i<j} (1 - eta L)^(2i+1) = (1 - eta L)((1 - eta L)^(2k) + eta L (2 - eta L) k - 1) / "
    "(eta^2 L^2 (2 - eta L)^2), and for k > 1/(eta L), eta L <= 1/2 it is >= ((3/2) eta L k - 1)/(8 eta^2 "
    "L^2) >= (k - 1)/(16 eta L).",
    scope="printed",
    expect="holds",
)
def thm_a9_doublesum(ctx: Context) -> Evidence:
    """The closed form against the term-by-term sum in exact rationals (eta L in {1/3, 1/7, 1/2}, k in {2, 5, 30});
    both lower bounds as ratios (<= 1) on eta L in (0, 1/2] (2000 values) x k in [2, 500] with k > 1/(eta L),
    against the double sum accumulated term by term in float64."""

    def printed(u: Fraction, k: int) -> Fraction:
        return (1 - u) * ((1 - u) ** (2 * k) + u * (2 - u) * k - 1) / (u**2 * (2 - u) ** 2)

    def direct(u: Fraction, k: int) -> Fraction:
        return sum(((1 - u) ** (2 * i + 1) for j in range(k) for i in range(j)), Fraction(0))

    residual = [direct(u, k) - printed(u, k) for u in RATIONAL_POINTS[0] for k in RATIONAL_POINTS[1]]
    U, K, total = _proof_grid()
    mask = K > 1 / U
    first = ((1.5 * U * K - 1) / (8 * U**2)) / total  # <= 1
    second = ((K - 1) / (16 * U)) / ((1.5 * U * K - 1) / (8 * U**2))  # <= 1
    n = int(mask.sum())
    measured = np.concatenate([[float(r) for r in residual], first[mask], second[mask]])  # residuals are exact zeros
    bounds = np.concatenate([np.zeros(len(residual)), np.ones(2 * n)])
    u = np.concatenate([[float(v) for v in RATIONAL_POINTS[0] for _ in RATIONAL_POINTS[1]], U[mask], U[mask]])
    k = np.concatenate([[kk for _ in RATIONAL_POINTS[0] for kk in RATIONAL_POINTS[1]], K[mask], K[mask]]).astype(int)
    grid = {
        "step": _labels({"closed form": len(residual), "first": n, "second": n}),
        "eta_L": u,
        "k": k,
        "beyond": k - np.floor(1 / u).astype(int),
    }

    def at(eta_L, beyond):  # k = floor(1/(eta L)) + beyond > 1/(eta L)
        kk = int(1 / eta_L) + beyond
        lower = (1.5 * eta_L * kk - 1) / (8 * eta_L**2)
        ratios = {"first": lower / _double_sum_closed(eta_L, kk), "second": (kk - 1) / (16 * eta_L) / lower}
        step = max(ratios, key=ratios.get)
        return ratios[step], 1.0, {"step": step, "k": kk}

    domain = Domain(
        {"eta_L": Axis(1e-6, 0.5), "beyond": Axis(1, 10**8, integer=True)},
        note="The display for k > 1/(eta L): every eta L in (0, 1/2] (down to 1e-6) and k from just above 1/(eta L) "
        "to 1e8 steps beyond; measured, the larger of the two steps' ratios.",
    )
    return Evidence(
        **with_search(ctx, measured, bounds, grid, [(at, domain, None)], "<=", scale=8),
        relation="<=",
        atol=SCALED_ROUNDING,
        witness={
            "closed form residual at rational points": [str(r) for r in residual],
            "grid": "eta L in (0, 1/2] (2000 values) x k in [2, 500], k > 1/(eta L)",
        },
    )


def _double_sum_closed(u: float, k: int) -> float:
    """sum_{j<k} sum_{i<j} (1 - u)^(2i+1) = (1 - u) sum_{i<k-1} (k - 1 - i) (1 - u)^(2i), summed by binary composition
    (:func:`.upper_bound.geometric_sums`: positive terms, no cancellation, O(log k))."""
    return (1 - u) * float(geometric_sums(np.array([(1 - u) ** 2]), k - 1)[2][0])


@claim(
    f"{PAPER}/thm-a.9:proof-small-k",
    source="proof of Theorem A.9, the display for k <= 1/(eta L)",
    statement="For k <= 1/(eta L): sum_{j=1}^{k-1} sum_{i<j} (1 - eta L)^(2i+1) >= k(k-1)(1 - eta L)^(2k-3).",
    scope="printed",
    expect="fails",
)
def thm_a9_small_k(ctx: Context) -> Evidence:
    """The printed lower bound over the double sum, as a ratio (<= 1 claimed), on eta L in (0, 1/2] (2000 values)
    x k in [2, 500] with k <= 1/(eta L); the sum is accumulated term by term in float64 (all terms positive)."""
    U, K, total = _proof_grid()
    mask = K <= 1 / U
    ratio = (K * (K - 1) * (1 - U) ** (2 * K - 3)) / total  # printed: <= 1
    return Evidence(
        measured=ratio[mask],
        bound=1.0,
        relation="<=",
        atol=SCALED_ROUNDING,
        grid={"eta_L": U[mask], "k": K[mask].astype(int)},
        witness={
            "why": "the double sum has k(k-1)/2 terms, each at least (1 - eta L)^(2k-3): the bound "
            "holds with k(k-1)/2 (thm-a.9:proof-small-k-corrected); at k = 2 the ratio is 2 for every eta L",
            "hypotheses": "the display's own range: 2 <= k <= 1/(eta L), eta L <= 1/2 (Theorem A.9)",
        },
    )


@claim(
    f"{PAPER}/thm-a.9:proof-small-k-corrected",
    source="proof of Theorem A.9, the display for k <= 1/(eta L), with k(k-1)/2",
    statement="For k <= 1/(eta L): the double sum >= (k(k-1)/2)(1 - eta L)^(2k-3) >= k(k-1)/(2e^2) >= k(k-1)/16, "
    "so the theorem's conclusion (with 0.005 <= 1/192) is unaffected.",
    scope="corrected",
    expect="holds",
)
def thm_a9_small_k_corrected(ctx: Context) -> Evidence:
    """Both steps of the corrected chain as ratios (<= 1 claimed) on the grid of thm-a.9:proof-small-k
    (k <= 1/(eta L)), against the double sum accumulated term by term in float64."""
    U, K, total = _proof_grid()
    mask = K <= 1 / U
    steps = {
        "first": (K * (K - 1) / 2 * (1 - U) ** (2 * K - 3)) / total,
        "second": (K * (K - 1) / 16) / (K * (K - 1) / 2 * (1 - U) ** (2 * K - 3)),
    }
    n = int(mask.sum())
    room = np.floor(1 / U[mask]) - 2
    frac = np.where(room > 0, (K[mask] - 2) / np.where(room > 0, room, 1), 0.0)
    grid = {
        "step": _labels(dict.fromkeys(steps, n)),
        "eta_L": np.tile(U[mask], 2),
        "k": np.tile(K[mask].astype(int), 2),
    }
    grid["frac"] = np.tile(frac, 2)

    def at(eta_L, frac):  # k from 2 to floor(1/(eta L))
        kk = 2 + round(frac * (int(1 / eta_L) - 2))
        middle = kk * (kk - 1) / 2 * (1 - eta_L) ** (2 * kk - 3)
        ratios = {"first": middle / _double_sum_closed(eta_L, kk), "second": kk * (kk - 1) / 16 / middle}
        step = max(ratios, key=ratios.get)
        return ratios[step], 1.0, {"step": step, "k": kk}

    domain = Domain(
        {"eta_L": Axis(1e-6, 0.5), "frac": Axis(0.0, 1.0, log=False)},
        note="The display for k <= 1/(eta L): every eta L in (0, 1/2] (down to 1e-6) and every k in [2, 1/(eta L)] "
        "(k = 2 + frac (floor(1/(eta L)) - 2)); measured, the larger of the two steps' ratios.",
    )
    measured = np.concatenate([ratios[mask] for ratios in steps.values()])
    found = with_search(ctx, measured, 1.0, grid, [(at, domain, None)], "<=", scale=8)
    return Evidence(**found, relation="<=", atol=SCALED_ROUNDING)


def _labels(counts: dict[str, int]) -> np.ndarray:
    """An object array holding each label ``counts[label]`` times, in order (filled by reference, no copies: a string
    array of millions of entries costs a second to build)."""
    out, start = np.empty(sum(counts.values()), dtype=object), 0
    for label, count in counts.items():
        out[start : start + count] = label
        start += count
    return out


def _draw(path, curves) -> None:
    Ks = sorted({K for K, _ in curves})
    all_etas = sorted({round(eta, 12) for _, eta in curves if eta >= 0.01})
    palette = dict(zip(all_etas, plotting.plt.cm.viridis(np.linspace(0.05, 0.9, len(all_etas)))))
    fig, axes = plotting.figure(1, len(Ks), width=3.4, height=2.9)
    for ax, K in zip(np.atleast_1d(axes), Ks):
        etas = sorted(eta for KK, eta in curves if KK == K)
        colors = [palette.get(round(eta, 12), "grey") for eta in etas]  # eta L = 1/(2K) in grey
        Q = 1.0 / (12 * K)
        for eta, c in zip(etas, colors):
            k, mean, low, high = curves[K, eta]
            keep = (k >= 2) & (k <= K - 1)
            scale = eta**3 * Q
            ax.fill_between(k[keep], low[keep] / scale, high[keep] / scale, color=c, alpha=0.3, lw=0)
            ax.plot(k[keep], mean[keep] / scale, color=c, label=f"ηL = {eta:.3g}")
            ax.plot(k[keep], a9_bound(eta, k[keep], Q) / scale, color=c, ls=":", lw=0.9)
            ax.plot(
                k[keep],
                np.minimum.reduce([k[keep] ** 2 / 4, 4 * k[keep] ** 1.5 / (eta * Q), np.sqrt(k[keep]) / (eta**2 * Q)]),
                color=c,
                ls="--",
                lw=0.7,
                alpha=0.6,
            )
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="step k",
            ylabel="−(E x_k − z_k) / (η³ Q σ²)",
            title=f"(A.15), U[−σ, σ] noise, K = {K}",
        )
        ax.set_xticks([t for t in (2, 3, 5, 10, 20, 50, 100, 200) if t < K])
        ax.xaxis.set_major_formatter(plotting.matplotlib.ticker.ScalarFormatter())
        ax.xaxis.set_minor_formatter(plotting.matplotlib.ticker.NullFormatter())
    np.atleast_1d(axes)[0].legend(
        fontsize=6, title="band: 99% MC; ···: Thm A.9; --: Thm A.7; grey: ηL = 1/(2K)", title_fontsize=6
    )
    plotting.save(fig, path)


def _u_uniform(p: LogCoshQuadratic, eta: float, sigma: float, xs, k: int, m: int) -> np.ndarray:
    """u_k(x) = E[x_k | x_0 = x] under U[-sigma, sigma] gradient noise: an m-point Gauss-Legendre tree (m^k paths)."""
    nodes, weights = np.polynomial.legendre.leggauss(m)
    X, W = np.asarray(xs, dtype=float)[:, None], np.ones(1)
    for _ in range(k):
        g = p.grad(X[..., None])[..., 0]
        X = (X[..., None] - eta * (g[..., None] + sigma * nodes[None, None, :])).reshape(X.shape[0], -1)
        W = np.outer(W, weights / 2).ravel()
    return X @ W


def _a12f_gap(p: LogCoshQuadratic, eta: float, sigma: float, x: float, k: int, power_k: bool) -> tuple[float, float]:
    """LHS - RHS of Lemma A.12(f) at (x, k) and its error bar; the last term's factor is (1 - eta L)^k or 1 - eta L."""
    factor = (1 - eta) ** k if power_k else (1 - eta)
    third = float(p.third_1d(x))
    if k == 0:  # u_1 = x - eta F'(x) exactly: u_1'' = -eta F_xxx and u_0'' = 0, so the gap is in closed form
        return -eta * third * (1 - factor), 0.0
    values = []
    for m, h in ((6, 1e-3), (8, 1e-3), (8, 2e-3)):

        def u2(z, kk, m=m, h=h):
            return float(np.diff(_u_uniform(p, eta, sigma, [z - h, z, z + h], kk, m), n=2)[0] / h**2)

        nodes, weights = np.polynomial.legendre.leggauss(m)
        points = x - eta * (float(p.grad([x])[0]) + sigma * nodes)
        expected = sum(w / 2 * u2(z, k) for w, z in zip(weights, points))
        values.append(u2(x, k + 1) - ((1 - eta) ** 2 * expected - eta * factor * third))
    rounding = 2 * 4 * np.finfo(float).eps * (abs(x) + 1) / 1e-3**2  # two second differences of values ~ |x| + 1
    return values[1], abs(values[1] - values[0]) + abs(values[1] - values[2]) + rounding


def _a12f(ctx: Context, power_k: bool) -> Evidence:
    """LHS - RHS of Lemma A.12(f) (<= 0 claimed) over eta L, x and k."""
    K, sigma = 10, 1.0
    p = LogCoshQuadratic(1.0, 1.0 / (12 * K))
    points = Points()
    for eta in (0.25, 0.5):
        for x in (0.0, 2.0, -5.0):
            for k in range(0, 6):
                gap, err = _a12f_gap(p, eta, sigma, x, k, power_k)
                points.add(gap, interval=(gap - err, gap + err), eta_L=eta, k=k, x=x)
    return points.evidence(
        "<=",
        bound=0.0,
        witness={
            "noise": "U[-sigma, sigma], Gauss-Legendre trees",
            "Q": 1 / (12 * K),
            "error bars": "changes from 6 to 8 nodes and from h = 1e-3 to 2e-3, plus rounding",
        },
    )


@claim(
    f"{PAPER}/lem-a.12:f",
    source="Lemma A.12(f), appendix A.4.2 (used for Lemma A.13 and Theorem A.9)",
    statement="On (A.15) with U[-sigma, sigma] gradient noise: u''_{k+1}(x) <= (1 - eta L)^2 E u''_k(x - eta "
    "f'(x; xi)) - eta (1 - eta L) F'''(x), for every x and k.",
    scope="printed",
    expect="fails",
)
def lem_a12f(ctx: Context) -> Evidence:
    """Instance (A.15) with K = 10 (Q = 1/120), U[-1, 1] gradient noise, eta L in {0.25, 0.5}, x in {0, 2, -5},
    k = 0..5. Reference: u_k by Gauss-Legendre quadrature trees and second differences, with error bars from
    changing the nodes and the difference step (k = 0 in closed form)."""
    ev = _a12f(ctx, power_k=False)
    ev.witness["why"] = (
        "(d) gives u_k' >= (1 - eta L)^k, not 1 - eta L; u_k'' -> 0 as SGD forgets its start, while the "
        "printed last term stays at -eta (1 - eta L) F'''"
    )
    ev.witness["hypotheses"] = (
        "the setting of Lemma A.12: SGD on instance (A.15) (here Q = L^2/(12 K sigma), K = 10, the Q of Theorem A.9) "
        "with U[-sigma, sigma] gradient noise, eta L in {1/4, 1/2} <= 1/2; the lemma is stated for every x and k"
    )
    return ev


@claim(
    f"{PAPER}/lem-a.12:f-corrected",
    source="Lemma A.12(f) with (1 - eta L)^k from part (d)",
    statement="Corrected: u''_{k+1}(x) <= (1 - eta L)^2 E u''_k(x - eta f'(x; xi)) - eta (1 - eta L)^k F'''(x).",
    scope="corrected",
    expect="holds",
)
def lem_a12f_corrected(ctx: Context) -> Evidence:
    """The instance, grid and quadrature of lem-a.12:f, with the last term's factor (1 - eta L)^k."""
    return _a12f(ctx, power_k=True)
