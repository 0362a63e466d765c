"""Gemini CLI's tools: what a call of each touches, and the calls a preview plays.

Field names, checked against Gemini CLI's own tool definitions: read_file `file_path` (older releases:
`absolute_path`), write_file/replace `file_path`, list_directory `dir_path` (older: `path`), glob
`pattern` + `dir_path` (older: `path`), grep_search (older: search_file_content) `dir_path`/`path`,
read_many_files `include` (older: `paths`), run_shell_command `command` run in `dir_path`.

The order is the AfterTool matcher's (`hooks.TOOLS`), which install writes into the settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from jitctx.touched.samples import file_path_samples
from jitctx.touched.tools import Declaration, ShellTool, glob_tool, grep_tool, many_files_tool, path_field

_FILE = path_field("file_path")

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "read_file": path_field("file_path", "absolute_path", "path"),
        "read_many_files": many_files_tool,
        "write_file": _FILE,
        "replace": _FILE,
        "list_directory": path_field("dir_path", "path"),
        "glob": glob_tool,
        "grep_search": grep_tool,
        "search_file_content": grep_tool,
        "run_shell_command": ShellTool("command", workdir_fields=("dir_path", "directory")),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"write_file", "replace"})


# The calls a preview plays: its file tools take `file_path`, as the generic ones do.
sample_call = file_path_samples(
    read="read_file", write="write_file", edit="replace", shell="run_shell_command"
)
