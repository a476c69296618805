"""The self-tuned schedules of StR-FedAvg and IPIR-FedAvg in closed form (spec 2.1 table).

Every schedule fixes the effective step ``gamma~ = gamma_l gamma_g K`` and the regularization weight ``eta`` as
functions of the horizon ``R`` (constant over the rounds of one run) and returns :class:`StRParams` with
``gamma_l = gamma~/(gamma_g K)``; ``params.gamma_tilde`` recovers ``gamma~``. Paper lines refer to
``shared/seeds/003_511a8e816d499631.txt``:

* strongly convex (Alg. 1 line 61, Thm 1 Case i line 133): ``gamma~ = 1/(mu_f^a R^a)``, ``eta = p ln R/(mu_f^b R^b)``;
* convex (Alg. 1 line 60, Thm 2 Cases i/ii lines 153/157): ``gamma~ = 1/R^a``, ``eta = 1/R^b``;
* strongly convex, ``kappa = 1`` (Thm 1 Case iii, line 141): ``gamma~ = p ln R/(mu_f R)``, a constant ``eta``;
* convex, ``kappa = 1`` (Thm 2 Case iii, line 160): ``gamma~ = 1/R^a``, a constant ``eta``;
* Prop 7 Case i / ii (lines 542 / 549, ``mu_f = 1``): ``gamma~_t = 1/R_t^a``, ``eta_t = p ln R_t/R_t^b`` /
  ``gamma~_t = p ln R_t/R_t``, a constant ``eta``;
* IPIR inner call (Alg. 2 line 95, Thm 3 Cases i/ii lines 190/201): Prop 7 with ``p = 2``, ``a = 7/12``,
  ``b = 5/12`` and ``R_t = t + t0``;
* the Sect. 5.1 experiment rules (line 654): :func:`experiment_rule`.

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

RULES = ("printed", "algorithm")


def _params(gamma_tilde: float, eta: float, gamma_g: float, K: int, clients_per_round: int | None) -> StRParams:
    gamma_g, K = positive("gamma_g", gamma_g), positive_int("K", K)
    return StRParams(K, gamma_tilde / (gamma_g * K), gamma_g, eta, clients_per_round)


def _exponents(a: float, b: float, p: float) -> None:
    """``0 < b < a <= 1`` and ``p >= 1`` (Algorithm 1, line 59)."""
    a, b, p = positive("a", a), positive("b", b), positive("p", p)
    if a > 1:
        raise InvalidParameterError("a", "a number in (0, 1] (Algorithm 1, line 59)", a)
    if b >= a:
        raise InvalidParameterError("b", f"a number in (0, a = {a}) (Algorithm 1, line 59)", b)
    if p < 1:
        raise InvalidParameterError("p", "a number >= 1 (Algorithm 1, line 59)", p)


def _unit(name: str, value: float) -> float:
    value = positive(name, value, allow_zero=True)
    if value > 1:
        raise InvalidParameterError(name, "a number in [0, 1] (Theorem 2, line 157)", value)
    return value


def schedule_strongly_convex(
    R: int, mu_f: float, a: float, b: float, p: float, gamma_g: float, K: int, *, clients_per_round=None
) -> StRParams:
    """Algorithm 1 (line 61), Theorem 1 Case i (line 133): ``gamma~ = 1/(mu_f^a R^a)``, ``eta = p ln R/(mu_f^b R^b)``.

    ``R = 1`` gives ``eta = 0``. Remark 2 (line 168) uses ``a = 2/3``, ``b = 1/3`` for Table 1.
    """
    R, mu_f = positive_int("R", R), positive("mu_f", mu_f)
    _exponents(a, b, p)
    gamma_tilde = 1.0 / (mu_f**a * R**a)
    eta = p * math.log(R) / (mu_f**b * R**b)
    return _params(gamma_tilde, eta, gamma_g, K, clients_per_round)


def schedule_convex(R: int, a: float, b: float, gamma_g: float, K: int, *, clients_per_round=None) -> StRParams:
    """Algorithm 1 (line 60), Theorem 2 Cases i and ii (lines 153, 157): ``gamma~ = 1/R^a``, ``eta = 1/R^b``.

    Remark 2 (line 168) uses ``a = 1/2``, ``b = 1/4`` for Table 1.
    """
    R = positive_int("R", R)
    a, b = _unit("a", a), _unit("b", b)
    return _params(1.0 / R**a, 1.0 / R**b, gamma_g, K, clients_per_round)


def schedule_sc_sharp(
    R: int, mu_f: float, p: float, eta: float, gamma_g: float, K: int, *, clients_per_round=None
) -> StRParams:
    """Theorem 1 Case iii (line 141), ``kappa = 1``: ``gamma~ = p ln R/(mu_f R)`` and a constant ``eta``.

    Needs ``R >= 2`` (``gamma~ = 0`` at ``R = 1``).
    """
    R, mu_f, p, eta = positive_int("R", R, minimum=2), positive("mu_f", mu_f), positive("p", p), positive("eta", eta)
    if p < 1:
        raise InvalidParameterError("p", "a number >= 1 (Theorem 1, line 145)", p)
    return _params(p * math.log(R) / (mu_f * R), eta, gamma_g, K, clients_per_round)


def schedule_convex_sharp(R: int, a: float, eta: float, gamma_g: float, K: int, *, clients_per_round=None) -> StRParams:
    """Theorem 2 Case iii (line 160), ``kappa = 1``: ``gamma~ = 1/R^a`` and a constant ``eta``."""
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

    Case i (line 542; ``eta is None``): ``gamma~_t = 1/R_t^a``, ``eta_t = p ln R_t/R_t^b`` (``0 < b < a <= 1``,
    ``p >= 1``), i.e. :func:`schedule_strongly_convex` with ``mu_f = 1``. Case ii (line 549; ``eta`` given):
    ``gamma~_t = p ln R_t/R_t`` (``R_t >= 2``, ``p >= 1``) with ``eta_t = eta``, i.e. :func:`schedule_sc_sharp`
    with ``mu_f = 1``. The defaults are Theorem 3's ``p = 2, a = 7/12, b = 5/12``.
    """
    if eta is None:
        return schedule_strongly_convex(R_t, 1.0, a, b, p, gamma_g, K, clients_per_round=clients_per_round)
    return schedule_sc_sharp(R_t, 1.0, p, eta, gamma_g, K, clients_per_round=clients_per_round)


