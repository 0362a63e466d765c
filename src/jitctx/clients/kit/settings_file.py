"""Adding and removing jitctx's hook entries in an agent's JSON settings file, and nothing else.

The file is parsed, jitctx's own handlers (commands running `jitctx hook AGENT`) are put in the exact shape
wanted, and the rest stays as it was: key order, other hooks, other settings. When nothing changes the file
is not written at all, so installing twice leaves it byte for byte the same. When something changes the
old file is handed to a backup keeper first (the CLI keeps it in the state dir, out of the repository:
see install_record), and the new one replaces it in one rename.

A file that cannot be parsed faithfully (invalid JSON, not an object, `hooks` or an event of the wrong type,
a duplicated key that a rewrite would silently drop) is refused: jitctx does not overwrite what it cannot
read. Numbers are kept as written (`1e400` would come back as `Infinity`, which is not JSON, and
`12345678901234567890.1` rounded), and so are lone surrogate escapes.

A settings file or folder that is a dangling symlink is refused: writing through it would create a file
wherever it points, out of the project too. An existing link is written through (dotfile managers link
settings files). The folder is locked while its file is read, changed and written, so two installs at
once cannot each write back what they read and lose the other's change.
"""

from __future__ import annotations

import copy
import difflib
import fcntl
import json
import os
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from jitctx.clients import all_clients
from jitctx.clients.kit.hook_command import (  # the forms of a hook's command, read by settings' callers too
    fail_safe,
    is_jitctx_command,
    unguard,
)
from jitctx.clients.kit.mcp_transport import is_jitctx_mcp_handler, mcp_handler
from jitctx.errors import JitctxError

Settings = dict[str, Any]


class SettingsError(JitctxError):
    """A settings file jitctx will not rewrite."""


class HookEntry(NamedTuple):
    """One hook jitctx registers: the event, its matcher (None: every occurrence) and a timeout, in the
    client's unit (seconds for Claude Code and Codex, milliseconds for Gemini CLI)."""

    event: str
    matcher: str | None
    timeout: int
    # Answered by the running `jitctx mcp` server (its `hook_event` tool: jitctx.hook.transports.mcp.tools),
    # not by a process.
    mcp: bool = False
    # Does the client take this hook's failure (a non-zero exit) for a deny of the call or prompt? Then
    # its command is written in the form that always exits 0 (`fail_safe`).
    fails_closed: bool = False

    def group(self, command: str) -> Settings:
        if self.fails_closed:
            command = fail_safe(command)
        handler: Settings = {"type": "command", "command": command, "timeout": self.timeout}
        if self.mcp:
            handler = mcp_handler(self.timeout)
        if self.matcher is None:
            return {"hooks": [handler]}
        return {"matcher": self.matcher, "hooks": [handler]}


class Change(NamedTuple):
    event: str
    action: str  # "added", "updated", "kept" or "removed"
    matcher: str | None = None


def is_warm_command(command: str) -> bool:
    """Does a hook command of jitctx hand its events to the warm daemon (`jitctx hook AGENT --warm`)?"""
    try:
        return "--warm" in shlex.split(unguard(command))
    except ValueError:
        return False


# -- reading ------------------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> Settings:
    result: Settings = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object; a rewrite would keep only one")
        result[key] = value
    return result


class Number:
    """A number of a settings file, kept as written: it goes back out as the same text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Number({self.text!r})"


def _number_int(text: str) -> int | Number:
    # An int reads back as itself, except -0 and ones too long for int() (Python refuses > 4300 digits).
    if text == "-0" or len(text) > 4000:
        return Number(text)
    return int(text)


def parse_settings(text: str, path: Path) -> Settings:
    """The settings object of `text`; SettingsError when it is not one jitctx can rewrite faithfully."""
    refuse = "; fix the file (or move it away), then run this again. jitctx did not change it."
    if not text.strip():
        return {}
    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=Number,
            parse_int=_number_int,
            parse_constant=Number,  # NaN, Infinity: not JSON, but not ours to change either
        )
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}){refuse}") from None
    except (ValueError, RecursionError) as exc:
        raise SettingsError(f"{path}: {exc}{refuse}") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: holds a JSON {type(data).__name__}, not an object{refuse}")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise SettingsError(f"{path}: 'hooks' is a {type(hooks).__name__}, not an object{refuse}")
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise SettingsError(f"{path}: 'hooks.{event}' is a {type(groups).__name__}, not a list{refuse}")
    return data


def refuse_dangling_links(path: Path) -> None:
    """SettingsError when `path`, or a folder above it, is a symlink to nothing: creating the file would
    create it where the link points."""
    current = path
    while not current.exists():
        if current.is_symlink():
            target = os.readlink(current)
            raise SettingsError(
                f"{current} is a symbolic link to {target}, which does not exist; jitctx does not create "
                "files through a dangling link (it may point anywhere, out of the project too). Create "
                "the target or remove the link. jitctx did not change anything."
            )
        if current.parent == current:
            return
        current = current.parent


@contextmanager
def locked(path: Path, *, create: bool) -> Iterator[None]:
    """Hold an exclusive lock on the folder of the settings file `path` (made first when `create`) while
    the file is read, changed and written. Without a folder there is nothing to read and nothing is
    locked; a file system without locks is used without."""
    refuse_dangling_links(path)
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # releases the lock


def read_settings(path: Path) -> tuple[str | None, Settings]:
    """The file's text (None when it does not exist) and its parsed settings."""
    refuse_dangling_links(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path}: not UTF-8 (bad byte at offset {exc.start}); jitctx did not change it"
        ) from None
    return text, parse_settings(text, path)


