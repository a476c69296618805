"""The decoupled-prox method: its two implementations agree pathwise, its invariants and its reductions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import composite
from fedtheory.algorithms.composite import decoupled, decoupled_compact, potentials
from fedtheory.errors import InvalidParameterError
from fedtheory.oracles import AdditiveGaussian, ExactGradient
from fedtheory.problems import FederatedQuadratic
from fedtheory.regularizers import L1, SquaredL2


def quad(rng, n, d, *, identical=False):
    M = rng.normal(size=(n, d, d))
    A = M @ np.swapaxes(M, -1, -2) / d + 0.1 * np.eye(d)
    b = 3 * rng.normal(size=(n, d)) + 2 * (np.arange(n)[:, None] - n / 2)
    if identical:
        A, b = np.broadcast_to(A[0], A.shape), np.broadcast_to(b[0], b.shape)
    return FederatedQuadratic(A, b)


def close(a, b, scale=1.0):
    return np.max(np.abs(a - b)) <= 1e-11 * max(scale, float(np.max(np.abs(a))))


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 5),
    tau=st.integers(1, 6),
    eta_tilde_L=st.floats(0.01, 0.5),
    eta_g=st.floats(1.0, 4.0),
    sigma=st.sampled_from([0.0, 1.0]),
    variant=st.sampled_from(["decoupled"]),
    seed=st.integers(0, 2**16),
)
def test_the_per_client_form_equals_the_compact_form_pathwise(n, tau, eta_tilde_L, eta_g, sigma, variant, seed):
    rng = np.random.default_rng(seed)
    problem, reg = quad(rng, n, 4), L1(0.5)
    params = decoupled.DecoupledParams(eta_tilde_L / problem.L / (eta_g * tau), eta_g, tau, n, variant)
    oracle = AdditiveGaussian(problem, sigma) if sigma else ExactGradient(problem)
    x0 = rng.normal(size=(3, 4))
    a, b = decoupled.init(x0, params, 3), decoupled_compact.init(x0, params, 3)
    ra, rb = np.random.default_rng(seed), np.random.default_rng(seed)
    for _ in range(12):
        a = decoupled.round(a, oracle, reg, params, ra)
        b = decoupled_compact.round(b, oracle, reg, params, rb)
        assert close(a.x, b.x, 1.0 + float(np.max(np.abs(x0))))
        assert np.max(np.abs(a.c.sum(axis=1))) <= 1e-10 * (1 + np.abs(a.c).sum())


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 5), tau=st.integers(1, 5), seed=st.integers(0, 2**16))
def test_the_server_recovers_the_average_gradient_and_the_drift_closed_form_is_its_definition(n, tau, seed):
    rng = np.random.default_rng(seed)
    problem, reg = quad(rng, n, 3), L1(0.3)
    params = decoupled.DecoupledParams(0.1 / problem.L / (2 * tau), 2.0, tau, n)
    oracle = AdditiveGaussian(problem, 0.5)
    state = decoupled.init(rng.normal(size=3), params, 2)
    for _ in range(5):
        new, tr = decoupled.round(state, oracle, reg, params, rng, trace=True)
        v = tr.g.mean(axis=(0, 2))  # (1/(n tau)) sum_t sum_i g
        recovered = (tr.p - new.x) / (params.eta_g * params.eta * tau)
        assert close(recovered, v, 1 + np.abs(v).max())
        assert close(new.c, v[:, None] - tr.g.mean(axis=0), 1 + np.abs(v).max())
        by_definition = potentials.drift_from_gradients(problem, reg, new.x, tr.g.sum(axis=0), params)
        lam = potentials.drift(problem, reg, new, params)
        assert close(lam, by_definition, 1 + np.abs(lam).max())
        state = new


def test_one_local_step_is_centralized_proximal_gradient():
    rng = np.random.default_rng(1)
    problem, reg = quad(rng, 4, 5), L1(0.5)
    params = decoupled.DecoupledParams(0.3 / problem.L / 2.0, 2.0, 1, 4)
    state = decoupled.init(np.zeros(5), params)
    y = reg.prox(np.zeros(5), params.eta_tilde)
    for _ in range(50):
        state = decoupled.round(state, ExactGradient(problem), reg, params, None)
        y = reg.prox(y - params.eta_tilde * problem.grad(y), params.eta_tilde)
        assert close(decoupled.output(reg, state.x, params)[0], y, 1 + np.abs(y).max())


def scaffold_ii(problem, x, tau, eta, eta_g, R):
    """SCAFFOLD option II, full participation, c = c_i = 0 at the start (Karimireddy et al. 2020, Algorithm 1)."""
    n, d = problem.n_clients, problem.dim
    c_i, c = np.zeros((n, d)), np.zeros(d)
    xs = []
    for _ in range(R):
        y = np.broadcast_to(x, (n, d)).copy()
        for _ in range(tau):
            y = y - eta * (problem.client_grad(y) - c_i + c)
        c_new = c_i - c + (x - y) / (tau * eta)
        x = x + eta_g * (y.mean(axis=0) - x)
        c = c + (c_new - c_i).mean(axis=0)
        c_i = c_new
        xs.append(x)
    return np.array(xs)


def test_without_a_regularizer_it_is_scaffold_option_ii():
    rng = np.random.default_rng(2)
    problem = quad(rng, 4, 3)
    params = decoupled.DecoupledParams(0.01, 1.5, 5, 4)
    run = decoupled.run(ExactGradient(problem), None, np.ones(3), params, 30, None)
    ref = scaffold_ii(problem, np.ones(3), 5, 0.01, 1.5, 30)
    assert close(run.x[1:, 0], ref, 1 + np.abs(ref).max())


def test_one_client_with_exact_gradients_stops_at_its_minimiser():
    rng = np.random.default_rng(3)
    d, theta = 6, 0.5
    x_star = np.where(rng.random(d) < 0.5, 0.0, rng.normal(size=d))
    v = np.where(x_star != 0, -theta * np.sign(x_star), rng.uniform(-theta, theta, d))
    H = quad(rng, 1, d).A[0]
    problem = FederatedQuadratic(H[None], (H @ x_star - v)[None])  # grad f(x*) = v, -v in theta d||x*||_1
    for tau in (1, 2, 5):
        params = decoupled.DecoupledParams(0.1 / (problem.L * 2 * tau), 2.0, tau, 1)
        run = decoupled.run(ExactGradient(problem), L1(theta), x_star - params.eta_tilde * v, params, 20, None)
        assert np.max(np.abs(run.c)) <= 1e-12 * (1 + np.abs(v).max() + np.abs(x_star).max() / params.eta_tilde)
        assert np.max(np.abs(decoupled.output(L1(theta), run.x, params) - x_star)) <= 1e-13


def test_lyapunov_is_the_gap_for_identical_clients():
    rng = np.random.default_rng(4)
    problem, reg = quad(rng, 3, 4, identical=True), L1(0.2)
    params = decoupled.DecoupledParams(0.02, 1.5, 4, 3)
    state = decoupled.init(rng.normal(size=4), params)
    for _ in range(5):
        state = decoupled.round(state, ExactGradient(problem), reg, params, None)
        p = decoupled.output(reg, state.x, params)
        gap = potentials.composite_value(problem, reg, p) - 0.0
        assert np.allclose(potentials.lyapunov(problem, reg, state, params, 0.0), gap, rtol=1e-12, atol=1e-12)
        assert np.all(potentials.lyapunov_sc(problem, reg, state, params, np.zeros(4)) >= 0)


def test_the_gradient_mapping_is_the_gradient_without_regularizer_and_lies_in_the_subdifferential():
    rng = np.random.default_rng(5)
    problem, reg = quad(rng, 3, 4), L1(0.4)
    x = rng.normal(size=(7, 4))
    assert close(potentials.gradient_mapping(problem, None, x, 0.3), problem.grad(x))
    G = potentials.gradient_mapping(problem, reg, x, 0.3)
    p = reg.prox(x, 0.3)
    assert np.all(reg.in_subdifferential(potentials.virtual_pgd(problem, reg, x, 0.3), G - problem.grad(p)))


def test_variants_and_counters():
    rng = np.random.default_rng(6)
    problem, reg = quad(rng, 3, 4), L1(0.4)
    for variant in decoupled.VARIANTS:
        params = decoupled.DecoupledParams(0.01, 1.5, 3, 3, variant)
        state = decoupled.init(np.zeros(4), params, 2)
        for _ in range(4):
            state = decoupled.round(state, ExactGradient(problem), reg, params, None)
        assert (state.r, state.uploads, state.downloads, state.gradients, state.proxes) == (5, 12, 12, 36, 48)
    runs = {}
    for tau in (1, 2, 3):  # the last local post-prox model is never used: the prox weights differ from tau = 3 on
        for variant in ("fixed-prox", "decoupled"):
            params = decoupled.DecoupledParams(0.01, 1.5, tau, 3, variant)
            runs[tau, variant] = decoupled.run(ExactGradient(problem), reg, np.ones(4), params, 5, None).x
    assert np.array_equal(runs[1, "fixed-prox"], runs[1, "decoupled"])
    assert np.array_equal(runs[2, "fixed-prox"], runs[2, "decoupled"])
    assert not np.allclose(runs[3, "fixed-prox"], runs[3, "decoupled"], rtol=1e-9, atol=0)


def test_plain_fedmid_with_one_step_is_proximal_gradient():
    rng = np.random.default_rng(7)
    problem, reg = quad(rng, 3, 4), L1(0.4)
    params = composite.CompositeParams("FedMiD(no server prox)", 0.05, 1, 3)
    run = composite.run(ExactGradient(problem), composite.Euclidean(reg), np.ones(4), params, 10, None)
    x = np.ones(4)
    for r in range(10):
        x = np.mean(
            reg.prox(np.broadcast_to(x, (3, 4)) - 0.05 * problem.client_grad(np.broadcast_to(x, (3, 4))), 0.05), 0
        )
        assert close(run.x[r + 1, 0], x)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="eta"):
        decoupled.DecoupledParams(0.0, 1.0, 1, 1)
    with pytest.raises(InvalidParameterError, match="variant"):
        decoupled.DecoupledParams(0.1, 1.0, 1, 1, "lazy")
    rng = np.random.default_rng(8)
    problem = quad(rng, 2, 3)
    params = decoupled.DecoupledParams(0.1, 1.0, 1, 2)
    with pytest.raises(InvalidParameterError, match="regularizer"):
        decoupled.round(decoupled.init(np.zeros(3), params), ExactGradient(problem), "l1", params, None)
    with pytest.raises(InvalidParameterError, match="M"):
        bad = decoupled.DecoupledParams(0.1, 1.0, 1, 3)
        decoupled.round(decoupled.init(np.zeros(3), bad), ExactGradient(problem), None, bad, None)
    with pytest.raises(InvalidParameterError, match="params"):
        fixed = decoupled.DecoupledParams(0.1, 1.0, 1, 2, "fixed-prox")
        decoupled_compact.round(decoupled_compact.init(np.zeros(3), fixed), ExactGradient(problem), None, fixed, None)


def test_the_prox_of_a_quadratic_regularizer_is_not_a_semigroup():
    """The method applies P_{(t+1) eta} to the accumulated pre-prox model and never composes proxes: the
    composition P_s P_t = P_{s+t} holds for l1 and fails for a squared norm."""
    w = np.linspace(-3, 3, 13)
    assert np.allclose(L1(0.5).prox(L1(0.5).prox(w, 0.2), 0.3), L1(0.5).prox(w, 0.5))
    assert not np.allclose(SquaredL2(1.0).prox(SquaredL2(1.0).prox(w, 0.2), 0.3), SquaredL2(1.0).prox(w, 0.5))


def test_the_affine_fixed_point_engine_finds_the_composite_minimiser_of_the_decoupled_method():
    """With exact gradients, the decoupled method's round map has the minimiser of f + g as its fixed point's
    output; the engine certifies it to rounding, on the reduced coordinates (sum c_i = 0 eliminated)."""
    rng = np.random.default_rng(9)
    problem, reg = quad(rng, 4, 5), L1(0.5)
    params = decoupled.DecoupledParams(0.1 / problem.L / (1.5 * 4), 1.5, 4, 4)
    step, unpack = decoupled.reduced_map(ExactGradient(problem), reg, params)
    fp = composite.affine_fixed_point(step, np.zeros(5 + 3 * 5))
    assert fp.residual <= 1e-13 and fp.spectral_radius < 1
    x = decoupled.output(reg, unpack(fp.x).x, params)[0]
    assert np.max(np.abs(x - reg.prox(x - problem.grad(x), 1.0))) <= 1e-12  # stationary for f + g


def test_the_affine_fixed_point_engine_matches_the_closed_form_and_refuses_a_continuum():
    rng = np.random.default_rng(10)
    problem, reg = quad(rng, 3, 4), L1(0.3)
    mirror, params = composite.Euclidean(reg), composite.CompositeParams("FedMiD-OSP", 0.05, 3, 3, eta_s=1.2)

    def step(x):
        return composite.round(composite.init(x, mirror, params), ExactGradient(problem), mirror, params, None).x[0]

    fp = composite.affine_fixed_point(step, np.zeros(4))
    assert np.max(np.abs(fp.x - composite.fedmid_osp_fixed_point(problem, mirror, 0.05, 3).x)) <= 1e-11
    with pytest.raises(InvalidParameterError, match="isolated"):
        composite.affine_fixed_point(lambda s: np.array([0.5 * s[0], s[1]]), np.ones(2))
    with pytest.raises(InvalidParameterError, match="iterations"):
        composite.affine_fixed_point(lambda s: 2.0 * s + 1.0, np.ones(2), iterations=50, newton=0)
