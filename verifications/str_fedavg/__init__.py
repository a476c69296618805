"""StR-FedAvg and IPIR-FedAvg: weak sharpness, self-tuned regularization and optimal-solution selection."""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "str-fedavg",
    title="Self-tuned Regularized Federated Methods with Guarantees for Optimal Solution Selection",
    authors="Mohammadjavad Ebrahimi, Yuyang Qiu, Shisheng Cui, Farzad Yousefian",
    venue="arXiv:2503.08634v2 [math.OC], 13 Mar 2026",
)

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
