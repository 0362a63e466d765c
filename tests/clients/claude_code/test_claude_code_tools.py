"""Claude Code's tool table (jitctx.clients.claude_code.tools): each tool's own fields, and its samples."""

from __future__ import annotations

import pytest

from jitctx.clients.claude_code import hooks
from jitctx.clients.claude_code.client import CLIENT as CLAUDE
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    Shape,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

ROWS: list[Row] = [
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
    # Its own fields only: a generic `path` on Read, or a `workdir` on Bash, is not Claude Code's.
    ("Read", {"path": "a.py"}, []),
    ("Bash", {"command": "touch a", "workdir": "sub"}, ["a"]),
]


def test_every_tool_has_a_row() -> None:
    rows_cover_the_table(CLAUDE, ROWS)
    assert hooks.TOOLS == tuple(CLAUDE.tools())


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(CLAUDE, row)


SAMPLES: dict[str, Shape] = {
    "read": ("Read", ["file_path"]),
    "write": ("Write", ["content", "file_path"]),
    "edit": ("Edit", ["file_path", "new_string", "old_string"]),
    "shell_read": ("Bash", ["command"]),
    "shell_write": ("Bash", ["command"]),
}


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    assert sample_touches_its_path(CLAUDE, kind) == SAMPLES[kind]
