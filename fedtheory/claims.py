"""Claims: a printed statement, the code that measures it, and a verdict computed from the numbers.

A claim function receives a :class:`Context` and returns :class:`Evidence`: arrays of measured values
and printed bounds over a parameter grid, the relation the paper asserts between them, optional
intervals (Monte Carlo confidence intervals or engine error bars) and a witness. :func:`judge` derives
the verdict from the evidence alone:

* ``holds``: every entry satisfies the relation (for an interval, the whole interval does);
* ``fails``: some entry violates it (for an interval, the whole interval does); the worst such entry
  is the witness;
* ``inconclusive``: no entry fails but some interval straddles its bound.

``expect`` records the verdict a claim had when it was last reviewed; it never enters the verdict and
only lets the test suite and ``fedtheory verify`` flag a change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np

from .errors import InvalidParameterError, UnknownClaimError

VERDICTS = ("holds", "fails", "inconclusive")
RELATIONS = ("<=", "<", ">=", ">", "==")
PROFILES = ("quick", "full")


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

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise InvalidParameterError("relation", f"one of {', '.join(RELATIONS)}", self.relation)
        if self.rtol < 0 or self.atol < 0:
            raise InvalidParameterError("rtol", "tolerances >= 0", (self.rtol, self.atol))


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
    arr = np.asarray(x, dtype=object)
    if any(isinstance(v, Fraction) for v in arr.flat):
        return np.vectorize(Fraction, otypes=[object])(arr)
    return np.asarray(x, dtype=float)


def judge(ev: Evidence) -> Outcome:
    """Compute the verdict of ``ev`` (module docstring)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _judge(ev)


def _judge(ev: Evidence) -> Outcome:
    m, b = _values(ev.measured), _values(ev.bound)
    m, b = np.broadcast_arrays(np.atleast_1d(m), np.atleast_1d(b))
    m, b = m.ravel(), b.ravel()
    tol = ev.atol + (ev.rtol * np.abs(b.astype(float)) if ev.rtol else 0.0)  # no 0 * inf for infinite bounds
    if ev.interval is not None:
        lo, hi = (np.broadcast_to(np.asarray(v, dtype=float), m.shape).ravel() for v in ev.interval)
    else:
        lo = hi = None
    exact = m.dtype == object or b.dtype == object

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
        bf = b.astype(float)
        ok = (lo - tol <= bf) & (bf <= hi + tol)
        failed, unsure = ~ok, np.zeros_like(ok)
    else:
        bf = b.astype(float)
        upper = ev.relation in ("<=", "<")
        conservative, optimistic = (hi, lo) if upper else (lo, hi)
        ok = np.asarray(rel(conservative, bf, tol), dtype=bool)
        failed = ~np.asarray(rel(optimistic, bf, tol), dtype=bool)
        unsure = ~ok & ~failed

    mf, bf = m.astype(float), b.astype(float)
    if ev.relation == "==":
        # Deviation as a fraction of what is allowed (tolerance plus interval half-width).
        half = 0.0 if lo is None else (hi - lo) / 2
        allowed = tol + half
        dev = np.abs(mf - bf)
        used = np.where(allowed > 0, dev / np.where(allowed > 0, allowed, 1.0), np.where(dev > 0, np.inf, 0.0))
        slack = -used
    else:
        probe = mf if lo is None else (hi if ev.relation in ("<=", "<") else lo)
        scale = np.where(bf != 0, np.abs(bf), 1.0)
        slack = (bf - probe) / scale if ev.relation in ("<=", "<") else (probe - bf) / scale
    slack = np.where(np.isnan(slack), -np.inf, slack)  # inf - inf: undecidable by slack, count it as worst
    pool = failed if failed.any() else unsure if unsure.any() else np.ones_like(ok)
    worst = int(np.flatnonzero(pool)[np.argmin(slack[pool])])
    verdict = "fails" if failed.any() else "inconclusive" if unsure.any() else "holds"
    if ev.relation == "==":
        margin = float(used[worst]) if np.isfinite(used[worst]) and np.any(allowed > 0) else None
    else:
        ratio = mf[worst] / bf[worst] if bf[worst] != 0 else np.nan
        margin = float(ratio) if np.isfinite(ratio) else None
    shape = np.broadcast_shapes(
        np.shape(np.asarray(ev.measured, dtype=object)), np.shape(np.asarray(ev.bound, dtype=object))
    )
    params = {}
    for name, values in (ev.grid or {}).items():
        flat = np.asarray(values, dtype=object)
        flat = flat.ravel() if flat.size == m.size else np.broadcast_to(flat, shape).ravel()
        params[name] = _plain(flat[worst])
    return Outcome(
        verdict, margin, worst, float(mf[worst]), float(bf[worst]), m.size, int(failed.sum()), int(unsure.sum()), params
    )


