"""What is in a session's context now: the instruction files the model of a session's main channel holds,
each with its size and when, why and by whom it arrived. `jitctx statusline` shows it in one line after
every message, `jitctx log --session` as a table.

*Which* files: those the session's saved state holds for its main channel (`<state dir>/sessions/`, the
engine's own account, see `discovery.store`): what jitctx sent and what it left to the client, which
loads it itself. Every change of what a context holds is applied there and nowhere else: a fresh start
or a /clear starts the state anew, a compaction keeps every file (the client reloads its start files,
jitctx sends the rest again), an edited file replaces its old text, a deleted one leaves. So the list is
read there, not rebuilt from the log.

*When, why, by whom*: the newest record of the session that names the file. A startup or discovery
record's `loaded[]` is what jitctx sent; a `load` record (Claude Code's InstructionsLoaded) or a
discovery's `host_loaded[]` is what the client loaded itself. The log is read backwards from its end
(`telemetry.log_tail`) and only until every file's arrival is known, or with `latest_only` until the
newest arrival is. A file no record names (a client's own start file that it reports to nobody) has no
arrival: its reason is the state's.

The state's layout is `discovery.state.channels_to_json`'s. It is read here with json alone: the status
line runs after every message, and the state module's imports (dataclasses, the model) would cost it
more than all the rest; tests/reports/test_in_context.py holds the two readers together.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.discovery.quick import state_file_name
from jitctx.errors import JitctxError
from jitctx.safe_open import read_state_file
from jitctx.telemetry.log_tail import session_records

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

# discovery.state.READABLE_VERSIONS (a test keeps them equal)
READABLE_STATE_VERSIONS = (2, 3)
JITCTX, CLIENT = "jitctx", "client"  # who brought a file
# How far back the status line reads the log for the newest arrival: a few thousand records of every
# session together; beyond that its reason is the state's.
STATUS_LINE_LOG_BYTES = 4 * 1024 * 1024


class StateUnreadable(JitctxError):
    """The session's state file exists but cannot be read as one (the engine would start afresh)."""


class Arrival(NamedTuple):
    """When, why and by whom a file last reached the context, as the event log recorded it."""

    ts: str
    reason: str | None  # the load reason (session_start, nested_traversal, path_glob_match, include, compact)
    by: str  # JITCTX or CLIENT
    trigger: str | None = None  # the touched path (absolute), for a load a touch brought
    parent: str | None = None  # the importing file (absolute), for an include
    wrote: bool = False  # the touch was a write of `trigger`
    held: bool = False  # sent in the reason of a write held back before it ran (DESIGN §2.11)
    after: str | None = None  # "compact" or "resume": a start record sent it again


class HeldFile(NamedTuple):
    """One file of the context, as the session state holds it."""

    file_path: str  # absolute
    path: str  # as shown: relative to the project root, else absolute
    bytes: int  # what its text weighs in the context (its body; its size on disk when not known)
    reason: str  # why it first loaded (the state's reason)
    tier: str
    expected: bool  # left to the client, which has not shown loading it yet
    arrival: Arrival | None = None


class InContext(NamedTuple):
    """The files a session's main channel holds now, in the order they loaded."""

    session_id: str
    key: str  # its key in the session store (`claude-code.<id>`)
    root: str
    files: tuple[HeldFile, ...]
    compacted_at: str | None  # when the newest compaction the log shows happened (its first record)
    latest_path: str | None  # the file whose arrival the log shows last, when it shows one

    @property
    def bytes_carried(self) -> int:
        return sum(file.bytes for file in self.files)

    @property
    def latest(self) -> HeldFile | None:
        """The file that arrived last: by the log, else the last one the state loaded."""
        found = [file for file in self.files if file.file_path == self.latest_path]
        return found[0] if found else (self.files[-1] if self.files else None)


# -- the session state ---------------------------------------------------------------------------------


def state_path(state_dir: str, key: str) -> str:
    return os.path.join(state_dir, "sessions", state_file_name(key))


def find_key(state_dir: str, session_id: str, agents: Iterable[str]) -> str | None:
    """The store key of `session_id` for the first of `agents` whose session it is (`AGENT.<id>`, the
    hook's key), else the id itself (`jitctx touch --session ID`), when a state is saved under it."""
    for key in [*(f"{agent}.{session_id}" for agent in agents), session_id]:
        if os.path.lexists(state_path(state_dir, key)):
            return key
    return None


