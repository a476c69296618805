"""Which implementation runs the hot loops: process-wide choices, read from the environment so that worker
processes (forked, spawned or on a Dask cluster) make the same choice as the process that started them.

* ``kernels``: ``"numba"`` (default) runs the fused per-client kernels of :mod:`fedtheory.kernels` where one exists
  for the oracle and problem; ``"numpy"`` runs the numpy reference everywhere (the tests compare the two).
  Environment variable ``FEDTHEORY_KERNELS``.
* ``sweep engine``: ``"numpy"`` (default) or ``"jax"`` for the stochastic step-size sweeps of
  :mod:`fedtheory.sweeps.fedac` (JAX in float64, on a GPU when JAX sees one). Environment variable
  ``FEDTHEORY_SWEEP_ENGINE``; ``fedtheory verify --backend jax`` sets it.
* ``paper scale``: whether the experiments with a paper-scale branch (thesis section 3.7) run at their printed sizes,
  on the JAX engine, instead of their stand-in sizes. Environment variable ``FEDTHEORY_PAPER_SCALE`` (``"1"`` true,
  ``"0"`` or unset false).

Nothing here imports JAX at import time (:func:`gpu_available` imports it when called).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from .errors import InvalidParameterError

KERNELS = ("numba", "numpy")
SWEEP_ENGINES = ("numpy", "jax")
KERNELS_VARIABLE = "FEDTHEORY_KERNELS"
SWEEP_ENGINE_VARIABLE = "FEDTHEORY_SWEEP_ENGINE"
PAPER_SCALE_VARIABLE = "FEDTHEORY_PAPER_SCALE"


def _read(variable: str, allowed: tuple[str, ...]) -> str:
    value = os.environ.get(variable, "").strip().lower() or allowed[0]
    if value not in allowed:
        raise InvalidParameterError(variable, f"one of {', '.join(allowed)} (environment variable)", value)
    return value


def kernels() -> str:
    """The kernel choice now: ``"numba"`` or ``"numpy"``."""
    return _read(KERNELS_VARIABLE, KERNELS)


def sweep_engine() -> str:
    """The sweep engine now: ``"numpy"`` or ``"jax"``."""
    return _read(SWEEP_ENGINE_VARIABLE, SWEEP_ENGINES)


def set_kernels(name: str) -> None:
    """Choose the kernels for this process and the workers it starts from now on."""
    if name not in KERNELS:
        raise InvalidParameterError("kernels", f"one of {', '.join(KERNELS)}", name)
    os.environ[KERNELS_VARIABLE] = name


def set_sweep_engine(name: str) -> None:
    """Choose the sweep engine for this process and the workers it starts from now on."""
    if name not in SWEEP_ENGINES:
        raise InvalidParameterError("backend", f"one of {', '.join(SWEEP_ENGINES)}", name)
    os.environ[SWEEP_ENGINE_VARIABLE] = name


def paper_scale() -> bool:
    """Whether the paper-scale branches run now (environment variable ``FEDTHEORY_PAPER_SCALE``: ``"1"`` true,
    ``"0"`` or unset false)."""
    return _read(PAPER_SCALE_VARIABLE, ("0", "1")) == "1"


def set_paper_scale(flag: bool) -> None:
    """Run the paper-scale branches (``True``) or the stand-in sizes (``False``) in this process and the workers it
    starts from now on."""
    if not isinstance(flag, bool):
        raise InvalidParameterError("flag", "True or False", flag)
    os.environ[PAPER_SCALE_VARIABLE] = "1" if flag else "0"


def gpu_available() -> bool:
    """Whether JAX is installed and sees a GPU (``False`` when JAX is missing or has no GPU backend).

    Asked in a child interpreter: a process that has started JAX's GPU backend cannot fork workers that use it (the
    CUDA context does not survive a fork), so the parent of ``verify --jobs N`` must never start it itself."""
    if importlib.util.find_spec("jax") is None:
        return False
    probe = "import jax\ntry:\n    print(len(jax.devices('gpu')))\nexcept RuntimeError:\n    print(0)"
    try:
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        return False
    return out.stdout.strip().splitlines()[-1:] not in ([], ["0"])
