"""What a Claude Code transcript shows reached the model: the instruction files the client loaded itself,
and the blocks jitctx's hooks sent. Read before jitctx sends a file, so that a file already there is not
sent a second time: one the client loaded without an InstructionsLoaded event (2.1.332 fires none for
some rule loads and for AGENTS.md), or one jitctx sent in an answer whose session state was never saved
(a hook process or a warm daemon killed between the answer and the save).

Seen with 2.1.197 and 2.1.332, as `{"type": "attachment", "attachment": {...}}` records:

* `nested_memory`: a nested CLAUDE.md, an import or a `.claude/rules` file the client loaded after a tool
  call (`path`, `content.content` its text, `content.rawContent` with frontmatter);
* `instructions` (2.1.332): the files it loaded at start (`files[].path`, `files[].content`);
* `edited_text_file`: a file of its file state that changed on disk (`filename`, `snippet`: its lines
  numbered, the whole text for a small file); the assistant's Read, Write, Edit and MultiEdit calls
  (`file_path`) enter that state too;
* `hook_additional_context`: a hook's context (`content[]` the texts, `hookName`); the agents-md plugin's
  loads are framed `Contents of /abs/path:` there (hookName `tool.call`), jitctx's `Contents of DISPLAY (`.

The transcript is appended to and flushed every 100 ms, so what the current call brought is never in it
yet: this evidence is about earlier calls. Only the tail after the last compaction counts (a compacted
conversation no longer holds what came before), and only a regular file is read, at most TAIL_BYTES of
it, whole lines only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

TAIL_BYTES = 2 * 1024 * 1024


@dataclass
class Delivered:
    """What reached the model since the last compaction: the client's own loads (real path -> their
    texts, stripped) and jitctx's blocks ((header, body) of every hook context)."""

    client: dict[str, set[str]] = field(default_factory=dict)
    blocks: list[tuple[str, str]] = field(default_factory=list)
    # Real paths in the client's file state: files it loaded, read, wrote or edited. When one changes on
    # disk by other hands (a shell's `sed -i`), the client shows the change itself before its next
    # request ("... was modified, either by the user or by a linter", an `edited_text_file` record) —
    # not always: 2.1.332 showed a rule's first change, not its second.
    tracked: set[str] = field(default_factory=set)
    # Tool calls whose evidence is complete: their result is followed by the model's next turn, so what
    # the client attached after them (its nested loads) is in the transcript by now.
    settled: set[str] = field(default_factory=set)
    _results: set[str] = field(default_factory=set)  # results not yet followed by a turn

    def shows_changes(self, path: str) -> bool:
        return real_path(path) in self.tracked

    def holds(self, path: str, display: str, text: str) -> bool:
        """Is this very version of the file (`text`) in the conversation already, from the client or a
        hook? Only an exact text counts: an edit that removes or adds anything is a new version."""
        body = text.strip()
        if body in self.client.get(real_path(path) or "", set()):
            return True
        heads = (f"Contents of {display} (", f"Updated contents of {display} (")
        return any(seen == body and header.startswith(heads) for header, seen in self.blocks)


# A block of jitctx's (hook.context.render_block) or a frame of the client's agents-md plugin starts a line.
_BLOCK_START = re.compile(r"^(?=(?:Updated contents|Contents) of )", re.MULTILINE)


def _blocks(text: str) -> list[tuple[str, str]]:
    """The (header, body) of each block in a hook's context text."""
    found = []
    for chunk in _BLOCK_START.split(text):
        header, sep, body = chunk.partition(":\n\n")
        if sep and "\n" not in header:
            found.append((header, body.strip()))
    return found


def _tail(path: object) -> bytes | None:
    """The whole lines of the transcript's last TAIL_BYTES (the reading `transcript` does for releases)."""
    from jitctx.clients.claude_code.transcript import _read

    read = _read(path, 0, TAIL_BYTES)
    if read is None:
        return None
    data = read[1]
    if len(data) >= TAIL_BYTES:
        data = data[data.find(b"\n") + 1 :]  # the first line may be cut: not a record
    return data[: data.rfind(b"\n") + 1]  # the last may be half written


def _texts(content: object) -> tuple[str, ...]:
    """A load's texts, stripped: the text the client loaded first, then its raw text (frontmatter and
    all) when the record has one."""
    found: list[str] = []
    if isinstance(content, dict):
        for key in ("content", "rawContent"):
            if isinstance(content.get(key), str):
                found.append(content[key].strip())
    elif isinstance(content, str):
        found.append(content.strip())
    return tuple(found)


def real_path(path: object) -> str | None:
    """The real path of a path a record names; None for no path, or one the OS refuses (a NUL byte, a
    lone surrogate): the model writes tool inputs, and one odd path must not silence the evidence."""
    if not isinstance(path, str) or not path:
        return None
    try:
        return os.path.realpath(path)
    except ValueError:
        return None


class Sighting(NamedTuple):
    """One thing a main-thread record shows. `kind`: "client" (the client loaded the real path `key`,
    `texts` its text), "changed" (the client showed the new text of the file `key` after it changed on
    disk), "block" (a hook's block: `key` its header, `texts` its body) or "tracked" (`key` entered the
    client's file state; no text)."""

    kind: str
    key: str
    texts: tuple[str, ...] = ()


