"""Thesis chapter 4 and appendix C (Yuan, Zaheer, Reddi): federated composite optimization, FedMiD and FedDualAvg.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 4 at lines 1630-2573, appendix C at 4432-4781.
"""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
