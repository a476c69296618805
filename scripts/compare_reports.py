"""Compare two ``fedtheory verify`` JSON reports claim by claim, for a change that must not move any number.

    python scripts/compare_reports.py OLD.json NEW.json [--subset]

Prints one line per claim whose numbers differ (verdict, measured value, bound, relation, margin, worst entry,
witness or seed), and per claim that appeared or disappeared (with ``--subset``, NEW may hold a part of OLD's
claims: only those are compared); exits 1 if there is any. Timings, versions, the
statement and the source text are not compared: a refactoring may reword a citation, never a number.
"""

from __future__ import annotations

import json
import sys

COMPARED = (
    "verdict",
    "expect",
    "scope",
    "measured",
    "bound",
    "relation",
    "margin",
    "worst",
    "witness",
    "search",
    "seed",
    "error",
)


def _paths(a, b, path: str) -> list[str]:
    """Where two JSON values differ: ``path: old -> new`` at each differing leaf."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [line for k in {**a, **b} for line in _paths(a.get(k), b.get(k), f"{path}/{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [line for i, (x, y) in enumerate(zip(a, b)) for line in _paths(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r:.100} -> {b!r:.100}"]


def differences(old: dict, new: dict, subset: bool = False) -> list[str]:
    before = {c["id"]: c for c in old["claims"]}
    after = {c["id"]: c for c in new["claims"]}
    lines = [] if subset else [f"only in old: {i}" for i in sorted(before.keys() - after.keys())]
    lines += [f"only in new: {i}" for i in sorted(after.keys() - before.keys())]
    for i in sorted(before.keys() & after.keys()):
        for key in COMPARED:
            lines += [f"{i}: {line}" for line in _paths(before[i].get(key), after[i].get(key), key)]
    return lines


def main(argv: list[str]) -> int:
    subset = "--subset" in argv
    paths = [a for a in argv if a != "--subset"]
    if len(paths) != 2 or len(argv) - len(paths) > 1:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old, new = (json.load(open(path)) for path in paths)
    lines = differences(old, new, subset)
    print("\n".join(lines) if lines else f"identical: {len(new['claims'])} claims, every number equal")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
