"""The displays of the proof of Theorem 1 (Appendix B-A): identity (24), the descent inequalities (26)-(28), and the
summation that turns (28) into Theorem 1 and Theorem 3.

A step of an upper-bound chain is valid when it never lowers the right-hand side: a coefficient may be enlarged only
where it multiplies a non-negative quantity, a term dropped only where it is <= 0. Each claim records, per replaced
coefficient or dropped term, the quantity it multiplies and whether the step lowers the right side, with sympy
coefficients (from printed.py where the paper's constants live there) evaluated exactly in fractions, and a
deterministic run of Algorithm 1 (exact gradients) for the values of Delta^t, whose signs decide the telescoped term.

Symbols: Gbar = E||grad f(x̄^t)||^2, M = (1/m) sum_i E||grad f(x_i^t)||^2, S2 = E||sum_i sum_k grad f_i(x_{i,k}^t)||^2,
Delta = Delta^t; sigma2, G2, lam2 the squares sigma_l^2, G^2, lambda^2.

Printed objects: (3), (24), Lemmas 1, 2, 4 and 5, the displays between (25) and (26), (26), (27), (28), Theorem 1,
Theorem 3 and the summed display of its proof.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.algorithms import decentralized
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.topology import ring

from . import printed as pf
from .thm_1_conditions import exact_function

PAPER = "oledfl"
K, L, B, psi, beta, eta, m, T = sp.symbols("K L B psi beta eta m T", positive=True)
Gbar, M, S2, Delta, sigma2, G2, lam2 = sp.symbols("Gbar M S2 Delta sigma2 G2 lam2", nonnegative=True)
QUANTITIES = {
    "E||grad f(xbar)||^2": Gbar,
    "Delta^t": Delta,
    "G^2": G2,
    "sigma^2": sigma2,
    "lambda^2": lam2,
    "S2": S2,
    "(1/m) sum E||grad f(x_i)||^2": M,
}
GAP2 = (1 - psi) ** 2
LEM1 = dict(K=K, beta=beta, Delta=Delta, eta=eta, sigma=sp.sqrt(sigma2), lam=sp.sqrt(lam2), G=sp.sqrt(G2), B=B)

# Transcribed displays of the proof of Theorem 1 (not in printed.py)
GRAD_AVG_PRINTED = (
    8 * K * L**2 * beta**2 * Delta + 6 * eta**2 * K**2 * L**2 * (sigma2 + 4 * K * G2) + 2 * GAP2 * Gbar
) / (GAP2 - 24 * eta**2 * K**3 * B**2 * L**2)  # the bound on (1/m) sum_i E||grad f(x_i^t)||^2 before (26)
PRE_26 = (  # the display after "According to Lemma 1 and lemma 2", second form
    -eta * K / 2 * Gbar
    + 3 * eta * L**2 * K * beta**2 * Delta
    + 9 * eta**3 * K**3 * L**2 * G2
    + 9 * eta**3 * K**3 * L**2 * B**2 * M
    + eta**2 * L * K / 2 * (1 + 3 * eta * L * K) * sigma2
    + (eta**2 * L / m**2 - eta / (2 * K * m**2)) * S2
    + (1 + 9 * K**2 * eta * L) * L * eta**2 * lam2
)
C_26 = eta * L**2 * K * beta**2 * (3 + 72 * eta**2 * K**3 * L**2 * B**2 / GAP2)  # Delta^t's coefficient in (26), (27)
EQ_26 = (
    -eta * K * (sp.Rational(1, 2) - 18 * eta**2 * K**2 * L**2 * B**2) * Gbar
    + C_26 * Delta
    + 9 * eta**3 * K**3 * L**2 * (1 + 24 * eta**2 * K**3 * L**2 * B**2 / GAP2) * G2
    + eta**2
    * L
    * K
    * (sp.Rational(1, 2) + sp.Rational(3, 2) * eta * L * K + 54 * eta**3 * K**4 * L**3 * B**2 / GAP2)
    * sigma2
    + (eta**2 * L / m**2 - eta / (2 * K * m**2)) * S2
    + (1 + 9 * K**2 * eta * L) * L * eta**2 * lam2
)
C_28 = eta * L**2 * K * beta**2 * (3 + 72 / GAP2)  # (28)
G_28 = 9 * eta**3 * K**3 * L**2 * (1 + 24 / GAP2)
SIGMA_28 = eta**2 * L * K * (2 + 36 / GAP2)
LAM_28 = (1 + 9 * K**2 * eta * L) * L * eta**2


def _coefficients(f, *args) -> list[Fraction]:
    """The coefficient of each quantity in ``f(*args, *quantities)``, linear and homogeneous in the quantities: its
    value at each unit vector."""
    n = len(QUANTITIES)
    return [f(*args, *(Fraction(int(i == j)) for j in range(n))) for i in range(n)]


# --- (24) ---------------------------------------------------------------------------------------------------------
def _eq24_residual(K_: int, sign: int) -> int:
    """Nonzero coordinates of (24)'s left minus right side, with x_{i,0}^t = x_i^t + sign beta (x_i^t - x_{i,K}^{t-1})
    ((3) for sign = +1) and K_ local steps x_{i,k+1} = x_{i,k} - eta g_{i,k}, on 2-d vectors of free symbols."""

    def vector(name: str) -> sp.Matrix:
        return sp.Matrix(sp.symbols(f"{name}_1:3"))

    x, x_prev, x_next = vector("x"), vector("xKprev"), vector("xnext")
    g = [vector(f"g{k}") for k in range(K_)]
    local = x + sign * beta * (x - x_prev)
    for k in range(K_):
        local = local - eta * g[k]
    lhs = x_next - local
    rhs = beta * (x_prev - x) + (x_next - x) + sum((eta * gk for gk in g), sp.zeros(2, 1))
    return sum(1 for v in lhs - rhs if sp.expand(v) != 0)


@claim(
    f"{PAPER}/eq-24",
    source="eq. (24) (proof of Lemma 5), from eq. (3)",
    statement="x_i^{t+1} - x_{i,K}^t = beta (x_{i,K}^{t-1} - x_i^t) + (x_i^{t+1} - x_i^t) + sum_k eta g_{i,k}^t for "
    "the Ole start (3) and K local steps x_{i,k+1}^t = x_{i,k}^t - eta g_{i,k}^t, any gossip result x_i^{t+1}; "
    "measured: nonzero coordinates of left minus right side (sympy, 2-d vector symbols, K in {1, 3}).",
    scope="printed",
    expect="holds",
)
def eq24(ctx: Context) -> Evidence:
    """Instance: symbolic vectors. Reading: the g_{i,k}^t as free vectors (SGD or SAM gradients alike). Reference:
    sympy expansion; negative control: the Lookahead sign of (4), x_{i,0} = x_i - beta (x_i - x_{i,K}^{t-1})."""
    Ks = (1, 3)
    control = Evidence([Fraction(_eq24_residual(3, -1))], Fraction(0), "==")
    return Evidence(
        measured=[Fraction(_eq24_residual(k, 1)) for k in Ks],
        bound=Fraction(0),
        relation="==",
        grid={"K": list(Ks)},
        witness={
            "negative control": negative_control(control, "the opposite (Lookahead) sign in (3)"),
            "hypotheses": "any beta, eta, vectors; x_i^{t+1} left free (the identity does not use the gossip)",
        },
    )


# --- (26) ---------------------------------------------------------------------------------------------------------
@family(f"{PAPER}/descent-forms")
def _forms(fam: Family) -> dict:
    """Coefficients of the derived and printed displays, as exact functions of (K, psi, B, eta, beta) with L = 1."""
    M_ = sp.Symbol("M_", nonnegative=True)
    c1 = pf.lem1_rhs(**LEM1, mean_grad_sq=M_)
    rhs = 2 * L**2 * pf.lem4_rhs(c1, psi) + 2 * Gbar  # ||grad f(x_i)||^2 <= 2L^2||x_i - xbar||^2 + 2||grad f(xbar)||^2
    a = sp.diff(rhs, M_)
    grad_avg = sp.together(rhs.subs(M_, 0) / (1 - a))  # solved for M (where a < 1)
    v2 = pf.lem2_rhs(K=K, eta=eta, sigma=sp.sqrt(sigma2), m=m, sum_grad_sq=S2, lam=sp.sqrt(lam2))
    pre_26 = -eta * K / 2 * Gbar + eta * L**2 / 2 * pf.lem1_rhs(**LEM1, mean_grad_sq=M) - eta / (2 * K * m**2) * S2
    pre_26 += L / 2 * v2  # the last line of (25) with Lemma 1 for V_1 and Lemma 2 for V_2
    pairs = {
        "gradient average": (GRAD_AVG_PRINTED, grad_avg),
        "display after Lemmas 1-2": (PRE_26, pre_26),
        "(26)": (EQ_26, PRE_26.subs(M, GRAD_AVG_PRINTED)),
    }
    args = (K, psi, B, eta, beta)
    fns = {}
    for name, sides in pairs.items():
        fns[name] = [exact_function(side.subs({L: 1, m: 2}), *args, *QUANTITIES.values()) for side in sides]
    return {"fns": fns, "derived gradient average": grad_avg}


def _grid(ctx: Context) -> list[dict]:
    """K in {2, 4, 16} ({2, 16} in the quick profile), psi in {0, 1/2, 9/10} ({0, 9/10}), B in {1, 2}, L = 1 and
    eta = (1-psi)/(12 K^2 B) x {1, 1/10}: there both denominators (1-psi)^2 - 24 (or 36) eta^2 K^3 B^2 L^2 are
    positive; beta = 1/100."""
    Ks, psis = (
        ((2, 16), (Fraction(0), Fraction(9, 10))) if ctx.quick else ((2, 4, 16), (0, Fraction(1, 2), Fraction(9, 10)))
    )
    out = []
    for k in Ks:
        for p in psis:
            for b in (Fraction(1), Fraction(2)):
                for scale in (Fraction(1), Fraction(1, 10)):
                    eta_ = scale * (1 - p) / (12 * k**2 * b)
                    out.append({"K": k, "psi": Fraction(p), "B": b, "eta": eta_, "beta": Fraction(1, 100)})
    return out


def _display_evidence(ctx: Context, names: tuple[str, ...], witness: dict) -> Evidence:
    """Printed coefficient against derived coefficient (>=: the printed right side is not lower), per quantity."""
    fns = _forms(ctx)["fns"]
    points = Points()
    for name in names:
        fp, fd = fns[name]
        for at in _grid(ctx):
            args = (at["K"], at["psi"], at["B"], at["eta"], at["beta"])
            for q, p_, d_ in zip(QUANTITIES, _coefficients(fp, *args), _coefficients(fd, *args)):
                points.add(p_, d_, display=name, quantity=q, **at)
    witness["hypotheses"] = (
        "K >= 2, B >= 1, psi in [0, 1), L = 1 (scaling), beta = 1/100 and eta with both denominators positive (the "
        "displays divide by them); every quantity multiplied is >= 0"
    )
    return points.evidence(">=", witness=witness)


@claim(
    f"{PAPER}/eq-26:gradient-average",
    source="proof of Theorem 1 (the bound on (1/m) sum_i E||grad f(x_i^t)||^2 before (26)); Lemmas 1 and 4",
    statement="The printed (1/m) sum_i E||grad f(x_i^t)||^2 <= (8KL^2 beta^2 Delta^t + 6 eta^2 K^2 L^2 (sigma^2 + 4K "
    "G^2) + 2(1-psi)^2 E||grad f(xbar^t)||^2)/((1-psi)^2 - 24 eta^2 K^3 B^2 L^2) follows from ||grad f(x_i)||^2 <= "
    "2L^2||x_i - xbar||^2 + 2||grad f(xbar)||^2, Lemma 4 and C_1^t (Lemma 1's right side) as printed; measured: per "
    "quantity the printed coefficient against the derived one (>=), exact.",
    scope="printed",
    expect="fails",
)
def eq26_gradient_average(ctx: Context) -> Evidence:
    """Instance: the rational grid of :func:`_grid`. Reading: C_1^t as printed with Lemma 4 (6K beta^2, 18K^3).
    Reference: sympy solves the bound for the average: numerator 12KL^2 beta^2 Delta + 6 eta^2K^2L^2(sigma^2 +
    6 lambda^2 + 6K G^2) + 2(1-psi)^2 E||grad f(xbar)||^2 over (1-psi)^2 - 36 eta^2 K^3 B^2 L^2: every printed
    coefficient is smaller (the lambda^2 term is missing)."""
    derived = _forms(ctx)["derived gradient average"]
    return _display_evidence(ctx, ("gradient average",), {"derived (sympy)": sp.sstr(sp.factor(derived))})


@claim(
    f"{PAPER}/eq-26",
    source="eq. (26) and the display before it (proof of Theorem 1)",
    statement="The display after 'According to Lemma 1 and lemma 2' follows from (25), Lemma 1 and Lemma 2; and (26) "
    "follows from it with the printed bound on (1/m) sum_i E||grad f(x_i^t)||^2 (whose denominator is (1-psi)^2 - "
    "24 eta^2 K^3 B^2 L^2), as an inequality ('where we use vary small eta'); measured: per quantity the printed "
    "coefficient against the derived one (>=), exact.",
    scope="printed",
    expect="fails",
)
def eq26(ctx: Context) -> Evidence:
    """Instance: the rational grid of :func:`_grid`. Reading: (25)'s V_1 bounded by Lemma 1's right side (as the
    proof does), V_2 by Lemma 2's. Reference: sympy; the first display matches exactly; (26) replaces the denominator
    by (1-psi)^2, which lowers the coefficients of E||grad f(xbar)||^2, Delta^t, G^2 and sigma^2 for every eta > 0."""
    return _display_evidence(
        ctx,
        ("display after Lemmas 1-2", "(26)"),
        {
            "relative shortfall": "a factor 1 - 24 eta^2 K^3 B^2 L^2/(1-psi)^2 on the terms from the average, O(eta^2)",
            "note": "(25) labels (1/m) sum sum E||xbar^t - x_{i,k}^t||^2 as V_1^t, which Table VI defines with x_i^t "
            "in place of xbar^t; the proof bounds it by Lemma 1 all the same (not checked here)",
        },
    )


# --- (27) ---------------------------------------------------------------------------------------------------------
_ORDER_POINTS = (
    {"K": 3, "L": 2, "B": sp.Rational(3, 2), "psi": sp.Rational(1, 3), "beta": sp.Rational(1, 50), "m": 4},
    {"K": 7, "L": sp.Rational(1, 3), "B": 5, "psi": sp.Rational(4, 5), "beta": sp.Rational(1, 300), "m": 9},
)


def _remainder(at: dict, lam_power: int = 2) -> sp.Expr:
    """(27)'s remainder C_26 x 5 C_2^t/(mu (1 - gamma)) (Lemma 5 times the coefficient of Delta^t) at the constants
    ``at``, eta symbolic, sigma^2 = 1, G^2 = 2, lambda^2 = 3, S2 = 5, M = 7; the lambda^2 term of C_2^t carries
    eta^lam_power (2 as printed)."""
    K_, L_, B_, psi_, beta_, m_ = (at[n] for n in ("K", "L", "B", "psi", "beta", "m"))
    c2 = pf.lem5_C2(
        K=K_, eta=eta, psi=psi_, sigma=1, G=sp.sqrt(2), B=B_, lam=sp.sqrt(3), m=m_, sum_grad_sq=5, mean_grad_sq=7
    )
    c2 += 4 * (2 + 9 * K_**2 / (1 - psi_) ** 2) * 3 * (eta**lam_power - eta**2)
    c26 = C_26.subs({K: K_, L: L_, B: B_, psi: psi_, beta: beta_})
    return c26 * 5 * c2 / (pf.lem5_mu(K_, beta_, psi_) * (1 - pf.lem5_gamma(K_, beta_, psi_)))


def _eta_order(lam_power: int = 2) -> Fraction:
    """The lowest power of eta in (27)'s remainder (a polynomial in eta): the least over two rational points of the
    other constants, where no coefficient vanishes by accident (each is a nonzero rational function of them)."""
    return Fraction(
        min(min(e[0] for e in sp.Poly(sp.expand(_remainder(at, lam_power)), eta).monoms()) for at in _ORDER_POINTS)
    )


@claim(
    f"{PAPER}/eq-27",
    source="eq. (27), from Lemma 5",
    statement="(27): eta L^2 K beta^2 (3 + 72 eta^2 K^3 L^2 B^2/(1-psi)^2) Delta^t <= the same coefficient times "
    "(Delta^t - Delta^{t+1})/(1 - gamma) + O(eta^3): Lemma 5 times a coefficient >= 0, whose remainder (coefficient) x "
    "5 C_2^t/(mu (1 - gamma)) is O(eta^3) as eta -> 0; measured: the lowest power of eta in the remainder (sympy).",
    scope="printed",
    expect="holds",
)
def eq27(ctx: Context) -> Evidence:
    """Instance: symbolic. Reading: mu, gamma free of eta (Lemma 5), C_2^t as printed. Reference: sympy polynomial in
    eta; negative control: C_2^t with its lambda^2 term at eta^1."""
    control = Evidence([_eta_order(1)], Fraction(3), ">=")
    return Evidence(
        measured=[_eta_order()],
        bound=Fraction(3),
        relation=">=",
        witness={
            "negative control": negative_control(control, "a lambda^2 term of order eta in C_2^t"),
            "sign": "the coefficient eta L^2 K beta^2 (3 + ...) is >= 0, so multiplying Lemma 5 by it keeps the "
            "direction; Lemma 5 itself needs gamma < 1 (lem-5:gamma)",
            "hypotheses": "symbolic in every constant; mu and gamma as Lemma 5 prints them",
        },
    )


# --- a run of Algorithm 1 for Delta^t, inside the hypotheses of the (28) step ---------------------------------------
RUN = {"K": 4, "eta": 0.005, "beta": 0.01, "T": 12, "m": 6, "d": 2}


@family(f"{PAPER}/descent-run")
def _run(fam: Family) -> dict:
    """OledFL-SGD (exact gradients) on f_i(x) = ||x - c_i||^2/2 (L = 1, per-client B^2 = 2 and G^2 = 2 max_i
    ||c_i - cbar||^2), ring of 6 clients with weights 1/3 (psi = 2/3), K = 4, eta = 0.005, beta = 0.01, x^0 = 0,
    T = 12 rounds; c_i seeded normal. Records Delta^t, E||grad f(x_i^t)||^2 averaged, S2 and the constants."""
    rng = fam.rng()
    c = rng.standard_normal((RUN["m"], RUN["d"]))
    problem = FederatedQuadratic(np.eye(RUN["d"]), c)
    W, params = ring(RUN["m"]), decentralized.oledfl(RUN["eta"], RUN["K"], RUN["beta"])
    state, oracle = decentralized.init(np.zeros(RUN["d"]), RUN["m"]), ExactGradient(problem)
    deltas, mean_grad, s2 = [], [], []
    for _ in range(RUN["T"] + 1):
        deltas.append(float(np.mean(np.sum((state.x_local - state.x) ** 2, axis=-1))))
        mean_grad.append(float(np.mean(np.sum(problem.grad(state.x[0]) ** 2, axis=-1))))
        new, trace = decentralized.round(state, oracle, W, params, rng, trace=True)
        s2.append(float(np.sum(trace.grads.sum(axis=(0, 2)) ** 2)))
        state = new
    G2_ = 2 * float(np.max(np.sum((c - c.mean(axis=0)) ** 2, axis=1)))
    return {"Delta": np.array(deltas), "M": np.array(mean_grad), "S2": np.array(s2), "psi": W.psi, "G2": G2_, "B2": 2.0}


def _run_constants(ctx: Context) -> dict[sp.Symbol, float]:
    run = _run(ctx)
    return {
        K: RUN["K"],
        L: 1.0,
        B: np.sqrt(run["B2"]),
        psi: run["psi"],
        eta: RUN["eta"],
        beta: RUN["beta"],
        m: RUN["m"],
    }


def _run_hypotheses(ctx: Context) -> dict:
    """Every condition of Theorem 1 and of the proof up to (28), at the run's constants (value, cap)."""
    k, p, e, b = RUN["K"], _run(ctx)["psi"], RUN["eta"], RUN["beta"]
    Bv = np.sqrt(_run(ctx)["B2"])
    gamma = pf.lem5_gamma(k, b, p)
    return {
        "eta <= 1/(K^(3/2) L B), sqrt(3)/(6KL), 1/(6KL), 1/(KL), 1/(2KL), 1/(6KLB)": [
            e,
            float(
                min(
                    pf.thm1_eta_cap(k, 1, Bv),
                    pf.lem1_eta_cap(k, 1),
                    pf.lem4_eta_cap(k, 1),
                    1 / (2 * k),
                    1 / (6 * k * Bv),
                )
            ),
        ],
        "(1-psi)^2 - 24 eta^2 K^3 B^2 L^2 > 0": float((1 - p) ** 2 - 24 * e**2 * k**3 * Bv**2),
        "beta <= Theorem 1's cap": [b, float(pf.thm1_beta_cap(p))],
        "beta^2 <= Lemma 5's cap, (1-psi)^2/(240K), 1/300": [
            b**2,
            float(min(pf.lem5_beta_sq_cap(k, p), (1 - p) ** 2 / (240 * k), 1 / 300)),
        ],
        "gamma < 1, mu > 0": [float(gamma), float(pf.lem5_mu(k, b, p))],
        "kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 > 0": float(pf.kappa(e, k, 1.0, Bv)),
    }


