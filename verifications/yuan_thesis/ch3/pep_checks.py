"""FedAc's deterministic statements over the whole function class, by performance estimation.

Chapter 3 is homogeneous: every client holds the same F in F_{mu,L} (Assumption 3.1(a), (b)). With sigma = 0 every
client runs the same deterministic local steps, server averaging is the identity, and FedAc is M-independent: the
worst case over the class at fixed (K, R, eta, gamma) is one performance estimation problem
(:mod:`fedtheory.pep.accelerated`), replayed with fedtheory's FedAc on two identical copies of the interpolated
worst function. The sigma = 0 parts checked: the decay terms of Theorems 3.5, B.12 and 3.1, Lemmas 3.7, 3.11,
3.23 and B.15 at R rounds, Lemmas B.24 and B.27 (the l2-augmented general-convex runs), the one-step potential
contractions in the proofs of Lemmas 3.7 and 3.23, the one-step stability of Propositions 3.17 and B.16, and
Remarks 3.6 and B.2. Potentials are normalised (Psi0 or Phi0 <= 1; B = 1): the statements are homogeneous of degree
one in the initial potential.

Not expressible here (no claim):

- Theorems 3.3 and B.1, Lemma B.3 (Assumption 3.2): Q-Lipschitz Hessians have no interpolation conditions a PEP
  can state. At sigma = 0 their bounds are those of Theorem B.12 and Lemma B.15 (3.3 with 2 L B^2), checked below
  over F_{mu,L}, a superclass, so a ``holds`` there covers them; a failure there would not be a witness for them.
- Lemmas 3.10, 3.24, B.14, Propositions B.8, B.9, B.17, 3.18 (discrepancy bounds): zero at sigma = 0 with
  identical clients; their content is the noise.
- Proposition 3.2, Theorems 3.4, B.18, Lemma B.19 (FedAvg under A3.1/A3.2): Proposition 3.2's rho is unspecified
  (Otilde constants); B.18/B.19 need Assumption 3.2 and the weighted average; the FedAvg formulation of
  :mod:`fedtheory.pep.local_methods` is chapter 2's.
- Theorem 3.8 (instability of AGD): an existential lower bound on the growth of differences; a PEP gives an upper
  bound over the class (the exact certified instances of :mod:`.instability` check it).
- Propositions 3.12, 3.13, B.4, B.5, Claim 3.14: one-step inequalities whose right-hand side is a state-dependent
  expression; bound 0 for LHS - RHS is degenerate for the margin (homogeneous, worst case 0), left to the exact
  checks at random states.
- Theorems B.21-B.23, Lemmas B.25, B.28, B.30, B.31 (general convex): B.21 needs T >= 24 and B.22/B.23 T >= 1000
  local steps, SDPs of 24+ gradient evaluations (5-8 s each at T = 24, far beyond the quick budget); B.30/B.31
  and B.23 need Assumption 3.2. Lemmas B.24 and B.27 (any lambda, eta) are checked below at small (K, R).
- Propositions 3.16, B.7, Claims 3.19-3.22, B.10, B.11: matrix statements, not over a function class.
"""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms.fedac import prescribed_gamma
from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.pep import class_evidence
from fedtheory.pep import accelerated as pep_acc

PAPER = "yuan-thesis"
L = 1.0
KR_QUICK = ((2, 2), (1, 3))
KR_FULL = ((2, 1), *KR_QUICK, (3, 2), (2, 4), (4, 3))
ETAS_QUICK, ETAS_FULL = (1.0, 0.05), (1.0, 0.3, 0.05)  # eta L: the endpoint 1/L and interior values
HYP = {
    "class": "F in F_{mu,L} (interpolants of the worst case, in the class by construction), every client holding F "
    "(homogeneous), sigma = 0 (exact gradients)",
    "start": "x_ag^(0,0) = x^(0,0) (Algorithm 2)",
}


def _kappas(ctx: Context) -> tuple[float, ...]:
    return (10.0,) if ctx.quick else (10.0, 100.0)


def _gammas(eta: float, mu: float) -> tuple[float, ...]:
    """gamma in [eta, sqrt(eta/mu)]: both endpoints and the geometric mean."""
    top = float(np.sqrt(eta / mu))
    return (eta, float(np.sqrt(eta * top)), top)


def _weight(variant: str, mu: float) -> float:
    return mu / 2 if variant == "FedAc-I" else mu / 6


