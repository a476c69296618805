"""Every registered claim, in the quick profile, still reaches its recorded verdict, and the report of all of
them is valid JSON."""

import json

import pytest

from fedtheory.claims import select
from fedtheory.report import write_json, write_markdown
from fedtheory.runner import run_claim

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


def test_claims_are_deterministic():
    claim = next(c for c in CLAIMS if c.id.endswith("kinked-mean-mc-vs-rational"))
    assert run_claim(claim).measured == run_claim(claim).measured
