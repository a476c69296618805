"""Claims: a printed statement, the code that measures it, and a verdict computed from the numbers.

A claim function receives a :class:`Context` and returns :class:`Evidence`: arrays of measured values
and printed bounds over a parameter grid, the relation the paper asserts between them, optional
intervals (Monte Carlo confidence intervals or engine error bars) and a witness. :func:`judge` derives
the verdict from the evidence alone:

* ``holds``: every entry satisfies the relation (for an interval, the whole interval does);
* ``fails``: some entry violates it (for an interval, the whole interval does); the worst such entry
  is the witness;
* ``inconclusive``: no entry fails but some interval straddles its bound;
* ``error``: the evidence cannot be judged (a NaN or infinite measured value or bound, a NaN tolerance, an interval
  with ``lo > hi``: :class:`~fedtheory.errors.InvalidEvidenceError`), or the claim raised. A bug is never a ``fails``.

``expect`` records the verdict a claim had when it was last reviewed; it never enters the verdict and
only lets the test suite and ``fedtheory verify`` flag a change.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pkgutil
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np

from ..backends import paper_scale
from ..errors import ClaimPluginWarning, InvalidEvidenceError, InvalidParameterError, UnknownClaimError
from . import display

VERDICTS = ("holds", "fails", "inconclusive")
ID_PATTERN = re.compile(r"[A-Za-z0-9][\w.\-]*/[A-Za-z0-9][\w.\-]*(:[\w.\-]+)*")
RELATIONS = ("<=", "<", ">=", ">", "==")
PROFILES = ("quick", "full")
SCOPES = {
    "printed": "the statement as printed, judged inside its printed hypotheses at the paper's setting",
    "corrected": "a statement of ours that repairs a printed one",
    "stand-in": "an experiment reproduced on stand-in data or at reduced scale: whether the printed observation "
    "reproduces here, not a verdict on the paper",
    "outside-hypotheses": "a probe beyond the printed hypotheses: informative, never a verdict on the paper",
}
"""What a verdict is a verdict on (README, "Scopes"), with the words the reports use for it."""


@dataclass
class Evidence:
    """What a claim measured.

    Parameters
    ----------
    measured : scalar or array
        The quantity the paper talks about, one entry per grid point. Exact values
        (``fractions.Fraction``) are compared exactly.
    bound : scalar or array
        The printed bound (or the reference value for ``==``), broadcast against ``measured``.
    relation : {"<=", "<", ">=", ">", "=="}
        What the paper asserts: ``measured <relation> bound``.
    rtol, atol : float
        Numerical tolerance of the computation (not of the claim): ``atol + rtol |bound|``.
    interval : (lo, hi), optional
        Interval for ``measured`` (Monte Carlo confidence interval, engine error bars).
    grid : dict of name -> array, optional
        The parameters of each entry; the worst entry's parameters become the witness.
    witness : dict, optional
        Instance description and any further numbers worth reporting.
    extended : bool
        ``measured`` and ``bound`` are extended reals whose infinities are exact values (a limit exponent decided by
        an exponential factor, sympy's ``oo`` for a bound that never reaches its target), not overflow. Without it an
        infinity makes the evidence unjudgeable (verdict ``error``); NaN always does.
    search : dict, optional
        The record of an adversarial witness search whose evaluations are among the entries
        (:meth:`fedtheory.harness.points.Points.search`): evaluations, best margin, the domain searched.
    pep : dict, optional
        The record of a worst case computed over the whole function class by a performance estimation problem
        (:func:`fedtheory.harness.pep.class_evidence`): worst case, bound, solver accuracy, points solved.

    Notes
    -----
    The reported margin is ``measured / bound`` at the worst entry for inequalities, and for ``==`` the
    worst deviation as a fraction of the allowed deviation (tolerance plus interval half-width;
    ``<= 1`` holds, ``None`` for exact equality).
    """

    measured: object
    bound: object
    relation: str
    rtol: float = 0.0
    atol: float = 0.0
    interval: tuple | None = None
    grid: dict | None = None
    witness: dict = field(default_factory=dict)
    extended: bool = False
    search: dict | None = None
    pep: dict | None = None

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise InvalidParameterError("relation", f"one of {', '.join(RELATIONS)}", self.relation)
        for name in ("rtol", "atol"):
            value = getattr(self, name)
            if not np.isnan(value) and value < 0:  # NaN is judged, not refused: the claim's verdict becomes ``error``
                raise InvalidParameterError(name, "a tolerance >= 0", value)

    def summary(self) -> str:
        """A readable summary with the judged outcome: verdict, margin, worst entry, interval, witness keys."""
        return display.evidence_text(self, judge)

    def _repr_html_(self) -> str:
        return display.evidence_html(self, judge)


@dataclass(frozen=True)
class Outcome:
    """The verdict and where it was decided."""

    verdict: str
    margin: float | None
    worst: int
    measured: float
    bound: float
    n_entries: int
    n_failed: int
    n_inconclusive: int
    parameters: dict


def _values(x) -> np.ndarray:
    """``x`` as floats, or as Fractions when any entry is one (then every entry is converted exactly)."""
    arr = np.asarray(x)
    if arr.dtype != object:  # numeric already: no per-entry scan (grids reach millions of entries)
        return arr.astype(float, copy=False)
    if any(isinstance(v, Fraction) for v in arr.flat):
        return np.vectorize(Fraction, otypes=[object])(arr)
    return arr.astype(float)


def judge(ev: Evidence) -> Outcome:
    """Compute the verdict of ``ev`` (module docstring).

    Raises
    ------
    InvalidEvidenceError
        If ``ev`` cannot be judged: a NaN or infinite measured value or bound, a NaN or infinite tolerance, an
        interval with a NaN end or ``lo > hi``. The runner reports it as the verdict ``error`` with this reason.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        m, b = _values(ev.measured), _values(ev.bound)
        _check_judgeable(ev, m, b)
        return _judge(ev, m, b)


def _check_judgeable(ev: Evidence, m: np.ndarray, b: np.ndarray) -> None:
    """Refuse evidence whose verdict would hide a bug (a NaN compares false, an infinity trivially)."""
    for name in ("rtol", "atol"):
        if not np.isfinite(getattr(ev, name)):
            raise InvalidEvidenceError(f"{name} is {getattr(ev, name)}: a tolerance must be a finite number >= 0")
    try:
        m, b = np.broadcast_arrays(np.atleast_1d(m), np.atleast_1d(b))
    except ValueError:
        raise InvalidEvidenceError(
            f"measured (shape {np.shape(m)}) and bound (shape {np.shape(b)}) do not broadcast"
        ) from None
    if m.size == 0:
        raise InvalidEvidenceError("no entries: measured and bound are empty")
    for name, arr in (("measured", m), ("bound", b)):
        if arr.dtype == object:  # exact values (Fraction) are finite
            continue
        if np.isnan(arr).any() if ev.extended else not np.isfinite(arr).all():  # reductions: no full-size mask
            bad = np.isnan(arr) if ev.extended else ~np.isfinite(arr)
            where = np.flatnonzero(bad.ravel())
            what = "NaN" if ev.extended else "not finite"
            hint = "" if ev.extended else "; infinities that are exact values need Evidence(extended=True)"
            raise InvalidEvidenceError(
                f"{name} is {what} at {where.size} of {arr.size} entries (first: entry {int(where[0])}, "
                f"{arr.ravel()[where[0]]}{_entry_parameters(ev, int(where[0]), arr.shape)}){hint}"
            )
    if ev.interval is not None:
        if len(ev.interval) != 2:
            raise InvalidEvidenceError(f"interval must be a pair (lo, hi), got {len(ev.interval)} items")
        try:
            lo, hi = (np.broadcast_to(np.asarray(v, dtype=float), m.shape).ravel() for v in ev.interval)
        except ValueError:
            raise InvalidEvidenceError("interval ends do not broadcast against measured") from None
        if np.isnan(lo).any() or np.isnan(hi).any():
            raise InvalidEvidenceError("interval has a NaN end")
        crossed = np.flatnonzero(lo > hi)
        if crossed.size:
            i = int(crossed[0])
            raise InvalidEvidenceError(
                f"interval has lo > hi at {crossed.size} entries (first: entry {i}, lo {lo[i]} > hi {hi[i]}"
                f"{_entry_parameters(ev, i, m.shape)})"
            )


def _grid_parameters(grid: dict | None, index: int, shape: tuple) -> dict:
    """The grid's parameters of entry ``index`` (flat, C order) of evidence of ``shape``: each grid array either has
    one value per entry or broadcasts against ``shape``."""
    params = {}
    for name, values in (grid or {}).items():
        flat = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
        flat = flat.ravel() if flat.size == int(np.prod(shape)) else np.broadcast_to(flat, shape).ravel()
        params[name] = _plain(flat[index])
    return params


def _entry_parameters(ev: Evidence, index: int, shape: tuple) -> str:
    """``", grid: k=3, eta=0.1"`` for entry ``index``, or ``""`` (also when the grid itself is malformed: this only
    annotates an error message)."""
    try:
        params = _grid_parameters(ev.grid, index, shape)
    except (ValueError, IndexError):
        return ""
    return ", grid: " + ", ".join(f"{k}={v}" for k, v in params.items()) if params else ""


def _judge(ev: Evidence, m: np.ndarray, b: np.ndarray) -> Outcome:
    shape = np.broadcast_shapes(m.shape, b.shape)
    m, b = np.broadcast_arrays(np.atleast_1d(m), np.atleast_1d(b))
    m, b = m.ravel(), b.ravel()
    # Float evidence is never copied or converted (grids reach millions of entries, and every full-size temporary
    # costs its page faults): mf, bf are views of it, and the temporaries below are updated in place. Only exact
    # (object) evidence is compared as objects, in rel.
    mf, bf = m.astype(float, copy=False), b.astype(float, copy=False)
    if ev.rtol:  # no 0 * inf for infinite bounds
        tol = np.abs(bf)
        tol *= ev.rtol
        tol += ev.atol
    else:
        tol = ev.atol + 0.0
    if ev.interval is not None:
        lo, hi = (np.broadcast_to(np.asarray(v, dtype=float), m.shape).ravel() for v in ev.interval)
    else:
        lo = hi = None
    exact = m.dtype == object or b.dtype == object
    upper = ev.relation in ("<=", "<")

    def rel(x, y, t):
        """Elementwise test of ``x relation y`` with tolerance ``t`` (exact when both are exact)."""
        t = 0 if exact and not np.any(t) else t
        if ev.relation == "<=":
            return x <= y + t
        if ev.relation == "<":
            return x < y
        if ev.relation == ">=":
            return x >= y - t
        if ev.relation == ">":
            return x > y
        return np.abs(x - y) <= t

    if lo is None:
        ok = np.asarray(rel(m, b, tol), dtype=bool)
        failed, unsure = ~ok, np.zeros_like(ok)
    elif ev.relation == "==":
        ok = (lo - tol <= bf) & (bf <= hi + tol)
        failed, unsure = ~ok, np.zeros_like(ok)
    else:
        conservative, optimistic = (hi, lo) if upper else (lo, hi)
        ok = np.asarray(rel(conservative, bf, tol), dtype=bool)
        failed = ~np.asarray(rel(optimistic, bf, tol), dtype=bool)
        unsure = ~ok & ~failed

    if ev.relation == "==":
        # Deviation as a fraction of what is allowed (tolerance plus interval half-width).
        half = 0.0 if lo is None else (hi - lo) / 2
        allowed = tol + half
        dev = np.abs(mf - bf)
        used = np.where(allowed > 0, dev / np.where(allowed > 0, allowed, 1.0), np.where(dev > 0, np.inf, 0.0))
        slack = -used
    else:
        probe = mf if lo is None else (hi if upper else lo)
        scale = np.abs(bf)
        scale[scale == 0] = 1.0
        slack = bf - probe if upper else probe - bf
        slack /= scale
    slack[np.isnan(slack)] = -np.inf  # inf - inf: undecidable by slack, count it as worst
    pool = failed if failed.any() else unsure if unsure.any() else None
    worst = int(np.argmin(slack) if pool is None else np.flatnonzero(pool)[np.argmin(slack[pool])])
    verdict = "fails" if failed.any() else "inconclusive" if unsure.any() else "holds"
    if ev.relation == "==":
        margin = float(used[worst]) if np.isfinite(used[worst]) and np.any(allowed > 0) else None
    else:
        ratio = mf[worst] / bf[worst] if bf[worst] != 0 else np.nan
        margin = float(ratio) if np.isfinite(ratio) else None
    params = _grid_parameters(ev.grid, worst, shape)
    return Outcome(
        verdict, margin, worst, float(mf[worst]), float(bf[worst]), m.size, int(failed.sum()), int(unsure.sum()), params
    )


def negative_control(ev: Evidence, what: str) -> dict:
    """Judge ``ev``, the claim's own check run where the statement is false (a perturbed constant, an instance that
    violates it), and return its record for the claim's witness (``witness={"negative control": ...}``).

    A check that cannot fail is a defect; a negative control proves, at every run, that this one can.

    Raises
    ------
    InvalidEvidenceError
        If the control does not come out ``fails``: the claim's verdict is then ``error``, with this reason.
    """
    out = judge(ev)
    if out.verdict != "fails":
        reason = f"negative control ({what}) came out {out.verdict}, not fails: the check cannot fail"
        raise InvalidEvidenceError(reason)
    return {"what": what, "verdict": out.verdict, "margin": out.margin, "failed": f"{out.n_failed} of {out.n_entries}"}


def _plain(v):
    """A JSON-friendly scalar."""
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, np.generic):
        return v.item()
    return v


