"""Lemma B.1 (App. B): statement (i) (20) with its steps (26)-(28), statement (ii) (21)/(43) with (35), (37)-(39),
(42).

Runs (family ``lem-b.1/runs``, :func:`.instances.alg1`): Algorithm 1 on convex ``Q(4, 2)`` (exact oracle, full
participation; and ``S = 2`` of 4 devices with all 6^4 sampling paths of 4 rounds, so expectations are exact),
indefinite quadratics with heterogeneous ``L_i = (0.2, 0.5, 1, 2)`` (K = 5 gradient steps, full participation; and
``S = 1`` of 3 with all 3^5 paths, non-sampled devices keeping ``x_i, lam_i`` as the authors' code does, or every
device updating), scalar ``S(5)``, and identical clients started at their common minimiser. Every run has
``lam_i^t in Lambda = [1 + L, 1.5 (1 + L)]`` ((H1); (H2) is not a hypothesis of this lemma), ``gamma_i > 0``,
``alpha > 0``; ``eps`` is the run's realised oracle accuracy ``max ||grad_x L_i(x_i^{t+1}, z^t, lam_i^t)||^2``, X the
smallest box holding every iterate, centre and ``x*``, ``R`` its diameter.

Searches (one device, ``z^t = 0`` w.l.o.g., ``L = max_j L_j = 1`` by scaling): ``f_i`` with Hessian ``diag(s_1,
s_2) L_i``, ``s in [-1, 1]`` (nonconvex allowed: the lemma assumes only A4.1-4.2), any ``e = grad_x L_i(x^{t+1})``
with ``||e||^2 <= eps``, any step ``x^{t+1} - x^t``, ``||x^{t+1} - z^t||``, ``||x^{t+1} - z^{t+1}|| <= R``, the
dual step of (11) with any ``alpha``, ``gamma_i``. Identities used: ``I = <e, D> - D'(A_i + 2 lam I)D/2`` (``D =
x^{t+1} - x^t``), ``grad_x L_i(x^t) = e - (A_i + 2 lam I) D``.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.family import Family, family
from fedtheory.harness.search import Axis, Domain, searched
from fedtheory.harness.tolerances import ROUNDING, SCALED_ROUNDING

from . import instances as inst
from . import printed as pr

RUNS_NOTE = (
    "Algorithm 1 runs: convex Q(4,2) exact (full; S=2 of 4, all paths), Q(3,2) exact S=1 of 3 (all paths), "
    "indefinite L_i=(0.2,0.5,1,2) K=5 (full), "
    "indefinite N=3 S=1 K=3 (all paths; non-sampled devices keep x_i, lam_i / every device updates), S(5) exact, "
    "identical clients at their minimiser (R = 0.1)"
)
HYP = (
    "A4.1: X = the box holding every iterate (compact, diameter R, contains the stationary points x_i^{t+1}); "
    "A4.2: quadratic f_i, L_i = max |eig A_i|; (H1): lam_i^t in [1 + L, 1.5 (1 + L)] for all i, t; gamma_i >= 0"
)


def _terms(run: inst.Run) -> dict[str, np.ndarray]:
    """Every quantity of Lemma B.1 per round, path and device ``(T, P, N)``."""
    q, x, z, lam, g = run.q, run.x, run.z, run.lam, run.gamma
    xt, xn, zt, zn, lt, ln = x[:-1], x[1:], z[:-1], z[1:], lam[:-1], lam[1:]

    def lag(xx, zz, ll):
        return inst.lagrangian(q, xx, zz, ll, g)

    grad_L = q.grad(xt) + 2 * lt[..., None] * (xt - zt[:, :, None])
    dx2 = np.sum((xn - xt) ** 2, axis=-1)
    return {
        "gradL2": np.sum(grad_L**2, axis=-1),
        "dx2": dx2,
        "d2": np.sum((xn - zt[:, :, None]) ** 2, axis=-1),
        "dnew2": np.sum((xn - zn[:, :, None]) ** 2, axis=-1),
        "I": lag(xn, zt, lt) - lag(xt, zt, lt),
        "II": lag(xn, zt, ln) - lag(xn, zt, lt),
        "III": lag(xn, zn, ln) - lag(xn, zt, ln),
        "dLag": lag(xt, zt, lt) - lag(xn, zn, ln),
        "lam_t": np.broadcast_to(lt, dx2.shape),
        "L_i": np.broadcast_to(q.L_i, dx2.shape),
        "scaleL": np.abs(lag(xt, zt, lt)) + np.abs(lag(xn, zn, ln)) + np.abs(lag(xn, zt, lt)) + np.abs(lag(xn, zt, ln)),
    }


@family("fedbc/lem-b.1/runs")
def runs(fam: Family) -> dict[str, tuple[inst.Run, dict, dict]]:
    """The runs of the module docstring: ``name -> (run, terms, constants)``."""
    rng = fam.rng()
    T = 20 if fam.quick else 60
    out = {}

    def add(name, q, participants=None, K=None, update="sampled", T_=T, z0=None, lam0=None, gamma=None, alpha=0.05):
        lo, hi = inst.lam_box(q.L_i, h2=False)
        gamma = 0.5 * rng.uniform(0.1, 0.6, q.N) if gamma is None else gamma
        beta = None if K is None else 1.0 / (q.L + 2 * hi)
        run = inst.alg1(
            q,
            T=T_,
            box_lam=(lo, hi),
            alpha=alpha,
            gamma=gamma,
            lam0=hi if lam0 is None else lam0,
            z0=np.zeros(q.d) if z0 is None else z0,
            participants=participants or q.N,
            K=K,
            beta=beta,
            update=update,
        )
        box = run.X if name != "identical at optimum" else inst.Box(q.c[0] - 0.05, q.c[0] + 0.05)
        c = {"eps": run.eps, "L": q.L, "lam_max": hi, "R": box.R, "M1": pr.M_1(q.L, hi), "alpha": alpha}
        out[name] = (run, _terms(run), c)

    add("Q(4,2) exact full", inst.Q(4, 2, 1))
    add("Q(4,2) exact S=2 all paths", inst.Q(4, 2, 2), participants=2, T_=4, z0=np.full(2, 5.0))
    add("Q(3,2) exact S=1 all paths", inst.Q(3, 2, 7), participants=1, T_=5, z0=np.full(2, 5.0))
    ind = inst.indefinite(4, 3, 3, [0.2, 0.5, 1.0, 2.0])
    add("indefinite K=5 full", ind, K=5)
    ind3 = inst.indefinite(3, 2, 4, [0.3, 1.0, 2.0])
    add("indefinite K=3 S=1 keep", ind3, participants=1, K=3, T_=5, z0=np.full(2, 5.0))
    add("indefinite K=3 S=1 all-update", ind3, participants=1, K=3, T_=5, update="all", z0=np.full(2, 5.0))
    add("S(5) exact full", inst.S(5, 5))
    ident = inst.Quadratics(np.ones((2, 1, 1)), np.full((2, 1), 0.7), "identical f_i = (x - 0.7)^2/2")
    add("identical at optimum", ident, T_=3, z0=np.array([0.7]), gamma=np.full(2, 0.5), alpha=0.2)
    return out


def _per_t(name: str, lhs, rhs, scale, valid) -> dict[str, list]:
    """The worst (path, device) of each round: ``lhs``, ``rhs`` divided by the rounding ``scale`` (``(T, P, N)``)."""
    s = np.where(valid, (rhs - lhs) / scale, np.inf).reshape(lhs.shape[0], -1)
    k = np.argmin(s, axis=1)
    keep = np.isfinite(s[np.arange(len(k)), k])
    flat = [np.asarray(a / scale).reshape(lhs.shape[0], -1)[np.arange(len(k)), k][keep] for a in (lhs, rhs)]
    N = lhs.shape[2]
    return {
        "m": list(flat[0]),
        "b": list(flat[1]),
        "run": [name] * int(keep.sum()),
        "t": list(np.flatnonzero(keep)),
        "path": list((k // N)[keep]),
        "client": list((k % N)[keep]),
    }


def _evidence(parts: list[dict], relation: str = "<=", **kwargs) -> Evidence:
    cat = {key: [v for p in parts for v in p[key]] for key in parts[0]}
    grid = {k: np.array(v, dtype=object) for k, v in cat.items() if k not in ("m", "b")}
    return Evidence(
        np.array(cat["m"]), np.array(cat["b"]), relation, rtol=ROUNDING, atol=SCALED_ROUNDING, grid=grid, **kwargs
    )


def _along(ctx: Context, step, *, oracle_only: bool = True, names=None) -> list[dict]:
    """``step(terms, constants, run) -> (lhs, rhs, scale)`` on every run (``names``), per round, worst entry."""
    parts = []
    for name, (run, terms, c) in runs(ctx).items():
        if names is not None and name not in names:
            continue
        lhs, rhs, scale = step(terms, c, run)
        valid = (run.active if oracle_only else np.ones_like(run.active)) & (np.abs(scale) > 0)  # 0 <= 0 says nothing
        parts.append(_per_t(name, lhs, rhs, np.abs(scale) + 1e-300, valid))
    return parts


# ---------------------------------------------------------------- one-device configurations for the searches
def _config(Li, s1, s2, lam_frac, lam_max_f, eps, rho, theta, r, d2_f, dnew2_f, gamma, alpha, R):
    """One device at ``z^t = 0`` with ``L = 1``: (11)'s dual step and the quantities of (26)-(43)."""
    L = 1.0
    lam_max = (1 + L) * lam_max_f
    lam = (1 + L) + lam_frac * (lam_max - (1 + L))
    H = np.diag([s1 * Li, s2 * Li]) + 2 * lam * np.eye(2)
    e = np.sqrt(rho * eps) * np.array([1.0, 0.0])
    D = r * R * np.array([np.cos(theta), np.sin(theta)])  # x^{t+1} - x^t, within the diameter
    d2, dnew2 = (d2_f * R) ** 2, (dnew2_f * R) ** 2
    lam_new = float(np.clip(lam + alpha * (d2 - gamma), 1 + L, lam_max))
    I = e @ D - 0.5 * D @ H @ D
    II = (lam_new - lam) * (d2 - gamma)
    III = lam_new * (dnew2 - d2)
    gradL = e - H @ D
    return {
        "L": L,
        "lam": lam,
        "lam_max": lam_max,
        "I": I,
        "II": II,
        "III": III,
        "gradL2": gradL @ gradL,
        "dx2": D @ D,
        "dnew2": dnew2,
        "M1": pr.M_1(L, lam_max),
        "G": pr.G_dual(R, gamma),
        "scale": abs(e @ D) + abs(D @ H @ D) + abs(II) + lam_new * (dnew2 + d2) + eps + lam_max * D @ D,
    }


