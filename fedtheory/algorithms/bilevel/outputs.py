"""Outputs of StR-FedAvg: the printed theta-weighted average of Propositions 1 and 4 and its normalised variant.

Propositions 1 and 4 of the StR-FedAvg paper print the output

    ``xbar^R = sum_{r=1}^R [theta^r / sum_{rhat=1}^{R-1} theta^rhat] xbar^{r-1}``,
    ``theta = 1/(1 - 0.5 eta mu_f gamma~)``,

whose weights sum to ``1 + theta^R / sum_{r=1}^{R-1} theta^r > 1`` (``R/(R-1)`` when ``theta = 1``); the proof of
Prop 1 uses the same normaliser. Two outputs are implemented:

* ``"printed"`` -- the formula above, verbatim;
* ``"theta_avg"`` -- ``xhat^R = sum_r theta^r xbar^{r-1} / sum_r theta^r``, a convex combination.

Weights are computed from ``log w_r = r log theta - log(normaliser)`` with a log-sum-exp normaliser, so ``theta^R``
never overflows; :func:`printed_weights` gives the printed weights as exact fractions.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.special import logsumexp

from ..._validate import positive, positive_int
from ...errors import InvalidParameterError

KINDS = ("printed", "theta_avg")


def theta(eta, mu_f, gamma_tilde):
    """``theta = 1/(1 - 0.5 eta mu_f gamma_tilde)`` (Proposition 1).

    Exact (a :class:`~fractions.Fraction`) when every argument is rational and one of them is a ``Fraction``;
    a float otherwise. ``theta = 1`` when ``mu_f = 0`` (Proposition 4) or ``eta = 0``.

    Raises
    ------
    InvalidParameterError
        If ``0.5 eta mu_f gamma_tilde >= 1`` (the denominator is not positive).
    """
    positive("eta", eta, allow_zero=True)
    positive("mu_f", mu_f, allow_zero=True)
    positive("gamma_tilde", gamma_tilde)
    args = (eta, mu_f, gamma_tilde)
    exact = all(isinstance(v, numbers.Rational) for v in args) and any(isinstance(v, Fraction) for v in args)
    if exact:
        denominator = 1 - Fraction(eta) * Fraction(mu_f) * Fraction(gamma_tilde) / 2
    else:
        denominator = 1 - 0.5 * float(eta) * float(mu_f) * float(gamma_tilde)
    if denominator <= 0:
        raise InvalidParameterError(
            "gamma_tilde", "0.5 eta mu_f gamma_tilde < 1 (theta needs a positive denominator)", gamma_tilde
        )
    return 1 / denominator


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise InvalidParameterError("kind", f"one of {', '.join(KINDS)}", kind)
    return kind


def weights(theta_value, R: int, kind: str = "printed") -> np.ndarray:
    """The weights ``w_r`` (``r = 1..R``) multiplying ``xbar^{r-1}`` in the output ``kind``.

    ``"printed"``: ``theta^r / sum_{rhat=1}^{R-1} theta^rhat`` (needs ``R >= 2``: the printed normaliser is an empty
    sum at ``R = 1``); ``"theta_avg"``: ``theta^r / sum_{rhat=1}^R theta^rhat``.
    """
    kind = _check_kind(kind)
    R = positive_int("R", R, minimum=2 if kind == "printed" else 1)
    theta_value = positive("theta", theta_value)
    count = R - 1 if kind == "printed" else R
    if theta_value == 1:
        return np.full(R, 1.0 / count)
    log_w = np.arange(1, R + 1) * np.log(theta_value)
    return np.exp(log_w - logsumexp(log_w[:count]))


@dataclass
class Output:
    """An output of a run: ``x`` (S, n) ``= sum_r weights[r-1] xbar^{r-1}``, the weights (R,) and their sum."""

    x: np.ndarray
    weights: np.ndarray
    weight_sum: float
    kind: str


def output(trajectory, theta_value, kind: str = "printed") -> Output:
    """The output ``kind`` (``"printed"`` or ``"theta_avg"``) of a run recorded at every round.

    Parameters
    ----------
    trajectory : StRTrajectory
        Server iterates ``xbar^0..xbar^R`` (``record_every = 1``).
    theta_value : float
        ``theta`` (see :func:`theta`).
    """
    t = np.asarray(trajectory.t)
    R = int(t[-1])
    if not np.array_equal(t, np.arange(R + 1)):
        raise InvalidParameterError("trajectory", "a trajectory recorded at every round (record_every = 1)", t)
    if R < 1:
        raise InvalidParameterError("trajectory", "a run of at least one round (R >= 1)", R)
    w = weights(float(theta_value), R, kind)
    x = np.einsum("r,rsd->sd", w, trajectory.x[:R])
    return Output(x, w, float(w.sum()), kind)


def printed_weights(theta_value, R: int) -> list[Fraction]:
    """The printed weights ``theta^r / sum_{rhat=1}^{R-1} theta^rhat``, ``r = 1..R``, as exact fractions
    (a float ``theta`` is converted exactly). Their sum is ``1 + theta^R / sum_{r=1}^{R-1} theta^r``."""
    R = positive_int("R", R, minimum=2)
    positive("theta", theta_value)
    q = Fraction(theta_value)
    powers = [q**r for r in range(1, R + 1)]
    normaliser = sum(powers[:-1], Fraction(0))
    return [p / normaliser for p in powers]