@claim(
    f"{PAPER}/eq-27:omission",
    source="proof of Theorem 1 ('We omit the terms of O(eta^3) in (27) and substitute (27) into (26)')",
    statement="Omitting (27)'s O(eta^3) remainder keeps the upper bound: the remainder C_26 5 C_2^t/(mu(1 - gamma)) "
    "is <= 0; measured: the right side of (27) without it against the right side with it, per round of a run of "
    "Algorithm 1 inside the hypotheses (>=: not lowered).",
    scope="printed",
    expect="fails",
)
def eq27_omission(ctx: Context) -> Evidence:
    """Instance: the run of :func:`_run`. Reading: C_2^t as printed (sigma = lambda = 0, G^2, B^2 of the instance,
    S2 and the gradient average of the run). Reference: the remainder is >= 0 whenever mu > 0 and gamma < 1, > 0 as
    soon as G > 0."""
    run, at = _run(ctx), _run_constants(ctx)
    c26 = float(C_26.subs(at))
    k, e, b, p = RUN["K"], RUN["eta"], RUN["beta"], run["psi"]
    mu, gamma = pf.lem5_mu(k, b, p), pf.lem5_gamma(k, b, p)
    points = Points()
    for t in range(RUN["T"]):
        main = c26 * (run["Delta"][t] - run["Delta"][t + 1]) / (1 - gamma)
        c2 = pf.lem5_C2(
            K=k,
            eta=e,
            psi=p,
            sigma=0.0,
            G=np.sqrt(run["G2"]),
            B=np.sqrt(run["B2"]),
            lam=0.0,
            m=RUN["m"],
            sum_grad_sq=run["S2"][t],
            mean_grad_sq=run["M"][t],
        )
        rem = float(c26 * 5 * c2 / (mu * (1 - gamma)))
        points.add(main, main + rem, t=t, remainder=rem)
    return points.evidence(">=", rtol=ROUNDING, witness={"hypotheses": _run_hypotheses(ctx)})


