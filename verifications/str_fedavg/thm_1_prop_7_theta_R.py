"""theta^R against the R^(p/2) factor of the printed bounds of StR-FedAvg / IPIR-FedAvg: Theorem 1 Cases i and iii,
Proposition 7 Cases i and ii.

Nothing here runs Algorithm 1 or 2: every claim compares theta^R - 1 (30-digit mpmath) with the printed factor, on a
grid restricted to the horizons the printed hypotheses admit and by a witness search over the schedule's parameters
and the horizon (from the smallest admissible one to 1e15).

Schedules, theta and B^2: :mod:`.schedule_forms`. Printed objects: Theorem 1, Propositions 1 and 7, the proof of
Theorem 1, Appendix F (proof of Proposition 7).
"""

from __future__ import annotations

import math

import mpmath

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING

from . import printed
from .schedule_forms import AB, x_case_i
from .thm_1_2_runs import project_to_cap

PAPER = "str-fedavg"
R_CAP = 1e15  # float64 closed forms of the hypotheses and the bound
THETA_CAP = 1e300  # theta^R - 1 is recorded as min{theta^R - 1, 1e300}: every printed bound here is below 1e60


# --- horizons and 30-digit theta^R ---------------------------------------------------------------------------------
def _theta_R_minus_1(x, R) -> float:
    """theta^R - 1 = (1 - x)^(-R) - 1 for x = 0.5 eta mu_f gamma~ in (0, 1), in 30-digit arithmetic, capped at
    :data:`THETA_CAP` (a cap from above can only lower a value that is compared with ``>=``)."""
    with mpmath.workdps(30):
        log_value = -mpmath.mpf(R) * mpmath.log1p(-mpmath.mpf(x))
        if log_value > math.log(THETA_CAP):
            return THETA_CAP
        return float(mpmath.expm1(log_value))


def _log_R_min_thm1(a, b, p, mu) -> float:
    """``ln`` of the smallest R Theorem 1 Case i admits for some instance with these (a, b, p, mu_f): its horizon and
    gamma_l condition (B^2 at eta^) are smallest as L_h -> 0 with L_f = mu_f (theta^R does not depend on L_h, L_f)."""
    eta_hat = printed.eta_hat_sc(p, b, mu)
    B2 = 4 * eta_hat * mu
    horizon = float(printed.log_thm1_horizon(1e-150, mu, mu, p, a, b, B2))
    step = math.log(16 * (eta_hat * mu) ** 2 * (1 + B2)) / a - math.log(mu)
    return max(horizon, step, math.log(2.0))


#: Proposition 7's R_t >= 16 (L_h + eta^)^2 (1 + B_ncvx^2) with eta^ = 11 inside B_ncvx^2 (the strictest reading),
#: at L_h -> 0.
PROP7_R_MIN = 16 * 11.0**2 * (1 + 4 * 11.0)


def _R_min_prop7_i(a, b, p) -> float:
    """The smallest R_t Proposition 7 Case i admits (strictest reading): PROP7_R_MIN and the gamma_l condition
    R_t^-a <= 1/(16 eta^2 (1 + 4 eta^)) at eta^ = 11 (L_h -> 0)."""
    return max(PROP7_R_MIN, (16 * 11.0**2 * (1 + 44.0)) ** (1 / a))


def _R_min_prop7_ii(p) -> float:
    """The smallest R_t Proposition 7 Case ii admits (strictest reading): PROP7_R_MIN and p ln R/R <= 1/(16 eta^2 (1 +
    4 eta^)) at eta^ = 11 (bisection in ln R)."""
    c = 16 * 11.0**2 * (1 + 44.0)
    lo, hi = math.log(PROP7_R_MIN), 60.0
    if p * lo * c <= math.exp(lo):
        return PROP7_R_MIN
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if p * mid * c > math.exp(mid) else (lo, mid)
    return math.exp(hi)


# --- theta^R against the R^(p/2) factor of the printed bounds --------------------------------------------------------
def _theta_evidence(ctx: Context, rows, printed_note: str, search, hypotheses: str) -> Evidence:
    """rows: (x = 0.5 eta mu_f gamma~, R, printed denominator, admissible, grid dict); grid points outside the
    hypotheses (``admissible`` false) or with x >= 1 (theta undefined) are skipped. ``search``: (evaluate, domain)."""
    points, skipped = Points(), {"x >= 1": 0, "R below the smallest admissible R": 0}
    for x, R, printed_value, admissible, point in rows:
        if not 0 < x < 1:
            skipped["x >= 1"] += 1
        elif not admissible:
            skipped["R below the smallest admissible R"] += 1
        else:
            points.add(_theta_R_minus_1(x, R), float(printed_value), **point)
    points.search(*search, ">=", ctx, scale=2)  # an evaluation is one 30-digit power
    return points.evidence(
        ">=", rtol=ROUNDING,
        witness={"derived factor": "1/(eta gamma~ sum_r theta^r) = mu_f/(2(theta^R - 1)) (thm-1:proof-sum)",
                 "printed factor": printed_note, "grid points skipped": skipped, "hypotheses": hypotheses},
    )  # fmt: skip


