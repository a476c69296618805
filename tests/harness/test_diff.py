"""``fedtheory diff OLD.json NEW.json`` and :mod:`fedtheory.harness.diff`, on small reports written in tmp_path."""

import io
import json
import math
import subprocess
import sys

import pytest
from rich.console import Console

from fedtheory.errors import InvalidParameterError, ReportReadError
from fedtheory.harness import report
from fedtheory.harness.cli import main
from fedtheory.harness.diff import diff_reports, margin_moved, read_report


def _claim(cid, verdict="holds", *, expect=None, scope="printed", margin=0.5):
    return {"id": cid, "verdict": verdict, "expect": expect or verdict, "scope": scope, "margin": margin}


def _write(path, claims, *, profile="quick"):
    path.write_text(json.dumps({"profile": profile, "versions": {"fedtheory": "0.1.0"}, "claims": claims}))
    return path


@pytest.fixture
def pair(tmp_path):
    """An old and a new report with one change of every kind."""
    old = _write(
        tmp_path / "old.json",
        [
            _claim("p/same"),
            _claim("p/verdict", margin=0.9),
            _claim("p/scope", scope="printed"),
            _claim("p/expect", "fails", expect="holds", margin=1.5),
            _claim("p/margin", margin=0.5),
            _claim("p/gone", "fails", margin=2.0),
        ],
    )
    new = _write(
        tmp_path / "new.json",
        [
            _claim("p/same"),
            _claim("p/verdict", "fails", expect="holds", margin=1.1),
            _claim("p/scope", scope="stand-in"),
            _claim("p/expect", "fails", margin=1.5),
            _claim("p/margin", margin=0.6),
            _claim("p/new", "inconclusive", margin=None),
        ],
    )
    return old, new


def _run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    return code, capsys.readouterr()


def test_every_kind_of_change_is_found(pair):
    d = diff_reports(*pair)
    assert [s.id for s in d.appeared] == ["p/new"]
    assert [s.id for s in d.disappeared] == ["p/gone"]
    assert {c.id: c.fields for c in d.changed} == {
        "p/verdict": ("verdict", "margin"),
        "p/scope": ("scope",),
        "p/expect": ("expect",),
        "p/margin": ("margin",),
    }
    assert d.unchanged == 1 and d.verdict_changed and not d.empty
    assert [c.id for c in d.changes("margin")] == ["p/verdict", "p/margin"]
    (change,) = d.changes("verdict")
    assert (change.old.verdict, change.new.verdict) == ("holds", "fails")
    assert d.summary().startswith("5 claims in both: 1 changed verdict, 1 scope, 1 expected verdict, 2 margin")
    assert d.summary().endswith("1 appeared, 1 disappeared")


def test_identical_reports_have_no_diff(pair):
    old, _ = pair
    d = diff_reports(old, read_report(old))
    assert d.empty and not d.verdict_changed and d.unchanged == 6


@pytest.mark.parametrize(
    "old, new, tol, moved",
    [
        (1.0, 1.0, 0.0, False),
        (1.0, 1.0 + 2**-52, 0.0, True),  # tolerance 0: any change
        (1.0, 2.0, 0.5, False),  # |2 - 1| = 0.5 * max(1, 2): the boundary is unchanged
        (1.0, 2.0 + 1e-12, 0.5, True),  # just beyond it
        (-1.0, 1.0, 0.5, True),
        (0.0, 1e-300, 1e-6, True),  # relative: a margin leaving zero moved
        (None, None, 0.0, False),
        (None, 0.0, 1.0, True),  # a margin that appears or disappears always moved
        (0.0, None, 1.0, True),
        (math.inf, math.inf, 0.0, False),
        (math.inf, -math.inf, 1.0, True),
        (math.nan, math.nan, 0.0, False),
        (math.nan, 1.0, 1.0, True),
    ],
)
def test_margin_tolerance(old, new, tol, moved):
    assert margin_moved(old, new, tol) is moved


