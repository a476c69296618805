"""Exact expectations over finite noise laws, in rational arithmetic (and enumerated in float64).

The law of ``x_k`` under a recursion ``x_{k+1} = step(x_k, xi_k)`` with i.i.d. ``xi`` from a finite
law is a finite distribution. This engine propagates it as a dictionary ``{state: probability}`` of
``fractions.Fraction`` values, merging equal states, so every expectation it returns is exact. The
cost is (number of distinct states) x (noise support) per step: at most ``2^k`` states for +-sigma
noise, far fewer when the dynamics makes states coincide (a lattice walk has ``k + 1``).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._validate import positive_int
from ..errors import InvalidParameterError

State = tuple[Fraction, ...]


def exact(value) -> Fraction:
    """A number as a Fraction: ints and Fractions as they are, floats by their exact binary value."""
    if isinstance(value, (Fraction, int)):
        return Fraction(value)
    try:
        return Fraction(float(value))
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameterError("value", "a finite number (int, Fraction or float)", value) from None


@dataclass(frozen=True)
class FiniteNoise:
    """A finite law on R^d: outcomes ``values[i]`` with probabilities ``probs[i]`` (summing to 1)."""

    values: tuple[State, ...]
    probs: tuple[Fraction, ...]

    def __post_init__(self):
        if len(self.values) != len(self.probs) or not self.values:
            raise InvalidParameterError("probs", "one probability per noise value", len(self.probs))
        inexact = [p for p in self.probs if isinstance(p, bool) or not isinstance(p, numbers.Rational)]
        if inexact:
            raise InvalidParameterError(
                "probs",
                "exact probabilities (fractions.Fraction or int): write Fraction(1, 3), or convert a float "
                "exactly with Fraction(p) (its binary value, which rarely sums to exactly 1)",
                inexact[0],
            )
        try:
            values = tuple(tuple(exact(v) for v in value) for value in self.values)
        except (TypeError, ValueError, OverflowError):
            raise InvalidParameterError(
                "values", "tuples of finite numbers (one state per outcome)", self.values
            ) from None
        if len({len(v) for v in values}) != 1:
            raise InvalidParameterError("values", "outcomes of one common dimension", self.values)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "probs", tuple(Fraction(p) for p in self.probs))
        if any(p < 0 for p in self.probs) or sum(self.probs) != 1:
            raise InvalidParameterError("probs", "non-negative probabilities summing to exactly 1", self.probs)

    @classmethod
    def rademacher(cls, scale, dim: int = 1) -> FiniteNoise:
        """Independent ``+-scale`` coordinates, ``2^dim`` equally likely outcomes (+-sigma in 1-D)."""
        positive_int("dim", dim)
        s = exact(scale)
        outcomes: list[State] = [()]
        for _ in range(dim):
            outcomes = [(*o, v) for o in outcomes for v in (s, -s)]
        return cls(tuple(outcomes), tuple(Fraction(1, len(outcomes)) for _ in outcomes))

    @classmethod
    def axes(cls, sigma, dim: int) -> FiniteNoise:
        """``+-sigma e_i`` with probability ``1/(2 dim)`` each (covariance ``sigma^2 I / dim``)."""
        positive_int("dim", dim)
        s = exact(sigma)
        values = tuple(
            tuple(sign * s if j == i else Fraction(0) for j in range(dim)) for i in range(dim) for sign in (1, -1)
        )
        return cls(values, tuple(Fraction(1, 2 * dim) for _ in values))

    @property
    def mean(self) -> State:
        return tuple(
            sum((p * v[i] for v, p in zip(self.values, self.probs)), Fraction(0)) for i in range(len(self.values[0]))
        )


@dataclass
class ExactLaw:
    """Exact expectations along the recursion, one entry per step ``k = 0..k_max``.

    Attributes
    ----------
    mean : list of State
        ``E x_k``.
    expectations : dict of name -> list of Fraction
        ``E phi(x_k)`` for every functional ``phi`` requested.
    n_states : list of int
        Number of distinct states of ``x_k`` after merging.
    """

    mean: list[State] = field(default_factory=list)
    expectations: dict[str, list[Fraction]] = field(default_factory=dict)
    n_states: list[int] = field(default_factory=list)


def propagate(
    step: Callable[[State, State], State],
    x0: Sequence,
    noise: FiniteNoise,
    k_max: int,
    *,
    functionals: Mapping[str, Callable[[State], Fraction]] | None = None,
) -> ExactLaw:
    """Propagate the exact law of ``x_{k+1} = step(x_k, xi_k)`` from ``x_0 = x0`` for ``k_max`` steps."""
    k_max = positive_int("k_max", k_max, minimum=0)
    functionals = dict(functionals or {})
    law: dict[State, Fraction] = {tuple(exact(v) for v in x0): Fraction(1)}
    out = ExactLaw(expectations={name: [] for name in functionals})
    dim = len(next(iter(law)))
    for k in range(k_max + 1):
        out.mean.append(tuple(sum((p * x[i] for x, p in law.items()), Fraction(0)) for i in range(dim)))
        for name, phi in functionals.items():
            out.expectations[name].append(sum((p * phi(x) for x, p in law.items()), Fraction(0)))
        out.n_states.append(len(law))
        if k == k_max:
            break
        nxt: dict[State, Fraction] = {}
        for x, p in law.items():
            for xi, q in zip(noise.values, noise.probs):
                y = step(x, xi)
                nxt[y] = nxt.get(y, Fraction(0)) + p * q
        law = nxt
    return out


def sgd_step(grad_exact: Callable[[State], State], eta) -> Callable[[State, State], State]:
    """The SGD step of Definition 2.5 with additive noise: ``x - eta (grad F(x) + xi)``."""
    eta = exact(eta)
    return lambda x, xi: tuple(xj - eta * (gj + nj) for xj, gj, nj in zip(x, grad_exact(x), xi))


def gd_trajectory(grad_exact: Callable[[State], State], x0: Sequence, eta, k_max: int) -> list[State]:
    """The exact GD iterates ``z_0..z_{k_max}`` of Definition 2.5."""
    eta = exact(eta)
    z = tuple(exact(v) for v in x0)
    out = [z]
    for _ in range(positive_int("k_max", k_max, minimum=0)):
        z = tuple(zj - eta * gj for zj, gj in zip(z, grad_exact(z)))
        out.append(z)
    return out


@dataclass(frozen=True)
class FloatLaw:
    """A finite law in float64: ``states`` (n, d) with ``probs`` (n,); one per step in :func:`propagate_float`."""

    states: np.ndarray
    probs: np.ndarray

    def expect(self, phi: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``E phi(x)`` for a vectorised ``phi`` mapping (n, d) states to (n, ...) values."""
        return np.tensordot(self.probs, phi(self.states), axes=(0, 0))

    @property
    def mean(self) -> np.ndarray:
        return self.probs @ self.states


