"""Properties of the primal-dual method's pieces: the server step (convex hull, permutation and scale invariance,
zero weighted drift, the chain ||x_i - z||^2 <= sum_j w_j ||x_i - x_j||^2 <= sum_j ||x_i - x_j||^2), the projected
dual step (through one round on a controlled drift), the exact local oracle as a proximal map, and the descent of
local gradient steps on the subproblem."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import primal_dual as pd
from fedtheory.oracles import ExactGradient
from fedtheory.problems import FederatedQuadratic

seeds = st.integers(0, 2**16)
EPS = 1e-12


def quad(rng, N, d=3, floor=0.3):
    """Convex quadratics ``f_i = x'A_i x/2 - b_i'x`` with ``A_i >= floor I``."""
    G = rng.normal(size=(N, d, d))
    return FederatedQuadratic(G @ np.swapaxes(G, -1, -2) / d + floor * np.eye(d), 2 * rng.normal(size=(N, d)))


def subproblem(problem, w, z, lam):
    """``f_i(w_i) + lam_i ||w_i - z||^2`` for ``w`` ``(S, N, d)``, ``z`` ``(S, d)``, ``lam`` ``(S, N)``."""
    f = 0.5 * np.einsum("sni,nij,snj->sn", w, problem.A, w) - np.einsum("sni,ni->sn", w, problem.b)
    return f + lam * np.sum((w - z[:, None]) ** 2, axis=-1)


# P1: the server step


@settings(max_examples=40)
@given(N=st.integers(1, 7), seed=seeds, scale=st.floats(1e-3, 1e3))
def test_server_step_convex_hull_permutation_and_scale(N, seed, scale):
    rng = np.random.default_rng(seed)
    x, lam = 3 * rng.normal(size=(2, N, 4)), rng.uniform(0.01, 5.0, size=(2, N))
    mask = rng.random((2, N)) < 0.7
    mask[:, 0] = True
    z = pd.server_step(x, lam, mask, 1)
    tol = EPS * max(1.0, float(np.abs(x).max()))
    inside = np.where(mask[..., None], x, np.nan)
    assert np.all(z >= np.nanmin(inside, axis=1) - tol) and np.all(z <= np.nanmax(inside, axis=1) + tol)
    perm = rng.permutation(N)
    assert np.allclose(pd.server_step(x[:, perm], lam[:, perm], mask[:, perm], 1), z, rtol=0, atol=10 * tol)
    assert np.allclose(pd.server_step(x, scale * lam, mask, 1), z, rtol=0, atol=10 * tol)
    # the devices outside the mask do not enter: moving them changes nothing
    moved = np.where(mask[..., None], x, x + 100.0)
    assert np.array_equal(pd.server_step(moved, lam, mask, 1), z)
    drift = np.einsum("sn,snd->sd", np.where(mask, lam, 0.0), x - z[:, None])
    assert np.all(np.abs(drift) <= 10 * tol * lam.sum(axis=1, keepdims=True))


@settings(max_examples=40)
@given(N=st.integers(2, 7), seed=seeds)
def test_server_step_chain_of_distances(N, seed):
    """||x_i - z||^2 <= sum_j w_j ||x_i - x_j||^2 <= sum_j ||x_i - x_j||^2 with w_j = lam_j / sum lam (Jensen)."""
    rng = np.random.default_rng(seed)
    x, lam = rng.normal(size=(1, N, 3)), rng.uniform(0.01, 5.0, size=(1, N))
    z = pd.server_step(x, lam, np.ones((1, N), dtype=bool), 1)[0]
    w = lam[0] / lam.sum()
    pair = np.sum((x[0, :, None] - x[0, None]) ** 2, axis=-1)  # (N, N)
    left, mid, right = np.sum((x[0] - z) ** 2, axis=-1), pair @ w, pair.sum(axis=1)
    assert np.all(left <= mid * (1 + 1e-12) + EPS) and np.all(mid <= right * (1 + 1e-12) + EPS)
    # a point off the weighted mean breaks the first inequality for some device (the check can fail)
    far = z + 10 * (1 + np.sqrt(pair.max()))
    assert np.any(np.sum((x[0] - far) ** 2, axis=-1) > mid)


# P2: the projected dual step, through one round on a controlled drift


def dual_round(problem, z0, lam0, gamma, alpha, box, beta=0.1):
    """One round from ``x_i = z`` with one local step: ``x_i = z - beta grad f_i(z)``, so the drift ``beta^2
    ||grad f_i(z)||^2`` does not depend on ``lam``. Returns the drift and the new multipliers."""
    S, N = lam0.shape
    state = pd.init(z0, N, lam0=lam0, gamma=gamma, S=S)
    params = pd.PrimalDualParams(beta, alpha, 1, N, N, lam_box=box)
    new = pd.round(state, ExactGradient(problem), params, None)
    x = state.x - beta * ExactGradient(problem)(state.x, None)
    return np.sum((x - state.z[:, None]) ** 2, axis=-1), new.lam


@st.composite
def dual_cases(draw):
    N, seed = draw(st.integers(1, 5)), draw(seeds)
    lo = draw(st.floats(0.05, 1.0))
    hi = draw(st.one_of(st.just(np.inf), st.floats(0.0, 3.0).map(lambda w: lo + w)))
    return N, seed, (lo, hi), draw(st.floats(1e-3, 10.0))


@settings(max_examples=50)
@given(case=dual_cases())
def test_dual_projection_steps(case):
    N, seed, box, alpha = case
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    z0 = rng.normal(size=3)
    d0 = 0.01 * np.sum(ExactGradient(problem)(np.broadcast_to(z0, (1, N, 3)), None) ** 2, axis=-1)
    gamma = d0 * rng.uniform(0.0, 2.0, size=(1, N))  # drift - gamma of either sign
    lo, hi = box
    top = hi if np.isfinite(hi) else lo + 5.0
    lam = np.vstack([rng.uniform(lo, top, N), rng.uniform(lo, top, N)])  # two replicas, same z and drift
    drift, new = dual_round(problem, z0, lam, np.vstack([gamma, gamma]), alpha, box)
    g = drift - gamma
    y = lam + alpha * g
    tol = EPS * max(1.0, float(np.abs(y).max()))
    assert np.all((new >= lo) & (new <= hi))
    assert np.allclose(new, np.clip(y, lo, hi), rtol=0, atol=tol)
    assert np.all(np.abs(new - lam) <= alpha * np.abs(g) + tol)  # |P(l + a g) - l| <= a |g|
    assert np.all((new - lam) * g >= -tol * np.abs(g))  # (P(l + a g) - l) g >= 0
    # nonexpansive and monotone in lam (same drift in both replicas)
    assert np.all(np.abs(new[0] - new[1]) <= np.abs(lam[0] - lam[1]) + tol)
    order = lam[0] <= lam[1]
    assert np.all(np.where(order, new[0] <= new[1] + tol, new[1] <= new[0] + tol))
    # in the interior, the multiplier moves up iff the constraint is violated
    interior = (y > lo) & (y < hi) & (g != 0)
    assert np.all(np.sign(new - lam)[interior] == np.sign(g)[interior])
    # idempotent: from P(y), a round with zero constraint gap (gamma = drift) leaves the multipliers
    _, again = dual_round(problem, z0, new, drift, alpha, box)
    assert np.array_equal(again, new)


# P3: the exact local oracle is the proximal map of f_i with parameter 1/(2 lam)


@settings(max_examples=40)
@given(N=st.integers(1, 4), seed=seeds, log_lam=st.floats(-3.0, 3.0))
def test_exact_local_is_a_prox(N, seed, log_lam):
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    lam = np.full((2, N), 10.0**log_lam)
    z = 3 * rng.normal(size=(2, 3))
    xp = pd.exact_local(problem, z, lam)
    grad = np.einsum("nij,snj->sni", problem.A, xp) - problem.b
    scale = max(1.0, float(np.abs(grad).max()), float(np.abs(2 * lam[..., None] * (xp - z[:, None])).max()))
    assert np.allclose(grad + 2 * lam[..., None] * (xp - z[:, None]), 0.0, rtol=0, atol=1e-12 * scale)
    # firm nonexpansiveness in z: ||x+(z) - x+(z')||^2 <= <x+(z) - x+(z'), z - z'>
    dx, dz = xp[0] - xp[1], z[0] - z[1]
    assert np.all(np.sum(dx**2, axis=-1) <= dx @ dz + 1e-12 * np.sum(dz**2))
    # ||x+ - z|| non-increasing in lam
    bigger = pd.exact_local(problem, z, 1.7 * lam)
    dist = np.linalg.norm(xp - z[:, None], axis=-1)
    assert np.all(np.linalg.norm(bigger - z[:, None], axis=-1) <= dist * (1 + 1e-12) + 1e-14)


@settings(max_examples=30)
@given(N=st.integers(1, 4), seed=seeds, log_lam=st.floats(-2.0, 2.0))
def test_moreau_gradient_identity_by_finite_differences(N, seed, log_lam):
    """env(z) = min_x f(x) + lam ||x - z||^2 has gradient 2 lam (z - x+(z)); central differences are exact on the
    quadratic env up to rounding, about eps |env| / h."""
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    lam, z, h = np.full((1, N), 10.0**log_lam), rng.normal(size=(1, 3)), 1e-4

    def env(zz):
        return subproblem(problem, pd.exact_local(problem, zz, lam), zz, lam)[0]

    fd = np.stack([(env(z + h * e) - env(z - h * e)) / (2 * h) for e in np.eye(3)], axis=-1)
    exact = 2 * lam[0, :, None] * (z - pd.exact_local(problem, z, lam)[0])
    size = max(1.0, float(np.abs(env(z)).max()), float(np.abs(exact).max()))
    assert np.allclose(fd, exact, rtol=0, atol=1e-9 * size)


@settings(max_examples=30)
@given(N=st.integers(1, 4), seed=seeds)
def test_exact_local_limits_in_lam(N, seed):
    """lam -> inf: ||x+ - z|| <= ||grad f(z)||/(2 lam); lam -> 0: ||x+ - x_i*|| <= 2 lam ||z - x_i*|| / mu_i."""
    rng = np.random.default_rng(seed)
    problem = quad(rng, N)
    z = 3 * rng.normal(size=(1, 3))
    x_loc = np.linalg.solve(problem.A, problem.b[..., None])[..., 0]
    mu = np.linalg.eigvalsh(problem.A)[:, 0]
    grad_z = np.linalg.norm(np.einsum("nij,j->ni", problem.A, z[0]) - problem.b, axis=-1)
    for lam in (1e3, 1e6):
        xp = pd.exact_local(problem, z, np.full((1, N), lam))[0]
        assert np.all(np.linalg.norm(xp - z, axis=-1) <= grad_z / (2 * lam) * (1 + 1e-9) + 1e-14)
    for lam in (1e-3, 1e-6):
        xp = pd.exact_local(problem, z, np.full((1, N), lam))[0]
        bound = 2 * lam * np.linalg.norm(z - x_loc, axis=-1) / mu
        assert np.all(np.linalg.norm(xp - x_loc, axis=-1) <= bound * (1 + 1e-6) + 1e-12 * np.abs(x_loc).max())


# P8: local gradient steps descend on the subproblem


@settings(max_examples=40)
@given(N=st.integers(1, 5), seed=seeds, frac=st.floats(0.05, 1.0), log_lam=st.floats(-2.0, 1.5))
def test_local_gd_descends_on_the_subproblem(N, seed, frac, log_lam):
    """With beta <= 1/(L + 2 lam): L_i(w+) <= L_i(w) - (beta/2)||grad L_i(w)||^2 (the descent lemma), every step."""
    rng = np.random.default_rng(seed)
    problem = quad(rng, N, floor=0.01)
    lam = np.full((1, N), 10.0**log_lam)
    L = np.linalg.eigvalsh(problem.A)[:, -1]
    beta = frac / float(np.max(L + 2 * lam[0]))
    z, w = rng.normal(size=(1, 3)), 3 * rng.normal(size=(1, N, 3))
    oracle = ExactGradient(problem)
    value = subproblem(problem, w, z, lam)
    for _ in range(20):
        grad = oracle(w, None) + 2 * lam[..., None] * (w - z[:, None])
        w = pd.local_steps(w, z, lam, oracle, beta, 1, None)
        new = subproblem(problem, w, z, lam)
        slack = 1e-12 * np.maximum(1.0, np.abs(value))
        assert np.all(new <= value - 0.5 * beta * np.sum(grad**2, axis=-1) + slack)
        value = new
