"""The HTML report, read back with the standard library's HTML parser: one row per claim, the summary counts, the
filter controls, escaping, no reference outside the file, and figures embedded from the figure folder."""

import base64
from html.parser import HTMLParser

import pytest

from fedtheory.harness.claims import REGISTRY, Claim, Evidence
from fedtheory.harness.html_report import RECORD_CHARS, write_html
from fedtheory.harness.report import Result

HOSTILE = 'the bound <script>alert("x")</script> holds & "quotes" </script>'
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """Every element with its attributes, and every text with the elements around it."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.texts: list[tuple[str, list[tuple[str, dict]]]] = []
        self.stack: list[tuple[str, dict]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = (tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        self.texts.append((data, list(self.stack)))

    def find(self, tag: str, **attrs) -> list[dict]:
        return [a for t, a in self.elements if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    def classed(self, tag: str, name: str) -> list[dict]:
        return [a for t, a in self.elements if t == tag and name in a.get("class", "").split()]

    def text_in(self, **attrs) -> str:
        """The text inside the element whose attributes include ``attrs``."""
        return "".join(
            d for d, stack in self.texts if any(all(a.get(k) == v for k, v in attrs.items()) for _, a in stack)
        )


def _result(id, verdict="holds", scope="printed", expect=None, **kw) -> Result:
    worst = {"measured": 1.0, "bound": 2.0, "entries": 1, "failed": int(verdict == "fails"), "inconclusive": 0}
    return Result(
        id=id,
        source=kw.pop("source", "Lemma 1"),
        statement=kw.pop("statement", f"statement of {id}"),
        verdict=verdict,
        expect=expect or verdict,
        scope=scope,
        measured=1.0,
        bound=2.0,
        relation="<=",
        margin=0.5,
        worst=worst,
        **kw,
    )


@pytest.fixture
def results():
    return [
        _result("alpha/lem-1", "holds"),
        _result("alpha/lem-2", "fails"),
        _result("alpha/fig-1:stand-in", "inconclusive", scope="stand-in"),
        _result("beta/thm-1", "fails", expect="holds", statement=HOSTILE, source="</script><b>x</b>"),
        _result("beta/thm-1:corrected", "holds", scope="corrected", witness={"x": [0.1] * 5, "note": "<i>"}),
        _result("beta/thm-2", "error", error="ValueError: <bad>"),
    ]


def _page(results, tmp_path, **kw) -> tuple[Page, str]:
    path = write_html(results, tmp_path / "report" / "verify.html", profile="quick", seconds=1.5, **kw)
    text = path.read_text(encoding="utf-8")
    return Page(text), text


def test_one_row_per_claim_with_its_paper_scope_and_verdict(results, tmp_path):
    page, _ = _page(results, tmp_path)
    rows = page.classed("tbody", "claim")
    assert [r["data-id"] for r in rows] == [r.id for r in results]
    assert [(r["data-paper"], r["data-scope"], r["data-verdict"]) for r in rows] == [
        (r.id.split("/")[0], r.scope, r.verdict) for r in results
    ]
    assert [r["data-differ"] for r in rows] == ["0", "0", "0", "1", "0", "0"]
    assert len(page.find("table", id="claims")) == 1
    assert len(page.classed("details", "claim")) == len(results)  # every claim has its expandable record


def test_the_summary_counts_verdicts_per_paper_and_scope(results, tmp_path):
    page, _ = _page(results, tmp_path)
    assert page.text_in(id="headline") == "6 claims, 2 fail as printed"
    links = {(a["data-paper"], a["data-scope"], a["data-verdict"]) for a in page.find("a", **{"data-filter": "1"})}
    assert ("alpha", "printed", "holds") in links and ("alpha", "printed", "fails") in links
    assert ("beta", "printed", "error") in links and ("", "stand-in", "inconclusive") in links
    assert ("alpha", "printed", "inconclusive") not in links  # a zero count selects nothing
    summary = page.text_in(id="summary")
    assert "alpha" in summary and "beta" in summary and "outside-hypotheses" in summary  # every scope is explained


def test_the_filters_offer_every_paper_scope_and_verdict(results, tmp_path):
    page, _ = _page(results, tmp_path)

    def options(select_id):
        return [
            d for d, stack in page.texts if stack and stack[-1][0] == "option" and stack[-2][1].get("id") == select_id
        ]

    assert options("f-paper") == ["all papers", "alpha", "beta"]
    assert options("f-scope") == ["all scopes", "printed", "corrected", "stand-in"]
    assert options("f-verdict") == ["all verdicts", "holds", "fails", "inconclusive", "error"]
    assert page.find("input", id="f-query", type="search") and page.find("input", id="f-differ", type="checkbox")
    assert page.text_in(id="shown") == "6 of 6 claims shown"


def test_text_from_claims_is_escaped(results, tmp_path):
    page, text = _page(results, tmp_path)
    assert len(page.find("script")) == 1 and text.count("</script>") == 1  # only the page's own script
    assert page.find("i") == [] and all(d != "x" for d, _ in page.texts)  # no <b>x</b>, no <i> element
    row = page.text_in(id="beta/thm-1")
    assert HOSTILE in row and "</script><b>x</b>" in row
    assert "ValueError: <bad>" in page.text_in(id="beta/thm-2")
    assert "<i>" in page.text_in(id="beta/thm-1:corrected")


def test_nothing_is_fetched_from_outside_the_file(results, tmp_path):
    page, _ = _page(results, tmp_path)
    references = [a[k] for _, a in page.elements for k in ("src", "href") if k in a]
    assert references and all(not r.lower().startswith(("http:", "https:", "//")) for r in references)
    assert page.find("link") == []


def test_a_figure_is_embedded_when_its_file_exists_and_named_otherwise(results, tmp_path, monkeypatch):
    png = b"\x89PNG\r\n\x1a\n fake image bytes"
    (tmp_path / "figures" / "alpha").mkdir(parents=True)
    (tmp_path / "figures" / "alpha" / "fig-1.png").write_bytes(png)

    def nothing(ctx):
        return Evidence(1.0, 2.0, "<=")

    for claim_id, label in (("alpha/fig-1:stand-in", "fig-1"), ("alpha/lem-2", "fig-2")):
        monkeypatch.setitem(REGISTRY, claim_id, Claim(claim_id, "", "", "holds", nothing, figure=label))
    page, _ = _page(results, tmp_path, figures_dir=tmp_path / "figures")
    (image,) = page.find("img")
    assert image["src"] == "data:image/png;base64," + base64.b64encode(png).decode()
    assert "fig-1" in image["alt"]
    assert "fig-2: not drawn" in page.text_in(id="alpha/lem-2")
    page, _ = _page(results, tmp_path)  # no figure folder: no image, and the figure is named
    assert page.find("img") == [] and "no figures drawn in this run" in page.text_in(id="alpha/fig-1:stand-in")


def test_long_records_are_cut_and_the_page_stays_small(tmp_path):
    grid = [[float(i * j) for j in range(300)] for i in range(300)]
    big = _result("alpha/big", witness={"curve": list(range(100_000)), "text": "y" * 50_000}, search={"best": grid})
    big.measured = grid
    page, text = _page([big], tmp_path)
    assert len(text) < 60_000
    record = page.text_in(id="alpha/big")
    assert "90000 values (shape 300×300), from 0 to 8.94e+04" in record and "more characters in verify.json" in record
    assert "… 99940 more" in record
    assert all(len(d) <= RECORD_CHARS + 100 for d, stack in page.texts if stack and stack[-1][0] == "pre")
