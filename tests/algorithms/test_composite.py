"""Chapter 4 composite methods: mirror maps, the printed algorithms, their reductions and fixed points."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from rounding import EPS, LIBM_ULPS, gamma

from fedtheory.algorithms import composite as fco
from fedtheory.algorithms import fedavg
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.regularizers import (
    L1,
    Box,
    ElasticNet,
    L1Ball,
    L2Ball,
    Masked,
    NuclearNorm,
    Simplex,
    SquaredL2,
)

D = 6  # dimension of every instance below: Masked nuclear norms act on 2 x 3 matrices
REGULARIZERS = [
    L1(0.3),
    SquaredL2(0.7),
    ElasticNet(0.2, 0.5),
    Box(-0.5, 0.8),
    L2Ball(1.0),
    L1Ball(1.2),
    Simplex(1.0),
    Masked(NuclearNorm(0.4), np.ones(D, dtype=bool), shape=(2, 3)),
    Masked(L1(0.3), np.arange(D) < D - 1),  # the intercept (last coordinate) is free
]
REG_IDS = [type(r).__name__ + ("" if not isinstance(r, Masked) else type(r.inner).__name__) for r in REGULARIZERS]
SUBDIFFERENTIABLE = [  # the regularizers FedAvg(subgradient) takes a subgradient of
    r
    for r in REGULARIZERS
    if isinstance(r, (L1, SquaredL2, ElasticNet)) or (isinstance(r, Masked) and len(r.shape) == 1)
]
INDICATORS = [r for r in REGULARIZERS if isinstance(r, (Box, L2Ball, L1Ball, Simplex))]
PRIMAL = ("FedMiD", "FedMiD-OSP", "FedMiD(no server prox)", "FedAvg(subgradient)")

points = arrays(np.float64, (3, D), elements=st.floats(-4, 4, allow_nan=False, width=64))
weights = st.floats(0.01, 4.0)


def _quadratic(seed: int, d: int = D, M: int | None = None) -> FederatedQuadratic:
    """``F_m = x'A_m x/2 - b_m'x`` with ``A_m = Q Q'/d + 0.2 I`` (one client, or ``M`` different ones)."""
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(d, d) if M is None else (M, d, d))
    A = Q @ np.swapaxes(Q, -1, -2) / d + 0.2 * np.eye(d)
    return FederatedQuadratic(A, rng.normal(size=d if M is None else (M, d)))


def _mirrors():
    """Every geometry of the module, each with a regularizer the algorithms can use."""
    return [
        *(fco.Euclidean(r) for r in REGULARIZERS),
        fco.Euclidean(),
        fco.PNorm(1.5, L1(0.3)),
        fco.PNorm(1.3, Masked(L1(0.2), np.arange(D) < D - 1), scale=2.0),
        fco.Entropy(Simplex(1.0)),
    ]


MIRRORS = _mirrors()
MIRROR_IDS = [f"{type(m).__name__}-{type(m.psi).__name__}" for m in MIRRORS]


def _start(mirror, seed: int) -> np.ndarray:
    """A start point in ``int dom h`` (on the simplex for the entropy)."""
    x = np.random.default_rng(seed + 1).normal(size=D)
    return np.exp(x) / np.exp(x).sum() if isinstance(mirror, fco.Entropy) else x


# --- mirror maps ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reg", REGULARIZERS, ids=REG_IDS)
@given(y=points, t=weights)
def test_euclidean_mirror_map_is_the_prox_and_satisfies_optimality(reg, y, t):
    mirror = fco.Euclidean(reg)
    x = mirror(y, t)
    assert np.array_equal(x, reg.prox(y, t))
    assert np.all(reg.in_subdifferential(x, (y - mirror.grad_h(x)) / t))  # y - grad h(x) in t partial psi(x)
    assert np.array_equal(mirror(y, 0.0), y)  # 0 * psi = 0: grad h^* = id


@given(y=points, t=weights, p=st.floats(1.1, 2.0), scale=st.floats(0.5, 3.0), lam=st.floats(0.0, 2.0))
def test_pnorm_mirror_map_satisfies_its_optimality_condition(y, t, p, scale, lam):
    # x = grad (h + t lam ||.||_1)^*(y)  iff  y - grad h(x) in t lam partial ||x||_1 (Proposition C.4).
    mirror = fco.PNorm(p, L1(lam), scale=scale)
    x = mirror(y, t)
    g = (y - mirror.grad_h(x)) / t
    assert np.all(L1(lam).in_subdifferential(x, g, tol=1e-9 * max(1.0, np.abs(y).max())))


