"""Federated quadratics batched over instances, with every minimiser, infimum and gap in closed form.

Arrays carry an instance axis ``B`` first, so a whole family of random instances of one shape ``(N, n)`` (``N``
clients in dimension ``n``) is evaluated in one numpy operation, never a loop over instances. Client Hessians may be
singular: minimisers of averages are minimum-norm, by a pseudo-inverse that drops eigenvalues below ``1e-10
lambda_max``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


def matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``A v`` over the last axes, broadcasting the leading ones."""
    return np.einsum("...ij,...j->...i", A, v)


def quadratic_form(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``v'A v`` over the last axes, broadcasting the leading ones."""
    return np.einsum("...i,...ij,...j->...", v, A, v)


def squared_norm(v: np.ndarray) -> np.ndarray:
    """``||v||^2`` over the last axis."""
    return np.einsum("...i,...i->...", v, v)


def psd_pinv(A: np.ndarray, ref: np.ndarray | None = None) -> np.ndarray:
    """Moore-Penrose pseudo-inverse of symmetric PSD matrices ``(..., n, n)``.

    Eigenvalues ``<= 1e-10 ref`` count as zero (``ref``: ``lambda_max(A)`` unless given, shape ``(...)``).
    """
    w, V = np.linalg.eigh(A)
    ref = w[..., -1] if ref is None else ref
    keep = w > 1e-10 * ref[..., None]
    inv = np.where(keep, 1.0 / np.where(keep, w, 1.0), 0.0)
    return (V * inv[..., None, :]) @ np.swapaxes(V, -1, -2)


@dataclass
class QuadraticClients:
    """``psi_i(x) = 1/2 (x - c_i)'A_i(x - c_i) + const``: ``A`` (B, N, n, n) PSD, ``c`` (B, N, n) a minimiser of
    each client (``x_i^*``), over ``B`` instances of ``N`` clients in dimension ``n``. Constants never enter: every
    quantity is a gap or a gradient."""

    A: np.ndarray
    c: np.ndarray

    @classmethod
    def from_linear(cls, A: np.ndarray, b: np.ndarray) -> QuadraticClients:
        """Clients ``1/2 x'A_i x - b_i'x`` with ``b_i`` in ``range(A_i)``; minimiser ``A_i^+ b_i``."""
        return cls(A, matvec(psd_pinv(A), b))

    @property
    def N(self) -> int:
        return self.A.shape[1]

    @cached_property
    def L(self) -> np.ndarray:
        """``max_i lambda_max(A_i)`` (B,): the clients' common smoothness constant."""
        return np.linalg.eigvalsh(self.A)[..., -1].max(axis=1)

    @cached_property
    def Abar(self) -> np.ndarray:
        return self.A.mean(axis=1)

    @cached_property
    def bbar(self) -> np.ndarray:
        """``(1/N) sum_i A_i c_i``: ``grad psi(x) = Abar x - bbar``."""
        return matvec(self.A, self.c).mean(axis=1)

    @cached_property
    def xbar(self) -> np.ndarray:
        """Minimum-norm minimiser of ``psi = (1/N) sum_i psi_i`` (B, n)."""
        return matvec(psd_pinv(self.Abar), self.bbar)

    @cached_property
    def D(self) -> np.ndarray:
        """``inf psi - (1/N) sum_i psi_i(x_i^*) = (1/N) sum_i 1/2 (xbar - c_i)'A_i(xbar - c_i) >= 0`` (B,)."""
        return 0.5 * quadratic_form(self.A, self.xbar[:, None] - self.c).mean(axis=1)

    def grads(self, x: np.ndarray) -> np.ndarray:
        """``grad psi_i(x) = A_i (x - c_i)`` for points ``x`` (B, P, n): (B, P, N, n)."""
        return matvec(self.A[:, None], x[:, :, None] - self.c[:, None])

    def client_gaps(self, x: np.ndarray) -> np.ndarray:
        """``psi_i(x) - psi_i(x_i^*)`` (B, P, N)."""
        return 0.5 * quadratic_form(self.A[:, None], x[:, :, None] - self.c[:, None])

    def gap(self, x: np.ndarray) -> np.ndarray:
        """``psi(x) - inf psi`` (B, P)."""
        return 0.5 * quadratic_form(self.Abar[:, None], x - self.xbar[:, None])


@dataclass
class RegularizedClients:
    """``f_eta = h + eta f`` for client families ``h``, ``f`` (Tikhonov regularization), with its exact minimiser
    ``x_eta^*``."""

    h: QuadraticClients
    f: QuadraticClients
    eta: float

    @cached_property
    def Q(self) -> np.ndarray:
        return self.h.Abar + self.eta * self.f.Abar

    @cached_property
    def x_eta(self) -> np.ndarray:
        """``x_eta^* = (Hbar + eta Fbar)^+ (bbar_h + eta bbar_f)`` (B, n)."""
        return matvec(psd_pinv(self.Q), self.h.bbar + self.eta * self.f.bbar)

    @cached_property
    def clients(self) -> QuadraticClients:
        """The clients ``f_{eta,i} = h_i + eta f_i``."""
        return QuadraticClients.from_linear(
            self.h.A + self.eta * self.f.A, matvec(self.h.A, self.h.c) + self.eta * matvec(self.f.A, self.f.c)
        )

    def gap(self, x: np.ndarray) -> np.ndarray:
        """``f_eta(x) - f_eta^*`` (B, P)."""
        return 0.5 * quadratic_form(self.Q[:, None], x - self.x_eta[:, None])
