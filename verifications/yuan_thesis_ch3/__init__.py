"""Thesis chapter 3 and appendix B (Yuan, Ma): FedAc, and the initial-value instability of Nesterov's AGD.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 3 at lines 791-1643, appendix B at 3273-4431.
"""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
