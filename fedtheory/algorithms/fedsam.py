"""Centralized FedAvg and FedSAM with partial participation, vectorised over replicas and clients.

One round: the server samples ``n`` of the ``m`` clients uniformly without replacement (independently per replica);
each participant runs ``K`` local SGD steps (FedAvg) or SAM steps (FedSAM: the gradient at ``x + r g/||g||`` on the
same sample) from the server model; the server takes the participants' mean. Every client's local steps are computed
(one array operation for all of them) and the non-participants are masked out of the mean, so a replica's result
depends only on its participants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import generator, positive, positive_int
from ..errors import DivergenceError, InvalidParameterError
from ..oracles import Oracle, check_oracle, check_replicated
from .decentralized import DecentralizedParams, local_steps


@dataclass(frozen=True)
class FedSAMParams:
    """``eta`` local step, ``K`` local steps, ``m`` clients, ``participants`` sampled per round, ``sam_radius``
    (``None``: FedAvg's SGD steps)."""

    eta: float
    K: int
    m: int
    participants: int
    sam_radius: float | None = None

    def __post_init__(self):
        positive("eta", self.eta)
        positive_int("K", self.K)
        positive_int("m", self.m)
        if not 1 <= self.participants <= self.m:
            raise InvalidParameterError("participants", f"an integer in [1, m = {self.m}]", self.participants)
        if self.sam_radius is not None:
            positive("sam_radius", self.sam_radius, allow_zero=True)

    @property
    def name(self) -> str:
        return "FedAvg" if self.sam_radius is None else "FedSAM"


def participation_mask(S: int, m: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``(S, m)`` boolean mask with ``n`` clients drawn uniformly without replacement in every replica."""
    ranks = np.argsort(rng.random((S, m)), axis=1)
    mask = np.zeros((S, m), dtype=bool)
    np.put_along_axis(mask, ranks[:, :n], True, axis=1)
    return mask


def round(x: np.ndarray, oracle: Oracle, params: FedSAMParams, rng: np.random.Generator) -> np.ndarray:
    """One round from server models ``x`` ``(S, d)``; returns the new server models."""
    rng = generator("rng", rng, allow_none=True)
    S = x.shape[0]
    if rng is None and params.participants < params.m:
        raise InvalidParameterError("rng", "a numpy Generator to sample the participants")
    mask = (
        np.ones((S, params.m), dtype=bool)
        if params.participants == params.m
        else participation_mask(S, params.m, params.participants, rng)
    )
    start = np.broadcast_to(x[:, None, :], (S, params.m, x.shape[-1]))
    local = local_steps(start, oracle, DecentralizedParams(params.eta, params.K, sam_radius=params.sam_radius), rng)
    return np.einsum("sm,smd->sd", mask, local) / params.participants


def run(oracle: Oracle, x0, params: FedSAMParams, R: int, rng: np.random.Generator, *, S: int = 1) -> np.ndarray:
    """``R`` rounds from ``x0``; the server models of every round ``(R + 1, S, d)``."""
    oracle = check_oracle(oracle)
    rng = generator("rng", rng, allow_none=True)
    x = check_replicated("x0", x0, oracle.problem.dim, positive_int("S", S))
    out = [x]
    for r in range(positive_int("R", R, minimum=0)):
        x = round(x, oracle, params, rng)
        if not np.all(np.isfinite(x)):
            raise DivergenceError(params.name, r + 1)
        out.append(x)
    return np.stack(out)
