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

Optional on any record: `source` (absent means "jitctx"), `agent_id`, `agent` (the profile), and
`truncated` ({field: items removed}) when the record was shrunk to fit one line (see `encode_event`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from json.scanner import make_scanner
from typing import Any, cast

from jitctx.model import Discovery, Load, Startup
from jitctx.tokens import estimate_tokens

SCHEMA_VERSION = 1
KINDS = frozenset({"startup", "discovery", "load", "skill"})
CHANNELS = ("main", "subagent")
MEMORY_TYPES = ("User", "Project", "Local", "Managed")
LOAD_REASONS = ("session_start", "nested_traversal", "path_glob_match", "include", "compact")
MAX_LINE_BYTES = 64 * 1024
MIN_LINE_BYTES = 4096  # the smallest cap a store accepts: a minimal record always fits in it
# Strings longer than this are the first thing cut when a record does not fit its line.
_LONG_STRING = 1024

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


def _now(ts: datetime | None) -> str:
    return format_ts(ts if ts is not None else datetime.now(UTC))


def channel_of(name: str) -> tuple[str, str | None]:
    """A session channel name as (channel, agent_id): anything but "main" is a sub-agent."""
    if name == "main":
        return "main", None
    return "subagent", (None if name == "subagent" else name)


def _absolute(path: str, base: str) -> str:
    return os.path.normpath(os.path.join(base, path))


def load_item(load: Load, *, record_trigger: str | None = None, base: str | None = None) -> Event:
    """One entry of `loaded[]`. Its trigger is kept only where it differs from the record's own."""
    file = load.file
    item: Event = {
        "file_path": file.path,
        "memory_type": file.tier.memory_type,
        "load_reason": load.reason.value,
        "globs": list(load.globs),
        "bytes": file.body_bytes,
        "tokens": estimate_tokens(file.text),
    }
    if load.trigger is not None:
        trigger = _absolute(load.trigger, base) if base is not None else load.trigger
        if trigger != record_trigger:
            item["trigger_file_path"] = trigger
    if load.parent is not None:
        item["parent_file_path"] = load.parent
    if load.updated:
        item["updated"] = True  # a new version of a file the agent was sent before
    return item


def _common(kind: str, ts: datetime | None, session_id: str, channel: str, root: str) -> Event:
    name, agent_id = channel_of(channel)
    event: Event = {
        "v": SCHEMA_VERSION,
        "kind": kind,
        "ts": _now(ts),
        "session_id": session_id,
        "channel": name,
        "root": root,
    }
    if agent_id is not None:
        event["agent_id"] = agent_id
    return event


def event_from_discovery(
    discovery: Discovery,
    *,
    session_id: str,
    root: str,
    cumulative_bytes: int,
    rules_scanned: int | None = None,
    cwd: str | None = None,
    ts: datetime | None = None,
) -> Event:
    """The record of one discovery. `cumulative_bytes`: what the channel holds afterwards (the caller
    knows its blocks). `rules_scanned` defaults to the files whose applicability this discovery decided
    (loaded + scope-skipped), since `Discovery` does not count the rest. A relative trigger is taken from
    `cwd` (default: the root)."""
    trigger = _absolute(discovery.trigger, cwd or root)
    event = _common("discovery", ts, session_id, discovery.channel, root)
    scanned = rules_scanned if rules_scanned is not None else len(discovery.loaded) + discovery.scope_skipped
    event.update(
        hit=discovery.hit,
        elapsed_ms=round(discovery.elapsed_ms, 3),
        scope_skipped=discovery.scope_skipped,
        rules_scanned=scanned,
        cumulative_bytes=cumulative_bytes,
        trigger_file_path=trigger,
        loaded=[load_item(load, record_trigger=trigger, base=root) for load in discovery.loaded],
    )
    if discovery.note is not None:
        event["note"] = discovery.note
    if discovery.dropped:
        event["dropped"] = list(discovery.dropped)
    return event


def event_from_startup(
    startup: Startup,
    *,
    session_id: str,
    cumulative_bytes: int | None = None,
    channel: str = "main",
    ts: datetime | None = None,
) -> Event:
    """The record of a session start; `cumulative_bytes` defaults to the bytes of what it loaded."""
    event = _common("startup", ts, session_id, channel, startup.root)
    loaded = [load_item(load) for load in startup.loaded]
    event.update(
        cwd=startup.cwd,
        agent=startup.agent,
        signals=list(startup.signals),
        skipped=len(startup.skipped),
        elapsed_ms=round(startup.elapsed_ms, 3),
        cumulative_bytes=(
            cumulative_bytes if cumulative_bytes is not None else sum(item["bytes"] for item in loaded)
        ),
        loaded=loaded,
    )
    return event


def event_from_instructions_loaded(
    payload: Mapping[str, Any],
    *,
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
    channel = str(agent_id) if agent_id not in (None, "") else "main"
    event = _common("load", ts, text("session_id"), channel, root or text("cwd"))
    globs = payload.get("globs")
    event.update(
        source="claude-code",
        file_path=text("file_path"),
        memory_type=text("memory_type"),
        load_reason=text("load_reason"),
        globs=[g for g in globs if isinstance(g, str)] if isinstance(globs, list) else [],
    )
    for key in ("trigger_file_path", "parent_file_path", "cwd"):
        if text(key):
            event[key] = text(key)
    if file_bytes is not None:
        event["bytes"] = file_bytes
    if tokens is not None:
        event["tokens"] = tokens
    return event


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
    event = _common("skill", ts, session_id, channel, root)
    event["skill"] = name
    if path is not None:
        event["path"] = path
    return event


def held_bytes(files: Iterable[Any]) -> int:
    """What a channel carries: the body bytes of the instruction files it holds (`Session.blocks()`)."""
    return sum(file.body_bytes for file in files)


# -- one record, one line ----------------------------------------------------------------------------


def _dump(event: Mapping[str, Any]) -> bytes:
    # ensure_ascii=False keeps non-ASCII paths readable; json escapes every control character, so the
    # only b"\n" in the result is the one we add. A lone surrogate (a file name that is not UTF-8, a JSON
    # escape in hook input) can only sit inside a JSON string, where backslashreplace writes it as the
    # JSON escape `\udce9`: the line stays valid UTF-8 and reads back as the same string.
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
    return text.encode("utf-8", errors="backslashreplace")


def _cut(value: str) -> str:
    return value[:_LONG_STRING] + "…"


def _small_number(value: object) -> bool:
    return isinstance(value, bool) or (isinstance(value, int | float) and abs(value) < 1e15)


def encode_event(event: Mapping[str, Any], max_bytes: int = MAX_LINE_BYTES) -> bytes:
    """The record as one line of at most `max_bytes`. Too long: drop the tail of its lists (loaded,
    signals, dropped, globs), then cut long strings, and say so in `truncated`; as a last resort keep only
    the fields statistics need. Never a partial line."""
    line = _dump(event)
    if len(line) <= max_bytes:
        return line
    record = dict(event)
    earlier = record.get("truncated")
    # A record may arrive with its own `truncated` of any shape: only a {field: count} map is carried on.
    truncated: dict[str, int] = (
        {k: v for k, v in earlier.items() if isinstance(k, str) and isinstance(v, int)}
        if isinstance(earlier, dict)
        else {}
    )
    for key in ("loaded", "signals", "dropped", "globs"):
        items = record.get(key)
        while (
            isinstance(items, list) and items and len(_dump({**record, "truncated": truncated})) > max_bytes
        ):
            keep = len(items) // 2
            truncated[key] = truncated.get(key, 0) + len(items) - keep
            items = items[:keep]
            record[key] = items
    record["truncated"] = truncated
    line = _dump(record)
    if len(line) <= max_bytes:
        return line
    cut = 0
    for key, value in list(record.items()):
        if isinstance(value, str) and len(value) > _LONG_STRING:
            record[key] = _cut(value)
            cut += 1
    truncated["strings"] = cut
    line = _dump(record)
    if len(line) <= max_bytes:
        return line
    numbers = ("v", "hit", "elapsed_ms", "scope_skipped", "rules_scanned", "cumulative_bytes")
    minimal: Event = {k: record[k] for k in numbers if _small_number(record.get(k))}
    for key in ("kind", "ts", "session_id", "channel"):
        if isinstance(record.get(key), str):
            minimal[key] = record[key][:64]
    minimal["truncated"] = {"record": 1}
    line = _dump(minimal)
    # With max_bytes >= MIN_LINE_BYTES this always fits: four strings of 64 characters, escaped, and
    # six numbers; if it does not, the record is dropped rather than written in part.
    if len(line) > max_bytes:
        raise ValueError(f"a record cannot be shrunk below {len(line)} bytes (limit {max_bytes})")
    return line


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
