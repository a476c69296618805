"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import bilevel, composite, fedac, fedavg

__all__ = ["bilevel", "composite", "fedac", "fedavg"]
