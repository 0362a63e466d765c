"""OpenCode's tool table (jitctx.clients.opencode.tools): its own names and camelCase fields, and its
samples."""

from __future__ import annotations

import pytest

from jitctx.clients.opencode.client import CLIENT as OPENCODE
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    Shape,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

PATCH = "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** End Patch\n"

ROWS: list[Row] = [
    ("read", {"filePath": "/p/src/ui/Footer.tsx"}, ["/p/src/ui/Footer.tsx"]),
    ("write", {"filePath": "/p/tools/made.py", "content": "X = 1\n"}, ["/p/tools/made.py"]),
    ("edit", {"filePath": "/p/tools/gen.py", "oldString": "pass", "newString": "x"}, ["/p/tools/gen.py"]),
    ("bash", {"command": "cat src/api/users.ts", "description": "e2e"}, ["src/api/users.ts"]),
    ("bash", {"command": "cat users.ts", "description": "e2e", "workdir": "src/api"}, ["src/api/users.ts"]),
    ("glob", {"pattern": "**/*.ts", "path": "/p/src"}, ["/p/src"]),
    ("grep", {"pattern": "users", "path": "/p/src/api", "include": "*.ts"}, ["/p/src/api"]),
    ("list", {"path": "src"}, ["src"]),
    ("lsp", {"operation": "hover", "filePath": "src/a.ts"}, ["src/a.ts"]),
    ("apply_patch", {"patchText": PATCH}, ["src/new.py"]),
    # Its own fields only: a snake_case `file_path` is not OpenCode's.
    ("read", {"file_path": "/p/a.py"}, []),
]


def test_every_tool_has_a_row() -> None:
    rows_cover_the_table(OPENCODE, ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(OPENCODE, row)


SAMPLES: dict[str, Shape] = {
    "read": ("read", ["filePath"]),
    "write": ("write", ["content", "filePath"]),
    "edit": ("edit", ["filePath", "newString", "oldString"]),
    "shell_read": ("bash", ["command"]),
    "shell_write": ("bash", ["command"]),
}


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    assert sample_touches_its_path(OPENCODE, kind) == SAMPLES[kind]
