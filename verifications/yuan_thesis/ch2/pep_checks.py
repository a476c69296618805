"""Chapter 2's deterministic FedAvg statements over the whole function class, by performance estimation.

With exact gradients (sigma = 0) FedAvg is local gradient descent followed by averaging, a linear combination of
gradients: the worst case of each printed inequality over every M-tuple of clients in the printed class, at fixed
(M, K, R) and step size, is one performance estimation problem (:mod:`fedtheory.pep.local_methods`). A worst case
above a printed bound is confirmed by replaying fedtheory's FedAvg (:mod:`fedtheory.algorithms.fedavg`: its round and
its local steps) on the interpolated instance. Assumption 2.3 (``sup_x ||grad F_m(x) - grad F(x)||^2 <= zeta^2``)
is expressible only at the points the problem holds: it is imposed at every point where a client is evaluated (x*,
every broadcast and local iterate, every shadow iterate whose value enters), and every client is evaluated at every
such point; a ``holds`` then covers the uniform class (a superclass is checked), a failure's replayed instance meets
the bound at those points only. Scales: L = 1, B = 1 (``||x^(0,0) - x*||^2 <= B^2``), zeta^2 = 1 unless a grid says
otherwise; the statements are checked at these constants as printed.

Lemma 2.3 and Lemma A.8(c) are tight over the class (constant clients, a linear function attain them): their worst
cases equal the bounds within the solver's accuracy, which the verdict counts as a hold at those points.

Statements with no claim here:

- Theorems 2.6, A.1, 2.15, A.7, Lemmas A.2, A.3, A.8(e), 2.20, 2.21 at sigma = 0: the bias, the consensus of
  identical clients and the noise terms vanish identically; their content is the noise (expectations over
  stochastic gradients are not a worst case over deterministic functions).
- Theorems 2.7, A.4, 2.8, 2.10, 2.16, A.9, Lemmas 2.11-2.14, A.5, Claim A.6: lower bounds on given instances
  (existential statements); a performance estimation problem gives an upper bound over a class.
- Lemma A.8(d), Lemmas A.10-A.14, Theorem 2.19's Q-terms: Q-Lipschitz Hessians (Assumption 2.5) have no
  interpolation conditions. Where the sigma = 0 bound is Q-free (Theorem 2.19) the class F_{0,L} is checked: every
  function of it is a uniform limit of convex L-smooth functions with finite Q, so its worst case is the printed
  class's (over all Q).
- (2.29), Lemma 2.18, Claim 2.17 and section 2.4.2: a diffusion, not an algorithm on a function class.
- Proposition 2.1's and Theorem 2.8's O(.) forms beyond the proof's term-by-term constant: no constant printed.
"""

from __future__ import annotations

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import local_methods as pep_local

PAPER = "yuan-thesis"
L, B2, ZETA2 = 1.0, 1.0, 1.0
#: (M, K, R) of the shadow-gap problems (quick: 8 and 12 gradient evaluations with every client at every point)
SHADOW_QUICK, SHADOW_FULL = ((2, 1, 2), (2, 2, 1)), ((2, 1, 2), (2, 2, 1), (2, 2, 2), (3, 2, 1), (2, 3, 1))
#: (M, K, R) of the homogeneous problems (identical clients: M does not change the worst case; M = 2 replays it)
HOMOG_QUICK, HOMOG_FULL = ((2, 2, 2),), ((2, 2, 1), (2, 2, 2), (2, 3, 2), (2, 2, 4), (2, 4, 3))
HETEROGENEITY = (
    "clients: the interpolants of the worst case, in F_{0,L} by construction (Assumption 2.1(a), (b)); Assumption "
    "2.3: ||grad f_m - grad F||^2 <= zeta^2 holds at x* and at every point where the algorithm or the metric "
    "evaluates a client (constraints of the SDP), not certified elsewhere; ||x^(0,0) - x*||^2 <= B^2 (SDP); sigma = 0"
)


