"""Stochastic gradient oracles ``x -> grad f(x; xi)`` with an explicit random generator.

An oracle is called on client points of shape ``(S, M, d)`` (replicas, clients, coordinates) and
returns one stochastic gradient per row, independent across replicas, clients and calls, drawing all
of them with one numpy call. Additive oracles realise ``f(x; xi) = F_m(x) + <xi, x>``, the noise
model of every iterate-bias instance of the thesis (section 2.2), and expose the noise covariance
``cov`` that the exact moment engine uses.

``ExactGradient``, the additive oracles and ``Minibatch`` also evaluate a listed subset of the clients:
``oracle.on_clients(clients, n_clients)`` (client indices ``(S, P)``) is the oracle ``(x, rng) -> gradients`` at
those clients' points ``(S, P, d)`` whose value is the listed rows of a call at all ``n_clients`` clients' points:
it draws exactly what that call draws (same shapes, same generator state after) and evaluates only the listed
clients where the problem can (``oracle.client_subsets``: its ``client_grad``/``sample_grad`` takes ``clients=``, or
its clients are identical). Partially participating algorithms use it to compute the sampled clients only.
"""

from __future__ import annotations

import numpy as np

from ._validate import finite_array, generator, integer_array, positive, positive_int, psd_matrices
from .errors import InvalidParameterError
from .problems.base import Oracle, Problem, takes_clients  # Oracle lives there: problems define oracles too


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

    @property
    def client_subsets(self) -> bool:
        """Whether :meth:`on_clients` evaluates the listed clients only (identical clients, or a problem whose
        ``client_grad`` takes ``clients=``)."""
        return _subset_gradients(self.problem)

    def on_clients(self, clients, n_clients: int | None = None):
        """The oracle ``(x, rng=None) -> grad F_k`` at the points ``x (..., P, d)`` of the listed clients ``clients
        (..., P)`` (of ``n_clients``, default the problem's; no draws)."""
        clients, _ = _subset(self, clients, n_clients, draws=False)
        return lambda x, rng=None: _client_subset_grad(self.problem, x, clients)


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
    def client_subsets(self) -> bool:
        """Whether :meth:`on_clients` evaluates the listed clients only (as :attr:`ExactGradient.client_subsets`)."""
        return _subset_gradients(self.problem)

    def on_clients(self, clients, n_clients: int | None = None):
        """The oracle ``(x, rng)`` at the points ``x (..., P, d)`` of the listed clients ``clients (..., P)``: the rows
        ``clients`` of a call at all ``n_clients`` clients' points (default: the problem's clients). The noise of
        every client is drawn, the listed clients' is added."""
        clients, N = _subset(self, clients, n_clients)
        rows = clients[..., None]

        def call(x, rng):
            rng = generator("rng", rng)
            g = _client_subset_grad(self.problem, x, clients)
            return g + np.take_along_axis(self.noise((*clients.shape[:-1], N, g.shape[-1]), rng), rows, axis=-2)

        return call

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

    @property
    def client_subsets(self) -> bool:
        """Whether :meth:`on_clients` evaluates the listed clients only (identical clients, or a problem whose
        ``sample_grad`` takes ``clients=``)."""
        return self.problem.n_clients is None or takes_clients(self.problem.sample_grad)

    def on_clients(self, clients, n_clients: int | None = None):
        """The oracle ``(x, rng)`` at the points ``x (..., P, d)`` of the listed clients ``clients (..., P)``: the rows
        ``clients`` of a call at all ``n_clients`` clients' points (default: the problem's clients). Every client's
        indices are drawn, the listed clients' are used."""
        clients, N = _subset(self, clients, n_clients)
        rows, same = clients[..., None], self.problem.n_clients is None  # identical clients: one shared finite sum

        def call(x, rng):
            x, _ = self.problem.check_client_subset(x, clients)
            idx = generator("rng", rng).integers(
                0, self.problem.n_samples, size=(*clients.shape[:-1], N, self.batch_size)
            )
            idx = np.take_along_axis(idx, rows, axis=-2)
            return self.problem.sample_grad(x, idx) if same else self.problem.sample_grad(x, idx, clients=clients)

        return call


def _subset(oracle, clients, n_clients: int | None, draws: bool = True) -> tuple[np.ndarray, int | None]:
    """Checked client indices ``(..., P)`` and the number of clients ``N`` of the full call: ``n_clients``, the
    problem's where it has distinct clients (``None`` only for identical clients and an oracle that draws nothing);
    refuses an oracle whose problem cannot evaluate a subset of its clients."""
    if not oracle.client_subsets:
        raise InvalidParameterError(
            "oracle",
            "an oracle whose problem evaluates listed clients (client_subsets: client_grad/sample_grad "
            "taking clients=)",
            type(oracle.problem).__name__,
        )
    problem = oracle.problem
    N = problem.n_clients if n_clients is None else positive_int("n_clients", n_clients)
    if N is None and draws:
        raise InvalidParameterError("n_clients", "the number of clients of the full call (identical clients)")
    if N is not None:
        problem.check_clients(N)
    clients = integer_array("clients", clients, minimum=0)
    if clients.ndim < 1 or (N is not None and np.any(clients >= N)):
        raise InvalidParameterError("clients", f"an array (..., P) of client indices below n_clients = {N}", clients)
    return clients, N


def _subset_gradients(problem: Problem) -> bool:
    """Whether ``problem.client_grad`` evaluates a listed subset of the clients (or the clients are identical)."""
    return problem.n_clients is None or takes_clients(problem.client_grad)


def _client_subset_grad(problem: Problem, x, clients: np.ndarray) -> np.ndarray:
    """``grad F_k`` of the checked clients ``clients (..., P)`` at their points ``x (..., P, d)``."""
    if problem.n_clients is None:  # identical clients: every row is the same function
        return problem.client_grad(problem.check_client_subset(x, clients)[0])
    return problem.client_grad(x, clients=clients)


def check_replicated(name: str, x0, dim: int, S: int) -> np.ndarray:
    """Broadcast a start point (d,) or (S, d) to shape (S, d)."""
    x0 = finite_array(name, x0, ndim=(1, 2))
    if x0.shape[-1] != dim or (x0.ndim == 2 and x0.shape[0] != S):
        raise InvalidParameterError(name, f"shape ({dim},) or ({S}, {dim})", f"shape {x0.shape}")
    return np.broadcast_to(x0, (S, dim)).copy()
