"""What a tool call touches, by tool *kind* (pure): declarations, and the generic tool names.

A *declaration* says which paths a call of one tool touched, from its input: the file in a path field
(`path_field`), a glob's search root or static prefix (`glob_tool`), a grep's root (`grep_tool`), the
entries of a many-files read (`many_files_tool`), a shell command's certain reads and writes
(`ShellTool`), a patch's headers (`patch_field`, `apply_patch_tool`). This module names no client's tools:
each live client declares its own table, tool name -> declaration built from these kinds with its own
field names, in its folder (`jitctx.clients.<client>.tools`). `GENERIC` holds the generic names, the
seed's own tool set for harnesses built on jitctx.

A tool that is not declared reports nothing. There is deliberately no fallback that guesses from field
names such as `path` or `url`: a web fetch's `url` or an MCP tool's `path` parameter is not a local file,
and a missing declaration is caught by the tables' tests instead.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable, Iterator, Mapping
from itertools import chain
from types import MappingProxyType
from typing import Any

from jitctx.glob_prefix import static_prefix
from jitctx.live_clients import every
from jitctx.touched.bash import touched_and_written
from jitctx.touched.patch import patch_targets, shell_patch_targets

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
    return shlex.join(argv)


def patch_field(*fields: str) -> Declaration:
    """A patch tool: the files named by the headers (Add, Update, Move to; never Delete) of the patch
    text in the first of `fields` it was given."""

    def declaration(tool_input: Mapping[str, Any]) -> tuple[str, ...]:
        return patch_targets(_text(tool_input, *fields) or "")

    declaration.__doc__ = f"the files a patch in {' or '.join(repr(f) for f in fields)} names"
    return declaration


apply_patch_tool = patch_field("input", "patch", "patch_text")

_ANY_FILE = path_field("file_path", "path", "filePath")

# The generic names: the seed's own tool set, for harnesses built on jitctx that name no client.
GENERIC: Mapping[str, Declaration] = MappingProxyType(
    {
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
        "apply_patch": apply_patch_tool,
    }
)

# The generic tools whose touched paths are files they write (a shell's are read from its command).
GENERIC_WRITES = frozenset({"write", "edit", "notebook_edit", "apply_patch"})


class _EveryTool(Mapping[str, Declaration]):
    """Every tool name jitctx knows, for a caller that names no client (`Session.on_tool_call("Read",
    ...)`, `jitctx touched --tool Read`): the generic names, then each live client's own, in the
    registry's order (the first to declare a name wins). The clients declare their tools in their own
    folders, and reach this module through `jitctx.live_clients`: it names no client."""

    def __getitem__(self, name: str) -> Declaration:
        declaration = GENERIC.get(name)
        if declaration is not None:
            return declaration
        for table in self._client_tables():
            declaration = table.get(name)
            if declaration is not None:
                return declaration
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(chain(GENERIC, *self._client_tables())))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def writes(self) -> frozenset[str]:
        """The names whose touched paths are files they write, each as the table that declares it first
        says (a replay that resolves names without a client)."""

        declared, writes = set(GENERIC), set(GENERIC_WRITES)
        for client in every():
            own = client.writes()
            for name in client.tools():
                if name not in declared:
                    declared.add(name)
                    if name in own:
                        writes.add(name)
        return frozenset(writes)

    @staticmethod
    def _client_tables() -> Iterator[Mapping[str, Declaration]]:
        for client in every():
            yield client.tools()


REGISTRY = _EveryTool()


def held_tools(tools: Mapping[str, Declaration], writes: frozenset[str]) -> tuple[str, ...]:
    """The tools whose calls may write a file, which a hold asks about before they run: the write tools
    (sorted), then the table's shells, in its order."""
    return (
        *sorted(writes),
        *(name for name, declaration in tools.items() if isinstance(declaration, ShellTool)),
    )
