"""``fedtheory verify --dask``: claims as Dask tasks, every number as with ``--jobs 1``; the process-wide flags."""

import dataclasses
import io
import json
import os
import socket

import pytest
from rich.console import Console

from fedtheory import backends
from fedtheory.harness.claims import select
from fedtheory.harness.cli import main
from fedtheory.harness.runner import run

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

# Fast claims (well under a second each) of two papers, one of them failing as printed.
IDS = [
    "oledfl/eq-4:opposite",
    "oledfl/remark-2:connectivity-beta",
    "yuan-thesis/def-2.5:quadratic-zero-bias-moments",
    "yuan-thesis/fig-2.1:drift-var",
]


def _quiet() -> Console:
    return Console(file=io.StringIO(), width=160)


def _fields(result) -> dict:
    return {k: v for k, v in dataclasses.asdict(result).items() if k != "seconds"}


@pytest.fixture(scope="module")
def serial():
    return run(select(IDS, exact=True), console=_quiet())


def test_a_local_cluster_gives_every_number_of_jobs_1_with_the_same_progress(serial):
    console, seen = _quiet(), []
    results = run(select(IDS, exact=True), dask="local", jobs=2, console=console, on_result=seen.append)
    assert [r.id for r in results] == IDS  # claim order
    assert sorted(r.id for r in seen) == IDS
    assert [_fields(r) for r in results] == [_fields(r) for r in serial]
    assert any(r.verdict == "fails" for r in results) and all(r.as_expected for r in results)
    progress = console.file.getvalue()
    assert "verify: 4 claims to run" in progress and "verify: 4/4 claims" in progress


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        yield cluster.scheduler_address


def test_the_cli_on_a_running_scheduler_writes_the_jobs_1_report(serial, scheduler, tmp_path):
    assert main(["verify", "--exact", *IDS, "--dask", scheduler, "--report-dir", str(tmp_path)]) == 0
    claims = json.loads((tmp_path / "verify.json").read_text())["claims"]
    expected = json.loads(json.dumps([_fields(r) for r in serial]))  # as the report stores them
    assert [{k: c[k] for k in expected[0]} for c in claims] == expected


def test_a_scheduler_that_does_not_answer_is_one_line_naming_dask(tmp_path, capsys):
    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["verify", IDS[0], "--dask", f"tcp://127.0.0.1:{port}", "--report-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--dask" in err and f"127.0.0.1:{port}" in err
    assert "Traceback" not in err and not (tmp_path / "verify.json").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--profile", "full", "--paper-scale"], "--paper-scale needs a GPU that JAX can see, and none was found"),
        (["--paper-scale"], "--paper-scale: only with --profile full"),
        (["--profile", "full", "--paper-scale", "--backend", "numpy"], "leave out --backend numpy"),
    ],
)
def test_paper_scale_without_a_gpu_runs_nothing(argv, message, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(backends, "gpu_available", lambda: False)
    for name in (backends.PAPER_SCALE_VARIABLE, backends.SWEEP_ENGINE_VARIABLE):
        monkeypatch.delenv(name, raising=False)
    report_dir = tmp_path / "report"
    assert main(["verify", IDS[0], *argv, "--report-dir", str(report_dir)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not report_dir.exists()
    assert backends.PAPER_SCALE_VARIABLE not in os.environ and backends.SWEEP_ENGINE_VARIABLE not in os.environ


def test_backend_and_kernels_flags_choose_for_the_run(monkeypatch, tmp_path):
    for name in (backends.KERNELS_VARIABLE, backends.SWEEP_ENGINE_VARIABLE):
        monkeypatch.delenv(name, raising=False)
    argv = ["verify", "--exact", IDS[2], "--backend", "jax", "--kernels", "numpy", "--report-dir", str(tmp_path)]
    assert main(argv) == 0
    assert (backends.sweep_engine(), backends.kernels()) == ("jax", "numpy")