def _theorem_grid(ctx: Context, variant: str, etas=(1.0,)) -> list[dict]:
    """Prescribed gamma = max{sqrt(eta/(mu K)), eta}, (3.2)/(3.3), over (K, R) and eta."""
    return [
        dict(
            K=K,
            R=R,
            eta=eta / L,
            gamma=prescribed_gamma(eta / L, L / k, K),
            variant=variant,
            mu=L / k,
            L=L,
            weight=_weight(variant, L / k),
        )
        for k in _kappas(ctx)
        for K, R in (KR_QUICK if ctx.quick else KR_FULL)
        for eta in etas
    ]


def _any_gamma_grid(ctx: Context, variant: str, **extra) -> list[dict]:
    """gamma over [eta, sqrt(eta/mu)] (endpoints, interior) and eta over (0, 1/L]."""
    krs = ((2, 2),) if ctx.quick else ((2, 2), (3, 2), (2, 4))
    return [
        dict(K=K, R=R, eta=eta / L, gamma=g, variant=variant, mu=L / k, L=L, **extra)
        for k in _kappas(ctx)
        for K, R in krs
        for eta in (ETAS_QUICK if ctx.quick else ETAS_FULL)
        for g in _gammas(eta / L, L / k)
    ]


def _potential_evidence(grid, bound, what: str) -> Evidence:
    return class_evidence(
        pep_acc.fedac_potential,
        pep_acc.replay_fedac_potential,
        grid,
        bound=bound,
        witness={"hypotheses": {**HYP, "initial potential": f"{what}^(0,0) <= 1 (an SDP constraint)"}},
    )


def _decay_35(K, R, mu, L, **_):
    return min(np.exp(-mu * K * R / L), np.exp(-np.sqrt(mu * K / L) * R))


def _decay_b12(K, R, mu, L, **_):
    return min(np.exp(-mu * K * R / (3 * L)), np.exp(-np.sqrt(mu * K / L) * R / 3))


@claim(
    f"{PAPER}/thm-3.5:pep",
    source="Theorem 3.5",
    statement="As printed with sigma = 0 (eta = 1/L, the printed step size's value as sigma -> 0): FedAc-I yields "
    "Psi^(R,0) <= min{exp(-mu K R/L), exp(-mu^(1/2) K^(1/2) R/L^(1/2))} Psi0 over the whole class of F in F_{mu,L} "
    "held by every client, at (K, R) in {(2,2), (1,3)} (full: also (2,1), (3,2), (2,4), (4,3)), any M, L = 1, "
    "kappa = 10 (full: also 100) (worst case by performance estimation; a failing point is confirmed by replaying "
    "fedtheory's FedAc on the interpolated instance).",
    scope="printed",
    expect="holds",
)
def thm_35_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), grid above, prescribed gamma of (3.2). Reading: sigma = 0 part of the bound.
    Reference: worst Psi^(R,0)/Psi0 from the SDP, certified by its dual; replay of
    :func:`fedtheory.algorithms.fedac.run` where it exceeds the bound."""
    return _potential_evidence(_theorem_grid(ctx, "FedAc-I"), _decay_35, "Psi")


@claim(
    f"{PAPER}/lem-3.11:pep",
    source="Lemma 3.11, (3.13)",
    statement="As printed with sigma = 0: for every eta in (0, 1/L], FedAc-I yields Psi^(R,0) <= exp(-max{eta mu, "
    "sqrt(eta mu/K)} K R) Psi0 over the whole class of F in F_{mu,L} held by every client, at (K, R) as "
    "yuan-thesis/thm-3.5:pep, eta L in {1, 0.05} (full: {1, 0.3, 0.05}), any M, L = 1, kappa = 10 (full: also 100) "
    "(worst case by performance estimation; a failing point is confirmed by a replay).",
    scope="printed",
    expect="holds",
)
def lem_311_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), prescribed gamma of (3.2) at each eta. Reading: sigma = 0 part of (3.13).
    Reference: SDP worst case; replay of fedtheory's FedAc where it exceeds the bound."""
    grid = _theorem_grid(ctx, "FedAc-I", ETAS_QUICK if ctx.quick else ETAS_FULL)
    bound = lambda K, R, eta, mu, **_: np.exp(-max(eta * mu, np.sqrt(eta * mu / K)) * K * R)  # noqa: E731
    return _potential_evidence(grid, bound, "Psi")


