"""Printed step sizes and bounds of chapter 3's complete theorems, one definition each, shared by the exact
(quadratic), Monte Carlo (logistic) and rate checks.

Arguments: ``mu, M, K, R``, the initial potential ``pot0`` (Psi0 or Phi0), ``s2 = sigma^2`` and ``L``. Where the
printed text is ambiguous the reading is a parameter and documented here.
"""

from __future__ import annotations

import numpy as np

from fedtheory.exact.agd_instability import L_STEP, MU

REGISTERS_CLAIMS = False  # shared printed constants; the claims are in the sibling modules


def eta_thm35(mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Theorem 3.5: ``min{1/L, log^2(e + min{mu M K R Psi0/sigma^2, mu^2 K R^3 Psi0/(L sigma^2)})/(mu K R^2)}``."""
    inner = min(mu * M * K * R * pot0 / s2, mu**2 * K * R**3 * pot0 / (L * s2))
    return min(1 / L, np.log(np.e + inner) ** 2 / (mu * K * R**2))


def bound_thm35(mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Theorem 3.5's bound on E Psi^(R,0)."""
    a, b = mu * M * K * R * pot0 / s2, mu**2 * K * R**3 * pot0 / (L * s2)
    return (
        min(np.exp(-mu * K * R / L), np.exp(-np.sqrt(mu * K / L) * R)) * pot0
        + 2 * s2 / (mu * M * K * R) * np.log(np.e + a) ** 2
        + 400 * L * s2 / (mu**2 * K * R**3) * np.log(np.e + b) ** 4
    )


def eta_thm_b12(mu, M, K, R, pot0, s2, L=1.0, reading: str = "sum") -> float:
    """Theorem B.12: ``min{1/L, 9 log^2(e + X)/(mu K R^2)}`` with the printed ``X = min{A + B}``, ``A = mu M K R
    Phi0/sigma^2``, ``B = mu^3 K R^4 Phi0/(L^2 sigma^2)``, read literally as ``A + B`` (``reading = "sum"``) or as
    ``min{A, B}`` (``"min"``)."""
    a, b = mu * M * K * R * pot0 / s2, mu**3 * K * R**4 * pot0 / (L**2 * s2)
    inner = a + b if reading == "sum" else min(a, b)
    return min(1 / L, 9 * np.log(np.e + inner) ** 2 / (mu * K * R**2))


def bound_thm_b12(mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Theorem B.12's bound on E Phi^(R,0)."""
    a, b = mu * M * K * R * pot0 / s2, mu**3 * K * R**4 * pot0 / (L**2 * s2)
    return (
        min(np.exp(-mu * K * R / (3 * L)), np.exp(-np.sqrt(mu * K / L) * R / 3)) * pot0
        + 4 * s2 / (mu * M * K * R) * np.log(np.e + a)
        + 8101 * L**2 * s2 / (mu**3 * K * R**4) * np.log(np.e + b) ** 4
    )


def eta_thm_b1(mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Theorem B.1 at Q = 0: ``min{1/L, 9 log^2(e + mu M K R Phi0/sigma^2 + mu^2 M K R^3 Phi0/(L sigma^2))/(mu K
    R^2)}`` (the inner min's Q-argument is +inf)."""
    inner = mu * M * K * R * pot0 / s2 + mu**2 * M * K * R**3 * pot0 / (L * s2)
    return min(1 / L, 9 * np.log(np.e + inner) ** 2 / (mu * K * R**2))


def bound_thm_b1(mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Theorem B.1's bound on E Phi^(R,0) at Q = 0 (the e^18 Q^2 term drops out)."""
    a, b = mu * M * K * R * pot0 / s2, mu**2 * M * K * R**3 * pot0 / (L * s2)
    return (
        min(np.exp(-mu * K * R / (3 * L)), np.exp(-np.sqrt(mu * K / L) * R / 3)) * pot0
        + 4 * s2 / (mu * M * K * R) * np.log(np.e + a)
        + 55 * L * s2 / (mu**2 * M * K * R**3) * np.log(np.e + b) ** 3
    )


def eta_thm_b18(mu, M, K, R, s2, L=1.0, *, cap: float = 4.0, B: float = 1.0) -> float:
    """Theorem B.18 at Q = 0: ``min{1/(cap L), (2/(mu K R)) log(e + mu^2 M K^2 R^2 B^2/sigma^2)}``; the theorem
    prints ``cap = 4``, Proposition 3.2 (adapted from it) the branch ``1/L``."""
    return min(1 / (cap * L), 2 / (mu * K * R) * np.log(np.e + mu**2 * M * K**2 * R**2 * B**2 / s2))


def bound_lem_b15(eta, mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Lemma B.15, (B.32): ``exp(-(1/3) max{eta mu, sqrt(eta mu/K)} K R) Phi0 + eta^(1/2) sigma^2/(mu^(1/2) M
    K^(1/2)) + 100 eta^2 L^2 K sigma^2/mu``."""
    return (
        np.exp(-max(eta * mu, np.sqrt(eta * mu / K)) * K * R / 3) * pot0
        + np.sqrt(eta / mu) * s2 / (M * np.sqrt(K))
        + 100 * eta**2 * L**2 * K * s2 / mu
    )


def proof_pattern(K: int) -> tuple[str, ...]:
    """The curvature pattern of the proof of Theorem 3.8: (mu, L, mu) repeated K times (Lemma 3.25: F'' = L at
    md^(t) iff t mod 3 = 1), for :func:`fedtheory.exact.agd_instability.build`."""
    return (MU, L_STEP, MU) * K


def bound_lem_311(eta, mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Lemma 3.11, (3.13): ``exp(-max{eta mu, sqrt(eta mu/K)} K R) Psi0 + eta^(1/2) sigma^2/(2 mu^(1/2) M K^(1/2))
    + eta sigma^2/(2M) + 390 eta^(3/2) L K^(1/2) sigma^2/mu^(1/2) + 7 eta^2 L K sigma^2``."""
    return (
        np.exp(-max(eta * mu, np.sqrt(eta * mu / K)) * K * R) * pot0
        + np.sqrt(eta) * s2 / (2 * np.sqrt(mu) * M * np.sqrt(K))
        + eta * s2 / (2 * M)
        + 390 * eta**1.5 * L * np.sqrt(K) * s2 / np.sqrt(mu)
        + 7 * eta**2 * L * K * s2
    )


def bound_lem_323(eta, gamma, mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Lemma 3.23 without its discrepancy term (0 on quadratics): ``exp(-gamma mu K R/3) Phi0 + 3 eta^2 L sigma^2/(2
    gamma mu M) + gamma sigma^2/(2M)``."""
    return np.exp(-gamma * mu * K * R / 3) * pot0 + 3 * eta**2 * L * s2 / (2 * gamma * mu * M) + gamma * s2 / (2 * M)


def bound_lem_b3(eta, mu, M, K, R, pot0, s2, L=1.0) -> float:
    """Lemma B.3, (B.1), at Q = 0: ``exp(-(1/3) max{eta mu, sqrt(eta mu/K)} K R) Phi0 + eta^(1/2) sigma^2/(mu^(1/2) M
    K^(1/2)) + 2 eta^(3/2) L K^(1/2) sigma^2/(mu^(1/2) M)`` (the e^9 eta^4 Q^2 K^2 sigma^4/mu term drops out)."""
    return (
        np.exp(-max(eta * mu, np.sqrt(eta * mu / K)) * K * R / 3) * pot0
        + np.sqrt(eta) * s2 / (np.sqrt(mu) * M * np.sqrt(K))
        + 2 * eta**1.5 * L * np.sqrt(K) * s2 / (np.sqrt(mu) * M)
    )


def bound_lem_b19(eta, mu, M, K, R, B, s2) -> float:
    """Lemma B.19 at Q = 0: ``(1/eta) exp(-eta mu K R/2) B^2 + eta sigma^2/M``."""
    return np.exp(-eta * mu * K * R / 2) * B**2 / eta + eta * s2 / M


def bound_thm_b18(mu, M, K, R, s2, L=1.0, B: float = 1.0) -> float:
    """Theorem B.18's bound at Q = 0: ``exp(-mu K R/(8L)) 4 L B^2 + (3 sigma^2/(mu M K R)) log(e + mu^2 M K^2 R^2
    B^2/sigma^2)``."""
    inner = mu**2 * M * K**2 * R**2 * B**2 / s2
    return np.exp(-mu * K * R / (8 * L)) * 4 * L * B**2 + 3 * s2 / (mu * M * K * R) * np.log(np.e + inner)
