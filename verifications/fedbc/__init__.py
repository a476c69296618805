"""Federated learning beyond consensus: FedBC's primal-dual method (Algorithms 1-3) and its analysis."""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "fedbc",
    title="FedBC: Calibrating Global and Local Models via Federated Learning Beyond Consensus",
    authors="Amrit Singh Bedi, Chen Fan, Alec Koppel, Anit Kumar Sahu, Brian M. Sadler, Furong Huang, Dinesh Manocha",
    venue="arXiv:2206.10815",
)

load_claim_modules(__name__, __path__)  # every module of this folder: a new one needs no edit here
