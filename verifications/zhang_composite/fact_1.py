"""Fact 1 (Appendix A.5, quoted from [10, Lemma 1]) and the l1 example of Assumption 3.1.

Fact 1, printed: for ``x+ := P_eta(x - eta v)`` with ``eta > 0``, every ``z``,

    ``F(x+) <= F(z) + <grad F(x) - v, x+ - z> - (1/eta)<x+ - x, x+ - z> + (L/2)||x+ - x||^2 + (L/2)||z - x||^2``.

Reading: ``grad F(x)`` is ``grad f(x)`` (``F = f + g`` has no gradient at the kinks of ``g``); ``L``-smooth
(Assumption 3.2) is ``grad f`` ``L``-Lipschitz, as the proofs use it ((29)-(31): ``||grad f_i(z) - grad f_i(p)|| <= L
||z - p||``), so a quadratic ``f`` has Hessian eigenvalues in ``[-L, L]``; ``f`` may be non-convex. No step condition
is printed: every ``eta > 0``. Each check rearranges the inequality so that its right side is the nonnegative
``(L/2)``-terms, and divides both sides by the sum of the magnitudes of every term (the rounding scale).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, negative_control
from fedtheory.harness.search import Axis, Domain, searched
from fedtheory.harness.tolerances import SCALED_ROUNDING
from fedtheory.regularizers import L1, soft_threshold

PAPER = "zhang-composite"
READING = (
    "grad F(x) is read as grad f(x) (the smooth part); L-smooth (Assumption 3.2) as an L-Lipschitz gradient, as the "
    "proofs use it at (29)-(31): Hessian eigenvalues of a quadratic f in [-L, L]"
)


def _fact_1_sides(H, x, v, z, eta, theta, L) -> tuple[np.ndarray, np.ndarray]:
    """Fact 1 for ``f = x'Hx/2`` (a linear term of ``f`` cancels from the inequality) and ``g = theta ||.||_1``,
    batched over leading axes: ``(measured, bound)`` over their common scale, ``measured = F(x+) - F(z) - <grad f(x) -
    v, x+ - z> + (1/eta)<x+ - x, x+ - z>`` and ``bound = (L/2)(||x+ - x||^2 + ||z - x||^2)``."""
    eta, theta = np.asarray(eta)[..., None], np.asarray(theta)[..., None]
    xp = soft_threshold(x - eta * v, eta * theta)  # P_eta: the prox of eta theta ||.||_1
    grad = np.einsum("...ij,...j->...i", H, x)
    dz = xp - z
    f_diff = 0.5 * np.einsum("...i,...ij,...j->...", dz, H, xp + z)  # f(x+) - f(z) without cancellation
    g_diff = theta[..., 0] * (np.abs(xp).sum(-1) - np.abs(z).sum(-1))
    cross = np.sum((grad - v) * dz, axis=-1)
    prox_term = np.sum((xp - x) * dz, axis=-1) / eta[..., 0]
    bound = 0.5 * L * (np.sum((xp - x) ** 2, axis=-1) + np.sum((z - x) ** 2, axis=-1))
    measured = f_diff + g_diff - cross + prox_term
    scale = np.abs(f_diff) + theta[..., 0] * (np.abs(xp).sum(-1) + np.abs(z).sum(-1)) + np.abs(cross)
    scale = scale + np.abs(prox_term) + bound
    scale = np.where(scale > 0, scale, 1.0)
    return measured / scale, bound / scale


INSTANCES = (
    "H = Q diag(e) Q' with e uniform on [-1, 1], e_1 = 1 and e_2 = -1 (L = 1, both ends attained), Q Haar-random; "
    "x, v, z Gaussian at scales 10^U(-2, 2); eta 10^U(-3, 3); theta 10^U(-3, 2)"
)


def _random_instances(rng: np.random.Generator, S: int, d: int, lower: float) -> dict:
    """``S`` quadratics ``H = Q diag(e) Q'`` in ``d`` dimensions, ``L = 1``: ``e`` uniform on ``[lower, 1]`` with
    ``e_1 = 1`` and ``e_2 = lower`` (both ends attained), ``Q`` Haar-random; points ``x, v, z`` Gaussian at scales
    10^U(-2, 2), ``eta`` 10^U(-3, 3), ``theta`` 10^U(-3, 2)."""
    e = rng.uniform(lower, 1.0, (S, d))
    e[:, 0], e[:, 1] = 1.0, lower
    Q, R = np.linalg.qr(rng.standard_normal((S, d, d)))
    Q = Q * np.sign(np.diagonal(R, axis1=-2, axis2=-1))[:, None, :]
    H = np.einsum("sij,sj,skj->sik", Q, e, Q)
    pts = [10.0 ** rng.uniform(-2, 2, (S, 1)) * rng.standard_normal((S, d)) for _ in range(3)]
    return {
        "H": H,
        "x": pts[0],
        "v": pts[1],
        "z": pts[2],
        "eta": 10.0 ** rng.uniform(-3, 3, S),
        "theta": 10.0 ** rng.uniform(-3, 2, S),
    }


def _at(e2, e3, a1, a2, a3, theta, eta, x1, x2, x3, v1, v2, v3, z1, z2, z3) -> tuple[float, float]:
    """Fact 1 in ``d = 3`` with ``H = R diag(1, e2, e3) R'`` (``L = 1``; ``R`` from three rotation angles)."""

    def rot(a, i, j):
        m = np.eye(3)
        m[i, i] = m[j, j] = np.cos(a)
        m[i, j], m[j, i] = -np.sin(a), np.sin(a)
        return m

    R = rot(a1, 0, 1) @ rot(a2, 1, 2) @ rot(a3, 0, 2)
    H = R @ np.diag([1.0, e2, e3]) @ R.T
    m, b = _fact_1_sides(H, np.array([x1, x2, x3]), np.array([v1, v2, v3]), np.array([z1, z2, z3]), eta, theta, 1.0)
    return float(m), float(b)


