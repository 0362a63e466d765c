"""Did Gemini CLI compress its chat since a point of its chat record? Its `PreCompress` hook fires before
every model turn, compressing or not (0.61.0, `ChatCompressionService.compress`: the hook runs before the
threshold check), so the event alone says nothing; the chat record (the hook payload's `transcript_path`,
`~/.gemini/tmp/<project>/chats/session-*.jsonl`) tells.

A compression starts a new chat from the compressed history, and its recording rewrites the message list
in one `{"$set":{"messages":[...]}}` line whose first entries are the environment context (a fixed id),
the summary (a user message) and the client's own reply to it, "Got it. Thanks for the additional
context!" (a gemini message with a new id and no other keys). A resume writes the same shape with the
ids the file already holds; text a file, a tool output or the model writes is only ever inside a JSON
string of a line. So a line of that shape whose reply id appears nowhere earlier in the file is a
compression, and nothing else is.
"""

from __future__ import annotations

import json
import os

from jitctx.safe_open import open_regular

# deriveStableId(["environment-context"]): the id of the first message of every chat it starts.
ENVIRONMENT_ID = "d04923d38bb0f6017037e74183378ef4"
ACKNOWLEDGEMENT = "Got it. Thanks for the additional context!"
_MESSAGES = b'{"$set":{"messages":['
_REPLY_KEYS = frozenset({"id", "timestamp", "type", "content"})
# Read whole up to this size; a larger record cannot be searched for earlier ids in time: can't tell.
MAX_RECORD_BYTES = 32 * 1024 * 1024
# The first three entries of a rewritten list are decoded from at most this much of its line.
_ENTRIES_BYTES = 1024 * 1024


def compressed_since(transcript: object, since: int) -> bool | None:
    """True when the chat record shows a compression after byte `since`, False when it proves there was
    none, None when it cannot tell (an unknown point, a record too large, truncated, of another shape).

    No record at all is False, not None: the event fires before every turn, so without a record it says
    nothing, and taking each one for a compaction would send the whole session again on every turn."""
    if not isinstance(transcript, str) or not os.path.isabs(transcript) or "\0" in transcript:
        return False
    if since < 0 or not transcript.endswith(".jsonl"):
        return None  # a record of another release's shape (a whole-file `.json`): no proof either way
    try:
        fd = open_regular(transcript)
    except (OSError, ValueError):
        return False
    try:
        size = os.fstat(fd).st_size
        if size < since or size > MAX_RECORD_BYTES:
            return None  # truncated or replaced since the mark, or too large to read in time
        if size == since:
            return False
        os.lseek(fd, since, os.SEEK_SET)
        appended = os.read(fd, size - since)
        if b'"messages"' not in appended:
            return False  # no rewrite of the message list at all: the cheap, common answer
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)
    return _compression_in(data, since)


# Rewrites of the message list read after one mark (a compression writes one): more proves nothing.
MAX_REWRITES = 8


def _compression_in(data: bytes, since: int) -> bool | None:
    start = data.find(b"\n", since - 1) + 1 if since else 0
    unsure = False
    rewrites = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if data.startswith(_MESSAGES, start):
            rewrites += 1
            if rewrites > MAX_REWRITES:
                return None
            reply = _reply_id(data[start + len(_MESSAGES) : min(end, start + _ENTRIES_BYTES)])
            if reply == "":
                unsure = True  # entries too large to read: maybe one
            elif reply is not None and data.find(reply.encode(), 0, start) < 0:
                return True
        elif not data.startswith(b'{"id":', start) and data.find(b'"messages"', start, end) >= 0:
            # A message record may quote anything; any other line naming the message list is a shape
            # this reader does not know: no proof either way.
            unsure = True
        start = end + 1
    return None if unsure else False


def _reply_id(entries: bytes) -> str | None:
    """The id of the third entry of a rewritten list when the first three have a compression's shape;
    None when they do not; "" when they cannot be read within the bound."""
    decoder = json.JSONDecoder()
    text = entries.decode("utf-8", "replace")
    found: list[object] = []
    at = 0
    try:
        for _ in range(3):
            entry, at = decoder.raw_decode(text, at)
            found.append(entry)
            at = text.index(",", at) + 1 if len(found) < 3 else at
    except ValueError:
        return "" if len(entries) >= _ENTRIES_BYTES - 1 else None
    first, summary, reply = found
    if not (isinstance(first, dict) and first.get("id") == ENVIRONMENT_ID and first.get("type") == "user"):
        return None
    if not (isinstance(summary, dict) and summary.get("type") == "user"):
        return None
    if not (isinstance(reply, dict) and set(reply) == _REPLY_KEYS and reply.get("type") == "gemini"):
        return None
    content = reply.get("content")
    texts = (
        [part.get("text") for part in content if isinstance(part, dict)] if isinstance(content, list) else []
    )
    identity = reply.get("id")
    if texts != [ACKNOWLEDGEMENT] or not isinstance(identity, str) or not identity:
        return None
    return identity
