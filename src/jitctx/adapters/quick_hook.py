"""The hook's fast lane: a Claude Code tool event that certainly loads nothing, answered without the engine.

Most tool calls touch places whose rules were settled earlier in the session. `jitctx.discovery.quick`
proves that from the quick index the session store keeps; this module turns the proof into the hook's
answer (`{}`) and the same discovery record the engine would have logged (a miss still counts in the hit
rate's denominator). A PostToolUse or a PostToolBatch qualifies; anything unusual — another event, a
sub-agent, several paths, a missing index, a change on disk — returns False and the engine answers.

Imports: os, time, json (the caller's), the quick checker, and _signal once an index is read; nothing that
builds classes at import time.
"""

from __future__ import annotations

import json
import os
import time

from jitctx.discovery.quick import open_state_file, quick_file_name, quiet, read_state_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT


def try_quick(agent: str, raw: bytes, state_dir: str) -> bool:
    """True when the event was answered here (the caller prints `{}`); False: run the engine."""
    started = time.perf_counter()
    if agent != "claude-code" or (b'"PostToolUse"' not in raw and b'"PostToolBatch"' not in raw):
        return False
    try:
        payload = json.loads(raw)
        if not isinstance(payload, dict):
            return False
        event = payload.get("hook_event_name")
        if event == "PostToolUse":
            calls = [payload]
        elif event == "PostToolBatch" and isinstance(payload.get("tool_calls"), list):
            calls = payload["tool_calls"]
        else:
            return False
        if payload.get("agent_id"):
            return False  # a sub-agent's channel: the engine keeps its state apart
        session_id, cwd = payload.get("session_id"), payload.get("cwd")
        if not (isinstance(session_id, str) and session_id and isinstance(cwd, str)):
            return False
        from jitctx.touched import affected_paths

        paths: list[str] = []
        for call in calls:
            tool_name = call.get("tool_name") if isinstance(call, dict) else None
            tool_input = call.get("tool_input") if isinstance(call, dict) else None
            if not (isinstance(tool_name, str) and isinstance(tool_input, dict)):
                return False
            if tool_name == "Skill":
                return False  # the engine records the skill use (adapters.skill_use)
            paths.extend(affected_paths(tool_name, tool_input))
        if not paths:
            return os.path.isabs(cwd)  # nothing touched: the engine too answers {} and records nothing
        if len(set(paths)) != 1:
            return False  # several paths: the engine merges them into one record
        key = f"{agent}.{session_id}"
        index: dict[str, Any] = json.loads(
            read_state_file(os.path.join(state_dir, "sessions", quick_file_name(key)))
        )
        skipped = _within(QUIET_BUDGET_S, quiet, index, cwd, paths[0])
        if skipped is None:
            return False
        from jitctx.adapters.hook_ids import hook_ids

        _record(state_dir, index, session_id, cwd, paths[0], skipped, agent, started, hook_ids(payload))
        return True
    except (OSError, ValueError, RecursionError, TimeoutError):
        return False


# The fast lane answers in milliseconds or not at all. The index's regexes keep to a grammar with no
# exponential backtracking (`quick.safe_regex`); a polynomial one (`.*.*.*.*x` on a long path) could still
# take long, so the check runs under a wall-clock alarm and the engine decides when it rings.
QUIET_BUDGET_S = 0.25


def _within(seconds: float, work: Any, *args: Any) -> Any:
    """`work(*args)`, or TimeoutError once `seconds` have passed (regex matching checks for signals)."""
    # _signal, not signal: the same functions, without the enum classes signal builds at import.
    import _signal as signal  # type: ignore[import-not-found]  # no stubs; the same API as signal

    def ring(number: int, frame: Any) -> None:
        raise TimeoutError("the fast lane ran out of time")

    try:
        previous = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # not the main thread: no alarm to be had, so no fast lane either
        raise TimeoutError("no alarm outside the main thread") from None
    earlier = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, *earlier)  # (0, 0) disarms; an earlier alarm is re-armed
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def _record(
    state_dir: str, index: dict[str, Any], session_id: str, cwd: str, path: str, skipped: int, agent: str,
    started: float, ids: dict[str, Any],
) -> None:  # fmt: skip
    """The record of a miss, field for field as `telemetry.events.event_from_discovery` writes it."""
    now = time.time()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
    record = {
        "v": 1,
        "kind": "discovery",
        "ts": stamp,
        "session_id": session_id,
        "channel": "main",
        "root": index["root"],
        "hit": False,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
        "scope_skipped": skipped,
        "rules_scanned": skipped,
        "cumulative_bytes": index["held_bytes"],
        "trigger_file_path": os.path.normpath(os.path.join(cwd, path)),
        "loaded": [],
        "agent": agent,
        **ids,
    }
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    directory = os.path.join(state_dir, "events")
    target = os.path.join(directory, stamp[:10] + ".jsonl")
    try:
        fd = open_state_file(target, _APPEND)
    except FileNotFoundError:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd = open_state_file(target, _APPEND)
    try:
        os.write(fd, line)  # one write of a whole line with O_APPEND: never interleaved
    finally:
        os.close(fd)
