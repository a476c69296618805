"""Analysis quantities of the decoupled-prox method (:mod:`.decoupled`) as functions of a run's state.

With ``p = P_{eta~}(x)`` the post-prox server model (``eta~ = eta eta_g tau``):

* the virtual centralized proximal-gradient iterate ``x~ = P_{eta~}(p - eta~ grad f(p))``;
* the gradient mapping ``G(p) = (p - x~)/eta~``, which lies in ``grad f(p) + partial g(x~)`` and vanishes exactly at
  the stationary points of ``f + g``;
* the drift ``Lambda_i = eta (tau grad f_i(p) + sum_t mean_j grad f_j(z_{j,t}^{r-1}) - sum_t grad f_i(z_{i,t}^{r-1}))``,
  whose closed form, from ``c_i = v - (1/tau) sum_t g_{i,t}`` and ``sum_i c_i = 0``, is
  ``Lambda_i = eta tau (grad f_i(p) + c_i)`` with client mean ``eta tau grad f(p)``;
* the Lyapunov functions ``Omega = F(p) - F* + ||Lambda - mean Lambda||^2 / (n eta~)`` and, for strongly convex ``f``,
  ``Omega_sc = ||p - x*||^2 + ||Lambda - mean Lambda||^2 / n``.

Every function is vectorised over replicas: ``x`` (S, d), corrections (S, n, d).
"""

from __future__ import annotations

import numpy as np

from ...problems.base import Problem
from ...regularizers import Regularizer
from .decoupled import DecoupledParams, DecoupledState, check_regularizer, prox


def composite_value(problem: Problem, regularizer: Regularizer | None, x) -> np.ndarray:
    """``F(x) = f(x) + g(x)`` over the last axis."""
    value = problem.value(x)
    return value if regularizer is None else value + regularizer.value(x)


def prox_gradient_mapping(problem: Problem, regularizer: Regularizer | None, x, step: float) -> np.ndarray:
    """``(x - P_step(x - step grad f(x))) / step`` at any point ``x`` (``grad f(x)`` when ``g = 0``)."""
    x = np.asarray(x, dtype=float)
    return (x - prox(check_regularizer(regularizer), x - step * problem.grad(x), step)) / step


def virtual_pgd(problem: Problem, regularizer: Regularizer | None, x, eta_tilde: float) -> np.ndarray:
    """``x~ = P_{eta~}(p - eta~ grad f(p))`` with ``p = P_{eta~}(x)``: one centralized step from the server model."""
    regularizer = check_regularizer(regularizer)
    p = prox(regularizer, np.asarray(x, dtype=float), eta_tilde)
    return prox(regularizer, p - eta_tilde * problem.grad(p), eta_tilde)


def gradient_mapping(problem: Problem, regularizer: Regularizer | None, x, eta_tilde: float) -> np.ndarray:
    """``G(P_{eta~}(x)) = (P_{eta~}(x) - x~) / eta~`` for a server model ``x``."""
    regularizer = check_regularizer(regularizer)
    return prox_gradient_mapping(
        problem, regularizer, prox(regularizer, np.asarray(x, dtype=float), eta_tilde), eta_tilde
    )


def drift(problem: Problem, regularizer: Regularizer | None, state: DecoupledState, params: DecoupledParams):
    """``Lambda_i = eta tau (grad f_i(p) + c_i)`` (S, n, d) from the state's server model and corrections."""
    p = prox(check_regularizer(regularizer), state.x, params.eta_tilde)
    grads = problem.client_grad(np.broadcast_to(p[:, None, :], state.c.shape))
    return params.eta * params.tau * (grads + state.c)


def drift_from_gradients(
    problem: Problem, regularizer: Regularizer | None, x, gradient_sums, params: DecoupledParams
) -> np.ndarray:
    """``Lambda`` from its definition: ``x`` (S, d) and the previous round's sums ``sum_t g_{i,t}`` (S, n, d)."""
    p = prox(check_regularizer(regularizer), np.asarray(x, dtype=float), params.eta_tilde)
    sums = np.asarray(gradient_sums, dtype=float)
    grads = problem.client_grad(np.broadcast_to(p[:, None, :], sums.shape))
    return params.eta * (params.tau * grads + sums.mean(axis=1, keepdims=True) - sums)


def drift_deviation(lam) -> np.ndarray:
    """``||Lambda - mean_i Lambda||^2`` summed over clients and coordinates, per replica (S,)."""
    lam = np.asarray(lam, dtype=float)
    return np.sum((lam - lam.mean(axis=-2, keepdims=True)) ** 2, axis=(-2, -1))


def lyapunov(
    problem: Problem, regularizer: Regularizer | None, state: DecoupledState, params: DecoupledParams, F_star: float
) -> np.ndarray:
    """``Omega = F(p) - F* + ||Lambda - mean Lambda||^2 / (n eta~)`` per replica (S,)."""
    p = prox(check_regularizer(regularizer), state.x, params.eta_tilde)
    spread = drift_deviation(drift(problem, regularizer, state, params))
    return composite_value(problem, regularizer, p) - F_star + spread / (params.n * params.eta_tilde)


def lyapunov_sc(
    problem: Problem, regularizer: Regularizer | None, state: DecoupledState, params: DecoupledParams, x_star
) -> np.ndarray:
    """``Omega_sc = ||p - x*||^2 + ||Lambda - mean Lambda||^2 / n`` per replica (S,)."""
    p = prox(check_regularizer(regularizer), state.x, params.eta_tilde)
    spread = drift_deviation(drift(problem, regularizer, state, params))
    return np.sum((p - np.asarray(x_star, dtype=float)) ** 2, axis=-1) + spread / params.n
