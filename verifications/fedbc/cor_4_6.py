"""Corollary 4.6 (local performance) and its proof (Appendix D): (93), (94), the unrolled relaxed dual recursion (97)
and the averaging step (100), and (15) itself on Algorithm 1.

Indicators: (96) sets ``I_k = +1`` if ``||x_i^k - z^{k-1}||^2 > gamma_i`` (constraint violated) and ``-1`` otherwise;
(15), (95) and (97)-(100) print the subscript "<= gamma_i". Our reading follows (96); the literal subscript (``+1``
when satisfied) is the sign-flipped sequence, evaluated too where it could change a verdict. ``I_0`` involves the
undefined ``z^{-1}``; on Algorithm 1 we read ``z^{-1} := z^0`` (so ``||x_i^0 - z^0||^2 = 0``, (H3)); in the exact
enumeration ``I_0`` runs over both signs.

Relaxed recursion (95): ``lam_t = [lam_{t-1} + alpha I_t]_+``, ``t >= 1``, from ``lam_0``.

Instances and Algorithm 1 runs: :mod:`.instances`.
"""

from __future__ import annotations

import itertools

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING

from .instances import alg1, heterogeneity, indefinite, lam_box

LAM0 = (0, 1, 3)
MAX_LEN = 12  # sequences (I_0, ..., I_t) of every length up to 12, exhaustively


def relaxed(lam0: int, steps: np.ndarray, alpha: int = 1) -> np.ndarray:
    """(95) along each row of ``steps`` ``(n, t)`` (``I_1..I_t``): the integer multipliers ``lam_0..lam_t``."""
    lam = np.empty((steps.shape[0], steps.shape[1] + 1), dtype=np.int64)
    lam[:, 0] = lam0
    for k in range(steps.shape[1]):
        lam[:, k + 1] = np.maximum(lam[:, k] + alpha * steps[:, k], 0)
    return lam


def sequences(n: int) -> np.ndarray:
    """Every +-1 sequence of length ``n`` ``(2^n, n)``."""
    return np.array(list(itertools.product((-1, 1), repeat=n)), dtype=np.int64).reshape(-1, n)


@family("fedbc/cor-4.6-sequences")
def relaxed_sequences(fam: Family) -> dict:
    """All sequences ``(I_0, ..., I_T)`` of length 2..12 (exact integers), and 256 seeded random sequences of length
    1000 (``T = 999``), with (95) run from each ``lam_0`` in (0, 1, 3), ``alpha = 1``: per sequence the worst
    ``t`` of (97) printed (``lam_t`` against ``alpha [sum_{k<=t} I_k]_+``) and of our unrolling (``lam_0 + alpha
    max_{0<=s<=t} sum_{s<k<=t} I_k``), and both sides of (100) times ``T`` (integers)."""
    rng = fam.rng()
    blocks = [sequences(n) for n in range(2, MAX_LEN + 1)]
    blocks.append(rng.choice(np.array([-1, 1]), size=(256 if fam.quick else 4096, 1000)))
    out = []
    for seq in blocks:
        S = np.cumsum(seq, axis=1)  # sum_{k<=t} I_k, t = 0..T
        T = seq.shape[1] - 1
        # suffix maxima max_{0<=s<=t} (S_t - S_s) with S_s over s >= 0 (the empty suffix s = t gives 0)
        run_min = np.minimum.accumulate(S, axis=1)
        unrolled = S - run_min
        avg_lhs = np.sum(np.maximum(S[:, 1:], 0) ** 2, axis=1)  # T * (1/T) sum_{t=1}^T [.]_+^2
        avg_rhs = T * np.maximum(S[:, -1], 0) ** 2
        for lam0 in LAM0:
            lam = relaxed(lam0, seq[:, 1:])
            out.append(
                {
                    "lam0": lam0,
                    "T": T,
                    "seq": seq,
                    "slack97": np.maximum(S, 0) - lam,
                    "slack_unrolled": lam0 + unrolled - lam,
                    "lam": lam,
                    "avg_lhs": avg_lhs,
                    "avg_rhs": avg_rhs,
                }
            )
    return {"blocks": out}


