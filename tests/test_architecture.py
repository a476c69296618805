"""The folders draw the design (README, "Design"): checked on the import graph of the source.

Every ``import`` statement counts, also one inside a function: an import deferred to call
time still ties two modules together, so a cycle hidden that way is still a cycle.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("fedtheory", "verifications")
HARNESS = "fedtheory.harness"
MAX_LINES = 800


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources(*packages: str) -> dict[str, Path]:
    return {_module_name(p): p for pkg in packages for p in sorted((ROOT / pkg).rglob("*.py"))}


MODULES = _sources(*PACKAGES)


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _imports(name: str, path: Path):
    """Yield ``(target module, imported name or None, line)`` for every internal import."""
    yield from _imports_in(name, path.read_text(), is_package=path.name == "__init__.py")


def _imports_in(name: str, source: str, is_package: bool = False):
    tree = ast.parse(source)
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in (*PACKAGES, "tests"):
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                child = f"{module}.{alias.name}"
                if child in MODULES:
                    yield child, None, node.lineno
                else:
                    yield module, alias.name, node.lineno


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in MODULES.items():
        for target, _, _ in _imports(name, path):
            if target in MODULES and target != name:
                graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(MODULES):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _paper(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "verifications" and len(parts) > 1 else None


def _violations(rule) -> list[str]:
    return [
        f"{MODULES[name].relative_to(ROOT)}:{line}: imports {target}" + (f".{imported}" if imported else "")
        for name, path in MODULES.items()
        for target, imported, line in _imports(name, path)
        if rule(name, target, imported)
    ]


def test_no_import_cycle():
    assert _cycles(_graph()) == []


def test_the_library_knows_no_paper():
    assert (
        _violations(lambda name, target, _: name.startswith("fedtheory") and target.startswith("verifications")) == []
    )


def test_the_numerics_never_import_the_harness():
    def rule(name, target, _):
        return name.startswith("fedtheory") and not name.startswith(HARNESS) and target.startswith(HARNESS)

    assert _violations(rule) == []


def test_no_paper_imports_another():
    def rule(name, target, _):
        return _paper(name) is not None and _paper(target) not in (None, _paper(name))

    assert _violations(rule) == []


def test_no_private_name_crosses_a_module():
    def rule(name, target, imported):
        return imported is not None and imported.startswith("_") and target != name

    assert _violations(rule) == []


def test_no_test_imports_a_paper_module():
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for target, _, line in _imports("tests." + path.stem, path):
            if _paper(target) is not None:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
    assert found == []


@pytest.mark.parametrize("package", PACKAGES)
def test_modules_of_readable_size(package):
    long = {
        str(path.relative_to(ROOT)): n
        for name, path in MODULES.items()
        if name.startswith(package) and (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_checker_can_fail():
    """Negative control: a two-module cycle, a private name and a cross-paper import are seen."""
    a, b = "fedtheory.fit", "fedtheory.dimensions"
    assert _cycles(defaultdict(set, {a: {b}, b: {a}})) == [sorted([a, b])]
    source = "def f():\n    from ..claims import _private\n    from ..paper_b.rates import T\n"
    found = list(_imports_in("verifications.paper_a.rates", source))
    assert ("verifications.claims", "_private", 2) in found
    assert _paper(found[1][0]) == "paper_b"


@pytest.mark.parametrize("module", ["fedtheory.oracles", "fedtheory.kernels", "fedtheory.problems.digits"])
def test_a_module_imports_first_in_a_fresh_interpreter(module):
    """The static graph above sees module-level cycles between modules, not those through a package's
    ``__init__`` (``fedtheory.oracles`` -> ``fedtheory.problems`` -> ``.digits`` -> ``fedtheory.oracles`` was one):
    importing the module first, in a new interpreter, is the check."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
