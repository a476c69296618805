"""Lemma B.2 (consensus error) and every printed step of its proof (45)-(65), the constant C_0 after (61), and the
multiplier box of (11) that (H1)-(H2) leave.

Runs: Algorithm 1 (:func:`.instances.alg1`, N = 3 devices, d <= 2, every device-sampling path enumerated, so
expectations over the sampling are exact) with the exact oracle (eps = 0) or K local GD steps (eps > 0, the largest
``||e_i^{t+1}||^2`` the run realised), full participation and 2 of 3 devices; for the steps every device updates and
only the sampled enter (13) (the reading under which (54) holds for every i and j against the same z^t, (H5)); the
lemma itself also with non-sampled devices keeping their model. Lambda = [1 + L, lam_max] with lam_max inside (H2);
X = the smallest box holding the run (and the centres), R its diameter, delta (Assumption 4.3) exact on X.

Configurations (the witness search): ``N = 3`` devices ``f_i = (x - c_i)' L_i diag(1, m) (x - c_i)/2`` (L_i in {L_min,
L_max} with (H1)-(H2) non-empty), centres ``s`` apart, multipliers anywhere in Lambda, errors ``e_i`` of norm ``sqrt
eps`` and ``x_i`` the exact solution of (54) ``grad f_i(x_i) + 2 lam_i (x_i - z) = e_i``.

(62) prints ``1 + L_i s`` in the first denominator; we read ``s = 1``. ``a_i := lam_i^t``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy as sp

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.points import Points
from fedtheory.harness.search import Axis, Domain
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING

from .instances import Quadratics, alg1, bounding_box, delta, heterogeneity, indefinite, lam_box
from .printed import C_0_eq61, C_0_text, consensus_terms

N_DEV = 3
PAIRWISE = ("57", "58", "59+", "59-", "60", "61", "62", "62-coefficient")
SQUARED = ("45", "46", "47", "52", "53", "63a", "63b")


def _quadratics(L_i, c: np.ndarray, m: float = 1.0, name: str = "") -> Quadratics:
    """``f_i = (x - c_i)' L_i diag(1, m) (x - c_i)/2`` in ``d = 2``."""
    L_i = np.asarray(L_i, dtype=float)
    return Quadratics(L_i[:, None, None] * np.diag([1.0, m])[None], c, name)


def _centres(N: int, s: float) -> np.ndarray:
    return s * np.stack([np.cos(2 * np.pi * np.arange(N) / N), np.sin(2 * np.pi * np.arange(N) / N)], axis=1)


# ------------------------------------------------------------------------------------------ the printed steps


