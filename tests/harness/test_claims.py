from fractions import Fraction

import pytest

from fedtheory.errors import InvalidParameterError, UnknownClaimError
from fedtheory.harness.claims import Evidence, claim, judge, seed_for, select


def test_inequalities_hold_and_fail_with_the_worst_entry_as_witness():
    ok = judge(Evidence([1.0, 2.0, 3.0], [2.0, 4.0, 3.5], "<=", grid={"k": [1, 2, 3]}))
    assert ok.verdict == "holds" and ok.parameters == {"k": 3} and ok.margin == pytest.approx(3 / 3.5)
    bad = judge(Evidence([1.0, 5.0, 3.0], 4.0, "<=", grid={"k": [1, 2, 3]}))
    assert bad.verdict == "fails" and bad.parameters == {"k": 2} and bad.n_failed == 1
    assert judge(Evidence([3.0], [2.0], ">=")).verdict == "holds"
    assert judge(Evidence([0.0], [0.0], "<")).verdict == "fails"


def test_intervals_give_inconclusive_when_they_straddle_the_bound():
    assert judge(Evidence([1.0], 1.5, "<=", interval=([0.5], [1.4]))).verdict == "holds"
    assert judge(Evidence([1.0], 1.5, "<=", interval=([0.5], [1.6]))).verdict == "inconclusive"
    assert judge(Evidence([2.0], 1.5, "<=", interval=([1.6], [2.4]))).verdict == "fails"
    assert judge(Evidence([2.0], 1.5, "==", interval=([1.6], [2.4]))).verdict == "fails"
    assert judge(Evidence([2.0], 2.1, "==", interval=([1.6], [2.4]))).verdict == "holds"


def test_exact_values_are_compared_exactly():
    tiny = Fraction(1, 10**40)
    assert judge(Evidence([Fraction(1, 3)], [Fraction(1, 3)], "==")).verdict == "holds"
    assert judge(Evidence([Fraction(1, 3) + tiny], [Fraction(1, 3)], "==")).verdict == "fails"
    assert judge(Evidence([Fraction(1, 3) + tiny], [Fraction(1, 3)], "<=")).verdict == "fails"


def test_tolerances_apply_and_equality_margin_is_fraction_of_allowed():
    out = judge(Evidence([1e-13], 0.0, "==", atol=1e-12))
    assert out.verdict == "holds" and out.margin == pytest.approx(0.1)


def test_bad_evidence_and_registration():
    with pytest.raises(InvalidParameterError, match="relation"):
        Evidence(1, 1, "=<")
    with pytest.raises(InvalidParameterError, match="expect"):
        claim("x/y", source="", statement="", scope="printed", expect="maybe")
    with pytest.raises(InvalidParameterError, match="id"):
        claim("no-slash", source="", statement="", scope="printed", expect="holds")
    for scope in (None, "proven", ["printed"]):  # every claim says what its verdict is a verdict on
        with pytest.raises(InvalidParameterError, match="scope"):
            claim("x/y", source="", statement="", scope=scope, expect="holds")


def test_the_summary_counts_fails_as_printed_apart_from_the_other_scopes():
    from fedtheory.harness.report import Result, counts, summary

    results = [
        Result("p/a", "", "", "fails", "fails", scope="printed"),
        Result("p/b", "", "", "holds", "holds", scope="printed"),
        Result("p/c", "", "", "fails", "fails", scope="stand-in"),
        Result("p/d", "", "", "fails", "holds", scope="outside-hypotheses"),
    ]
    line = summary(results, 1.0)
    assert line.startswith("4 claims, 1 fail as printed. By scope: printed 2 (1 holds, 1 fails); stand-in 1 (1 fails)")
    assert "outside-hypotheses 1 (1 fails); 1 differ from the recorded verdict" in line
    assert list(counts(results)) == ["printed", "stand-in", "outside-hypotheses"]


def test_a_negative_control_must_fail():
    from fedtheory.errors import InvalidEvidenceError
    from fedtheory.harness.claims import negative_control

    record = negative_control(Evidence([1.0, 3.0], 2.0, "<="), "the bound halved")
    assert record["verdict"] == "fails" and record["failed"] == "1 of 2"
    with pytest.raises(InvalidEvidenceError, match="cannot fail"):
        negative_control(Evidence([1.0], 2.0, "<="), "a control that holds")


def test_selection_and_seeds():
    ids = [c.id for c in select(["yuan-thesis/fig-2.1"])]
    assert ids and all(i.startswith("yuan-thesis/fig-2.1:") for i in ids)
    with pytest.raises(UnknownClaimError, match="no-such-claim"):
        select(["no-such-claim"])
    assert select(["str-fedavg/"]) == select(["str-fedavg"])  # a paper key written as a folder
    with pytest.raises(UnknownClaimError):
        select(["yuan-thesis/fig-2.1/"])  # only a paper key may end in a slash
    assert seed_for("a/b") == seed_for("a/b") != seed_for("a/c")


def test_report_json_accepts_exact_and_symbolic_values():
    import json

    import sympy as sp

    from fedtheory.harness.report import jsonable

    doc = jsonable({"a": Fraction(1, 4), "b": sp.Rational(1, 3), "c": float("inf"), "d": [sp.Symbol("x"), None, True]})
    assert json.loads(json.dumps(doc)) == {"a": 0.25, "b": 1 / 3, "c": "inf", "d": ["x", None, True]}


