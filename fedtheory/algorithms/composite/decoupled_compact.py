"""The stacked ("compact") recursion of the decoupled-prox method of :mod:`.decoupled`, a separate implementation.

With ``X = col{x_i}`` and ``grad f(X) = col{grad f_i(x_i)}``, ``mean f(X)`` its client average repeated ``n`` times,
the method reads (no correction variable; the gradients of the previous round are the memory):

    Z^_{t+1} = Z^_t - eta (grad f(Z_t) + (1/tau) sum_t' mean f(Z_t'^{r-1}) - (1/tau) sum_t' grad f(Z_t'^{r-1}))
    Z_{t+1}  = P_{(t+1) eta}(Z^_{t+1}),                     Z^_0 = Z_0 = P_{eta~}(X^r)
    X^{r+1}  = P_{eta~}(X^r) - eta_g eta sum_t mean f(Z_t)

with the convention that the gradients of round 0 are zero. The per-client form of :mod:`.decoupled` computes the
server model from the models the clients send and the correction from the server's change; that the two agree
pathwise rests on ``sum_i c_i = 0``, which this form never uses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._validate import generator, positive_int
from ...errors import InvalidParameterError
from ...oracles import Oracle, check_oracle, check_replicated
from ...regularizers import Regularizer
from .decoupled import DecoupledParams, check_regularizer, prox


@dataclass
class CompactState:
    """Server model ``x^r`` (S, d), the previous round's gradient sums ``sum_t grad f_i(z_{i,t}^{r-1})`` (S, n, d)."""

    x: np.ndarray
    memory: np.ndarray
    r: int = 1


def init(x0, params: DecoupledParams, S: int = 1) -> CompactState:
    """Every replica at ``x^1 = x0`` with zero gradient memory."""
    S = positive_int("S", S)
    x0 = np.asarray(x0, dtype=float)
    x = check_replicated("x0", x0, x0.shape[-1], S)
    return CompactState(x, np.zeros((S, params.n, x.shape[-1])))


def round(
    state: CompactState,
    oracle: Oracle,
    regularizer: Regularizer | None,
    params: DecoupledParams,
    rng: np.random.Generator | None,
) -> CompactState:
    """One round of the stacked recursion (``params.variant`` must be ``"decoupled"``)."""
    oracle = check_oracle(oracle)
    regularizer = check_regularizer(regularizer)
    rng = generator("rng", rng, allow_none=True)
    if params.variant != "decoupled":
        raise InvalidParameterError("params", "the decoupled variant (the compact form is written for it)", params)
    S, d = state.x.shape
    p = prox(regularizer, state.x, params.eta_tilde)
    memory = state.memory / params.tau
    correction = memory.mean(axis=1, keepdims=True) - memory
    z_hat = z = np.broadcast_to(p[:, None, :], (S, params.n, d))
    total = np.zeros((S, params.n, d))
    for t in range(params.tau):
        g = oracle(z, rng)
        total += g
        z_hat = z_hat - params.eta * (g + correction)
        z = prox(regularizer, z_hat, params.weight(t))
    x_new = p - params.eta_g * params.eta * total.mean(axis=1)
    return CompactState(x_new, total, state.r + 1)