def test_margin_tolerance_in_the_diff(tmp_path):
    old = _write(tmp_path / "old.json", [_claim("p/a", margin=1.0)])
    new = _write(tmp_path / "new.json", [_claim("p/a", margin=1.0 + 1e-7)])
    assert diff_reports(old, new).empty  # default relative tolerance 1e-6
    assert [c.fields for c in diff_reports(old, new, margin_tol=1e-8).changed] == [("margin",)]


@pytest.mark.parametrize("tol", [-1e-9, math.nan, math.inf, "0.1", True])
def test_a_bad_margin_tol_is_refused(pair, tol):
    with pytest.raises(InvalidParameterError, match="margin_tol"):
        diff_reports(*pair, margin_tol=tol)


def test_changes_names_the_allowed_fields(pair):
    with pytest.raises(InvalidParameterError, match="verdict, scope, expect, margin"):
        diff_reports(*pair).changes("witness")


def test_reads_what_verify_writes(tmp_path):
    """A report written by :func:`report.write_json` (a non-finite margin is written as its text)."""
    results = [
        report.Result(id="p/a", source="Thm 1", statement="s", verdict="holds", expect="holds", margin=math.inf),
        report.Result(id="p/b", source="Thm 2", statement="s", verdict="fails", expect="fails", scope="corrected"),
    ]
    path = report.write_json(results, tmp_path / "verify.json", profile="quick", seconds=1.0)
    state = read_report(path)
    assert state.profile == "quick" and state.version is not None
    assert state.claims["p/a"].margin == math.inf and state.claims["p/b"].scope == "corrected"
    assert diff_reports(path, path).empty


def test_renderings(pair):
    d = diff_reports(*pair, margin_tol=0.0)
    text = str(d)
    assert "changed      p/verdict: verdict holds → fails; margin 0.9 → 1.1" in text
    assert "changed      p/scope: scope printed → stand-in" in text
    assert "appeared     p/new: inconclusive (expected inconclusive; printed)" in text
    assert "disappeared  p/gone: fails" in text
    assert text.endswith(d.summary())
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(d.table())
    table = console.file.getvalue()
    assert "holds → fails" in table and "printed → stand-in" in table and "0.5 → 0.6" in table
    assert "│ appeared " in table and "│ disappeared " in table
    doc = json.loads(json.dumps(d.to_dict()))
    assert doc["verdict_changed"] is True and doc["margin_tol"] == 0.0
    assert [c["id"] for c in doc["changed"]] == ["p/verdict", "p/scope", "p/expect", "p/margin"]
    assert doc["appeared"][0] == {
        "id": "p/new",
        "verdict": "inconclusive",
        "expect": "inconclusive",
        "scope": "printed",
        "margin": None,
    }


def test_margins_show_the_digits_that_differ(tmp_path):
    old = _write(tmp_path / "old.json", [_claim("p/a", margin=0.912345678)])
    new = _write(tmp_path / "new.json", [_claim("p/a", margin=0.912349999)])
    assert "margin 0.912346 → 0.91235" in str(diff_reports(old, new))


def test_profiles_that_differ_are_noted(tmp_path):
    old = _write(tmp_path / "old.json", [_claim("p/a")])
    new = _write(tmp_path / "new.json", [_claim("p/a")], profile="full")
    assert "profiles differ" in diff_reports(old, new).header()
    assert "profiles differ" not in diff_reports(old, old).header()


def test_cli_exits_1_when_a_verdict_changed(pair, capsys):
    code, out = _run(["diff", *map(str, pair)], capsys)
    assert code == 1 and out.err == ""
    assert "holds → fails" in out.out and "1 changed verdict" in out.out


def test_cli_exits_0_when_only_other_fields_changed(tmp_path, capsys):
    old = _write(tmp_path / "old.json", [_claim("p/a", margin=0.5), _claim("p/b")])
    new = _write(tmp_path / "new.json", [_claim("p/a", scope="corrected", margin=0.7), _claim("p/c", "fails")])
    code, out = _run(["diff", str(old), str(new)], capsys)
    assert code == 0 and "0 changed verdict, 1 scope" in out.out
    code, out = _run(["diff", str(old), str(old)], capsys)
    assert code == 0 and "0 changed verdict" in out.out and "┃" not in out.out  # no table when nothing changed


