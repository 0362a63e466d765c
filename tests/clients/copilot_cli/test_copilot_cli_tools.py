"""GitHub Copilot CLI's tool table (jitctx.clients.copilot_cli.tools): its own names (`view`, `create`,
`rg`) and fields, and its samples."""

from __future__ import annotations

import pytest

from jitctx.clients.copilot_cli.client import CLIENT as COPILOT
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    Shape,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

PATCH = "*** Begin Patch\n*** Add File: src/api/extra.ts\n+export const x = 1;\n*** End Patch\n"

ROWS: list[Row] = [
    ("view", {"path": "/p/src/ui/Footer.tsx"}, ["/p/src/ui/Footer.tsx"]),
    ("view", {"path": "/p/src/ui"}, ["/p/src/ui"]),  # a directory: it lists it
    ("create", {"path": "/p/tools/new.py", "file_text": "X = 1\n"}, ["/p/tools/new.py"]),
    ("edit", {"path": "/p/tools/gen.py", "old_str": "pass", "new_str": "return None"}, ["/p/tools/gen.py"]),
    ("bash", {"command": "cat src/api/users.ts", "description": "Read users"}, ["src/api/users.ts"]),
    ("glob", {"pattern": "**/*.ts", "path": "/p/src"}, ["/p/src"]),
    ("grep", {"pattern": "users", "path": "/p/src/api"}, ["/p/src/api"]),
    ("rg", {"pattern": "x", "paths": ["src/api"]}, ["src/api"]),
    ("rg", {"pattern": "x", "paths": "src/api"}, ["src/api"]),
    ("rg", {"pattern": "x", "paths": ["src/ui/**/*.tsx", "lib"]}, ["src/ui", "lib"]),
    ("rg", {"pattern": "x"}, []),
    ("apply_patch", {"input": PATCH}, ["src/api/extra.ts"]),
    # Its own fields only: a Claude-shaped `file_path` is not Copilot CLI's.
    ("view", {"file_path": "/p/a.py"}, []),
]


def test_every_tool_has_a_row() -> None:
    rows_cover_the_table(COPILOT, ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(COPILOT, row)


SAMPLES: dict[str, Shape] = {
    "read": ("view", ["path"]),
    "write": ("create", ["file_text", "path"]),
    "edit": ("edit", ["new_str", "old_str", "path"]),
    "shell_read": ("bash", ["command"]),
    "shell_write": ("bash", ["command"]),
}


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    assert sample_touches_its_path(COPILOT, kind) == SAMPLES[kind]
