"""Expectations without sampling: moment recursions, density propagation, rational enumeration."""

from . import density, moments, rational

__all__ = ["density", "moments", "rational"]
