"""Theorem 1's conditions against the conditions its proof uses: the beta caps (Lemma 5, the 'mu - mu gamma > 1/2'
step between (26) and (27), gamma < 1), and the eta caps (Lemmas 1, 4, 5 and the proof of Theorem 1).

Every claim here is a statement about parameter sets, decided exactly. The closed forms come from ``printed.py``
evaluated on sympy symbols (a cap printed with the square root of a constant is squared exactly here, and checked
against ``printed.py`` in float64), then run in ``fractions.Fraction`` on a K x psi grid (:func:`grid`; B in {1, 2, 4}
for the eta caps), and by the witness search over K in [2, 10^4], psi in [0, 0.999]
(and B in [1, 10^3]), each of its evaluations exact. L cancels from every comparison (eta L is the dimensionless
step). Where a condition is monotone (in beta^2, K or B), the sympy derivative is checked, and the worst point of the
allowed set is the boundary that the claim evaluates.

Printed objects: Theorem 1 (and Theorem 3), Lemmas 1, 4 and 5, the proof of Lemma 5, the proof of Theorem 1 ("by
setting beta^2 <= min{...}, we can obtain mu - mu gamma > 1/2"; "let eta^2 L/m^2 - eta/(2Km^2) <= 0"; "there exists
... kappa ... when eta <= 1/(6KLB)").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import partial

import sympy as sp
from sympy.printing.pycode import PythonCodePrinter

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import SHORT_ROUNDING

from . import printed as pf

PAPER = "oledfl"
K, psi, B, L, beta, b2 = sp.symbols("K psi B L beta beta2", positive=True)

BS = (Fraction(1), Fraction(2), Fraction(4))


def grid(ctx: Context) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """(K values, psi values): K = 2..50 and psi in {0, 1/20, ..., 19/20, 0.99, 0.999} in the full profile; in the
    quick one K = 2..12, 16, 24, 36, 37, 50 (every threshold of the claims below) and psi in {0, 1/10, ..., 9/10,
    0.99, 0.999}."""
    if ctx.quick:
        return (*range(2, 13), 16, 24, 36, 37, 50), (
            *(Fraction(j, 10) for j in range(10)),
            Fraction(99, 100),
            Fraction(999, 1000),
        )
    return tuple(range(2, 51)), (*(Fraction(j, 20) for j in range(20)), Fraction(99, 100), Fraction(999, 1000))


K_PSI = Domain(
    {"K": Axis(2, 10_000, integer=True), "psi": Axis(0.0, 0.999, log=False)},
    note="Theorem 1 allows every integer K >= 2 and psi in [0, 1) (1 - psi in (0, 1], Definition 1); searched: K up "
    "to 10^4 (log scale), psi up to 0.999, each evaluation exact in fractions at the binary value of psi.",
)
K_B = Domain(
    {"K": Axis(2, 10_000, integer=True), "B": Axis(1.0, 1e3)},
    note="Theorem 1 allows every integer K >= 2 and B >= 1 (Assumption 3); L cancels (eta L is the dimensionless "
    "step); searched: K up to 10^4, B up to 10^3 (log scales), each evaluation exact in fractions.",
)
HYP_K_PSI = "every grid and search point has an integer K >= 2 and psi in [0, 1), as Theorem 1 requires"
HYP_K_B = "every grid and search point has an integer K >= 2, B >= 1 and eta = 1/(K^{3/2} L B), as Theorem 1 allows"


class _FractionPrinter(PythonCodePrinter):
    """Python code whose rational constants are ``Fraction``s, so a lambdified rational function stays exact."""

    def _print_Rational(self, expr):
        return f"Fraction({expr.p}, {expr.q})"

    def _print_Half(self, expr):
        return "Fraction(1, 2)"


def exact_function(expr: sp.Expr, *args: sp.Symbol) -> Callable[..., Fraction]:
    """``expr`` (a rational function of ``args``, or a list of them) as a function exact on ``Fraction`` inputs."""
    return sp.lambdify(args, expr, modules=[{"Fraction": Fraction}], printer=_FractionPrinter)


# The proof of Theorem 1, between (26) and (27): mu - mu gamma "= 1 - 60 K beta^2/(1-psi)^2 - 75 beta^2"
MU_GAMMA_PRINTED = 1 - 60 * K * b2 / (1 - psi) ** 2 - 75 * b2
LEM1_ETA_SQ = sp.Rational(3, 36) / (K**2 * L**2)  # (sqrt(3)/(6KL))^2, Lemma 1's proof; checked against printed.py


# beta^2 caps, exact on fractions (those printed with sqrt(10), sqrt(5) are squared here: printed.py evaluates such
# constants in float64; each is checked against printed.py in _forms)
def thm1_beta_sq(K_: int, psi_: Fraction) -> Fraction:
    """Theorem 1: (min{sqrt(10)(1-psi)/40, sqrt(5)/30})^2 = min{(1-psi)^2/160, 1/180}."""
    return min((1 - psi_) ** 2 / 160, Fraction(1, 180))


def corner_cap(K_: int, psi_: Fraction, c1: int = 240, c2: int = 300) -> Fraction:
    """The proof of Theorem 1: min{(1-psi)^2/(c1 K), 1/c2} (printed: c1 = 240, c2 = 300)."""
    return min((1 - psi_) ** 2 / (c1 * K_), Fraction(1, c2))


def lem5_fixed_cap(K_: int, psi_: Fraction) -> Fraction:
    """Lemma 5's condition with 3 in place of 2: min{(1-psi)^2/(30K), 1/(60(3 + K/(1-psi)^2))}."""
    return min((1 - psi_) ** 2 / (30 * K_), 1 / (60 * (3 + K_ / (1 - psi_) ** 2)))


