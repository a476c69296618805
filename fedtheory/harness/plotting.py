"""One figure style for every theory figure, and the helper that writes it."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

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


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 3.2, height: float = 2.6, **kwargs):
    """A styled figure with ``nrows x ncols`` panels of ``width x height`` inches each."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(
            nrows, ncols, figsize=(width * ncols, height * nrows), constrained_layout=True, **kwargs
        )
    return fig, axes


def save(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` (PNG; folders created) and close it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with plt.rc_context(STYLE):
        fig.savefig(path)
    plt.close(fig)
    return path
