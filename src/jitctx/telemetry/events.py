"""Telemetry records (schema v1), in the vocabulary of Claude Code's InstructionsLoaded hook event.

Every record is one JSON object on one line, with these fields in this order:

    v            1, the schema version; a reader skips (and counts) versions it does not know
    kind         "startup" | "discovery" | "load" | "skill"
    ts           ISO-8601 UTC with milliseconds, "2026-08-08T12:00:00.123Z" (sorts as text)
    session_id   the agent's session id
    channel      "main" | "subagent"; a sub-agent's own id, when known, goes in `agent_id`
    root         the project root (absolute); paths are shown relative to it

`kind: "discovery"`, one per JIT discovery, hit or miss: misses are the hit rate's denominator.
    hit, elapsed_ms, scope_skipped, rules_scanned, cumulative_bytes (what the channel carries after this
    discovery), trigger_file_path (absolute), loaded[]; optional note, dropped[] (files whose block left),
    host_loaded[] (files the host loaded by itself for this touch, sent by nobody: the record is a hit).
`kind: "startup"`, one per session start: cwd, agent, signals[], skipped (count), elapsed_ms,
    cumulative_bytes, loaded[].
`kind: "load"`, one per load the *host* reported (Claude Code's own InstructionsLoaded hook, `source:
    "claude-code"`): the load item's fields at top level, with `bytes`/`tokens` when the reporter knew them.
`kind: "skill"`, one per use of an Agent Skill (Claude Code's `Skill` tool): skill (its name, as the agent
    gave it), and path (its SKILL.md, POSIX relative to the root) when it was found in the project.

A load appears exactly once: inside `loaded[]` of the startup or discovery record that caused it when
jitctx loaded it, or as its own `load` record when the host did. Counting loads is therefore the sum of
both, never a double count. A load item holds file_path (absolute), memory_type (User|Project|Local|
Managed), load_reason (session_start|nested_traversal|path_glob_match|include|compact), globs[], bytes,
tokens, and trigger_file_path / parent_file_path when they add something.

Every startup and discovery record names its `agent`: the client whose hook recorded it, or the profile
of `jitctx touch`, `replay` and `mcp`. Optional on any record: `source` (absent means "jitctx"),
`agent_id`, the hook's `prompt_id` / `tool_use_id` / `tool_use_ids`, and `truncated` ({field: items
removed}) when the record was shrunk to fit one line (see `encode_event`).

The records themselves are built in `telemetry.records`, from plain values, by every writer (the hook's
fast lane too, which never imports this module); the functions here take them from model objects.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from json.scanner import make_scanner
from typing import TYPE_CHECKING, Any, cast

from jitctx.model import Discovery, Load, Startup
from jitctx.telemetry.records import (
    MAX_LINE_BYTES,
    MIN_LINE_BYTES,
    SCHEMA_VERSION,
    channel_of,
    discovery_record,
    encode_event,
    load_entry,
    load_record,
    skill_record,
    startup_record,
)
from jitctx.tokens import estimate_tokens

if TYPE_CHECKING:
    from jitctx.discovery.session import Session

__all__ = [
    "CHANNELS",
    "KINDS",
    "LOAD_REASONS",
    "MAX_LINE_BYTES",
    "MEMORY_TYPES",
    "MIN_LINE_BYTES",
    "SCHEMA_VERSION",
    "Event",
    "channel_of",
    "encode_event",
    "event_from_discovery",
    "event_from_instructions_loaded",
    "event_from_skill",
    "event_from_startup",
    "format_ts",
    "held_bytes",
    "is_stored_ts",
    "load_item",
    "parse_line",
    "parse_ts",
    "record_problem",
    "scan_once",
    "session_held_bytes",
]

KINDS = frozenset({"startup", "discovery", "load", "skill"})
CHANNELS = ("main", "subagent")
MEMORY_TYPES = ("User", "Project", "Local", "Managed")
LOAD_REASONS = ("session_start", "nested_traversal", "path_glob_match", "include", "compact")

Event = dict[str, Any]


def format_ts(moment: datetime) -> str:
    """UTC, millisecond precision, 'Z' suffix: equal-length strings that sort like the instants."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    # Not strftime's %Y, which leaves years before 1000 unpadded on some platforms.
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T"
        f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}.{moment.microsecond // 1000:03d}Z"
    )