# --- (28) ---------------------------------------------------------------------------------------------------------
@claim(
    f"{PAPER}/eq-28:delta-term",
    source="eq. (28) from (26) and (27) ('when eta <= 1/(K^{3/2}LB), we have eta^2 K^3 L^2 B^2 <= 1'); Theorem 1's "
    "-chi beta^2",
    statement="Replacing 72 eta^2 K^3 L^2 B^2/(1-psi)^2 by 72/(1-psi)^2 in the coefficient of (Delta^t - Delta^{t+1})/"
    "(1 - gamma) does not lower the right side, per round and after summing over t = 0..T-1 with Delta^0 = 0 (the "
    "-chi beta^2 of Theorem 1); measured: the (28) term against the (26)+(27) term on a run of Algorithm 1 inside "
    "the hypotheses (>=), at t = 0 and summed.",
    scope="printed",
    expect="fails",
)
def eq28_delta(ctx: Context) -> Evidence:
    """Instance: the run of :func:`_run`. Reading: the enlarged coefficient multiplies (Delta^t - Delta^{t+1})/
    (1 - gamma), which is < 0 at t = 0 (Delta^0 = 0 < Delta^1) and sums to -Delta^T/(1 - gamma) <= 0. Reference:
    the run's Delta^t; the valid summed term is -(3 + 72 eta^2 K^3 L^2 B^2/(1-psi)^2) L^2 beta^2 Delta^T/(kappa
    (1 - gamma) T) >= -chi beta^2 (equal only at eta = 1/(K^{3/2} L B) or Delta^T = 0)."""
    run, at = _run(ctx), _run_constants(ctx)
    c26, c28 = float(C_26.subs(at)), float(C_28.subs(at))
    gamma = float(pf.lem5_gamma(RUN["K"], RUN["beta"], run["psi"]))
    D = run["Delta"]
    points = Points()
    for what, change in (("t = 0", D[0] - D[1]), (f"summed, T = {RUN['T']}", D[0] - D[-1])):
        points.add(c28 * change / (1 - gamma), c26 * change / (1 - gamma), step=what, Delta_change=float(change))
    return points.evidence(
        ">=",
        rtol=ROUNDING,
        witness={
            "Delta^t of the run": [float(v) for v in D],
            "coefficients (26)+(27), (28)": [c26, c28],
            "gamma": gamma,
            "hypotheses": _run_hypotheses(ctx),
        },
    )


