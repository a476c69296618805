"""The one-step building blocks of FedAc's analysis (Propositions 3.12 and 3.13, Claim 3.14), at arbitrary client
states with exact conditional expectations, and the algebraic identities of Lemma 3.23's proof.

For a quadratic with additive Gaussian noise of covariance C the expectations are exact (mean part plus noise
variance, sigma^2 = tr C). For one-sample l2-logistic regression they are exact finite averages over the n samples
(clients draw independently: E||avg||^2 = ||avg E||^2 + (1/M^2) sum_m Var_m); sigma^2 there is a certified uniform
bound, mean_i ||a_i||^2 (the l2 term cancels and |sigmoid| <= 1). Hyperparameters are drawn as printed: alpha,
beta >= 1, eta <= 1/L, gamma > 0 (the propositions restrict nothing else). Lemma 3.23's proof is in Appendix
B.1.2.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import sympy as sp
from scipy.special import expit

from fedtheory.harness.claims import Context, Evidence, claim, seed_for
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.problems import FederatedQuadratic, LogisticRegression, logistic_data, random_rotation, spd_matrix
from fedtheory.reference import logistic_optimum

from .instability import identity_evidence

PAPER = "yuan-thesis"


class QuadraticCase:
    name = "quadratic + Gaussian noise"

    def __init__(self, rng):
        d = 4
        Q = random_rotation(rng, d)
        self.p = FederatedQuadratic(spd_matrix(Q, [1.0, 0.3, 0.05, 0.01]), rng.normal(size=d))
        self.C = np.diag([0.5, 0.3, 0.15, 0.05])
        self.sigma2, self.L, self.mu, self.x_star = float(np.trace(self.C)), 1.0, 0.01, self.p.x_star

    def gap(self, x):
        return self.p.gap(x)

    def grad(self, x):
        return x @ self.p.A_mean.T - self.p.b_mean

    def step_moments(self, md, coef):
        """sum over clients of the variance of coef * g_m, g_m = grad F(md_m) + xi_m."""
        return md.shape[0] * coef**2 * float(np.trace(self.C))

    def expected_gap_after(self, md, eta):
        mean = md - eta * self.grad(md)
        return self.gap(mean) + 0.5 * eta**2 * np.trace(self.p.A_mean @ self.C)


class LogisticCase:
    name = "one-sample l2-logistic regression"

    def __init__(self, rng):
        data = logistic_data(rng, n_clients=1, n_per_client=30, dim=4, l2=0.05)
        self.p = LogisticRegression(data.features[0], data.labels[0], l2=0.05)
        self.ref = logistic_optimum(self.p)
        X = self.p.features[0]
        self.sigma2 = float(np.mean(np.sum(X**2, axis=1)))
        self.L = float(np.linalg.eigvalsh(X.T @ X / X.shape[0]).max() / 4 + 0.05)
        self.mu, self.x_star = 0.05, self.ref.x

    def gap(self, x):
        return self.p.value(x) - self.ref.value

    def grad(self, x):
        return self.p.grad(x)

    def samples(self, md):
        """Per-sample gradients at each client's md point: (M, n, d)."""
        X, y = self.p.features[0], self.p.labels[0]
        z = y[None, :] * (md @ X.T)
        return (-y[None, :] * expit(-z))[..., None] * X[None] + self.p.l2 * md[:, None, :]

    def step_moments(self, md, coef):
        """sum over clients of the variance of coef * g_m, g_m the gradient of one uniformly sampled row."""
        g = self.samples(md)
        return coef**2 * float(np.sum(g.var(axis=1)))  # sum over clients of Var(coef g_m)

    def expected_gap_after(self, md, eta):
        g = self.samples(md)
        return self.gap(md[:, None, :] - eta * g).mean(axis=1)


@family(f"{PAPER}/one-step")
def one_step_problems(fam: Family):
    """The quadratic and the logistic instance of the one-step checks (one draw, the same in both profiles)."""
    rng = fam.rng()
    return QuadraticCase(rng), LogisticCase(rng)


