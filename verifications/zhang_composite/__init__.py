"""Non-convex composite federated learning with a decoupled proximal step (Algorithm 1 and its analysis)."""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "zhang-composite",
    title="Non-convex composite federated learning with heterogeneous data",
    authors="Jiaojiao Zhang, Jiang Hu, Mikael Johansson",
    venue="arXiv:2502.03958",
)

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
