"""What a Claude Code transcript shows reached the model: the instruction files the client loaded itself,
and the blocks jitctx's hooks sent. Read before jitctx sends a file, so that a file already there is not
sent a second time: one the client loaded without an InstructionsLoaded event (2.1.332 fires none for
some rule loads and for AGENTS.md), or one jitctx sent in an answer whose session state was never saved
(a hook process or a warm daemon killed between the answer and the save).

Evidence counts only where the client alone writes it: a record's type and its fields, never a text
that a file, a tool's output, another hook or the model wrote. Seen with 2.1.197 and 2.1.332, as
`{"type": "attachment", "attachment": {...}}` records:

* `nested_memory`: a nested CLAUDE.md, an import or a `.claude/rules` file the client loaded after a tool
  call (`path`, `content.content` its text, `content.rawContent` with frontmatter);
* `instructions` (2.1.332): the files it loaded at start (`files[].path`, `files[].content`);
* `edited_text_file`: a file of its file state that changed on disk (`filename`, `snippet`: its lines
  numbered, the whole text for a small file); the assistant's Read, Write, Edit and MultiEdit calls
  (`file_path`) enter that state too;
* `hook_additional_context` with hookName `tool.call`: a text per file the agents-md plugin loaded,
  each one whole `Contents of /abs/path:`, a blank line, the file's text (a path the client would not
  write, through `/proc/self/cwd` or a link, is not taken);
* `hook_success` and `hook_additional_context` of the hook events: jitctx's own answers (`answers`).

The transcript is appended to and flushed every 100 ms, so what the current call brought is never in it
yet: this evidence is about earlier calls. Only the tail after the last compaction counts (a compacted
conversation no longer holds what came before; only the client's own `system` record of type
`compact_boundary` marks one), and only a regular file is read, at most TAIL_BYTES of it, whole lines
only. A record that cannot be read (cut, not JSON, nested too deep) is passed over.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from jitctx.clients.claude_code.answers import answer_of
from jitctx.clients.claude_code.transcript import _read
from jitctx.clients.kit.answer_blocks import Answer, Block, FileTexts, blocks_in, root_of, roots_for
from jitctx.clients.kit.evidence_paths import PathResolver

TAIL_BYTES = 2 * 1024 * 1024
NAMES_MAX_BYTES = 32 * 1024 * 1024  # a forked transcript longer than this tells nothing (`names_shown`)
_COMPACTION = b'"compact_boundary"'


@dataclass
class Delivered:
    """What reached the model since the last compaction: the client's own loads (real path -> their
    texts, stripped) and jitctx's answers (`answer_blocks.blocks_in` tells which files are provably in
    them)."""

    client: dict[str, set[str]] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    # Real paths in the client's file state: files it loaded, read, wrote or edited. When one changes on
    # disk by other hands (a shell's `sed -i`), the client shows the change itself before its next
    # request ("... was modified, either by the user or by a linter", an `edited_text_file` record) —
    # not always: 2.1.332 showed a rule's first change, not its second.
    tracked: set[str] = field(default_factory=set)
    # Tool calls whose evidence is complete: their result is followed by the model's next turn, so what
    # the client attached after them (its nested loads) is in the transcript by now.
    settled: set[str] = field(default_factory=set)
    paths: PathResolver = field(default_factory=PathResolver)
    _results: set[str] = field(default_factory=set)  # results not yet followed by a turn
    _printed: dict[str, Answer] = field(default_factory=dict)  # what jitctx's hook printed
    _files: FileTexts = field(default_factory=FileTexts)
    _blocks: dict[str | None, frozenset[Block]] = field(default_factory=dict)

    def shows_changes(self, path: str) -> bool:
        real = self.paths.real(path)
        return real is not None and real in self.tracked

    def holds(self, path: str, display: str, text: str) -> bool:
        """Is this very version of the file (`text`) in the conversation already, from the client or a
        hook? Only an exact text counts: an edit that removes or adds anything is a new version."""
        body = text.strip()
        real = self.paths.real(path)
        if real is None:
            return False
        if body in self.client.get(real, ()):
            return True
        return Block(display, real, body) in self.jitctx_blocks(root_of(path, display))

    def jitctx_blocks(self, root: str | None) -> frozenset[Block]:
        """The blocks provably in jitctx's answers, their relative paths read against `root` first."""
        if root not in self._blocks:
            found: set[Block] = set()
            for answer in dict.fromkeys(self.answers):
                roots = roots_for(answer, root, self.paths)
                found.update(blocks_in(answer, roots, self.paths, self._files))
            self._blocks[root] = frozenset(found)
        return self._blocks[root]

    def see(self, record: dict[str, Any]) -> None:
        """Take in one main-thread record, in transcript order."""
        _settle(record, self)
        for sighting in sightings(record, self.paths):
            if sighting.kind == "tracked":
                self.tracked.add(sighting.key)
            elif sighting.kind == "answer" and sighting.answer is not None:
                self._printed[sighting.key] = sighting.answer
            elif sighting.kind == "context":
                if sighting.key in self._printed:
                    self.answers.append(self._printed[sighting.key])
            else:
                self.client.setdefault(sighting.key, set()).update(sighting.texts)


def _tail(path: object) -> bytes | None:
    """The whole lines of the transcript's last TAIL_BYTES (the reading `transcript` does for releases)."""
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


class Sighting(NamedTuple):
    """One thing a main-thread record shows. `kind`: "client" (the client loaded the real path `key`,
    `texts` its text), "changed" (the client showed the new text of the file `key` after it changed on
    disk), "tracked" (`key` entered the client's file state; no text), "answer" (`key` is what jitctx's
    own hook command printed, `answer` the whole of it) or "context" (`key` is a text a hook added to the
    conversation: jitctx's when it is one of its answers)."""

    kind: str
    key: str
    texts: tuple[str, ...] = ()
    answer: Answer | None = None