def _shadow_grid(ctx: Context, etas) -> list[dict]:
    return [
        dict(M=M, K=K, R=R, eta=eta, mu=0.0, L=L, zeta2=ZETA2, D2=B2)
        for M, K, R in (SHADOW_QUICK if ctx.quick else SHADOW_FULL)
        for eta in etas
    ]


@claim(
    f"{PAPER}/prop-2.1:telescoped:pep",
    source="proof of Proposition 2.1, the bound after 'Telescoping r from 0 to R - 1'",
    statement="As printed with sigma = 0: (1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F* <= B^2/(2 eta KR) + "
    "18 K^2 eta^2 L zeta^2 for eta <= 1/(4L), over the whole class of M clients in F_{0,L} with ||grad F_m - grad "
    "F||^2 <= zeta^2 (imposed at every evaluated point) and ||x^(0,0) - x*|| <= B, at (M, K, R) in {(2,1,2), (2,2,1)} "
    "(full: also (2,2,2), (3,2,1), (2,3,1)) and eta L in {1/4, 1/16} (worst case by performance estimation; a "
    "failing point is confirmed by replaying fedtheory's FedAvg on the interpolated instance).",
    scope="printed",
    expect="holds",
)
def prop21_telescoped_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = B = zeta = 1. Reading: the telescoped bound with sigma = 0. Reference:
    the worst case from the SDP, certified by its dual; replay of :func:`fedtheory.algorithms.fedavg.round` where it
    exceeds the bound."""
    grid = _shadow_grid(ctx, (0.25 / L, 0.0625 / L) if not ctx.quick else (0.25 / L,))
    if ctx.quick:
        grid.append(dict(M=2, K=1, R=2, eta=0.0625 / L, mu=0.0, L=L, zeta2=ZETA2, D2=B2))
    return class_evidence(
        pep_local.fedavg_shadow_gap,
        pep_local.replay_fedavg_shadow_gap,
        grid,
        bound=lambda M, K, R, eta, mu, L, zeta2, D2: D2 / (2 * eta * K * R) + 18 * K**2 * eta**2 * L * zeta2,
        witness={"class": "F_{0,1}^M, uniform heterogeneity at evaluated points", "hypotheses": HETEROGENEITY},
    )


def _prop21_eta(M, K, R, L, zeta2, D2) -> float:
    """Proposition 2.1's step size at sigma = 0 (the sigma-branches are infinite; the zeta-branch when zeta > 0)."""
    steps = [1 / (4 * L)]
    if zeta2 > 0:
        steps.append(D2 ** (1 / 3) / (K * R ** (1 / 3) * L ** (1 / 3) * zeta2 ** (1 / 3)))
    return float(min(steps))


def _prop21_rate(K, R, L, zeta2, D2) -> float:
    """(1) + (4) of (2.2) ((2) and (3) vanish at sigma = 0)."""
    return L * D2 / (K * R) + L ** (1 / 3) * zeta2 ** (1 / 3) * D2 ** (2 / 3) / R ** (2 / 3)


