"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import composite, fedac, fedavg

__all__ = ["composite", "fedac", "fedavg"]
