"""The pointwise (Dirac) forms of Propositions 2 and 5 and of the printed proof equations (5)-(7), (9)-(11), (14)
(StR-FedAvg).

A proposition about ``E[.]`` at the output ``xbar^R`` has a deterministic special case: the Dirac distribution at a
point ``x``, with ``Err_eta`` replaced by the exact ``Err(x) := f_eta(x) - f_eta*``. Every
printed part of Propositions 2 and 5 and every printed proof equation ((5)-(7), (9)-(11), (13), (14)) is evaluated
AS PRINTED at each point of the instances below; two-sided statements are judged as the pair ``lower <= middle`` and
``middle <= upper`` (grid ``side``).

Instances (A), (B), (C) and the points: :mod:`.sharpness_instances` (the "module docstring" of the claim statements).

Tolerance: rounding only, ``1e-9 |bound| + 1e-12 max(1, M)``.

Paper text: Proposition 2 and its proof ((5), (6), (7)), Proposition 5 and its proof ((9), (10), (11)), (14) in the
proof of Theorem 3.
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.points import Points
from fedtheory.harness.tolerances import ROUNDING

from .sharpness_instances import INSTANCES, PAPER, Rows, ls_30_50_5


# ---------------------------------------------------------------------------------------------------------------------
# Printed pointwise statements
# ---------------------------------------------------------------------------------------------------------------------
def _root(r: Rows, value: np.ndarray) -> np.ndarray:
    """``((Err + eta M)/alpha)^{1/kappa}``-type roots, ``(value/alpha)^{1/kappa}``."""
    return (np.maximum(value, 0.0) / r.alpha) ** (1.0 / r.kappa)


def _sides(r: Rows, part: str, mu: float) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``(side, lhs, rhs)`` pairs of the printed inequality ``part`` at every point of ``r`` (``lhs <= rhs``)."""
    eta, G, M = r.eta, r.G, r.M
    ws = _root(r, r.err + eta * M)
    parts = {
        "i-1": [("lower", 0 * r.hg, r.hg), ("upper", r.hg, r.err + eta * M)],
        "i-2": [("lower", mu / 2 * r.sq - G * r.dist, r.fg), ("upper", r.fg, r.err / eta)],
        "i-3": [("upper", r.sq, (2 / mu) * (G * r.dist + r.err / eta) if mu else np.full_like(r.sq, np.inf))],
        "ii-2": [("lower", mu / 2 * r.sq - G * ws, r.fg), ("upper", r.fg, r.err / eta)],
        "ii-3": [("upper", r.sq, (2 / mu) * (G * ws + r.err / eta) if mu else np.full_like(r.sq, np.inf))],
        "iii-1": [("lower", 0 * r.hg, r.hg), ("upper", r.hg, 2 * r.err)],
        "iii-2": [("lower", 0.5 * mu * r.sq - (2 * G / r.alpha) * r.err, r.fg), ("upper", r.fg, r.err / eta)],
        "iii-3": [("upper", r.sq, 2 * r.err / (eta * mu) if mu else np.full_like(r.sq, np.inf))],
        "eq-5": [("upper", r.hg + eta * r.fg, r.err)],
        "eq-6": [("lower", mu / 2 * r.sq - (G / r.alpha) * r.hg, r.fg)],
        "eq-7": [("upper", 0.5 * r.hg + eta * mu / 2 * r.sq, r.err)],
        "eq-11": [("upper", 0.5 * r.hg, r.err)],
        "eq-13": [("upper", r.dist, r.hg ** (1.0 / r.kappa) / r.alpha)],
        "eq-13:corrected": [("upper", r.dist, _root(r, r.hg))],
    }
    parts["ii-1"] = parts["i-1"]
    parts["eq-9"] = [("lower", -(G / r.alpha) * r.hg, r.fg)]
    parts["eq-10"] = parts["eq-5"]
    parts["eq-14"] = [("upper", r.dist, r.hg / r.alpha)]
    return parts[part]


