"""Tests of `fedtheory.exact`."""
