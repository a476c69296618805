"""The cache of family results on disk: shared by processes, keyed by code and arguments, never wrong."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time

import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError
from fedtheory.harness import cache
from fedtheory.harness import family as family_module
from fedtheory.harness.family import Family, family

COUNTER = "FEDTHEORY_TEST_FAMILY_COUNTER"
"""A file that every computation of the families below appends one line to (its path in the environment)."""


def _count() -> None:
    with open(os.environ[COUNTER], "a") as f:
        f.write("computed\n")


def _computations(path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@family("cache-test/draws")
def draws(fam: Family, n: int) -> dict:
    """Seeded draws, slow enough that two processes asking at once overlap."""
    _count()
    time.sleep(0.3)
    rng = fam.rng()
    return {"x": rng.normal(size=n), "scale": float(rng.uniform()), "n": n}


@family("cache-test/unpicklable")
def unpicklable(fam: Family) -> dict:
    _count()
    return {"double": lambda v: 2 * v}


def _child(conn, args) -> None:
    conn.send(draws(*args))


def _in_child(*args) -> dict:
    """``draws(*args)`` in a forked process (which has an empty in-process cache), sent back through a pipe."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_child, args=(child, args))
    process.start()
    result = parent.recv()
    process.join()
    return result


@pytest.fixture
def counter(tmp_path, monkeypatch):
    path = tmp_path / "count.txt"
    monkeypatch.setenv(COUNTER, str(path))
    monkeypatch.delenv(cache.CACHE_DIR_VARIABLE, raising=False)
    cache.code_fingerprint("tests")  # once, before the forks: the children share it even if a file changes meanwhile
    return path


def _same(a: dict, b: dict) -> bool:
    return a["x"].tobytes() == b["x"].tobytes() and (a["scale"], a["n"]) == (b["scale"], b["n"])


def test_two_processes_compute_a_family_once(counter, tmp_path):
    ctx = multiprocessing.get_context("fork")
    with cache.run_cache(tmp_path / "cache"):
        pipes, processes = [], []
        for _ in range(2):
            parent, child = ctx.Pipe()
            processes.append(ctx.Process(target=_child, args=(child, ("quick", 5))))
            pipes.append(parent)
        for p in processes:
            p.start()
        results = [conn.recv() for conn in pipes]
        for p in processes:
            p.join()
    assert _computations(counter) == 1  # one computed under the lock, the other waited and read
    assert _same(results[0], results[1])
    assert list((tmp_path / "cache").glob("cache-test_draws-*.pkl"))  # a given folder is left in place


def test_results_are_bit_identical_with_and_without_cache(counter, tmp_path):
    plain = _in_child("quick", 7)
    with cache.run_cache(tmp_path / "cache"):
        computed, read = _in_child("quick", 7), _in_child("quick", 7)
    assert _computations(counter) == 2  # once without the cache, once with it; the third read the file
    assert _same(plain, computed) and _same(plain, read)


def test_the_key_changes_with_arguments_profile_backends_and_code(monkeypatch):
    base = cache.cache_key("cache-test/draws", "quick", (5,), "tests")
    assert base == cache.cache_key("cache-test/draws", "quick", (5,), "tests")
    assert base.startswith("cache-test_draws-")
    others = {
        cache.cache_key("cache-test/draws", "quick", (6,), "tests"),
        cache.cache_key("cache-test/draws", "quick", (5.0,), "tests"),
        cache.cache_key("cache-test/draws", "full", (5,), "tests"),
        cache.cache_key("cache-test/other", "quick", (5,), "tests"),
    }
    for variable in cache.BACKEND_VARIABLES:
        with monkeypatch.context() as m:
            m.setenv(variable, "something-else")
            others.add(cache.cache_key("cache-test/draws", "quick", (5,), "tests"))
    monkeypatch.setattr(cache, "code_fingerprint", lambda package: "other code")
    others.add(cache.cache_key("cache-test/draws", "quick", (5,), "tests"))
    assert base not in others and len(others) == 5 + len(cache.BACKEND_VARIABLES)


def test_the_code_fingerprint_covers_the_package_sources():
    assert cache.code_fingerprint("verifications") != cache.code_fingerprint("tests")
    assert cache.code_fingerprint("no_such_package_here") == cache.code_fingerprint("fedtheory")


def test_a_corrupt_file_is_computed_again(counter, tmp_path):
    with cache.run_cache(tmp_path / "cache") as folder:
        first = _in_child("quick", 4)
        (target,) = folder.glob("cache-test_draws-*.pkl")
        target.write_bytes(target.read_bytes()[:20])  # truncated
        again = _in_child("quick", 4)
        assert _computations(counter) == 2
        assert _same(first, again)
        with open(target, "rb") as f:
            assert _same(pickle.load(f), first)  # overwritten with a whole one


def test_an_unpicklable_result_stays_in_memory(counter, tmp_path):
    with cache.run_cache(tmp_path / "cache") as folder:
        assert unpicklable("quick")["double"](3) == 6
        assert not list(folder.glob("*.pkl"))
    assert _computations(counter) == 1


def test_without_a_cache_directory_nothing_touches_the_disk(counter, monkeypatch):
    def refuse(*args):
        raise AssertionError("the disk cache was used without a cache directory")

    monkeypatch.setattr(family_module, "through_disk", refuse)
    monkeypatch.setattr(family_module, "cache_key", refuse)
    assert _in_child("full", 3)["n"] == 3


def test_run_cache_makes_and_removes_a_temporary_folder(monkeypatch):
    monkeypatch.setenv(cache.CACHE_DIR_VARIABLE, "/somewhere/before")
    with cache.run_cache() as folder:
        assert folder.is_dir() and os.environ[cache.CACHE_DIR_VARIABLE] == str(folder.resolve())
        assert cache.cache_dir() == folder.resolve()
    assert not folder.exists()
    assert os.environ[cache.CACHE_DIR_VARIABLE] == "/somewhere/before"
    with pytest.raises(InvalidParameterError, match="path"):
        with cache.run_cache(3):
            pass


def test_arrays_round_trip_bit_for_bit(tmp_path):
    values = {"x": np.array([0.1, -0.0, np.nextafter(1.0, 2.0), 1e-310]), "t": (1, 2.5)}
    key = cache.cache_key("cache-test/direct", "quick", (), "tests")
    cache.through_disk(tmp_path, key, lambda: values)
    read = cache.through_disk(tmp_path, key, lambda: None)
    assert read["x"].tobytes() == values["x"].tobytes() and read["t"] == values["t"]