@claim(
    f"{PAPER}/prop-2.1:pep",
    source="Proposition 2.1, eq. (2.2)",
    statement="As printed with sigma = 0, at the step size of its proof (eta = min{1/(4L), B^(2/3)/(K R^(1/3) "
    "L^(1/3) zeta^(2/3))}; 1/(4L) when zeta = 0, Assumption 2.2): (1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F* <= "
    "C((1) + (4)) with C = 18.5 (the proof's term-by-term constant, as in yuan-thesis/prop-2.1), over the whole class "
    "of M clients in F_{0,L} with ||grad F_m - grad F||^2 <= zeta^2 (imposed at every evaluated point) and "
    "||x^(0,0) - x*|| <= B, at (M, K, R) in {(2,1,2), (2,2,1)} (full: also (2,2,2), (3,2,1), (2,3,1)) and zeta^2 in "
    "{0, 1, 16} (quick: (2,2,1) at zeta^2 = 1 only) (worst case by performance estimation; a failing point is "
    "confirmed by replaying fedtheory's FedAvg).",
    scope="printed",
    expect="holds",
)
def prop21_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = B = 1. Reading: sigma = 0, so (2) and (3) vanish and the step size keeps
    its 1/(4L) and zeta branches. Reference: the SDP's certified worst case; replay where it exceeds the bound."""
    grid = []
    for M, K, R in SHADOW_QUICK if ctx.quick else SHADOW_FULL:
        for zeta2 in (1.0,) if ctx.quick and K > 1 else (0.0, 1.0, 16.0):  # quick: K = 2 at zeta^2 = 1 only
            eta = _prop21_eta(M, K, R, L, zeta2, B2)
            grid.append(dict(M=M, K=K, R=R, eta=eta, mu=0.0, L=L, zeta2=zeta2, D2=B2))
    return class_evidence(
        pep_local.fedavg_shadow_gap,
        pep_local.replay_fedavg_shadow_gap,
        grid,
        bound=lambda M, K, R, eta, mu, L, zeta2, D2: 18.5 * _prop21_rate(K, R, L, zeta2, D2),
        witness={"class": "F_{0,1}^M, uniform heterogeneity at evaluated points", "hypotheses": HETEROGENEITY},
    )


@claim(
    f"{PAPER}/lem-2.4:pep",
    source="Lemma 2.4",
    statement="As printed with sigma = 0: ||x_m^(r,k) - xbar^(r,k)||^2 <= 18 K^2 eta^2 zeta^2 for eta <= 1/(4L), r < R "
    "and k < K, over the whole class of M clients in F_{0,L} with ||grad F_m - grad F||^2 <= zeta^2 (imposed at every "
    "evaluated point) from any broadcast point (the deviation restarts every round: any r), at (M, K) = (2, 3) "
    "(full: also (2, 2), (3, 3), (2, 4), (3, 4)), every k in 1..K-1, eta L in {1/4, 1/16} (worst case by performance "
    "estimation; a failing point is confirmed by replaying fedtheory's FedAvg local steps).",
    scope="printed",
    expect="holds",
)
def lem24_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = zeta = 1, client 1 (the clients are exchangeable). Reference: the SDP's
    certified worst case; replay of :func:`fedtheory.algorithms.fedavg.local_sgd` (one step at a time, checked
    against :func:`fedtheory.algorithms.fedavg.round`) where it exceeds the bound."""
    pairs = ((2, 3),) if ctx.quick else ((2, 2), (2, 3), (3, 3), (2, 4), (3, 4))
    grid = [
        dict(M=M, K=K, k=k, eta=eta, mu=0.0, L=L, zeta2=ZETA2)
        for M, K in pairs
        for k in range(1, K)
        for eta in (0.25 / L, 0.0625 / L)
    ]
    return class_evidence(
        pep_local.fedavg_consensus,
        pep_local.replay_fedavg_consensus,
        grid,
        bound=lambda M, K, k, eta, mu, L, zeta2: 18 * K**2 * eta**2 * zeta2,
        witness={
            "class": "F_{0,1}^M, uniform heterogeneity at evaluated points",
            "hypotheses": HETEROGENEITY.replace("; ||x^(0,0) - x*||^2 <= B^2 (SDP)", "; any start"),
        },
    )


@claim(
    f"{PAPER}/lem-2.4:proof-recursion:pep",
    source="proof of Lemma 2.4, appendix A.1.2, display after (A.5)",
    statement="As printed with sigma = 0: ||x_1' - x_2'||^2 <= (1 + 1/K)||x_1 - x_2||^2 + 10K eta^2 zeta^2 for one "
    "local step from any two client states, eta <= 1/(4L), over the whole class of M clients in F_{0,L} with ||grad "
    "F_m - grad F||^2 <= zeta^2 (imposed at both states), at M = 2, K in {1, 2, 5, 20} and eta L in {1/4, 1/16} "
    "(full: M in {2, 3}, eta L in {1/4, 1/8, 1/16}) (worst case by performance estimation; a failing point is "
    "confirmed by replaying fedtheory's local step).",
    scope="printed",
    expect="holds",
)
def lem24_recursion_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = zeta = 1. Reading: the metric is ||Delta'||^2 - (1 + 1/K)||Delta||^2, the
    bound 10K eta^2 zeta^2. Reference: the SDP's certified worst case; replay of
    :func:`fedtheory.algorithms.fedavg.local_sgd` (one step) where it exceeds the bound."""
    grid = [
        dict(M=M, eta=eta, mu=0.0, L=L, zeta2=ZETA2, c=1 + 1 / K, K=K)
        for M in ((2,) if ctx.quick else (2, 3))
        for K in (1, 2, 5, 20)
        for eta in ((0.25 / L, 0.0625 / L) if ctx.quick else (0.25 / L, 0.125 / L, 0.0625 / L))
    ]
    return class_evidence(
        _pair_step,
        pep_local.replay_local_gd_pair_step,
        grid,
        bound=lambda M, eta, mu, L, zeta2, c, K: 10 * K * eta**2 * zeta2,
        witness={
            "class": "F_{0,1}^M, uniform heterogeneity at the two states",
            "hypotheses": HETEROGENEITY.replace("; ||x^(0,0) - x*||^2 <= B^2 (SDP)", "; any two states"),
        },
    )


