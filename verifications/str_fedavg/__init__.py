"""StR-FedAvg / IPIR-FedAvg (Ebrahimi, Qiu, Cui, Yousefian, arXiv:2503.08634v2): weak sharpness and optimal-solution
selection.

Paper text: ``shared/seeds/003_511a8e816d499631.txt``; digest ``shared/spec/str-fedavg.md``.
"""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