def _worst(block: dict, slack: np.ndarray) -> tuple[int, int]:
    """(sequence, t) of the smallest slack in a block."""
    flat = int(np.argmin(slack))
    return np.unravel_index(flat, slack.shape)


def _sequence_points(ctx: Context, key: str) -> Points:
    """One point per (lam_0, length) block: its worst sequence and round for slack ``key``."""
    points = Points()
    for b in relaxed_sequences(ctx)["blocks"]:
        n, t = _worst(b, b[key])
        bound = int(b["lam"][n, t] + b[key][n, t])
        seq = b["seq"][n]
        shown = "".join("+" if v > 0 else "-" for v in seq[: t + 1]) if b["T"] < 50 else f"random, length {b['T'] + 1}"
        points.add(int(b["lam"][n, t]), bound, lam0=b["lam0"], T=b["T"], t=int(t), sequence=shown)
    return points


@claim(
    "fedbc/eq-97",
    source="Appendix D, (95)-(97)",
    statement="unrolling the relaxed dual recursion (95) gives lam_i^t <= alpha [sum_{k=0}^t I_k]_+",
    scope="printed",
    expect="fails",
)
def eq_97(ctx: Context) -> Evidence:
    """Instance: every +-1 indicator sequence (I_0, ..., I_t) of length up to 12 and random sequences of length 1000,
    (95) from lam_0 in {0, 1, 3} with alpha = 1.
    Reading: (96)'s convention; the set of all sequences is closed under a sign flip, so the literal subscript gives
    the same verdict. Reference: exact integer recursion."""
    points = _sequence_points(ctx, "slack97")
    return points.evidence(
        "<=",
        witness={
            "why": "the clamp [.]_+ makes lam_t a reflected walk that restarts from 0 after a run of -1's, so it "
            "exceeds the positive part of the whole sum (e.g. I = (I_0, I_1, I_2, I_3) = (-, -, -, +) from lam_0 = 0: "
            "lam_3 = 1, bound [-2]_+ = 0); lam_0 > 0 breaks it already at t = 0",
            "hypotheses": "(95) with alpha = 1 and any indicator sequence, as the proof allows (the indicators of "
            "Algorithm 1 can take any sign pattern); lam_0 = 0 fails too",
        },
    )


@claim(
    "fedbc/eq-97:corrected",
    source="Appendix D, (95)-(97)",
    statement="the unrolled recursion (95): lam_i^t <= lam_i^0 + alpha max_{0<=s<=t} sum_{k=s+1}^t I_k (equality when "
    "lam_i^0 = 0)",
    scope="corrected",
    expect="holds",
)
def eq_97_corrected(ctx: Context) -> Evidence:
    """Instance: as eq-97. Reading: the Lindley form of the reflected walk; the maximum over suffixes replaces the
    printed positive part of the whole sum (the consequence for (15): lam enters through its running maximum drift).
    Reference: exact integer recursion."""
    points = _sequence_points(ctx, "slack_unrolled")
    control = _sequence_points(ctx, "slack97")
    what = "the printed [sum_k I_k]_+ in place of the suffix maximum"
    return points.evidence("<=", witness={"negative control": negative_control(control.evidence("<="), what)})


