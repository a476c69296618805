"""Argument checks shared by every module; each raises :class:`InvalidParameterError` naming the argument."""

from __future__ import annotations

import numbers

import numpy as np

from .errors import InvalidParameterError


def positive(name: str, value, *, allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking it is finite and > 0 (>= 0 with ``allow_zero``)."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(float(value)):
        raise InvalidParameterError(name, "a finite real number", value)
    if value < 0 or (value == 0 and not allow_zero):
        raise InvalidParameterError(name, "a number >= 0" if allow_zero else "a number > 0", value)
    return float(value)


def positive_int(name: str, value, *, minimum: int = 1) -> int:
    """Return ``value`` after checking it is an integer >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise InvalidParameterError(name, f"an integer >= {minimum}", value)
    return int(value)


def finite_array(name: str, value, *, ndim: int | tuple[int, ...] | None = None) -> np.ndarray:
    """Return ``value`` as a float array after checking it is finite (and has ``ndim`` dimensions)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError(name, "a numeric array", value) from None
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if dims is not None and arr.ndim not in dims:
        raise InvalidParameterError(
            name, f"an array with {' or '.join(map(str, dims))} dimensions", f"shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise InvalidParameterError(name, "finite entries", "an array with inf or nan")
    return arr


def psd_matrices(name: str, value, *, rtol: float = 1e-10) -> np.ndarray:
    """Check a stack of square matrices ``(..., d, d)`` is symmetric positive semidefinite."""
    arr = finite_array(name, value)
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2]:
        raise InvalidParameterError(name, "square matrices of shape (..., d, d)", f"shape {arr.shape}")
    scale = max(1.0, float(np.max(np.abs(arr))))
    if not np.allclose(arr, np.swapaxes(arr, -1, -2), rtol=0, atol=rtol * scale):
        raise InvalidParameterError(name, "symmetric matrices", "a non-symmetric matrix")
    lam_min = float(np.min(np.linalg.eigvalsh(arr)))
    if lam_min < -rtol * scale:
        raise InvalidParameterError(name, "positive semidefinite matrices", f"a matrix with eigenvalue {lam_min:.3g}")
    return arr


def integer_array(name: str, value, *, minimum: int | None = None) -> np.ndarray:
    """Return ``value`` as an int64 array after checking every entry is an integer (>= ``minimum``).

    Python and numpy integers are accepted; floats are refused, even integral ones, so that a step count of 2.5 is
    never truncated to 2.
    """
    arr = np.asarray(value)
    if arr.dtype == object and arr.size:
        ok = all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in arr.ravel())
    else:
        ok = arr.size == 0 or np.issubdtype(arr.dtype, np.integer)
    if not ok:
        raise InvalidParameterError(name, "integers (Python or numpy ints; pass int(...) explicitly)", value)
    arr = arr.astype(np.int64)
    if minimum is not None and arr.size and np.min(arr) < minimum:
        raise InvalidParameterError(name, f"integers >= {minimum}", value)
    return arr


def generator(name: str, value, *, allow_none: bool = False) -> np.random.Generator | None:
    """Return ``value`` after checking it is a ``numpy.random.Generator`` (seeds and ``RandomState`` are refused, so
    that every random stream is explicit; ``None`` only with ``allow_none``, for runs whose oracle draws nothing)."""
    if isinstance(value, np.random.Generator) or (allow_none and value is None):
        return value
    allowed = "a numpy.random.Generator, e.g. numpy.random.default_rng(seed)"
    if allow_none:
        allowed += " (or None with a noiseless oracle such as ExactGradient)"
    raise InvalidParameterError(name, allowed, type(value).__name__)


def interval(name: str, value) -> tuple[float, float]:
    """Return ``value`` as ``(lo, hi)`` after checking it is a pair of finite numbers with ``lo < hi``."""
    try:
        lo, hi = (float(v) for v in value)
    except (TypeError, ValueError):
        raise InvalidParameterError(name, "a pair (lo, hi) of numbers", value) from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise InvalidParameterError(name, "finite (lo, hi) with lo < hi", value)
    return lo, hi
