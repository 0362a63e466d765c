"""Qwen Code's tools: what a call of each touches, and the calls a preview plays.

Seen in 0.24.4's hook payloads: read_file and write_file `file_path`, run_shell_command `command`. Qwen
Code is a fork of Gemini CLI and keeps its other shapes: edit `file_path`, list_directory `path` (Gemini's
newer `dir_path` too), glob `pattern` + `path`, grep_search `path`, run_shell_command run in `directory`;
notebook_edit `notebook_path`, lsp `filePath`. Older releases, as older Gemini CLI, read `absolute_path`
and `path`, which are read as well.

The order is the PostToolUse matcher's (`hooks.TOOLS`), which install writes into the settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from jitctx.touched.samples import file_path_samples
from jitctx.touched.tools import Declaration, ShellTool, glob_tool, grep_tool, path_field

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "read_file": path_field("file_path", "absolute_path", "path"),
        "write_file": path_field("file_path"),
        "edit": path_field("file_path", "path"),
        "notebook_edit": path_field("notebook_path", "file_path", "path"),
        "list_directory": path_field("dir_path", "path"),
        "glob": glob_tool,
        "grep_search": grep_tool,
        "lsp": path_field("filePath", "file_path", "path"),
        "run_shell_command": ShellTool("command", workdir_fields=("dir_path", "directory")),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"write_file", "edit", "notebook_edit"})


# The calls a preview plays: its file tools take `file_path`, as the generic ones do.
sample_call = file_path_samples(read="read_file", write="write_file", edit="edit", shell="run_shell_command")
