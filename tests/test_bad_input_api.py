"""Bad input to the Python API: every entry point refuses it with a fedtheory error that names the parameter.

One table, one test: each row is ``(label, call, exception type, substring of the message)``; the substring is the
parameter's name as the message prints it (``invalid <name>: expected ...``), or the round for a divergence.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from fedtheory.algorithms import bilevel as str_fedavg
from fedtheory.algorithms import composite as fco
from fedtheory.algorithms import fedac, fedavg
from fedtheory.errors import DivergenceError, FedtheoryError, InvalidParameterError
from fedtheory.exact import density, fedac_moments, moments, rational, uniform
from fedtheory.harness.claims import Evidence
from fedtheory.oracles import AdditiveGaussian, ExactGradient, Rademacher
from fedtheory.problems import FederatedQuadratic, LogCoshQuadratic, PiecewiseQuadratic, logistic_data
from fedtheory.problems.piecewise import PiecewiseLinear
from fedtheory.problems.solution_sets import AffineSolutionSet
from fedtheory.regularizers import L1, Box, ElasticNet, L1Ball, L2Ball, Masked, NuclearNorm, Simplex, SquaredL2
from fedtheory.sharpness import normal_directions

QUAD = FederatedQuadratic(np.diag([1.0, 0.5]), np.array([1.0, -1.0]))
NOISY = AdditiveGaussian(QUAD, 0.5)
PARAMS = fedavg.FedAvgParams(0.1, 2, 3)
FEDAC = fedac.fedac_i(0.1, 0.5, 2, 3)
PSI = PiecewiseQuadratic.scaled_psi(0.5).gradient_pieces()
LOGCOSH = LogCoshQuadratic(1.0, 0.1)
V = np.ones(3)


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _uniform(**changes):
    args = {"eta": 0.1, "sigma": 1.0, "k_max": 3, "x_range": (-1.0, 1.0), "dx": None, **changes}
    grad = lambda x: LOGCOSH.grad(x[:, None])[:, 0]  # noqa: E731
    return uniform.derivatives(grad, LOGCOSH.hessian_1d, LOGCOSH.third_1d, **args)


def _diverging_moments():
    # eta * L = 2.5: the exact mean and covariance of FedAvg grow by 1.5^(2K) per round and overflow.
    return moments.fedavg_moments(NOISY, fedavg.FedAvgParams(2.5, 50, 3), [1.0, 1.0], 20)


def _diverging_fedac_moments():
    problem = FederatedQuadratic(np.eye(2), np.zeros(2))
    params = fedac.FedAcParams(eta=3.0, gamma=3.0, alpha_inv=1.0, beta_inv=1.0, K=50, M=2)
    return fedac_moments.fedac_moments(AdditiveGaussian(problem, 0.5), params, [1.0, 1.0], 20)


def _composite(rng):
    params = fco.CompositeParams("FedMiD", 0.1, 2, 3)
    return fco.run(ExactGradient(QUAD), fco.Euclidean(L1(0.1)), np.zeros(2), params, 2, rng)


CASES = [
    # --- hyperparameters: step sizes, counts (non-integers are refused, never truncated) ---
    ("FedAvgParams eta = 0", lambda: fedavg.FedAvgParams(0.0, 2, 3), InvalidParameterError, "eta"),
    ("FedAvgParams eta = nan", lambda: fedavg.FedAvgParams(np.nan, 2, 3), InvalidParameterError, "eta"),
    ("FedAvgParams K = 2.5", lambda: fedavg.FedAvgParams(0.1, 2.5, 3), InvalidParameterError, "K"),
    ("FedAvgParams M = 0", lambda: fedavg.FedAvgParams(0.1, 2, 0), InvalidParameterError, "M"),
    ("FedAcParams K = 2.5", lambda: fedac.fedac_i(0.1, 0.5, 2.5, 3), InvalidParameterError, "K"),
    ("CompositeParams K = 1.5", lambda: fco.CompositeParams("FedMiD", 0.1, 1.5, 3), InvalidParameterError, "K"),
    ("StRParams K = 2.5", lambda: str_fedavg.StRParams(2.5, 0.1, 1.0, 0.0), InvalidParameterError, "K"),
    # --- run entry points ---
    ("fedavg.run R = 3.7", lambda: fedavg.run(NOISY, [0.0, 0.0], PARAMS, 3.7, _rng()), InvalidParameterError, "R"),
    ("fedavg.run S = 10.5", lambda: fedavg.run(NOISY, [0, 0], PARAMS, 2, _rng(), S=10.5), InvalidParameterError, "S"),
    ("fedavg.run x0 = nan", lambda: fedavg.run(NOISY, [np.nan, 0], PARAMS, 2, _rng()), InvalidParameterError, "x0"),
    (
        "fedavg.sgd record_at = [2.5]",
        lambda: fedavg.sgd(NOISY, [0.0, 0.0], 0.1, 4, _rng(), record_at=[2.5]),
        InvalidParameterError,
        "record_at",
    ),
    # --- a problem where an oracle is expected: the message says to wrap it ---
    ("fedavg.run(problem)", lambda: fedavg.run(QUAD, [0, 0], PARAMS, 2, _rng()), InvalidParameterError, "oracle"),
    ("fedac.run(problem)", lambda: fedac.run(QUAD, [0, 0], FEDAC, 2, _rng()), InvalidParameterError, "oracle"),
    (
        "fedavg_moments(problem)",
        lambda: moments.fedavg_moments(QUAD, PARAMS, [0.0, 0.0], 2),
        InvalidParameterError,
        "oracle",
    ),
    (
        "str_fedavg.run h_oracle = problem",
        lambda: str_fedavg.run(
            QUAD, QUAD, [0.0, 0.0], str_fedavg.StRParams(2, 0.1, 1.0, 0.0), 2, _rng(), h_oracle=QUAD
        ),
        InvalidParameterError,
        "h_oracle",
    ),
    # --- random generators: explicit numpy Generators only ---
    ("fedavg.run rng = 42", lambda: fedavg.run(NOISY, [0, 0], PARAMS, 2, 42), InvalidParameterError, "rng"),
    (
        "fedavg.run rng = RandomState",
        lambda: fedavg.run(NOISY, [0, 0], PARAMS, 2, np.random.RandomState(0)),
        InvalidParameterError,
        "rng",
    ),
    ("noisy oracle rng = None", lambda: fedavg.run(NOISY, [0, 0], PARAMS, 2, None), InvalidParameterError, "rng"),
    ("fedac.run rng = 7", lambda: fedac.run(NOISY, [0, 0], FEDAC, 2, 7), InvalidParameterError, "rng"),
    ("composite run rng = 3", lambda: _composite(3), InvalidParameterError, "rng"),
    (
        "logistic_data rng = 0",
        lambda: logistic_data(0, n_clients=2, n_per_client=3, dim=2),
        InvalidParameterError,
        "rng",
    ),
    (
        "normal_directions rng = RandomState",
        lambda: normal_directions(AffineSolutionSet(np.eye(2)[:1], [1.0]), np.random.RandomState(0), 3),
        InvalidParameterError,
        "rng",
    ),
    # --- oracles and problems ---
    ("AdditiveGaussian sigma < 0", lambda: AdditiveGaussian(QUAD, -1.0), InvalidParameterError, "sigma"),
    ("Rademacher sigma = nan", lambda: Rademacher(QUAD, np.nan), InvalidParameterError, "sigma"),
    ("AdditiveGaussian on an array", lambda: AdditiveGaussian(np.eye(2), 1.0), InvalidParameterError, "problem"),
    (
        "FederatedQuadratic non-square A",
        lambda: FederatedQuadratic(np.ones((2, 3)), np.zeros(2)),
        InvalidParameterError,
        "A",
    ),
    ("FederatedQuadratic b of wrong length", lambda: FederatedQuadratic(np.eye(2), V), InvalidParameterError, "b"),
    ("PiecewiseQuadratic a_plus = nan", lambda: PiecewiseQuadratic(np.nan, 1.0), InvalidParameterError, "a_plus"),
    (
        "PiecewiseLinear nan breakpoint",
        lambda: PiecewiseLinear((np.nan,), (1.0, 1.0), (0.0, 0.0)),
        InvalidParameterError,
        "breakpoints",
    ),
    (
        "PiecewiseLinear inf slope",
        lambda: PiecewiseLinear((0.0,), (np.inf, 1.0), (0.0, 0.0)),
        InvalidParameterError,
        "slopes",
    ),
    # --- exact engines ---
    (
        "density du = 8 (kernel unresolved)",
        lambda: density.propagate(PSI, eta=0.1, noise_sd=1.0, x0=0.0, steps=[16], du=8),
        InvalidParameterError,
        "du",
    ),
    ("density steps = [2.5]", lambda: density.propagate(PSI, 0.1, 1.0, 0.0, [2.5]), InvalidParameterError, "steps"),
    ("density x0 = nan", lambda: density.propagate(PSI, 0.1, 1.0, np.nan, [2]), InvalidParameterError, "x0"),
    (
        "density g with a jump",
        lambda: density.propagate(PiecewiseLinear((0.0,), (1.0, 1.0), (0.0, 1.0)), 0.1, 1.0, 0.0, [2]),
        InvalidParameterError,
        "g",
    ),
    ("round_map K = 2.5", lambda: density.round_map(PSI, 0.1, 1.0, 2.5, (-1, 1)), InvalidParameterError, "K"),
    (
        "SmoothDrift nan slope bound",
        lambda: density.SmoothDrift(np.tanh, (0.0, np.nan)),
        InvalidParameterError,
        "slopes",
    ),
    ("uniform dx > eta sigma / 2", lambda: _uniform(dx=0.08), InvalidParameterError, "dx"),
    ("uniform k_max = 2.5", lambda: _uniform(k_max=2.5), InvalidParameterError, "k_max"),
    (
        "FiniteNoise float probabilities",
        lambda: rational.FiniteNoise(((Fraction(1),), (Fraction(-1),)), (0.5, 0.5)),
        InvalidParameterError,
        "probs",
    ),
    (
        "rational.propagate k_max = 2.5",
        lambda: rational.propagate(lambda x, xi: x, [0], rational.FiniteNoise.rademacher(1), 2.5),
        InvalidParameterError,
        "k_max",
    ),
    (
        "fedavg_moments x0_cov not PSD",
        lambda: moments.fedavg_moments(NOISY, PARAMS, [0.0, 0.0], 2, x0_cov=np.diag([1.0, -1.0])),
        InvalidParameterError,
        "x0_cov",
    ),
    (
        "fedavg_moments x0_cov = nan",
        lambda: moments.fedavg_moments(NOISY, PARAMS, [0.0, 0.0], 2, x0_cov=np.full((2, 2), np.nan)),
        InvalidParameterError,
        "x0_cov",
    ),
    ("fedavg_moments blow up", _diverging_moments, DivergenceError, "diverged at round"),
    ("fedac_moments blow up", _diverging_fedac_moments, DivergenceError, "diverged at round"),
    # --- regularizers: bounds and the prox step t (finite, > 0) for every one of them ---
    ("Box lo = nan", lambda: Box(np.nan, 1.0), InvalidParameterError, "lo"),
    ("Box crossed bounds", lambda: Box([0.0, 2.0], [1.0, 1.0]), InvalidParameterError, "lo"),
    ("L1 prox t = 0", lambda: L1(1.0).prox(V, 0.0), InvalidParameterError, "t"),
    ("SquaredL2 prox t = nan", lambda: SquaredL2(1.0).prox(V, np.nan), InvalidParameterError, "t"),
    ("ElasticNet prox t < 0", lambda: ElasticNet(1.0, 1.0).prox(V, -1.0), InvalidParameterError, "t"),
    ("NuclearNorm prox t = inf", lambda: NuclearNorm(1.0).prox(np.eye(2), np.inf), InvalidParameterError, "t"),
    ("Box prox t = 0", lambda: Box(0.0, 1.0).prox(V, 0), InvalidParameterError, "t"),
    ("L2Ball prox t = -inf", lambda: L2Ball(1.0).prox(V, -np.inf), InvalidParameterError, "t"),
    ("L1Ball prox t = nan", lambda: L1Ball(1.0).prox(V, np.nan), InvalidParameterError, "t"),
    ("Simplex prox t = 0", lambda: Simplex().prox(V, 0.0), InvalidParameterError, "t"),
    ("Masked prox t = 0", lambda: Masked(L1(1.0), [True, False, True]).prox(V, 0.0), InvalidParameterError, "t"),
    (
        "Masked shape = (1.5, 2)",
        lambda: Masked(L1(1.0), [True, True, True], shape=(1.5, 2)),
        InvalidParameterError,
        "shape",
    ),
    # --- the claim contract ---
    (
        "Evidence relation '~'",
        lambda: Evidence(measured=1.0, bound=1.0, relation="~"),
        InvalidParameterError,
        "relation",
    ),
]


@pytest.mark.parametrize(("label", "call", "error", "names"), CASES, ids=[case[0] for case in CASES])
def test_bad_input_is_refused_with_a_message_naming_the_parameter(label, call, error, names):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, FedtheoryError)
    message = str(info.value)
    if error is InvalidParameterError:
        assert info.value.name == names and message.startswith(f"invalid {names}: expected "), message
    assert names in message, message


def test_the_table_covers_at_least_thirty_distinct_inputs():
    assert len({case[0] for case in CASES}) == len(CASES) >= 30


def test_a_problem_given_as_oracle_gets_a_hint_to_wrap_it():
    for call in (
        lambda: fedavg.run(QUAD, [0.0, 0.0], PARAMS, 2, _rng()),
        lambda: moments.fedavg_moments(QUAD, PARAMS, [0.0, 0.0], 2),
    ):
        with pytest.raises(InvalidParameterError, match=r"invalid oracle: .*ExactGradient\(problem\)"):
            call()
