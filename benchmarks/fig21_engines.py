"""Figure 2.1's workload three ways: vectorised Monte Carlo, a plain per-chain loop, the density engine.

The paper's experiment is 65,536 SGD chains of 1,024 steps on F(x) = x^2 (x >= 0), x^2/10 (x < 0) with
eta = 0.01 and noise sd 0.1 (the "variance 0.01" reading). The per-chain loop is run on a subset and
scaled. The density engine is timed at the coarsest grid whose reported error on E x_1024 is below the
Monte Carlo standard error at 65,536 chains ("matching accuracy").

Run: ``python benchmarks/fig21_engines.py`` (prints a Markdown table).
"""

from __future__ import annotations

import time

import numpy as np

from fedtheory.algorithms import fedavg
from fedtheory.exact import density
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import PiecewiseQuadratic

ETA, SD, STEPS, CHAINS, LOOP_SUBSET = 0.01, 0.1, 1024, 65_536, 256


def vectorised() -> tuple[float, float]:
    problem = PiecewiseQuadratic(2.0, 0.2)
    start = time.perf_counter()
    x = fedavg.sgd(
        AdditiveGaussian(problem, SD), [0.0], ETA, STEPS, np.random.default_rng(0), S=CHAINS, record_at=[STEPS]
    ).final[:, 0]
    return time.perf_counter() - start, float(x.std(ddof=1) / np.sqrt(CHAINS))


def per_chain_loop() -> float:
    """The same chains written as a plain loop over chains and steps (scalar arithmetic)."""
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(LOOP_SUBSET):
        x = 0.0
        for _ in range(STEPS):
            g = (2.0 if x >= 0 else 0.2) * x + SD * rng.standard_normal()
            x -= ETA * g
    return (time.perf_counter() - start) * CHAINS / LOOP_SUBSET


def density_engine(target_error: float) -> tuple[float, float, float]:
    g = PiecewiseQuadratic(2.0, 0.2).gradient_pieces()
    for du in (0.5, 0.4, 0.2, 0.1, 0.05):  # du > 0.5 is refused (fedtheory.exact.density)
        start = time.perf_counter()
        res = density.propagate(g, ETA, SD, 0.0, [STEPS], du=du)
        seconds = time.perf_counter() - start
        if res.mean_error[0] <= target_error:
            return seconds, du, float(res.mean_error[0])
    raise RuntimeError("no grid reached the target accuracy")


def main() -> None:
    t_vec, mc_se = vectorised()
    t_loop = per_chain_loop()
    t_dens, du, err = density_engine(mc_se)
    print("| engine | seconds | vs per-chain loop | accuracy of E x_1024 |")
    print("|---|---:|---:|---|")
    print(
        f"| per-chain Python loop ({LOOP_SUBSET} chains timed, scaled to {CHAINS}) | {t_loop:.1f} | 1x | "
        f"MC standard error {mc_se:.2e} |"
    )
    print(
        f"| vectorised Monte Carlo ({CHAINS} x {STEPS}) | {t_vec:.2f} | {t_loop / t_vec:.0f}x | "
        f"MC standard error {mc_se:.2e} |"
    )
    print(
        f"| density engine (du = {du} eta sd) | {t_dens:.3f} | {t_loop / t_dens:.0f}x | "
        f"deterministic, error estimate {err:.1e} |"
    )


if __name__ == "__main__":
    main()