def parse_ts(text: str) -> datetime:
    """Read a stored `ts` (ours or any ISO-8601 form); ValueError when it is not one (or is one that
    falls outside the calendar in UTC, like 9999-12-31T23:59-01:00)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"{text!r} falls outside the calendar in UTC") from None


def _stamp(ts: datetime | None) -> str | None:
    """A given time as a record's `ts`; None lets the builder take the time of building."""
    return format_ts(ts) if ts is not None else None


def _absolute(path: str, base: str) -> str:
    return os.path.normpath(os.path.join(base, path))


def load_item(load: Load, *, record_trigger: str | None = None, base: str | None = None) -> Event:
    """One entry of `loaded[]`. Its trigger is kept only where it differs from the record's own."""
    file = load.file
    trigger = None
    if load.trigger is not None:
        trigger = _absolute(load.trigger, base) if base is not None else load.trigger
        if trigger == record_trigger:
            trigger = None
    return load_entry(
        file_path=file.path,
        memory_type=file.tier.memory_type,
        load_reason=load.reason.value,
        globs=load.globs,
        file_bytes=file.body_bytes,
        tokens=estimate_tokens(file.text),
        trigger_file_path=trigger,
        parent_file_path=load.parent,
        updated=load.updated,
    )


def event_from_discovery(
    discovery: Discovery,
    *,
    session_id: str,
    root: str,
    cumulative_bytes: int,
    rules_scanned: int | None = None,
    cwd: str | None = None,
    ts: datetime | None = None,
    agent: str | None = None,
    host_loaded: Iterable[str] = (),
    ids: Mapping[str, Any] | None = None,
) -> Event:
    """The record of one discovery (`records.discovery_record` from its fields). `cumulative_bytes`:
    what the channel holds afterwards (the caller knows its blocks). `rules_scanned` defaults to the
    files whose applicability this discovery decided (loaded + scope-skipped), since `Discovery` does
    not count the rest. A relative trigger is taken from `cwd` (default: the root)."""
    trigger = _absolute(discovery.trigger, cwd or root)
    return discovery_record(
        session_id=session_id,
        root=root,
        trigger_file_path=trigger,
        hit=discovery.hit,
        elapsed_ms=discovery.elapsed_ms,
        scope_skipped=discovery.scope_skipped,
        cumulative_bytes=cumulative_bytes,
        agent=agent,
        loaded=[load_item(load, record_trigger=trigger, base=root) for load in discovery.loaded],
        rules_scanned=rules_scanned,
        channel=discovery.channel,
        ts=_stamp(ts),
        note=discovery.note,
        dropped=discovery.dropped,
        host_loaded=host_loaded,
        ids=ids,
    )


def event_from_startup(
    startup: Startup,
    *,
    session_id: str,
    cumulative_bytes: int | None = None,
    channel: str = "main",
    ts: datetime | None = None,
    agent: str | None = None,
    ids: Mapping[str, Any] | None = None,
) -> Event:
    """The record of a session start (`records.startup_record`); `cumulative_bytes` defaults to the
    bytes of what it loaded, `agent` to the startup's profile."""
    loaded = [load_item(load) for load in startup.loaded]
    return startup_record(
        session_id=session_id,
        root=startup.root,
        cwd=startup.cwd,
        agent=agent if agent is not None else startup.agent,
        signals=startup.signals,
        skipped=len(startup.skipped),
        elapsed_ms=startup.elapsed_ms,
        cumulative_bytes=(
            cumulative_bytes if cumulative_bytes is not None else sum(item["bytes"] for item in loaded)
        ),
        loaded=loaded,
        channel=channel,
        ts=_stamp(ts),
        ids=ids,
    )


