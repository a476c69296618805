"""The README's two commands are the ones .ci/run executes."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL_AND_TEST = (
    'pip install -c requirements.lock -e ".[test]" && pytest -n auto --dist loadscope --no-loadscope-reorder'
)
INSTALL_AND_VERIFY = "pip install -c requirements.lock -e . && fedtheory verify --jobs auto"


def test_readme_and_ci_run_the_same_commands():
    readme, ci = (ROOT / "README.md").read_text(), (ROOT / ".ci" / "run").read_text()
    assert INSTALL_AND_TEST in readme and INSTALL_AND_TEST in ci
    assert INSTALL_AND_VERIFY in readme and INSTALL_AND_VERIFY in ci


def test_readme_tour_runs():
    readme = (ROOT / "README.md").read_text()
    tour = readme.split("## A tour of the library", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    exec(compile(tour, "README tour", "exec"), {})


def test_lock_pins_every_dependency_inside_its_range():
    """requirements.lock (what CI installs) pins every dependency of pyproject.toml, inside pyproject's range."""
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["test"]]
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            assert pinned, f"requirements.lock: {line!r} is not an exact pin"
            pins[canonicalize_name(name)] = pinned
    for req in wanted:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in requirements.lock"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req.name}=={pins[name]} is outside {req}"


def test_readme_claim_example_runs_and_holds(tmp_path):
    from fedtheory.harness.claims import PAPERS, REGISTRY
    from fedtheory.harness.family import FAMILIES
    from fedtheory.harness.runner import run_claim

    readme = (ROOT / "README.md").read_text()
    example = readme.split("### The claim idiom", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    wrong = example.replace('(1 - run["mu"]) ** t', '(1 - 4 * run["mu"]) ** t')  # negative control: too fast a rate
    assert wrong != example
    try:
        exec(compile(example, "README claim idiom", "exec"), {})
        result = run_claim(REGISTRY["my-paper/thm-1"], "quick", figures_dir=tmp_path)
        assert result.error is None and result.verdict == "holds", (result.error, result.margin)
        assert (tmp_path / "my-paper" / "thm-1-gaps.png").is_file()
        del REGISTRY["my-paper/thm-1"], FAMILIES["my-paper/gd-runs"]  # defined again by the negative control
        exec(compile(wrong, "README claim idiom, too fast a rate", "exec"), {})
        assert run_claim(REGISTRY["my-paper/thm-1"], "quick").verdict == "fails"
    finally:
        REGISTRY.pop("my-paper/thm-1", None)
        PAPERS.pop("my-paper", None)
        FAMILIES.pop("my-paper/gd-runs", None)
