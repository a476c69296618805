"""The README's two commands are the ones .ci/run executes."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALL_AND_TEST = 'pip install -e ".[test]" && pytest'
INSTALL_AND_VERIFY = "pip install -e . && fedtheory verify"


def test_readme_and_ci_run_the_same_commands():
    readme, ci = (ROOT / "README.md").read_text(), (ROOT / ".ci" / "run").read_text()
    assert INSTALL_AND_TEST in readme and INSTALL_AND_TEST in ci
    assert INSTALL_AND_VERIFY in readme and INSTALL_AND_VERIFY in ci


def test_readme_tour_runs():
    readme = (ROOT / "README.md").read_text()
    tour = readme.split("## A tour of the library", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    exec(compile(tour, "README tour", "exec"), {})