def test_cli_margin_tol_and_json(tmp_path, capsys):
    old = _write(tmp_path / "old.json", [_claim("p/a", margin=1.0)])
    new = _write(tmp_path / "new.json", [_claim("p/a", "fails", expect="holds", margin=1.2)])
    code, out = _run(["diff", str(old), str(new), "--json"], capsys)
    doc = json.loads(out.out)
    assert code == 1 and doc["verdict_changed"] and doc["changed"][0]["fields"] == ["verdict", "margin"]
    code, out = _run(["diff", str(old), str(new), "--json", "--margin-tol", "0.2"], capsys)
    assert code == 1 and json.loads(out.out)["changed"][0]["fields"] == ["verdict"]


def test_the_installed_command_exits_1(pair):
    out = subprocess.run(
        [sys.executable, "-m", "fedtheory.harness.cli", "diff", *map(str, pair)], capture_output=True, text=True
    )
    assert out.returncode == 1 and "p/verdict" in out.stdout and out.stderr == ""


def _file(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def _folder(path):
    path.mkdir()
    return path


BAD_FILES = {  # label: (make the file in tmp_path, what the message says)
    "missing": (lambda t: t / "missing.json", "does not exist"),
    "folder": (lambda t: _folder(t / "folder"), "is a folder"),
    "below a file": (lambda t: _file(t / "a-file", "x") / "r.json", "cannot be read"),
    "not utf-8": (lambda t: _file(t / "b.json", b"\xff\xfe\x00garbage"), "not UTF-8"),
    "empty": (lambda t: _file(t / "b.json", ""), "is not JSON"),
    "not json": (lambda t: _file(t / "b.json", "x"), "is not JSON"),
    "a json list": (lambda t: _file(t / "b.json", "[1, 2]"), "'claims' list"),
    "no claims": (lambda t: _file(t / "b.json", '{"profile": "quick"}'), "'claims' list"),
    "claim without id": (lambda t: _write(t / "b.json", [{"verdict": "holds"}]), "claim entry 0 has no 'id'"),
    "claim not an object": (lambda t: _write(t / "b.json", ["p/a"]), "claim entry 0 is not an object"),
    "verdict not a string": (lambda t: _write(t / "b.json", [{"id": "p/a", "verdict": 3}]), "no 'verdict'"),
    "margin not a number": (lambda t: _write(t / "b.json", [_claim("p/a", margin="wide")]), "margin 'wide'"),
    "margin a boolean": (lambda t: _write(t / "b.json", [_claim("p/a", margin=True)]), "margin True"),
    "id twice": (lambda t: _write(t / "b.json", [_claim("p/a"), _claim("p/a")]), "listed twice"),
}


@pytest.mark.parametrize("label", BAD_FILES)
@pytest.mark.parametrize("side", ["OLD", "NEW"])
def test_a_bad_file_is_one_line_naming_it(label, side, tmp_path, capsys):
    make, why = BAD_FILES[label]
    bad = make(tmp_path)
    good = _write(tmp_path / "good.json", [_claim("p/a")])
    argv = ["diff", str(bad), str(good)] if side == "OLD" else ["diff", str(good), str(bad)]
    code, out = _run(argv, capsys)
    err = out.err.strip()
    assert code == 2 and out.out == ""
    assert err.count("\n") == 0 and err.startswith(f"fedtheory: error: {side}: ") and why in err, err
    assert str(bad) in err and "Traceback" not in err


def test_the_library_names_the_parameter(tmp_path):
    with pytest.raises(ReportReadError, match=r"^old: .* does not exist"):
        diff_reports(tmp_path / "missing.json", tmp_path / "missing.json")


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--margin-tol", "-1"], "--margin-tol"),
        (["--margin-tol", "nan"], "--margin-tol"),
        (["--margin-tol", "tight"], "--margin-tol"),
        ([], "NEW"),
    ],
)
def test_bad_arguments_are_one_line(argv, named, pair, capsys):
    args = ["diff", str(pair[0]), *([str(pair[1])] if argv else []), *argv]
    code, out = _run(args, capsys)
    assert code == 2 and out.err.strip().count("\n") == 0 and named in out.err and "Traceback" not in out.err
