"""Tests of `fedtheory.sweeps`."""
