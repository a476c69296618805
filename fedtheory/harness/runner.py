"""Running claims: one at a time or in worker processes, with progress, streaming to a journal, and clean stops.

* A claim that raises (``SystemExit`` and ``KeyboardInterrupt`` raised by its code included) gets the verdict
  ``error`` with the reason; evidence that cannot be judged (NaN, infinities, crossed intervals) too. The run goes on.
* Ctrl-C (SIGINT) or SIGTERM stops the run: worker processes are terminated (they ignore SIGINT themselves and die
  with their parent), the finished results are already in the journal, and :class:`Interrupted` carries them.
* Progress: a live bar on a terminal; otherwise (CI, a pipe, a log file) a line at least every 10 s or every 25
  claims with the count, the elapsed time and an estimate of the time left.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from threadpoolctl import threadpool_limits

from ..errors import InvalidEvidenceError
from .claims import REGISTRY, Claim, Context, judge, load_claims
from .report import Result, claim_record, error_result, jsonable

MAX_STORED = 2000  # entries of measured/bound/interval kept in the report; the worst entry is always kept
PLAIN_EVERY_SECONDS = 10.0
PLAIN_EVERY_CLAIMS = 25


class Interrupted(Exception):
    """A run stopped by SIGINT or SIGTERM; ``results`` holds the claims that finished, in claim order."""

    def __init__(self, signum: int, results: list[Result], total: int):
        self.signum, self.results, self.total = signum, results, total
        super().__init__(f"{signal.Signals(signum).name} after {len(results)} of {total} claims")


class _Stop(BaseException):
    """Raised by the signal handlers in the main process; a BaseException, so claim code does not swallow it."""

    def __init__(self, signum: int):
        self.signum = signum


def run_claim(claim: Claim, profile: str = "quick", figures_dir: Path | None = None) -> Result:
    """Run one claim and judge its evidence; anything it raises becomes the verdict ``error``."""
    ctx = Context(claim.id, profile, figures_dir, claim.figure)
    start = time.perf_counter()
    base = claim_record(claim, profile)
    try:
        ev = claim.func(ctx)
        out = judge(ev)
    except InvalidEvidenceError as exc:  # the evidence says why; no traceback needed
        return Result(**base, verdict="error", seconds=time.perf_counter() - start, error=f"invalid evidence: {exc}")
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # a claim that crashes is a bug: report it, never hide it
        head = "".join(traceback.format_exception_only(type(exc), exc)).strip() or type(exc).__name__
        return Result(**base, verdict="error", seconds=time.perf_counter() - start, error=head + "\n" + _trace(exc))
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
        search=None if ev.search is None else jsonable(ev.search),
        pep=None if ev.pep is None else jsonable(ev.pep),
        seconds=time.perf_counter() - start,
    )


def _trace(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def _stored(values, n_entries: int):
    """``values`` for the report, or a note when the grid is too large to store entry by entry."""
    if n_entries <= MAX_STORED:
        return jsonable(values)
    return f"{n_entries} entries, not stored (see 'worst')"


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform tells)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


BLAS_THREADS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Read by BLAS and OpenMP libraries when they load: a worker sets them for the libraries it loads later."""


def _worker_init() -> None:
    """Workers ignore Ctrl-C (the parent stops them), die with their parent (Linux: PR_SET_PDEATHSIG) and use one
    BLAS (and OpenMP) thread each, so that ``jobs`` workers never oversubscribe the cores (a matrix product was
    seen 100x slower with every worker running as many BLAS threads as there are cores)."""
    os.environ.update(dict.fromkeys(BLAS_THREADS_VARIABLES, "1"))  # libraries loaded from now on
    threadpool_limits(limits=1)  # those already loaded (the worker is forked from the parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGTERM))  # 1 = PR_SET_PDEATHSIG


