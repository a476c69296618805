"""Chapter-4 data: composite generators, the certified composite reference, the masked regularizer, metrics."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from rounding import gamma, prox_distance_bound, svd_error

from fedtheory.errors import InvalidParameterError, ReferenceSolveError
from fedtheory.oracles import Minibatch
from fedtheory.problems import (
    AveragingExample,
    FederatedQuadratic,
    Lasso,
    MeanSquaredError,
    density,
    federated_lasso,
    federated_low_rank,
    recovered_rank,
    sparse_logistic_sessions,
    sparse_regression_data,
    support_recovery,
)
from fedtheory.problems.composite_data import intercept_mask, with_intercept
from fedtheory.reference import composite_optimum, lasso_optimum, prox_reference
from fedtheory.regularizers import L1, Box, ElasticNet, L1Ball, L2Ball, Masked, NuclearNorm, Simplex, SquaredL2


def small_lasso(seed=0):
    return federated_lasso(np.random.default_rng(seed), d1=4, d0=12, n_clients=5, n_per_client=30)


# --- generators -----------------------------------------------------------------------------------------------------
def test_lasso_generator_follows_its_recipe_draw_for_draw():
    data = small_lasso(7)
    rng = np.random.default_rng(7)  # documented draw order: x0, mu, delta, eps
    x0 = rng.standard_normal()
    mu = rng.standard_normal((5, 16))
    a = mu[:, None, :] + rng.standard_normal((5, 30, 16))
    b = a @ np.r_[np.ones(4), np.zeros(12)] + x0 + rng.standard_normal((5, 30))
    assert data.intercept_real == x0
    np.testing.assert_array_equal(data.client_means, mu)
    np.testing.assert_array_equal(data.features, a)
    np.testing.assert_array_equal(data.targets, b)
    np.testing.assert_array_equal(data.smooth.features[..., -1], 1.0)
    np.testing.assert_array_equal(data.x_real, np.r_[np.ones(4), np.zeros(12)])
    np.testing.assert_array_equal(data.truth, np.r_[data.x_real, x0])
    assert data.smooth.n_clients == 5 and data.smooth.n_samples == 30 and data.smooth.dim == 17


def test_generators_are_reproducible_and_seed_dependent():
    a, b, c = small_lasso(3), small_lasso(3), small_lasso(4)
    np.testing.assert_array_equal(a.smooth.features, b.smooth.features)
    np.testing.assert_array_equal(a.targets, b.targets)
    assert not np.array_equal(a.targets, c.targets)
    lr1 = federated_low_rank(np.random.default_rng(1), d=4, rank=2, n_clients=3, n_per_client=5)
    lr2 = federated_low_rank(np.random.default_rng(1), d=4, rank=2, n_clients=3, n_per_client=5)
    np.testing.assert_array_equal(lr1.smooth.features, lr2.smooth.features)
    s1, s2 = (sparse_logistic_sessions(np.random.default_rng(5), dim=12, n_nonzero=3) for _ in range(2))
    np.testing.assert_array_equal(s1.train.labels, s2.train.labels)


def test_low_rank_generator_follows_the_printed_recipe():
    data = federated_low_rank(np.random.default_rng(2), d=5, rank=2, n_clients=3, n_per_client=7)
    rng = np.random.default_rng(2)
    x0 = rng.standard_normal()
    mu = rng.standard_normal((3, 5, 5))
    A = mu[:, None] + rng.standard_normal((3, 7, 5, 5))
    X_real = np.diag([1.0, 1.0, 0.0, 0.0, 0.0])
    b = np.einsum("mnij,ij->mn", A, X_real) + x0 + rng.standard_normal((3, 7))
    np.testing.assert_array_equal(data.X_real, X_real)
    np.testing.assert_array_equal(data.client_means, mu)
    np.testing.assert_array_equal(data.smooth.features[..., :-1], A.reshape(3, 7, 25))  # vec in C order
    np.testing.assert_allclose(data.smooth.targets, b, rtol=0, atol=1e-12)
    X, icpt = data.split(data.truth)
    np.testing.assert_array_equal(X, X_real)
    assert icpt == x0 and recovered_rank(X, cutoff=1e-2) == 2
    # the regularizer is lam ||X||_nuc of the matrix block and ignores the intercept
    x = np.random.default_rng(0).standard_normal((4, 26))
    X, _ = data.split(x)
    np.testing.assert_allclose(data.regularizer(0.3).value(x), NuclearNorm(0.3).value(X), rtol=1e-14)


def test_sparse_logistic_sessions_layout():
    data = sparse_logistic_sessions(np.random.default_rng(0), n_subjects=4, sessions=3, scans=6, dim=10, n_nonzero=2)
    assert data.train.features.shape == (9, 6, 11) and data.validation.features.shape == (3, 6, 11)
    np.testing.assert_array_equal(data.train.features[..., -1], 1.0)
    np.testing.assert_array_equal(data.subject, np.repeat([0, 1, 2], 3))
    np.testing.assert_array_equal(data.w_real, np.r_[0.6, 0.6, np.zeros(8)])
    assert set(np.unique(data.train.labels)) <= {-1.0, 1.0}
    with pytest.raises(InvalidParameterError, match="n_subjects"):
        sparse_logistic_sessions(np.random.default_rng(0), n_subjects=1)


def test_intercept_is_unpenalised():
    data = small_lasso(1)
    reg = data.regularizer(0.4)
    x = np.random.default_rng(0).standard_normal(17)
    y = x.copy()
    y[-1] += 100.0
    assert reg.value(x) == reg.value(y) == pytest.approx(0.4 * np.abs(x[:-1]).sum(), rel=1e-14)
    # above lam_max = ||grad_w F(0, mean b)||_inf the optimum is (0, mean b) exactly: the intercept is free
    z = np.r_[np.zeros(16), data.targets.mean()]
    lam_max = float(np.max(np.abs(data.smooth.grad(z)[:-1])))
    ref = data.problem(1.01 * lam_max).solve()
    w, icpt = data.split(ref.x)
    np.testing.assert_array_equal(w, 0.0)
    assert icpt == pytest.approx(data.targets.mean(), abs=1e-12)
    w, _ = data.split(data.problem(0.9 * lam_max).solve().x)
    assert np.count_nonzero(w) > 0


# --- the smooth part ------------------------------------------------------------------------------------------------
def test_mean_squared_error_is_the_printed_loss_without_one_half():
    data = small_lasso(2)
    F = data.smooth
    x = np.random.default_rng(1).standard_normal((3, 17))
    r = np.einsum("mnp,sp->smn", F.features, x) - F.targets
    np.testing.assert_allclose(F.value(x), np.mean(r**2, axis=(1, 2)), rtol=1e-13)
    quad = 0.5 * np.einsum("si,ij,sj->s", x, F.A_mean, x) - x @ F.b_mean + F.value(np.zeros(17))
    np.testing.assert_allclose(F.value(x), quad, rtol=1e-11)
    xs = np.broadcast_to(x[:, None, :], (3, 5, 17))
    np.testing.assert_allclose(F.client_grad(xs).mean(axis=1), F.grad(x), rtol=1e-11, atol=1e-12)
    eps = 1e-6 * np.eye(17)[4]
    fd = (F.value(x[0] + eps) - F.value(x[0] - eps)) / 2e-6
    assert fd == pytest.approx(F.grad(x[0])[4], rel=1e-6)
    hess = 2 * np.einsum("mni,mnj->mij", F.features, F.features) / F.n_samples
    assert F.L == pytest.approx(np.max(np.linalg.eigvalsh(hess)[:, -1]), rel=1e-12)
    assert F.mu == pytest.approx(np.linalg.eigvalsh(F.A_mean)[0], rel=1e-12)
    np.testing.assert_allclose(F.grad(F.x_star), 0.0, atol=1e-10)


def test_minibatches_full_batch_and_partial_participation():
    F = small_lasso(3).smooth
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 17))
    all_rows = np.broadcast_to(np.arange(30), (2, 5, 30))
    np.testing.assert_allclose(F.sample_grad(x, all_rows), F.client_grad(x), rtol=1e-12, atol=1e-12)
    clients = np.array([[4, 1], [0, 2]])  # replica-dependent sampled clients
    idx = rng.integers(0, 30, size=(2, 2, 3))
    g = F.sample_grad(x[:, :2], idx, clients=clients)
    for s in range(2):
        for j in range(2):
            Z, y = F.features[clients[s, j], idx[s, j]], F.targets[clients[s, j], idx[s, j]]
            np.testing.assert_allclose(g[s, j], 2 * Z.T @ (Z @ x[s, j] - y) / 3, rtol=1e-12)
    assert Minibatch(F, 10)(x, rng).shape == (2, 5, 17)
    with pytest.raises(InvalidParameterError, match="clients"):
        F.sample_grad(x[:, :2], idx, clients=np.array([5, 0]))


# --- the composite reference ----------------------------------------------------------------------------------------
def test_composite_reference_matches_lasso_optimum():
    ls, _ = sparse_regression_data(np.random.default_rng(0), n_clients=3, n_per_client=10, dim=12, n_nonzero=3)
    lasso = Lasso(ls, 0.05)
    old, new = lasso_optimum(lasso), composite_optimum(ls, L1(0.05))
    assert new.certificate["kkt_residual"] <= 1e-12
    assert new.certificate["distance_bound"] <= 1e-9

    def rounding(x):  # F(x) + lam ||x||_1 = x'A x/2 - b'x + c + lam ||x||_1: gamma_{2d+4} of its absolute terms
        terms = np.abs(x) @ np.abs(ls.A_mean) @ np.abs(x) / 2 + np.abs(ls.b_mean) @ np.abs(x) + abs(ls.c.mean())
        return gamma(2 * ls.dim + 4) * (terms + 0.05 * np.abs(x).sum())

    # lasso_optimum's numpy duality gap brackets F*: old.value - gap <= F* <= new.value <= old.value
    slack = rounding(old.x) + rounding(new.x)
    assert old.value - old.certificate["lasso_duality_gap"] - slack <= new.value <= old.value + slack
    # new.x is within its distance_bound db of x* (so new.value - F* <= (||grad F|| + lam sqrt(d)) db + L db^2/2);
    # old.x is certified by its value only: F is mu-strongly convex (mu = lambda_min(A'A/n) > 0 here), so
    # ||old.x - x*||^2 <= 2 (old.value - F*)/mu
    db = new.certificate["distance_bound"]
    lipschitz = np.linalg.norm(ls.A_mean @ new.x - ls.b_mean) + 0.05 * np.sqrt(ls.dim)
    excess = max(old.value - new.value, 0.0) + slack + lipschitz * db + ls.L * db**2 / 2
    assert np.linalg.norm(new.x - old.x) <= db + np.sqrt(2 * excess / ls.mu)


def test_composite_reference_constrained_closed_forms():
    rng = np.random.default_rng(1)
    c = rng.standard_normal((3, 6)) * 3
    F = FederatedQuadratic(np.eye(6), c)  # F = ||x - mean c||^2/2 + const: the optimum is a projection
    # composite_optimum certifies ||x - x*|| <= distance_bound ((L/mu) kkt_residual); the closed forms are a few
    # flops on numbers <= 10 (gamma_16 each), so they are within 1e-13 of x*
    for reg in (L2Ball(0.7), L1Ball(1.2), Box(-0.3, 0.4), Simplex(1.0)):
        ref = composite_optimum(F, reg)
        closed = reg.project(c.mean(axis=0))
        assert np.linalg.norm(ref.x - closed) <= ref.certificate["distance_bound"] + 1e-13
        assert ref.certificate["kkt_residual"] <= 1e-12  # the polish stops at its floor 1e-15 max(1, ||x||)
    D = np.diag(rng.uniform(0.5, 3.0, 6))  # separable: clip(A^-1 b, lo, hi)
    b = rng.standard_normal(6)
    ref = composite_optimum(FederatedQuadratic(D, b), Box(-0.2, 0.3))
    closed = np.clip(b / np.diag(D), -0.2, 0.3)
    assert np.linalg.norm(ref.x - closed) <= ref.certificate["distance_bound"] + 1e-13


def test_composite_reference_nuclear_norm_closed_form():
    C = np.random.default_rng(2).standard_normal((4, 3, 5))
    F = FederatedQuadratic(np.eye(15), C.reshape(4, 15))
    ref = composite_optimum(F, NuclearNorm(0.9), shape=(3, 5))
    # the certified distance, plus the closed form's SVD (backward stable: the prox moves by <= 2 svd_error, the
    # soft-thresholding being 1-Lipschitz in the singular values, and the reassembly by gamma_8 |U||S||V'|)
    mean = C.mean(axis=0)
    closed = NuclearNorm(0.9).prox(mean, 1.0)
    svd_part = 2 * np.sqrt(3) * svd_error(mean) + gamma(8) * np.linalg.norm(mean, "fro")
    assert np.linalg.norm(ref.x.reshape(3, 5) - closed) <= ref.certificate["distance_bound"] + svd_part
    masked = Masked(NuclearNorm(0.9), np.ones(15, dtype=bool), shape=(3, 5))
    other = composite_optimum(F, masked)
    assert np.linalg.norm(other.x - ref.x) <= ref.certificate["distance_bound"] + other.certificate["distance_bound"]


def test_composite_reference_on_the_generated_tasks():
    lr = federated_low_rank(np.random.default_rng(3), d=4, rank=1, n_clients=6, n_per_client=20)
    ref = lr.problem(0.5).solve()
    assert ref.certificate["kkt_residual"] <= 1e-12 and ref.certificate["duality_gap"] <= 1e-7
    X, _ = lr.split(ref.x)
    assert recovered_rank(X, cutoff=1e-2) <= 4
    logit = sparse_logistic_sessions(np.random.default_rng(4), n_subjects=3, sessions=3, scans=10, dim=8, n_nonzero=2)
    ref = logit.problem(0.05).solve()
    assert ref.certificate["kkt_residual"] <= 1e-12
    assert ref.value == pytest.approx(float(logit.problem(0.05).value(ref.x)), rel=1e-15)


def test_composite_reference_raises_when_the_certificate_is_worse_than_requested():
    ls, _ = sparse_regression_data(np.random.default_rng(0), n_clients=3, n_per_client=10, dim=12, n_nonzero=3)
    with pytest.raises(ReferenceSolveError, match="proximal-gradient residual"):
        composite_optimum(ls, L1(0.05), kkt_tol=1e-30, polish=0)
    with pytest.raises(InvalidParameterError, match="shape"):
        composite_optimum(ls, L1(0.05), shape=(5, 2))
    with pytest.raises(InvalidParameterError, match="smooth"):
        composite_optimum(object(), L1(0.05))


# --- the masked regularizer -----------------------------------------------------------------------------------------
INNER = [L1(0.7), SquaredL2(1.3), ElasticNet(0.5, 0.8), Box(-1.0, 0.5), L2Ball(1.5), L1Ball(2.0), Simplex(1.0)]
INNER_IDS = [type(r).__name__ for r in INNER]


@st.composite
def masked_inputs(draw):
    d = draw(st.integers(2, 7))
    mask = draw(arrays(bool, d))
    if not mask.any():
        mask[draw(st.integers(0, d - 1))] = True
    v = draw(arrays(np.float64, d, elements=st.floats(-5, 5, allow_nan=False, width=64)))
    return mask, v, draw(st.floats(0.05, 5.0))


@pytest.mark.parametrize("inner", INNER, ids=INNER_IDS)
@given(data=masked_inputs())
def test_masked_prox_keeps_free_coordinates_and_is_optimal(inner, data):
    mask, v, t = data
    reg = Masked(inner, mask)
    p = reg.prox(v, t)
    np.testing.assert_array_equal(p[~mask], v[~mask])
    np.testing.assert_array_equal(p[mask], inner.prox(v[mask], t))
    assert reg.check_prox(v, t)
    assert reg.value(p) == inner.value(p[mask])


@given(data=masked_inputs())
def test_masked_subdifferential_needs_zero_on_free_coordinates(data):
    mask, v, t = data
    if mask.all():
        return
    reg = Masked(L1(0.7), mask)
    p = reg.prox(v, t)
    g = (v - p) / t
    assert reg.in_subdifferential(p, g)
    g[np.flatnonzero(~mask)[0]] += 1e-3
    assert not reg.in_subdifferential(p, g)


@given(m=arrays(np.float64, (2, 13), elements=st.floats(-3, 3)), t=st.floats(0.1, 3.0))
def test_masked_nuclear_norm_is_vectorised_and_optimal(m, t):
    reg = Masked(NuclearNorm(0.6), intercept_mask(13), shape=(3, 4))
    p = reg.prox(m, t)
    np.testing.assert_array_equal(p[:, -1], m[:, -1])
    np.testing.assert_allclose(p[:, :-1].reshape(2, 3, 4), NuclearNorm(0.6).prox(m[:, :-1].reshape(2, 3, 4), t))
    assert np.all(reg.check_prox(m, t, tol=1e-7))
    assert reg.value(m).shape == (2,)


@pytest.mark.parametrize("inner", [*INNER, NuclearNorm(0.4)], ids=[*INNER_IDS, "NuclearNorm"])
@settings(max_examples=5)
@given(seed=st.integers(0, 10_000), t=st.floats(0.1, 3.0))
def test_masked_prox_agrees_with_cvxpy(inner, seed, t):
    rng = np.random.default_rng(seed)
    shape = (2, 3) if isinstance(inner, NuclearNorm) else None
    mask = np.r_[True, False, np.ones(5, dtype=bool)]
    reg = Masked(inner, mask, shape=shape)
    v = rng.normal(scale=2.0, size=7)
    closed, ref = reg.prox(v, t), prox_reference(reg, v, t)
    # prox_reference's solve accepts a duality gap up to 1e-8 max(1, |phi|): the distance it certifies comes from phi
    nuclear = (lambda z: 0.4 * min(shape) * svd_error(z[mask].reshape(shape))) if shape else None
    assert np.linalg.norm(closed - ref.x) <= prox_distance_bound(reg, v, t, closed, ref.x, nuclear=nuclear)


def test_masked_rejects_bad_arguments():
    with pytest.raises(InvalidParameterError, match="penalized"):
        Masked(L1(1.0), np.zeros(3, dtype=bool))
    with pytest.raises(InvalidParameterError, match="penalized"):
        Masked(L1(1.0), [1, 0, 1])
    with pytest.raises(InvalidParameterError, match="shape"):
        Masked(NuclearNorm(1.0), intercept_mask(7), shape=(2, 2))
    with pytest.raises(InvalidParameterError, match="inner"):
        Masked("l1", intercept_mask(3))
    with pytest.raises(InvalidParameterError, match="invalid v"):
        Masked(L1(1.0), intercept_mask(3)).prox(np.ones(4), 1.0)


# --- primal-averaging constructions ---------------------------------------------------------------------------------
def test_curved_constraint_average_leaves_the_sphere():
    ex = AveragingExample([[3.0, 1.0], [3.0, -1.0]], L2Ball(1.0))
    # c/||c|| with ||c|| = sqrt(10) (exact sum, correctly rounded sqrt): a few roundings of numbers <= 1, both sides
    np.testing.assert_allclose(ex.client_solutions, np.array([[3, 1], [3, -1]]) / np.sqrt(10), rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(ex.client_solutions, axis=1), 1.0, rtol=0, atol=1e-15)
    u1, u2 = ex.client_solutions
    angle = np.arccos(u1 @ u2)
    # arccos at 0.8 (condition ~1.3) then cos: 2 LIBM_ULPS ulp, amplified <= 2x
    assert np.linalg.norm(ex.client_average) == pytest.approx(np.cos(angle / 2), rel=1e-14)  # the chord's midpoint
    assert np.linalg.norm(ex.client_average) == pytest.approx(3 / np.sqrt(10), rel=1e-15)  # (3/sqrt10, 0) exactly
    np.testing.assert_array_equal(ex.x_star, [1.0, 0.0])
    # composite_optimum's certificate: ||x - x*|| <= distance_bound = (L/mu) kkt_residual (here L = mu = 1), up to
    # the rounding of the residual's few flops
    ref = composite_optimum(ex.problem, ex.regularizer)
    assert np.linalg.norm(ref.x - ex.x_star) <= ref.certificate["distance_bound"] + gamma(16)
    for m in range(2):  # each client solution is certified too
        client = FederatedQuadratic(np.eye(2), ex.targets[m])
        sol = composite_optimum(client, ex.regularizer)
        assert np.linalg.norm(sol.x - ex.client_solutions[m]) <= sol.certificate["distance_bound"] + gamma(16)


def test_sparse_averaging_two_clients():
    a, theta = 2.0, 1.0
    ex = AveragingExample([[a, 0.0], [a, 1.5 * theta]], L1(theta))
    np.testing.assert_array_equal(ex.client_solutions, [[a - theta, 0.0], [a - theta, theta / 2]])
    np.testing.assert_array_equal(ex.client_average, [a - theta, theta / 4])
    np.testing.assert_array_equal(ex.x_star, [a - theta, 0.0])
    assert np.count_nonzero(ex.client_average) == 2 > np.count_nonzero(ex.x_star) == 1
    # x* is exact: the certified distance, plus the rounding of the residual's few flops (gamma_16 max(1, ||x||))
    ref = composite_optimum(ex.problem, ex.regularizer)
    assert np.linalg.norm(ref.x - ex.x_star) <= ref.certificate["distance_bound"] + gamma(16) * max(1.0, a)


@pytest.mark.parametrize("value", [1.5, 5.0])
def test_disjoint_sparse_clients_average_is_m_times_denser(value):
    targets = np.zeros((4, 12))
    targets[np.repeat(np.arange(4), 2), np.arange(8)] = value  # client m on the block {2m, 2m + 1}
    ex = AveragingExample(targets, L1(1.0))
    assert np.all(density(ex.client_solutions, 1e-12) == 2 / 12)
    assert density(ex.client_average, 1e-12) == 8 / 12
    expected = np.r_[np.full(8, max(value / 4 - 1.0, 0.0)), np.zeros(4)]
    np.testing.assert_array_equal(ex.x_star, expected)
    # expected is exact (value/4 - 1, value in {1.5, 5}): the certified distance plus the residual's rounding
    ref = composite_optimum(ex.problem, ex.regularizer)
    assert np.linalg.norm(ref.x - expected) <= ref.certificate["distance_bound"] + gamma(16) * max(1.0, value)


# --- metrics --------------------------------------------------------------------------------------------------------
def test_support_recovery_by_hand():
    truth = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    x = np.array(
        [
            [1.0, 0.5, 0.005, -0.02, 0.0],  # predicted {0, 1, 3}: TP 2
            [0.01, -0.01, 0.01, 0.0, 0.0],  # |x| = cutoff counts as non-zero: perfect
            [0.0, 0.009, 0.0, 0.0, 0.0],  # nothing predicted
        ]
    )
    out = support_recovery(x, truth, cutoff=1e-2)
    np.testing.assert_allclose(out.precision, [2 / 3, 1.0, 0.0])
    np.testing.assert_allclose(out.recall, [2 / 3, 1.0, 0.0])
    np.testing.assert_allclose(out.f1, [2 / 3, 1.0, 0.0])
    np.testing.assert_allclose(out.density, [3 / 5, 3 / 5, 0.0])
    assert support_recovery(x, truth, cutoff=1e-4).density[2] == 1 / 5
    np.testing.assert_allclose(density(x, 1e-2), [3 / 5, 3 / 5, 0.0])
    with pytest.raises(InvalidParameterError, match="x_real"):
        support_recovery(x, np.zeros(5), cutoff=1e-2)


@given(x=arrays(np.float64, (4, 9), elements=st.floats(-1, 1)), truth=arrays(bool, 9).filter(lambda t: t.any()))
def test_f1_is_the_harmonic_mean(x, truth):
    out = support_recovery(x, truth.astype(float), cutoff=1e-2)
    pr = out.precision + out.recall
    hm = np.where(pr > 0, 2 * out.precision * out.recall / np.where(pr > 0, pr, 1), 0.0)
    np.testing.assert_allclose(out.f1, hm, rtol=1e-12, atol=1e-15)


def test_recovered_rank_by_hand():
    X = np.stack([np.diag([1.0, 0.5, 0.01, 0.001]), np.zeros((4, 4))])
    np.testing.assert_array_equal(recovered_rank(X, cutoff=1e-2), [2, 0])  # 0.01 is not > 0.01
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))[0]
    assert recovered_rank(Q @ np.diag([3.0, 2.0, 0.02, 0.0]) @ Q.T, cutoff=1e-2) == 3
    with pytest.raises(InvalidParameterError, match="X"):
        recovered_rank(np.ones(3), cutoff=1e-2)


def test_with_intercept_and_mask():
    z = with_intercept(np.zeros((2, 3)))
    np.testing.assert_array_equal(z, [[0, 0, 0, 1], [0, 0, 0, 1]])
    np.testing.assert_array_equal(intercept_mask(4), [True, True, True, False])
    assert isinstance(MeanSquaredError(z, np.zeros(2)).dim, int)
