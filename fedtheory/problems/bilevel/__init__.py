"""Simple bilevel instances of the StR-FedAvg paper and their exact references.

Problem (1) minimises an outer loss
``f`` over ``X*_h = argmin h`` for a federated inner loss ``h = (1/N) sum_i h_i`` (Assumption 1). This
package holds the exact engines, the outer smoothings of Sect. 5
and the instance library.

Inner losses

- :class:`InnerLeastSquares` -- ``h(y) = (1/N) sum_i 1/2 ||U_i y - v_i||^2``, the inner level of problems (15)-(16),
with the exact solution set ``U^+ v + null(U)``, ``h*``, the inner gap and the weak-sharpness
  constants; :class:`RowSampling` is its one-row stochastic gradient.
- :class:`ResidualNorm` -- ``h(x) = ||U x - v||_p`` (``p = 2`` or ``1``, consistent ``v``), weak sharp of order
  ``kappa = 1``; it is not differentiable on ``X*_h`` (Assumption 1 fails: ``smooth = False``).

Outer functions (each a :class:`~fedtheory.problems.Problem` with ``n_clients = None``)

- :class:`SquaredDistance` ``(mu/2) ||x - x0||^2``; :class:`L1Norm` ``||x||_1`` (problem (15));
  :class:`HuberL1` ``M^mu_l1 = sum_i H_mu(x_i)`` (Sect. 5.1); :class:`LogSumPenalty` (Sect. 5.2)
  with the prox printed; :class:`LSPEnvelope` ``M^mu_LSP``. A federated quadratic outer with
  heterogeneous ``f_i`` is a :class:`~fedtheory.problems.FederatedQuadratic`.

References (never the slack set ``{h <= h* + delta}``)

- :func:`bilevel_optimum` -- ``x* = argmin_{X*_h} f`` with ``X*_h = x_p + Z z`` parametrised exactly:
  reduced normal equations for quadratic outers, Clarabel (CVXPY) with a numpy duality-gap certificate for the Huber
  and ``l1`` outers (basis pursuit, with its dual certificate ``g in d||x*||_1 cap row(U)``).
- :func:`tikhonov_reference` / :func:`tikhonov_point` / :func:`tikhonov_value` / :func:`tikhonov_gap` -- the
  Tikhonov point ``x_eta* = argmin h + eta f`` and ``f_eta*``; :func:`tikhonov_path` -- the
  eigen closed forms; :func:`exact_regularization_threshold` and :func:`residual_norm_tikhonov` -- the
  exact-regularization threshold ``eta_crit`` and a certified SOCP solve.

Instances: :func:`ls_instance`, :func:`drift_instance`,
:func:`residual_norm_instance`, :func:`heterogeneous_regression`.
"""

from .inner import (
    InnerLeastSquares,
    ResidualNorm,
    RowSampling,
)
from .instances import (
    DriftInstance,
    RegressionInstance,
    ResidualNormInstance,
    drift_instance,
    heterogeneous_regression,
    ls_instance,
    residual_norm_instance,
)
from .outer import (
    HuberL1,
    L1Norm,
    LogSumPenalty,
    LSPEnvelope,
    SquaredDistance,
)
from .references import (
    BilevelReference,
    TikhonovPath,
    TikhonovReference,
    bilevel_optimum,
    exact_regularization_threshold,
    residual_norm_tikhonov,
    tikhonov_gap,
    tikhonov_path,
    tikhonov_point,
    tikhonov_reference,
    tikhonov_value,
)

__all__ = [
    "BilevelReference",
    "DriftInstance",
    "HuberL1",
    "InnerLeastSquares",
    "L1Norm",
    "LSPEnvelope",
    "LogSumPenalty",
    "RegressionInstance",
    "ResidualNorm",
    "ResidualNormInstance",
    "RowSampling",
    "SquaredDistance",
    "TikhonovPath",
    "TikhonovReference",
    "bilevel_optimum",
    "drift_instance",
    "exact_regularization_threshold",
    "heterogeneous_regression",
    "ls_instance",
    "residual_norm_instance",
    "residual_norm_tikhonov",
    "tikhonov_gap",
    "tikhonov_path",
    "tikhonov_point",
    "tikhonov_reference",
    "tikhonov_value",
]
