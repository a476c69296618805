"""Fused kernels against the numpy reference, and both against the memory-bandwidth limit.

Problem: the a9a-shaped stand-in of thesis section 3.7 at a9a's size (n = 32,561 binary rows, d = 123, lambda =
1e-3), one sampled row per gradient query, eta = 0.01; FedAc-I (:func:`fedtheory.algorithms.fedac.local_steps`) and
FedAvg's local SGD (:func:`fedtheory.algorithms.fedavg.local_sgd`) at M = 1,024 clients and K = 64 local steps, one
replica, timed in CPU time (``time.process_time``), interleaved, median of the repeats, kernels compiled beforehand.

The limit: every client-step must at least read and write its iterates (FedAc: ``x`` and ``x_ag``; FedAvg: ``x``)
and read one feature row, ``(2 * 2 + 1) d`` (FedAc) or ``(2 + 1) d`` (FedAvg) floats; this machine's bandwidth is
measured with a large numpy copy (bytes read + written over the time). The limit is bandwidth / bytes per client-step;
"x from the limit" is limit / rate.

Run: ``python benchmarks/kernels.py [--repeats 5]`` (prints Markdown tables).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from fedtheory import backends
from fedtheory.algorithms import fedac, fedavg
from fedtheory.oracles import Minibatch
from fedtheory.problems import a9a_like

M, K, ETA, MU, N = 1024, 64, 0.01, 1e-3, 32561


def bandwidth(mbytes: int = 512, repeats: int = 5) -> float:
    """Bytes per second of a ``mbytes`` MB numpy copy (read + write), best of ``repeats``."""
    src = np.ones(mbytes * 2**20 // 8)
    dst = np.empty_like(src)
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best


def _step(algorithm: str, oracle, x: np.ndarray, rng) -> None:
    if algorithm == "FedAc-I":
        fedac.local_steps(x, x, oracle, fedac.fedac_i(ETA, MU, K, M), rng)
    else:
        fedavg.local_sgd(x, oracle, ETA, K, rng)


def rates(repeats: int) -> dict[tuple[str, str], float]:
    """Client-steps per CPU second of each (algorithm, kernels) pair."""
    problem = a9a_like(np.random.default_rng(0), n=N, l2=MU)
    oracle = Minibatch(problem, 1)
    x = np.broadcast_to(np.zeros((1, 1, problem.dim)), (1, M, problem.dim))
    times: dict[tuple[str, str], list[float]] = {}
    for kernels in ("numba", "numpy"):  # compile (or load the cached kernel) before timing
        backends.set_kernels(kernels)
        _step("FedAc-I", oracle, x[:, :2], np.random.default_rng(0))
    for _ in range(repeats):
        for algorithm in ("FedAc-I", "FedAvg"):
            for kernels in ("numpy", "numba"):
                backends.set_kernels(kernels)
                start = time.process_time()
                _step(algorithm, oracle, x, np.random.default_rng(1))
                times.setdefault((algorithm, kernels), []).append(time.process_time() - start)
    return {key: M * K / statistics.median(t) for key, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    bw = bandwidth()
    measured = rates(args.repeats)
    d = 123
    print(f"Load (uptime): {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"copy bandwidth {bw / 1e9:.1f} GB/s; M = {M}, K = {K}, d = {d}, n = {N}, batch 1\n")  # fmt: skip
    print(
        "| algorithm | kernels | client-steps/s | kernel / numpy | bytes per client-step | limit | x from the limit |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for algorithm, floats in (("FedAc-I", 5 * d), ("FedAvg", 3 * d)):
        limit = bw / (8 * floats)
        for kernels in ("numpy", "numba"):
            rate = measured[algorithm, kernels]
            ratio = rate / measured[algorithm, "numpy"]
            print(f"| {algorithm} | {kernels} | {rate:.3g} | {ratio:.2f}x | {8 * floats} | {limit:.3g} | "
                  f"{limit / rate:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