def steps(q: Quadratics, x1, z0, lam_t, lam1, mask, eps: float, dlt: float, box_lam, S: int) -> dict:
    """Both sides of every printed step at arrays ``x1`` ``(..., N, d)`` (= x^{t+1}), ``z0`` ``(..., d)`` (= z^t),
    ``lam_t``, ``lam1`` ``(..., N)`` and the sampled set ``mask`` ``(..., N)``: a dict step -> (left, right), pairwise
    steps ``(..., N, N)`` (i, j), per-device ones ``(..., N)``; expectations over S_t by enumerating its subsets."""
    N = q.N
    lam_max = box_lam[1]
    L_i = q.L_i[:, None]  # per i, broadcast over j
    g = q.grad(x1)
    e = g + 2 * lam_t[..., None] * (x1 - z0[..., None, :])
    diff = x1[..., :, None, :] - x1[..., None, :, :]
    D = np.linalg.norm(diff, axis=-1)
    w = np.where(mask, lam1, 0.0)
    z1 = np.einsum("...n,...nd->...d", w, x1) / w.sum(-1)[..., None]
    out = {}
    lhs45 = np.sum((x1 - z1[..., None, :]) ** 2, axis=-1)
    comb = np.einsum("...j,...ijd->...id", w, diff) / w.sum(-1)[..., None, None]
    out["45"] = (lhs45, np.sum(comb**2, axis=-1))
    out["46"] = (lhs45, np.einsum("...j,...ij->...i", w / w.sum(-1)[..., None], D**2))
    out["47"] = (lhs45, np.einsum("...j,...ij->...i", mask.astype(float), D**2))
    subsets = np.array([np.isin(np.arange(N), c) for c in itertools.combinations(range(N), S)])  # (C, N)
    ws = np.where(subsets, lam1[..., None, :], 0.0)  # (..., C, N)
    zS = np.einsum("...cn,...nd->...cd", ws, x1) / ws.sum(-1)[..., None]
    E_S = np.mean(np.sum((x1[..., None, :, :] - zS[..., :, None, :]) ** 2, axis=-1), axis=-2)  # (..., N)
    Dx = np.max(D**2, axis=(-1, -2))
    out["52"] = (E_S, S / N * np.sum(D**2, axis=-1))
    out["53"] = (E_S, S * (N - 1) / N * Dx[..., None] * np.ones(N))
    res55 = x1 - z0[..., None, :] - (e - g) / lam_t[..., None]
    scale55 = np.linalg.norm(x1 - z0[..., None, :], axis=-1) + np.linalg.norm((e - g) / lam_t[..., None], axis=-1)
    rel55 = np.divide(np.linalg.norm(res55, axis=-1), scale55, out=np.zeros(scale55.shape), where=scale55 > 0)
    out["55"] = (rel55, np.zeros(lam_t.shape))  # both sides 0 (scale 0): (55) holds exactly there, residual 0
    a_i, a_j = lam_t[..., :, None], lam_t[..., None, :]
    ne = np.linalg.norm(e, axis=-1)
    minus = np.linalg.norm(a_j[..., None] * g[..., :, None, :] - a_i[..., None] * g[..., None, :, :], axis=-1)
    plus = np.linalg.norm(a_j[..., None] * g[..., :, None, :] + a_i[..., None] * g[..., None, :, :], axis=-1)
    rt = np.sqrt(eps)
    out["57"] = (D, ne[..., :, None] / a_i + ne[..., None, :] / a_j + minus / (a_i * a_j))
    out["58"] = (D, rt / (1 + L_i) + minus / (1 + L_i) ** 2)
    out["59+"] = (plus, a_j * L_i * D + dlt)
    out["59-"] = (minus, a_j * L_i * D + dlt)
    c61 = C_0_eq61(L_i, lam_max)
    out["60"] = (D, rt / (1 + L_i) + lam_max * L_i / (1 + L_i) ** 2 * D + dlt / (1 + L_i) ** 2)
    out["61"] = (c61 * D, rt / (1 + L_i) + dlt / (1 + L_i) ** 2)
    for name, C0 in (("62", C_0_text(q.L, lam_max)), ("62-coefficient", c61)):
        out[name] = (D, rt / (C0 * (1 + L_i * 1)) + dlt / (C0 * (1 + L_i) ** 2))
    C0 = C_0_text(q.L, lam_max)
    per_j = 2 * S * (N - 1) * eps / (C0**2 * N * (1 + q.L_i) ** 2) + S * (N - 1) * dlt**2 / (
        C0**2 * N * (1 + q.L_i) ** 4
    )
    out["63a"] = (E_S, Dx[..., None] * np.ones(N))
    out["63b"] = (Dx[..., None] * np.ones(N), (N - 1) * per_j * np.ones(E_S.shape))
    off = ~np.eye(N, dtype=bool)
    for key in PAIRWISE:  # the diagonal i = j is not a claim
        out[key] = (out[key][0][..., off], np.broadcast_to(out[key][1], out[key][0].shape)[..., off])
    # both sides over the instance's scale (ell^2 for squared distances, ell for distances, lam_max L ell for the
    # gradient combinations, ell = the largest norm of an iterate or centre), so that rounding is absolute
    ell = float(np.sqrt(max(np.max(np.sum(x1**2, -1)), np.max(np.sum(z0**2, -1)), np.max(np.sum(q.c**2, -1)))))
    ell = max(ell, 1e-300)
    for keys, scale in ((SQUARED, ell**2), (PAIRWISE, ell), (("59+", "59-"), lam_max * q.L * ell)):
        for key in keys:
            out[key] = tuple(side / scale for side in out[key])
    out["E_S"], out["ell"] = E_S, ell
    return out


# ------------------------------------------------------------------------------------------ runs


def _configs(quick: bool) -> list[dict]:
    """The instances of the runs: equal L_i (0.5, where the printed C_0 is negative, and 2), heterogeneous L_i
    (convex scalar-like and indefinite, K-step oracle) and identical clients with a narrow box."""
    rng = np.random.default_rng(0)
    c = 2.0 * rng.standard_normal((N_DEV, 2))
    return [
        dict(q=_quadratics([0.5] * 3, c, name="equal L = 0.5"), frac=0.5, K=None),
        dict(q=_quadratics([2.0] * 3, c, 0.3, name="equal L = 2"), frac=0.5, K=None),
        dict(q=_quadratics([0.6, 1.2, 1.8], c, name="L_i = 0.6, 1.2, 1.8"), frac=0.5, K=2),
        dict(q=indefinite(N_DEV, 2, 5, (0.5, 1.0, 1.5)), frac=0.5, K=3),
        dict(q=heterogeneity(N_DEV, 2, 0.0, 1), frac=0.05, K=None),
    ]


