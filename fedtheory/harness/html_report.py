"""The HTML report: one self-contained page (inline style and script, figures as data URIs, nothing fetched when it
is opened) with the summary per paper and scope, and a table of every claim that filters by paper, scope and verdict
and searches ids and statements.

Every row is rendered here, on the Python side; the script only hides and shows rows, so a report of thousands of
claims opens at once. Every text that comes from a claim goes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
import textwrap
from pathlib import Path

import numpy as np

from .claims import PAPERS, REGISTRY, SCOPES, figure_file
from .report import OUTCOMES, Result, counts, fmt, jsonable, summary, versions, write_text_atomically

RECORD_CHARS = 4000
"""The most characters of one pretty-printed record (witness, values, search) shown in the page; ``verify.json`` has
every record whole."""
ITEMS = 60
"""The most items of one list shown in a record (the rest is counted)."""
WIDTH = 100
"""Pretty-printed records wrap at this many characters."""
MARKS = {"holds": "✓", "fails": "✗", "inconclusive": "?", "error": "!"}
"""A sign beside each verdict's colour, so that a verdict never reads by colour alone."""
COLUMNS = ("claim", "scope", "source", "measured", "rel", "bound", "margin", "verdict", "s")

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da;
  --holds: #1a7f37; --holds-bg: #dafbe1; --fails: #b3261e; --fails-bg: #ffebe9;
  --inconclusive: #7d4e00; --inconclusive-bg: #fff8c5; --error: #ffffff; --error-bg: #82071e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 0 1.25rem 3rem; color: var(--fg); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.5rem; margin: 1.2rem 0 .2rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; }
