"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import fedavg

__all__ = ["fedavg"]
