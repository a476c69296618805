"""The stability machinery of FedAc (sections 3.4.3 and B.1.3): the two-client difference recursion, the
transformed step matrices and their uniform norm bounds.

All blocks are polynomials in the Hessian H (mu I <= H <= L I), so the block matrices are orthogonally similar to
direct sums of 2x2 matrices in one eigenvalue h; identities are checked in sympy with scalar h, and sup_H of a
spectral norm is the sup over h in [mu, L] of a 2x2 norm (a dense grid, both endpoints and a bounded 1-D
maximiser). The norm bounds are checked on a grid of kappa, eta L and K with the prescribed gamma =
max(sqrt(eta/(mu K)), eta) and also over the whole admissible range gamma in [eta, sqrt(eta/mu)].
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from fedtheory.algorithms import fedac
from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING, SHORT_ROUNDING

from .instability import identity_evidence
from .printed import proof_pattern

PAPER = "yuan-thesis"
mu, gamma, eta, h, L = sp.symbols("mu gamma eta h L", positive=True)
a_inv, b_inv = sp.symbols("alpha_inv beta_inv", positive=True)
GM = gamma * mu


def derived_difference_matrix(alpha_inv, beta_inv) -> sp.Matrix:
    """Claim 3.19 re-derived from Algorithm 2: two clients whose md points see the secant Hessian h (no noise
    term; it enters as -[eta; gamma] Delta_eps). Returns the map [D_ag; D] -> [D_ag+; D+]."""
    d_ag, d = sp.symbols("d_ag d")
    md = beta_inv * d + (1 - beta_inv) * d_ag
    ag_next = md - eta * h * md
    x_next = (1 - alpha_inv) * d + alpha_inv * md - gamma * h * md
    return sp.Matrix([[sp.diff(e, v) for v in (d_ag, d)] for e in (ag_next, x_next)])


CLAIM_319 = sp.Matrix(
    [
        [(1 - b_inv) * (1 - eta * h), b_inv * (1 - eta * h)],
        [(1 - b_inv) * (a_inv - gamma * h), b_inv * (a_inv - gamma * h) + (1 - a_inv)],
    ]
)
A_321 = sp.Matrix([[1 - eta * h, GM * (1 - eta * h)], [-gamma * (h - mu), 1 - gamma**2 * mu * h]]) / (1 + GM)
FEDAC_I = {a_inv: GM, b_inv: GM / (1 + GM)}
ALPHA_II = 3 / (2 * GM) - sp.Rational(1, 2)
FEDAC_II = {a_inv: 1 / ALPHA_II, b_inv: (ALPHA_II - 1) / (2 * ALPHA_II**2 - 1)}
A_B24 = sp.Matrix(
    [
        [(3 - GM) * (3 - 2 * GM) * (1 - eta * h), 3 * GM * (1 - GM) * (1 - eta * h)],
        [(3 - 2 * GM) * (2 * GM - (3 - GM) * gamma * h), 3 * (1 - GM) * ((3 - GM) - gamma**2 * mu * h)],
    ]
) / (9 - GM * (6 + GM))
X = sp.Matrix([[eta / gamma, 0], [1, 1]])
X_INV_PRINTED = sp.Matrix([[gamma / eta, 0], [-gamma / eta, 1]])
B_PRINTED = sp.Matrix(
    [
        [(eta + gamma**2 * mu) * (1 - eta * h), gamma**2 * mu * (1 - eta * h)],
        [-mu * (gamma**2 - eta**2), eta - gamma**2 * mu],
    ]
) / ((1 + GM) * eta)
_DEN_B7 = 9 - (6 + GM) * GM * eta
ATILDE_DISPLAY = sp.Matrix(
    [
        [(3 * gamma**2 * mu * (1 - GM) + eta * (3 - GM) * (3 - 2 * GM)) * (1 - eta * h),
         3 * gamma**2 * mu * (1 - GM) * (1 - eta * h)],
        [-(gamma - eta) * (3 * gamma + 6 * eta - GM * (3 * gamma + 4 * eta)),
         3 * (1 - GM) * (3 * eta - GM * (gamma + eta))],
    ]
) / _DEN_B7  # fmt: skip
ATILDE_BLOCKS = ATILDE_DISPLAY.copy()
ATILDE_BLOCKS[1, 0] = -(gamma - eta) * mu * (3 * gamma + 6 * eta - GM * (3 * gamma + 4 * eta)) / _DEN_B7


@claim(
    f"{PAPER}/claim-3.19",
    source="Claim 3.19",
    statement="For FedAc with any alpha, beta, the difference of two clients obeys [D_ag; D]+ = [[(1 - 1/beta)(I - "
    "eta H), (1/beta)(I - eta H)], [(1 - 1/beta)(I/alpha - gamma H), (1/beta)(I/alpha - gamma H) + (1 - 1/alpha) I]] "
    "[D_ag; D] - [eta I; gamma I] D_eps.",
    scope="printed",
    expect="holds",
)
def claim_319(ctx: Context) -> Evidence:
    """Two clients of Algorithm 2 whose md points see a secant Hessian h: the difference map re-derived symbolically
    (alpha, beta, gamma, eta, h symbolic) against the printed matrix, reduced exactly by sympy."""
    return identity_evidence({"derived - printed": derived_difference_matrix(a_inv, b_inv) - CLAIM_319})


@claim(
    f"{PAPER}/prop-3.15",
    source="Proposition 3.15, (3.21)",
    statement="With alpha = 1/(gamma mu), beta = alpha + 1, Claim 3.19's matrix is A(mu, gamma, eta, H) = (1/(1 + "
    "gamma mu)) [[I - eta H, gamma mu (I - eta H)], [-gamma (H - mu I), I - gamma^2 mu H]].",
    scope="printed",
    expect="holds",
)
def prop_315(ctx: Context) -> Evidence:
    """Claim 3.19's matrix at FedAc-I's alpha = 1/(gamma mu), beta = alpha + 1 against (3.21), in sympy (exact). The
    display's state vector [D_ag; D_eps] is read as [D_ag; D]: D_eps in the state is a notational slip (the noise
    difference enters as the input term), not checked as a claim of its own."""
    ev = identity_evidence({"Claim 3.19 (FedAc-I) - (3.21)": CLAIM_319.subs(FEDAC_I) - A_321})
    ev.witness["state vector"] = (
        "the display applies A to [D_ag; D_eps] and returns [D_ag; D_eps]+; Claim 3.19 (and the proof of "
        "Proposition 3.17) use [D_ag; D]: D_eps in the state is a typo (the noise difference is not a state)"
    )
    return ev


@claim(
    f"{PAPER}/prop-b.6",
    source="Proposition B.6, (B.24)",
    statement="With FedAc-II's alpha = 3/(2 gamma mu) - 1/2, beta = (2 alpha^2 - 1)/(alpha - 1), Claim 3.19's "
    "matrix is (B.24).",
    scope="printed",
    expect="holds",
)
def prop_b6(ctx: Context) -> Evidence:
    """Claim 3.19's re-derived matrix at FedAc-II's alpha = 3/(2 gamma mu) - 1/2, beta = (2 alpha^2 - 1)/(alpha - 1)
    against (B.24), reduced exactly by sympy with scalar h."""
    return identity_evidence({"Claim 3.19 (FedAc-II) - (B.24)": CLAIM_319.subs(FEDAC_II) - A_B24})


@claim(
    f"{PAPER}/eq-3.22",
    source="(3.22), and the proofs of Propositions 3.16 and 3.17",
    statement="X(gamma, eta) = [[(eta/gamma) I, 0], [I, I]] has inverse [[(gamma/eta) I, 0], [-(gamma/eta) I, I]], "
    "and X^-1 [eta I; gamma I] = [gamma I; 0].",
    scope="printed",
    expect="holds",
)
def eq_322(ctx: Context) -> Evidence:
    """X^-1 and X^-1 [eta; gamma] computed by sympy against the printed matrices (scalar blocks: the blocks are
    multiples of I), exactly."""
    return identity_evidence(
        {
            "X^-1 - printed": X.inv() - X_INV_PRINTED,
            "X^-1 [eta; gamma] - [gamma; 0]": X.inv() * sp.Matrix([eta, gamma]) - sp.Matrix([gamma, 0]),
        }
    )


@claim(
    f"{PAPER}/prop-3.16:B",
    source="proof of Proposition 3.16 (the matrix B)",
    statement="B = X^-1 A X = (1/((1 + gamma mu) eta)) [[(eta + gamma^2 mu)(I - eta H), gamma^2 mu (I - eta H)], "
    "[-mu (gamma^2 - eta^2) I, (eta - gamma^2 mu) I]].",
    scope="printed",
    expect="holds",
)
def prop_316_b(ctx: Context) -> Evidence:
    """X^-1 A(3.21) X computed by sympy with scalar h (A is a polynomial in H, so one eigenvalue h suffices)
    against the printed B, exactly."""
    return identity_evidence({"X^-1 A X - printed B": X.inv() * A_321 * X - B_PRINTED})


@claim(
    f"{PAPER}/prop-b.7:atilde",
    source="proof of Proposition B.7 (the display of A~ and its separately printed blocks)",
    statement="A~ = X^-1 A(B.24) X equals the printed display and the separately printed blocks, both with the "
    "prefactor 1/(9 - (6 + gamma mu) gamma mu eta).",
    scope="printed",
    expect="fails",
)
def prop_b7_atilde(ctx: Context) -> Evidence:
    """X^-1 A(B.24) X computed by sympy with scalar h against the printed display and the separately printed blocks,
    exactly."""
    computed = X.inv() * A_B24 * X
    ev = identity_evidence(
        {
            "computed - display (line 3644)": computed
            - ATILDE_DISPLAY,  # item names are witness keys (compared): unchanged
            "computed - blocks (line 3648)": computed - ATILDE_BLOCKS,
        }
    )
    ev.witness["why"] = (
        "the prefactor must be 1/(eta (9 - (6 + gamma mu) gamma mu)) (eta multiplies the whole bracket); the display's "
        "A~_21 also lacks the factor mu that the blocks have (prop-b.7:atilde-corrected)"
    )
    point = {mu: sp.Rational(1, 10), eta: sp.Rational(1, 2), gamma: sp.Rational(1, 1), h: sp.Rational(1, 2)}
    ev.witness["hypotheses"] = {
        "admissible point (L = 1)": "mu = 1/10, eta = 1/2 <= 1/L, gamma = 1 in [eta, sqrt(eta/mu)], h = 1/2 in [mu, L]",
        "largest entry of |computed - blocks| there": str(max(abs(x) for x in (computed - ATILDE_BLOCKS).subs(point))),
    }
    return ev


@claim(
    f"{PAPER}/prop-b.7:atilde-corrected",
    source="proof of Proposition B.7 (the blocks of A~), with the prefactor 1/(eta (9 - (6 + gamma mu) gamma mu))",
    statement="Corrected: with the prefactor 1/(eta (9 - (6 + gamma mu) gamma mu)) the printed blocks equal "
    "X^-1 A(B.24) X exactly; the display needs in addition the factor mu in A~_21.",
    scope="corrected",
    expect="holds",
)
def prop_b7_atilde_corrected(ctx: Context) -> Evidence:
    """X^-1 A(B.24) X against the printed blocks and display with the corrected prefactor (and the factor mu in the
    display's A~_21), in sympy (exact)."""
    fix = _DEN_B7 / (eta * (9 - GM * (6 + GM)))
    display = ATILDE_DISPLAY * fix
    display[1, 0] = display[1, 0] * mu
    computed = X.inv() * A_B24 * X
    return identity_evidence(
        {
            "computed - blocks, corrected prefactor": computed - ATILDE_BLOCKS * fix,
            "computed - display, corrected": computed - display,
        }
    )


# --------------------------------------------------------------------------------------------------
# Uniform norm bounds over mu I <= H <= L I
# --------------------------------------------------------------------------------------------------


def _entrywise(matrix: sp.Matrix):
    """A 2x2 sympy matrix of (mu, gamma, eta, h) as a numpy function broadcasting over array arguments."""
    entries = [sp.lambdify((mu, gamma, eta, h), e, "numpy") for e in matrix]
    return lambda *args: np.broadcast_arrays(*[f(*args) for f in entries], *args)[:4]


_B_NUM = _entrywise(B_PRINTED)
_ATILDE_NUM = _entrywise(X.inv() * A_B24 * X)
H_GRID = np.linspace(0.0, 1.0, 65)  # h = mu + (L - mu) s: both endpoints and 63 points between


def _sup_norm(matrix, mu_, g_, e_, L_) -> float:
    """sup over h in [mu, L] of the spectral norm of a 2x2 matrix function of h: the matrix is affine in h, so its
    norm is convex in h and the sup is at an endpoint; taken over a 65-point grid including both. The largest singular
    value of [[a, b], [c, d]] is (sqrt((a + d)^2 + (b - c)^2) + sqrt((a - d)^2 + (b + c)^2))/2, free of cancellation."""
    a, b, c, d = matrix(mu_, g_, e_, mu_ + (L_ - mu_) * H_GRID)
    return float(np.max(np.hypot(a + d, b - c) + np.hypot(a - d, b + c)) / 2)


def _gammas(quick: bool):
    """(kappa, eta L, K or None, gamma): the prescribed gamma for K in a range, and the admissible range's edges."""
    for kappa in (1.0, 25.0, 1e2, 1e4) if quick else (1.0, 4.0, 25.0, 1e2, 1e3, 1e4, 1e6):
        for eta_L in (1.0, 0.5, 0.1, 0.01) if quick else (1.0, 0.5, 0.25, 0.1, 0.03, 0.01, 0.001):
            mu_, eta_ = 1.0 / kappa, eta_L
            for K in (1, 4, 64, 4096):
                yield kappa, eta_L, K, max(np.sqrt(eta_ / (mu_ * K)), eta_)
            for frac in (0.0, 0.5, 1.0):
                lo, hi = eta_, np.sqrt(eta_ / mu_)
                yield kappa, eta_L, None, lo + frac * (hi - lo)


def _printed_uniform_bound(factor: float, mu_, g_, eta_) -> float:
    """1 for gamma = eta (up to the rounding of max(sqrt(eta/(mu K)), eta) and of the range's lower edge), else 1 +
    factor gamma^2 mu/eta."""
    return 1.0 if np.isclose(g_, eta_, rtol=1e-15) else 1 + factor * g_**2 * mu_ / eta_


UNIFORM_DOMAIN = Domain(
    {"kappa": Axis(1.0, 1e8), "eta_L": Axis(1e-8, 1.0), "gamma position": Axis(0.0, 1.0, log=False)},
    note="Propositions 3.16 and B.7 hold for every mu > 0, eta in (0, 1/L] and gamma in [eta, sqrt(eta/mu)] "
    "('gamma position' 0 to 1, linearly; 0 is the case gamma = eta): L = 1 by scaling (the transformed matrix depends "
    "on gamma mu, eta h and gamma^2 mu/eta only), kappa = L/mu from 1 to 1e8, eta L from 1e-8. Nothing left out: the "
    "sup over mu I <= H <= L I is the sup over one eigenvalue h (the blocks are polynomials in H).",
)


def _uniform_bound(ctx: Context, matrix, factor: float) -> Evidence:
    points = Points()
    for kappa, eta_L, K, g_ in _gammas(ctx.quick):
        mu_, eta_ = 1.0 / kappa, eta_L
        sup = _sup_norm(matrix, mu_, g_, eta_, 1.0)
        where = {"kappa": kappa, "eta_L": eta_L, "K": K if K is not None else "range", "gamma / eta": g_ / eta_}
        points.add(sup, _printed_uniform_bound(factor, mu_, g_, eta_), **where)

    def at(kappa, eta_L, **position):
        mu_, eta_ = 1.0 / kappa, eta_L
        g_ = eta_ + position["gamma position"] * (np.sqrt(eta_ / mu_) - eta_)
        bound = _printed_uniform_bound(factor, mu_, g_, eta_)
        return _sup_norm(matrix, mu_, g_, eta_, 1.0), bound, {"gamma / eta": g_ / eta_}

    points.search(at, UNIFORM_DOMAIN, "<=", ctx, scale=8)  # an evaluation is ~0.1 ms
    hypotheses = "mu > 0 (kappa >= 1), eta in (0, 1/L] and gamma in [eta, sqrt(eta/mu)] at every entry, L = 1"
    return points.evidence("<=", rtol=ROUNDING, witness={"hypotheses": hypotheses})


@claim(
    f"{PAPER}/prop-3.16",
    source="Proposition 3.16",
    statement="sup_{mu I <= H <= L I} ||X^-1 A(3.21) X||_2 <= 1 + 2 gamma^2 mu/eta for gamma in (eta, sqrt(eta/mu)], "
    "and <= 1 for gamma = eta (L = 1; kappa up to 1e4, eta L in [0.01, 1], prescribed gamma for K in {1, 4, 64, 4096} "
    "and the admissible range's edges and midpoint; a witness search over kappa up to 1e8, eta L from 1e-8 and every "
    "admissible gamma).",
    scope="printed",
    expect="holds",
)
def prop_316(ctx: Context) -> Evidence:
    """sup over h in [mu, L] of the 2x2 spectral norm of B (:func:`_sup_norm`, float64), L = 1, over a grid of kappa,
    eta L and gamma and by the witness search over :data:`UNIFORM_DOMAIN`, against the printed bound."""
    return _uniform_bound(ctx, _B_NUM, 2.0)


@claim(
    f"{PAPER}/prop-b.7",
    source="Proposition B.7",
    statement="sup_H ||X^-1 A(B.24) X||_2 <= 1 + gamma^2 mu/eta for gamma in (eta, sqrt(eta/mu)], and <= 1 for "
    "gamma = eta (grid and witness search as prop-3.16).",
    scope="printed",
    expect="holds",
)
def prop_b7(ctx: Context) -> Evidence:
    """sup over h in [mu, L] of the 2x2 spectral norm of X^-1 A(B.24) X (:func:`_sup_norm`, float64) on the grid of
    prop-3.16 and by the witness search over :data:`UNIFORM_DOMAIN`, against the printed bound."""
    return _uniform_bound(ctx, _ATILDE_NUM, 1.0)


@claim(
    f"{PAPER}/prop-3.16:case-ii",
    source="proof of Proposition 3.16, Case II",
    statement="For gamma = eta the block bound (1 + eta mu - 2 eta^2 mu^2)/(1 + eta mu) (<= 1) bounds sup_H ||B||_2 "
    "(grid, and a witness search over kappa up to 1e8 and eta L from 1e-8).",
    scope="printed",
    expect="holds",
)
def prop_316_case_ii(ctx: Context) -> Evidence:
    """sup over h in [mu, L] of ||B||_2 at gamma = eta (:func:`_sup_norm`, float64), L = 1, kappa up to 10^4 and eta L
    in [1e-3, 1], then the witness search over every kappa and eta, against the block bound of the proof."""

    def at(kappa, eta_L):
        em = eta_L / kappa
        return _sup_norm(_B_NUM, 1.0 / kappa, eta_L, eta_L, 1.0), (1 + em - 2 * em**2) / (1 + em)

    points = Points()
    for kappa in (1.0, 25.0, 1e2, 1e4):
        for eta_L in np.geomspace(1e-3, 1.0, 7 if ctx.quick else 25):
            points.add(*at(kappa, float(eta_L)), kappa=kappa, eta_L=float(eta_L))
    domain = Domain(
        {"kappa": Axis(1.0, 1e8), "eta_L": Axis(1e-8, 1.0)},
        note="Case II is gamma = eta for every mu > 0 and eta in (0, 1/L]: L = 1 by scaling, kappa = L/mu from 1 to "
        "1e8, eta L from 1e-8; nothing left out.",
    )
    points.search(at, domain, "<=", ctx, scale=8)  # an evaluation is ~0.1 ms
    return points.evidence("<=", rtol=ROUNDING, witness={"hypotheses": "gamma = eta in (0, 1/L], mu <= L = 1"})


@claim(
    f"{PAPER}/eq-3.25",
    source="proof of Lemma 3.10, (3.25)",
    statement="With gamma = sqrt(eta/(mu K)) the per-step factor 1 + 2 gamma^2 mu/eta is 1 + 2/K and the squared "
    "growth over a round (1 + 2/K)^(2K) <= e^4, for every K >= 1.",
    scope="printed",
    expect="holds",
)
def eq_325(ctx: Context) -> Evidence:
    """The factor simplified by sympy; (1 + 2/K)^(2K) in float64 (through log1p) for integer K on a geometric grid
    from 1 to 10^9, against e^4."""
    K = sp.Symbol("K", positive=True)
    factor = sp.simplify(1 + 2 * (eta / (mu * K)) * mu / eta)
    Ks = np.unique(np.geomspace(1, 1e9, 200).astype(np.int64))
    growth = np.exp(2 * Ks * np.log1p(2 / Ks))  # log1p: no cancellation in 1 + 2/K for large K

    def evidence(bound):
        return Evidence(measured=growth, bound=bound, relation="<=", rtol=SHORT_ROUNDING, grid={"K": Ks})

    ev = evidence(np.e**4)
    ev.witness = {
        "factor (sympy)": str(factor),
        "limit K -> inf": "e^4 (increasing in K)",
        "negative control": negative_control(evidence(np.e**3.9), "e^4 replaced by e^3.9"),
    }
    return ev


@claim(
    f"{PAPER}/prop-3.16:on-agd-instance",
    source="Propositions 3.15-3.16 on the certified instances of Theorem 3.8 (a check of our own)",
    statement="On the instances built to make AGD unstable (kappa = 25, 100, 10^4, 60 steps), noiseless FedAc-I with "
    "eta = 1/L and K in {1, 4, 16, 64} (gamma = max(1/sqrt(L mu K), eta)) keeps ||X^-1 [D_ag; D]_t|| <= (1 + 2 gamma^2 "
    "mu/eta)^t ||X^-1 [D_ag; D]_0|| for two starts eps apart (exact rationals); K = 1 is AGD.",
    scope="printed",
    expect="holds",
)
def prop_316_on_instance(ctx: Context) -> Evidence:
    """Noiseless FedAc-I runs (exact rationals, 60 steps) from two starts eps apart on the certified Theorem 3.8
    instances (kappa = 25, 100, 10^4); the largest ratio over t = 1..60 of the X-norm of the difference to the printed
    growth (1 + 2 gamma^2 mu/eta)^t, in float64, against 1."""
    from fractions import Fraction

    from fedtheory.exact import agd_instability as ins

    points, growth = Points(), {}
    for s in (5, 10, 100):
        inst = ins.build(s, proof_pattern(20))
        L_, w0 = inst.objective.L, Fraction(1)
        eta_ = 1 / L_
        for K in (1, 4, 16, 64):
            root = int(np.sqrt(K))
            gamma_ = max(Fraction(1, s * root), eta_)  # sqrt(eta/(mu K)) with mu = 1, L = s^2
            a_inv, b_inv = fedac.inverse_coefficients(gamma_)  # gamma mu with mu = 1
            params = {"alpha_inv": a_inv, "beta_inv": b_inv, "eta": eta_, "gamma": gamma_}
            w = ins.generalized_agd(inst.objective, w0, w0, 60, **params)
            u = ins.generalized_agd(inst.objective, w0 - inst.eps, w0 - inst.eps, 60, **params)
            factor = 1 + 2 * gamma_**2 / eta_

            def xnorm(t, w=w, u=u, gamma_=gamma_, eta_=eta_):
                d_ag, d = w.x_ag[t] - u.x_ag[t], w.x[t] - u.x[t]
                return float((gamma_ / eta_ * d_ag) ** 2 + (d - gamma_ / eta_ * d_ag) ** 2) ** 0.5

            ratios = [xnorm(t) / (xnorm(0) * float(factor) ** t) for t in range(1, 61)]
            points.add(max(ratios), kappa=s * s, K=K)
            growth[f"kappa={s * s}, K={K}"] = {
                "per-step bound": float(factor),
                "|D_x| growth over 60 steps": float(abs(w.x[-1] - u.x[-1]) / inst.eps),
            }
    return points.evidence(
        "<=",
        bound=1.0,
        rtol=SHORT_ROUNDING,
        witness={"measured": "max over t >= 1 of the X-norm growth over (1 + 2 gamma^2 mu/eta)^t", "runs": growth},
    )


def admissible_points(quick: bool):
    """(mu, eta, gamma) over the admissible region mu > 0, eta in (0, 1/L], gamma in [eta, sqrt(eta/mu)], L = 1."""
    for mu_ in (1.0, 0.1, 1e-2, 1e-4) if quick else (1.0, 0.3, 0.1, 1e-2, 1e-3, 1e-4, 1e-6):
        for eta_ in np.geomspace(1e-4, 1.0, 5 if quick else 13):
            lo, hi = eta_, np.sqrt(eta_ / mu_)
            for frac in np.linspace(0, 1, 5 if quick else 11):
                yield mu_, float(eta_), float(lo + frac * (hi - lo))


VECTOR_DOMAIN = Domain(
    {"eta mu": Axis(1e-12, 1.0), "gamma position": Axis(0.0, 1.0, log=False)},
    note="Claims 3.21, 3.22 and B.11 hold for every mu > 0 and gamma in [eta, sqrt(eta/mu)] ('gamma position' 0 to "
    "1, linearly), with eta <= 1/L <= 1/mu (Claims 3.21, 3.22; Claim B.11 needs only eta mu <= 1 for the range to "
    "be non-empty): the vector and both bounds depend on gamma mu and eta/gamma only, so mu = 1 and eta mu runs "
    "from 1e-12 to 1; nothing left out.",
)


def _vector_norm_claim(ctx: Context, vector, bound) -> Evidence:
    def at(mu_, eta_, g_):
        Xn = np.array([[eta_ / g_, 0.0], [1.0, 1.0]])
        return float(np.linalg.norm(Xn.T @ vector(mu_, g_, eta_))), bound(mu_, g_, eta_)

    points = Points()
    for mu_, eta_, g_ in admissible_points(ctx.quick):
        points.add(*at(mu_, eta_, g_), mu=mu_, eta=eta_, gamma=g_)

    def search_at(**p):
        eta_ = p["eta mu"]  # mu = 1
        g_ = eta_ + p["gamma position"] * (np.sqrt(eta_) - eta_)
        return (*at(1.0, eta_, g_), {"gamma mu": g_})

    points.search(search_at, VECTOR_DOMAIN, "<=", ctx, scale=8)  # an evaluation is ~10 us
    hypotheses = "mu > 0, eta mu in (0, 1], gamma in [eta, sqrt(eta/mu)] at every entry"
    return points.evidence("<=", rtol=SHORT_ROUNDING, witness={"hypotheses": hypotheses})


@claim(
    f"{PAPER}/claim-3.21",
    source="Claim 3.21",
    statement="||X(gamma, eta)' [1/(1 + gamma mu); gamma mu/(1 + gamma mu)]|| <= sqrt(5) eta/gamma over the admissible "
    "region (mu > 0, eta in (0, 1/L], gamma in [eta, sqrt(eta/mu)]; a grid and a witness search over the whole "
    "region).",
    scope="printed",
    expect="holds",
)
def claim_321(ctx: Context) -> Evidence:
    """The 2-vector norm in float64 over a grid of the admissible region (mu, eta, gamma; L = 1) and by the witness
    search over :data:`VECTOR_DOMAIN`, against the printed closed form."""
    return _vector_norm_claim(
        ctx, lambda m, g, e: np.array([1, g * m]) / (1 + g * m), lambda m, g, e: np.sqrt(5) * e / g
    )


@claim(
    f"{PAPER}/claim-3.22",
    source="Claim 3.22",
    statement="||X(gamma, eta)' [gamma mu/(1 + gamma mu); 1/(1 + gamma mu)]|| <= sqrt(2) over the admissible region "
    "(a grid and a witness search).",
    scope="printed",
    expect="holds",
)
def claim_322(ctx: Context) -> Evidence:
    """The 2-vector norm in float64 over the admissible grid of claim-3.21 (mu, eta, gamma; L = 1) and by the witness
    search over :data:`VECTOR_DOMAIN`, against sqrt(2)."""
    return _vector_norm_claim(ctx, lambda m, g, e: np.array([g * m, 1]) / (1 + g * m), lambda m, g, e: np.sqrt(2))


@claim(
    f"{PAPER}/claim-b.11",
    source="Claim B.11",
    statement="||X(gamma, eta)' [1 - 1/beta; 1/beta]|| <= sqrt(17) eta/(3 gamma) for FedAc-II's beta over the "
    "admissible region (a grid and a witness search).",
    scope="printed",
    expect="holds",
)
def claim_b11(ctx: Context) -> Evidence:
    """The 2-vector norm with FedAc-II's beta in float64 over the admissible grid of claim-3.21 and by the witness
    search over :data:`VECTOR_DOMAIN`, against the printed closed form."""

    def vector(m, g, e):
        gm = g * m
        den = 9 - 6 * gm - gm**2
        return np.array([9 - 9 * gm + 2 * gm**2, 3 * gm - 3 * gm**2]) / den

    return _vector_norm_claim(ctx, vector, lambda m, g, e: np.sqrt(17) * e / (3 * g))


@claim(
    f"{PAPER}/lem-3.10:const",
    source="proof of Lemma 3.10 (2 sqrt(10) < 7); Lemma 3.24's (289/324) 49 < 44 is lem-3.24:const",
    statement="2 sqrt(10) < 7.",
    scope="printed",
    expect="holds",
)
def lem_310_const(ctx: Context) -> Evidence:
    """The constant of the proof of Lemma 3.10: 2 sqrt(10) in float64 against 7 (strict; the margin is far above
    rounding), with the same check against 6 as negative control."""
    control = negative_control(Evidence(measured=2 * np.sqrt(10), bound=6.0, relation="<"), "7 replaced by 6")
    return Evidence(measured=2 * np.sqrt(10), bound=7.0, relation="<", witness={"negative control": control})