def propagate_float(
    step: Callable[[np.ndarray, np.ndarray], np.ndarray], x0: Sequence[float], noise_values, noise_probs, k_max: int
) -> list[FloatLaw]:
    """The law of ``x_k``, ``k = 0..k_max``, enumerated over every noise path in float64.

    The float counterpart of :func:`propagate` for instances whose parameters are not rational: every
    step maps all ``n`` states against every noise value in one vectorised call ``step(states, xi)``
    with ``states`` (n * m, d) and ``xi`` (n * m, d); states that coincide exactly are merged. Cost and
    memory grow like (noise support)^k; expectations are exact up to float rounding (about 1e-15
    relative per step).
    """
    k_max = positive_int("k_max", k_max, minimum=0)
    values = np.atleast_2d(np.asarray(noise_values, dtype=float))
    probs = np.asarray(noise_probs, dtype=float)
    if values.shape[0] != probs.size or not np.isclose(probs.sum(), 1.0, rtol=0, atol=1e-14) or np.any(probs < 0):
        raise InvalidParameterError("noise_probs", "one non-negative probability per noise value, summing to 1", probs)
    states = np.atleast_2d(np.asarray(x0, dtype=float))
    weights = np.ones(1)
    laws = [FloatLaw(states, weights)]
    for _ in range(k_max):
        n, m = states.shape[0], values.shape[0]
        states = step(np.repeat(states, m, axis=0), np.tile(values, (n, 1)))
        weights = np.outer(weights, probs).ravel()
        states, inverse = np.unique(states, axis=0, return_inverse=True)
        weights = np.bincount(inverse.ravel(), weights=weights, minlength=states.shape[0])
        laws.append(FloatLaw(states, weights))
    return laws