def _sigma_ratio(K_: float, psi_: float, B_: float, eta_: float) -> float:
    """(28)'s sigma^2 coefficient over (26)'s (L = 1)."""
    s = (1 - psi_) ** 2
    return (2 + 36 / s) / (0.5 + 1.5 * eta_ * K_ + 54 * eta_**3 * K_**4 * B_**2 / s)


def _joint_cap(K_: float, B_: float) -> float:
    """min{1/(2KL), 1/(6KLB), 1/(K^{3/2}LB)} (L = 1): the eta caps in force at (28)."""
    return min(1 / (2 * K_), 1 / (6 * K_ * B_), float(pf.thm1_eta_cap(K_, 1.0, B_)))


@claim(
    f"{PAPER}/eq-28:positive-terms",
    source="eq. (28) from (26) (proof of Theorem 1)",
    statement="Under the eta caps in force at (28) (eta <= 1/(2KL), 1/(6KLB), 1/(K^{3/2}LB)) the G^2 and sigma^2 "
    "coefficients of (28) are at least those of (26) (they multiply G^2, sigma_l^2 >= 0) and the dropped gradient term "
    "(eta^2 L/m^2 - eta/(2Km^2)) S2 is <= 0; measured: ratio (28)/(26) of each coefficient (>= 1) and minus the "
    "dropped coefficient (>= 0), on a grid and by the search (sigma^2).",
    scope="printed",
    expect="holds",
)
def eq28_positive(ctx: Context) -> Evidence:
    """Instance: K in {2, 3, 8, 40}, B in {1, 2}, psi in {0, 0.5, 0.99}, eta = the joint cap and 1/10 of it, L = 1;
    the search over K, psi, B and eta/cap. Reading: the coefficients as printed in (26) and (28). Reference: float64
    closed forms (sympy coefficients of the printed displays)."""
    at = {L: 1, m: 2}
    g26, g28 = sp.lambdify((K, psi, B, eta), sp.diff(EQ_26, G2).subs(at)), sp.lambdify((K, psi, B, eta), G_28.subs(at))
    drop = sp.lambdify((K, eta), sp.diff(EQ_26, S2).subs(at))
    points = Points()
    for k in (2, 3, 8, 40):
        for b in (1.0, 2.0):
            for p in (0.0, 0.5, 0.99):
                for scale in (1.0, 0.1):
                    e = scale * _joint_cap(k, b)
                    row = dict(K=k, B=b, psi=p, eta_over_cap=scale)
                    points.add(g28(k, p, b, e) / g26(k, p, b, e), 1.0, term="G^2", **row)
                    points.add(_sigma_ratio(k, p, b, e), 1.0, term="sigma^2", **row)
                    points.add(-drop(k, e) * 2.0**2, 0.0, term="minus the dropped coefficient x m^2", **row)

    def at_sigma(K, psi, B, rho):
        return _sigma_ratio(K, psi, B, rho * _joint_cap(K, B)), 1.0, {"term": "sigma^2"}

    domain = Domain(
        {
            "K": Axis(2, 10_000, integer=True),
            "psi": Axis(0.0, 0.999, log=False),
            "B": Axis(1.0, 1e3),
            "rho": Axis(1e-3, 1.0),
        },
        note="The proof at (28) allows K >= 2, psi in [0, 1), B >= 1 and eta = rho x the joint cap, rho in (0, 1]; "
        "searched rho from 1e-3 (smaller eta only helps: every eta-dependent part of (26)'s coefficient grows with "
        "eta).",
    )
    points.search(at_sigma, domain, ">=", ctx, scale=4)
    return points.evidence(
        ">=",
        rtol=ROUNDING,
        witness={"hypotheses": "K >= 2, B >= 1, psi in [0, 1), eta at most the joint cap (L = 1 by scaling)"},
    )


