"""Test claims for the command-line tests (loaded through ``FEDTHEORY_CLAIMS=sleepy_claims``): claims that take a
set time, one that draws a figure, one that errs, one that forgets its figure."""

import os
import time

from fedtheory.harness.claims import Context, Evidence, claim

NAP = float(os.environ.get("SLEEPY_SECONDS", "0"))

for _i in range(int(os.environ.get("SLEEPY_COUNT", "6"))):

    @claim(
        f"test-sleepy/nap:{_i}",
        source="test",
        statement="sleeps SLEEPY_SECONDS, then 1 <= 2",
        scope="printed",
        expect="holds",
    )
    def _nap(ctx: Context, i=_i) -> Evidence:
        time.sleep(NAP)
        return Evidence(1.0, 2.0, "<=", witness={"i": i})


@claim("test-sleepy/figure", source="test", statement="draws a figure", scope="printed", expect="holds", figure="fig")
def drawn(ctx: Context) -> Evidence:
    ctx.draw(_paint)
    return Evidence(1.0, 2.0, "<=")


def _paint(path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG fixed bytes " + os.environ.get("SLEEPY_FIGURE", "a").encode())


@claim(
    "test-sleepy/figure-raises",
    source="test",
    statement="fails to draw",
    scope="printed",
    expect="holds",
    figure="broken",
)
def broken(ctx: Context) -> Evidence:
    raise RuntimeError("no data for the figure")


@claim(
    "test-sleepy/figure-missing",
    source="test",
    statement="forgets to draw",
    scope="printed",
    expect="holds",
    figure="missing",
)
def missing(ctx: Context) -> Evidence:
    return Evidence(1.0, 2.0, "<=")


@claim("test-sleepy/crash", source="test", statement="kills its worker process", scope="printed", expect="holds")
def crash(ctx: Context) -> Evidence:
    import multiprocessing
    import signal

    if multiprocessing.parent_process() is not None:  # only ever in a worker, never the run itself
        os.kill(os.getpid(), signal.SIGKILL)
    return Evidence(1.0, 2.0, "<=")
