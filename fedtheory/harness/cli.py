"""The ``fedtheory`` command: ``list``, ``verify``, ``show``, ``figures``, ``diff``.

Exit status: 0 when every verdict is the recorded one, 1 when some verdict differs (or a claim errs; for ``diff``:
when a claim changed verdict between the two reports), 2 for a user error (one line on stderr, no traceback), 130
after Ctrl-C and 143 after SIGTERM (finished claims are kept).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import signal
import sys
import time
import uuid
import warnings
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from .. import backends
from ..errors import ClaimPluginWarning, FedtheoryError, UnknownClaimError
from . import diff, html_report, report
from .cache import run_cache
from .claims import LOAD_ERRORS, PAPERS, PROFILES, SCOPES, figure_file, select
from .dask_runner import LOCAL
from .journal import Journal
from .runner import Interrupted, available_cores, run, run_claim

JOURNAL = "verify.journal.jsonl"


class UsageError(FedtheoryError):
    """A command-line argument that cannot be used (reported in one line, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """Report usage errors as one line (no usage dump), exit status 2."""

    def error(self, message: str):
        self.exit(2, f"fedtheory: error: {message}\n")


def _jobs(text: str) -> int:
    """``--jobs``: a positive integer, or ``auto`` for every core this process may run on."""
    return available_cores() if text.strip().lower() == "auto" else _positive_int(text)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fedtheory", description="Check the claims of federated-optimization papers.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ls = sub.add_parser("list", help="list registered claims")
    ls.add_argument("targets", nargs="*", help="claim ids, id prefixes or paper keys (default: all)")
    v = sub.add_parser(
        "verify",
        help="run claims and report verdicts",
        description="A target selects the claim with that id and every claim below it (paper key, paper/label with "
        "all its :parts); --exact selects only the claims whose ids are given.",
    )
    v.add_argument("targets", nargs="*", help="claim ids, id prefixes or paper keys (default: all)")
    v.add_argument("--exact", action="store_true", help="run only the claims whose exact ids are given")
    v.add_argument("--profile", choices=PROFILES, default="quick")
    v.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        help="worker processes, or 'auto' for one per core (default 1; capped at the cores)",
    )
    v.add_argument("--json", default=None, metavar="FILE", help="JSON report path (default REPORT_DIR/verify.json)")
    v.add_argument("--report-dir", default="report", help="where verify.json, verify.md and the journal go")
    v.add_argument(
        "--resume",
        action="store_true",
        help=f"skip claims already finished in REPORT_DIR/{JOURNAL} by a run of the same code and profile",
    )
    v.add_argument(
        "--figures",
        default=None,
        metavar="DIR",
        help="also draw figures into DIR (the full profile draws them into ./figures)",
    )
    v.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run claims as Dask tasks on the scheduler at ADDRESS (tcp://host:8786), or 'local' for a LocalCluster "
        "of --jobs workers",
    )
    v.add_argument(
        "--cache",
        default=None,
        metavar="DIR",
        help="keep the computations that claims share in DIR and reuse them in later runs of the same code and "
        "choices (default: with several workers, a temporary folder for this run, so that no worker recomputes "
        "another's)",
    )
    v.add_argument(
        "--backend",
        choices=backends.SWEEP_ENGINES,
        default=None,
        help="the engine of the stochastic step-size sweeps (default numpy; jax: float64, on a GPU when JAX sees one)",
    )
    v.add_argument(
        "--kernels",
        choices=backends.KERNELS,
        default=None,
        help="fused numba kernels for the hot recursions (default), or the numpy reference everywhere",
    )
    v.add_argument(
        "--paper-scale",
        action="store_true",
        help="with --profile full: the experiments at the sizes the papers print, on a GPU that JAX sees "
        "(sweeps on JAX)",
    )
    s = sub.add_parser("show", help="run one claim and show its statement, evidence and witness")
    s.add_argument("id", help="an exact claim id (see `fedtheory list`)")
    s.add_argument("--profile", choices=PROFILES, default="quick")
    f = sub.add_parser("figures", help="regenerate figures")
    f.add_argument("targets", nargs="*", help="paper keys or claim ids (default: all)")
    f.add_argument("--profile", choices=PROFILES, default="full")
    f.add_argument("--out", default="figures", metavar="DIR", help="figure folder (default ./figures)")
    d = sub.add_parser(
        "diff",
        help="compare two verify.json reports claim by claim",
        description="Claims that appeared, disappeared, changed verdict, scope or expected verdict, or whose margin "
        "moved beyond --margin-tol. Exit status 1 when a verdict changed, 0 otherwise.",
    )
    d.add_argument("old", metavar="OLD", help="the earlier verify.json")
    d.add_argument("new", metavar="NEW", help="the later verify.json")
    d.add_argument(
        "--margin-tol",
        type=_tolerance,
        default=diff.DEFAULT_MARGIN_TOL,
        metavar="TOL",
        help=f"relative tolerance on margins (default {diff.DEFAULT_MARGIN_TOL:g}; 0 reports any change)",
    )
    d.add_argument("--json", action="store_true", help="print the diff as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    warnings.simplefilter("ignore", ClaimPluginWarning)  # the commands print LOAD_ERRORS themselves, one line each
    try:
        args = _parser().parse_args(argv)
        out = Console(emoji=False) if sys.stdout.isatty() else Console(width=160, emoji=False)
        err = Console(stderr=True, emoji=False) if sys.stderr.isatty() else Console(stderr=True, width=160, emoji=False)
        return _COMMANDS[args.command](args, out, err)
    except FedtheoryError as exc:
        _say(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except BrokenPipeError:  # `fedtheory list | head`: the reader left; nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _folder(option: str, text: str) -> Path:
    """A folder the command will write into: created now, and checked writable before any claim runs."""
    if not text.strip():
        raise UsageError(f"{option}: expected a folder path, got an empty string")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option}: {text!r} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".fedtheory-write-test-{uuid.uuid4().hex}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"{option}: cannot write into {text!r} ({exc.strerror or exc})") from None
    return path


def _file(option: str, text: str) -> Path:
    """A file the command will write: not a folder, in a writable folder (checked before any claim runs)."""
    if not text.strip():
        raise UsageError(f"{option}: expected a file path, got an empty string")
    path = Path(text)
    if path.is_dir() or text.endswith(("/", os.sep)):
        raise UsageError(f"{option}: {text!r} is a folder, not a file")
    _folder(option, str(path.parent))
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{option}: {text!r} is not writable")
    return path


def _say(message: str) -> None:
    """One line on stderr, never wrapped."""
    print(f"fedtheory: {message}", file=sys.stderr, flush=True)


def _cap_jobs(jobs: int) -> int:
    cores = available_cores()
    if jobs > cores:
        _say(f"--jobs {jobs} capped at {cores} (the cores available)")
        return cores
    return jobs


def _warn_skipped_plugins() -> None:
    for line in LOAD_ERRORS:
        _say(f"warning: {line}")


def _list(args, out: Console, err: Console) -> int:
    claims = select(args.targets)
    _warn_skipped_plugins()
    for c in claims:
        out.print(
            f"[bold]{escape(c.id)}[/]  [dim]{escape(c.source)}[/]  ({c.scope}; expect {c.expected('quick')})",
            highlight=False,
        )
        out.print(f"    {c.statement}", highlight=False, markup=False, soft_wrap=True)
        out.print(f"    [dim]{escape(c.where)}[/]", highlight=False, soft_wrap=True)
    return 0


def _choose_backends(args) -> None:
    """Apply --paper-scale, --backend and --kernels to this process (worker processes and Dask tasks inherit them);
    nothing is changed when one of them cannot be used."""
    if args.paper_scale:
        if args.profile != "full":
            raise UsageError(f"--paper-scale: only with --profile full (got --profile {args.profile})")
        if args.backend == "numpy":
            raise UsageError("--paper-scale runs the sweeps on JAX: leave out --backend numpy")
        if not backends.gpu_available():
            raise UsageError(
                "--paper-scale needs a GPU that JAX can see, and none was found (JAX is not installed, or "
                "jax.devices('gpu') is empty); nothing was run"
            )
    if (args.backend == "jax" or args.paper_scale) and importlib.util.find_spec("jax") is None:
        raise UsageError("--backend jax needs JAX: pip install 'fedtheory[jax]'")
    if args.kernels is not None:
        backends.set_kernels(args.kernels)
    if args.paper_scale:
        backends.set_paper_scale(True)
        backends.set_sweep_engine("jax")
    elif args.backend is not None:
        backends.set_sweep_engine(args.backend)


def _verify(args, out: Console, err: Console) -> int:
    _choose_backends(args)
    report_dir = _folder("--report-dir", args.report_dir)
    json_path = _file("--json", args.json) if args.json is not None else report_dir / "verify.json"
    figures_text = args.figures if args.figures is not None else ("figures" if args.profile == "full" else None)
    figures = _folder("--figures", figures_text) if figures_text is not None else None
    if args.exact and not args.targets:
        raise UsageError("--exact: give the exact claim ids to run (without ids it would run every claim)")
    claims = select(args.targets, exact=args.exact)
    _warn_skipped_plugins()
    jobs = _cap_jobs(args.jobs) if args.dask in (None, LOCAL) else args.jobs  # a cluster has workers of its own
    start = time.perf_counter()
    shared = args.cache is not None or args.dask == LOCAL or (args.dask is None and jobs > 1)
    cache = run_cache(_folder("--cache", args.cache) if args.cache is not None else None)
    with (
        cache if shared else contextlib.nullcontext(),
        Journal(report_dir / JOURNAL, profile=args.profile, figures_dir=figures, resume=args.resume) as journal,
    ):
        if args.resume:
            _say(journal.resume_note)
        todo = [c for c in claims if c.id not in journal.finished]
        try:
            fresh = run(
                todo,
                profile=args.profile,
                jobs=jobs,
                figures_dir=figures,
                console=err,
                on_result=journal.record,
                dask=args.dask,
            )
        except Interrupted as stop:
            done = len(claims) - len(todo) + len(stop.results)
            _say(
                f"{'interrupted' if stop.signum == signal.SIGINT else 'terminated'}: {done} of {len(claims)} claims "
                f"finished and kept in {journal.path} (continue with --resume)"
            )
            return 128 + stop.signum
    by_id = {**{c.id: journal.finished[c.id] for c in claims if c.id in journal.finished}, **{r.id: r for r in fresh}}
    results = [by_id[c.id] for c in claims]
    seconds = time.perf_counter() - start
    out.print(report.table(results))
    for r in results:
        if r.error:
            out.print(f"[bold red]{escape(r.id)} raised:[/] {escape(r.error.splitlines()[0])}", highlight=False)
    report.write_json(results, json_path, profile=args.profile, seconds=seconds)
    md_path = report.write_markdown(results, report_dir / "verify.md", profile=args.profile, seconds=seconds)
    # Figures drawn by this run, else the stored ones in ./figures (each captioned with its path).
    html_path = html_report.write_html(
        results,
        report_dir / "verify.html",
        profile=args.profile,
        seconds=seconds,
        figures_dir=figures or Path("figures"),
    )
    out.print(report.summary(results, seconds), highlight=False)
    out.print(f"reports: {json_path}, {md_path}, {html_path}", highlight=False)
    return 0 if all(r.as_expected for r in results) else 1


def _show(args, out: Console, err: Console) -> int:
    try:
        (c,) = select([args.id], exact=True)
    except UnknownClaimError as unknown:
        try:
            below = select([args.id])
        except UnknownClaimError:
            raise unknown from None
        raise UsageError(
            f"show needs an exact claim id; {args.id!r} selects {len(below)} claims (`fedtheory list {args.id}`)"
        ) from None
    _warn_skipped_plugins()
    r = run_claim(c, args.profile)
    out.print(f"[bold]{escape(c.id)}[/]  ({escape(c.source)})", highlight=False)
    record = PAPERS.get(c.paper)
    if record is not None:
        out.print(f"paper:     {record.authors}, {record.title}; {record.venue}", highlight=False, markup=False)
    out.print(f"defined:   {c.where}", highlight=False, markup=False)
    out.print(f"statement: {c.statement}", highlight=False, markup=False)
    out.print(f"scope:     {c.scope} ({SCOPES[c.scope]})", highlight=False, markup=False)
    out.print(
        f"verdict:   {r.verdict} (recorded: {c.expected(args.profile)}); margin {report.fmt(r.margin)}; "
        f"{r.seconds:.2f} s; seed {r.seed}",
        highlight=False,
    )
    parts = select([c.id])[1:]
    if parts:
        out.print(f"parts:     {', '.join(p.id for p in parts)} (fedtheory show PART)", highlight=False)
    if r.error:
        out.print(r.error, highlight=False, markup=False)
        return 1
    out.print(
        f"evidence:  measured {r.relation} bound over {r.worst['entries']} entries; worst entry "
        f"{r.worst['index']}: measured {report.fmt(r.worst['measured'])}, "
        f"bound {report.fmt(r.worst['bound'])}",
        highlight=False,
    )
    out.print("worst-case parameters: " + json.dumps(r.worst["parameters"]), highlight=False, markup=False)
    if r.search:
        out.print(
            f"search:    {r.search['evaluations']} evaluations, best margin {report.fmt(r.search['best_margin'])} over "
            + json.dumps(r.search["domain"]),
            highlight=False,
            markup=False,
        )
    out.print("witness:", highlight=False)
    out.print(json.dumps(r.witness, indent=1), highlight=False, markup=False)
    return 0 if r.as_expected else 1


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _figures(args, out: Console, err: Console) -> int:
    folder = _folder("--out", args.out)
    selected = select(args.targets)
    _warn_skipped_plugins()
    claims = [c for c in selected if c.figure]
    plain = [c.id for c in selected if not c.figure]
    if plain and args.targets:
        out.print(f"no figure: {', '.join(plain)}", highlight=False, markup=False, soft_wrap=True)
    elif plain:
        out.print(
            f"{len(plain)} of {len(selected)} claims draw no figure (`fedtheory list` shows them)", highlight=False
        )
    if not claims:
        return 0
    paths = {c.id: figure_file(folder, c.id, c.figure) for c in claims}
    before = {cid: _digest(p) for cid, p in paths.items()}
    try:
        results = run(claims, profile=args.profile, figures_dir=folder, console=err, label="figures")
    except Interrupted as stop:
        _say(f"interrupted: {len(stop.results)} of {len(claims)} figure claims finished")
        return 128 + stop.signum
    failed = 0
    for c, r in zip(claims, results):
        after = _digest(paths[c.id])
        if r.verdict == "error":
            status = f"failed: {r.error.splitlines()[0]}"
        elif after is None:
            status = "failed: the claim ran but wrote no figure"
        else:
            status = "unchanged" if after == before[c.id] else "written"
        failed += status.startswith("failed")
        out.print(f"{paths[c.id]}: {status} ({c.id}: {r.verdict})", highlight=False, markup=False, soft_wrap=True)
    return 1 if failed else 0


def _diff(args, out: Console, err: Console) -> int:
    result = diff.diff_reports(
        diff.read_report(args.old, name="OLD"), diff.read_report(args.new, name="NEW"), margin_tol=args.margin_tol
    )
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        out.print(result.header(), highlight=False, markup=False, soft_wrap=True)
        if not result.empty:
            out.print(result.table())
        out.print(result.summary(), highlight=False, markup=False, soft_wrap=True)
    return 1 if result.verdict_changed else 0


_COMMANDS = {"list": _list, "verify": _verify, "show": _show, "figures": _figures, "diff": _diff}


def console_main() -> None:
    """The console script: :func:`main`, and after Ctrl-C or SIGTERM an immediate exit.

    The journal is closed and the workers are stopped by then; skipping the interpreter's teardown of the loaded
    numerical stack (seconds on a busy machine) is what makes a stopped run exit at once.
    """
    code = main()
    if code in (128 + signal.SIGINT, 128 + signal.SIGTERM):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    console_main()
