"""The printed constants, conditions and right-hand sides of the paper, transcribed once.

Every function is plain arithmetic, so it evaluates on floats, numpy arrays and sympy symbols alike (``sqrt``, ``log``
and ``min`` dispatch on the argument). Names follow the paper: ``eta`` the local step, ``K`` local steps, ``L``
smoothness, ``B``/``G`` heterogeneity (Assumption 3), ``psi`` the mixing matrix's second-largest eigenvalue modulus,
``beta`` the Ole coefficient, ``lam`` the SAM radius, ``sigma`` the local gradient noise, ``m`` clients.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

REGISTERS_CLAIMS = False  # constants and printed expressions, read by the claim modules


def _symbolic(*args) -> bool:
    return any(isinstance(a, sp.Basic) for a in args)


def sqrt(x):
    return sp.sqrt(x) if _symbolic(x) else np.sqrt(x)


def log(x):
    return sp.log(x) if _symbolic(x) else np.log(x)


def root(n: int, *like):
    """``sqrt(n)`` of an integer, exact (sympy) when any of ``like`` is symbolic."""
    return sp.sqrt(n) if _symbolic(*like) else np.sqrt(n)


def minimum(a, b):
    return sp.Min(a, b) if _symbolic(a, b) else np.minimum(a, b)


# ---- Theorem 1 (and its appendix restatement, Theorem 3) ---------------------------------------------------------
def thm1_eta_cap(K, L, B):
    """Theorem 1: eta <= 1/(K^{3/2} L B) (with K >= 2)."""
    return 1 / (K * sqrt(K) * L * B)


def thm1_beta_cap(psi):
    """Theorem 1: beta <= min{sqrt(10)(1 - psi)/40, sqrt(5)/30}."""
    return minimum(root(10, psi) * (1 - psi) / 40, root(5, psi) / 30)


def kappa(eta, K, L, B):
    """Proof of Theorem 1: the kappa with 1/2 - 18 eta^2 K^2 L^2 B^2 >= kappa > 0 (taken at equality)."""
    return (
        sp.Rational(1, 2) - 18 * eta**2 * K**2 * L**2 * B**2
        if _symbolic(eta, K, L, B)
        else (0.5 - 18 * eta**2 * K**2 * L**2 * B**2)
    )


def lem5_mu(K, beta, psi):
    """Lemma 5: mu = 1 - 30 K beta^2/(1 - psi)^2."""
    return 1 - 30 * K * beta**2 / (1 - psi) ** 2


def lem5_gamma_mu(K, beta, psi):
    """Lemma 5: gamma mu = 5 beta^2 (25 + 6K/(1 - psi)^2)."""
    return 5 * beta**2 * (25 + 6 * K / (1 - psi) ** 2)


def lem5_gamma(K, beta, psi):
    """Lemma 5's gamma = (gamma mu)/mu."""
    return lem5_gamma_mu(K, beta, psi) / lem5_mu(K, beta, psi)


def thm1_alpha(eta, K, L, psi, kap):
    """Theorem 1: alpha(eta, K, L, psi) = (9/kappa) eta^2 K^2 L^2 (1 + 24/(1 - psi)^2), the factor of G^2."""
    return 9 / kap * eta**2 * K**2 * L**2 * (1 + 24 / (1 - psi) ** 2)


def thm1_phi(K, eta, L, kap):
    """Theorem 1: phi(K, eta, L) = (eta L/kappa)(1 + 9 K^2 eta L), the factor of lambda^2."""
    return eta * L / kap * (1 + 9 * K**2 * eta * L)


def thm1_zeta(eta, L, psi, kap):
    """Theorem 1: zeta(eta, L, psi) = (1/kappa) eta L (2 + 36/(1 - psi)^2), the factor of sigma_l^2."""
    return eta * L * (2 + 36 / (1 - psi) ** 2) / kap


def thm1_chi(L, psi, Delta_T, T, kap, gamma):
    """Theorem 1: chi = (3 + 72/(1 - psi)^2) L^2 Delta^T/(kappa (1 - gamma) T), the factor of -beta^2."""
    return (3 + 72 / (1 - psi) ** 2) * L**2 * Delta_T / (kap * (1 - gamma) * T)


def thm1_rhs(*, gap0, eta, K, T, L, psi, B, G, sigma, lam, beta, Delta_T):
    """Theorem 1's right-hand side with kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 and Lemma 5's gamma.

    ``gap0`` is E[f(x̄^0) - f(x̄^T)]; ``Delta_T`` the observed consistency term of the last round.
    """
    kap = kappa(eta, K, L, B)
    gamma = lem5_gamma(K, beta, psi)
    return (
        gap0 / (kap * eta * K * T)
        + thm1_zeta(eta, L, psi, kap) * sigma**2
        + thm1_alpha(eta, K, L, psi, kap) * G**2
        + thm1_phi(K, eta, L, kap) * lam**2
        - thm1_chi(L, psi, Delta_T, T, kap, gamma) * beta**2
    )