# -- changing -----------------------------------------------------------------------------------------


def _ours(group: object, agent: str) -> list[int]:
    """Indexes of jitctx's handlers in one matcher group."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return []
    return [
        i
        for i, h in enumerate(group["hooks"])
        if isinstance(h, dict)
        and (is_jitctx_command(h.get("command"), agent) or (speaks_mcp(agent) and is_jitctx_mcp_handler(h)))
    ]


def _strip(groups: list[Any], agent: str) -> tuple[list[Any], int]:
    """`groups` without jitctx's handlers (a group left empty by that goes too); and how many went."""
    kept: list[Any] = []
    removed = 0
    for group in groups:
        mine = _ours(group, agent)
        if not mine:
            kept.append(group)
            continue
        removed += len(mine)
        rest = [h for i, h in enumerate(group["hooks"]) if i not in mine]
        if rest:
            kept.append({**group, "hooks": rest})
    return kept, removed


def install(
    data: Settings, entries: tuple[HookEntry, ...], command: str, agent: str
) -> tuple[Settings, list[Change]]:
    """Settings with exactly one jitctx group per entry (in the wanted shape), and what changed."""
    result = copy.deepcopy(data)
    hooks: Settings = result.get("hooks") or {}
    changes: list[Change] = []
    wanted = {entry.event: entry for entry in entries}
    for event in list(hooks):  # entries of ours under events no longer wanted (an older jitctx)
        if event not in wanted:
            groups, removed = _strip(hooks[event], agent)
            if removed:
                changes.append(Change(event, "removed"))
                _set_or_drop(hooks, event, groups)
    for entry in entries:
        groups = hooks.get(entry.event, [])
        group = entry.group(command)
        holders = [g for g in groups if _ours(g, agent)]
        if len(holders) == 1 and holders[0] == group:
            changes.append(Change(entry.event, "kept", entry.matcher))
            continue
        stripped, removed = _strip(groups, agent)
        hooks[entry.event] = [*stripped, group]
        changes.append(Change(entry.event, "updated" if removed else "added", entry.matcher))
    if any(change.action != "kept" for change in changes):
        result["hooks"] = hooks
        return result, changes
    return data, changes


def uninstall(data: Settings, agent: str) -> tuple[Settings, list[Change]]:
    """Settings without jitctx's handlers for `agent`; events and `hooks` left empty by that go too."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, []
    result = copy.deepcopy(data)
    hooks = result["hooks"]
    changes: list[Change] = []
    for event in list(hooks):
        groups, removed = _strip(hooks[event], agent)
        if removed:
            changes.append(Change(event, "removed"))
            _set_or_drop(hooks, event, groups)
    if not changes:
        return data, []
    if not hooks:
        del result["hooks"]
    return result, changes


def _set_or_drop(hooks: Settings, event: str, groups: list[Any]) -> None:
    if groups:
        hooks[event] = groups
    else:
        del hooks[event]


# -- writing ------------------------------------------------------------------------------------------

_INDENT = re.compile(r"\n([ \t]+)\S")


def dump(data: Settings, like: str | None) -> str:
    """JSON text in the style of `like` (its indent, its final newline); two spaces for a new file."""
    indent: str | int = 2
    if like:
        found = _INDENT.search(like)
        if found:
            indent = found.group(1)
    numbers: list[str] = []
    mark = f"@@jitctx-number-{os.urandom(6).hex()}-"

    def placeholder(value: object) -> str:
        if not isinstance(value, Number):
            raise TypeError(f"{type(value).__name__} is not JSON")
        numbers.append(value.text)
        return f"{mark}{len(numbers) - 1}@@"

    text = json.dumps(data, indent=indent, ensure_ascii=False, default=placeholder)
    for index, number in enumerate(numbers):
        text = text.replace(f'"{mark}{index}@@"', number, 1)
    # A lone surrogate (read from a `\ud800` escape) goes back out as that escape, valid UTF-8.
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text + "\n" if like is None or like.endswith("\n") else text


def diff(before: str | None, after: str, path: Path) -> str:
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=str(path) if before is not None else "/dev/null",
        tofile=str(path),
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def write_settings(
    path: Path, before: str | None, after: str, keep_backup: Callable[[bytes], Path] | None = None
) -> Path | None:
    """Replace the file with `after` in one rename; when it existed, `keep_backup` is handed its old bytes
    first (and a failing backup stops the write). Returns where the backup went.

    A symlinked settings file (dotfile managers do that) is written through to its target."""
    refuse_dangling_links(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # by the path as written: never through a link
    target = Path(os.path.realpath(path))
    backup: Path | None = None
    mode = 0o644
    if before is not None:
        mode = os.stat(target).st_mode & 0o7777
        if keep_backup is not None:
            backup = keep_backup(target.read_bytes())
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(after)
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return backup


def speaks_mcp(agent: str) -> bool:
    """Can this client's hooks be `mcp_tool` handlers asking the `jitctx mcp` server?"""
    try:
        return "mcp" in all_clients.setup(agent).transports
    except KeyError:
        return False
