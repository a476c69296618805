"""Step-size sweeps of FedAc and its baselines on a finite-sum problem, vectorised.

Every (step size, seed) pair of a sweep is one replica of the ``(S, M, d)`` arrays, so a whole tuning grid of one
algorithm at one (M, K) advances in one numpy operation per local step. The algorithms and their hyperparameters:

* ``"fedac-i"``, ``"fedac-ii"``, ``"vanilla"``: FedAc (:mod:`fedtheory.algorithms.fedac`) with the FedAc-I or
  FedAc-II hyperparameters, or with none of their trade-offs, ``mu`` the l2 weight, evaluated at the server's
  ``x_ag``;
* ``"fedavg"``: FedAvg, evaluated at the server iterate;
* ``"mb-sgd"``: ``R = T/K`` SGD steps with batch ``M K`` (FedAvg with one local step on ``M K`` clients);
* ``"mb-ac-sgd"``: ``R`` steps of generalized AC-SA with batch ``M K`` (vanilla FedAc with one local step on
  ``M K`` clients).

The recorded quantity is ``F(server iterate) - F*`` after every round; a replica whose iterate stops being finite
is recorded as ``inf`` from that round on (divergence is an outcome of a tuning grid, not an error).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..algorithms.fedac import inverse_coefficients
from ..backends import SWEEP_ENGINES, sweep_engine
from ..errors import InvalidParameterError
from ..kernels import fedac_local_steps, fused_oracle, sgd_local_steps
from ..oracles import Minibatch
from . import jax_engine
from .jax_engine import DRAWS

ALGORITHMS = ("fedac-i", "fedac-ii", "vanilla", "fedavg", "mb-sgd", "mb-ac-sgd")


@dataclass(frozen=True)
class Sweep:
    """``gap[i, s, j]``: suboptimality at evaluation ``j`` (after ``rounds_at[j]`` rounds) for step size ``etas[i]``
    and seed ``s``."""

    algorithm: str
    M: int
    K: int
    T: int
    etas: np.ndarray
    gap: np.ndarray
    rounds_at: np.ndarray

    def best(self) -> np.ndarray:
        """Per seed, the best suboptimality over step sizes and rounds (the paper's tuned metric)."""
        return self.gap.min(axis=(0, 2))

    def reaches(self, target: float) -> np.ndarray:
        """Per seed, whether some step size reaches ``target`` at some evaluation."""
        return self.best() <= target


def _fedac_coefficients(algorithm: str, etas: np.ndarray, mu: float, K: int) -> tuple[np.ndarray, ...]:
    if np.any(etas * mu > 1):
        raise InvalidParameterError("etas", "eta <= 1/mu for FedAc's hyperparameters", etas)
    if algorithm == "vanilla":
        gamma = np.sqrt(etas / mu)
    else:
        gamma = np.maximum(np.sqrt(etas / (mu * K)), etas)
    return (*inverse_coefficients(gamma * mu, "FedAc-II" if algorithm == "fedac-ii" else "FedAc-I"), gamma)


def run_sweep(
    problem,
    f_star: float,
    algorithm: str,
    *,
    M: int,
    K: int,
    T: int,
    etas,
    seeds: int,
    rng: np.random.Generator,
    eval_every: int = 512,
    engine: str | None = None,
    draws: str = "host",
) -> Sweep:
    """Run ``algorithm`` for ``T`` gradient queries per client (``R = T / K`` rounds) from 0 on every step size in
    ``etas`` and ``seeds`` independent seeds at once (one sampled row per query, :class:`~fedtheory.oracles.Minibatch`).
    The suboptimality is evaluated every ``eval_every`` parallel steps (e.g. every 512) and at the end.

    ``engine`` is ``"numpy"`` (the reference) or ``"jax"``: the same rounds, with the same draws from ``rng``, on JAX
    in float64 (on a GPU when JAX sees one; :func:`fedtheory.sweeps.jax_engine.server_iterates`, for
    :class:`~fedtheory.problems.LogisticRegression` and :class:`~fedtheory.problems.LeastSquares` problems; it needs
    ``pip install 'fedtheory[jax]'``), evaluated here as the numpy engine's, so both give the same :class:`Sweep` to
    rounding; ``None`` reads :func:`fedtheory.backends.sweep_engine`.

    ``draws="device"`` (JAX engine only) draws the sample indices on the device from JAX's generator, keyed by one
    draw of ``rng``: the same sampling distribution on another stream, without the host's per-step draws and
    transfers, which dominate at thousands of clients. ``"host"`` (the default) draws them from ``rng`` as above.
    """
    engine = sweep_engine() if engine is None else engine
    if engine not in SWEEP_ENGINES:
        raise InvalidParameterError("engine", f"one of {', '.join(SWEEP_ENGINES)}", engine)
    if draws not in DRAWS or (draws == "device" and engine != "jax"):
        allowed = "'host', or 'device' with the jax engine"
        raise InvalidParameterError("draws", allowed, f"{draws} (engine {engine})")
    if algorithm not in ALGORITHMS:
        raise InvalidParameterError("algorithm", f"one of {', '.join(ALGORITHMS)}", algorithm)
    M, K, T, seeds = (positive_int(n, v) for n, v in (("M", M), ("K", K), ("T", T), ("seeds", seeds)))
    rng = generator("rng", rng)
    if T % K:
        raise InvalidParameterError("T", f"a multiple of K = {K}", T)
    etas = np.asarray([positive("etas", e) for e in np.ravel(etas)])
    mu = getattr(problem, "l2", None)  # the strong-convexity estimate of the FedAc family
    R = T // K
    minibatch = algorithm in ("mb-sgd", "mb-ac-sgd")
    # one step with a batch of M K rows: one row of shape (S, 1, d) whose minibatch draws the same M K indices, in
    # the same order, that M K one-row clients would (the update is linear in the gradient, so its client mean is
    # the update with the mean gradient)
    clients, steps = (1, 1) if minibatch else (M, K)
    S = etas.size * seeds
    eta = np.repeat(etas, seeds)[:, None, None]  # replica i * seeds + s
    oracle = Minibatch(problem, M * K if minibatch else 1)
    d = problem.dim
    x = np.zeros((S, d))
    x_ag = np.zeros((S, d))
    accelerated = algorithm in ("fedac-i", "fedac-ii", "vanilla", "mb-ac-sgd")
    if accelerated:
        kind = "vanilla" if algorithm == "mb-ac-sgd" else algorithm
        if not mu:
            raise InvalidParameterError("problem", f"a problem with an l2 weight > 0 (mu) for {algorithm}", mu)
        a, b, gamma = (c[:, None, None] for c in _fedac_coefficients(kind, np.repeat(etas, seeds), mu, steps))
    every = max(1, positive_int("eval_every", eval_every) // K)
    gaps, at, dead = [_gap(problem, f_star, x_ag if accelerated else x)], [0], np.zeros(S, dtype=bool)
    if engine == "jax":  # the rounds on JAX, evaluated as below
        abg = (a, b, gamma) if accelerated else None
        for r, W, gone in jax_engine.server_iterates(
            problem, rng, R, every, clients, steps, oracle.batch_size, eta, abg, draws
        ):
            gap = _gap(problem, f_star, W)
            gap[gone] = np.inf
            gaps.append(gap)
            at.append(r)
        return Sweep(
            algorithm, M, K, T, etas, np.stack(gaps, axis=-1).reshape(etas.size, seeds, len(at)), np.asarray(at)
        )
    with np.errstate(over="ignore", invalid="ignore"):
        for r in range(1, R + 1):
            cx = np.broadcast_to(x[:, None, :], (S, clients, d))
            spec = fused_oracle(oracle)  # the fused kernel, same indices and iterates (None: the numpy reference)
            if accelerated:
                cag = np.broadcast_to(x_ag[:, None, :], (S, clients, d))
                if spec is not None:
                    x, x_ag = fedac_local_steps(spec, cx, cag, rng, steps, eta, a, b, gamma, mean=True)
                else:
                    for _ in range(steps):
                        md = b * cx + (1 - b) * cag
                        g = oracle(md, rng)
                        cag = md - eta * g
                        cx = (1 - a) * cx + a * md - gamma * g
                    x, x_ag = cx.mean(axis=1), cag.mean(axis=1)
            elif spec is not None:
                x = sgd_local_steps(spec, cx, rng, steps, eta, mean=True)
            else:
                for _ in range(steps):
                    cx = cx - eta * oracle(cx, rng)
                x = cx.mean(axis=1)
            dead |= ~np.all(np.isfinite(x_ag if accelerated else x), axis=-1)
            x[dead], x_ag[dead] = 0.0, 0.0  # keep the arithmetic finite; dead replicas are recorded as inf
            if r % every == 0 or r == R:
                gap = _gap(problem, f_star, x_ag if accelerated else x)
                gap[dead] = np.inf
                gaps.append(gap)
                at.append(r)
    gap = np.stack(gaps, axis=-1).reshape(etas.size, seeds, len(at))
    return Sweep(algorithm, M, K, T, etas, gap, np.asarray(at))


def _gap(problem, f_star: float, W: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        values = problem.value(np.clip(W, -1e6, 1e6)) - f_star
    return np.where(np.isfinite(values), np.maximum(values, 0.0), np.inf)
