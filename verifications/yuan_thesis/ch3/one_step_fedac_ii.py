"""FedAc-II's one-step blocks and discrepancy bounds (appendix B.1.2-B.1.4), FedAvg's one step under Assumption 3.2
(Proposition B.20), the third-order discrepancy bound (3.30)-(3.31), and FedAc-I's discrepancy bound (Proposition
3.18, Claim 3.20), all at arbitrary client states, each with a witness search over the states and hyperparameters its
hypotheses allow (on a 1-D quadratic or log-cosh objective).

Instances:

* the quadratic with additive Gaussian noise and the one-sample l2-logistic regression (n = 30, d = 4) of
  :mod:`.one_step`, with its random states and hyperparameters; conditional expectations are exact (mean part plus
  noise variance; finite averages over the n samples);
* a smaller one-sample l2-logistic regression (n = 5, d = 3) for E F(xbar_ag+) in (B.9), which needs the law of
  the average of M independent samples: an exact average over all n^M sample tuples;
* the 1-D objective (A.15) of ``fedtheory.problems.logcosh`` (L = 1, mu = 1/2, Q = 1) and a separable sum of
  three such coordinates with (L_j, Q_j) = (1, 1), (0.2, 0.3), (0.02, 0.05): L = 1, mu = 0.01, Q = 1 (the
  Hessian is diagonal with entries Q_j-Lipschitz, so it is Q-Lipschitz in the operator norm, which gives both the
  printed Assumption 3.2(a) and Lemma A.14's form ||grad F(y) - grad F(x) - H(x)(y - x)|| <= (Q/2)||y - x||^2).

The two-client bounds (Proposition 3.18, Claims 3.20 and B.10, Propositions B.9 and B.17) are printed for the
difference Delta of "two arbitrary distinct machines"; their proofs bound the M-client average by one pair "by
convexity", and Lemmas 3.10, 3.24 and B.14 then use them in expectation, where every pair has the same law. At
fixed states the form that this use needs, and that the proofs' steps give, is the average over distinct ordered
pairs (m1, m2) of ||X^-1 [Delta_ag; Delta]||^p (p = 2 or 4); that is what is checked (it implies the max-over-pairs
form). The literal "any pair" reading is false at fixed states for M >= 3 (two equal clients and a third one);
each witness reports how often the min over pairs falls below the left side. M = 1 has no pair and a zero left
side, so these claims use M in {2, 4}.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from fedtheory.algorithms import fedac
from fedtheory.harness.claims import Context, Evidence, claim, negative_control, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING
from fedtheory.problems import FederatedQuadratic, LogCoshQuadratic, LogisticRegression, logistic_data
from fedtheory.reference import logistic_optimum

from .eigen_instances import gamma_between
from .one_step import (
    PAPER,
    STATE_DOMAIN,
    LogisticCase,
    QuadraticCase,
    one_step_draws,
    one_step_problems,
    state_instance,
)
from .stability import admissible_points

#: Rounding tolerance of the floating-point comparisons, relative to their rounding scale (the sum of the magnitudes
#: of all terms, or :func:`_rounding_scale`).
ROUND = 1e-10


# --------------------------------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------------------------------


class _SmallLogistic(LogisticCase):
    """One-sample l2-logistic regression small enough to enumerate the n^M sample tuples of M clients."""

    name = "one-sample l2-logistic regression, n = 5"

    def __init__(self, rng):
        data = logistic_data(rng, n_clients=1, n_per_client=5, dim=3, l2=0.05)
        self.p = LogisticRegression(data.features[0], data.labels[0], l2=0.05)
        self.ref = logistic_optimum(self.p)
        X = self.p.features[0]
        self.sigma2 = float(np.mean(np.sum(X**2, axis=1)))
        self.L = float(np.linalg.eigvalsh(X.T @ X / X.shape[0]).max() / 4 + 0.05)
        self.mu, self.x_star = 0.05, self.ref.x


class _SeparableLogCosh:
    """``F(x) = sum_j F_j(x_j)`` with ``F_j`` the instance (A.15) with constants ``(L_j, Q_j)``: L = max L_j,
    mu = min L_j / 2, Q = max Q_j, x* = 0, F* = 0."""

    def __init__(self, Ls, Qs):
        self.parts = [LogCoshQuadratic(a, b) for a, b in zip(Ls, Qs)]
        self.L, self.mu, self.Q = max(Ls), min(Ls) / 2, max(Qs)
        self.x_star = np.zeros(len(self.parts))
        self.name = f"log-cosh (A.15), d = {len(Ls)}, L_j = {list(Ls)}, Q_j = {list(Qs)}"

    def grad(self, x):
        """``grad F(x)`` for ``x`` of shape ``(..., d)``."""
        return np.stack([p.grad(x[..., j : j + 1])[..., 0] for j, p in enumerate(self.parts)], axis=-1)

    def gap(self, x):
        """``F(x) - F* = F(x)``."""
        return sum(p.value(x[..., j : j + 1]) for j, p in enumerate(self.parts))

    def hessian_diag(self, x):
        """The diagonal of ``grad^2 F(x)``."""
        return np.stack([p.hessian_1d(x[..., j]) for j, p in enumerate(self.parts)], axis=-1)


LOGCOSH = (_SeparableLogCosh((1.0,), (1.0,)), _SeparableLogCosh((1.0, 0.2, 0.02), (1.0, 0.3, 0.05)))


@family(f"{PAPER}/one-step-fedac-ii:small-logistic")
def _small_logistic(fam: Family) -> _SmallLogistic:
    """The n = 5 instance (its certified optimum is computed once; the same in both profiles)."""
    return _SmallLogistic(fam.rng())


# --------------------------------------------------------------------------------------------------
# Propositions B.4 and B.5: one step of the centralized quantities, exact conditional expectations
# --------------------------------------------------------------------------------------------------


def _b45_draws(ctx: Context, prob):
    """The random states and general hyperparameters of :func:`.one_step.one_step_draws` (alpha, beta >= 1, eta <= 1/L,
    any gamma > 0), each followed by the same states with FedAc-II's (alpha, beta) at a gamma in [eta,
    sqrt(eta/mu)] (an endpoint or a uniform point, with equal probability)."""
    rng = np.random.default_rng(seed_for(f"{PAPER}/one-step-fedac-ii:draws:{prob.name}"))
    for M, x, x_ag, a, b, eta_, gamma_ in one_step_draws(ctx, prob):
        yield "general", M, x, x_ag, a, b, eta_, gamma_
        u = float(rng.choice([0.0, 1.0, rng.uniform()]))
        g2 = eta_ + u * (np.sqrt(eta_ / prob.mu) - eta_)
        a2, b2 = fedac.inverse_coefficients(g2 * prob.mu, "FedAc-II")
        yield "FedAc-II", M, x, x_ag, a2, float(b2), eta_, g2


def _expected_gap_of_average(prob, md, eta_) -> float:
    """``E F(xbar_md - eta (1/M) sum_m g_m) - F*`` with independent one-sample gradients ``g_m`` at ``md[m]``.

    Quadratic: ``gap(mean) + eta^2 tr(A C)/(2M)``. Logistic: the exact average over all ``n^M`` sample tuples.
    """
    M = md.shape[0]
    if isinstance(prob, QuadraticCase):
        mean = md.mean(0) - eta_ * prob.grad(md).mean(0)
        return float(prob.gap(mean)) + 0.5 * eta_**2 * float(np.trace(prob.p.A_mean @ prob.C)) / M
    g = prob.samples(md)  # (M, n, d)
    idx = np.indices((g.shape[1],) * M).reshape(M, -1)  # every sample tuple (i_1, ..., i_M)
    avg = g[np.arange(M)[:, None], idx].mean(axis=0)  # (n^M, d)
    return float(prob.gap(md.mean(0) - eta_ * avg).mean())


def _b45_sides(prob, which: str, x, x_ag, a, b, eta_, gamma_) -> tuple[float, list[float]]:
    """The exact left side and the right side's terms of (B.8) (``which = "B.8"``) or (B.9) at client states ``x``,
    ``x_ag`` (M, d) with 1/alpha = ``a``, 1/beta = ``b``."""
    M = x.shape[0]
    md = b * x + (1 - b) * x_ag
    g = prob.grad(md)  # (M, d)
    xbar, agbar, mdbar = x.mean(0), x_ag.mean(0), md.mean(0)
    g_md = prob.grad(mdbar)
    disc = float(np.sum((g_md - g.mean(0)) ** 2))
    if which == "B.8":
        mean = (1 - a) * xbar + a * mdbar - gamma_ * g.mean(0) - prob.x_star
        lhs = float(mean @ mean) + prob.step_moments(md, gamma_) / M**2
        c = a * (1 - b)
        return lhs, [
            (1 - a / 2) * float(np.sum((xbar - prob.x_star) ** 2)),
            1.5 * a * float(np.sum((mdbar - prob.x_star) ** 2)),
            1.5 * gamma_**2 * float(g_md @ g_md),
            -2 * gamma_ * (1 + a / 2) * float(g_md @ ((1 - c) * xbar + c * agbar - prob.x_star)),
            gamma_**2 * (1 + 2 / a) * disc,
            gamma_**2 * prob.sigma2 / M,
        ]
    w = 2 * b / a  # 2 alpha / beta
    return _expected_gap_of_average(prob, md, eta_), [
        (1 - a / 2) * float(prob.gap(agbar)),
        -0.25 * prob.mu * a * float(np.sum((mdbar - prob.x_star) ** 2)),
        -0.5 * eta_ * float(g_md @ g_md),
        0.5 * a * float(g_md @ (w * xbar + (1 - w) * agbar - prob.x_star)),
        0.5 * eta_ * disc,
        0.5 * eta_**2 * prob.L * prob.sigma2 / M,
    ]


def _scaled(lhs: float, terms: list[float]) -> tuple[float, float]:
    """Both sides divided by |LHS| + sum |RHS terms| (the scale of their rounding)."""
    scale = abs(lhs) + sum(abs(t) for t in terms)
    return lhs / scale, sum(terms) / scale


def _one_step(ctx: Context, which: str, problems) -> Evidence:
    """(B.8) (``which = "B.8"``) or (B.9) at the draws of :func:`_b45_draws`, LHS exact, RHS term by term; then the
    witness search over :data:`.one_step.STATE_DOMAIN`."""
    points = Points()
    for prob in problems:
        for kind, M, x, x_ag, a, b, eta_, gamma_ in _b45_draws(ctx, prob):
            points.add(
                *_scaled(*_b45_sides(prob, which, x, x_ag, a, b, eta_, gamma_)),
                problem=prob.name,
                M=M,
                hyperparameters=kind,
            )
    ratio = np.array(points.measured) / np.array(points.bound)
    kinds = np.array(points.grid["hyperparameters"])
    largest = {k: float(np.max(ratio[(kinds == k) & (np.array(points.bound) > 0)])) for k in ("general", "FedAc-II")}

    def at(inv_alpha, inv_beta, eta_L, gamma_over_eta, **state):
        prob, x, x_ag = state_instance(**state)
        sides = _b45_sides(prob, which, x, x_ag, inv_alpha, inv_beta, eta_L, eta_L * gamma_over_eta)
        return (*_scaled(*sides), {"problem": prob.name, "hyperparameters": "general"})

    points.search(at, STATE_DOMAIN, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        atol=ROUND,
        witness={
            "measured": f"LHS and RHS divided by |LHS| + sum |RHS terms| (rounding tolerance {ROUND:g} relative)",
            "max LHS/RHS (RHS > 0) over the draws": largest,
            "sigma^2": {p.name: p.sigma2 for p in problems},
            "hyperparameters": "'general': alpha, beta >= 1, eta <= 1/L, gamma = eta 10^U(-3, 3) (the printed "
            "hypotheses); 'FedAc-II': alpha = 3/(2 gamma mu) - 1/2, beta = (2 alpha^2 - 1)/(alpha - 1), gamma in "
            "[eta, sqrt(eta/mu)]",
            "hypotheses": "alpha, beta >= 1, eta <= 1/L, any gamma > 0 and client states, F with Assumption 3.1",
        },
    )


@claim(
    f"{PAPER}/prop-b.4",
    source="Proposition B.4, (B.8)",
    statement="For alpha, beta >= 1 and eta <= 1/L (gamma > 0 unrestricted), at any client states: E||xbar+ - x*||^2 "
    "<= (1 - 1/(2 alpha))||xbar - x*||^2 + (3/(2 alpha))||xbar_md - x*||^2 + (3/2) gamma^2 ||grad F(xbar_md)||^2 - 2 "
    "gamma (1 + 1/(2 alpha)) <grad F(xbar_md), (1 - c) xbar + c xbar_ag - x*> + gamma^2 (1 + 2 alpha)||grad "
    "F(xbar_md) - avg grad F(x_md,m)||^2 + gamma^2 sigma^2/M, c = (1 - 1/beta)/alpha. Exact conditional expectations "
    "on a quadratic with Gaussian noise and two one-sample logistic regressions (n = 30 and 5), M in {1, 2, 4}, "
    "general (alpha, beta) and FedAc-II's."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_b4(ctx: Context) -> Evidence:
    """The quadratic with Gaussian noise and the two one-sample logistic regressions, at the random states of
    one_step.py with general and FedAc-II hyperparameters; the left side is an exact conditional expectation, both
    sides divided by |LHS| + sum |RHS terms|."""
    return _one_step(ctx, "B.8", (*one_step_problems(ctx), _small_logistic(ctx)))


@claim(
    f"{PAPER}/prop-b.5",
    source="Proposition B.5, (B.9)",
    statement="Same setting: E F(xbar_ag+) - F* <= (1 - 1/(2 alpha))(F(xbar_ag) - F*) - (mu/(4 alpha))||xbar_md - "
    "x*||^2 - (eta/2)||grad F(xbar_md)||^2 + (1/(2 alpha)) <grad F(xbar_md), (2 alpha/beta) xbar + (1 - 2 alpha/beta) "
    "xbar_ag - x*> + (eta/2)||grad F(xbar_md) - avg grad F(x_md,m)||^2 + eta^2 L sigma^2/(2M). Exact: the quadratic "
    "with Gaussian noise, and a one-sample logistic regression with n = 5 averaged over all 5^M sample tuples; M in "
    "{1, 2, 4}, general (alpha, beta) and FedAc-II's."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_b5(ctx: Context) -> Evidence:
    """The quadratic with Gaussian noise (closed-form expectation) and the n = 5 logistic regression (exact average
    over all 5^M sample tuples), at the random states of prop-b.4; both sides divided by |LHS| + sum |RHS terms|."""
    return _one_step(ctx, "B.9", (one_step_problems(ctx)[0], _small_logistic(ctx)))


# --------------------------------------------------------------------------------------------------
# Third-order smoothness: (3.30)-(3.31) and FedAvg's one step, Proposition B.20
# --------------------------------------------------------------------------------------------------


def _spread_states(rng, S: int, M: int, d: int) -> np.ndarray:
    """``S`` sets of ``M`` client points: a random center (scale 10^U(-3, 1)) plus a spread of scale 10^U(-2, 1)."""
    center = 10 ** rng.uniform(-3, 1, size=(S, 1, 1)) * rng.normal(size=(S, 1, d))
    return center + 10 ** rng.uniform(-2, 1, size=(S, 1, 1)) * rng.normal(size=(S, M, d))


def _rounding_scale(a, b, size):
    """Scale ``s`` such that ``ROUND s`` bounds the rounding error of comparing squared norms ``a`` and ``b`` of
    differences of vectors of norm <= ``size``: ``delta (2 (sqrt a + sqrt b) + delta)`` with ``delta = 64 eps size``,
    plus ``ROUND (a + b)``."""
    delta = 64 * np.finfo(float).eps * size
    return np.abs(a) + np.abs(b) + delta * (2 * (np.sqrt(np.abs(a)) + np.sqrt(np.abs(b))) + delta) / ROUND


def _normalized(lhs, rhs, scale) -> tuple[np.ndarray, np.ndarray]:
    """Both sides divided by their rounding scale (by 1 where the scale is 0: both sides are then exactly 0)."""
    scale = np.where(np.asarray(scale) > 0, scale, 1.0)
    return np.asarray(lhs) / scale, np.asarray(rhs) / scale


@claim(
    f"{PAPER}/eq-3.31",
    source="(3.30)-(3.31) (Lemma A.14)",
    statement="||avg grad F(x_m) - grad F(xbar)||^2 <= (1/M) sum_m ||grad F(x_m) - grad F(xbar) - H(xbar)(x_m - "
    "xbar)||^2 <= (Q^2/(4M)) sum_m ||x_m - xbar||^4: the chain (first <= last) and its last link, at random client "
    "states (M in {2, 4}) on the 1-D log-cosh objective (A.15) (L = 1, Q = 1) and a separable 3-D sum of such "
    "coordinates (Q = 1). The first link is Jensen's inequality; where the third derivative underflows both of its "
    "sides are rounding noise, so it is not compared separately."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def eq_331(ctx: Context) -> Evidence:
    """Random client states (M in {2, 4}) on the 1-D and separable 3-D log-cosh objectives (A.15), in float64; each
    side is divided by a rounding scale (64 eps times the gradient sizes) so that rounding noise far from 0, where
    the third derivative vanishes, compares within the tolerance; then the witness search over Q and the states of up
    to three clients on the 1-D objective (the link of Lemma A.14, which implies the chain)."""
    rng = ctx.rng()
    S = 200 if ctx.quick else 2000
    points = Points()
    for prob in LOGCOSH:
        for M in (2, 4):
            links = _eq331_links(prob, _spread_states(rng, S, M, prob.x_star.size))
            for link, (a, b) in links.items():
                for left, right in zip(a, b):
                    points.add(left, right, problem=prob.name, M=M, link=link)

    def at(Q, M, u1, u2, u3):
        prob = _SeparableLogCosh((1.0,), (Q,))
        x = np.array([u1, u2, u3])[:M].reshape(1, M, 1) / (4 * Q)
        a, b = _eq331_links(prob, x)["Lemma A.14"]
        return float(a[0]), float(b[0]), {"problem": prob.name, "link": "Lemma A.14"}

    domain = Domain(
        {
            "Q": Axis(1e-2, 1e2),
            "M": Axis(2, 3, integer=True),
            "u1": Axis(-5.0, 5.0, log=False),
            "u2": Axis(-5.0, 5.0, log=False),
            "u3": Axis(-5.0, 5.0, log=False),
        },
        note="(3.30)-(3.31) hold at any client states of any F with Assumption 3.2(a): the 1-D log-cosh objective "
        "(A.15) with L = 1 and third-order constant Q from 1e-2 to 1e2, M in {2, 3} clients at u_m L/(4Q), u_m in [-5, "
        "5] (the scale over which F'' changes). Left out: d > 1 and M > 3 (the random draws).",
    )
    points.search(at, domain, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        atol=ROUND,
        witness={
            "measured": "each side divided by _rounding_scale: far from 0 the third derivative vanishes in floating "
            "point and both sides of a link are rounding noise, compared within 64 eps times the gradient sizes",
            "hypotheses": "F with Assumption 3.2(a) (the log-cosh objectives: Q-Lipschitz Hessian), any client states",
        },
    )


def _eq331_links(prob, x) -> dict:
    """Both links of (3.30)-(3.31) at client states ``x`` (S, M, d), each side divided by its rounding scale: the
    chain (first side against last) and Lemma A.14's link (middle against last)."""
    M = x.shape[1]
    xbar = x.mean(1)
    g, g_bar = prob.grad(x), prob.grad(xbar)
    lhs = np.sum((g.mean(1) - g_bar) ** 2, axis=-1)
    linear = prob.hessian_diag(xbar)[:, None] * (x - xbar[:, None])
    mid = np.mean(np.sum((g - g_bar[:, None] - linear) ** 2, axis=-1), axis=1)
    rhs = prob.Q**2 / (4 * M) * np.sum(np.sum((x - xbar[:, None]) ** 2, axis=-1) ** 2, axis=1)
    size = np.max(np.linalg.norm(np.concatenate([g, g_bar[:, None], linear], axis=1), axis=-1), axis=1)
    return {
        link: _normalized(a, rhs, _rounding_scale(a, rhs, size)) for link, a in (("chain", lhs), ("Lemma A.14", mid))
    }


