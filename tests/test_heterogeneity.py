import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fedtheory.errors import InvalidParameterError
from fedtheory.heterogeneity import READINGS, dissimilarity, dissimilarity_curve, smallest_B2

RTOL = 1e-9  # relative to the size of the terms compared: the closed form is a d x d eigen-solve


def clients(seed: int, m: int, d: int, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """Seeded SPD client matrices (spectrum >= 0.1) and offsets of scale ``spread``."""
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((m, d, d))
    A = np.einsum("mij,mkj->mik", M, M) + 0.1 * np.eye(d)
    return A, spread * rng.standard_normal((m, d))


def excess(A, b, x, B2):
    """``||A_i x - b_i||^2 - B2 ||Abar x - bbar||^2`` per client (..., m), and the size of the terms compared (the two
    terms at ``x`` and at 0, whose difference the closed form ``q'Q^+q + r`` computes)."""
    gi = np.einsum("mij,...j->...mi", A, x) - b
    g = x @ A.mean(axis=0).T - b.mean(axis=0)
    ni, n = np.sum(gi**2, axis=-1), B2 * np.sum(g**2, axis=-1)[..., None]
    at_0 = np.sum(b**2, axis=-1) + B2 * np.sum(b.mean(axis=0) ** 2)  # the size of the closed form's terms
    return ni - n, ni + n + at_0


problems = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 4), st.floats(0.0, 10.0))
above = st.floats(1e-2, 1e2)  # B^2 / smallest_B2 - 1 (log-uniform enough for the property)


@pytest.mark.parametrize("reading", READINGS)
@given(problem=problems, u=above, seed_x=st.integers(0, 2**32 - 1))
def test_constant_holds_at_random_points(reading, problem, u, seed_x):
    A, b = clients(*problem)
    B2 = smallest_B2(A, b, reading=reading) * (1 + u)
    G2 = dissimilarity(A, b, B2, reading=reading).G2
    rng = np.random.default_rng(seed_x)
    x = rng.standard_normal((200, A.shape[-1])) * np.exp(rng.uniform(-3, 3, (200, 1)))
    e, size = excess(A, b, x, B2)
    if reading == "client-averaged":
        e, size = e.mean(axis=-1, keepdims=True), size.mean(axis=-1, keepdims=True)
    assert np.all(e <= G2 + RTOL * (size + abs(G2)))


@pytest.mark.parametrize("reading", READINGS)
@given(problem=problems, u=above)
def test_constant_is_attained_at_the_maximiser(reading, problem, u):
    A, b = clients(*problem)
    B2 = smallest_B2(A, b, reading=reading) * (1 + u)
    found = dissimilarity(A, b, B2, reading=reading)
    e, size = excess(A, b, found.maximiser, B2)
    if reading == "per-client":
        attained, size = e[found.client], size[found.client]
        assert found.G2 == pytest.approx(np.max(found.per_client), rel=0, abs=0)
    else:
        attained, size = e.mean(), size.mean()
    assert abs(attained - found.G2) <= RTOL * (size + abs(found.G2))
    assert dissimilarity_curve(A, b, np.array([B2]), reading=reading)[0] == found.G2


@pytest.mark.parametrize("reading", READINGS)
@given(problem=problems, u=st.floats(1e-4, 0.5))
def test_infeasible_B2_is_refused_naming_B(reading, problem, u):
    A, b = clients(*problem)
    B2 = smallest_B2(A, b, reading=reading) * (1 - u)
    with pytest.raises(InvalidParameterError) as err:
        dissimilarity(A, b, B2, reading=reading)
    assert err.value.name == "B2"
    assert np.isinf(dissimilarity_curve(A, b, np.array([B2]), reading=reading)[0])


@given(problem=problems)
def test_curve_decreases_in_B2_and_averaged_reading_is_smaller(problem):
    A, b = clients(*problem)
    B2 = smallest_B2(A, b) * np.array([1.01, 1.1, 2.0, 10.0])
    per_client = dissimilarity_curve(A, b, B2)
    tol = RTOL * (np.abs(per_client) + np.max(np.sum(b**2, axis=-1)) + B2 * np.sum(b.mean(axis=0) ** 2))
    assert np.all(np.diff(per_client) <= tol[:-1])
    assert np.all(dissimilarity_curve(A, b, B2, reading="client-averaged") <= per_client + tol)
    assert smallest_B2(A, b, reading="client-averaged") <= smallest_B2(A, b) * (1 + RTOL)


def test_identical_clients_have_G_0_at_B_1():
    A = np.broadcast_to(3.0 * np.eye(2), (4, 2, 2))
    b = np.broadcast_to(np.array([1.0, -2.0]), (4, 2))
    assert smallest_B2(A, b) == pytest.approx(1.0, rel=1e-12)
    found = dissimilarity(A, b, 1.0)
    assert found.G2 == 0.0 and found.client == 0


def test_shared_hessian_closed_form():
    # A_i = a I with sum_i b_i = 0: G^2(B^2) = max_i ||b_i||^2 B^2/(B^2 - 1), infinite at B^2 = 1
    rng = np.random.default_rng(3)
    b = rng.standard_normal((5, 3))
    b -= b.mean(axis=0)
    A = np.broadcast_to(2.0 * np.eye(3), (5, 3, 3))
    B2 = np.array([1.5, 4.0])
    expected = np.max(np.sum(b**2, axis=1)) * B2 / (B2 - 1)
    assert np.allclose(dissimilarity_curve(A, b, B2), expected, rtol=1e-12)
    assert np.isinf(dissimilarity_curve(A, b, np.array([1.0]))[0])


def test_bad_input():
    A, b = clients(0, 3, 2, 1.0)
    with pytest.raises(InvalidParameterError, match="reading"):
        dissimilarity(A, b, 5.0, reading="max")
    with pytest.raises(InvalidParameterError, match="B2"):
        dissimilarity(A, b, -1.0)
    with pytest.raises(InvalidParameterError, match="b"):
        smallest_B2(A, b[:2])
    singular = np.zeros((2, 2, 2))
    singular[0, 0, 0], singular[1, 0, 0], singular[1, 1, 1] = 1.0, 1.0, 1.0  # Abar e_2 != 0 only through client 1
    assert smallest_B2(singular, np.zeros((2, 2))) == pytest.approx(4.0)
    singular[0, 1, 1], singular[1, 1, 1] = 1.0, -1.0  # now Abar e_2 = 0 but A_0 e_2 != 0: no B works
    with pytest.raises(InvalidParameterError, match="A"):
        smallest_B2(singular, np.zeros((2, 2)))