@family("fedbc/lem-b.2-runs")
def runs(fam: Family) -> list[dict]:
    """Algorithm 1 on each configuration of :func:`_configs`: participants 3 and 2 (every device updating), and 2
    with non-sampled devices keeping their model; lam^0 = lam_min, alpha = 0.5, gamma_i = 0.05, z^0 = (3, -2)."""
    T = 4 if fam.quick else 6
    out = []
    for cfg in _configs(fam.quick):
        q = cfg["q"]
        box = lam_box(q.L_i, cfg["frac"])
        kw = dict(T=T, box_lam=box, alpha=0.5, gamma=0.05, lam0=box[0], z0=np.array([3.0, -2.0]))
        if cfg["K"] is not None:
            kw.update(K=cfg["K"], beta=1 / (q.L + 2 * box[1]))
        for S, update in ((3, "all"), (2, "all"), (2, "sampled")):
            run = alg1(q, participants=S, update=update, **kw)
            X = run.X
            out.append(dict(run=run, update=update, S=S, delta=delta(q, X, *box), label=f"{q.name}, S={S}, {update}"))
    return out


def _hypotheses(item: dict) -> str:
    run = item["run"]
    lo, hi = run.box_lam
    return (
        f"{item['label']}: A4.1 X = the smallest box holding every iterate and centre (R = {run.X.R:.4g}); A4.2 L_i "
        f"= {np.round(run.q.L_i, 4).tolist()}; A4.3 delta = {item['delta']:.4g} (exact on X x Lambda^2); (H1) "
        f"lam_min = {lo:.4g} = 1 + L; (H2) lam_max = {hi:.4g} < min_i (1 + L_i)^2/L_i = "
        f"{float(np.min((1 + run.q.L_i) ** 2 / run.q.L_i)):.4g}; oracle {run.oracle} (eps = {run.eps:.3g})"
    )


def _along_runs(ctx: Context, step: str, points: Points) -> dict:
    """The worst entry of ``step`` on each run with every device updating (over rounds, paths, devices, pairs)."""
    hyp = {}
    for item in runs(ctx):
        if item["update"] != "all":
            continue
        run = item["run"]
        out = steps(
            run.q,
            run.x[1:],
            run.z[:-1],
            run.lam[:-1],
            run.lam[1:],
            run.mask,
            run.eps,
            item["delta"],
            run.box_lam,
            item["S"],
        )
        lhs, rhs = out[step]
        rhs = np.broadcast_to(rhs, lhs.shape)
        slack = (rhs - lhs) / np.maximum(np.abs(rhs), 1e-300)
        k = np.unravel_index(int(np.argmin(slack)), slack.shape)
        points.add(float(lhs[k]), float(rhs[k]), run=item["label"], where=str(tuple(int(v) for v in k)))
        hyp[item["label"]] = _hypotheses(item)
    return hyp


def _config_at(step: str, L_min: float, u: float, frac: float, m: float, s: float, eps: float, v: float, phi: float):
    """Both sides of ``step`` (the worst entry) at one configuration (module docstring): ``L_max = L_min + u (1 +
    1/L_min)`` keeps (H1)-(H2) non-empty, ``lam_max`` at ``frac`` of the (H2) range, multipliers (lam_min, lam_min + v
    (lam_max - lam_min), lam_max), every device sampled with S = 2 of 3 (expectations over the 3 subsets), z = 0."""
    L_i = np.array([L_min, L_min + u * (1 + 1 / L_min), L_min + u * (1 + 1 / L_min)])
    q = _quadratics(L_i, _centres(N_DEV, s), m)
    box = lam_box(L_i, frac)
    lam = np.array([box[0], box[0] + v * (box[1] - box[0]), box[1]])
    ang = phi + 2 * np.pi * np.arange(N_DEV) / N_DEV
    e = np.sqrt(eps) * np.stack([np.cos(ang), np.sin(ang)], axis=1)
    H = q.A + 2 * lam[:, None, None] * np.eye(2)
    x = np.linalg.solve(H, (np.einsum("nij,nj->ni", q.A, q.c) + e)[..., None])[..., 0]
    dlt = delta(q, bounding_box(x, np.zeros(2), q.c), *box)
    out = steps(q, x, np.zeros(2), lam, lam, np.array([True, True, False]), eps, dlt, box, 2)
    lhs, rhs = out[step]
    rhs = np.broadcast_to(rhs, lhs.shape)
    k = int(np.argmin((rhs - lhs) / np.maximum(np.abs(rhs), 1e-300)))
    return float(lhs.ravel()[k]), float(rhs.ravel()[k]), {"L_max": float(L_i[1]), "lam_max": box[1], "delta": dlt}


