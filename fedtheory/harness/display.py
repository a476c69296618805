"""How evidence, a claim's result and a loaded report show themselves: compact HTML for a notebook (``_repr_html_``)
and a readable text summary.

Every text that comes from a claim (ids, statements, witness keys and values, error messages) is escaped with
:func:`html.escape`. The functions take the objects they render and import no other harness module (the modules that
define those objects delegate here), so there is no import cycle: :class:`~fedtheory.harness.claims.Evidence` passes
the function that judges it, :class:`~fedtheory.harness.loaded_report.Report` its counts.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from html import escape

import numpy as np

from ..errors import InvalidEvidenceError

COLOURS = {"holds": "#1a7f37", "fails": "#cf222e", "inconclusive": "#9a6700", "error": "#6e40c9"}
"""Background of each verdict's label (always shown with its word: the colour is never the only sign)."""
WIDTH = 72
"""Characters a value keeps in a summary before it is cut (an ellipsis marks the cut)."""
MAX_ROWS = 25
"""A report with at most this many claims lists them one by one; a larger one shows its counts only."""

_CELL = "padding:1px 10px 1px 0;vertical-align:top;text-align:left"
_HEAD = _CELL + ";border-bottom:1px solid #999;font-weight:600"

Row = tuple[str, str]
"""A labelled line of a rendering: ``(label, text)``."""


def number(x) -> str:
    """A number for a summary: 4 significant digits, its text for a string, an em dash for none."""
    if x is None:
        return "—"
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return str(x)
    return f"{float(x):.4g}"


