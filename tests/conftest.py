"""Hypothesis profiles: ``ci`` (default) is derandomized so every run checks the same examples."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items):
    """Tests marked ``jax`` run after every other test (under ``-n auto --dist loadscope`` too: their module is the
    last scope handed out): once JAX has started its backend threads, a later ``os.fork()`` in the same process (the
    runner's workers, the cache's two-process tests) is unsafe."""
    items.sort(key=lambda item: item.get_closest_marker("jax") is not None)  # stable: the rest keep their order