def main_record(line: bytes) -> dict[str, Any] | None:
    """A transcript line as a record of the main thread; None for a sub-agent's record or a line that
    is not a whole JSON object (the last may be half written, one may be nested past the parser)."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or record.get("isSidechain") is True:
        return None
    return record


def is_compaction(record: dict[str, Any] | None) -> bool:
    """Is this the client's own record of a compaction (`type` system, `subtype` compact_boundary)?"""
    return (
        record is not None and record.get("type") == "system" and record.get("subtype") == "compact_boundary"
    )


def after_compaction(data: bytes) -> int:
    """Where the whole lines after the last compaction start in `data` (0 when there is none). Any text
    may hold the words `compact_boundary`; only a record of the client's own counts."""
    end = len(data)
    while (found := data.rfind(_COMPACTION, 0, end)) >= 0:
        start, stop = _line_around(data, found)
        if is_compaction(main_record(data[start:stop])):
            return stop + 1
        end = start
    return 0


def _line_around(data: bytes, at: int) -> tuple[int, int]:
    """The start and the end (its line break, or the end of `data`) of the line holding offset `at`."""
    stop = data.find(b"\n", at)
    return data.rfind(b"\n", 0, at) + 1, len(data) if stop < 0 else stop


def _lines_holding(data: bytes, needle: bytes) -> Iterator[bytes]:
    """The whole lines of `data` that hold `needle`, in order."""
    at = data.find(needle)
    while at >= 0:
        start, stop = _line_around(data, at)
        yield data[start:stop]
        at = data.find(needle, stop)


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


def sightings(record: dict[str, Any], paths: PathResolver) -> Iterator[Sighting]:
    """What one main-thread record shows reached the model or entered the client's file state (the
    one reading of these records: the hook's `delivered` and `drift`'s report both go through it)."""
    if record.get("type") == "assistant":
        yield from _tool_uses(record, paths)
        return
    attachment = record.get("attachment")
    if record.get("type") != "attachment" or not isinstance(attachment, dict):
        return
    kind = attachment.get("type")
    if kind in ("edited_text_file", "file") and (path := paths.real(attachment.get("filename"))):
        yield Sighting("tracked", path)
        whole = _numbered_whole(attachment.get("snippet")) if kind == "edited_text_file" else None
        if whole is not None:
            yield Sighting("changed", path, (whole, _body(whole)))
    if kind == "nested_memory" and (path := paths.real(attachment.get("path"))):
        yield Sighting("client", path, _texts(attachment.get("content")))
        yield Sighting("tracked", path)
    elif kind == "instructions" and isinstance(attachment.get("files"), list):
        for entry in attachment["files"]:
            if isinstance(entry, dict) and (path := paths.real(entry.get("path"))):
                yield Sighting("client", path, _texts(entry.get("content")))
                yield Sighting("tracked", path)
    elif kind == "hook_success" and (answer := answer_of(record)) is not None:
        yield Sighting("answer", answer.text, answer=answer)
    elif (
        kind == "hook_additional_context"
        and isinstance(attachment.get("content"), list)
        and attachment.get("isOwnText") is not True
    ):
        plugin = attachment.get("hookName") == "tool.call"
        for text in attachment["content"]:
            if not isinstance(text, str):
                continue
            if not plugin:
                yield Sighting("context", text)
            elif (frame := _plugin_frame(text, paths)) is not None:
                yield Sighting("client", *frame)


def _plugin_frame(text: str, paths: PathResolver) -> tuple[str, tuple[str, ...]] | None:
    """(real path, (text,)) of one whole text the agents-md plugin added: `Contents of /abs/path:`, a
    blank line, the file's text; None for any other text, or a path spelled as the client would not."""
    header, sep, body = text.partition(":\n\n")
    path = header.removeprefix("Contents of ")
    if not sep or path == header or "\n" in header or not path.startswith("/"):
        return None
    directory = path.rpartition("/")[0] or "/"
    if os.path.normpath(path) != path or not paths.is_canonical_dir(directory):
        return None
    real = paths.real(path)
    return (real, (body.strip(),)) if real is not None else None


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


def _tool_uses(record: dict[str, Any], paths: PathResolver) -> Iterator[Sighting]:
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
        if (real := paths.real(path)) is not None:
            yield Sighting("tracked", real)


def delivered(transcript: object) -> Delivered | None:
    """The transcript's evidence since its last compaction; None when there is no transcript to read."""
    data = _tail(transcript)
    if data is None:
        return None
    seen = Delivered()
    for line in data[after_compaction(data) :].split(b"\n"):
        record = main_record(line) if line.strip() else None
        if record is not None:
            seen.see(record)
    return seen


def names_shown(transcript: object) -> frozenset[str] | None:
    """The files a (forked) transcript shows arriving since its last compaction, by name: the real paths
    the client loaded, and `Contents of DISPLAY` with the real path of each block provably in jitctx's
    answers. None when the transcript is unreadable or longer than NAMES_MAX_BYTES. Only attachment
    records are parsed: the rest shows no arrival."""
    read = _read(transcript, NAMES_MAX_BYTES + 1, 0)
    if read is None or len(read[0]) > NAMES_MAX_BYTES:
        return None
    data = read[0][: read[0].rfind(b"\n") + 1]
    seen = Delivered()
    for line in _lines_holding(data[after_compaction(data) :], b'"attachment"'):
        record = main_record(line)
        if record is not None:
            seen.see(record)
    names = set(seen.client)
    for block in seen.jitctx_blocks(None):
        names.update((f"Contents of {block.display}", block.path))
    return frozenset(names)
