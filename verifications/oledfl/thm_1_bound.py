"""Theorem 1's bound (and the appendix restatement, Theorem 3) along deterministic OledFL runs on quadratics.

Instances, runs and the reading of Assumption 3: :mod:`.lemma_runs`. With sigma = 0 the expectations are the runs'
values. The bound holds after any number of rounds, so every prefix ``T' = 1..T`` of a run is checked:
``(1/T') sum_{t<T'} ||grad f(xbar^t)||^2`` against the printed right-hand side with ``f(xbar^0) - f(xbar^{T'})``,
the observed ``Delta^{T'}``, Lemma 5's gamma, kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 (the proof's kappa at equality: the
largest admissible kappa, which makes every term but the last smallest) and the per-client ``(G^2, B^2)`` pair that
makes the right side smallest among those with ``eta <= 1/(K^{3/2} L B)`` and kappa > 0. A run with no such pair is
outside the hypotheses.

Printed objects: Theorem 1, Theorem 3 (appendix), Lemma 5's gamma, the proof of Theorem 1 (kappa, the beta cap
between (26) and (27)).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim

from . import printed as pf
from .lemma_runs import EXACT, PAPER, Instance, Rounds, checked, proof_beta_cap, smallest, thm1_beta_cap


def _valid(r: Rounds, inst: Instance) -> np.ndarray:
    """The grid's pairs allowed with this step: eta <= 1/(K^{3/2} L B) and kappa > 0."""
    B = np.sqrt(inst.B2)
    return (r.eta <= pf.thm1_eta_cap(r.K, inst.L, B) * EXACT) & (pf.kappa(r.eta, r.K, inst.L, B) > 0)


def thm_sides(rhs_of: Callable) -> Callable:
    """Theorem 1 (``pf.thm1_rhs``) or Theorem 3 (``pf.thm3_rhs``) at every prefix of a run, or ``None`` when no
    valid pair allows the run's step."""

    def sides(r: Rounds, inst: Instance) -> dict | None:
        ok = _valid(r, inst)
        if not ok.any():
            return None
        T = np.arange(1, r.V1.shape[0] + 1)[:, None]
        lhs = np.cumsum(r.grad_mean_sq[:-1], axis=0) / T
        B, G = np.sqrt(inst.B2[ok])[:, None, None], np.sqrt(inst.G2[ok])[:, None, None]
        rhs = rhs_of(gap0=r.gap[0] - r.gap[1:], eta=r.eta, K=r.K, T=T, L=inst.L, psi=inst.psi, B=B, G=G,
                     sigma=r.sigma, lam=r.lam, beta=r.beta, Delta_T=r.Delta[1:])  # fmt: skip
        rhs, B2 = smallest(rhs, inst.B2[ok])
        scale = inst.L**2 * np.maximum.accumulate(r.scale, axis=0)  # ||grad f||^2 <= L^2 ||x - x*||^2, x* = 0
        gamma = np.full_like(rhs, float(pf.lem5_gamma(r.K, r.beta, inst.psi)))
        return {"lhs": lhs, "rhs": rhs, "scale": scale, "B2": B2, "gamma": gamma}

    return sides


def _inside(run, inst: Instance, eta: float) -> bool:
    B = np.sqrt(inst.B2)
    valid = (eta <= pf.thm1_eta_cap(run.K, inst.L, B) * EXACT) & (pf.kappa(eta, run.K, inst.L, B) > 0)
    return bool(valid.any()) and run.K >= 2 and run.beta <= thm1_beta_cap(inst.psi) * EXACT


def _inside_corrected(run, inst: Instance, eta: float) -> bool:
    return _inside(run, inst, eta) and run.lam == 0 and run.beta <= proof_beta_cap(run.K, inst.psi) * EXACT


def _eta_cap(K, L, B):
    """The step the fraction scales: Theorem 1's cap, or below it the largest step with kappa > 0 (strict)."""
    return min(float(pf.thm1_eta_cap(K, L, B)), (1 - 1e-9) / (6 * K * L * B))


def _beta_cap(K, psi):
    return thm1_beta_cap(psi)