@claim(
    f"{PAPER}/eq-3.31:quadratic",
    source="(3.30)-(3.31), with Q = 0",
    statement="On a quadratic (Q = 0) the left side ||avg grad F(x_m) - grad F(xbar)||^2 is 0 (<= the right side "
    "0), in exact rational arithmetic at random client states (the quadratic of one_step.py, M in {2, 4}).",
    scope="printed",
    expect="holds",
)
def eq_331_quadratic(ctx: Context) -> Evidence:
    """The quadratic of one_step.py at random client states (M in {2, 4}) converted to exact rationals: the left side
    is computed in Fractions and compared with 0 exactly."""
    p: FederatedQuadratic = one_step_problems(ctx)[0].p
    rng = ctx.rng()
    points = Points()
    for _ in range(10 if ctx.quick else 100):
        M = int(rng.choice([2, 4]))
        x = [tuple(Fraction(float(v)) for v in row) for row in 10 ** rng.uniform(-2, 1) * rng.normal(size=(M, p.dim))]
        xbar = tuple(sum(col, Fraction(0)) / M for col in zip(*x))
        grads = [p.grad_exact(xm) for xm in x]
        diff = [sum(col, Fraction(0)) / M - gb for col, gb in zip(zip(*grads), p.grad_exact(xbar))]
        points.add(sum(v * v for v in diff))
    x = np.array([[[0.0], [1.0]]])  # two clients on the log-cosh objective (A.15), whose gradient is not affine
    gap = LOGCOSH[0].grad(x).mean(1) - LOGCOSH[0].grad(x.mean(1))
    control = negative_control(Evidence(float(np.sum(gap**2)), 0.0, "<="), "the log-cosh objective (A.15), Q = 1")
    return points.evidence("<=", bound=Fraction(0), witness={"negative control": control})