def thm3_rhs(*, gap0, eta, K, T, L, psi, B, G, sigma, lam, beta, Delta_T):
    """Appendix Theorem 3 as printed: as Theorem 1 but the lambda^2 term reads (1 + 9 K^2 eta L) L eta^2 lambda^2."""
    kap = kappa(eta, K, L, B)
    gamma = lem5_gamma(K, beta, psi)
    return (
        gap0 / (kap * eta * K * T)
        + 9 * eta**2 * K**2 * L**2 * (1 + 24 / (1 - psi) ** 2) * G**2 / kap
        + eta * L * (2 + 36 / (1 - psi) ** 2) * sigma**2 / kap
        + (1 + 9 * K**2 * eta * L) * L * eta**2 * lam**2
        - L**2 * beta**2 * (3 + 72 / (1 - psi) ** 2) * Delta_T / (kap * (1 - gamma) * T)
    )


# ---- Lemmas 1, 2, 4, 5 ---------------------------------------------------------------------------------------------
def lem1_eta_cap(K, L):
    """Lemma 1: eta <= sqrt(3)/(6 K L)."""
    return root(3, K, L) / (6 * K * L)


def lem1_rhs(*, K, beta, Delta, eta, sigma, lam, G, B, mean_grad_sq, beta_coefficient=6):
    """Lemma 1, eq. (8): 6 K beta^2 Delta^t + 3 K^2 eta^2 (sigma^2 + 6 lam^2 + 6 K G^2) + 18 K^3 eta^2 B^2 mean_grad_sq.

    ``mean_grad_sq`` is (1/m) sum_i E||grad f(x_i^t)||^2; ``beta_coefficient=4`` gives the proof's final display.
    """
    return (
        beta_coefficient * K * beta**2 * Delta
        + 3 * K**2 * eta**2 * (sigma**2 + 6 * lam**2 + 6 * K * G**2)
        + 18 * K**3 * eta**2 * B**2 * mean_grad_sq
    )


def lem2_rhs(*, K, eta, sigma, m, sum_grad_sq, lam):
    """Lemma 2, eq. (13): K eta^2 sigma^2 + (2 eta^2/m^2) E||sum_i sum_k grad f_i(x_{i,k})||^2 + 2 eta^2 lam^2."""
    return K * eta**2 * sigma**2 + 2 * eta**2 / m**2 * sum_grad_sq + 2 * eta**2 * lam**2


def lem4_eta_cap(K, L):
    """Lemma 4: 0 < eta < 1/(6 K L)."""
    return 1 / (6 * K * L)


def lem4_rhs(C1, psi):
    """Lemma 4, eq. (17): C_1^t/(1 - psi)^2 with C_1^t the right-hand side of (8)."""
    return C1 / (1 - psi) ** 2


def lem5_eta_cap(K, L):
    """Lemma 5: eta <= 1/(K L)."""
    return 1 / (K * L)


def lem5_beta_sq_cap(K, psi):
    """Lemma 5: beta^2 <= min{(1 - psi)^2/(30K), 1/(60(2 + K/(1 - psi)^2))}."""
    return minimum((1 - psi) ** 2 / (30 * K), 1 / (60 * (2 + K / (1 - psi) ** 2)))


def lem5_C2(*, K, eta, psi, sigma, G, B, lam, m, sum_grad_sq, mean_grad_sq):
    """Lemma 5's C_2^t (the part of the recursion independent of Delta^t)."""
    r = K / (1 - psi) ** 2
    return (
        3 * (2 * r + 1) * eta**2 * K * sigma**2
        + 4 * (9 * r + 1) * eta**2 * K**2 * G**2
        + 2 * eta**2 / m**2 * sum_grad_sq
        + 4 * (9 * r + 1) * eta**2 * K**2 * B**2 * mean_grad_sq
        + 4 * (2 + 9 * K**2 / (1 - psi) ** 2) * lam**2 * eta**2
    )


def lem5_pre_recursion(*, K, beta, psi, eta, L, Delta, C2):
    """Proof of Lemma 5: (1 - 30 K beta^2/(1-psi)^2) Delta^{t+1}
    <= 5(1 + 24 eta^2 K^2 L^2 + 6K/(1-psi)^2) beta^2 Delta^t + 5 C_2^t.

    Returns (left factor, right-hand side): the check reads factor * Delta^{t+1} <= rhs."""
    return lem5_mu(K, beta, psi), 5 * (
        1 + 24 * eta**2 * K**2 * L**2 + 6 * K / (1 - psi) ** 2
    ) * beta**2 * Delta + 5 * C2