def one_step_draws(ctx: Context, prob):
    rng = np.random.default_rng(seed_for(f"{PAPER}/one-step-draws:{prob.name}"))
    for _ in range(150 if ctx.quick else 1500):
        M = int(rng.choice([1, 2, 4]))
        d = prob.x_star.size
        scale = 10 ** rng.uniform(-2, 1, size=(2, 1, 1))
        x = prob.x_star + scale[0] * rng.normal(size=(M, d))
        x_ag = prob.x_star + scale[1] * rng.normal(size=(M, d))
        a = float(rng.uniform(1e-3, 1.0))  # 1/alpha
        b = float(rng.uniform(0.0, 1.0))  # 1/beta
        eta = float(rng.uniform(1e-3, 1.0)) / prob.L
        gamma = eta * float(10 ** rng.uniform(-3, 3))
        yield M, x, x_ag, a, b, eta, gamma


class Quadratic1D(QuadraticCase):
    """F = h x^2/2 with additive Gaussian noise of variance s^2 (sigma^2 = s^2), smoothness L >= h and strong
    convexity mu <= h: the instance of the witness searches."""

    name = "1-D quadratic + Gaussian noise"

    def __init__(self, h: float, mu: float, s: float, L: float = 1.0):
        self.p = SimpleNamespace(A_mean=np.array([[h]]), b_mean=np.zeros(1))  # what QuadraticCase's callers read
        self.h, self.C = h, np.array([[s**2]])
        self.sigma2, self.L, self.mu, self.x_star = s**2, L, mu, np.zeros(1)

    def gap(self, x):
        return 0.5 * self.h * np.sum(np.asarray(x) ** 2, axis=-1)

    def grad(self, x):
        return self.h * np.asarray(x)

    def expected_gap_after(self, md, eta):
        return self.gap(md - eta * self.grad(md)) + 0.5 * eta**2 * self.h * self.sigma2


def _sides(prob, which: str, x, x_ag, a, b, eta, gamma) -> list[tuple[float, float]]:
    """(LHS, RHS) of Proposition 3.12 (``which = "3.12"``), 3.13 or Claim 3.14 (one pair per client) at client
    states ``x``, ``x_ag`` of shape (M, d) with 1/alpha = ``a``, 1/beta = ``b``."""
    M = x.shape[0]
    md = b * x + (1 - b) * x_ag
    g = prob.grad(md)  # (M, d)
    xbar, agbar, mdbar = x.mean(0), x_ag.mean(0), md.mean(0)
    if which == "3.12":
        lhs_mean = ((1 - a) * x + a * md - gamma * g).mean(0) - prob.x_star
        lhs = float(lhs_mean @ lhs_mean) + prob.step_moments(md, gamma) / M**2
        c = a * (1 - b)
        inner = np.sum(g * ((1 - c) * x + c * x_ag - prob.x_star), axis=1).mean()
        spread = np.linalg.norm(mdbar - md, axis=1) * np.linalg.norm((1 - c) * (xbar - x) + c * (agbar - x_ag), axis=1)
        rhs = (
            (1 - a) * float(np.sum((xbar - prob.x_star) ** 2))
            + a * float(np.sum((mdbar - prob.x_star) ** 2))
            + gamma**2 * float(np.sum(g.mean(0) ** 2))
            + gamma**2 * prob.sigma2 / M
            - 2 * gamma * inner
            + 2 * gamma * prob.L * spread.mean()
        )
        return [(lhs, rhs)]
    after = prob.expected_gap_after(md, eta)  # (M,)
    before = prob.gap(x_ag)
    w = b / a  # alpha / beta
    inner = np.sum(g * (w * x + (1 - w) * x_ag - prob.x_star), axis=1)
    if which == "3.14":
        return [
            (
                float(after[m]),
                (1 - a) * before[m]
                - 0.5 * eta * float(g[m] @ g[m])
                + 0.5 * eta**2 * prob.L * prob.sigma2
                - 0.5 * prob.mu * a * float(np.sum((md[m] - prob.x_star) ** 2))
                + a * inner[m],
            )
            for m in range(M)
        ]
    rhs = (
        (1 - a) * float(before.mean())
        - 0.5 * eta * float(np.sum(g.mean(0) ** 2))
        + 0.5 * eta**2 * prob.L * prob.sigma2
        + a * float(inner.mean())
        - 0.5 * prob.mu * a * float(np.sum((mdbar - prob.x_star) ** 2))
    )
    return [(float(after.mean()), rhs)]


def _normalized(lhs: float, rhs: float) -> tuple[float, float]:
    """Both sides divided by |LHS| + |RHS| (the scale of their rounding)."""
    scale = abs(lhs) + abs(rhs) + 1e-300
    return lhs / scale, rhs / scale