_R_GRID = (10**2, 10**3, 10**4, 10**5)
_ETA_GRID = (0.05, 0.2, 0.5, 1.0)

_AB_AXES = {"a": Axis(0.05, 1.0, log=False), "b_frac": Axis(0.02, 0.98, log=False), "p": Axis(1.0, 8.0)}


def _defined(x_of_R, R: float) -> tuple[float, float]:
    """``R`` doubled until ``x = x_of_R(R) < 1`` (theta = 1/(1 - x) defined; a larger R stays admissible), and x."""
    while (x := float(x_of_R(R))) >= 1:
        R *= 2
    return R, x


def _thm1_i_at(**prm):
    prm, log_R_min = project_to_cap(
        prm, {"a": 1.0, "b_frac": 0.5, "mu_f": 1.0, "p": 1.0}, {"mu_f", "p"},
        lambda q: _log_R_min_thm1(q["a"], q["b_frac"] * q["a"], q["p"], q["mu_f"]),
    )  # fmt: skip
    a, p, mu = prm["a"], prm["p"], prm["mu_f"]
    b = prm["b_frac"] * a
    R, x = _defined(lambda R: x_case_i(a, b, mu, p, R), float(math.ceil(min(math.exp(log_R_min) * prm["R_factor"],
                                                                            R_CAP))))  # fmt: skip
    return _theta_R_minus_1(x, R), math.expm1(p / 2 * math.log(R)), {**prm, "b": b, "R": R, "a + b": a + b}


