"""Stochastic gradient oracles ``x -> grad f(x; xi)`` with an explicit random generator.

An oracle is called on client points of shape ``(S, M, d)`` (replicas, clients, coordinates) and
returns one stochastic gradient per row, independent across replicas, clients and calls, drawing all
of them with one numpy call. Additive oracles realise ``f(x; xi) = F_m(x) + <xi, x>``, the noise
model of every iterate-bias instance of the thesis (section 2.2), and expose the noise covariance
``cov`` that the exact moment engine uses.
"""

from __future__ import annotations

import numpy as np

from ._validate import finite_array, generator, positive, positive_int, psd_matrices
from .errors import InvalidParameterError
from .problems.base import Problem


class Oracle:
    """Base class; ``oracle(x, rng)`` returns stochastic gradients at client points ``x``."""

    problem: Problem

    def __call__(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


def check_oracle(oracle, name: str = "oracle") -> Oracle:
    """Return ``oracle`` after checking it follows the oracle protocol: an :class:`Oracle`, or any callable
    ``oracle(x, rng)`` with a ``problem`` attribute; a bare problem gets a hint to wrap it."""
    if isinstance(oracle, Oracle) or (callable(oracle) and isinstance(getattr(oracle, "problem", None), Problem)):
        return oracle
    if isinstance(oracle, Problem):
        raise InvalidParameterError(
            name,
            "an oracle from fedtheory.oracles wrapping the problem, e.g. ExactGradient(problem) or "
            "AdditiveGaussian(problem, sigma)",
            type(oracle).__name__,
        )
    raise InvalidParameterError(
        name, "an oracle from fedtheory.oracles (ExactGradient, AdditiveGaussian, Rademacher, Minibatch)", oracle
    )


def _check_problem(problem) -> Problem:
    if not isinstance(problem, Problem):
        raise InvalidParameterError("problem", "a problem from fedtheory.problems", type(problem).__name__)
    return problem


class ExactGradient(Oracle):
    """No noise: ``grad F_m(x)``."""

    def __init__(self, problem: Problem):
        self.problem = _check_problem(problem)

    def __call__(self, x, rng=None) -> np.ndarray:
        return self.problem.client_grad(x)


class _Additive(Oracle):
    """``grad F_m(x) + xi`` with zero-mean ``xi`` of covariance ``cov``."""

    cov: np.ndarray

    def noise(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def __call__(self, x, rng: np.random.Generator) -> np.ndarray:
        rng = generator("rng", rng)
        g = self.problem.client_grad(x)
        return g + self.noise(g.shape, rng)

    @property
    def sigma(self) -> float:
        """``sqrt(E ||xi||^2)``: the sigma of Assumption 2.1(c), attained with equality."""
        return float(np.sqrt(np.trace(self.cov)))


class AdditiveGaussian(_Additive):
    """Gaussian gradient noise ``xi ~ N(0, cov)``.

    Parameters
    ----------
    problem : Problem
    sigma : float, optional
        Isotropic noise with ``E ||xi||^2 = sigma^2``, i.e. ``cov = (sigma^2 / d) I``.
    cov : array (d, d), optional
        A full covariance instead of ``sigma``.
    """

    def __init__(self, problem: Problem, sigma: float | None = None, *, cov=None):
        self.problem = _check_problem(problem)
        d = problem.dim
        if (sigma is None) == (cov is None):
            raise InvalidParameterError("sigma", "exactly one of sigma or cov", (sigma, cov))
        if cov is None:
            self.cov = positive("sigma", sigma, allow_zero=True) ** 2 / d * np.eye(d)
        else:
            self.cov = psd_matrices("cov", cov)
            if self.cov.shape != (d, d):
                raise InvalidParameterError("cov", f"a ({d}, {d}) matrix", f"shape {self.cov.shape}")
        w, V = np.linalg.eigh(self.cov)
        self._factor = V * np.sqrt(np.clip(w, 0.0, None))  # cov = factor @ factor.T
        diag = np.diag(self.cov)
        self._diagonal = np.sqrt(diag) if np.array_equal(self.cov, np.diag(diag)) else None
        if self._diagonal is not None and np.all(self._diagonal == self._diagonal[0]):
            self._diagonal = float(self._diagonal[0])  # isotropic: one scalar, an in-place product

    def noise(self, shape, rng) -> np.ndarray:
        z = rng.standard_normal(shape)
        if self._diagonal is not None:  # independent coordinates: an in-place product, no matmul
            z *= self._diagonal
            return z
        return (z.reshape(-1, shape[-1]) @ self._factor.T).reshape(shape)


class Rademacher(_Additive):
    """Each coordinate of ``xi`` is ``+-sigma/sqrt(d)`` with probability 1/2 (``E ||xi||^2 = sigma^2``).

    In one dimension this is the +-sigma noise that :mod:`fedtheory.exact.rational` enumerates.
    """

    def __init__(self, problem: Problem, sigma: float):
        self.problem = _check_problem(problem)
        self.scale = positive("sigma", sigma, allow_zero=True) / np.sqrt(problem.dim)
        self.cov = self.scale**2 * np.eye(problem.dim)

    def noise(self, shape, rng) -> np.ndarray:
        return self.scale * (2.0 * rng.integers(0, 2, size=shape) - 1.0)


class Minibatch(Oracle):
    """Mean gradient over ``batch_size`` samples drawn uniformly with replacement from the client's data.

    The problem must be a finite sum exposing ``n_samples`` and ``sample_grad(x, idx)``
    (:class:`~fedtheory.problems.LogisticRegression`, :class:`~fedtheory.problems.LeastSquares`).
    """

    def __init__(self, problem: Problem, batch_size: int):
        if not isinstance(problem, Problem) or not hasattr(problem, "sample_grad"):
            raise InvalidParameterError(
                "problem",
                "a finite-sum problem with sample_grad (LogisticRegression, LeastSquares)",
                type(problem).__name__,
            )
        self.problem = problem
        self.batch_size = positive_int("batch_size", batch_size)

    def __call__(self, x, rng) -> np.ndarray:
        rng = generator("rng", rng)
        x = self.problem.check_client_points(x)
        idx = rng.integers(0, self.problem.n_samples, size=(*x.shape[:-1], self.batch_size))
        return self.problem.sample_grad(x, idx)


def check_replicated(name: str, x0, dim: int, S: int) -> np.ndarray:
    """Broadcast a start point (d,) or (S, d) to shape (S, d)."""
    x0 = finite_array(name, x0, ndim=(1, 2))
    if x0.shape[-1] != dim or (x0.ndim == 2 and x0.shape[0] != S):
        raise InvalidParameterError(name, f"shape ({dim},) or ({S}, {dim})", f"shape {x0.shape}")
    return np.broadcast_to(x0, (S, dim)).copy()