AXES = {
    "Li": Axis(1e-3, 1.0),
    "s1": Axis(-1.0, 1.0, log=False),
    "s2": Axis(-1.0, 1.0, log=False),
    "lam_frac": Axis(0.0, 1.0, log=False),
    "lam_max_f": Axis(1.0, 10.0),
    "eps": Axis(1e-8, 1.0),
    "rho": Axis(0.0, 1.0, log=False),
    "theta": Axis(0.0, np.pi, log=False),
    "r": Axis(1e-4, 1.0),
    "d2_f": Axis(0.0, 1.0, log=False),
    "dnew2_f": Axis(0.0, 1.0, log=False),
    "gamma": Axis(0.0, 4.0, log=False),
    "alpha": Axis(1e-4, 10.0),
    "R": Axis(1e-2, 10.0),
}
NOTE = (
    "one device, z^t = 0, L = max_j L_j = 1 (scaling), Hessian diag(s1, s2) L_i with L_i in [1e-3, 1] and s in "
    "[-1, 1] (A4.2, nonconvex allowed), lam_i^t in [1 + L, lam_max], lam_max in [1 + L, 10 (1 + L)] ((H1)), ||e||^2 "
    "= rho eps <= eps ((23)), ||x^{t+1} - x^t||, ||x^{t+1} - z^t||, ||x^{t+1} - z^{t+1}|| <= R (A4.1), R in [0.01, "
    "10], gamma_i in [0, 4], alpha in [1e-4, 10], lam^{t+1} by (11). Left out: d > 2 (each inequality involves at "
    "most the two directions of e and x^{t+1} - x^t)."
)