def _plain(v):
    """A JSON-friendly scalar."""
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, np.generic):
        return v.item()
    return v


@dataclass(frozen=True)
class Context:
    """What a claim function is given: the profile, a seeded generator and where figures go."""

    claim_id: str
    profile: str = "quick"
    figures_dir: Path | None = None

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    @property
    def seed(self) -> int:
        return seed_for(self.claim_id)

    def rng(self, stream: int = 0) -> np.random.Generator:
        """A generator seeded from the claim id (and ``stream``, for independent draws)."""
        return np.random.default_rng([self.seed, stream])

    def figure_path(self, label: str) -> Path | None:
        """``<figures_dir>/<paper key>/<label>.png``, or ``None`` when figures are not wanted."""
        if self.figures_dir is None:
            return None
        return Path(self.figures_dir) / self.claim_id.split("/")[0] / f"{label}.png"


@dataclass(frozen=True)
class Claim:
    """A registered claim."""

    id: str
    source: str
    statement: str
    expect: str
    func: Callable[[Context], Evidence]
    figure: str | None = None
    expect_full: str | None = None

    def expected(self, profile: str) -> str:
        """The verdict recorded for ``profile``: ``expect_full`` in the full profile when the paper-scale grid
        reaches a different verdict than the scaled-down quick one, ``expect`` otherwise."""
        return self.expect_full if profile == "full" and self.expect_full is not None else self.expect

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    @property
    def label(self) -> str:
        return self.id.split("/", 1)[1].split(":")[0]


REGISTRY: dict[str, Claim] = {}


def claim(
    id: str, *, source: str, statement: str, expect: str, figure: str | None = None, expect_full: str | None = None
):
    """Register a claim function under ``id`` (``<paper key>/<label>[:<part>]``).

    ``figure`` names the figure label the claim draws when figures are requested. ``expect_full`` records the
    full profile's verdict where its paper-scale grid decides differently from the quick profile's scaled-down one
    (the statement must say both scales).
    """
    if "/" not in id or not id.split("/", 1)[1]:
        raise InvalidParameterError("id", "'<paper key>/<label>[:<part>]'", id)
    for name, value in (("expect", expect), ("expect_full", expect_full)):
        if value not in VERDICTS and not (name == "expect_full" and value is None):
            raise InvalidParameterError(name, f"one of {', '.join(VERDICTS)}", value)

    def register(func: Callable[[Context], Evidence]):
        if id in REGISTRY and REGISTRY[id].func.__qualname__ != func.__qualname__:
            raise InvalidParameterError("id", "an id not already registered", id)
        REGISTRY[id] = Claim(id, source, statement, expect, func, figure, expect_full)
        return func

    return register


def seed_for(claim_id: str) -> int:
    """A 63-bit seed derived from the claim id (stable across runs, machines and Python versions)."""
    return int(hashlib.sha256(claim_id.encode()).hexdigest()[:15], 16)


def load_claims() -> dict[str, Claim]:
    """Import every claim package registered under the ``fedtheory.claims`` entry-point group."""
    for ep in entry_points(group="fedtheory.claims"):
        ep.load()
    return REGISTRY


def select(tokens: Iterable[str] = ()) -> list[Claim]:
    """Claims matching ids, id prefixes (``paper/label``) or paper keys; all claims when empty."""
    claims = load_claims()
    tokens = list(tokens)
    if not tokens:
        return sorted(claims.values(), key=lambda c: c.id)
    chosen: dict[str, Claim] = {}
    for token in tokens:
        hits = [
            c for cid, c in claims.items() if cid == token or cid.startswith(token + ":") or cid.startswith(token + "/")
        ]
        if not hits:
            raise UnknownClaimError(f"unknown claim id or paper key: {token!r} (see `fedtheory list`)")
        chosen.update((c.id, c) for c in hits)
    return sorted(chosen.values(), key=lambda c: c.id)
