"""Chapter 4 and appendix C (with Zaheer and Reddi): federated composite optimization, FedMiD and FedDualAvg."""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
