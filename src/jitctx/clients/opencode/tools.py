"""OpenCode's tools: what a call of each touches, and the calls a preview plays.

Field names, as the plugin hands over a call's `args` (1.18.33): read, write and edit `filePath`, bash
`command` run in `workdir`, glob `pattern` + `path`, grep `pattern` + `path`, list `path` (older
releases), lsp `filePath`, apply_patch the patch text in `patchText`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from jitctx.touched.samples import shell_sample
from jitctx.touched.tools import Declaration, ShellTool, glob_tool, grep_tool, patch_field, path_field

_FILE = path_field("filePath")

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "read": _FILE,
        "write": _FILE,
        "edit": _FILE,
        "bash": ShellTool("command", workdir_fields=("workdir",)),
        "glob": glob_tool,
        "grep": grep_tool,
        "list": path_field("path"),
        "lsp": _FILE,
        "apply_patch": patch_field("patchText"),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"write", "edit", "apply_patch"})


def sample_call(kind: str, path: str) -> tuple[str, dict[str, object]] | None:
    command = shell_sample(kind, path)
    if command is not None:
        return "bash", {"command": command}
    if kind == "read":
        return "read", {"filePath": path}
    if kind == "write":
        return "write", {"filePath": path, "content": "x\n"}
    if kind == "edit":
        return "edit", {"filePath": path, "oldString": "x", "newString": "y"}
    return None