FACT_1_DOMAIN = Domain(
    {
        "e2": Axis(-1.0, 1.0, log=False),
        "e3": Axis(-1.0, 1.0, log=False),
        **{f"a{i}": Axis(0.0, np.pi, log=False) for i in (1, 2, 3)},
        "theta": Axis(1e-3, 1e2),
        "eta": Axis(1e-3, 1e3),
        **{f"{p}{i}": Axis(-3.0, 3.0, log=False) for p in "xvz" for i in (1, 2, 3)},
    },
    note="Fact 1 allows any L-smooth f (Lipschitz gradient: a quadratic's Hessian eigenvalues in [-L, L]), any convex "
    "g, any x, v, z and any eta > 0: L = 1 by scaling (f, g, v -> ./L, eta -> L eta leaves the inequality invariant); "
    "d = 3 with H = R diag(1, e2, e3) R' at any orientation (three angles), g = theta ||.||_1, theta from 1e-3 to 1e2, "
    "eta from 1e-3 to 1e3, x, v, z in [-3, 3]^3. A linear term of f cancels from the inequality. Left out: other "
    "convex g, non-quadratic f (the proof uses only the two quadratic bounds of L-smoothness).",
)


@claim(
    f"{PAPER}/fact-1",
    source="Fact 1 (Appendix A.5)",
    statement="As printed, for x+ = P_eta(x - eta v), every eta > 0 and every z: F(x+) <= F(z) + <grad f(x) - v, x+ - "
    "z> - (1/eta)<x+ - x, x+ - z> + (L/2)||x+ - x||^2 + (L/2)||z - x||^2, with f L-smooth and possibly non-convex "
    "(grad F read as grad f); on 2000 random non-convex quadratics + theta ||.||_1 (20000 in full), d in {2, 5, 10}, "
    "Hessian eigenvalues in [-L, L] with both ends attained, random x, v, z, eta in [1e-3, 1e3]; then a witness search "
    "over d = 3 instances, orientations, theta, eta and points.",
    scope="printed",
    expect="holds",
)
def fact_1(ctx: Context) -> Evidence:
    """Instance: f = x'Hx/2 with H = Q diag(e) Q' (e in [-1, 1], L = 1), g = theta ||.||_1.
    Reading: :data:`READING`. Reference: closed forms (soft-thresholding for P_eta); each side over the rounding scale
    (module docstring)."""
    rng = ctx.rng()
    S = 2000 if ctx.quick else 20000
    measured, bound, grid = [], [], {"d": [], "theta": [], "eta": []}
    for d in (2, 5, 10):
        inst = _random_instances(rng, S // 3, d, -1.0)
        m, b = _fact_1_sides(inst["H"], inst["x"], inst["v"], inst["z"], inst["eta"], inst["theta"], 1.0)
        measured.append(m)
        bound.append(b)
        grid["d"].append(np.full(m.shape, d))
        grid["theta"].append(inst["theta"])
        grid["eta"].append(inst["eta"])
    ev = Evidence(
        np.concatenate(measured),
        np.concatenate(bound),
        "<=",
        atol=SCALED_ROUNDING,
        grid={k: np.concatenate(v) for k, v in grid.items()},
        witness={"reading": READING, "instances": INSTANCES},
    )
    # Near equality: x = v = 0 (so x+ = 0), z on the eigenvalue -L direction, theta small: measured 1/2 - theta
    # against (L/2)||z||^2 = 1/2; with L/2 in place of L the inequality fails.
    m, b = _fact_1_sides(np.diag([1.0, -1.0, 0.5]), np.zeros(3), np.zeros(3), np.array([0.0, 1.0, 0.0]), 1.0, 1e-3, 0.5)
    control = negative_control(Evidence(m, b, "<=", atol=SCALED_ROUNDING), "L replaced by L/2 on a near-equality case")
    ev.witness["negative control"] = control
    return searched(ev, _at, FACT_1_DOMAIN, ctx, scale=16)


@claim(
    f"{PAPER}/fact-1:upper-bound-only",
    source="Fact 1 (Appendix A.5) with Assumption 3.2's display",
    statement="[probe] Fact 1 when f satisfies only the displayed upper bound of Assumption 3.2 (f(y) <= f(x) + <grad "
    "f(x), y - x> + (L/2)||y - x||^2) and not the lower one: f = x'Hx/2 with Hessian eigenvalues down to -K L, "
    "K in {2, 10, 100}; random instances as in fact-1.",
    scope="outside-hypotheses",
    expect="fails",
)
def fact_1_upper_bound_only(ctx: Context) -> Evidence:
    """Instance: as :func:`fact_1` with the spectrum in [-K, 1] (L = 1), K in {2, 10, 100}: the display of
    Assumption 3.2 holds with L = 1 (it bounds curvature from above only), the Lipschitz-gradient reading the proofs
    use does not. A probe of which half of L-smoothness Fact 1 needs: the step f(x) - f(z) <= <grad f(x), x - z> +
    (L/2)||z - x||^2 is the lower quadratic bound. Reference: closed forms, as in :func:`fact_1`."""
    rng = ctx.rng()
    measured, bound, grid = [], [], []
    for K in (2.0, 10.0, 100.0):
        inst = _random_instances(rng, 200, 3, -K)
        m, b = _fact_1_sides(inst["H"], inst["x"], inst["v"], inst["z"], inst["eta"], inst["theta"], 1.0)
        measured.append(m)
        bound.append(b)
        grid.append(np.full(m.shape, K))
    return Evidence(
        np.concatenate(measured),
        np.concatenate(bound),
        "<=",
        atol=SCALED_ROUNDING,
        grid={"K (lambda_min = -K L)": np.concatenate(grid)},
        witness={"reading": "Assumption 3.2 read as its display alone (an upper quadratic bound)"},
    )


# --------------------------------------------------------------------------------------------------
# Assumption 3.1: the l1 example
# --------------------------------------------------------------------------------------------------
def _l1_sup(x: tuple[Fraction, ...], theta: Fraction) -> tuple[Fraction, bool]:
    """``sup ||xi||^2`` over ``xi`` in the subdifferential of ``theta ||.||_1`` at ``x``, exactly: a convex function
    is maximised over the box ``prod_j {theta sign x_j} or [-theta, theta]`` at a vertex, so every vertex is
    enumerated; also whether the library's subdifferential test accepts every vertex."""
    choices = [(theta * (1 if xj > 0 else -1),) if xj != 0 else (-theta, theta) for xj in x]
    best, accepted, reg = Fraction(0), True, L1(float(theta))
    xf = np.array([float(xj) for xj in x])
    for xi in product(*choices):
        best = max(best, sum(c * c for c in xi))
        accepted &= bool(reg.in_subdifferential(xf, np.array([float(c) for c in xi])))
    return best, accepted


@claim(
    f"{PAPER}/asm-3.1:l1",
    source="Assumption 3.1",
    statement="As printed, the l1 norm is a regularizer that satisfies Assumption 3.1 (subgradients bounded by some "
    "B_g < inf); exactly, g = theta ||x||_1 has sup over x and xi in partial g(x) of ||xi|| equal to B_g = theta "
    "sqrt(d), attained at every x: for d in {1, 2, 3, 5, 8}, theta in {1/1000, 1/2, 3}, at x = 0, at x with every "
    "coordinate nonzero and at x with a random zero pattern, every vertex of the subdifferential enumerated in exact "
    "rationals.",
    scope="printed",
    expect="holds",
)
def asm_3_1_l1(ctx: Context) -> Evidence:
    """Instance: g = theta ||.||_1 on R^d. Reading: B_g is the smallest constant of Assumption 3.1, sup ||xi|| over all
    x and subgradients (compared squared, exactly). Reference: the subdifferential is a box (a point per nonzero
    coordinate, [-theta, theta] per zero one); a convex function attains its maximum over it at a vertex, so the
    enumeration is exact; each vertex is also checked with the library's subdifferential test."""
    rng = ctx.rng()
    measured, bound, grid, accepted = [], [], {"d": [], "theta": [], "zeros": []}, True
    for d, theta in product((1, 2, 3, 5, 8), (Fraction(1, 1000), Fraction(1, 2), Fraction(3))):
        patterns = [np.zeros(d, dtype=bool), np.ones(d, dtype=bool), rng.random(d) < 0.5]
        for nonzero in patterns:
            x = tuple(Fraction(int(s)) if nz else Fraction(0) for s, nz in zip(rng.integers(-9, 10, d) | 1, nonzero))
            sup, ok = _l1_sup(x, theta)
            accepted &= ok
            measured.append(sup)
            bound.append(theta * theta * d)  # B_g^2 = (theta sqrt d)^2
            grid["d"].append(d)
            grid["theta"].append(str(theta))
            grid["zeros"].append(int(d - nonzero.sum()))
    if not accepted:
        raise ArithmeticError("a vertex of the l1 subdifferential is rejected by L1.in_subdifferential")
    ev = Evidence(
        np.array(measured, dtype=object),
        np.array(bound, dtype=object),
        "==",
        grid={k: np.array(v, dtype=object) for k, v in grid.items()},
        witness={"reading": "sup over x and xi in partial g(x) of ||xi||^2 against B_g^2 = theta^2 d, exactly"},
    )
    wrong = Evidence(ev.measured, np.array([b * (1 - Fraction(1, 10**6)) for b in bound], dtype=object), "==")
    ev.witness["negative control"] = negative_control(wrong, "B_g^2 shrunk by one part in a million")
    return ev
