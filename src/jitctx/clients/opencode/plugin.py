"""The plugin file `jitctx install opencode` writes: the package's `jitctx_plugin.js` with the hook
command filled in, and its removal by `jitctx uninstall opencode`.

The file is jitctx's alone, so it is written whole and recognised by its first line; a file of that name
without it is someone else's, and is left alone (install and uninstall refuse). Like a settings file, the
old version is kept in the state dir before it is replaced, and a file (and folders) jitctx created go
again on uninstall when nothing else is in them.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from jitctx.clients.kit import install_record
from jitctx.clients.kit import settings_file as settings
from jitctx.clients.kit.settings_file import Change, SettingsError, refuse_dangling_links
from jitctx.clients.opencode.hooks import HOLD_TOOLS

MARKER = "// jitctx-plugin"
PLACEHOLDER = "__JITCTX_COMMAND__"
HOLD_PLACEHOLDER = "__JITCTX_HOLD_TOOLS__"
_COMMAND_LINE = "const COMMAND = "


def template() -> str:
    try:
        return (files("jitctx.clients.opencode") / "jitctx_plugin.js").read_text(encoding="utf-8")
    except OSError as exc:  # an installation built without its package data
        raise SettingsError(
            f"this jitctx installation lacks its OpenCode plugin (jitctx/clients/opencode/jitctx_plugin.js: "
            f"{exc.strerror}); reinstall jitctx"
        ) from None


def render(command: str) -> str:
    """The plugin running `command` (split as a shell would, since it is started without one), asking
    about the calls of `hooks.HOLD_TOOLS` before they run."""
    argv = shlex.split(command)
    if not argv:
        raise SettingsError("the hook command is empty")
    text = template().replace(PLACEHOLDER, json.dumps(argv), 1)
    return text.replace(HOLD_PLACEHOLDER, json.dumps(list(HOLD_TOOLS)), 1)


def is_ours(text: str) -> bool:
    return text.startswith(MARKER)


def command_of(text: str) -> str | None:
    """The hook command an installed plugin runs, as one shell-quoted string; None when unreadable."""
    for line in text.splitlines():
        if line.startswith(_COMMAND_LINE):
            try:
                argv = json.loads(line[len(_COMMAND_LINE) :].rstrip().rstrip(";"))
            except ValueError:
                return None
            if isinstance(argv, list) and argv and all(isinstance(word, str) for word in argv):
                return shlex.join(argv)
            return None
    return None


def read_text(path: Path) -> str | None:
    """The file's text, None when there is none; SettingsError when it cannot be read as text."""
    refuse_dangling_links(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot be read ({exc}); jitctx did not change it") from None


@dataclass(frozen=True)
class FileChange:
    """What install or uninstall did to the plugin file (the shape `jitctx install` reports)."""

    changes: tuple[Change, ...]
    changed: bool
    backup: Path | None
    diff: str
    removed: tuple[Path, ...]


def install_file(
    path: Path, command: str | None, state: Path, dry_run: bool, events: tuple[str, ...]
) -> FileChange:
    """Write the plugin running `command` at `path`, or remove it (`command` None)."""
    missing = install_record.missing_folders(path)
    adding = command is not None
    with settings.locked(path, create=adding and not dry_run):
        before = read_text(path)
        if before is not None and not is_ours(before):
            raise SettingsError(
                f"{path} exists and is not jitctx's plugin (its first line is not {MARKER!r}); "
                "jitctx did not change it. Move it away, or leave OpenCode's plugins as they are."
            )
        after = render(command) if command is not None else None
        if after == before:
            action = "kept" if adding else None
            return FileChange(_changes(events, action), False, None, "", ())
        if after is None and before is None:
            return FileChange((), False, None, "", ())
        action = "removed" if after is None else ("added" if before is None else "updated")
        diff = settings.diff(before, after or "", path)
        if dry_run:
            return FileChange(_changes(events, action), True, None, diff, ())
        backup = None
        removed: tuple[Path, ...] = ()
        if after is not None:
            backup = settings.write_settings(
                path, before, after, lambda content: install_record.save_backup(state, path, content)
            )
            if before is None:
                install_record.note_created(state, path, missing)
        else:
            backup = install_record.save_backup(state, path, path.read_bytes())
            folders = install_record.created_note(state, path) or []
            install_record.forget_created(state, path)
            removed = tuple(install_record.remove_created(path, folders))
        return FileChange(_changes(events, action), True, backup, diff, removed)


def _changes(events: tuple[str, ...], action: str | None) -> tuple[Change, ...]:
    return () if action is None else tuple(Change(event, action) for event in events)
