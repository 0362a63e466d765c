"""Read, change and write one of an agent's JSON files for `jitctx install|uninstall`: the settings file
and the MCP server file go through the same lock, backup and clean-up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jitctx.clients.kit import install_record
from jitctx.clients.kit import settings_file as settings

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


@dataclass(frozen=True)
class Rewrite:
    """One JSON file of the agent's as `rewrite` left it."""

    data: dict[str, Any]  # as it was
    after_data: dict[str, Any]
    changed: bool
    backup: Path | None
    diff: str
    removed: tuple[Path, ...]  # the file and folders jitctx had made, taken away once left empty


def rewrite(
    path: Path,
    state: Path,
    *,
    dry_run: bool,
    adding: bool,
    change: Callable[[dict[str, Any]], tuple[dict[str, Any], bool]],
) -> Rewrite:
    """Read, change and write one settings-like file under one lock (a concurrent install would otherwise
    lose this change), keeping a backup in the state dir. A file jitctx creates is noted; one it changes
    for a removal (`adding` False) is deleted with its folders when jitctx had made it and it is left empty.
    `change` may raise UsageError: nothing is written then."""
    missing = install_record.missing_folders(path)
    with settings.locked(path, create=adding and not dry_run):
        before, data = settings.read_settings(path)
        after_data, changed = change(data)
        after = settings.dump(after_data, before) if changed else (before or "")
        backup = None
        removed: tuple[Path, ...] = ()
        if changed and not dry_run:
            backup = settings.write_settings(
                path, before, after, lambda content: install_record.save_backup(state, path, content)
            )
            if before is None and adding:
                install_record.note_created(state, path, missing)
            elif not adding:
                removed = clean_up(state, path, after_data)
    diff = settings.diff(before, after, path) if changed else ""
    return Rewrite(data, after_data, changed, backup, diff, removed)


def clean_up(state: Path, path: Path, after: dict[str, Any]) -> tuple[Path, ...]:
    """After an uninstall: a settings file jitctx created and left as `{}` goes, with the folders made
    for it when they are empty. A file the user had, or one with anything else in it, stays."""
    folders = install_record.created_note(state, path)
    if folders is None:
        return ()
    install_record.forget_created(state, path)
    if after or path.is_symlink():
        return ()
    return tuple(install_record.remove_created(path, folders))
