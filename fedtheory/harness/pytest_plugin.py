"""fedtheory inside your own pytest suite: a claim, or evidence you measured, as a test.

Installing fedtheory registers this module with pytest through the ``pytest11`` entry point ``fedtheory`` (with
``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` set, load it with ``-p fedtheory``). It offers

* :func:`assert_claim`: run one registered claim (by id) or judge an :class:`~fedtheory.harness.claims.Evidence`, and
  fail the test unless the verdict is the expected one (``"holds"`` unless told), with the verdict, margin, worst entry
  and witness in the message;
* the fixture ``fedtheory_check``: :func:`assert_claim` with the profile of the run (``--fedtheory-profile``);
* the fixture ``fedtheory_context``: a :class:`~fedtheory.harness.claims.Context` seeded from the test's node id, so a
  test draws the same numbers in every run and on every machine;
* the option ``--fedtheory-profile {quick,full}`` (default ``quick``).

A test of your own method::

    def test_my_rate(fedtheory_context, fedtheory_check):
        rng = fedtheory_context.rng()
        measured, bound = my_gaps(rng), my_printed_bound()
        fedtheory_check(Evidence(measured, bound, "<="))

    def test_a_counterexample_still_fails(fedtheory_check):
        fedtheory_check("my-paper/thm-2", expect="fails")
"""

from __future__ import annotations

import json

import pytest

from ..errors import InvalidParameterError
from .claims import PROFILES, VERDICTS, Claim, Context, Evidence, select
from .report import Result
from .runner import run_claim

ERROR = "error"
"""The verdict of a claim that raised or whose evidence cannot be judged (never one of :data:`VERDICTS`)."""
WITNESS_CHARS = 600
"""The witness is cut to this many characters in a failure message (the whole of it is in the returned result)."""


def assert_claim(
    target: str | Evidence,
    *,
    expect: str = "holds",
    profile: str = "quick",
    label: str = "evidence",
) -> Result:
    """Run a claim, or judge evidence, and fail the calling test unless its verdict is ``expect``.

    Parameters
    ----------
    target : str or Evidence
        A registered claim id (``"my-paper/thm-1"``; claim packages are found through the ``fedtheory.claims``
        entry point), or evidence measured in the test itself.
    expect : {"holds", "fails", "inconclusive", "error"}
        The verdict the test requires (``"fails"`` for a counterexample that must stay one).
    profile : {"quick", "full"}
        The profile the claim runs in (evidence is judged as it is).
    label : str
        How evidence is called in the failure message (a claim is called by its id).

    Returns
    -------
    Result
        The claim's record (verdict, margin, worst entry, witness), as ``fedtheory verify`` writes it.

    Raises
    ------
    InvalidParameterError
        If ``target``, ``expect`` or ``profile`` is not one of the allowed values.
    UnknownClaimError
        If ``target`` is an id no claim package registers.
    """
    __tracebackhide__ = True
    if expect not in (*VERDICTS, ERROR):
        raise InvalidParameterError("expect", f"one of {', '.join((*VERDICTS, ERROR))}", expect)
    if profile not in PROFILES:
        raise InvalidParameterError("profile", f"one of {', '.join(PROFILES)}", profile)
    if isinstance(target, Evidence):
        evidence = target
        claim = Claim(label, "", "", expect, lambda ctx: evidence)
    elif isinstance(target, str):
        (claim,) = select([target], exact=True)
    else:
        raise InvalidParameterError("target", "a registered claim id or an Evidence", type(target).__name__)
    result = run_claim(claim, profile)
    if result.verdict != expect:
        pytest.fail(failure_message(result, expect), pytrace=False)
    return result


def failure_message(result: Result, expect: str) -> str:
    """The message of a test whose claim reached ``result.verdict`` instead of ``expect``: the verdict, the margin, the
    worst entry with its grid parameters, and the witness (or the error)."""
    lines = [f"{result.id}: verdict {result.verdict}, expected {expect}"]
    if result.statement:
        lines.append(f"  statement: {result.statement}")
    if result.error is not None:
        lines.append("  error: " + result.error.strip().splitlines()[0])
        return "\n".join(lines)
    worst = result.worst
    margin = "none (bound 0 or exact equality)" if result.margin is None else f"{result.margin:.6g}"
    lines.append(
        f"  worst entry {worst['index']} of {worst['entries']}: measured {worst['measured']:.6g} "
        f"{result.relation} bound {worst['bound']:.6g}, margin {margin}"
    )
    lines.append(f"  entries failed: {worst['failed']}, inconclusive: {worst['inconclusive']}")
    if worst["parameters"]:
        lines.append("  parameters: " + ", ".join(f"{k}={v}" for k, v in worst["parameters"].items()))
    if result.witness:
        witness = json.dumps(result.witness, sort_keys=True, default=str)
        cut = witness if len(witness) <= WITNESS_CHARS else witness[:WITNESS_CHARS] + " ..."
        lines.append(f"  witness: {cut}")
    return "\n".join(lines)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fedtheory", "fedtheory claims")
    group.addoption(
        "--fedtheory-profile",
        choices=PROFILES,
        default="quick",
        help="profile of the claims run by fedtheory_check and of fedtheory_context (default: quick)",
    )


@pytest.fixture
def fedtheory_context(request: pytest.FixtureRequest) -> Context:
    """A :class:`~fedtheory.harness.claims.Context` for this test: its ``rng()`` is seeded from the test's node id
    (relative to the rootdir), in the profile of the run."""
    return Context(request.node.nodeid, request.config.getoption("fedtheory_profile"))


@pytest.fixture
def fedtheory_check(request: pytest.FixtureRequest):
    """:func:`assert_claim` in the profile of the run: ``fedtheory_check(target, expect="holds")`` returns the
    claim's :class:`~fedtheory.harness.report.Result`; evidence is labelled with the test's node id."""
    profile = request.config.getoption("fedtheory_profile")

    def check(target: str | Evidence, *, expect: str = "holds") -> Result:
        __tracebackhide__ = True
        return assert_claim(target, expect=expect, profile=profile, label=request.node.nodeid)

    return check