def lem5_rhs(*, K, beta, psi, Delta, Delta_next, C2):
    """Lemma 5: Delta^t <= (Delta^t - Delta^{t+1})/(1 - gamma) + 5 C_2^t/(mu (1 - gamma))."""
    mu, gamma = lem5_mu(K, beta, psi), lem5_gamma(K, beta, psi)
    return (Delta - Delta_next) / (1 - gamma) + 5 * C2 / (mu * (1 - gamma))


# ---- Theorem 2, Lemmas 9 and 10 ----------------------------------------------------------------------------------
def thm2_beta_cap(m, psi):
    """Theorem 2 and Lemma 9: beta <= (1 - psi)/(4 sqrt(m) + 1 - psi)."""
    return (1 - psi) / (4 * sqrt(m) + 1 - psi)


def thm2_alpha(m, beta, psi):
    """Theorem 2 and Lemma 9: alpha = 1 - 4 sqrt(m) beta/((1 - psi)(1 - beta))."""
    return 1 - 4 * sqrt(m) * beta / ((1 - psi) * (1 - beta))


def lem10_C(x):
    """Lemma 10's constant C at argument x (the paper writes C_lambda): ln(1/x) x^{ln(1/x)}/x
    + ln^2(1/x) x^{ln(1/x)/8}/(16 x) + 2/(x ln(1/x)) for x != 0, and 0 at x = 0."""
    if _symbolic(x):
        if x == 0:
            return sp.Integer(0)
        ell = sp.log(1 / x)
        return ell * x**ell / x + ell**2 / (16 * x) * x ** (ell / 8) + 2 / (x * ell)
    x = np.asarray(x, dtype=float)
    safe = np.where(x == 0, 0.5, x)  # the printed branch C = 0 at 0, without 0 * inf on the other branch
    ell = np.log(1 / safe)
    value = ell * safe**ell / safe + ell**2 / (16 * safe) * safe ** (ell / 8) + 2 / (safe * ell)
    return np.where(x == 0, 0.0, value)


def thm2_A_prime(*, L_G, S, sigma, L, beta, K, C, alpha):
    """Theorem 2's factor of (T/t_0)^{cKL}:
    2 L_G (L_G + S sigma)/((1+2beta) S L) + 2 L_G (1+beta) K (sigma+L_G) C/(alpha(1+2beta))."""
    return 2 * L_G * (L_G + S * sigma) / ((1 + 2 * beta) * S * L) + 2 * L_G * (1 + beta) * K * (sigma + L_G) * C / (
        alpha * (1 + 2 * beta)
    )


def thm2_bound(*, U, t0, S, T, c, K, L, A_prime):
    """Theorem 2: U t_0/S + A' (T/t_0)^{cKL}."""
    return U * t0 / S + A_prime * (T / t0) ** (c * K * L)


def thm2_t0(*, T, c, K, L, A_prime, S, U):
    """Theorem 2's observation point t_0 = T^{q/(1+q)} (A' S q/U)^{1/(1+q)}, q = cKL."""
    q = c * K * L
    return T ** (q / (1 + q)) * (A_prime * S * q / U) ** (1 / (1 + q))


def thm2_final_main(*, T, c, K, L, S, sigma, L_G, beta, C, alpha, U):
    """Theorem 2's final display in the main text (without the L_G factors inside the bracket)."""
    q = c * K * L
    inner = 2 * (L_G + S * sigma) / ((1 + 2 * beta) * S * L) + 2 * (1 + beta) * K * (sigma + L_G) * C / (
        alpha * (1 + 2 * beta)
    )
    return 2 * T ** (q / (1 + q)) * inner ** (1 / (1 + q)) * (U / S) ** (q / (1 + q))


def thm2_final_appendix(*, T, c, K, L, U, S, A_prime):
    """The appendix's final display: 2 T^{q/(1+q)} A'^{1/(1+q)} (U/S)^{q/(1+q)} (with the L_G factors)."""
    q = c * K * L
    return 2 * T ** (q / (1 + q)) * A_prime ** (1 / (1 + q)) * (U / S) ** (q / (1 + q))


def lem9_rhs(*, beta, alpha, K, sigma, L_G, weighted_sum):
    """Lemma 9: (1+beta)/(alpha (1-beta)) K (sigma + L_G) sum_j eta_j psi^{t-1-j} (``weighted_sum`` is the sum)."""
    return (1 + beta) / (alpha * (1 - beta)) * K * (sigma + L_G) * weighted_sum
