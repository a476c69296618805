"""The density engine (`fedtheory.exact.density`): forward law, round map, stationary law, error estimates."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import fedavg
from fedtheory.errors import InvalidParameterError
from fedtheory.exact import density
from fedtheory.fit import mc_mean
from fedtheory.oracles import AdditiveGaussian
from fedtheory.problems import PiecewiseQuadratic
from fedtheory.problems.piecewise import PiecewiseLinear


def _three_kinks():
    """A continuous piecewise-linear gradient with kinks at 0, 0.31 and 0.73: the last two fall between nodes."""
    b, s = (0.0, 0.31, 0.73), (0.5, 2.0, 0.3, 1.5)
    c = [0.0]
    for j in range(1, 4):
        c.append(c[-1] + (s[j - 1] - s[j]) * b[j - 1])
    return PiecewiseLinear(b, s, tuple(c))


@settings(max_examples=10)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), x0=st.floats(-1, 1))
def test_density_engine_against_monte_carlo(ap, am, x0):
    p = PiecewiseQuadratic(ap, am)
    steps = [1, 3, 10, 30]
    dens = density.propagate(p.gradient_pieces(), 0.3, 0.5, x0, steps)
    xs = fedavg.sgd(AdditiveGaussian(p, 0.5), [x0], 0.3, 30, np.random.default_rng(1), S=100_000, record_at=steps).x[
        :, :, 0
    ]
    est = mc_mean(xs, axis=1, family_size=len(steps))
    assert np.all((est.lo - dens.mean_error <= dens.mean) & (dens.mean <= est.hi + dens.mean_error))
    assert np.allclose(dens.mass, 1, atol=1e-12)


def test_density_error_estimate_shrinks_quadratically():
    g = PiecewiseQuadratic(1.0, 0.1).gradient_pieces()
    errs = [density.propagate(g, 0.1, 1.0, 0.0, [50], du=du).mean_error[0] for du in (0.2, 0.1, 0.05)]
    assert errs[0] / errs[1] == pytest.approx(4, rel=0.15) and errs[1] / errs[2] == pytest.approx(4, rel=0.15)


@pytest.mark.parametrize("du", [0.5, 0.4, 0.25, 0.1])
def test_density_error_estimate_bounds_the_error_on_coarse_accepted_grids(du):
    # The README tour's setting (true mean -0.0406) and an instance with kinks between nodes, against a grid 4-20x
    # finer; before the refusal below du = 8 reported -8.9e-24 +- 1e-15 here.
    psi = PiecewiseQuadratic.scaled_psi(0.5).gradient_pieces()
    for g, eta, sd, x0, steps in ((psi, 0.1, 1.0, 0.0, [1, 4, 16]), (_three_kinks(), 0.4, 0.8, -0.5, [2, 7])):
        res = density.propagate(g, eta, sd, x0, steps, du=du)
        ref = density.propagate(g, eta, sd, x0, steps, du=0.025)
        assert np.all(np.abs(res.mean - ref.mean) <= res.mean_error + ref.mean_error), (du, res.mean - ref.mean)
    g = _three_kinks()
    u = density.round_map(g, 0.4, 0.8, 5, (-1.0, 1.0), du=du)
    ref = density.round_map(g, 0.4, 0.8, 5, (-1.0, 1.0), du=du / 5)
    xs = np.linspace(u.grid[0], u.grid[-1], 181)  # nodes and points between them
    assert np.all(np.abs(u(xs) - ref(xs)) <= u.error_at(xs) + ref.error_at(xs))
    st_, st_ref = density.stationary(g, 0.4, 0.8, du=du), density.stationary(g, 0.4, 0.8, du=0.025)
    assert abs(st_.mean - st_ref.mean) <= st_.mean_error + st_ref.mean_error


def test_density_refuses_grids_that_do_not_resolve_the_kernel():
    psi = PiecewiseQuadratic.scaled_psi(0.5).gradient_pieces()
    for call in (
        lambda du: density.propagate(psi, eta=0.1, noise_sd=1.0, x0=0.0, steps=[16], du=du),
        lambda du: density.round_map(psi, 0.1, 1.0, 4, (-0.1, 0.1), du=du),
        lambda du: density.stationary(psi, 0.1, 1.0, du=du),
    ):
        for du in (8, 1.0, 0.51):
            with pytest.raises(InvalidParameterError, match=r"invalid du: .*at most 0\.5 in units of tau"):
                call(du)
        call(0.5)


def test_density_rejects_jumps_and_non_integer_steps():
    with pytest.raises(InvalidParameterError, match="invalid g: expected a continuous"):
        density.propagate(PiecewiseLinear((0.0,), (1.0, 1.0), (0.0, 1.0)), 0.1, 1.0, 0.0, [1])
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    for steps in ([2.5], [2.0], np.array([1.0, 3.0])):
        with pytest.raises(InvalidParameterError, match="invalid steps"):
            density.propagate(g, 0.1, 1.0, 0.0, steps)
    with pytest.raises(InvalidParameterError, match="invalid K"):
        density.round_map(g, 0.1, 1.0, 2.5, (-1.0, 1.0))


def test_density_bad_input():
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    with pytest.raises(InvalidParameterError, match="invalid eta"):
        density.propagate(g, 2.5, 1.0, 0.0, [1])
    with pytest.raises(InvalidParameterError, match="invalid steps"):
        density.propagate(g, 0.1, 1.0, 0.0, [0])
    with pytest.raises(InvalidParameterError, match="invalid noise_sd"):
        density.propagate(g, 0.1, -1.0, 0.0, [1])


@settings(max_examples=8)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), K=st.integers(1, 30))
def test_round_map_agrees_with_forward_propagation(ap, am, K):
    g = PiecewiseQuadratic(ap, am).gradient_pieces()
    u = density.round_map(g, 0.2, 0.5, K, (-0.4, 0.4))
    for x0 in u.grid[:: max(1, u.grid.size // 5)]:
        fwd = density.propagate(g, 0.2, 0.5, float(x0), [K])
        assert abs(u(x0) - fwd.mean[0]) <= u.error_at(x0) + fwd.mean_error[0]


def test_round_map_bad_input():
    g = PiecewiseQuadratic(1.0, 0.5).gradient_pieces()
    with pytest.raises(InvalidParameterError, match="invalid x_range"):
        density.round_map(g, 0.1, 1.0, 4, (1.0, -1.0))
    u = density.round_map(g, 0.1, 1.0, 4, (-0.1, 0.1))
    with pytest.raises(InvalidParameterError, match="invalid x"):
        u(5.0)


@settings(max_examples=15)
@given(ap=st.floats(0.1, 1.0), am=st.floats(0.1, 1.0), eta=st.floats(0.05, 1.0), sigma=st.floats(0.1, 2.0))
def test_conditional_mean_is_monotone_lipschitz_concave_below_gd(ap, am, eta, sigma):
    # spec P4: with F' convex (a_plus >= a_minus) and eta L <= 1, u_k is nondecreasing, 1-Lipschitz, concave and
    # u_k <= z_k; the mirrored instance (F' concave) reverses concavity and the inequality.
    a_plus, a_minus = max(ap, am), min(ap, am)
    for flip in (1.0, -1.0):
        p = PiecewiseQuadratic(a_plus, a_minus) if flip > 0 else PiecewiseQuadratic(a_minus, a_plus)
        h = 0.05
        xs = np.arange(-2, 2 + h / 2, h)
        X, z = xs[:, None], xs.copy()
        for _ in range(8):
            g = p.grad(X[..., None])[..., 0]
            X = np.concatenate([X - eta * (g + sigma), X - eta * (g - sigma)], axis=1)
            z = z - eta * p.grad(z[:, None])[:, 0]
            u = X.mean(axis=1)
            slopes = np.diff(u) / h
            assert np.all(slopes >= -1e-9) and np.all(slopes <= 1 + 1e-9)
            assert np.all(flip * np.diff(u, n=2) <= 1e-9)
            assert np.all(flip * (u - z) <= 1e-9)


@settings(max_examples=8)
@given(ap=st.floats(0.2, 2.0), am=st.floats(0.2, 2.0), eta=st.floats(0.05, 0.5))
def test_stationary_law_is_the_long_run_law(ap, am, eta):
    # The banded fixed-point solve equals forward propagation run until it has forgotten its start.
    g = PiecewiseQuadratic(ap, am).gradient_pieces()
    st_ = density.stationary(g, eta, 1.0)
    k = int(np.ceil(40 / (eta * min(ap, am))))  # (1 - eta a)^k < e^-40
    fwd = density.propagate(g, eta, 1.0, 0.0, [k])
    assert abs(st_.mean - fwd.mean[0]) <= st_.mean_error + fwd.mean_error[0]
    assert st_.density.sum() * (st_.grid[1] - st_.grid[0]) == pytest.approx(1.0, abs=1e-12)
    assert np.all(st_.density > -1e-12)


def test_stationary_law_of_a_linear_chain_is_gaussian():
    # a_+ = a_- = a: x_inf ~ N(0, eta^2 / (1 - (1 - eta a)^2)) exactly.
    eta, a = 0.3, 1.5
    res = density.stationary(PiecewiseQuadratic(a, a).gradient_pieces(), eta, 1.0)
    var = eta**2 / (1 - (1 - eta * a) ** 2)
    exact = np.exp(-0.5 * res.grid**2 / var) / np.sqrt(2 * np.pi * var)
    assert np.max(np.abs(res.density - exact)) < 1e-6 * exact.max()
    assert abs(res.mean) <= res.mean_error + 1e-12


def test_stationary_bad_input():
    with pytest.raises(InvalidParameterError, match="eta"):
        density.stationary(PiecewiseQuadratic(1.0, 0.0).gradient_pieces(), 0.1, 1.0)  # no restoring force left
    with pytest.raises(InvalidParameterError, match="eta"):
        density.stationary(PiecewiseQuadratic(1.0, 1.0).gradient_pieces(), 2.5, 1.0)


def test_smooth_drift_round_map_against_monte_carlo():
    # u_K(x0) for the smooth gradient of (A.15) against a seeded Monte Carlo of the same chain.
    from fedtheory.problems import LogCoshQuadratic

    p = LogCoshQuadratic(1.0, 2.0)
    drift = density.SmoothDrift(lambda x: p.grad(x[..., None])[..., 0], (0.5, 1.0))
    eta, K, x0 = 0.4, 6, 0.3
    u = density.round_map(drift, eta, 1.0, K, (-0.5, 0.5))
    fwd = density.propagate(drift, eta, 1.0, x0, [K])
    rng = np.random.default_rng(7)
    x = np.full(400_000, x0)
    for _ in range(K):
        x = x - eta * (p.grad(x[:, None])[:, 0] + rng.standard_normal(x.size))
    est = mc_mean(x)
    assert est.lo <= float(u(x0)) <= est.hi
    assert abs(float(u(x0)) - fwd.mean[0]) <= float(u.error_at(x0)) + fwd.mean_error[0]


def test_smooth_drift_validation():
    with pytest.raises(InvalidParameterError, match="slopes"):
        density.SmoothDrift(np.sin, (1.0, 0.5))
    with pytest.raises(InvalidParameterError, match="eta"):
        density.round_map(density.SmoothDrift(np.tanh, (0.0, 1.0)), 3.0, 1.0, 2, (-1.0, 1.0))
    with pytest.raises(InvalidParameterError, match="g"):
        density.propagate(np.tanh, 0.1, 1.0, 0.0, [1])
