"""Empirical rates and Monte Carlo means with intervals (`fedtheory.fit`)."""

import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError
from fedtheory.fit import loglog_slope, mc_mean


def test_loglog_slope_recovers_exponent_with_interval():
    rng = np.random.default_rng(0)
    x = np.logspace(0, 3, 20)
    fit = loglog_slope(x, 3 * x**1.5 * np.exp(0.01 * rng.normal(size=x.size)))
    assert fit.lo < 1.5 < fit.hi and fit.hi - fit.lo < 0.02
    exact = loglog_slope(x, x**-2)
    assert exact.slope == pytest.approx(-2) and exact.hi - exact.lo < 1e-10


def test_mc_mean_interval_and_family_size():
    rng = np.random.default_rng(1)
    est = mc_mean(rng.normal(size=(10_000, 3)))
    wider = mc_mean(rng.normal(size=(10_000, 3)), family_size=3)
    assert np.all(est.lo < 0) and np.all(est.hi > 0)
    assert np.all((wider.hi - wider.lo) > (est.hi - est.lo))
    with pytest.raises(InvalidParameterError, match="confidence"):
        mc_mean([1.0, 2.0], confidence=1.5)
    with pytest.raises(InvalidParameterError, match="invalid y"):
        loglog_slope([1, 2, 3], [1, -1, 2])


def test_mc_mean_is_student_t_and_covers_with_few_samples():
    """With three Gaussian samples the normal quantile covers far less than 99%; Student's t covers 99%."""
    rng = np.random.default_rng(5)
    est = mc_mean(rng.normal(size=(3, 20_000)))  # 20,000 independent three-sample experiments, true mean 0
    coverage = np.mean((est.lo <= 0) & (0 <= est.hi))
    assert abs(coverage - 0.99) < 4 * np.sqrt(0.99 * 0.01 / 20_000)