def main_record(line: bytes) -> dict[str, Any] | None:
    """A transcript line as a record of the main thread; None for a sub-agent's record or a line that
    is not a whole JSON object (the last may be half written)."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("isSidechain") is True:
        return None
    return record


def _record(line: bytes, seen: Delivered) -> None:
    record = main_record(line)
    if record is None:
        return
    _settle(record, seen)
    for sighting in sightings(record):
        if sighting.kind == "tracked":
            seen.tracked.add(sighting.key)
        elif sighting.kind == "block":
            seen.blocks.append((sighting.key, sighting.texts[0]))
        else:
            seen.client.setdefault(sighting.key, set()).update(sighting.texts)


def _settle(record: dict[str, Any], seen: Delivered) -> None:
    """Tool results collect until the model's next turn settles them (`Delivered.settled`)."""
    kind = record.get("type")
    if kind == "assistant":
        seen.settled |= seen._results
        seen._results.clear()
        return
    message = record.get("message")
    content = message.get("content") if kind == "user" and isinstance(message, dict) else None
    for part in content if isinstance(content, list) else ():
        if isinstance(part, dict) and part.get("type") == "tool_result":
            ident = part.get("tool_use_id")
            if isinstance(ident, str) and ident:
                seen._results.add(ident)


def sightings(record: dict[str, Any]) -> Iterator[Sighting]:
    """What one main-thread record shows reached the model or entered the client's file state (the
    one reading of these records: the hook's `delivered` and `drift`'s report both go through it)."""
    if record.get("type") == "assistant":
        yield from _tool_uses(record)
        return
    attachment = record.get("attachment")
    if record.get("type") != "attachment" or not isinstance(attachment, dict):
        return
    kind = attachment.get("type")
    if kind in ("edited_text_file", "file") and (path := real_path(attachment.get("filename"))):
        yield Sighting("tracked", path)
        whole = _numbered_whole(attachment.get("snippet")) if kind == "edited_text_file" else None
        if whole is not None:
            yield Sighting("changed", path, (whole, _body(whole)))
    if kind == "nested_memory" and (path := real_path(attachment.get("path"))):
        yield Sighting("client", path, _texts(attachment.get("content")))
        yield Sighting("tracked", path)
    elif kind == "instructions" and isinstance(attachment.get("files"), list):
        for entry in attachment["files"]:
            if isinstance(entry, dict) and (path := real_path(entry.get("path"))):
                yield Sighting("client", path, _texts(entry.get("content")))
                yield Sighting("tracked", path)
    elif kind == "hook_additional_context" and isinstance(attachment.get("content"), list):
        for text in attachment["content"]:
            if not isinstance(text, str):
                continue
            for header, body in _blocks(text):
                if header.startswith("Contents of /") and attachment.get("hookName") == "tool.call":
                    # The client's own AGENTS.md, framed by its plugin with the absolute path.
                    if framed := real_path(header.removeprefix("Contents of ")):
                        yield Sighting("client", framed, (body,))
                else:
                    yield Sighting("block", header, (body,))


_NUMBERED = re.compile(r"(\d+)\t(.*)")


def _numbered_whole(snippet: object) -> str | None:
    """The text of a changed file's snippet (`1\t# UI` lines) when it runs from line 1 without a gap:
    possibly the whole file (`holds` compares it with the file's text); None for any other snippet."""
    if not isinstance(snippet, str) or not snippet:
        return None
    lines = []
    for number, line in enumerate(snippet.split("\n"), start=1):
        match = _NUMBERED.fullmatch(line)
        if match is None or int(match.group(1)) != number:
            return None
        lines.append(match.group(2))
    return "\n".join(lines).strip()


def _body(text: str) -> str:
    """`text` without a leading `---` frontmatter block (what a load's text holds)."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return text
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            return "\n".join(lines[index + 1 :]).strip()
    return text


# The client's own file tools, whose `file_path` enters its file state.
_FILE_TOOLS = frozenset({"Read", "Write", "Edit", "MultiEdit"})


def _tool_uses(record: dict[str, Any]) -> Iterator[Sighting]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for part in content if isinstance(content, list) else ():
        if (
            not isinstance(part, dict)
            or part.get("type") != "tool_use"
            or part.get("name") not in _FILE_TOOLS
        ):
            continue
        tool_input = part.get("input")
        path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
        if isinstance(path, str) and os.path.isabs(path) and (real := real_path(path)):
            yield Sighting("tracked", real)


def delivered(transcript: object) -> Delivered | None:
    """The transcript's evidence since its last compaction; None when there is no transcript to read."""
    data = _tail(transcript)
    if data is None:
        return None
    lines = data.split(b"\n")
    for index in range(len(lines) - 1, -1, -1):
        if b'"compact_boundary"' in lines[index]:
            lines = lines[index + 1 :]
            break
    seen = Delivered()
    for line in lines:
        if line.strip():
            _record(line, seen)
    return seen