def read_held(state_dir: str, key: str) -> tuple[str, list[HeldFile]] | None:
    """The project root and the files the main channel holds, from the session's saved state; None when
    there is none. StateUnreadable for a state the engine would set aside."""
    try:
        raw = read_state_file(state_path(state_dir, key))
    except FileNotFoundError:
        return None
    except OSError as exc:  # a link, a FIFO, another user's file, a huge file
        raise StateUnreadable(str(exc)) from None
    try:
        data = json.loads(raw)
        if data.get("version") not in READABLE_STATE_VERSIONS:
            raise StateUnreadable(f"{key}: a state of version {data.get('version')!r}")
        root = str(data.get("root") or "")
        main = data["channels"].get("main") or {"loaded": []}
        expected = main.get("expected") or {}
        held = []
        for path, display, _mtime, size, reason, tier, _directory, *rest in main["loaded"]:
            body = rest[0] if rest else -1
            carried = body if isinstance(body, int) and body >= 0 else int(size)
            held.append(HeldFile(str(path), str(display), carried, str(reason), str(tier), path in expected))
    except StateUnreadable:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise StateUnreadable(f"{key}: {exc.__class__.__name__}") from None
    return root, held


# -- arrivals, from the log ----------------------------------------------------------------------------


def arrivals_of(record: dict[str, Any]) -> list[tuple[str, Arrival]]:
    """(file path, arrival) for every file one record says reached the main channel, in the order they
    did: the client's own loads of a touch before what jitctx sent after it."""
    if record.get("channel", "main") != "main" or record.get("agent_id") is not None:
        return []
    kind, ts = record["kind"], record["ts"]
    if kind == "load":
        path = record.get("file_path")
        if not isinstance(path, str):
            return []
        reason, trigger = _text(record.get("load_reason")), _text(record.get("trigger_file_path"))
        return [(path, Arrival(ts, reason, CLIENT, trigger, _text(record.get("parent_file_path"))))]
    if kind not in ("startup", "discovery"):
        return []
    found: list[tuple[str, Arrival]] = []
    signals = record.get("signals")
    after = next((s for s in ("compact", "resume") if isinstance(signals, list) and s in signals), None)
    trigger = _text(record.get("trigger_file_path")) if kind == "discovery" else None
    written = _written(record)
    host = record.get("host_loaded")
    for path in host if isinstance(host, list) else []:
        if isinstance(path, str):
            wrote = trigger is not None and _shown(trigger, record) in written
            found.append((path, Arrival(ts, None, CLIENT, trigger, wrote=wrote)))
    items = record.get("loaded")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("file_path"), str):
            continue
        touched = _text(item.get("trigger_file_path")) or trigger
        wrote = touched is not None and _shown(touched, record) in written
        arrival = Arrival(
            ts, _text(item.get("load_reason")), JITCTX, touched, _text(item.get("parent_file_path")), wrote,
            record.get("held") is True, after,
        )  # fmt: skip
        found.append((item["file_path"], arrival))
    return found


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _written(record: dict[str, Any]) -> set[str]:
    writes = record.get("writes")
    listed = writes if isinstance(writes, list) else []
    return {w["path"] for w in listed if isinstance(w, dict) and isinstance(w.get("path"), str)}


def _shown(path: str, record: dict[str, Any]) -> str:
    return shown_path(path, str(record.get("root") or ""))


def shown_path(path: str, root: str) -> str:
    """An absolute path as jitctx shows it: relative to the project root when inside it."""
    if root and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    return path


def _fresh_start(record: dict[str, Any]) -> bool:
    """A main channel's start record of a new context (not a compaction's or a resume's)."""
    if record["kind"] != "startup" or record.get("channel", "main") != "main":
        return False
    signals = record.get("signals")
    return not (isinstance(signals, list) and ("compact" in signals or "resume" in signals))


def _compaction(record: dict[str, Any]) -> bool:
    if record.get("channel", "main") != "main":
        return False
    if record["kind"] == "load":
        return record.get("load_reason") == "compact"
    signals = record.get("signals")
    return record["kind"] == "startup" and isinstance(signals, list) and "compact" in signals


def read_arrivals(
    records: Iterable[dict[str, Any]], wanted: set[str], agent: str | None, *, latest_only: bool = False
) -> tuple[dict[str, Arrival], str | None]:
    """The newest arrival of each file of `wanted` in `records` (one session's, newest first), newest
    first, and the time of the newest compaction among them. Stops when every file is found, or with
    `latest_only` at the first one; and at the context's start: before it (past the client's own start
    loads reported around it), records belong to an earlier context."""
    found: dict[str, Arrival] = {}
    compacted: str | None = None
    compacting = True  # still in the newest compaction's records (jitctx's and the client's, in any order)
    started = False
    for record in records:
        if agent is not None and (record.get("agent") or record.get("source")) not in (agent, None):
            continue
        if started and not (record["kind"] == "load" and record.get("load_reason") == "session_start"):
            break
        if _compaction(record):
            if compacting:
                compacted = record["ts"]  # its first record is when it happened
        elif compacted is not None and record.get("channel", "main") == "main":
            compacting = False
        for path, arrival in reversed(arrivals_of(record)):
            if path in wanted and path not in found:
                found[path] = arrival
        if (latest_only and found) or len(found) == len(wanted):
            break
        started = started or _fresh_start(record)
    return found, compacted


