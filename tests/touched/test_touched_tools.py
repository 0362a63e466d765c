"""Tool kinds and the generic names: their audit, the tool shapes, and no crash on any input.

Each live client's own table is tested in its folder's tests (tests/clients/<client>/).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.clients import all_clients
from jitctx.touched import tools as touched_tools
from jitctx.touched.calls import affected_paths, touched_and_written
from jitctx.touched.samples import SAMPLE_KINDS, sample_call
from jitctx.touched.tools import GENERIC, REGISTRY, glob_prefix, patch_field

# The generic names, the seed's own tool set. Removing one from GENERIC turns this red, and so does adding
# one without listing it here: the table and this list are reconciled both ways.
GENERIC_TOOLS = {
    "read", "write", "edit", "notebook_edit", "read_many", "glob", "grep", "ls", "lsp", "bash", "apply_patch",
}  # fmt: skip


def test_the_generic_table_lists_exactly_the_generic_names() -> None:
    assert set(GENERIC) == GENERIC_TOOLS


@pytest.mark.parametrize("name", sorted(GENERIC_TOOLS))
def test_every_generic_tool_has_a_callable_declaration(name: str) -> None:
    declaration = GENERIC.get(name)
    assert declaration is not None, f"{name} is listed without a declaration"
    assert callable(declaration), f"{name}'s declaration is not callable"
    assert declaration({}) == (), f"{name} reports paths for an empty input"


def test_tables_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        GENERIC["read"] = GENERIC["write"]  # type: ignore[index]
    with pytest.raises(TypeError):
        REGISTRY["Read"] = GENERIC["write"]  # type: ignore[index]


def _client_tool_names() -> set[str]:
    return {name for client in all_clients.every() for name in client.tools()} - set(GENERIC)


def test_touched_names_no_client_s_tool() -> None:
    """Issue #29: a client's tool names live in its own folder; jitctx.touched knows kinds and the
    generic names only. (The shell modules name programs, such as `rg`, not tools: they are not read.)"""
    package = Path(touched_tools.__file__).parent
    names = _client_tool_names()
    found = [
        f"{source.name}:{node.lineno}: {node.value!r}"
        for source in (package / "__init__.py", package / "tools.py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]
    assert found == []


def test_every_known_name_is_the_generic_ones_then_each_client_s() -> None:
    """A caller that names no client reaches any tool jitctx knows; a generic name wins over a client's
    tool of the same name, and among clients the registry's order decides."""
    expected: dict[str, Any] = dict(GENERIC)
    for client in all_clients.every():
        for name, declaration in client.tools().items():
            expected.setdefault(name, declaration)
    assert list(REGISTRY) == list(expected) and len(REGISTRY) == len(expected)
    assert all(REGISTRY[name] is declaration for name, declaration in expected.items())
    assert "no_such_tool" not in REGISTRY
    with pytest.raises(KeyError):
        REGISTRY["no_such_tool"]


# The seed's glob/grep table.
SEED_ROWS: list[tuple[str, Any, list[str]]] = [
    ("glob", {"pattern": "src/ui/**/*.tsx"}, ["src/ui"]),
    ("glob", {"pattern": "src/api/*.ts"}, ["src/api"]),
    ("glob", {"pattern": "**/*.ts"}, []),
    ("grep", {"path": "src", "pattern": "ui/**"}, ["src"]),
]

PATCH = (
    "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"
)

GENERIC_ROWS: list[tuple[str, Any, list[str]]] = [
    ("read", {"file_path": "a.py"}, ["a.py"]),
    ("read", {"path": "a.py"}, ["a.py"]),
    ("write", {"filePath": "a.py"}, ["a.py"]),
    ("edit", {"file_path": "a.py"}, ["a.py"]),
    ("notebook_edit", {"notebook_path": "n.ipynb"}, ["n.ipynb"]),
    ("read_many", {"paths": ["src/ui/**/*.tsx", "x.md"]}, ["src/ui", "x.md"]),
    ("read_many", {"include": ["src/**/*.ts", "README.md", "docs/"]}, ["src", "README.md", "docs/"]),
    ("glob", {"pattern": "ui/**/*.tsx", "path": "src"}, ["src"]),
    ("glob", {"pattern": "**/*.ts", "dir_path": "/p/src"}, ["/p/src"]),
    ("grep", {"pattern": r"src/\w+\.ts", "path": "lib"}, ["lib"]),
    ("grep", {"pattern": "src/ui/**", "glob": "*.tsx"}, []),
    ("ls", {"path": "src"}, ["src"]),
    ("lsp", {"filePath": "src/a.ts"}, ["src/a.ts"]),
    ("bash", {"command": "touch a", "cwd": "sub"}, ["sub/a"]),
    ("bash", {"command": "echo hi | tee -a src/api/log.txt"}, ["src/api/log.txt"]),
    ("bash", {"command": "rm src/ui/Old.tsx"}, []),  # deliberately: a deleted file's rules serve nothing
    ("bash", {"command": ["bash", "-lc", "echo hi > out.txt"], "workdir": "/p"}, ["/p/out.txt"]),
    ("bash", {"command": ["python", "gen.py"]}, []),
    ("bash", {"command": ["apply_patch", PATCH]}, ["src/new.py", "src/app.py"]),
    ("apply_patch", {"input": PATCH}, ["src/new.py", "src/app.py"]),
    ("apply_patch", {"patch_text": PATCH}, ["src/new.py", "src/app.py"]),
]