@claim(
    f"{PAPER}/eq-28:sigma-at-theorem-cap",
    source="eq. (28) from (26) ('when eta <= 1/(K^{3/2}LB), we have eta^2 K^3 L^2 B^2 <= 1. Therefore'); Theorem 1",
    statement="With only Theorem 1's eta <= 1/(K^{3/2}LB) (the condition the step invokes), (28)'s sigma^2 coefficient "
    "eta^2 LK(2 + 36/(1-psi)^2) is at least (26)'s eta^2 LK(1/2 + (3/2) eta LK + 54 eta^3 K^4 L^3 B^2/(1-psi)^2); "
    "measured: their ratio (>= 1), K in 2..10, B in {1, 1.05, 1.1}, psi in {0, 0.5, 0.9}, eta at the cap, and the "
    "search.",
    scope="printed",
    expect="fails",
)
def eq28_sigma_theorem_cap(ctx: Context) -> Evidence:
    """Instance: the grid in the statement and the search over K, psi, B, eta/cap. Reading: the step's own
    justification, Theorem 1's cap alone. Reference: at the cap the ratio is (2 + 36/s)/(1/2 + 3/(2 sqrt(K) B) +
    54/(sqrt(K) B s)), s = (1-psi)^2: < 1 for every psi iff sqrt(K) B < 3/2, i.e. K = 2 and B < 1.0607; the extra
    cap eta <= 1/(2KL) of the gradient-term step repairs it (eq-28:positive-terms)."""
    points = Points()
    for k in range(2, 11):
        for b in (1.0, 1.05, 1.1):
            for p in (0.0, 0.5, 0.9):
                points.add(_sigma_ratio(k, p, b, float(pf.thm1_eta_cap(k, 1.0, b))), 1.0, K=k, B=b, psi=p, rho=1.0)

    def at(K, psi, B, rho):
        return _sigma_ratio(K, psi, B, rho * float(pf.thm1_eta_cap(K, 1.0, B))), 1.0

    domain = Domain(
        {
            "K": Axis(2, 1000, integer=True),
            "psi": Axis(0.0, 0.999, log=False),
            "B": Axis(1.0, 10.0),
            "rho": Axis(0.5, 1.0, log=False),
        },
        note="Theorem 1 allows K >= 2, B >= 1, psi in [0, 1) and eta = rho/(K^{3/2} L B), rho in (0, 1]; searched rho "
        "from 1/2 (smaller eta only raises the ratio), B to 10 and K to 1000 (larger B or K raise it too).",
    )
    points.search(at, domain, ">=", ctx, scale=4)
    return points.evidence(
        ">=",
        rtol=ROUNDING,
        witness={"hypotheses": "K >= 2 integer, B >= 1, psi in [0, 1), eta = rho/(K^{3/2} L B) <= Theorem 1's cap"},
    )