# -- the whole ------------------------------------------------------------------------------------------


def in_context(
    state_dir: str,
    session_id: str,
    agents: Sequence[str],
    *,
    latest_only: bool = False,
    max_log_bytes: int | None = None,
) -> InContext | None:
    """What session `session_id` (of the first of `agents` with a saved state for it) holds now; None
    when no state is saved for it. `latest_only` looks in the log for the newest arrival only, reading at
    most `max_log_bytes` of it (None: as much as it takes). StateUnreadable as `read_held`."""
    key = find_key(state_dir, session_id, agents)
    if key is None:
        return None
    held = read_held(state_dir, key)
    if held is None:
        return None
    root, files = held
    agent = key[: -len(session_id) - 1] if key != session_id else None
    records = session_records(os.path.join(state_dir, "events"), session_id, max_log_bytes)
    arrivals, compacted = read_arrivals(records, {f.file_path for f in files}, agent, latest_only=latest_only)
    dated = tuple(file._replace(arrival=arrivals.get(file.file_path)) for file in files)
    return InContext(session_id, key, root, dated, compacted, next(iter(arrivals), None))


# -- how it reads ---------------------------------------------------------------------------------------

_REASONS = {
    "session_start": "session start",
    "compact": "after compaction",
    "nested_traversal": "nested file of a touched path",
    "path_glob_match": "scope matched a touched path",
    "include": "imported",
}


def why(file: HeldFile, root: str) -> str:
    """Why the file is in the context, in a few words: `touched src/ui/Footer.tsx`, `session start`."""
    arrival = file.arrival
    if arrival is None:
        return _REASONS.get(file.reason, file.reason)
    if arrival.after == "compact" or arrival.reason == "compact":
        return "after compaction"
    if arrival.after == "resume":
        return "after resume"
    if arrival.reason == "include" and arrival.parent:
        return f"imported by {shown_path(arrival.parent, root)}"
    if arrival.trigger:
        touched = shown_path(arrival.trigger, root)
        if arrival.held:
            return f"before writing {touched}"
        return f"{'wrote' if arrival.wrote else 'touched'} {touched}"
    reason = arrival.reason or file.reason
    return _REASONS.get(reason, reason)


def human_bytes(value: int) -> str:
    """`412 B`, `12.3 KiB`, `1.2 MiB`: sizes as jitctx's budgets count them (KiB: 1024 bytes)."""
    if value < 1024:
        return f"{value} B"
    if value < 1024 * 1024:
        return f"{value / 1024:.1f} KiB"
    return f"{value / (1024 * 1024):.1f} MiB"


def file_json(file: HeldFile, root: str) -> dict[str, Any]:
    arrival = file.arrival
    return {
        "path": file.path,
        "file_path": file.file_path,
        "bytes": file.bytes,
        "tier": file.tier,
        "reason": (arrival.reason if arrival is not None else None) or file.reason,
        "why": why(file, root),
        "by": arrival.by if arrival is not None else None,
        "ts": arrival.ts if arrival is not None else None,
        "trigger": shown_path(arrival.trigger, root) if arrival is not None and arrival.trigger else None,
        "expected": file.expected,
    }


def context_json(context: InContext | None, session_id: str | None, problem: str | None) -> dict[str, Any]:
    """The JSON form both commands print (`statusline --json`, `log --session --json`'s `in_context`):
    the list, or an empty one with `problem` saying why there is none."""
    if context is None:
        return {"session_id": session_id, "key": None, "root": None, "count": 0, "bytes_carried": 0,
                "compacted_at": None, "latest": None, "files": [], "problem": problem}  # fmt: skip
    latest = context.latest
    return {
        "session_id": context.session_id,
        "key": context.key,
        "root": context.root,
        "count": len(context.files),
        "bytes_carried": context.bytes_carried,
        "compacted_at": context.compacted_at,
        "latest": None if latest is None else file_json(latest, context.root),
        "files": [file_json(file, context.root) for file in context.files],
        "problem": problem,
    }


def context_rows(context: InContext) -> list[list[str]]:
    """The table rows of `log --session`: file, bytes, arrived (UTC), why, brought by."""
    rows = []
    for file in context.files:
        arrival = file.arrival
        by = arrival.by if arrival is not None else "-"
        if file.expected:
            by += " (expected)"
        when = arrival.ts[:19].replace("T", " ") if arrival is not None else "-"
        rows.append([file.path, f"{file.bytes:,}", when, why(file, context.root), by])
    return rows
