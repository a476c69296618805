"""Expectations without sampling: moment recursions, density propagation, rational enumeration, and the
uniform-noise backward recursions for ``E[x_k | x_0 = x]`` and its derivatives."""

from . import density, moments, rational, uniform

__all__ = ["density", "moments", "rational", "uniform"]
