"""Results streamed to disk as claims finish, so an interrupted run keeps them and ``verify --resume`` skips them.

The journal is a JSON Lines file: a header (format, profile, figure folder and the *code fingerprint*: a hash of the
source of fedtheory and of every claim package, with the versions of the numerical stack), then one finished
:class:`~fedtheory.harness.report.Result` per line, each written and flushed to disk before the next claim is
reported. A line cut short by a kill is ignored when the journal is read. Results are reused only under the same
fingerprint, profile and figure folder: any change of code or versions starts afresh.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from dataclasses import asdict, fields
from importlib.metadata import entry_points
from pathlib import Path

from .report import Result, jsonable, versions

FORMAT = 1


def code_fingerprint() -> str:
    """SHA-256 of the Python source of fedtheory and of every claim package or module (entry points and
    ``FEDTHEORY_CLAIMS``), and of the library versions."""
    import fedtheory

    modules = [ep.module for ep in entry_points(group="fedtheory.claims")]
    modules += [m.strip() for m in os.environ.get("FEDTHEORY_CLAIMS", "").split(",") if m.strip()]
    files = {path for path in Path(fedtheory.__file__).parent.rglob("*.py")}
    for name in modules:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # a plugin that does not load is skipped by the run as well
            continue
        if spec is not None and spec.origin:
            origin = Path(spec.origin)
            files |= set(origin.parent.rglob("*.py")) if spec.submodule_search_locations else {origin}
    digest = hashlib.sha256(json.dumps(versions(), sort_keys=True).encode())
    for path in sorted(files):
        digest.update(str(path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class Journal:
    """The journal of one ``verify`` run at ``path`` (see the module docstring).

    Parameters
    ----------
    path : Path
        The JSON Lines file (``<report dir>/verify.journal.jsonl``).
    profile : str
    figures_dir : Path or None
        Where the run draws figures: a run that draws them does not reuse results of one that did not.
    resume : bool
        Keep the finished results of a matching journal (:attr:`finished`) and append to it; otherwise start afresh.
    """

    def __init__(self, path: Path, *, profile: str, figures_dir: Path | None = None, resume: bool = False):
        self.path = Path(path)
        self.header = {
            "journal": FORMAT,
            "profile": profile,
            "figures": None if figures_dir is None else str(Path(figures_dir).resolve()),
            "code": code_fingerprint(),
        }
        self.finished: dict[str, Result] = {}
        self.resume_note = ""
        if resume:
            self.finished, self.resume_note = self._read()
        if self.finished:
            self._file = self.path.open("a", encoding="utf-8")
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._write(self.header)

    def _read(self) -> tuple[dict[str, Result], str]:
        """Finished results of the journal on disk if its header matches, and a note on what was found."""
        if not self.path.exists():
            return {}, f"nothing to resume: {self.path} does not exist"
        lines = self.path.read_text(encoding="utf-8").splitlines()
        try:
            header = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            header = None
        if header != self.header:
            what = "no journal header" if not isinstance(header, dict) else self._difference(header)
            return {}, f"nothing to resume from {self.path}: {what}"
        names = {f.name for f in fields(Result)}
        finished = {}
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by a kill
                continue
            if isinstance(entry, dict) and names >= set(entry) and "id" in entry:
                finished[entry["id"]] = Result(**entry)
        return finished, f"resuming: {len(finished)} finished claims kept from {self.path}"

    def _difference(self, header: dict) -> str:
        for key, why in (
            ("journal", "another journal format"),
            ("profile", f"profile {header.get('profile')!r}, not {self.header['profile']!r}"),
            ("code", "the code or library versions changed since"),
            ("figures", "another figure folder"),
        ):
            if header.get(key) != self.header[key]:
                return why
        return "another run"

    def _write(self, entry: dict) -> None:
        self._file.write(json.dumps(jsonable(entry)) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, result: Result) -> None:
        """Append ``result`` and make it durable before returning."""
        self._write(asdict(result))
        self.finished[result.id] = result

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
