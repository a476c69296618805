"""FedAc-I on l2-logistic regression at M = 1,024 clients and K = 64 local steps: the vectorised numpy implementation
and the fused numba kernel (:mod:`fedtheory.kernels`) against the same update written as a Python loop over clients.

Problem: the a9a-like stand-in of thesis section 3.7 (n = 4,000 binary rows, d = 123, lambda = 1e-3), one sampled
row per gradient query; FedAc-I with eta = 0.1 (gamma = sqrt(eta/(mu K))). The loop runs the identical update
(per-client numpy vectors, same sampling) on a few rounds and is scaled per client-step. Both are checked to
produce the same iterates from the same random stream before timing.

Run: ``python benchmarks/fedac_logistic.py`` (prints a Markdown table).
"""

from __future__ import annotations

import time

import numpy as np
from scipy.special import expit

from fedtheory import backends
from fedtheory.algorithms import fedac
from fedtheory.oracles import Minibatch
from fedtheory.problems import a9a_like

M, K, ETA, MU = 1024, 64, 0.1, 1e-3


def _problem():
    return a9a_like(np.random.default_rng(0), n=4000, l2=MU)


def vectorised(rounds: int, kernels: str = "numpy") -> tuple[float, np.ndarray]:
    """``rounds`` rounds of :func:`fedtheory.algorithms.fedac.run` with the numpy reference or the numba kernels."""
    backends.set_kernels(kernels)
    problem = _problem()
    params = fedac.fedac_i(ETA, MU, K, M)
    start = time.perf_counter()
    traj = fedac.run(Minibatch(problem, 1), np.zeros(problem.dim), params, rounds, np.random.default_rng(1))
    return time.perf_counter() - start, traj.final[0]


def per_client_loop(rounds: int) -> tuple[float, np.ndarray]:
    """The same rounds with a Python loop over clients (and steps); the random indices are drawn as the oracle
    draws them (one (1, M, 1) array per local step), so the iterates agree exactly."""
    problem = _problem()
    X, y, lam = problem.features[0], problem.labels[0], problem.l2
    p = fedac.fedac_i(ETA, MU, K, M)
    rng = np.random.default_rng(1)
    x, x_ag = np.zeros(problem.dim), np.zeros(problem.dim)
    start = time.perf_counter()
    for _ in range(rounds):
        xs = [x.copy() for _ in range(M)]
        ags = [x_ag.copy() for _ in range(M)]
        for _ in range(K):
            idx = rng.integers(0, X.shape[0], size=(1, M, 1))[0, :, 0]
            for m in range(M):
                md = p.beta_inv * xs[m] + (1 - p.beta_inv) * ags[m]
                i = idx[m]
                g = -y[i] * expit(-y[i] * (X[i] @ md)) * X[i] + lam * md
                ags[m] = md - p.eta * g
                xs[m] = (1 - p.alpha_inv) * xs[m] + p.alpha_inv * md - p.gamma * g
        x, x_ag = np.mean(xs, axis=0), np.mean(ags, axis=0)
    return time.perf_counter() - start, x_ag


def main() -> None:
    _, check_loop = per_client_loop(1)
    for kernels in ("numpy", "numba"):  # also compiles the kernel before timing
        if not np.allclose(vectorised(1, kernels)[1], check_loop, rtol=1e-10, atol=1e-12):
            raise SystemExit(f"the loop and the vectorised implementation ({kernels}) disagree")
    rounds = 8
    t_vec, _ = vectorised(rounds, "numpy")
    t_fused, _ = vectorised(rounds, "numba")
    t_loop, _ = per_client_loop(1)
    steps_vec, steps_loop = rounds * K * M, K * M
    rate_vec, rate_fused, rate_loop = steps_vec / t_vec, steps_vec / t_fused, steps_loop / t_loop
    print("| implementation | client-steps/s | speed-up |")
    print("|---|---:|---:|")
    print(f"| Python loop over clients ({steps_loop:,} client-steps timed) | {rate_loop:,.0f} | 1x |")
    print(f"| vectorised numpy ({steps_vec:,} client-steps) | {rate_vec:,.0f} | {rate_vec / rate_loop:,.0f}x |")
    print(f"| fused numba kernel ({steps_vec:,} client-steps) | {rate_fused:,.0f} | {rate_fused / rate_loop:,.0f}x |")


if __name__ == "__main__":
    main()