def _pointwise(
    ctx: Context, part: str, keys: tuple[str, ...], *, mu_zero: bool = False, extra: dict | None = None
) -> Evidence:
    """Evidence for ``part`` on the instances ``keys`` (``mu_zero``: Prop. 5, where the lower bounds carry no
    ``mu_f`` term)."""
    points = Points()
    witness, scale = {}, 1.0
    for key in keys:
        r = INSTANCES[key](ctx)
        scale = max(scale, r.M)
        for side, lhs, rhs in _sides(r, part, 0.0 if mu_zero else r.mu_f):
            for i in range(lhs.size):
                points.add(lhs[i], rhs[i], instance=key, side=side, eta=r.eta[i], point=r.kind[i], index=i)
        witness[key] = {
            "instance": r.name,
            "mu_f": 0.0 if mu_zero else r.mu_f,
            "kappa": r.kappa,
            "alpha": r.alpha,
            "||grad f(x*)||": r.G,
            "M = f* - inf f": r.M,
            "points": int(r.hg.size),
            **r.info,
        }
    witness.update(extra or {})
    # atol: the absolute rounding of gaps of the size of M (the largest constant term of the bounds), at least 1e-12
    return points.evidence("<=", rtol=ROUNDING, atol=1e-12 * scale, witness=witness)


def _tightness_probe(ctx: Context, mu_f: float) -> dict:
    """Tightness probe on (A): along ``x = x* + s u``, ``u = -grad f(x*)/||grad f(x*)||`` (normal to ``X*``),
    the ratio of ``f - f*`` to the printed lower bound ``(mu_f/2)||x - x*||^2 - ||grad f(x*)|| dist``."""
    ls = ls_30_50_5(ctx)
    x_star = ls.x_star
    G = float(np.linalg.norm(x_star))
    s = np.logspace(-6, -1, 6)
    x = x_star - s[:, None] * x_star / G
    fg = 0.5 * np.sum(x * x, axis=1) - 0.5 * x_star @ x_star
    lower = mu_f / 2 * s**2 - G * ls.solution_set.distance(x)
    return {"tightness (A), s -> ratio (f - f*)/printed lower bound": dict(zip(s.tolist(), (fg / lower).tolist()))}


SRC_P2 = "Proposition 2"
SRC_P5 = "Proposition 5"
STMT = (
    "Dirac (pointwise) form with Err(x) = f_eta(x) - f_eta* exact, at 200 random points x eta grid, the Tikhonov "
    "points and Algorithm 1 iterates (module docstring) on "
)


def _pointwise_check(part: str, keys: tuple[str, ...], mu_zero: bool, probe: bool):
    """The claim function of one printed part (``probe``: add the tightness probe to the witness)."""

    def check(ctx: Context) -> Evidence:
        """The printed part, pointwise (Dirac law, ``Err(x) = f_eta(x) - f_eta*`` exact) at every point of the
        instances ``keys`` of :mod:`.sharpness_instances`, both sides of a two-sided statement as entries; reference:
        closed forms on (A) and (C), certified Clarabel optima (duality gaps in the witness) on (B)."""
        extra = _tightness_probe(ctx, 0.0 if mu_zero else 1.0) if probe else None
        return _pointwise(ctx, part, keys, mu_zero=mu_zero, extra=extra)

    return check