def _search(ev: Evidence, ctx: Context, part, axes=None) -> Evidence:
    names = list(axes or AXES)

    def at(**p):
        full = {"s1": 1.0, "s2": 1.0, "lam_frac": 0.5, "lam_max_f": 1.5, "eps": 1e-2, "rho": 1.0, "theta": 0.0}
        full.update({"r": 0.1, "d2_f": 0.5, "dnew2_f": 0.5, "gamma": 0.5, "alpha": 0.1, "R": 1.0, "Li": 1.0})
        full.update(p)
        c = _config(**full)
        m, b = part(c, full)
        return m / (c["scale"] + 1e-300), b / (c["scale"] + 1e-300)

    return searched(ev, at, Domain({k: AXES[k] for k in names}, note=NOTE), ctx, scale=4)


# ---------------------------------------------------------------- statement (i) and (26)-(28)
@claim(
    "fedbc/eq-26",
    source="Lemma B.1 (proof), eq. (26)",
    statement="||grad_x L_i(x_i^t, z^t, lam_i^t)|| <= (L + 2 lam_max)||x_i^{t+1} - x_i^t|| + sqrt(eps)",
    scope="printed",
    expect="holds",
)
def eq_26(ctx: Context) -> Evidence:
    """Instance: every device that ran the oracle in round t of the runs (module docstring), then the search.
    Reading: (26) follows from (25) by the triangle inequality and L_i + 2 lam_i^t <= M_1: printed weaker than the
    step gives (L_i, lam_i^t replaced by their maxima). Reference: exact gradients of the quadratics."""
    parts = _along(
        ctx,
        lambda t, c, r: (
            np.sqrt(t["gradL2"]),
            pr.rhs_26(c["M1"], np.sqrt(t["dx2"]), c["eps"]),
            np.sqrt(t["gradL2"]) + c["M1"] * np.sqrt(t["dx2"]) + np.sqrt(c["eps"]),
        ),
    )
    ev = _evidence(parts, witness={"runs": RUNS_NOTE, "hypotheses": HYP})
    ev = _search(ev, ctx, lambda c, p: (np.sqrt(c["gradL2"]), pr.rhs_26(c["M1"], np.sqrt(c["dx2"]), p["eps"])))
    control = _search(
        _evidence(parts), ctx, lambda c, p: (np.sqrt(c["gradL2"]), pr.rhs_26(c["L"], np.sqrt(c["dx2"]), p["eps"]))
    )
    ev.witness["negative control"] = negative_control(control, "M_1 replaced by L (the 2 lam term dropped)")
    return ev


