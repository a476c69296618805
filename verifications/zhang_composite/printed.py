"""The printed step-size conditions and bounds of the paper, each written once (no claims).

Notation: ``eta_tilde = eta eta_g tau``; ``sigma2`` is ``sigma^2`` of Assumption 3.4 (``sigma^2/b`` the variance of a
batch-``b`` gradient); ``B_g`` the Lipschitz constant of ``g`` (Assumption 3.1); ``G2 = ||G(P(x^r))||^2`` the
squared gradient mapping; ``spread = ||Lambda^r - mean Lambda^r||^2`` (summed over clients). Every function is numpy
arithmetic and broadcasts over arrays of its arguments.

The displays of the server-side proof (Appendix A.5-A.6) are written with ``F*`` subtracted from both sides, so that
they read gaps (``F(.) - F*``), which a run computes without cancellation: ``gap_p = F(p^r) - F*`` with ``p^r =
P(x^r)``, ``xt2 = ||x~^{r+1} - p^r||^2`` (``x~^{r+1}`` the virtual PGD iterate (4)), ``dP2 = ||P(x^{r+1}) -
P(x^r)||^2``, ``drift = sum_t sum_i ||z_{i,t}^r - p^r||^2`` and ``IV``, ``V`` the terms named in (40). Lemma A.1 and
A.2 print ``||G_{eta~ g}(P(x^r))||^2``: the gradient mapping ``G_{eta~}`` of (25), i.e. ``G`` of (11).
"""

from __future__ import annotations

import numpy as np

REGISTERS_CLAIMS = False


# --- step-size conditions ---------------------------------------------------------------------------------------------
def condition_13(eta_tilde, eta_g, L, n):
    """(13): ``eta~ <= 1/(10 L)`` and ``eta_g >= max(1.5, sqrt(n/8))`` (Theorems 3.5 and 3.6)."""
    return (eta_tilde <= 1 / (10 * L)) & (eta_g >= np.maximum(1.5, np.sqrt(n / 8)))


def condition_lemmas(eta_tilde, eta_g, L):
    """Lemmas A.1 and A.2 as stated: ``eta~ <= eta_g / (sqrt(20) L)``."""
    return eta_tilde <= eta_g / (np.sqrt(20) * L)


def condition_lemma_proof(eta_tilde, eta_g, L):
    """The step of Lemma A.1's proof at (33): "``8(t+1) eta^2 L^2 <= 1/(8 tau)`` when ``eta~ <= eta_g/(8L)``"."""
    return eta_tilde <= eta_g / (8 * L)


def condition_thm_3_8(eta_tilde, eta_g, L, mu, n):
    """Theorem 3.8: ``eta~ <= mu/(150 L^2)`` and ``eta_g = sqrt(n)``."""
    return (eta_tilde <= mu / (150 * L**2)) & np.isclose(eta_g, np.sqrt(n), rtol=1e-15, atol=0)


# --- theorems ---------------------------------------------------------------------------------------------------------
def thm_3_5_terms(omega_1, eta_tilde, R, sigma2, n, tau, b, L, B_g, eta_g):
    """Theorem 3.5's right-hand side, term by term: ``(rate, sigma, bg)`` with
    ``rate = Omega^1/(0.3 eta~ R)``, ``sigma = 20 sigma^2/(n tau b)``, ``bg = 187 L^2 eta~^2 B_g^2/eta_g^2``."""
    return (
        omega_1 / (0.3 * eta_tilde * R),
        20 * sigma2 / (n * tau * b),
        187 * L**2 * eta_tilde**2 * B_g**2 / eta_g**2,
    )


def thm_3_6_terms(omega_1, mu, eta_tilde, R, sigma2, n, tau, b, L, B_g, eta_g):
    """Theorem 3.6's right-hand side for ``E Omega^{R+1}``: ``((1 - mu eta~/3)^R Omega^1, 18 sigma^2/(mu n tau b),
    168 L^2 eta~^2 B_g^2/(mu eta_g^2))``."""
    return (
        (1 - mu * eta_tilde / 3) ** R * omega_1,
        18 * sigma2 / (mu * n * tau * b),
        168 * L**2 * eta_tilde**2 * B_g**2 / (mu * eta_g**2),
    )


