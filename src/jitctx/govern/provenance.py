"""Provenance of instruction files: sha256, size and mtime per file, kept in a lock file CI can compare.

The hash and size decide whether a file changed. The mtime is informational only: a fresh CI clone gives
every file a new mtime, so an mtime-only difference is a note, never a failure. For the same reason writing
keeps the recorded mtime of a file whose content did not change, so rewriting an unchanged tree leaves the
lock byte-identical (no churn in version control).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from jitctx.errors import JitctxError
from jitctx.govern.inventory import take_inventory
from jitctx.model import InstructionFile
from jitctx.project import Project

LOCK_FILE = ".jitctx.lock.json"
LOCK_VERSION = 1
_HEX = frozenset("0123456789abcdef")


class LockError(JitctxError):
    """A lock file that cannot be used: malformed, or written by a newer jitctx."""


class NewerLockError(LockError):
    """The lock file's format is newer than this jitctx understands."""


@dataclass(frozen=True)
class Fingerprint:
    path: str  # display path: POSIX, relative to the project root
    sha256: str
    size: int
    mtime_ns: int

    @property
    def mtime(self) -> str:
        """The mtime as UTC ISO 8601, for people reading the lock."""
        moment = datetime.fromtimestamp(self.mtime_ns / 1e9, tz=UTC)
        return moment.isoformat(timespec="seconds").replace("+00:00", "Z")

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "sha256": self.sha256,
            "size": self.size,
            "mtime": self.mtime,
            "mtime_ns": self.mtime_ns,
        }


@dataclass(frozen=True)
class Lock:
    version: int
    files: tuple[Fingerprint, ...]


class ChangeKind(StrEnum):
    CHANGED = "changed"  # content differs (sha256 or size)
    ADDED = "added"  # an instruction file the lock does not list
    REMOVED = "removed"  # listed in the lock, gone from the tree
    TOUCHED = "mtime-only"  # same content, new mtime: a note, not a failure


@dataclass(frozen=True)
class Change:
    path: str
    kind: ChangeKind
    before: Fingerprint | None
    after: Fingerprint | None


@dataclass(frozen=True)
class Drift:
    changes: tuple[Change, ...]

    @property
    def failing(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.kind is not ChangeKind.TOUCHED)

    @property
    def notes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.kind is ChangeKind.TOUCHED)


