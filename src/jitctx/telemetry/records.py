"""The one builder of telemetry records, from plain values, and the one writer that appends them.

Every process that records a startup, a discovery, a host load or a skill use builds the record here:
the hook's engine (through `telemetry.events`, which turns `Discovery`/`Startup` into plain values), its
fast lane (which never imports the engine), the MCP server, `jitctx touch` and `jitctx replay --record`.
One builder per kind keeps the fields, their order and their defaults the same on every path; the schema
itself is described in `telemetry.events`.

`append_record(events_dir, record)` writes one record as one line of `events_dir/YYYY-MM-DD.jsonl` (the
UTC day of its `ts`): encoded and capped by `encode_event`, written with a single `os.write` on a
descriptor opened with O_APPEND, so concurrent hooks never interleave; the file is opened only as a
regular file of this user, without following a link (`safe_open.open_state_file`).

The hook's fast lane writes its records here too, so this module needs nothing beyond os, time, json and
the state-dir opener.
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING

from jitctx.safe_open import make_private_dir, open_state_file

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    Record = dict[str, Any]

SCHEMA_VERSION = 1
MAX_LINE_BYTES = 64 * 1024
MIN_LINE_BYTES = 4096  # the smallest cap a store accepts: a minimal record always fits in it
# Strings longer than this are the first thing cut when a record does not fit its line.
_LONG_STRING = 1024
# O_APPEND makes each write land whole at the end of the file, whoever else is writing.
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)


def stamp(seconds: float | None = None) -> str:
    """A record's `ts` for a time.time() value (default: now): UTC, milliseconds, "Z"; the same text
    as `events.format_ts` gives for that instant."""
    # Whole milliseconds first: rounding the fraction apart from the seconds could print .1000.
    millis = int((time.time() if seconds is None else seconds) * 1000 // 1)
    t = time.gmtime(millis // 1000)
    # Not strftime's %Y, which leaves years before 1000 unpadded on some platforms.
    return (
        f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}T"
        f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}.{millis % 1000:03d}Z"
    )


def channel_of(name: str) -> tuple[str, str | None]:
    """A session channel name as (channel, agent_id): anything but "main" is a sub-agent."""
    if name == "main":
        return "main", None
    return "subagent", (None if name == "subagent" else name)


def _head(kind: str, ts: str | None, session_id: str, channel: str, root: str) -> Record:
    name, agent_id = channel_of(channel)
    record: Record = {
        "v": SCHEMA_VERSION,
        "kind": kind,
        "ts": ts if ts is not None else stamp(),
        "session_id": session_id,
        "channel": name,
        "root": root,
    }
    if agent_id is not None:
        record["agent_id"] = agent_id
    return record


def _tail(record: Record, agent: str | None, ids: Mapping[str, Any] | None) -> Record:
    if agent is not None:
        record["agent"] = agent
    if ids:
        record.update(ids)
    return record


def load_entry(
    *,
    file_path: str,
    memory_type: str,
    load_reason: str,
    globs: Iterable[str] = (),
    file_bytes: int,
    tokens: int,
    trigger_file_path: str | None = None,
    parent_file_path: str | None = None,
    updated: bool = False,
) -> Record:
    """One entry of a record's `loaded[]`; the optional fields only when they say something."""
    item: Record = {
        "file_path": file_path,
        "memory_type": memory_type,
        "load_reason": load_reason,
        "globs": list(globs),
        "bytes": file_bytes,
        "tokens": tokens,
    }
    if trigger_file_path is not None:
        item["trigger_file_path"] = trigger_file_path
    if parent_file_path is not None:
        item["parent_file_path"] = parent_file_path
    if updated:
        item["updated"] = True  # a new version of a file the agent was sent before
    return item


def discovery_record(
    *,
    session_id: str,
    root: str,
    trigger_file_path: str,
    hit: bool,
    elapsed_ms: float,
    scope_skipped: int,
    cumulative_bytes: int,
    agent: str | None,
    loaded: Iterable[Record] = (),
    rules_scanned: int | None = None,
    channel: str = "main",
    ts: str | None = None,
    note: str | None = None,
    dropped: Iterable[str] = (),
    host_loaded: Iterable[str] = (),
    ids: Mapping[str, Any] | None = None,
) -> Record:
    """The record of one discovery, hit or miss. `cumulative_bytes`: what the channel holds right after
    this discovery. `rules_scanned` defaults to the files whose applicability it decided (loaded +
    scope-skipped). `agent`: the client or profile that recorded it (None leaves the field out).
    `channel` is the session's channel name (a sub-agent's id becomes `agent_id`); `ts` defaults to
    now; `ids` are the hook's prompt and tool call ids (`hook.ids.hook_ids`)."""
    items = list(loaded)
    record = _head("discovery", ts, session_id, channel, root)
    record["hit"] = hit
    record["elapsed_ms"] = round(elapsed_ms, 3)
    record["scope_skipped"] = scope_skipped
    record["rules_scanned"] = rules_scanned if rules_scanned is not None else len(items) + scope_skipped
    record["cumulative_bytes"] = cumulative_bytes
    record["trigger_file_path"] = trigger_file_path
    record["loaded"] = items
    if note is not None:
        record["note"] = note
    gone, by_host = list(dropped), list(host_loaded)
    if gone:
        record["dropped"] = gone
    if by_host:
        record["host_loaded"] = by_host
    return _tail(record, agent, ids)