.headline { font-size: 1.2rem; font-weight: 600; margin: .3rem 0; }
.muted, .note { color: var(--muted); }
code, pre, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; margin: .2rem 0;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; }
table { border-collapse: collapse; }
th, td { padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; border-bottom: 1px solid var(--line); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.v { display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-weight: 600; font-size: 12.5px;
  white-space: nowrap; }
.v-holds { color: var(--holds); background: var(--holds-bg); }
.v-fails { color: var(--fails); background: var(--fails-bg); }
.v-inconclusive { color: var(--inconclusive); background: var(--inconclusive-bg); }
.v-error { color: var(--error); background: var(--error-bg); }
.differ { color: var(--fails); font-weight: 600; font-size: 12.5px; }
.scopes dt { font-weight: 600; float: left; clear: left; min-width: 11rem; }
.scopes dd { margin: 0 0 .2rem 11.5rem; color: var(--muted); }
.summary td, .summary th { border-bottom: 1px solid var(--line); }
.summary .paper { max-width: 30rem; }
.summary a { color: inherit; text-decoration: none; border-bottom: 1px dotted currentColor; }
.summary .zero { color: #b0b8c1; }
.summary tr.total td { font-weight: 600; background: var(--soft); }
.filters { position: sticky; top: 0; z-index: 2; background: #fff; display: flex; flex-wrap: wrap; gap: .4rem .8rem;
  align-items: center; padding: .6rem 0; border-bottom: 1px solid var(--line); }
.filters label { display: inline-flex; gap: .3rem; align-items: center; }
.filters input[type=search] { width: 15rem; max-width: 100%; }
.filters select, .filters input, .filters button { font: inherit; padding: .15rem .3rem; }
#shown { color: var(--muted); margin-left: auto; }
#claims { width: 100%; table-layout: fixed; }
#claims thead th { position: sticky; top: var(--filters-height, 3rem); z-index: 1; }
#claims th.c-claim { width: auto; } #claims th.c-scope { width: 10.5rem; } #claims th.c-source { width: 20%; }
#claims th.c-measured, #claims th.c-bound, #claims th.c-margin { width: 6.2rem; } #claims th.c-rel { width: 2.6rem; }
#claims th.c-verdict { width: 8.5rem; } #claims th.c-s { width: 3.6rem; }
#claims tbody { border-bottom: 1px solid var(--line); }
#claims tbody:target, #claims tbody:has(details[open]) { background: #fbfcfd; }
#claims td { overflow-wrap: anywhere; }
#claims td.src { color: var(--muted); }
#claims td.rel { white-space: nowrap; overflow-wrap: normal; }
#claims td .differ { display: block; }
#claims tr.more td { padding-top: 0; }
summary { cursor: pointer; }
details.claim > summary { display: flex; gap: .4rem; color: var(--muted); list-style: none; }
details.claim > summary::before { content: "▸"; color: var(--accent); }
details.claim[open] > summary::before { content: "▾"; }
details.claim > summary::-webkit-details-marker { display: none; }
details.claim > summary .stmt { flex: 1 1 0; width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
details.claim[open] > summary .stmt { white-space: normal; color: var(--fg); }
.body { padding: .3rem 0 .8rem 1.1rem; }
.body dl { display: grid; grid-template-columns: 9rem 1fr; gap: .25rem .8rem; margin: .3rem 0; }
.body dt { font-weight: 600; color: var(--muted); }
.body dd { margin: 0; min-width: 0; }
figure { margin: .4rem 0; }
figure img { max-width: min(100%, 900px); height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: 12.5px; }
#none { padding: 1rem 0; color: var(--muted); }
footer { margin-top: 2rem; color: var(--muted); font-size: 12.5px; }
@media (max-width: 900px) {
  body { padding: 0 .6rem 2rem; }
  body, #claims { font-size: 13px; }
  #claims th.src, #claims td.src, #claims th.secs, #claims td.secs { width: 0; padding: 0; font-size: 0; }
  #claims th.c-scope { width: 7.5rem; } #claims th.c-rel { width: 2.4rem; } #claims th.c-verdict { width: 7rem; }
  #claims th.c-measured, #claims th.c-bound, #claims th.c-margin { width: 5rem; }
  .scopes dt { float: none; }
  .scopes dd { margin-left: 1rem; }
  .body dl { grid-template-columns: 1fr; }
  .body dt { margin-top: .3rem; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  .filters, .noprint { display: none !important; }
  #claims thead th { position: static; }
  #claims tbody { break-inside: avoid; }
  details.claim::details-content { content-visibility: visible; display: block; }
  pre { max-height: none; overflow: visible; }
  .v, th, .summary tr.total td { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  a { color: inherit; text-decoration: none; }
}
"""

SCRIPT = """
(() => {
  const rows = Array.from(document.querySelectorAll("#claims tbody.claim"));
  const words = rows.map(r => (r.dataset.id + " " + r.querySelector(".stmt").textContent).toLowerCase());
  const $ = id => document.getElementById(id);
  const paper = $("f-paper"), scope = $("f-scope"), verdict = $("f-verdict"), query = $("f-query"),
    differ = $("f-differ"), shown = $("shown"), none = $("none"), filters = document.querySelector(".filters");
  function apply() {
    const terms = query.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let n = 0;
    rows.forEach((r, i) => {
      const d = r.dataset;
      const ok = (!paper.value || d.paper === paper.value) && (!scope.value || d.scope === scope.value)
        && (!verdict.value || d.verdict === verdict.value) && (!differ.checked || d.differ === "1")
        && terms.every(t => words[i].includes(t));
      r.hidden = !ok;
      n += ok;
    });
    shown.textContent = n + " of " + rows.length + " claims shown";
    none.hidden = n > 0;
  }
  [paper, scope, verdict, differ].forEach(c => c.addEventListener("change", apply));
  query.addEventListener("input", apply);
  $("f-clear").addEventListener("click", () => {
    paper.value = scope.value = verdict.value = query.value = "";
    differ.checked = false;
    apply();
  });
  const openAll = on => rows.forEach(r => { if (!r.hidden) r.querySelector("details").open = on; });
  $("f-open").addEventListener("click", () => openAll(true));
  $("f-close").addEventListener("click", () => openAll(false));
  document.querySelectorAll("a[data-filter]").forEach(a => a.addEventListener("click", e => {
    e.preventDefault();
    paper.value = a.dataset.paper || "";
    scope.value = a.dataset.scope || "";
    verdict.value = a.dataset.verdict || "";
    query.value = "";
    differ.checked = false;
    apply();
    $("claims").scrollIntoView();
  }));
  function reveal() {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.matches("tbody.claim")) {
      target.hidden = false;
      target.querySelector("details").open = true;
      target.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", reveal);
  let closed = [];
  window.addEventListener("beforeprint", () => {
    closed = rows.map(r => r.querySelector("details")).filter(d => !d.open);
    closed.forEach(d => { d.open = true; });
  });
  window.addEventListener("afterprint", () => closed.forEach(d => { d.open = false; }));
  const sticky = () => document.documentElement.style.setProperty("--filters-height", filters.offsetHeight + "px");
  window.addEventListener("resize", sticky);
  sticky();
  apply();
  reveal();
})();
"""


def write_html(
    results: list[Result], path: Path, *, profile: str, seconds: float, figures_dir: Path | None = None
) -> Path:
    """The HTML report: one self-contained page, the summary per paper and scope, and every claim.

    Parameters
    ----------
    results : list of Result
        The claims run, in the order the table lists them.
    path : Path
        Where the page goes (written atomically; folders created).
    profile : str
        The profile the claims ran in.
    seconds : float
        The wall time of the run.
    figures_dir : Path, optional
        The folder of figures (``<figures_dir>/<paper key>/<label>.png``): the figure of a claim that declares one is
        embedded in its details when the file exists there, and named as not drawn otherwise.

    Returns
    -------
    Path
        ``path``.
    """
    return write_text_atomically(path, render_html(results, profile=profile, seconds=seconds, figures_dir=figures_dir))


def render_html(results: list[Result], *, profile: str, seconds: float, figures_dir: Path | None = None) -> str:
    """The text of the HTML report of :func:`write_html`."""
    differ = sum(not r.as_expected for r in results)
    printed_fails = counts(results).get("printed", {}).get("fails", 0)
    expected = "all as expected" if not differ else f"{differ} differ from the recorded verdict"
    stack = ", ".join(f"{k} {v}" for k, v in versions().items())
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>fedtheory verify: {len(results)} claims ({_esc(profile)} profile)</title>",
        f"<style>{CSS}</style></head><body>",
        f"<header><h1>fedtheory verify <span class='muted'>({_esc(profile)} profile)</span></h1>",
        f'<p class="headline" id="headline">{len(results)} claims, {printed_fails} fail as printed</p>',
        f'<p class="muted">{_esc(expected)}; {seconds:.1f} s. Only a <em>fails</em> in scope <em>printed</em> refutes '
        "a statement of the paper inside its hypotheses; the other scopes are counted apart.</p></header>",
        _summary(results),
        _claims(results, figures_dir),
        f"<footer><p>{_esc(summary(results, seconds))}</p><p>Versions: {_esc(stack)}</p><p>Numbers in records are "
        "shown to 6 significant digits and long records are cut; <code>verify.json</code> holds every record whole."
        "</p></footer>",
        f"<script>{SCRIPT}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _papers(results: list[Result]) -> list[str]:
    return list(dict.fromkeys(r.id.split("/")[0] for r in results))


def _count_cell(n: int, paper: str, scope: str, verdict: str) -> str:
    if not n:
        return '<td class="num zero">0</td>'
    data = f'data-filter="1" data-paper="{_esc(paper)}" data-scope="{_esc(scope)}" data-verdict="{_esc(verdict)}"'
    return f'<td class="num"><a href="#claims" {data}>{n}</a></td>'


def _summary(results: list[Result]) -> str:
    """The scopes' meanings, then verdict counts per paper and scope, then per scope over all papers."""
    head = "".join(f"<th class='num'>{_badge(v)}</th>" for v in OUTCOMES)
    rows = []
    for key in _papers(results):
        per_scope = counts([r for r in results if r.id.split("/")[0] == key])
        record = PAPERS.get(key)
        about = (
            f"<br><span class='muted'>{_esc(record.title)}. {_esc(record.authors)}. {_esc(record.venue)}</span>"
            if record
            else ""
        )
        for i, (scope, n) in enumerate(per_scope.items()):
            paper_cell = f"<td class='paper' rowspan='{len(per_scope)}'><b>{_esc(key)}</b>{about}</td>" if not i else ""
            cells = "".join(_count_cell(n[v], key, scope, v) for v in OUTCOMES)
            rows.append(
                f"<tr>{paper_cell}<td>{_esc(scope)}</td>{cells}{_count_cell(sum(n.values()), key, scope, '')}</tr>"
            )
    for scope, n in counts(results).items():
        cells = "".join(_count_cell(n[v], "", scope, v) for v in OUTCOMES)
        rows.append(
            f"<tr class='total'><td>all papers</td><td>{_esc(scope)}</td>{cells}"
            f"{_count_cell(sum(n.values()), '', scope, '')}</tr>"
        )
    scopes = "".join(f"<dt>{_esc(s)}</dt><dd>{_esc(words)}</dd>" for s, words in SCOPES.items())
    return (
        f'<section id="summary"><h2>By paper and scope</h2><dl class="scopes">{scopes}</dl>'
        f'<table class="summary"><thead><tr><th>paper</th><th>scope</th>{head}<th class="num">all</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        "<p class='note noprint'>A count selects those claims in the table below.</p></section>"
    )


def _options(values: list[str], everything: str) -> str:
    return f'<option value="">{everything}</option>' + "".join(
        f'<option value="{_esc(v)}">{_esc(v)}</option>' for v in values
    )


def _claims(results: list[Result], figures_dir: Path | None) -> str:
    """The filter controls and the table of every claim (two rows each: the numbers, then the details)."""
    scopes = [s for s in SCOPES if any(r.scope == s for r in results)]
    filters = (
        '<div class="filters" role="search">'
        f'<label>paper <select id="f-paper">{_options(_papers(results), "all papers")}</select></label>'
        f'<label>scope <select id="f-scope">{_options(scopes, "all scopes")}</select></label>'
        f'<label>verdict <select id="f-verdict">{_options(list(OUTCOMES), "all verdicts")}</select></label>'
        '<label>search <input type="search" id="f-query" placeholder="id or statement words"></label>'
        '<label><input type="checkbox" id="f-differ"> only unexpected verdicts</label>'
        '<button type="button" id="f-clear">clear</button>'
        '<button type="button" id="f-open">expand shown</button>'
        '<button type="button" id="f-close">collapse all</button>'
        f'<span id="shown">{len(results)} of {len(results)} claims shown</span></div>'
    )
    head = "".join(f"<th class='c-{c} {_column_class(c)}'>{c}</th>" for c in COLUMNS)
    body = "\n".join(_claim(r, figures_dir) for r in results)
    return (
        f'<section><h2>Claims</h2>{filters}<table id="claims"><thead><tr>{head}</tr></thead>\n{body}\n</table>'
        '<p id="none" hidden>No claim matches these filters.</p></section>'
    )


def _column_class(column: str) -> str:
    return {"source": "src", "s": "num secs", "measured": "num", "bound": "num", "margin": "num"}.get(column, "")


def _badge(verdict: str) -> str:
    return f'<span class="v v-{_esc(verdict)}">{MARKS.get(verdict, "")} {_esc(verdict)}</span>'


def _verdict(r: Result) -> str:
    flag = "" if r.as_expected else f' <span class="differ">≠ expected {_esc(r.expect)}</span>'
    return _badge(r.verdict) + flag


def _claim(r: Result, figures_dir: Path | None) -> str:
    paper = r.id.split("/")[0]
    data = (
        f'id="{_esc(r.id)}" data-id="{_esc(r.id)}" data-paper="{_esc(paper)}" data-scope="{_esc(r.scope)}" '
        f'data-verdict="{_esc(r.verdict)}" data-differ="{int(not r.as_expected)}"'
    )
    cells = (
        f'<td class="cid id"><a href="#{_esc(r.id)}">{_esc(r.id)}</a></td><td>{_esc(r.scope)}</td>'
        f'<td class="src">{_esc(r.source)}</td><td class="num">{_esc(fmt(r.worst.get("measured")))}</td>'
        f"<td class='rel'>{_esc(r.relation)}</td><td class='num'>{_esc(fmt(r.worst.get('bound')))}</td>"
        f"<td class='num'>{_esc(fmt(r.margin))}</td><td>{_verdict(r)}</td><td class='num secs'>{r.seconds:.1f}</td>"
    )
    details = (
        f'<details class="claim"><summary><span class="stmt">{_esc(r.statement or "(no statement)")}</span></summary>'
        f'<div class="body">{_details(r, figures_dir)}</div></details>'
    )
    return (
        f'<tbody class="claim" {data}><tr class="row">{cells}</tr>'
        f'<tr class="more"><td colspan="{len(COLUMNS)}">{details}</td></tr></tbody>'
    )


def _details(r: Result, figures_dir: Path | None) -> str:
    """The record of one claim: statement, source, the values and how they compare, witness, search, figure."""
    worst = r.worst
    where = worst.get("parameters")
    entries = (
        f"{worst['entries']} compared: {worst.get('failed', 0)} fail, {worst.get('inconclusive', 0)} inconclusive"
        if "entries" in worst
        else ""
    )
    fields = [
        ("source", _esc(r.source)),
        ("verdict", f"{_verdict(r)} <span class='muted'>(expected {_esc(r.expect)})</span>"),
        ("scope", f"{_esc(r.scope)} <span class='muted'>— {_esc(SCOPES.get(r.scope, ''))}</span>"),
        (
            "worst entry",
            f"measured {_esc(fmt(worst.get('measured')))} {_esc(r.relation)} bound {_esc(fmt(worst.get('bound')))}"
            + (f" at {_esc(_flat(where))}" if where else "")
            + (f" <span class='muted'>({_esc(entries)})</span>" if entries else ""),
        ),
        ("margin", _esc(fmt(r.margin))),
        ("measured", _values(r.measured)),
        ("bound", _values(r.bound)),
        ("relation", f"<code>{_esc(r.relation)}</code>"),
        ("witness", _record(r.witness)),
        ("search", _record(r.search) if r.search else "<span class='muted'>none (no witness search)</span>"),
        ("pep", _record(r.pep) if r.pep else "<span class='muted'>none (not checked over a function class)</span>"),
        ("run", f"{r.seconds:.2f} s, {_esc(r.profile)} profile, seed {r.seed}"),
    ]
    if r.error:
        fields.append(("error", f"<pre>{_esc(_cut(r.error))}</pre>"))
    figure = _figure(r, figures_dir)
    if figure:
        fields.append(("figure", figure))
    return "<dl>" + "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in fields) + "</dl>"


def _values(value: object) -> str:
    """A measured value or bound: the number itself, or the size and range of an array and the values, cut."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return _esc(fmt(value))
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return _record(value)
    finite = array[np.isfinite(array)]
    spread = f", from {fmt(finite.min())} to {fmt(finite.max())}" if finite.size else ""
    shape = "×".join(map(str, array.shape))
    return f"{array.size} values (shape {shape}){_esc(spread)}{_record(value, summary_text='the values')}"


def _record(value: object, *, summary_text: str | None = None) -> str:
    """A pretty-printed record in a ``<pre>``; in a closed ``<details>`` titled ``summary_text`` when one is given."""
    text = f"<pre>{_esc(_cut(_pretty(jsonable(_shorten(value)[0]))))}</pre>"
    return f"<details class='raw'><summary>{summary_text}</summary>{text}</details>" if summary_text else text


def _shorten(value: object, budget: int = ITEMS) -> tuple[object, int]:
    """``value`` with its lists cut after about ``budget`` entries in all (a note counts the items left out), and
    how many entries it keeps; each value of a mapping has a budget of its own."""
    if isinstance(value, dict):
        return {k: _shorten(v)[0] for k, v in value.items()}, len(value)
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim):
        kept, used = [], 0
        for item in value:
            if used >= budget:
                break
            short, n = _shorten(item, budget - used)
            kept.append(short)
            used += n
        more = [f"… {len(value) - len(kept)} more"] if len(kept) < len(value) else []
        return kept + more, used
    return value, 1


def _cut(text: str) -> str:
    if len(text) <= RECORD_CHARS:
        return text
    head = text[: text.rfind("\n", 0, RECORD_CHARS) if "\n" in text[:RECORD_CHARS] else RECORD_CHARS]
    return f"{head}\n… ({len(text) - len(head)} more characters in verify.json)"


def _scalar(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return "null" if value is None else str(value)


def _pretty(value: object, indent: int = 0) -> str:
    """A record as indented ``key: value`` lines (YAML-like); a list or mapping that fits the width stays on one
    line, a long list of numbers wraps."""
    flat = _flat(value)
    if not isinstance(value, (dict, list)) or not value or indent + len(flat) <= WIDTH:
        return flat
    pad = " " * indent
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        lines = textwrap.wrap(flat[1:-1], WIDTH, subsequent_indent=pad + " ", break_on_hyphens=False)
        return "[" + "\n".join(lines) + "]"
    if isinstance(value, list):
        return "\n".join(
            pad + "- " + _pretty(v, indent + 2)[indent + 2 :]
            if _nested(v, indent + 2)
            else pad + "- " + _pretty(v, indent + 2)
            for v in value
        )
    return "\n".join(
        f"{pad}{k}:\n{_pretty(v, indent + 2)}" if _nested(v, indent + 2) else f"{pad}{k}: {_pretty(v, indent + 2)}"
        for k, v in value.items()
    )


def _nested(value: object, indent: int) -> bool:
    """Whether :func:`_pretty` writes ``value`` as indented lines of its own (a mapping or a list of records too long
    for one line)."""
    return (
        isinstance(value, (dict, list))
        and bool(value)
        and indent + len(_flat(value)) > WIDTH
        and (isinstance(value, dict) or any(isinstance(v, (dict, list)) for v in value))
    )


def _flat(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_flat, value)) + "]"
    return _scalar(value)


def _figure(r: Result, figures_dir: Path | None) -> str:
    """The claim's figure as a data URI when its file exists, a note naming it when it does not, else nothing."""
    registered = REGISTRY.get(r.id)
    if registered is None or registered.figure is None:
        return ""
    label = registered.figure
    if figures_dir is None:
        return (
            f"<span class='muted'>{_esc(label)}: no figures drawn in this run (<code>fedtheory figures</code>)</span>"
        )
    file = figure_file(figures_dir, r.id, label)
    if not file.is_file():
        return f"<span class='muted'>{_esc(label)}: not drawn ({_esc(file)} does not exist)</span>"
    data = base64.b64encode(file.read_bytes()).decode("ascii")
    return (
        f'<figure><img loading="lazy" alt="figure {_esc(label)} of {_esc(r.id)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{_esc(label)} ({_esc(file)})</figcaption></figure>"
    )