def schedule_ipir(
    t: int, K: int, gamma_g: float, *, t0: int = 0, eta: float | None = None, clients_per_round=None
) -> StRParams:
    """The inner call of IPIR-FedAvg at outer iteration ``t`` (Algorithm 2, line 95; Theorem 3), ``R_t = t + t0``.

    Case i (line 190; ``eta is None``): ``gamma~_t = 1/R_t^{7/12}``, ``eta_t = 2 ln R_t/R_t^{5/12}`` (``R_t >= 1``;
    ``eta_1 = 0``). Case ii (line 201; ``eta`` given, ``kappa = 1``): ``gamma~_t = 2 ln R_t/R_t`` (``R_t >= 2``),
    ``eta_t = eta``. ``t0 = 0`` is the printed ``R_t = t``; at ``R_t = 0`` the call runs no round and has no schedule.
    """
    t, t0 = positive_int("t", t, minimum=0), positive_int("t0", t0, minimum=0)
    if t + t0 < 1:
        raise InvalidParameterError("t", "t + t0 >= 1 (the call at R_t = 0 runs no round)", t)
    return schedule_prop7(t + t0, gamma_g, K, eta=eta, clients_per_round=clients_per_round)


def experiment_rule(
    R: int, Gamma: float, K: int, gamma_g: float, rule: str = "printed", *, clients_per_round=None
) -> StRParams:
    """The step rules of the Sect. 5.1 experiment (line 654), ``a = 1/2``, ``b = 1/4``, ``Gamma > 0``:

    * ``"printed"`` -- as printed in Sect. 5.1: ``gamma_l = 1/(R + Gamma)^{1/2}``, ``eta = 1/(R + Gamma)^{1/4}``
      (so ``gamma~ = gamma_g K/(R + Gamma)^{1/2}``);
    * ``"algorithm"`` -- Algorithm 1's convex rule (line 60) with ``R + Gamma`` for ``R``:
      ``gamma_l = 1/(gamma_g K (R + Gamma)^{1/2})``, same ``eta``.

    The paper uses ``gamma_g = sqrt(N)``.
    """
    R, Gamma = positive_int("R", R), positive("Gamma", Gamma)
    gamma_g, K = positive("gamma_g", gamma_g), positive_int("K", K)
    if rule not in RULES:
        raise InvalidParameterError("rule", f"one of {', '.join(RULES)}", rule)
    horizon = R + Gamma
    gamma_l = 1.0 / horizon**0.5 if rule == "printed" else 1.0 / (gamma_g * K * horizon**0.5)
    return StRParams(K, gamma_l, gamma_g, 1.0 / horizon**0.25, clients_per_round)
