"""Softmax regression over clients of unequal sizes (``fedtheory.problems.softmax``): gradients and Hessian-vector
products against finite differences, values against a loop without padding (also of listed clients only), the
certified optimum, the constants, the C = 2 reduction to binary logistic regression, the minibatch oracle and the data
generators."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError, ReferenceSolveError
from fedtheory.problems import LogisticRegression
from fedtheory.problems.softmax import (
    SoftmaxMinibatch,
    SoftmaxRegression,
    binary_data,
    federated_softmax,
    softmax_data,
    softmax_optimum,
)


def _problem(seed: int, sizes=(3, 8, 1, 5), p: int = 4, C: int = 3, l2: float = 0.1, scale: float = 1.0):
    rng = np.random.default_rng(seed)
    feats = [scale * rng.normal(size=(n, p)) for n in sizes]
    labels = [rng.integers(0, C, size=n) for n in sizes]
    test = rng.normal(size=(7, p)), rng.integers(0, C, size=7)
    return SoftmaxRegression(feats, labels, n_classes=C, l2=l2, test_features=test[0], test_labels=test[1])


def _loop_values(prob: SoftmaxRegression, x: np.ndarray) -> np.ndarray:
    """f_i(x_i) by a loop over clients and their own samples only (no padding)."""
    out = []
    for i, n in enumerate(prob.counts):
        W = prob.weight_matrix(x[i])
        total = 0.0
        for a, y in zip(prob.features[i, :n], prob.labels[i, :n], strict=True):
            z = W @ a
            total += np.log(np.sum(np.exp(z - z.max()))) + z.max() - z[y]
        out.append(total / n + 0.5 * prob.l2 * x[i] @ x[i])
    return np.array(out)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.1, 3.0))
def test_gradients_match_central_differences_and_padding_changes_nothing(seed, scale):
    """Directional derivatives of f_i by central differences (step 1e-5: truncation ~ 1e-10, rounding ~ 1e-11)
    against client_grad; client values against the loop over each client's own samples; f = mean of f_i."""
    prob = _problem(seed % 1000, scale=scale)
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(2, prob.n_clients, prob.dim))
    v = rng.normal(size=x.shape)
    h = 1e-5
    fd = (prob.client_values(x + h * v) - prob.client_values(x - h * v)) / (2 * h)
    np.testing.assert_allclose(fd, np.sum(prob.client_grad(x) * v, axis=-1), rtol=1e-6, atol=1e-7 * scale**2)
    np.testing.assert_allclose(prob.client_values(x[0]), _loop_values(prob, x[0]), rtol=1e-12)
    xs = np.repeat(x[:, :1], prob.n_clients, axis=1)
    np.testing.assert_allclose(prob.value(x[:, 0]), prob.client_values(xs).mean(-1), rtol=1e-12)
    np.testing.assert_allclose(prob.grad(x[:, 0]), prob.client_grad(xs).mean(-2), rtol=1e-10, atol=1e-14)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hessian_vector_products_match_the_gradient_and_the_dense_hessian(seed):
    prob = _problem(seed % 1000)
    rng = np.random.default_rng(seed)
    x, v = rng.normal(size=prob.dim), rng.normal(size=(3, prob.dim))
    h = 1e-5
    fd = (prob.grad(x + h * v) - prob.grad(x - h * v)) / (2 * h)
    np.testing.assert_allclose(prob.hessian_vector(x, v), fd, rtol=1e-6, atol=1e-8)
    H = prob.hessian(x)
    np.testing.assert_allclose(H, H.T, atol=1e-14)
    np.testing.assert_allclose(v @ H, prob.hessian_vector(x, v), rtol=1e-10, atol=1e-13)
    assert np.linalg.eigvalsh(H)[0] >= prob.l2 * (1 - 1e-10)  # mu = l2


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_larger_client_does_not_change_the_others(seed):
    """Padding: adding samples to one client changes only that client's value and gradient."""
    base = _problem(seed % 1000, sizes=(3, 4, 2))
    rng = np.random.default_rng(seed)
    feats = [base.features[i, :n] for i, n in enumerate(base.counts)]
    labels = [base.labels[i, :n] for i, n in enumerate(base.counts)]
    feats[1] = np.vstack([feats[1], rng.normal(size=(9, 4))])
    labels[1] = np.concatenate([labels[1], rng.integers(0, 3, 9)])
    big = SoftmaxRegression(feats, labels, n_classes=3, l2=base.l2)
    x = rng.normal(size=(base.n_clients, base.dim))
    keep = [0, 2]
    np.testing.assert_allclose(big.client_values(x)[keep], base.client_values(x)[keep], rtol=1e-13)
    np.testing.assert_allclose(big.client_grad(x)[keep], base.client_grad(x)[keep], rtol=1e-12, atol=1e-15)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), P=st.integers(1, 6))