@claim(
    "fedbc/eq-27",
    source="Lemma B.1 (proof), eq. (27)",
    statement="||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= 2 M_1^2 ||x_i^{t+1} - x_i^t||^2 + 2 eps",
    scope="printed",
    expect="holds",
)
def eq_27(ctx: Context) -> Evidence:
    """Instance: as (26). Reading: squaring (26) with (a + b)^2 <= 2a^2 + 2b^2: identical to the step. Reference:
    exact gradients."""
    parts = _along(
        ctx,
        lambda t, c, r: (
            t["gradL2"],
            pr.rhs_27(c["M1"], t["dx2"], c["eps"]),
            t["gradL2"] + c["M1"] ** 2 * t["dx2"] + c["eps"],
        ),
    )
    ev = _evidence(parts, witness={"runs": RUNS_NOTE, "hypotheses": HYP, "step": "identical ((a+b)^2 <= 2a^2 + 2b^2)"})
    return _search(ev, ctx, lambda c, p: (c["gradL2"], pr.rhs_27(c["M1"], c["dx2"], p["eps"])))


FULL_ORACLE = ("Q(4,2) exact full", "indefinite K=5 full", "indefinite K=3 S=1 all-update", "S(5) exact full")


def _averaged(ctx: Context, lhs_rhs, names=None) -> list[dict]:
    """Per round: ``lhs_rhs(run, terms, c) -> (lhs, rhs, scale)`` of path-expectations ``(T,)``."""
    parts = []
    for name, (run, terms, c) in runs(ctx).items():
        if names is not None and name not in names:
            continue
        lhs, rhs, scale = lhs_rhs(run, terms, c)
        s = np.abs(scale) + 1e-300
        T = len(lhs)
        parts.append({"m": list(lhs / s), "b": list(rhs / s), "run": [name] * T, "t": list(range(T))})
    return parts


