"""A Claude Code transcript read as the turns a replay runs: each assistant message's tool calls, in order.

Transcripts (`~/.claude/projects/<slug>/<session-id>.jsonl`) hold one JSON object per line. Lines of
`type` "assistant" carry `message.content[]`, whose `{"type": "tool_use", "name", "input"}` blocks are the
tool calls; one response may span several lines sharing `message.id`, and they make one *turn*.
`isSidechain: true` marks a sub-agent's lines (`agentId` names it), replayed in their own channel. Other
lines (prompts, tool results, summaries, system lines) are read past; a line that is not a JSON object is
skipped and counted. `instructions` and `nested_memory` attachment lines say what Claude Code loaded
itself (`replay_host`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from jitctx.errors import JitctxError
from jitctx.telemetry.replay_host import HostFile, Usage, attached_files, usage_of

TRANSCRIPT_TYPES = frozenset({"user", "assistant", "summary", "system"})


class TranscriptError(JitctxError):
    """A transcript that cannot be replayed at all: missing, unreadable, or not JSONL."""


@dataclass(frozen=True)
class ToolCall:
    name: str
    input: Mapping[str, Any]


@dataclass(frozen=True)
class Turn:
    """One assistant message: where it starts, its session channel, its tool calls in order."""

    number: int
    line: int
    channel: str  # "main", or the sub-agent's id ("subagent" when the line names none)
    timestamp: str | None
    calls: tuple[ToolCall, ...]
    usage: Usage | None = None  # the API's token counts for this response, when recorded


@dataclass(frozen=True)
class Transcript:
    path: str
    session_id: str
    cwd: str | None
    turns: tuple[Turn, ...]
    lines: int  # non-blank lines
    malformed: tuple[int, ...]  # line numbers skipped: not a JSON object, or an unusable tool_use
    host_files: tuple[HostFile, ...] = ()  # what Claude Code attached itself, in order
    host_recorded: bool = False  # the transcript has attachment lines at all (a client that records them)


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Parse one transcript; TranscriptError when it is missing, unreadable or not a JSONL transcript."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8", errors="replace") as handle:
            return _parse(name, handle)
    except FileNotFoundError:
        raise TranscriptError(f"{name}: no such file") from None
    except OSError as exc:
        raise TranscriptError(f"{name}: cannot read: {exc.strerror or exc}") from None


def _parse(name: str, text_lines: Iterable[str]) -> Transcript:
    first: dict[str, str] = {}  # the first sessionId and cwd met
    lines = objects = recognised = 0
    malformed: list[int] = []
    turns: list[Turn] = []
    by_message: dict[tuple[str, str], int] = {}  # (channel, message.id) -> index in `turns`
    host: list[HostFile] = []
    last_turn: dict[str, int] = {}  # channel -> number of its latest turn
    attachments = False
    for number, raw in enumerate(text_lines, 1):
        if not raw.strip():
            continue
        lines += 1
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict):
            malformed.append(number)
            continue
        objects += 1
        for name_of in ("sessionId", "cwd"):
            if name_of not in first and isinstance(record.get(name_of), str):
                first[name_of] = record[name_of]
        kind = record.get("type")
        recognised += isinstance(kind, str) and kind in TRANSCRIPT_TYPES
        if kind == "attachment":
            attachments = True
            channel = _channel(record)
            host.extend(attached_files(record, number, channel, last_turn.get(channel, 0)))
            continue
        if kind != "assistant":
            continue
        calls = _tool_calls(record.get("message"))
        if calls is None:
            malformed.append(number)
            continue
        channel = _channel(record)
        message_id, stamp = record["message"].get("id"), record.get("timestamp")
        key = (channel, message_id) if isinstance(message_id, str) else None
        if key is not None and key in by_message:  # another line of the same response (same usage)
            index = by_message[key]
            turns[index] = replace(turns[index], calls=turns[index].calls + calls)
            continue
        if key is not None:
            by_message[key] = len(turns)
        usage = usage_of(record["message"])
        when = stamp if isinstance(stamp, str) else None
        turns.append(Turn(len(turns) + 1, number, channel, when, calls, usage))
        last_turn[channel] = len(turns)
    if not objects:
        what = "is not JSONL: no line holds a JSON object" if lines else "is empty"
        raise TranscriptError(f"{name}: {what}; expected a Claude Code transcript (.jsonl)")
    if not recognised and not attachments:
        raise TranscriptError(
            f"{name}: holds no Claude Code transcript lines (no line of type user/assistant/summary/system)"
        )
    session_id = first.get("sessionId") or os.path.splitext(os.path.basename(name))[0]
    return Transcript(
        name, session_id, first.get("cwd"), tuple(turns), lines, tuple(malformed), tuple(host), attachments
    )


def _channel(record: Mapping[str, Any]) -> str:
    agent = record.get("agentId")
    sub = agent if isinstance(agent, str) and agent else "subagent"
    return sub if record.get("isSidechain") is True else "main"


def _tool_calls(message: object) -> tuple[ToolCall, ...] | None:
    """The tool_use blocks of an assistant message; None when the message cannot be read."""
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if not isinstance(content, list):
        return () if content is None or isinstance(content, str) else None
    calls: list[ToolCall] = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            name, tool_input = block.get("name"), block.get("input")
            if not isinstance(name, str) or not isinstance(tool_input, dict):
                return None
            calls.append(ToolCall(name, tool_input))
    return tuple(calls)
