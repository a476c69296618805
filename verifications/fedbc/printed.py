"""The constants and right-hand sides that Lemma B.1, the proof of Theorem 4.5 (App. C) and Theorem 4.5 print.

Every function is an expression of its arguments only, written so that it evaluates on floats, numpy arrays
(elementwise, e.g. one value per (replica, client)) and sympy symbols alike. Arguments that the paper sums over
clients (``L_i``, ``gamma_i``) are sequences; ``_sum`` adds them with Python's ``sum`` so that sympy symbols work.

Notation (ours, for the arguments): ``dx2`` = ``||x_i^{t+1} - x_i^t||^2``; ``dnew2`` = ``||x_i^{t+1} - z^{t+1}||^2``;
``cons2`` = ``||x_i^t - z^t||^2``; ``gradL2`` = ``||grad_x L_i(x_i^t, z^t, lam_i^t)||^2``; ``dLag`` =
``L_i(x_i^t, z^t, lam_i^t) - L_i(x_i^{t+1}, z^{t+1}, lam_i^{t+1})``; a ``_mean`` suffix means the average over
the N clients (the paper's ``(1/N) sum_i``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

REGISTERS_CLAIMS = False  # printed expressions only; the claims are in the sibling modules


def _sqrt(x: Any) -> Any:
    return sp.sqrt(x) if isinstance(x, sp.Basic) else np.sqrt(x)


def _sum(values: Sequence[Any]) -> Any:
    return sum(values[1:], values[0]) if len(values) else 0


# ---------------------------------------------------------------- constants


def M_1(L: Any, lam_max: Any) -> Any:
    """``M_1 := L + 2 lam_max`` (after (26)); ``L = max_i L_i``."""
    return L + 2 * lam_max


def M(L: Any, lam_max: Any) -> Any:
    """``M := 4 (L^2 + 2 lam_max)`` (after (70))."""
    return 4 * (L**2 + 2 * lam_max)


def C_0_text(L: Any, lam_max: Any) -> Any:
    """``C_0 := 1 - lam_max / (4 L)``: the definition in the text after (61)."""
    return 1 - lam_max / (4 * L)


def C_0_eq61(L_i: Any, lam_max: Any) -> Any:
    """``1 - lam_max L_i / (1 + L_i)^2``: the coefficient on the left of (61) (per client)."""
    return 1 - lam_max * L_i / (1 + L_i) ** 2


def G_dual(R: Any, gamma: Any) -> Any:
    """``G := 16 R^4 + gamma_i^2`` (after (37)); (37) ends with ``alpha G``, (39)-(43) and (72)-(90) use ``G^2``."""
    return 16 * R**4 + gamma**2


def B_0(f_z0: Sequence[Any], f_zstar: Sequence[Any], G: Any, L_i: Sequence[Any]) -> Any:
    """``B_0 := (1/N) sum_i [f_i(z^0) - f_i(z*)] + (1/N) sum_i G^2 / (2 L_i)`` (88).

    Here ``G`` is the gradient bound of (81), ``||grad f_i(x_i^T)|| <= G`` (the second use of the symbol).
    """
    N = len(L_i)
    return (_sum([a - b for a, b in zip(f_z0, f_zstar, strict=True)]) + _sum([G**2 / (2 * li) for li in L_i])) / N


# ---------------------------------------------------------------- Lemma B.1


def rhs_20(M1: Any, dx2_mean: Any, eps: Any) -> Any:
    """(20) = (28): ``2 M_1^2 [(1/N) sum_i E||x_i^{t+1} - x_i^t||^2 + eps]``."""
    return 2 * M1**2 * (dx2_mean + eps)


rhs_28 = rhs_20


def rhs_26(M1: Any, dx: Any, eps: Any) -> Any:
    """(26): ``||grad_x L_i(x_i^t, z^t, lam_i^t)|| <= (L + 2 lam_max) ||x_i^{t+1} - x_i^t|| + sqrt(eps)``."""
    return M1 * dx + _sqrt(eps)


def rhs_27(M1: Any, dx2: Any, eps: Any) -> Any:
    """(27): ``||grad_x L_i||^2 <= 2 M_1^2 ||x_i^{t+1} - x_i^t||^2 + 2 eps``."""
    return 2 * M1**2 * dx2 + 2 * eps


def rhs_34(e2: Any, L_i: Any, lam_t: Any, dx2: Any) -> Any:
    """The line before (35): ``(1/(2 L_i)) ||e_i^{t+1}||^2 + L_i ||dx||^2 - lam_i^t ||dx||^2`` (bound on I)."""
    return e2 / (2 * L_i) + L_i * dx2 - lam_t * dx2


def rhs_35(eps: Any, L: Any, lam_t: Any, L_i: Any, dx2: Any) -> Any:
    """(35): ``I <= eps/(2L) - (lam_i^t - L_i) ||x_i^{t+1} - x_i^t||^2`` with ``L = max_j L_j``."""
    return eps / (2 * L) - (lam_t - L_i) * dx2


def rhs_37_chain(alpha: Any, d2: Any, gamma: Any, R: Any) -> tuple[Any, Any, Any, Any]:
    """(36)-(37), the printed chain for ``II``, ``d2 = ||x_i^{t+1} - z^t||^2``: returns
    ``(alpha (d2 - gamma)^2, alpha d2^2 + alpha gamma^2, 16 alpha R^4 + alpha gamma^2, alpha G)``."""
    return (
        alpha * (d2 - gamma) ** 2,
        alpha * d2**2 + alpha * gamma**2,
        16 * alpha * R**4 + alpha * gamma**2,
        alpha * G_dual(R, gamma),
    )


def rhs_37(alpha: Any, R: Any, gamma: Any) -> Any:
    """(37): ``II <= alpha G`` with ``G = 16 R^4 + gamma_i^2``."""
    return alpha * G_dual(R, gamma)


def rhs_38(lam_max: Any, dnew2: Any) -> Any:
    """(38): ``III <= lam_max ||x_i^{t+1} - z^{t+1}||^2``."""
    return lam_max * dnew2


def rhs_39(eps: Any, L: Any, lam_t: Any, L_i: Any, dx2: Any, alpha: Any, G: Any, lam_max: Any, dnew2: Any) -> Any:
    """(39): ``L_i^{t+1} - L_i^t <= eps/(2L) - (lam_i^t - L_i) ||dx||^2 + alpha G^2 + lam_max ||x^{t+1} - z^{t+1}||^2``
    (note ``G^2``, where (37) ends with ``alpha G``)."""
    return eps / (2 * L) - (lam_t - L_i) * dx2 + alpha * G**2 + lam_max * dnew2


def rhs_42(dLag_mean: Any, eps: Any, L: Any, alpha: Any, G: Any, lam_max: Any, dnew2_mean: Any) -> Any:
    """(42), (43) = (21): ``(1/N) sum_i E[L_i^t - L_i^{t+1}] + eps/(2L) + alpha G^2 + lam_max (1/N) sum_i
    ||x_i^{t+1} - z^{t+1}||^2``. The left side of (42) is ``(lam_i^t - L_i) (1/N) sum_i E||dx||^2`` (the factor
    printed outside the sum over i); the left side of (43) is ``(1/N) sum_i E||dx||^2``."""
    return dLag_mean + eps / (2 * L) + alpha * G**2 + lam_max * dnew2_mean


rhs_21 = rhs_43 = rhs_42


# ---------------------------------------------------------------- proof of Theorem 4.5 (App. C)


def rhs_68(graddiff2_mean: Any, gradL2_mean: Any) -> Any:
    """(68): ``(2/N) sum_i ||grad f_i(z^t) - grad_x L_i(x_i^t, z^t, lam_i^t)||^2 + (2/N) sum_i ||grad_x L_i||^2``."""
    return 2 * graddiff2_mean + 2 * gradL2_mean


def rhs_69(fdiff2_mean: Any, lam_max: Any, cons2_mean: Any, gradL2_mean: Any) -> Any:
    """(69): ``(4/N) sum ||grad f_i(z^t) - grad f_i(x_i^t)||^2 + (8 lam_max/N) sum ||x_i^t - z^t||^2 +
    (2/N) sum ||grad_x L_i||^2`` (coefficient ``8 lam_max``, as printed)."""
    return 4 * fdiff2_mean + 8 * lam_max * cons2_mean + 2 * gradL2_mean


def rhs_70(L: Any, lam_max: Any, cons2_mean: Any, gradL2_mean: Any) -> Any:
    """(70) = (71): ``(4 (L^2 + 2 lam_max)/N) sum ||z^t - x_i^t||^2 + (2/N) sum ||grad_x L_i||^2``."""
    return M(L, lam_max) * cons2_mean + 2 * gradL2_mean


rhs_71 = rhs_70


def rhs_72(M1: Any, dLag_mean: Any, lam_max: Any, dnew2_mean: Any, eps: Any, L: Any, alpha: Any, G: Any) -> Any:
    """(72), printed as (43) substituted into (28): ``(2 M_1^2/N) sum E[L_i^t - L_i^{t+1}] + (lam_max/N) sum
    ||x_i^{t+1} - z^{t+1}||^2 + M_1^2 eps / L + alpha M_1^2 G^2``."""
    return 2 * M1**2 * dLag_mean + lam_max * dnew2_mean + M1**2 * eps / L + alpha * M1**2 * G**2


def rhs_73(
    Mc: Any,
    cons2_mean: Any,
    M1: Any,
    dLag_mean: Any,
    lam_max: Any,
    dnew2_mean: Any,
    eps: Any,
    L: Any,
    alpha: Any,
    G: Any,
) -> Any:
    """(73): ``(M/N) sum E||z^t - x_i^t||^2 + (4 M_1^2/N) sum E[L_i^t - L_i^{t+1}] + (2 lam_max/N) sum
    ||x_i^{t+1} - z^{t+1}||^2 + 2 M_1^2 eps/L + 2 alpha M_1^2 G^2``."""
    return Mc * cons2_mean + 2 * rhs_72(M1, dLag_mean, lam_max, dnew2_mean, eps, L, alpha, G)


def rhs_76(
    M1: Any, dLag0T_mean: Any, Mc: Any, lam_max: Any, cons_sum_mean: Any, eps: Any, T: Any, L: Any, alpha: Any, G: Any
) -> Any:
    """(76): ``(4 M_1^2/N) sum_i E[L_i^0 - L_i^T] + ((M + 2 lam_max)/N) sum_{t<T} sum_i E||z^{t+1} - x_i^{t+1}||^2
    + 2 M_1^2 eps T/L + 2 alpha M_1^2 G^2 T``; ``cons_sum_mean`` = ``(1/N) sum_t sum_i ||z^{t+1} - x_i^{t+1}||^2``."""
    return (
        4 * M1**2 * dLag0T_mean
        + (Mc + 2 * lam_max) * cons_sum_mean
        + 2 * M1**2 * eps * T / L
        + 2 * alpha * M1**2 * G**2 * T
    )


def consensus_terms(eps: Any, delta: Any, S: Any, N: Any, C0: Any, L_i: Sequence[Any]) -> tuple[Any, Any]:
    """The two per-round terms of (64) (without the factor T): ``eps S (N-1)/(C_0^2 N^2) sum_i (1+L_i)^-2`` and
    ``delta^2 S (N-1)/(C_0^2 N^2) sum_i (1+L_i)^-4``."""
    c = S * (N - 1) / (C0**2 * N**2)
    return eps * c * _sum([1 / (1 + li) ** 2 for li in L_i]), delta**2 * c * _sum([1 / (1 + li) ** 4 for li in L_i])


def rhs_77(
    M1: Any, dLag0T_mean: Any, T: Any, Mc: Any, lam_max: Any, eps: Any, delta: Any, S: Any, N: Any, C0: Any,
    L_i: Sequence[Any], L: Any, alpha: Any, G: Any,
) -> Any:  # fmt: skip
    """(77): ``(4 M_1^2/(N T)) sum E[L_i^0 - L_i^T] + (M + 2 lam_max) eps S(N-1)/(C_0^2 N^2) sum (1+L_i)^-2 +
    delta^2 S(N-1)/(C_0^2 N^2) sum (1+L_i)^-4 + 2 M_1^2 eps/L + 2 alpha M_1^2 G^2`` (the delta term printed
    without the factor ``M + 2 lam_max``)."""
    t_eps, t_delta = consensus_terms(eps, delta, S, N, C0, L_i)
    return (
        4 * M1**2 * dLag0T_mean / T
        + (Mc + 2 * lam_max) * t_eps
        + t_delta
        + 2 * M1**2 * eps / L
        + 2 * alpha * M1**2 * G**2
    )


def rhs_83(f_zT: Any, gamma: Any, lam_T: Any, G: Any, L_i: Any) -> Any:
    """(83): ``L_i(x_i^T, z^T, lam_i^T) >= f_i(z^T) - gamma_i lam_i^T - G^2/(2 L_i)`` (a lower bound)."""
    return f_zT - gamma * lam_T - G**2 / (2 * L_i)


def rhs_89(B0: Any, lam_max: Any, gamma_i: Sequence[Any]) -> Any:
    """(89): ``(1/N) sum_i [L_i^0 - L_i^T] <= B_0 + (lam_max/N) sum_i gamma_i``."""
    return B0 + lam_max * _sum(list(gamma_i)) / len(gamma_i)


def terms_90(
    M1: Any, B0: Any, T: Any, lam_max: Any, gamma_i: Sequence[Any], Mc: Any, eps: Any, delta: Any, S: Any, N: Any,
    C0: Any, L_i: Sequence[Any], L: Any, alpha: Any, G: Any,
) -> dict[str, Any]:  # fmt: skip
    """The six terms of (90) = Theorem 4.5 explicit: ``4 M_1^2 B_0/T``, ``4 M_1^2 lam_max (1/N) sum gamma_i / T``,
    ``(M + 2 lam_max) eps S(N-1)/(C_0^2 N^2) sum (1+L_i)^-2``, ``delta^2 S(N-1)/(C_0^2 N^2) sum (1+L_i)^-4``,
    ``2 M_1^2 eps/L``, ``2 alpha M_1^2 G^2`` (``G`` here is the ``G`` of (37); ``B_0`` carries the other ``G``)."""
    t_eps, t_delta = consensus_terms(eps, delta, S, N, C0, L_i)
    return {
        "B0/T": 4 * M1**2 * B0 / T,
        "gamma/T": 4 * M1**2 * lam_max * _sum(list(gamma_i)) / (len(gamma_i) * T),
        "eps-consensus": (Mc + 2 * lam_max) * t_eps,
        "delta^2": t_delta,
        "eps": 2 * M1**2 * eps / L,
        "alpha": 2 * alpha * M1**2 * G**2,
    }


def rhs_90(*args: Any, **kwargs: Any) -> Any:
    """(90), Theorem 4.5's explicit bound: the sum of :func:`terms_90`."""
    return _sum(list(terms_90(*args, **kwargs).values()))


rhs_thm_4_5 = rhs_90

#: The O(.) form (14)/(91): the exponent of T in each term (0: T-independent floor), keyed as in :func:`terms_90`.
ORDER_14_T_EXPONENT = {"B0/T": -1, "gamma/T": -1, "eps-consensus": 0, "delta^2": 0, "eps": 0, "alpha": 0}
