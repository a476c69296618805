"""StR-FedAvg (Algorithm 1) and IPIR-FedAvg (Algorithm 2): reductions, fixed points, outputs, schedules, counters."""

from fractions import Fraction
from math import comb, log

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory.algorithms import bilevel as bl
from fedtheory.algorithms import fedavg
from fedtheory.errors import DivergenceError, InvalidParameterError
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import FederatedQuadratic, Problem
from fedtheory.problems.solution_sets import AffineSolutionSet


class Distance(Problem):
    """``f(x) = (mu/2) ||x - x0||^2`` on every client (a quadratic that is not a FederatedQuadratic)."""

    def __init__(self, x0, mu=1.0):
        self.x0, self.mu_, self.dim = np.asarray(x0, dtype=float), float(mu), len(x0)

    def value(self, x):
        return 0.5 * self.mu_ * np.sum((np.asarray(x) - self.x0) ** 2, axis=-1)

    def client_grad(self, x):
        return self.mu_ * (self.check_client_points(x) - self.x0)


class Cubic(Distance):
    """A non-quadratic problem: ``grad = x^3`` coordinate-wise."""

    def client_grad(self, x):
        return self.check_client_points(x) ** 3


def quadratic(seed: int, d: int = 3, M: int | None = 4, shift: float = 0.1) -> FederatedQuadratic:
    """``M`` clients ``A_m = Q Q'/d + shift I`` (or one shared client when ``M`` is None)."""
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(d, d) if M is None else (M, d, d))
    A = Q @ np.swapaxes(Q, -1, -2) / d + shift * np.eye(d)
    return FederatedQuadratic(A, rng.normal(size=d if M is None else (M, d)))