#: The witness search's domain for the one-step blocks at arbitrary states (shared with one_step_fedac_ii).
STATE_DOMAIN = Domain(
    {
        "M": Axis(1, 2, integer=True),
        "x1": Axis(-10.0, 10.0, log=False),
        "x2": Axis(-10.0, 10.0, log=False),
        "x_ag1": Axis(-10.0, 10.0, log=False),
        "x_ag2": Axis(-10.0, 10.0, log=False),
        "inv_alpha": Axis(1e-4, 1.0),
        "inv_beta": Axis(0.0, 1.0, log=False),
        "eta_L": Axis(1e-4, 1.0),
        "gamma_over_eta": Axis(1e-3, 1e3),
        "h": Axis(1e-4, 1.0),
        "mu_over_h": Axis(1e-4, 1.0),
        "s": Axis(1e-3, 10.0),
    },
    note="The one-step propositions hold at any client states for any alpha, beta >= 1, eta <= 1/L and gamma > 0, on "
    "any F with Assumption 3.1: the search runs F = h x^2/2 (L = 1 >= h, mu = h mu_over_h) with additive Gaussian "
    "noise of variance s^2 (sigma^2 = s^2), M in {1, 2} clients with states in [-10, 10] (x* = 0; client 2 unused "
    "at M = 1), 1/alpha from 1e-4 to 1, 1/beta in [0, 1], eta L from 1e-4 to 1, gamma/eta from 1e-3 to 1e3. Left "
    "out: d > 1 and M > 2 (covered by the random draws), non-quadratic F (the logistic instance of the draws).",
)


def state_instance(M, x1, x2, x_ag1, x_ag2, h, mu_over_h, s, **_):
    """The 1-D quadratic and client states of a point of :data:`STATE_DOMAIN`."""
    x = np.array([[x1], [x2]])[:M]
    x_ag = np.array([[x_ag1], [x_ag2]])[:M]
    return Quadratic1D(h, h * mu_over_h, s), x, x_ag


def _check(ctx: Context, which: str) -> Evidence:
    points = Points()
    for prob in one_step_problems(ctx):
        for M, x, x_ag, a, b, eta, gamma in one_step_draws(ctx, prob):
            for lhs, rhs in _sides(prob, which, x, x_ag, a, b, eta, gamma):
                points.add(*_normalized(lhs, rhs), problem=prob.name, M=M)

    def at(inv_alpha, inv_beta, eta_L, gamma_over_eta, **state):
        prob, x, x_ag = state_instance(**state)
        sides = _sides(prob, which, x, x_ag, inv_alpha, inv_beta, eta_L, eta_L * gamma_over_eta)
        worst = min(sides, key=lambda side: side[1] - side[0])  # the client with the least slack (Claim 3.14)
        return (*_normalized(*worst), {"problem": prob.name})

    points.search(at, STATE_DOMAIN, "<=", ctx, scale=4)
    return points.evidence(
        "<=",
        atol=1e-10,  # float64 rounding of LHS and RHS, both divided by |LHS| + |RHS|
        witness={
            "measured": "LHS and RHS divided by |LHS| + |RHS| (rounding tolerance 1e-10 relative)",
            "sigma^2": {p.name: p.sigma2 for p in one_step_problems(ctx)},
            "hypotheses": "alpha, beta >= 1, eta <= 1/L, gamma > 0, any client states, F with Assumption 3.1 (a "
            "quadratic with Gaussian noise, sigma^2 = tr C, and a one-sample logistic regression with a certified "
            "sigma^2 in the draws; a 1-D quadratic in the search)",
        },
    )