def _positive(expr: sp.Expr) -> bool:
    """Whether sympy proves ``expr > 0`` for all K, B, L, beta^2 > 0 and psi < 1 (written psi = 1 - gap, gap > 0)."""
    gap = sp.Symbol("gap", positive=True)
    return bool(sp.factor(sp.together(expr.subs(psi, 1 - gap))).is_positive)


@family(f"{PAPER}/thm-1-condition-forms")
def _forms(fam: Family) -> dict:
    """Lemma 5's mu, gamma mu and gamma (printed.py) and the printed mu - mu gamma as exact functions of (K, psi,
    beta^2); kappa and the denominator at Theorem 1's eta cap as exact functions of (K, psi, B); and the facts the
    boundary evaluations rest on (a failure here is a bug, never a verdict)."""
    for p in (Fraction(0), Fraction(3, 10), Fraction(9, 10)):
        for k in (2, 7):
            if not math.isclose(float(thm1_beta_sq(k, p)), pf.thm1_beta_cap(float(p)) ** 2, rel_tol=SHORT_ROUNDING):
                raise RuntimeError("the exact square of Theorem 1's beta cap disagrees with printed.py")
            if not math.isclose(float(LEM1_ETA_SQ.subs({K: k, L: 1})), pf.lem1_eta_cap(k, 1.0) ** 2, rel_tol=1e-12):
                raise RuntimeError("the exact square of Lemma 1's eta cap disagrees with printed.py")
    mu, gamma_mu = pf.lem5_mu(K, sp.sqrt(b2), psi), pf.lem5_gamma_mu(K, sp.sqrt(b2), psi)
    gamma = pf.lem5_gamma(K, sp.sqrt(b2), psi)
    if not _positive(-sp.diff(mu - gamma_mu, b2)):
        raise RuntimeError("mu - mu gamma is not decreasing in beta^2")
    if not _positive(sp.diff(gamma, b2) * mu**2):
        raise RuntimeError("gamma is not increasing in beta^2 where mu > 0")
    eta = pf.thm1_eta_cap(K, L, B)
    forms = {
        "mu": mu,
        "mu-gamma": sp.expand(mu - gamma_mu),
        "printed mu-gamma": MU_GAMMA_PRINTED,
        "gamma": gamma,
        "kappa at thm cap": sp.expand(pf.kappa(eta, K, L, B)),
        "denominator ratio at thm cap": sp.cancel((1 - psi) ** 2 / (24 * eta**2 * K**3 * L**2 * B**2)),
    }
    fns = {name: exact_function(expr, K, psi, b2) for name, expr in forms.items() if "thm cap" not in name}
    fns |= {name: exact_function(expr, K, psi, B) for name, expr in forms.items() if "thm cap" in name}
    return {"forms": {name: sp.sstr(expr) for name, expr in forms.items()}, "fns": fns}


