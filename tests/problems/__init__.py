"""Tests of `fedtheory.problems`."""
