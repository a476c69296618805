"""Compare two ``verify.json`` reports claim by claim: ``fedtheory diff OLD.json NEW.json``.

The use case is regression-testing claims across versions of the code or of a paper: run ``fedtheory verify`` on
both, then :func:`diff_reports` says which claims appeared, which disappeared, and for the claims in both which
changed verdict, scope or recorded (expected) verdict, and whose margin moved beyond a relative tolerance.

Examples
--------
>>> d = diff_reports("old/verify.json", "new/verify.json", margin_tol=1e-6)  # doctest: +SKIP
>>> d.verdict_changed  # doctest: +SKIP
False
>>> print(d)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from ..errors import InvalidParameterError, ReportReadError

FIELDS = ("verdict", "scope", "expect", "margin")
"""What is compared for a claim present in both reports, in the order the renderings list it."""

DEFAULT_MARGIN_TOL = 1e-6
"""Default relative tolerance on a margin (see :func:`margin_moved`)."""

_STYLE = {"holds": "green", "fails": "red", "inconclusive": "yellow", "error": "bold red"}


@dataclass(frozen=True)
class ClaimState:
    """The compared fields of one claim in one report.

    Parameters
    ----------
    id : str
        The claim id.
    verdict : str
        ``holds``, ``fails``, ``inconclusive`` or ``error``.
    expect : str or None
        The recorded verdict (``None`` in a report that lacks it).
    scope : str
        What the verdict is a verdict on (README, "Scopes").
    margin : float or None
        The margin at the worst entry (``None`` where the evidence has none).
    """

    id: str
    verdict: str
    expect: str | None
    scope: str
    margin: float | None


@dataclass(frozen=True)
class ReportState:
    """The claims of one report, by id in report order, and where they come from.

    Parameters
    ----------
    path : str
        The file read.
    profile : str or None
        The profile the report was run with.
    version : str or None
        The fedtheory version that wrote it.
    claims : dict of str -> ClaimState
        Every claim, in report order.
    """

    path: str
    profile: str | None
    version: str | None
    claims: dict[str, ClaimState]

    def describe(self) -> str:
        """The path, profile and fedtheory version in one phrase."""
        facts = [f"{self.profile or '?'} profile", f"fedtheory {self.version or '?'}", f"{len(self.claims)} claims"]
        return f"{self.path} ({', '.join(facts)})"


@dataclass(frozen=True)
class ClaimChange:
    """A claim present in both reports whose compared fields differ.

    Parameters
    ----------
    id : str
        The claim id.
    fields : tuple of str
        What changed, among :data:`FIELDS` (in that order).
    old, new : ClaimState
        The claim in the old and in the new report.
    """

    id: str
    fields: tuple[str, ...]
    old: ClaimState
    new: ClaimState


@dataclass(frozen=True)
class ReportDiff:
    """What changed between two reports (:func:`diff_reports`).

    Parameters
    ----------
    old, new : ReportState
        The two reports compared.
    margin_tol : float
        The relative tolerance the margins were compared with.
    appeared : tuple of ClaimState
        Claims only in the new report (new report order).
    disappeared : tuple of ClaimState
        Claims only in the old report (old report order).
    changed : tuple of ClaimChange
        Claims in both whose verdict, scope, recorded verdict or margin changed (new report order).
    unchanged : int
        How many claims are in both and did not change.
    """

    old: ReportState
    new: ReportState
    margin_tol: float
    appeared: tuple[ClaimState, ...]
    disappeared: tuple[ClaimState, ...]
    changed: tuple[ClaimChange, ...]
    unchanged: int

    def changes(self, field: str) -> tuple[ClaimChange, ...]:
        """The changed claims whose ``field`` (one of :data:`FIELDS`) changed."""
        if field not in FIELDS:
            raise InvalidParameterError("field", f"one of {', '.join(FIELDS)}", field)
        return tuple(c for c in self.changed if field in c.fields)

    @property
    def verdict_changed(self) -> bool:
        """Whether some claim in both reports changed verdict (``fedtheory diff`` then exits with status 1)."""
        return any("verdict" in c.fields for c in self.changed)

    @property
    def empty(self) -> bool:
        """Whether nothing appeared, disappeared or changed."""
        return not (self.appeared or self.disappeared or self.changed)

    def summary(self) -> str:
        """One line: how many claims were compared and how many changed, field by field."""
        moved = {f: len(self.changes(f)) for f in FIELDS}
        return (
            f"{len(self.changed) + self.unchanged} claims in both: {moved['verdict']} changed verdict, "
            f"{moved['scope']} scope, {moved['expect']} expected verdict, {moved['margin']} margin (beyond relative "
            f"tolerance {self.margin_tol:g}); {len(self.appeared)} appeared, {len(self.disappeared)} disappeared"
        )

    def header(self) -> str:
        """Which reports were compared, and a warning when their profiles differ."""
        line = f"old: {self.old.describe()}\nnew: {self.new.describe()}"
        if self.old.profile != self.new.profile:
            line += "\nnote: the profiles differ; verdicts and margins of a quick and a full run need not agree"
        return line

    def to_dict(self) -> dict:
        """The diff as JSON types (what ``fedtheory diff --json`` prints)."""

        def report(state: ReportState) -> dict:
            return {
                "path": state.path,
                "profile": state.profile,
                "fedtheory": state.version,
                "claims": len(state.claims),
            }

        return {
            "old": report(self.old),
            "new": report(self.new),
            "margin_tol": self.margin_tol,
            "verdict_changed": self.verdict_changed,
            "summary": self.summary(),
            "appeared": [_jsonable(asdict(s)) for s in self.appeared],
            "disappeared": [_jsonable(asdict(s)) for s in self.disappeared],
            "changed": [
                {
                    "id": c.id,
                    "fields": list(c.fields),
                    "old": _jsonable(asdict(c.old)),
                    "new": _jsonable(asdict(c.new)),
                }
                for c in self.changed
            ],
            "unchanged": self.unchanged,
        }

    def table(self) -> Table:
        """A rich table: one row per changed, appeared or disappeared claim; a changed cell reads ``old → new``."""
        t = Table(header_style="bold", title_justify="left")
        t.add_column("change", no_wrap=True)
        t.add_column("claim", no_wrap=True)
        for f in FIELDS:
            t.add_column("expected" if f == "expect" else f, justify="right" if f == "margin" else "left")
        for c in self.changed:
            t.add_row(", ".join(c.fields), escape(c.id), *(_rich_cell(f, c.old, c.new, f in c.fields) for f in FIELDS))
        for label, states in (("appeared", self.appeared), ("disappeared", self.disappeared)):
            for s in states:
                t.add_row(label, escape(s.id), *(_rich_cell(f, s, s, False) for f in FIELDS))
        return t

    def __str__(self) -> str:
        """Plain text: the header, one line per changed, appeared or disappeared claim, and the summary."""
        lines = [self.header()]
        for c in self.changed:
            parts = [f"{f} {_pair(f, getattr(c.old, f), getattr(c.new, f))}" for f in c.fields]
            lines.append(f"changed      {c.id}: {'; '.join(parts)}")
        for label, states in (("appeared", self.appeared), ("disappeared", self.disappeared)):
            for s in states:
                lines.append(f"{label:<12} {s.id}: {s.verdict} (expected {_text('expect', s.expect)}; {s.scope})")
        lines.append(self.summary())
        return "\n".join(lines)


def margin_moved(old: float | None, new: float | None, tol: float) -> bool:
    """Whether a margin moved beyond the relative tolerance ``tol``.

    Two numbers are the same margin when ``|new - old| <= tol * max(|old|, |new|)`` (the boundary counts as
    unchanged; equal infinities are the same, so are two NaNs). A margin that appears or disappears (``None`` on one
    side only) always moved.
    """
    if old is None or new is None:
        return (old is None) != (new is None)
    if math.isnan(old) or math.isnan(new):
        return math.isnan(old) != math.isnan(new)
    return not math.isclose(old, new, rel_tol=tol, abs_tol=0.0)


def read_report(path: str | os.PathLike, *, name: str = "path") -> ReportState:
    """Read the claims of a ``verify.json`` report.

    Parameters
    ----------
    path : str or path-like
        The report.
    name : str
        How error messages name the file (the CLI says ``OLD`` and ``NEW``).

    Raises
    ------
    ReportReadError
        If the file is missing or unreadable, is not JSON, or is not a report: no ``claims`` list, a claim without
        an ``id`` or ``verdict`` string, a margin that is not a number, an id listed twice.
    """
    text = os.fspath(path)

    def refuse(why: str) -> ReportReadError:
        return ReportReadError(f"{name}: {text!r} {why}")

    try:
        doc = json.loads(Path(text).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise refuse("does not exist") from None
    except IsADirectoryError:
        raise refuse("is a folder, not a verify.json report") from None
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise refuse("is not UTF-8 text, so not a verify.json report") from None
    except json.JSONDecodeError as exc:
        raise refuse(f"is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise refuse("is not a verify.json report (expected a JSON object with a 'claims' list)")
    claims: dict[str, ClaimState] = {}
    for i, entry in enumerate(doc["claims"]):
        state = _claim_state(entry, i, refuse)
        if state.id in claims:
            raise refuse(f"is not a verify.json report (claim {state.id!r} is listed twice)")
        claims[state.id] = state
    versions = doc.get("versions")
    version = versions.get("fedtheory") if isinstance(versions, dict) else None
    profile = doc.get("profile")
    return ReportState(
        path=text,
        profile=profile if isinstance(profile, str) else None,
        version=version if isinstance(version, str) else None,
        claims=claims,
    )


def diff_reports(
    old: str | os.PathLike | ReportState,
    new: str | os.PathLike | ReportState,
    *,
    margin_tol: float = DEFAULT_MARGIN_TOL,
) -> ReportDiff:
    """Compare two reports claim by claim.

    Parameters
    ----------
    old, new : str, path-like or ReportState
        The reports (paths to ``verify.json`` files, or states from :func:`read_report`).
    margin_tol : float
        Relative tolerance on the margins, a number >= 0 (:func:`margin_moved`); 0 reports any change.

    Returns
    -------
    ReportDiff

    Raises
    ------
    InvalidParameterError
        If ``margin_tol`` is not a finite number >= 0.
    ReportReadError
        If a path cannot be read as a report (:func:`read_report`).
    """
    if isinstance(margin_tol, bool) or not isinstance(margin_tol, (int, float)) or not 0 <= margin_tol < math.inf:
        raise InvalidParameterError("margin_tol", "a finite number >= 0 (a relative tolerance)", margin_tol)
    before = old if isinstance(old, ReportState) else read_report(old, name="old")
    after = new if isinstance(new, ReportState) else read_report(new, name="new")
    changed, unchanged = [], 0
    for cid, now in after.claims.items():
        was = before.claims.get(cid)
        if was is None:
            continue
        fields = tuple(f for f in FIELDS if _differs(f, was, now, margin_tol))
        if fields:
            changed.append(ClaimChange(cid, fields, was, now))
        else:
            unchanged += 1
    return ReportDiff(
        old=before,
        new=after,
        margin_tol=float(margin_tol),
        appeared=tuple(s for cid, s in after.claims.items() if cid not in before.claims),
        disappeared=tuple(s for cid, s in before.claims.items() if cid not in after.claims),
        changed=tuple(changed),
        unchanged=unchanged,
    )


def _differs(field: str, old: ClaimState, new: ClaimState, margin_tol: float) -> bool:
    if field == "margin":
        return margin_moved(old.margin, new.margin, margin_tol)
    return getattr(old, field) != getattr(new, field)


def _claim_state(entry: object, index: int, refuse: Callable[[str], ReportReadError]) -> ClaimState:
    """One ``claims`` entry as a :class:`ClaimState` (a report written before ``scope`` existed reads as printed)."""
    if not isinstance(entry, dict):
        raise refuse(f"is not a verify.json report (claim entry {index} is not an object)")
    for key in ("id", "verdict"):
        if not isinstance(entry.get(key), str):
            raise refuse(f"is not a verify.json report (claim entry {index} has no {key!r} string)")
    margin = entry.get("margin")
    try:
        if isinstance(margin, bool) or not isinstance(margin, (type(None), int, float, str)):
            raise ValueError(margin)
        margin = None if margin is None else float(margin)  # the JSON report writes "inf" or "nan" as text
    except ValueError:
        raise refuse(f"is not a verify.json report (claim {entry['id']!r} has margin {margin!r})") from None
    expect, scope = entry.get("expect"), entry.get("scope", "printed")
    return ClaimState(
        id=entry["id"],
        verdict=entry["verdict"],
        expect=expect if isinstance(expect, str) else None,
        scope=scope if isinstance(scope, str) else "printed",
        margin=margin,
    )


def _jsonable(state: dict) -> dict:
    """A :class:`ClaimState` dict with a non-finite margin as its text (JSON has no infinities)."""
    m = state["margin"]
    return {**state, "margin": m if m is None or math.isfinite(m) else str(m)}


def _number(x: float | None, digits: int = 4) -> str:
    return "—" if x is None else f"{x:.{digits}g}"


def _text(field: str, value: object, digits: int = 4) -> str:
    """A compared value as text (an em dash for none)."""
    if field == "margin":
        return _number(value, digits)
    return "—" if value is None else str(value)


def _pair(field: str, old: object, new: object) -> str:
    """``old → new``; margins with as many digits (4 to 17) as it takes to tell them apart."""
    digits = next((d for d in range(4, 18) if _text(field, old, d) != _text(field, new, d)), 17)
    return f"{_text(field, old, digits)} → {_text(field, new, digits)}"


def _rich_cell(field: str, old: ClaimState, new: ClaimState, changed: bool) -> str:
    """A table cell: ``old → new`` in bold when ``field`` changed, else the (new) value dimmed; verdicts coloured."""

    def show(value: object, text: str) -> str:
        text = escape(text)
        return f"[{_STYLE[value]}]{text}[/]" if field == "verdict" and value in _STYLE else text

    a, b = getattr(old, field), getattr(new, field)
    if not changed:
        return f"[dim]{show(b, _text(field, b))}[/]"
    left, right = _pair(field, a, b).split(" → ")
    return f"[bold]{show(a, left)} → {show(b, right)}[/]"