def run_by_id(claim_id: str, profile: str, figures_dir: Path | None) -> Result:
    """Run the claim ``claim_id`` in a worker: a forked one has it registered already, another (spawned, on a Dask
    cluster) imports only the package of its paper."""
    claim = REGISTRY.get(claim_id) or load_claims([claim_id])[claim_id]
    return run_claim(claim, profile, figures_dir)


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`_Stop` in the main thread while the block runs."""
    if threading.current_thread() is not threading.main_thread():  # signals can only be handled there
        yield
        return

    def handler(signum, frame):
        raise _Stop(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class _PlainProgress:
    """Progress lines for a console that is not a terminal: every ``PLAIN_EVERY_CLAIMS`` claims or
    ``PLAIN_EVERY_SECONDS`` seconds, whichever comes first (a ticker thread covers long claims)."""

    def __init__(self, console: Console, total: int, label: str):
        self.console, self.total, self.label = console, total, label
        self.done, self.start = 0, time.monotonic()
        self.last_line, self.last_count = self.start, 0
        self._lock, self._quit = threading.Lock(), threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> _PlainProgress:
        self.console.print(f"{self.label}: {self.total} claims to run", highlight=False)
        self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        self._quit.set()
        self._ticker.join(timeout=1.0)

    def _tick(self) -> None:
        while not self._quit.wait(min(1.0, PLAIN_EVERY_SECONDS / 4)):
            with self._lock:
                if time.monotonic() - self.last_line >= PLAIN_EVERY_SECONDS:
                    self._line()

    def _line(self) -> None:
        elapsed = time.monotonic() - self.start
        left = (
            "estimating time left"
            if not self.done
            else f"about {_clock(elapsed / self.done * (self.total - self.done))} left"
        )
        self.console.print(
            f"{self.label}: {self.done}/{self.total} claims, {_clock(elapsed)} elapsed, {left}", highlight=False
        )
        self.last_line, self.last_count = time.monotonic(), self.done

    def advance(self, claim_id: str) -> None:
        with self._lock:
            self.done += 1
            if self.done - self.last_count >= PLAIN_EVERY_CLAIMS or self.done == self.total:
                self._line()


class _LiveProgress:
    """Rich's live bar (terminals)."""

    def __init__(self, console: Console, total: int, label: str):
        columns = (
            TextColumn(f"[bold]{label}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
        )
        self.progress = Progress(*columns, console=console, transient=True)
        self.task = self.progress.add_task("", total=total)

    def __enter__(self) -> _LiveProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)

    def advance(self, claim_id: str) -> None:
        self.progress.update(self.task, description=claim_id)
        self.progress.advance(self.task)


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if seconds >= 3600
        else f"{seconds // 60}:{seconds % 60:02d}"
    )


def run(
    claims: list[Claim],
    *,
    profile: str = "quick",
    jobs: int = 1,
    figures_dir: Path | None = None,
    console: Console | None = None,
    on_result: Callable[[Result], None] | None = None,
    label: str = "verify",
    dask: str | None = None,
) -> list[Result]:
    """Run ``claims`` (in ``jobs`` worker processes, or as Dask tasks) with progress; results in claim order.

    Parameters
    ----------
    on_result : callable, optional
        Called in the main process with each result as it finishes
        (e.g. :meth:`fedtheory.harness.journal.Journal.record`).
    dask : str, optional
        Run each claim as a task on the Dask scheduler at this address (``tcp://host:8786``), or on a new
        LocalCluster of ``jobs`` worker processes for ``"local"`` (:func:`fedtheory.harness.dask_runner.run_on_dask`).
        Every number is the one ``jobs=1`` computes.

    Raises
    ------
    Interrupted
        On SIGINT or SIGTERM, after the workers are stopped (the Dask tasks cancelled); it carries the finished
        results.
    fedtheory.harness.dask_runner.DaskError
        If ``dask`` is given and dask.distributed is not installed or the scheduler cannot be reached.
    """
    console = console or Console(stderr=True, emoji=False)
    results: dict[str, Result] = {}
    display = _LiveProgress if console.is_terminal else _PlainProgress

    def finished(result: Result) -> None:
        results[result.id] = result
        if on_result is not None:
            on_result(result)

    try:
        with _stop_on_signals():
            if dask is not None:
                from .dask_runner import run_on_dask

                run_on_dask(
                    claims,
                    address=dask,
                    profile=profile,
                    figures_dir=figures_dir,
                    jobs=jobs,
                    finished=finished,
                    progress=display(console, len(claims), label),
                    run_claim=run_claim,
                    blas_environ=dict.fromkeys(BLAS_THREADS_VARIABLES, "1"),
                )
            elif jobs <= 1 or len(claims) <= 1:
                # one BLAS thread, as in every worker: a claim's numbers never depend on how many jobs ran it
                with display(console, len(claims), label) as progress, threadpool_limits(limits=1):
                    for c in claims:
                        finished(run_claim(c, profile, figures_dir))
                        progress.advance(c.id)
            else:
                progress = display(console, len(claims), label)
                _run_parallel(claims, profile, min(jobs, len(claims)), figures_dir, finished, progress)
    except _Stop as stop:
        raise Interrupted(stop.signum, [results[c.id] for c in claims if c.id in results], len(claims)) from None
    return [results[c.id] for c in claims]


