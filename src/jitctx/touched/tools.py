"""What each agent tool touches: an explicit registry of one declaration per tool name (pure).

A tool that is not registered reports nothing. There is deliberately no fallback that guesses from
field names such as `path` or `url`: a web fetch's `url` or an MCP tool's `path` parameter is not a
local file, and a missing declaration is caught by the registry audit test instead.

Field names were checked against each agent's own tool definitions:

* Claude Code: Read/Write/Edit/MultiEdit `file_path`, NotebookEdit/NotebookRead `notebook_path`,
  Glob `pattern` + `path`, Grep `path` (its `pattern` is a regex), LS `path`, LSP `filePath`,
  Bash `command`.
* Gemini CLI: read_file `file_path` (older releases: `absolute_path`), write_file/replace `file_path`,
  list_directory `dir_path` (older: `path`), glob `pattern` + `dir_path` (older: `path`),
  grep_search (older: search_file_content) `dir_path`/`path`, read_many_files `include` (older:
  `paths`), run_shell_command `command` run in `dir_path`.
* Codex: shell `command` as an argv list run in `workdir`, shell_command `command` as a string,
  exec_command `cmd`, apply_patch `input` (the patch text).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from types import MappingProxyType

# The hook runs this on every tool call: `typing`, the shell lexer and the patch parser are imported only
# when needed (a Read never needs them).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Declaration = Callable[[Mapping[str, object]], tuple[str, ...]]

_GLOB_CHARS = frozenset("*?[]{}")


def _text(tool_input: Mapping[str, Any], *fields: str) -> str | None:
    """The first of `fields` that holds a non-empty string."""
    for field in fields:
        value = tool_input.get(field)
        if isinstance(value, str) and value:
            return value
    return None


def glob_prefix(pattern: str) -> tuple[str, ...]:
    """The directory a glob can only match under: `src/ui/**/*.tsx` -> `src/ui`; `**/*.ts` -> nothing."""
    from jitctx.scope import static_prefix  # scope pulls in the model; Read/Write/Bash calls never need it

    if not isinstance(pattern, str):
        return ()
    prefix = static_prefix(pattern)
    if prefix and pattern.startswith("/"):
        prefix = "/" + prefix
    return (prefix,) if prefix else ()


def path_field(*fields: str) -> Declaration:
    """A tool that touches the one path in the first of `fields` it was given."""

    def declaration(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
        path = _text(tool_input, *fields)
        return (path,) if path else ()

    declaration.__doc__ = f"the path in {' or '.join(repr(f) for f in fields)}"
    return declaration


def glob_tool(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """The search root `path` when given, else the static prefix of `pattern`."""
    root = _text(tool_input, "path", "dir_path")
    if root:
        return (root,)
    return glob_prefix(_text(tool_input, "pattern") or "")


def grep_tool(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """The search root `path` only: the pattern is a regex, and `src/\\w+` is no directory."""
    root = _text(tool_input, "path", "dir_path")
    return (root,) if root else ()


def many_files_tool(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """Each entry of `include`/`paths`: a plain path as given, a glob by its static prefix."""
    found: list[str] = []
    for field in ("include", "paths"):
        entries = tool_input.get(field)
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, str) and entry:
                    found.extend(glob_prefix(entry) if _GLOB_CHARS & set(entry) else (entry,))
    return tuple(dict.fromkeys(found))


def _shell_command(tool_input: Mapping[str, Any], command_fields: tuple[str, ...]) -> str | list[str] | None:
    command = next((tool_input[f] for f in command_fields if f in tool_input), None)
    if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
        return command
    return command if isinstance(command, str) else None


def _under(workdir: str | None, paths: tuple[str, ...]) -> tuple[str, ...]:
    if not workdir:
        return paths
    return tuple(dict.fromkeys(posixpath.join(workdir, p) for p in paths))


class ShellTool:
    """A shell tool: what its command (a string, or an argv list) certainly reads or writes, under its
    workdir (`__call__`), and of those what it certainly writes (`targets`)."""

    def __init__(self, *command_fields: str, workdir_fields: tuple[str, ...] = ()) -> None:
        self.command_fields = command_fields
        self.workdir_fields = workdir_fields
        self.__doc__ = f"read and write targets of {' or '.join(repr(f) for f in command_fields)}"

    def __call__(self, tool_input: Mapping[str, Any]) -> tuple[str, ...]:
        return self.targets(tool_input)[0]

    def targets(self, tool_input: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(every path the command certainly reads or writes, the paths it certainly writes), from one
        reading of the command; a patch run through the shell writes every file it names."""
        from jitctx.touched.bash import touched_and_written
        from jitctx.touched.patch import shell_patch_targets

        command = _shell_command(tool_input, self.command_fields)
        if command is None:
            return (), ()
        workdir = _text(tool_input, *self.workdir_fields)
        patched = shell_patch_targets(command)
        if patched is not None:
            return _under(workdir, patched), _under(workdir, patched)
        paths, written = touched_and_written(command if isinstance(command, str) else _joined(command))
        return _under(workdir, paths), _under(workdir, written)


def _joined(argv: list[str]) -> str:
    import shlex

    return shlex.join(argv)


def apply_patch_tool(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """Files named by the patch headers (Add, Update, Move to; never Delete)."""
    from jitctx.touched.patch import patch_targets

    return patch_targets(_text(tool_input, "input", "patch", "patch_text") or "")


_FILE = path_field("file_path")
_ANY_FILE = path_field("file_path", "path", "filePath")

REGISTRY: Mapping[str, Declaration] = MappingProxyType(
    {
        # Claude Code
        "Read": _FILE,
        "Write": _FILE,
        "Edit": _FILE,
        "MultiEdit": _FILE,
        "NotebookEdit": path_field("notebook_path"),
        "NotebookRead": path_field("notebook_path"),
        "Glob": glob_tool,
        "Grep": grep_tool,
        "LS": path_field("path"),
        "LSP": path_field("filePath", "file_path"),
        "Bash": ShellTool("command"),
        # Gemini CLI
        "read_file": path_field("file_path", "absolute_path", "path"),
        "write_file": _FILE,
        "replace": _FILE,
        "read_many_files": many_files_tool,
        "list_directory": path_field("dir_path", "path"),
        "grep_search": grep_tool,
        "search_file_content": grep_tool,
        "run_shell_command": ShellTool("command", workdir_fields=("dir_path", "directory")),
        # Codex
        "shell": ShellTool("command", workdir_fields=("workdir",)),
        "shell_command": ShellTool("command", workdir_fields=("workdir",)),
        "exec_command": ShellTool("cmd", "command", workdir_fields=("workdir",)),
        "apply_patch": apply_patch_tool,
        # Generic names (harnesses built on jitctx, the seed's own tool set)
        "read": _ANY_FILE,
        "write": _ANY_FILE,
        "edit": _ANY_FILE,
        "notebook_edit": path_field("notebook_path", "file_path", "path"),
        "read_many": many_files_tool,
        "glob": glob_tool,
        "grep": grep_tool,
        "ls": path_field("path", "dir_path"),
        "lsp": path_field("filePath", "file_path", "path"),
        "bash": ShellTool("command", workdir_fields=("workdir", "cwd")),
    }
)
