"""The simplified strongly convex rates of section 3.3 ([RATE] claims), symbolic side (no claims): the printed
displays (3.4)-(3.8) of Theorem 3.1(a)/(b), Proposition 3.2, Theorems 3.3 and 3.4, their complete versions, and the
exact asymptotic exponents that compare them.

The displays (3.4)-(3.8) print an explicit decay term and hide constants and polylog factors in Otilde. Each is
checked two ways (the numeric way is :mod:`.sec_3_3_quadratic_rates`; the claims are in :mod:`.thm_3_1_fedac`,
:mod:`.prop_3_2_fedavg`, :mod:`.thm_3_3_fedac_ii_vs_fedavg` and :mod:`.thm_3_4_fedavg`).

* Against its complete version (Theorem 3.5, B.12, B.1, B.18), symbolically: with the initial potential replaced
  by its bound L B^2 (Remarks 3.6, B.2, B.13; every complete term increases with it), every complete term must be
  Otilde of the printed display. Along every direction v = t^(p_v) (t -> infinity) of an exponent lattice the
  limit exponent lim log(term / display)/log t, computed exactly by :func:`growth` (monomials, log(e + positive),
  exp(-monomial), min, max, sums), must be <= 0. Each complete term matched to a printed term must also be
  "logs times a constant" (sympy, logs stripped), and the decay terms are compared with their printed constants.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, seed_for
from fedtheory.harness.points import Points
from fedtheory.symbols import B, K, L, M, Q, R, mu, sigma

REGISTERS_CLAIMS = False  # shared displays and growth exponents; the claims are in the sibling modules

SYMBOLS = (L, mu, sigma, B, Q, M, K, R)
POT0 = L * B**2  # Psi0, Phi0 <= L B^2 (Remarks 3.6, B.2, B.13)
STAT = sigma**2 / (mu * M * K * R)


def log(x):
    """log(e + x), the polylog form of the complete theorems."""
    return sp.log(sp.E + x)


def _decay(exponents, prefactor):
    """min_i exp(exponents_i) * prefactor (= exp(min_i exponents_i) * prefactor: exp is increasing)."""
    return sp.Min(*[sp.exp(a) for a in exponents]) * prefactor


@dataclass(frozen=True)
class Display:
    """A bound as decay exponents and prefactor plus named polynomial-rate terms."""

    exponents: tuple
    prefactor: sp.Expr
    terms: dict

    def expressions(self) -> dict:
        return {"decay": _decay(self.exponents, self.prefactor), **self.terms}


# --- the printed simplified displays -------------------------------------------------------------------------
EQ_34 = Display(
    (-mu * K * R / L, -sp.sqrt(mu * K * R**2 / L)),
    L * B**2,
    {"sigma^2/(mu M K R)": STAT, "L sigma^2/(mu^2 K R^3)": L * sigma**2 / (mu**2 * K * R**3)},
)
EQ_35 = Display(
    (-mu * K * R / (3 * L), -sp.sqrt(mu * K * R**2 / (9 * L))),
    L * B**2,
    {"sigma^2/(mu M K R)": STAT, "L^2 sigma^2/(mu^3 K R^4)": L**2 * sigma**2 / (mu**3 * K * R**4)},
)
EQ_36 = Display(
    (-mu * K * R / L,),
    L * B**2,
    {"sigma^2/(mu M K R)": STAT, "L sigma^2/(mu^2 K R^2)": L * sigma**2 / (mu**2 * K * R**2)},
)
EQ_37 = Display(
    EQ_35.exponents,
    2 * L * B**2,
    {"sigma^2/(mu M K R)": STAT, "Q^2 sigma^4/(mu^5 K^2 R^8)": Q**2 * sigma**4 / (mu**5 * K**2 * R**8)},
)
EQ_38 = Display(
    (-mu * K * R / (8 * L),),
    4 * L * B**2,
    {"sigma^2/(mu M K R)": STAT, "Q^2 sigma^4/(mu^5 K^2 R^4)": Q**2 * sigma**4 / (mu**5 * K**2 * R**4)},
)

# --- the complete versions, the initial potential at its bound L B^2 --------------------------------------------
_A1 = mu * M * K * R * POT0 / sigma**2
THM_35 = Display(
    (-mu * K * R / L, -sp.sqrt(mu) * sp.sqrt(K) * R / sp.sqrt(L)),
    POT0,
    {
        "2 sigma^2/(mu M K R) log^2": 2 * STAT * log(_A1) ** 2,
        "400 L sigma^2/(mu^2 K R^3) log^4": 400
        * L
        * sigma**2
        / (mu**2 * K * R**3)
        * log(mu**2 * K * R**3 * POT0 / (L * sigma**2)) ** 4,
    },
)
THM_B12 = Display(
    (-mu * K * R / (3 * L), -sp.sqrt(mu) * sp.sqrt(K) * R / (3 * sp.sqrt(L))),
    POT0,
    {
        "4 sigma^2/(mu M K R) log": 4 * STAT * log(_A1),
        "8101 L^2 sigma^2/(mu^3 K R^4) log^4": 8101
        * L**2
        * sigma**2
        / (mu**3 * K * R**4)
        * log(mu**3 * K * R**4 * POT0 / (L**2 * sigma**2)) ** 4,
    },
)
THM_B1 = Display(
    THM_B12.exponents,
    POT0,
    {
        "4 sigma^2/(mu M K R) log": 4 * STAT * log(_A1),
        "55 L sigma^2/(mu^2 M K R^3) log^3": 55
        * L
        * sigma**2
        / (mu**2 * M * K * R**3)
        * log(mu**2 * M * K * R**3 * POT0 / (L * sigma**2)) ** 3,
        "e^18 Q^2 sigma^4/(mu^5 K^2 R^8) log^8": sp.exp(18)
        * Q**2
        * sigma**4
        / (mu**5 * K**2 * R**8)
        * log(mu**5 * K**2 * R**8 * POT0 / (Q**2 * sigma**4)) ** 8,
    },
)
B18_STAT = 3 * STAT * log(mu**2 * M * K**2 * R**2 * B**2 / sigma**2)
THM_B18 = Display(
    EQ_38.exponents,
    4 * L * B**2,
    {
        "3 sigma^2/(mu M K R) log": B18_STAT,
        "3073 Q^2 sigma^4/(mu^5 K^2 R^4) log^4": 3073
        * Q**2
        * sigma**4
        / (mu**5 * K**2 * R**4)
        * log(mu**6 * K**3 * R**5 * B**2 / (Q**2 * sigma**4)) ** 4,
    },
)
THM_B18_Q0 = Display(THM_B18.exponents, THM_B18.prefactor, {"3 sigma^2/(mu M K R) log": B18_STAT})


# --- exact asymptotic exponents --------------------------------------------------------------------------------
Growth = tuple  # (exp part {a: c}, meaning exp(sum_a c t^a) with a > 0, polynomial exponent b)


def _monomial(expr) -> tuple[Fraction, dict]:
    """(coefficient, {symbol: exponent}) of a monomial; raises on anything else."""
    coeff, rest = expr.as_coeff_Mul()
    powers = rest.as_powers_dict() if rest != 1 else {}
    if not all(isinstance(s, sp.Symbol) and e.is_Rational for s, e in powers.items()):
        raise ValueError(f"not a monomial: {expr}")
    return Fraction(str(coeff)), {s: Fraction(str(e)) for s, e in powers.items()}


def growth(expr, p: dict) -> Growth:
    """Asymptotics of the positive ``expr`` along ``v = t^(p[v])``, t -> infinity: ``t^b exp(sum_a c_a t^a)``.

    Exact for products and rational powers of monomials, ``log(e + X)`` with ``X > 0`` of polynomial growth (a
    factor between 1 and O(log t): exponent 0), ``exp(-Z)`` with ``Z`` a positive monomial (``exp(-c t^a)`` if ``Z``
    grows, a positive constant otherwise), sums of positive terms (the largest), ``Min`` and ``Max``.
    """
    return _compiled(expr)(p)


_ZERO = Fraction(0)


@cache
def _compiled(expr):
    """``growth(expr, .)`` as a function of the direction; the structure (and positivity) is checked once here."""
    if isinstance(expr, sp.Symbol):
        return lambda p: ({}, Fraction(p[expr]))
    if expr.is_number:
        if not expr.is_positive:
            raise ValueError(f"non-positive constant {expr}")
        return lambda p: ({}, _ZERO)
    if isinstance(expr, sp.Mul):
        parts = [_compiled(arg) for arg in expr.args]

        def product(p):
            exps, b = {}, _ZERO
            for part in parts:
                e, bb = part(p)
                for a, c in e.items():
                    exps[a] = exps.get(a, 0) + c
                b += bb
            return {a: c for a, c in exps.items() if c != 0}, b

        return product
    if isinstance(expr, sp.Pow) and expr.exp.is_Rational:
        base, n = _compiled(expr.base), Fraction(str(expr.exp))

        def power(p):
            e, b = base(p)
            return {a: n * c for a, c in e.items()}, n * b

        return power
    if isinstance(expr, (sp.Add, sp.Max, sp.Min)):
        if isinstance(expr, sp.Add) and not all(arg.is_positive for arg in expr.args):
            raise ValueError(f"a sum of terms not all positive: {expr}")
        parts = [_compiled(arg) for arg in expr.args]
        pick = min if isinstance(expr, sp.Min) else max
        return lambda p: pick((part(p) for part in parts), key=_Key)
    if isinstance(expr, sp.log):
        rest = expr.args[0] - sp.E
        if not (rest.is_positive and not rest.has(sp.exp, sp.log)):
            raise ValueError(f"not log(e + positive polynomial-rate term): {expr}")
        return lambda p: ({}, _ZERO)
    if isinstance(expr, sp.exp):
        coeff, powers = _monomial(expr.args[0])
        if coeff >= 0:
            raise ValueError(f"exp of a non-negative argument: {expr}")

        def decay(p):
            a = sum((e * p[s] for s, e in powers.items()), _ZERO)
            return ({a: coeff}, _ZERO) if a > 0 else ({}, _ZERO)

        return decay
    raise ValueError(f"unsupported expression {expr}")


def exponent(g1: Growth, g2: Growth) -> float:
    """lim log(f1/f2)/log t for growths ``g1``, ``g2`` (+-inf when an exp(c t^a) factor decides)."""
    diff = dict(g1[0])
    for a, c in g2[0].items():
        diff[a] = diff.get(a, 0) - c
    diff = {a: c for a, c in diff.items() if c != 0}
    if diff:
        return np.inf if diff[max(diff)] > 0 else -np.inf
    return float(g1[1] - g2[1])


class _Key:
    """Order of growths by :func:`exponent`."""

    def __init__(self, g):
        self.g = g

    def __lt__(self, other):
        return exponent(self.g, other.g) < 0


def directions(variables, constraint, n_random: int, seed: int) -> list[dict]:
    """Exponent directions p: the lattice {-1, 0, 1} (M, K, R in {0, 1}: they are >= 1) plus ``n_random`` draws from
    {-3..3} ({0..3}), kept when p_L >= p_mu (L >= mu) and ``constraint(p)``."""
    counts = [(0, 1) if v in (M, K, R) else (-1, 0, 1) for v in variables]
    out = [dict(zip(variables, c)) for c in itertools.product(*counts)]
    rng = np.random.default_rng(seed)
    for _ in range(n_random):
        out.append({v: int(rng.integers(0 if v in (M, K, R) else -3, 4)) for v in variables})
    return [p for p in out if p.get(L, 0) >= p.get(mu, 0) and constraint(p)]


def _logs_times_constant(ratio) -> bool:
    """True when ``ratio`` with every log(...) replaced by one symbol is free of the problem constants."""
    ell = sp.Symbol("ell", positive=True)
    stripped = ratio.replace(lambda e: isinstance(e, sp.log), lambda e: ell)
    return not (stripped.free_symbols & set(SYMBOLS))


def limit_cross_check(complete: Display, printed: Display, dirs: list[dict]) -> int:
    """Recompute lim log(c/s)/log t with ``sympy.limit`` (gruntz) for every pair of non-decay terms along ``dirs``
    and compare with :func:`exponent` of :func:`growth`; returns the number of pairs, raises on a disagreement."""
    t = sp.Symbol("t", positive=True)
    n = 0
    for p in dirs:
        sub = {v: t ** sp.Integer(k) for v, k in p.items()}
        for c in complete.terms.values():
            for s in printed.terms.values():
                ratio = (c / s).subs(sub)
                lim = sp.limit(sp.expand_log(sp.log(ratio), force=True) / sp.log(t), t, sp.oo)
                ours = exponent(growth(c, p), growth(s, p))
                if float(lim) != ours:
                    raise RuntimeError(f"growth exponent {ours} != sympy limit {lim} for {c} / {s} along {p}")
                n += 1
    return n


def polylog_evidence(
    complete: Display, printed: Display, matches: dict, constraint, ctx: Context, *, explicit_decay=True
) -> Evidence:
    """Evidence that ``complete`` is Otilde of ``printed`` (module docstring).

    Entries: for every direction and complete term, lim log(term / printed display)/log t (<= 0); for every matched
    pair, 0 if the ratio is logs times a constant, else 1 (<= 0); with ``explicit_decay`` (the decay term is printed
    with its constants) the number of decay exponents not <= the printed ones, pairwise (<= 0: min_i exp(a_i) <=
    min_i exp(b_i) when every a_i <= b_i), and the decay prefactor ratio with the potential at L B^2 (<= 1).
    """
    shown, terms = printed.expressions(), complete.expressions()
    variables = [v for v in SYMBOLS if any(e.has(v) for e in [*shown.values(), *terms.values()])]
    dirs = directions(variables, constraint, 200 if ctx.quick else 2000, seed_for(ctx.claim_id))
    total = sp.Add(*shown.values())
    points = Points()
    worst = {}
    for p in dirs:
        g_total = growth(total, p)
        for name, term in terms.items():
            e = exponent(growth(term, p), g_total)
            points.add(e, 0.0, check=f"exponent of {name} / display")
            if e > worst.get(name, (-np.inf,))[0]:
                worst[name] = (e, {str(v): k for v, k in p.items()})
    structure = {}
    for cname, pname in matches.items():
        ratio = complete.terms[cname] / printed.terms[pname]
        ok = _logs_times_constant(ratio)
        structure[f"{cname} / {pname}"] = str(ratio)
        points.add(0.0 if ok else 1.0, 0.0, check=f"{cname} / {pname} is logs x constant")
    pref = sp.nsimplify(complete.prefactor / printed.prefactor)
    checked = limit_cross_check(complete, printed, dirs[-(1 if ctx.quick else 3) :])
    if explicit_decay:
        slower = sum(
            sp.simplify(a - b).is_nonpositive is not True for a, b in zip(complete.exponents, printed.exponents)
        )
        slower += abs(len(complete.exponents) - len(printed.exponents))
        points.add(float(slower), 0.0, check="decay exponents not <= the printed ones")
        points.add(float(pref), 1.0, check="decay prefactor ratio")
    return points.evidence(
        "<=",
        extended=True,  # an exponent of -inf/+inf is exact: an exp(c t^a) factor decides the limit
        witness={
            "directions": len(dirs),
            "pairs cross-checked against sympy.limit": checked,
            "largest exponent per complete term (direction)": {k: [v[0], v[1]] for k, v in worst.items()},
            "matched ratios": structure,
            "decay prefactor ratio (complete / printed)": str(pref),
        },
    )


# --- shared by the claims ---------------------------------------------------------------------------------------
def everywhere(p):
    return True


POLYLOG = (
    "Every term of {complete} (potential <= L B^2) is Otilde of {display}: along every direction v = t^(p_v) of the "
    "exponent lattice {{-1,0,1}} (M, K, R in {{0,1}}) plus random ones in [-3, 3] with L >= mu{extra}, lim log(term / "
    "display)/log t <= 0 (exact growth exponents); matched terms are logs x constant{decay}."
)
DECAY = "; each decay exponent is <= the printed one (sympy) and the decay prefactor ratio is <= 1"
