"""The rounds of the stochastic step-size sweep of :mod:`fedtheory.sweeps.fedac` on JAX: float64, on a GPU when JAX
sees one (``run_sweep(..., engine="jax")``, or ``FEDTHEORY_SWEEP_ENGINE=jax``).

:func:`server_iterates` runs the rounds of :func:`fedtheory.sweeps.fedac.run_sweep` (the numpy reference), which
validates, sets the coefficients up and evaluates the iterates in numpy for both engines. It draws the same sample
indices from the same numpy generator: one ``rng.integers(0, n, size=(S, clients, b))`` call per
local step, in the numpy engine's order (a round is not drawn in one call: numpy's buffered bounded draws would make
that a different stream). The ``K`` draws of a round travel to the device as one ``(K, S, clients, b)`` array and the
``K`` local steps of the round run as one jitted :func:`jax.lax.scan`, whose gather, margin, link and update XLA fuses
per step, so both engines agree to rounding (the tests hold them to 1e-12 relative on CPU).

The engine supports the finite sums that :class:`~fedtheory.oracles.Minibatch` samples, with identical clients or one
data set per client: :class:`~fedtheory.problems.LogisticRegression` and :class:`~fedtheory.problems.LeastSquares`.

Importing this module does not import JAX; :func:`server_iterates` does, and sets JAX's process-wide
``jax_enable_x64`` flag (every JAX computation of the process is in 64-bit from then on) before it creates an array.
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import InvalidParameterError
from ..problems import LeastSquares, LogisticRegression

DRAWS = ("host", "device")
"""Where the sample indices are drawn: from the numpy generator on the host (the numpy engine's stream) or on the
device (:func:`server_iterates`)."""

CHUNK = 4096
"""Rows of a large minibatch gathered at once (MB-SGD and MB-AC-SGD sample ``M K`` rows per step): a batch above this
is summed in chunks by a scan, so that the gathered rows never take more than ``S * CHUNK * d`` floats."""


def _jax():
    """``(jax, jax.numpy)`` with 64-bit floats enabled, or an error naming the extra to install."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as err:
        raise ImportError("the JAX sweep engine needs JAX: pip install 'fedtheory[jax]'") from err
    jax.config.update("jax_enable_x64", True)
    return jax, jnp


def _data(problem) -> tuple[np.ndarray, np.ndarray, bool]:
    """The problem's rows ``(M_data n, d)``, responses ``(M_data n,)`` and whether it is logistic."""
    if isinstance(problem, LogisticRegression):
        return problem.features.reshape(-1, problem.dim), problem.labels.reshape(-1), True
    if isinstance(problem, LeastSquares):
        return problem.features.reshape(-1, problem.dim), problem.targets.reshape(-1), False
    raise InvalidParameterError(
        "problem", "a LogisticRegression or LeastSquares problem for the jax sweep engine", type(problem).__name__
    )


@functools.cache
def _round(logistic: bool, accelerated: bool, batch: int, chunk: int, steps: int | None = None):
    """The jitted round ``(x, x_ag, dead, idx, constants) -> (x, x_ag, dead)``: ``idx (K, S, clients, batch)`` row
    indices into the data (client offsets added), the ``K`` local steps scanned, the clients averaged, replicas whose
    server iterate stops being finite marked dead and reset to 0 (the numpy engine's rule); a batch above ``chunk``
    rows is summed ``chunk`` rows at a time.

    With ``steps`` given, ``idx`` is instead a JAX key and the round draws its own indices on the device: step ``k``
    draws ``(S, clients, batch)`` indices uniformly from ``[0, n)`` with the key ``fold_in(idx, k)``."""
    jax, jnp = _jax()
    chunks = -(-batch // chunk)

    def link(u, y):
        # the loss's derivative in the row's inner product u = <a, x>
        return -y * jax.scipy.special.expit(-(y * u)) if logistic else u - y

    def batch_sum(x, idx, rows, resp, weight):
        # sum over the sampled rows of link * row, for points x (S, C, d) and indices idx (S, C, b)
        if batch == 1:  # one row per client: no batch axis, so that XLA fuses the whole step (3x faster on a CPU)
            A, y = rows[idx[..., 0]], resp[idx[..., 0]]
            return link(jnp.sum(A * x, axis=-1), y)[..., None] * A
        A, y = rows[idx], resp[idx]  # (S, C, b, d), fused into its consumers
        w = link(jnp.sum(A * x[:, :, None, :], axis=-1), y)
        return jnp.sum((w if weight is None else w * weight)[..., None] * A, axis=-2)

    def grad(x, idx, rows, resp, l2):
        if chunks == 1:
            total = batch_sum(x, idx, rows, resp, None)
        else:  # zero-weight padding to whole chunks, summed chunk by chunk
            idx = jnp.pad(idx, ((0, 0), (0, 0), (0, chunks * chunk - batch)))
            weight = (jnp.arange(chunks * chunk) < batch).astype(rows.dtype).reshape(chunks, chunk)
            parts = jnp.moveaxis(idx.reshape(*idx.shape[:2], chunks, chunk), 2, 0)

            def add(acc, part):
                return acc + batch_sum(x, part[0], rows, resp, part[1]), None

            total, _ = jax.lax.scan(add, jnp.zeros_like(x), (parts, weight))
        g = total / batch
        return g + l2 * x if logistic else g

    def one_round(x, x_ag, dead, idx, rows, resp, offset, n, l2, eta, a, b, gamma):
        S, C, d = x.shape[0], offset.shape[1], x.shape[-1]
        if steps is not None:  # a key: step k draws its indices on the device from fold_in(key, k)
            idx = jax.vmap(lambda k: jax.random.fold_in(idx, k))(jnp.arange(steps))

        def rows_of(i):  # the step's row indices, client c's rows starting at c n (0 with identical clients)
            if steps is not None:
                i = jax.random.randint(i, (S, C, batch), 0, n, dtype=offset.dtype)
            return i + offset

        cx = jnp.broadcast_to(x[:, None, :], (S, C, d))
        if accelerated:

            def step(state, i):
                cx, cag = state
                md = b * cx + (1 - b) * cag
                g = grad(md, rows_of(i), rows, resp, l2)
                return ((1 - a) * cx + a * md - gamma * g, md - eta * g), None

            (cx, cag), _ = jax.lax.scan(step, (cx, jnp.broadcast_to(x_ag[:, None, :], (S, C, d))), idx)
            x, x_ag = cx.mean(axis=1), cag.mean(axis=1)
        else:

            def step(cx, i):
                return cx - eta * grad(cx, rows_of(i), rows, resp, l2), None

            cx, _ = jax.lax.scan(step, cx, idx)
            x = cx.mean(axis=1)
        dead = dead | ~jnp.all(jnp.isfinite(x_ag if accelerated else x), axis=-1)
        keep = ~dead[:, None]
        return jnp.where(keep, x, 0.0), jnp.where(keep, x_ag, 0.0), dead

    return jax.jit(one_round)


def server_iterates(
    problem,
    rng: np.random.Generator,
    R: int,
    every: int,
    clients: int,
    steps: int,
    batch: int,
    eta,
    fedac,
    draws: str = "host",
):
    """The rounds of :func:`fedtheory.sweeps.fedac.run_sweep` on JAX, from 0: yields ``(r, W, dead)`` after every
    ``every`` rounds and after round ``R``, with ``W (S, d)`` the server iterates in numpy (``x_ag`` with
    FedAc's coefficients ``fedac = (alpha^-1, beta^-1, gamma)``, else ``x``) and ``dead (S,)`` the replicas whose
    iterate stopped being finite (reset to 0 from then on).

    ``eta`` and the coefficients are per replica, shape ``(S, 1, 1)``; each round is ``steps`` local steps of
    ``clients`` clients per replica, each drawing ``batch`` rows by one ``rng.integers(0, n, size=(S, clients,
    batch))`` call per step, in :func:`~fedtheory.sweeps.fedac.run_sweep`'s order. Sets JAX's process-wide
    ``jax_enable_x64`` flag.

    ``draws="device"`` draws the indices on the device instead, from JAX's counter-based generator keyed by one
    ``rng.integers`` draw (round ``r``'s key folded in): the same distribution (uniform with replacement, independent
    across steps, clients and replicas), another stream, and no host work or transfer per step. At M = 8,192 clients
    the host draws cost more than the device's steps.
    """
    if draws not in DRAWS:
        raise InvalidParameterError("draws", f"one of {', '.join(DRAWS)}", draws)
    rows, resp, logistic = _data(problem)
    problem.check_clients(clients)
    jax, jnp = _jax()
    n, S, d = problem.n_samples, np.shape(eta)[0], problem.dim
    index = np.int32 if rows.shape[0] < 2**31 else np.int64
    device = draws == "device"
    one_round = _round(logistic, fedac is not None, batch, CHUNK, steps if device else None)
    offset = np.arange(clients) * (n if problem.n_clients is not None else 0)
    coefficients = (eta, *(fedac if fedac is not None else (np.zeros((S, 1, 1)),) * 3))
    constants = (
        jnp.asarray(rows, jnp.float64),
        jnp.asarray(resp, jnp.float64),
        jnp.asarray(offset, index)[None, :, None],
        jnp.asarray(n, index),
        jnp.asarray(problem.l2 if logistic else 0.0, jnp.float64),
        *(jnp.asarray(c, jnp.float64).reshape(S, 1, 1) for c in coefficients),
    )
    x = x_ag = jnp.zeros((S, d), jnp.float64)
    dead = jnp.zeros(S, bool)
    key = jax.random.key(int(rng.integers(2**63))) if device else None
    for r in range(1, R + 1):
        if device:
            idx = jax.random.fold_in(key, r)
        else:
            idx = np.empty((steps, S, clients, batch), index)  # a fresh buffer: the device may still read the last one
            for k in range(steps):
                idx[k] = rng.integers(0, n, size=(S, clients, batch))
        x, x_ag, dead = one_round(x, x_ag, dead, idx, *constants)
        if r % every == 0 or r == R:
            yield r, np.asarray(x_ag if fedac is not None else x), np.asarray(dead)
