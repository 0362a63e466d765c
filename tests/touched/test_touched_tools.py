"""The tool registry: its audit, each agent's tool shapes, and no crash on any input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.touched import affected_paths
from jitctx.touched.tools import REGISTRY, glob_prefix

# Every built-in tool name. Removing one from the registry turns this red, and so does adding one
# without listing it here: the registry and this list are reconciled both ways.
EXPECTED_TOOLS = {
    # Claude Code
    "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS", "LSP", "Bash",
    # Gemini CLI
    "read_file", "write_file", "replace", "read_many_files", "list_directory", "grep_search",
    "search_file_content", "run_shell_command",
    # Codex
    "shell", "shell_command", "exec_command", "apply_patch",
    # generic
    "read", "write", "edit", "notebook_edit", "read_many", "glob", "grep", "ls", "lsp", "bash",
}  # fmt: skip


def test_registry_lists_exactly_the_expected_tools() -> None:
    assert set(REGISTRY) == EXPECTED_TOOLS


@pytest.mark.parametrize("name", sorted(EXPECTED_TOOLS))
def test_every_registered_tool_has_a_callable_declaration(name: str) -> None:
    declaration = REGISTRY.get(name)
    assert declaration is not None, f"{name} is registered without a declaration"
    assert callable(declaration), f"{name}'s declaration is not callable"
    assert declaration({}) == (), f"{name} reports paths for an empty input"


def test_registry_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        REGISTRY["Read"] = REGISTRY["Write"]  # type: ignore[index]


# The seed's glob/grep table.
SEED_ROWS = [
    ("glob", {"pattern": "src/ui/**/*.tsx"}, ["src/ui"]),
    ("glob", {"pattern": "src/api/*.ts"}, ["src/api"]),
    ("glob", {"pattern": "**/*.ts"}, []),
    ("grep", {"path": "src", "pattern": "ui/**"}, ["src"]),
]

CLAUDE_CODE = [
    ("Read", {"file_path": "/p/src/ui/Footer.tsx", "offset": 1, "limit": 20}, ["/p/src/ui/Footer.tsx"]),
    ("Write", {"file_path": "src/a.ts", "content": "x"}, ["src/a.ts"]),
    ("Edit", {"file_path": "src/a.ts", "old_string": "a", "new_string": "b"}, ["src/a.ts"]),
    ("MultiEdit", {"file_path": "src/a.ts", "edits": []}, ["src/a.ts"]),
    ("NotebookEdit", {"notebook_path": "nb/x.ipynb", "new_source": ""}, ["nb/x.ipynb"]),
    ("NotebookRead", {"notebook_path": "nb/x.ipynb"}, ["nb/x.ipynb"]),
    ("Glob", {"pattern": "src/ui/**/*.tsx"}, ["src/ui"]),
    ("Glob", {"pattern": "ui/**/*.tsx", "path": "src"}, ["src"]),
    ("Glob", {"pattern": "**/*.md"}, []),
    ("Grep", {"pattern": r"src/\w+\.ts", "path": "lib"}, ["lib"]),
    ("Grep", {"pattern": "src/ui/**", "glob": "*.tsx"}, []),
    ("LS", {"path": "/p/src"}, ["/p/src"]),
    ("LSP", {"operation": "hover", "filePath": "src/a.ts", "line": 1, "character": 2}, ["src/a.ts"]),
    ("Bash", {"command": "echo hi | tee -a src/api/log.txt", "description": "log"}, ["src/api/log.txt"]),
    ("Bash", {"command": "rm src/ui/Old.tsx"}, []),
]

GEMINI_CLI = [
    ("read_file", {"file_path": "src/a.ts", "start_line": 1}, ["src/a.ts"]),
    ("read_file", {"absolute_path": "/p/src/a.ts"}, ["/p/src/a.ts"]),
    ("write_file", {"file_path": "src/a.ts", "content": ""}, ["src/a.ts"]),
    ("replace", {"file_path": "src/a.ts", "old_string": "a", "new_string": "b"}, ["src/a.ts"]),
    ("list_directory", {"dir_path": "src"}, ["src"]),
    ("list_directory", {"path": "/p/src"}, ["/p/src"]),
    ("glob", {"pattern": "**/*.ts", "dir_path": "/p/src"}, ["/p/src"]),
    ("grep_search", {"pattern": "TODO", "dir_path": "src"}, ["src"]),
    ("search_file_content", {"pattern": "TODO", "path": "src"}, ["src"]),
    ("read_many_files", {"include": ["src/**/*.ts", "README.md", "docs/"]}, ["src", "README.md", "docs/"]),
    ("read_many_files", {"paths": ["**/*.md", "a/b/*.py", "a/b/c.py"]}, ["a/b", "a/b/c.py"]),
    ("run_shell_command", {"command": "touch a.txt", "dir_path": "pkg"}, ["pkg/a.txt"]),
    ("run_shell_command", {"command": "touch /abs/a.txt", "dir_path": "pkg"}, ["/abs/a.txt"]),
]

PATCH = (
    "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"
)
HEREDOC_PATCH = f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"
CODEX = [
    ("shell", {"command": ["bash", "-lc", "echo hi > out.txt"], "workdir": "/p"}, ["/p/out.txt"]),
    ("shell", {"command": ["touch", "a b.txt"]}, ["a b.txt"]),
    ("shell", {"command": ["python", "gen.py"]}, []),
    ("shell", {"command": ["apply_patch", PATCH]}, ["src/new.py", "src/app.py"]),
    ("shell", {"command": ["bash", "-lc", HEREDOC_PATCH]}, ["src/new.py", "src/app.py"]),
    ("shell", {"command": ["bash", "-lc", f"cd pkg && apply_patch <<'EOF'\n{PATCH}\nEOF"]},
     ["pkg/src/new.py", "pkg/src/app.py"]),
    ("shell_command", {"command": "cp a b && mkdir c", "workdir": "w"}, ["w/b", "w/c"]),
    ("exec_command", {"cmd": "sed -i 's/a/b/' f.txt", "workdir": "/p"}, ["/p/f.txt"]),
    ("apply_patch", {"input": PATCH}, ["src/new.py", "src/app.py"]),
]  # fmt: skip

GENERIC = [
    ("read", {"file_path": "a.py"}, ["a.py"]),
    ("read", {"path": "a.py"}, ["a.py"]),
    ("write", {"filePath": "a.py"}, ["a.py"]),
    ("edit", {"file_path": "a.py"}, ["a.py"]),
    ("notebook_edit", {"notebook_path": "n.ipynb"}, ["n.ipynb"]),
    ("read_many", {"paths": ["src/ui/**/*.tsx", "x.md"]}, ["src/ui", "x.md"]),
    ("ls", {"path": "src"}, ["src"]),
    ("lsp", {"filePath": "src/a.ts"}, ["src/a.ts"]),
    ("bash", {"command": "touch a", "cwd": "sub"}, ["sub/a"]),
]

UNKNOWN_OR_MALFORMED: list[tuple[Any, Any, list[str]]] = [
    ("web_fetch", {"url": "https://example.com/a.md"}, []),
    ("WebFetch", {"url": "https://example.com", "prompt": "x"}, []),
    ("mcp__fs__read", {"path": "src/a.ts"}, []),
    ("READ", {"file_path": "a.py"}, []),
    ("Read", {"path": "a.py"}, []),
    ("Read", {"file_path": ""}, []),
    ("Read", {"file_path": 7}, []),
    ("Read", {"file_path": ["a.py"]}, []),
    ("Read", {}, []),
    ("Read", None, []),
    ("Read", ["file_path", "a.py"], []),
    (None, {"file_path": "a.py"}, []),
    (3, {"file_path": "a.py"}, []),
    ("Glob", {"pattern": 5}, []),
    ("Grep", {"path": None, "pattern": "src"}, []),
    ("Bash", {"command": ["touch", 1]}, []),
    ("Bash", {"command": None}, []),
    ("read_many_files", {"include": "src/*.ts"}, []),
    ("read_many_files", {"include": [None, 3, "", "a.md"]}, ["a.md"]),
    ("apply_patch", {"input": 42}, []),
]


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    SEED_ROWS + CLAUDE_CODE + GEMINI_CLI + CODEX + GENERIC + UNKNOWN_OR_MALFORMED,
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_affected_paths(tool: Any, tool_input: Any, expected: list[str]) -> None:
    assert list(affected_paths(tool, tool_input)) == expected


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
     "notebook_path", "filePath", "absolute_path", "patch", "cwd"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(EXPECTED_TOOLS)), st.dictionaries(FIELDS, JSON, max_size=5))
def test_never_raises_on_any_input(tool: str, tool_input: dict[str, Any]) -> None:
    paths = affected_paths(tool, tool_input)
    assert isinstance(paths, tuple)
    assert all(isinstance(p, str) and p for p in paths)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(EXPECTED_TOOLS)), st.dictionaries(FIELDS, JSON, max_size=5))
def test_declarations_themselves_do_not_raise(tool: str, tool_input: dict[str, Any]) -> None:
    """affected_paths swallows a declaration's exception; the declarations must not need that."""
    assert isinstance(REGISTRY[tool](tool_input), tuple)
