"""GitHub Copilot CLI's tools: what a call of each touches, and the calls a preview plays.

Field names, as its postToolUse payloads carry them (1.0.102, `toolArgs`): view `path` (a file, or a
directory it lists), create `path` + `file_text`, edit `path` + `old_str` + `new_str`, bash `command`,
glob `pattern` + `path`, grep `pattern` + `path`, rg `pattern` + `paths` (one directory or a list of
them), apply_patch the raw patch text (kept as `input` by `events.tool_input`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from jitctx.touched.samples import shell_sample
from jitctx.touched.tools import (
    Declaration,
    ShellTool,
    glob_tool,
    grep_tool,
    many_files_tool,
    patch_field,
    path_field,
)

if TYPE_CHECKING:
    from typing import Any


def ripgrep(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """rg searches its `paths`, one or a list: each as given, a glob by its static prefix."""
    paths = tool_input.get("paths")
    return many_files_tool({"paths": [paths] if isinstance(paths, str) else paths})


_PATH = path_field("path")

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "view": _PATH,
        "create": _PATH,
        "edit": _PATH,
        "bash": ShellTool("command"),
        "glob": glob_tool,
        "grep": grep_tool,
        "rg": ripgrep,
        "apply_patch": patch_field("input"),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"create", "edit", "apply_patch"})


def sample_call(kind: str, path: str) -> tuple[str, dict[str, object]] | None:
    command = shell_sample(kind, path)
    if command is not None:
        return "bash", {"command": command}
    if kind == "read":
        return "view", {"path": path}
    if kind == "write":
        return "create", {"path": path, "file_text": "x\n"}
    if kind == "edit":
        return "edit", {"path": path, "old_str": "x", "new_str": "y"}
    return None
