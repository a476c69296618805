"""Certified constants of federated l2-logistic regression with one-row stochastic gradients.

Rate theorems for local SGD need the smoothness ``L``, the noise's second and fourth moments ``sigma^2`` and
``sigma4``, the heterogeneity ``zeta`` and the Hessian's Lipschitz constant ``Q``. :func:`certified_constants`
bounds each from the data, for every ``x`` (derivations in its docstring), and :func:`sampled_constants` gives lower
estimates at sampled points, so the looseness of each bound is visible and a sampled value above its bound exposes
a derivation error.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from .logistic import LogisticRegression

#: ``sup_t |l'''(t)|`` of the logistic loss: ``l''' = s(1 - s)(1 - 2s)``, ``s = expit(t)``, largest at
#: ``s = 1/2 -+ 1/sqrt(12)``.
LOSS_THIRD = 1 / (6 * np.sqrt(3))


def _signed_rows(problem: LogisticRegression) -> np.ndarray:
    """``b_mi = y_mi a_mi`` of every client's data set, shape (M_data, n, d)."""
    return problem.labels[..., None] * problem.features


def _lambda_max(matrices: np.ndarray) -> np.ndarray:
    return np.linalg.eigvalsh(matrices)[..., -1]


def certified_constants(problem: LogisticRegression) -> dict:
    """Certified upper bounds, valid at every ``x``, of the constants of rate theorems for local SGD with one-row
    stochastic gradients: smoothness, noise (second and fourth moments), heterogeneity and Hessian Lipschitzness.

    With ``b_i = y_i a_i``, ``z_i = b_i'x`` and ``p_i = expit(-z_i) in (0, 1)``, a row's gradient is
    ``-p_i b_i + l2 x`` and ``grad F_m(x) = -(1/n) B_m'p + l2 x``. The l2 term is common to every row and every
    client, so it cancels from the noise and from the heterogeneity. For one client, ``G = (1/n) B'p`` obeys
    ``||G|| <= ||B||_op ||p|| / n <= sqrt(lambda_max(A'A/n))`` and ``||G|| <= mean_i ||a_i||``.

    * ``L = max_m lambda_max(A_m'A_m)/(4n) + l2`` (``l'' <= 1/4``): :attr:`LogisticRegression.L`.
    * ``sigma2 = max_m mean_i ||a_mi||^2``: the variance of ``p_i b_i`` is at most its second moment, ``p_i <= 1``.
    * ``sigma4 = max_m (mean_i (||a_mi|| + G_m)^4)^(1/4)``, ``G_m = min(sqrt(lambda_max(A_m'A_m/n)),
      mean_i ||a_mi||)``: ``||p_i b_i - G|| <= ||a_i|| + ||G||``.
    * ``zeta``: ``grad F_m - grad F = D_m p`` is linear in the vector ``p in [0, 1]^(Mn)`` of all clients' rows,
      with columns ``d_j = -(1 - 1/M) b_j / n`` for client ``m``'s rows and ``b_j / (Mn)`` for the others. Over
      the whole box, ``||D_m p|| <= ||D_m 1/2|| + (1/2) min(sum_j ||d_j||, sqrt(Mn) ||D_m||_op)``.
    * ``Q = LOSS_THIRD max_m sqrt(lambda_max(A_m'A_m/n)) sqrt(lambda_max((1/n) sum_i ||a_mi||^2 a_mi a_mi'))``:
      ``grad^2 F_m(x) - grad^2 F_m(x') = (1/n) sum_i (l''(z_i) - l''(z_i')) a_i a_i'`` with
      ``|l''(z_i) - l''(z_i')| <= LOSS_THIRD |a_i'h|``, ``h = x - x'``; for unit ``v``, Cauchy-Schwarz gives
      ``(1/n) sum_i |a_i'h| (a_i'v)^2 <= sqrt((1/n) sum (a_i'h)^2) sqrt((1/n) sum ||a_i||^2 (a_i'v)^2)``.

    Returns
    -------
    dict
        ``L``, ``sigma2``, ``sigma4``, ``zeta``, ``Q`` and, under ``how``, how each was obtained.
    """
    A, b = problem.features, _signed_rows(problem)
    Md, n, d = A.shape
    norms = np.linalg.norm(A, axis=-1)
    gram = _lambda_max(np.einsum("mni,mnj->mij", A, A) / n)  # lambda_max(A_m'A_m/n)
    G = np.minimum(np.sqrt(gram), norms.mean(axis=1))
    sigma4 = float(np.max(np.mean((norms + G[:, None]) ** 4, axis=1)) ** 0.25)
    weighted = _lambda_max(np.einsum("mn,mni,mnj->mij", norms**2, A, A) / n)
    Q = float(LOSS_THIRD * np.max(np.sqrt(gram * weighted)))
    if problem.n_clients is None:
        zeta, zeta_how = 0.0, "0: every client samples the same rows (Assumption 2.2)"
    else:
        N = Md * n
        own = np.einsum("mk,knd->mdkn", np.eye(Md), b).reshape(Md, d, N) / n
        Dm = b.reshape(N, d).T[None] / N - own  # (M, d, Mn): columns d_j
        centre = np.linalg.norm(Dm.sum(axis=2) / 2, axis=1)
        spread = np.minimum(np.linalg.norm(Dm, axis=1).sum(axis=1), np.sqrt(N) * np.linalg.norm(Dm, ord=2, axis=(1, 2)))
        zeta = float(np.max(centre + spread / 2))
        zeta_how = "max_m sup over p in [0,1]^(Mn) of ||D_m p|| <= ||D_m 1/2|| + min(sum_j ||d_j||, sqrt(Mn)||D_m||)/2"
    return {
        "L": problem.L,
        "sigma2": float(np.max(np.mean(norms**2, axis=1))),
        "sigma4": sigma4,
        "zeta": zeta,
        "Q": Q,
        "how": {
            "L": "max_m lambda_max(A_m'A_m)/(4n) + l2 (l'' <= 1/4)",
            "sigma^2": "max_m mean_i ||a_mi||^2 (one row per step; variance <= second moment, |l'| <= 1)",
            "sigma (4th moment)": "max_m (mean_i (||a_mi|| + G_m)^4)^(1/4), G_m = min(sqrt(lambda_max(A_m'A_m/n)), "
            "mean ||a_mi||) >= ||grad of the data term||",
            "zeta": zeta_how,
            "Q": "sup|l'''| = 1/(6 sqrt 3) times max_m sqrt(lambda_max(A_m'A_m/n) lambda_max((1/n) sum ||a||^2 a a'))",
        },
    }


