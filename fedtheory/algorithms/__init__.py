"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import bilevel, composite, decentralized, fedac, fedavg, fedsam, primal_dual

__all__ = ["bilevel", "composite", "decentralized", "fedac", "fedavg", "fedsam", "primal_dual"]
