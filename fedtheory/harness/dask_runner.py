"""Running claims as tasks on a Dask cluster (``fedtheory verify --dask ADDRESS``).

Each claim is one task: :func:`run_claim_task` runs it on a worker with the process-wide choices of the submitting
process (the environment variables of :data:`CHOICE_VARIABLES`) and one BLAS thread, and returns its
:class:`~fedtheory.harness.report.Result`. Every number is the one ``--jobs 1`` computes (claims seed their own
generators from their ids); only ``seconds`` differs.

* ``address == "local"`` starts a :class:`distributed.LocalCluster` of ``jobs`` single-threaded worker processes on
  this machine and closes it at the end; any other address (``tcp://host:8786``) connects to a running scheduler,
  whose workers need fedtheory installed at the same version (and any ``FEDTHEORY_CLAIMS`` modules importable).
* A task that raises (its worker died more often than the scheduler allows, the claim is not registered there) gives
  its claim the verdict ``error`` with the reason; the run goes on.
* Whatever stops the loop (Ctrl-C and SIGTERM arrive as an exception from :func:`fedtheory.harness.runner.run`'s
  signal handlers) cancels the pending tasks and closes the client and the local cluster before it propagates.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from threadpoolctl import threadpool_limits

from ..backends import KERNELS_VARIABLE, PAPER_SCALE_VARIABLE, SWEEP_ENGINE_VARIABLE
from ..errors import FedtheoryError
from .cache import CACHE_DIR_VARIABLE
from .claims import Claim, load_claims
from .report import Result, error_result

LOCAL = "local"
"""The ``--dask`` address that starts a :class:`distributed.LocalCluster` instead of connecting to a scheduler."""

CHOICE_VARIABLES = (
    KERNELS_VARIABLE,
    SWEEP_ENGINE_VARIABLE,
    PAPER_SCALE_VARIABLE,
    "FEDTHEORY_CLAIMS",
    CACHE_DIR_VARIABLE,
)
"""Environment variables that carry the process-wide choices (kernels, sweep engine, paper scale, claim plugins, the
on-disk cache) from the submitting process to every task."""


class DaskError(FedtheoryError):
    """``--dask`` cannot be used: dask.distributed is not installed, or the scheduler cannot be reached."""


class Progress(Protocol):
    """The progress display of :func:`fedtheory.harness.runner.run`: a context manager with ``advance``."""

    def __enter__(self) -> object: ...

    def __exit__(self, *exc) -> None: ...

    def advance(self, claim_id: str) -> None: ...


def choices() -> dict[str, str | None]:
    """The values of :data:`CHOICE_VARIABLES` in this process (None where unset)."""
    return {name: os.environ.get(name) for name in CHOICE_VARIABLES}


def run_claim_task(
    run_claim: Callable[[Claim, str, Path | None], Result],
    claim_id: str,
    profile: str,
    figures_dir: Path | None,
    environ: dict[str, str | None],
    blas_environ: dict[str, str],
) -> Result:
    """The task run on a Dask worker: set ``environ`` (None: unset), load the claim (importing only its paper's package
    the first time), limit BLAS to one thread (and set ``blas_environ`` for libraries loaded later), run the claim:
    what a ``--jobs 2`` worker does.

    ``run_claim`` is :func:`fedtheory.harness.runner.run_claim` (handed over by reference: the runner imports this
    module, not the other way round).

    Raises
    ------
    LookupError
        If the claim is not registered on the worker (another fedtheory version, or a plugin it cannot import).
    """
    _set_environ(environ)
    claims = load_claims([claim_id])
    threadpool_limits(limits=1)  # the libraries loaded by now, started with as many threads as in a --jobs 1 run
    _set_environ(blas_environ)  # those loaded from now on
    if claim_id not in claims:
        raise LookupError(
            f"claim {claim_id!r} is not registered on the Dask worker (is fedtheory installed there at the same "
            "version, with the FEDTHEORY_CLAIMS modules importable?)"
        )
    return run_claim(claims[claim_id], profile, figures_dir)


def run_on_dask(
    claims: list[Claim],
    *,
    address: str,
    profile: str,
    figures_dir: Path | None,
    jobs: int,
    finished: Callable[[Result], None],
    progress: Progress,
    run_claim: Callable[[Claim, str, Path | None], Result],
    blas_environ: dict[str, str],
) -> None:
    """Run ``claims`` as Dask tasks; ``finished(result)`` and ``progress.advance(id)`` for each, as it completes.

    Parameters
    ----------
    address : str
        ``"local"`` for a :class:`distributed.LocalCluster` of ``jobs`` worker processes (one thread each; no more
        than there are claims), else the scheduler's address (``tcp://host:8786``); the connection times out after
        dask's ``distributed.comm.timeouts.connect``.
    figures_dir : Path, optional
        Made absolute here: the workers draw figures there (on their own file system).
    run_claim : callable
        :func:`fedtheory.harness.runner.run_claim`, run by each task.
    blas_environ : dict
        Environment variables that give the BLAS libraries one thread, set by each task once the claims are loaded
        (:data:`fedtheory.harness.runner.BLAS_THREADS_VARIABLES`).

    Raises
    ------
    DaskError
        If dask.distributed is not installed or the scheduler cannot be reached (before any claim runs).
    """
    if not claims:
        return
    try:
        import distributed
    except ImportError:
        raise DaskError("--dask needs dask.distributed: pip install 'fedtheory[dask]'") from None
    figures = None if figures_dir is None else Path(figures_dir).resolve()
    environ = choices()
    with _client(distributed, address, jobs, len(claims)) as client:
        futures = {
            client.submit(
                run_claim_task,
                run_claim,
                c.id,
                profile,
                figures,
                environ,
                blas_environ,
                key=f"fedtheory-{c.id}-{uuid.uuid4().hex}",
                pure=False,
            ): c
            for c in claims
        }
        try:
            with progress:
                for future in distributed.as_completed(futures):
                    claim = futures[future]
                    try:
                        result = future.result()
                    except Exception as exc:  # the task raised: its worker died, or the claim is unknown there
                        result = _task_failed(claim, profile, exc)
                    finished(result)
                    progress.advance(claim.id)
        finally:
            client.cancel(list(futures))


@contextlib.contextmanager
def _client(distributed, address: str, jobs: int, n_claims: int) -> Iterator[object]:
    """A client of a new LocalCluster (``address == "local"``) or of the scheduler at ``address``; closed at exit."""
    import dask

    cluster = None
    try:
        if address == LOCAL:
            # The worker processes inherit SIG_IGN for Ctrl-C (we stop them, without a traceback from each) and this
            # process's environment unchanged (Dask's nanny would first write OPENBLAS_NUM_THREADS=1 and the like
            # into it, for good); they take one BLAS thread at run time (run_claim_task), as --jobs workers do.
            old = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                with dask.config.set({"distributed.nanny.pre-spawn-environ": {}}):
                    cluster = distributed.LocalCluster(
                        n_workers=max(1, min(jobs, n_claims)),
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # a free port: never "8787 is already in use"
                        silence_logs=logging.CRITICAL,  # a failed task is reported in its result
                    )
            finally:
                signal.signal(signal.SIGINT, old)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address)
            except (OSError, ValueError, TypeError) as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise DaskError(f"--dask: cannot connect to the Dask scheduler at {address!r} ({reason})") from None
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _set_environ(environ: dict[str, str | None]) -> None:
    for name, value in environ.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _task_failed(claim: Claim, profile: str, exc: Exception) -> Result:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    what = f"{type(exc).__name__}" + (f": {reason}" if reason else "")
    return error_result(claim, profile, f"the Dask task running this claim failed: {what}")
