"""Tests of `fedtheory.algorithms`."""
