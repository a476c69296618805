"""Empirical rates and Monte Carlo intervals."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import finite_array
from .errors import InvalidParameterError


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares fit ``log y = slope log x + intercept`` with a t-interval for the slope."""

    slope: float
    intercept: float
    lo: float
    hi: float
    stderr: float
    n: int
    confidence: float


def loglog_slope(x, y, *, confidence: float = 0.95) -> SlopeFit:
    """Fit the exponent of ``y ~ x^slope`` by ordinary least squares on logarithms.

    Needs at least three points with positive ``x`` and ``y``; the interval is the two-sided
    ``confidence`` t-interval of the slope (zero width for points exactly on a line).
    """
    x, y = finite_array("x", x, ndim=1), finite_array("y", y, ndim=1)
    if x.shape != y.shape or x.size < 3:
        raise InvalidParameterError("x", "at least three (x, y) pairs of equal length", (x.size, y.size))
    if np.any(x <= 0) or np.any(y <= 0):
        raise InvalidParameterError("y", "positive values (a log-log fit)", "a non-positive entry")
    _check_confidence(confidence)
    from scipy import stats  # imported where a fit runs (scipy.stats takes about 0.5 s to import)

    lx, ly = np.log(x), np.log(y)
    res = stats.linregress(lx, ly)
    half = stats.t.ppf(0.5 + confidence / 2, x.size - 2) * res.stderr
    return SlopeFit(
        float(res.slope),
        float(res.intercept),
        float(res.slope - half),
        float(res.slope + half),
        float(res.stderr),
        int(x.size),
        confidence,
    )


@dataclass(frozen=True)
class MCEstimate:
    """Monte Carlo mean with a normal-approximation interval (arrays for vector estimates)."""

    mean: np.ndarray
    stderr: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    n: int
    confidence: float


def mc_mean(samples, *, axis: int = 0, confidence: float = 0.99, family_size: int = 1) -> MCEstimate:
    """Mean of ``samples`` along ``axis`` with its ``confidence`` interval: Student's t with ``n - 1`` degrees of
    freedom on the sample variance (exact for Gaussian samples, the CLT's interval for many samples of any law, and
    wider than the normal interval where few samples make the variance itself uncertain).

    ``family_size`` makes the intervals simultaneous: with ``n`` estimates judged together each gets
    level ``1 - (1 - confidence)/n`` (Bonferroni), so the whole family covers with ``confidence``
    whatever the dependence between the estimates.
    """
    samples = np.asarray(samples, dtype=float)
    n = samples.shape[axis]
    if n < 2:
        raise InvalidParameterError("samples", "at least two samples along the replica axis", n)
    _check_confidence(confidence)
    mean = samples.mean(axis=axis)
    se = samples.std(axis=axis, ddof=1) / np.sqrt(n)
    if family_size < 1:
        raise InvalidParameterError("family_size", "an integer >= 1", family_size)
    from scipy import stats

    z = stats.t.ppf(1 - (1 - confidence) / (2 * family_size), n - 1)
    return MCEstimate(mean, se, mean - z * se, mean + z * se, n, confidence)


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise InvalidParameterError("confidence", "a level in (0, 1)", confidence)
