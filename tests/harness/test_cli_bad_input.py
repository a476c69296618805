"""Bad command lines: each exits 2 with one line on stderr that names the argument, and no traceback.

Run in-process (``fedtheory.harness.cli.main``) so the table stays fast; ``test_cli.py`` runs the real command for
a few.
"""

import pytest

from fedtheory.harness.cli import main

FAST = "yuan-thesis/def-2.5:quadratic-zero-bias-moments"


def _cases(tmp):
    a_file = tmp / "a-file"
    a_file.write_text("x")
    a_dir = tmp / "a-dir"
    a_dir.mkdir()
    unwritable = "/proc/fedtheory-cannot-write-here"  # not even root may create folders in /proc
    return [
        ("unknown claim", ["verify", "no-such-claim"], "no-such-claim"),
        ("unknown paper key", ["list", "no-such-paper"], "no-such-paper"),
        ("empty target", ["verify", ""], "empty claim id"),
        ("unknown profile", ["verify", FAST, "--profile", "huge"], "--profile"),
        ("jobs zero", ["verify", FAST, "--jobs", "0"], "--jobs"),
        ("jobs negative", ["verify", FAST, "--jobs", "-3"], "--jobs"),
        ("jobs not a number", ["verify", FAST, "--jobs", "two"], "--jobs"),
        ("jobs fractional", ["verify", FAST, "--jobs", "1.5"], "--jobs"),
        ("report dir empty", ["verify", FAST, "--report-dir", ""], "--report-dir"),
        ("report dir is a file", ["verify", FAST, "--report-dir", str(a_file)], "--report-dir"),
        ("report dir below a file", ["verify", FAST, "--report-dir", str(a_file / "sub")], "--report-dir"),
        ("report dir unwritable", ["verify", FAST, "--report-dir", unwritable], "--report-dir"),
        ("report dir is a device", ["verify", FAST, "--report-dir", "/dev/null"], "--report-dir"),
        ("json empty", ["verify", FAST, "--json", ""], "--json"),
        ("json is a folder", ["verify", FAST, "--json", str(a_dir)], "--json"),
        ("json ends with a slash", ["verify", FAST, "--json", str(tmp / "new-folder") + "/"], "--json"),
        ("json below a file", ["verify", FAST, "--json", str(a_file / "r.json")], "--json"),
        ("json unwritable", ["verify", FAST, "--json", unwritable + "/r.json"], "--json"),
        ("figures empty", ["verify", FAST, "--figures", ""], "--figures"),
        ("figures is a file", ["verify", FAST, "--figures", str(a_file)], "--figures"),
        ("figures unwritable", ["verify", FAST, "--figures", unwritable], "--figures"),
        ("figures out empty", ["figures", "yuan-thesis/fig-2.1", "--out", ""], "--out"),
        ("figures out is a file", ["figures", "yuan-thesis/fig-2.1", "--out", str(a_file)], "--out"),
        ("figures out unwritable", ["figures", "yuan-thesis/fig-2.1", "--out", unwritable], "--out"),
        ("figures unknown profile", ["figures", "--profile", "huge"], "--profile"),
        ("figures unknown claim", ["figures", "no-such-claim"], "no-such-claim"),
        ("show a paper key", ["show", "yuan-thesis"], "exact claim id"),
        ("show a prefix", ["show", "yuan-thesis/fig-2.1"], "exact claim id"),
        ("show unknown", ["show", "yuan-thesis/thm-99"], "yuan-thesis/thm-99"),
        ("show empty", ["show", ""], "claim id"),
        ("show two ids", ["show", FAST, FAST], "unrecognized arguments"),
        ("show unknown profile", ["show", FAST, "--profile", "x"], "--profile"),
        ("exact with a paper key", ["verify", "--exact", "yuan-thesis"], "yuan-thesis"),
        ("exact without ids", ["verify", "--exact"], "--exact"),
        ("unknown command", ["verfy"], "verfy"),
        ("no command", [], "command"),
        ("unknown option", ["verify", "--fast"], "--fast"),
    ]


def _labels():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        return [label for label, _, _ in _cases(Path(tmp))]


@pytest.mark.parametrize("label", _labels())
def test_bad_command_line_is_one_line_naming_the_argument(label, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default report folders land here
    argv, named = next((argv, named) for lab, argv, named in _cases(tmp_path) if lab == label)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert code == 2, (label, code, err)
    assert err.count("\n") == 0, err
    assert named in err, err
    assert "Traceback" not in captured.err + captured.out
    assert not list(tmp_path.rglob("verify*")), "no claim ran and no report or journal was written"


def test_the_table_is_large_enough():
    assert len(_labels()) >= 30
