"""The printed constants, step conditions and horizon thresholds of StR-FedAvg, each written once (no claims).

Every function is plain numpy arithmetic, so it broadcasts over arrays of its arguments (and returns a Python float for
float inputs except where ``np.maximum`` / ``np.log`` are used). ``B_f = B_h = 1`` (Lemma 1) throughout, so Lemma 2's
``B^2 = max{4 eta L_f, 4 L_h}``; with ``L_f = 1`` it is also Lemma 3's ``B_ncvx^2 = max{4 eta, 4 L_h}`` (``B_g = 1``).

Shorthand (ours, not paper notation): ``L = L_h + eta L_f``, ``V_sigma = 2 eta^2 sigma_f^2 + 2 sigma_h^2``,
``Psi_1 = V_sigma/(K S) + (1 - S/N)(4/S) G^2``, ``Psi_2 = W/gamma_g^2`` with ``W = 9 L V_sigma/K + 18 L G^2``; with
``eta`` replaced by ``eta_hat``, ``Y/S = Psi_1`` and ``W/gamma_g^2 = Psi_2``. ``theta`` and the output weights are
:func:`fedtheory.algorithms.bilevel.theta` / :func:`~fedtheory.algorithms.bilevel.weights`.

Functions named ``log_*`` are the same printed formula evaluated in log space (used on sweeps over many decades of
the constants and horizons).
"""

from __future__ import annotations

import math

import numpy as np

REGISTERS_CLAIMS = False  # shared printed constants; the claims are in the sibling modules


# --- constants (Lemma 2, Theorem 1, Proposition 1) --------------------------------------------------------------------
def B2(eta, L_h, L_f=1.0):
    """Lemma 2's ``B^2 = max{4 eta L_f B_f^2, 4 L_h B_h^2}`` with ``B_f = B_h = 1``.

    Parameters
    ----------
    eta, L_h, L_f : float or array_like
        Regularization weight and the smoothness constants of ``h`` and ``f`` (broadcast together).
    """
    return np.maximum(4 * eta * L_f, 4 * L_h)


def smoothness(L_h, L_f, eta):
    """``L_h + eta L_f``, the smoothness constant of the regularized client losses ``h_i + eta f_i`` (Lemmas 5-7)."""
    return L_h + eta * L_f


def V_sigma(eta, sigma_f2=0.0, sigma_h2=0.0):
    """``V_sigma = 2 eta^2 sigma_f^2 + 2 sigma_h^2`` (the noise term of Lemma 5, and of ``Psi_1``, ``Psi_2``
    in Proposition 1; ``W`` and ``Y`` of Theorem 1, at ``eta = eta_hat``)."""
    return 2 * eta**2 * sigma_f2 + 2 * sigma_h2


def psi1(V, K, S, N, G2):
    """``Psi_1 = V_sigma/(K S) + (1 - S/N)(4/S) G^2`` (Proposition 1; ``= Y/S`` of Theorem 1 at ``eta_hat``).

    Parameters
    ----------
    V : float or array_like
        :func:`V_sigma`.
    K, S, N : int
        Local steps, clients per round and clients.
    G2 : float
        Lemma 2's ``G^2``.
    """
    return V / (K * S) + (1 - S / N) * 4 * G2 / S


def Y(V, K, S, N, G2):
    """Theorem 1's ``Y = V_sigma/K + 4 (1 - S/N) G^2`` (also in Theorem 2), ``V_sigma`` at ``eta_hat``."""
    return V / K + 4 * (1 - S / N) * G2


def W(L, V, K, G2):
    """Theorem 1's ``W = 9 (L_h + eta_hat L_f) V_sigma/K + 18 (L_h + eta_hat L_f) G^2`` (also in Theorem 2).

    Parameters
    ----------
    L : float or array_like
        :func:`smoothness` (at ``eta_hat`` for Theorems 1-2; at ``eta`` for ``Psi_2``).
    V : float or array_like
        :func:`V_sigma` at the same ``eta``.
    """
    return 9 * L * V / K + 18 * L * G2


def psi2(L, V, K, gamma_g, G2):
    """``Psi_2 = 9 (L_h + eta L_f) V_sigma/(K gamma_g^2) + 18 (L_h + eta L_f) G^2/gamma_g^2`` (Proposition 1):
    :func:`W` at ``eta`` divided by ``gamma_g^2``."""
    return W(L, V, K, G2) / gamma_g**2


def eta_hat_sc(p, b, mu_f=1.0):
    """Theorem 1's ``eta_hat = p/(e b mu_f^b)``, the maximum over ``R`` of ``p ln R/(mu_f^b R^b)``."""
    return p / (math.e * b * mu_f**b)


