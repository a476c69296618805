"""``fedtheory verify`` with one worker against two: wall time, CPU time of the run (parent and workers) and the ratio.

Each configuration runs in a fresh process (``python -m fedtheory.harness.cli``) with its own report directory, so
nothing is shared between runs but the disk; the two reports are checked to agree number for number
(``scripts/compare_reports.py``), since the number of jobs must never change a result.

Run: ``python benchmarks/verify_jobs.py [CLAIM ...] [--profile quick|full] [--pairs N]`` (default: the
thesis's section 3.7 experiments, whose sweeps several claims share; prints a Markdown table). Timings are for the
machine it runs on: note its core count (``os.sched_getaffinity``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION_3_7 = [
    f"yuan-thesis/{label}"
    for label in (
        "fig-3.1", "fig-3.2", "fig-3.3", "fig-3.4", "fig-3.5", "fig-3.6", "fig-3.7",
        "sec-3.7.2:eta-range", "sec-3.7.2:eta-range-lambda-1e-2", "sec-3.7.3:vanilla-diverges",
    )
]  # fmt: skip
"""The thesis's section 3.7 experiments (20 claims): the step-size sweeps, the heaviest shared work of the quick
profile."""


def timed_verify(claims: list[str], profile: str, jobs: int, report: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child and its workers) of one ``fedtheory verify`` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-m", "fedtheory.harness.cli", "verify", *claims, "--profile", profile]
    command += ["--jobs", str(jobs), "--report-dir", str(report)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: some verdict differs from its record, still a timing
        raise SystemExit(f"verify --jobs {jobs} failed (status {done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("claims", nargs="*", default=SECTION_3_7)
    parser.add_argument("--profile", default="quick", choices=("quick", "full"))
    parser.add_argument("--pairs", type=int, default=1, help="interleaved (jobs 1, jobs 2) pairs; medians reported")
    args = parser.parse_args()
    rows: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp:
        for pair in range(args.pairs):
            for jobs in (1, 2):
                rows[jobs].append(timed_verify(args.claims, args.profile, jobs, Path(tmp, f"j{jobs}-{pair}")))
        compare = [sys.executable, str(ROOT / "scripts" / "compare_reports.py")]
        same = subprocess.run([*compare, str(Path(tmp, "j1-0", "verify.json")), str(Path(tmp, "j2-0", "verify.json"))])
        if same.returncode:
            raise SystemExit("the reports of --jobs 1 and --jobs 2 differ")

    def median(values: list[float]) -> float:
        return sorted(values)[len(values) // 2]

    wall = {j: median([w for w, _ in r]) for j, r in rows.items()}
    cpu = {j: median([c for _, c in r]) for j, r in rows.items()}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"`fedtheory verify {' '.join(args.claims)} --profile {args.profile}` on {cores} cores, {args.pairs} pair(s)")
    print()
    print("| jobs | wall s | CPU s | wall speed-up |")
    print("|---:|---:|---:|---:|")
    for j in (1, 2):
        print(f"| {j} | {wall[j]:.1f} | {cpu[j]:.1f} | {wall[1] / wall[j]:.2f}x |")


if __name__ == "__main__":
    main()
