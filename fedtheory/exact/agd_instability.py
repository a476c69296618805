"""Initial-value instability of Nesterov's AGD, constructed and certified in exact arithmetic.

Two runs of AGD from nearby starts can separate geometrically on a smooth strongly convex function whose curvature
switches between ``mu`` and ``L`` along the trajectory. This module builds such functions for any curvature
pattern with isolated ``L``-steps, certifies them, and bounds the amplification over all patterns.

Setting. ``mu = 1``, ``L = kappa = s^2`` with ``s`` a positive integer, so every coefficient of AGD (the
strongly convex form below) is rational::

    md   = x/(s + 1) + s x_ag/(s + 1)
    x_ag = md - F'(md)/L
    x    = (1 - 1/s) x + md/s - F'(md)/(s mu)

The objective is one-dimensional with ``F'' = L`` on a union ``S`` of closed "bumps" and ``mu`` elsewhere, anchored
on the right: ``F'(w) = mu w - (L - mu) |S intersect [w, A]|``. A bump changes ``F'`` only to its left, so bumps
can be placed one at a time on a trajectory that moves left. Two runs whose ``md`` points stay in the same
affine piece of ``F'`` differ by the linear recursion

    [d_ag; d]_{t+1} = M(h_t) [d_ag; d]_t,   M(h) = 1/(s+1) [[s(1 - h/L), 1 - h/L], [1 - h/mu, s(1 - h/L)]],

with ``h_t`` the curvature of that piece; every construction is re-run and certified (each ``md`` strictly
inside the piece the pattern asks for) and the final difference is compared with the recursion exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, log10

import numpy as np

from ..errors import FedtheoryError, InvalidParameterError

MU, L_STEP = "mu", "L"


def _s(s) -> int:
    if not isinstance(s, (int, np.integer)) or s < 2:
        raise InvalidParameterError("s", "an integer sqrt(kappa) >= 2 (kappa = s^2, mu = 1)", s)
    return int(s)


def step_matrix(h, s: int) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """The difference map ``M(h)`` of two AGD runs on one affine piece of curvature ``h`` (a Fraction or int in
    ``[1, s^2]``), with ``mu = 1``, ``L = s^2``."""
    s = _s(s)
    h = Fraction(h)
    L = Fraction(s * s)
    c = Fraction(1, s + 1)
    return ((c * s * (1 - h / L), c * (1 - h / L)), (c * (1 - h), c * s * (1 - h / L)))


def _mat_vec(m, v):
    return (m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1])


def predicted_differences(pattern: Sequence[str], s: int, v0) -> list[tuple[Fraction, Fraction]]:
    """``v_t`` for t = 0..len(pattern): the exact difference recursion under a curvature pattern."""
    mats = {MU: step_matrix(1, s), L_STEP: step_matrix(s * s, s)}
    v = [(Fraction(v0[0]), Fraction(v0[1]))]
    for h in pattern:
        v.append(_mat_vec(mats[h], v[-1]))
    return v


@dataclass(frozen=True)
class BumpObjective:
    """``F'(w) = mu w - (L - mu) |S intersect [w, anchor]|`` with ``S`` a union of disjoint closed bumps."""

    s: int
    anchor: Fraction
    bumps: tuple[tuple[Fraction, Fraction], ...] = ()

    @property
    def L(self) -> Fraction:
        return Fraction(self.s * self.s)

    def grad(self, w: Fraction) -> Fraction:
        covered = sum((max(Fraction(0), b - max(a, w)) for a, b in self.bumps), Fraction(0))
        return w - (self.L - 1) * covered

    def piece(self, w: Fraction) -> tuple[int, Fraction]:
        """``(index, distance to the nearest edge)``: index ``i >= 0`` inside bump ``i``, ``-1`` outside every
        bump; distance 0 on an edge."""
        best = None
        for i, (a, b) in enumerate(self.bumps):
            if a <= w <= b:
                return i, min(w - a, b - w)
            d = min(abs(w - a), abs(w - b))
            best = d if best is None else min(best, d)
        return -1, (best if best is not None else Fraction(10**9))

    def with_bump(self, center: Fraction, delta: Fraction) -> BumpObjective:
        a, b = center - delta, center + delta
        if any(not (b < a2 or a > b2) for a2, b2 in self.bumps) or b >= self.anchor:
            raise FedtheoryError(f"bump [{float(a):.3g}, {float(b):.3g}] overlaps another bump or the anchor")
        return BumpObjective(self.s, self.anchor, (*self.bumps, (a, b)))

    def curvature_at(self, w: float) -> float:
        """F'' at a float point (for plots)."""
        return float(self.L) if any(float(a) <= w <= float(b) for a, b in self.bumps) else 1.0


