"""The adversarial witness search (``fedtheory.harness.search``, ``Points.search``): the domain's map, determinism, the
budget, and that it finds a violation a convenient grid misses."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError
from fedtheory.harness.claims import Context, judge
from fedtheory.harness.points import Points
from fedtheory.harness.search import BUDGETS, Axis, Budget, Domain, search, slack

CORNER = Domain(
    {"x": Axis(1e-4, 1.0), "n": Axis(1, 1024, integer=True)},
    note="a bound that fails only where x is small and n is large",
)


def corner(x, n):
    """Measured 1 + 0.5 * (corner closeness) against the bound 1.2: violated only for x < 1e-3 and n > 500."""
    closeness = max(0.0, -math.log10(x) - 3) * max(0.0, (n - 500) / 524)
    return 1.0 + 0.5 * closeness, 1.2


@given(u=st.floats(0, 1), lo=st.floats(1e-6, 1e3), ratio=st.floats(1, 1e6), log=st.booleans(), integer=st.booleans())
def test_an_axis_maps_the_unit_interval_into_its_range(u, lo, ratio, log, integer):
    axis = Axis(lo, lo * ratio, log=log, integer=integer)
    value = axis.value(u)
    if integer:
        assert isinstance(value, int) and round(axis.lo) <= value <= round(axis.hi)
    else:
        assert axis.lo <= value <= axis.hi
    assert axis.value(0.0) == (round(axis.lo) if integer else axis.lo)


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: Axis(2.0, 1.0), "Axis"),
        (lambda: Axis(0.0, 1.0), "Axis.lo"),
        (lambda: Axis(1.0, math.inf), "Axis"),
        (lambda: Domain({}, note="x"), "axes"),
        (lambda: Domain({"x": Axis(1.0, 2.0)}, note=" "), "note"),
        (lambda: Budget(sobol=24, starts=1, local=1), "sobol"),
        (lambda: Budget(sobol=8, starts=-1, local=1), "starts, local"),
        (lambda: BUDGETS["quick"].scaled(3), "factor"),
        (lambda: search(corner, CORNER, "~", seed=0, budget=BUDGETS["quick"]), "relation"),
    ],
)
def test_bad_input_names_the_parameter(make, name):
    with pytest.raises(InvalidParameterError) as err:
        make()
    assert err.value.name == name


def test_the_search_finds_the_corner_a_convenient_grid_misses():
    grid = [corner(x, n) for x in (0.01, 0.1, 1.0) for n in (1, 16, 256)]
    assert all(m <= b for m, b in grid)  # the grid sees nothing
    found = search(corner, CORNER, "<=", seed=7, budget=BUDGETS["quick"].scaled(2))
    assert found.record["best_slack"] < 0 and found.record["best_margin"] > 1
    best = found.record["best"]
    assert best["x"] < 1e-3 and best["n"] > 500


def test_the_search_is_deterministic_and_keeps_to_its_budget():
    budget = Budget(sobol=16, starts=2, local=10)
    a = search(corner, CORNER, "<=", seed=3, budget=budget)
    b = search(corner, CORNER, "<=", seed=3, budget=budget)
    assert a.record == b.record and a.parameters == b.parameters
    assert a.record["evaluations"] == len(a.parameters) <= budget.total
    assert len({tuple(p.values()) for p in a.parameters}) == len(a.parameters)  # no instance evaluated twice
    assert search(corner, CORNER, "<=", seed=4, budget=budget).parameters != a.parameters


@pytest.mark.parametrize(
    "relation, measured, bound, expected",
    [
        ("<=", 1.0, 2.0, 0.5),
        ("<", 3.0, 2.0, -0.5),
        (">=", 3.0, 2.0, 0.5),
        ("==", 1.0, 2.0, -0.5),
        ("<=", 1.0, 0.0, -1.0),
    ],
)
def test_slack_is_the_judge_s(relation, measured, bound, expected):
    assert slack(measured, bound, relation) == pytest.approx(expected)
    assert slack(math.nan, 1.0, relation) == -math.inf


def test_points_search_adds_every_evaluation_and_the_judge_reports_the_worst_as_witness():
    points = Points()
    points.add(*corner(0.1, 8), x=0.1, n=8, grid_only="yes")
    record = points.search(lambda x, n: (*corner(x, n), {"derived": x * n}), CORNER, "<=", Context("t/search"), scale=4)
    ev = points.evidence("<=")
    assert ev.search == record and record["evaluations"] == len(points) - 1
    assert ev.grid["grid_only"][1:] == [None] * record["evaluations"]  # names only the grid has
    assert ev.grid["derived"][0] is None  # names only the search has
    out = judge(ev)
    assert out.verdict == "fails" and out.margin == pytest.approx(record["best_margin"])
    assert {k: out.parameters[k] for k in ("x", "n")} == {k: record["best"][k] for k in ("x", "n")}


def test_two_searches_report_their_union_under_their_labels():
    points, ctx = Points(), Context("t/two")
    first = points.search(corner, CORNER, "<=", ctx, label="case-i")
    second = points.search(lambda x, n: (1.0, 2.0), CORNER, "<=", ctx, label="case-ii")
    record = points.search_record()
    assert record["evaluations"] == first["evaluations"] + second["evaluations"]
    assert set(record["domain"]) == {"case-i", "case-ii"}
    assert record["best_slack"] == min(first["best_slack"], second["best_slack"])


def test_the_profile_sets_the_budget_and_scale_multiplies_it():
    counts = {}
    for profile in ("quick", "full"):
        points = Points()
        counts[profile] = points.search(lambda x, n: (x, 2.0), CORNER, "<=", Context("t/budget", profile))[
            "evaluations"
        ]
    assert counts["quick"] <= BUDGETS["quick"].total < counts["full"] <= BUDGETS["full"].total
    scaled = Points().search(lambda x, n: (x, 2.0), CORNER, "<=", Context("t/budget"), scale=4)["evaluations"]
    assert counts["quick"] < scaled <= BUDGETS["quick"].scaled(4).total


def test_searched_appends_to_evidence_built_from_arrays_with_intervals():
    from fedtheory.harness.claims import Evidence
    from fedtheory.harness.search import searched

    x = np.array([[0.1, 1.0], [0.01, 0.5]])
    ev = Evidence(np.ones_like(x), 1.2, "<=", interval=(x * 0 + 0.9, x * 0 + 1.1), grid={"x": x, "n": 8})
    ctx = Context("t/arrays")
    once = searched(ev, corner, CORNER, ctx, scale=4)
    n = once.search["evaluations"]
    assert len(once.measured) == 4 + n and once.grid["n"][:4].tolist() == [8] * 4
    assert once.grid["x"][:4].tolist() == x.ravel().tolist()
    lo, hi = once.interval
    assert np.array_equal(lo[4:], once.measured[4:]) and np.array_equal(hi[4:], once.measured[4:])  # exact entries
    assert judge(once).verdict == "fails"
    twice = searched(once, lambda x, n: (1.0, 2.0), CORNER, ctx, label="second")
    assert twice.search["evaluations"] == n + twice.search["parts"][1]["evaluations"]
    assert len(twice.search["parts"]) == 2 and twice.search["best_slack"] == once.search["best_slack"]
    assert (twice.rtol, twice.witness) == (ev.rtol, ev.witness)


def test_points_with_intervals_take_the_search_s_exact_evaluations():
    points = Points()
    points.add(1.0, 1.2, interval=(0.9, 1.1), x=0.5, n=1)
    points.search(corner, CORNER, "<=", Context("t/intervals"))
    assert points.lo[1:] == points.measured[1:] == points.hi[1:]