def _stmt_i(run, t, c):
    E = run.mean
    lhs, dx2 = E(t["gradL2"].mean(-1)), E(t["dx2"].mean(-1))
    return lhs, pr.rhs_20(c["M1"], dx2, c["eps"]), lhs + c["M1"] ** 2 * (dx2 + c["eps"])


@claim(
    "fedbc/eq-28",
    source="Lemma B.1 (proof), eq. (28)",
    statement="(1/N) sum_i E||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= 2 M_1^2 [(1/N) sum_i E||x_i^{t+1} - x_i^t||^2 "
    "+ eps]",
    scope="printed",
    expect="holds",
)
def eq_28(ctx: Context) -> Evidence:
    """Instance: the runs in which every device runs the oracle in every round (full participation, or every device
    updating), exact expectation over all sampling paths. Reading: (27) averaged over i and over the sampling:
    identical to the step. Reference: exact gradients."""
    ev = _evidence(_averaged(ctx, _stmt_i, FULL_ORACLE), witness={"runs": list(FULL_ORACLE), "step": "identical"})
    return ev


@claim(
    "fedbc/lem-b.1:i",
    source="Lemma B.1 (i), eq. (20)",
    statement="For the iterates of Algorithm 1: (1/N) sum_i E||grad_x L_i(x_i^t, z^t, lam_i^t)||^2 <= 2 M_1^2 "
    "[(1/N) sum_i E||x_i^{t+1} - x_i^t||^2 + eps]",
    scope="printed",
    expect="fails",
)
def lem_b1_i(ctx: Context) -> Evidence:
    """Instance: every run (module docstring), exact expectation over the sampling paths, per round t. Reading:
    Algorithm 1 updates only the sampled devices; a device outside S_t keeps x_i and lam_i (the authors' code; the
    paper does not say), so x_i^{t+1} = x_i^t is no oracle output at (z^t, lam_i^t) and (23) fails for it: the
    proof's (25) holds only for devices that ran the oracle. Reference: exact gradients, exact expectations."""
    witness = {
        "runs": RUNS_NOTE,
        "hypotheses": HYP + "; run Q(3,2) exact S=1 of N = 3 (all 3^5 sampling paths, "
        "exact expectation), non-sampled devices keep x_i, lam_i; eps = max over oracle calls (exact oracle: ~0)",
        "holds when": "every device runs the oracle every round (full participation or every device updating): eq-28",
    }
    return _evidence(_averaged(ctx, _stmt_i), witness=witness)


# ---------------------------------------------------------------- statement (ii) and (35)-(42)
@claim(
    "fedbc/eq-35",
    source="Lemma B.1 (proof), eq. (35)",
    statement="I = L_i(x_i^{t+1}, z^t, lam_i^t) - L_i(x_i^t, z^t, lam_i^t) <= eps/(2L) - (lam_i^t - L_i)"
    "||x_i^{t+1} - x_i^t||^2, L = max_j L_j",
    scope="printed",
    expect="fails",
)
def eq_35(ctx: Context) -> Evidence:
    """Instance: the runs, then the search over one device's configurations. Reading: the line before (35)
    (Peter-Paul with constant L_i) gives I <= ||e||^2/(2 L_i) + (L_i - lam_i^t)||dx||^2 (sympy: identical to the
    printed line); (35) then writes eps/(2L) with L = max_j L_j, stronger than eps/(2 L_i) for a device with L_i < L.
    The sharp bound is sup I + (lam - L_i)||dx||^2 = ||e||^2/(2 L_i) (Hessian eigenvalue -L_i along e).
    Reference: I = <e, dx> - dx'(A_i + 2 lam I)dx/2 exactly."""
    parts = _along(
        ctx,
        lambda t, c, r: (
            t["I"],
            pr.rhs_35(c["eps"], c["L"], t["lam_t"], t["L_i"], t["dx2"]),
            t["scaleL"] + c["eps"] + t["lam_t"] * t["dx2"],
        ),
    )
    witness = {
        "hypotheses": HYP + "; search: one device of an instance with L = max_j L_j = 1 and its own L_i < 1 "
        "(heterogeneous smoothness, A4.2), lam in Lambda (H1), ||e||^2 <= eps (23)",
        "step": "line before (35) -> (35): printed stronger (eps/(2L) for ||e||^2/(2 L_i), L >= L_i)",
        "runs": RUNS_NOTE,
    }
    return _search(
        _evidence(parts, witness=witness),
        ctx,
        lambda c, p: (c["I"], pr.rhs_35(p["eps"], c["L"], c["lam"], p["Li"], c["dx2"])),
    )