@claim(
    f"{PAPER}/prop-3.12",
    source="Proposition 3.12",
    statement="For alpha, beta >= 1 and eta <= 1/L, at any client states: E||xbar+ - x*||^2 <= (1 - 1/alpha)||xbar - "
    "x*||^2 + (1/alpha)||xbar_md - x*||^2 + gamma^2 ||avg grad F(x_md,m)||^2 + gamma^2 sigma^2/M - 2 gamma avg <grad "
    "F(x_md,m), (1 - c) x_m + c x_ag,m - x*> + 2 gamma L avg ||xbar_md - x_md,m|| ||(1 - c)(xbar - x_m) + c(xbar_ag - "
    "x_ag,m)||, c = (1 - 1/beta)/alpha (exact conditional expectations, random states and hyperparameters)."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_312(ctx: Context) -> Evidence:
    """A 4-d quadratic with additive Gaussian noise and a one-sample l2-logistic regression, at random client states
    and hyperparameters (alpha, beta >= 1, eta <= 1/L); the expectation is exact (noise variance, finite average over
    the samples). Both sides are divided by |LHS| + |RHS|."""
    return _check(ctx, "3.12")


@claim(
    f"{PAPER}/prop-3.13",
    source="Proposition 3.13",
    statement="E[avg_m F(x_ag,m+) - F*] <= (1 - 1/alpha)(avg_m F(x_ag,m) - F*) - (eta/2)||avg grad F(x_md,m)||^2 + "
    "eta^2 L sigma^2/2 + (1/alpha) avg <grad F(x_md,m), (alpha/beta) x_m + (1 - alpha/beta) x_ag,m - x*> - "
    "(mu/(2 alpha))||xbar_md - x*||^2."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def prop_313(ctx: Context) -> Evidence:
    """The instances and random states of prop-3.12; the expected averaged gap after one step is exact (closed form
    for the quadratic, finite average over the samples for the logistic case), both sides divided by |LHS| + |RHS|."""
    return _check(ctx, "3.13")


@claim(
    f"{PAPER}/claim-3.14",
    source="Claim 3.14",
    statement="Per client: E[F(x_ag,m+) - F*] <= (1 - 1/alpha)(F(x_ag,m) - F*) - (eta/2)||grad F(x_md,m)||^2 + eta^2 L "
    "sigma^2/2 - (mu/(2 alpha))||x_md,m - x*||^2 + (1/alpha)<grad F(x_md,m), (alpha/beta) x_m + (1 - alpha/beta) "
    "x_ag,m - x*>."
    " A witness search over the domain the hypotheses allow adds instances (search record).",
    scope="printed",
    expect="holds",
)
def claim_314(ctx: Context) -> Evidence:
    """The instances and random states of prop-3.12, one entry per client: the exact expected gap after one step
    against the printed right-hand side, both divided by |LHS| + |RHS|."""
    return _check(ctx, "3.14")


@claim(
    f"{PAPER}/lem-3.23:identities",
    source="proof of Lemma 3.23, (B.11)-(B.14), Appendix B.1.2",
    statement="With alpha = 3/(2 gamma mu) - 1/2, beta = (2 alpha^2 - 1)/(alpha - 1): 2 alpha/beta = 1 - (1 - 1/beta)/"
    "alpha; 1 - 2 alpha/beta = (1 - 1/beta)/alpha; (1/2)/alpha - (1/3) gamma mu (1 + (1/2)/alpha) = 0; eta/2 + (1/6) "
    "gamma^2 mu (1 + 2 alpha) = (eta + gamma)/2; 1/alpha = 2 gamma mu/(3 - gamma mu).",
    scope="printed",
    expect="holds",
)
def lem_323_identities(ctx: Context) -> Evidence:
    """The five identities with gamma, mu, eta symbolic and alpha, beta as printed, each difference reduced exactly by
    sympy."""
    g, m, e = sp.symbols("gamma mu eta", positive=True)
    alpha = 3 / (2 * g * m) - sp.Rational(1, 2)
    beta = (2 * alpha**2 - 1) / (alpha - 1)
    return identity_evidence(
        {
            "2 alpha/beta - (1 - (1 - 1/beta)/alpha)": 2 * alpha / beta - (1 - (1 - 1 / beta) / alpha),
            "1 - 2 alpha/beta - (1 - 1/beta)/alpha": 1 - 2 * alpha / beta - (1 - 1 / beta) / alpha,
            "(1/2)/alpha - (1/3) gamma mu (1 + (1/2)/alpha)": 1 / (2 * alpha) - g * m * (1 + 1 / (2 * alpha)) / 3,
            "eta/2 + gamma^2 mu (1 + 2 alpha)/6 - (eta + gamma)/2": e / 2
            + g**2 * m * (1 + 2 * alpha) / 6
            - (e + g) / 2,
            "1/alpha - 2 gamma mu/(3 - gamma mu)": 1 / alpha - 2 * g * m / (3 - g * m),
        }
    )