def figure_file(figures_dir: Path | str, claim_id: str, figure: str) -> Path:
    """Where a claim's figure goes: ``<figures_dir>/<paper key>/<figure>.png``."""
    return Path(figures_dir) / claim_id.split("/")[0] / f"{figure}.png"


@dataclass(frozen=True)
class Context:
    """What a claim function is given: the profile, a seeded generator, and its figure (label and folder)."""

    claim_id: str
    profile: str = "quick"
    figures_dir: Path | None = None
    figure: str | None = None

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    @property
    def seed(self) -> int:
        return seed_for(self.claim_id)

    def rng(self, stream: int = 0) -> np.random.Generator:
        """A generator seeded from the claim id (and ``stream``, for independent draws)."""
        return np.random.default_rng([self.seed, stream])

    def draw(self, painter: Callable[..., object], *args, **kwargs) -> None:
        """Draw the claim's figure (``@claim(figure=...)``): ``painter(path, *args, **kwargs)`` with
        ``path = <figures_dir>/<paper key>/<figure>.png`` when figures are wanted, nothing otherwise.

        Raises
        ------
        InvalidParameterError
            If the claim declares no figure (``fedtheory figures`` would never ask it for one).
        """
        if self.figure is None:
            raise InvalidParameterError("figure", f"a figure label in @claim(figure=...) of {self.claim_id}", None)
        if self.figures_dir is not None:
            painter(figure_file(self.figures_dir, self.claim_id, self.figure), *args, **kwargs)


