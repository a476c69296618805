"""theta^R against the R^(p/2) factor of the printed bounds of StR-FedAvg / IPIR-FedAvg: Theorem 1 Cases i and iii,
Proposition 7 Cases i and ii.

Nothing here runs Algorithm 1 or 2: every claim is an identity or inequality between printed closed forms, checked
with sympy (an identity holds when the simplified difference is 0; otherwise the remainder is the witness), exact
rationals (``fractions.Fraction``), mpmath (30 digits) or float64 in log space where a sweep is large.

Schedules, theta and B^2: :mod:`.schedule_forms`. Printed objects: Theorem 1, Propositions 1 and 7, the proof of
Theorem 1, Appendix F (proof of Proposition 7).
"""

from __future__ import annotations

import math

import mpmath

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING

from .schedule_forms import AB, x_case_i

PAPER = "str-fedavg"


# --- horizons and 30-digit theta^R ---------------------------------------------------------------------------------
def _theta_R_minus_1(x, R):
    """theta^R - 1 = (1 - x)^(-R) - 1 for x = 0.5 eta mu_f gamma~ in (0, 1), in 30-digit arithmetic."""
    with mpmath.workdps(30):
        return mpmath.expm1(-mpmath.mpf(R) * mpmath.log1p(-mpmath.mpf(x)))


# --- theta^R against the R^(p/2) factor of the printed bounds --------------------------------------------------------
def _theta_evidence(rows, printed_note: str) -> Evidence:
    """rows: (x = 0.5 eta mu_f gamma~, R, printed denominator, grid dict). x >= 1 (theta undefined) is skipped."""
    points, skipped = Points(), 0
    for x, R, printed, point in rows:
        if not 0 < x < 1:
            skipped += 1
            continue
        points.add(float(_theta_R_minus_1(x, R)), float(printed), **point)
    return points.evidence(
        ">=", rtol=ROUNDING,
        witness={"derived factor": "1/(eta gamma~ sum_r theta^r) = mu_f/(2(theta^R - 1)) (thm-1:proof-sum)",
                 "printed factor": printed_note, "grid points with 0.5 eta mu_f gamma~ >= 1 (skipped)": skipped},
    )  # fmt: skip


_R_GRID = (10**2, 10**3, 10**4, 10**5)
_ETA_GRID = (0.05, 0.2, 0.5, 1.0)


