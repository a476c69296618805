"""The toy paper's claims and a method's properties, tested in a user's suite with fedtheory's pytest plugin and
Hypothesis strategies (run by fedtheory's own suite: tests/test_examples.py)."""

import numpy as np
from hypothesis import given, settings

from fedtheory import strategies as fs
from fedtheory.harness.claims import Evidence
from fedtheory.harness.pytest_plugin import assert_claim

EXAMPLES = settings(max_examples=25, derandomize=True, deadline=None)
"""Hypothesis settings of these examples: the same cases in every run. A test with ``@given`` calls
:func:`~fedtheory.harness.pytest_plugin.assert_claim` itself (function-scoped fixtures are not reset between
Hypothesis examples)."""


def test_theorem_1_holds(fedtheory_check):
    fedtheory_check("toy-paper/thm-1")


def test_proposition_2_stays_a_counterexample(fedtheory_check):
    result = fedtheory_check("toy-paper/prop-2", expect="fails")
    assert result.worst["parameters"]["K"] > 1  # one local step is gradient descent: no bias there


def test_gradient_descent_from_a_seeded_start(fedtheory_context, fedtheory_check):
    """A claim measured in the test itself: the start is drawn from the test's own seeded generator."""
    A = np.diag([1.0, 0.1])
    x = fedtheory_context.rng().normal(size=2)
    gaps = []
    for _ in range(10):
        gaps.append(0.5 * x @ A @ x)
        x = x - A @ x
    fedtheory_check(Evidence(np.array(gaps[1:]), (1 - 0.1) ** 2 * np.array(gaps[:-1]), "<=", rtol=1e-12))


@EXAMPLES
@given(case=fs.problems_and_steps(fs.federated_quadratics(mu=0.1), upper=lambda p: 1 / p.L))
def test_gradient_descent_contracts_inside_the_printed_condition(case):
    """Theorem 1 on any quadratic with mu = 0.1 and any step eta <= 1/L."""
    problem, eta = case
    x = np.ones(problem.dim)
    before = np.linalg.norm(x - problem.x_star)
    after = np.linalg.norm(x - eta * problem.grad(x) - problem.x_star)
    assert_claim(Evidence(after, (1 - eta * problem.mu) * before, "<=", rtol=1e-9))


@EXAMPLES
@given(W=fs.mixing_matrices())
def test_one_gossip_step_contracts_the_disagreement(W):
    X = np.arange(W.m * 2, dtype=float).reshape(1, W.m, 2) ** 2
    spread = np.linalg.norm(X - X.mean(axis=1, keepdims=True))
    mixed = W.gossip(X)
    assert_claim(
        Evidence(
            np.linalg.norm(mixed - mixed.mean(axis=1, keepdims=True)),
            W.psi * spread,
            "<=",
            rtol=1e-9,
            atol=1e-12 * spread,
        )
    )


@EXAMPLES
@given(case=fs.prox_cases())
def test_the_prox_is_nonexpansive(case):
    reg, v, t = case
    w = v + 1.0
    distance = np.linalg.norm(reg.prox(v, t) - reg.prox(w, t))
    assert_claim(Evidence(distance, np.linalg.norm(v - w), "<=", rtol=1e-9, atol=1e-12))