@claim(
    "fedbc/eq-37",
    source="Lemma B.1 (proof), eq. (37)",
    statement="II = (lam^{t+1} - lam^t)(||x^{t+1} - z^t||^2 - gamma_i) <= alpha (16 R^4 + gamma_i^2) = alpha G",
    scope="printed",
    expect="holds",
)
def eq_37(ctx: Context) -> Evidence:
    """Instance: the runs and the search. Reading: |P_Lambda(lam + alpha g) - lam| <= alpha |g| (projection onto an
    interval containing lam), (a - b)^2 <= a^2 + b^2 for a, b >= 0, ||x^{t+1} - z^t|| <= R <= 2R: each printed step
    is identical or weaker. Reference: the dual step (11) as run."""
    parts = _along(
        ctx,
        lambda t, c, r: (
            t["II"],
            pr.rhs_37(c["alpha"], c["R"], r.gamma),
            np.abs(t["II"]) + pr.rhs_37(c["alpha"], c["R"], r.gamma),
        ),
        oracle_only=False,
    )
    ev = _evidence(parts, witness={"runs": RUNS_NOTE, "hypotheses": HYP, "step": "weaker (R^4 <= 16 R^4)"})
    ev = _search(ev, ctx, lambda c, p: (c["II"], pr.rhs_37(p["alpha"], p["R"], p["gamma"])))
    control = _search(_evidence(parts), ctx, lambda c, p: (c["II"], p["alpha"] * p["gamma"] ** 2))
    ev.witness["negative control"] = negative_control(control, "alpha G replaced by alpha gamma_i^2 (R term dropped)")
    return ev


@claim(
    "fedbc/eq-38",
    source="Lemma B.1 (proof), eq. (38)",
    statement="III = lam^{t+1}(||x^{t+1} - z^{t+1}||^2 - ||x^{t+1} - z^t||^2) <= lam_max ||x^{t+1} - z^{t+1}||^2",
    scope="printed",
    expect="holds",
)
def eq_38(ctx: Context) -> Evidence:
    """Instance: the runs and the search. Reading: dropping -lam^{t+1}||x^{t+1} - z^t||^2 <= 0 and lam^{t+1} <=
    lam_max: weaker. Reference: the iterates as run."""
    parts = _along(
        ctx,
        lambda t, c, r: (t["III"], pr.rhs_38(c["lam_max"], t["dnew2"]), np.abs(t["III"]) + c["lam_max"] * t["dnew2"]),
        oracle_only=False,
    )
    ev = _evidence(parts, witness={"runs": RUNS_NOTE, "hypotheses": HYP, "step": "weaker"})
    ev = _search(ev, ctx, lambda c, p: (c["III"], pr.rhs_38(c["lam_max"], c["dnew2"])))
    control = _search(_evidence(parts), ctx, lambda c, p: (c["III"], 0.0 * c["dnew2"]))
    ev.witness["negative control"] = negative_control(control, "lam_max ||x^{t+1} - z^{t+1}||^2 replaced by 0")
    return ev


def _rhs39(t, c, r):
    G = pr.G_dual(c["R"], r.gamma)
    return pr.rhs_39(c["eps"], c["L"], t["lam_t"], t["L_i"], t["dx2"], c["alpha"], G, c["lam_max"], t["dnew2"])


