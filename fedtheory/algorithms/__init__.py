"""Federated algorithms as pure functions over ``(replicas, clients, d)`` arrays."""

from . import bilevel, client_server, composite, decentralized, fedac, fedavg, fedsam, personalized, primal_dual

__all__ = [
    "bilevel",
    "client_server",
    "composite",
    "decentralized",
    "fedac",
    "fedavg",
    "fedsam",
    "personalized",
    "primal_dual",
]
