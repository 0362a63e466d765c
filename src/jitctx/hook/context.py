"""The text a hook hands the agent as `additionalContext`, kept under the host's size limit.

Claude Code keeps at most 10,000 characters of a hook's additional context in the conversation; a longer
text is written to a file and the model sees a 2,000-character preview (anthropics/claude-code issues
#84021 and #94358). Codex spills additional context to disk past about 2,500 tokens, the same order of
size. So a hook never sends more than `CONTEXT_LIMIT` characters: whole files go in, in load order, while
they fit; the files that do not fit are named, with their absolute paths, so the agent can read them.
A file is never cut in the middle: half a rule reads as the whole rule. Nor is a path: notes keep whole
lines and count the ones left out (half a path names a file that does not exist).

`render_block` is the one place that decides how a block looks, so another renderer can replace it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

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
    if load.pinned:
        return "pinned by the project's config: keep it in mind throughout"
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


def _note(omitted: Sequence[Load], limit: int, room: int) -> str:
    """The note naming `omitted`, in at most `room` characters when it can be: whole lines only."""
    lines = [
        f"Not included above, to stay within the {limit:,}-character limit for hook context. "
        "These instruction files apply to what you are working on; read each one before you go on:"
    ]
    candidates = [f"- Read {load.file.path} ({why(load)})" for load in omitted[:_MAX_LISTED]]
    unlisted = len(omitted) - len(candidates)
    return "\n".join(_whole_lines(lines, candidates, room, _more_files, unlisted=unlisted))


def _more_files(count: int) -> str:
    return f"- ... and {count} more (run `jitctx log` to list them)"


def _whole_lines(
    head: list[str],
    lines: Sequence[str],
    room: int,
    more: Callable[[int], str],
    sep: str = "\n",
    unlisted: int = 0,
) -> list[str]:
    """`head`, then as many of `lines` as fit in `room` characters (joined by `sep`) with room left for
    `more(n)`, the line that counts the n left out (`unlisted` more were never candidates)."""
    kept = list(head)
    used = sum(len(line) + len(sep) for line in kept) - len(sep)
    for index, line in enumerate(lines):
        rest = len(lines) - index - 1 + unlisted
        after = len(sep) + len(more(rest)) if rest else 0
        if used + len(sep) + len(line) + after > room:
            kept.append(more(len(lines) - index + unlisted))
            return kept
        kept.append(line)
        used += len(sep) + len(line)
    if unlisted:
        kept.append(more(unlisted))
    return kept


def fit_context(loads: Sequence[Load], limit: int = CONTEXT_LIMIT) -> Fitted:
    """The blocks of `loads` joined, at most `limit` characters, whole blocks only."""
    if not loads:
        return Fitted("", (), ())
    blocks = [render_block(load) for load in loads]
    whole = "\n\n".join(blocks)
    if len(whole) <= limit:
        return Fitted(whole, tuple(load.file.display for load in loads), ())
    # Room for the note as if every file were left out, but at most half the limit (very long paths would
    # otherwise leave no room for any file); the real note fits what is left, listing fewer if need be.
    reserve = min(len(_note(loads, limit, limit)), max(limit // 2, len(_note(loads, limit, 0))))
    room = limit - reserve - 2
    chosen: list[int] = []
    used = 0
    for index, block in enumerate(blocks):
        cost = len(block) + (2 if chosen else 0)
        if used + cost <= room:
            chosen.append(index)
            used += cost
    omitted = [load for index, load in enumerate(loads) if index not in chosen]
    parts = [blocks[index] for index in chosen]
    parts.append(_note(omitted, limit, limit - used - (2 if chosen else 0)))
    text = _cap("\n\n".join(parts), limit)
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


def _more_notes(count: int) -> str:
    return f"note: {count} more {'note' if count == 1 else 'notes'} left out to stay within the limit"


def _cap(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, only when even the fixed wording is too long for it (a tiny
    limit): at a line end when there is one, so that no path is cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    return text[:cut] if cut > 0 else text[: limit - 1] + "…"


def fit_with_notes(loads: Sequence[Load], notes: Sequence[str], limit: int = CONTEXT_LIMIT) -> str:
    """`fit_context` of the loads, then the notes, within `limit` characters in all."""
    if not notes:
        return fit_context(loads, limit).text
    # Whole notes, in at most half the limit when there are files to send too, so that they still fit
    # (or are named); the other notes are counted.
    share = limit // 2 if loads else limit
    tail = "\n\n".join(_whole_lines([], notes, share, _more_notes, sep="\n\n"))
    head = fit_context(loads, max(0, limit - len(tail) - 2)).text
    text = f"{head}\n\n{tail}" if head else tail
    return _cap(text, limit)


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
