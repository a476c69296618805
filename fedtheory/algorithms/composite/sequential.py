"""Sequential composite methods of section 4.1.1, vectorised over replicas (and a minibatch of clients).

* :func:`proximal_gradient` -- PGM, eq. (4.3): ``x^{t+1} = prox_{eta psi}(x^t - eta g^t)``.
* :func:`mirror_descent` -- Bregman-PGM / COMID, eq. (4.4):
  ``x^{t+1} = argmin_x {eta <g^t, x> + eta psi(x) + D_h(x, x^t)} = grad (h + eta psi)^*(grad h(x^t) - eta g^t)``.
  The primal-dual form printed as eq. (4.5) omits the factor ``eta`` on the gradient; the argmin (4.4)
  and the client step of Algorithm 5 both carry it, and so does this implementation.
* :func:`dual_averaging` -- regularized dual averaging, eq. (4.6):
  ``y^{t+1} = y^t - eta g^t`` with ``g^t`` queried at ``x^t = grad (h + eta t psi)^*(y^t)`` (eq. (4.7)),
  ``y^0 = grad h(x^0)``.

``g^t`` is the mean of ``M`` stochastic gradients at ``x^t`` (one per client; ``M = 1`` is the single-machine method
of (4.2), ``M > 1`` the minibatch method federated algorithms with ``K = 1`` reduce to). The oracle is called once per
step on points of shape ``(S, M, d)``, so a federated run with the same generator draws the same noise.
"""

from __future__ import annotations

import numpy as np

from ..._validate import generator, positive, positive_int
from ...errors import InvalidParameterError
from ...oracles import Oracle, check_oracle, check_replicated
from ..fedavg import check_finite
from .federated import CompositeTrajectory
from .mirror import MirrorMap


def _setup(oracle: Oracle, mirror: MirrorMap, x0, eta, T, M, S, record_every):
    oracle = check_oracle(oracle)
    if not isinstance(mirror, MirrorMap):
        raise InvalidParameterError("mirror", "a MirrorMap (Euclidean, PNorm, Entropy)", type(mirror).__name__)
    eta = positive("eta", eta)
    T = positive_int("T", T, minimum=0)
    M, record_every = positive_int("M", M), positive_int("record_every", record_every)
    oracle.problem.check_clients(M)
    x = check_replicated("x0", mirror.check_primal("x0", x0), oracle.problem.dim, positive_int("S", S))
    return x, eta, T, M, record_every


def _gradient(oracle: Oracle, x: np.ndarray, M: int, rng: np.random.Generator) -> np.ndarray:
    """Mean of the ``M`` client gradients at the common point ``x`` (S, d)."""
    return oracle(np.broadcast_to(x[:, None, :], (x.shape[0], M, x.shape[1])), rng).mean(axis=1)


def _mirror_descent(oracle, mirror, x0, eta, T, rng, M, S, record_every, name) -> CompositeTrajectory:
    x, eta, T, M, record_every = _setup(oracle, mirror, x0, eta, T, M, S, record_every)
    rng = generator("rng", rng, allow_none=True)
    xs, ts = [x], [0]
    for t in range(1, T + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            x = mirror(mirror.grad_h(x) - eta * _gradient(oracle, x, M, rng), eta)
        check_finite(x, name, t, "step")
        if t % record_every == 0 or t == T:
            xs.append(x)
            ts.append(t)
    return CompositeTrajectory(np.stack(xs), None, np.asarray(ts))


def mirror_descent(
    oracle: Oracle,
    mirror: MirrorMap,
    x0,
    eta: float,
    T: int,
    rng: np.random.Generator,
    *,
    M: int = 1,
    S: int = 1,
    record_every: int = 1,
) -> CompositeTrajectory:
    """``T`` steps of ``x <- grad (h + eta psi)^*(grad h(x) - eta g)`` (eq. (4.4)), recording ``x`` every
    ``record_every`` steps.

    Raises
    ------
    DivergenceError
        At the first step whose iterate is not finite.
    """
    return _mirror_descent(oracle, mirror, x0, eta, T, rng, M, S, record_every, "mirror descent")


def proximal_gradient(
    oracle: Oracle,
    mirror: MirrorMap,
    x0,
    eta: float,
    T: int,
    rng: np.random.Generator,
    *,
    M: int = 1,
    S: int = 1,
    record_every: int = 1,
) -> CompositeTrajectory:
    """PGM (4.3): ``x <- prox_{eta psi}(x - eta g)``, i.e. :func:`mirror_descent` with a Euclidean mirror map."""
    if not getattr(mirror, "euclidean", False):
        raise InvalidParameterError("mirror", "a Euclidean mirror map (PGM is eq. (4.4) with h = ||x||^2/2)", mirror)
    return _mirror_descent(oracle, mirror, x0, eta, T, rng, M, S, record_every, "proximal gradient")


def dual_averaging(
    oracle: Oracle,
    mirror: MirrorMap,
    x0,
    eta: float,
    T: int,
    rng: np.random.Generator,
    *,
    M: int = 1,
    S: int = 1,
    record_every: int = 1,
) -> CompositeTrajectory:
    """``T`` steps of regularized dual averaging (4.6), recording ``x^t = grad (h + eta t psi)^*(y^t)`` (4.7) and
    ``y^t`` every ``record_every`` steps (``x^0 = x0``).

    Raises
    ------
    DivergenceError
        At the first step whose dual iterate is not finite.
    """
    x0, eta, T, M, record_every = _setup(oracle, mirror, x0, eta, T, M, S, record_every)
    rng = generator("rng", rng, allow_none=True)
    y = mirror.grad_h(x0).copy()
    x = mirror(y, 0.0)  # x^0 = grad h^*(grad h(x0)) = x0 (Proposition C.7)
    xs, ys, ts = [x0], [y], [0]
    for t in range(T):
        with np.errstate(over="ignore", invalid="ignore"):
            y = y - eta * _gradient(oracle, x, M, rng)
            x = mirror(y, eta * (t + 1))
        check_finite(np.concatenate([x, y], axis=-1), "dual averaging", t + 1, "step")
        if (t + 1) % record_every == 0 or t + 1 == T:
            xs.append(x)
            ys.append(y)
            ts.append(t + 1)
    return CompositeTrajectory(np.stack(xs), np.stack(ys), np.asarray(ts))
