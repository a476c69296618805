"""Scaled-down reproductions of the papers' experiments (step-size sweeps run as replicas)."""
