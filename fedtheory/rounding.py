"""Floating-point error bounds that hold on every float64 build, for tolerances derived rather than guessed.

A tolerance must hold whatever BLAS/LAPACK kernel runs (OpenBLAS Haswell, SkylakeX, Prescott...), with or without
FMA, in any summation order or thread count. These bounds do:

- :func:`gamma`, Higham's ``gamma_k = k u/(1 - k u)`` (``u = eps/2``; *Accuracy and Stability of Numerical
  Algorithms*, 2nd ed., Lemma 3.1): ``k`` roundings in any order, so ``|fl(x'y) - x'y| <= gamma_n |x|'|y|`` for a
  dot product of length ``n`` however it is blocked or fused (Sect. 3.1, eq. (3.5)).
- :data:`LIBM_ULPS`, the accuracy of one elementary function, which numpy evaluates with different kernels per CPU.
- :func:`svd_error`, for LAPACK's backward-stable SVD and eigensolvers: the computed singular values are those of
  ``U + E`` with ``||E||_2 <= p(m, n) eps ||U||_2`` (LAPACK Users' Guide, Sect. 4.9), so by Weyl each moves by at
  most ``p eps sigma_1``; a small singular value is accurate only to ``p eps kappa`` relative, and the eigenvalues
  of the Gram ``U'U`` to ``p eps sigma_1^2`` (``p eps kappa^2`` relative).
"""

from __future__ import annotations

import numpy as np

EPS = float(np.finfo(float).eps)
UNIT_ROUNDOFF = EPS / 2
# ulp error of one elementary function (exp, log, log1p, sinh, ...): numpy's AVX-512 SVML kernels are documented at
# <= 4 ulp (numpy PR #19478), glibc's libm at <= 2; one ulp is at most eps relative
LIBM_ULPS = 4


def gamma(k: int) -> float:
    """``gamma_k = k u/(1 - k u)``: the relative error of ``k`` floating-point operations, in any order."""
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)


def svd_error(U) -> float:
    """Bound on ``|sigma_i - sigma_i(U)|`` for any backward-stable SVD of ``U``: ``p eps sigma_1`` with ``p = m n``.

    LAPACK quotes "a modestly growing function ``p(m, n)``" (and ``p = 1`` in its approximate bounds); the worst case
    of Householder bidiagonalisation is ``||E||_F <= sqrt(n) gamma_cm ||U||_F <= c m n u ||U||_2`` (Higham, Thm 19.4
    and Sect. 19.3, with ``||U||_F <= sqrt(n) ||U||_2``), so ``p = m n`` holds whatever kernel a build uses.
    """
    U = np.atleast_2d(U)
    return U.shape[0] * U.shape[1] * EPS * float(np.linalg.norm(U, 2))
