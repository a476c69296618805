"""Honglin Yuan's thesis on local optimization methods for federated learning, one sub-package per chapter.

* :mod:`.ch2` -- chapter 2 and appendix A (with Glasgow and Ma): iterate bias and sharp bounds for FedAvg;
* :mod:`.ch3` -- chapter 3 and appendix B (with Ma): FedAc, and the initial-value instability of Nesterov's AGD;
* :mod:`.ch4` -- chapter 4 and appendix C (with Zaheer and Reddi): federated composite optimization, FedMiD and
  FedDualAvg.
"""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "yuan-thesis",
    title="On Principled Local Optimization Methods for Federated Learning",
    authors="Honglin Yuan",
    venue="PhD dissertation, Stanford University, May 2022",
)

load_claim_modules(__name__, __path__)  # every chapter: a new one needs no edit here