def brief(value, width: int = WIDTH) -> str:
    """``value`` in at most ``width`` characters: numbers to 4 digits, long sequences as their count and range."""
    if isinstance(value, Mapping):
        text = "{" + ", ".join(f"{k}: {brief(v, width)}" for k, v in value.items()) + "}"
    elif isinstance(value, (list, tuple, np.ndarray)):
        items = list(np.ravel(value)) if isinstance(value, np.ndarray) else list(value)
        if len(items) > 4 and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in items):
            text = f"{len(items)} values in [{number(min(items))}, {number(max(items))}]"
        else:
            more = f", … ({len(items)} items)" if len(items) > 8 else ""
            text = "[" + ", ".join(brief(v, width) for v in items[:8]) + more + "]"
    else:
        text = number(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _parameters(params: Mapping) -> str:
    return ", ".join(f"{k}={brief(v, 24)}" for k, v in params.items())


def _at(values, index: int):
    """Entry ``index`` of stored values (a list with one entry per grid point, or one value for all), or ``None``."""
    if isinstance(values, list):
        return values[index] if 0 <= index < len(values) else None
    return values if isinstance(values, numbers.Real) else None


def _search_row(search: Mapping | None) -> list[Row]:
    if not search:
        return []
    best = f", best margin {number(search['best_margin'])}" if "best_margin" in search else ""
    return [("search", f"{search.get('evaluations', '?')} evaluations{best}")]


def _pep_row(pep: Mapping | None) -> list[Row]:
    if not pep:
        return []
    return [
        (
            "class worst case",
            f"{number(pep.get('worst_case'))} against bound {number(pep.get('bound'))} "
            f"(solver accuracy {number(pep.get('accuracy'))}, points: {pep.get('points', '?')})",
        )
    ]


def _failed_part(failed: int, inconclusive: int, entries: int) -> str:
    if entries == 1:
        return "its one entry " + ("fails" if failed else "is inconclusive" if inconclusive else "satisfies it")
    if failed:
        return f"{failed} of {entries} entries fail"
    if inconclusive:
        return f"{inconclusive} of {entries} entries are inconclusive"
    return f"all {entries} entries satisfy it"


# --- Evidence ---------------------------------------------------------------------------------------------------------


def _evidence_rows(ev, judge: Callable) -> tuple[str, list[Row]]:
    """The verdict of ``ev`` and its labelled lines; ``judge`` is :func:`fedtheory.harness.claims.judge`."""
    try:
        out = judge(ev)
    except Exception as exc:  # a rendering never raises: evidence that cannot be judged is the verdict ``error``
        reason = str(exc) if isinstance(exc, InvalidEvidenceError) else f"{type(exc).__name__}: {exc}"
        return "error", [("relation", f"measured {ev.relation} bound"), ("error", reason)]
    rows = [
        ("relation", f"measured {ev.relation} bound over {out.n_entries} entries"),
        ("verdict", f"{out.verdict}: {_failed_part(out.n_failed, out.n_inconclusive, out.n_entries)}"),
        (
            "margin",
            number(out.margin)
            + (" (deviation / allowed deviation)" if ev.relation == "==" else " (measured / bound at the worst entry)"),
        ),
        ("worst entry", f"#{out.worst}: measured {number(out.measured)}, bound {number(out.bound)}"),
    ]
    if out.parameters:
        rows.append(("parameters", _parameters(out.parameters)))
    if ev.interval is not None:
        shape = np.broadcast_shapes(np.shape(ev.measured), np.shape(ev.bound)) or (1,)
        lo, hi = (np.broadcast_to(np.asarray(v, dtype=float), shape).ravel()[out.worst] for v in ev.interval)
        rows.append(("interval", f"[{number(lo)}, {number(hi)}] at the worst entry"))
    if ev.atol or ev.rtol:
        rows.append(("tolerance", f"{number(ev.atol)} + {number(ev.rtol)} |bound|"))
    rows.append(("witness", ", ".join(map(str, ev.witness)) or "—"))
    return out.verdict, rows + _search_row(ev.search) + _pep_row(ev.pep)


def evidence_text(ev, judge: Callable) -> str:
    """A readable summary of ``ev`` with its judged outcome (verdict, margin, worst entry, interval, witness keys).

    Parameters
    ----------
    ev : Evidence
        The evidence to show.
    judge : callable
        :func:`fedtheory.harness.claims.judge` (passed in: this module imports no other harness module).
    """
    verdict, rows = _evidence_rows(ev, judge)
    return _text(f"Evidence: {verdict}", rows)


def evidence_html(ev, judge: Callable) -> str:
    """Compact HTML of ``ev`` with its judged outcome, for a notebook (:func:`evidence_text` in HTML)."""
    verdict, rows = _evidence_rows(ev, judge)
    return _box(f"<strong>Evidence</strong> {_badge(verdict)}", _table(rows))


# --- Result -----------------------------------------------------------------------------------------------------------


def _result_rows(r) -> list[Row]:
    rows = [("source", r.source), ("statement", r.statement)]
    worst = r.worst or {}
    if "measured" in worst:
        entries = worst.get("entries", 1)
        rows.append(
            (
                "worst entry",
                f"#{worst.get('index', 0)}: measured {number(worst['measured'])} {r.relation} bound "
                f"{number(worst.get('bound'))}; "
                + _failed_part(worst.get("failed", 0), worst.get("inconclusive", 0), entries),
            )
        )
        rows.append(("margin", number(r.margin)))
        if worst.get("parameters"):
            rows.append(("parameters", _parameters(worst["parameters"])))
    interval = (r.witness or {}).get("interval")
    if isinstance(interval, Mapping) and "measured" in worst:
        lo, hi = (_at(interval.get(end), worst.get("index", 0)) for end in ("lo", "hi"))
        if lo is not None and hi is not None:
            rows.append(("interval", f"[{number(lo)}, {number(hi)}] at the worst entry"))
    rows += _search_row(r.search) + _pep_row(r.pep)
    if r.error:
        rows.append(("error", r.error.strip().splitlines()[0]))
    rows.append(("run", f"{r.profile} profile, seed {r.seed}, {r.seconds:.2f} s"))
    return rows


def _witness_items(r) -> list[Row]:
    return [(str(k), brief(v)) for k, v in (r.witness or {}).items() if k != "interval"]


def _result_title(r) -> tuple[str, str]:
    """The plain text after the id and the verdict: the scope, and the recorded verdict when it differs."""
    differs = "" if r.verdict == r.expect else f" (expected {r.expect})"
    return differs, f"[{r.scope}]"


def result_text(r) -> str:
    """A readable summary of a claim's result: verdict, scope, statement, worst entry, margin, witness, search."""
    differs, scope = _result_title(r)
    witness = _witness_items(r)
    lines = ([("witness", "")] + [(f"  {k}", v) for k, v in witness]) if witness else []
    return _text(f"{r.id}  {r.verdict}{differs}  {scope}", _result_rows(r) + lines)


def result_html(r) -> str:
    """Compact HTML of a claim's result, for a notebook (:func:`result_text` in HTML; witness and traceback folded)."""
    differs, scope = _result_title(r)
    head = f"<strong>{escape(r.id)}</strong> {_badge(r.verdict)}{escape(differs)} <em>{escape(scope)}</em>"
    body = _table(_result_rows(r))
    witness = _witness_items(r)
    if witness:
        body += _fold(f"witness ({len(witness)} keys)", _table(witness))
    if r.error and len(r.error.strip().splitlines()) > 1:
        body += _fold("traceback", f"<pre style='white-space:pre-wrap;margin:0'>{escape(r.error)}</pre>")
    return _box(head, body)


# --- Report -----------------------------------------------------------------------------------------------------------


def report_text(
    title: str, summary: str, by_scope: Mapping[str, Mapping[str, int]], by_paper: Mapping, results: Sequence
) -> str:
    """A readable summary of a report: its title and summary line, verdict counts per scope and per paper, and its
    claims one per line when there are at most :data:`MAX_ROWS`."""
    lines = [title, summary, ""]
    for label, counts in (("scope", by_scope), ("paper", by_paper)):
        verdicts = list(next(iter(counts.values()), {}))
        width = max([len(label), *map(len, counts)])
        lines.append(f"{label:<{width}}  " + "  ".join(f"{v:>{max(len(v), 5)}}" for v in verdicts))
        for key, n in counts.items():
            lines.append(f"{key:<{width}}  " + "  ".join(f"{n[v]:>{max(len(v), 5)}}" for v in verdicts))
        lines.append("")
    if 0 < len(results) <= MAX_ROWS:
        width = max(len(r.id) for r in results)
        lines += [f"{r.id:<{width}}  {r.scope:<18}  {r.verdict:<12}  margin {number(r.margin)}" for r in results]
    return "\n".join(lines).rstrip()


def report_html(
    title: str, summary: str, by_scope: Mapping[str, Mapping[str, int]], by_paper: Mapping, results: Sequence
) -> str:
    """Compact HTML of a report, for a notebook: the summary line, tables of verdict counts per scope and per paper,
    and its claims one per row when there are at most :data:`MAX_ROWS`."""
    body = f"<div style='margin:2px 0 6px'>{escape(summary)}</div>"
    body += "<div style='display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start'>"
    body += _counts_table("scope", by_scope) + _counts_table("paper", by_paper) + "</div>"
    if 0 < len(results) <= MAX_ROWS:
        cells = "".join(
            f"<tr><td style='{_CELL}'><code>{escape(r.id)}</code></td><td style='{_CELL}'>{escape(r.scope)}</td>"
            f"<td style='{_CELL}'>{_badge(r.verdict)}</td><td style='{_CELL};text-align:right'>{number(r.margin)}</td>"
            f"<td style='{_CELL}'>{escape(brief(r.source, 40))}</td></tr>"
            for r in results
        )
        head = "".join(f"<th style='{_HEAD}'>{h}</th>" for h in ("claim", "scope", "verdict", "margin", "source"))
        body += f"<table style='border-collapse:collapse;margin-top:8px'><tr>{head}</tr>{cells}</table>"
    return _box(f"<strong>{escape(title)}</strong>", body)


def _counts_table(label: str, counts: Mapping[str, Mapping[str, int]]) -> str:
    verdicts = list(next(iter(counts.values()), {}))
    head = f"<th style='{_HEAD}'>{escape(label)}</th>" + "".join(
        f"<th style='{_HEAD}'>{_badge(v)}</th>" for v in verdicts
    )
    rows = "".join(
        f"<tr><td style='{_CELL}'>{escape(key)}</td>"
        + "".join(f"<td style='{_CELL};text-align:right'>{n[v]}</td>" for v in verdicts)
        + "</tr>"
        for key, n in counts.items()
    )
    return f"<table style='border-collapse:collapse'><tr>{head}</tr>{rows}</table>"


# --- Building blocks --------------------------------------------------------------------------------------------------


def _text(title: str, rows: list[Row]) -> str:
    width = max((len(label) for label, _ in rows), default=0)
    return "\n".join([title, *(f"  {label:<{width}}  {text}".rstrip() for label, text in rows)])


def _badge(verdict: str) -> str:
    colour = COLOURS.get(verdict, "#57606a")
    return (
        f"<span style='background:{colour};color:#fff;border-radius:3px;padding:0 5px;font-weight:600'>"
        f"{escape(verdict)}</span>"
    )


def _table(rows: list[Row]) -> str:
    cells = "".join(
        f"<tr><th style='{_CELL};font-weight:600;white-space:nowrap'>{escape(label)}</th>"
        f"<td style='{_CELL}'>{escape(text)}</td></tr>"
        for label, text in rows
    )
    return f"<table style='border-collapse:collapse'>{cells}</table>"


def _fold(summary: str, inner: str) -> str:
    return f"<details style='margin-top:4px'><summary>{escape(summary)}</summary>{inner}</details>"


def _box(head: str, body: str) -> str:
    return (
        "<div class='fedtheory' style='font-family:system-ui,sans-serif;font-size:13px;line-height:1.4;"
        f"max-width:72em'><div style='margin-bottom:4px'>{head}</div>{body}</div>"
    )