def test_values_of_listed_clients_are_the_full_values_there(seed, P):
    """client_values(x, clients=idx) (the listed clients' own samples, laid out end to end) equals the padded
    evaluation of every client taken at idx, to rounding; repeated clients and any batch shape are allowed."""
    prob = _problem(seed % 1000, sizes=(3, 8, 1, 5, 12))
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(2, 3, prob.n_clients, prob.dim))
    idx = rng.integers(0, prob.n_clients, size=(2, 3, P))
    listed = prob.client_values(np.take_along_axis(x, idx[..., None], axis=-2), clients=idx)
    np.testing.assert_allclose(listed, np.take_along_axis(prob.client_values(x), idx, axis=-1), rtol=1e-13)
    np.testing.assert_allclose(prob.client_values(x[0, 0], clients=np.arange(5)), _loop_values(prob, x[0, 0]))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 6))
def test_sample_gradients_are_the_gradients_of_the_sampled_subproblem(seed, b):
    """sample_grad at indices idx equals client_grad of the problem whose client i holds its samples idx[i]."""
    prob = _problem(seed % 1000)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, prob.counts[:, None], size=(prob.n_clients, b))
    rows = np.arange(prob.n_clients)[:, None]
    sub = SoftmaxRegression(list(prob.features[rows, idx]), list(prob.labels[rows, idx]), n_classes=3, l2=prob.l2)
    x = rng.normal(size=(2, prob.n_clients, prob.dim))
    np.testing.assert_allclose(
        prob.sample_grad(x, np.broadcast_to(idx, (2, *idx.shape))), sub.client_grad(x), rtol=1e-12, atol=1e-15
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_smoothness_and_strong_convexity_constants_hold(seed):
    prob = _problem(seed % 1000)
    rng = np.random.default_rng(seed)
    x, y = 3 * rng.normal(size=(2, 50, prob.n_clients, prob.dim))
    ratio = np.linalg.norm(prob.client_grad(x) - prob.client_grad(y), axis=-1) / np.linalg.norm(x - y, axis=-1)
    assert ratio.max() <= prob.L
    g = prob.grad(x[:, 0])  # ||x - x*|| <= ||grad f(x)|| / mu by strong convexity
    assert np.all(np.linalg.norm(x[:, 0] - prob.x_star, axis=-1) <= np.linalg.norm(g, axis=-1) / prob.mu * (1 + 1e-9))


def test_the_optimum_is_certified_by_its_gradient_norm():
    prob = _problem(1, sizes=(40, 7, 90, 13), p=6, C=4, l2=1e-2)
    opt = softmax_optimum(prob, grad_tol=1e-11)
    cert = opt.certificate
    assert cert["gradient_norm"] <= 1e-11
    assert cert["value_error_bound"] == pytest.approx(cert["gradient_norm"] ** 2 / (2 * prob.l2))
    assert opt.value == pytest.approx(float(prob.value(opt.x)), rel=1e-15)
    perturbed = opt.x + 1e-3 * np.random.default_rng(0).normal(size=(20, prob.dim))
    assert np.all(prob.value(perturbed) > opt.value)
    np.testing.assert_array_equal(prob.x_star, prob.optimum.x)
    assert prob.f_star == prob.optimum.value


def test_an_uncertifiable_optimum_is_refused():
    """l2 = 0 (separable data make the gradient vanish without a minimiser) is refused; a tolerance the Newton
    steps cannot reach raises."""
    feats = [np.array([[1.0, 0.0], [-1.0, 0.0]])]
    with pytest.raises(InvalidParameterError, match="l2 > 0"):
        softmax_optimum(SoftmaxRegression(feats, [np.array([1, 0])], n_classes=2, l2=0.0))
    with pytest.raises(ReferenceSolveError, match="not certified"):
        softmax_optimum(_problem(0), grad_tol=1e-300, newton_steps=1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_two_classes_are_binary_logistic_regression(seed):
    """C = 2 at x = (-v/2, v/2) is l2/2-regularised binary logistic regression at v (equal client sizes)."""
    rng = np.random.default_rng(seed)
    X, y = binary_data(rng, 24, 3)
    X, y = X.reshape(4, 6, 3), y.reshape(4, 6)
    soft = SoftmaxRegression(list(X), list((y + 1) // 2), n_classes=2, l2=0.2)
    logit = LogisticRegression(X, y.astype(float), l2=0.1)
    v = rng.normal(size=(5, 3))
    np.testing.assert_allclose(soft.value(np.hstack([-v / 2, v / 2])), logit.value(v), rtol=1e-12)


def test_the_minibatch_oracle_draws_each_clients_own_samples():
    prob = _problem(0, sizes=(2, 30, 5))
    oracle = SoftmaxMinibatch(prob, 4)
    x = np.zeros((300, prob.n_clients, prob.dim))
    idx = oracle.indices(x.shape, np.random.default_rng(1))
    for i, n in enumerate(prob.counts):
        assert set(np.unique(idx[:, i])) == set(range(n))
    g = oracle(x[:2], np.random.default_rng(2))
    np.testing.assert_array_equal(g, prob.sample_grad(x[:2], oracle.indices(x[:2].shape, np.random.default_rng(2))))
    mean = np.mean([oracle(x[:1], np.random.default_rng(s))[0] for s in range(2000)], axis=0)
    np.testing.assert_allclose(mean, prob.client_grad(x[0]), atol=0.05)  # unbiased: sd of the mean ~ 0.01


def test_held_out_metrics_and_federated_construction():
    rng = np.random.default_rng(4)
    X, y = softmax_data(rng, 300, 5, 3)
    parts = [np.arange(0, 50), np.arange(50, 170), np.arange(170, 200)]
    prob = federated_softmax(X[:200], y[:200], parts, n_classes=3, l2=1e-2, test_features=X[200:], test_labels=y[200:])
    np.testing.assert_array_equal(prob.counts, [50, 120, 30])
    x = rng.normal(size=(2, prob.dim))
    pred = np.argmax(X[200:] @ prob.weight_matrix(x).swapaxes(-1, -2), axis=-1)
    np.testing.assert_allclose(prob.accuracy(x), np.mean(pred == y[200:], axis=-1))
    assert prob.accuracy(x, "train").shape == (2,)
    assert np.all(prob.loss(x) > 0)
    assert prob.accuracy(prob.x_star) > 1 / 3  # better than chance on Gaussian classes


def test_generators_are_seeded_and_scaled():
    a, b = softmax_data(np.random.default_rng(5), 4000, 50, 4), softmax_data(np.random.default_rng(5), 4000, 50, 4)
    np.testing.assert_array_equal(a[0], b[0])
    X, y = a
    means = np.array([X[y == c].mean(axis=0) for c in range(4)])  # mu_c ~ N(0, (4/d) I): E||mu_c||^2 = 4
    assert 2.0 < np.mean(np.sum(means**2, axis=1)) < 6.0
    Xb, yb = binary_data(np.random.default_rng(6), 20000, 4)
    assert set(np.unique(yb)) == {-1, 1}
    w = (Xb * yb[:, None]).mean(axis=0) / 0.5  # E[y a] = 0.5 w, ||w|| = 1
    assert abs(np.linalg.norm(w) - 1) < 0.05


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: SoftmaxRegression([np.ones((2, 3))], [np.array([0, 5])], n_classes=3, l2=0.1), "client_labels"),
        (lambda: SoftmaxRegression([np.ones((0, 3))], [np.array([], int)], n_classes=3, l2=0.1), "client_features"),
        (lambda: SoftmaxRegression([np.ones((2, 3))], [np.array([0, 1])], n_classes=1, l2=0.1), "n_classes"),
        (lambda: SoftmaxRegression([np.ones((2, 3))], [np.array([0, 1])], n_classes=2, l2=-1.0), "l2"),
        (lambda: SoftmaxRegression([np.ones((2, 3))], [], n_classes=2, l2=0.1), "client_labels"),
        (lambda: federated_softmax(np.ones((4, 2)), np.arange(4), [np.array([5])], n_classes=4, l2=0.1), "parts"),
        (lambda: SoftmaxMinibatch(LogisticRegression(np.ones((2, 3)), np.ones(2)), 2), "problem"),
        (lambda: softmax_data(np.random.default_rng(0), 10, 3, 1), "n_classes"),
        (lambda: _problem(0).sample_grad(np.zeros((4, 12)), np.full((4, 1), 3)), "idx"),
        (lambda: _problem(0).hessian(np.zeros((2, 12))), "x"),
        (lambda: _problem(0).client_values(np.zeros((2, 12)), clients=np.array([0, 4])), "clients"),
        (lambda: _problem(0).client_values(np.zeros((2, 12)), clients=np.array([0])), "clients"),
        (lambda: _problem(0).accuracy(np.zeros(12), "valid"), "split"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=f"invalid {name}"):
        call()
