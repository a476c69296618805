"""The verdicts recorded at paper scale (``expect_paper``) are the ones of the committed GPU report."""

import json
from pathlib import Path

from fedtheory import backends
from fedtheory.harness.claims import select

REPORT = Path(__file__).resolve().parents[1] / "reports" / "paper-scale-h200" / "verify.json"


def test_every_recorded_paper_scale_verdict_is_the_gpu_reports():
    report = json.loads(REPORT.read_text())
    assert report["profile"] == "full"
    ran = {r["id"]: r for r in report["claims"]}
    recorded = {c.id: c for c in select() if c.expect_paper is not None}
    assert set(recorded) == set(ran)
    for claim_id, claim in recorded.items():
        r = ran[claim_id]
        assert claim.expect_paper == r["verdict"], claim_id
        assert claim.statement == r["statement"], f"{claim_id}: the statement changed since the GPU run; rerun it"


def test_a_paper_scale_run_compares_with_the_paper_scale_record(monkeypatch):
    (claim,) = select(["yuan-thesis/fig-3.1:mbacsgd"], exact=True)
    assert (claim.expect, claim.expect_paper) == ("holds", "inconclusive")
    monkeypatch.setenv(backends.PAPER_SCALE_VARIABLE, "0")
    assert claim.expected("full") == claim.expected("quick") == "holds"
    monkeypatch.setenv(backends.PAPER_SCALE_VARIABLE, "1")
    assert claim.expected("full") == "inconclusive" and claim.expected("quick") == "holds"
