"""FedAc-I: fedtheory (numpy reference and numba kernels) against the FedAc authors' released code.

The authors' code is ``logistic.py`` of https://github.com/hongliny/FedAc-NeurIPS20 (class ``LogiBinaryLibSVM``,
method ``fedac``). It is not part of fedtheory and is never copied into this repository: download it anywhere and pass
``--authors PATH``. Their ``analysis_utils`` import is stubbed; their class is built without its LibSVM file from
fedtheory's a9a-shaped problem (:func:`fedtheory.problems.a9a_like`, n = 32,561, d = 123, lambda = 1e-3).

Same problem, same semantics, same random numbers: FedAc-I with eta = 0.01 and the hyperparameters their ``train``
computes (``gamma = max(eta, sqrt(eta/(lambda K)))``, ``alpha = 1/(gamma lambda)``, ``beta = alpha + 1``), one row
per gradient query. Their start is ``np.random.randn(d)`` after ``np.random.seed(SEED)`` and their indices are
``np.random.choice(n, M)`` per step, i.e. legacy ``RandomState.randint(0, n, M)``; fedtheory gets the same start and a
generator whose ``integers`` replays that stream, so the final server iterates agree to rounding (checked, max
difference printed).

What is timed (CPU time, ``time.process_time``; interleaved triples, median over ``--pairs``): their ``fedac(...)``
with ``record_intvl = T + 1`` (it evaluates the full loss once, at step 0, and its loop runs ``T + 1`` local steps,
the last one after the final averaging), against :func:`fedtheory.algorithms.fedac.run` for ``R = T/K`` rounds from
the same start plus one full-loss evaluation at the start (``problem.value``). The ratio is authors / fedtheory.

Run: ``python benchmarks/fedac_vs_authors.py --authors /path/to/logistic.py [--pairs 7]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np

from fedtheory import backends
from fedtheory.algorithms import fedac
from fedtheory.oracles import Minibatch
from fedtheory.problems import a9a_like

ETA, LAMBDA, N, SEED = 0.01, 1e-3, 32561, 0
CONFIGS = ((1024, 64, 256), (256, 64, 512), (64, 8, 4096))  # (M, K, T)
HOW_TO_GET = (
    "The authors' code is not included. Download it, e.g.\n"
    "  curl -LO https://raw.githubusercontent.com/hongliny/FedAc-NeurIPS20/master/logistic.py\n"
    "and run: python benchmarks/fedac_vs_authors.py --authors logistic.py"
)


class ReplayedRandomState(np.random.Generator):
    """A ``numpy.random.Generator`` whose ``integers(low, high, size)`` replays a legacy ``RandomState`` stream
    (``randint(low, high, size)``, what ``np.random.choice(n, size)`` draws), so that fedtheory's oracle samples the
    rows the authors' code samples."""

    def __init__(self, state: np.random.RandomState):
        super().__init__(np.random.PCG64(0))
        self.state = state

    def integers(self, low, high, size):
        return self.state.randint(low, high, math.prod(size)).reshape(size)


def load_authors(path: Path, problem):
    """Their module (``analysis_utils`` stubbed) and a ``LogiBinaryLibSVM`` holding ``problem``'s data."""
    sys.modules.setdefault("analysis_utils", types.ModuleType("analysis_utils"))
    spec = importlib.util.spec_from_file_location("fedac_authors_logistic", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = object.__new__(module.LogiBinaryLibSVM)
    model.X_train, model.y_train = problem.features[0].copy(), problem.labels[0].copy()
    model.n_samples, model.n_features = model.X_train.shape
    model.weight_shape = (model.n_features,)
    model.lambd = LAMBDA
    model.dataset = "a9a-like"
    return model


def authors_hyperparameters(K: int) -> dict[str, float]:
    """FedAc-I as their ``train`` computes it."""
    gamma = max(ETA, math.sqrt(ETA / (LAMBDA * K)))
    alpha = 1 / (gamma * LAMBDA)
    return {"eta": ETA, "gamma": gamma, "alpha": alpha, "beta": alpha + 1}


def run_authors(model, M: int, K: int, T: int, record_intvl: int):
    return model.fedac(M=M, K=K, T=T, local_batch=1, record_intvl=record_intvl, SEED=SEED, **authors_hyperparameters(K))


def run_fedtheory(problem, M: int, K: int, T: int) -> np.ndarray:
    """FedAc-I from their start on their index stream; returns the final server ``x_ag``."""
    state = np.random.RandomState(SEED)
    x0 = state.randn(problem.dim)
    problem.value(x0)  # their loop evaluates the full loss once, at step 0
    params = fedac.fedac_i(ETA, LAMBDA, K, M)
    traj = fedac.run(Minibatch(problem, 1), x0, params, T // K, ReplayedRandomState(state), record_every=T // K)
    return traj.final[0]


def agreement(model, problem, M: int, K: int, T: int) -> float:
    """Max |difference| of the final server ``x_ag``: theirs is read where their loop evaluates the loss at step T."""
    seen = []
    model.population_loss = lambda w: seen.append(np.array(w)) or 0.0
    run_authors(model, M, K, T, record_intvl=T)
    del model.population_loss
    return float(np.max(np.abs(seen[-1] - run_fedtheory(problem, M, K, T))))


def cpu_time(function, *args, **kwargs) -> float:
    start = time.process_time()
    function(*args, **kwargs)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=Path, default=Path("logistic.py"), help="path of the authors' logistic.py")
    parser.add_argument("--pairs", type=int, default=7, help="interleaved timings per configuration (median)")
    args = parser.parse_args()
    if not args.authors.is_file():
        print(f"{args.authors} not found.\n{HOW_TO_GET}")
        return
    problem = a9a_like(np.random.default_rng(0), n=N, l2=LAMBDA)
    model = load_authors(args.authors, problem)
    rows = []
    for M, K, T in CONFIGS:
        errors = {}
        for kernels in ("numpy", "numba"):  # agreement on the first rounds; also compiles the kernel before timing
            backends.set_kernels(kernels)
            errors[kernels] = agreement(model, problem, M, K, min(T, 8 * K))
        times = {"authors": [], "numpy": [], "numba": []}
        for _ in range(args.pairs):
            times["authors"].append(cpu_time(run_authors, model, M, K, T, record_intvl=T + 1))
            for kernels in ("numpy", "numba"):
                backends.set_kernels(kernels)
                times[kernels].append(cpu_time(run_fedtheory, problem, M, K, T))
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((M, K, T, med, errors))
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"FedAc-I, a9a-shaped (n = {N}, d = 123, lambda = {LAMBDA}), eta = {ETA}, batch 1; CPU time, median of "
          f"{args.pairs} interleaved runs; load average {load}\n")  # fmt: skip
    print("| M | K | T | authors (s) | numpy (s) | numba (s) | authors / numpy | authors / numba | max diff numpy | "
          "max diff numba |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for M, K, T, med, errors in rows:
        print(f"| {M} | {K} | {T} | {med['authors']:.3f} | {med['numpy']:.3f} | {med['numba']:.3f} | "
              f"{med['authors'] / med['numpy']:.2f}x | {med['authors'] / med['numba']:.2f}x | "
              f"{errors['numpy']:.1e} | {errors['numba']:.1e} |")  # fmt: skip


if __name__ == "__main__":
    main()