# A caller that names no client (Session.on_tool_call, `jitctx touched`) still reaches every client's
# names; the clients' own tables are tested in their folders.
ANY_CLIENT_ROWS: list[tuple[str, Any, list[str]]] = [
    ("Read", {"file_path": "/p/src/ui/Footer.tsx"}, ["/p/src/ui/Footer.tsx"]),
    ("Bash", {"command": "cp a b && mkdir c"}, ["b", "c"]),
    ("view", {"path": "/p/src/ui/Footer.tsx"}, ["/p/src/ui/Footer.tsx"]),
]

UNKNOWN_OR_MALFORMED: list[tuple[Any, Any, list[str]]] = [
    ("web_fetch", {"url": "https://example.com/a.md"}, []),
    ("WebFetch", {"url": "https://example.com", "prompt": "x"}, []),
    ("mcp__fs__read", {"path": "src/a.ts"}, []),
    ("READ", {"file_path": "a.py"}, []),
    ("read", {"file": "a.py"}, []),
    ("read", {"file_path": ""}, []),
    ("read", {"file_path": 7}, []),
    ("read", {"file_path": ["a.py"]}, []),
    ("read", {}, []),
    ("read", None, []),
    ("read", ["file_path", "a.py"], []),
    (None, {"file_path": "a.py"}, []),
    (3, {"file_path": "a.py"}, []),
    ("glob", {"pattern": 5}, []),
    ("grep", {"path": None, "pattern": "src"}, []),
    ("bash", {"command": ["touch", 1]}, []),
    ("bash", {"command": None}, []),
    ("read_many", {"include": "src/*.ts"}, []),
    ("read_many", {"include": [None, 3, "", "a.md"]}, ["a.md"]),
    ("apply_patch", {"input": 42}, []),
]


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    SEED_ROWS + GENERIC_ROWS + ANY_CLIENT_ROWS + UNKNOWN_OR_MALFORMED,
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_affected_paths(tool: Any, tool_input: Any, expected: list[str]) -> None:
    assert list(affected_paths(tool, tool_input)) == expected


@pytest.mark.parametrize(("tool", "tool_input", "expected"), SEED_ROWS + GENERIC_ROWS)
def test_the_generic_table_given_reads_the_same(tool: str, tool_input: Any, expected: list[str]) -> None:
    assert list(affected_paths(tool, tool_input, GENERIC)) == expected


def test_a_table_given_is_the_only_place_a_name_is_looked_up() -> None:
    table = {"view": patch_field("input")}
    assert affected_paths("read", {"file_path": "a.py"}, table) == ()  # generic, but not in the table
    assert affected_paths("view", {"input": PATCH}, table) == ("src/new.py", "src/app.py")
    assert touched_and_written("bash", {"command": "touch a"}, {}) == ((), ())
    assert touched_and_written("sh", {"command": "touch a"}, {"sh": GENERIC["bash"]}) == (("a",), ("a",))


def test_a_table_that_cannot_be_read_touches_nothing() -> None:
    class Broken(dict[str, Any]):
        def get(self, key: str, default: Any = None) -> Any:
            raise RuntimeError("broken")

    assert affected_paths("read", {"file_path": "a.py"}, Broken()) == ()


def test_patch_field_reads_the_patch_from_its_own_fields() -> None:
    assert patch_field("patchText")({"patchText": PATCH}) == ("src/new.py", "src/app.py")
    assert patch_field("patchText")({"input": PATCH}) == ()


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_generic_sample_calls_touch_their_path(kind: str) -> None:
    path = "/p/a dir/it's.py"
    call = sample_call(kind, path)
    assert call is not None and call[0] in GENERIC
    touched, written = touched_and_written(call[0], call[1], GENERIC)
    assert touched == (path,)
    assert written == ((path,) if kind == "shell_write" else ())


def test_no_sample_for_an_unknown_kind() -> None:
    assert sample_call("delete", "/p/a.py") is None


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("src/ui/**/*.tsx", ("src/ui",)),
        ("src/api/*.ts", ("src/api",)),
        ("**/*.ts", ()),
        ("*.md", ()),
        ("./src/*.py", ("src",)),
        ("/abs/proj/src/**", ("/abs/proj/src",)),
        ("/**/*.ts", ()),
        ("src/{ui,api}/*.ts", ("src",)),
        ("README.md", ("README.md",)),
        ("", ()),
    ],
)
def test_glob_prefix(pattern: str, expected: tuple[str, ...]) -> None:
    assert glob_prefix(pattern) == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["file_path", "path", "dir_path", "pattern", "command", "cmd", "input", "include", "paths", "workdir",
     "notebook_path", "filePath", "absolute_path", "patch", "cwd", "patchText", "directory"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(REGISTRY)), st.dictionaries(FIELDS, JSON, max_size=5))
def test_never_raises_on_any_input(tool: str, tool_input: dict[str, Any]) -> None:
    paths = affected_paths(tool, tool_input)
    assert isinstance(paths, tuple)
    assert all(isinstance(p, str) and p for p in paths)


# Every declaration of every table, a client's own included where a generic name hides it.
DECLARATIONS = {
    **{f"generic:{name}": declaration for name, declaration in GENERIC.items()},
    **{
        f"{client.name}:{name}": declaration
        for client in all_clients.every()
        for name, declaration in client.tools().items()
    },
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(DECLARATIONS)), st.dictionaries(FIELDS, JSON, max_size=5))
def test_declarations_themselves_do_not_raise(tool: str, tool_input: dict[str, Any]) -> None:
    """affected_paths swallows a declaration's exception; the declarations must not need that."""
    paths = DECLARATIONS[tool](tool_input)
    assert isinstance(paths, tuple)
