"""Objects that show themselves (Evidence, Result, a loaded report) and ``fedtheory.load_report``."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

import fedtheory
from fedtheory.errors import InvalidParameterError, UnknownClaimError
from fedtheory.harness.claims import Evidence
from fedtheory.harness.loaded_report import Report, load_report
from fedtheory.harness.report import Result, write_json

SCRIPT = "<script>alert('x')</script>"


class Tree(HTMLParser):
    """Tags (checked to nest properly), and the text outside tags."""

    VOID = frozenset({"br", "hr", "img", "meta", "input"})

    def __init__(self, html: str):
        super().__init__()
        self.open: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes {self.open[-1:] or 'nothing'}"

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Tree:
    tree = Tree(html)
    assert tree.open == [], f"unclosed tags {tree.open}"
    assert "script" not in tree.tags
    return tree


def evidence(**kw) -> Evidence:
    return Evidence(
        np.array([1.0, 2.0, 3.0]),
        [2.0, 1.5, 4.0],
        "<=",
        grid={"k": [1, 2, 3]},
        interval=([0.5, 1.9, 2.5], [1.5, 2.2, 3.2]),
        witness={SCRIPT: "instance", "seed": 3},
        **kw,
    )


def result(claim_id: str = "toy/thm-1", verdict: str = "fails", scope: str = "printed", **kw) -> Result:
    base = {
        "source": "Theorem 1",
        "statement": f"bias <= 4 eta^2 {SCRIPT}",
        "expect": verdict,
        "measured": [1.0, 2.0],
        "bound": [1.5, 1.5],
        "relation": "<=",
        "margin": 2.0 / 1.5,
        "worst": {"index": 1, "measured": 2.0, "bound": 1.5, "parameters": {"k": 2}, "entries": 2, "failed": 1},
        "witness": {"instance": SCRIPT, "values": list(range(10)), "interval": {"lo": [0.9, 1.8], "hi": [1.1, 2.2]}},
        "seed": 7,
    }
    return Result(claim_id, verdict=verdict, scope=scope, **{**base, **kw})


@pytest.fixture
def report_path(tmp_path):
    results = [
        result("toy/thm-1"),
        result("toy/thm-1:corrected", "holds", "corrected", margin=0.5),
        result("other/lem-2", "inconclusive", "stand-in"),
        result("other/lem-3", "error", error="ValueError: bad\nTraceback ..."),
    ]
    return write_json(results, tmp_path / "verify.json", profile="quick", seconds=1.5)


def test_evidence_summary_states_verdict_margin_worst_entry_interval_and_witness_keys():
    text = evidence().summary()
    assert text.startswith("Evidence: fails")
    for part in ("1 of 3 entries fail", "margin", "1.333", "#1: measured 2, bound 1.5", "k=2", "[1.9, 2.2]", "seed"):
        assert part in text
    assert repr(evidence()).startswith("Evidence(measured=")  # the dataclass repr is kept


def test_evidence_html_parses_and_escapes_the_witness():
    html = evidence()._repr_html_()
    tree = parse(html)
    assert SCRIPT in "".join(tree.text)  # shown as text, never as a tag
    assert "fails" in tree.text and "#1: measured 2, bound 1.5" in tree.text


def test_evidence_that_cannot_be_judged_shows_the_verdict_error_with_the_reason():
    bad = Evidence([float("nan")], 1.0, "<=")
    assert "Evidence: error" in bad.summary() and "not finite" in bad.summary()
    assert "not finite" in "".join(parse(bad._repr_html_()).text)
    assert "do not broadcast" in Evidence([1.0, 2.0], [1.0, 2.0, 3.0], "<=").summary()


def test_equality_evidence_says_what_its_margin_means():
    text = Evidence([1e-13], 0.0, "==", atol=1e-12).summary()
    assert "Evidence: holds" in text and "0.1 (deviation / allowed deviation)" in text


def test_result_summary_and_html():
    r = result()
    text = r.summary()
    assert text.splitlines()[0] == "toy/thm-1  fails  [printed]"
    for part in ("margin       1.333", "#1: measured 2 <= bound 1.5", "[1.8, 2.2] at the worst entry", "10 values"):
        assert part in text
    assert "(expected holds)" in result(expect="holds").summary()
    tree = parse(r._repr_html_())
    text = "".join(tree.text)
    assert SCRIPT in text and "witness (2 keys)" in text and "details" in tree.tags


def test_an_error_result_folds_its_traceback():
    r = result(verdict="error", error="ValueError: bad <b>\nTraceback (most recent call last): ...")
    assert "ValueError: bad <b>" in r.summary() and "Traceback" not in r.summary()
    tree = parse(r._repr_html_())
    assert "traceback" in tree.text and "b" not in tree.tags


def test_load_report_gives_results_lookup_iteration_and_counts(report_path):
    report = fedtheory.load_report(report_path)
    assert isinstance(report, Report) and len(report) == 4
    assert [r.id for r in report] == ["toy/thm-1", "toy/thm-1:corrected", "other/lem-2", "other/lem-3"]
    assert report["toy/thm-1"] == result()  # the per-claim "versions" key is dropped
    assert "other/lem-2" in report and "nope/x" not in report
    assert report.profile == "quick" and report.seconds == 1.5 and "numpy" in report.versions
    assert report.counts["printed"] == {"holds": 0, "fails": 1, "inconclusive": 0, "error": 1}
    assert report.counts_by_paper["other"]["inconclusive"] == 1
    assert report.summary.startswith("4 claims, 1 fail as printed")
    assert load_report(report_path.parent) == report  # the report folder works too


def test_lookup_of_an_unknown_id_suggests_close_ones(report_path):
    report = load_report(report_path)
    with pytest.raises(UnknownClaimError, match="did you mean toy/thm-1"):
        report["toy/thm-2"]
    with pytest.raises(InvalidParameterError, match="claim_id"):
        report[0]


def test_filter_by_paper_scope_and_verdict(report_path):
    report = load_report(report_path)
    assert [r.id for r in report.filter(paper="toy")] == ["toy/thm-1", "toy/thm-1:corrected"]
    assert [r.id for r in report.filter(scope="printed", verdict=["fails", "error"])] == ["toy/thm-1", "other/lem-3"]
    assert len(report.filter(paper="toy", verdict="inconclusive")) == 0
    subset = report.filter(scope="corrected")
    assert subset.summary.startswith("1 claims, 0 fail as printed") and list(subset.papers) == ["toy"]
    for name, value in (("paper", "tyo"), ("scope", "print"), ("verdict", ["fails", "fail"])):
        with pytest.raises(InvalidParameterError, match=f"invalid {name}: expected "):
            report.filter(**{name: value})


def test_report_shows_itself_as_html_and_text(report_path):
    report = load_report(report_path)
    tree = parse(report._repr_html_())
    text = " ".join(tree.text)
    for part in ("4 claims, 1 fail as printed", "toy", "other", "printed", "corrected", "stand-in", "other/lem-3"):
        assert part in text
    assert tree.tags.count("tr") == (1 + 3) + (1 + 2) + (1 + 4)  # header and rows: scopes, papers, claims
    shown = str(report)
    assert "4 claims, 1 fail as printed" in shown and "other/lem-2" in shown and "paper" in shown
    assert repr(report).startswith("<Report: 4 claims (quick profile), 1 fail as printed from ")


def test_a_claim_text_with_markup_is_escaped_in_the_report(tmp_path):
    path = write_json(
        [result(f"toy/x:{i}", source=SCRIPT) for i in range(3)], tmp_path / "r.json", profile="full", seconds=0
    )
    tree = parse(load_report(path)._repr_html_())
    assert SCRIPT[:20] in "".join(tree.text)


def test_an_older_report_loads_with_defaults_and_unknown_keys_are_ignored(tmp_path):
    entry = {
        "id": "old/thm-1",
        "source": "Thm 1",
        "statement": "s",
        "verdict": "holds",
        "expect": "holds",
        "margin": 0.5,
    }
    path = tmp_path / "verify.json"
    path.write_text(
        json.dumps(
            {
                "profile": "full",
                "seconds": 2.0,
                "claims": [{**entry, "future_key": 1}, {"id": "old/a", "verdict": "fails"}],
            }
        )
    )
    report = load_report(str(path))
    old = report["old/thm-1"]
    assert old.scope == "printed" and old.search is None and old.worst == {} and report.profile == "full"
    assert report["old/a"].expect == "fails" and report.papers == {"old": None}
    assert "old/thm-1  holds  [printed]" in old.summary() and parse(old._repr_html_())


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (None, "an existing verify.json report"),
        ("{not json", "a JSON report"),
        ('{"claims": 3}', "a 'claims' list"),
        ("[1, 2]", "a 'claims' list"),
        ('{"claims": [{"id": "a/b"}]}', "entry 0 lacks verdict"),
    ],
)
def test_a_bad_path_names_the_parameter(tmp_path, content, match):
    path = tmp_path / "verify.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InvalidParameterError, match=f"invalid path: .*{match}"):
        load_report(path)


def test_a_path_of_the_wrong_type_is_refused():
    with pytest.raises(InvalidParameterError, match="invalid path: expected a path"):
        load_report(3)


def test_import_fedtheory_does_not_load_the_harness():
    code = (
        "import sys, fedtheory; assert not any(m.startswith('fedtheory.harness') for m in sys.modules); "
        "fedtheory.load_report"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert fedtheory.load_report is load_report and "load_report" in dir(fedtheory)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        fedtheory.nope  # noqa: B018
