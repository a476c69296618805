"""Decentralized federated learning with opposite lookahead enhancement (OledFL, Algorithm 1, and its analysis)."""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "oledfl",
    title="OledFL: Unleashing the Potential of Decentralized Federated Learning via Opposite Lookahead Enhancement",
    authors="Qinglun Li, Miao Zhang, Mengzhu Wang, Quanjun Yin, Li Shen",
    venue="arXiv:2410.06482",
)

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
