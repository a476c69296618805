"""Worst cases over whole function classes (performance estimation with PEPit and Clarabel) and their replay.

:mod:`.solve` solves a formulation and certifies it; :mod:`.interpolation` builds concrete functions of the class
through the worst case's data, so that fedtheory's own algorithms can be run on it; the formulation modules
(:mod:`.local_methods`, ...) write each algorithm's deterministic round map on PEPit's classes, each with its replay.
"""

from .solve import FunctionData, Roles, WorstCase, worst_case

__all__ = ["FunctionData", "Roles", "WorstCase", "worst_case"]