def _pair_step(pep, *, M, eta, mu, L, zeta2, c, K):
    """:func:`fedtheory.pep.local_methods.local_gd_pair_step` with ``c = 1 + 1/K`` (K names the grid point)."""
    return pep_local.local_gd_pair_step(pep, M=M, eta=eta, mu=mu, L=L, zeta2=zeta2, c=c)


@claim(
    f"{PAPER}/thm-2.19:pep",
    source="Theorem 2.19, eq. (2.31) and its proof (bound before choosing eta)",
    statement="As printed with sigma = 0: F(x_hat) - F* <= 3B^2/(eta KR) for eta <= 1/(2L), x_hat the weighted "
    "average of the shadow iterates of section 2.1 (weights (1 + 1/KR)^-(rK+k+1)), over the whole class of identical "
    "clients in F_{0,L} (every convex L-smooth function is a limit of ones with finite Q, so this is the printed class "
    "over all Q) with ||x^(0,0) - x*|| <= B, at (M, K, R) = (2,2,2) (full: also (2,2,1), (2,3,2), (2,2,4), "
    "(2,4,3)) and eta L in {1/2, 1/4, 1/16} (worst case by performance estimation; a failing point is confirmed by "
    "replaying fedtheory's FedAvg).",
    scope="printed",
    expect="holds",
)
def thm219_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = B = 1, homogeneous (Assumption 2.2). Reference: the SDP's certified worst
    case; replay of :func:`fedtheory.algorithms.fedavg.round` on M copies of the interpolant where it exceeds the
    bound."""
    grid = [
        dict(M=M, K=K, R=R, eta=eta, mu=0.0, L=L, D2=B2)
        for M, K, R in (HOMOG_QUICK if ctx.quick else HOMOG_FULL)
        for eta in (0.5 / L, 0.25 / L, 0.0625 / L)
    ]
    return class_evidence(
        pep_local.local_gd_weighted_gap,
        pep_local.replay_local_gd_weighted_gap,
        grid,
        bound=lambda M, K, R, eta, mu, L, D2: 3 * D2 / (eta * K * R),
        witness={
            "class": "F_{0,1}, identical clients",
            "hypotheses": "the interpolant is convex and L-smooth by construction (Assumption 2.5 without Q: a limit "
            "of finite-Q functions), identical clients (Assumption 2.2), sigma = 0, ||x^(0,0) - x*||^2 <= B^2 (SDP)",
        },
    )


NONCONVEX = (
    "the interpolant is L-smooth by construction (Assumption 2.6(a)), identical clients (Assumption 2.2), sigma = 0; "
    "||grad F||^2 <= G^2 (2.6(c)) and F(x^(0,0)) - F <= Delta hold at every evaluated point (constraints of the SDP), "
    "not certified elsewhere (inf F of the interpolant is not computed)"
)


def _nonconvex_grid(ctx: Context, step) -> list[dict]:
    return [
        dict(M=M, K=K, R=R, eta=step(K, R, Delta), L=L, G2=1.0, Delta=Delta)
        for M, K, R in (HOMOG_QUICK if ctx.quick else HOMOG_FULL)
        for Delta in (0.1, 1.0, 8.0)
    ]


@claim(
    f"{PAPER}/thm-2.22:telescoped:pep",
    source="proof of Theorem 2.22, appendix A.5.2",
    statement="As printed with sigma = 0, at eta = min{1/L, Delta^(1/3)/(K R^(1/3) L^(2/3) G^(2/3))}: (1/KR) "
    "sum_{r<R, k<K} ||grad F(xbar^(r,k))||^2 <= 2 Delta/(eta KR) + 8 L^2 eta^2 G^2 K^2, over the whole class of "
    "identical L-smooth clients with ||grad F||^2 <= G^2 and F(x^(0,0)) - F <= Delta at every evaluated point, at "
    "(M, K, R) = (2,2,2) (full: also (2,2,1), (2,3,2), (2,2,4), (2,4,3)), G = 1, Delta in {0.1, 1, 8} (worst case "
    "by performance estimation over a class containing the printed one; a failing point is replayed with fedtheory's "
    "FedAvg).",
    scope="printed",
    expect="holds",
)
def thm222_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = G = 1, homogeneous. Reference: the SDP's certified worst case; replay of
    :func:`fedtheory.algorithms.fedavg.round` on copies of the interpolant where it exceeds the bound."""
    grid = _nonconvex_grid(ctx, lambda K, R, Delta: min(1 / L, Delta ** (1 / 3) / (K * R ** (1 / 3) * L ** (2 / 3))))
    return class_evidence(
        pep_local.local_gd_gradient_norm,
        pep_local.replay_local_gd_gradient_norm,
        grid,
        bound=lambda M, K, R, eta, L, G2, Delta: 2 * Delta / (eta * K * R) + 8 * L**2 * eta**2 * G2 * K**2,
        witness={"class": "L-smooth, identical clients", "hypotheses": NONCONVEX},
    )


