"""Codex's tools: what a call of each touches, and the calls a preview plays.

In hook payloads (PostToolUse, matcher `Bash|apply_patch`) its shell is `Bash` with the command as a
string in `command` (and a `workdir` it ran in, when given), and its patch tool `apply_patch` with the
patch text in `command`. The model-facing names, as a session's records keep them: `shell` (`command` as
an argv list, run in `workdir`), `shell_command` (`command` as a string), `exec_command` (`cmd`), and
`apply_patch` with the patch in `input`. Codex has no file read tool: it reads through the shell.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from jitctx.touched.samples import shell_sample
from jitctx.touched.tools import Declaration, ShellTool, patch_field

_WORKDIR = ("workdir",)

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "Bash": ShellTool("command", workdir_fields=_WORKDIR),
        "apply_patch": patch_field("command", "input"),
        "shell": ShellTool("command", workdir_fields=_WORKDIR),
        "shell_command": ShellTool("command", workdir_fields=_WORKDIR),
        "exec_command": ShellTool("cmd", "command", workdir_fields=_WORKDIR),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"apply_patch"})


def sample_call(kind: str, path: str) -> tuple[str, dict[str, object]] | None:
    command = shell_sample(kind, path)
    if command is not None:
        return "Bash", {"command": command}
    if kind == "write":
        return "apply_patch", {"command": f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n"}
    if kind == "edit":
        patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-x\n+y\n*** End Patch\n"
        return "apply_patch", {"command": patch}
    return None  # "read": no file read tool
