"""How far `jitctx export` has shipped the event log, per endpoint: a small JSON file in the state dir.

The cursor holds, for each day file of the log, the byte offset up to which every line was acknowledged by
the collector, and a fingerprint of the file's first bytes. It is written (atomically, by rename) only
after an acknowledgement, so a crash or a dead endpoint can only cause a resend, never a loss. A day file
that shrank or whose first bytes changed (`jitctx log --clear`, then new events) is read again from its
start. A cursor that cannot be read is reported and treated as empty: everything is sent again, and the
record ids let the collector drop the repeats.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from jitctx.safe_open import NotRegular, open_regular

CURSOR_FILE = "otlp-cursor.json"
MAX_CURSOR_BYTES = 1024 * 1024
HEAD_BYTES = 256  # the fingerprint covers this much of a day file's start


@dataclass(frozen=True)
class Position:
    offset: int  # every line before it was acknowledged
    head: str  # sha256 of the file's first HEAD_BYTES at the time


@dataclass
class Cursor:
    """Positions per day file name, for one endpoint."""

    endpoint: str
    files: dict[str, Position] = field(default_factory=dict)
    problem: str | None = None  # why a stored cursor was not usable, if it was not


def head_of(path: str | os.PathLike[str]) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read(HEAD_BYTES)).hexdigest()[:16]
    except OSError:
        return ""


def start_of(cursor: Cursor, path: Path, size: int) -> int:
    """Where to resume reading a day file: its stored offset, or 0 when the file is not the one the
    offset was taken in (shorter now, or other first bytes)."""
    known = cursor.files.get(path.name)
    if known is None or known.offset > size:
        return 0
    if known.offset and known.head != head_of(path):
        return 0
    return known.offset


def load_cursor(path: Path, endpoint: str) -> Cursor:
    """The cursor of `endpoint` stored at `path`; an empty one when there is none or it is unusable."""
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        return Cursor(endpoint)
    except NotRegular:
        return Cursor(endpoint, problem=f"{path}: not a regular file")
    except OSError as exc:
        return Cursor(endpoint, problem=f"{path}: cannot be read ({exc.strerror or exc})")
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(MAX_CURSOR_BYTES + 1)
    try:
        document = json.loads(raw) if len(raw) <= MAX_CURSOR_BYTES else None
    except ValueError:
        document = None
    entries = document.get("endpoints", {}).get(endpoint) if isinstance(document, dict) else None
    if document is None or not isinstance(document.get("endpoints"), dict):
        return Cursor(endpoint, problem=f"{path}: not a cursor file; starting over")
    if entries is None:
        return Cursor(endpoint)
    files: dict[str, Position] = {}
    for name, item in entries.items() if isinstance(entries, dict) else ():
        if (
            isinstance(item, dict)
            and type(item.get("offset")) is int
            and item["offset"] >= 0
            and isinstance(item.get("head"), str)
        ):
            files[name] = Position(item["offset"], item["head"])
    return Cursor(endpoint, files)


def save_cursor(path: Path, cursor: Cursor) -> None:
    """Store `cursor` beside the cursors of other endpoints; atomic (write a temp file, rename)."""
    try:
        with open(path, "rb") as handle:
            document = json.loads(handle.read(MAX_CURSOR_BYTES + 1))
    except (OSError, ValueError):
        document = None
    if not isinstance(document, dict) or not isinstance(document.get("endpoints"), dict):
        document = {"v": 1, "endpoints": {}}
    document["endpoints"][cursor.endpoint] = {
        name: {"offset": position.offset, "head": position.head}
        for name, position in sorted(cursor.files.items())
    }
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    data = json.dumps(document, indent=1, sort_keys=True).encode("utf-8")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