CONFIG_DOMAIN = Domain(
    {
        "L_min": Axis(0.05, 20.0),
        "u": Axis(0.0, 0.999, log=False),
        "frac": Axis(0.0, 0.999, log=False),
        "m": Axis(-1.0, 1.0, log=False),
        "s": Axis(1e-3, 10.0),
        "eps": Axis(1e-10, 1.0),
        "v": Axis(0.0, 1.0, log=False),
        "phi": Axis(0.0, 2 * np.pi, log=False),
    },
    note="Lemma B.2's steps at any configuration its proof allows: N = 3, d = 2, convex or indefinite f_i (m < 0), "
    "L_i in {L_min, L_max} with lam_min = 1 + L_max < min_i (1 + L_i)^2/L_i (H1)-(H2), any multipliers in Lambda, "
    "errors with ||e_i||^2 = eps, x_i solving (54) exactly, X the smallest box holding x, z and the centres. Left "
    "out: N > 3 and d > 2 (every step is pairwise or a convex combination of three points).",
)


SEARCH_HYPOTHESES = (
    "every configuration: A4.1 X = the smallest box holding x_i, z and the centres (compact, containing the "
    "stationary points x_i of (54) with e = 0 in the limit eps -> 0); A4.2 f_i is L_i-smooth (L_i = max |eig A_i|); "
    "A4.3 delta computed exactly on X x Lambda^2; (H1) lam_min = 1 + L_max; (H2) lam_max < min_i (1 + L_i)^2/L_i "
    "(frac < 1); every multiplier in Lambda; ||e_i||^2 = eps"
)


def _step_claim(ctx: Context, step: str, relation: str = "<=", search: bool = True, **kw) -> Evidence:
    points = Points()
    hyp = _along_runs(ctx, step, points)
    if search:
        points.search(lambda **p: _config_at(step, **p), CONFIG_DOMAIN, relation, ctx)
    if search:
        hyp["configuration search"] = SEARCH_HYPOTHESES
    witness = {"hypotheses": hyp, **kw.pop("witness", {})}
    return points.evidence(relation, rtol=ROUNDING, atol=SCALED_ROUNDING, witness=witness, **kw)


def _step(cid: str, step: str, source: str, statement: str, expect: str, search: bool = True, note: str = ""):
    """Register the claim of one printed inequality (runs and, with ``search``, the configuration search)."""

    def check(ctx: Context) -> Evidence:
        return _step_claim(ctx, step, search=search, witness={"note": note} if note else {})

    check.__doc__ = (
        f"Instance: Algorithm 1 runs (module docstring){' and the configuration search' if search else ''}.\n"
        f"    Reading: {note or 'as printed'}. Reference: the iterates."
    )
    check.__name__ = f"step_{step.replace('+', 'plus').replace('-', '_')}"
    return claim(f"fedbc/{cid}", source=source, statement=statement, scope="printed", expect=expect)(check)


_step(
    "eq-46",
    "46",
    "Lemma B.2 (proof), (46)",
    "Jensen: ||x_i^{t+1} - z^{t+1}||^2 <= sum_{j in S_t} (lam_j^{t+1}/sum_{S_t} lam^{t+1}) ||x_i^{t+1} - x_j^{t+1}||^2",
    "holds",
    search=False,
)
_step(
    "eq-47",
    "47",
    "Lemma B.2 (proof), (47)",
    "||x_i^{t+1} - z^{t+1}||^2 <= sum_{j in S_t} ||x_i^{t+1} - x_j^{t+1}||^2",
    "holds",
    search=False,
)
_step(
    "eq-57",
    "57",
    "Lemma B.2 (proof), (56)-(57)",
    "||x_i - x_j|| <= ||e_i||/a_i + ||e_j||/a_j + ||a_j grad f_i(x_i) - a_i grad f_j(x_j)||/(a_i a_j)",
    "holds",
    note="holds with a factor 2 to spare: (54) gives x_i = z + (e_i - grad f_i(x_i))/(2 a_i), (55)-(56) drop the 2 "
    "and (56) also flips the sign of the j term",
)
_step(
    "eq-58",
    "58",
    "Lemma B.2 (proof), (58)",
    "with a_i >= 1 + L_i: ||x_i - x_j|| <= sqrt(eps)/(1 + L_i) + ||a_j grad f_i(x_i) - a_i grad f_j(x_j)||/(1 + L_i)^2",
    "holds",
    note="the printed step drops the e_j term and bounds 1/(a_i a_j) by 1/(1 + L_i)^2; with the common box "
    "Lambda every a_j >= 1 + max_k L_k, and the factor 2 lost in (55) covers the e_j term",
)
_step(
    "eq-59",
    "59+",
    "Lemma B.2 (proof), (59)",
    "as printed, with '+': ||a_j grad f_i(x_i) + a_i grad f_j(x_j)|| <= a_j L_i ||x_i - x_j|| + delta",
    "fails",
    note="the '+' of the printed left side (and of the sentence before (59)); Assumption 4.3 bounds only "
    "differences a grad f_i - b grad f_j, so near-identical clients with a narrow box break it",
)
_step(
    "eq-59:minus",
    "59-",
    "Lemma B.2 (proof), (59)",
    "with '-' (as in (57), (58) and the middle of (59)): ||a_j "
    "grad f_i(x_i) - a_i grad f_j(x_j)|| <= a_j L_i ||x_i - x_j|| + delta",
    "holds",
)
_step(
    "eq-60",
    "60",
    "Lemma B.2 (proof), (60)",
    "||x_i - x_j|| <= sqrt(eps)/(1 + L_i) + (lam_max L_i/(1 + L_i)^2) ||x_i - x_j|| + delta/(1 + L_i)^2",
    "holds",
    note="the printed justification names a_i <= lam_max; the coefficient it bounds is a_j (both lie in Lambda)",
)
_step(
    "eq-61",
    "61",
    "Lemma B.2 (proof), (61)",
    "(1 - lam_max L_i/(1 + L_i)^2) ||x_i - x_j|| <= sqrt(eps)/(1 + L_i) + delta/(1 + L_i)^2",
    "holds",
)
_step(
    "eq-62",
    "62",
    "Lemma B.2 (proof), (62)",
    "||x_i - x_j|| <= sqrt(eps)/(C_0 (1 + L_i s)) + delta/(C_0 (1 + L_i)^2) with C_0 := 1 - lam_max/(4L)",
    "fails",
    note="s = 1; C_0 as defined after (61): for L < 1 and lam_max >= 4L, inside (H1)-(H2), C_0 <= 0 and the right "
    "side is negative",
)


