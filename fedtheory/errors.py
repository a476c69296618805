"""Exceptions raised by fedtheory.

Every user-facing error names the offending parameter and what is allowed, so that the CLI can
print it as one line and a researcher can fix the call without reading a traceback.
"""

from __future__ import annotations


class FedtheoryError(Exception):
    """Base class of every error fedtheory raises on purpose."""


class InvalidParameterError(FedtheoryError, ValueError):
    """A parameter is outside its allowed set.

    Parameters
    ----------
    name : str
        The parameter's name as the caller wrote it (``eta``, ``K``, ``A``...).
    allowed : str
        What is allowed, in words (``"a number > 0"``).
    got : object, optional
        The offending value, shown abbreviated.
    """

    def __init__(self, name: str, allowed: str, got: object = None):
        self.name, self.allowed, self.got = name, allowed, got
        shown = "" if got is None else f", got {_short(got)}"
        super().__init__(f"invalid {name}: expected {allowed}{shown}")


class DivergenceError(FedtheoryError, FloatingPointError):
    """An iteration left the finite range; ``round`` says where (a step for single-machine methods)."""

    def __init__(self, algorithm: str, round: int, detail: str = "", *, unit: str = "round"):
        self.algorithm, self.round = algorithm, round
        tail = f" ({detail})" if detail else ""
        super().__init__(f"{algorithm} diverged at {unit} {round}: iterates are no longer finite{tail}")


class ZeroMultiplierMassError(FedtheoryError, FloatingPointError):
    """A multiplier-weighted server average whose weights sum to zero: the average is undefined (never replaced by a
    plain mean silently); ``round`` and ``replicas`` say where."""

    def __init__(self, algorithm: str, round: int, replicas):
        self.algorithm, self.round, self.replicas = algorithm, round, list(replicas)
        super().__init__(
            f"{algorithm}: the sampled devices' multipliers sum to 0 at round {round} (replicas {self.replicas[:5]}); "
            "the weighted server step is undefined (raise the lower end of the multiplier box above 0)"
        )


class InvalidEvidenceError(FedtheoryError, ValueError):
    """Evidence that cannot be judged (NaN or infinite values, a NaN tolerance, an interval with lo > hi): the
    claim's verdict is ``error``, never ``fails``."""


class ClaimPluginWarning(RuntimeWarning):
    """A claim plugin failed to load and was skipped (``fedtheory.harness.claims.LOAD_ERRORS`` names it)."""


class ReferenceSolveError(FedtheoryError):
    """A reference solve did not produce a certified optimum."""


class ReportReadError(FedtheoryError, ValueError):
    """A file that cannot be read as a ``verify.json`` report (missing, unreadable, not JSON, not a report)."""


class UnknownClaimError(FedtheoryError, KeyError):
    """A claim id or paper key that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; we want plain text
        return str(self.args[0])


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
