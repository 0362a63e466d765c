"""`jitctx install AGENT --statusline`: the status line command install writes, the status line of the
user's that it leaves alone (in the file it writes or in another scope's, which the agent would show
instead of jitctx's, or hide behind it), and what install says about either. The setting itself is
changed by `clients.kit.status_line`."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from jitctx.clients.kit.doctor_kit import COMMITTED_SCOPE, settings_data
from jitctx.clients.kit.status_line import (
    ADDED,
    LEFT,
    UPDATED,
    StatusLineChange,
    command_of,
    is_jitctx_status_line,
)
from jitctx.clients.kit.status_line import setting_at as status_line_at

if TYPE_CHECKING:
    from collections.abc import Mapping

    from jitctx.clients.base import Setup


class StatusLineOutcome(NamedTuple):
    """What install or uninstall did to the status line, and in which settings file."""

    change: StatusLineChange
    path: Path  # the file written; for LEFT, the file holding the user's status line


def status_line_command(scope: str) -> str:
    """The status line command for `scope`'s settings file: this installation's jitctx by its absolute
    path (the agent runs it from its own shell, whatever its PATH); in the committed file, which every
    teammate's agent reads, `jitctx statusline` found on PATH (a machine without jitctx shows no line)."""
    if scope == COMMITTED_SCOPE:
        return "jitctx statusline"
    beside = os.path.join(os.path.dirname(sys.executable), "jitctx")
    found = beside if os.path.isfile(beside) and os.access(beside, os.X_OK) else shutil.which("jitctx")
    if found:
        return f"{shlex.quote(os.path.abspath(found))} statusline"
    return f"{shlex.quote(sys.executable)} -m jitctx statusline"


def users_elsewhere(
    setup: Setup, written: Path, root: str, home: str | None, environ: Mapping[str, str]
) -> tuple[Path, str | None] | None:
    """A status line of the user's in another of the client's settings files (one of its scopes), which
    the agent would show instead of jitctx's or hide behind it: its file and command."""
    keys = setup.status_line_setting
    for scope in setup.scopes:
        if scope == "user" and not home:
            continue
        path = setup.settings_path(scope, root, home or "", environ)
        if path == written or not path.is_absolute():
            continue
        setting = status_line_at(settings_data(path), keys)
        if setting is not None and not is_jitctx_status_line(setting):
            return path, command_of(setting)
    return None


def notes(setup: Setup, outcome: StatusLineOutcome, scope: str, dry_run: bool) -> list[str]:
    """What install says about the status line (stderr)."""
    change, path = outcome
    if change.action == LEFT:
        theirs = f" ({change.command})" if change.command else ""
        return [
            f"jitctx: {path} has a status line of yours{theirs}; jitctx's is not set. Your status line "
            "command can show jitctx's line too: pipe the same stdin to `jitctx statusline` "
            "(see jitctx statusline --help)"
        ]
    if change.action not in (ADDED, UPDATED) or dry_run:
        return []
    said = [f"jitctx: status line {change.action} in {path}: {change.command}"]
    if scope == COMMITTED_SCOPE:
        said.append(
            f"jitctx: note: {path} is shared with the team: every teammate's {setup.title} in this project "
            "shows this status line instead of their own (a project's settings win over a user's); "
            f"--scope {_private_scope(setup)} keeps it yours"
        )
    return said


def _private_scope(setup: Setup) -> str:
    return next((scope for scope in setup.scopes if scope != COMMITTED_SCOPE), "user")