# --- summing (28): Theorem 1 and Theorem 3 -------------------------------------------------------------------------
SUM_POINT = {"K": 49, "L": 1, "B": 1, "psi": Fraction(1, 2), "beta": Fraction(1, 250)}  # K^{3/2} = 343


def _summed_28(T_: int, at: dict) -> dict[str, Fraction]:
    """(28) summed over t = 0..T_-1 and divided by kappa eta K T_ (Delta^0 = 0), at the constants ``at``: the
    coefficient of each quantity, exact."""
    f, D = sp.symbols(f"f0:{T_ + 1}"), sp.symbols(f"D0:{T_ + 1}")
    kap, gamma = pf.kappa(eta, K, L, B).subs(at), pf.lem5_gamma(K, beta, psi).subs(at)
    c28, g28, s28, l28 = (e.subs(at) for e in (C_28, G_28, SIGMA_28, LAM_28))
    total = sum(
        f[t] - f[t + 1] + c28 * (D[t] - D[t + 1]) / (1 - gamma) + g28 * G2 + s28 * sigma2 + l28 * lam2
        for t in range(T_)
    )
    total = sp.expand(total.subs(D[0], 0) / (kap * at[eta] * at[K] * T_))
    gap0, DT = sp.symbols("gap0 Delta_T")
    total = total.subs({f[0]: gap0 + f[T_], D[T_]: DT})
    return {q: _fraction(sp.diff(total, s)) for q, s in _SUMMED.items()}


