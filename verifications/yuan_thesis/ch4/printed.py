"""The step sizes that Theorems C.13 / 4.3, C.11 / 4.4 and 4.7 prescribe, as parameters of the library's composite
algorithms (:class:`fedtheory.algorithms.composite.CompositeParams`)."""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms.composite import CompositeParams

REGISTERS_CLAIMS = False  # printed step sizes; the claims are in the sibling modules


def _constants(L, B, M, K, R):
    return float(L), float(B), int(M), int(K), int(R)


def _ratio(num: float, den: float) -> float:
    return np.inf if den == 0 else float(num) / float(den)


def prescribed_thm_c13(
    eta_c: float, L: float, B: float, sigma: float, M: int, K: int, R: int, *, algorithm: str = "FedDualAvg"
) -> CompositeParams:
    """Theorem C.13 / 4.3: ``eta_s = eta/eta_c``, ``eta = min{1/(4KL), B M^(1/2)/(K^(1/2) R^(1/2) sigma)}``.

    The theorem needs ``eta_c <= eta_c^max`` (not explicit); the caller chooses ``eta_c``.
    """
    L, B, M, K, R = _constants(L, B, M, K, R)
    sigma = float(sigma)
    eta = min(1 / (4 * K * L), _ratio(B * np.sqrt(M), np.sqrt(K * R) * sigma))
    return CompositeParams(algorithm, float(eta_c), K, M, eta_s=eta / eta_c)


def prescribed_thm_c11(L: float, B: float, sigma: float, G: float, M: int, K: int, R: int) -> CompositeParams:
    """Theorem C.11 / 4.4 (FedDualAvg, ``eta_s = 1``):
    ``eta_c = min{1/(4L), M^(1/2) B/(sigma K^(1/2) R^(1/2)), B^(2/3)/(L^(1/3) K R^(1/3) G^(2/3))}``."""
    L, B, M, K, R = _constants(L, B, M, K, R)
    sigma, G = float(sigma), float(G)
    eta_c = min(
        1 / (4 * L),
        _ratio(np.sqrt(M) * B, sigma * np.sqrt(K * R)),
        _ratio(B ** (2 / 3), L ** (1 / 3) * K * R ** (1 / 3) * G ** (2 / 3)),
    )
    return CompositeParams("FedDualAvg", eta_c, K, M)


def prescribed_thm_4_7(L: float, B: float, sigma: float, zeta: float, M: int, K: int, R: int) -> CompositeParams:
    """Theorem 4.7 (FedDualAvg, ``eta_s = 1``): ``eta_c = min{1/(4L), M^(1/2) B/(sigma K^(1/2) R^(1/2)),
    B^(2/3)/(L^(1/3) K^(2/3) R^(1/3) sigma^(2/3)), B^(2/3)/(L^(1/3) K R^(1/3) zeta^(2/3))}``."""
    L, B, M, K, R = _constants(L, B, M, K, R)
    sigma, zeta = float(sigma), float(zeta)
    eta_c = min(
        1 / (4 * L),
        _ratio(np.sqrt(M) * B, sigma * np.sqrt(K * R)),
        _ratio(B ** (2 / 3), L ** (1 / 3) * K ** (2 / 3) * R ** (1 / 3) * sigma ** (2 / 3)),
        _ratio(B ** (2 / 3), L ** (1 / 3) * K * R ** (1 / 3) * zeta ** (2 / 3)),
    )
    return CompositeParams("FedDualAvg", eta_c, K, M)
