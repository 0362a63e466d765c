"""Codex's tool table (jitctx.clients.codex.tools): its hook names and its model-facing ones."""

from __future__ import annotations

import pytest

from jitctx.clients.codex import hooks
from jitctx.clients.codex.client import CLIENT as CODEX
from jitctx.touched.samples import SAMPLE_KINDS
from tests.clients.tool_tables import (
    Row,
    hook_matcher,
    row_touches,
    rows_cover_the_table,
    sample_touches_its_path,
)

PATCH = (
    "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"
)
HEREDOC_PATCH = f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"

ROWS: list[Row] = [
    # As its hooks send them: Bash with a string command (and a workdir), apply_patch's text as `command`.
    ("Bash", {"command": "echo hi > svc/a/out.txt"}, ["svc/a/out.txt"]),
    ("Bash", {"command": "touch x.py", "workdir": "svc/a"}, ["svc/a/x.py"]),
    ("apply_patch", {"command": PATCH}, ["src/new.py", "src/app.py"]),
    ("apply_patch", {"input": PATCH}, ["src/new.py", "src/app.py"]),
    # The model-facing names.
    ("shell", {"command": ["bash", "-lc", "echo hi > out.txt"], "workdir": "/p"}, ["/p/out.txt"]),
    ("shell", {"command": ["touch", "a b.txt"]}, ["a b.txt"]),
    ("shell", {"command": ["python", "gen.py"]}, []),
    ("shell", {"command": ["apply_patch", PATCH]}, ["src/new.py", "src/app.py"]),
    ("shell", {"command": ["bash", "-lc", HEREDOC_PATCH]}, ["src/new.py", "src/app.py"]),
    ("shell", {"command": ["bash", "-lc", f"cd pkg && apply_patch <<'EOF'\n{PATCH}\nEOF"]},
     ["pkg/src/new.py", "pkg/src/app.py"]),
    ("shell_command", {"command": "cp a b && mkdir c", "workdir": "w"}, ["w/b", "w/c"]),
    ("exec_command", {"cmd": "sed -i 's/a/b/' f.txt", "workdir": "/p"}, ["/p/f.txt"]),
]  # fmt: skip


def test_every_tool_has_a_row_and_the_matcher_names_its_tools() -> None:
    rows_cover_the_table(CODEX, ROWS)
    matcher = hook_matcher(hooks.ENTRIES, "PostToolUse")
    assert set(matcher.split("|")) <= set(CODEX.tools())


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row[0])
def test_each_tool_touches_its_path(row: Row) -> None:
    row_touches(CODEX, row)


def test_an_mcp_tool_touches_nothing() -> None:
    row_touches(CODEX, ("mcp__fs__read", {"path": "svc/a/x.py"}, []))


@pytest.mark.parametrize("kind", SAMPLE_KINDS)
def test_samples_are_its_own_calls(kind: str) -> None:
    """It reads through its shell only: no sample read; writes and edits are patches."""
    shape = sample_touches_its_path(CODEX, kind, missing=frozenset({"read"}))
    if shape is not None:
        assert shape == ("apply_patch" if kind in ("write", "edit") else "Bash", ["command"])
