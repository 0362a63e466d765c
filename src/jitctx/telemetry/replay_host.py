"""What Claude Code itself loaded and what its API calls cost, as its transcript records them.

Claude Code (2.1.x) writes the instruction files it attaches to the conversation as transcript lines of
`type: "attachment"`:

- `attachment.type: "instructions"`, `files: [{path, type, content}]`: the files loaded at session start
  (the project's CLAUDE.md and the user's), and again when they changed (`changed`, `reason`);
- `attachment.type: "nested_memory"`, `path`, `content: {path, type, content, globs?, isRule?}`, and
  `replacesPath` when it replaces an earlier version: a nested CLAUDE.md or a scoped rule it loaded after
  a tool call touched a path below it.

An attachment line follows the tool results of the turn that caused it, so it belongs to the last
assistant turn of its channel before it (turn 0: before the first one, at session start).

Assistant lines carry the API's `message.usage` (input_tokens, cache_creation_input_tokens,
cache_read_input_tokens, output_tokens); the lines of one response share it, so it is counted once per
`message.id`. A transcript without these lines (older clients, other tools) gives no host side at all, and
the replay compares with a full load only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HostFile:
    """One instruction file Claude Code attached, where the transcript says so."""

    path: str  # absolute, as recorded
    memory_type: str  # Project | User | Local | Managed, as Claude Code names them
    reason: str  # session_start | nested_traversal | path_glob_match | changed
    text: str  # the body the model received
    globs: tuple[str, ...]
    replaces: str | None
    line: int
    channel: str
    after_turn: int  # the turn whose tool calls brought it; 0: session start


@dataclass(frozen=True)
class Usage:
    """Token counts of one API response, from its `usage` record."""

    input_tokens: int = 0  # not read from or written to the cache
    cache_creation: int = 0
    cache_read: int = 0
    output_tokens: int = 0

    @property
    def prompt(self) -> int:
        """Every token of the request, cached or not."""
        return self.input_tokens + self.cache_creation + self.cache_read

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.cache_creation + other.cache_creation,
            self.cache_read + other.cache_read,
            self.output_tokens + other.output_tokens,
        )

    def to_json(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt,
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation,
            "cache_read_input_tokens": self.cache_read,
            "output_tokens": self.output_tokens,
        }


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def usage_of(message: Any) -> Usage | None:
    """The usage record of an assistant message; None when it has none."""
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict):
        return None
    return Usage(
        _count(usage.get("input_tokens")),
        _count(usage.get("cache_creation_input_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        _count(usage.get("output_tokens")),
    )


def total_usage(usages: Iterable[Usage | None]) -> Usage | None:
    found = [usage for usage in usages if usage is not None]
    if not found:
        return None
    result = Usage()
    for usage in found:
        result = result + usage
    return result


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _file(
    entry: Mapping[str, Any], reason: str, line: int, channel: str, after_turn: int, replaces: Any = None
) -> HostFile | None:
    path = _text(entry.get("path"))
    if not path:
        return None
    globs = entry.get("globs")
    return HostFile(
        path=path,
        memory_type=_text(entry.get("type")),
        reason=reason,
        text=_text(entry.get("content")),
        globs=tuple(g for g in globs if isinstance(g, str)) if isinstance(globs, list) else (),
        replaces=replaces if isinstance(replaces, str) and replaces else None,
        line=line,
        channel=channel,
        after_turn=after_turn,
    )


def attached_files(record: Mapping[str, Any], line: int, channel: str, after_turn: int) -> list[HostFile]:
    """The instruction files of one transcript line of type "attachment" (none for other attachments)."""
    attachment = record.get("attachment")
    if not isinstance(attachment, dict):
        return []
    kind = attachment.get("type")
    if kind == "instructions":
        changed = attachment.get("changed") is True or after_turn > 0
        reason = "changed" if changed else "session_start"
        files = attachment.get("files")
        entries = [entry for entry in files if isinstance(entry, dict)] if isinstance(files, list) else []
        found = [_file(entry, reason, line, channel, after_turn) for entry in entries]
        return [file for file in found if file is not None]
    if kind == "nested_memory":
        content = attachment.get("content")
        if not isinstance(content, dict):
            return []
        scoped = bool(content.get("globs")) or content.get("isRule") is True
        entry = {**content, "path": content.get("path") or attachment.get("path")}
        file = _file(
            entry,
            "path_glob_match" if scoped else "nested_traversal",
            line,
            channel,
            after_turn,
            attachment.get("replacesPath"),
        )
        return [file] if file is not None else []
    return []
