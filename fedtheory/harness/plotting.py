"""One figure style for every theory figure, and the helper that writes it.

Matplotlib (about 0.9 s to import) is imported at the first figure, with the Agg backend; ``plotting.plt`` and
``plotting.matplotlib`` name ``matplotlib.pyplot`` and ``matplotlib`` (imported on first access).
"""

from __future__ import annotations

import functools
from pathlib import Path

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
}


@functools.cache
def _pyplot():
    """``matplotlib.pyplot``, imported on first use with the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def __getattr__(name: str):
    """``plt`` and ``matplotlib``, imported on first access (PEP 562)."""
    if name == "plt":
        return _pyplot()
    if name == "matplotlib":
        _pyplot()  # the backend is chosen before matplotlib is handed out
        import matplotlib

        return matplotlib
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 3.2, height: float = 2.6, **kwargs):
    """A styled figure with ``nrows x ncols`` panels of ``width x height`` inches each."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(
            nrows, ncols, figsize=(width * ncols, height * nrows), constrained_layout=True, **kwargs
        )
    return fig, axes


def save(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` (PNG; folders created) and close it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    plt = _pyplot()
    with plt.rc_context(STYLE):
        fig.savefig(path)
    plt.close(fig)
    return path
