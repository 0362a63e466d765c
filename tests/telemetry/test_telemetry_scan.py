"""Reading the log with several processes gives exactly the one-process figures."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jitctx.telemetry import scan
from jitctx.telemetry.events import format_ts
from jitctx.telemetry.scan import stats_from_log

T0 = datetime(2026, 8, 7, 22, 0, 0, tzinfo=UTC)


def write_log(directory: Path, count: int) -> None:
    directory.mkdir(parents=True)
    for n in range(count):
        at = T0 + timedelta(minutes=7 * n)
        hit = n % 9 == 0
        record = {
            "v": 1,
            "kind": "discovery",
            "ts": format_ts(at),
            "session_id": f"s{n % 5}",
            "channel": "subagent" if n % 4 == 0 else "main",
            "root": "/p",
            "hit": hit,
            "elapsed_ms": round(0.25 * (n % 13), 3),
            "scope_skipped": n % 2,
            "rules_scanned": 2,
            "cumulative_bytes": 100 + 10 * (n // 9),
            "trigger_file_path": f"/p/f{n}.py",
            "loaded": [
                {
                    "file_path": f"/p/r{n % 3}.md",
                    "memory_type": "Project",
                    "load_reason": "path_glob_match",
                    "globs": ["**"],
                    "bytes": 10,
                    "tokens": 3,
                }
            ]
            if hit
            else [],
        }
        with open(directory / f"{format_ts(at)[:10]}.jsonl", "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
            if n % 50 == 0:
                handle.write("torn{\n")


@pytest.mark.parametrize("workers", [2, 3])
def test_processes_agree_with_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    write_log(tmp_path / "events", 600)
    one = stats_from_log(tmp_path / "events", workers=1)
    monkeypatch.setattr(scan, "PARALLEL_MIN_BYTES", 0)
    many = stats_from_log(tmp_path / "events", workers=workers)
    assert many == one
    assert one.discoveries == 600 and one.window.corrupt == 12 and one.window.files == 4


def test_filters_apply_in_every_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_log(tmp_path / "events", 600)
    monkeypatch.setattr(scan, "PARALLEL_MIN_BYTES", 0)
    since = datetime(2026, 8, 8, 12, 0, tzinfo=UTC)
    stats = stats_from_log(tmp_path / "events", since=since, session="s1", workers=2)
    assert (
        stats.sessions == 1
        and stats.window.first_ts is not None
        and stats.window.first_ts >= format_ts(since)
    )
    assert stats.window.filtered > 0


def test_no_processes_to_be_had_reads_in_this_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_log(tmp_path / "events", 100)
    one = stats_from_log(tmp_path / "events", workers=1)

    def refuse(*args: object) -> object:
        raise OSError("no processes here")

    monkeypatch.setattr(scan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(scan, "_in_processes", refuse)
    assert stats_from_log(tmp_path / "events", workers=2) == one
