"""Thesis chapter 2 and appendix A (Glasgow, Yuan, Ma): iterate bias and sharp bounds for FedAvg.

Paper text: ``shared/seeds/001_cb75050223127bb7.txt``, chapter 2 at lines 115-790, appendix A at
2574-3272.
"""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
