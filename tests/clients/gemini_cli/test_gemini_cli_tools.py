"""Gemini CLI's tool table (jitctx.clients.gemini_cli.tools): each tool's own fields, and its samples."""

from __future__ import annotations

import pytest

from jitctx.clients.gemini_cli import hooks
from jitctx.clients.gemini_cli.client import CLIENT as GEMINI
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    matcher_is_the_table,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

ROWS: list[Row] = [
    ("read_file", {"file_path": "src/a.ts", "start_line": 1}, ["src/a.ts"]),
    ("read_file", {"absolute_path": "/p/src/a.ts"}, ["/p/src/a.ts"]),
    ("write_file", {"file_path": "src/a.ts", "content": ""}, ["src/a.ts"]),
    ("replace", {"file_path": "src/a.ts", "old_string": "a", "new_string": "b"}, ["src/a.ts"]),
    ("list_directory", {"dir_path": "src"}, ["src"]),
    ("list_directory", {"path": "/p/src"}, ["/p/src"]),
    ("glob", {"pattern": "**/*.ts", "dir_path": "/p/src"}, ["/p/src"]),
    ("glob", {"pattern": "src/ui/**/*.tsx"}, ["src/ui"]),
    ("grep_search", {"pattern": "TODO", "dir_path": "src"}, ["src"]),
    ("search_file_content", {"pattern": "TODO", "path": "src"}, ["src"]),
    ("read_many_files", {"include": ["src/**/*.ts", "README.md", "docs/"]}, ["src", "README.md", "docs/"]),
    ("read_many_files", {"paths": ["**/*.md", "a/b/*.py", "a/b/c.py"]}, ["a/b", "a/b/c.py"]),
    ("read_many_files", {"include": "src/*.ts"}, []),  # a list, never one string
    ("run_shell_command", {"command": "touch a.txt", "dir_path": "pkg"}, ["pkg/a.txt"]),
    ("run_shell_command", {"command": "touch /abs/a.txt", "dir_path": "pkg"}, ["/abs/a.txt"]),
]


def test_every_tool_has_a_row_and_the_matcher_is_the_table() -> None:
    rows_cover_the_table(GEMINI, ROWS)
    matcher = matcher_is_the_table(GEMINI, hooks.ENTRIES, "AfterTool")
    # What install writes into the settings, unchanged by the table's move into this folder.
    assert matcher == (
        "read_file|read_many_files|write_file|replace|list_directory|glob|grep_search|search_file_content"
        "|run_shell_command"
    )


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(GEMINI, row)


SAMPLE_TOOLS = {
    "read": "read_file",
    "write": "write_file",
    "edit": "replace",
    "shell_read": "run_shell_command",
    "shell_write": "run_shell_command",
}


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    shape = sample_touches_its_path(GEMINI, kind)
    assert shape is not None and shape[0] == SAMPLE_TOOLS[kind]