@pytest.mark.parametrize("p,scale,t", [(1.5, 1.0, 0.7), (1.2, 2.0, 0.3), (2.0, 0.5, 1.5)])
def test_pnorm_mirror_map_agrees_with_the_argmin_of_eq_4_7(p, scale, t):
    y = np.random.default_rng(3).normal(size=D) * 2
    mirror = fco.PNorm(p, L1(0.4), scale=scale)
    x = cp.Variable(D)
    h = scale * cp.square(cp.pnorm(x, p)) / (2 * (p - 1))
    cp.Problem(cp.Minimize(-y @ x + t * 0.4 * cp.norm1(x) + h)).solve(solver="CLARABEL")

    def objective(z):
        return -y @ z + t * 0.4 * np.abs(z).sum() + mirror.h(z)

    def rounding(z):  # each evaluation: gamma_{3D+4} of its absolute terms, and ||z||_p's pow calls (LIBM_ULPS each)
        terms = np.abs(y) @ np.abs(z) + t * 0.4 * np.abs(z).sum() + mirror.h(z)
        return (gamma(3 * D + 4) + 4 * LIBM_ULPS * EPS) * terms

    # The closed form is at least as good as Clarabel's point (whose objective is flat to ~1e-9 near the optimum).
    closed = mirror(y, t)
    slack = rounding(closed) + rounding(x.value)
    assert objective(closed) <= objective(x.value) + slack
    # Clarabel's certificate for this point: h is scale-strongly convex in ||.||_p, hence in ||.||_2 (p <= 2), so
    # ||x - x*||^2 <= 2 (Phi(x) - Phi*)/scale, with Phi* = Phi(closed form) up to rounding (dist reaches 1e-4 at p = 2)
    gap = objective(x.value) - objective(closed) + slack
    assert np.linalg.norm(closed - x.value) <= np.sqrt(2 * gap / scale)


@given(x=points, p=st.floats(1.05, 2.0), scale=st.floats(0.5, 3.0))
def test_pnorm_gradient_maps_are_inverse_and_h_is_strongly_convex(x, p, scale):
    mirror = fco.PNorm(p, scale=scale)
    assert np.allclose(mirror.grad_h_conj(mirror.grad_h(x)), x, rtol=1e-9, atol=1e-9)  # Proposition C.7
    x0 = x[::-1].copy()
    lhs = mirror.bregman(x, x0)
    rhs = 0.5 * scale * np.sum(np.abs(x - x0) ** p, axis=-1) ** (2 / p)  # scale-strongly convex w.r.t. ||.||_p
    assert np.all(lhs >= rhs - 1e-9 * (1 + np.abs(rhs)))


def test_pnorm_gradient_is_the_gradient_of_h():
    mirror = fco.PNorm(1.4, scale=1.7)
    x = np.random.default_rng(0).normal(size=D)
    eps = 1e-6
    fd = np.array([(mirror.h(x + eps * e) - mirror.h(x - eps * e)) / (2 * eps) for e in np.eye(D)])
    assert np.allclose(mirror.grad_h(x), fd, rtol=1e-7, atol=1e-8)


@given(y=points, t=weights)
def test_pnorm_with_p_two_is_euclidean(y, t):
    assert np.allclose(fco.PNorm(2.0, L1(0.3))(y, t), fco.Euclidean(L1(0.3))(y, t), rtol=1e-14, atol=1e-14)


@given(y=points, t=weights, shift=st.floats(-5, 5), total=st.floats(0.5, 3.0))
def test_entropy_mirror_map_is_softmax_and_satisfies_its_optimality_condition(y, t, shift, total):
    simplex = Simplex(total)
    mirror = fco.Entropy(simplex)
    x = mirror(y, t)
    assert np.all(simplex.contains(x))
    # y - grad h(x) lies in the normal cone of the simplex at x (here: a constant vector, x > 0).
    assert np.all(simplex.in_subdifferential(x, y - mirror.grad_h(x), tol=1e-9))
    assert np.allclose(mirror(y + shift, t), x, rtol=1e-12, atol=1e-15)
    assert np.allclose(mirror(y, 0.0), np.exp(y - 1))  # grad h^*


@given(seed=st.integers(0, 1000), eta=st.floats(0.01, 2.0))
def test_entropic_mirror_descent_is_exponentiated_gradient(seed, eta):
    p = _quadratic(seed)
    mirror = fco.Entropy(Simplex())
    x0 = _start(mirror, seed)
    traj = fco.mirror_descent(ExactGradient(p), mirror, x0, eta, 1, np.random.default_rng(0))
    expected = x0 * np.exp(-eta * p.grad(x0))
    assert np.allclose(traj.final[0], expected / expected.sum(), rtol=1e-12)


