"""Every registered claim, in the quick profile, still reaches its recorded verdict, and the report of all of
them is valid JSON."""

import json
import sys

import pytest

from fedtheory.harness.claims import select
from fedtheory.harness.report import write_json, write_markdown
from fedtheory.harness.runner import run_claim

CLAIMS = select()


@pytest.fixture(scope="module")
def results():
    return {}


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_recorded_verdict(claim, results):
    result = results[claim.id] = run_claim(claim, "quick")
    assert result.error is None, result.error
    assert result.verdict == claim.expect, (result.verdict, result.margin, result.worst)


def test_report_of_every_claim(results, tmp_path):
    assert len(results) == len(CLAIMS), "runs after the verdict tests"
    path = write_json(list(results.values()), tmp_path / "verify.json", profile="quick", seconds=0.0)
    doc = json.loads(path.read_text())
    assert [c["id"] for c in doc["claims"]] == [c.id for c in CLAIMS]
    assert all(c["verdict"] == c["expect"] for c in doc["claims"])
    assert (
        "|" in write_markdown(list(results.values()), tmp_path / "verify.md", profile="quick", seconds=0.0).read_text()
    )


def test_a_printed_statement_that_fails_says_how_its_witness_meets_the_hypotheses(results):
    """A `fails` in scope printed refutes the paper only inside its printed hypotheses: its witness says how the
    failing instance meets each of them (a fails outside them is scope outside-hypotheses)."""
    assert len(results) == len(CLAIMS), "runs after the verdict tests"
    bare = [
        r.id
        for r in results.values()
        if r.scope == "printed" and r.verdict == "fails" and "hypotheses" not in r.witness
    ]
    assert bare == []


def test_claims_are_deterministic():
    claim = next(c for c in CLAIMS if c.id.endswith("kinked-mean-mc-vs-rational"))
    assert run_claim(claim).measured == run_claim(claim).measured


def test_every_claim_module_registers_a_claim_and_every_claim_says_where():
    """A module under verifications/ that registers nothing is a claim dropped on the floor (unless it declares itself
    a helper with ``REGISTERS_CLAIMS = False``); each claim knows the ``module:line`` that registered it."""
    import pkgutil
    import sys

    import verifications

    modules = {m.name for m in pkgutil.walk_packages(verifications.__path__, "verifications.") if not m.ispkg}
    assert modules <= set(sys.modules), "every module was imported by discovery"
    helpers = {m for m in modules if getattr(sys.modules[m], "REGISTERS_CLAIMS", True) is False}
    registering = {c.where.rsplit(":", 1)[0] for c in CLAIMS}
    assert not modules - helpers - registering, "modules that register no claim"
    assert not helpers & registering, "a helper module registers claims"
    assert all(c.where.rsplit(":", 1)[1].isdigit() for c in CLAIMS)


def test_a_module_dropped_into_a_claim_package_is_registered_without_editing_anything(tmp_path, monkeypatch):
    from fedtheory.harness.claims import REGISTRY

    package = tmp_path / "dropin_paper"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from fedtheory.harness.claims import load_claim_modules\n\nload_claim_modules(__name__, __path__)\n"
    )
    (package / "new_theorem.py").write_text(
        "from fedtheory.harness.claims import Evidence, claim\n\n\n"
        "@claim('dropin-paper/thm-1', source='Theorem 1', statement='1 <= 2', scope='printed', expect='holds')\n"
        "def thm_1(ctx):\n    return Evidence(1.0, 2.0, '<=')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        __import__("dropin_paper")
        assert REGISTRY["dropin-paper/thm-1"].where == "dropin_paper.new_theorem:4"
    finally:
        REGISTRY.pop("dropin-paper/thm-1", None)
        for name in ("dropin_paper", "dropin_paper.new_theorem"):
            sys.modules.pop(name, None)


def test_every_claim_cites_what_a_reader_can_open_and_says_what_it_runs():
    """A source names the printed object (Theorem 3.5, eq. (3.8), Table 2, a line of a printed algorithm box), never a
    line of a text file outside the repository or a section of a digest; every claim function has a docstring."""
    import re

    box = re.compile(r"Algorithms? \d+[^;]*?\(lines? [^)]*\)|lines? [\d\-, and]+ of (?:the )?Algorithm \d+")
    cites_outside = re.compile(r"\blines? \d|\bspec\b|shared/|\.txt\b")
    assert cites_outside.search(box.sub("", "Theorem 3.5, line 953; Algorithm 6 (line 12)"))  # the check can fail
    assert [c.id for c in CLAIMS if cites_outside.search(box.sub("", c.source))] == []
    assert [c.id for c in CLAIMS if not (c.func.__doc__ or "").strip()] == []
