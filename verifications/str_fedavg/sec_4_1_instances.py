"""Instances, exact references and printed constants of the one-round lemmas and run-level bounds of StR-FedAvg
(section 4.1), shared by the claim modules :mod:`.lem_5_6_7_one_round`, :mod:`.prop_1_3_4_6_runs`,
:mod:`.prop_1_3_monte_carlo` and :mod:`.sec_3_client_drift` (no claims here).

Instances (our stand-in recipes; each is a family seeded from its name):

* ``LS(12, 20, 4)``: ``U`` 12 x 20 with i.i.d. ``N(0, 1/n)`` entries (standard normal rows divided by
  ``sqrt(n)``), 3 rows per client, ``x_true`` 5-sparse with ``N(0, 1)`` entries, ``v = U x_true`` (consistent,
  every client interpolates: ``h_i* = h* = 0``). Client losses as printed in (15): ``h_i(y) = 1/2 ||U_i y - v_i||^2``,
  ``h = (1/N) sum_i h_i``; ``L_h = max_i lambda_max(U_i'U_i)``. Outer ``f = 1/2 ||x||^2`` on every client
  (``L_f = mu_f = 1``), or the Huber envelope ``M^mu_l1`` (Sect. 5.1, ``mu = 0.05``, ``L_f = 1/mu``, ``mu_f = 0``).
* ``LS(8, 6, 4)`` (the client-drift instance of :mod:`.sec_3_client_drift`): 2 rows per client,
  ``f = 1/2 ||x||^2``, ``eta = 0.3``, ``K = 10``.

Printed constants, computed exactly for the instance: with interpolating clients and a common outer,
``G_h = G_f = 0`` (Lemma 1's ``G_Psi`` vanishes) and Lemma 2's ``G^2 = 4 L_f (f* - inf f)`` (``B_f = B_h = 1``),
``B^2 = max{4 eta L_f, 4 L_h}``, ``V_sigma = 2 eta^2 sigma_f^2 + 2 sigma_h^2``,
``Psi_1 = V_sigma/(K S) + (1 - S/N)(4/S) G^2``, ``Psi_2 = 9 (L_h + eta L_f) V_sigma/(K gamma_g^2)
+ 18 (L_h + eta L_f) G^2/gamma_g^2``, ``M = f* - inf f`` (``delta = 0``), ``theta = 1/(1 - 0.5 eta mu_f gamma~)``.

Exact references: ``x* = U^+ v`` (``f = 1/2||x||^2``), ``x_eta^* = (H + eta I)^{-1} U'v/N`` with ``H = U'U/N``,
gaps of quadratics in closed form; ``X_h^* = U^+ v + null(U)`` is 2-weak sharp with ``alpha_2 = sigma_r(U)^2/(2N)``
(the closed-form weak-sharpness constant of least squares). Every run is deterministic (``sigma = 0``: a run is its
own expectation) except the Monte Carlo claims of :mod:`.prop_1_3_monte_carlo`; expectations over client sampling
in one round are exact averages over all ``C(N, S)`` subsets.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from fedtheory.harness.claims import Context
from fedtheory.harness.family import Family, family
from fedtheory.problems.bilevel import (
    HuberL1,
    SquaredDistance,
    bilevel_optimum,
    ls_instance,
    tikhonov_gap,
    tikhonov_reference,
)

from . import printed

REGISTERS_CLAIMS = False  # shared instances and constants; the claims are in the sibling modules named above

PAPER = "str-fedavg"


# --------------------------------------------------------------------------------------------------
# Instances and printed constants
# --------------------------------------------------------------------------------------------------
HUBER_MU = 0.05


@family(f"{PAPER}/instance:LS(12,20,4)")
def v7(fam: Family):
    """``LS(12, 20, 4)`` (:func:`~fedtheory.problems.bilevel.ls_instance`, seeded from the family's name; the same in
    both profiles)."""
    return ls_instance(12, 20, 4, fam.rng())


@cache
def outer(kind: str, n: int):
    """``"sq"``: ``f = 1/2 ||x||^2``; ``"huber"``: ``M^mu_l1`` with ``mu = 0.05`` (Sect. 5.1)."""
    return SquaredDistance(np.zeros(n)) if kind == "sq" else HuberL1(HUBER_MU, dim=n)


@family(f"{PAPER}/ls-12-20-4-bilevel-reference")
def reference(fam: Family, kind: str):
    """Bilevel reference (``x*``, ``f*``, ``||grad f(x*)||``, ``M = f* - inf f``) on ``LS(12, 20, 4)``."""
    inner = v7(fam.profile).inner
    return bilevel_optimum(inner, outer(kind, inner.dim))


@family(f"{PAPER}/ls-12-20-4-tikhonov")
def tikhonov(fam: Family, kind: str, eta: float):
    """``x_eta^*`` and ``f_eta^*`` (closed form for ``"sq"``, certified Clarabel + polish for ``"huber"``)."""
    inner = v7(fam.profile).inner
    return tikhonov_reference(inner, outer(kind, inner.dim), eta)


def f_eta_gap(ctx: Context | str, kind: str, eta: float, x: np.ndarray) -> np.ndarray:
    """``f_eta(x) - f_eta^*``: closed form without cancellation for ``"sq"``, ``f_eta(x) - f_eta^*`` for Huber."""
    inner = v7(ctx).inner
    f = outer(kind, inner.dim)
    if kind == "sq":
        return tikhonov_gap(inner, f, eta, x)
    return inner.value(x) + eta * f.value(x) - float(tikhonov(ctx, kind, eta).value)


def lemma_2_G2(ctx: Context | str, kind: str) -> float:
    """Lemma 2's ``G^2 = 4 L_f B_f^2 (f* - inf f)`` (``G_f = G_h = 0``: every client interpolates and the outer is
    common, so Lemma 1's ``G_Psi`` vanishes; ``h* - inf h = 0``)."""
    inner = v7(ctx).inner
    return 4 * outer(kind, inner.dim).L * reference(ctx, kind).M