@pytest.mark.parametrize("mirror", MIRRORS, ids=MIRROR_IDS)
@given(seed=st.integers(0, 1000), t=weights)
def test_generalized_bregman_divergence(mirror, seed, t):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=(4, D))
    z = mirror(y, t)
    assert np.allclose(mirror.generalized_bregman(z, y, t), 0.0, atol=1e-10)  # D~_g(grad g^*(y), y) = 0
    # Proposition C.10: D~_{h + t psi}(x, y) >= D_h(x, grad (h + t psi)^*(y)) >= 0 for x in dom psi.
    x = mirror(rng.normal(size=(4, D)), 1.0)
    lhs, rhs = mirror.generalized_bregman(x, y, t), mirror.bregman(x, z)
    assert np.all(lhs >= rhs - 1e-9 * (1 + np.abs(lhs))) and np.all(rhs >= -1e-12)
    # (4.24): D~_h(x, grad h(x0)) = D_h(x, x0).
    x0 = _start(mirror, seed)
    assert np.allclose(mirror.generalized_bregman(x, mirror.grad_h(x0), 0.0), mirror.bregman(x, x0), atol=1e-10)


# --- reductions -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm", fco.ALGORITHMS)
@given(
    seed=st.integers(0, 1000),
    M=st.integers(1, 4),
    K=st.integers(1, 3),
    R=st.integers(1, 4),
    eta_s=st.sampled_from([0.5, 1.0, 1.7]),
)
def test_psi_zero_is_fedavg_pathwise(algorithm, seed, M, K, R, eta_s):
    # Algorithm 4 with (eta_c, eta_s) = fedavg.run with eta_server; same generator, same path, to the last bit.
    p = _quadratic(seed, M=M)
    oracle = AdditiveGaussian(p, 0.7)
    x0 = np.random.default_rng(seed).normal(size=D)
    params = fco.CompositeParams(algorithm, 0.1, K, M, eta_s=eta_s)
    traj = fco.run(oracle, fco.Euclidean(), x0, params, R, np.random.default_rng(seed), S=3)
    ref = fedavg.run(oracle, x0, fedavg.FedAvgParams(0.1, K, M, eta_s), R, np.random.default_rng(seed), S=3)
    assert np.array_equal(traj.x, ref.x)
    if params.dual:
        assert np.array_equal(traj.y, ref.x)


@pytest.mark.parametrize("reg", REGULARIZERS, ids=REG_IDS)
@given(seed=st.integers(0, 1000), M=st.integers(2, 4), R=st.integers(1, 4), eta_s=st.sampled_from([0.5, 1.0, 3.0]))
def test_feddualavg_osp_dual_is_fedavg_whatever_psi(reg, seed, M, R, eta_s):
    # Algorithm 8 never lets psi touch the dual state: y^{(r,0)} is FedAvg's iterate, x^{(r,0)} its prox.
    p = _quadratic(seed, M=M)
    oracle, x0 = AdditiveGaussian(p, 0.5), np.zeros(D)
    params = fco.CompositeParams("FedDualAvg-OSP", 0.1, 2, M, eta_s=eta_s)
    traj = fco.run(oracle, fco.Euclidean(reg), x0, params, R, np.random.default_rng(seed), S=2)
    ref = fedavg.run(oracle, x0, fedavg.FedAvgParams(0.1, 2, M, eta_s), R, np.random.default_rng(seed), S=2)
    assert np.array_equal(traj.y, ref.x)
    for r in range(1, R + 1):
        assert np.array_equal(traj.x[r], reg.prox(ref.x[r], fco.eta_tilde(params, r, 0)))


