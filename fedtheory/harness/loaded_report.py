"""A report read back from ``verify.json``: :func:`load_report` and :class:`Report`.

::

    >>> report = fedtheory.load_report("report/verify.json")
    >>> report                                    # a notebook shows the summary table and the counts per paper
    >>> report["fedbc/cor-4.6"]                    # one claim's Result (shows itself too)
    >>> report.filter(paper="fedbc", scope="printed", verdict="fails")

Reports written by older versions load too: keys they lack take :class:`~fedtheory.harness.report.Result`'s defaults
(scope ``printed``, no search record), keys this version does not know are ignored.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from functools import cached_property
from operator import attrgetter
from pathlib import Path

from ..errors import InvalidParameterError, UnknownClaimError
from . import display
from .claims import SCOPES
from .report import OUTCOMES, Result, counts, summary

RESULT_FIELDS = tuple(f.name for f in fields(Result))
REQUIRED = ("id", "verdict")
"""Keys every claim entry of a report has; the others default (an empty source or statement, expect = verdict)."""
REPORT_FILE = "verify.json"


@dataclass(frozen=True, repr=False)
class Report:
    """The results of one ``fedtheory verify`` run, read back (:func:`load_report`), or a subset of them
    (:meth:`filter`).

    Iterating gives the :class:`~fedtheory.harness.report.Result` of each claim in report order; ``report[id]`` the
    one of a claim id; ``len(report)`` their number. In a notebook a report shows its summary line and its verdict
    counts per scope and per paper (and its claims when there are few); ``str(report)`` is the same as text.

    Parameters
    ----------
    results : tuple of Result
        One per claim, in report order.
    profile : str
        The profile the run used (``quick`` or ``full``).
    seconds : float
        Wall time of the run (for a subset, the claims' own times added up).
    versions : dict
        Versions of the numerical stack that produced the report.
    papers : dict
        Paper key -> its record (title, authors, venue), or ``None`` where the report has none.
    path : Path, optional
        The file it was read from.
    """

    results: tuple[Result, ...]
    profile: str = "quick"
    seconds: float = 0.0
    versions: dict = field(default_factory=dict)
    papers: dict = field(default_factory=dict)
    path: Path | None = None

    @cached_property
    def _by_id(self) -> dict[str, Result]:
        return {r.id: r for r in self.results}

    @property
    def summary(self) -> str:
        """One line: claims, how many fail as printed, verdicts per scope, whether all are as recorded."""
        return summary(list(self.results), self.seconds)

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        """Verdict counts per scope (only the scopes present)."""
        return counts(list(self.results))

    @property
    def counts_by_paper(self) -> dict[str, dict[str, int]]:
        """Verdict counts per paper key, in report order."""
        keys = dict.fromkeys(_paper(r) for r in self.results)
        return {
            key: {v: sum(r.verdict == v for r in self.results if _paper(r) == key) for v in OUTCOMES} for key in keys
        }

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results)

    def __contains__(self, claim_id: object) -> bool:
        return claim_id in self._by_id

    def __getitem__(self, claim_id: str) -> Result:
        """The result of the claim ``claim_id``.

        Raises
        ------
        UnknownClaimError
            If the report has no such claim (the message suggests close ids).
        """
        if not isinstance(claim_id, str):
            raise InvalidParameterError("claim_id", "a claim id string such as 'paper/thm-1'", claim_id)
        if claim_id not in self._by_id:
            close = difflib.get_close_matches(claim_id, list(self._by_id), n=3, cutoff=0.75)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UnknownClaimError(f"no claim {claim_id!r} in this report{hint}")
        return self._by_id[claim_id]

    def filter(
        self,
        *,
        paper: str | Iterable[str] | None = None,
        scope: str | Iterable[str] | None = None,
        verdict: str | Iterable[str] | None = None,
    ) -> Report:
        """The report restricted to some papers, scopes and verdicts (each a value, several, or ``None`` for all).

        Raises
        ------
        InvalidParameterError
            If a value is not one of the report's paper keys, a scope or a verdict.
        """
        checks = (
            (_choice("paper", paper, list(self.counts_by_paper), "one of the report's paper keys"), _paper),
            (_choice("scope", scope, list(SCOPES), "a scope"), attrgetter("scope")),
            (_choice("verdict", verdict, list(OUTCOMES), "a verdict"), attrgetter("verdict")),
        )
        kept = tuple(r for r in self.results if all(allowed is None or key(r) in allowed for allowed, key in checks))
        keys = {_paper(r) for r in kept}
        return Report(
            kept,
            self.profile,
            sum(r.seconds for r in kept),
            self.versions,
            {k: v for k, v in self.papers.items() if k in keys},
            self.path,
        )

    @property
    def _title(self) -> str:
        where = f" from {self.path}" if self.path else ""
        return f"fedtheory report ({self.profile} profile, {len(self)} claims){where}"

    def __str__(self) -> str:
        return display.report_text(self._title, self.summary, self.counts, self.counts_by_paper, self.results)

    def _repr_html_(self) -> str:
        return display.report_html(self._title, self.summary, self.counts, self.counts_by_paper, self.results)

    def __repr__(self) -> str:
        printed = self.counts.get("printed", {}).get("fails", 0)
        where = f" from {str(self.path)!r}" if self.path else ""
        return f"<Report: {len(self)} claims ({self.profile} profile), {printed} fail as printed{where}>"


def _paper(r: Result) -> str:
    return r.id.split("/")[0]


def _choice(name: str, value, allowed: list[str], what: str) -> set[str] | None:
    """``value`` (one string or several) as a set, each checked against ``allowed``; ``None`` stays ``None``."""
    if value is None:
        return None
    chosen = {value} if isinstance(value, str) or not isinstance(value, Iterable) else set(value)
    bad = sorted(map(str, chosen - set(allowed)))
    if bad:
        raise InvalidParameterError(name, f"{what} ({', '.join(allowed) or 'none'}), or a list of them", bad[0])
    return chosen


def load_report(path: str | os.PathLike) -> Report:
    """Read a ``verify.json`` report written by ``fedtheory verify`` (any version) into a :class:`Report`.

    Parameters
    ----------
    path : str or path-like
        The JSON report, or the folder holding ``verify.json`` (the ``--report-dir`` of ``verify``).

    Raises
    ------
    InvalidParameterError
        If ``path`` names no readable file, or the file is not a report (not JSON, no ``claims`` list, a claim entry
        without an ``id`` or ``verdict``).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError("path", "a path (str or os.PathLike) to a verify.json report", path)
    path = Path(path)
    if path.is_dir():
        path = path / REPORT_FILE
    if not path.is_file():
        raise InvalidParameterError("path", "an existing verify.json report, or a folder holding one", str(path))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidParameterError("path", f"a readable report ({exc})", str(path)) from None
    except json.JSONDecodeError as exc:
        raise InvalidParameterError("path", f"a JSON report (line {exc.lineno}: {exc.msg})", str(path)) from None
    claims = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(claims, list):
        raise InvalidParameterError(
            "path", "a report written by `fedtheory verify` (a JSON object with a 'claims' list)", str(path)
        )
    results = tuple(_result(entry, i, path) for i, entry in enumerate(claims))
    keys = dict.fromkeys(_paper(r) for r in results)
    papers = doc.get("papers") or {}
    return Report(
        results,
        doc.get("profile", "quick"),
        float(doc.get("seconds", 0.0)),
        doc.get("versions") or {},
        {key: papers.get(key) for key in keys},
        path,
    )


def _result(entry, index: int, path: Path) -> Result:
    """The :class:`Result` of claim entry ``index``: keys it lacks take their defaults, unknown keys are dropped."""
    missing = [key for key in REQUIRED if not isinstance(entry, dict) or key not in entry]
    if missing:
        raise InvalidParameterError(
            "path",
            f"a report whose claim entries have {' and '.join(REQUIRED)} (entry {index} lacks {', '.join(missing)})",
            str(path),
        )
    known = {k: v for k, v in entry.items() if k in RESULT_FIELDS}
    known.setdefault("source", "")
    known.setdefault("statement", "")
    known.setdefault("expect", known["verdict"])
    for key in ("worst", "witness"):
        known[key] = known.get(key) or {}
    return Result(**known)
