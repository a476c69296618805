"""A claim plugin that registers a malformed id (for the plugin-isolation test)."""

from fedtheory.harness.claims import Evidence, claim


@claim("no slash and spaces", source="test", statement="", scope="printed", expect="holds")
def malformed(ctx):
    return Evidence(1.0, 2.0, "<=")