def _run_parallel(claims, profile, jobs, figures_dir, finished, progress) -> None:
    """Claims in ``jobs`` worker processes, one claim at a time per worker over a pipe.

    No threads and no shared queues in the parent, so stopping is a plain ``terminate``: nothing is left half-sent.
    The workers are forked before ``progress`` (a context manager) starts its display thread. A worker that dies (a
    crash in native code, the OOM killer) gives its claim the verdict ``error`` and is replaced. Families are cached
    per process, so a worker is given the next claim of the module it ran last, else the next claim of a module no
    other worker is running (:func:`next_claim`): claims that share a family mostly run where it is already computed.
    """
    todo = list(claims)
    workers: dict[int, _Worker] = {}

    def retire(w: _Worker) -> None:
        w.stop()
        workers.pop(w.sentinel, None)

    def assign(w: _Worker | None) -> None:
        """Give the next claim to ``w`` (a new worker if ``w`` is None or dead); retire ``w`` when none is left."""
        while todo:
            if w is None or not w.process.is_alive():
                if w is not None:
                    retire(w)
                w = _Worker(profile, figures_dir)
                workers[w.sentinel] = w
            busy = {_module(o.claim) for o in workers.values() if o is not w and o.claim is not None}
            i = next_claim(todo, _module(w.claim) if w.claim is not None else None, busy)
            try:
                w.give(todo[i])
            except OSError:  # it died between its last result and this claim: the claim goes to a fresh worker
                retire(w)
                w = None
                continue
            todo.pop(i)
            return
        if w is not None:
            retire(w)

    try:
        for _ in range(min(jobs, len(todo))):
            assign(None)
        with progress:
            while workers:
                ready = multiprocessing.connection.wait([w.conn for w in workers.values()] + list(workers), 0.5)
                for w in list(workers.values()):
                    if w.conn not in ready and w.sentinel not in ready:
                        continue
                    claim = w.claim
                    try:
                        result = w.conn.recv()
                    except (EOFError, OSError):  # the worker died with this claim
                        retire(w)  # joins it: its exit code is known
                        result = _died(claim, profile, w.process.exitcode)
                        assign(None)
                    else:
                        assign(w)
                    finished(result)
                    progress.advance(claim.id)
    finally:
        for w in list(workers.values()):
            w.stop()


def _module(claim: Claim) -> str:
    """The module that registered ``claim`` (``where`` is ``module:line``)."""
    return claim.where.rsplit(":", 1)[0]


def next_claim(todo: list[Claim], last: str | None, busy: set[str]) -> int:
    """Index in ``todo`` (claim order) of the claim to give a worker whose last claim came from module ``last``:
    the first claim of that module, else the first of a module no other worker is running (``busy``), else the
    first."""
    modules = [_module(c) for c in todo]
    if last is not None and last in modules:
        return modules.index(last)
    return next((i for i, m in enumerate(modules) if m not in busy), 0)


class _Worker:
    """One worker process and its end of the pipe (see :func:`_run_parallel`)."""

    def __init__(self, profile: str, figures_dir: Path | None):
        self.conn, child = multiprocessing.Pipe()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a forked worker ignores Ctrl-C from its first instruction
        try:
            self.process = multiprocessing.Process(
                target=_worker_loop, args=(child, profile, figures_dir), daemon=True, name="fedtheory-worker"
            )
            self.process.start()
        finally:
            signal.signal(signal.SIGINT, old)
        child.close()
        self.sentinel = self.process.sentinel
        self.claim: Claim | None = None

    def give(self, claim: Claim) -> None:
        self.claim = claim
        self.conn.send(claim.id)

    def stop(self) -> None:
        """Terminate the process (at once: a finished worker has nothing left to do) and close the pipe."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=1.0)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(timeout=1.0)
        self.conn.close()


def _worker_loop(conn, profile: str, figures_dir: Path | None) -> None:
    _worker_init()
    while True:
        try:
            claim_id = conn.recv()
        except EOFError:  # the parent is gone
            return
        conn.send(run_by_id(claim_id, profile, figures_dir))


def _died(claim: Claim, profile: str, exitcode: int | None) -> Result:
    how = f"signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit status {exitcode}"
    return error_result(claim, profile, f"the worker process running this claim died ({how})")
