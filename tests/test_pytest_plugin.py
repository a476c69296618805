"""fedtheory's pytest plugin, run inside pytest by pytester: a claim or evidence whose verdict is not the expected
one fails the test with the verdict, margin, worst entry and witness; the context fixture is seeded."""

import pytest

from fedtheory.errors import InvalidParameterError, UnknownClaimError
from fedtheory.harness.claims import REGISTRY, Evidence
from fedtheory.harness.pytest_plugin import WITNESS_CHARS, assert_claim, failure_message
from fedtheory.harness.report import Result

pytest_plugins = ["pytester"]

CLAIMS = """
from fedtheory.harness.claims import Evidence, claim


@claim("plugin-test/too-fast", source="Theorem 9", statement="x_t <= 2^-t", scope="printed", expect="fails")
def too_fast(ctx):
    return Evidence([0.5, 0.3], [0.5, 0.25], "<=", grid={"t": [1, 2]}, witness={"instance": "x_t = 0.3 at t = 2"})
"""


@pytest.fixture
def plugin(pytester, tmp_path, monkeypatch):
    """pytester with the plugin installed under its entry-point name (as ``pip install fedtheory`` does) and
    ``-p fedtheory`` (so a ``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` in the environment does not matter)."""
    info = tmp_path / "site" / "fedtheory_pytest_entry_point-0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fedtheory_pytest_entry_point\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nfedtheory = fedtheory.harness.pytest_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    yield lambda *args: pytester.runpytest(
        "-p", "fedtheory", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestAssertRewriteWarning", *args
    )
    REGISTRY.pop("plugin-test/too-fast", None)


def test_failing_evidence_fails_the_test_with_verdict_margin_and_witness(pytester, plugin):
    pytester.makepyfile(
        """
        from fedtheory.harness.claims import Evidence

        def test_rate(fedtheory_check):
            fedtheory_check(Evidence([1.0, 3.0], 2.0, "<=", grid={"k": [1, 2]}, witness={"instance": "made up"}))
        """
    )
    out = plugin()
    out.assert_outcomes(failed=1)
    out.stdout.fnmatch_lines(
        [
            "*test_rate*: verdict fails, expected holds",
            "*worst entry 1 of 2: measured 3 <= bound 2, margin 1.5",
            "*entries failed: 1, inconclusive: 0",
            "*parameters: k=2",
            '*witness: {"instance": "made up"}',
        ]
    )
    out.stdout.no_fnmatch_line("*pytest_plugin.py*")  # the message, not the plugin's traceback


def test_a_registered_claim_by_id(pytester, plugin):
    pytester.makepyfile(plugin_test_claims=CLAIMS)
    pytester.makepyfile(
        """
        import plugin_test_claims

        def test_holds(fedtheory_check):
            fedtheory_check("plugin-test/too-fast")

        def test_stays_a_counterexample(fedtheory_check):
            result = fedtheory_check("plugin-test/too-fast", expect="fails")
            assert result.worst["parameters"] == {"t": 2}
        """
    )
    out = plugin()
    out.assert_outcomes(failed=1, passed=1)
    out.stdout.fnmatch_lines(
        [
            "plugin-test/too-fast: verdict fails, expected holds",
            "*statement: x_t <= 2^-t",
            "*margin 1.2",
            "*parameters: t=2",
            '*witness: {"instance": "x_t = 0.3 at t = 2"}',
        ]
    )


def test_holding_evidence_passes_and_an_error_is_named(pytester, plugin):
    pytester.makepyfile(
        """
        from fedtheory.harness.claims import Evidence
        from fedtheory.harness.pytest_plugin import assert_claim

        def test_holds(fedtheory_check):
            result = fedtheory_check(Evidence([1.0, 1.5], 2.0, "<="))
            assert result.verdict == "holds" and result.margin == 0.75

        def test_helper_without_fixture():
            assert_claim(Evidence(3.0, 2.0, ">="))

        def test_nan(fedtheory_check):
            fedtheory_check(Evidence(float("nan"), 2.0, "<="))
        """
    )
    out = plugin()
    out.assert_outcomes(passed=2, failed=1)
    out.stdout.fnmatch_lines(["*test_nan: verdict error, expected holds", "*error: invalid evidence: measured is*"])


def test_the_context_is_seeded_from_the_node_id_and_the_profile_is_an_option(pytester, plugin):
    pytester.makepyfile(
        """
        from fedtheory.harness.claims import seed_for

        def test_seed(fedtheory_context, request):
            assert fedtheory_context.seed == seed_for(request.node.nodeid)
            print("DRAW", fedtheory_context.profile, fedtheory_context.rng().integers(10**9))
        """
    )
    first, again, full = plugin("-s"), plugin("-s"), plugin("-s", "--fedtheory-profile", "full")
    (quick, draw), (again_quick, again_draw), (full_profile, full_draw) = (
        next(line.split("DRAW ")[1].split() for line in out.outlines if "DRAW " in line) for out in (first, again, full)
    )
    assert (quick, again_quick, full_profile) == ("quick", "quick", "full")
    assert draw == again_draw == full_draw  # the seed is the node id's, whatever the profile


def test_bad_arguments_are_named():
    with pytest.raises(InvalidParameterError, match="expect"):
        assert_claim(Evidence(1.0, 2.0, "<="), expect="maybe")
    with pytest.raises(InvalidParameterError, match="profile"):
        assert_claim(Evidence(1.0, 2.0, "<="), profile="slow")
    with pytest.raises(InvalidParameterError, match="target"):
        assert_claim(3.0)
    with pytest.raises(UnknownClaimError, match="no-such-paper/thm"):
        assert_claim("no-such-paper/thm")


def test_a_long_witness_is_cut_in_the_message():
    result = Result(
        "p/c", "", "", "fails", "holds", measured=[2.0], bound=[1.0], relation="<=", margin=2.0,
        worst={"index": 0, "entries": 1, "measured": 2.0, "bound": 1.0, "failed": 1, "inconclusive": 0,
               "parameters": {}},
        witness={"instance": "x" * (2 * WITNESS_CHARS)},
    )  # fmt: skip
    line = failure_message(result, "holds").splitlines()[-1]
    assert line.endswith(" ...") and len(line) < WITNESS_CHARS + 20
