"""Hypothesis profiles: ``ci`` (default) is derandomized so every run checks the same examples."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items):
    """The order the README's ``pytest -n auto --dist loadscope --no-loadscope-reorder`` hands modules out in: the
    modules with the most tests first (the long verdict module starts at once, so the processes finish together),
    and the tests marked ``jax`` last of all: once JAX has started its backend threads, a later ``os.fork()`` in the
    same process (the runner's workers, the cache's two-process tests) is unsafe."""
    sizes = {}
    for item in items:
        sizes[item.path] = sizes.get(item.path, 0) + 1
    items.sort(key=lambda item: (item.get_closest_marker("jax") is not None, -sizes[item.path]))  # stable sort