@dataclass(frozen=True)
class Printed:
    """The printed constants for one parameter cell (``G^2`` and ``B^2`` from Lemma 2)."""

    L_h: float
    L_f: float
    eta: float
    K: int
    S: int
    N: int
    gamma_g: float
    G2: float
    sigma_f2: float = 0.0
    sigma_h2: float = 0.0

    @property
    def L(self) -> float:
        """``L_h + eta L_f``."""
        return printed.smoothness(self.L_h, self.L_f, self.eta)

    @property
    def B2(self) -> float:
        """``B^2 = max{4 eta L_f, 4 L_h}`` (Lemma 2; ``B_f = B_h = 1``)."""
        return float(printed.B2(self.eta, self.L_h, self.L_f))

    @property
    def V(self) -> float:
        """``V_sigma = 2 eta^2 sigma_f^2 + 2 sigma_h^2``."""
        return printed.V_sigma(self.eta, self.sigma_f2, self.sigma_h2)

    @property
    def psi1(self) -> float:
        """``Psi_1 = V/(K S) + (1 - S/N)(4/S) G^2`` (Proposition 1)."""
        return printed.psi1(self.V, self.K, self.S, self.N, self.G2)

    @property
    def psi2(self) -> float:
        """``Psi_2 = 9 L V/(K gamma_g^2) + 18 L G^2/gamma_g^2`` (Proposition 1)."""
        return printed.psi2(self.L, self.V, self.K, self.gamma_g, self.G2)

    @property
    def gamma_l_5(self) -> float:
        """Lemma 5/7 condition: ``gamma_l <= 1/(16 K gamma_g (L_h + eta L_f)^2 (1 + B^2))`` (Lemmas 5 and 7)."""
        return printed.gamma_l_max_lem5(self.L_h, self.L_f, self.eta, self.B2, self.K, self.gamma_g)

    @property
    def gamma_l_6(self) -> float:
        """Lemma 6 condition: ``gamma_l <= 1/(27 K B^2 (L_h + eta L_f))`` (Lemma 6)."""
        return printed.gamma_l_max_lem6(self.L_h, self.L_f, self.eta, self.B2, self.K)