def eta_sc(log_R, p, b, mu_f):
    """The strongly convex regularization weight ``eta(R) = p ln R/(mu_f^b R^b)`` (Algorithm 1), evaluated
    from ``log_R = ln R`` (so horizons beyond ``2^53`` keep their value; :func:`fedtheory.algorithms.bilevel.
    schedule_strongly_convex` gives the same schedule for one integer ``R``)."""
    return p * log_R * np.exp(-b * (np.log(mu_f) + log_R))


def sum_theta(theta, R):
    """``sum_{r=1}^R theta^r = theta (theta^R - 1)/(theta - 1)`` (``R`` when ``theta = 1``), the denominator of
    ``Err_eta`` in Proposition 1; computed with ``expm1`` (``theta`` a float, ``R`` an integer)."""
    return R if theta == 1 else theta * np.expm1(R * np.log(theta)) / (theta - 1)


# --- step conditions (Lemmas 5-7, Propositions 1, 3, 4, 6, 7; Theorems 1-2) -------------------------------------------
def gamma_l_max_lem5(L_h, L_f, eta, B2, K, gamma_g):
    """``1/(16 K gamma_g (L_h + eta L_f)^2 (1 + B^2))``, the largest ``gamma_l`` of Lemmas 5 and 7,
    Propositions 1, 3, 4, 6, Theorems 1-2 (``eta = eta_hat``) and Proposition 7
    (``L_f = 1``)."""
    return 1 / (16 * K * gamma_g * smoothness(L_h, L_f, eta) ** 2 * (1 + B2))


def log_gamma_tilde_max_lem5(L_h, L_f, eta, B2):
    """``ln`` of the largest ``gamma~ = gamma_l gamma_g K`` allowed by :func:`gamma_l_max_lem5`:
    ``-ln(16 (L_h + eta L_f)^2 (1 + B^2))``."""
    return -(math.log(16.0) + 2 * np.log(smoothness(L_h, L_f, eta)) + np.log1p(B2))


def gamma_l_max_lem6(L_h, L_f, eta, B2, K):
    """``1/(27 K B^2 (L_h + eta L_f))``, the largest ``gamma_l`` of Lemma 6 and Propositions 1 and 4."""
    return 1 / (27 * K * B2 * smoothness(L_h, L_f, eta))


def log_gamma_tilde_max_lem6(L_h, L_f, eta, B2, gamma_g):
    """``ln`` of the largest ``gamma~`` allowed by :func:`gamma_l_max_lem6`:
    ``ln(gamma_g/(27 B^2 (L_h + eta L_f)))``."""
    return np.log(gamma_g) - np.log(27 * B2 * smoothness(L_h, L_f, eta))


# --- horizons (Proposition 3, Theorems 1-2) ---------------------------------------------------------------------------
def prop3_horizon(L_h, L_f, eta, B2, mu_f=1.0):
    """Proposition 3's ``R >= 16 (L_h + eta L_f)^2 (1 + B^2)/mu_f`` (Proposition 7's ``R_t >= 16 (L_h +
    eta_hat)^2 (1 + B_ncvx^2)`` at ``L_f = mu_f = 1``)."""
    return 16 * smoothness(L_h, L_f, eta) ** 2 * (1 + B2) / mu_f


def thm1_horizon(L_h, L_f, mu_f, p, a, b, B2):
    """Theorem 1 Case i's ``R >= max{(64 (1 + B^2) L_h^2)^{1/a}/mu_f, (32 sqrt(1 + B^2) p L_f/(e (a + 2b)
    mu_f^{(a+2b)/2}))^{4/(a+2b)}}``."""
    s = a + 2 * b
    return np.maximum(
        (64 * (1 + B2) * L_h**2) ** (1 / a) / mu_f,
        (32 * np.sqrt(1 + B2) * p * L_f / (math.e * s * mu_f ** (s / 2))) ** (4 / s),
    )


def log_thm1_horizon(L_h, L_f, mu_f, p, a, b, B2):
    """``ln`` of :func:`thm1_horizon`, evaluated in log space."""
    s = a + 2 * b
    first = np.log(64 * (1 + B2) * L_h**2) / a - np.log(mu_f)
    second = (4 / s) * (
        math.log(32.0) + 0.5 * np.log1p(B2) + np.log(p) + np.log(L_f) - 1 - np.log(s) - s / 2 * np.log(mu_f)
    )
    return np.maximum(first, second)


def thm2_horizon(L_h, L_f, a, b, B2):
    """Theorem 2 Case i's ``R >= max{(64 (1 + B^2) L_h^2)^{1/a}, (64 (1 + B^2) L_f^2)^{1/(a+2b)}}``."""
    return np.maximum((64 * (1 + B2) * L_h**2) ** (1 / a), (64 * (1 + B2) * L_f**2) ** (1 / (a + 2 * b)))


def log_thm2_horizon(L_h, L_f, a, b, B2):
    """``ln`` of :func:`thm2_horizon`, evaluated in log space."""
    return np.maximum(np.log(64 * (1 + B2) * L_h**2) / a, np.log(64 * (1 + B2) * L_f**2) / (a + 2 * b))
