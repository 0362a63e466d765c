"""The JSONL store: whole lines under concurrency, a broken directory that costs nothing, tolerant reading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.errors import UsageError
from jitctx.telemetry.events import format_ts
from jitctx.telemetry.log_reader import (
    ReadReport,
    Span,
    event_files,
    make_filter,
    parse_since,
    plan_spans,
    read_raw,
    read_records,
    read_span,
)
from jitctx.telemetry.store import EventStore, TelemetryWarning, clear_events

T0 = datetime(2026, 8, 8, 12, 0, 0, tzinfo=UTC)


def record(i: int, *, session: str = "s1", at: datetime = T0, **extra: Any) -> dict[str, Any]:
    return {
        "v": 1,
        "kind": "discovery",
        "ts": format_ts(at + timedelta(seconds=i)),
        "session_id": session,
        "channel": "main",
        "root": "/p",
        "hit": False,
        "elapsed_ms": 0.5,
        "scope_skipped": 0,
        "rules_scanned": 0,
        "cumulative_bytes": 10,
        "trigger_file_path": f"/p/f{i}.py",
        "loaded": [],
        **extra,
    }


def test_round_trip_into_day_files(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "events")
    for i in range(3):
        assert store.append(record(i, at=T0 + timedelta(days=i)))
    assert [p.name for p in event_files(tmp_path / "events")] == [
        "2026-08-08.jsonl",
        "2026-08-09.jsonl",
        "2026-08-10.jsonl",
    ]
    report = ReadReport()
    got = list(read_records(tmp_path / "events", report=report))
    assert [r["trigger_file_path"] for r in got] == ["/p/f0.py", "/p/f1.py", "/p/f2.py"]
    assert (report.files, report.lines, report.records, report.corrupt) == (3, 3, 3, 0)
    if os.name == "posix":
        assert (tmp_path / "events").stat().st_mode & 0o777 == 0o700
        assert (tmp_path / "events/2026-08-08.jsonl").stat().st_mode & 0o777 == 0o600


WRITER = textwrap.dedent(
    """
    import sys
    from jitctx.telemetry.store import EventStore
    writer, count, directory = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    store = EventStore(directory)
    pad = "x" * (writer * 3000)  # lines from 100 bytes to 45 KiB: big writes are where tearing shows
    for seq in range(count):
        event = {"v": 1, "kind": "discovery", "ts": "2026-08-08T12:00:00.000Z", "session_id": f"w{writer}",
                 "channel": "main", "root": "/p", "hit": False, "elapsed_ms": 0.1, "scope_skipped": 0,
                 "rules_scanned": 0, "cumulative_bytes": seq, "trigger_file_path": "/p/" + pad, "loaded": []}
        assert store.append(event)
    """
)


def test_sixteen_writer_processes_never_tear_a_line(tmp_path: Path) -> None:
    directory = tmp_path / "events"
    writers, count = 16, 1000
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(w), str(count), str(directory)])
        for w in range(writers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * writers
    lines = (directory / "2026-08-08.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""
    seen = {(rec["session_id"], rec["cumulative_bytes"]) for rec in map(json.loads, lines[:-1])}
    assert len(lines) - 1 == writers * count
    assert seen == {(f"w{w}", seq) for w in range(writers) for seq in range(count)}


def test_unwritable_directory_drops_with_one_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = EventStore(blocker / "events")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.append(record(0)) is False
        assert store.append(record(1)) is False
    assert len(caught) == 1 and issubclass(caught[0].category, TelemetryWarning)
    assert str(blocker) in str(caught[0].message)
    assert store.dropped == 2


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_directory_drops(tmp_path: Path) -> None:
    directory = tmp_path / "events"
    directory.mkdir(mode=0o500)
    messages: list[str] = []
    assert EventStore(directory, warn=messages.append).append(record(0)) is False
    assert len(messages) == 1


def test_unserialisable_event_is_dropped_not_raised(tmp_path: Path) -> None:
    messages: list[str] = []
    store = EventStore(tmp_path, warn=messages.append)
    assert store.append(record(0, weird=object())) is False
    assert store.append(record(1)) is True
    assert len(messages) == 1


@pytest.mark.parametrize("name", ["/p/caf\udce9.tsx", "/p/\ud800.ts", "/p/café.tsx"])
def test_a_name_that_is_not_utf8_is_kept_not_dropped(tmp_path: Path, name: str) -> None:
    # os.fsdecode turns the byte \xe9 of a Latin-1 file name into the lone surrogate \udce9; a JSON escape
    # in hook input can carry any lone surrogate. Both are written as JSON escapes and read back as such.
    messages: list[str] = []
    store = EventStore(tmp_path, warn=messages.append)
    assert store.append(record(0, trigger_file_path=name)) is True
    assert messages == []
    line = next(tmp_path.glob("*.jsonl")).read_bytes()
    line.decode("utf-8")  # still valid UTF-8
    assert [r["trigger_file_path"] for r in read_records(tmp_path)] == [name]


def test_too_small_cap_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least"):
        EventStore(tmp_path, max_line_bytes=100)


# -- reading -------------------------------------------------------------------------------------------


def write_lines(path: Path, lines: list[str | bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines))


def test_corrupt_and_unknown_lines_are_counted_not_raised(tmp_path: Path) -> None:
    good = json.dumps(record(0))
    write_lines(
        tmp_path / "2026-08-08.jsonl",
        [
            good,
            '{"v":1,"kind":"discovery"',
            "",
            "garbage",
            b"\xff\xfe{}",
            json.dumps({**record(1), "v": 9}),
            json.dumps({**record(2), "kind": "ping"}),
            "[]",
            good,
        ],
    )
    report = ReadReport()
    got = list(read_records(tmp_path, report=report))
    assert len(got) == 2
    assert (report.lines, report.corrupt, report.unknown_version, report.unknown_kind) == (8, 4, 1, 1)
    assert report.corrupt_at[0] == f"2026-08-08.jsonl@{len(good) + 1}"


def test_last_line_without_newline_is_read(tmp_path: Path) -> None:
    (tmp_path / "2026-08-08.jsonl").write_text(json.dumps(record(0)) + "\n" + json.dumps(record(1)))
    assert len(list(read_records(tmp_path))) == 2


def test_missing_directory_reads_as_empty(tmp_path: Path) -> None:
    report = ReadReport()
    assert list(read_records(tmp_path / "nope", report=report)) == [] and report.files == 0


def test_filters(tmp_path: Path) -> None:
    store = EventStore(tmp_path)
    for i, sid in enumerate(["alpha-1", "beta-2", "alpha-3"]):
        store.append(record(i, session=sid, at=T0 + timedelta(days=i)))

    def sessions(**kw: Any) -> list[str]:
        return [r["session_id"] for r in read_records(tmp_path, **kw)]

    assert sessions(since=T0 + timedelta(days=1)) == ["beta-2", "alpha-3"]
    assert sessions(session="alpha") == ["alpha-1", "alpha-3"]
    assert sessions(session="beta-2", since=T0 + timedelta(days=2)) == []
    report = ReadReport()
    list(read_records(tmp_path, since=T0 + timedelta(days=2), report=report))
    assert report.files == 1  # day files before --since are not even opened


def test_raw_keeps_the_stored_line(tmp_path: Path) -> None:
    line = '{"v": 1, "kind": "startup", "ts": "2026-08-08T00:00:00.000Z", "session_id": "x", "extra": "é"}'
    write_lines(tmp_path / "mine.jsonl", [line])
    assert [raw for raw, _ in read_raw(tmp_path)] == [line]


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 40), min_size=1, max_size=30),
    parts=st.integers(1, 7),
    junk=st.lists(st.integers(0, 29), max_size=3),
)
def test_spans_read_every_line_exactly_once(
    tmp_path_factory: pytest.TempPathFactory, sizes: list[int], parts: int, junk: list[int]
) -> None:
    directory = tmp_path_factory.mktemp("spans")
    lines: list[str | bytes] = [json.dumps(record(i, pad="é" * n)) for i, n in enumerate(sizes)]
    for index in junk:
        if index < len(lines):
            lines[index] = "not json"
    write_lines(directory / "2026-08-08.jsonl", lines[: len(lines) // 2])
    write_lines(directory / "2026-08-09.jsonl", lines[len(lines) // 2 :])
    files = event_files(directory)
    whole = ReadReport()
    expected = [r["trigger_file_path"] for r in read_records(directory, report=whole)]
    got: list[str] = []
    report = ReadReport()
    for group in plan_spans(files, parts):
        for span in group:
            got.extend(r["trigger_file_path"] for r in read_span(span, make_filter(), report))
    assert got == expected
    assert (report.lines, report.corrupt, report.files) == (whole.lines, whole.corrupt, whole.files)


def test_plan_spans_covers_the_files(tmp_path: Path) -> None:
    write_lines(tmp_path / "a.jsonl", ["x" * 99] * 10)  # 1000 bytes
    write_lines(tmp_path / "b.jsonl", ["y" * 49] * 10)  # 500 bytes
    groups = plan_spans(event_files(tmp_path), 3)
    assert groups == [
        [Span(str(tmp_path / "a.jsonl"), 0, 500)],
        [Span(str(tmp_path / "a.jsonl"), 500, 1000)],
        [Span(str(tmp_path / "b.jsonl"), 0, 500)],
    ]


def test_clear_removes_only_log_files(tmp_path: Path) -> None:
    store = EventStore(tmp_path)
    store.append(record(0))
    (tmp_path / "keep.txt").write_text("mine")
    assert clear_events(tmp_path)[0] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


NOW = datetime(2026, 8, 8, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30m", NOW - timedelta(minutes=30)),
        ("24h", NOW - timedelta(hours=24)),
        ("7d", NOW - timedelta(days=7)),
        ("2w", NOW - timedelta(weeks=2)),
        ("90s", NOW - timedelta(seconds=90)),
        ("2026-08-01", datetime(2026, 8, 1, tzinfo=UTC)),
        ("2026-08-01T10:30", datetime(2026, 8, 1, 10, 30, tzinfo=UTC)),
        ("2026-08-01T10:30:00Z", datetime(2026, 8, 1, 10, 30, tzinfo=UTC)),
        ("2026-08-01T18:30:00+08:00", datetime(2026, 8, 1, 10, 30, tzinfo=UTC)),
    ],
)
def test_parse_since(text: str, expected: datetime) -> None:
    assert parse_since(text, NOW) == expected


@pytest.mark.parametrize("text", ["yesterday", "7 days", "-3d", "2026-13-01", ""])
def test_parse_since_rejects(text: str) -> None:
    with pytest.raises(UsageError, match="--since"):
        parse_since(text, NOW)


def test_an_age_older_than_the_calendar_means_everything() -> None:
    from datetime import UTC, datetime

    from jitctx.telemetry.log_reader import parse_since

    assert parse_since("99999999d", datetime(2026, 11, 29, tzinfo=UTC)) == datetime.min.replace(tzinfo=UTC)
