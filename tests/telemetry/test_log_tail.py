"""Reading the event log backwards (`telemetry.log_tail`): one session's records newest first, across
blocks and day files, skipping what the forward reader skips, and within a bound on what it reads."""

from __future__ import annotations

import json
import os
from pathlib import Path

from jitctx.telemetry import log_tail
from jitctx.telemetry.log_reader import read_records
from jitctx.telemetry.records import append_record, discovery_record


def record(session: str, ts: str, trigger: str = "/p/a") -> dict[str, object]:
    return discovery_record(
        session_id=session, root="/p", trigger_file_path=trigger, hit=False, elapsed_ms=1.0,
        scope_skipped=0, cumulative_bytes=0, agent="claude-code", ts=ts,
    )  # fmt: skip


def test_one_sessions_records_newest_first_across_days_and_blocks(tmp_path: Path) -> None:
    events = tmp_path / "events"
    long = "/p/" + "x" * 5000  # records longer than nothing: many blocks of 64 KiB
    for day in ("2026-08-07", "2026-08-08"):
        for n in range(40):
            for session in ("s-1", "s-2"):
                append_record(events, record(session, f"{day}T12:00:{n:02d}.000Z", f"{long}{n}"))
    got = [r["ts"] for r in log_tail.session_records(str(events), "s-1")]
    forward = [r["ts"] for r in read_records(events, session="s-1", exact=True)]
    assert got == forward[::-1] and len(got) == 80


def test_lines_the_forward_reader_skips_are_skipped(tmp_path: Path) -> None:
    events = tmp_path / "events"
    append_record(events, record("s-1", "2026-08-08T12:00:00.000Z"))
    with open(events / "2026-08-08.jsonl", "ab") as handle:
        handle.write(b'{"v":1,"kind":"disc "s-1"\n')  # cut short
        handle.write(b'{"v":2,"kind":"discovery","ts":"2026-08-08T12:00:01.000Z","session_id":"s-1"}\n')
        handle.write(b'{"v":1,"kind":"discovery","ts":"yesterday","session_id":"s-1"}\n')
        handle.write(b'\xff"s-1"\n')
        handle.write(b'["s-1"]\n')
    assert [r["ts"] for r in log_tail.session_records(str(events), "s-1")] == ["2026-08-08T12:00:00.000Z"]


def test_a_session_id_that_begins_another_is_not_it(tmp_path: Path) -> None:
    events = tmp_path / "events"
    append_record(events, record("s-10", "2026-08-08T12:00:00.000Z"))
    append_record(events, record("s-1", "2026-08-08T12:00:01.000Z"))
    assert [r["session_id"] for r in log_tail.session_records(str(events), "s-1")] == ["s-1"]


def test_the_bound_stops_the_reading(tmp_path: Path) -> None:
    events = tmp_path / "events"
    append_record(events, record("s-1", "2026-08-07T12:00:00.000Z"))
    for n in range(2000):
        append_record(events, record("s-2", f"2026-08-08T12:{n // 60:02d}:{n % 60:02d}.000Z"))
    assert list(log_tail.session_records(str(events), "s-1", max_bytes=64 * 1024)) == []
    assert len(list(log_tail.session_records(str(events), "s-1"))) == 1


def test_newest_record_and_what_is_not_a_log(tmp_path: Path) -> None:
    events = tmp_path / "events"
    assert log_tail.newest_record(str(events)) is None
    append_record(events, record("s-1", "2026-08-07T12:00:00.000Z"))
    append_record(events, record("s-2", "2026-08-08T12:00:00.000Z"))
    (events / "notes.jsonl").write_text(json.dumps(record("s-3", "2026-08-09T12:00:00.000Z")) + "\n")
    os.mkfifo(events / "2026-08-10.jsonl")  # a FIFO named like a day file is never waited on
    newest = log_tail.newest_record(str(events))
    assert newest is not None and newest["session_id"] == "s-2"
