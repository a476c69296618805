import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fedtheory.harness.cli import main

FAST = "yuan-thesis/def-2.5:quadratic-zero-bias-moments"


def _run(*args):
    return subprocess.run([sys.executable, "-m", "fedtheory.harness.cli", *args], capture_output=True, text=True)


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


def test_verify_writes_the_three_reports(tmp_path, capsys):
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
    assert FAST in (tmp_path / "verify.html").read_text()
    assert "1 claims, 0 fail as printed. By scope: printed 1 (1 holds); all as expected" in capsys.readouterr().out


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


# ---------------------------------------------------------------------------------------------------------------------
# Runs that survive their users: signals, resume, progress off a terminal, plugins, figures, --jobs
# ---------------------------------------------------------------------------------------------------------------------
PLUGINS = Path(__file__).parent / "plugins"


def _env(modules="sleepy_claims", **extra):
    path = os.pathsep.join(filter(None, [str(PLUGINS), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "FEDTHEORY_CLAIMS": modules, **extra}


def _fedtheory(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "fedtheory.harness.cli", *args], capture_output=True, text=True, env=env, timeout=600
    )


def _children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    "signum, code, jobs",
    [(signal.SIGINT, 130, 2), (signal.SIGTERM, 143, 2), (signal.SIGKILL, -9, 2), (signal.SIGINT, 130, 1)],
)
def test_a_signal_stops_a_run_at_once_without_orphans_and_keeps_finished_claims(tmp_path, signum, code, jobs):
    env = _env(SLEEPY_SECONDS="1.0" if jobs > 1 else "0.5", SLEEPY_COUNT="40")
    argv = [sys.executable, "-m", "fedtheory.harness.cli", "verify", "test-sleepy/nap", "--jobs", str(jobs)]
    proc = subprocess.Popen(
        [*argv, "--report-dir", str(tmp_path)],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    journal = tmp_path / "verify.journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not journal.exists() or len(journal.read_text().splitlines()) < 4):
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= jobs if jobs > 1 else not workers, "the run has its worker processes"
    sent = time.monotonic()
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)  # Ctrl-C: the terminal signals the whole foreground group, workers included
    else:
        os.kill(proc.pid, signum)  # kill / SIGKILL reach the parent alone
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and time.monotonic() - sent < 2.0, (proc.returncode, err)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and not all(_gone(w) for w in workers):
        time.sleep(0.05)
    assert all(_gone(w) for w in workers), "no worker outlives the run"
    assert "Traceback" not in err
    if signum != signal.SIGKILL:
        stop_lines = [line for line in err.splitlines() if line.startswith("fedtheory: ")]
        assert len(stop_lines) == 1 and "--resume" in stop_lines[0], err
    kept = [json.loads(line) for line in journal.read_text().splitlines()[1:] if line.endswith("}")]
    assert len(kept) >= 3 and all(r["verdict"] == "holds" for r in kept)
    assert not list(tmp_path.glob("verify.json*")), "an interrupted run leaves no report, whole or half"
    resumed = _fedtheory(
        "verify",
        "test-sleepy/nap",
        "--jobs",
        "2",
        "--resume",
        "--report-dir",
        str(tmp_path),
        env={**env, "SLEEPY_SECONDS": "0"},
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {len(kept)} finished claims kept" in resumed.stderr
    assert "40 claims, 0 fail as printed. By scope: printed 40 (40 holds)" in resumed.stdout


def test_resume_needs_the_same_code_and_profile(tmp_path):
    from fedtheory.harness.journal import Journal
    from fedtheory.harness.report import Result

    path = tmp_path / "j.jsonl"
    with Journal(path, profile="quick") as j:
        j.record(Result("a/b", "s", "t", "holds", "holds"))
    with path.open("a") as f:
        f.write('{"id": "a/c", "verd')  # a line cut short by a kill is ignored
    with Journal(path, profile="quick", resume=True) as j:
        assert list(j.finished) == ["a/b"] and j.resume_note.startswith("resuming: 1")
    with Journal(path, profile="full", resume=True) as j:
        assert not j.finished and "profile 'quick', not 'full'" in j.resume_note
    header = json.loads(path.read_text().splitlines()[0])
    path.write_text(json.dumps({**header, "code": "0" * 64}) + "\n")
    with Journal(path, profile="full", resume=True) as j:
        assert not j.finished and "code or library versions changed" in j.resume_note


def test_progress_off_a_terminal_prints_count_elapsed_and_time_left(monkeypatch):
    import io

    from rich.console import Console

    from fedtheory.harness import runner
    from fedtheory.harness.claims import REGISTRY, Evidence, claim

    monkeypatch.setattr(runner, "PLAIN_EVERY_SECONDS", 0.3)
    monkeypatch.setattr(runner, "PLAIN_EVERY_CLAIMS", 3)

    ids = [f"test-progress/c{i}" for i in range(7)]
    for i in ids:
        claim(i, source="", statement="", scope="printed", expect="holds")(
            lambda ctx: (time.sleep(0.25), Evidence(1.0, 2.0, "<="))[1]
        )
    try:
        buffer = io.StringIO()
        runner.run([REGISTRY[i] for i in ids], console=Console(file=buffer, width=200))
        lines = buffer.getvalue().splitlines()
    finally:
        for i in ids:
            REGISTRY.pop(i, None)
    assert lines[0] == "verify: 7 claims to run"
    counted = [line for line in lines if " elapsed, " in line]
    assert any(line.startswith("verify: 3/7 claims") for line in counted)  # every PLAIN_EVERY_CLAIMS
    assert counted[-1].startswith("verify: 7/7 claims") and "about 0:00 left" in counted[-1]
    assert len(counted) >= 4, "the ticker adds lines between claim counts (every PLAIN_EVERY_SECONDS)"


def test_jobs_above_the_cores_are_capped_with_a_notice(tmp_path, capsys):
    from fedtheory.harness.runner import available_cores

    assert main(["verify", FAST, "--jobs", "999", "--report-dir", str(tmp_path)]) == 0
    assert f"--jobs 999 capped at {available_cores()}" in capsys.readouterr().err


def test_a_broken_plugin_is_named_in_one_line_and_skipped():
    env = _env("sleepy_claims,broken_import_claims,duplicate_id_claims,malformed_id_claims")
    out = _fedtheory("list", "test-sleepy", env=env)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("fedtheory: warning: claim plugin ") for line in lines), lines
    assert "broken_import_claims' skipped: ModuleNotFoundError" in lines[0]
    assert "duplicate_id_claims' skipped" in lines[1] and "test-sleepy/nap:0" in lines[1]
    assert "malformed_id_claims' skipped" in lines[2] and "invalid id" in lines[2]
    assert "test-sleepy/nap:0" in out.stdout and "other-claim-of-this-plugin" not in out.stdout  # rolled back
    shown = _fedtheory("show", "test-sleepy/nap:1", env=env)
    assert shown.returncode == 0 and "verdict:   holds" in shown.stdout, shown.stderr  # the other commands work


