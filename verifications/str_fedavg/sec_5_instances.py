"""Section 5 of the StR-FedAvg paper: the scale-down instance of Experiments 1 and 2, its certified references and
the Exp. 2 (IPIR-FedAvg) runs, shared by the claim modules :mod:`.sec_5_1_experiment_1`,
:mod:`.sec_5_2_experiment_2`, :mod:`.sec_5_smoothings`, :mod:`.sec_5_data_abstract_history` and
:mod:`.alg_1_2_communication` (no claims here).

Instance (our stand-in recipe, the Exp. 1 scale-down; the Wiki Math Essential data need a download):
``heterogeneous_regression`` with ``n = 100`` features, ``m = 73`` rows (the printed 534/730 ratio), ``N = 10``
clients of 7-8 rows, rows ``N(0, D_i^2/n)`` with ``D_i = diag(exp(0.5 z_i))``, scaled so that
``lambda_max(U'U/N) <= 1`` and ``max_i L_{h_i} <= 5``, ``x_true`` 5-sparse, ``v = U x_true + 0.1 N(0, I)``
(consistent: ``h* = 0``), seeded from the name of its family ``str-fedavg/instance:exp1-scale-down``. Client losses
as printed in (15): ``h_i = 1/2 ||U_i y - v_i||^2``, ``h = (1/N) sum h_i``.

* References: ``f_H* = min_{X*_h} M^mu_l1`` and the basis-pursuit optimum ``min_{X*_h} ||x||_1`` by Clarabel with
  duality-gap certificates (``bilevel_optimum``), ``X*_h = U^+ v + null(U)`` exact.
* Exp. 2 (``fig-2``): IPIR-FedAvg (Algorithm 2) on (16) with ``f = M^mu_LSP`` (``eps = 0.5``, ``mu = 0.2``, so
  ``sqrt(mu) <= eps``), ``L_f = max{1/mu, rho/(1 - mu rho)} = 20`` (``rho = 1/eps^2``), ``lambda = 0.1``,
  ``gamma = 3 lambda/(4 (L_f lambda + 2))`` (the boundary of the proof condition), ``T = 60`` outer iterations
  (quick: 30), ``t0 = 2`` (``R_t = t + 2``), inner schedule of Theorem 3 (``gamma~_t = R_t^{-7/12}``,
  ``eta_t = 2 ln R_t/R_t^{5/12}``), ``gamma_g = sqrt(10)`` (not printed for Exp. 2; Sect. 5.1's value), inner start
  ``warm_y`` (``xbar^0 = y^t``), inner output ``theta_avg``, ``y^0 = 0``, exact gradients; reference: the same outer
  loop with the exact projection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fedtheory.algorithms.bilevel import StRParams, ipir_run
from fedtheory.harness.claims import Context
from fedtheory.harness.family import Family, family
from fedtheory.problems.bilevel import HuberL1, LSPEnvelope, bilevel_optimum, heterogeneous_regression

REGISTERS_CLAIMS = False  # shared instance and runs; the claims are in the sibling modules named above

PAPER = "str-fedavg"

N_CLIENTS, N_ROWS, DIM = 10, 73, 100
MU_HUBER = 0.05
GAMMA = 10.0
GAMMA_G = math.sqrt(N_CLIENTS)
KS = (1, 5, 10, 20)
RULES = ("printed", "algorithm")
RULE_NAMES = {"printed": "(a) printed Sect. 5.1 rule", "algorithm": "(b) Algorithm 1 convex rule"}
SEEDS = 10
LSP_EPS, LSP_MU, LAMBDA, T0 = 0.5, 0.2, 0.1, 2


def outer_iterations(ctx: Context | Family) -> int:
    """``T``: 60 (the Exp. 2 scale-down), 30 in the quick profile."""
    return 30 if ctx.quick else 60


# --------------------------------------------------------------------------------------------------
# Instance and references
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Exp:
    """The Exp. 1 scale-down with its certified references."""

    inst: object
    huber: HuberL1
    ref_huber: object
    ref_l1: object

    @property
    def h(self):
        return self.inst.inner


@family(f"{PAPER}/instance:exp1-scale-down")
def exp_instance(fam: Family) -> Exp:
    """The Exp. 1 scale-down and its certified references (the same in both profiles)."""
    rng = fam.rng()
    inst = heterogeneous_regression(rng, DIM, N_ROWS, N_CLIENTS)
    huber = HuberL1(MU_HUBER, dim=DIM)
    return Exp(inst, huber, bilevel_optimum(inst.inner, huber), bilevel_optimum(inst.inner, "l1"))


def instance_witness(e: Exp) -> dict:
    h = e.h
    return {
        "instance": e.inst.recipe,
        "L_h": h.L_h,
        "lambda_max(H)": float(np.linalg.eigvalsh(h.hessian)[-1]),
        "rank U": int(h.solution_set.rank),
        "h*": h.h_star,
        "f_H* (Huber bilevel)": e.ref_huber.f_star,
        "f_H* certificate": {k: e.ref_huber.certificate[k] for k in ("duality_gap", "stationarity_residual")},
        "l1 bilevel optimum": e.ref_l1.f_star,
        "l1 certificate": {k: e.ref_l1.certificate[k] for k in ("duality_gap", "stationarity_residual")},
    }


# --------------------------------------------------------------------------------------------------
# Experiment 2: IPIR-FedAvg with the LSP envelope
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _IPIR:
    value: np.ndarray  # M^mu_LSP(y^t), t = 0..T
    lsp: np.ndarray
    h_gap: np.ndarray
    stationarity: np.ndarray  # ||grad f(y) + (y - Pi y)/lambda||
    dist: np.ndarray
    sparsity: np.ndarray
    floats: int
    rounds: int
    oracle_calls: int


def lsp_outer() -> LSPEnvelope:
    return LSPEnvelope(LSP_EPS, LSP_MU, dim=DIM)


def outer_step(f: LSPEnvelope) -> float:
    """``gamma = 3 lambda/(4 (L_f lambda + 2))`` (the proof condition of Theorem 3)."""
    return 3 * LAMBDA / (4 * (f.L * LAMBDA + 2))


class Counting:
    """Exact client gradients of ``h`` that count their calls (one call = one local step of all clients)."""

    def __init__(self, problem):
        self.problem = problem
        self.calls = 0

    def __call__(self, x, rng):
        self.calls += 1
        return self.problem.client_grad(x)


def _ipir_metrics(e: Exp, f: LSPEnvelope, ys: np.ndarray) -> dict:
    sol = e.h.solution_set
    proj = sol.project(ys)
    return {
        "value": f.value(ys),
        "lsp": f.lsp.value(ys),
        "h_gap": e.h.inner_gap(ys),
        "stationarity": np.linalg.norm(f.grad(ys) + (ys - proj) / LAMBDA, axis=-1),
        "dist": sol.distance(ys),
        "sparsity": np.sum(np.abs(ys) > 1e-3, axis=-1),
    }


@family(f"{PAPER}/exp-2-runs")
def exp2(fam: Family) -> dict:
    """IPIR-FedAvg runs of ``T`` outer iterations (:func:`outer_iterations`) for every K and the exact-projection
    reference loop."""
    T = outer_iterations(fam)
    e, f = exp_instance(fam.profile), lsp_outer()
    gamma = outer_step(f)
    out = {}
    for K in KS:
        oracle = Counting(e.h)
        tr = ipir_run(
            e.h, f.grad, np.zeros(DIM), LAMBDA, gamma, T, K, GAMMA_G, np.random.default_rng(0),
            t0=T0, init="warm_y", output="theta_avg", h_oracle=oracle,
        )  # fmt: skip
        out[K] = _IPIR(**{k: v[:, 0] for k, v in _ipir_metrics(e, f, tr.y).items()}, floats=tr.floats,
                       rounds=tr.rounds, oracle_calls=oracle.calls)  # fmt: skip
    sol = e.h.solution_set
    ref = ipir_run(e.h, f.grad, np.zeros(DIM), LAMBDA, gamma, T, 1, GAMMA_G, np.random.default_rng(0),
                   project=sol.project)  # fmt: skip
    out["exact"] = _IPIR(**{k: v[:, 0] for k, v in _ipir_metrics(e, f, ref.y).items()}, floats=0, rounds=0,
                         oracle_calls=0)  # fmt: skip
    return out


def experiment_rule(
    R: int, Gamma: float, K: int, gamma_g: float, rule: str = "printed", *, clients_per_round=None
) -> StRParams:
    """The step rules of the Sect. 5.1 experiment, ``a = 1/2``, ``b = 1/4``, ``Gamma > 0``:

    * ``"printed"`` -- as printed in Sect. 5.1: ``gamma_l = 1/(R + Gamma)^{1/2}``, ``eta = 1/(R + Gamma)^{1/4}``
      (so ``gamma~ = gamma_g K/(R + Gamma)^{1/2}``);
    * ``"algorithm"`` -- Algorithm 1's convex rule with ``R + Gamma`` for ``R``:
      ``gamma_l = 1/(gamma_g K (R + Gamma)^{1/2})``, same ``eta``.

    The paper uses ``gamma_g = sqrt(N)``.
    """
    R, Gamma, gamma_g, K = int(R), float(Gamma), float(gamma_g), int(K)
    horizon = R + Gamma
    gamma_l = 1.0 / horizon**0.5 if rule == "printed" else 1.0 / (gamma_g * K * horizon**0.5)
    return StRParams(K, gamma_l, gamma_g, 1.0 / horizon**0.25, clients_per_round)
