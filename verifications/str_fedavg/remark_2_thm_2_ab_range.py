"""Remark 2's (a, b) choices and the (a, b) range of Theorem 2 Case i of StR-FedAvg.

Nothing here runs Algorithm 1 or 2: every claim is an identity or inequality between printed closed forms, checked
with sympy (an identity holds when the simplified difference is 0; otherwise the remainder is the witness), exact
rationals (``fractions.Fraction``), mpmath (30 digits) or float64 in log space where a sweep is large.

Schedules, theta and B^2: :mod:`.schedule_forms`. Printed objects: Algorithm 1, Theorems 1 and 2, Remark 2,
Proposition 6.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain

from .schedule_forms import R_, F, a_, b_

PAPER = "str-fedavg"


# --- Remark 2 and the (a, b) range of Theorem 2 ----------------------------------------------------------------------
@claim(
    f"{PAPER}/remark-2",
    source="Remark 2 (against Algorithm 1, Theorem 1 and Theorem 2)",
    statement="Table 1's choices a = 2/3, b = 1/3 (strongly convex) and a = 1/2, b = 1/4 (convex) satisfy the "
    "hypotheses and the well-posedness of the theorems they are plugged into: 0 < b < a <= 1 (both); b < 1 (eta^ of "
    "Theorem 1) and a + b = 1 (the exact substitution of the proof of Theorem 1, thm-1:proof-subst) for the strongly "
    "convex pair; a + b < 1 and a < 1 (root indices 1 - (a+b) and 1 - a of Theorem 2 (i-1), (i-2)) for the convex "
    "pair; 2a - b > 0 and a - b > 0 (root indices of Theorems 1-2 (i-1)) for both. Exact rational indicator per "
    "condition.",
    scope="printed",
    expect="holds",
)
def remark2(ctx: Context) -> Evidence:
    """Exact rational indicators (1 when it holds) of each hypothesis at Table 1's two (a, b) choices, against 1.
    Negative control: the same indicators at (a, b) = (3/4, 1/3) and (1, 1/4), which break a + b = 1 and a < 1."""
    choices = {"strongly convex": (F(2, 3), F(1, 3)), "convex": (F(1, 2), F(1, 4))}
    control = _remark2_indicators({"strongly convex": (F(3, 4), F(1, 3)), "convex": (F(1), F(1, 4))})
    return _remark2_indicators(choices).evidence(
        "==", bound=Fraction(1),
        witness={"negative control": negative_control(
            control.evidence("==", bound=Fraction(1)), "(a, b) = (3/4, 1/3) and (1, 1/4) in place of Remark 2's")},
    )  # fmt: skip


def _remark2_indicators(choices: dict) -> Points:
    """One exact indicator (1 when it holds) per condition of :func:`remark2` at the (a, b) pair of each setting."""
    points = Points()
    for setting, (a, b) in choices.items():
        conditions = [("0 < b", 0 < b), ("b < a", b < a), ("a <= 1", a <= 1), ("2a - b > 0", 2 * a - b > 0),
                      ("a - b > 0", a - b > 0)]  # fmt: skip
        if setting == "strongly convex":
            conditions += [("b < 1", b < 1), ("a + b = 1", a + b == 1)]
        else:
            conditions += [("a + b < 1", a + b < 1), ("a < 1", a < 1)]
        for text, ok in conditions:
            points.add(Fraction(int(ok)), condition=f"{setting} (a, b) = ({a}, {b}): {text}")
    return points


AB_DOMAIN = Domain(
    {"a": Axis(1e-3, 1.0, log=False), "b_over_a": Axis(1e-3, 1.0 - 1e-9, log=False)},
    note="Theorem 2 Case i: any 0 < b < a <= 1, searched as a in (0, 1] and b = a (b/a) with b/a in (0, 1); a and b/a "
    "below 1e-3 are left out (the exponents are affine in (a, b), so their extremes lie on the upper edges).",
)


@claim(
    f"{PAPER}/thm-2:i:ab-range",
    source="Theorem 2 Case i; Proposition 6 (i-1), (i-2)",
    statement="Over Theorem 2 Case i's range 'some 0 < b < a <= 1', the Q~ terms of the bounds the rates come from "
    "decay in R: 3 Q~^2/(eta gamma~ R) (f-gap, Proposition 6 (i-2)) and 3 Q~^2/(gamma~ R) (h-gap, (i-1)) at gamma~ = "
    "R^-a, eta = R^-b; their decay exponents (sympy: 1 - (a+b) and 1 - a, the printed root indices of (i-1), (i-2)) "
    "must be > 0. Exact on a = k/12, b = j/12, 1 <= j < k <= 12, and a witness search over the whole range; it fails "
    "wherever a + b >= 1 (e.g. Table 1's strongly convex (2/3, 1/3)) and, for the h-gap, at a = 1.",
    scope="printed",
    expect="fails",
)
def thm2_ab_range(ctx: Context) -> Evidence:
    """sympy reads the decay exponents of the two Q~ terms at gamma~ = R^-a, eta = R^-b; exact rationals on the grid
    a = k/12, b = j/12 (1 <= j < k <= 12), then the witness search over 0 < b < a <= 1 (the sympy exponents
    evaluated in float64), against 0."""
    terms = {"f-gap (i-1)": 3 / (R_**-b_ * R_**-a_ * R_), "h-gap (i-2)": 3 / (R_**-a_ * R_)}
    decay = {k: -sp.powsimp(v / 3, force=True).as_base_exp()[1] for k, v in terms.items()}
    points = Points()
    for k in range(1, 13):
        for j in range(1, k):
            a, b = sp.Rational(k, 12), sp.Rational(j, 12)
            for name, expr in decay.items():
                value = sp.Rational(expr.subs({a_: a, b_: b}))
                points.add(Fraction(int(value.p), int(value.q)), Fraction(0), term=name, a=str(a), b=str(b))
    for name, expr in decay.items():
        exponent = sp.lambdify((a_, b_), expr)

        def at(a, b_over_a, exponent=exponent, name=name):  # b = a (b/a) keeps 0 < b < a
            return float(exponent(a, a * b_over_a)), 0.0, {"b": a * b_over_a, "term": name}

        points.search(at, AB_DOMAIN, ">", ctx, label=name)
    return points.evidence(
        ">",
        witness={"sympy decay exponents": {k: str(v) for k, v in decay.items()},
                 "hypotheses": "Theorem 2 Case i allows any 0 < b < a <= 1 (and the convex setting mu_f = 0); every "
                 "grid and search point meets it, and the exponents depend on (a, b) alone",
                 "reading": "for a + b >= 1 (e.g. Table 1's strongly convex (2/3, 1/3)) the f-gap bound does not go "
                 "to 0 and (Q~^2/eps)^(1/(1-(a+b))) is undefined; a = 1 does the same to the h-gap"},
    )  # fmt: skip