def thm_3_8_terms(omega_sc_1, mu, eta_tilde, R, sigma2, n, tau, b, B_g, eta_g):
    """Theorem 3.8's right-hand side for ``E Omega_sc^{R+1}``: ``((1 - mu eta~/3)^R Omega_sc^1,
    30 eta~ sigma^2/(mu n tau b), 21 eta~ B_g^2/(mu eta_g^2))``."""
    return (
        (1 - mu * eta_tilde / 3) ** R * omega_sc_1,
        30 * eta_tilde * sigma2 / (mu * n * tau * b),
        21 * eta_tilde * B_g**2 / (mu * eta_g**2),
    )


# --- per-round inequalities -------------------------------------------------------------------------------------------
def eq_46_rhs(omega_r, G2, eta_tilde, sigma2, n, tau, b, L, B_g, eta_g):
    """(46): ``Omega^r + 6 eta~ sigma^2/(n tau b) + 2.8 * 20 L^2 eta~^3 B_g^2/eta_g^2 - 0.3 eta~ ||G||^2``."""
    return (
        omega_r
        + 6 * eta_tilde * sigma2 / (n * tau * b)
        + 56 * L**2 * eta_tilde**3 * B_g**2 / eta_g**2
        - (0.3 * eta_tilde * G2)
    )


def eq_51_rhs(omega_r, mu, eta_tilde, sigma2, n, tau, b, L, B_g, eta_g):
    """(51) divided by ``eta~``:
    ``(1 - mu eta~/3) Omega^r + 6 eta~ sigma^2/(n tau b) + 56 L^2 eta~^3 B_g^2/eta_g^2``."""
    return (
        (1 - mu * eta_tilde / 3) * omega_r
        + 6 * eta_tilde * sigma2 / (n * tau * b)
        + (56 * L**2 * eta_tilde**3 * B_g**2 / eta_g**2)
    )


def lemma_a1_rhs(tau, eta, n, B_g, G2, spread, sigma2, b):
    """(21): ``5 tau^3 eta^2 n 4 B_g^2 + 5 n tau^3 eta^2 ||G||^2 + 5 tau ||Lambda - mean Lambda||^2
    + 10 n tau^2 eta^2 sigma^2/b``."""
    return (
        20 * tau**3 * eta**2 * n * B_g**2
        + 5 * n * tau**3 * eta**2 * G2
        + 5 * tau * spread
        + (10 * n * tau**2 * eta**2 * sigma2 / b)
    )


def lemma_a2_rhs(tau, eta, n, L, B_g, G2, spread, sigma2, b):
    """Lemma A.2's right-hand side: ``(1/n) 4 eta^2 tau L^2 (RHS of (21)) + (1/n) 4 eta^2 n^2 tau^2 sigma^2/(n tau b)``;
    its left-hand side is ``(1/n) ||Lambda^{r+1} - mean||^2 - 2 eta^2 tau^2 L^2 ||P(x^{r+1}) - P(x^r)||^2``."""
    return 4 * eta**2 * tau * L**2 * lemma_a1_rhs(tau, eta, n, B_g, G2, spread, sigma2, b) / n + (
        4 * eta**2 * n * tau * sigma2 / b / n
    )


# --- the server-side proof chain (A.5-A.6), each display minus F* -----------------------------------------------------
def eq_38_rhs(gap_p, xt2, eta_tilde, L):
    """(38), bound on ``F(x~^{r+1}) - F*``: ``gap_p + (L/2 - 1/(2 eta~)) xt2 - xt2/(2 eta~)``."""
    return gap_p + (L / 2 - 1 / (2 * eta_tilde)) * xt2 - xt2 / (2 * eta_tilde)


def eq_42_rhs(drift, L, n, tau, sigma2, b):
    """(42), bound on ``||v^r - grad f(p^r)||^2``: ``(2 L^2/(n tau)) drift + (2/(tau n)) sigma^2/b``."""
    return 2 * L**2 / (n * tau) * drift + 2 / (tau * n) * sigma2 / b


