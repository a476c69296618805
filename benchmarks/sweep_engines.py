"""The step-size sweep of thesis section 3.7 on each engine: client-steps per wall second, and the ratios.

Problem: the a9a-shaped stand-in at a9a's size (n = 32,561 binary rows, d = 123, lambda = 1e-3), one sampled row per
gradient query, from 0. One sweep is :func:`fedtheory.sweeps.fedac.run_sweep` over the 13 printed step sizes and 3
seeds (S = 39 replicas) at M clients and K local steps, T = R K queries per client, evaluated at the end only; a
client-step is one local step of one client of one replica (``S M T`` per sweep). Engines:

* ``numba``: the numpy engine with the fused kernels (this machine's CPU, all its cores idle but one);
* ``jax/host``: the JAX engine, indices drawn on the host from the numpy generator (the numpy engine's stream);
* ``jax/device``: the JAX engine, indices drawn on the device (``draws="device"``), as at paper scale.

Each engine runs one sweep of the same shape first (compilation, caches), then ``--repeats`` timed sweeps (median).
The CPU engine runs fewer clients and rounds (its rate hardly depends on them); every time includes the two
evaluations of F at the start and the end. On a machine without a GPU the JAX rows run on the CPU.

Run: ``python benchmarks/sweep_engines.py [--M 8192] [--K 64] [--rounds 4] [--cpu-M 1024] [--cpu-rounds 2]
[--repeats 3]`` (prints a Markdown table).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from fedtheory import backends
from fedtheory.problems import a9a_like
from fedtheory.sweeps.fedac import run_sweep

ETAS = np.array([0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0])  # section 3.7.2
SEEDS = 3
ENGINES = {"numba": ("numpy", "host"), "jax/host": ("jax", "host"), "jax/device": ("jax", "device")}


def seconds(problem, algorithm: str, engine: str, M: int, K: int, R: int, repeats: int) -> float:
    """Median wall seconds of one sweep of ``R`` rounds, after one untimed sweep of the same shape."""
    name, draws = ENGINES[engine]
    kw = dict(M=M, K=K, T=K * R, etas=ETAS, seeds=SEEDS, eval_every=K * R, engine=name, draws=draws)
    run_sweep(problem, 0.0, algorithm, rng=np.random.default_rng(0), **kw)
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        run_sweep(problem, 0.0, algorithm, rng=np.random.default_rng(i + 1), **kw)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--M", type=int, default=8192, help="clients of the JAX rows (default 8192)")
    parser.add_argument("--cpu-M", type=int, default=1024, help="clients of the CPU row (default 1024)")
    parser.add_argument("--K", type=int, default=64, help="local steps per round (default 64)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the JAX rows (default 4)")
    parser.add_argument("--cpu-rounds", type=int, default=2, help="rounds of the CPU row (default 2)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--algorithms", default="fedac-i,fedavg,mb-sgd")
    args = parser.parse_args()
    backends.set_kernels("numba")
    problem = a9a_like(np.random.default_rng(0), n=32561, l2=1e-3)
    import jax  # after the problem: jax_engine enables float64 on first use

    print(f"JAX devices: {jax.devices()}; S = {ETAS.size * SEEDS} replicas, K = {args.K}, d = {problem.dim}\n")
    print("| algorithm | engine | M | rounds | seconds | client-steps/s | vs numba |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for algorithm in args.algorithms.split(","):
        rate = {}
        for engine in ENGINES:
            M, R = (args.cpu_M, args.cpu_rounds) if engine == "numba" else (args.M, args.rounds)
            s = seconds(problem, algorithm, engine, M, args.K, R, args.repeats)
            rate[engine] = ETAS.size * SEEDS * M * args.K * R / s
            ratio = rate[engine] / rate["numba"]
            print(f"| {algorithm} | {engine} | {M} | {R} | {s:.3f} | {rate[engine]:.3g} | {ratio:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
