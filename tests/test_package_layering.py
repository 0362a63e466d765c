"""The package's layers: no import cycle between its packages, and the core imports no edge.

Every import statement counts (function bodies and `TYPE_CHECKING` blocks included). The units are the
subpackages (`discovery`, `hook`, ...) and the top-level modules (`project`, `profiles`, ...); the
package facade `jitctx/__init__.py` imports lazily and is left out. The edges are `clients` (the live
clients), `hook` (the one pipeline and its transports) and `cli`; the core is everything else.

The canonical event (`jitctx.hook.event`, DESIGN §3) is a unit of its own: every client parses its
payloads into it and the hook answers it, so `clients` imports it while `hook` imports the registry of
`clients`; it imports no other module of jitctx, so that shared leaf closes no cycle.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import jitctx

PACKAGE = Path(jitctx.__file__).parent
EDGES = {"clients", "hook", "cli"}
ENTRY = {"__main__"}  # `python -m jitctx`: the command line itself
EVENT = "hook.event"  # the canonical event: a unit of its own (see above)


def unit_of(source: Path) -> str:
    parts = source.relative_to(PACKAGE).parts
    if parts == ("hook", "event.py"):
        return EVENT
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def unit_of_name(parts: list[str]) -> str:
    """The unit of the module `jitctx.<parts...>`."""
    return EVENT if parts[1:3] == ["hook", "event"] else parts[1]


def imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for source in PACKAGE.rglob("*.py"):
        if source == PACKAGE / "__init__.py":
            continue
        unit = unit_of(source)
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "jitctx" and len(parts) > 1 and unit_of_name(parts) != unit:
                    if (PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").is_file():
                        graph[unit].add(unit_of_name(parts))
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in graph.get(stack.pop(), set()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_no_import_cycle_between_packages() -> None:
    graph = imports()
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    cycles = sorted(
        f"{a} <-> {b}"
        for a in packages
        for b in packages
        if a < b and b in reachable(graph, a) and a in reachable(graph, b)
    )
    assert cycles == []


def test_the_canonical_event_is_a_leaf() -> None:
    assert imports().get(EVENT, set()) == set()
    assert EVENT in imports()["clients"]  # what makes it a unit of its own


def test_the_core_imports_no_edge() -> None:
    graph = imports()
    offenders = sorted(
        f"{unit} -> {dep}"
        for unit, deps in graph.items()
        if unit not in EDGES | ENTRY
        for dep in deps & EDGES
    )
    assert offenders == []


def test_the_check_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert "a" in reachable(graph, "c") and "c" in reachable(graph, "a")


def test_the_core_names_no_edge_module_in_a_string() -> None:
    """No `importlib.import_module("jitctx.clients...")` either: the core learns of the live clients
    only through `jitctx.live_clients`, which the package facade provides."""
    offenders = []
    for source in PACKAGE.rglob("*.py"):
        if source == PACKAGE / "__init__.py" or unit_of(source) in EDGES | ENTRY:
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if any(node.value.startswith(f"jitctx.{edge}") for edge in EDGES):
                    offenders.append(f"{source.relative_to(PACKAGE)}: {node.value!r}")
    assert offenders == []


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run (those under `if TYPE_CHECKING:` do not)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if (
                isinstance(child, ast.If)
                and isinstance(child.test, ast.Name)
                and child.test.id == "TYPE_CHECKING"
            ):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(child: ast.AST) -> None:
        if isinstance(child, ast.Import | ast.ImportFrom):
            found.append(child)
        visit(child)

    visit(tree)
    return found


def _module_name(source: Path) -> str:
    parts = source.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _concept(module: str) -> str:
    """A live client's folder is one concept (`jitctx.clients.codex.*`); any other module is its own."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "clients" and (PACKAGE / "clients" / parts[2]).is_dir():
        return ".".join(parts[:3])
    return module


def test_no_import_cycle_between_modules_of_different_concepts() -> None:
    """Two modules that import each other are one concept cut in two (an import under TYPE_CHECKING does
    not count: it never runs)."""
    modules = {_module_name(source): source for source in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, source in modules.items():
        for node in _runtime_imports(ast.parse(source.read_text(encoding="utf-8"))):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            graph[name].update(t for t in targets if t in modules and t not in (name, "jitctx"))
    cycles = sorted(
        f"{a} <-> {b}"
        for a in graph
        for b in reachable(graph, a)
        if a < b and _concept(a) != _concept(b) and a in reachable(graph, b)
    )
    assert cycles == []
