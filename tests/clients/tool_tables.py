"""Checks every client's tool table takes: shared by the tests of each client's folder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jitctx.clients.base import Client
from jitctx.clients.kit.settings_file import HookEntry
from jitctx.touched.calls import affected_paths, touched_and_written
from jitctx.touched.samples import SAMPLE_KINDS

# (tool name, input as the client sends it, the paths it touched)
Row = tuple[str, dict[str, Any], list[str]]
# (tool name, the fields of its input, sorted): a sample call's shape
Shape = tuple[str, list[str]]

SAMPLE_PATH = "/work/proj/src/a dir/it's.py"  # a space and a quote: the shell samples must quote it


def rows_cover_the_table(client: Client, rows: Sequence[Row]) -> None:
    """Every tool of the table has a row, and no row names a tool the table does not hold."""
    assert {row[0] for row in rows} == set(client.tools())


def row_touches(client: Client, row: Row) -> None:
    tool, tool_input, expected = row
    assert list(affected_paths(tool, tool_input, client.tools())) == expected
    assert all(callable(declaration) for declaration in client.tools().values())


def sample_touches_its_path(client: Client, kind: str, missing: frozenset[str] = frozenset()) -> Shape | None:
    """The client's sample call of `kind` names a tool of its table that touches the path (and writes it,
    for a shell write); None only for a kind the client has no tool for. Returns the call's shape, for
    the caller's check of its own tool names and fields."""
    assert kind in SAMPLE_KINDS
    call = client.sample_call(kind, SAMPLE_PATH)
    if kind in missing:
        assert call is None
        return None
    assert call is not None
    tool, tool_input = call
    assert tool in client.tools()
    touched, written = touched_and_written(tool, tool_input, client.tools())
    assert touched == (SAMPLE_PATH,)
    assert written == ((SAMPLE_PATH,) if kind == "shell_write" else ())
    return tool, sorted(tool_input)


def hook_matcher(entries: Sequence[HookEntry], event: str) -> str:
    """The matcher of the client's hook entry for `event` (install writes it into the settings)."""
    matcher = next(entry for entry in entries if entry.event == event).matcher
    assert matcher is not None
    return matcher


def matcher_is_the_table(client: Client, entries: Sequence[HookEntry], event: str) -> str:
    """The matcher of the client's `event` hook entry names the tools of its table, in the table's order;
    returned for the caller's check of the text install writes."""
    matcher = hook_matcher(entries, event)
    assert tuple(matcher.split("|")) == tuple(client.tools())
    return matcher