@claim(
    "fedbc/eq-62:coefficient",
    source="Lemma B.2 (proof), (61)-(62)",
    statement="(62) with C_0 replaced by the (61) coefficient 1 - lam_max L_i/(1 + L_i)^2",
    scope="corrected",
    expect="holds",
)
def eq_62_coefficient(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs and the configuration search (module docstring). Reading: dividing (61) by its own
    coefficient (positive under (H2)), s = 1. Reference: the iterates."""
    return _step_claim(ctx, "62-coefficient")


@claim(
    "fedbc/eq-45",
    source="Lemma B.2 (proof), (45)",
    statement="||x_i^{t+1} - z^{t+1}||^2 = ||(1/sum_{S_t} lam_j^{t+1}) sum_{j in S_t} lam_j^{t+1} (x_i^{t+1} - "
    "x_j^{t+1})||^2",
    scope="printed",
    expect="holds",
)
def eq_45(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs (module docstring). Reading: the difference of both sides over the run's squared
    length scale. Reference: the iterates; the control replaces z^{t+1} by the unweighted mean of the sampled
    models."""
    points, control = Points(), Points()
    for item in runs(ctx):
        run = item["run"]
        x1, lam1, mask = run.x[1:], run.lam[1:], run.mask
        out = steps(run.q, x1, run.z[:-1], run.lam[:-1], lam1, mask, run.eps, item["delta"], run.box_lam, item["S"])
        lhs, rhs = out["45"]
        dev = np.abs(lhs - rhs)  # over the run's squared length scale (steps)
        k = np.unravel_index(int(np.argmax(dev)), dev.shape)
        points.add(float(dev[k]), 0.0, run=item["label"], where=str(tuple(int(v) for v in k)))
        zbar = np.einsum("...n,...nd->...d", mask, x1) / mask.sum(-1)[..., None]
        wrong = np.sum((x1 - zbar[..., None, :]) ** 2, axis=-1) / out["ell"] ** 2
        control.add(float(np.max(np.abs(wrong - rhs))), 0.0, run=item["label"])
    ctrl = negative_control(control.evidence("==", atol=SCALED_ROUNDING), "z^{t+1} = the plain mean of S_t")
    return points.evidence("==", atol=SCALED_ROUNDING, witness={"negative control": ctrl})


@claim(
    "fedbc/eq-53",
    source="Lemma B.2 (proof), (48)-(53)",
    statement="E_{S_t}||x_i^{t+1} - z^{t+1}||^2 <= (S/N) sum_j ||x_i^{t+1} - x_j^{t+1}||^2 <= (S(N-1)/N) Delta x^{t+1}",
    scope="printed",
    expect="holds",
)
def eq_53(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs with every device updating (x^{t+1}, lam^{t+1} do not depend on S_t) and the
    configuration search. Reading: E_{S_t} exactly, over every S-subset of the N devices; entries for (52) and
    (53). Reference: the iterates."""
    points = Points()
    hyp = _along_runs(ctx, "52", points)
    _along_runs(ctx, "53", points)
    points.search(lambda **p: _config_at("53", **p), CONFIG_DOMAIN, "<=", ctx)
    hyp["configuration search"] = SEARCH_HYPOTHESES
    return points.evidence("<=", rtol=ROUNDING, atol=SCALED_ROUNDING, witness={"hypotheses": hyp})


@claim(
    "fedbc/eq-55",
    source="Lemma B.2 (proof), (54)-(55)",
    statement="(54) implies x_i^{t+1} = z^t + (e_i^{t+1} - grad f_i(x_i^{t+1}))/lam_i^t",
    scope="printed",
    expect="fails",
)
def eq_55(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs (module docstring), e_i^{t+1} as defined by (54). Reading: the residual of (55)
    over the sum of the norms of its two sides (0 asserted). Reference: the iterates."""
    points = Points()
    hyp = _along_runs(ctx, "55", points)
    ev = points.evidence("==", atol=SCALED_ROUNDING, witness={"hypotheses": hyp})
    ev.witness["why"] = (
        "(54) gives x_i^{t+1} - z^t = (e - grad f_i)/(2 lam_i^t): the printed (55) lacks the 2, so its residual is "
        "-(x_i^{t+1} - z^t), a third of the scale whenever x_i^{t+1} != z^t. (56)-(62) inherit the missing 2, "
        "which makes them looser, not wrong"
    )
    return ev


WITNESS_63 = dict(L_min=0.05, u=3.1445e-05, frac=0.98854, m=0.99556, s=0.0073638, eps=0.12747, v=0.0, phi=5.1845)
"""The worst configuration the full profile's search found for (63) (kept so that the quick profile sees it)."""


@claim(
    "fedbc/eq-63",
    source="Lemma B.2 (proof), (63)",
    statement="E_t||x_i^{t+1} - z^{t+1}||^2 <= max_{i,j}||x_i - x_j||^2 <= sum_{j != i} [2 S(N-1) eps/(C_0^2 N "
    "(1+L_i)^2) + S(N-1) delta^2/(C_0^2 N (1+L_i)^4)]",
    scope="printed",
    expect="fails",
)
def eq_63(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs, the configuration search and the worst configuration of the full profile's search
    (:data:`WITNESS_63`). Reading: C_0 := 1 - lam_max/(4L) (only C_0^2 enters); entries for each of the two
    inequalities. Reference: the iterates, E_t exact over S_t."""
    points = Points()
    hyp = _along_runs(ctx, "63a", points)
    _along_runs(ctx, "63b", points)
    points.search(lambda **p: _config_at("63b", **p), CONFIG_DOMAIN, "<=", ctx)
    lhs, rhs, extra = _config_at("63b", **WITNESS_63)
    points.add(lhs, rhs, **{name: None for name in points.grid} | {**WITNESS_63, **extra, "run": "recorded witness"})
    hyp["configuration search"] = SEARCH_HYPOTHESES
    why = (
        "for L < 1 and lam_max near the (H2) cap (1 + L)^2/L the printed C_0 = 1 - lam_max/(4L) is far below 0, so "
        "C_0^2 >> 1 shrinks the right side below max_{i,j} ||x_i - x_j||^2 (a configuration with eps > 0 and close "
        "centres); the (61) coefficient, near 0 there, would enlarge it instead"
    )
    return points.evidence("<=", rtol=ROUNDING, atol=SCALED_ROUNDING, witness={"hypotheses": hyp, "why": why})


# ------------------------------------------------------------------------------------------ (64), (65), (44)


def _consensus(item: dict, C0_form: str = "text") -> tuple[np.ndarray, float]:
    """Per path ``(1/N) sum_t sum_i ||x_i^{t+1} - z^{t+1}||^2`` (``E_t`` over S_t for runs with every device
    updating, the realised value otherwise) and the printed right side of (64) with C_0 in ``C0_form``."""
    run = item["run"]
    lam_max = run.box_lam[1]
    if item["update"] == "all":
        E = steps(
            run.q,
            run.x[1:],
            run.z[:-1],
            run.lam[:-1],
            run.lam[1:],
            run.mask,
            run.eps,
            item["delta"],
            run.box_lam,
            item["S"],
        )["E_S"]
    else:
        E = np.sum((run.x[1:] - run.z[1:, :, None, :]) ** 2, axis=-1)
    lhs = E.sum(axis=(0, 2)) / run.q.N
    C0 = C_0_text(run.q.L, lam_max) if C0_form == "text" else float(np.min(C_0_eq61(run.q.L_i, lam_max)))
    t_eps, t_delta = consensus_terms(run.eps, item["delta"], item["S"], run.q.N, C0, list(run.q.L_i))
    return lhs, run.T * (t_eps + t_delta)


@claim(
    "fedbc/eq-64",
    source="Lemma B.2 (proof), (64)",
    statement="(1/N) sum_t sum_i E_t||x_i^{t+1} - z^{t+1}||^2 <= T eps S(N-1)/(C_0^2 N^2) sum_i (1+L_i)^-2 + T "
    "delta^2 S(N-1)/(C_0^2 N^2) sum_i (1+L_i)^-4",
    scope="printed",
    expect="holds",
)
def eq_64(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs with every device updating, per sampling path (E_t exact over S_t). Reading: C_0 :=
    1 - lam_max/(4L). Reference: the iterates."""
    points, hyp = Points(), {}
    for item in (i for i in runs(ctx) if i["update"] == "all"):
        lhs, rhs = _consensus(item)
        p = int(np.argmax(lhs / rhs))
        points.add(float(lhs[p]), float(rhs), run=item["label"], path=p)
        hyp[item["label"]] = _hypotheses(item)
    return points.evidence("<=", rtol=ROUNDING, witness={"hypotheses": hyp})


def _lemma(ctx: Context, every_device: bool, C0_form: str) -> Evidence:
    """(65) over T on the runs of one device-update reading with C_0 in ``C0_form``: the total expectation over
    every sampling path."""
    points, hyp, other = Points(), {}, {}
    for item in runs(ctx):
        if (item["update"] == "all") != every_device and item["S"] < item["run"].q.N:
            continue
        run = item["run"]
        lhs, rhs = _consensus(item, C0_form)
        points.add(float(np.dot(run.weight, lhs)) / run.T, float(rhs) / run.T, run=item["label"])
        lhs2, rhs2 = _consensus(item, "eq61" if C0_form == "text" else "text")
        other[item["label"]] = round(float(np.dot(run.weight, lhs2) / rhs2), 6)
        hyp[item["label"]] = _hypotheses(item)
    name = "the (61) coefficient" if C0_form == "text" else "the printed 1 - lam_max/(4L)"
    witness = {"hypotheses": hyp, f"left/right with {name} as C_0": other}
    return points.evidence("<=", rtol=ROUNDING, witness=witness)


@claim(
    "fedbc/lem-b.2",
    source="Lemma B.2, (44) with (64)-(65)",
    statement="(1/T) sum_{t<T} (1/N) sum_i E||x_i^{t+1} - z^{t+1}||^2 <= O(eps) + O(delta^2), explicitly (65)/T",
    scope="printed",
    expect="fails",
)
def lem_b_2(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs, full participation and 2 of 3 devices with the non-sampled devices keeping their
    model (Algorithm 1 updates only j in S_t; the authors' code does the same); the total expectation over every
    sampling path. Reading: C_0 := 1 - lam_max/(4L); the (61) coefficient in its place is reported. Reference: the
    iterates."""
    ev = _lemma(ctx, every_device=False, C0_form="text")
    ev.witness["why"] = (
        "a device left out of S_t keeps x_i^t, computed against an older server model, so (54) does not hold for it "
        "against z^t ((H5) fails) and its distance to z^{t+1} is not controlled by eps and delta: with identical "
        "clients (delta = (lam_max - lam_min) max_X ||grad f||, small for a narrow box) and the exact oracle the "
        "stale models keep the consensus error far above (65)"
    )
    return ev


@claim(
    "fedbc/lem-b.2:all-devices",
    source="Lemma B.2, (44) with (64)-(65)",
    statement="(65)/T with C_0 := min_i (1 - lam_max L_i/(1 + L_i)^2) holds when every device runs its oracle each "
    "round and only the sampled enter (13)",
    scope="corrected",
    expect="holds",
)
def lem_b_2_all_devices(ctx: Context) -> Evidence:
    """Instance: Algorithm 1 runs with every device updating (participants 3 and 2). Reading: C_0 the smallest (61)
    coefficient (positive under (H2); the printed C_0 fails (62)-(63)), otherwise as lem-b.2. Reference: the
    iterates."""
    return _lemma(ctx, every_device=True, C0_form="eq61")


# ------------------------------------------------------------------------------------------ C_0 and the box

LS, LAM = sp.symbols("L lam_max", positive=True)


def _c0_region() -> sp.Set:
    """The common L (L_i = L) for which (H1)-(H2) allow a lam_max with the printed C_0 <= 0, i.e. max(1 + L, 4L) <
    (1 + L)^2/L (sympy)."""
    pos = sp.Interval.open(0, sp.oo)
    cap = (1 + LS) ** 2 / LS
    low = sp.solveset(1 + LS >= 4 * LS, LS, pos).intersect(sp.solveset(1 + LS < cap, LS, pos))
    high = sp.solveset(4 * LS > 1 + LS, LS, pos).intersect(sp.solveset(4 * LS < cap, LS, pos))
    return sp.Union(low, high)


def _c0_points(form: str) -> Points:
    """The form's value at exact rational points of the (H1)-(H2) region: L_i on a grid (common L, and pairs), lam_max
    at the ends of [1 + L, min (1+L_i)^2/L_i) (the open end approached by 1/1000 of its width)."""
    points = Points()
    grid = [Fraction(k, 8) for k in range(1, 81)]  # 1/8 .. 10
    for L_i in [(L,) for L in grid] + list(itertools.combinations(grid[::4], 2)):
        lo = 1 + max(L_i)
        up = min((1 + L) ** 2 / L for L in L_i)
        if not lo < up:
            continue
        for lam_max in (lo, up - (up - lo) / 1000):
            value = C_0_text(max(L_i), lam_max) if form == "text" else min(C_0_eq61(L, lam_max) for L in L_i)
            points.add(value, 0, L_i=str(tuple(map(str, L_i))), lam_max=str(lam_max))
    return points


@claim(
    "fedbc/eq-62:c0",
    source="Lemma B.2 (proof), the text after (61)",
    statement="C_0 := 1 - lam_max/(4L) is strictly positive if lam_max < (1 + L_i)^2/L_i",
    scope="printed",
    expect="fails",
)
def eq_62_c0(ctx: Context) -> Evidence:
    """Instance: exact rational L_i (common L on 1/8..10, and pairs) with lam_max at both ends of the (H1)-(H2) range.
    Reading: L = max_i L_i, lam_max >= lam_min >= 1 + L (H1). Reference: exact arithmetic; sympy gives the set of L
    where the region holds a lam_max with C_0 <= 0."""
    region = _c0_region()
    return _c0_points("text").evidence(
        ">",
        witness={
            "L (common) with a lam_max in (H1)-(H2) making C_0 <= 0 (sympy)": str(region),
            "why": "C_0 > 0 iff lam_max < 4L, while (H2) allows lam_max up to (1+L)^2/L, which exceeds 4L for L < 1",
            "hypotheses": "lam_max in [1 + L, (1 + L_i)^2/L_i) for every i: (H1) and (H2) exactly",
        },
    )


@claim(
    "fedbc/eq-62:c0-coefficient",
    source="Lemma B.2 (proof), (61) and the text after it",
    statement="the (61) coefficient 1 - lam_max L_i/(1 + L_i)^2 is strictly positive if lam_max < (1 + L_i)^2/L_i",
    scope="corrected",
    expect="holds",
)
def eq_62_c0_coefficient(ctx: Context) -> Evidence:
    """Instance: as eq-62:c0. Reading: the positivity statement read with the coefficient (61) prints; it is
    equivalent to (H2) (sympy). Reference: exact arithmetic."""
    # coefficient * (1 + L)^2/L = (1 + L)^2/L - lam_max: a positive multiple, so both signs agree
    equivalent = sp.simplify(C_0_eq61(LS, LAM) * (1 + LS) ** 2 / LS - ((1 + LS) ** 2 / LS - LAM)) == 0
    ctrl = negative_control(_c0_points("text").evidence(">"), "the printed C_0 in its place")
    return _c0_points("eq61").evidence(
        ">",
        witness={
            "equivalent to lam_max < (1+L_i)^2/L_i (sympy)": bool(equivalent),
            "C_0 against the coefficient": "C_0 <= coefficient iff (1 + L_i)^2 <= 4 L L_i; for L_i = L iff L <= 1: "
            "for L > 1 the printed C_0 exceeds the coefficient, so dividing (61) by C_0 claims more than (61) gives",
            "negative control": ctrl,
        },
    )


@claim(
    "fedbc/eq-11:lambda-box",
    source="(11) and the conditions of Appendix B ((H1): lam >= 1 + L_i; (H2): lam_max < (1 + L_i)^2/L_i)",
    statement="the values of lam_min and lam_max 'will be derived later from the analysis': a box [lam_min, lam_max] "
    "with lam_min >= 1 + L_i and lam_max < (1 + L_i)^2/L_i for every i exists",
    scope="printed",
    expect="fails",
)
def lambda_box(ctx: Context) -> Evidence:
    """Instance: a common L (sympy, every L > 0) and pairs (L_1, L_2) on a grid of [0.1, 10]^2.
    Reading: the box is non-empty iff max_i (1 + L_i) < min_i (1 + L_i)^2/L_i; measured: the width of that interval
    (> 0 asserted). Reference: exact rationals."""
    common = sp.simplify((1 + LS) ** 2 / LS - (1 + LS))  # = (1 + L)/L > 0
    points = Points()
    grid = [Fraction(k, 10) for k in range(1, 101, 3)]
    for L1, L2 in itertools.product(grid, grid):
        width = min((1 + L) ** 2 / L for L in (L1, L2)) - (1 + max(L1, L2))
        points.add(width, 0, L_1=float(L1), L_2=float(L2))
    ev = points.evidence(">")
    ev.witness.update(
        {
            "common L (sympy)": f"(1+L)^2/L - (1+L) = {common} > 0: a box exists for equal L_i",
            "heterogeneous L_i": "empty iff max_k L_k >= L_i + 1 + 1/L_i for some i, e.g. L = (1, 3): [4, 4) is "
            "empty; with L_i = 1 the cap min (1+L)^2/L = 4 allows no L_k >= 3",
            "hypotheses": "any L_i > 0 (Assumption 4.2); the paper derives Lambda for whatever L_i the devices have",
        }
    )
    return ev
