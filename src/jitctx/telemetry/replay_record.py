"""`jitctx replay --record`: a replayed transcript's startup and discoveries written to the event log as
records (session id `replay:<id>`, `source: "replay"`), timed as the transcript says, a write's record
with its `writes` as the hook's (whether the written file's rules were in context before it, as
replayed); and the check that keeps a transcript from being recorded twice, which would count it twice
in `stats`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from jitctx.model import Discovery
from jitctx.telemetry.events import (
    event_from_discovery,
    event_from_startup,
    format_ts,
    parse_ts,
    session_held_bytes,
)
from jitctx.telemetry.log_reader import ReadReport, Span, make_filter, read_span

if TYPE_CHECKING:
    from jitctx.discovery.session import Session
    from jitctx.model import Startup
    from jitctx.telemetry.replay import Observer, ReplayedWrite
    from jitctx.telemetry.store import EventStore
    from jitctx.telemetry.transcript import Transcript, Turn


def already_recorded(store: EventStore, transcript: Transcript) -> bool:
    """Whether the log holds this transcript's replay already (recording twice would count it twice):
    a startup record of its session id at the time of its first turn. A transcript without times is
    recorded at the time of each replay, so it is never taken for one recorded before."""
    first = next((turn.timestamp for turn in transcript.turns if turn.timestamp), None)
    try:
        stamp = format_ts(parse_ts(first)) if first else None
    except ValueError:
        stamp = None
    if stamp is None:
        return False
    session_id = f"replay:{transcript.session_id}"
    path = store.directory / f"{stamp[:10]}.jsonl"
    try:
        size = path.stat().st_size
    except OSError:
        return False
    records = read_span(Span(str(path), 0, size), make_filter(session=session_id, exact=True), ReadReport())
    return any(record["kind"] == "startup" and record["ts"] == stamp for record in records)


def recorder(store: EventStore, transcript: Transcript) -> Observer:
    """Write the startup and each discovery as telemetry events, timed as the transcript says."""
    first = next((turn.timestamp for turn in transcript.turns if turn.timestamp), None)

    def when(text: str | None) -> datetime | None:
        try:
            return parse_ts(text) if text else None
        except ValueError:
            return None

    def observe(
        session: Session, result: Startup | Discovery, turn: Turn | None, writes: tuple[ReplayedWrite, ...]
    ) -> None:
        sid, stamp = session.session_id, when(turn.timestamp if turn is not None else first)
        agent = session.project.profile.name
        if isinstance(result, Discovery):
            event = event_from_discovery(
                result,
                session_id=sid,
                root=session.project.root,
                cumulative_bytes=session_held_bytes(session, result.channel),
                cwd=session.cwd,
                ts=stamp,
                agent=agent,
            )
            if writes:
                event["writes"] = [
                    {
                        "path": w.path,
                        "rules_before": w.rules_before,
                        **({"late": list(w.late)} if w.late else {}),
                    }
                    for w in writes
                ]
        else:
            held = session_held_bytes(session)
            event = event_from_startup(result, session_id=sid, cumulative_bytes=held, ts=stamp, agent=agent)
        store.append({**event, "source": "replay"})

    return observe
