import json
import subprocess
import sys

from fedtheory.cli import main

FAST = "yuan-thesis/def-2.5:quadratic-zero-bias-moments"


def _run(*args):
    return subprocess.run([sys.executable, "-m", "fedtheory.cli", *args], capture_output=True, text=True)


def test_unknown_claim_is_one_line_and_nonzero():
    out = _run("verify", "no-such-claim")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "no-such-claim" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_unknown_profile_is_one_line_and_nonzero():
    out = _run("verify", "--profile", "huge")
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0 and "profile" in out.stderr
    assert "Traceback" not in out.stderr


def test_bad_jobs_is_one_line():
    out = _run("verify", FAST, "--jobs", "0")
    assert out.returncode == 2 and "jobs" in out.stderr and "Traceback" not in out.stderr


def test_verify_writes_both_reports(tmp_path, capsys):
    code = main(["verify", FAST, "--report-dir", str(tmp_path)])
    assert code == 0
    doc = json.loads((tmp_path / "verify.json").read_text())
    entry = doc["claims"][0]
    for key in (
        "id",
        "source",
        "statement",
        "verdict",
        "expect",
        "measured",
        "bound",
        "relation",
        "margin",
        "witness",
        "seconds",
        "seed",
    ):
        assert key in entry
    assert {"numpy", "cvxpy", "solver"} <= set(entry["versions"])
    assert entry["versions"] == doc["versions"]
    assert FAST in (tmp_path / "verify.md").read_text()
    assert "1 claims: 1 holds; all as expected" in capsys.readouterr().out


def test_verify_in_parallel_matches_serial(tmp_path):
    targets = [FAST, "yuan-thesis/fig-2.1:drift-var"]
    assert main(["verify", *targets, "--jobs", "2", "--report-dir", str(tmp_path / "p")]) == 0
    assert main(["verify", *targets, "--report-dir", str(tmp_path / "s")]) == 0
    par = json.loads((tmp_path / "p" / "verify.json").read_text())["claims"]
    ser = json.loads((tmp_path / "s" / "verify.json").read_text())["claims"]
    assert [c["measured"] for c in par] == [c["measured"] for c in ser]


def test_list_and_show(capsys):
    assert main(["list", "yuan-thesis"]) == 0
    assert FAST in capsys.readouterr().out
    assert main(["show", FAST]) == 0
    out = capsys.readouterr().out
    assert "statement:" in out and "witness:" in out


def test_show_needs_an_exact_id():
    out = _run("show", "yuan-thesis")
    assert out.returncode == 2 and "exact claim id" in out.stderr


def test_figures_writes_png(tmp_path):
    assert main(["figures", "yuan-thesis/fig-2.1", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "yuan-thesis" / "fig-2.1.png").stat().st_size > 10_000
