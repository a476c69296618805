"""Every registered claim, in the quick profile, still reaches its recorded verdict."""

import pytest

from fedtheory.claims import select
from fedtheory.report import run_claim

CLAIMS = select()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_recorded_verdict(claim):
    result = run_claim(claim, "quick")
    assert result.error is None, result.error
    assert result.verdict == claim.expect, (result.verdict, result.margin, result.worst)


def test_claims_are_deterministic():
    claim = next(c for c in CLAIMS if c.id.endswith("kinked-mean-mc-vs-rational"))
    assert run_claim(claim).measured == run_claim(claim).measured