@dataclass(frozen=True)
class Claim:
    """A registered claim."""

    id: str
    source: str
    statement: str
    expect: str
    func: Callable[[Context], Evidence]
    scope: str = "printed"
    figure: str | None = None
    expect_full: str | None = None
    where: str = ""
    """``module:line`` where the claim is registered (its ``@claim`` line, or the module-level call of the factory that
    registered it)."""
    expect_paper: str | None = None
    """The verdict recorded at paper scale (``verify --profile full --paper-scale``, on a GPU)."""

    def expected(self, profile: str) -> str:
        """The verdict recorded for ``profile``: ``expect_full`` in the full profile when the paper-scale grid
        reaches a different verdict than the scaled-down quick one, ``expect`` otherwise; at paper scale
        (:func:`fedtheory.backends.paper_scale`, full profile) ``expect_paper`` where one is recorded."""
        if profile == "full" and self.expect_paper is not None and paper_scale():
            return self.expect_paper
        return self.expect_full if profile == "full" and self.expect_full is not None else self.expect

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    @property
    def label(self) -> str:
        return self.id.split("/", 1)[1].split(":")[0]


REGISTRY: dict[str, Claim] = {}


@dataclass(frozen=True)
class Paper:
    """The record of a paper whose claims are registered: what a reader needs to find the printed text."""

    key: str
    """The first part of every claim id of the paper (``yuan-thesis``)."""
    title: str
    authors: str
    venue: str
    """Where it appeared, or its arXiv id and version (``arXiv:2503.08634v2``)."""


