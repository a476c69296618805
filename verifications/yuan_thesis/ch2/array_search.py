"""The witness searches of chapter 2's claims whose grid is a large array, as keyword arguments for their evidence
(no claims): :func:`with_search` applies :func:`fedtheory.harness.search.searched` once per search, so the arrays
of a claim's grid and its searches' evaluations are merged by the harness (``None`` for a parameter only one side
names; a zero-width interval where the arrays carry intervals).
"""

from __future__ import annotations

from collections.abc import Callable

from fedtheory.harness.claims import Context, Evidence
from fedtheory.harness.search import Budget, Domain, searched

REGISTERS_CLAIMS = False  # a helper of the claim modules


def with_search(
    ctx: Context,
    measured,
    bound,
    grid: dict,
    searches: list[tuple[Callable[..., tuple], Domain, str | None]],
    relation: str,
    *,
    interval: tuple | None = None,
    scale: int = 1,
    budget: Budget | None = None,
) -> dict:
    """The arrays ``measured``, ``bound`` (and ``interval``) with the evaluations of each search ``(evaluate, domain,
    label)`` appended, flattened, with their ``grid``: keyword arguments for :class:`Evidence` (``measured``,
    ``bound``, ``grid``, ``interval``, ``search``); ``budget`` and ``scale`` as for
    :func:`~fedtheory.harness.search.searched`."""
    ev = Evidence(measured, bound, relation, interval=interval, grid=grid)
    for evaluate, domain, label in searches:
        ev = searched(ev, evaluate, domain, ctx, budget=budget, scale=scale, label=label)
    out = {"measured": ev.measured, "bound": ev.bound, "grid": ev.grid, "search": ev.search}
    return out if interval is None else {**out, "interval": ev.interval}