_SUMMED = {
    "f(x^0) - f(x^T)": sp.Symbol("gap0"),
    "Delta^T": sp.Symbol("Delta_T"),
    "G^2": G2,
    "sigma^2": sigma2,
    "lambda^2": lam2,
}


def _fraction(x: sp.Expr) -> Fraction:
    value = sp.Rational(x)
    return Fraction(int(value.p), int(value.q))


def _theorem_coefficients(rhs, T_: int, at: dict) -> dict[str, Fraction]:
    """The coefficient of each quantity in a printed bound (printed.thm1_rhs or thm3_rhs) at the constants ``at``."""
    gap0, DT = sp.symbols("gap0 Delta_T")
    expr = rhs(
        gap0=gap0,
        eta=at[eta],
        K=at[K],
        T=T_,
        L=at[L],
        psi=at[psi],
        B=at[B],
        G=sp.sqrt(G2),
        sigma=sp.sqrt(sigma2),
        lam=sp.sqrt(lam2),
        beta=at[beta],
        Delta_T=DT,
    )
    return {q: _fraction(sp.diff(expr, s)) for q, s in _SUMMED.items()}


def _summation_evidence(ctx: Context, rhs, witness: dict) -> Evidence:
    """Printed bound coefficient against (28) summed, at K = 49, eta in {1/343 (the cap), 1/686}, T in {3, 5}."""
    points = Points()
    for T_ in (3, 5):
        for e in (Fraction(1, 343), Fraction(1, 686)):
            at = {**{sp.Symbol(k, positive=True): sp.Rational(v) for k, v in SUM_POINT.items()}, eta: sp.Rational(e)}
            derived, printed = _summed_28(T_, at), _theorem_coefficients(rhs, T_, at)
            for q in derived:
                points.add(printed[q], derived[q], quantity=q, T=T_, eta=e)
    k, p, b = SUM_POINT["K"], SUM_POINT["psi"], SUM_POINT["beta"]
    witness["hypotheses"] = {
        "point": "K = 49, L = B = 1, psi = 1/2, beta = 1/250, eta in {1/343 (Theorem 1's cap), 1/686}",
        "beta^2; Theorem 1's, Lemma 5's and the corner cap": [
            str(b**2),
            str(min((1 - p) ** 2 / 160, Fraction(1, 180))),
            str(min(pf.lem5_beta_sq_cap(k, p), (1 - p) ** 2 / (240 * k), Fraction(1, 300))),
        ],
        "gamma": str(pf.lem5_gamma(k, b, p)),
        "kappa at eta = 1/343, 1/686": [str(pf.kappa(sp.Rational(1, 343 * r), sp.Integer(k), 1, 1)) for r in (1, 2)],
    }
    return points.evidence(">=", witness=witness)