def _at(ctx: Context, name: str, cap: Callable) -> Callable[[int, Fraction], Fraction]:
    """The form ``name`` of :func:`_forms` at beta^2 = ``cap(K, psi)``."""
    f = _forms(ctx)["fns"][name]
    return lambda k, p: f(k, p, cap(k, p))


def _add_k_psi(points: Points, ctx: Context, value: Callable, bound, relation: str, **tags) -> None:
    """``value(K, psi)`` on the K x psi grid and by the witness search (labelled by ``tags``), against ``bound``."""
    Ks, psis = grid(ctx)
    for k in Ks:
        for p in psis:
            points.add(value(k, p), bound, K=k, psi=p, **tags)
    label = ",".join(map(str, tags.values())) or None
    points.search(lambda K, psi: (value(K, Fraction(psi)), bound, tags), K_PSI, relation, ctx, scale=4, label=label)


def _k_psi(ctx: Context, value: Callable, bound, relation: str, witness: dict) -> Evidence:
    """:func:`_add_k_psi` for one condition, with its value at K = 2, psi = 0 and the hypotheses in the witness."""
    points = Points()
    _add_k_psi(points, ctx, value, bound, relation)
    witness = {"at K = 2, psi = 0": str(value(2, Fraction(0))), **witness, "hypotheses": HYP_K_PSI}
    return points.evidence(relation, witness=witness)


def _holds_at(ctx: Context, value: Callable, ok: Callable[[Fraction], bool]) -> dict:
    """Per K of the grid where the condition holds somewhere: the grid psi where it does."""
    out = {}
    Ks, psis = grid(ctx)
    for k in Ks:
        good = [p for p in psis if ok(value(k, p))]
        if good:
            out[f"K = {k}"] = f"psi >= {min(good)} on the grid ({len(good)} of {len(psis)} grid values)"
    return out or {"nowhere": "no grid point"}