def sampled_constants(problem: LogisticRegression, x_star: np.ndarray, rng: np.random.Generator) -> dict:
    """Lower estimates of the constants of :func:`certified_constants`: their suprema over sampled points and
    directions.

    Points ``x* + scale g``, ``g`` standard normal, ``scale in {0.1, 1, 10, 100}`` (the large scales approach the
    corners of the box ``p in [0, 1]^n`` that the certified bounds relax to).
    """
    x = x_star + np.concatenate([scale * rng.standard_normal((256, problem.dim)) for scale in (0.1, 1.0, 10.0, 100.0)])
    A, b = problem.features, _signed_rows(problem)
    z = np.einsum("mnd,pd->pmn", b, x)
    rows = -expit(-z)[..., None] * b  # (P, M, n, d): row gradients of the data term
    data_grad = rows.mean(axis=2)
    noise = np.sum((rows - data_grad[:, :, None]) ** 2, axis=-1)  # (P, M, n)
    s = expit(z)
    third = s * (1 - s) * (1 - 2 * s)  # l'''(z)
    h = rng.standard_normal((x.shape[0], problem.dim))
    h /= np.linalg.norm(h, axis=1, keepdims=True)
    # d/dt grad^2 F_m(x + t h) = (1/n) sum_i l'''(z_i) (b_i'h) a_i a_i'
    deriv = np.einsum("pmn,pmn,mni,mnj->pmij", third, np.einsum("mnd,pd->pmn", b, h), A, A) / A.shape[1]
    hessian = np.einsum("pmn,mni,mnj->pmij", s * (1 - s), A, A) / A.shape[1]  # data term; l'' = s(1 - s)
    return {
        "L": float(np.max(_lambda_max(hessian)) + problem.l2),
        "sigma2": float(np.max(noise.mean(axis=2))),
        "sigma4": float(np.max(np.mean(noise**2, axis=2)) ** 0.25),
        "zeta": float(np.max(np.linalg.norm(data_grad - data_grad.mean(axis=1, keepdims=True), axis=-1))),
        "Q": float(np.max(np.abs(np.linalg.eigvalsh(deriv)))),
    }
