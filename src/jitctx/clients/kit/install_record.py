"""What `jitctx install` keeps in the state dir about a settings file it changed: backups of the old file
and a note that jitctx created the file (and which folders), so `uninstall` can take away what it made.

Each settings file gets a folder of its own, `<state dir>/settings-backups/<name>-<hash>/`, named after the
settings file's folder and a hash of its absolute path; the file `path` in it says which settings file it
is about. Backups live there, outside the repository: a `.bak` file in `.claude/` would be committed,
or read by the agent as settings. The state dir is private (0700), and so are the backups (0600): a
settings file may hold tokens in `env`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from jitctx.errors import JitctxError
from jitctx.safe_open import read_state_file

FOLDER = "settings-backups"
CREATED = "created.json"


class RecordError(JitctxError):
    """The state dir cannot hold a backup: jitctx changes no settings file without one."""


def record_dir(state_dir: Path, settings: Path) -> Path:
    """The folder of the state dir that belongs to the settings file `settings` (absolute)."""
    absolute = os.path.abspath(settings)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    owner = Path(absolute).parent
    label = f"{owner.parent.name}{owner.name}" if owner.name.startswith(".") else owner.name
    label = "".join(c if c.isalnum() or c in "._-" else "_" for c in label)[:60] or "root"
    return state_dir / FOLDER / f"{label}-{digest}"


def _private_dirs(directory: Path) -> None:
    try:
        directory.parent.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        directory.parent.mkdir(exist_ok=True, mode=0o700)
        directory.mkdir(exist_ok=True, mode=0o700)
    except OSError as exc:
        raise RecordError(
            f"cannot create {directory} for the backup of the settings file ({exc.strerror}); set "
            "JITCTX_STATE_DIR (or --state-dir) to a writable directory of yours. Nothing was changed."
        ) from None


def _write_new(path: Path, data: bytes) -> None:
    """Create `path` (never an existing file, never through a link), 0600."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def save_backup(state_dir: Path, settings: Path, content: bytes) -> Path:
    """Keep `content`, the settings file as it was, as `<record dir>/<name>.bak-<timestamp>`."""
    directory = record_dir(state_dir, settings)
    _private_dirs(directory)
    try:
        origin = directory / "path"
        if not origin.exists():
            _write_new(origin, (os.path.abspath(settings) + "\n").encode("utf-8", "surrogateescape"))
        stamp = time.strftime("%Y%m%dT%H%M%S")
        serial = 0
        while True:
            suffix = f"-{serial}" if serial else ""
            backup = directory / f"{settings.name}.bak-{stamp}{suffix}"
            try:
                _write_new(backup, content)
                return backup
            except FileExistsError:
                serial += 1
    except OSError as exc:
        raise RecordError(
            f"cannot write a backup of {settings} into {directory} ({exc.strerror}); set JITCTX_STATE_DIR "
            "(or --state-dir) to a writable directory of yours. Nothing was changed."
        ) from None


def note_created(state_dir: Path, settings: Path, folders: list[Path]) -> None:
    """Remember that jitctx created `settings` and the (then missing) `folders`, deepest last. Best effort:
    without the note, uninstall leaves an empty settings file behind, nothing worse."""
    directory = record_dir(state_dir, settings)
    note = {"path": os.path.abspath(settings), "folders": [os.path.abspath(f) for f in folders]}
    try:
        _private_dirs(directory)
        target = directory / CREATED
        target.unlink(missing_ok=True)
        _write_new(target, json.dumps(note, ensure_ascii=False).encode("utf-8", "surrogateescape"))
    except (OSError, RecordError):
        pass


def created_note(state_dir: Path, settings: Path) -> list[Path] | None:
    """The folders jitctx created along with `settings`, when it created the file; None otherwise."""
    target = record_dir(state_dir, settings) / CREATED
    try:
        note = json.loads(read_state_file(str(target), 64 * 1024))
    except (OSError, ValueError):
        return None
    if not isinstance(note, dict) or note.get("path") != os.path.abspath(settings):
        return None
    folders = note.get("folders")
    if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
        return None
    return [Path(f) for f in folders]


def forget_created(state_dir: Path, settings: Path) -> None:
    try:
        (record_dir(state_dir, settings) / CREATED).unlink(missing_ok=True)
    except OSError:
        pass


def missing_folders(settings: Path) -> list[Path]:
    """The folders above `settings` that do not exist yet, outermost first."""
    missing: list[Path] = []
    current = Path(os.path.abspath(settings)).parent
    while not current.exists() and current.parent != current:
        missing.append(current)
        current = current.parent
    return list(reversed(missing))


def remove_created(settings: Path, folders: list[Path]) -> list[Path]:
    """Delete the settings file and those of `folders` left empty (deepest first); what went."""
    gone: list[Path] = []
    try:
        settings.unlink()
        gone.append(settings)
    except FileNotFoundError:
        pass
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        try:
            folder.rmdir()  # only an empty folder goes
            gone.append(folder)
        except OSError:
            break
    return gone


# What jitctx itself added to a file it does not own (the `jitctx` MCP server entry, its approval in a
# settings file): uninstall and a change of transport take away only what is noted here.
def note_added(state_dir: Path, path: Path, what: str) -> None:
    """Remember that jitctx added `what` to `path`. Best effort, as note_created."""
    directory = record_dir(state_dir, path)
    try:
        _private_dirs(directory)
        target = directory / f"added-{what}"
        target.unlink(missing_ok=True)
        _write_new(target, os.path.abspath(path).encode("utf-8", "surrogateescape"))
    except (OSError, RecordError):
        pass


def was_added(state_dir: Path, path: Path, what: str) -> bool:
    try:
        noted = read_state_file(str(record_dir(state_dir, path) / f"added-{what}"), 64 * 1024)
    except OSError:
        return False
    return noted == os.path.abspath(path).encode("utf-8", "surrogateescape")


def forget_added(state_dir: Path, path: Path, what: str) -> None:
    try:
        (record_dir(state_dir, path) / f"added-{what}").unlink(missing_ok=True)
    except OSError:
        pass