@claim(
    f"{PAPER}/thm-1:i:theta-R",
    source="Proof of Theorem 1 (i-1); Theorem 1 Case i",
    statement="Theorem 1 Case i (gamma~ = 1/(mu_f R)^a, eta = p ln R/(mu_f^b R^b), 'some 0 < b < a <= 1'): theta^R - "
    "1 >= R^(p/2) - 1, the factor the printed bounds use (equivalently, mu_f Q^2/(2(theta^R - 1)) <= mu_f "
    "Q^2/(2(R^(p/2) - 1))); 30-digit evaluation on the six (a, b) pairs of thm-1:proof-subst, p in {1, 2}, mu_f in "
    "{1/10, 1, 10}, R in {1e2, 1e3, 1e4, 1e5} where R meets the smallest horizon the hypotheses admit, and a witness "
    "search over 0 < b < a <= 1, p in [1, 8], mu_f, and R from that horizon up to 1e15. It fails wherever a + b > 1 "
    "(0.5 eta mu_f gamma~ R = (p/2) ln R (mu_f R)^(1-a-b) -> 0).",
    scope="printed",
    expect="fails",
)
def theta_thm1_i(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 under the Case i schedule against the printed R^(p/2) - 1, on the six (a, b)
    pairs x p x mu_f x R grid and by the witness search."""
    rows = []
    for a, b in AB:
        for p in (1, 2):
            for mu in (0.1, 1.0, 10.0):
                for R in _R_GRID:
                    x = float(x_case_i(a, b, mu, p, R))
                    admissible = math.log(R) >= _log_R_min_thm1(float(a), float(b), p, mu)
                    point = {"a": float(a), "b": float(b), "p": p, "mu_f": mu, "R": R}
                    rows.append((x, R, R ** (p / 2) - 1, admissible, point))
    domain = Domain(
        {**_AB_AXES, "mu_f": Axis(1e-2, 100.0), "R_factor": Axis(1.0, 1e10)},
        note="Theorem 1 Case i allows 0 < b < a <= 1 (b = b_frac a), p >= 1, mu_f > 0 and R from its horizon (and "
        "gamma_l condition) on; theta^R depends on (a, b, p, mu_f, R) only, so R starts at the smallest horizon any "
        "instance with these parameters admits (L_h -> 0, L_f = mu_f) and goes up to 1e15 (float64 closed forms of "
        "the hypotheses). Points whose smallest admissible R exceeds 1e15 are moved along the segment to (a, b_frac, "
        "mu_f, p) = (1, 1/2, 1, 1) until it is 1e15 (the entry records the parameters evaluated); where x = 0.5 eta "
        "mu_f gamma~ >= 1 (theta undefined) R is doubled until x < 1; p above 8 left out (the printed factor R^(p/2) "
        "only grows with p).",
    )
    hypotheses = (
        "0 < b < a <= 1, p >= 1, mu_f > 0, and R at least the smallest R that Theorem 1 Case i's horizon and gamma_l "
        "condition (B^2 at eta^) admit for an instance with these (a, b, p, mu_f): L_h -> 0, L_f = mu_f"
    )
    return _theta_evidence(ctx, rows, "R^(p/2) - 1 (proof of Theorem 1 (i-1))", (_thm1_i_at, domain), hypotheses)


def _thm1_iii_at(eta, p, R):
    R = float(round(R))
    return _theta_R_minus_1(eta * p * math.log(R) / (2 * R), R), math.expm1(p / 2 * math.log(R)), {}


@claim(
    f"{PAPER}/thm-1:iii:theta-R",
    source="Theorem 1 Case iii (rounds with root p/2 on Q^2; proof of Theorem 1: 'Using Proposition 3')",
    statement="Theorem 1 Case iii (gamma~ = p ln R/(mu_f R), any constant eta <= alpha/(2||grad f(x*)||)): theta^R - "
    "1 >= R^(p/2) - 1, the factor behind the printed (mu_f Q^2/eps)^(2/p) terms; 0.5 eta mu_f gamma~ = eta p ln "
    "R/(2R), so theta^R ~ R^(eta p/2); 30 digits on eta in {0.05, 0.2, 0.5, 1}, p in {1, 2}, R in {1e2, 1e3, 1e4, "
    "1e5}, and a witness search over eta, p and R. It fails for every eta < 1 at large R.",
    scope="printed",
    expect="fails",
)
def theta_thm1_iii(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 under the Case iii schedule against R^(p/2) - 1, on the eta x p x R grid and by
    the witness search."""
    rows = [
        (eta * p * math.log(R) / (2 * R), R, R ** (p / 2) - 1, True, {"eta": eta, "p": p, "R": R})
        for eta in _ETA_GRID
        for p in (1, 2)
        for R in _R_GRID
    ]
    domain = Domain(
        {"eta": Axis(1e-4, 100.0), "p": Axis(1.0, 8.0), "R": Axis(1e4, R_CAP)},
        note="Case iii allows any constant eta <= alpha/(2||grad f(x*)||) (alpha/||grad f(x*)|| is free over the "
        "instances), p >= 1, and prints no horizon; its gamma_l condition holds at every R >= 2 for instances with "
        "small mu_f = L_f and L_h (gamma~/(16 (eta^ L_f)^2 (1 + B^2))^-1 -> 0). R from 1e4 (so that x = eta p ln R/"
        "(2R) < 1 on the whole box; the grid covers 1e2..1e5) to 1e15; p above 8 and eta above 100 left out (the "
        "bound only grows with p, the "
        "measured value with eta).",
    )
    hypotheses = (
        "eta > 0 (any constant below alpha/(2||grad f(x*)||), which instances make arbitrary), p >= 1, R >= 100"
    )
    return _theta_evidence(ctx, rows, "R^(p/2) - 1 (roots p/2 in (iii-1)-(iii-4))", (_thm1_iii_at, domain), hypotheses)


def _prop7_i_at(a, b_frac, p, R_factor):
    b = b_frac * a
    R, x = _defined(lambda R: x_case_i(a, b, 1.0, p, R), float(math.ceil(min(_R_min_prop7_i(a, b, p) * R_factor,
                                                                             R_CAP))))  # fmt: skip
    return _theta_R_minus_1(x, R), math.expm1(p / 2 * math.log(R)), {"b": b, "R_t": R}


_PROP7_I_DOMAIN_NOTE = (
    "Proposition 7 Case i allows 0 < b < a <= 1, p >= 1 and R_t >= 16 (L_h + eta^)^2 (1 + B_ncvx^2) with the gamma_l "
    "condition; read strictly (eta^ = 11 inside B_ncvx^2 and the gamma_l condition), the smallest R_t is "
    "max{87120, 87120^(1/a)}; R_t from there (times R_factor) up to 1e15 (float64 closed forms), so a below ln 87120/"
    "ln 1e15 = 0.33 is left out; where x = 0.5 eta_t gamma~_t >= 1 (theta undefined) R_t is doubled until x < 1; p "
    "above 8 left out (the bound only grows with p)."
)


@claim(
    f"{PAPER}/prop-7:i:theta-R",
    source="Proposition 7 Case i; Appendix F",
    statement="Proposition 7 Case i (mu_f = 1, gamma~_t = R_t^-a, eta_t = p ln R_t/R_t^b, '0 < b < a <= 1'): the "
    "first term 2 D_0/(eta gamma~ sum_r theta^r) = D_0/(theta^R - 1) is bounded by the printed D_0/(R_t^(p/2) - 1) "
    "iff theta^R - 1 >= R_t^(p/2) - 1; 30 digits on the six (a, b) pairs of thm-1:proof-subst (Theorem 3's (7/12, "
    "5/12) among them), p in {1, 2}, R_t in {1e2, 1e3, 1e4, 1e5} where R_t meets the hypothesis on R_t (strictest "
    "reading), and a witness search over 0 < b < a <= 1, p and R_t. It fails wherever a + b > 1.",
    scope="printed",
    expect="fails",
)
def theta_prop7_i(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 (mu_f = 1, Case i schedule) against the printed R_t^(p/2) - 1, on the six (a, b)
    pairs x p x R_t grid and by the witness search."""
    rows = []
    for a, b in AB:
        for p in (1, 2):
            for R in _R_GRID:
                x = float(x_case_i(a, b, 1.0, p, R))
                admissible = R >= _R_min_prop7_i(float(a), float(b), p)
                rows.append((x, R, R ** (p / 2) - 1, admissible, {"a": float(a), "b": float(b), "p": p, "R_t": R}))
    domain = Domain(
        {**_AB_AXES, "a": Axis(0.33, 1.0, log=False), "R_factor": Axis(1.0, 1e10)}, note=_PROP7_I_DOMAIN_NOTE
    )
    hypotheses = (
        "0 < b < a <= 1, p >= 1, mu_f = L_f = 1 (g), R_t >= max{16 (11)^2 (1 + 4 x 11), the gamma_l condition at "
        "eta^ = 11}: the strictest reading of Proposition 7's conditions, met by every instance with small L_h"
    )
    return _theta_evidence(ctx, rows, "R_t^(p/2) - 1 (Proposition 7 Case i)", (_prop7_i_at, domain), hypotheses)


def _prop7_ii_at(eta, p, R_factor):
    R = float(math.ceil(min(_R_min_prop7_ii(p) * R_factor, R_CAP)))
    x = eta * p * math.log(R) / (2 * R)
    return _theta_R_minus_1(x, R), eta * math.expm1(p / 2 * math.log(R)), {"R_t": R}


@claim(
    f"{PAPER}/prop-7:ii:theta-R",
    source="Proposition 7 Case ii; Appendix F",
    statement="Proposition 7 Case ii (mu_f = 1, gamma~_t = p ln R_t/R_t, constant eta): the first term 2 D_0/(eta "
    "gamma~ sum_r theta^r) = D_0/(theta^R - 1) is bounded by the printed D_0/(eta (R_t^(p/2) - 1)) iff theta^R - 1 >= "
    "eta (R_t^(p/2) - 1); 30 digits on eta in {0.05, 0.2, 0.5, 1}, p in {1, 2} (Theorem 3 Case ii: p = 2), R_t in "
    "{1e2, 1e3, 1e4, 1e5} where R_t meets the hypothesis on R_t (strictest reading), and a witness search over eta "
    "<= 11, p and R_t. It fails for every eta < 1 at large R_t.",
    scope="printed",
    expect="fails",
)
def theta_prop7_ii(ctx: Context) -> Evidence:
    """30-digit mpmath theta^R - 1 (mu_f = 1, Case ii schedule) against the printed eta (R_t^(p/2) - 1), on the
    eta x p x R_t grid and by the witness search."""
    rows = [
        (eta * p * math.log(R) / (2 * R), R, eta * (R ** (p / 2) - 1), R >= _R_min_prop7_ii(p), {"eta": eta, "p": p,
                                                                                                 "R_t": R})
        for eta in _ETA_GRID
        for p in (1, 2)
        for R in _R_GRID
    ]  # fmt: skip
    domain = Domain(
        {"eta": Axis(1e-4, 11.0), "p": Axis(1.0, 8.0), "R_factor": Axis(1.0, 1e8)},
        note="Proposition 7 Case ii allows a constant eta <= alpha/(2||grad F_lambda(x^{t*})||) and <= eta^ = 11, p "
        ">= 1, and R_t >= 16 (L_h + 11)^2 (1 + B_ncvx^2) with the gamma_l condition at eta^ (strictest reading: "
        "R_t >= 87120 and p ln R_t/R_t <= 1/87120); R_t from there (times R_factor) up to 1e15; p above 8 left out.",
    )
    hypotheses = (
        "0 < eta <= 11, p >= 1, mu_f = 1 (g), R_t >= 87120 with p ln R_t/R_t <= 1/(16 (11)^2 (1 + 4 x 11)) (the "
        "strictest reading of Proposition 7's conditions, met by instances with small L_h)"
    )
    return _theta_evidence(ctx, rows, "eta (R_t^(p/2) - 1) (Proposition 7 Case ii)", (_prop7_ii_at, domain), hypotheses)