@claim(
    "fedbc/eq-100",
    source="Appendix D, (99)-(100)",
    statement="(1/T) sum_{t=1}^T O([sum_{k=0}^t I_k]_+)^2 <= O([sum_{k=0}^T I_k]_+)^2",
    scope="printed",
    expect="fails",
)
def eq_100(ctx: Context) -> Evidence:
    """Instance: every +-1 sequence (I_0, ..., I_T), T = 1..11, and random sequences with T = 999.
    Reading: both O(.) with the constant 1 (integers: T times each side); any constant fails as well wherever the
    final sum is <= 0 and an earlier partial sum is positive (the right side is then 0). The sign flip of the
    literal subscript maps the set of sequences onto itself. Reference: exact integers."""
    points = Points()
    for b in relaxed_sequences(ctx)["blocks"]:
        if b["lam0"] != 0:  # (100) does not involve lam
            continue
        n = int(np.argmin(b["avg_rhs"] - b["avg_lhs"]))
        seq = b["seq"][n]
        shown = "".join("+" if v > 0 else "-" for v in seq) if b["T"] < 50 else f"random, length {b['T'] + 1}"
        points.add(int(b["avg_lhs"][n]), int(b["avg_rhs"][n]), T=b["T"], sequence=shown)
    return points.evidence(
        "<=",
        witness={
            "why": "the average of the squared positive parts of the partial sums is positive after an early run of "
            "+1's while the final sum can be <= 0: e.g. (+, +, -, -, -): left 5/4, right 0, for every constant",
            "hypotheses": "any indicator sequence (the step is stated for the indicators of any run)",
        },
    )


# ----------------------------------------------------------------------------------------------- Algorithm 1 runs
N_DEV, DIM = 3, 2


def _sign(run) -> np.ndarray:
    """(96)'s indicators ``I_k``, ``k = 0..T``, per (path, device): ``+1`` if ``||x_i^k - z^{k-1}||^2 > gamma_i``,
    else ``-1``, with ``z^{-1} := z^0``."""
    zprev = np.concatenate([run.z[:1], run.z[:-1]])
    drift = np.sum((run.x - zprev[:, :, None, :]) ** 2, axis=-1)  # (T+1, P, N)
    return np.where(drift > run.gamma, 1, -1)


def _bracket(run, literal: bool) -> np.ndarray:
    """``[sum_{k=0}^T I_k]_+`` per (path, device) along a run: (96)'s sign or, with ``literal``, the printed
    subscript's (the flipped sequence)."""
    total = _sign(run).sum(axis=0)
    return np.maximum(-total if literal else total, 0)


@family("fedbc/cor-4.6-runs")
def cor_runs(fam: Family) -> list[dict]:
    """Algorithm 1 with the projected dual update (11), full participation, exact local oracle, on the heterogeneity
    family (``f_i = ||x - c_i||^2/2``, L_i = 1, N = 3, d = 2), Lambda = [1 + L, middle of the (H2) range], lam^0 =
    lam_min, alpha = 0.5, z^0 = 0, for gamma_i in a sweep (the same gamma for every device); and K-step runs (K = 3,
    beta = 1/(L + 2 lam_max), participants 2 of 3 with every sampling path, every device updating) on a convex and
    an indefinite instance for (93)-(94)."""
    T = 12 if fam.quick else 40
    out = []
    q = heterogeneity(N_DEV, DIM, 1.0, 3)
    lo, hi = lam_box(q.L_i, 0.5)
    for gamma in (0.0, 0.01, 0.1, 0.5, 2.0, 10.0, 100.0):
        run = alg1(q, T=T, box_lam=(lo, hi), alpha=0.5, gamma=gamma, lam0=lo, z0=np.zeros(DIM), participants=N_DEV)
        out.append({"kind": "exact", "gamma": gamma, "run": run})
    for q in (heterogeneity(N_DEV, DIM, 1.0, 4), indefinite(N_DEV, DIM, 5, (0.5, 1.0, 1.5))):
        lo, hi = lam_box(q.L_i, 0.5)
        run = alg1(
            q, T=3 if fam.quick else 5, box_lam=(lo, hi), alpha=0.5, gamma=0.1, lam0=lo, z0=np.zeros(DIM),
            participants=2, K=3, beta=1 / (q.L + 2 * hi), update="all",
        )  # fmt: skip
        out.append({"kind": "K-step", "gamma": 0.1, "run": run})
    return out


