"""Chapter 3 and appendix B (with Ma): FedAc, and the initial-value instability of Nesterov's AGD."""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