@claim(
    f"{PAPER}/thm-1:i:theta-R",
    source="Proof of Theorem 1 (i-1); Theorem 1 Case i",
    statement="Theorem 1 Case i (gamma~ = 1/(mu_f R)^a, eta = p ln R/(mu_f^b R^b), 'some 0 < b < a <= 1'): theta^R - "
    "1 >= R^(p/2) - 1, the factor the printed bounds use (equivalently, mu_f Q^2/(2(theta^R - 1)) <= mu_f "
    "Q^2/(2(R^(p/2) - 1))); 30-digit evaluation on the six (a, b) pairs of thm-1:proof-subst, p in {1, 2}, mu_f in "
    "{1/10, 1, 10}, R in {1e2, 1e3, 1e4, 1e5}.",
    scope="printed",
    expect="fails",
)
def theta_thm1_i(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 under the Case i schedule against the printed R^(p/2) - 1, on the six (a, b)
    pairs x p x mu_f x R grid."""
    rows = []
    for a, b in AB:
        for p in (1, 2):
            for mu in (0.1, 1.0, 10.0):
                for R in _R_GRID:
                    x = float(x_case_i(a, b, mu, p, R))
                    rows.append((x, R, R ** (p / 2) - 1, {"a": float(a), "b": float(b), "p": p, "mu_f": mu, "R": R}))
    return _theta_evidence(rows, "R^(p/2) - 1 (line 389, 393)")


@claim(
    f"{PAPER}/thm-1:iii:theta-R",
    source="Theorem 1 Case iii (rounds with root p/2 on Q^2; proof of Theorem 1: 'Using Proposition 3')",
    statement="Theorem 1 Case iii (gamma~ = p ln R/(mu_f R), any constant eta <= alpha/(2||grad f(x*)||)): theta^R - "
    "1 >= R^(p/2) - 1, the factor behind the printed (mu_f Q^2/eps)^(2/p) terms; 0.5 eta mu_f gamma~ = eta p ln "
    "R/(2R), so theta^R ~ R^(eta p/2); 30 digits on eta in {0.05, 0.2, 0.5, 1}, p in {1, 2}, R in {1e2, 1e3, 1e4, "
    "1e5}.",
    scope="printed",
    expect="fails",
)
def theta_thm1_iii(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 under the Case iii schedule against R^(p/2) - 1, on the eta x p x R grid."""
    rows = [
        (eta * p * math.log(R) / (2 * R), R, R ** (p / 2) - 1, {"eta": eta, "p": p, "R": R})
        for eta in _ETA_GRID
        for p in (1, 2)
        for R in _R_GRID
    ]
    return _theta_evidence(rows, "R^(p/2) - 1 (roots p/2 in (iii-1)-(iii-4))")


@claim(
    f"{PAPER}/prop-7:i:theta-R",
    source="Proposition 7 Case i; Appendix F",
    statement="Proposition 7 Case i (mu_f = 1, gamma~_t = R_t^-a, eta_t = p ln R_t/R_t^b, '0 < b < a <= 1'): the "
    "first term 2 D_0/(eta gamma~ sum_r theta^r) = D_0/(theta^R - 1) is bounded by the printed D_0/(R_t^(p/2) - 1) "
    "iff theta^R - 1 >= R_t^(p/2) - 1; 30 digits on the six (a, b) pairs of thm-1:proof-subst (Theorem 3's (7/12, "
    "5/12) among them), p in {1, 2}, R_t in {1e2, 1e3, 1e4, 1e5}.",
    scope="printed",
    expect="fails",
)
def theta_prop7_i(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 (mu_f = 1, Case i schedule) against the printed R_t^(p/2) - 1, on the six (a, b)
    pairs x p x R_t grid."""
    rows = []
    for a, b in AB:
        for p in (1, 2):
            for R in _R_GRID:
                x = float(x_case_i(a, b, 1.0, p, R))
                rows.append((x, R, R ** (p / 2) - 1, {"a": float(a), "b": float(b), "p": p, "R_t": R}))
    return _theta_evidence(rows, "R_t^(p/2) - 1 (line 544)")


@claim(
    f"{PAPER}/prop-7:ii:theta-R",
    source="Proposition 7 Case ii; Appendix F",
    statement="Proposition 7 Case ii (mu_f = 1, gamma~_t = p ln R_t/R_t, constant eta): the first term 2 D_0/(eta "
    "gamma~ sum_r theta^r) = D_0/(theta^R - 1) is bounded by the printed D_0/(eta (R_t^(p/2) - 1)) iff theta^R - 1 >= "
    "eta (R_t^(p/2) - 1); 30 digits on eta in {0.05, 0.2, 0.5, 1}, p in {1, 2} (Theorem 3 Case ii: p = 2), R_t in "
    "{1e2, 1e3, 1e4, 1e5}.",
    scope="printed",
    expect="fails",
)
def theta_prop7_ii(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 (mu_f = 1, Case ii schedule) against the printed eta (R_t^(p/2) - 1), on the
    eta x p x R_t grid."""
    rows = [
        (eta * p * math.log(R) / (2 * R), R, eta * (R ** (p / 2) - 1), {"eta": eta, "p": p, "R_t": R})
        for eta in _ETA_GRID
        for p in (1, 2)
        for R in _R_GRID
    ]
    return _theta_evidence(rows, "eta (R_t^(p/2) - 1) (line 551)")
