"""The mark a client's compaction event leaves in the session store, until an event whose answer reaches
the model carries what the session held again (DESIGN §2.4, compaction).

The mark holds where the client's transcript ended when the event fired: a client whose compaction event
fires before every turn, compacting or not, tells from the records written after that point whether it
really compacted (`HookDialect.compacted`). A second event before the mark is read keeps the earlier
point, so a compaction between the two is not missed. The fast lane reads the mark too, with no more than os.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.discovery.quick import state_file_name
from jitctx.safe_open import RefusedFile, open_state_file, read_state_file

if TYPE_CHECKING:
    from jitctx.clients.base import HookDialect

UNKNOWN = -1  # where the transcript ended is not known: no record can prove there was no compaction


def mark_path(sessions: str, key: str) -> str:
    return os.path.join(sessions, state_file_name(key) + ".compacted")


def transcript_end(transcript: object) -> int:
    """The size of the client's transcript now (UNKNOWN when there is no regular file to measure)."""
    if not isinstance(transcript, str) or not transcript:
        return UNKNOWN
    try:
        return os.stat(transcript).st_size
    except (OSError, ValueError):
        return UNKNOWN


def leave_mark(sessions: str, key: str, transcript: object) -> None:
    """Mark the session compacted at the transcript's end now, unless a mark is there already (the earlier
    point stands). Raises OSError when the mark cannot be written (the hook logs it)."""
    path = mark_path(sessions, key)
    if os.path.lexists(path):
        return
    fd = open_state_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        os.write(fd, str(transcript_end(transcript)).encode())
    finally:
        os.close(fd)


def read_mark(sessions: str, key: str) -> int | None:
    """Where the transcript ended at the compaction event that left the mark; None: no mark."""
    path = mark_path(sessions, key)
    if not os.path.lexists(path):
        return None
    try:
        return int(read_state_file(path, 32).strip() or UNKNOWN)
    except (OSError, RefusedFile, ValueError):
        return UNKNOWN  # a mark that cannot be read still says the client compacted


def forget_mark(sessions: str, key: str) -> None:
    try:
        os.unlink(mark_path(sessions, key))
    except OSError:
        pass


def mark_compaction(sessions: str, key: str, transcript: object) -> None:
    """The client's compaction event: a session that exists is marked (one that does not holds nothing
    of jitctx's to send again)."""
    if os.path.lexists(os.path.join(sessions, state_file_name(key))):
        leave_mark(sessions, key, transcript)


def compaction_due(client: HookDialect, sessions: str, key: str, transcript: object) -> bool:
    """Does a mark stand that the client's records do not prove empty (`HookDialect.compacted`)? A mark they
    prove empty is dropped here. The fast lane and the engine ask this one question."""
    since = read_mark(sessions, key)
    if since is None:
        return False
    if client.compacted(transcript, since) is not False:
        return True
    forget_mark(sessions, key)
    return False
