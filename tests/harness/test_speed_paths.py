"""The harness's speed paths change no result: one BLAS thread per worker, and float evidence judged without objects."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threadpoolctl import threadpool_info

from fedtheory.harness import claims as claims_module
from fedtheory.harness.claims import REGISTRY, Evidence, claim, judge
from fedtheory.harness.runner import run


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_every_run_uses_one_blas_thread_and_the_parent_gets_its_default_back(monkeypatch):
    """Workers and the serial run alike use one BLAS thread, so a claim's numbers never depend on ``jobs``."""
    monkeypatch.setattr(claims_module, "_loaded", True)  # the workers need only the claims registered here
    ids = ["test-paper/blas-a", "test-paper/blas-b"]
    for i in ids:

        @claim(i, source="", statement="", scope="printed", expect="holds")
        def blas(ctx):
            return Evidence(1.0, 2.0, "<=", witness={"blas threads": _blas_threads()})

    try:
        default = _blas_threads()
        assert default, "numpy links a BLAS that threadpoolctl sees"
        parallel = run([REGISTRY[i] for i in ids], jobs=2)
        assert [r.witness["blas threads"] for r in parallel] == [[1] * len(default)] * 2
        assert run([REGISTRY[ids[0]]], jobs=1)[0].witness["blas threads"] == [1] * len(default)
        assert _blas_threads() == default  # the limit ends with the run
    finally:
        for i in ids:
            REGISTRY.pop(i, None)


finite = st.floats(-1e6, 1e6, allow_nan=False, width=64)


@given(
    entries=st.lists(st.tuples(finite, finite, finite), min_size=1, max_size=12),
    relation=st.sampled_from(["<=", "<", ">=", ">", "=="]),
    rtol=st.sampled_from([0.0, 1e-9, 0.25]),
    atol=st.sampled_from([0.0, 1e-12, 0.5]),
    interval=st.booleans(),
)
def test_float_evidence_is_judged_as_its_exact_values_are(entries, relation, rtol, atol, interval):
    # The same numbers as float arrays (the fast path: views, no objects) and as exact Fractions of the same floats
    # (object arrays, compared exactly): the same verdict, margin, worst entry and counts. For '==' with a tolerance
    # the exact difference and the rounded one may fall on either side of a tie, so that case is left out.
    if relation == "==" and (rtol or atol) and not interval:
        rtol = atol = 0.0
    measured, bound, spread = (np.array(column) for column in zip(*entries))
    lo_hi = (measured - np.abs(spread), measured + np.abs(spread)) if interval else None
    grid = {"k": np.arange(len(entries))}
    fast = judge(Evidence(measured, bound, relation, rtol, atol, interval=lo_hi, grid=grid))
    exact = judge(
        Evidence(
            np.array([Fraction(v) for v in measured], dtype=object),
            np.array([Fraction(v) for v in bound], dtype=object),
            relation,
            rtol,
            atol,
            interval=lo_hi,
            grid=grid,
        )
    )
    assert fast == exact


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_float_evidence_is_not_copied_or_changed(shape):
    # The fast path works on views of the evidence and updates only its own temporaries in place.
    measured = np.linspace(0.5, 2.0, int(np.prod(shape))).reshape(shape)
    bound = np.full(shape, 1.5)
    before = measured.copy(), bound.copy()
    out = judge(Evidence(measured, bound, "<=", rtol=0.1, atol=0.01, grid={"k": np.arange(measured.size)}))
    np.testing.assert_array_equal(measured, before[0])
    np.testing.assert_array_equal(bound, before[1])
    assert out.verdict == "fails" and out.worst == measured.size - 1 and out.margin == pytest.approx(2.0 / 1.5)