def startup_record(
    *,
    session_id: str,
    root: str,
    cwd: str,
    agent: str | None,
    signals: Iterable[str],
    skipped: int,
    elapsed_ms: float,
    cumulative_bytes: int,
    loaded: Iterable[Record] = (),
    channel: str = "main",
    ts: str | None = None,
    ids: Mapping[str, Any] | None = None,
) -> Record:
    """The record of a channel's start. `cumulative_bytes`: what the channel holds once it started;
    `skipped`: how many files did not load; the other arguments as for `discovery_record`."""
    record = _head("startup", ts, session_id, channel, root)
    record["cwd"] = cwd
    # Placed here, not at the end as on the other kinds: the order startup records always had.
    if agent is not None:
        record["agent"] = agent
    record["signals"] = list(signals)
    record["skipped"] = skipped
    record["elapsed_ms"] = round(elapsed_ms, 3)
    record["cumulative_bytes"] = cumulative_bytes
    record["loaded"] = list(loaded)
    return _tail(record, None, ids)


def load_record(
    *,
    session_id: str,
    root: str,
    source: str,
    file_path: str,
    memory_type: str,
    load_reason: str,
    globs: Iterable[str] = (),
    channel: str = "main",
    trigger_file_path: str | None = None,
    parent_file_path: str | None = None,
    cwd: str | None = None,
    file_bytes: int | None = None,
    tokens: int | None = None,
    agent: str | None = None,
    ts: str | None = None,
    ids: Mapping[str, Any] | None = None,
) -> Record:
    """The record of a load the host made itself (`source`: who reported it, e.g. "claude-code");
    `file_bytes`/`tokens` only when they were measured, since the host's report carries no size."""
    record = _head("load", ts, session_id, channel, root)
    record["source"] = source
    record["file_path"] = file_path
    record["memory_type"] = memory_type
    record["load_reason"] = load_reason
    record["globs"] = list(globs)
    for key, value in (("trigger_file_path", trigger_file_path), ("parent_file_path", parent_file_path)):
        if value:
            record[key] = value
    if cwd:
        record["cwd"] = cwd
    if file_bytes is not None:
        record["bytes"] = file_bytes
    if tokens is not None:
        record["tokens"] = tokens
    return _tail(record, agent, ids)


def skill_record(
    *,
    session_id: str,
    root: str,
    skill: str,
    path: str | None = None,
    channel: str = "main",
    agent: str | None = None,
    ts: str | None = None,
    ids: Mapping[str, Any] | None = None,
) -> Record:
    """The record of one use of an Agent Skill; `path`: its SKILL.md relative to `root`, when known."""
    record = _head("skill", ts, session_id, channel, root)
    record["skill"] = skill
    if path is not None:
        record["path"] = path
    return _tail(record, agent, ids)


# -- one record, one line ----------------------------------------------------------------------------


def _dump(record: Mapping[str, Any]) -> bytes:
    # ensure_ascii=False keeps non-ASCII paths readable; json escapes every control character, so the
    # only b"\n" in the result is the one we add. A lone surrogate (a file name that is not UTF-8, a JSON
    # escape in hook input) can only sit inside a JSON string, where backslashreplace writes it as the
    # JSON escape `\udce9`: the line stays valid UTF-8 and reads back as the same string.
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
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
    minimal: Record = {k: record[k] for k in numbers if _small_number(record.get(k))}
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


# -- the writer --------------------------------------------------------------------------------------


def _is_day(text: str) -> bool:
    return (
        len(text) == 10
        and text[4] == text[7] == "-"
        and (text[:4] + text[5:7] + text[8:]).isdigit()
        and text.isascii()
    )


def day_file(events_dir: str | os.PathLike[str], record: Mapping[str, Any]) -> str:
    """The log file a record goes to: the UTC day of its `ts`, or today's when it has no usable one."""
    ts = record.get("ts")
    day = ts[:10] if isinstance(ts, str) and _is_day(ts[:10]) else stamp()[:10]
    return os.path.join(os.fspath(events_dir), day + ".jsonl")


def append_record(
    events_dir: str | os.PathLike[str], record: Mapping[str, Any], max_line_bytes: int = MAX_LINE_BYTES
) -> bool:
    """Append `record` to the log in `events_dir` (made, private, with a new state dir above it when
    missing). True when the whole line was written; False when the disk took only part of it (the
    fragment is then closed with a newline, so it spoils only itself). Raises OSError when the file
    cannot be written (RefusedFile for a link or anything but a regular file of this user), ValueError
    or TypeError when the record cannot be encoded."""
    line = encode_event(record, max_line_bytes)
    target = day_file(events_dir, record)
    try:
        fd = open_state_file(target, _APPEND_FLAGS)
    except FileNotFoundError:
        directory = os.fspath(events_dir)
        make_private_dir(os.path.dirname(os.path.abspath(directory)))  # the state dir, when it is new
        make_private_dir(directory)
        fd = open_state_file(target, _APPEND_FLAGS)
    try:
        written = os.write(fd, line)  # one write of a whole line with O_APPEND: never interleaved
        if 0 < written < len(line):
            os.write(fd, b"\n")
        return written == len(line)
    finally:
        os.close(fd)
