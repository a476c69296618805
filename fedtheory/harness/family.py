"""Families: one shared computation that several claims read, cached per profile and seeded from its own name.

A theorem is usually checked by several claims (its parts, the printed and the corrected statement) that read the
same runs. A family computes them once per profile (and per argument tuple), with a generator seeded from the
family's name, so a claim's numbers do not depend on which claims ran before it, nor on how many jobs ran them::

    @family("my-paper/thm-1-runs")
    def thm_1_runs(fam: Family, kappa: float) -> Runs:
        rng = fam.rng()                      # seeded from "my-paper/thm-1-runs:<kappa>"
        steps = 100 if fam.quick else 10_000
        ...

    @claim("my-paper/thm-1:printed", ...)
    def thm_1_printed(ctx: Context) -> Evidence:
        runs = thm_1_runs(ctx, 10.0)          # computed at the first read, cached for the other claims
        ...

Names are unique (two families with one name would share a seed); a family's arguments must be hashable, and their
``repr`` must say what they are (it is part of the key of the cache on disk).

With a cache directory active (:func:`fedtheory.harness.cache.run_cache`), processes share what they computed: the
first to read a family computes it, the others read its result from disk (:mod:`fedtheory.harness.cache`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidParameterError
from .cache import cache_dir, cache_key, through_disk
from .claims import PROFILES, Context, seed_for

FAMILIES: dict[str, str] = {}
"""Family name -> ``module.function`` that defined it."""


@dataclass(frozen=True)
class Family:
    """What a family's computation receives: its name, the profile and its arguments."""

    name: str
    profile: str
    args: tuple = ()

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    @property
    def key(self) -> str:
        """``name`` followed by ``:arg`` for each argument: the text the seed is derived from."""
        return ":".join([self.name, *map(str, self.args)])

    @property
    def seed(self) -> int:
        return seed_for(self.key)

    def rng(self) -> np.random.Generator:
        """A generator seeded from :attr:`key`; each call starts the same stream afresh."""
        return np.random.default_rng(self.seed)


def family(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make ``func(fam, *args)`` a family named ``name``, read as ``func(ctx, *args)`` from a claim.

    The result is cached per ``(profile, *args)`` in the process, and on disk for the other processes of the run when
    a cache directory is active; ``ctx`` is a :class:`~fedtheory.harness.claims.Context` or a profile name.
    """
    if not isinstance(name, str) or not name:
        raise InvalidParameterError("name", "a non-empty family name (e.g. 'my-paper/thm-1-runs')", name)

    def define(func: Callable[..., Any]) -> Callable[..., Any]:
        where = f"{func.__module__}.{func.__qualname__}"
        known = FAMILIES.setdefault(name, where)
        if known != where:
            raise InvalidParameterError("name", f"a family name not already used (by {known})", name)

        package = (func.__module__ or "__main__").split(".")[0]  # whose sources the key covers

        @functools.cache
        def compute(profile: str, *args):
            folder = cache_dir()
            if folder is None:
                return func(Family(name, profile, args), *args)
            key = cache_key(name, profile, args, package)
            return through_disk(folder, key, lambda: func(Family(name, profile, args), *args))

        @functools.wraps(func)
        def read(ctx: Context | str, *args):
            profile = ctx.profile if isinstance(ctx, Context) else ctx
            if profile not in PROFILES:
                raise InvalidParameterError("ctx", f"a Context or one of {', '.join(PROFILES)}", ctx)
            return compute(profile, *args)

        return read

    return define
