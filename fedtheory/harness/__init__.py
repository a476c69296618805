"""The harness: claim registry, evidence and verdicts, runner, reports, figures and the CLI.

It imports the numerics of :mod:`fedtheory`; the numerics never import it.
"""