def _hypotheses(run) -> str:
    return (
        f"A4.1: X = the smallest box holding every iterate and centre (diameter R = {run.X.R:.4g}; the subproblem's "
        f"stationary points are iterates); A4.2: L_i = {np.round(run.q.L_i, 4).tolist()}; A4.3: delta finite on X "
        f"(affine gradients); (H1)-(H2): Lambda = [{run.box_lam[0]:.4g}, {run.box_lam[1]:.4g}] with lam_min = 1 + L "
        f"and lam_max < min_i (1 + L_i)^2/L_i; (H3): x_i^0 = z^0; oracle: {run.oracle}"
    )


def _steps_93_94(ctx: Context, which: str, coeff: float = 8.0) -> tuple[Points, dict]:
    """(93) (``which = "93"``) or (94) per (round, path, device) along the K-step runs (worst entry per run)."""
    points, hyp = Points(), {}
    for item in (r for r in cor_runs(ctx) if r["kind"] == "K-step"):
        run = item["run"]
        x1, z0, lam = run.x[1:], run.z[:-1, :, None, :], run.lam[:-1]
        e2 = np.sum((run.q.grad(x1) + 2 * lam[..., None] * (x1 - z0)) ** 2, axis=-1)
        eps_i = np.max(np.where(run.active, e2, 0.0), axis=(0, 1))  # the accuracy each device realised
        lhs = np.sum(run.q.grad(x1) ** 2, axis=-1)
        d2 = np.sum((x1 - z0) ** 2, axis=-1)
        rhs = 2 * eps_i + (coeff * lam**2 * d2 if which == "93" else 32 * run.X.R**2 * lam**2)
        slack = np.where(run.active, rhs - lhs, np.inf)
        t, p, i = np.unravel_index(int(np.argmin(slack)), slack.shape)
        points.add(float(lhs[t, p, i]), float(rhs[t, p, i]), instance=run.q.name, t=int(t) + 1, path=int(p), i=int(i))
        hyp[run.q.name] = _hypotheses(run)
    return points, hyp


