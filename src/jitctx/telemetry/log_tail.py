"""Reading the event log backwards: the newest records of one session first, from the end of the newest
day file, without reading the log from its start.

A question about *now* (what a session holds, what reached it last) is answered by the end of the log:
the session's recent records are there, and most of a long log is older. `session_records` walks the day
files newest first, each from its end, a block at a time, and yields the records of one session id; the
caller stops when it knows enough, and `max_bytes` bounds the walk for a caller that must stay fast
(`jitctx statusline`, after every message of an agent).

Lines are read as the forward reader reads them (`log_reader`): a line that is not one JSON object of
schema version 1 with a known kind, a stored `ts` and a string `session_id` is skipped. Lines that cannot
name the session (its id, JSON-encoded, is not in them) are skipped before they are parsed.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from jitctx.safe_open import open_regular

if TYPE_CHECKING:
    from collections.abc import Iterator

_BLOCK = 64 * 1024
_KINDS = frozenset({"startup", "discovery", "load", "skill"})  # telemetry.events.KINDS, without its imports


def day_files_newest_first(events_dir: str) -> list[str]:
    """The log's day files (`YYYY-MM-DD.jsonl`), newest first; none when the folder cannot be listed."""
    try:
        names = os.listdir(events_dir)
    except OSError:
        return []
    days = [name for name in names if len(name) == 16 and name.endswith(".jsonl") and _is_day(name[:10])]
    return [os.path.join(events_dir, name) for name in sorted(days, reverse=True)]


def _is_day(text: str) -> bool:
    return text[4] == text[7] == "-" and (text[:4] + text[5:7] + text[8:]).isdigit() and text.isascii()


def lines_backwards(path: str, budget: list[int]) -> Iterator[bytes]:
    """The lines of one log file, last first (without their newline), while `budget[0]` (bytes left to
    read, shared across files; negative: no bound) lasts. A file that is not a regular file is skipped."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return
    try:
        position = os.fstat(fd).st_size
        carry = b""
        while position > 0 and budget[0] != 0:
            size = min(_BLOCK, position)
            if budget[0] > 0:
                size = min(size, budget[0])
                budget[0] -= size
            position -= size
            block = os.pread(fd, size, position) + carry
            lines = block.split(b"\n")
            carry = lines[0]  # may start before this block: completed by the next one
            yield from reversed(lines[1:])
        if position == 0 and carry:
            yield carry  # the file's first line
    finally:
        os.close(fd)


def session_records(events_dir: str, session_id: str, max_bytes: int | None = None) -> Iterator[Any]:
    """The readable records of session `session_id`, newest first (the reverse of the order written),
    reading at most `max_bytes` of the log (None: all of it)."""
    needle = json.dumps(session_id, ensure_ascii=False).encode("utf-8", "backslashreplace")
    budget = [-1 if max_bytes is None else max(max_bytes, 1)]
    for path in day_files_newest_first(events_dir):
        for line in lines_backwards(path, budget):
            if needle not in line:
                continue
            record = _record(line)
            if record is not None and record["session_id"] == session_id:
                yield record
        if budget[0] == 0:
            return


def newest_record(events_dir: str) -> Any:
    """The last readable record written to the log (of any session), or None."""
    budget = [-1]
    for path in day_files_newest_first(events_dir):
        for line in lines_backwards(path, budget):
            record = _record(line)
            if record is not None:
                return record
    return None


def _record(line: bytes) -> Any:
    """The record on one line, or None for a line the forward reader skips too."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if (
        record.__class__ is dict
        and record.get("v") == 1
        and record.get("v").__class__ is int
        and record.get("kind") in _KINDS
        and _stored_ts(record.get("ts"))
        and record.get("session_id").__class__ is str
    ):
        return record
    return None


def _stored_ts(ts: object) -> bool:
    """`telemetry.events.is_stored_ts`: the one form records are written with."""
    return isinstance(ts, str) and len(ts) == 24 and ts[10] == "T" and ts[23] == "Z" and ts[4] == "-"
