"""FedAvg with infinitely many clients on the third-order instance (A.15): its fixed point and error floor
(spec V25), against the second-order picture of Lemma 2.11.

With M = infinity one round maps the server iterate x to u_K(x) = E[x_K | x_0 = x] (section 2.2), computed by the
density engine's backward pass with the smooth gradient of (A.15) (Gaussian gradient noise, variant (ii) of the
spec). The fixed point x_bar of u_K is where FedAvg settles; F(x_bar) - F* is its error floor. The linearised
moment recursion (spec E7; a = F''(0) = 3L/4, q = F'''(0) = Q, rho = 1 - eta a),

    m_{k+1} = rho m_k - (eta q / 2) v_k,   v_{k+1} = rho^2 v_k + eta^2 sigma^2   (v restarted every round),

predicts x_bar = -(eta q/2) S_K / (1 - rho^K), S_K = sum_{j<K} rho^(K-1-j) v_j, i.e. about -eta^2 (K-1) q sigma^2/(4a)
for small eta a K: the per-round third-order bias eta^3 K^2 Q sigma^2 of Theorems 2.15/A.7 divided by the per-round
contraction eta a K. On the kinked psi-instances the fixed point is first order in eta instead (Lemma 2.11's
middle branch, claim lem-2.11:regimes), which is why third-order smoothness improves the rate (Theorem 2.19).

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, section 2.4 (Theorems 2.15, 2.19) and (A.14)-(A.15).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq

from fedtheory.exact import density
from fedtheory.fit import loglog_slope
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.problems import LogCoshQuadratic

PAPER = "yuan-thesis"
L, Q, SIGMA = 1.0, 0.1, 1.0
PROBLEM = LogCoshQuadratic(L, Q)
DRIFT = density.SmoothDrift(lambda x: PROBLEM.grad(x[..., None])[..., 0], (L / 2, L))  # Lemma A.11(a)
A, QQ = 3 * L / 4, Q  # F''(0), F'''(0)


@cache
def fixed_point(eta: float, K: int) -> tuple[float, float]:
    """x_bar with u_K(x_bar) = x_bar, and its error bar (the map's error over the contraction 1 - u_K')."""
    u = density.round_map(DRIFT, eta, SIGMA, K, (-0.05, 0.05), du=0.05)
    x = brentq(lambda z: float(u(z)) - z, u.grid[0], 0.0, xtol=1e-16, rtol=1e-13)
    slope = (float(u(x + 1e-3)) - float(u(x - 1e-3))) / 2e-3
    return x, float(u.error_at(x)) / (1 - slope)


def e7_fixed_point(eta: float, K: int) -> float:
    """The E7 prediction -(eta q/2) S_K / (1 - rho^K)."""
    rho = 1 - eta * A
    j = np.arange(K)
    v = eta**2 * SIGMA**2 * (1 - rho ** (2 * j)) / (1 - rho**2)
    return float(-(eta * QQ / 2) * np.sum(rho ** (K - 1 - j) * v) / (1 - rho**K))


@claim(
    f"{PAPER}/thm-2.19:fixed-point-scaling",
    source="section 2.4 (Theorems 2.15/A.7 per round, Theorem 2.19) on instance (A.15); spec V25",
    statement="(Derived) FedAvg with M = infinity on (A.15) (L = sigma = 1, Q = 0.1, Gaussian noise) settles at "
    "x_bar < 0 with |x_bar| ~ eta^2 (K - 1) Q sigma^2 / (4 F''(0)): fitted eta-exponents of |x_bar| and of the error "
    "floor F(x_bar) - F* within 7.5% of 2 and 4, for K in {5, 10, 20} and eta L K <= 0.2.",
    expect="holds",
)
def fixed_point_scaling(ctx: Context) -> Evidence:
    etas = np.array([0.00125, 0.0025, 0.005, 0.01])
    measured, lo, hi, grid, witness = [], [], [], {"K": [], "quantity": []}, {}
    for K in (5, 10, 20):
        points = [fixed_point(float(e), K) for e in etas]
        x = np.array([p[0] for p in points])
        err = np.array([p[1] for p in points])
        if np.any(x + err >= 0):
            raise RuntimeError(f"fixed point not resolved below 0 for K = {K}: {x} +- {err}")
        floor = PROBLEM.value(x[:, None]) - PROBLEM.f_star
        for name, values, want in (("|x_bar|", -x, 2.0), ("F(x_bar) - F*", floor, 4.0)):
            fit = loglog_slope(etas, values)
            measured.append(fit.slope / want)
            lo.append(fit.lo / want)
            hi.append(fit.hi / want)
            grid["K"].append(K)
            grid["quantity"].append(name)
        witness[f"K = {K}"] = {
            f"eta = {e:g}": {
                "x_bar": float(xb),
                "x_bar / E7": float(xb / e7_fixed_point(float(e), K)),
                "x_bar / (-eta^2 (K - 1) Q sigma^2/(4a))": float(xb / (-(e**2) * (K - 1) * QQ * SIGMA**2 / (4 * A))),
            }
            for e, xb in zip(etas, x)
        }
    return Evidence(
        measured=measured,
        bound=1.0,
        relation="==",
        atol=0.075,
        interval=(lo, hi),
        grid=grid,
        witness={"measured": "fitted exponent / predicted exponent (2 for |x_bar|, 4 for the floor)", **witness},
    )