@dataclass(frozen=True)
class AGDRun:
    """Exact AGD iterates: ``md[t]`` for t < T, ``x[t]``, ``x_ag[t]`` for t <= T."""

    md: tuple[Fraction, ...]
    x: tuple[Fraction, ...]
    x_ag: tuple[Fraction, ...]


def agd(objective: BumpObjective, x0: Fraction, x_ag0: Fraction, T: int, *, place=None, delta=None) -> tuple:
    """Run Algorithm 3 exactly for ``T`` steps; with ``place`` (a pattern), put a bump of half-width ``delta`` on
    ``md^(t)`` before its gradient is evaluated whenever ``place[t]`` is "L". Returns ``(run, objective)``."""
    s = objective.s
    x, x_ag = Fraction(x0), Fraction(x_ag0)
    md_s, xs, ags = [], [x], [x_ag]
    for t in range(T):
        md = (x + s * x_ag) / (s + 1)
        if place is not None and place[t] == L_STEP:
            objective = objective.with_bump(md, delta)
        g = objective.grad(md)
        x_ag, x = md - g / objective.L, (1 - Fraction(1, s)) * x + md / s - g / s
        md_s.append(md)
        xs.append(x)
        ags.append(x_ag)
    return AGDRun(tuple(md_s), tuple(xs), tuple(ags)), objective


@dataclass(frozen=True)
class Instance:
    """A certified instance of the construction: the function, the two runs and their predicted difference.

    Attributes
    ----------
    objective : BumpObjective
    pattern : tuple of str
        The curvature seen at each ``md^(t)``.
    eps : Fraction
        Size of the initial perturbation: ``u_ag^(0) = w0 - eps d_ag``, ``u^(0) = w0 - eps d``.
    margin : Fraction
        Smallest distance of any ``md`` point of either run to a bump edge.
    w, u : AGDRun
    predicted : list of (Fraction, Fraction)
        ``v_t`` of the recursion; ``(w_ag - u_ag, w - u)`` at every step equals ``eps v_t`` exactly.
    """

    objective: BumpObjective
    pattern: tuple[str, ...]
    eps: Fraction
    delta: Fraction
    margin: Fraction
    w: AGDRun
    u: AGDRun
    predicted: list

    @property
    def final_difference(self) -> tuple[Fraction, Fraction]:
        """``(w_ag^(T) - u_ag^(T), w^(T) - u^(T))``."""
        return self.w.x_ag[-1] - self.u.x_ag[-1], self.w.x[-1] - self.u.x[-1]


def _certify(objective: BumpObjective, run: AGDRun, pattern, name: str) -> tuple[list[int], Fraction]:
    pieces, margin = [], None
    for t, md in enumerate(run.md):
        idx, dist = objective.piece(md)
        if (idx >= 0) != (pattern[t] == L_STEP) or dist == 0:
            raise FedtheoryError(f"{name}: md^({t}) = {float(md):.6g} is not strictly inside a {pattern[t]} piece")
        pieces.append(idx)
        margin = dist if margin is None else min(margin, dist)
    return pieces, margin


