"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import fedac, fedavg

__all__ = ["fedac", "fedavg"]