@claim(
    f"{PAPER}/thm-1:summation",
    source="Theorem 1; proof of Theorem 1 ('Taking the accumulation from 0 to T-1')",
    statement="Theorem 1's bound is at least (28) summed over t = 0..T-1 with Delta^0 = 0 and divided by kappa eta K "
    "T, term by term; measured: Theorem 1's coefficient of each quantity against the summed one (>=), exact.",
    scope="printed",
    expect="holds",
)
def thm1_summation(ctx: Context) -> Evidence:
    """Instance: see the hypotheses. Reading: printed.thm1_rhs's coefficients. Reference: sympy sum of (28); the
    lambda^2 term of (28) summed is (1 + 9K^2 eta L) L eta lambda^2/(kappa K): Theorem 1's phi (and the proof's
    summed display) carries it without the 1/K, a factor K looser; every other term is equal."""
    return _summation_evidence(ctx, pf.thm1_rhs, {"lambda^2 ratio": "K (phi lacks the 1/K of the sum)"})


@claim(
    f"{PAPER}/thm-3:bound",
    source="Theorem 3 (appendix restatement of Theorem 1); proof of Theorem 1 (summed display)",
    statement="Theorem 3's bound (lambda term (1 + 9K^2 eta L) L eta^2 lambda^2, no 1/kappa) is at least (28) summed "
    "over t = 0..T-1 with Delta^0 = 0 and divided by kappa eta K T, term by term; measured: Theorem 3's coefficient "
    "of each quantity against the summed one (>=), exact.",
    scope="printed",
    expect="fails",
)
def thm3_bound(ctx: Context) -> Evidence:
    """Instance: see the hypotheses. Reading: printed.thm3_rhs. Reference: sympy sum of (28); Theorem 3's lambda^2
    term is eta kappa K times the summed one (< 1 here): lower, so Theorem 3 does not follow from (28). Printed
    where: Theorem 3 has L eta^2 lambda^2 (1 + 9K^2 eta L); the proof's summed display (1 + 9K^2 eta L) L eta
    lambda^2/kappa, as Theorem 1's phi."""
    return _summation_evidence(
        ctx,
        pf.thm3_rhs,
        {
            "printed where": "Theorem 3: (1 + 9K^2 eta L) L eta^2 lambda^2; summed display and Theorem "
            "1: (1 + 9K^2 eta L) L eta lambda^2/kappa; (28) summed: the same over K"
        },
    )
