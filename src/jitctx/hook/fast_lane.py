"""The hook's fast lane: a tool event that certainly loads nothing, answered without the engine.

Most tool calls touch places whose rules were settled earlier in the session. `jitctx.discovery.quick`
proves that from the quick index the session store keeps; this module turns the proof into the hook's
answer (`{}`) and the same discovery record the engine would have logged (a miss still counts in the hit
rate's denominator). A tool event of a client that allows it (`HookDialect.fast_lane`) qualifies; anything
unusual — another event, a sub-agent, several paths, a missing index, a change on disk — returns False
and the engine answers.

It imports what a quick answer needs and no more by its nature: no engine, no session, no project
reader (tests/hook/test_hook_import_budget.py).
"""

from __future__ import annotations

import json
import os
import signal
import time
from typing import TYPE_CHECKING

from jitctx.clients import all_clients
from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.hook.compaction_mark import compaction_due, mark_compaction
from jitctx.hook.event import BEFORE_TOOL, COMPACT, TOOLS, parse_raw
from jitctx.hook.ids import hook_ids
from jitctx.hook.touches import call_touches, held_back, write_targets
from jitctx.paths import is_inside, relative_posix
from jitctx.safe_open import read_state_file
from jitctx.telemetry.records import append_record, discovery_record

if TYPE_CHECKING:
    from typing import Any

    from jitctx.clients.base import HookDialect
    from jitctx.hook.event import HookEvent


def answer_quickly(client: HookDialect, event: HookEvent, state_dir: str) -> bool:
    """True when the event was answered here (nothing loads; its record is written); False: the engine
    answers. Reads the event the pipeline parsed, as the engine does."""
    started = time.perf_counter()

    if event.channel != "main":
        return False  # a sub-agent's channel: the engine keeps its state apart
    sessions = os.path.join(state_dir, "sessions")
    # `session_place.key_of`'s form, without its imports (pathlib, the profiles): not on this budget
    key = f"{client.name}.{event.session_id}"
    if event.kind == BEFORE_TOOL:
        if compaction_due(client, sessions, key, event.transcript):
            return False  # the model holds none of the session's rules: the engine decides the hold
        return _quiet_write(client, event, state_dir)
    if event.kind == COMPACT:
        # Answered here: a client may fire it before every turn. Only a session that exists is marked.
        mark_compaction(sessions, key, event.transcript)
        return True
    if event.kind != TOOLS:
        return False
    if compaction_due(client, sessions, key, event.transcript):
        return False  # this event carries what the session held before the compaction

    paths: list[str] = []
    wrote = False
    tools, writes = client.tools(), client.writes()
    for call in event.calls:
        tool_name, tool_input = call["tool_name"], call["tool_input"]
        if tool_name in client.recorded_tools or held_back(call):
            return False  # the engine records that use (a skill), or leaves out a held-back call
        affected, _, written = call_touches(tool_name, tool_input, tools, writes)
        paths.extend(affected)
        wrote = wrote or bool(written)
    if not paths:
        return True  # nothing touched: the engine too answers {} and records nothing
    if len(set(paths)) != 1:
        return False  # several paths: the engine merges them into one record
    try:
        return _quiet_touch(client, event, state_dir, key, paths[0], started, wrote)
    except (OSError, ValueError, RecursionError, TimeoutError):
        return False  # no index, a damaged one, a regex out of time: the engine decides


def _quiet_write(client: HookDialect, event: HookEvent, state_dir: str) -> bool:
    """A call about to run that certainly needs no hold: it writes nothing, or nothing it writes would
    bring an instruction file (the quick index's proof, as for a touch). No record: nothing was decided
    that a discovery after the call will not record."""

    targets = write_targets(client.tools(), client.writes(), event.calls, event.cwd)
    if not targets:
        return True
    key = f"{client.name}.{event.session_id}"
    try:
        index: dict[str, Any] = json.loads(
            read_state_file(os.path.join(state_dir, "sessions", quick_file_name(key)))
        )
        return all(
            _within(QUIET_BUDGET_S, quiet, index, event.cwd, path, True) is not None for path in targets
        )
    except (OSError, ValueError, RecursionError, TimeoutError):
        return False  # no index, a damaged one, a regex out of time: the engine decides


def _quiet_touch(
    client: HookDialect, event: HookEvent, state_dir: str, key: str, path: str, started: float, wrote: bool
) -> bool:
    """The quick index's proof that touching `path` loads nothing, and then the record of that miss."""
    index: dict[str, Any] = json.loads(
        read_state_file(os.path.join(state_dir, "sessions", quick_file_name(key)))
    )
    skipped = _within(QUIET_BUDGET_S, quiet, index, event.cwd, path)
    if skipped is None:
        return False

    ids = hook_ids(event.payload)
    _record(state_dir, index, event.session_id, event.cwd, path, skipped, client.name, started, ids, wrote)
    return True


# The fast lane answers in milliseconds or not at all. The index's regexes keep to a grammar with no
# exponential backtracking (`quick_regex.safe_regex`); a polynomial one (`.*.*.*.*x` on a long path)
# could still take long, so the check runs under a wall-clock alarm and the engine decides when it rings.
QUIET_BUDGET_S = 0.25


def _within(seconds: float, work: Any, *args: Any) -> Any:
    """`work(*args)`, or TimeoutError once `seconds` have passed (regex matching checks for signals)."""

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
    started: float, ids: dict[str, Any], wrote: bool = False,
) -> None:  # fmt: skip
    """The record of a miss, from the one record builder the engine's records come from too; a write
    that brings nothing had its rules in context before it (`writes`, as the engine records)."""

    record = discovery_record(
        session_id=session_id,
        root=index["root"],
        trigger_file_path=os.path.normpath(os.path.join(cwd, path)),
        hit=False,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        scope_skipped=skipped,
        rules_scanned=skipped,
        cumulative_bytes=index["held_bytes"],
        agent=agent,
        ids=ids,
    )
    if wrote:
        real = os.path.realpath(os.path.normpath(os.path.join(cwd, path)))
        root = index["root"]
        shown = (relative_posix(real, root) or ".") if is_inside(real, root) else real
        record["writes"] = [{"path": shown, "rules_before": True}]
    append_record(os.path.join(state_dir, "events"), record)


def try_quick(client: HookDialect | str, raw: bytes, state_dir: str) -> bool:
    """Parse `raw` as the pipeline does and ask the fast lane; False for anything it cannot parse."""

    if isinstance(client, str):
        client = all_clients.dialect(client)
    if not client.fast_lane:
        return False
    try:
        event = parse_raw(client, raw)
    except Exception:
        return False
    return answer_quickly(client, event, state_dir)
