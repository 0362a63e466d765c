"""`jitctx.project` sits below `jitctx.discovery`: the discovery modules import the project, never the
other way round, so either can be imported first and neither sees the other half-initialised.

Every import statement counts, those inside functions and under `TYPE_CHECKING` too: a lazy import that
closes a cycle only moves the failure to the first call that runs it. The one module left out is the
package's facade, `jitctx/__init__.py`: it names every layer's public classes, and imports each only when
that name is asked for, so it is above all layers rather than part of any.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import jitctx

PACKAGE = Path(jitctx.__file__).parent


def module_name(source: Path) -> str:
    parts = list(source.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(source: Path) -> Iterator[str]:
    """The jitctx modules one file imports, anywhere in it; `from a import b` names both `a` and `a.b`
    (b may be a module)."""
    name = module_name(source)
    package = name if source.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield module
            for alias in node.names:
                yield f"{module}.{alias.name}"


def import_graph() -> dict[str, set[str]]:
    sources = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        found: set[str] = set()
        for target in imported_names(source):
            # Importing a.b.c runs a and a.b first.
            parts = target.split(".")
            found.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
        graph[name] = {target for target in found if target in sources and target != name}
    graph["jitctx"] = set()  # the facade (see the module's docstring)
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str | None]:
    """Every module `start` leads to, each with the module that imports it on one such path."""
    seen: dict[str, str | None] = {start: None}
    todo = [start]
    while todo:
        current = todo.pop()
        for target in sorted(graph[current]):
            if target not in seen:
                seen[target] = current
                todo.append(target)
    return seen


def path_to(seen: dict[str, str | None], end: str) -> list[str]:
    chain = [end]
    while (before := seen[chain[-1]]) is not None:
        chain.append(before)
    return chain[::-1]


def in_discovery(name: str) -> bool:
    return name == "jitctx.discovery" or name.startswith("jitctx.discovery.")


def test_the_graph_sees_the_imports_it_must_see() -> None:
    """Not vacuous: discovery imports the project, and a function-level import is an edge too."""
    graph = import_graph()
    assert "jitctx.project" in graph["jitctx.discovery.resolve"]
    assert "jitctx.discovery.quick_index" in graph["jitctx.discovery.session"]  # inside a method
    assert "jitctx.discovery" in graph["jitctx.discovery.resolve"]  # its package runs first


def test_the_project_never_reaches_the_discovery_package() -> None:
    seen = reachable(import_graph(), "jitctx.project")
    leaks = sorted(name for name in seen if in_discovery(name))
    assert leaks == [], " -> ".join(path_to(seen, leaks[0]))


def test_no_cycle_runs_through_the_project_and_discovery() -> None:
    """A cycle through both, by any route (through a third module too)."""
    graph = import_graph()
    for start in sorted(name for name in graph if in_discovery(name)):
        seen = reachable(graph, start)
        if "jitctx.project" not in seen:
            continue
        back = reachable(graph, "jitctx.project")
        assert start not in back, " -> ".join([*path_to(seen, "jitctx.project"), *path_to(back, start)[1:]])
