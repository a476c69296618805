"""fedtheory: turn the claims of federated-optimization papers into numbers."""

__version__ = "0.1.0"