def fingerprint(file: InstructionFile) -> Fingerprint | None:
    """Hash the bytes on disk (not the parsed text); None when the file vanished meanwhile."""
    digest = hashlib.sha256()
    try:
        with open(file.path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                digest.update(chunk)
            info = os.fstat(handle.fileno())
    except OSError:
        return None
    return Fingerprint(file.display, digest.hexdigest(), info.st_size, info.st_mtime_ns)


def provenance_sources(project: Project) -> list[InstructionFile]:
    """Every file whose bytes can reach an agent; the same list `lint` checks (see `inventory`)."""
    return list(take_inventory(project).sources)


def fingerprints(files: Iterable[InstructionFile]) -> tuple[Fingerprint, ...]:
    found = (fingerprint(f) for f in files)
    return tuple(sorted((f for f in found if f is not None), key=lambda f: f.path))


def render_lock(files: Iterable[Fingerprint]) -> str:
    """The lock file's text: stable key order, sorted paths, one trailing newline."""
    document = {"version": LOCK_VERSION, "files": [f.to_json() for f in sorted(files, key=lambda f: f.path)]}
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    # A path that is not UTF-8 holds a lone surrogate; its backslash escape is the JSON escape of it, so
    # the lock stays UTF-8 and reads back as the same path.
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def parse_lock(text: str, where: str) -> Lock:
    """Read a lock file's text; `where` names it in error messages."""
    fix = f"rewrite it with 'jitctx provenance --write' (or restore {where} from version control)"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LockError(f"{where}:{exc.lineno}: not valid JSON ({exc.msg}); {fix}") from None
    if not isinstance(data, dict):
        raise LockError(f"{where}: a lock file is a JSON object with 'version' and 'files'; {fix}")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LockError(f"{where}: 'version' must be a positive integer, found {version!r}; {fix}")
    if version > LOCK_VERSION:
        raise NewerLockError(
            f"{where}: written by a newer jitctx (lock format {version}; this jitctx reads up to "
            f"{LOCK_VERSION}); upgrade jitctx, or delete the lock file to downgrade it on purpose"
        )
    entries = data.get("files")
    if not isinstance(entries, list):
        raise LockError(f"{where}: 'files' must be a list, found {type(entries).__name__}; {fix}")
    files: list[Fingerprint] = []
    for index, entry in enumerate(entries):
        files.append(_parse_entry(entry, f"{where}: files[{index}]", fix))
    return Lock(version, tuple(files))


def _parse_entry(entry: object, where: str, fix: str) -> Fingerprint:
    if not isinstance(entry, dict):
        raise LockError(f"{where} must be an object with path, sha256 and size; {fix}")
    path, sha, size, mtime_ns = (
        entry.get("path"),
        entry.get("sha256"),
        entry.get("size"),
        entry.get("mtime_ns", 0),
    )
    if not isinstance(path, str) or not path:
        raise LockError(f"{where}: 'path' must be a non-empty string; {fix}")
    if not isinstance(sha, str) or len(sha) != 64 or not set(sha) <= _HEX:
        raise LockError(f"{where} ({path}): 'sha256' must be 64 lowercase hex digits; {fix}")
    for key, value in (("size", size), ("mtime_ns", mtime_ns)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise LockError(f"{where} ({path}): '{key}' must be an integer >= 0, found {value!r}; {fix}")
    assert isinstance(size, int) and isinstance(mtime_ns, int)
    return Fingerprint(path, sha, size, mtime_ns)


def read_lock(path: str) -> Lock | None:
    """The lock at `path`; None when there is none. Raises LockError when it cannot be used."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LockError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LockError(f"{path}: not UTF-8 text; rewrite it with 'jitctx provenance --write'") from None
    return parse_lock(text, path)


GIT_TIMEOUT_S = 30.0


def read_base_lock(path: str, ref: str) -> Lock:
    """The lock at `path` as committed in `ref` (`git show REF:./name`), so a lock re-hashed in the same
    change cannot hide an edit. Raises LockError when git, the ref or the file there is missing."""
    folder, name = os.path.split(os.path.abspath(path))
    where = f"{ref}:{name}"
    if ref.startswith("-"):
        raise LockError(f"--base {ref!r} is not a git revision; name a branch, tag or commit")
    try:
        proc = subprocess.run(
            ["git", "show", f"{ref}:./{name}"],
            cwd=folder,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LockError(f"cannot run git to read {where} in {folder}: {exc}") from None
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise LockError(
            f"no lock file at {where} ({why[-1] if why else 'git show failed'}); commit the lock on the "
            "base branch first, or check without --base"
        )
    try:
        text = proc.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise LockError(f"{where}: not UTF-8 text") from None
    return parse_lock(text, where)


def compare(lock: Lock, current: Iterable[Fingerprint]) -> Drift:
    before = {f.path: f for f in lock.files}
    after = {f.path: f for f in current}
    changes: list[Change] = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is None:
            changes.append(Change(path, ChangeKind.ADDED, None, new))
        elif new is None:
            changes.append(Change(path, ChangeKind.REMOVED, old, None))
        elif (old.sha256, old.size) != (new.sha256, new.size):
            changes.append(Change(path, ChangeKind.CHANGED, old, new))
        elif old.mtime_ns != new.mtime_ns:
            changes.append(Change(path, ChangeKind.TOUCHED, old, new))
    return Drift(tuple(changes))


def merge_for_write(lock: Lock | None, current: Iterable[Fingerprint]) -> tuple[Fingerprint, ...]:
    """What to record: current files, keeping the locked mtime where the content is unchanged."""
    locked = {f.path: f for f in lock.files} if lock is not None else {}
    merged: list[Fingerprint] = []
    for fp in current:
        old = locked.get(fp.path)
        if old is not None and (old.sha256, old.size) == (fp.sha256, fp.size):
            merged.append(old)
        else:
            merged.append(fp)
    return tuple(sorted(merged, key=lambda f: f.path))


def write_lock(path: str, text: str) -> bool:
    """Write `text` atomically (temp file in the same folder, then os.replace); False when already equal.
    Whatever goes wrong, no temp file is left behind."""
    data = text.encode("utf-8")  # before any file is touched: text that is not UTF-8 writes nothing
    try:
        with open(path, "rb") as handle:
            if handle.read() == data:
                return False
        mode: int | None = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise LockError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".jitctx.lock.", suffix=".tmp")
    except OSError as exc:
        raise LockError(f"cannot write the lock file in {folder}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates 0600; a lock file is meant to be committed and read by everyone.
        os.chmod(temp, mode if mode is not None else 0o644)
        os.replace(temp, path)
    except BaseException as exc:  # an interrupt too: never leave the temp file
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise LockError(f"{path}: cannot be written ({exc.strerror or exc})") from None
        raise
    return True
