"""The self-tuned schedules of StR-FedAvg and IPIR-FedAvg in closed form, as their algorithms define them.

Every schedule fixes the effective step ``gamma~ = gamma_l gamma_g K`` and the regularization weight ``eta`` as
functions of the horizon ``R`` (constant over the rounds of one run) and returns :class:`StRParams` with
``gamma_l = gamma~/(gamma_g K)``; ``params.gamma_tilde`` recovers ``gamma~``. The forms (StR-FedAvg's Algorithm 1
and Theorems 1 and 2, IPIR-FedAvg's Algorithm 2, Proposition 7 and Theorem 3):

* strongly convex (Algorithm 1; Theorem 1 Case i): ``gamma~ = 1/(mu_f^a R^a)``, ``eta = p ln R/(mu_f^b R^b)``;
* convex (Algorithm 1; Theorem 2 Cases i/ii): ``gamma~ = 1/R^a``, ``eta = 1/R^b``;
* strongly convex, ``kappa = 1`` (Theorem 1 Case iii): ``gamma~ = p ln R/(mu_f R)``, a constant ``eta``;
* convex, ``kappa = 1`` (Theorem 2 Case iii): ``gamma~ = 1/R^a``, a constant ``eta``;
* Proposition 7 Case i / ii (``mu_f = 1``): ``gamma~_t = 1/R_t^a``, ``eta_t = p ln R_t/R_t^b`` /
  ``gamma~_t = p ln R_t/R_t``, a constant ``eta``;
* IPIR inner call (Algorithm 2; Theorem 3 Cases i/ii): Proposition 7 with ``p = 2``, ``a = 7/12``, ``b = 5/12``
  and ``R_t = t + t0``.

The parameter ranges printed with each schedule are enforced (``0 < b < a <= 1``, ``p >= 1`` for the strongly
convex and Prop 7 (i) forms; ``0 <= a, b <= 1`` for the convex form, the range of Thm 2 Case ii that contains Case
i's). The constant ``eta`` of the ``kappa = 1`` cases must satisfy ``eta <= alpha/(2 ||grad f(x*)||)``, a property of
the instance that the caller checks.
"""

from __future__ import annotations

import math

from ..._validate import positive, positive_int
from ...errors import InvalidParameterError
from .str_fedavg import StRParams


def _params(gamma_tilde: float, eta: float, gamma_g: float, K: int, clients_per_round: int | None) -> StRParams:
    gamma_g, K = positive("gamma_g", gamma_g), positive_int("K", K)
    return StRParams(K, gamma_tilde / (gamma_g * K), gamma_g, eta, clients_per_round)


def _exponents(a: float, b: float, p: float) -> None:
    """``0 < b < a <= 1`` and ``p >= 1`` (Algorithm 1)."""
    a, b, p = positive("a", a), positive("b", b), positive("p", p)
    if a > 1:
        raise InvalidParameterError("a", "a number in (0, 1] (Algorithm 1)", a)
    if b >= a:
        raise InvalidParameterError("b", f"a number in (0, a = {a}) (Algorithm 1)", b)
    if p < 1:
        raise InvalidParameterError("p", "a number >= 1 (Algorithm 1)", p)


def _unit(name: str, value: float) -> float:
    value = positive(name, value, allow_zero=True)
    if value > 1:
        raise InvalidParameterError(name, "a number in [0, 1] (Theorem 2)", value)
    return value


def schedule_strongly_convex(
    R: int, mu_f: float, a: float, b: float, p: float, gamma_g: float, K: int, *, clients_per_round=None
) -> StRParams:
    """Algorithm 1, Theorem 1 Case i: ``gamma~ = 1/(mu_f^a R^a)``, ``eta = p ln R/(mu_f^b R^b)``.

    ``R = 1`` gives ``eta = 0``. Remark 2 uses ``a = 2/3``, ``b = 1/3`` for Table 1.
    """
    R, mu_f = positive_int("R", R), positive("mu_f", mu_f)
    _exponents(a, b, p)
    gamma_tilde = 1.0 / (mu_f**a * R**a)
    eta = p * math.log(R) / (mu_f**b * R**b)
    return _params(gamma_tilde, eta, gamma_g, K, clients_per_round)