@claim(
    "fedbc/eq-39",
    source="Lemma B.1 (proof), eq. (39)",
    statement="L_i^{t+1} - L_i^t <= eps/(2L) - (lam_i^t - L_i)||dx||^2 + alpha G^2 + lam_max ||x^{t+1} - z^{t+1}||^2, "
    "G = 16 R^4 + gamma_i^2",
    scope="printed",
    expect="fails",
)
def eq_39(ctx: Context) -> Evidence:
    """Instance: the runs and the search. Reading: (29) = I + II + III exactly; (35) + (37) + (38) give alpha G,
    (39) prints alpha G^2, smaller when G < 1 (R < 1/2 and gamma_i < 1), besides (35)'s eps/(2L). Run witness:
    two identical clients f_i = (x - 0.7)^2/2 started at their minimiser, X = [0.65, 0.75] (R = 0.1), gamma_i = 0.5,
    alpha = 0.2, lam^0 = lam_max: every iterate stays at 0.7, lam drops by alpha gamma per round and L_i^{t+1} - L_i^t
    = alpha gamma^2 = 0.05 > alpha G^2 = 0.0127. Reference: Lagrangians of the iterates."""
    parts = _along(
        ctx,
        lambda t, c, r: (
            t["I"] + t["II"] + t["III"],
            _rhs39(t, c, r),
            t["scaleL"] + c["eps"] + t["lam_t"] * t["dx2"] + c["lam_max"] * t["dnew2"],
        ),
    )
    witness = {
        "hypotheses": HYP + "; identical-client run: A4.1 with X = [0.65, 0.75] holding every iterate and the "
        "stationary point 0.7, A4.2 with L = 1, (H1): lam in [2, 3]",
        "step": "(35) + (37) + (38) -> (39): printed stronger (alpha G^2 for alpha G, G < 1)",
        "runs": RUNS_NOTE,
    }
    return _search(
        _evidence(parts, witness=witness),
        ctx,
        lambda c, p: (
            c["I"] + c["II"] + c["III"],
            pr.rhs_39(p["eps"], c["L"], c["lam"], p["Li"], c["dx2"], p["alpha"], c["G"], c["lam_max"], c["dnew2"]),
        ),
    )


def _stmt_42(run, t, c):
    E = run.mean
    G = pr.G_dual(c["R"], float(np.max(run.gamma)))
    lhs = E(((t["lam_t"] - t["L_i"]) * t["dx2"]).mean(-1))
    rhs = pr.rhs_42(E(t["dLag"].mean(-1)), c["eps"], c["L"], c["alpha"], G, c["lam_max"], E(t["dnew2"].mean(-1)))
    return lhs, rhs, E(t["scaleL"].mean(-1)) + c["eps"] + c["lam_max"] * E((t["dx2"] + t["dnew2"]).mean(-1))


@claim(
    "fedbc/eq-42",
    source="Lemma B.1 (proof), eq. (42)",
    statement="(lam_i^t - L_i)(1/N) sum_i E||dx_i||^2 <= (1/N) sum_i E[L_i^t - L_i^{t+1}] + eps/(2L) + alpha G^2 "
    "+ lam_max (1/N) sum_i ||x_i^{t+1} - z^{t+1}||^2",
    scope="printed",
    expect="fails",
)
def eq_42(ctx: Context) -> Evidence:
    """Instance: the runs in which every device runs the oracle each round, plus identical clients at their
    minimiser; exact expectations. Reading: the factor (lam_i^t - L_i), printed outside the sum over i, is read as
    inside it ((41) summed over i); G with max_i gamma_i (the largest G). Reference: Lagrangians of the iterates."""
    names = (*FULL_ORACLE, "identical at optimum")
    witness = {"hypotheses": HYP, "runs": list(names), "step": "(41) summed: identical; inherits alpha G^2 of (39)"}
    return _evidence(_averaged(ctx, _stmt_42, names), witness=witness)


def _stmt_ii(run, t, c):
    E = run.mean
    G = pr.G_dual(c["R"], float(np.max(run.gamma)))
    lhs = E(t["dx2"].mean(-1))
    rhs = pr.rhs_43(E(t["dLag"].mean(-1)), c["eps"], c["L"], c["alpha"], G, c["lam_max"], E(t["dnew2"].mean(-1)))
    return lhs, rhs, E(t["scaleL"].mean(-1)) + c["eps"] + c["lam_max"] * E((t["dx2"] + t["dnew2"]).mean(-1))


