"""An agent's status line command, in its settings file: `jitctx install AGENT --statusline` sets it to run
`jitctx statusline`, and `jitctx uninstall AGENT` takes it away again, only ever when it is jitctx's.

`jitctx doctor` checks the program of a status line of jitctx's as it checks a hook command's.

A client that has one names where its settings hold it (`Installer.status_line_setting`, a path of keys:
Claude Code's `("statusLine",)`); the setting is `{"type": "command", "command": CMD}` (Claude Code's
schema also takes `padding`, `refreshInterval` and `hideVimModeIndicator`, which jitctx leaves to the
user and keeps when it updates its own). A status line that runs anything else is the user's: it is never
replaced, and install says where it is.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.clients.kit.doctor_kit import command_check, settings_data
from jitctx.clients.kit.hook_command import runs_jitctx
from jitctx.clients.kit.settings_file import SettingsError

if TYPE_CHECKING:
    from pathlib import Path

    from jitctx.clients.base import Setup
    from jitctx.clients.kit.checks import Check

Settings = dict[str, Any]

ADDED, UPDATED, KEPT, REMOVED, LEFT = "added", "updated", "kept", "removed", "left"


class StatusLineChange(NamedTuple):
    """What install or uninstall did to the status line setting of one settings file."""

    action: str  # ADDED, UPDATED, KEPT, REMOVED; LEFT: a status line of the user's stays as it is
    command: str | None  # the status line command the setting holds afterwards (LEFT: the user's)


def setting_at(data: Settings, keys: Sequence[str]) -> object:
    """The value at `keys` in the settings, None when absent (or when a key on the way is no object)."""
    value: object = data
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def command_of(setting: object) -> str | None:
    """The command a status line setting runs, when it is a command setting."""
    if not isinstance(setting, dict) or setting.get("type") != "command":
        return None
    command = setting.get("command")
    return command if isinstance(command, str) else None


def is_jitctx_status_line(setting: object) -> bool:
    """Is this status line setting jitctx's own: a command running `jitctx statusline` (as `jitctx ...`,
    an absolute path to it, or `python -m jitctx ...`)?"""
    command = command_of(setting)
    return command is not None and runs_status_line(command)


def runs_status_line(command: str) -> bool:
    """Does this command run `jitctx statusline` and nothing else? A line that pipes it, chains it or
    redirects it (`jitctx statusline && ccusage statusline`) is the user's own, which calls jitctx."""
    if any(operator in command for operator in ("|", "&", ";", ">", "<", "`", "$(")):
        return False
    return runs_jitctx(command, "statusline")


def install(data: Settings, keys: Sequence[str], command: str) -> tuple[Settings, StatusLineChange]:
    """Settings whose status line runs `command`, unless they hold a status line of the user's (LEFT)."""
    current = setting_at(data, keys)
    if current is not None and not is_jitctx_status_line(current):
        return data, StatusLineChange(LEFT, command_of(current))
    kept = current if isinstance(current, dict) else {}  # padding, refreshInterval: the user's to set
    wanted: Settings = {**kept, "type": "command", "command": command}
    if current == wanted:
        return data, StatusLineChange(KEPT, command)
    result = copy.deepcopy(data)
    parent = result
    for key in keys[:-1]:
        below = parent.setdefault(key, {})
        if not isinstance(below, dict):
            raise SettingsError(f"{key!r} is not an object, so it cannot hold the status line")
        parent = below
    parent[keys[-1]] = wanted
    return result, StatusLineChange(ADDED if current is None else UPDATED, command)


def uninstall(data: Settings, keys: Sequence[str]) -> tuple[Settings, StatusLineChange | None]:
    """Settings without jitctx's status line; unchanged (None) when it holds none of jitctx's."""
    current = setting_at(data, keys)
    if not is_jitctx_status_line(current):
        return data, None
    result = copy.deepcopy(data)
    chain = [result]  # the objects on the way down, the settings first
    for key in keys[:-1]:
        chain.append(chain[-1][key])
    del chain[-1][keys[-1]]
    # An object the removal leaves empty (Qwen Code's `ui`) holds nothing of the user's: it goes too, so
    # that a settings file install created is left as empty as install found it (and then deleted).
    for depth in range(len(chain) - 1, 0, -1):
        if chain[depth]:
            break
        del chain[depth - 1][keys[depth - 1]]
    return result, StatusLineChange(REMOVED, None)


def status_line_checks(setup: Setup, places: Sequence[tuple[str, Path]]) -> list[Check]:
    """`jitctx doctor`: where jitctx's status line is set, that its program runs (as a hook command's is
    checked). Nothing when it is set nowhere: it is optional."""
    checks = []
    for scope, path in places:
        setting = setting_at(settings_data(path), setup.status_line_setting)
        command = command_of(setting)
        if command is None or not is_jitctx_status_line(setting):
            continue
        ran = command_check(setup.name, command, scope)
        detail = f"{path}: {command}" if ran.status == "ok" else ran.detail
        fix = ran.fix.replace(f"jitctx install {setup.name}", f"jitctx install {setup.name} --statusline")
        checks.append(replace(ran, name=f"status line ({scope})", detail=detail, fix=fix))
    return checks