Q_23 = 1.0


@claim(
    f"{PAPER}/thm-2.23:telescoped:pep",
    source="proof of Theorem 2.23, appendix A.5.1",
    statement="As printed with sigma = 0, at eta = min{1/L, Delta^(1/5)/(K R^(1/5) Q^(2/5) G^(4/5))}: (1/KR) "
    "sum_{r<R, k<K} ||grad F(xbar^(r,k))||^2 <= 2 Delta/(eta KR) + 8 Q^2 eta^4 G^4 K^4, over the whole class of "
    "identical L-smooth clients with ||grad F||^2 <= G^2 and F(x^(0,0)) - F <= Delta at every evaluated point (Q is "
    "not constrained: the class contains the printed one), at (M, K, R) = (2,2,2) (full: also (2,2,1), (2,3,2), "
    "(2,2,4), (2,4,3)), G = Q = 1, Delta in {0.1, 1, 8} (worst case by performance estimation).",
    scope="printed",
    expect="holds",
)
def thm223_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = G = Q = 1, homogeneous. Reference: the SDP's certified worst case; replay
    of :func:`fedtheory.algorithms.fedavg.round` where it exceeds the bound (a replayed instance has no certified Q)."""
    grid = _nonconvex_grid(ctx, lambda K, R, Delta: min(1 / L, Delta ** (1 / 5) / (K * R ** (1 / 5) * Q_23 ** (2 / 5))))
    return class_evidence(
        pep_local.local_gd_gradient_norm,
        pep_local.replay_local_gd_gradient_norm,
        grid,
        bound=lambda M, K, R, eta, L, G2, Delta: 2 * Delta / (eta * K * R) + 8 * Q_23**2 * eta**4 * G2**2 * K**4,
        witness={"class": "L-smooth, identical clients (Q free)", "hypotheses": NONCONVEX + "; Q not constrained"},
    )


@claim(
    f"{PAPER}/lem-2.3:pep",
    source="Lemma 2.3 (last LHS term read at r = R - 1)",
    statement="As printed with sigma = 0, for eta <= 1/(4L): (1/KR) sum_r sum_{k=1..K} F(xbar^(r,k)) - F* + "
    "(1/(2 eta KR)) ||xbar^(R-1,K) - x*||^2 <= (1/(2 eta KR)) ||x^(0,0) - x*||^2 + (L/(MKR)) sum_r sum_{k<K} sum_m "
    "||x_m^(r,k) - xbar^(r,k)||^2 over the whole class of M clients in F_{0,L} (no heterogeneity bound: the lemma "
    "assumes none) with ||x^(0,0) - x*||^2 <= B^2, at (M, K, R) in {(2,1,2), (2,2,1)} (full: also (2,2,2), (3,2,1), "
    "(2,3,1)) and eta L in {1/4, 1/16} (quick: 1/4). Tight: constant clients attain equality (worst case by "
    "performance estimation; a failing point is confirmed by replaying fedtheory's FedAvg).",
    scope="printed",
    expect="holds",
)
def lem23_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), L = B = 1. Reading: sigma = 0, the consensus term moved to the left (the
    formulation's metric is LHS minus that term). Reference: the SDP's certified worst case; replay where it exceeds
    the bound."""
    grid = [
        dict(M=M, K=K, R=R, eta=eta, mu=0.0, L=L, D2=B2)
        for M, K, R in (SHADOW_QUICK if ctx.quick else SHADOW_FULL)
        for eta in ((0.25 / L,) if ctx.quick else (0.25 / L, 0.0625 / L))
    ]
    return class_evidence(
        pep_local.fedavg_shadow_lyapunov,
        pep_local.replay_fedavg_shadow_lyapunov,
        grid,
        bound=lambda M, K, R, eta, mu, L, D2: D2 / (2 * eta * K * R),
        witness={"class": "F_{0,1}^M", "hypotheses": "interpolants in F_{0,L} by construction; ||x0 - x*||^2 <= B^2"},
    )


