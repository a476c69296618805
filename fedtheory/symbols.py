"""The standard symbols of federated-optimization rates, with their dimensions (for :mod:`fedtheory.dimensions`).

Base dimensions: ``x`` (length of an iterate) and ``F`` (objective units). Then ``[L] = [mu] = F/x^2``,
``[Q] = F/x^3`` (Lipschitz Hessian), ``[sigma] = [zeta] = [zeta_star] = [G] = F/x`` (gradient noise, heterogeneity,
gradient bound), ``[eta] = x^2/F`` (a step size), ``[B] = x`` (initial distance), ``[Delta] = F`` (initial gap);
``M``, ``K``, ``R`` (clients, local steps, rounds) are dimensionless counts. Every symbol is positive.
"""

from __future__ import annotations

import sympy as sp

L, Q, mu, B, sigma, zeta, zeta_star, G, eta, Delta, M, K, R = sp.symbols(
    "L Q mu B sigma zeta zeta_star G eta Delta M K R", positive=True
)

#: Dimensions of the objective, an iterate, a step size and a squared gradient norm.
OBJECTIVE = {"F": 1}
LENGTH = {"x": 1}
STEP = {"x": 2, "F": -1}
GRAD2 = {"F": 2, "x": -2}

#: The dimension of every symbol above (counts are dimensionless and omitted).
UNITS = {
    L: {"F": 1, "x": -2},
    Q: {"F": 1, "x": -3},
    mu: {"F": 1, "x": -2},
    B: LENGTH,
    sigma: {"F": 1, "x": -1},
    zeta: {"F": 1, "x": -1},
    zeta_star: {"F": 1, "x": -1},
    G: {"F": 1, "x": -1},
    eta: STEP,
    Delta: OBJECTIVE,
}
