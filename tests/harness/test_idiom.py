"""The claim idiom of the harness: families, the evidence builder, the figure hook and the paper records."""

import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError
from fedtheory.harness.claims import PAPERS, Context, Evidence, judge, paper, seed_for, select
from fedtheory.harness.family import FAMILIES, family
from fedtheory.harness.points import Points


@pytest.fixture
def scratch_family():
    names = []

    def define(name):
        names.append(name)
        return family(name)

    yield define
    for name in names:
        FAMILIES.pop(name, None)


def test_a_family_computes_once_per_profile_and_argument_with_its_own_seed(scratch_family):
    calls = []

    @scratch_family("test-paper/runs")
    def runs(fam, kappa):
        calls.append((fam.profile, kappa))
        return fam.rng().normal(), fam.quick, fam.key

    quick = Context("test-paper/thm-1:a", "quick")
    first = runs(quick, 10.0)
    assert runs(Context("test-paper/thm-1:b", "quick"), 10.0) is first  # another claim reads the same result
    assert first[1:] == (True, "test-paper/runs:10.0")
    assert first[0] == np.random.default_rng(seed_for("test-paper/runs:10.0")).normal()
    assert runs("full", 10.0)[1] is False
    runs(quick, 100.0)
    assert calls == [("quick", 10.0), ("full", 10.0), ("quick", 100.0)]


def test_a_family_name_is_unique_and_a_profile_is_checked(scratch_family):
    @scratch_family("test-paper/unique")
    def one(fam):
        return 1

    with pytest.raises(InvalidParameterError, match="already used"):

        @scratch_family("test-paper/unique")
        def other(fam):
            return 2

    with pytest.raises(InvalidParameterError, match="ctx"):
        one("paper-scale")


def test_points_build_the_evidence_the_loop_would_have_built():
    points = Points()
    for kappa in (1.0, 10.0):
        for K in (1, 4):
            points.add(kappa * K, 20.0, interval=(kappa * K - 1, kappa * K + 1), kappa=kappa, K=K)
    ev = points.evidence("<=", rtol=1e-9, witness={"instance": "toy"})
    assert ev == Evidence(
        [1.0, 4.0, 10.0, 40.0],
        [20.0] * 4,
        "<=",
        rtol=1e-9,
        interval=([0.0, 3.0, 9.0, 39.0], [2.0, 5.0, 11.0, 41.0]),
        grid={"kappa": [1.0, 1.0, 10.0, 10.0], "K": [1, 4, 1, 4]},
        witness={"instance": "toy"},
    )
    outcome = judge(ev)
    assert outcome.verdict == "fails"  # the builder's evidence can fail: 40 > 20 at kappa = 10, K = 4


def test_points_refuse_inconsistent_points():
    points = Points()
    points.add(1.0, 2.0, a=1)
    with pytest.raises(InvalidParameterError, match="parameters"):
        points.add(1.0, 2.0, b=1)
    with pytest.raises(InvalidParameterError, match="bound"):
        points.add(1.0, a=2)
    with pytest.raises(InvalidParameterError, match="bound"):
        points.evidence("<=", bound=3.0)
    common = Points()
    common.add(1.0, a=1)
    assert common.evidence("<", bound=2.0).bound == 2.0
    with pytest.raises(InvalidParameterError, match="at least one"):
        Points().evidence("<=", bound=1.0)


def test_the_figure_hook_draws_only_when_figures_are_wanted(tmp_path):
    drawn = []
    Context("test-paper/fig-1", figure="fig-1").draw(drawn.append)
    assert drawn == []
    Context("test-paper/fig-1", figures_dir=tmp_path, figure="fig-1").draw(lambda path, k: drawn.append((path, k)), 3)
    assert drawn == [(tmp_path / "test-paper" / "fig-1.png", 3)]
    with pytest.raises(InvalidParameterError, match="figure"):
        Context("test-paper/thm-1", figures_dir=tmp_path).draw(drawn.append)


def test_every_paper_has_one_record():
    keys = {c.paper for c in select()}
    assert keys <= set(PAPERS), f"papers without a record: {keys - set(PAPERS)}"
    record = PAPERS["str-fedavg"]
    assert paper("str-fedavg", title=record.title, authors=record.authors, venue=record.venue) == record
    with pytest.raises(InvalidParameterError, match="one record"):
        paper("str-fedavg", title="Another title", authors=record.authors, venue=record.venue)
    with pytest.raises(InvalidParameterError, match="venue"):
        paper("test-paper", title="T", authors="A", venue="")
