"""The text a hook hands the agent as `additionalContext`, kept under the host's size limit.

Claude Code keeps at most 10,000 characters of a hook's additional context in the conversation; a longer
text is written to a file and the model sees a 2,000-character preview (anthropics/claude-code issues
#84021 and #94358). Codex spills additional context to disk past about 2,500 tokens, the same order of
size. So a hook never sends more than `CONTEXT_LIMIT` characters: whole files go in, in load order, while
they fit; the files that do not fit are named, with their absolute paths, so the agent can read them.
A file is never cut in the middle: half a rule reads as the whole rule.

`render_block` is the one place that decides how a block looks, so another renderer can replace it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from jitctx.model import Load, LoadReason

CONTEXT_LIMIT = 10_000
_MAX_LISTED = 40  # files named one by one in the "not included" note; the rest are counted
_MAX_DROPPED = 10  # files named one by one as gone; the rest are counted


def why(load: Load) -> str:
    """Why a file was loaded, in a few words a model can act on."""
    reason, trigger = load.reason, load.trigger
    if reason is LoadReason.COMPACT:
        return "re-sent after compaction"
    if reason is LoadReason.INCLUDE:
        return f"imported by {load.parent}" if load.parent else "imported"
    if reason is LoadReason.PATH_GLOB_MATCH:
        globs = ", ".join(load.globs) or "its scope"
        return f"{globs} matches {trigger}" if trigger else f"scope {globs}"
    if reason is LoadReason.SESSION_START:
        return f"session start, {trigger}" if trigger else "session start"
    return f"applies to {trigger}" if trigger else "applies here"


def render_block(load: Load) -> str:
    """One file as a block: a header naming its root-relative path and why it loaded, then its text."""
    if load.updated:
        header = f"Updated contents of {load.file.display} (it changed; this replaces its earlier text)"
    else:
        header = f"Contents of {load.file.display} ({why(load)})"
    return f"{header}:\n\n{load.file.text.strip()}"


class Fitted(NamedTuple):
    text: str  # "" when there is nothing to send
    included: tuple[str, ...]  # display paths sent in full
    omitted: tuple[str, ...]  # display paths named in the note instead


def _note(omitted: Sequence[Load], limit: int) -> str:
    lines = [
        f"Not included above, to stay within the {limit:,}-character limit for hook context. "
        "These instruction files apply to what you are working on; read each one before you go on:"
    ]
    lines.extend(f"- Read {load.file.path} ({why(load)})" for load in omitted[:_MAX_LISTED])
    if len(omitted) > _MAX_LISTED:
        lines.append(f"- ... and {len(omitted) - _MAX_LISTED} more (run `jitctx log` to list them)")
    return "\n".join(lines)


def fit_context(loads: Sequence[Load], limit: int = CONTEXT_LIMIT) -> Fitted:
    """The blocks of `loads` joined, at most `limit` characters, whole blocks only."""
    if not loads:
        return Fitted("", (), ())
    blocks = [render_block(load) for load in loads]
    whole = "\n\n".join(blocks)
    if len(whole) <= limit:
        return Fitted(whole, tuple(load.file.display for load in loads), ())
    # Room for the note as if every file were left out: the real note is never longer.
    room = limit - len(_note(loads, limit)) - 2
    chosen: list[int] = []
    used = 0
    for index, block in enumerate(blocks):
        cost = len(block) + (2 if chosen else 0)
        if used + cost <= room:
            chosen.append(index)
            used += cost
    omitted = [load for index, load in enumerate(loads) if index not in chosen]
    parts = [blocks[index] for index in chosen]
    parts.append(_note(omitted, limit))
    text = "\n\n".join(parts)
    if len(text) > limit:  # only when even the note alone is too long: keep its head
        text = text[: limit - 1] + "…"
    return Fitted(
        text,
        tuple(loads[index].file.display for index in chosen),
        tuple(load.file.display for load in omitted),
    )


def dropped_notes(dropped: Sequence[str]) -> list[str]:
    """What the agent is told of instruction files it holds that left the session (deleted, moved,
    unreadable, or replaced by another file): their text in its context no longer applies."""
    notes = [
        f"note: {path} left this session (deleted, moved, unreadable or replaced); "
        "its instructions no longer apply"
        for path in dropped[:_MAX_DROPPED]
    ]
    if len(dropped) > _MAX_DROPPED:
        rest = len(dropped) - _MAX_DROPPED
        notes.append(f"note: {rest} more instruction files left this session; theirs no longer apply either")
    return notes


def readable(value: Any) -> Any:
    """`value` (a JSON document) with every lone surrogate in its strings written as a backslash escape.

    A file name that is not UTF-8 (`caf\\xe9.tsx` on Linux) reaches Python as a str holding a lone surrogate,
    which cannot be written as UTF-8: the answer would be lost. The agent reads `caf\\udce9.tsx` instead:
    plain text, where a JSON `\\udce9` escape would hand it a lone surrogate that strict parsers refuse.
    """
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {readable(key): readable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [readable(item) for item in value]
    return value


def fit_with_notes(loads: Sequence[Load], notes: Sequence[str], limit: int = CONTEXT_LIMIT) -> str:
    """`fit_context` of the loads, then the notes, within `limit` characters in all."""
    tail = "\n\n".join(notes)
    if not tail:
        return fit_context(loads, limit).text
    head = fit_context(loads, max(0, limit - len(tail) - 2)).text
    text = f"{head}\n\n{tail}" if head else tail
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- @path mentions in a prompt -------------------------------------------------------------------------

_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)
# An @ at the start or after whitespace or an opening bracket: `me@example.com` is not a mention.
_MENTION = re.compile(r"(?:^|(?<=[\s(\[{<]))@(\"[^\"\n]+\"|[^\s\"'`<>]+)", re.MULTILINE)
_TRAILING = ".,;:!?)]}>'\""


def mentions(prompt: str) -> list[str]:
    """`@path` tokens of a prompt, outside code, in order, without duplicates (not checked on disk)."""
    found: dict[str, None] = {}  # a dict: ordered, and O(1) to test (a pasted lock file has 10^5 tokens)
    for match in _MENTION.finditer(_CODE.sub(" ", prompt)):
        token = match.group(1)
        if token.startswith('"'):
            token = token[1:-1]
        else:
            token = token.rstrip(_TRAILING)
        token = token.split("#", 1)[0]
        if token and "://" not in token:
            found.setdefault(token)
    return list(found)