def event_from_instructions_loaded(
    payload: Mapping[str, Any],
    *,
    source: str,
    root: str | None = None,
    file_bytes: int | None = None,
    tokens: int | None = None,
    ts: datetime | None = None,
) -> Event:
    """A `load` record from Claude Code's InstructionsLoaded hook payload. The payload carries no size:
    pass `file_bytes`/`tokens` if you measured the file. `root` defaults to the payload's cwd. An
    `agent_id` in the payload means the load happened in a sub-agent."""

    def text(key: str) -> str:
        value = payload.get(key)
        return value if isinstance(value, str) else ""

    agent_id = payload.get("agent_id")
    globs = payload.get("globs")
    return load_record(
        session_id=text("session_id"),
        root=root or text("cwd"),
        source=source,  # the client that reported its own load
        file_path=text("file_path"),
        memory_type=text("memory_type"),
        load_reason=text("load_reason"),
        globs=[g for g in globs if isinstance(g, str)] if isinstance(globs, list) else [],
        channel=str(agent_id) if agent_id not in (None, "") else "main",
        trigger_file_path=text("trigger_file_path"),
        parent_file_path=text("parent_file_path"),
        cwd=text("cwd"),
        file_bytes=file_bytes,
        tokens=tokens,
        ts=_stamp(ts),
    )


def event_from_skill(
    name: str,
    *,
    session_id: str,
    root: str,
    channel: str = "main",
    path: str | None = None,
    ts: datetime | None = None,
) -> Event:
    """The record of one skill use; `path` is its SKILL.md relative to `root`, when known."""
    return skill_record(
        session_id=session_id, root=root, skill=name, path=path, channel=channel, ts=_stamp(ts)
    )


def held_bytes(files: Iterable[Any]) -> int:
    """What a channel carries: the body bytes of the instruction files it holds (`Session.blocks()`)."""
    return sum(file.body_bytes for file in files)


def session_held_bytes(session: Session, channel: str = "main") -> int:
    """What a session's channel carries now, as the session recorded each file when it loaded it.

    The same figure as `held_bytes(session.blocks(channel))`, without reading any text again: `blocks()`
    reads the files a resumed session has not read yet and takes the version it finds as the one held,
    so calling it between discoveries would hide an edit from the next one."""
    state = session.channels.get(channel)
    if state is None:
        return 0
    blocks = state.blocks
    return sum(blocks[p].body_bytes if p in blocks else e.carried for p, e in state.loaded.items())


# -- reading -----------------------------------------------------------------------------------------

# The C scanner, called without json.loads' per-call overhead: (value, end) from text and a start index.
scan_once: Callable[[str, int], tuple[Any, int]] = make_scanner(cast(Any, json.JSONDecoder()))


def parse_line(line: str) -> Any:
    """The JSON value on one line; ValueError when the line is not exactly one JSON value."""
    try:
        value, end = scan_once(line, 0)
    except StopIteration:
        raise ValueError("not JSON") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if end != len(line) and line[end:].strip():
        raise ValueError("text after the JSON value")
    return value


def record_problem(value: Any) -> str | None:
    """Why a parsed line is not a record this version reads: "corrupt" (not a record at all), "version"
    (a schema version this jitctx does not know) or "kind"; None when it is readable."""
    if not isinstance(value, dict):
        return "corrupt"
    version = value.get("v")
    if version.__class__ is not int:  # bool is an int subclass, and `true` is no version
        return "corrupt"
    if version != SCHEMA_VERSION:
        return "version"
    if value.get("kind") not in KINDS:
        return "kind"
    if not is_stored_ts(value.get("ts")) or not isinstance(value.get("session_id"), str):
        return "corrupt"
    return None


def is_stored_ts(ts: Any) -> bool:
    """Whether `ts` has the one form records are written with (`format_ts`): filters compare these as
    strings, so a time in any other form would sort wrongly and is not a record's time."""
    return ts.__class__ is str and len(ts) == 24 and ts[10] == "T" and ts[23] == "Z" and ts[4] == "-"
