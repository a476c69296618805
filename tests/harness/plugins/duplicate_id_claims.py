"""A claim plugin that registers an id the sleepy plugin already registered (for the plugin-isolation test)."""

from fedtheory.harness.claims import Evidence, claim


@claim(
    "test-sleepy/other-claim-of-this-plugin",
    source="test",
    statement="rolled back with its plugin",
    scope="printed",
    expect="holds",
)
def first(ctx):
    return Evidence(1.0, 2.0, "<=")


@claim("test-sleepy/nap:0", source="test", statement="a duplicate id", scope="printed", expect="holds")
def duplicate(ctx):
    return Evidence(1.0, 2.0, "<=")