@given(seed=st.integers(0, 1000), M=st.integers(2, 5), K=st.integers(1, 3), R=st.integers(1, 4))
def test_psi_zero_methods_coincide_under_partial_participation(seed, M, K, R):
    p = _quadratic(seed, M=M)
    oracle, x0 = AdditiveGaussian(p, 0.5), np.ones(D)
    C = max(1, M // 2)
    paths = [
        fco.run(
            oracle,
            fco.Euclidean(),
            x0,
            fco.CompositeParams(a, 0.1, K, M, eta_s=1.3, clients_per_round=C),
            R,
            np.random.default_rng(seed),
            S=3,
        ).x
        for a in fco.ALGORITHMS
    ]
    for path in paths[1:]:
        assert np.array_equal(path, paths[0])


def _naive(algorithm, problem, mirror, x0, params, R, rng):
    """The printed pseudo-code of Algorithms 5-8 and FedAvg(subgradient), one client and one step at a time (S = 1,
    exact gradients; the participation draw is the one the vectorised code makes)."""
    M, K, eta_c, eta_s = params.M, params.K, params.eta_c, params.eta_s

    def grad(m, x):
        rows = np.zeros((M, problem.dim))
        rows[m] = x
        return problem.client_grad(rows)[m]

    x, y = x0.copy(), mirror.grad_h(x0)
    for r in range(R):
        if params.full_participation:
            clients = list(range(M))
        else:
            clients = list(np.argsort(rng.random((1, M)), axis=1)[0, : params.clients_per_round])
        deltas = []
        for m in clients:
            if params.dual:
                ym = y.copy()
                for k in range(K):
                    weight = eta_s * eta_c * r * K + eta_c * k if algorithm == "FedDualAvg" else 0.0
                    ym = ym - eta_c * grad(m, mirror(ym, weight))
                deltas.append(ym - y)
            else:
                xm = x.copy()
                for _ in range(K):
                    g = grad(m, xm)
                    if algorithm == "FedAvg(subgradient)":
                        xm = xm - eta_c * g
                        xm = xm - eta_c * mirror.subgradient(xm)
                    else:
                        xm = mirror(mirror.grad_h(xm) - eta_c * g, 0.0 if algorithm == "FedMiD-OSP" else eta_c)
                deltas.append(xm - x)
        delta = np.mean(deltas, axis=0)
        if params.dual:
            y = y + eta_s * delta
            x = mirror(y, eta_s * eta_c * (r + 1) * K)
        elif algorithm == "FedAvg(subgradient)":
            x = x + eta_s * delta
        else:
            x = mirror(mirror.grad_h(x) + eta_s * delta, 0.0 if "no server" in algorithm else eta_s * eta_c * K)
    return x


@pytest.mark.parametrize("mirror", MIRRORS, ids=MIRROR_IDS)
@pytest.mark.parametrize("algorithm", fco.ALGORITHMS)
@settings(max_examples=15)  # 65 parametrizations
@given(seed=st.integers(0, 1000), M=st.integers(1, 4), K=st.integers(1, 3), partial=st.booleans())
def test_vectorised_rounds_match_the_printed_pseudocode(mirror, algorithm, seed, M, K, partial):
    if algorithm == "FedAvg(subgradient)" and not (mirror.euclidean and mirror.psi in SUBDIFFERENTIABLE):
        return
    p = _quadratic(seed, M=M)
    x0 = _start(mirror, seed)
    params = fco.CompositeParams(algorithm, 0.15, K, M, eta_s=1.4, clients_per_round=max(1, M - 1) if partial else None)
    R = 3
    traj = fco.run(ExactGradient(p), mirror, x0, params, R, np.random.default_rng(seed))
    expected = _naive(algorithm, p, mirror, x0, params, R, np.random.default_rng(seed))
    assert np.allclose(traj.final[0], expected, rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("mirror", MIRRORS, ids=MIRROR_IDS)
@given(seed=st.integers(0, 1000), K=st.integers(1, 4), R=st.integers(1, 4))
def test_feddualavg_with_one_client_is_dual_averaging(mirror, seed, K, R):
    # Algorithm 6 with M = 1, eta_s = 1 is regularized dual averaging (4.6) for K R steps, noise included.
    p = _quadratic(seed)
    oracle, x0 = AdditiveGaussian(p, 0.6), _start(mirror, seed)
    params = fco.CompositeParams("FedDualAvg", 0.1, K, 1)
    fed = fco.run(oracle, mirror, x0, params, R, np.random.default_rng(seed), S=2)
    seq = fco.dual_averaging(oracle, mirror, x0, 0.1, K * R, np.random.default_rng(seed), S=2, record_every=K)
    assert np.array_equal(fed.y, seq.y)
    assert np.array_equal(fed.x, seq.x)


@pytest.mark.parametrize("reg", REGULARIZERS, ids=REG_IDS)
@given(seed=st.integers(0, 1000), M=st.integers(1, 4), R=st.integers(1, 5))
def test_one_local_step_is_the_minibatch_sequential_method(reg, seed, M, R):
    # K = 1, eta_s = 1: FedDualAvg is minibatch RDA (4.6); FedMiD-OSP is minibatch PGM (4.3).
    p = _quadratic(seed, M=M)
    oracle, mirror, x0 = AdditiveGaussian(p, 0.6), fco.Euclidean(reg), np.zeros(D)
    da = fco.run(oracle, mirror, x0, fco.CompositeParams("FedDualAvg", 0.2, 1, M), R, np.random.default_rng(seed))
    rda = fco.dual_averaging(oracle, mirror, x0, 0.2, R, np.random.default_rng(seed), M=M)
    assert np.allclose(da.x, rda.x, rtol=1e-12, atol=1e-12) and np.allclose(da.y, rda.y, rtol=1e-12, atol=1e-12)
    osp = fco.run(oracle, mirror, x0, fco.CompositeParams("FedMiD-OSP", 0.2, 1, M), R, np.random.default_rng(seed))
    pgm = fco.proximal_gradient(oracle, mirror, x0, 0.2, R, np.random.default_rng(seed), M=M)
    assert np.allclose(osp.x, pgm.x, rtol=1e-12, atol=1e-12)


@given(seed=st.integers(0, 1000), R=st.integers(1, 5), eta=st.floats(0.01, 0.5))
def test_fedmid_with_one_client_and_one_step(seed, R, eta):
    # FedMiD (M = K = 1, eta_s = 1) applies the prox twice per step: for an indicator (a projection) that is PGM (the
    # sanity check after Algorithm 5); for lam ||.||_1 it is PGM on 2 lam ||.||_1 since S_a o S_a = S_{2a}.
    p = _quadratic(seed)
    oracle, x0 = AdditiveGaussian(p, 0.5), np.ones(D)
    for reg, twice in [(L2Ball(1.0), L2Ball(1.0)), (Box(-0.5, 0.8), Box(-0.5, 0.8)), (L1(0.3), L1(0.6))]:
        mid = fco.run(
            oracle, fco.Euclidean(reg), x0, fco.CompositeParams("FedMiD", eta, 1, 1), R, np.random.default_rng(seed)
        )
        pgm = fco.proximal_gradient(oracle, fco.Euclidean(twice), x0, eta, R, np.random.default_rng(seed))
        assert np.allclose(mid.x, pgm.x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("reg", INDICATORS, ids=[type(r).__name__ for r in INDICATORS])
@given(seed=st.integers(0, 1000), M=st.integers(1, 4), K=st.integers(1, 4), partial=st.booleans())
def test_fedmid_with_a_constraint_is_parallel_projected_sgd(reg, seed, M, K, partial):
    # alg-5:sanity: psi = chi_C, eta_s = 1, Euclidean h.
    p = _quadratic(seed, M=M)
    oracle, x0, S = AdditiveGaussian(p, 0.5), reg.project(np.ones(D)), 2
    partial = partial and M > 1
    C = M - 1 if partial else None
    params = fco.CompositeParams("FedMiD", 0.2, K, M, clients_per_round=C)
    traj = fco.run(oracle, fco.Euclidean(reg), x0, params, 3, np.random.default_rng(seed), S=S)
    rng, x = np.random.default_rng(seed), np.tile(x0, (S, 1))
    for _ in range(3):
        mask = np.ones((S, M), dtype=bool)
        if partial:
            chosen = np.argsort(rng.random((S, M)), axis=1)[:, :C]
            mask = np.zeros((S, M), dtype=bool)
            np.put_along_axis(mask, chosen, True, axis=1)
        z = np.repeat(x[:, None, :], M, axis=1)
        for _ in range(K):
            z = reg.project(z - 0.2 * oracle(z, rng))
        x = np.stack([z[s][mask[s]].mean(axis=0) for s in range(S)])
    assert np.allclose(traj.final, x, rtol=1e-12, atol=1e-12)


def test_fedavg_subgradient_takes_the_sign_after_the_sgd_step():
    p = _quadratic(0)
    x0 = np.array([1.0, -1.0, 0.0, 2.0, -0.5, 0.05])
    traj = fco.run(
        ExactGradient(p), fco.Euclidean(L1(0.3)), x0, fco.CompositeParams("FedAvg(subgradient)", 0.1, 1, 1), 1, None
    )
    step = x0 - 0.1 * p.grad(x0)
    assert np.allclose(traj.final[0], step - 0.1 * 0.3 * np.sign(step), rtol=1e-15)


def test_printed_server_step_of_fedmid_adds_a_primal_delta_to_a_dual_point():
    # For non-Euclidean h, Algorithms 5/7 as printed are not mirror descent even with M = K = 1,
    # eta_s = 1: grad h(x0) + (x1 - x0) != grad h(x1). Euclidean h is the only geometry where the two coincide.
    p = _quadratic(1)
    x0 = np.random.default_rng(1).normal(size=D)
    for mirror, equal in [(fco.PNorm(1.5), False), (fco.Euclidean(), True)]:
        fed = fco.run(ExactGradient(p), mirror, x0, fco.CompositeParams("FedMiD-OSP", 0.1, 1, 1), 1, None)
        md = fco.mirror_descent(ExactGradient(p), mirror, x0, 0.1, 1, None)
        assert np.allclose(fed.final, md.final, rtol=1e-12, atol=1e-12) == equal


# --- dual-averaging invariants ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("mirror", MIRRORS, ids=MIRROR_IDS)
@given(seed=st.integers(0, 1000), M=st.integers(1, 4), K=st.integers(1, 4), partial=st.booleans())
def test_dual_shadow_identity_eq_4_14(mirror, seed, M, K, partial):
    # ybar^{(r,k+1)} = ybar^{(r,k)} - eta_c mean_m g_m^{(r,k)} whatever psi; ybar^{(r,K)} = y^{(r+1,0)} (eta_s = 1).
    p = _quadratic(seed, M=M)
    params = fco.CompositeParams("FedDualAvg", 0.1, K, M, clients_per_round=max(1, M - 1) if partial else None)
    state = fco.init(_start(mirror, seed), mirror, params, S=2)
    rng = np.random.default_rng(seed)
    for r in range(3):
        new, tr = fco.round(state, AdditiveGaussian(p, 0.5), mirror, params, rng, trace=True)
        ybar = np.einsum("sm,ksmd->ksd", tr.weights, tr.y)
        gbar = np.einsum("sm,ksmd->ksd", tr.weights, tr.g)
        assert np.allclose(ybar[1:], ybar[:-1] - 0.1 * gbar, rtol=1e-12, atol=1e-12)
        assert np.allclose(ybar[-1], new.y, rtol=1e-12, atol=1e-12)
        assert np.allclose(fco.shadow_primals(tr, mirror, params, r)[0], state.x, rtol=1e-12, atol=1e-12)
        state = new


@given(r=st.integers(0, 50), K=st.integers(1, 20), eta_c=st.floats(1e-3, 1.0), eta_s=st.floats(0.1, 10.0))
def test_psi_weight_bookkeeping(r, K, eta_c, eta_s):
    params = fco.CompositeParams("FedDualAvg", eta_c, K, 1, eta_s=eta_s)
    assert np.isclose(fco.eta_tilde(params, r, 0), eta_s * eta_c * r * K, rtol=1e-14)
    jump = fco.eta_tilde(params, r + 1, 0) - fco.eta_tilde(params, r, K)  # the jump at a round boundary
    assert np.isclose(jump, eta_c * K * (eta_s - 1), rtol=1e-9, atol=1e-12 * (1 + eta_s * eta_c * r * K))
    unit = fco.CompositeParams("FedDualAvg", eta_c, K, 1)
    assert fco.eta_tilde(unit, r, K) == fco.eta_tilde(unit, r + 1, 0)


@given(seed=st.integers(0, 1000), M=st.integers(1, 3), K=st.integers(1, 3), R=st.integers(1, 4))
def test_ergodic_output_eq_4_9(seed, M, K, R):
    p = _quadratic(seed, M=M)
    mirror, oracle = fco.Euclidean(L1(0.2)), AdditiveGaussian(p, 0.5)
    params = fco.CompositeParams("FedDualAvg", 0.1, K, M)
    traj = fco.run(oracle, mirror, np.zeros(D), params, R, np.random.default_rng(seed), S=2, ergodic=True)
    state, rng, shadows = fco.init(np.zeros(D), mirror, params, S=2), np.random.default_rng(seed), []
    for r in range(R):
        state, tr = fco.round(state, oracle, mirror, params, rng, trace=True)
        shadows.append(fco.shadow_primals(tr, mirror, params, r)[1:])
    assert np.allclose(traj.x_hat[-1], np.concatenate(shadows).mean(axis=0), rtol=1e-12, atol=1e-13)
    assert np.all(np.isnan(traj.x_hat[0]))
    assert np.allclose(traj.x, fco.run(oracle, mirror, np.zeros(D), params, R, np.random.default_rng(seed), S=2).x)


# --- fixed points -----------------------------------------------------------------------------------------------------
def _one_round(p, mirror, x, y, params, r=0):
    state = fco.CompositeState(np.atleast_2d(x), None if y is None else np.atleast_2d(y), r)
    return fco.round(state, ExactGradient(p), mirror, params, np.random.default_rng(r))


@given(seed=st.integers(0, 1000), M=st.integers(1, 4), K=st.integers(1, 5), eta=st.floats(0.05, 1.0))
def test_fedavg_fixed_point_is_fixed(seed, M, K, eta):
    p = _quadratic(seed, M=M)
    eta_c = eta / p.L
    x_inf = fco.fedavg_fixed_point(p, eta_c, K)
    nxt = fedavg.round(fedavg.FedAvgState(x_inf[None]), ExactGradient(p), fedavg.FedAvgParams(eta_c, K, M, 1.7), None)
    assert np.allclose(nxt.x[0], x_inf, rtol=1e-10, atol=1e-10)
    # spec 4.4 as printed: [sum_m (I - T_m^K)]^{-1} sum_m (I - T_m^K) x_m^*
    T = np.eye(D) - eta_c * p.A
    I_TK = np.eye(D) - np.linalg.matrix_power(T, K)
    xm = np.linalg.solve(p.A, p.b[..., None])[..., 0]
    assert np.allclose(x_inf, np.linalg.solve(I_TK.sum(0), np.einsum("mij,mj->i", I_TK, xm)), rtol=1e-8, atol=1e-9)


OSP_CASES = [(0, 1, 5), (1, 3, 3), (2, 4, 1), (3, 2, 8)]  # (seed, M, K)
OSP_REGS = [L1(0.3), ElasticNet(0.2, 0.5), L2Ball(0.5), Masked(L1(0.4), np.arange(D) < 4)]


@pytest.mark.parametrize("reg", OSP_REGS, ids=["l1", "enet", "ball", "masked"])
@pytest.mark.parametrize("eta_s", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("seed,M,K", OSP_CASES)
def test_fedmid_osp_fixed_point_is_fixed(reg, eta_s, seed, M, K):
    p = _quadratic(seed, M=M)
    mirror, eta_c = fco.Euclidean(reg), 0.2 / p.L
    ref = fco.fedmid_osp_fixed_point(p, mirror, eta_c, K)
    assert ref.certificate["kkt_residual"] < 1e-13
    nxt = _one_round(p, mirror, ref.x, None, fco.CompositeParams("FedMiD-OSP", eta_c, K, M, eta_s=eta_s))
    assert np.allclose(nxt.x[0], ref.x, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("reg", [L1(0.3), L2Ball(0.5)], ids=["l1", "ball"])
@pytest.mark.parametrize("seed,M,K", OSP_CASES[1::2])
def test_fedmid_osp_run_converges_to_its_fixed_point(reg, seed, M, K):
    p = _quadratic(seed, M=M)
    mirror, eta_c = fco.Euclidean(reg), 0.2 / p.L
    ref = fco.fedmid_osp_fixed_point(p, mirror, eta_c, K)
    params = fco.CompositeParams("FedMiD-OSP", eta_c, K, M)
    traj = fco.run(ExactGradient(p), mirror, np.zeros(D), params, 1500, None, record_every=1500)
    assert np.allclose(traj.final[0], ref.x, rtol=1e-9, atol=1e-10)


def test_fedmid_osp_surrogate_of_identical_clients():
    p, eta_c, K = _quadratic(4), 0.05, 7
    H = fco.fedmid_osp_surrogate(p, eta_c, K).A_mean
    expected = (np.eye(D) - np.linalg.matrix_power(np.eye(D) - eta_c * p.A[0], K)) / (eta_c * K)
    assert np.allclose(H, expected, rtol=1e-12, atol=1e-14)
    assert np.allclose(fco.fedmid_osp_surrogate(p, 1e-9, K).A_mean, p.A[0], rtol=1e-6)  # H_K -> A as eta_c -> 0


@pytest.mark.parametrize(
    "mirror", [fco.Euclidean(L1(0.3)), fco.Euclidean(L2Ball(0.5)), fco.PNorm(1.5, L1(0.3))], ids=["l1", "ball", "pnorm"]
)
@pytest.mark.parametrize(
    "seed,M,K,eta_s,C", [(0, None, 5, 1.0, None), (1, None, 3, 2.5, None), (2, 4, 1, 1.5, None), (3, None, 2, 0.7, 2)]
)
def test_feddualavg_consistent_dual_is_invariant(mirror, seed, M, K, eta_s, C):
    p = _quadratic(seed, M=M)
    M = M or 3
    x_star = fco.fedmid_osp_fixed_point(p, fco.Euclidean(mirror.psi), 0.1 / p.L, 1).x  # K = 1: argmin F + psi
    params = fco.CompositeParams("FedDualAvg", 0.2 / p.L, K, M, eta_s=eta_s, clients_per_round=C)
    for r in (0, 1, 7):
        y = fco.feddualavg_consistent_dual(p, mirror, x_star, params, r)
        nxt = _one_round(p, mirror, mirror(y, fco.eta_tilde(params, r, 0)), y, params, r)
        assert np.allclose(nxt.y[0], fco.feddualavg_consistent_dual(p, mirror, x_star, params, r + 1), atol=1e-12)
        assert np.allclose(nxt.x[0], x_star, atol=1e-10)


def test_consistent_dual_needs_identical_clients_or_one_step():
    p = _quadratic(0, M=3)
    with pytest.raises(InvalidParameterError, match="K"):
        fco.feddualavg_consistent_dual(p, fco.Euclidean(), np.zeros(D), fco.CompositeParams("FedDualAvg", 0.1, 2, 3), 0)
    with pytest.raises(InvalidParameterError, match="params"):
        fco.feddualavg_consistent_dual(
            p, fco.Euclidean(), np.zeros(D), fco.CompositeParams("FedDualAvg-OSP", 0.1, 1, 3), 0
        )


# --- errors -----------------------------------------------------------------------------------------------------------
def _params(**kw):
    return lambda: fco.CompositeParams(**{"algorithm": "FedDualAvg", "eta_c": 0.1, "K": 2, "M": 3, **kw})


BAD = [
    (_params(algorithm="FedProx"), "algorithm"),
    (_params(eta_c=0.0), "eta_c"),
    (_params(eta_c=np.nan), "eta_c"),
    (_params(eta_s=-1.0), "eta_s"),
    (_params(K=0), "K"),
    (_params(M=1.5), "M"),
    (_params(clients_per_round=4), "clients_per_round"),
    (_params(clients_per_round=0), "clients_per_round"),
    (lambda: fco.Euclidean(L1(0.1))(np.zeros(3), -1.0), "t"),
    (lambda: fco.Euclidean(NuclearNorm(0.1)), "psi"),
    (lambda: fco.Euclidean("l1"), "psi"),
    (lambda: fco.PNorm(1.0), "p"),
    (lambda: fco.PNorm(2.5), "p"),
    (lambda: fco.PNorm(1.5, L2Ball(1.0)), "psi"),
    (lambda: fco.PNorm(1.5, scale=0.0), "scale"),
    (lambda: fco.Entropy(L1(0.1)), "psi"),
    (lambda: fco.init(np.array([0.5, 0.0, 0.5]), fco.Entropy(Simplex()), _params()()), "x0"),
    (lambda: fco.init(np.array([0.5, np.inf]), fco.Euclidean(), _params()()), "x0"),
    (lambda: fco.run(ExactGradient(_quadratic(0, M=3)), fco.Euclidean(), np.zeros(D), _params(M=2)(), 1, None), "M"),
    (lambda: fco.run(ExactGradient(_quadratic(0)), fco.Euclidean(), np.zeros(D), _params()(), -1, None), "R"),
    (lambda: fco.run(ExactGradient(_quadratic(0)), fco.Euclidean(), np.zeros(3), _params()(), 1, None), "x0"),
    (lambda: fco.run(ExactGradient(_quadratic(0)), None, np.zeros(D), _params()(), 1, None), "mirror"),
    (
        lambda: fco.run(
            ExactGradient(_quadratic(0)),
            fco.Euclidean(),
            np.zeros(D),
            _params(algorithm="FedMiD")(),
            1,
            None,
            ergodic=True,
        ),
        "ergodic",
    ),
    (
        lambda: fco.run(
            ExactGradient(_quadratic(0)),
            fco.PNorm(1.5),
            np.zeros(D),
            _params(algorithm="FedAvg(subgradient)")(),
            1,
            None,
        ),
        "mirror",
    ),
    (
        lambda: fco.run(
            ExactGradient(_quadratic(0)),
            fco.Euclidean(L2Ball(1.0)),
            np.zeros(D),
            _params(algorithm="FedAvg(subgradient)")(),
            1,
            None,
        ),
        "psi",
    ),
    (lambda: fco.proximal_gradient(ExactGradient(_quadratic(0)), fco.PNorm(1.5), np.zeros(D), 0.1, 1, None), "mirror"),
    (lambda: fco.dual_averaging(ExactGradient(_quadratic(0)), fco.Euclidean(), np.zeros(D), 0.0, 1, None), "eta"),
    (lambda: fco.mirror_descent(ExactGradient(_quadratic(0)), fco.Euclidean(), np.zeros(D), 0.1, 1, None, M=0), "M"),
    (lambda: fco.fedavg_fixed_point(_quadratic(0), 10.0, 2), "eta_c"),
    (lambda: fco.fedavg_fixed_point(_quadratic(0), 0.1, 0), "K"),
    (lambda: fco.fedmid_osp_surrogate(object(), 0.1, 2), "problem"),
    (lambda: fco.fedmid_osp_fixed_point(_quadratic(0), fco.PNorm(1.5, L1(0.1)), 0.1, 2), "mirror"),
]


@pytest.mark.parametrize("call,name", BAD, ids=[f"{n}-{i}" for i, (_, n) in enumerate(BAD)])
def test_bad_parameters_raise_naming_the_parameter(call, name):
    with pytest.raises(InvalidParameterError) as err:
        call()
    assert err.value.name == name


@pytest.mark.parametrize("algorithm", fco.ALGORITHMS)
def test_divergence_reports_the_round(algorithm):
    p = _quadratic(0)
    params = fco.CompositeParams(algorithm, 5.0 / p.L, 3, 2)
    with pytest.raises(DivergenceError, match=r"diverged at round \d+") as err:
        fco.run(ExactGradient(p), fco.Euclidean(L1(0.1)), np.ones(D), params, 500, None)
    assert err.value.algorithm == algorithm and 1 <= err.value.round < 500