PAPERS: dict[str, Paper] = {}
_PAPER_PACKAGES: dict[str, str] = {}
"""Paper key -> the module (a paper package's ``__init__``) that registered its record: where its claims are."""
PAPER_KEY = re.compile(r"[A-Za-z0-9][\w.\-]*")


def paper(key: str, *, title: str, authors: str, venue: str) -> Paper:
    """Register the record of paper ``key`` (once per paper, in its package's ``__init__``) and return it."""
    if not isinstance(key, str) or not PAPER_KEY.fullmatch(key):
        raise InvalidParameterError("key", "a paper key of letters, digits, '.', '-', '_' (e.g. 'my-paper')", key)
    for name, value in (("title", title), ("authors", authors), ("venue", venue)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidParameterError(name, "a non-empty string", value)
    record = Paper(key, title, authors, venue)
    if PAPERS.setdefault(key, record) != record:
        raise InvalidParameterError("key", f"a paper key with one record (already {PAPERS[key]})", key)
    _PAPER_PACKAGES.setdefault(key, sys._getframe(1).f_globals.get("__name__", "?"))
    return record


def claim(
    id: str,
    *,
    source: str,
    statement: str,
    expect: str,
    scope: str | None = None,
    figure: str | None = None,
    expect_full: str | None = None,
    expect_paper: str | None = None,
):
    """Register a claim function under ``id`` (``<paper key>/<label>[:<part>]``).

    ``scope`` (required) says what the verdict is a verdict on: one of :data:`SCOPES`.
    ``figure`` names the figure label the claim draws when figures are requested. ``expect_full`` records the
    full profile's verdict where its paper-scale grid decides differently from the quick profile's scaled-down one
    (the statement must say both scales). ``expect_paper`` records the verdict of a claim with a paper-scale branch
    (:func:`fedtheory.backends.paper_scale`) as measured at paper scale on a GPU; CI cannot rerun it.
    """
    if not isinstance(id, str) or not ID_PATTERN.fullmatch(id):
        raise InvalidParameterError(
            "id", "'<paper key>/<label>[:<part>]' of letters, digits, '.', '-', '_' (e.g. 'my-paper/thm-1:part')", id
        )
    for name, value in (("source", source), ("statement", statement)):
        if not isinstance(value, str):
            raise InvalidParameterError(name, "a string", value)
    for name, value in (("expect", expect), ("expect_full", expect_full), ("expect_paper", expect_paper)):
        if value not in VERDICTS and not (name != "expect" and value is None):
            raise InvalidParameterError(name, f"one of {', '.join(VERDICTS)}", value)
    if not isinstance(scope, str) or scope not in SCOPES:
        raise InvalidParameterError("scope", f"one of {', '.join(SCOPES)}", scope)
    where = _registration_site(sys._getframe(1))

    def register(func: Callable[[Context], Evidence]):
        if not callable(func):
            raise InvalidParameterError("func", "a function of a Context returning Evidence", func)
        known = REGISTRY.get(id)
        if known is not None and _origin(known.func) != _origin(func):
            raise InvalidParameterError("id", f"an id not already registered (by {'.'.join(_origin(known.func))})", id)
        REGISTRY[id] = Claim(id, source, statement, expect, func, scope, figure, expect_full, where, expect_paper)
        return func

    return register


def _registration_site(frame) -> str:
    """``module:line`` of the nearest module-level frame from ``frame`` outwards (``frame`` itself if none)."""
    site = frame
    while site is not None and site.f_code.co_name != "<module>":
        site = site.f_back
    site = site or frame
    return f"{site.f_globals.get('__name__', '?')}:{site.f_lineno}"


def seed_for(claim_id: str) -> int:
    """A 63-bit seed derived from the claim id (stable across runs, machines and Python versions)."""
    return int(hashlib.sha256(claim_id.encode()).hexdigest()[:15], 16)


def _origin(func) -> tuple[str, str]:
    return getattr(func, "__module__", "?"), getattr(func, "__qualname__", repr(func))


LOAD_ERRORS: list[str] = []
"""One line per claim plugin (entry point or claim module) that failed to load and was skipped."""
_loaded = False
"""Every claim is loaded (:func:`load_claims` without tokens)."""
_entry_points_loaded = False
_deferring = False
"""While true, :func:`load_claim_modules` records a package in :data:`_PENDING` instead of importing its modules."""
_PENDING: dict[str, list[str]] = {}
"""Claim packages imported while deferring whose modules are not imported yet: package -> its ``__path__``."""
_attempted: set[str] = set()
"""Claim modules already imported (or tried: one that failed is not tried again, nor reported twice)."""
_expanded: set[str] = set()


def _load_plugin(name: str, load: Callable[[], object]) -> None:
    """Run ``load``; if it fails, undo what it registered, record one line in :data:`LOAD_ERRORS` and warn."""
    before = dict(REGISTRY)
    try:
        load()
    except (Exception, SystemExit) as exc:  # a broken plugin must not take the other claims down
        REGISTRY.clear()
        REGISTRY.update(before)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        line = f"claim plugin {name!r} skipped: {type(exc).__name__}" + (f": {reason}" if reason else "")
        LOAD_ERRORS.append(line)
        warnings.warn(line, ClaimPluginWarning, stacklevel=3)


def _import_claim_module(name: str) -> None:
    """Import the claim module ``name`` as a plugin of its own, once."""
    if name not in _attempted:
        _attempted.add(name)
        _load_plugin(name, lambda: importlib.import_module(name))


def load_claim_modules(package: str, path: Iterable[str]) -> None:
    """Import every module of a claim package (for its ``__init__``: ``load_claim_modules(__name__, __path__)``).

    Each module is a plugin of its own: one that fails to import, or registers a duplicate or malformed id, is skipped
    with one line in :data:`LOAD_ERRORS` and the others still load. While :func:`load_claims` loads only the papers a
    selection names, the modules are imported later, and only those of the papers selected.
    """
    if _deferring:
        _PENDING[package] = list(path)
        return
    for module in pkgutil.iter_modules(path):
        _import_claim_module(f"{package}.{module.name}")


def _complete(package: str) -> None:
    """Import the modules of ``package`` (and of its sub-packages) whose import was deferred."""
    path = _PENDING.pop(package, None)
    for module in pkgutil.iter_modules(path or ()):
        full = f"{package}.{module.name}"
        if full in _PENDING:
            _complete(full)
        else:
            _import_claim_module(full)


def _load_entry_points() -> None:
    """Import the claim packages of the ``fedtheory.claims`` entry points and ``FEDTHEORY_CLAIMS`` (once)."""
    global _entry_points_loaded
    if not _entry_points_loaded:
        _entry_points_loaded = True
        for ep in entry_points(group="fedtheory.claims"):
            _load_plugin(f"{ep.name} = {ep.value}", ep.load)
        for name in filter(None, (m.strip() for m in os.environ.get("FEDTHEORY_CLAIMS", "").split(","))):
            _load_plugin(name, lambda name=name: importlib.import_module(name))


def _find_papers(keys: set[str]) -> None:
    """Import deferred packages' sub-packages (their ``__init__`` only, deferring their modules) until every paper in
    ``keys`` has its record, or none is left to look into."""
    while keys - _PAPER_PACKAGES.keys():
        todo = [p for p in _PENDING if p not in _expanded]
        if not todo:
            return
        for package in todo:
            _expanded.add(package)
            for module in pkgutil.iter_modules(_PENDING[package]):
                if module.ispkg:
                    _import_claim_module(f"{package}.{module.name}")


def load_claims(tokens: Iterable[str] | None = None) -> dict[str, Claim]:
    """Import every claim package registered under the ``fedtheory.claims`` entry-point group (once), and the modules
    named in the environment variable ``FEDTHEORY_CLAIMS`` (comma-separated module names: claims of your own without
    packaging them; worker processes see them too).

    With ``tokens`` (as :func:`select` takes them), only the packages of the papers they name are imported (found by
    the package that registers each paper's record); every package when a paper's package cannot be found. The claims
    the tokens select are then all registered, and possibly others.

    A package that fails to load is skipped (:data:`LOAD_ERRORS` names it); the other claims are unaffected.
    """
    global _loaded, _deferring
    if _loaded:
        return REGISTRY
    if tokens is None:
        _loaded = True
        _load_entry_points()
        while _PENDING:
            _complete(next(iter(_PENDING)))
        return REGISTRY
    keys = {t.strip().split("/")[0] for t in tokens if isinstance(t, str) and t.strip()}
    _deferring = True
    try:
        _load_entry_points()
        _find_papers(keys)
    finally:
        _deferring = False
    if keys - _PAPER_PACKAGES.keys():
        return load_claims()
    for key in sorted(keys):
        _complete(_PAPER_PACKAGES[key])
    return REGISTRY


def select(tokens: Iterable[str] = (), *, exact: bool = False) -> list[Claim]:
    """Claims for ``tokens``; all claims when empty.

    A token selects the claim with that exact id and every claim below it: ``paper`` selects the paper's claims,
    ``paper/label`` the claim ``paper/label`` (if registered) and all its parts ``paper/label:...``, and
    ``paper/label:part`` that part and its sub-parts; a paper key may end in ``/`` (``paper/``). With
    ``exact=True`` a token selects only the claim whose id it is.

    Only the claim packages of the papers the tokens name are imported (:func:`load_claims` with ``tokens``); a token
    that selects nothing there is looked up again among every claim.

    Raises
    ------
    UnknownClaimError
        If a token selects nothing (the message suggests close ids).
    """
    tokens = list(tokens)
    claims = load_claims(tokens or None)  # only the papers the tokens name
    if not tokens:
        return sorted(claims.values(), key=lambda c: c.id)
    chosen: dict[str, Claim] = {}
    for token in tokens:
        if not isinstance(token, str) or not token.strip():
            raise UnknownClaimError(f"empty claim id or paper key: {token!r} (see `fedtheory list`)")
        hits = _hits(claims, token, exact)
        if not hits and not _loaded:  # registered by a package of another paper, or nowhere: look everywhere
            hits = _hits(load_claims(), token, exact)
        if not hits:
            raise UnknownClaimError(f"unknown claim id{'' if exact else ' or paper key'}: {token!r}{_suggest(token)}")
        chosen.update((c.id, c) for c in hits)
    return sorted(chosen.values(), key=lambda c: c.id)


def _hits(claims: dict[str, Claim], token: str, exact: bool) -> list[Claim]:
    """The claims ``token`` selects among ``claims`` (:func:`select`)."""
    if exact:
        return [claims[token]] if token in claims else []
    stem = token[:-1] if token.endswith("/") and "/" not in token[:-1] else token
    return [c for cid, c in claims.items() if cid == stem or cid.startswith((stem + ":", stem + "/"))]


def _suggest(token: str) -> str:
    """`` (did you mean ...?)`` with up to three close ids, or the hint to list them."""
    import difflib

    close = difflib.get_close_matches(token, list(REGISTRY), n=3, cutoff=0.75)
    return f" (did you mean {', '.join(close)}?)" if close else " (see `fedtheory list`)"