@claim(
    f"{PAPER}/lem-a.8:c:pep",
    source="Lemma A.8 (c)",
    statement="As printed with sigma = 0 (u^(k) is then the k-step gradient map): for eta <= 1/L the k-step gradient "
    "map is 1-Lipschitz, ||z_k - y_k|| <= ||z_0 - y_0||, over the whole class of convex L-smooth functions in any "
    "dimension (a superclass of the lemma's one-dimensional instances), at k in {1, 2, 4} (full: 1..8) and eta L in "
    "{1/4, 1} (full: also 1/2). Tight: a linear function attains it.",
    scope="printed",
    expect="holds",
)
def lem_a8_c_pep(ctx: Context) -> Evidence:
    """Instance: the whole class F_{0,1} (PEP). Reading: sigma = 0, so u^(k)(x) is the k-th gradient step; the
    derivative bound |u'| <= 1 is the Lipschitz constant of that map. Reference: the SDP's certified worst case of
    ||z_k - y_k||^2 with ||z_0 - y_0||^2 <= 1; replay where it exceeds 1."""
    ks, etas = ((1, 2, 4), (0.25, 1.0)) if ctx.quick else (tuple(range(1, 9)), (0.25, 0.5, 1.0))
    grid = [dict(k=k, eta=eta / L, mu=0.0, L=L) for k in ks for eta in etas]
    return class_evidence(
        pep_local.gd_lipschitz,
        pep_local.replay_gd_lipschitz,
        grid,
        bound=[1.0] * len(grid),
        witness={"class": "F_{0,1}", "hypotheses": "the interpolant is convex and L-smooth by construction"},
    )
