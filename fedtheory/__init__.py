"""fedtheory: turn the claims of federated-optimization papers into numbers."""

import importlib

__version__ = "0.1.0"
__all__ = ["load_report"]

_LAZY = {"load_report": "fedtheory.harness.loaded_report"}
"""Names the package offers from the harness, imported on first use: ``import fedtheory`` stays as light as the
numerics, and the numerics never import the harness."""


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'fedtheory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
