"""Chapter 2 and appendix A (with Glasgow and Ma): iterate bias and sharp bounds for FedAvg."""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
