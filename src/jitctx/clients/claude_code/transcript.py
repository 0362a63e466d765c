"""What a Claude Code session's transcript tells the hook: the release that writes it, and the session it
was forked from.

Every hook event names the session's transcript (`transcript_path`, JSONL). Records carry `"version"`
(the Claude Code release). A conversation copied by `--fork-session` (or a branch) gets a new session id;
its copied assistant records keep `"requestSessionId"`, the id of the session that made the request
(seen with 2.1.332: the fork's SessionStart comes with `source: fork` under the new id, before the
transcript exists; it is there by the first tool call).

Only a regular file is read (a FIFO would block), and only its head and its tail: a transcript can grow to
many megabytes, and the hook runs on every tool call.
"""

from __future__ import annotations

import os
import re

from jitctx.safe_open import open_regular

Release = tuple[int, int, int]

# The closing quote too: the last record may be half written, and "2.1.3 would read as 2.1.3.
_VERSION = re.compile(rb'"version"\s*:\s*"(\d{1,4})\.(\d{1,4})\.(\d{1,6})[-+"]')
# Session ids are UUIDs; anything else in the field is not taken.
_REQUEST_SESSION = re.compile(rb'"requestSessionId"\s*:\s*"([0-9A-Za-z-]{1,64})"')
HEAD_BYTES = 64 * 1024
TAIL_BYTES = 1024 * 1024
RELEASE_TAIL_BYTES = 64 * 1024  # every record names its release: the last 64 KiB hold the newest


def _read(transcript_path: object, head: int, tail: int) -> tuple[bytes, bytes] | None:
    """The first `head` and the last `tail` bytes of a regular file (no tail when the head holds it)."""
    if not isinstance(transcript_path, str) or not os.path.isabs(transcript_path) or "\0" in transcript_path:
        return None
    try:
        fd = open_regular(transcript_path)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        first = os.read(fd, head)
        last = b""
        if tail and info.st_size > head:
            os.lseek(fd, max(head, info.st_size - tail), os.SEEK_SET)
            last = os.read(fd, tail)
        return first, last
    except OSError:
        return None
    finally:
        os.close(fd)


def release_of(transcript_path: object) -> Release | None:
    """The Claude Code release that writes this transcript now, from its newest records (a conversation
    begun by an older release and resumed by a newer one carries both); None if unknown."""
    read = _read(transcript_path, HEAD_BYTES, RELEASE_TAIL_BYTES)
    if read is None:
        return None
    for part in (read[1], read[0]):
        found = list(_VERSION.finditer(part))
        if found:
            major, minor, patch = (int(value) for value in found[-1].groups())
            return major, minor, patch
    return None


def forked_from(transcript_path: object, session_id: str) -> str | None:
    """The session this one's conversation was copied from, or None.

    The newest record naming another session wins, so a fork of a fork names its direct parent: the
    tail is searched before the head."""
    read = _read(transcript_path, HEAD_BYTES, TAIL_BYTES)
    if read is None:
        return None
    own = session_id.encode("utf-8", "replace")
    for part in (read[1], read[0]):
        others: list[bytes] = [found for found in _REQUEST_SESSION.findall(part) if found != own]
        if others:
            return others[-1].decode("ascii")
    return None
