"""Qwen Code's tool table (jitctx.clients.qwen_code.tools): each tool's own fields, and its samples."""

from __future__ import annotations

import pytest

from jitctx.clients.qwen_code import hooks
from jitctx.clients.qwen_code.client import CLIENT as QWEN
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    matcher_is_the_table,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

ROWS: list[Row] = [
    ("read_file", {"file_path": "/p/src/ui/Footer.tsx"}, ["/p/src/ui/Footer.tsx"]),  # as 0.24.4 sends it
    ("read_file", {"absolute_path": "/p/src/a.ts"}, ["/p/src/a.ts"]),
    ("write_file", {"file_path": "/p/tools/made.py", "content": "X = 1\n"}, ["/p/tools/made.py"]),
    ("edit", {"file_path": "src/a.ts", "old_string": "a", "new_string": "b"}, ["src/a.ts"]),
    ("notebook_edit", {"notebook_path": "nb/x.ipynb", "new_source": ""}, ["nb/x.ipynb"]),
    ("list_directory", {"path": "/p/src"}, ["/p/src"]),
    ("glob", {"pattern": "**/*.ts", "path": "/p/src"}, ["/p/src"]),
    ("grep_search", {"pattern": "TODO", "path": "src"}, ["src"]),
    ("lsp", {"operation": "hover", "filePath": "src/a.ts"}, ["src/a.ts"]),
    ("run_shell_command", {"command": "cat src/api/users.ts"}, ["src/api/users.ts"]),
    ("run_shell_command", {"command": "touch a.txt", "directory": "pkg"}, ["pkg/a.txt"]),
]


def test_every_tool_has_a_row_and_the_matcher_is_the_table() -> None:
    rows_cover_the_table(QWEN, ROWS)
    matcher = matcher_is_the_table(QWEN, hooks.ENTRIES, "PostToolUse")
    # What install writes into the settings, unchanged by the table's move into this folder.
    assert matcher == (
        "read_file|write_file|edit|notebook_edit|list_directory|glob|grep_search|lsp|run_shell_command"
    )


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(QWEN, row)


SAMPLE_TOOLS = {
    "read": "read_file",
    "write": "write_file",
    "edit": "edit",
    "shell_read": "run_shell_command",
    "shell_write": "run_shell_command",
}


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    shape = sample_touches_its_path(QWEN, kind)
    assert shape is not None and shape[0] == SAMPLE_TOOLS[kind]
