"""What a Claude Code transcript shows reached the model: the instruction files the client loaded itself,
and the blocks jitctx's hooks sent. Read before jitctx sends a file, so that a file already there is not
sent a second time: one the client loaded without an InstructionsLoaded event (2.1.332 fires none for
some rule loads and for AGENTS.md), or one jitctx sent in an answer whose session state was never saved
(a hook process or a warm daemon killed between the answer and the save).

Seen with 2.1.197 and 2.1.332, as `{"type": "attachment", "attachment": {...}}` records:

* `nested_memory`: a nested CLAUDE.md, an import or a `.claude/rules` file the client loaded after a tool
  call (`path`, `content.content` its text, `content.rawContent` with frontmatter);
* `instructions` (2.1.332): the files it loaded at start (`files[].path`, `files[].content`);
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
from dataclasses import dataclass, field

TAIL_BYTES = 2 * 1024 * 1024


@dataclass
class Delivered:
    """What reached the model since the last compaction: the client's own loads (real path -> their
    texts, stripped) and jitctx's blocks ((header, body) of every hook context)."""

    client: dict[str, set[str]] = field(default_factory=dict)
    blocks: list[tuple[str, str]] = field(default_factory=list)

    def holds(self, path: str, display: str, text: str) -> bool:
        """Is this very version of the file (`text`) in the conversation already, from the client or a
        hook? Only an exact text counts: an edit that removes or adds anything is a new version."""
        body = text.strip()
        if body in self.client.get(os.path.realpath(path), set()):
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


def _texts(content: object) -> set[str]:
    found = set()
    if isinstance(content, dict):
        for key in ("content", "rawContent"):
            if isinstance(content.get(key), str):
                found.add(content[key].strip())
    elif isinstance(content, str):
        found.add(content.strip())
    return found


def _record(line: bytes, seen: Delivered) -> None:
    try:
        record = json.loads(line)
    except ValueError:
        return
    if not isinstance(record, dict) or record.get("isSidechain") is True:
        return
    attachment = record.get("attachment")
    if record.get("type") != "attachment" or not isinstance(attachment, dict):
        return
    kind = attachment.get("type")
    if kind == "nested_memory" and isinstance(attachment.get("path"), str):
        texts = _texts(attachment.get("content"))
        seen.client.setdefault(os.path.realpath(attachment["path"]), set()).update(texts)
    elif kind == "instructions" and isinstance(attachment.get("files"), list):
        for entry in attachment["files"]:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                texts = _texts(entry.get("content"))
                seen.client.setdefault(os.path.realpath(entry["path"]), set()).update(texts)
    elif kind == "hook_additional_context" and isinstance(attachment.get("content"), list):
        for text in attachment["content"]:
            if not isinstance(text, str):
                continue
            for header, body in _blocks(text):
                if header.startswith("Contents of /") and attachment.get("hookName") == "tool.call":
                    # The client's own AGENTS.md, framed by its plugin with the absolute path.
                    path = os.path.realpath(header.removeprefix("Contents of "))
                    seen.client.setdefault(path, set()).add(body)
                else:
                    seen.blocks.append((header, body))


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