def least_squares_h(seed: int = 0, rows: int = 8, n: int = 6, N: int = 4) -> FederatedQuadratic:
    """``h_i = 1/2 ||U_i x - v_i||^2`` with two rows per client (spec section 4.2), a consistent system."""
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(rows, n)) / np.sqrt(n)
    v = U @ rng.normal(size=n)
    Ui, vi = U.reshape(N, rows // N, n), v.reshape(N, rows // N)
    return FederatedQuadratic(np.einsum("mri,mrj->mij", Ui, Ui), np.einsum("mri,mr->mi", Ui, vi))


def tikhonov_point(h, f, eta, N):
    A, b = bl.regularized_clients(h, f, eta, N)
    return np.linalg.solve(A.sum(0), b.sum(0))


# --- parameters ---------------------------------------------------------------------------------------------------
def test_params_validate_and_report_the_effective_step():
    p = bl.StRParams(K=4, gamma_l=0.05, gamma_g=0.5, eta=0.0, clients_per_round=2)
    assert p.gamma_tilde == pytest.approx(0.05 * 0.5 * 4, rel=1e-15)
    assert not p.printed_conditions and bl.StRParams(1, 0.1, 1.0, 0.2).printed_conditions
    assert p.sampled(3) == 2 and bl.StRParams(1, 0.1, 1.0, 0.2).sampled(5) == 5
    for kwargs, name in [
        ({"K": 0}, "K"),
        ({"gamma_l": 0.0}, "gamma_l"),
        ({"gamma_g": -1.0}, "gamma_g"),
        ({"eta": -0.1}, "eta"),
        ({"clients_per_round": 0}, "clients_per_round"),
    ]:
        with pytest.raises(InvalidParameterError, match=name):
            bl.StRParams(**{"K": 2, "gamma_l": 0.1, "gamma_g": 1.0, "eta": 0.1, **kwargs})
    with pytest.raises(InvalidParameterError, match="clients_per_round"):
        p.sampled(1)


# --- pathwise reductions (spec V6) --------------------------------------------------------------------------------
@pytest.mark.parametrize("gamma_g", [1.0, 2.5])
def test_one_local_step_with_full_participation_is_gradient_descent_on_f_eta(gamma_g):
    h, f = quadratic(1), quadratic(2)
    params = bl.StRParams(K=1, gamma_l=0.08 / gamma_g, gamma_g=gamma_g, eta=0.3)
    x0 = np.random.default_rng(3).normal(size=(3, 3))
    traj = bl.run(h, f, x0, params, 40, np.random.default_rng(0), replicas=3)
    x = x0.copy()
    for r in range(1, 41):
        x = x - params.gamma_tilde * (h.grad(x) + params.eta * f.grad(x))
        np.testing.assert_allclose(traj.x[r], x, rtol=1e-12, atol=1e-13)


def test_identical_clients_one_round_is_K_local_steps_extrapolated_by_gamma_g():
    h, f = quadratic(4, M=None), Distance([0.5, -1.0, 2.0], mu=0.7)
    params = bl.StRParams(K=6, gamma_l=0.07, gamma_g=1.8, eta=0.4)
    x0 = np.array([1.0, 2.0, -0.5])
    traj = bl.run(h, f, x0, params, 1, np.random.default_rng(0), N=5)
    y = x0.copy()
    for _ in range(params.K):
        y = y - params.gamma_l * (h.grad(y) + params.eta * (0.7 * (y - f.x0)))
    np.testing.assert_allclose(traj.final[0], x0 + params.gamma_g * (y - x0), rtol=1e-13)


def test_client_order_does_not_matter():
    h, f = quadratic(5, M=5), quadratic(6, M=5)
    perm = np.array([3, 0, 4, 1, 2])
    hp, fp = FederatedQuadratic(h.A[perm], h.b[perm]), FederatedQuadratic(f.A[perm], f.b[perm])
    params = bl.StRParams(K=4, gamma_l=0.05, gamma_g=1.5, eta=0.2)
    a = bl.run(h, f, np.ones(3), params, 30, np.random.default_rng(0))
    b = bl.run(hp, fp, np.ones(3), params, 30, np.random.default_rng(0))
    np.testing.assert_allclose(a.x, b.x, rtol=1e-12, atol=1e-14)


def test_eta_zero_is_fedavg_on_h_pathwise_with_noise():
    h, f = quadratic(7), quadratic(8)
    params = bl.StRParams(K=3, gamma_l=0.05, gamma_g=1.7, eta=0.0)
    x0 = np.array([0.3, -0.2, 1.0])
    ours = bl.run(
        h,
        f,
        x0,
        params,
        25,
        np.random.default_rng(11),
        replicas=4,
        h_oracle=AdditiveGaussian(h, 0.5),
        f_oracle=AdditiveGaussian(f, 0.5),  # not queried when eta = 0
    )
    ref = fedavg.run(
        AdditiveGaussian(h, 0.5),
        x0,
        fedavg.FedAvgParams(eta=0.05, K=3, M=4, eta_server=1.7),
        25,
        np.random.default_rng(11),
        S=4,
    )
    np.testing.assert_allclose(ours.x, ref.x, rtol=1e-12, atol=1e-13)


def test_noise_changes_the_path_and_both_oracles_are_used():
    h, f = quadratic(7), quadratic(8)
    params = bl.StRParams(K=2, gamma_l=0.05, gamma_g=1.0, eta=0.5)
    args = (h, f, np.zeros(3), params, 5, np.random.default_rng(1))
    exact = bl.run(*args).final
    only_f = bl.run(h, f, np.zeros(3), params, 5, np.random.default_rng(1), f_oracle=AdditiveGaussian(f, 1.0)).final
    assert np.linalg.norm(only_f - exact) > 1e-3
    with pytest.raises(InvalidParameterError, match="h_oracle"):
        bl.run(*args, h_oracle=AdditiveGaussian(f, 1.0))


# --- client-drift fixed point (spec V5) ---------------------------------------------------------------------------
@pytest.mark.parametrize("gamma_l", [0.05, 0.005])
def test_deterministic_runs_converge_to_the_drift_fixed_point_for_every_gamma_g(gamma_l):
    h, f = least_squares_h(), FederatedQuadratic(np.eye(6), np.zeros(6))  # f = 1/2 ||x||^2
    eta, K = 0.3, 10
    x_fp = bl.drift_fixed_point(h, f, eta, gamma_l, K)
    x_eta = tikhonov_point(h, f, eta, 4)
    assert np.linalg.norm(x_fp - x_eta) > 0.5 * gamma_l  # heterogeneous clients, K > 1: a bias of order gamma_l
    for gamma_g in (1.0, 2.0):
        params = bl.StRParams(K, gamma_l, gamma_g, eta)
        rho = bl.round_map_radius(h, f, params)
        assert rho < 1
        R = int(np.ceil(np.log(1e-15) / np.log(rho)))
        traj = bl.run(h, f, np.ones(6), params, R, np.random.default_rng(0), record_every=R)
        np.testing.assert_allclose(traj.final[0], x_fp, rtol=0, atol=1e-10)
        M, c = bl.round_map(h, f, params)
        np.testing.assert_allclose(np.linalg.solve(np.eye(6) - M, c), x_fp, rtol=0, atol=1e-11)


def test_round_map_is_one_round_of_the_algorithm():
    h, f = quadratic(9), Distance([1.0, 0.0, -1.0], mu=2.0)
    params = bl.StRParams(K=5, gamma_l=0.06, gamma_g=1.3, eta=0.7)
    M, c = bl.round_map(h, f, params)
    x0 = np.array([0.4, 0.9, -2.0])
    np.testing.assert_allclose(bl.run(h, f, x0, params, 1, np.random.default_rng(0)).final[0], M @ x0 + c, rtol=1e-13)


def test_fixed_point_is_the_tikhonov_point_for_K_1_or_identical_clients():
    h, f = least_squares_h(1), Distance(np.arange(6.0), mu=1.0)
    np.testing.assert_allclose(bl.drift_fixed_point(h, f, 0.2, 0.03, 1), tikhonov_point(h, f, 0.2, 4), atol=1e-12)
    hom = quadratic(10, d=6, M=None)
    np.testing.assert_allclose(
        bl.drift_fixed_point(hom, f, 0.2, 0.03, 7, N=3), tikhonov_point(hom, f, 0.2, 3), rtol=1e-11, atol=1e-12
    )


def test_quadratic_clients_read_a_non_federated_quadratic_and_reject_others():
    A, b = bl.quadratic_clients(Distance([1.0, -2.0], mu=3.0), 3)
    np.testing.assert_allclose(A, np.broadcast_to(3 * np.eye(2), (3, 2, 2)), atol=1e-15)
    np.testing.assert_allclose(b, np.broadcast_to([3.0, -6.0], (3, 2)), atol=1e-15)
    with pytest.raises(InvalidParameterError, match="f"):
        bl.regularized_clients(quadratic(0, d=2), Cubic([0.0, 0.0]), 0.1)
    with pytest.raises(InvalidParameterError, match="N"):
        bl.drift_fixed_point(quadratic(0, M=4), quadratic(1, M=3), 0.1, 0.1, 2)


# --- outputs (Props 1 and 4) --------------------------------------------------------------------------------------
def test_theta_exact_and_float_and_its_domain():
    assert bl.theta(Fraction(1, 2), 1, Fraction(1, 5)) == Fraction(20, 19)
    assert bl.theta(0.5, 1.0, 0.2) == pytest.approx(20 / 19, rel=1e-15)
    assert bl.theta(0.5, 0.0, 0.2) == 1
    with pytest.raises(InvalidParameterError, match="gamma_tilde"):
        bl.theta(1.0, 2.0, 1.0)


@given(st.floats(1.0, 3.0), st.integers(1, 300))
def test_theta_average_weights_are_a_probability_vector(theta, R):
    w = bl.weights(theta, R, "theta_avg")
    assert np.all(w >= 0) and abs(w.sum() - 1) < 1e-12
    assert np.all(np.diff(w) >= 0)  # theta >= 1: later iterates weigh more
    if theta == 1:
        np.testing.assert_array_equal(w, np.full(R, 1 / R))


@given(st.integers(1, 40), st.integers(1, 20), st.integers(2, 30))
def test_printed_weights_exact_sum_and_float_agreement(num, den, R):
    q = 1 + Fraction(num, den) / 10  # rational theta >= 1
    exact = bl.printed_weights(q, R)
    total = sum(exact)
    assert total == 1 + q**R / sum(q**r for r in range(1, R))
    assert total > 1  # the printed weights never sum to 1
    np.testing.assert_allclose(bl.weights(float(q), R, "printed"), [float(v) for v in exact], rtol=1e-12)


def test_printed_weights_at_theta_one_sum_to_R_over_R_minus_1():
    assert sum(bl.printed_weights(1, 7)) == Fraction(7, 6)
    with pytest.raises(InvalidParameterError, match="R"):
        bl.printed_weights(1, 1)


def test_weights_are_stable_for_long_horizons():
    w = bl.weights(1.01, 200_000, "theta_avg")
    assert np.all(np.isfinite(w)) and abs(w.sum() - 1) < 1e-9
    assert w[-1] == pytest.approx(0.01 / 1.01, rel=1e-9)  # theta^R (theta - 1)/(theta (theta^R - 1))
    printed = bl.weights(1.01, 200_000, "printed")
    assert printed.sum() == pytest.approx(1 + 0.01, rel=1e-9)  # 1 + theta^R/sum_{r<R} theta^r -> 1 + (theta - 1)


def test_output_applies_the_weights_to_xbar_0_to_xbar_R_minus_1():
    h, f = quadratic(12), quadratic(13)
    params = bl.StRParams(K=2, gamma_l=0.05, gamma_g=1.0, eta=0.5)
    traj = bl.run(h, f, np.array([3.0, -1.0, 2.0]), params, 6, np.random.default_rng(0), replicas=2)
    th = bl.theta(params.eta, 0.4, params.gamma_tilde)
    powers = th ** np.arange(1, 7)
    for kind, norm in [("printed", powers[:-1].sum()), ("theta_avg", powers.sum())]:
        out = bl.output(traj, th, kind)
        direct = sum(powers[r - 1] / norm * traj.x[r - 1] for r in range(1, 7))
        np.testing.assert_allclose(out.x, direct, rtol=1e-13)
        assert out.weight_sum == pytest.approx(powers.sum() / norm, rel=1e-13)
    lo, hi = traj.x[:-1].min(axis=0), traj.x[:-1].max(axis=0)
    avg = bl.output(traj, th, "theta_avg").x
    assert np.all(avg >= lo - 1e-12) and np.all(avg <= hi + 1e-12)
    sparse = bl.run(h, f, np.zeros(3), params, 6, np.random.default_rng(0), record_every=2)
    with pytest.raises(InvalidParameterError, match="trajectory"):
        bl.output(sparse, th)
    with pytest.raises(InvalidParameterError, match="kind"):
        bl.output(traj, th, "last")


# --- schedules ----------------------------------------------------------------------------------------------------
def test_schedules_match_the_printed_closed_forms():
    R, mu, g, K = 1000, 0.5, 2.0, 5
    p = bl.schedule_strongly_convex(R, mu, 2 / 3, 1 / 3, 2.0, g, K)
    assert p.gamma_tilde == pytest.approx(1 / (mu ** (2 / 3) * R ** (2 / 3)), rel=1e-14)
    assert p.eta == pytest.approx(2 * log(R) / (mu ** (1 / 3) * R ** (1 / 3)), rel=1e-14)
    assert p.gamma_l == pytest.approx(1 / (g * K * mu ** (2 / 3) * R ** (2 / 3)), rel=1e-14)  # Alg. 1
    p = bl.schedule_convex(R, 0.5, 0.25, g, K)
    assert (p.gamma_tilde, p.eta) == pytest.approx((R**-0.5, R**-0.25), rel=1e-14)
    assert p.gamma_l == pytest.approx(1 / (g * K * R**0.5), rel=1e-14)  # Alg. 1
    p = bl.schedule_sc_sharp(R, mu, 3.0, 0.05, g, K)
    assert (p.gamma_tilde, p.eta) == pytest.approx((3 * log(R) / (mu * R), 0.05), rel=1e-14)
    p = bl.schedule_convex_sharp(R, 0.5, 0.05, g, K)
    assert (p.gamma_tilde, p.eta) == pytest.approx((R**-0.5, 0.05), rel=1e-14)
    p = bl.schedule_ipir(60, K, g)
    assert (p.gamma_tilde, p.eta) == pytest.approx((60 ** (-7 / 12), 2 * log(60) / 60 ** (5 / 12)), rel=1e-14)
    p = bl.schedule_ipir(58, K, g, t0=2)
    assert (p.gamma_tilde, p.eta) == pytest.approx((60 ** (-7 / 12), 2 * log(60) / 60 ** (5 / 12)), rel=1e-14)
    p = bl.schedule_ipir(60, K, g, eta=0.1)
    assert (p.gamma_tilde, p.eta) == pytest.approx((2 * log(60) / 60, 0.1), rel=1e-14)
    p = bl.schedule_prop7(60, g, K, a=0.75, b=0.5, p=1.5)
    assert (p.gamma_tilde, p.eta) == pytest.approx((60**-0.75, 1.5 * log(60) / 60**0.5), rel=1e-14)
    p = bl.schedule_ipir(1, K, g)
    assert (p.gamma_tilde, p.eta) == (1.0, 0.0)  # R_1 = 1: eta_1 = 2 ln(1)/1 = 0


def test_schedule_ranges_name_the_parameter():
    for call, name in [
        (lambda: bl.schedule_strongly_convex(10, 1.0, 0.3, 0.5, 1.0, 1.0, 1), "b"),
        (lambda: bl.schedule_strongly_convex(10, 1.0, 1.5, 0.5, 1.0, 1.0, 1), "a"),
        (lambda: bl.schedule_strongly_convex(10, 1.0, 0.6, 0.3, 0.5, 1.0, 1), "p"),
        (lambda: bl.schedule_strongly_convex(10, 0.0, 0.6, 0.3, 1.0, 1.0, 1), "mu_f"),
        (lambda: bl.schedule_convex(10, 1.2, 0.3, 1.0, 1), "a"),
        (lambda: bl.schedule_sc_sharp(1, 1.0, 1.0, 0.1, 1.0, 1), "R"),
        (lambda: bl.schedule_ipir(0, 1, 1.0), "t"),
        (lambda: bl.schedule_ipir(1, 1, 1.0, eta=0.1), "R"),
        (lambda: bl.schedule_convex(10, 0.5, 0.25, 0.0, 1), "gamma_g"),
    ]:
        with pytest.raises(InvalidParameterError, match=name):
            call()


# --- partial participation, drift, communication -------------------------------------------------------------------
def test_partial_participation_samples_S_distinct_clients_uniformly():
    N, S, replicas = 8, 3, 4000
    h = FederatedQuadratic(np.ones((N, 1, 1)), 2.0 ** np.arange(N)[:, None])  # client i: x^2/2 - 2^i x
    f = Distance([0.0])
    params = bl.StRParams(K=1, gamma_l=1.0, gamma_g=1.0, eta=0.0, clients_per_round=S)
    traj = bl.run(h, f, np.zeros(1), params, 1, np.random.default_rng(5), replicas=replicas)
    codes = np.rint(traj.final[:, 0] * S).astype(int)  # x^1 = (1/S) sum_{i in S_1} 2^i
    np.testing.assert_allclose(traj.final[:, 0] * S, codes, atol=1e-9)
    members = (codes[:, None] >> np.arange(N)) & 1
    assert np.all(members.sum(axis=1) == S)
    assert np.all(np.abs(members.mean(axis=0) - S / N) < 5 * np.sqrt(S / N * (1 - S / N) / replicas))
    assert len(np.unique(codes)) == comb(N, S)
    w = bl.participation(N, S, 6, np.random.default_rng(0))
    assert np.all((w > 0).sum(axis=1) == S) and np.allclose(w.sum(axis=1), 1)


def test_drift_is_the_printed_sum_over_all_clients_divided_by_K_S():
    h, f = quadratic(14, M=5), quadratic(15, M=5)
    params = bl.StRParams(K=3, gamma_l=0.1, gamma_g=1.0, eta=0.5, clients_per_round=2)
    x0 = np.array([1.0, -1.0, 0.5])
    traj = bl.run(h, f, x0, params, 2, np.random.default_rng(0), record_drift=True)
    for r in (1, 2):
        anchor = traj.x[r - 1, 0]
        y, total = np.broadcast_to(anchor, (5, 3)), 0.0
        for _ in range(3):
            y = y - 0.1 * (h.client_grad(y) + 0.5 * f.client_grad(y))
            total += np.sum((y - anchor) ** 2)
        assert traj.drift[r - 1, 0] == pytest.approx(total / (3 * 2), rel=1e-12)
    assert bl.run(h, f, x0, params, 2, np.random.default_rng(0)).drift is None


def test_communication_counters():
    h, f = quadratic(16, M=5), quadratic(17, M=5)
    traj = bl.run(h, f, np.zeros(3), bl.StRParams(2, 0.05, 1.0, 0.1, clients_per_round=2), 7, np.random.default_rng(0))
    assert (traj.floats_down, traj.floats_up, traj.communication, traj.rounds) == (42, 42, 2 * 3 * 2 * 7, 7)
    T, S, n, N = 6, 2, 3, 5
    ipir = bl.ipir_run(h, lambda y: y, np.ones(n), 0.5, 0.1, T, 2, 1.0, np.random.default_rng(0), clients_per_round=S)
    assert ipir.rounds == T * (T - 1) // 2
    assert ipir.floats == n * S * T * (T - 1) + n * N * T  # spec V20 with t0 = 0


# --- IPIR-FedAvg (Algorithm 2) ------------------------------------------------------------------------------------
def ls_instance():
    """``h_i = 1/2 ||U_i x - v_i||^2`` (N = 2, n = 3, rank 2: X_h^* is a line) and its exact solution set."""
    U = np.array([[1.0, 0.5, 0.0], [0.0, 1.0, -0.5]])
    v = np.array([1.0, -2.0])
    h = FederatedQuadratic(np.einsum("mi,mj->mij", U, U), U * v[:, None])
    return h, AffineSolutionSet(U, v)


def test_ipir_with_the_exact_projection_is_gradient_descent_on_the_penalty():
    h, X = ls_instance()
    c = np.array([0.3, -1.0, 2.0])

    def grad_f(y):  # a smooth nonconvex outer gradient
        return np.sin(y) + (y - c)

    lam, gamma = 0.5, 0.1
    traj = bl.ipir_run(h, grad_f, np.zeros(3), lam, gamma, 12, 3, 1.0, np.random.default_rng(0), project=X.project)
    y = np.zeros((1, 3))
    for t in range(12):
        y = y - gamma * (grad_f(y) + (y - X.project(y)) / lam)
        np.testing.assert_allclose(traj.y[t + 1], y, rtol=1e-13, atol=1e-15)
    assert traj.rounds == 0 and traj.floats == 0


def test_ipir_inner_call_is_str_fedavg_on_the_projection_problem():
    h, _ = ls_instance()

    def grad_f(y):
        return 0.2 * y

    lam, gamma, T, K, g = 0.5, 0.1, 7, 3, 1.5
    for init in bl.INITS:
        traj = bl.ipir_run(
            h, grad_f, np.ones(3), lam, gamma, T, K, g, np.random.default_rng(0), t0=2, init=init, x_cold=np.zeros(3)
        )
        for t in range(T):
            start = {"cold": np.zeros(3), "warm_y": traj.y[t, 0], "warm_prev": traj.x[t - 1, 0] if t else np.zeros(3)}
            np.testing.assert_allclose(traj.x0[t, 0], start[init], rtol=1e-15)
            params = bl.schedule_ipir(t, K, g, t0=2)
            inner = bl.run(h, Distance(traj.y[t, 0]), traj.x0[t, 0], params, t + 2, np.random.default_rng(0))
            expected = bl.output(inner, bl.theta(params.eta, 1.0, params.gamma_tilde), "theta_avg").x
            np.testing.assert_allclose(traj.x[t], expected, rtol=1e-12, atol=1e-14)
            y_next = traj.y[t] - gamma * (grad_f(traj.y[t]) + (traj.y[t] - traj.x[t]) / lam)
            np.testing.assert_allclose(traj.y[t + 1], y_next, rtol=1e-14, atol=1e-15)
        np.testing.assert_array_equal(traj.R, np.arange(T) + 2)


def test_ipir_printed_offsets_and_outputs():
    h, _ = ls_instance()

    def grad_f(y):
        return y

    traj = bl.ipir_run(h, grad_f, np.ones(3), 0.5, 0.1, 4, 2, 1.0, np.random.default_rng(0), x_cold=np.full(3, 7.0))
    np.testing.assert_array_equal(traj.R, [0, 1, 2, 3])
    np.testing.assert_array_equal(traj.x[0, 0], np.full(3, 7.0))  # R_0 = 0: the inner initial point
    assert np.isnan(traj.eta[0]) and traj.eta[1] == 0.0 and traj.gamma_tilde[1] == 1.0
    with pytest.raises(InvalidParameterError, match="output"):
        bl.ipir_run(h, grad_f, np.ones(3), 0.5, 0.1, 4, 2, 1.0, np.random.default_rng(0), output="printed")
    printed = bl.ipir_run(h, grad_f, np.ones(3), 0.5, 0.1, 4, 2, 1.0, np.random.default_rng(0), t0=2, output="printed")
    last = bl.ipir_run(h, grad_f, np.ones(3), 0.5, 0.1, 4, 2, 1.0, np.random.default_rng(0), t0=2, output="last")
    assert not np.allclose(printed.x, last.x)
    sample = last.sample_output(np.random.default_rng(0))
    assert any(np.array_equal(sample[0], y) for y in last.y[:-1, 0])
    for kwargs, name in [({"init": "hot"}, "init"), ({"t0": -1}, "t0"), ({"lam": 0.0}, "lam"), ({"gamma": 0}, "gamma")]:
        args = {"lam": 0.5, "gamma": 0.1, **kwargs}
        with pytest.raises(InvalidParameterError, match=name):
            bl.ipir_run(
                h, grad_f, np.ones(3), args.pop("lam"), args.pop("gamma"), 2, 1, 1.0, np.random.default_rng(0), **args
            )


def test_ipir_replicas_are_independent_copies():
    h, _ = ls_instance()
    oracle = AdditiveGaussian(h, 0.3)
    y0 = np.array([[1.0, 0.0, 0.0], [0.0, 2.0, -1.0]])
    both = bl.ipir_run(h, np.sin, y0, 0.5, 0.1, 5, 2, 1.0, np.random.default_rng(0), h_oracle=oracle, replicas=2)
    assert both.y.shape == (6, 2, 3) and both.x.shape == (5, 2, 3)
    assert not np.allclose(both.y[-1, 0], both.y[-1, 1])


# --- errors -------------------------------------------------------------------------------------------------------
def test_divergence_names_the_first_bad_round():
    h, f = quadratic(18), quadratic(19)
    params = bl.StRParams(K=3, gamma_l=50.0, gamma_g=1.0, eta=1.0)
    with pytest.raises(DivergenceError, match=r"StR-FedAvg diverged at round \d+") as err:
        bl.run(h, f, np.ones(3), params, 500, np.random.default_rng(0))
    r = err.value.round
    bl.run(h, f, np.ones(3), params, r - 1, np.random.default_rng(0))  # finite up to round r - 1
    with np.errstate(over="ignore"), pytest.raises(DivergenceError, match="IPIR-FedAvg diverged at outer iteration 2"):
        bl.ipir_run(ls_instance()[0], lambda y: 1e200 * y, np.ones(3), 1.0, 1.0, 3, 1, 1.0, np.random.default_rng(0))


def test_bad_inputs_name_the_parameter():
    h, f = quadratic(20, M=4), quadratic(21, M=4)
    params = bl.StRParams(2, 0.05, 1.0, 0.1)
    rng = np.random.default_rng(0)
    for call, name in [
        (lambda: bl.run(h, f, np.zeros(2), params, 3, rng), "x0"),
        (lambda: bl.run(h, quadratic(0, M=3), np.zeros(3), params, 3, rng), "N"),
        (lambda: bl.run(h, f, np.zeros(3), params, 3, rng, N=5), "N"),
        (lambda: bl.run(h, Distance([0.0, 1.0]), np.zeros(3), params, 3, rng), "f"),
        (lambda: bl.run(h, f, np.zeros(3), bl.StRParams(2, 0.05, 1.0, 0.1, 5), 3, rng), "clients_per_round"),
        (lambda: bl.run(h, f, np.zeros(3), params, -1, rng), "R"),
        (lambda: bl.run(h, f, np.zeros(3), params, 3, rng, record_every=0), "record_every"),
        (lambda: bl.ipir_run(h, "grad", np.zeros(3), 1.0, 0.1, 2, 1, 1.0, rng), "outer_grad"),
        (lambda: bl.ipir_run(h, lambda y: y[:, :2], np.zeros(3), 1.0, 0.1, 2, 1, 1.0, rng), "outer_grad"),
        (lambda: bl.drift_fixed_point(h, f, 0.1, 0.0, 2), "gamma_l"),
        (lambda: bl.weights(0.0, 5), "theta"),
    ]:
        with pytest.raises(InvalidParameterError, match=name):
            call()