def eq_43_rhs(gap_p, xt2, dP2, drift, eta_tilde, L, n, tau, sigma2, b):
    """(43), bound on ``F(P(x^{r+1})) - F*``: ``gap_p + (L - 1/(2 eta~)) xt2 + (L/2 - 1/(2 eta~)) dP2
    + (eta~/2) ((2 L^2/(n tau)) drift + (2/(tau n)) sigma^2/b)``."""
    return (
        gap_p
        + (L - 1 / (2 * eta_tilde)) * xt2
        + (L / 2 - 1 / (2 * eta_tilde)) * dP2
        + eta_tilde / 2 * eq_42_rhs(drift, L, n, tau, sigma2, b)
    )


def eq_44_rhs(gap_p, xt2, dP2, G2, spread, eta, eta_tilde, L, n, tau, B_g, sigma2, b):
    """(44), bound on ``F(P(x^{r+1})) - F*``: (43) with the drift replaced by ``1.15 tau (4 tau^2 eta^2 n 4 B_g^2
    + 4 n tau^2 eta^2 ||G||^2 + 4 spread + 8 n tau eta^2 sigma^2/b)``."""
    drift_bound = (
        1.15
        * tau
        * (
            4 * tau**2 * eta**2 * n * 4 * B_g**2
            + 4 * n * tau**2 * eta**2 * G2
            + 4 * spread
            + 8 * n * tau * eta**2 * sigma2 / b
        )
    )
    return (
        gap_p
        + (L - 1 / (2 * eta_tilde)) * xt2
        + (L / 2 - 1 / (2 * eta_tilde)) * dP2
        + eta_tilde / 2 * 2 * L**2 / (n * tau) * drift_bound
        + eta_tilde / 2 * 2 / (tau * n) * sigma2 / b
    )


def eq_47_rhs(gap_p, mu, eta_tilde):
    """(47), bound on ``F(x~^{r+1}) - F*`` under prox-PL: ``gap_p - mu eta~ gap_p``."""
    return gap_p - mu * eta_tilde * gap_p


def eq_48_rhs(gap_p, xt2, mu, eta_tilde, L):
    """(48) = 2/3 (38) + 1/3 (47), bound on ``F(x~^{r+1}) - F*``:
    ``gap_p + (L/3 - 2/(3 eta~)) xt2 - (mu eta~/3) gap_p``."""
    return gap_p + (L / 3 - 2 / (3 * eta_tilde)) * xt2 - mu * eta_tilde / 3 * gap_p


def eq_49_rhs(gap_p, xt2, dP2, IV, V, mu, eta_tilde, L):
    """(49), bound on ``F(P(x^{r+1})) - F*``: ``gap_p + (5L/6 - 1/(6 eta~)) xt2 + (L/2 - 1/(2 eta~)) dP2
    - (mu eta~/3) gap_p + (IV) + (V)``."""
    return (
        gap_p
        + (5 * L / 6 - 1 / (6 * eta_tilde)) * xt2
        + (L / 2 - 1 / (2 * eta_tilde)) * dP2
        - mu * eta_tilde / 3 * gap_p
        + IV
        + V
    )


def eq_50_rhs(gap_p, xt2, dP2, drift, mu, eta_tilde, L, n, tau, sigma2, b):
    """(50), bound on ``F(P(x^{r+1})) - F*``: ``(1 - mu eta~/3) gap_p - xt2/(12 eta~) + (L/2 - 1/(2 eta~)) dP2
    + (eta~/2) ((2 L^2/(n tau)) drift + (2/(tau n)) sigma^2/b)``."""
    return (
        (1 - mu * eta_tilde / 3) * gap_p
        - xt2 / (12 * eta_tilde)
        + (L / 2 - 1 / (2 * eta_tilde)) * dP2
        + eta_tilde / 2 * eq_42_rhs(drift, L, n, tau, sigma2, b)
    )