@claim(
    "fedbc/eq-93",
    source="Appendix D, (92)-(93)",
    statement="||grad f_i(x_i^{t+1})||^2 <= 2 eps_i + 8 |lam_i^t|^2 ||x_i^{t+1} - z^t||^2",
    scope="printed",
    expect="holds",
)
def eq_93(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 with K = 3 local GD steps on a convex and an indefinite quadratic instance, every
    sampling path of 2 of 3 devices. Reading: eps_i = the largest ||e_i^{t+1}||^2 device i realised along the run.
    Reference: the iterates."""
    points, hyp = _steps_93_94(ctx, "93")
    control, _ = _steps_93_94(ctx, "93", coeff=2.0)
    witness = {"hypotheses": hyp, "negative control": negative_control(control.evidence("<="), "8 replaced by 2")}
    return points.evidence("<=", rtol=ROUNDING, witness=witness)


@claim(
    "fedbc/eq-94",
    source="Appendix D, (94)",
    statement="||grad f_i(x_i^{t+1})||^2 <= 2 eps_i + 32 R^2 |lam_i^t|^2 (||x_i^{t+1} - z^t|| <= 2R)",
    scope="printed",
    expect="holds",
)
def eq_94(ctx: Context) -> Evidence:
    """Instance and reading: as eq-93, R the diameter of the smallest box X holding the run. Reference: the
    iterates."""
    points, hyp = _steps_93_94(ctx, "94")
    return points.evidence("<=", rtol=ROUNDING, witness={"hypotheses": hyp})


def _local_lhs(run) -> np.ndarray:
    """``(1/T) sum_{t=1}^T ||grad f_i(x_i^t)||^2`` per (path, device)."""
    return np.mean(np.sum(run.q.grad(run.x[1:]) ** 2, axis=-1), axis=0)


@claim(
    "fedbc/cor-4.6",
    source="Corollary 4.6, (15)",
    statement="(1/T) sum_{t=1}^T ||grad f_i(x_i^t)||^2 <= O(eps_i) + alpha^2 O([sum_{k=0}^T I_k]_+)^2 for the "
    "iterates of Algorithm 1",
    scope="printed",
    expect="fails",
)
def cor_4_6(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 with the projected update (11) and Lambda satisfying (H1)-(H2), exact local oracle (eps_i
    = 0), full participation, gamma_i swept from 0 to 100.
    Reading: the constants of the proof, O(eps_i) = 2 eps_i and alpha^2 O(b)^2 = 32 R^2 alpha^2 b^2 ((94) with (97));
    the bracket with (96)'s sign and with the literal subscript (grid "reading"). Where eps_i = 0 and the bracket
    is 0 the right side is 0 for every constant. Reference: the iterates."""
    points, hyp = Points(), {}
    for item in (r for r in cor_runs(ctx) if r["kind"] == "exact"):
        run = item["run"]
        lhs = _local_lhs(run)
        for literal in (False, True):
            b = _bracket(run, literal)
            rhs = 32 * run.X.R**2 * run.alpha**2 * b**2  # + 2 eps_i, eps_i = 0
            p, i = np.unravel_index(int(np.argmin(rhs - lhs)), lhs.shape)
            reading = "literal subscript" if literal else "(96)"
            points.add(float(lhs[p, i]), float(rhs[p, i]), gamma=item["gamma"], reading=reading, i=int(i))
        hyp[f"gamma={item['gamma']}"] = _hypotheses(run)
    return points.evidence(
        "<=",
        rtol=ROUNDING,
        witness={
            "why": "the projected multiplier stays >= lam_min >= 1 + L > 0, so grad f_i(x_i) = -2 lam (x_i - z) is "
            "not 0 while devices disagree, but the bracket vanishes when the constraint is satisfied in most rounds "
            "((96): large gamma) or violated in most rounds (literal subscript: gamma = 0); with eps_i = 0 the right "
            "side is then 0 for any constants: both readings fail",
            "hypotheses": hyp,
        },
    )


@claim(
    "fedbc/cor-4.6:gamma-monotone",
    source="Corollary 4.6, the text after (15)",
    statement="the term inside the big bracket of (15) is larger for lower gamma_i, and vice versa",
    scope="printed",
    expect="holds",
)
def gamma_monotone(ctx: Context) -> Evidence:
    """Instance: the gamma sweep of cor-4.6 (the same instance, start and Lambda; gamma in {0, 0.01, 0.1, 0.5, 2,
    10, 100}). Reading: the bracket sum_{k=0}^T I_k with (96)'s sign, per device; measured: its increase from one
    gamma to the next larger one (<= 0 asserted). Reference: the iterates."""
    runs = [r for r in cor_runs(ctx) if r["kind"] == "exact"]
    sums = [np.sum(_sign(r["run"]), axis=0)[0] for r in runs]  # (N,) per gamma
    lhs = [_local_lhs(r["run"])[0] for r in runs]
    points = Points()
    for k in range(len(runs) - 1):
        for i in range(N_DEV):
            points.add(
                int(sums[k + 1][i] - sums[k][i]), 0, gamma_low=runs[k]["gamma"], gamma_high=runs[k + 1]["gamma"], i=i
            )
    return points.evidence(
        "<=",
        witness={
            "local performance": "the parenthetical '(worse local performance)' is not judged here: the average "
            "||grad f_i(x_i^t)||^2 below is not monotone in gamma for every device",
            "bracket sum per gamma (devices)": {str(r["gamma"]): s.tolist() for r, s in zip(runs, sums)},
            "local gradient average (1/T) sum ||grad f_i(x_i^t)||^2 per gamma": {
                str(r["gamma"]): np.round(v, 6).tolist() for r, v in zip(runs, lhs)
            },
        },
    )