def test_figures_says_written_unchanged_or_failed_and_names_claims_without_one(tmp_path):
    env = _env()
    first = _fedtheory("figures", "test-sleepy", "--out", str(tmp_path), env=env)
    text = first.stdout
    assert f"{tmp_path}/test-sleepy/fig.png: written" in text
    assert "broken.png: failed: RuntimeError: no data for the figure" in text
    assert "missing.png: failed: the claim ran but wrote no figure" in text
    (no_figure,) = [line for line in text.splitlines() if line.startswith("no figure: ")]
    assert "test-sleepy/nap:0" in no_figure and "test-sleepy/crash" in no_figure
    assert first.returncode == 1
    again = _fedtheory("figures", "test-sleepy/figure", "--out", str(tmp_path), env=env)
    assert "fig.png: unchanged" in again.stdout and again.returncode == 0
    changed = _fedtheory("figures", "test-sleepy/figure", "--out", str(tmp_path), env={**env, "SLEEPY_FIGURE": "b"})
    assert "fig.png: written" in changed.stdout


def test_show_opens_an_exact_id_that_has_parts(capsys):
    assert main(["show", "yuan-thesis/thm-a.4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("yuan-thesis/thm-a.4 ") and "parts:" in out and "yuan-thesis/thm-a.4:k-ge-2" in out


def test_verify_exact_runs_only_the_given_id(tmp_path):
    assert main(["verify", "--exact", "yuan-thesis/thm-a.4", "--report-dir", str(tmp_path)]) == 0
    ids = [c["id"] for c in json.loads((tmp_path / "verify.json").read_text())["claims"]]
    assert ids == ["yuan-thesis/thm-a.4"]


def test_a_worker_that_dies_errs_its_claim_and_the_run_goes_on(tmp_path):
    out = _fedtheory(
        "verify", "test-sleepy/crash", "test-sleepy/nap", "--jobs", "2", "--report-dir", str(tmp_path), env=_env()
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr
    claims = {c["id"]: c for c in json.loads((tmp_path / "verify.json").read_text())["claims"]}
    assert claims["test-sleepy/crash"]["verdict"] == "error"
    assert "worker process running this claim died (signal 9)" in claims["test-sleepy/crash"]["error"]
    assert sum(c["verdict"] == "holds" for c in claims.values()) == 6