HYP = (
    "K >= 2, eta <= 1/(K^{3/2} L B) with kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 > 0 for the (G, B) pair used, beta <= "
    "min{sqrt(10)(1 - psi)/40, sqrt(5)/30} (Theorem 1), sigma = 0"
)
HYP_CORRECTED = HYP + ", lambda = 0 and beta^2 <= min{(1 - psi)^2/(240K), 1/300} (the cap of the proof)"
WHY = {
    "lambda": "OledFL-SAM near x* keeps ||grad f(xbar^t)||^2 near L^2 (eta L lambda)^2 (each SAM step moves eta L "
    "lambda), while phi lambda^2 = (eta L/kappa)(1 + 9K^2 eta L) lambda^2 does not grow with L^2: the bound fails "
    "once L lambda is large (the right side even turns negative when the SAM floor makes f(xbar^T) > f(xbar^0))",
    "gamma": "Theorem 1's beta cap lets Lemma 5's gamma reach and pass 1 (e.g. complete graph, K = 2: gamma = 1.54 at "
    "the cap); as gamma -> 1 from below, -chi beta^2 -> -infinity and the right side is negative whenever Delta^T > 0 "
    "(grid point beta at gamma = 1 - 1e-6)",
}
GRID_TEXT = (
    "the runs of lem-1 (0.9 x the step caps of Lemmas 1, 4, 5 and of the whole proof, beta in {0, 0.05, 0.3}, beta "
    "at gamma = 1 - 1e-6, K = 40 at the stated cap) whose step admits a valid (G, B), every prefix T' of each run; "
    "then a witness search"
)


@claim(
    f"{PAPER}/thm-1:bound",
    source="Theorem 1",
    statement="(1/T) sum_{t<T} ||grad f(xbar^t)||^2 <= (f(xbar^0) - f(xbar^T))/(kappa eta K T) + zeta sigma^2 + alpha "
    "G^2 + phi lambda^2 - chi beta^2 (sigma = 0) with kappa = 1/2 - 18 eta^2 K^2 L^2 B^2 > 0, observed Delta^T and "
    f"Lemma 5's gamma, under eta <= 1/(K^{{3/2}} L B), K >= 2, beta <= min{{sqrt(10)(1 - psi)/40, sqrt(5)/30}}; "
    f"{GRID_TEXT}. Fails twice: OledFL-SAM with L lambda large (phi lambda^2 does not scale with L^2), and "
    "OledFL-SGD at beta just below gamma = 1, inside the stated beta cap (the right side tends to -infinity).",
    scope="printed",
    expect="fails",
)
def thm_1_bound(ctx: Context) -> Evidence:
    """Instance: the grid runs and a witness search. Reading: per-client (G, B), smallest right side, kappa at
    equality, every prefix T'. Reference: the runs' iterates."""
    return checked(ctx, thm_sides(pf.thm1_rhs), _inside, HYP, _eta_cap, _beta_cap, witness={"why": WHY})


@claim(
    f"{PAPER}/thm-3:bound:runs",
    source="Theorem 3 (appendix restatement of Theorem 1)",
    statement="Theorem 3's bound, Theorem 1's with the lambda term (1 + 9K^2 eta L) L eta^2 lambda^2 (no 1/kappa), "
    f"along the runs (sigma = 0); {GRID_TEXT}. Fails as Theorem 1 does (its lambda term is smaller still).",
    scope="printed",
    expect="fails",
)
def thm_3_bound_runs(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``thm-1:bound`` with Theorem 3's right-hand side."""
    return checked(ctx, thm_sides(pf.thm3_rhs), _inside, HYP, _eta_cap, _beta_cap, witness={"why": WHY})


@claim(
    f"{PAPER}/thm-1:bound-corrected",
    source="Theorem 1, with the beta cap of its proof (between (26) and (27))",
    statement="Corrected: Theorem 1's bound for OledFL-SGD (lambda = 0, sigma = 0) with beta^2 <= min{(1 - psi)^2/"
    f"(240K), 1/300}} (there gamma < 1 and mu - mu gamma > 1/2, as the proof needs); {GRID_TEXT}.",
    scope="corrected",
    expect="holds",
)
def thm_1_bound_corrected(ctx: Context) -> Evidence:
    """Instance, reading, reference: as ``thm-1:bound``, restricted to lambda = 0 and the proof's beta cap."""
    return checked(ctx, thm_sides(pf.thm1_rhs), _inside_corrected, HYP_CORRECTED, _eta_cap, proof_beta_cap, sgd=True)
