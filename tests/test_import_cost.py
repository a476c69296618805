"""Start-up cost: the harness's entry points import no heavy library that a run may never call.

CVXPY (with the JAX it probes at import) and matplotlib's pyplot take about 2 s to import together; the library
imports them where a problem is built or a figure drawn. Checked structurally in a fresh interpreter (``sys.modules``
after the import), not by timing.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("cvxpy", "matplotlib.pyplot", "jax")


@pytest.mark.parametrize("module", ["fedtheory.harness.cli", "fedtheory.harness.claims"])
def test_entry_point_imports_no_heavy_library(module):
    code = f"import sys, {module}; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []


def test_plotting_imports_pyplot_on_first_use():
    code = (
        "import sys\n"
        "from fedtheory.harness import plotting\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
        "fig, ax = plotting.figure()\n"
        "assert plotting.plt is sys.modules['matplotlib.pyplot']\n"
        "print(plotting.matplotlib.get_backend())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().lower() == "agg"
