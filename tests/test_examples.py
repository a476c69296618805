"""The examples/ package as a user installs it: its claims package found through the ``fedtheory.claims`` entry
point, and its pytest file run through fedtheory's pytest plugin and strategies.

The suite cannot pip-install, so the installation is simulated: ``examples/`` goes on the path with generated
``*.dist-info`` folders declaring the entry points (``toy = toy_paper`` in ``fedtheory.claims``, and fedtheory's own
``pytest11`` entry point ``fedtheory``; where fedtheory's installed metadata declares it too, pytest loads one of the
two, since both have the same name). Discovery runs once per process (``load_claims`` caches), so each check runs in
a fresh interpreter.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def install(site: Path, name: str, entry_points: str) -> None:
    """Write ``<name>-0.0.dist-info`` (METADATA and entry_points.txt) under ``site``: what pip would."""
    info = site / f"{name}-0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def installed(tmp_path) -> dict:
    """The environment of a process that sees the toy paper and the plugin installed."""
    site = tmp_path / "site"
    install(site, "toy_paper", "[fedtheory.claims]\ntoy = toy_paper\n")
    install(site, "fedtheory_pytest_entry_point", "[pytest11]\nfedtheory = fedtheory.harness.pytest_plugin\n")
    env = {k: v for k, v in os.environ.items() if k not in ("FEDTHEORY_CLAIMS", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(EXAMPLES), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_fedtheory_list_finds_the_installed_toy_paper(installed):
    done = run(["-m", "fedtheory.harness.cli", "list", "toy-paper"], installed)
    assert done.returncode == 0, done.stderr
    assert "toy-paper/thm-1" in done.stdout and "toy-paper/prop-2" in done.stdout


def test_without_the_entry_point_the_toy_paper_is_unknown(installed):
    """Negative control: on the path but not installed, the package is not a claims package."""
    installed["PYTHONPATH"] = str(EXAMPLES)
    done = run(["-m", "fedtheory.harness.cli", "list", "toy-paper"], installed)
    assert done.returncode != 0
    assert "unknown claim id or paper key: 'toy-paper'" in done.stdout + done.stderr


def test_the_examples_pytest_file_passes_through_the_plugin(installed):
    done = run(["-m", "pytest", "-p", "fedtheory", "-p", "no:cacheprovider", "-q", "examples/tests"], installed)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "6 passed" in done.stdout