def _register_pointwise():
    """Register the printed parts of Propositions 2 and 5 and the proof equations (5)-(7), (9)-(11), (14)."""
    specs = [
        ("prop-2:i-1", SRC_P2 + " (i-1)", "0 <= h(x) - h* <= Err + eta M", ("A", "C"), False),
        (
            "prop-2:i-2",
            SRC_P2 + " (i-2)",
            "(mu_f/2)||x - x*||^2 - ||grad f(x*)|| dist(x, X*) <= f(x) - f* <= Err/eta",
            ("A", "C"),
            False,
        ),
        (
            "prop-2:i-3",
            SRC_P2 + " (i-3)",
            "||x - x*||^2 <= (2/mu_f)(||grad f(x*)|| dist(x, X*) + Err/eta)",
            ("A", "C"),
            False,
        ),
        ("prop-2:ii-1", SRC_P2 + " (ii-1)", "0 <= h(x) - h* <= Err + eta M (kappa = 2)", ("A",), False),
        (
            "prop-2:ii-2",
            SRC_P2 + " (ii-2)",
            "(mu_f/2)||x - x*||^2 - ||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} <= f(x) - f* <= Err/eta "
            "(kappa = 2, alpha = alpha_2)",
            ("A",),
            False,
        ),
        (
            "prop-2:ii-3",
            SRC_P2 + " (ii-3)",
            "||x - x*||^2 <= (2/mu_f)(||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} + Err/eta) (kappa = 2)",
            ("A",),
            False,
        ),
        (
            "prop-2:iii-1",
            SRC_P2 + " (iii-1)",
            "0 <= h(x) - h* <= 2 Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "prop-2:iii-2",
            SRC_P2 + " (iii-2)",
            "0.5 mu_f ||x - x*||^2 - (2||grad f(x*)||/alpha) Err <= f(x) - f* <= Err/eta (kappa = 1, "
            "eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "prop-2:iii-3",
            SRC_P2 + " (iii-3)",
            "||x - x*||^2 <= 2 Err/(eta mu_f) (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        ("prop-5:i-1", SRC_P5 + " (i-1)", "0 <= h(x) - h* <= Err + eta M", ("A", "B", "C"), True),
        (
            "prop-5:i-2",
            SRC_P5 + " (i-2)",
            "-||grad f(x*)|| dist(x, X*) <= f(x) - f* <= Err/eta",
            ("A", "B", "C"),
            True,
        ),
        ("prop-5:ii-1", SRC_P5 + " (ii-1)", "0 <= h(x) - h* <= Err + eta M (kappa = 2)", ("A", "B"), True),
        (
            "prop-5:ii-2",
            SRC_P5 + " (ii-2)",
            "-||grad f(x*)|| ((Err + eta M)/alpha)^{1/kappa} <= f(x) - f* <= Err/eta (kappa = 2, alpha = alpha_2)",
            ("A", "B"),
            True,
        ),
        (
            "prop-5:iii-1",
            SRC_P5 + " (iii-1)",
            "0 <= h(x) - h* <= 2 Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "prop-5:iii-2",
            SRC_P5 + " (iii-2)",
            "-(2||grad f(x*)||/alpha) Err <= f(x) - f* <= Err/eta (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "eq-5",
            "Proof of Proposition 2 (i-1), eq. (5)",
            "h(x) - h* + eta (f(x) - f*) <= Err (equality on C: exact regularization)",
            ("A", "B", "C"),
            False,
        ),
        (
            "eq-6",
            "Proof of Proposition 2 (iii-1), eq. (6)",
            "(mu_f/2)||x - x*||^2 - (||grad f(x*)||/alpha)(h(x) - h*) <= f(x) - f* (kappa = 1)",
            ("C",),
            False,
        ),
        (
            "eq-7",
            "Proof of Proposition 2 (iii-1), eq. (7)",
            "(1/2)(h(x) - h*) + (eta mu_f/2)||x - x*||^2 <= Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            False,
        ),
        (
            "eq-9",
            "Proof of Proposition 5 (iii-1), eq. (9)",
            "-(||grad f(x*)||/alpha)(h(x) - h*) <= f(x) - f* (kappa = 1)",
            ("C",),
            True,
        ),
        (
            "eq-10",
            "Proof of Proposition 5 (iii-1), eq. (10)",
            "h(x) - h* + eta (f(x) - f*) <= Err",
            ("A", "B", "C"),
            True,
        ),
        (
            "eq-11",
            "Proof of Proposition 5 (iii-1), eq. (11)",
            "(1/2)(h(x) - h*) <= Err (kappa = 1, eta <= alpha/(2||grad f(x*)||))",
            ("C",),
            True,
        ),
        (
            "eq-14",
            "Proof of Theorem 3 (ii-2), eq. (14)",
            "dist(x, X*) <= (1/alpha)(h(x) - h*) (kappa = 1, Dirac conditional law)",
            ("C",),
            False,
        ),
    ]
    for label, source, text, keys, mu_zero in specs:
        where = ", ".join(keys)
        statement = f"{text}; {STMT}{where}" + (" (C is outside Assumption 1: h nonsmooth)" if "C" in keys else "")
        check = _pointwise_check(label.split(":")[-1], keys, mu_zero, label in ("prop-2:i-2", "prop-5:i-2"))
        check.__name__ = "pointwise_" + label.replace(":", "_").replace("-", "_")
        check.__doc__ = f"{label} ({source}), pointwise: {text}.\n\n{check.__doc__}"
        claim(f"{PAPER}/{label}", source=source, statement=statement, scope="printed", expect="holds")(check)


_register_pointwise()