@claim(
    f"{PAPER}/lem-3.7:pep",
    source="Lemma 3.7, (3.10)",
    statement="As printed with sigma = 0 (the discrepancy term is 0: identical clients stay identical): for alpha = "
    "1/(gamma mu), beta = alpha + 1, gamma in [eta, sqrt(eta/mu)], eta in (0, 1/L], FedAc yields Psi^(R,0) <= "
    "exp(-gamma mu K R) Psi0 over the whole class of F in F_{mu,L} held by every client, at (K, R) = (2, 2) (full: "
    "also (3,2), (2,4)), eta L in {1, 0.05} (full: also 0.3), gamma in {eta, sqrt(eta sqrt(eta/mu)), "
    "sqrt(eta/mu)}, any M, L = 1, kappa = 10 (full: also 100) (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def lem_37_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP) over the gamma range. Reading: sigma = 0 part of (3.10). Reference: SDP worst
    case; replay of fedtheory's FedAc where it exceeds the bound."""
    grid = _any_gamma_grid(ctx, "FedAc-I", weight=0.0)
    for p in grid:
        p["weight"] = p["mu"] / 2
    return _potential_evidence(grid, lambda K, R, gamma, mu, **_: np.exp(-gamma * mu * K * R), "Psi")


@claim(
    f"{PAPER}/thm-b.12:pep",
    source="Theorem B.12",
    statement="As printed with sigma = 0 (eta = 1/L, the printed step size's value as sigma -> 0, in either reading "
    "of its inner min): FedAc-II yields Phi^(R,0) <= min{exp(-mu K R/(3L)), exp(-mu^(1/2) K^(1/2) R/(3 L^(1/2)))} "
    "Phi0 over the whole class of F in F_{mu,L} held by every client, at (K, R) as yuan-thesis/thm-3.5:pep, any M, "
    "L = 1, kappa = 10 (full: also 100) (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def thm_b12_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), prescribed gamma of (3.3). Reading: sigma = 0 part of the bound. Reference:
    SDP worst case; replay of fedtheory's FedAc where it exceeds the bound."""
    return _potential_evidence(_theorem_grid(ctx, "FedAc-II"), _decay_b12, "Phi")


@claim(
    f"{PAPER}/lem-b.15:pep",
    source="Lemma B.15, (B.32)",
    statement="As printed with sigma = 0: for every eta in (0, 1/L], FedAc-II yields Phi^(R,0) <= exp(-(1/3) "
    "max{eta mu, sqrt(eta mu/K)} K R) Phi0 over the whole class of F in F_{mu,L} held by every client, at the grid "
    "of yuan-thesis/lem-3.11:pep (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def lem_b15_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), prescribed gamma of (3.3) at each eta. Reading: sigma = 0 part of (B.32).
    Reference: SDP worst case; replay where it exceeds the bound."""
    grid = _theorem_grid(ctx, "FedAc-II", ETAS_QUICK if ctx.quick else ETAS_FULL)
    bound = lambda K, R, eta, mu, **_: np.exp(-max(eta * mu, np.sqrt(eta * mu / K)) * K * R / 3)  # noqa: E731
    return _potential_evidence(grid, bound, "Phi")


@claim(
    f"{PAPER}/lem-3.23:pep",
    source="Lemma 3.23",
    statement="As printed with sigma = 0 (the gradient-discrepancy term is 0: identical clients): for FedAc-II's "
    "alpha, beta of gamma in [eta, sqrt(eta/mu)] and eta in (0, 1/L], Phi^(R,0) <= exp(-gamma mu K R/3) Phi0 over "
    "the whole class of F in F_{mu,L} held by every client, at the grid of yuan-thesis/lem-3.7:pep "
    "(performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def lem_323_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP) over the gamma range. Reading: sigma = 0 part of the lemma. Reference: SDP
    worst case; replay where it exceeds the bound."""
    grid = _any_gamma_grid(ctx, "FedAc-II", weight=0.0)
    for p in grid:
        p["weight"] = p["mu"] / 6
    return _potential_evidence(grid, lambda K, R, gamma, mu, **_: np.exp(-gamma * mu * K * R / 3), "Phi")


def _unique(grid: list[dict]) -> list[dict]:
    """``grid`` without repeated points (in order)."""
    seen = {}
    for p in grid:
        seen.setdefault(tuple(sorted(p.items())), p)
    return list(seen.values())


def _one_step_grid(ctx: Context, variant: str) -> list[dict]:
    grid = _any_gamma_grid(ctx, variant, weight=0.0, free_start=True)
    for p in grid:
        p.update(K=1, R=1, weight=_weight(variant, p["mu"]))
    return _unique(grid)


def _one_step_evidence(ctx, variant, factor, what) -> Evidence:
    grid = _one_step_grid(ctx, variant)
    return class_evidence(
        pep_acc.fedac_potential,
        pep_acc.replay_fedac_potential,
        grid,
        bound=factor,
        witness={"hypotheses": {**HYP, "start": f"any pair (x, x_ag) with {what} <= 1 (an SDP constraint)"}},
    )


ONE_STEP_GRID = (
    "over the whole class of F in F_{mu,L}, from every state (x, x_ag), at eta L in {1, 0.05} (full: also 0.3), gamma "
    "in {eta, sqrt(eta sqrt(eta/mu)), sqrt(eta/mu)}, L = 1, kappa = 10 (full: also 100) (performance estimation; "
    "failures replayed)."
)


@claim(
    f"{PAPER}/lem-3.7:one-step:pep",
    source="proof of Lemma 3.7 (one-step form before telescoping), with sigma = 0 and M = 1",
    statement="Noiseless FedAc-I (alpha = 1/(gamma mu), beta = alpha + 1): Psi_{t+1} <= (1 - gamma mu) Psi_t "
    + ONE_STEP_GRID,
    scope="printed",
    expect="holds",
)
def lem_37_one_step_pep(ctx: Context) -> Evidence:
    """Instance: the whole class and every start (PEP, free (x, x_ag)), one local step. Reference: SDP worst case;
    replay where it exceeds the bound."""
    return _one_step_evidence(ctx, "FedAc-I", lambda gamma, mu, **_: 1 - gamma * mu, "Psi")


@claim(
    f"{PAPER}/lem-3.23:one-step:pep",
    source="proof of Lemma 3.23, (B.10) term (I), with sigma = 0",
    statement="Noiseless FedAc-II: Phi_{t+1} <= (1 - gamma mu/(3 - gamma mu)) Phi_t " + ONE_STEP_GRID,
    scope="printed",
    expect="holds",
)
def lem_323_one_step_pep(ctx: Context) -> Evidence:
    """Instance: the whole class and every start (PEP), one local step. Reference: SDP worst case; replay where it
    exceeds the bound."""
    return _one_step_evidence(ctx, "FedAc-II", lambda gamma, mu, **_: 1 - gamma * mu / (3 - gamma * mu), "Phi")


@claim(
    f"{PAPER}/lem-3.23:one-step-printed:pep",
    source="proof of Lemma 3.23, after (B.11), with sigma = 0",
    statement="Noiseless FedAc-II: Phi_{t+1} <= (1 - gamma mu/3) Phi_t " + ONE_STEP_GRID,
    scope="printed",
    expect="holds",
)
def lem_323_one_step_printed_pep(ctx: Context) -> Evidence:
    """As :func:`lem_323_one_step_pep` (same SDPs) against the factor 1 - gamma mu/3."""
    return _one_step_evidence(ctx, "FedAc-II", lambda gamma, mu, **_: 1 - gamma * mu / 3, "Phi")


def _gap_evidence(ctx: Context, variant: str, decay) -> Evidence:
    grid = _theorem_grid(ctx, variant)
    for p in grid:
        p["weight"] = 0.0
    return class_evidence(
        pep_acc.fedac_gap,
        pep_acc.replay_fedac_gap,
        grid,
        bound=lambda **p: decay(**p) * L,
        witness={"hypotheses": {**HYP, "initial distance": "B^2 = ||x^(0,0) - x*||^2 <= 1 (an SDP constraint)"}},
    )


@claim(
    f"{PAPER}/thm-3.1:a-decay-term:pep",
    source="Theorem 3.1(a), (3.4)",
    statement="As printed with sigma = 0 (eta = 1/L): FedAc-I yields F(x_ag^(R,0)) - F* <= exp(min{-mu K R/L, "
    "-sqrt(mu K R^2/L)}) L B^2 over the whole class of F in F_{mu,L} held by every client, at the grid of "
    "yuan-thesis/thm-3.5:pep (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def thm_31a_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), ||x^(0,0) - x*|| <= B = 1. Reading: the decay term, the whole bound at sigma
    = 0. Reference: SDP worst case; replay where it exceeds the bound."""
    return _gap_evidence(ctx, "FedAc-I", _decay_35)


@claim(
    f"{PAPER}/thm-3.1:b-decay-term:pep",
    source="Theorem 3.1(b), (3.5)",
    statement="As printed with sigma = 0 (eta = 1/L): FedAc-II yields F(x_ag^(R,0)) - F* <= exp(min{-mu K R/(3L), "
    "-sqrt(mu K R^2/(9L))}) L B^2 over the whole class of F in F_{mu,L} held by every client, at the grid of "
    "yuan-thesis/thm-3.5:pep (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def thm_31b_pep(ctx: Context) -> Evidence:
    """As :func:`thm_31a_pep` for FedAc-II and (3.5)."""
    return _gap_evidence(ctx, "FedAc-II", _decay_b12)


@claim(
    f"{PAPER}/remark-3.6:pep",
    source="Remark 3.6 and Remark B.2 (Psi0, Phi0 <= L B^2)",
    statement="Psi^(0,0) <= L B^2 and Phi^(0,0) <= L B^2 over the whole class of F in F_{mu,L} and every x^(0,0) "
    "with ||x^(0,0) - x*|| <= B, at L = 1, kappa in {10, 100} (performance estimation; failures replayed).",
    scope="printed",
    expect="holds",
)
def remark_36_pep(ctx: Context) -> Evidence:
    """Instance: the whole class (PEP), R = 0. Reference: SDP worst case; replay where it exceeds the bound."""
    grid = [
        dict(
            K=1,
            R=0,
            eta=1 / L,
            gamma=prescribed_gamma(1 / L, L / k, 1),
            variant=v,
            mu=L / k,
            L=L,
            weight=_weight(v, L / k),
        )
        for k in (10.0, 100.0)
        for v in ("FedAc-I", "FedAc-II")
    ]
    return class_evidence(
        pep_acc.fedac_gap,
        pep_acc.replay_fedac_gap,
        grid,
        bound=[L] * len(grid),
        witness={"hypotheses": {**HYP, "initial distance": "||x^(0,0) - x*||^2 <= B^2 = 1"}},
    )


def _stability_evidence(ctx: Context, variant: str, growth) -> Evidence:
    grid = _any_gamma_grid(ctx, variant)
    for p in grid:
        del p["R"]
        p["K"] = 1
    grid = _unique(grid)
    bound = lambda eta, gamma, mu, **_: (1 + growth * gamma**2 * mu / eta) ** 2 if gamma > eta else 1.0  # noqa: E731
    return class_evidence(
        pep_acc.fedac_stability,
        pep_acc.replay_fedac_stability,
        grid,
        bound=bound,
        witness={
            "hypotheses": {
                **HYP,
                "start": "two arbitrary pairs with ||X^-1 [D_ag; D]||^2 <= 1 (an SDP "
                "constraint); sigma = 0, so D_eps = 0",
            }
        },
    )


STABILITY_GRID = (
    "over the whole class of F in F_{mu,L} and all pairs of states, one local step, at eta L in {1, 0.05} (full: also "
    "0.3), gamma in {eta, sqrt(eta sqrt(eta/mu)), sqrt(eta/mu)}, L = 1, kappa = 10 (full: also 100) (performance "
    "estimation; failures replayed)."
)


@claim(
    f"{PAPER}/prop-3.17:pep",
    source="Proposition 3.17 (setting of Lemma 3.10: FedAc-I hyperparameters, any gamma in [eta, sqrt(eta/mu)])",
    statement="As printed with sigma = 0: for FedAc-I and two runs on the same F, ||X^-1 [D_ag; D]^+||^2 <= ||X^-1 "
    "[D_ag; D]||^2 (1 + 2 gamma^2 mu/eta)^2 for gamma > eta, with factor 1 for gamma = eta, " + STABILITY_GRID,
    scope="printed",
    expect="holds",
)
def prop_317_pep(ctx: Context) -> Evidence:
    """Instance: the whole class and every pair of states (PEP). Reference: SDP worst case; replay of two FedAc runs
    where it exceeds the bound."""
    return _stability_evidence(ctx, "FedAc-I", 2.0)


@claim(
    f"{PAPER}/prop-b.16:pep",
    source="Proposition B.16 (setting of Lemma B.14: FedAc-II hyperparameters, any gamma in [eta, sqrt(eta/mu)])",
    statement="As printed with sigma = 0: for FedAc-II and two runs on the same F, ||X^-1 [D_ag; D]^+||^2 <= ||X^-1 "
    "[D_ag; D]||^2 (1 + gamma^2 mu/eta)^2 for gamma > eta, with factor 1 for gamma = eta, " + STABILITY_GRID,
    scope="printed",
    expect="holds",
)
def prop_b16_pep(ctx: Context) -> Evidence:
    """As :func:`prop_317_pep` for FedAc-II."""
    return _stability_evidence(ctx, "FedAc-II", 1.0)


def _augmented_evidence(ctx: Context, variant: str, divisor: float) -> Evidence:
    """Lemmas B.24/B.27 at sigma = 0: lambda B^2/2 + (L B^2/2) exp(-sqrt(eta lambda K R^2/divisor)), B = 1."""
    krs = ((2, 2),) if ctx.quick else ((2, 2), (3, 2), (2, 4))
    grid = [
        dict(K=K, R=R, eta=c / (L + lam), gamma=prescribed_gamma(c / (L + lam), lam, K), variant=variant, lam=lam, L=L)
        for lam in ((0.05, 0.5) if ctx.quick else (0.005, 0.05, 0.5))
        for K, R in krs
        for c in (ETAS_QUICK if ctx.quick else ETAS_FULL)
    ]
    bound = lambda K, R, eta, lam, L, **_: lam / 2 + L / 2 * np.exp(-np.sqrt(eta * lam * K * R**2 / divisor))  # noqa: E731
    return class_evidence(
        pep_acc.fedac_augmented_gap,
        pep_acc.replay_fedac_augmented_gap,
        grid,
        bound=bound,
        witness={
            "hypotheses": {
                "class": "F convex and L-smooth (F_{0,L}; interpolants in the class by construction), every client "
                "holding F, sigma = 0; FedAc run on F + (lambda/2)||x - x^(0,0)||^2 with mu = lambda, eta <= "
                "1/(L + lambda)",
                "initial distance": "B^2 = ||x^(0,0) - x*||^2 <= 1 (an SDP constraint)",
            }
        },
    )


AUGMENTED_GRID = (
    "over the whole class of convex L-smooth F held by every client, with ||x^(0,0) - x*|| <= B = 1, at (K, R) = "
    "(2, 2) (full: also (3,2), (2,4)), lambda in {0.05, 0.5} (full: also 0.005), eta (L + lambda) in {1, 0.05} "
    "(full: also 0.3), prescribed gamma with mu = lambda, L = 1 (performance estimation; failures replayed)."
)


@claim(
    f"{PAPER}/lem-b.24:pep",
    source="Lemma B.24, (B.45)",
    statement="As printed with sigma = 0: for any lambda > 0 and eta <= 1/(L + lambda), FedAc-I applied to F + "
    "(lambda/2)||x - x^(0,0)||^2 yields F(x_ag^(R,0)) - F* <= lambda B^2/2 + (L B^2/2) exp(-sqrt(eta lambda K R^2)) "
    + AUGMENTED_GRID,
    scope="printed",
    expect="holds",
)
def lem_b24_pep(ctx: Context) -> Evidence:
    """Instance: the whole convex class (PEP) with the l2-augmented gradients (B.44). Reference: SDP worst case;
    replay of fedtheory's FedAc with :class:`fedtheory.algorithms.fedac.L2Augmented` where it exceeds the bound."""
    return _augmented_evidence(ctx, "FedAc-I", 1.0)


@claim(
    f"{PAPER}/lem-b.27:pep",
    source="Lemma B.27, (B.55)",
    statement="As printed with sigma = 0: for any lambda > 0 and eta <= 1/(L + lambda), FedAc-II applied to F + "
    "(lambda/2)||x - x^(0,0)||^2 yields F(x_ag^(R,0)) - F* <= lambda B^2/2 + (L B^2/2) exp(-sqrt(eta lambda K "
    "R^2/9)) " + AUGMENTED_GRID,
    scope="printed",
    expect="holds",
)
def lem_b27_pep(ctx: Context) -> Evidence:
    """As :func:`lem_b24_pep` for FedAc-II and (B.55)."""
    return _augmented_evidence(ctx, "FedAc-II", 9.0)
