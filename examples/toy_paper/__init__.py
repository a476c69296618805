"""A made-up paper, "Toy results on federated averaging", as an outside claims package.

An example of how a paper of your own is checked by fedtheory without touching fedtheory: the package registers its
paper record and imports its claim modules, and its distribution names it under the ``fedtheory.claims`` entry point
(``pyproject.toml``: ``[project.entry-points."fedtheory.claims"] toy = "toy_paper"``); ``fedtheory list toy-paper``
then shows its claims and ``fedtheory verify toy-paper`` judges them.
"""

from fedtheory.harness.claims import load_claim_modules, paper

PAPER = paper(
    "toy-paper",
    title="Toy results on federated averaging",
    authors="A. Nonymous",
    venue="made up for fedtheory's examples",
)

load_claim_modules(__name__, __path__)