@pytest.mark.parametrize(
    "evidence, reason",
    [
        (Evidence([float("inf"), 1.0], 2.0, "<="), "measured is not finite at 1 of 2 entries .first: entry 0"),
        (Evidence([1.0, float("nan")], 2.0, ">=", grid={"k": [1, 2]}), "measured is not finite .* grid: k=2"),
        (Evidence([1.0], float("inf"), "<="), "bound is not finite"),
        (Evidence([1.0], [float("nan")], "=="), "bound is not finite"),
        (Evidence([1.0], 2.0, "<=", rtol=float("nan")), "rtol is nan"),
        (Evidence([1.0], 2.0, "<=", atol=float("inf")), "atol is inf"),
        (Evidence([1.0, 1.0], 2.0, "<=", interval=([0.5, 1.2], [1.5, 1.1])), "lo > hi at 1 entries .*entry 1"),
        (Evidence([1.0], 2.0, "<=", interval=([float("nan")], [1.5])), "interval has a NaN end"),
        (Evidence([1.0, 2.0], [1.0, 2.0, 3.0], "<="), "do not broadcast"),
        (Evidence([], [], "<="), "no entries"),
    ],
)
def test_evidence_that_would_hide_a_bug_is_an_error_never_a_failure(evidence, reason):
    """NaN compares false and an infinity trivially: judged, either would give a verdict the numbers do not support."""
    from fedtheory.errors import InvalidEvidenceError

    with pytest.raises(InvalidEvidenceError, match=reason):
        judge(evidence)


def test_a_claim_with_bad_evidence_or_that_raises_is_an_error_and_the_run_goes_on():
    from fedtheory.harness.claims import REGISTRY
    from fedtheory.harness.runner import run

    @claim("test-paper/nan", source="", statement="", scope="printed", expect="holds")
    def nan_claim(ctx):
        return Evidence([float("nan")], 1.0, "<=")

    @claim("test-paper/exit", source="", statement="", scope="printed", expect="holds")
    def exit_claim(ctx):
        raise SystemExit(3)

    @claim("test-paper/interrupt", source="", statement="", scope="printed", expect="holds")
    def interrupt_claim(ctx):
        raise KeyboardInterrupt

    @claim("test-paper/fine", source="", statement="", scope="printed", expect="holds")
    def fine_claim(ctx):
        return Evidence(1.0, 2.0, "<=")

    ids = ["test-paper/nan", "test-paper/exit", "test-paper/interrupt", "test-paper/fine"]
    try:
        results = run([REGISTRY[i] for i in ids])
        assert [r.verdict for r in results] == ["error", "error", "error", "holds"]
        assert results[0].error.startswith("invalid evidence: measured is not finite")
        assert results[1].error.startswith("SystemExit: 3") and results[2].error.startswith("KeyboardInterrupt")
    finally:
        for i in ids:
            REGISTRY.pop(i, None)


def test_witness_parameters_follow_the_broadcast_shape():
    out = judge(Evidence(3.0, [1.0, 4.0, 2.5], "<=", grid={"k": [10, 20, 30]}))
    assert out.verdict == "fails" and out.parameters == {"k": 10}


def test_the_full_profile_can_record_its_own_verdict():
    from fedtheory.harness.claims import REGISTRY
    from fedtheory.harness.runner import run_claim

    @claim("test-paper/per-profile", source="", statement="", scope="printed", expect="holds", expect_full="fails")
    def per_profile(ctx):
        return Evidence(1.0 if ctx.quick else 3.0, 2.0, "<=")

    try:
        c = REGISTRY["test-paper/per-profile"]
        assert c.expected("quick") == "holds" and c.expected("full") == "fails"
        assert run_claim(c, "quick").as_expected and run_claim(c, "full").as_expected
        with pytest.raises(InvalidParameterError, match="expect_full"):
            claim("test-paper/bad", source="", statement="", scope="printed", expect="holds", expect_full="maybe")
    finally:
        REGISTRY.pop("test-paper/per-profile", None)


def test_markdown_report_escapes_pipes_in_sources(tmp_path):
    from fedtheory.harness.claims import REGISTRY
    from fedtheory.harness.report import write_markdown
    from fedtheory.harness.runner import run_claim

    @claim("test-paper/pipes", source="Lemma 1, |x| <= 1 (line 3)", statement="", scope="printed", expect="holds")
    def pipes(ctx):
        return Evidence(1.0, 2.0, "<=")

    try:
        text = write_markdown([run_claim(REGISTRY["test-paper/pipes"])], tmp_path / "r.md", profile="quick", seconds=0)
        row = next(line for line in text.read_text().splitlines() if "test-paper/pipes" in line)
        assert "\\|x\\|" in row and row.count(" | ") == 10
    finally:
        REGISTRY.pop("test-paper/pipes", None)


def test_parallel_workers_keep_to_the_module_whose_families_they_cached():
    """A worker gets the next claim of the module it ran last, else one of a module no other worker runs."""
    from types import SimpleNamespace

    from fedtheory.harness.runner import next_claim

    todo = [SimpleNamespace(where=f"pkg.{m}:{i}") for i, m in enumerate("aabbc")]
    assert next_claim(todo, "pkg.b", {"pkg.a"}) == 2
    assert next_claim(todo, "pkg.z", {"pkg.a"}) == 2
    assert next_claim(todo, None, set()) == 0
    assert next_claim(todo, None, {"pkg.a", "pkg.b", "pkg.c"}) == 0
