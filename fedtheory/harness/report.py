"""The record of a claim run (:class:`Result`), the summary table, and the JSON and Markdown reports (written
atomically: a report on disk is always whole)."""

from __future__ import annotations

import json
import math
import numbers
import os
import platform
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path

import numpy as np
from rich.markup import escape
from rich.table import Table

from .. import backends
from . import display
from .claims import PAPERS, SCOPES, Claim, seed_for


@dataclass
class Result:
    """The record of one claim run (one entry of ``verify.json``)."""

    id: str
    source: str
    statement: str
    verdict: str
    expect: str
    scope: str = "printed"
    measured: object = None
    bound: object = None
    relation: str = ""
    margin: float | None = None
    worst: dict = field(default_factory=dict)
    witness: dict = field(default_factory=dict)
    search: dict | None = None
    """The adversarial witness search's record (evaluations, best margin, domain), for a searched claim."""
    pep: dict | None = None
    """The worst case over the function class (performance estimation), for a claim checked that way."""
    seconds: float = 0.0
    seed: int = 0
    profile: str = "quick"
    error: str | None = None

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.expect

    def summary(self) -> str:
        """A readable summary: verdict, scope, statement, worst entry, margin, interval, witness, search record."""
        return display.result_text(self)

    def _repr_html_(self) -> str:
        return display.result_html(self)


def claim_record(claim: Claim, profile: str) -> dict:
    """What every result of ``claim`` in ``profile`` records, whatever its verdict: id, citation, statement, the
    recorded verdict, scope, seed and profile."""
    return {
        "id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "expect": claim.expected(profile),
        "scope": claim.scope,
        "seed": seed_for(claim.id),
        "profile": profile,
    }


def error_result(claim: Claim, profile: str, error: str) -> Result:
    """The result of a claim whose run never returned (its worker process died, its Dask task failed)."""
    return Result(**claim_record(claim, profile), verdict="error", error=error)


def versions() -> dict:
    """Versions of the numerical stack that produced a report."""
    out = {"python": platform.python_version()}
    for pkg in ("fedtheory", "numpy", "scipy", "cvxpy", "clarabel", "sympy", "pepit"):
        try:
            out[pkg] = version(pkg)
        except Exception:  # pragma: no cover - a package missing from the environment
            out[pkg] = None
    out["solver"] = f"CLARABEL {out['clarabel']}"
    return out


def run_settings() -> dict:
    """The process-wide choices that produced a report (:mod:`fedtheory.backends`)."""
    return {
        "kernels": backends.kernels(),
        "sweep engine": backends.sweep_engine(),
        "paper scale": backends.paper_scale(),
    }


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


def fmt(x) -> str:
    """A number for a table cell (4 significant digits; an em dash for none)."""
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    return f"{x:.4g}"


OUTCOMES = ("holds", "fails", "inconclusive", "error")


def counts(results: list[Result]) -> dict[str, dict[str, int]]:
    """Verdict counts per scope (scopes in :data:`~fedtheory.harness.claims.SCOPES` order, only those present)."""
    out = {}
    for scope in SCOPES:
        mine = [r for r in results if r.scope == scope]
        if mine:
            out[scope] = {v: sum(r.verdict == v for r in mine) for v in OUTCOMES}
    return out


def summary(results: list[Result], seconds: float) -> str:
    """One line: how many claims fail as printed, then the verdicts per scope, then whether all are as recorded.

    Only a ``fails`` in scope ``printed`` is a statement of the paper refuted inside its hypotheses; the other scopes
    are listed apart (a stand-in that does not reproduce, a probe outside the hypotheses, our corrected statements).
    """
    per_scope = counts(results)
    printed_fails = per_scope.get("printed", {}).get("fails", 0)
    parts = "; ".join(
        f"{scope} {sum(n.values())} (" + ", ".join(f"{k} {v}" for v, k in n.items() if k) + ")"
        for scope, n in per_scope.items()
    )
    differ = sum(not r.as_expected for r in results)
    tail = "all as expected" if not differ else f"{differ} differ from the recorded verdict"
    return f"{len(results)} claims, {printed_fails} fail as printed. By scope: {parts}; {tail} ({seconds:.1f} s)"


def table(results: list[Result]) -> Table:
    t = Table(show_lines=False, header_style="bold")
    for col, kw in (
        ("claim", {"no_wrap": True}),
        ("scope", {}),
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
            r.scope,
            escape(r.source),
            fmt(r.worst.get("measured")),
            r.relation,
            fmt(r.worst.get("bound")),
            fmt(r.margin),
            f"[{style[r.verdict]}]{r.verdict}[/]{flag}",
            f"{r.seconds:.1f}",
        )
    return t


def write_text_atomically(path: Path, text: str) -> Path:
    """Write ``text`` to a temporary file beside ``path``, then rename it onto ``path``: readers never see half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # same folder: the rename is atomic
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def write_json(results: list[Result], path: Path, *, profile: str, seconds: float) -> Path:
    """The JSON report: profile, time, versions, summary, the record of every paper with a result, and every
    result."""
    stack = versions()
    keys = dict.fromkeys(r.id.split("/")[0] for r in results)
    doc = {
        "profile": profile,
        "seconds": seconds,
        "versions": stack,
        "settings": run_settings(),
        "summary": summary(results, seconds),
        "counts": counts(results),
        "searched": sum(r.search is not None for r in results),
        "pep": sum(r.pep is not None for r in results),
        "papers": {key: asdict(PAPERS[key]) if key in PAPERS else None for key in keys},
        "claims": [{**asdict(r), "versions": stack} for r in results],
    }
    return write_text_atomically(path, json.dumps(jsonable(doc), indent=1) + "\n")


def _searched(r: Result) -> str:
    """The search column: witness-search evaluations, and ``PEP xN`` for a worst case over the class at N points."""
    parts = [str(r.search["evaluations"])] if r.search else []
    if r.pep:
        parts.append(f"PEP x{r.pep['points']}")
    return " + ".join(parts)


def _cell(text: str) -> str:
    """``text`` for a Markdown table cell: pipes escaped, line breaks flattened."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_markdown(results: list[Result], path: Path, *, profile: str, seconds: float) -> Path:
    """The Markdown report: the summary and one table row per claim."""
    lines = [
        f"# fedtheory verify ({profile} profile)",
        "",
        summary(results, seconds),
        "",
        *(f"- `{scope}`: {words}" for scope, words in SCOPES.items()),
        "",
        "| claim | scope | source | measured | rel | bound | margin | verdict | expected | searched | s |",
        "|---|---|---|---:|:-:|---:|---:|---|---|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| `{r.id}` | {r.scope} | {_cell(r.source)} | {fmt(r.worst.get('measured'))} | {_cell(r.relation)} | "
            f"{fmt(r.worst.get('bound'))} | {fmt(r.margin)} | {r.verdict} | {r.expect} | "
            f"{_searched(r)} | {r.seconds:.1f} |"
        )
    lines += ["", "Versions: " + ", ".join(f"{k} {v}" for k, v in versions().items())]
    lines += ["Settings: " + ", ".join(f"{k} {v}" for k, v in run_settings().items()), ""]
    return write_text_atomically(path, "\n".join(lines))
