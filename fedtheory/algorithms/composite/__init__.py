"""Federated composite optimization (thesis chapter 4): mirror maps, sequential and federated methods, fixed points.

* :mod:`.mirror` -- ``grad (h + t psi)^*`` for Euclidean ``h`` with every regularizer, the p-norm ``h`` with l1 and
  the entropy on the simplex; Bregman and generalized Bregman divergences (Definitions C.8, C.9).
* :mod:`.sequential` -- proximal gradient (4.3), mirror descent (4.4), regularized dual averaging (4.6).
* :mod:`.federated` -- FedMiD (Algorithm 5), FedDualAvg (Algorithm 6), FedMiD-OSP (Algorithm 7), FedDualAvg-OSP
  (Algorithm 8), FedAvg(subgradient) (Fig. 4.1); ``init``/``round``/``run`` over ``(S, M, d)`` arrays, the output
  (4.9).
* :mod:`.fixed_points` -- deterministic fixed points on quadratics.
* :mod:`.decoupled` -- federated proximal gradient with a decoupled prox and drift correction (pre-/post-prox local
  models, one d-vector each way per round), its fixed-weight and coupled ablations; :mod:`.decoupled_compact` the
  same method from its stacked recursion; :mod:`.potentials` its gradient mapping, drift and Lyapunov functions.

Algorithm 4 (FedAvg with client and server step sizes) is :func:`fedtheory.algorithms.fedavg.run`.
"""

from . import decoupled, decoupled_compact, potentials
from .federated import (
    ALGORITHMS,
    DUAL_ALGORITHMS,
    CompositeParams,
    CompositeState,
    CompositeTrajectory,
    RoundTrace,
    eta_tilde,
    init,
    round,
    run,
    shadow_primals,
)
from .fixed_points import (
    AffineFixedPoint,
    affine_fixed_point,
    fedavg_fixed_point,
    feddualavg_consistent_dual,
    fedmid_osp_fixed_point,
    fedmid_osp_surrogate,
)
from .mirror import Entropy, Euclidean, MirrorMap, PNorm
from .sequential import dual_averaging, mirror_descent, proximal_gradient

__all__ = [
    "ALGORITHMS",
    "DUAL_ALGORITHMS",
    "AffineFixedPoint",
    "CompositeParams",
    "CompositeState",
    "CompositeTrajectory",
    "Entropy",
    "Euclidean",
    "MirrorMap",
    "PNorm",
    "RoundTrace",
    "affine_fixed_point",
    "decoupled",
    "decoupled_compact",
    "dual_averaging",
    "eta_tilde",
    "fedavg_fixed_point",
    "feddualavg_consistent_dual",
    "fedmid_osp_fixed_point",
    "fedmid_osp_surrogate",
    "init",
    "mirror_descent",
    "potentials",
    "proximal_gradient",
    "round",
    "run",
    "shadow_primals",
]
