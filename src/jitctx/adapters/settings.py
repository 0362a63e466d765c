"""Adding and removing jitctx's hook entries in an agent's JSON settings file, and nothing else.

The file is parsed, jitctx's own handlers (commands running `jitctx hook AGENT`) are put in the exact shape
wanted, and the rest stays as it was: key order, other hooks, other settings. When nothing changes the file
is not written at all, so installing twice leaves it byte for byte the same. When something changes the
old file is copied to `NAME.bak-YYYYmmddTHHMMSS` first, and the new one replaces it in one rename.

A file that cannot be parsed faithfully (invalid JSON, not an object, `hooks` or an event of the wrong type,
a duplicated key that a rewrite would silently drop) is refused: jitctx does not overwrite what it cannot
read.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from jitctx.errors import JitctxError

Settings = dict[str, Any]


class SettingsError(JitctxError):
    """A settings file jitctx will not rewrite."""


class HookEntry(NamedTuple):
    """One hook jitctx registers: the event, its matcher (None: every occurrence) and a timeout (s)."""

    event: str
    matcher: str | None
    timeout: int

    def group(self, command: str) -> Settings:
        handler = {"type": "command", "command": command, "timeout": self.timeout}
        if self.matcher is None:
            return {"hooks": [handler]}
        return {"matcher": self.matcher, "hooks": [handler]}


class Change(NamedTuple):
    event: str
    action: str  # "added", "updated", "kept" or "removed"
    matcher: str | None = None


def is_jitctx_command(command: object, agent: str) -> bool:
    """Is this a command that runs `jitctx hook AGENT` (as `jitctx ...` or `python -m jitctx ...`)?"""
    import shlex  # settings.py is imported on the hook path for HookEntry; keep that cheap

    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for index in range(len(words) - 2):
        if words[index + 1 : index + 3] != ["hook", agent]:
            continue
        if os.path.basename(words[index]) not in ("jitctx", "jitctx.exe"):
            continue
        before = words[:index]
        # The program itself, `python -m jitctx`, or `env A=1 jitctx`; not `echo jitctx hook ...`.
        if (before and before[-1] == "-m") or all(w == "env" or _ASSIGNMENT.match(w) for w in before):
            return True
    return False


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


# -- reading ------------------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> Settings:
    result: Settings = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object; a rewrite would keep only one")
        result[key] = value
    return result


def parse_settings(text: str, path: Path) -> Settings:
    """The settings object of `text`; SettingsError when it is not one jitctx can rewrite faithfully."""
    refuse = "; fix the file (or move it away), then run this again. jitctx did not change it."
    if not text.strip():
        return {}
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
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


def read_settings(path: Path) -> tuple[str | None, Settings]:
    """The file's text (None when it does not exist) and its parsed settings."""
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
        if isinstance(h, dict) and is_jitctx_command(h.get("command"), agent)
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
    import copy

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
    import copy

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
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    return text + "\n" if like is None or like.endswith("\n") else text


def diff(before: str | None, after: str, path: Path) -> str:
    import difflib

    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=str(path) if before is not None else "/dev/null",
        tofile=str(path),
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def write_settings(path: Path, before: str | None, after: str) -> Path | None:
    """Replace the file with `after` in one rename, keeping a backup of what was there; returns the backup.

    A symlinked settings file (dotfile managers do that) is written through to its target."""
    import tempfile
    import time

    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    backup: Path | None = None
    mode = 0o644
    if before is not None:
        mode = os.stat(target).st_mode & 0o7777
        stamp = time.strftime("%Y%m%dT%H%M%S")
        backup = target.with_name(f"{target.name}.bak-{stamp}")
        serial = 1
        while backup.exists():
            backup = target.with_name(f"{target.name}.bak-{stamp}-{serial}")
            serial += 1
        backup.write_bytes(target.read_bytes())
        os.chmod(backup, mode)
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