def build(s: int, pattern: Sequence[str], *, w0: Fraction = Fraction(1), direction=(1, 1)) -> Instance:
    """Build and certify a bump function on which AGD follows a curvature pattern with isolated L-steps.

    Steps: a pure run on ``F0 = w^2/2`` fixes the bump half-width ``delta`` (a power of ten
    below the gaps of the ``md`` sequence); bumps are placed sequentially on the ``md`` points the pattern marks
    ``L``; the final ``F`` is re-run and certified; ``eps`` is chosen from the certified margin and the largest
    predicted difference; the perturbed run is certified to see the same pieces and its difference is compared
    with ``eps v_T`` exactly.

    Raises
    ------
    FedtheoryError
        If a certificate fails (never returns an uncertified instance).
    """
    s = _s(s)
    pattern = tuple(pattern)
    if any(h not in (MU, L_STEP) for h in pattern) or not pattern:
        raise InvalidParameterError("pattern", 'a non-empty sequence of "mu" and "L"', pattern)
    if any(a == b == L_STEP for a, b in itertools.pairwise(pattern)):
        raise InvalidParameterError("pattern", "isolated L-steps (no two adjacent)", pattern)
    if not all(abs(Fraction(c)) <= 1 for c in direction):
        raise InvalidParameterError("direction", "|d_ag|, |d| <= 1", direction)
    T, w0 = len(pattern), Fraction(w0)
    flat = BumpObjective(s, 2 * w0)
    pure, _ = agd(flat, w0, w0, T)
    gaps = [a - b for a, b in zip(pure.md, pure.md[1:])] or [pure.md[0]]
    n_L = pattern.count(L_STEP)
    x = min(min(gaps) / 20, pure.md[-1] / (40 * (flat.L - 1) * (n_L + 1)))
    if x <= 0:
        raise FedtheoryError("the pure run's md sequence is not strictly decreasing and positive")
    delta = Fraction(1, 10 ** ceil(-log10(x)))
    w_run, objective = agd(flat, w0, w0, T, place=pattern, delta=delta)
    final_run, _ = agd(objective, w0, w0, T)
    if final_run != w_run:
        raise FedtheoryError("re-running on the final objective changed the trajectory")
    pieces, margin = _certify(objective, final_run, pattern, "w")
    predicted = predicted_differences(pattern, s, direction)
    biggest = max(max(abs(a), abs(b)) for a, b in predicted)
    eps = margin / (8 * biggest * (s + 1))
    u_run, _ = agd(objective, w0 - eps * direction[1], w0 - eps * direction[0], T)
    u_pieces, u_margin = _certify(objective, u_run, pattern, "u")
    if u_pieces != pieces:
        raise FedtheoryError("the perturbed run's md points left the pieces of the reference run")
    inst = Instance(objective, pattern, eps, delta, min(margin, u_margin), final_run, u_run, predicted)
    for t in range(T + 1):
        diff = (final_run.x_ag[t] - u_run.x_ag[t], final_run.x[t] - u_run.x[t])
        if diff != (eps * predicted[t][0], eps * predicted[t][1]):
            raise FedtheoryError(f"difference at step {t} is not eps v_t")
    return inst


def isolated_patterns(T: int):
    """Every pattern of length ``T`` in {mu, L} without two adjacent L-steps."""
    for bits in itertools.product((MU, L_STEP), repeat=T):
        if not any(a == b == L_STEP for a, b in itertools.pairwise(bits)):
            yield bits


def best_amplification(s: int, T: int, component: int, *, isolated: bool = False) -> tuple[Fraction, tuple, tuple]:
    """``max |(prod M(h_t) v0)_component|`` over patterns ``h in {mu, L}^T`` and ``v0 in {-1, 1}^2``, exactly.

    ``M(h)`` is affine in ``h`` and the product multilinear in ``(h_0, ..., h_{T-1})`` and linear in ``v0``, so this
    vertex maximum is the supremum over every ``h_t in [mu, L]`` and ``|v0| <= 1``: by the mean value theorem it
    bounds what any 1-D ``L``-smooth, ``mu``-strongly convex function and any two starts ``eps`` apart can reach.
    With ``isolated`` only patterns the constructor can realise are searched. Returns (value, pattern, v0).
    """
    s = _s(s)
    best = (Fraction(-1), (), ())
    patterns = isolated_patterns(T) if isolated else itertools.product((MU, L_STEP), repeat=T)
    for pattern in patterns:
        for v0 in ((1, 1), (1, -1)):  # (-1, -1) and (-1, 1) give the negated vectors
            value = abs(predicted_differences(pattern, s, v0)[-1][component])
            if value > best[0]:
                best = (value, pattern, v0)
    return best


def generalized_agd(
    objective: BumpObjective, x0, x_ag0, T: int, *, alpha_inv: Fraction, beta_inv: Fraction, eta: Fraction, gamma
) -> AGDRun:
    """Noiseless FedAc with one client (Algorithm 2 with ``M = 1``, no noise) in exact arithmetic: ``T`` steps of
    ``md = beta^-1 x + (1 - beta^-1) x_ag``, ``x_ag+ = md - eta F'(md)``, ``x+ = (1 - alpha^-1) x + alpha^-1 md -
    gamma F'(md)``. With ``alpha = sqrt(kappa)``, ``beta = sqrt(kappa) + 1``, ``eta = 1/L``, ``gamma = 1/sqrt(L mu)``
    it is :func:`agd`."""
    x, x_ag = Fraction(x0), Fraction(x_ag0)
    md_s, xs, ags = [], [x], [x_ag]
    for _ in range(T):
        md = beta_inv * x + (1 - beta_inv) * x_ag
        g = objective.grad(md)
        x_ag, x = md - eta * g, (1 - alpha_inv) * x + alpha_inv * md - gamma * g
        md_s.append(md)
        xs.append(x)
        ags.append(x_ag)
    return AGDRun(tuple(md_s), tuple(xs), tuple(ags))
