"""Claude Code's tools: what a call of each touches, and the calls a preview plays.

Field names, checked against Claude Code's own tool definitions: Read/Write/Edit/MultiEdit `file_path`,
NotebookEdit/NotebookRead `notebook_path`, Glob `pattern` + `path`, Grep `path` (its `pattern` is a
regex), LS `path`, LSP `filePath`, Bash `command`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from jitctx.touched.samples import file_path_samples
from jitctx.touched.tools import Declaration, ShellTool, glob_tool, grep_tool, path_field

_FILE = path_field("file_path")
_NOTEBOOK = path_field("notebook_path")

TOOLS: Mapping[str, Declaration] = MappingProxyType(
    {
        "Read": _FILE,
        "Write": _FILE,
        "Edit": _FILE,
        "MultiEdit": _FILE,
        "NotebookEdit": _NOTEBOOK,
        "NotebookRead": _NOTEBOOK,
        "Glob": glob_tool,
        "Grep": grep_tool,
        "LS": path_field("path"),
        "LSP": path_field("filePath", "file_path"),
        "Bash": ShellTool("command"),
    }
)


# The tools whose touched paths are files they write (a shell's are read from its command).
WRITES = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})


# A preview's calls: Read/Write/Edit take `file_path`, Bash `command`.
sample_call = file_path_samples(read="Read", write="Write", edit="Edit", shell="Bash")