@claim(
    "fedbc/lem-b.1:ii",
    source="Lemma B.1 (ii), eqs. (21)/(43)",
    statement="Under lam_i^t >= 1 + L_i: (1/N) sum_i E||x_i^{t+1} - x_i^t||^2 <= (1/N) sum_i E[L_i(x_i^t, z^t, "
    "lam_i^t) - L_i(x_i^{t+1}, z^{t+1}, lam_i^{t+1})] + eps/(2L) + alpha G^2 + lam_max (1/N) sum_i "
    "||x_i^{t+1} - z^{t+1}||^2",
    scope="printed",
    expect="fails",
)
def lem_b1_ii(ctx: Context) -> Evidence:
    """Instance: every run, exact expectations over the sampling, then the one-device search (N = 1). Reading: G :=
    16 R^4 + max_i gamma_i^2 (the largest of the per-device G). Witness: identical clients started at their minimiser
    with R = 0.1 < 1/2 (eq-39's docstring): LHS 0, RHS = -alpha gamma^2 + alpha G^2 < 0. Reference: Lagrangians."""
    witness = {
        "hypotheses": HYP + "; identical-client run: X = [0.65, 0.75] (R = 0.1) holds every iterate (all at the "
        "minimiser 0.7), L_i = 1, lam in [2, 3] >= 1 + L_i",
        "runs": RUNS_NOTE,
        "cause": "alpha G^2 where (37) gives alpha G (G < 1), and eps/(2L) where (34) gives eps/(2 L_i)",
    }
    ev = _evidence(_averaged(ctx, _stmt_ii), witness=witness)
    return _search(
        ev,
        ctx,
        lambda c, p: (
            c["dx2"],
            -(c["I"] + c["II"] + c["III"])
            + pr.rhs_43(0.0, p["eps"], c["L"], p["alpha"], c["G"], c["lam_max"], c["dnew2"]),
        ),
    )


@claim(
    "fedbc/lem-b.1:ii-corrected",
    source="Lemma B.1 (ii), eqs. (21)/(43)",
    statement="Under lam_i^t >= 1 + L_i: (1/N) sum_i E||x_i^{t+1} - x_i^t||^2 <= (1/N) sum_i E[L_i^t - L_i^{t+1}] + "
    "(1/N) sum_i eps/(2 L_i) + alpha G + lam_max (1/N) sum_i ||x_i^{t+1} - z^{t+1}||^2 (alpha G as (37) derives, "
    "eps/(2 L_i) as (34) gives)",
    scope="corrected",
    expect="holds",
)
def lem_b1_ii_corrected(ctx: Context) -> Evidence:
    """Instance: the runs in which every device runs the oracle, identical clients at their minimiser, and the
    one-device search. Reading: (34) + (37) + (38) with lam_i^t - L_i >= 1; G = 16 R^4 + max_i gamma_i^2.
    Reference: Lagrangians of the iterates."""

    def stmt(run, t, c):
        E = run.mean
        G = pr.G_dual(c["R"], float(np.max(run.gamma)))
        lhs = E(t["dx2"].mean(-1))
        rhs = E(t["dLag"].mean(-1)) + c["eps"] * np.mean(1 / (2 * run.q.L_i)) + c["alpha"] * G
        rhs = rhs + c["lam_max"] * E(t["dnew2"].mean(-1))
        return lhs, rhs, E(t["scaleL"].mean(-1)) + c["eps"] + c["lam_max"] * E((t["dx2"] + t["dnew2"]).mean(-1))

    ev = _evidence(_averaged(ctx, stmt, (*FULL_ORACLE, "identical at optimum")), witness={"hypotheses": HYP})
    return _search(
        ev,
        ctx,
        lambda c, p: (c["dx2"], -(c["I"] + c["II"] + c["III"]) + p["eps"] / (2 * p["Li"]) + p["alpha"] * c["G"]
                      + c["lam_max"] * c["dnew2"]),
    )  # fmt: skip
