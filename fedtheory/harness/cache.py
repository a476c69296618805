"""A cache of family results on disk, shared by every process of a run (worker processes, Dask workers).

Within one process a family is computed once per profile and argument tuple (:mod:`fedtheory.harness.family`). With
``jobs`` workers each would compute it again; with a cache directory active (the environment variable
``FEDTHEORY_CACHE_DIR``, which worker processes inherit), the first process to ask for a family computes it under an
exclusive lock on ``<dir>/<key>.lock`` and writes ``<dir>/<key>.pkl``; the others wait on the lock and read it::

    with run_cache():                  # a temporary directory, removed at the end
        run(claims, jobs=2)            # two workers: each family computed once

The key hashes the family's name, the profile, the arguments, the code (every ``.py`` file of ``fedtheory`` and of the
top-level package that defined the family) and the process-wide backend choices, so a cache kept across runs
(``run_cache(path)``) never hands back a result of other code or other settings. A result reads back through
``pickle``, bit for bit; one that cannot be pickled stays in memory, and a file that cannot be read (truncated,
corrupt) is computed again and overwritten. Without ``fcntl`` (not POSIX) there is no lock: two processes may both
compute a family, and either's file is a correct one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import pickle
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import InvalidParameterError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

CACHE_DIR_VARIABLE = "FEDTHEORY_CACHE_DIR"
"""The cache directory of this run; unset or empty: no cache on disk."""
BACKEND_VARIABLES = ("FEDTHEORY_KERNELS", "FEDTHEORY_SWEEP_ENGINE", "FEDTHEORY_PAPER_SCALE")
"""Process-wide choices of :mod:`fedtheory.backends` that a family's result may depend on: part of the key."""


def cache_dir() -> Path | None:
    """The active cache directory, or None."""
    value = os.environ.get(CACHE_DIR_VARIABLE, "").strip()
    return Path(value) if value else None


@contextlib.contextmanager
def run_cache(path: Path | str | None = None) -> Iterator[Path]:
    """Make ``path`` the cache directory while the block runs (for this process and the workers it starts).

    With ``path=None`` a temporary directory is created and removed at the end; a given ``path`` is created if
    missing and left in place (its results serve later runs of the same code). The previous value of
    ``FEDTHEORY_CACHE_DIR`` is restored at the end.
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError("path", "a directory path or None (a temporary directory)", path)
    folder = Path(tempfile.mkdtemp(prefix="fedtheory-cache-")) if path is None else Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    before = os.environ.get(CACHE_DIR_VARIABLE)
    os.environ[CACHE_DIR_VARIABLE] = str(folder.resolve())
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(CACHE_DIR_VARIABLE, None)
        else:
            os.environ[CACHE_DIR_VARIABLE] = before
        if path is None:
            shutil.rmtree(folder, ignore_errors=True)


@functools.cache
def code_fingerprint(package: str) -> str:
    """sha256 over the path and contents of every ``.py`` file of ``fedtheory`` and of the top-level package (or
    module) ``package``; computed once per process."""
    digest = hashlib.sha256()
    for name in sorted({"fedtheory", package}):
        for relative, path in _sources(name):
            digest.update(f"{name}:{relative}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def _sources(name: str) -> list[tuple[str, Path]]:
    """The ``.py`` files of the top-level package or module ``name``, each with its path inside the package (none if
    it cannot be found)."""
    module = sys.modules.get(name)
    try:
        spec = module.__spec__ if module is not None and module.__spec__ is not None else importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return []
    folders = list(spec.submodule_search_locations or [])
    if not folders:
        return [(Path(spec.origin).name, Path(spec.origin))] if spec.origin and spec.origin.endswith(".py") else []
    return sorted({(p.relative_to(folder).as_posix(), p) for folder in folders for p in Path(folder).rglob("*.py")})


def cache_key(name: str, profile: str, args: tuple, package: str) -> str:
    """The file name stem of a family result: the sanitised family name, then a sha256 of the name, the profile, the
    arguments' ``repr``, :func:`code_fingerprint` of ``package`` and the backend variables."""
    backends = {v: os.environ.get(v, "") for v in BACKEND_VARIABLES}
    text = repr((name, profile, tuple(map(repr, args)), code_fingerprint(package), sorted(backends.items())))
    readable = re.sub(r"[^\w.\-]+", "_", name).strip("_.")[:60] or "family"
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:40]}"


def through_disk(folder: Path, key: str, compute: Callable[[], object]) -> object:
    """``compute()``, shared with the other processes through ``<folder>/<key>.pkl`` (module docstring)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder / f"{key}.lock"):
        target = folder / f"{key}.pkl"
        with contextlib.suppress(Exception):  # absent, truncated or corrupt: computed again below
            with open(target, "rb") as f:
                return pickle.load(f)
        result = compute()
        try:
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # not picklable (a lambda, a generator): kept in memory only
            return result
        with contextlib.suppress(OSError):  # a full or read-only disk: the result is still correct, only not shared
            _write_atomically(target, data)
        return result


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (``fcntl.flock``: released when the file closes, also if the process dies)."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _write_atomically(target: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file next to ``target`` and rename it: a reader sees all of it or nothing."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
