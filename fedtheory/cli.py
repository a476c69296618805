"""The ``fedtheory`` command: ``list``, ``verify``, ``show``, ``figures``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from . import report
from .claims import PROFILES, select
from .errors import FedtheoryError


class _Parser(argparse.ArgumentParser):
    """Report usage errors as one line (no usage dump), exit status 2."""

    def error(self, message: str):
        self.exit(2, f"fedtheory: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fedtheory", description="Check the claims of federated-optimization papers.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ls = sub.add_parser("list", help="list registered claims")
    ls.add_argument("targets", nargs="*", help="claim ids or paper keys")
    v = sub.add_parser("verify", help="run claims and report verdicts")
    v.add_argument("targets", nargs="*", help="claim ids, id prefixes or paper keys (default: all)")
    v.add_argument("--profile", choices=PROFILES, default="quick")
    v.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    v.add_argument("--json", type=Path, default=None, help="JSON report path (default report/verify.json)")
    v.add_argument("--report-dir", type=Path, default=Path("report"), help="where verify.json/.md go")
    v.add_argument(
        "--figures",
        type=Path,
        default=None,
        metavar="DIR",
        help="also draw figures into DIR (the full profile draws them into ./figures)",
    )
    s = sub.add_parser("show", help="run one claim and show its statement, evidence and witness")
    s.add_argument("id")
    s.add_argument("--profile", choices=PROFILES, default="quick")
    f = sub.add_parser("figures", help="regenerate figures")
    f.add_argument("targets", nargs="*", help="paper keys or claim ids (default: all)")
    f.add_argument("--profile", choices=PROFILES, default="full")
    f.add_argument("--out", type=Path, default=Path("figures"))
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    out = Console() if sys.stdout.isatty() else Console(width=160)
    try:
        return _COMMANDS[args.command](args, out)
    except FedtheoryError as exc:
        print(f"fedtheory: error: {exc}", file=sys.stderr)
        return 2


def _list(args, out: Console) -> int:
    for c in select(args.targets):
        out.print(f"[bold]{escape(c.id)}[/]  [dim]{escape(c.source)}[/]  (expect {c.expect})", highlight=False)
        out.print(f"    {c.statement}", highlight=False, markup=False, soft_wrap=True)
    return 0


def _verify(args, out: Console) -> int:
    if args.jobs < 1:
        raise FedtheoryError(f"invalid --jobs: expected an integer >= 1, got {args.jobs}")
    claims = select(args.targets)
    figures = args.figures or (Path("figures") if args.profile == "full" else None)
    start = time.perf_counter()
    results = report.run(claims, profile=args.profile, jobs=args.jobs, figures_dir=figures)
    seconds = time.perf_counter() - start
    out.print(report.table(results))
    for r in results:
        if r.error:
            out.print(f"[bold red]{escape(r.id)} raised:[/] {escape(r.error.splitlines()[0])}", highlight=False)
    json_path = args.json or args.report_dir / "verify.json"
    report.write_json(results, json_path, profile=args.profile, seconds=seconds)
    md_path = report.write_markdown(results, args.report_dir / "verify.md", profile=args.profile, seconds=seconds)
    out.print(report.summary(results, seconds), highlight=False)
    out.print(f"reports: {json_path}, {md_path}", highlight=False)
    return 0 if all(r.as_expected for r in results) else 1


def _show(args, out: Console) -> int:
    claims = select([args.id])
    if len(claims) != 1 or claims[0].id != args.id:
        raise FedtheoryError(
            f"show needs one exact claim id; {args.id!r} matches {len(claims)} claims (see `fedtheory list`)"
        )
    c = claims[0]
    r = report.run_claim(c, args.profile)
    out.print(f"[bold]{escape(c.id)}[/]  ({escape(c.source)})", highlight=False)
    out.print(f"statement: {c.statement}", highlight=False, markup=False)
    out.print(
        f"verdict:   {r.verdict} (recorded: {c.expected(args.profile)}); margin {report._fmt(r.margin)}; "
        f"{r.seconds:.2f} s; seed {r.seed}",
        highlight=False,
    )
    if r.error:
        out.print(r.error, highlight=False, markup=False)
        return 1
    out.print(
        f"evidence:  measured {r.relation} bound over {r.worst['entries']} entries; worst entry "
        f"{r.worst['index']}: measured {report._fmt(r.worst['measured'])}, "
        f"bound {report._fmt(r.worst['bound'])}",
        highlight=False,
    )
    out.print("worst-case parameters: " + json.dumps(r.worst["parameters"]), highlight=False, markup=False)
    out.print("witness:", highlight=False)
    out.print(json.dumps(r.witness, indent=1), highlight=False, markup=False)
    return 0 if r.as_expected else 1


def _figures(args, out: Console) -> int:
    claims = [c for c in select(args.targets) if c.figure]
    results = report.run(claims, profile=args.profile, figures_dir=args.out)
    for c, r in zip(claims, results):
        path = args.out / c.paper / f"{c.figure}.png"
        status = "written" if path.exists() else "NOT written"
        out.print(f"{path}: {status} ({c.id}: {r.verdict})", highlight=False)
    return 0 if all(r.verdict != "error" for r in results) else 1


_COMMANDS = {"list": _list, "verify": _verify, "show": _show, "figures": _figures}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
