"""Loading only the claim packages a selection names: the same claims, fewer imports, the same skipped plugins.

Discovery state lives in the process (``load_claims`` loads once), so every check runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

PACKAGE = {
    "lazypkg/__init__.py": "from fedtheory.harness.claims import load_claim_modules\n\n"
    "load_claim_modules(__name__, __path__)\n",
    "lazypkg/good/__init__.py": "from fedtheory.harness.claims import load_claim_modules, paper\n\n"
    "paper('lazy-good', title='Good', authors='A', venue='B')\nload_claim_modules(__name__, __path__)\n",
    "lazypkg/good/thm.py": "from fedtheory.harness.claims import Evidence, claim\n\n\n"
    "@claim('lazy-good/thm-1', source='Theorem 1', statement='1 <= 2', scope='printed', expect='holds')\n"
    "def thm_1(ctx):\n    return Evidence(1.0, 2.0, '<=')\n",
    "lazypkg/bad/__init__.py": "from fedtheory.harness.claims import load_claim_modules, paper\n\n"
    "paper('lazy-bad', title='Bad', authors='A', venue='B')\nload_claim_modules(__name__, __path__)\n",
    "lazypkg/bad/broken.py": "raise RuntimeError('broken on purpose')\n",
    "lazypkg/bad/fine.py": "from fedtheory.harness.claims import Evidence, claim\n\n\n"
    "@claim('lazy-bad/ok', source='Lemma 1', statement='1 <= 2', scope='printed', expect='holds')\n"
    "def ok(ctx):\n    return Evidence(1.0, 2.0, '<=')\n",
    "lazypkg/orphan.py": "from fedtheory.harness.claims import Evidence, claim\n\n\n"
    "@claim('lazy-orphan/thm', source='Theorem 2', statement='1 <= 2', scope='printed', expect='holds')\n"
    "def thm(ctx):\n    return Evidence(1.0, 2.0, '<=')\n",
}

STATE = """
import json, sys
from fedtheory.harness import claims

def state():
    modules = sorted(m for m in sys.modules if m.startswith(("lazypkg", "verifications")))
    return {"modules": modules, "errors": list(claims.LOAD_ERRORS), "ids": sorted(claims.REGISTRY)}
"""


@pytest.fixture
def fresh(tmp_path):
    """Run a script in a fresh interpreter that sees ``lazypkg`` (through ``FEDTHEORY_CLAIMS``) and return what it
    prints as JSON; ``own=True`` hides the installed entry points (only ``lazypkg`` is found)."""
    for name, text in PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    env = {**os.environ, "FEDTHEORY_CLAIMS": "lazypkg"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH", "")]))

    def run(script: str, own: bool = True) -> dict:
        hide = "claims.entry_points = lambda group: []\n" if own else ""
        code = STATE + hide + textwrap.dedent(script)
        done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    return run


def test_a_selection_imports_only_its_papers_and_a_full_load_completes_it(fresh):
    out = fresh("""
        lazy = [c.id for c in claims.select(["lazy-good"])]
        first = state()
        claims.load_claims()
        again = [c.id for c in claims.select(["lazy-good"])]
        print(json.dumps({"lazy": lazy, "first": first, "full": state(), "again": again}))
    """)
    assert out["lazy"] == out["again"] == ["lazy-good/thm-1"]
    assert "lazypkg.good.thm" in out["first"]["modules"]
    assert not {"lazypkg.bad.fine", "lazypkg.orphan"} & set(out["first"]["modules"]), "another paper's modules"
    assert out["first"]["errors"] == []  # the broken module was never imported
    assert {"lazypkg.bad.fine", "lazypkg.orphan"} <= set(out["full"]["modules"])
    assert {"lazy-bad/ok", "lazy-orphan/thm", "lazy-good/thm-1"} <= set(out["full"]["ids"])
    assert len(out["full"]["errors"]) == 1 and "lazypkg.bad.broken" in out["full"]["errors"][0]


def test_a_broken_module_is_skipped_once_with_one_line(fresh):
    out = fresh("""
        lazy = [c.id for c in claims.select(["lazy-bad/ok"], exact=True)]
        claims.load_claims()
        print(json.dumps({"lazy": lazy, **state()}))
    """)
    assert out["lazy"] == ["lazy-bad/ok"]
    assert out["errors"] == ["claim plugin 'lazypkg.bad.broken' skipped: RuntimeError: broken on purpose"]


def test_a_claim_outside_its_papers_package_and_an_unknown_id_load_everything(fresh):
    out = fresh("""
        from fedtheory.errors import UnknownClaimError
        found = [c.id for c in claims.select(["lazy-orphan/thm"])]
        try:
            claims.select(["lazy-good/thm-2"])
        except UnknownClaimError as exc:
            message = str(exc)
        print(json.dumps({"found": found, "message": message, **state()}))
    """)
    assert out["found"] == ["lazy-orphan/thm"]
    assert "did you mean lazy-good/thm-1" in out["message"]
    assert "lazypkg.bad.fine" in out["modules"]


def test_a_worker_given_a_claim_id_imports_only_its_paper(fresh):
    out = fresh("""
        from fedtheory.harness.runner import run_by_id
        result = run_by_id("lazy-good/thm-1", "quick", None)
        print(json.dumps({"verdict": result.verdict, **state()}))
    """)
    assert out["verdict"] == "holds"
    assert not any(m.startswith(("lazypkg.bad.", "lazypkg.orphan")) for m in out["modules"])


def test_the_papers_of_this_project_load_one_at_a_time(fresh):
    out = fresh(
        """
        lazy = [c.id for c in claims.select(["zhang-composite"])]
        first = state()
        everything = [c.id for c in claims.select()]
        print(json.dumps({"lazy": lazy, "first": first, "papers": sorted(claims.PAPERS), "everything": everything}))
    """,
        own=False,
    )
    others = [m for m in out["first"]["modules"] if m.count(".") >= 2 and not m.startswith("verifications.zhang_")]
    assert others == [], "claim modules of other papers were imported"
    assert any(m.startswith("verifications.zhang_composite.") for m in out["first"]["modules"])
    assert out["lazy"] == [i for i in out["everything"] if i.startswith("zhang-composite/")]
    assert {"fedbc", "oledfl", "str-fedavg", "yuan-thesis", "zhang-composite"} <= set(out["papers"])