# --- the step between (26) and (27): mu - mu gamma ------------------------------------------------------------------
@claim(
    f"{PAPER}/thm-1:mu-gamma:identity",
    source="proof of Theorem 1 (between (26) and (27)); Lemma 5",
    statement="'in Lemma 5, mu - mu gamma = 1 - 60 K beta^2/(1-psi)^2 - 75 beta^2', with Lemma 5's mu = 1 - 30K "
    "beta^2/(1-psi)^2 and gamma mu = 5 beta^2 (25 + 6K/(1-psi)^2); measured: (mu - mu gamma from the printed mu and "
    "gamma mu) minus the printed right side, at beta^2 = min{(1-psi)^2/(240K), 1/300} (sympy, exact).",
    scope="printed",
    expect="fails",
)
def mu_gamma_identity(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`), beta^2 at the proof's cap. Reading: mu and gamma mu as Lemma 5 prints
    them. Reference: sympy's expansion of the difference, 5 x 25 beta^2 = 125 beta^2 against the printed 75 beta^2."""
    derived, printed = _at(ctx, "mu-gamma", corner_cap), _at(ctx, "printed mu-gamma", corner_cap)
    points = Points()
    Ks, psis = grid(ctx)
    for k in Ks:
        for p in psis:
            points.add(derived(k, p) - printed(k, p), Fraction(0), K=k, psi=p)
    return points.evidence(
        "==",
        witness={
            "mu - mu gamma from Lemma 5 (sympy, beta2 = beta^2)": _forms(ctx)["forms"]["mu-gamma"],
            "hypotheses": "beta^2 at the proof's own cap min{(1-psi)^2/(240K), 1/300}, K >= 2, psi in [0, 1)",
        },
    )


@claim(
    f"{PAPER}/thm-1:mu-gamma:corner",
    source="proof of Theorem 1 (between (26) and (27)); Lemma 5",
    statement="'By setting beta^2 <= min{(1-psi)^2/(240K), 1/300}, we can obtain mu - mu gamma > 1/2', for every "
    "K >= 2 and psi in [0, 1), with mu - mu gamma from Lemma 5's printed mu and gamma mu; measured: mu - mu gamma at "
    "beta^2 equal to the cap (it decreases in beta^2), exact.",
    scope="printed",
    expect="fails",
)
def mu_gamma_corner(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the witness search. Reading: the cap's boundary is the worst
    allowed beta. Reference: 3/4 - 125(1-psi)^2/(240K), smallest at K = 2, psi = 0: 47/96."""
    printed = _at(ctx, "printed mu-gamma", corner_cap)
    printed_min = min(printed(k, p) for k in grid(ctx)[0] for p in grid(ctx)[1])
    return _k_psi(
        ctx,
        _at(ctx, "mu-gamma", corner_cap),
        Fraction(1, 2),
        ">",
        {
            "with the printed 75 beta^2": f"min over the grid {printed_min} (> 1/2: the printed step follows from the "
            "printed right side, not from Lemma 5's mu and gamma mu)",
            "corner": "(1-psi)^2/(240K) = 1/300 needs (1-psi)^2 = 4K/5 > 1: for K >= 2 the cap is always "
            "(1-psi)^2/(240K), and 1/300 never binds",
            "fails where": "K = 2 and (1-psi)^2 > 24/25, i.e. psi < 1 - sqrt(24/25) = 0.0202",
        },
    )


@claim(
    f"{PAPER}/thm-1:mu-gamma:corrected",
    source="proof of Theorem 1 (between (26) and (27)); Lemma 5",
    statement="Repaired cap: beta^2 <= min{(1-psi)^2/(245K), 1/300} gives mu - mu gamma >= 1/2 for every K >= 2, "
    "psi in [0, 1) (245 is the least constant: equality at K = 2, psi = 0); so does min{(1-psi)^2/(240K), 1/500} "
    "(500 the least: equality at K = 2, (1-psi)^2 = 24/25); measured: mu - mu gamma at each cap, exact.",
    scope="corrected",
    expect="holds",
)
def mu_gamma_corrected(ctx: Context) -> Evidence:
    """Instance: both repaired caps on the K x psi grid and by the search. Reading: as the printed corner claim, with
    '>= 1/2' (equality is attained). Reference: sympy's least constants, 120 + 250(1-psi)^2/K at K = 2, psi = 0, and
    120 K/(1-psi)^2 + 250 at K/(1-psi)^2 = 25/12."""
    points = Points()
    for c1, c2 in ((245, 300), (240, 500)):
        cap = partial(corner_cap, c1=c1, c2=c2)
        _add_k_psi(points, ctx, _at(ctx, "mu-gamma", cap), Fraction(1, 2), ">=", cap=f"(1-psi)^2/({c1}K), 1/{c2}")
    c = sp.Symbol("c", positive=True)
    mu_gamma = pf.lem5_mu(K, sp.sqrt(b2), psi) - pf.lem5_gamma_mu(K, sp.sqrt(b2), psi)
    least = sp.solve(mu_gamma.subs({b2: 1 / (2 * c), K: 2, psi: 0}) - sp.Rational(1, 2), c)
    return points.evidence(
        ">=",
        witness={"least c in (1-psi)^2/(cK) (sympy, at K = 2, psi = 0)": sp.sstr(least), "hypotheses": HYP_K_PSI},
    )


# --- Lemma 5: gamma < 1 -------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/lem-5:gamma",
    source="Lemma 5 and its proof",
    statement="'let gamma = 5 beta^2 (25 + 6K/(1-psi)^2)/(1 - 30K beta^2/(1-psi)^2) < 1 where beta^2 <= 1/(60(2 + "
    "K/(1-psi)^2))' (Lemma 5's condition beta^2 <= min{(1-psi)^2/(30K), 1/(60(2 + K/(1-psi)^2))}); measured: gamma "
    "at beta^2 equal to Lemma 5's cap (gamma increases in beta^2), exact.",
    scope="printed",
    expect="fails",
)
def lem5_gamma(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the search. Reading: gamma as printed in Lemma 5. Reference:
    gamma = (25 + 6r)/(24 + 6r) > 1 at the cap, r = K/(1-psi)^2 (the second entry of the min always binds)."""
    return _k_psi(
        ctx,
        _at(ctx, "gamma", pf.lem5_beta_sq_cap),
        Fraction(1),
        "<",
        {"gamma < 1 iff (sympy)": "beta^2 < 1/(125 + 60 K/(1-psi)^2) (given mu > 0)"},
    )


@claim(
    f"{PAPER}/lem-5:gamma-corrected",
    source="Lemma 5 and its proof",
    statement="Repaired condition: beta^2 <= min{(1-psi)^2/(30K), 1/(60(3 + K/(1-psi)^2))} (3 in place of 2; any "
    "constant above 25/12 works) gives mu > 0 and gamma < 1 for every K >= 2, psi in [0, 1); measured: gamma at the "
    "boundary (the worst point), exact; gamma = (125 + 30r)/(180 + 30r) there, r = K/(1-psi)^2.",
    scope="corrected",
    expect="holds",
)
def lem5_gamma_corrected(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the search. Reading: as :func:`lem5_gamma`. Reference: the exact
    gamma; mu = (180 + 30r)/(180 + 60r) > 0 there. 1/(1 - gamma) = (180 + 30r)/55 grows with r."""
    mu = _at(ctx, "mu", lem5_fixed_cap)
    if min(mu(k, p) for k in grid(ctx)[0] for p in grid(ctx)[1]) <= 0:
        raise RuntimeError("mu <= 0 at the repaired cap")
    return _k_psi(
        ctx, _at(ctx, "gamma", lem5_fixed_cap), Fraction(1), "<", {"gamma (sympy)": _forms(ctx)["forms"]["gamma"]}
    )


# --- Theorem 1's beta cap against the proof's ---------------------------------------------------------------------
@claim(
    f"{PAPER}/thm-1:conditions:beta-lem-5",
    source="Theorem 1; Lemma 5",
    statement="Theorem 1's beta <= min{sqrt(10)(1-psi)/40, sqrt(5)/30} implies Lemma 5's beta^2 <= min{(1-psi)^2/"
    "(30K), 1/(60(2 + K/(1-psi)^2))} for every K >= 2, psi in [0, 1); measured: (Theorem 1's cap)^2/(Lemma 5's cap), "
    "exact.",
    scope="printed",
    expect="fails",
)
def beta_lem5(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the search. Reading: the implication must hold at Theorem 1's
    largest beta. Reference: exact ratio; by hand it holds only where K + 2(1-psi)^2 <= 8/3, i.e. K = 2 and
    (1-psi)^2 <= 1/3 (the grid agrees: 'holds at' in the witness)."""

    def ratio(k, p):
        return thm1_beta_sq(k, p) / pf.lem5_beta_sq_cap(k, p)

    return _k_psi(ctx, ratio, Fraction(1), "<=", {"holds at": _holds_at(ctx, ratio, lambda v: v <= 1)})


@claim(
    f"{PAPER}/thm-1:conditions:beta-mu-gamma",
    source="Theorem 1; proof of Theorem 1 (between (26) and (27))",
    statement="Theorem 1's beta <= min{sqrt(10)(1-psi)/40, sqrt(5)/30} implies the proof's beta^2 <= min{(1-psi)^2/"
    "(240K), 1/300} for every K >= 2, psi in [0, 1); measured: (Theorem 1's cap)^2/(the proof's cap), exact.",
    scope="printed",
    expect="fails",
)
def beta_mu_gamma(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the search. Reading: as :func:`beta_lem5`. Reference: exact ratio,
    3K/2 for (1-psi)^2 <= 8/9 and at least 4K/3 otherwise: the theorem's cap is free of K, the proof's shrinks as
    1/K."""
    return _k_psi(ctx, lambda k, p: thm1_beta_sq(k, p) / corner_cap(k, p), Fraction(1), "<=", {})


@claim(
    f"{PAPER}/thm-1:conditions:beta-gamma",
    source="Theorem 1; Lemma 5",
    statement="Theorem 1's beta cap gives mu > 0 and gamma < 1 (the 1/(1 - gamma) of chi and Lemma 5's division by "
    "1 - gamma need it) for every K >= 2, psi in [0, 1); measured: mu - mu gamma = mu(1 - gamma) at Theorem 1's "
    "largest beta (it is below mu, so > 0 gives both), exact.",
    scope="printed",
    expect="fails",
)
def beta_gamma(ctx: Context) -> Evidence:
    """Instance: the K x psi grid (:func:`grid`) and the search. Reading: gamma from Lemma 5's printed mu and gamma mu.
    Reference: exact; by hand it holds only for K = 2 and (1-psi)^2 < 8/25 (psi > 0.434; the grid agrees); at K = 2,
    psi = 0, gamma = 37/24."""
    value = _at(ctx, "mu-gamma", thm1_beta_sq)
    return _k_psi(ctx, value, Fraction(0), ">", {"holds at": _holds_at(ctx, value, lambda v: v > 0)})


# --- Theorem 1's eta cap against the proof's ----------------------------------------------------------------------
def _eta_step(ctx: Context, name: str, step_sq: sp.Expr, relation: str, witness: dict) -> Evidence:
    """(Theorem 1's eta cap / the step's cap)^2 on the grid's K x B in {1, 2, 4} and by the search over K, B, against 1:
    the theorem's largest eta meets the step iff the ratio is <= 1 (< 1 for a strict condition)."""
    ratio = sp.cancel(pf.thm1_eta_cap(K, L, B) ** 2 / step_sq)
    if not (sp.diff(ratio, K).is_negative and sp.diff(ratio, B).is_negative):
        raise RuntimeError(f"{name}: the ratio is not decreasing in K and B")
    f = exact_function(ratio, K, B)
    points = Points()
    for k in grid(ctx)[0]:
        for b in BS:
            points.add(f(k, b), Fraction(1), K=k, B=b)
    points.search(lambda K, B: (f(K, Fraction(B)), Fraction(1)), K_B, relation, ctx, scale=4)
    at_one = sp.nsimplify(ratio.subs(B, 1) * K)
    strict = relation == "<"
    k_min = math.floor(at_one) + 1 if strict else math.ceil(at_one)
    return points.evidence(
        relation,
        witness={
            "ratio (sympy)": sp.sstr(ratio),
            "holds for every B >= 1 iff": f"K >= {max(k_min, 2)}",
            "for smaller K": f"holds iff B^2 {'>' if strict else '>='} {at_one}/K",
            **witness,
            "hypotheses": HYP_K_B,
        },
    )


def _claim_eta(part: str, source: str, condition: str, expect: str):
    """The decorator of the eta-step claim ``part``."""
    return claim(
        f"{PAPER}/thm-1:eta-steps:{part}",
        source=f"Theorem 1; {source}",
        statement=f"Theorem 1's eta <= 1/(K^(3/2) L B) implies {condition} for every K >= 2 and B >= 1; measured: "
        "(Theorem 1's cap / the step's cap)^2, exact.",
        scope="printed",
        expect=expect,
    )


@_claim_eta(
    "lem-1", "Lemma 1 (proof: 'where the learning rate is required')", "Lemma 1's eta <= sqrt(3)/(6KL)", "fails"
)
def eta_lem1(ctx: Context) -> Evidence:
    """Instance: K x B grid and search. Reading: the theorem's largest eta. Reference: ratio 12/(K B^2): holds for
    every B iff K >= 12."""
    return _eta_step(ctx, "lem-1", LEM1_ETA_SQ, "<=", {})


@_claim_eta("lem-4", "Lemma 4", "Lemma 4's 0 < eta < 1/(6KL)", "fails")
def eta_lem4(ctx: Context) -> Evidence:
    """Instance: K x B grid and search. Reading: strict, as printed. Reference: ratio 36/(K B^2): holds for every B iff
    K >= 37."""
    return _eta_step(ctx, "lem-4", pf.lem4_eta_cap(K, L) ** 2, "<", {})


@_claim_eta("lem-5", "Lemma 5", "Lemma 5's eta <= 1/(KL)", "holds")
def eta_lem5(ctx: Context) -> Evidence:
    """Instance: K x B grid and search. Reading: the theorem's largest eta. Reference: ratio 1/(K B^2) <= 1/2."""
    return _eta_step(ctx, "lem-5", pf.lem5_eta_cap(K, L) ** 2, "<=", {})


@_claim_eta(
    "gradient-term",
    "proof of Theorem 1 ('let eta^2 L/m^2 - eta/(2Km^2) <= 0, then learning rate eta <= 1/(2KL)')",
    "eta^2 L/m^2 - eta/(2K m^2) <= 0",
    "fails",
)
def eta_gradient_term(ctx: Context) -> Evidence:
    """Instance: K x B grid and search. Reading: the root of the printed coefficient (sympy solve) is the cap.
    Reference: ratio 4/(K B^2): holds for every B iff K >= 4."""
    eta, m = sp.symbols("eta m", positive=True)
    (root,) = sp.solve(eta**2 * L / m**2 - eta / (2 * K * m**2), eta)
    return _eta_step(ctx, "gradient-term", root**2, "<=", {"coefficient vanishes at (sympy)": f"eta = {root}"})


@claim(
    f"{PAPER}/thm-1:eta-steps:kappa",
    source="Theorem 1; proof of Theorem 1 ('there exists a positive constant kappa in (0, 1) such that 1/2 - 18 eta^2 "
    "K^2 L^2 B^2 >= kappa > 0')",
    statement="Theorem 1's eta <= 1/(K^(3/2) L B) leaves room for kappa: 1/2 - 18 eta^2 K^2 L^2 B^2 > 0 for every "
    "K >= 2, B >= 1; measured: 1/2 - 18 eta^2 K^2 L^2 B^2 at the theorem's largest eta (= 1/2 - 18/K), exact.",
    scope="printed",
    expect="fails",
)
def eta_kappa(ctx: Context) -> Evidence:
    """Instance: K x B grid and search. Reading: the largest eta the theorem allows (kappa decreases in eta).
    Reference: printed.kappa in sympy: 1/2 - 18/K, > 0 iff K >= 37; the proof's own condition eta <= 1/(6KLB) gives
    1/2 - 18 eta^2 K^2 L^2 B^2 >= 0, with 0 at its boundary (so kappa > 0 needs eta < 1/(6KLB))."""
    f = _forms(ctx)["fns"]["kappa at thm cap"]
    points = Points()
    for k in grid(ctx)[0]:
        for b in BS:
            points.add(f(k, 0, b), Fraction(0), K=k, B=b)
    points.search(lambda K, B: (f(K, 0, Fraction(B)), Fraction(0)), K_B, ">", ctx, scale=4)
    at_proof_cap = sp.expand(pf.kappa(1 / (6 * K * L * B), K, L, B))
    return points.evidence(
        ">",
        witness={
            "closed form (sympy)": _forms(ctx)["forms"]["kappa at thm cap"],
            "holds iff": "K >= 37",
            "at the proof's eta = 1/(6KLB)": sp.sstr(at_proof_cap),
            "hypotheses": HYP_K_B,
        },
    )


@claim(
    f"{PAPER}/thm-1:eta-steps:lem-4-denominator",
    source="Theorem 1; proof of Theorem 1 (the bound on (1/m) sum_i E||grad f(x_i^t)||^2 before (26))",
    statement="Theorem 1's eta <= 1/(K^(3/2) L B) keeps the printed denominator (1-psi)^2 - 24 eta^2 K^3 B^2 L^2 "
    "positive (the bound divides by it), for every K >= 2, B >= 1, psi in [0, 1); measured: (1-psi)^2/(24 eta^2 K^3 "
    "L^2 B^2) at the theorem's largest eta, against 1, exact.",
    scope="printed",
    expect="fails",
)
def eta_lem4_denominator(ctx: Context) -> Evidence:
    """Instance: K x psi grid (the ratio is free of K and B at the cap) and the search. Reading: the largest eta.
    Reference: (1-psi)^2/24 < 1 everywhere; positivity needs eta < (1-psi)/(sqrt(24) K^(3/2) L B), and with Lemma
    1's printed 18 K^3 (36 in place of 24) eta < (1-psi)/(6 K^(3/2) L B): no eta cap of the proof implies it."""
    f = _forms(ctx)["fns"]["denominator ratio at thm cap"]
    return _k_psi(
        ctx,
        lambda k, p: f(k, p, 1),
        Fraction(1),
        ">",
        {"needs": "eta < (1-psi)/(sqrt(24) K^(3/2) L B) (printed 24), (1-psi)/(6 K^(3/2) L B) (Lemma 1's 18 K^3)"},
    )
