"""Tests of `fedtheory.harness`: claims, evidence, the runner, reports and the command."""