def schedule_convex(R: int, a: float, b: float, gamma_g: float, K: int, *, clients_per_round=None) -> StRParams:
    """Algorithm 1, Theorem 2 Cases i and ii: ``gamma~ = 1/R^a``, ``eta = 1/R^b``.

    Remark 2 uses ``a = 1/2``, ``b = 1/4`` for Table 1.
    """
    R = positive_int("R", R)
    a, b = _unit("a", a), _unit("b", b)
    return _params(1.0 / R**a, 1.0 / R**b, gamma_g, K, clients_per_round)


def schedule_sc_sharp(
    R: int, mu_f: float, p: float, eta: float, gamma_g: float, K: int, *, clients_per_round=None
) -> StRParams:
    """Theorem 1 Case iii, ``kappa = 1``: ``gamma~ = p ln R/(mu_f R)`` and a constant ``eta``.

    Needs ``R >= 2`` (``gamma~ = 0`` at ``R = 1``).
    """
    R, mu_f, p, eta = positive_int("R", R, minimum=2), positive("mu_f", mu_f), positive("p", p), positive("eta", eta)
    if p < 1:
        raise InvalidParameterError("p", "a number >= 1 (Theorem 1)", p)
    return _params(p * math.log(R) / (mu_f * R), eta, gamma_g, K, clients_per_round)


def schedule_convex_sharp(R: int, a: float, eta: float, gamma_g: float, K: int, *, clients_per_round=None) -> StRParams:
    """Theorem 2 Case iii, ``kappa = 1``: ``gamma~ = 1/R^a`` and a constant ``eta``."""
    R, a, eta = positive_int("R", R), _unit("a", a), positive("eta", eta)
    return _params(1.0 / R**a, eta, gamma_g, K, clients_per_round)


def schedule_prop7(
    R_t: int,
    gamma_g: float,
    K: int,
    *,
    a: float = 7 / 12,
    b: float = 5 / 12,
    p: float = 2.0,
    eta: float | None = None,
    clients_per_round=None,
) -> StRParams:
    """The inner schedules of Proposition 7 (``mu_f = 1``, Remark 3).

    Case i (``eta is None``): ``gamma~_t = 1/R_t^a``, ``eta_t = p ln R_t/R_t^b`` (``0 < b < a <= 1``,
    ``p >= 1``), i.e. :func:`schedule_strongly_convex` with ``mu_f = 1``. Case ii (``eta`` given):
    ``gamma~_t = p ln R_t/R_t`` (``R_t >= 2``, ``p >= 1``) with ``eta_t = eta``, i.e. :func:`schedule_sc_sharp`
    with ``mu_f = 1``. The defaults are Theorem 3's ``p = 2, a = 7/12, b = 5/12``.
    """
    if eta is None:
        return schedule_strongly_convex(R_t, 1.0, a, b, p, gamma_g, K, clients_per_round=clients_per_round)
    return schedule_sc_sharp(R_t, 1.0, p, eta, gamma_g, K, clients_per_round=clients_per_round)


def schedule_ipir(
    t: int, K: int, gamma_g: float, *, t0: int = 0, eta: float | None = None, clients_per_round=None
) -> StRParams:
    """The inner call of IPIR-FedAvg at outer iteration ``t`` (Algorithm 2; Theorem 3), ``R_t = t + t0``.

    Case i (``eta is None``): ``gamma~_t = 1/R_t^{7/12}``, ``eta_t = 2 ln R_t/R_t^{5/12}`` (``R_t >= 1``;
    ``eta_1 = 0``). Case ii (``eta`` given, ``kappa = 1``): ``gamma~_t = 2 ln R_t/R_t`` (``R_t >= 2``),
    ``eta_t = eta``. ``t0 = 0`` is the printed ``R_t = t``; at ``R_t = 0`` the call runs no round and has no schedule.
    """
    t, t0 = positive_int("t", t, minimum=0), positive_int("t0", t0, minimum=0)
    if t + t0 < 1:
        raise InvalidParameterError("t", "t + t0 >= 1 (the call at R_t = 0 runs no round)", t)
    return schedule_prop7(t + t0, gamma_g, K, eta=eta, clients_per_round=clients_per_round)
