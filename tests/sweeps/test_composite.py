"""The vectorised composite sweep against the algorithms it replicates, its bookkeeping, and the certified path."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.algorithms import composite as fco
from fedtheory.errors import InvalidParameterError, ReferenceSolveError
from fedtheory.oracles import Minibatch
from fedtheory.problems import (
    FederatedQuadratic,
    federated_lasso,
    federated_low_rank,
    sparse_logistic_sessions,
    support_recovery,
)
from fedtheory.problems.composite_data import intercept_mask
from fedtheory.reference import composite_optimum
from fedtheory.regularizers import L1, L2Ball, Masked, NuclearNorm
from fedtheory.sweeps.composite import (
    CompositeSweep,
    _Prox,
    grid,
    regularization_path,
    run_sweep,
)


def _lasso():
    return federated_lasso(np.random.default_rng(1), d1=4, d0=4, n_clients=6, n_per_client=12)


def _norm(x):
    return {"norm": np.linalg.norm(x, axis=-1)}


def _sweep(problem, psi, lam, algorithm, ec, es, *, K=3, R=5, b=2, C=3, seeds=2, seed=5, **kw):
    return run_sweep(
        problem,
        psi,
        lam,
        algorithm,
        ec,
        es,
        K=K,
        R=R,
        batch_size=b,
        clients_per_round=C,
        seeds=seeds,
        rng=np.random.default_rng(seed),
        metrics=_norm,
        **kw,
    )


@pytest.mark.parametrize("algorithm", fco.ALGORITHMS)
def test_each_grid_point_is_the_algorithm_lasso(algorithm):
    # Partial participation, minibatches, l1 with a free intercept: every grid point follows composite.run's path.
    data, lam = _lasso(), 0.3
    sm = data.smooth
    ec, es = grid([0.01, 0.03], [0.5, 1.0, 2.0])
    sw = _sweep(sm, Masked(L1(1.0), intercept_mask(sm.dim)), lam, algorithm, ec, es)
    for i in range(ec.size):
        params = fco.CompositeParams(algorithm, ec[i], 3, 6, es[i], 3)
        ref = fco.run(Minibatch(sm, 2), fco.Euclidean(data.regularizer(lam)), np.zeros(sm.dim), params, 5,
                      np.random.default_rng(5), S=2)  # fmt: skip
        np.testing.assert_allclose(sw.final[i], ref.final, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(sw.metrics["norm"][i, :, -1], np.linalg.norm(ref.final, axis=-1), rtol=1e-10)
    assert sw.rounds.tolist() == [0, 1, 2, 3, 4, 5]
    assert not sw.diverged.any()


@pytest.mark.parametrize("algorithm", fco.ALGORITHMS[:4])
def test_each_grid_point_is_the_algorithm_nuclear(algorithm):
    # Full participation (no participation draw) and singular-value thresholding through Masked(NuclearNorm).
    data, lam = federated_low_rank(np.random.default_rng(2), d=3, rank=1, n_clients=5, n_per_client=8), 0.2
    sm = data.smooth
    ec, es = grid([0.01, 0.02], [1.0, 3.0])
    psi = Masked(NuclearNorm(1.0), intercept_mask(sm.dim), shape=(3, 3))
    sw = _sweep(sm, psi, lam, algorithm, ec, es, K=2, R=4, b=3, C=None)
    for i in range(ec.size):
        params = fco.CompositeParams(algorithm, ec[i], 2, 5, es[i])
        ref = fco.run(Minibatch(sm, 3), fco.Euclidean(data.regularizer(lam)), np.zeros(sm.dim), params, 4,
                      np.random.default_rng(5), S=2)  # fmt: skip
        np.testing.assert_allclose(sw.final[i], ref.final, rtol=1e-10, atol=1e-12)


def test_logistic_grid_point_is_the_algorithm():
    sessions = sparse_logistic_sessions(np.random.default_rng(3), n_subjects=2, sessions=4, scans=5, dim=6, n_nonzero=2)
    train = sessions.train
    psi = Masked(L1(1.0), intercept_mask(train.dim))
    sw = _sweep(train, psi, 0.05, "FedDualAvg", [0.1], [2.0], K=4, R=3, b=1, C=2)
    params = fco.CompositeParams("FedDualAvg", 0.1, 4, 4, 2.0, 2)
    ref = fco.run(Minibatch(train, 1), fco.Euclidean(sessions.regularizer(0.05)), np.zeros(train.dim), params, 3,
                  np.random.default_rng(5), S=2)  # fmt: skip
    np.testing.assert_allclose(sw.final[0], ref.final, rtol=1e-10, atol=1e-12)


def test_grid_points_share_draws_and_seeds_may_have_own_data():
    data = _lasso()
    psi = Masked(L1(1.0), intercept_mask(data.smooth.dim))
    ec, es = grid([0.01, 0.02], [1.0, 2.0])
    joint = _sweep(data.smooth, psi, [0.3, 0.1], "FedMiD", ec, es)
    for i in range(ec.size):  # a grid point alone, same generator: the same path (common random numbers)
        alone = _sweep(data.smooth, psi, [0.3, 0.1], "FedMiD", ec[i : i + 1], es[i : i + 1])
        np.testing.assert_allclose(alone.final[0], joint.final[i], rtol=1e-12, atol=1e-14)
    per_seed = _sweep([data.smooth, data.smooth], psi, [0.3, 0.1], "FedMiD", ec, es)
    np.testing.assert_array_equal(per_seed.final, joint.final)
    other = federated_lasso(np.random.default_rng(9), d1=4, d0=4, n_clients=6, n_per_client=12).smooth
    mixed = _sweep([data.smooth, other], psi, [0.3, 0.1], "FedMiD", ec, es)
    np.testing.assert_array_equal(mixed.final[:, 0], joint.final[:, 0])  # seed 0 untouched by seed 1's data
    assert not np.allclose(mixed.final[:, 1], joint.final[:, 1])


def test_divergence_is_a_grid_outcome():
    data = _lasso()
    psi = Masked(L1(1.0), intercept_mask(data.smooth.dim))
    L = data.smooth.L
    ec, es = np.array([0.2 / L, 50.0 / L]), np.array([1.0, 1.0])
    sw = _sweep(data.smooth, psi, 0.3, "FedDualAvg", ec, es, R=30)
    assert np.all(sw.diverged_at[0] == -1) and np.all(sw.diverged_at[1] >= 1)
    r = sw.diverged_at[1, 0]
    assert np.all(np.isnan(sw.metrics["norm"][1, 0, sw.rounds >= r]))
    assert np.all(np.isfinite(sw.metrics["norm"][1, 0, sw.rounds < r]))
    assert np.all(np.isnan(sw.final[1])) and np.all(np.isfinite(sw.final[0]))
    alone = _sweep(data.smooth, psi, 0.3, "FedDualAvg", ec[:1], es[:1], R=30)
    np.testing.assert_allclose(alone.final[0], sw.final[0], rtol=1e-12)  # the dead point does not disturb the other


def test_selection_bookkeeping():
    rounds = np.arange(5)
    f1 = np.array(
        [
            [[0.0, 0.5, 1.0, 1.0, 1.0], [0.0, 0.2, 0.4, 0.6, 0.8]],
            [[0.0, 1.0, 1.0, 1.0, 1.0], [0.0, np.nan, np.nan, np.nan, np.nan]],
            [[0.0, 0.1, 0.2, 0.3, 0.4], [0.0, 0.9, 0.9, 0.9, 0.9]],
        ]
    )  # (G, S, T)
    sw = CompositeSweep("FedDualAvg", np.array([1.0, 2.0, 3.0]), np.ones(3), rounds, {"f1": f1},
                        np.array([[-1, -1], [-1, 1], [-1, -1]]), np.zeros((3, 2, 1)))  # fmt: skip
    np.testing.assert_allclose(sw.tail_mean("f1", 2)[:, 0], [1.0, 1.0, 0.35])
    assert sw.select("f1", 2, maximize=True).tolist() == [0, 2]  # tie -> first grid point; diverged never wins
    first = sw.first("f1", lambda f: f >= 1.0)
    np.testing.assert_array_equal(first[:, 0], [2.0, 1.0, np.inf])
    assert sw.select("f1", 2, maximize=True, tiebreak=first).tolist() == [1, 2]  # the faster of the tied points
    assert sw.select("f1", 2, maximize=False).tolist() == [2, 0]
    np.testing.assert_array_equal(sw.curve("f1", [1, 2])[1], f1[2, 1])


def test_grid_is_the_outer_product():
    ec, es = grid([1e-3, 1e-2], [0.1, 1.0, 10.0])
    assert list(zip(ec.tolist(), es.tolist())) == [(1e-3, 0.1), (1e-3, 1.0), (1e-3, 10.0), (1e-2, 0.1), (1e-2, 1.0),
                                                    (1e-2, 10.0)]  # fmt: skip
    with pytest.raises(InvalidParameterError, match="eta_c"):
        grid([0.0], [1.0])


@settings(max_examples=40)
@given(
    seed=st.integers(0, 10_000),
    t=st.floats(0.0, 3.0),
    lam=st.floats(0.0, 2.0),
    c=st.floats(0.5, 2.0),
    nuclear=st.booleans(),
)
def test_threshold_prox_is_the_regularizer_prox(seed, t, lam, c, nuclear):
    # prox_{t lam psi_1} by homogeneity (nuclear) or clipping (l1) equals the regularizer's own prox of t (lam psi_1),
    # psi_1 = c ||.|| carrying its own weight c.
    rng = np.random.default_rng(seed)
    v = 2.0 * rng.standard_normal((3, 10))
    inner, shape = (NuclearNorm, (3, 3)) if nuclear else (L1, None)
    psi1 = Masked(inner(c), intercept_mask(10), shape=shape)
    ref = v if t == 0 else Masked(inner(lam * c), intercept_mask(10), shape=shape).prox(v, t)  # prox needs t > 0
    np.testing.assert_allclose(_Prox(psi1, np.array([lam]))(v, t), ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=20)
@given(seed=st.integers(0, 10_000), nuclear=st.booleans())
def test_client_prox_of_the_round_start_is_the_server_prox_to_the_bit(seed, nuclear):
    # The first FedDualAvg step of a round reuses the server's x = prox(y) for every client instead of a prox of the
    # clients' stack (S, C, G, p): exact because the stacked prox is each matrix's prox, whatever the stack's shape.
    rng = np.random.default_rng(seed)
    S, C, G = 2, 3, 4
    inner, shape = (NuclearNorm, (3, 3)) if nuclear else (L1, None)
    psi1 = Masked(inner(1.0), intercept_mask(10), shape=shape)
    y, lam = 2.0 * rng.standard_normal((S, G, 10)), rng.uniform(0.1, 2.0, S)
    t = np.concatenate([[0.0], rng.uniform(0.0, 3.0, G - 1)])  # the first round's threshold is 0
    server = _Prox(psi1, lam[:, None])(y, t)
    client = _Prox(psi1, lam[:, None, None])(np.broadcast_to(y[:, None], (S, C, G, 10)), t)
    assert np.array_equal(client, np.broadcast_to(server[:, None], client.shape))


def test_regularization_path_is_certified_and_matches_the_reference():
    data = federated_lasso(np.random.default_rng(4), d1=5, d0=15, n_clients=4, n_per_client=30)
    psi = Masked(L1(1.0), intercept_mask(data.smooth.dim))
    lams = [0.05, 0.3, 1.0]
    path = regularization_path(data.smooth, psi, lams)
    for point in path:
        ref = composite_optimum(data.smooth, data.regularizer(point.lam))
        assert np.linalg.norm(point.x - ref.x) <= point.distance_bound + ref.certificate["distance_bound"] + 1e-12
        assert point.kkt_residual <= 1e-10 * max(1.0, np.linalg.norm(point.x))
    f1 = [float(support_recovery(p.x[:-1], data.x_real, cutoff=1e-2).f1) for p in path]
    assert all(0.0 <= f <= 1.0 for f in f1)


def test_validation():
    data = _lasso()
    psi = Masked(L1(1.0), intercept_mask(data.smooth.dim))
    with pytest.raises(InvalidParameterError, match="algorithm"):
        _sweep(data.smooth, psi, 0.1, "FedProx", [0.01], [1.0])
    with pytest.raises(InvalidParameterError, match="psi"):
        _sweep(data.smooth, L2Ball(1.0), 0.1, "FedMiD", [0.01], [1.0])
    with pytest.raises(InvalidParameterError, match="clients_per_round"):
        _sweep(data.smooth, psi, 0.1, "FedMiD", [0.01], [1.0], C=7)
    with pytest.raises(InvalidParameterError, match="problems"):
        _sweep([data.smooth], psi, 0.1, "FedMiD", [0.01], [1.0])
    with pytest.raises(InvalidParameterError, match="eta_c"):
        _sweep(data.smooth, psi, 0.1, "FedMiD", [0.01, 0.02], [1.0])
    flat = FederatedQuadratic(np.diag([1.0, 1.0, 0.0]), np.ones(3))  # not strongly convex
    with pytest.raises(InvalidParameterError, match="smooth"):
        regularization_path(flat, L1(1.0), [0.1])
    with pytest.raises(ReferenceSolveError):
        regularization_path(data.smooth, psi, [0.1], iterations=1, kkt_tol=1e-30)
