"""Run claims, show progress, and write the JSON and Markdown reports."""

from __future__ import annotations

import json
import math
import numbers
import platform
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .claims import Claim, Context, judge, load_claims, seed_for


@dataclass
class Result:
    """The record of one claim run (one entry of ``verify.json``)."""

    id: str
    source: str
    statement: str
    verdict: str
    expect: str
    measured: object = None
    bound: object = None
    relation: str = ""
    margin: float | None = None
    worst: dict = field(default_factory=dict)
    witness: dict = field(default_factory=dict)
    seconds: float = 0.0
    seed: int = 0
    profile: str = "quick"
    error: str | None = None

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.expect


def versions() -> dict:
    """Versions of the numerical stack that produced a report."""
    out = {"python": platform.python_version()}
    for pkg in ("fedtheory", "numpy", "scipy", "cvxpy", "clarabel", "sympy"):
        try:
            out[pkg] = version(pkg)
        except Exception:  # pragma: no cover - a package missing from the environment
            out[pkg] = None
    out["solver"] = f"CLARABEL {out['clarabel']}"
    return out


def jsonable(value):
    """Convert evidence values into JSON types: exact and numpy numbers become floats, anything else its text."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, numbers.Real) or (hasattr(value, "is_real") and getattr(value, "is_number", False)):
        value = float(value)  # Fractions, sympy numbers
        return value if math.isfinite(value) else str(value)
    return str(value)


def run_claim(claim: Claim, profile: str = "quick", figures_dir: Path | None = None) -> Result:
    """Run one claim and judge its evidence; an exception becomes the verdict ``error``."""
    ctx = Context(claim.id, profile, figures_dir)
    start = time.perf_counter()
    base = {
        "id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "expect": claim.expected(profile),
        "seed": seed_for(claim.id),
        "profile": profile,
    }
    try:
        ev = claim.func(ctx)
        out = judge(ev)
    except Exception as exc:  # a claim that crashes is a bug: report it, never hide it
        return Result(
            **base,
            verdict="error",
            seconds=time.perf_counter() - start,
            error="".join(traceback.format_exception_only(type(exc), exc)).strip() + "\n" + traceback.format_exc(),
        )
    worst = {
        "index": out.worst,
        "measured": out.measured,
        "bound": out.bound,
        "parameters": out.parameters,
        "entries": out.n_entries,
        "failed": out.n_failed,
        "inconclusive": out.n_inconclusive,
    }
    interval = (
        None
        if ev.interval is None
        else {"lo": _stored(ev.interval[0], out.n_entries), "hi": _stored(ev.interval[1], out.n_entries)}
    )
    witness = jsonable({**ev.witness, **({"interval": interval} if interval else {})})
    return Result(
        **base,
        verdict=out.verdict,
        measured=_stored(ev.measured, out.n_entries),
        bound=_stored(ev.bound, out.n_entries),
        relation=ev.relation,
        margin=out.margin,
        worst=jsonable(worst),
        witness=witness,
        seconds=time.perf_counter() - start,
    )


MAX_STORED = 2000  # entries of measured/bound/interval kept in the report; the worst entry is always kept


def _stored(values, n_entries: int):
    """``values`` for the report, or a note when the grid is too large to store entry by entry."""
    if n_entries <= MAX_STORED:
        return jsonable(values)
    return f"{n_entries} entries, not stored (see 'worst')"


def _run_by_id(claim_id: str, profile: str, figures_dir: Path | None) -> Result:
    return run_claim(load_claims()[claim_id], profile, figures_dir)


def run(
    claims: list[Claim],
    *,
    profile: str = "quick",
    jobs: int = 1,
    figures_dir: Path | None = None,
    console: Console | None = None,
) -> list[Result]:
    """Run ``claims`` (in ``jobs`` processes) with a live progress display; results in claim order."""
    console = console or Console(stderr=True)
    results: dict[str, Result] = {}
    columns = (
        TextColumn("[bold]verify"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=len(claims))
        if jobs <= 1:
            for c in claims:
                progress.update(task, description=c.id)
                results[c.id] = run_claim(c, profile, figures_dir)
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(_run_by_id, c.id, profile, figures_dir): c.id for c in claims}
                for fut in as_completed(futures):
                    results[futures[fut]] = fut.result()
                    progress.update(task, description=futures[fut])
                    progress.advance(task)
    return [results[c.id] for c in claims]


def _fmt(x) -> str:
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    return f"{x:.4g}"


def summary(results: list[Result], seconds: float) -> str:
    counts = {v: sum(r.verdict == v for r in results) for v in ("holds", "fails", "inconclusive", "error")}
    differ = sum(not r.as_expected for r in results)
    parts = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    tail = "all as expected" if not differ else f"{differ} differ from the recorded verdict"
    return f"{len(results)} claims: {parts}; {tail} ({seconds:.1f} s)"


def table(results: list[Result]) -> Table:
    t = Table(show_lines=False, header_style="bold")
    for col, kw in (
        ("claim", {"no_wrap": True}),
        ("source", {"max_width": 30}),
        ("measured", {"justify": "right"}),
        ("rel", {}),
        ("bound", {"justify": "right"}),
        ("margin", {"justify": "right"}),
        ("verdict", {}),
        ("s", {"justify": "right"}),
    ):
        t.add_column(col, **kw)
    style = {"holds": "green", "fails": "red", "inconclusive": "yellow", "error": "bold red"}
    for r in results:
        flag = "" if r.as_expected else f" (expected {r.expect})"
        t.add_row(
            escape(r.id),
            escape(r.source),
            _fmt(r.worst.get("measured")),
            r.relation,
            _fmt(r.worst.get("bound")),
            _fmt(r.margin),
            f"[{style[r.verdict]}]{r.verdict}[/]{flag}",
            f"{r.seconds:.1f}",
        )
    return t


def write_json(results: list[Result], path: Path, *, profile: str, seconds: float) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    stack = versions()
    doc = {
        "profile": profile,
        "seconds": seconds,
        "versions": stack,
        "summary": summary(results, seconds),
        "claims": [{**asdict(r), "versions": stack} for r in results],
    }
    path.write_text(json.dumps(jsonable(doc), indent=1) + "\n")
    return path


def _cell(text: str) -> str:
    """``text`` for a Markdown table cell: pipes escaped, line breaks flattened."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_markdown(results: list[Result], path: Path, *, profile: str, seconds: float) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# fedtheory verify ({profile} profile)",
        "",
        summary(results, seconds),
        "",
        "| claim | source | measured | rel | bound | margin | verdict | expected | s |",
        "|---|---|---:|:-:|---:|---:|---|---|---:|",
    ]
    for r in results:
        lines.append(
            f"| `{r.id}` | {_cell(r.source)} | {_fmt(r.worst.get('measured'))} | {_cell(r.relation)} | "
            f"{_fmt(r.worst.get('bound'))} | {_fmt(r.margin)} | {r.verdict} | {r.expect} | "
            f"{r.seconds:.1f} |"
        )
    lines += ["", "Versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()), ""]
    path.write_text("\n".join(lines))
    return path
