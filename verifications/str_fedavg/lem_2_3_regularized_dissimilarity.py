"""Lemmas 2 and 3 of StR-FedAvg (bounded dissimilarity of the regularized losses ``h + eta f``, and of ``h + eta g``
for problem (4), section 3.1) and the printed proof of Lemma 2 (Appendix B).

Instances (families ``Q``, ``V13``, ``V13-anchored``), exact quantities (among them the bilevel solution ``x*`` and
``f* - inf f``, computed here) and the per-cell report of every inequality: :mod:`.quadratic_clients` (the "module
docstring" of the claim statements).

Paper text: Lemma 2, Remark 3, Lemma 3, problem (4), the proofs of Lemma 2 (Appendix B) and Lemma 3 (Appendix C).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.family import Family, family
from fedtheory.harness.search import Axis, Domain
from fedtheory.problems.batched_quadratics import QuadraticClients, RegularizedClients, matvec, psd_pinv, squared_norm

from .quadratic_clients import (
    CLIENT_AXES,
    CLIENT_NOTE,
    ETAS,
    N_RANDOM,
    PAPER,
    Q_SHAPES,
    V13_SHAPES,
    Cells,
    batch,
    client_rank,
    flattest,
    instance,
    judged,
    lemma_1_G2,
    log_uniform,
    param_clients,
    param_point,
    q_clients,
    v13,
    violated,
)


# --------------------------------------------------------------------------------------------------
# Bilevel solution and closed-form residuals (Lemmas 2 and 3)
# --------------------------------------------------------------------------------------------------
def _null_projector(A: np.ndarray) -> np.ndarray:
    """Orthogonal projector on ``null(A)`` for symmetric PSD ``A`` (exactly 0 when ``A`` is nonsingular)."""
    w, V = np.linalg.eigh(A)
    null = w <= 1e-10 * w[..., -1:]
    return (V * null[..., None, :]) @ np.swapaxes(V, -1, -2)


def _bilevel(h: QuadraticClients, f: QuadraticClients) -> tuple[np.ndarray, np.ndarray]:
    """A bilevel solution ``x* in argmin_{X_h^*} f`` (B, n) and ``f* - inf f`` (B,).

    ``X_h^* = xbar_h + null(Hbar)``; ``f(xbar_h + d)`` is minimised over ``d`` in ``null(Hbar)``:
    ``d = -(P Fbar P)^+ P grad f(xbar_h)`` with ``P`` the projector on ``null(Hbar)``.
    """
    P = _null_projector(h.Abar)
    ref = np.linalg.eigvalsh(f.Abar)[..., -1]
    grad = matvec(P, matvec(f.Abar, h.xbar - f.xbar))
    x_star = h.xbar - matvec(psd_pinv(P @ f.Abar @ P, ref), grad)
    return x_star, f.gap(x_star[:, None])[:, 0]


def _residuals(
    h: QuadraticClients, f: QuadraticClients, x_star: np.ndarray, reg: RegularizedClients
) -> dict[str, float]:
    """Relative residuals of the closed forms: ``x*`` in ``X_h^*`` (``Hbar x* = bbar_h``), ``x*`` optimal on
    ``X_h^*`` (``P grad f(x*) = 0``, ``P`` the projector on ``null(Hbar)``) and ``grad f_eta(x_eta) = 0``."""

    def rel(A, x, b):
        size = np.linalg.norm(A, axis=(-2, -1)) * np.linalg.norm(x, axis=-1) + np.linalg.norm(b, axis=-1)
        return float(np.max(np.linalg.norm(matvec(A, x) - b, axis=-1) / (size + 1e-300)))

    P = _null_projector(h.Abar)
    b_eta = h.bbar + reg.eta * f.bbar
    return {
        "Hbar x* = bbar_h": rel(h.Abar, x_star, h.bbar),
        "P grad f(x*) = 0": rel(P @ f.Abar, x_star, matvec(P, f.bbar)),
        "grad f_eta(x_eta) = 0": rel(reg.Q, reg.x_eta, b_eta),
    }


def _worse(acc: dict, new: dict) -> None:
    """``acc[k] = max(acc[k], new[k])``."""
    for k, v in new.items():
        acc[k] = max(acc.get(k, 0.0), v)


# --------------------------------------------------------------------------------------------------
# Lemmas 2 and 3 and the proof of Lemma 2 (Appendix B)
# --------------------------------------------------------------------------------------------------
STEPS = ("step1", "step2", "step3", "max")  # the closing step, f_eta^* <= h* + eta f*, is the infimum's definition
STEP_TEXT = {
    "step1": "(1/N) sum ||grad h_i + eta grad f_i||^2 <= (2 eta^2/N) sum ||grad f_i||^2 + (2/N) sum ||grad h_i||^2",
    "step2": "... <= 2 eta^2 G_f^2 + 4 eta^2 L_f B_f^2 (f(x) - f_min) + 2 G_h^2 + 4 L_h B_h^2 (h(x) - h_min) "
    "(Lemma 1 with its printed G)",
    "step3": "... = 2 eta^2 G_f^2 + 4 eta L_f B_f^2 (eta f(x) - eta f*) + 2 G_h^2 + 4 L_h B_h^2 (h(x) - h*) "
    "+ 4 eta^2 L_f B_f^2 (f* - f_min) + 4 L_h B_h^2 (h* - h_min) (regrouping)",
    "max": "... <= G^2 + B^2 ((eta f(x) + h(x)) - (eta f(x*) + h(x*))) ('recalling the definition of B and G')",
}


def _chain(
    h: QuadraticClients, f: QuadraticClients, reg: RegularizedClients, f_star: np.ndarray, x: np.ndarray
) -> dict:
    """The printed chain of the proof of Lemma 2 at points ``x`` (B, P, n): ``E0`` (the left side of Lemma 2)
    and ``E1``..``E5`` (the right sides of the five printed steps; the last, ``E4 <= E5``, reads ``f_eta^* <= h* + eta
    f*`` at every x, the definition of the infimum, and is not judged), with ``B_f = B_h = 1``, ``h* = h_min`` and
    ``f* - f_min`` the bilevel gap ``f_star`` (B,); every array (B, P)."""
    eta = reg.eta
    gh, gf = h.grads(x), f.grads(x)
    Lf, Lh = f.L[:, None], h.L[:, None]
    Gf2, Gh2 = lemma_1_G2(f)[:, None], lemma_1_G2(h)[:, None]
    fs = f_star[:, None]
    f_gap, h_gap, reg_gap = f.gap(x), h.gap(x), reg.gap(x)  # f - f_min, h - h_min = h - h*, f_eta - f_eta^*
    G2 = 2 * Gf2 + 4 * Lf * fs + 2 * Gh2  # + 4 L_h (h* - inf h) = 0
    B2 = np.maximum(4 * eta * Lf, 4 * Lh)
    E = {"E0": squared_norm(gh + eta * gf).mean(axis=-1)}
    E["E1"] = 2 * eta**2 * squared_norm(gf).mean(axis=-1) + 2 * squared_norm(gh).mean(axis=-1)
    E["E2"] = 2 * eta**2 * Gf2 + 4 * eta**2 * Lf * f_gap + 2 * Gh2 + 4 * Lh * h_gap
    E["E3"] = 2 * eta**2 * Gf2 + 4 * eta * Lf * (eta * (f_gap - fs)) + 2 * Gh2 + 4 * Lh * h_gap + 4 * eta**2 * Lf * fs
    E["E4"] = G2 + B2 * (eta * (f_gap - fs) + h_gap)
    E["E5"] = G2 + B2 * reg_gap
    # Corrected right side (lem-2:corrected): Lemma 1 with G~^2 = 2L (inf - avg client minima), and the max step
    # applied to the nonnegative gaps f - f_min and h - h_min only.
    E["corrected"] = 2 * eta**2 * lemma_1_G2(f, printed=False)[:, None] + 2 * lemma_1_G2(h, printed=False)[:, None]
    E["corrected"] = E["corrected"] + B2 * (eta * fs + reg_gap)
    # Rounding scale: every term above is a sum of products of a constant with L ||x - centre||^2-sized factors;
    # the differences x - c_i, x - argmin and x* - argmin f carry the rounding of the centres themselves.
    Lq = np.linalg.eigvalsh(reg.Q)[..., -1][:, None]
    spread_f = (
        squared_norm(x[:, :, None] - f.c[:, None]).mean(axis=-1)
        + squared_norm(f.xbar[:, None] - f.c).mean(axis=-1)[:, None]
    )
    spread_h = (
        squared_norm(x[:, :, None] - h.c[:, None]).mean(axis=-1)
        + squared_norm(h.xbar[:, None] - h.c).mean(axis=-1)[:, None]
    )
    far_f = squared_norm(x - f.xbar[:, None]) + squared_norm(h.xbar - f.xbar)[:, None]
    E["scale"] = (
        E["E0"]
        + E["E1"]
        + E["E2"]
        + G2
        + (4 * eta**2 * Lf + 4 * Lf) * Lf * (spread_f + far_f)
        + (4 + B2) * Lh**2 * (spread_h + squared_norm(x - h.xbar[:, None]))
        + B2 * (eta * Lf * far_f + Lq * squared_norm(x - reg.x_eta[:, None]))
        + 1e-300
    )
    return E


STEP_SIDES = {
    "step1": ("E0", "E1"),
    "step2": ("E1", "E2"),
    "step3": ("E3", "E2"),
    "max": ("E3", "E4"),
}


def _points(rng, centre: np.ndarray, n_random: int, lo: float, specials: dict) -> tuple[np.ndarray, np.ndarray]:
    """Points (B, P, n) and their kinds: ``n_random`` points ``centre + 10^U(lo, 2) N(0, I)`` followed by the
    named special points (each (B, n) or (B, k, n))."""
    B, n = centre.shape
    rand = centre[:, None] + log_uniform(rng, 10.0**lo, 1e2, (B, n_random, 1)) * rng.standard_normal((B, n_random, n))
    blocks, kinds = [rand], ["random"] * n_random
    for name, value in specials.items():
        value = value[:, None] if value.ndim == 2 else value
        blocks.append(value)
        kinds += [name] * value.shape[1]
    return np.concatenate(blocks, axis=1), np.array(kinds)


def _lemma2_families(quick: bool, rng, families=("Q", "V13", "V13-anchored")) -> list:
    """``(family, N, n, h, f)`` for the families ``Q``, ``V13`` and ``V13-anchored`` (module docstring)."""
    out = []
    if "Q" in families:
        for N, n in Q_SHAPES:
            B = batch(quick, "Q")
            out.append(("Q", N, n, q_clients(rng, B, N, n)[0], q_clients(rng, B, N, n)[0]))
    for name in ("V13", "V13-anchored"):
        if name in families:
            for N, n in V13_SHAPES:
                h, f = v13(rng, batch(quick, name), N, n, anchored=name == "V13-anchored")
                out.append((name, N, n, h, f))
    return out


E_TEXT = {
    "E0": "E0: (1/N) sum ||grad h_i(x) + eta grad f_i(x)||^2 (left side of Lemma 2)",
    "E1": "E1: right side of step 1",
    "E2": "E2: right side of step 2",
    "E3": "E3: regrouped right side (step 3)",
    "E4": "E4: right side of the max step",
    "E5": "E5: G^2 + B^2 (f_eta(x) - f_eta^*) (right side of Lemma 2)",
}


def _failing_steps(E: dict, index) -> list[str]:
    """The printed steps of the chain that break at entry ``index``."""
    return [
        s
        for s in STEPS
        if violated(*(E[k][index] for k in STEP_SIDES[s]), E["scale"][index], "==" if s == "step3" else "<=")
    ]


def _chain_detail(N: int, n: int, clients: dict, X, kinds, E, extra=None):
    """``detail(index)`` for an entry of the chain arrays: instance, point and every side of the chain."""

    def detail(index):
        b, p = index[0], index[1]
        out = {"N": N, "n": n, "point kind": str(kinds[p]), "x": X[b, p].tolist()}
        out.update({text: float(E[k][b, p]) for k, text in E_TEXT.items()})
        out["failing proof steps"] = _failing_steps(E, (b, p))
        out.update(instance(clients, b))
        if extra is not None:
            out.update(extra(b))
        return out

    return detail


@family(f"{PAPER}/lem-2")
def _lemma2(fam: Family) -> dict[str, tuple[Cells, dict]]:
    """Lemma 2 and the four judged steps of its proof on the families ``Q``, ``V13``, ``V13-anchored`` (one generator,
    seeded from the family's name, for every part)."""
    rng = fam.rng()
    cells = {"statement": Cells(), "corrected": Cells(), **{s: Cells("==" if s == "step3" else "<=") for s in STEPS}}
    located: dict[str, dict] = {}
    residuals: dict[str, float] = {}
    for name, N, n, h, f in _lemma2_families(fam.quick, rng):
        x_star, f_star = _bilevel(h, f)
        for eta in ETAS:
            reg = RegularizedClients(h, f, eta)
            specials = {"x_eta": reg.x_eta, "x*": x_star, "argmin f": f.xbar, "argmin h": h.xbar}
            specials.update({"argmin f_i": f.c, "argmin h_i": h.c, "argmin f_eta,i": reg.clients.c})
            X, kinds = _points(rng, reg.x_eta, N_RANDOM, -3, specials)
            E = _chain(h, f, reg, f_star, X)
            labels = {"family": name, "eta": eta}

            def extra(b, f=f, h=h, f_star=f_star):
                return {"L_f": float(f.L[b]), "L_h": float(h.L[b]), "f* - inf f": float(f_star[b])}

            _worse(residuals, _residuals(h, f, x_star, reg))
            detail = _chain_detail(N, n, {"h": h, "f": f}, X, kinds, E, extra)
            bad = cells["statement"].add(labels, E["E0"], E["E5"], E["scale"], detail)
            cells["corrected"].add(labels, E["E0"], E["corrected"], E["scale"], detail)
            counts = located.setdefault(f"family={name}, eta={eta}", {s: 0 for s in STEPS})
            for s in STEPS:
                lhs, rhs = STEP_SIDES[s]
                bad_s = cells[s].add(labels, E[lhs], E[rhs], E["scale"], detail)
                counts[s] += int((bad & bad_s).sum())
    return {
        name: (
            c,
            {
                "reading": LEM2_READING,
                "closed-form residuals (max relative)": residuals,
                **({"failing proof steps at the violations of Lemma 2": located} if name == "statement" else {}),
            },
        )
        for name, c in cells.items()
    }


def _squared_distance(h: QuadraticClients, y: np.ndarray) -> QuadraticClients:
    """``g(x) = 1/2 ||x - y||^2`` on every client of ``h`` (``y``: (B, n))."""
    n = h.A.shape[-1]
    return QuadraticClients(np.broadcast_to(np.eye(n), h.A.shape).copy(), np.broadcast_to(y[:, None], h.c.shape).copy())


@family(f"{PAPER}/lem-3")
def _lemma3(fam: Family) -> dict[str, tuple[Cells, dict]]:
    """Lemma 3: Lemma 2 for problem (4) with ``g(x) = 1/2 ||x - y||^2`` on every client, inner ``h`` from the
    families ``Q`` and ``V13``; one ``y = argmin h + 10^U(-2,2) N(0, I)`` per instance."""
    rng = fam.rng()
    cells = {"statement": Cells(), "corrected": Cells()}
    located: dict[str, dict] = {}
    residuals: dict[str, float] = {}
    for name, N, n, h, _ in _lemma2_families(fam.quick, rng, ("Q", "V13")):
        B = h.A.shape[0]
        y = h.xbar + log_uniform(rng, 1e-2, 1e2, (B, 1)) * rng.standard_normal((B, n))
        g = _squared_distance(h, y)
        x_proj, g_star = _bilevel(h, g)  # Pi_{X_h^*}[y] and g* - inf g = dist^2(y, X_h^*)/2
        for eta in ETAS:
            reg = RegularizedClients(h, g, eta)
            specials = {"x_eta": reg.x_eta, "y": y, "Pi(y)": x_proj, "argmin h": h.xbar}
            specials.update({"argmin h_i": h.c, "argmin g_eta,i": reg.clients.c})
            X, kinds = _points(rng, reg.x_eta, N_RANDOM, -3, specials)
            E = _chain(h, g, reg, g_star, X)
            labels = {"family": name, "eta": eta}

            def extra(b, y=y, h=h, g_star=g_star):
                return {"y": y[b].tolist(), "L_h": float(h.L[b]), "g* - inf g = dist^2(y, X_h^*)/2": float(g_star[b])}

            _worse(residuals, _residuals(h, g, x_proj, reg))
            detail = _chain_detail(N, n, {"h": h}, X, kinds, E, extra)
            bad = cells["statement"].add(labels, E["E0"], E["E5"], E["scale"], detail)
            cells["corrected"].add(labels, E["E0"], E["corrected"], E["scale"], detail)
            counts = located.setdefault(f"family={name}, eta={eta}", {s: 0 for s in STEPS})
            for s in STEPS:
                lhs, rhs = STEP_SIDES[s]
                counts[s] += int((bad & violated(E[lhs], E[rhs], E["scale"], "==" if s == "step3" else "<=")).sum())
    return {
        name: (
            c,
            {
                "closed-form residuals (max relative)": residuals,
                **(
                    {"failing proof steps (Lemma 2's chain with f -> g) at the violations": located}
                    if name == "statement"
                    else {}
                ),
            },
        )
        for name, c in cells.items()
    }


# --------------------------------------------------------------------------------------------------
# The witness search: one parametrised instance and one point per evaluation
# --------------------------------------------------------------------------------------------------
LEM2_SEARCH = f"{PAPER}/lem-2:search"
PART_SIDES = {"statement": ("E0", "E5"), "corrected": ("E0", "corrected"), **STEP_SIDES}
POINT_AXES = {"eta": Axis(1e-3, 1e2), "dist": Axis(1e-8, 1e3), "angle": Axis(0.0, np.pi / 2, log=False)}
POINT_NOTE = (
    "; any eta > 0 (1e-3 to 1e2; Lemmas 2 and 3 put no bound on eta) and any x = x_eta^* + dist (cos(angle) d + "
    "sin(angle) t), d a fixed direction, t the flattest direction of the Hessian of f_eta, dist from 1e-8 to 1e3. Left "
    "out: non-quadratic clients, N > 16, n > 6."
)
LEM2_DOMAIN = Domain(
    {**{f"{k}_h": a for k, a in CLIENT_AXES.items() if k not in ("N", "n")}, "N": CLIENT_AXES["N"],
     "n": CLIENT_AXES["n"], **{f"{k}_f": a for k, a in CLIENT_AXES.items() if k not in ("N", "n")}, **POINT_AXES},
    note="Lemma 2 allows any convex L_h-smooth h_i and L_f-smooth f_i, f and h bounded below, X_h^* nonempty: h and f "
    "are two independent instances (suffixes _h, _f, sharing N and n) of " + CLIENT_NOTE + POINT_NOTE,
)  # fmt: skip
LEM3_DOMAIN = Domain(
    {**{f"{k}_h": a for k, a in CLIENT_AXES.items() if k not in ("N", "n")}, "N": CLIENT_AXES["N"],
     "n": CLIENT_AXES["n"], "y_dist": Axis(1e-3, 1e3), **POINT_AXES},
    note="Lemma 3 allows any convex L_h-smooth h_i with X_h^* nonempty and g = 1/2||x - y||^2 on every client for any "
    "y: h is an instance (suffix _h) of " + CLIENT_NOTE + "; y = argmin h + y_dist u, u the flattest direction of the "
    "average Hessian of h (off X_h^* when it is singular)" + POINT_NOTE,
)  # fmt: skip
LEM2_HYPOTHESES = (
    "every instance has convex quadratic clients h_i, f_i with PSD Hessians (Assumption 1 with mu_f = 0; f and h "
    "bounded below, X_h^* nonempty), any eta > 0"
)
LEM3_HYPOTHESES = "convex quadratic h_i with PSD Hessians (Assumption 3), g = 1/2||x - y||^2 on every client, eta > 0"


def _clients(suffix: str, params: dict, N: int, n: int) -> QuadraticClients:
    """:func:`.quadratic_clients.param_clients` from the search parameters with ``suffix`` (``_h``, ``_f``)."""
    p = {k[: -len(suffix)]: v for k, v in params.items() if k.endswith(suffix)}
    rank = client_rank(n, p.pop("rank_frac"))
    return param_clients(LEM2_SEARCH + suffix, N, n, p["kappa"], rank, p["hetero"], p["spread"], p["client_scale"])


def _chain_at(h: QuadraticClients, f: QuadraticClients, eta: float, dist: float, angle: float) -> dict:
    """:func:`_chain` at one point ``x_eta^* + dist (cos(angle) d + sin(angle) t)``."""
    f_star = _bilevel(h, f)[1]
    reg = RegularizedClients(h, f, eta)
    X = param_point(LEM2_SEARCH, reg.x_eta, h.A.shape[-1], dist, angle, flattest(reg.Q[0]))
    return _chain(h, f, reg, f_star, X)


def _search_evidence(ctx: Context, cells: Cells, witness: dict, part: str, lemma: str, hypotheses: str) -> Evidence:
    """The cells of ``part`` and, for an inequality, the witness search over Lemma ``lemma``'s domain."""
    points = cells.points()
    if part != "step3":  # an identity, judged to rounding on the grid
        lhs, rhs = PART_SIDES[part]

        def at(N, n, eta, dist, angle, **params):
            h = _clients("_h", params, N, n)
            if lemma == "2":
                f = _clients("_f", params, N, n)
            else:
                f = _squared_distance(h, h.xbar + params["y_dist"] * flattest(h.Abar[0]))
            E = _chain_at(h, f, eta, dist, angle)
            return float(E[lhs][0, 0] / E["scale"][0, 0]), float(E[rhs][0, 0] / E["scale"][0, 0])

        points.search(at, LEM2_DOMAIN if lemma == "2" else LEM3_DOMAIN, "<=", ctx, scale=2)
    return judged(points, cells.relation, {**cells.witness(**witness), "hypotheses": hypotheses})


def _lem2(ctx: Context, part: str) -> Evidence:
    return _search_evidence(ctx, *_lemma2(ctx)[part], part, "2", LEM2_HYPOTHESES)


def _lem3(ctx: Context, part: str) -> Evidence:
    return _search_evidence(ctx, *_lemma3(ctx)[part], part, "3", LEM3_HYPOTHESES)


# --------------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------------
LEM2_GRID = (
    "eta in {0.01, 0.1, 0.5, 1} and {2, 11} (11 = the printed eta-hat of Thm 3 / Prop 7; Lemma 2 puts no "
    "bound on eta); families Q (150 instances per (N, n), N in [2, 6], n in [1, 4]), V13 and V13-anchored (500 "
    "instances per (N, n), N in {2, 3}, n in {2, 3, 4}; 3000 per family; the scale u of P_i "
    "log-uniform in [0.01, 10]) in the quick profile, 10x "
    "in the full one; points: 20 x = x_eta^* + 10^U(-3,2) N(0, I), x_eta^*, the bilevel solution x*, argmin f, "
    "argmin h and the client minimisers of f_i, h_i and h_i + eta f_i"
)
LEM2_GRID_SEARCHED = (
    LEM2_GRID + "; then a witness search over the lemma's hypotheses (parametrised quadratic h_i, f_i, eta and points)"
)
LEM2_READING = (
    "G_f, G_h are Lemma 1's printed constants (with its 1/N), B_f = B_h = 1, L_f = max_i lambda_max(F_i), L_h = "
    "max_i lambda_max(H_i), f* = min over X_h^* of f (the bilevel value), h* = inf h, so the last term of "
    "G^2 is 0; f_eta^* = inf (h + eta f), all in closed form"
)


@claim(
    f"{PAPER}/lem-2",
    source="Lemma 2",
    statement="As printed: (1/N) sum_i ||grad h_i(x) + eta grad f_i(x)||^2 <= G^2 + B^2 (f_eta(x) - f_eta^*), G^2 = "
    "2 G_f^2 + 4 L_f B_f^2 (f* - inf f) + 2 G_h^2 + 4 L_h B_h^2 (h* - inf h), B^2 = max{4 eta L_f B_f^2, 4 L_h "
    f"B_h^2}} ({LEM2_READING}); {LEM2_GRID_SEARCHED}. Fails in family Q at every eta (Lemma 1's 1/N in G_h, "
    "step 2; ratio -> N/2 as eta -> 0) and in V13 from eta = 1 in the quick profile (from eta = 0.5 in the full "
    "one), there at the max step (4 L_h > 4 eta L_f and f(x) < f*); the witness counts, per (family, eta), the "
    "violations and the printed proof steps that break at them. The search reaches far larger ratios at large eta "
    "(the max step drops an eta^2; Lemma 2 puts no bound on eta).",
    scope="printed",
    expect="fails",
)
def lem_2(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the printed constants read as in ``LEM2_READING``. Reference: closed forms of quadratics (the bilevel solution over
    the null space, ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "statement")


@claim(
    f"{PAPER}/lem-2:proof-step1",
    source="Proof of Lemma 2 (Appendix B), first inequality",
    statement=f"Step 1: {STEP_TEXT['step1']}; {LEM2_GRID_SEARCHED}.",
    scope="printed",
    expect="holds",
)
def lem_2_step1(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the first inequality of the proof. Reference: closed forms of quadratics (the bilevel solution over the null space,
    ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "step1")


@claim(
    f"{PAPER}/lem-2:proof-step2",
    source="Proof of Lemma 2 (Appendix B), 'Invoking Lemma 1'",
    statement=f"Step 2 ('Invoking Lemma 1'): {STEP_TEXT['step2']}, f_min = inf f, h_min = inf h ({LEM2_READING}); "
    f"{LEM2_GRID_SEARCHED}. Fails wherever lem-1 does (the 1/N in G_f, G_h).",
    scope="printed",
    expect="fails",
)
def lem_2_step2(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the step invoking Lemma 1 (its printed ``G``). Reference: closed forms of quadratics (the bilevel solution over the
    null space, ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "step2")


@claim(
    f"{PAPER}/lem-2:proof-step3",
    source="Proof of Lemma 2 (Appendix B), adding and subtracting f*, h*",
    statement=f"Step 3 (adding and subtracting f*, h*): the right side of step 2 equals {STEP_TEXT['step3'][4:]} "
    f"(to rounding: 1e-9 relative plus 1e-12 of the size of the terms); {LEM2_GRID}.",
    scope="printed",
    expect="holds",
)
def lem_2_step3(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the regrouping, an identity judged to rounding. Reference: closed forms of quadratics (the bilevel solution over the
    null space, ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "step3")


@claim(
    f"{PAPER}/lem-2:proof-max",
    source="Proof of Lemma 2 (Appendix B), 'Recalling the definition of B and G'",
    statement="Step 4 ('Recalling the definition of B and G'): the regrouped right side of step 3 is "
    f"{STEP_TEXT['max'][4:]} ({LEM2_READING}); {LEM2_GRID_SEARCHED}. Fails two ways: G^2 drops the eta^2 of "
    "2 eta^2 G_f^2 + 4 eta^2 L_f (f* - inf f) (ratio eta^2 at x = x* when argmin f is in X_h^*, eta > 1), and "
    "a (eta f(x) - eta f*) + b (h(x) - h*) <= max{a, b} (eta f(x) - eta f* + h(x) - h*) needs f(x) >= f*, which "
    "fails off X_h^* when 4 L_h > 4 eta L_f.",
    scope="printed",
    expect="fails",
)
def lem_2_max(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the step 'recalling the definition of B and G'. Reference: closed forms of quadratics (the bilevel solution over the
    null space, ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "max")


@claim(
    f"{PAPER}/lem-2:corrected",
    source="Lemma 2, with lem-1:corrected and the max step applied to nonnegative gaps only",
    statement="Corrected: (1/N) sum_i ||grad h_i(x) + eta grad f_i(x)||^2 <= G_c^2 + B^2 (f_eta(x) - f_eta^*) with "
    "the printed B^2 and G_c^2 := 2 eta^2 G~_f^2 + 2 G~_h^2 + B^2 (eta (f* - inf f) + (h* - inf h)), G~_Psi^2 = 2 "
    "L_Psi (inf Psi - avg Psi_i(x_i^*)) (lem-1:corrected). Derivation: step 1; lem-1:corrected; 4 eta^2 L_f (f(x) - "
    "inf f) + 4 L_h (h(x) - inf h) <= B^2 (eta (f(x) - inf f) + h(x) - inf h) (both gaps >= 0); eta (f(x) - inf f) "
    "+ h(x) - inf h = f_eta(x) - f_eta^* + (f_eta^* - eta inf f - inf h) and f_eta^* <= h* + eta f*. Checked on "
    f"{LEM2_GRID_SEARCHED}.",
    scope="corrected",
    expect="holds",
)
def lem_2_corrected(ctx: Context) -> Evidence:
    """Families ``Q``, ``V13``, ``V13-anchored`` at random points about ``x_eta^*`` and the special points, six ``eta``;
    the corrected constant ``G_c^2``. Reference: closed forms of quadratics (the bilevel solution over the null space,
    ``x_eta^*`` by a pseudo-inverse), per cell ``(family, eta)`` at its worst entry."""
    return _lem2(ctx, "corrected")


LEM3_GRID = (
    "g(x) = 1/2 ||x - y||^2 on every client (so G_g = 0 and g* - inf g = dist^2(y, X_h^*)/2 in closed form), inner "
    "h from families Q and V13 (module docstring; 150 resp. 500 instances per (N, n) quick, 10x full), one y = "
    "argmin h + 10^U(-2,2) N(0, I) per instance, eta in {0.01, 0.1, 0.5, 1, 2, 11}; points: 20 x = x_eta + "
    "10^U(-3,2) N(0, I), x_eta = argmin g_eta, y, Pi_{X_h^*}[y], argmin h, the client minimisers of h_i and of "
    "h_i + eta g"
    "; then a witness search over the lemma's hypotheses (parametrised quadratic h_i, y, eta and points)"
)


@claim(
    f"{PAPER}/lem-3",
    source="Lemma 3 (proof, Appendix C; Remark 3)",
    statement="As printed: (1/N) sum_i ||grad h_i(x) + eta grad g(x)||^2 <= G_ncvx^2 + B_ncvx^2 (g_eta(x) - "
    "g_eta^*), G_ncvx^2 = 2 G_g^2 + 4 B_g^2 (g* - inf g) + 2 G_h^2 + 4 L_h B_h^2 (h* - inf h), B_ncvx^2 = max{4 "
    "eta B_g^2, 4 L_h B_h^2}, g_eta = eta g + h; the printed 'L_f = 1 = mu_f = 1' is read as L_g = mu_g = 1 (g is "
    "1-smooth and 1-strongly convex), G_g, G_h as printed in Lemma 1 (G_g = 0), B_g = B_h = 1, g* = min over "
    f"X_h^* of g; {LEM3_GRID}. Fails in family Q at every eta (G_h's 1/N) and in V13 for eta >= 1 (the max step, "
    "as in lem-2:proof-max; Prop 7 uses this lemma with the printed eta-hat = 11).",
    scope="printed",
    expect="fails",
)
def lem_3(ctx: Context) -> Evidence:
    """Inner ``h`` from families ``Q`` and ``V13``, ``g = 1/2||x - y||^2`` on every client, six ``eta``; the printed
    ``L_f = 1 = mu_f = 1`` read as ``L_g = mu_g = 1``. Reference: closed forms (``Pi_{X_h^*}(y)`` and ``g* - inf g``
    over the null space), per cell ``(family, eta)`` at its worst entry."""
    return _lem3(ctx, "statement")


@claim(
    f"{PAPER}/lem-3:corrected",
    source="Lemma 3, corrected as lem-2:corrected with f -> g, L_f = 1",
    statement="Corrected: (1/N) sum_i ||grad h_i(x) + eta grad g(x)||^2 <= 2 G~_h^2 + B_ncvx^2 (eta (g* - inf g) + "
    f"g_eta(x) - g_eta^*) (G~_g = 0, h* = inf h; lem-2:corrected); {LEM3_GRID}.",
    scope="corrected",
    expect="holds",
)
def lem_3_corrected(ctx: Context) -> Evidence:
    """The instances and points of ``lem-3`` with the corrected constant (``lem-2:corrected`` with ``f -> g``);
    reference: closed forms, per cell ``(family, eta)`` at its worst entry."""
    return _lem3(ctx, "corrected")