@claim(
    f"{PAPER}/prop-b.20",
    source="Proposition B.20",
    statement="FedAvg, eta <= 1/(4L): E||xbar+ - x*||^2 <= (1 - eta mu/2)||xbar - x*||^2 - eta (F(xbar) - F*) + (eta "
    "Q^2/(mu M)) sum_m ||xbar - x_m||^4 + eta^2 sigma^2/M, at random client states (M in {1, 2, 4}, eta = U(0, 1] / "
    "(4L)) on the 1-D log-cosh objective (A.15) and its separable 3-D version with additive constant-norm noise "
    "(+-s per coordinate, sigma^2 = d s^2 meets A3.1(c) and A3.2(b) with equality); exact conditional expectation."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_b20(ctx: Context) -> Evidence:
    """One FedAvg step on the 1-D and separable 3-D log-cosh objectives (A.15) with +-0.5 noise per coordinate, at
    random client states and step sizes; the left side is the exact conditional expectation (float64), both sides
    divided by |LHS| + sum |RHS terms|; then the witness search over Q, eta, the noise size and the states of up to
    three clients on the 1-D objective."""
    rng = ctx.rng()
    S = 200 if ctx.quick else 2000
    points = Points()
    for prob in LOGCOSH:
        d = prob.x_star.size
        for M in (1, 2, 4):
            x = _spread_states(rng, S, M, d)
            eta_ = rng.uniform(0, 1, size=S) / (4 * prob.L)
            for left, right in zip(*_b20_sides(prob, x, eta_, d * 0.5**2)):  # noise +-0.5 per coordinate
                points.add(left, right, problem=prob.name, M=M)

    def at(Q, M, u1, u2, u3, eta_4L, s):
        prob = _SeparableLogCosh((1.0,), (Q,))
        x = np.array([u1, u2, u3])[:M].reshape(1, M, 1) / (4 * Q)
        left, right = _b20_sides(prob, x, np.array([eta_4L / (4 * prob.L)]), s**2)
        return float(left[0]), float(right[0]), {"problem": prob.name}

    domain = Domain(
        {
            "Q": Axis(1e-2, 1e2),
            "M": Axis(1, 3, integer=True),
            "u1": Axis(-5.0, 5.0, log=False),
            "u2": Axis(-5.0, 5.0, log=False),
            "u3": Axis(-5.0, 5.0, log=False),
            "eta_4L": Axis(1e-6, 1.0),
            "s": Axis(1e-3, 10.0),
        },
        note="Proposition B.20 holds at any client states for eta <= 1/(4L) under Assumption 3.2: the 1-D log-cosh "
        "objective (A.15) (L = 1, mu = 1/2, third-order constant Q from 1e-2 to 1e2), M in {1, 2, 3} clients at u_m "
        "L/(4Q), u_m in [-5, 5], eta 4L from 1e-6 to 1, noise +-s (constant norm: sigma = s meets Assumptions 3.1(c) "
        "and 3.2(b) with equality) with s from 1e-3 to 10. Left out: d > 1 and M > 3 (the random draws).",
    )
    points.search(at, domain, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        atol=ROUND,
        witness={
            "measured": f"LHS and RHS divided by |LHS| + sum |RHS terms| (rounding tolerance {ROUND:g} relative)",
            "noise": "the exact noise term eta^2 tr(C)/M equals the printed eta^2 sigma^2/M (sigma^2 = tr C)",
            "hypotheses": "eta <= 1/(4L), F with Assumptions 3.1 and 3.2 (the log-cosh objectives), constant-norm "
            "noise, any client states",
        },
    )


def _b20_sides(prob, x, eta_, sigma2: float) -> tuple[np.ndarray, np.ndarray]:
    """Proposition B.20's exact left side and right side at client states ``x`` (S, M, d) and step sizes ``eta_``
    (S,), both divided by |LHS| + sum |RHS terms|."""
    M = x.shape[1]
    xbar = x.mean(1)
    mean = xbar - eta_[:, None] * prob.grad(x).mean(1) - prob.x_star
    lhs = np.sum(mean**2, axis=-1) + eta_**2 * sigma2 / M
    spread4 = np.sum(np.sum((x - xbar[:, None]) ** 2, axis=-1) ** 2, axis=1)
    terms = [
        (1 - eta_ * prob.mu / 2) * np.sum((xbar - prob.x_star) ** 2, axis=-1),
        -eta_ * prob.gap(xbar),
        eta_ * prob.Q**2 / (prob.mu * M) * spread4,
        eta_**2 * sigma2 / M,
    ]
    return _normalized(lhs, sum(terms), np.abs(lhs) + sum(np.abs(t) for t in terms))


# --------------------------------------------------------------------------------------------------
# Discrepancy bounds through X(gamma, eta)^-1 [Delta_ag; Delta]
# --------------------------------------------------------------------------------------------------


def _pair_states(rng, S: int, M: int, d: int, ratio: float, center_scale: float = 0.0):
    """``S`` sets of client states ``(x_ag, x)``, each ``(S, M, d)``: ``x_ag = c + s1 Z1`` and ``x = c + t ratio
    (x_ag - c) + s2 Z2`` with ``t ~ U(0, 1.5)`` (so ``Delta`` is near ``(gamma/eta) Delta_ag``, where ``X^-1 [Delta_ag;
    Delta]`` is small, for ``t`` near 1), ``s1 = 10^U(-2, 1)``, ``s2 = 10^U(-3, 1)`` and a common center ``c`` of
    scale ``center_scale 10^U(-2, 0)``."""
    c = center_scale * 10 ** rng.uniform(-2, 0, size=(S, 1, 1)) * rng.normal(size=(S, 1, d))
    x_ag = 10 ** rng.uniform(-2, 1, size=(S, 1, 1)) * rng.normal(size=(S, M, d))
    t = rng.uniform(0, 1.5, size=(S, 1, 1))
    x = t * ratio * x_ag + 10 ** rng.uniform(-3, 1, size=(S, 1, 1)) * rng.normal(size=(S, M, d))
    return c + x_ag, c + x


def _pair_norms(x_ag, x, ratio: float) -> np.ndarray:
    """``||X(gamma, eta)^-1 [Delta_ag; Delta]||^2`` for every ordered pair ``(m1, m2)``: shape (S, M, M), with
    ``X^-1 [Delta_ag; Delta] = [(gamma/eta) Delta_ag; Delta - (gamma/eta) Delta_ag]`` ((3.22), ``ratio = gamma/
    eta``)."""
    d_ag = x_ag[:, :, None] - x_ag[:, None]
    d = x[:, :, None] - x[:, None]
    return np.sum((ratio * d_ag) ** 2 + (d - ratio * d_ag) ** 2, axis=-1)


def _over_pairs(n2: np.ndarray, power: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and min over distinct ordered pairs of ``||X^-1 [Delta_ag; Delta]||^power``."""
    M = n2.shape[-1]
    off = n2[:, ~np.eye(M, dtype=bool)] ** (power / 2)
    return off.mean(axis=1), off.min(axis=1)


def _fedac_ii_region(prob, quick: bool):
    """(mu, eta, gamma) with mu a strong-convexity constant of ``prob`` (its mu times 1, 0.1, 0.01, 1e-4), eta in
    (0, 1/L] and gamma over [eta, sqrt(eta/mu)] (both endpoints included)."""
    for mu_ in prob.mu * np.array([1.0, 0.1, 1e-2, 1e-4]):
        for eta_ in np.geomspace(1e-4, 1.0, 5 if quick else 13) / prob.L:
            for frac in np.linspace(0, 1, 5 if quick else 11):
                yield float(mu_), float(eta_), float(eta_ + frac * (np.sqrt(eta_ / mu_) - eta_))


@claim(
    f"{PAPER}/prop-3.18",
    source="Proposition 3.18",
    statement="FedAc-I (alpha = 1/(gamma mu), beta = alpha + 1), gamma in [eta, sqrt(eta/mu)], eta <= 1/L: (1/M) "
    "sum_m ||xbar_md - x_md,m|| ||(xbar - x_m)/(1 + gamma mu) + gamma mu (xbar_ag - x_ag,m)/(1 + gamma mu)|| <= "
    "(sqrt(10) eta/gamma) ||X^-1 [Delta_ag; Delta]||^2, with the right side averaged over distinct client pairs "
    "(module docstring); random states, M in {2, 4}, over the admissible grid of stability.py (L = 1)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_318(ctx: Context) -> Evidence:
    """Random client states (d = 3, M in {2, 4}) over the admissible (mu, eta, gamma) grid of stability.py with
    FedAc-I's (alpha, beta), in float64; the right side reads ||X^-1 [Delta_ag; Delta]||^2 as the average over
    distinct ordered client pairs (module docstring)."""
    return _fedac_i_discrepancy(ctx, printed=True)


@claim(
    f"{PAPER}/claim-3.20",
    source="Claim 3.20",
    statement="Same setting: the left side of Proposition 3.18 is <= ||X' [1/(1 + gamma mu); gamma mu/(1 + gamma "
    "mu)]|| ||X' [gamma mu/(1 + gamma mu); 1/(1 + gamma mu)]|| ||X^-1 [Delta_ag; Delta]||^2 (pair average)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def claim_320(ctx: Context) -> Evidence:
    """The random states and admissible grid of prop-3.18, with the factor ||X' c1|| ||X' c2|| of the claim in place
    of sqrt(10) eta/gamma (pair-average reading, float64)."""
    return _fedac_i_discrepancy(ctx, printed=False)


PAIR_AXES = {
    "kappa": Axis(1.0, 1e4),
    "eta_L": Axis(1e-6, 1.0),
    "gamma_is_eta": Axis(0, 1, log=False, integer=True),
    "gamma_position": Axis(0.0, 1.0, log=False),
}
PAIR_NOTE = (
    "Any mu = L/kappa (kappa from 1), eta in (0, 1/L] (from 1e-6/L) and gamma in [eta, sqrt(eta/mu)] (gamma_is_eta = "
    "1: gamma = eta; otherwise gamma_position of the way to sqrt(eta/mu) in log scale), L = 1."
)


def _gamma(eta_, mu_, gamma_is_eta, gamma_position) -> float:
    return eta_ if gamma_is_eta else gamma_between(eta_, mu_, gamma_position)


def _fedac_ii_pair(which: str):
    """The witness-search evaluation of Proposition B.9 (``which = "B.9"``), Claim B.10 or Proposition B.17 on the
    1-D log-cosh objective (A.15) with L = 1 and third-order constant Q: two clients whose md points are c +- D_md/2
    (D_md = (1 - 1/beta) D_ag + (1/beta) D), lengths in units of L/(4Q), the scale over which F'' changes."""

    def at(Q, kappa, eta_L, gamma_is_eta, gamma_position, center, size, offset):
        prob = _SeparableLogCosh((1.0,), (Q,))
        mu_ = prob.mu / kappa  # any strong-convexity constant below the objective's
        g_ = _gamma(eta_L, mu_, gamma_is_eta, gamma_position)
        gm, ratio = g_ * mu_, g_ / eta_L
        b = float(fedac.inverse_coefficients(gm, "FedAc-II")[1])
        unit = 1 / (4 * Q)
        d_ag = size * unit
        d = ratio * d_ag * (1 + offset)  # offset 0: X^-1 [D_ag; D] = [ratio D_ag; 0]
        d_md = b * d + (1 - b) * d_ag
        md = center * unit + np.array([[d_md / 2], [-d_md / 2]])
        lhs = float(np.sum((prob.grad(md.mean(0)) - prob.grad(md).mean(0)) ** 2))
        norm2 = (ratio * d_ag) ** 2 + (d - ratio * d_ag) ** 2
        if which == "B.17":
            return lhs, 17 * eta_L**2 * prob.L**2 / (9 * g_**2) * norm2, {"M": 2}
        if which == "B.9":
            return lhs, 289 * eta_L**4 * Q**2 / (324 * g_**4) * norm2**2, {"M": 2}
        c = np.array([9 - 9 * gm + 2 * gm**2, 3 * gm - 3 * gm**2]) / (9 - 6 * gm - gm**2)
        Xt = np.array([[eta_L / g_, 1.0], [0.0, 1.0]])
        return lhs, Q**2 / 4 * np.linalg.norm(Xt @ c) ** 4 * norm2**2, {"M": 2}

    return at


FEDAC_II_PAIR_DOMAIN = Domain(
    {
        **PAIR_AXES,
        "Q": Axis(1e-2, 1e2),
        "center": Axis(-5.0, 5.0, log=False),
        "size": Axis(1e-3, 1e2),
        "offset": Axis(-3.0, 3.0, log=False),
    },
    note=f"{PAIR_NOTE} mu = (objective's mu)/kappa. The 1-D log-cosh objective (A.15) (L = 1, third-order constant "
    "Q from 1e-2 to 1e2: the printed Assumption 3.2(a) holds with Q, Assumption 3.1 with L = 1), two clients: md "
    "center in [-5, 5] and D_ag of size 1e-3 to 1e2, in units of L/(4Q), and D = (gamma/eta) D_ag (1 + offset). "
    "Left out: d > 1, M > 2 and the logistic instance (covered by the random draws).",
)


def _fedac_i_discrepancy(ctx: Context, printed: bool) -> Evidence:
    """Proposition 3.18 (``printed``) or Claim 3.20 at random states over the admissible region."""
    rng = ctx.rng()
    S = 8 if ctx.quick else 20
    points = Points()
    notes = {2: [0, 0], 4: [0, 0]}
    for mu_, eta_, g_ in admissible_points(ctx.quick):
        gm, ratio = g_ * mu_, g_ / eta_
        _, b = fedac.inverse_coefficients(gm)
        Xt = np.array([[eta_ / g_, 1.0], [0.0, 1.0]])  # X(gamma, eta)'
        c1, c2 = np.array([1.0, gm]) / (1 + gm), np.array([gm, 1.0]) / (1 + gm)
        factor = np.sqrt(10) * eta_ / g_ if printed else np.linalg.norm(Xt @ c1) * np.linalg.norm(Xt @ c2)
        for M in (2, 4):
            x_ag, x = _pair_states(rng, S, M, 3, ratio)
            md = b * x + (1 - b) * x_ag
            u = np.linalg.norm(md.mean(1, keepdims=True) - md, axis=-1)
            v = np.linalg.norm(
                c1[0] * (x.mean(1, keepdims=True) - x) + c1[1] * (x_ag.mean(1, keepdims=True) - x_ag), axis=-1
            )
            lhs = np.mean(u * v, axis=1)
            mean2, min2 = _over_pairs(_pair_norms(x_ag, x, ratio), 2)
            for left, right in zip(lhs, factor * mean2):
                points.add(left, right, mu=mu_, eta=eta_, gamma=g_, M=M)
            notes[M][0] += int(np.sum(lhs > factor * min2 * (1 + ROUNDING)))
            notes[M][1] += S

    def at(kappa, eta_L, gamma_is_eta, gamma_position, offset, angle):
        mu_, g_ = 1 / kappa, _gamma(eta_L, 1 / kappa, gamma_is_eta, gamma_position)
        gm, ratio = g_ * mu_, g_ / eta_L
        _, b = fedac.inverse_coefficients(gm)
        Xt = np.array([[eta_L / g_, 1.0], [0.0, 1.0]])
        c1, c2 = np.array([1.0, gm]) / (1 + gm), np.array([gm, 1.0]) / (1 + gm)
        factor = np.sqrt(10) * eta_L / g_ if printed else np.linalg.norm(Xt @ c1) * np.linalg.norm(Xt @ c2)
        d_ag = np.array([1.0, 0.0])
        d = ratio * (d_ag + offset * np.array([np.cos(angle), np.sin(angle)]))
        lhs = np.linalg.norm(b * d + (1 - b) * d_ag) * np.linalg.norm(c1[0] * d + c1[1] * d_ag) / 4  # M = 2
        return float(lhs), factor * float(np.sum((ratio * d_ag) ** 2 + (d - ratio * d_ag) ** 2)), {"M": 2}

    domain = Domain(
        {**PAIR_AXES, "offset": Axis(1e-6, 1e3), "angle": Axis(0.0, np.pi, log=False)},
        note=f"{PAIR_NOTE} Two clients in d = 2 (the bound is homogeneous of degree 2 in the differences, so "
        "Delta_ag = (1, 0) and Delta = (gamma/eta)(Delta_ag + offset (cos angle, sin angle)): offset small is "
        "where X^-1 [Delta_ag; Delta] is small); M > 2 is left to the random draws.",
    )
    points.search(at, domain, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "hypotheses": "FedAc-I's alpha, beta at gamma in [eta, sqrt(eta/mu)], eta <= 1/L, any client states",
            "reading": "right side averaged over distinct ordered client pairs (module docstring)",
            "any-pair reading": {
                f"M = {M}": f"min over pairs below the left side in {k} of {n} draws" for M, (k, n) in notes.items()
            },
        },
    )


def _fedac_ii_discrepancy(ctx: Context, problems, which: str) -> Evidence:
    """||grad F(xbar_md) - avg grad F(x_md,m)||^2 against Proposition B.9, Claim B.10 or Proposition B.17 at random
    states, FedAc-II's (alpha, beta), over :func:`_fedac_ii_region`."""
    rng = ctx.rng()
    S = 4 if ctx.quick else 10
    points = Points()
    notes = {2: [0, 0], 4: [0, 0]}
    for prob in problems:
        d = prob.x_star.size
        for mu_, eta_, g_ in _fedac_ii_region(prob, ctx.quick):
            gm, ratio = g_ * mu_, g_ / eta_
            _, b = fedac.inverse_coefficients(gm, "FedAc-II")
            den = 9 - 6 * gm - gm**2
            c = np.array([9 - 9 * gm + 2 * gm**2, 3 * gm - 3 * gm**2]) / den  # printed [1 - 1/beta; 1/beta]
            Xt = np.array([[eta_ / g_, 1.0], [0.0, 1.0]])
            power = 2 if which == "B.17" else 4
            if which == "B.9":
                factor = 289 * eta_**4 * prob.Q**2 / (324 * g_**4)
            elif which == "B.10":
                factor = prob.Q**2 / 4 * np.linalg.norm(Xt @ c) ** 4
            else:
                factor = 17 * eta_**2 * prob.L**2 / (9 * g_**2)
            for M in (2, 4):
                x_ag, x = _pair_states(rng, S, M, d, ratio, center_scale=10.0)
                x_ag, x = x_ag + prob.x_star, x + prob.x_star
                md = float(b) * x + (1 - float(b)) * x_ag
                lhs = np.sum((prob.grad(md.mean(1)) - prob.grad(md).mean(1)) ** 2, axis=-1)
                mean_p, min_p = _over_pairs(_pair_norms(x_ag, x, ratio), power)
                for left, right in zip(lhs, factor * mean_p):
                    points.add(left, right, problem=prob.name, mu=mu_, eta=eta_, gamma=g_, M=M)
                notes[M][0] += int(np.sum(lhs > factor * min_p * (1 + ROUNDING)))
                notes[M][1] += S
    points.search(_fedac_ii_pair(which), FEDAC_II_PAIR_DOMAIN, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "hypotheses": "FedAc-II's alpha, beta at gamma in [eta, sqrt(eta/mu)], eta <= 1/L, any client states, F "
            + ("L-smooth (Assumption 3.1)" if which == "B.17" else "with Assumption 3.2(a)"),
            "reading": "right side averaged over distinct ordered client pairs (module docstring)",
            "any-pair reading": {
                f"M = {M}": f"min over pairs below the left side in {k} of {n} draws" for M, (k, n) in notes.items()
            },
        },
    )


@claim(
    f"{PAPER}/prop-b.9",
    source="Proposition B.9",
    statement="FedAc-II (alpha = 3/(2 gamma mu) - 1/2, beta = (2 alpha^2 - 1)/(alpha - 1)), gamma in [eta, "
    "sqrt(eta/mu)], eta <= 1/L, Assumption 3.2(a): ||grad F(xbar_md) - avg grad F(x_md,m)||^2 <= (289 eta^4 Q^2/(324 "
    "gamma^4)) ||X^-1 [Delta_ag; Delta]||^4 (pair average of the 4th powers), at random states (M in {2, 4}) on the "
    "1-D and 3-D log-cosh objectives, mu in {1, 0.1, 0.01, 1e-4} times the objective's."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_b9(ctx: Context) -> Evidence:
    """Random client states (M in {2, 4}) on the 1-D and 3-D log-cosh objectives over FedAc-II's (mu, eta, gamma)
    region, in float64; the right side averages the 4th powers over distinct ordered client pairs."""
    return _fedac_ii_discrepancy(ctx, LOGCOSH, "B.9")


@claim(
    f"{PAPER}/claim-b.10",
    source="Claim B.10",
    statement="Same setting: ||grad F(xbar_md) - avg grad F(x_md,m)||^2 <= (Q^2/4) ||X' [(9 - 9 gamma mu + 2 gamma^2 "
    "mu^2)/(9 - 6 gamma mu - gamma^2 mu^2); (3 gamma mu - 3 gamma^2 mu^2)/(9 - 6 gamma mu - gamma^2 mu^2)]||^4 ||X^-1 "
    "[Delta_ag; Delta]||^4 (pair average)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def claim_b10(ctx: Context) -> Evidence:
    """The random states and region of prop-b.9, with the claim's factor (Q^2/4) ||X' c||^4 (pair average of the 4th
    powers, float64)."""
    return _fedac_ii_discrepancy(ctx, LOGCOSH, "B.10")


@claim(
    f"{PAPER}/prop-b.17",
    source="Proposition B.17",
    statement="FedAc-II, gamma in [eta, sqrt(eta/mu)], eta <= 1/L, Assumption 3.1: ||grad F(xbar_md) - avg grad "
    "F(x_md,m)||^2 <= (17 eta^2 L^2/(9 gamma^2)) ||X^-1 [Delta_ag; Delta]||^2 (pair average), at random states (M in "
    "{2, 4}) on the one-sample logistic regression of one_step.py (n = 30, d = 4) and the 3-D log-cosh objective."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_b17(ctx: Context) -> Evidence:
    """Random client states (M in {2, 4}) on the n = 30 logistic regression and the 3-D log-cosh objective over
    FedAc-II's (mu, eta, gamma) region, in float64; the right side is averaged over distinct ordered client pairs."""
    return _fedac_ii_discrepancy(ctx, (one_step_problems(ctx)[1], LOGCOSH[1]), "B.17")
