"""Telemetry benchmark: append throughput with 16 writer processes, and `stats` over 1,000,000 records.

Each figure is printed next to a reference measured in the same run, as a ratio:
- appends: 16 processes appending at once vs one process appending alone (same record, same store);
  afterwards every line is parsed and counted, torn lines must be 0;
- stats: `stats_from_log` over a generated log of 1,000,000 records vs the same with the exact reader
  only (what runs without msgspec; the figures must be equal), alternating, median of --runs each
  (the machine is shared: one run can land on a busy moment), and vs the bare loop
  `for line in f: json.loads(line)` over the same files.

Targets (issue 6): >= 10,000 records/s appended with 0 torn lines; stats over 1M records <= 3 s.

    python benchmarks/telemetry.py [--records 1000000] [--runs 5] [--writers 16] [--per-writer 1000]
                                   [--keep DIR] [--only append|stats]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO
from unittest.mock import patch

from jitctx.telemetry import scan
from jitctx.telemetry.events import encode_event, format_ts
from jitctx.telemetry.scan import stats_from_log
from jitctx.telemetry.store import EventStore

ROOT = "/home/dev/work/monorepo"
FILES = [
    (f"{ROOT}/CLAUDE.md", "Project", "session_start", 11_468),
    (f"{ROOT}/src/ui/CLAUDE.md", "Project", "nested_traversal", 2_310),
    (f"{ROOT}/.claude/rules/python.md", "Project", "path_glob_match", 640),
    (f"{ROOT}/services/api/AGENTS.md", "Project", "nested_traversal", 1_905),
    ("/home/dev/.claude/CLAUDE.md", "User", "session_start", 420),
]


def miss_template() -> str:
    """A discovery miss as the store writes it, with printf slots for the varying fields."""
    record = {
        "v": 1,
        "kind": "discovery",
        "ts": "@TS@",
        "session_id": "@SID@",
        "channel": "@CH@",
        "root": ROOT,
        "hit": False,
        "elapsed_ms": 0.5,
        "scope_skipped": 0,
        "rules_scanned": 3,
        "cumulative_bytes": 1,
        "trigger_file_path": "@TRIGGER@",
        "loaded": [],
    }
    line = encode_event(record).decode()
    return (
        line.replace("%", "%%")
        .replace("@TS@", "%s")
        .replace("@SID@", "%s")
        .replace("@CH@", "%s")
        .replace('"elapsed_ms":0.5', '"elapsed_ms":%s')
        .replace('"scope_skipped":0', '"scope_skipped":%d')
        .replace('"cumulative_bytes":1', '"cumulative_bytes":%d')
        .replace("@TRIGGER@", "%s")
    )


def load_item(index: int) -> dict[str, object]:
    path, memory_type, reason, size = FILES[index]
    globs = ["**/*.py"] if reason == "path_glob_match" else []
    return {
        "file_path": path,
        "memory_type": memory_type,
        "load_reason": reason,
        "globs": globs,
        "bytes": size,
        "tokens": size // 4,
    }


def generate(directory: Path, count: int, *, sessions: int = 400, days: int = 7, seed: int = 7) -> None:
    """`count` records over `days` day files: per session a startup record, ~1% hits, 7% sub-agent
    discoveries, and some host (Claude Code) load records; the rest are misses."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    template = miss_template()
    start = datetime(2026, 8, 1, tzinfo=UTC)
    carried = dict.fromkeys(range(sessions), 11_888)
    started: set[int] = set()
    handles: dict[str, TextIO] = {}
    out: TextIO | None = None
    start_ms = int(start.timestamp() * 1000)
    step_ms = days * 86_400_000 / count
    second, prefix = -1, ""
    for i in range(count):
        ms = start_ms + int(step_ms * i)
        if ms // 1000 != second:  # strftime once per second, not once per record
            second = ms // 1000
            prefix = format_ts(datetime.fromtimestamp(second, UTC))[:20]
        ts = f"{prefix}{ms % 1000:03d}Z"
        day = ts[:10]
        if day not in handles:
            if out is not None:
                out.close()
            out = handles[day] = open(directory / f"{day}.jsonl", "w", encoding="utf-8")
        n = (i * 7919) % sessions
        sid = f"{n:08x}-5a1d-4c0e-9b7f-{n * 2654435761 % 16**12:012x}"
        roll = rng.random()
        if n not in started:
            started.add(n)
            record = {
                "v": 1,
                "kind": "startup",
                "ts": ts,
                "session_id": sid,
                "channel": "main",
                "root": ROOT,
                "cwd": ".",
                "agent": "claude-code",
                "signals": [],
                "skipped": 2,
                "elapsed_ms": 4.2,
                "cumulative_bytes": 11_888,
                "loaded": [load_item(0), load_item(4)],
            }
            line = encode_event(record).decode()
        elif roll < 0.01:
            item = load_item(rng.choice((1, 2, 3)))
            carried[n] += int(item["bytes"])  # type: ignore[call-overload]
            record = {
                "v": 1,
                "kind": "discovery",
                "ts": ts,
                "session_id": sid,
                "channel": "main",
                "root": ROOT,
                "hit": True,
                "elapsed_ms": round(rng.uniform(1, 6), 3),
                "scope_skipped": 0,
                "rules_scanned": 3,
                "cumulative_bytes": carried[n],
                "trigger_file_path": f"{ROOT}/src/ui/Footer.tsx",
                "loaded": [item],
            }
            line = encode_event(record).decode()
        elif roll < 0.012:
            record = {
                "v": 1,
                "kind": "load",
                "ts": ts,
                "session_id": sid,
                "channel": "main",
                "root": ROOT,
                "source": "claude-code",
                **load_item(2),
                "trigger_file_path": f"{ROOT}/a.py",
            }
            line = encode_event(record).decode()
        else:
            channel = "subagent" if roll > 0.93 else "main"
            trigger = f"{ROOT}/src/pkg{i % 53}/module_{i % 97}.py"
            line = template % (ts, sid, channel, round(rng.random() * 3, 3), i % 3 == 0, carried[n], trigger)
        assert out is not None
        out.write(line)
    if out is not None:
        out.close()


def reference_parse(directory: Path) -> int:
    count = 0
    for path in sorted(directory.glob("*.jsonl")):
        with open(path, "rb") as handle:
            for line in handle:
                json.loads(line)
                count += 1
    return count


# -- appends ---------------------------------------------------------------------------------------------


def _writer(directory: str, count: int, barrier: Any, line_pad: int) -> None:
    store = EventStore(directory)
    event = dict(SAMPLE, trigger_file_path=SAMPLE["trigger_file_path"] + "x" * line_pad)
    barrier.wait()
    for seq in range(count):
        event["cumulative_bytes"] = seq
        store.append(event)


SAMPLE: dict[str, Any] = {
    "v": 1,
    "kind": "discovery",
    "ts": "2026-08-08T12:00:00.000Z",
    "session_id": "bench",
    "channel": "main",
    "root": ROOT,
    "hit": False,
    "elapsed_ms": 0.512,
    "scope_skipped": 0,
    "rules_scanned": 3,
    "cumulative_bytes": 0,
    "trigger_file_path": f"{ROOT}/src/pkg1/module_1.py",
    "loaded": [],
}


def bench_appends(work: Path, writers: int, per_writer: int) -> None:
    total = writers * per_writer
    single_dir = work / "single"
    store = EventStore(single_dir)
    event = dict(SAMPLE)
    started = time.perf_counter()
    for seq in range(total):
        event["cumulative_bytes"] = seq
        store.append(event)
    single = total / (time.perf_counter() - started)

    many_dir = work / "many"
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    )
    barrier = context.Barrier(writers + 1)
    procs = [
        context.Process(target=_writer, args=(str(many_dir), per_writer, barrier, w * 40))
        for w in range(writers)
    ]
    for proc in procs:
        proc.start()
    barrier.wait()
    started = time.perf_counter()
    for proc in procs:
        proc.join()
    many = total / (time.perf_counter() - started)

    lines = b"".join(path.read_bytes() for path in sorted(many_dir.glob("*.jsonl"))).split(b"\n")
    torn = 0
    parsed = 0
    for line in lines[:-1]:
        try:
            json.loads(line)
            parsed += 1
        except ValueError:
            torn += 1
    lost = total - parsed
    print(
        f"append, {writers} processes x {per_writer:,}: {many:,.0f} records/s   torn: {torn}   lost: {lost}"
    )
    print(f"append, 1 process (reference):      {single:,.0f} records/s   ratio {many / single:.2f}")
    met = many >= 10_000 and torn == lost == 0
    print(f"  target >= 10,000 records/s with 0 torn lines: {'met' if met else 'MISSED'}")


# -- stats -----------------------------------------------------------------------------------------------


def bench_stats(directory: Path, records: int, workers: int | None, runs: int) -> None:
    if not any(directory.glob("*.jsonl")):
        started = time.perf_counter()
        generate(directory, records)
        print(f"generated {records:,} records in {time.perf_counter() - started:.1f} s")
    size = sum(p.stat().st_size for p in directory.glob("*.jsonl"))
    started = time.perf_counter()
    count = reference_parse(directory)
    reference = time.perf_counter() - started

    def timed(**kwargs: Any) -> tuple[float, Any]:
        started = time.perf_counter()
        stats = stats_from_log(directory, **kwargs)
        return time.perf_counter() - started, stats

    # Alternating runs, so that the load of other tenants of this machine falls on both alike.
    fast_times: list[float] = []
    exact_times: list[float] = []
    for _ in range(runs):
        elapsed, stats = timed(workers=workers)
        fast_times.append(elapsed)
        # The same figures from the exact reader alone (json for every line), as without msgspec.
        with patch.object(scan, "scanner", lambda: scan.scan_spans):
            elapsed, exact = timed(workers=workers)
        exact_times.append(elapsed)
        assert repr(exact) == repr(stats), "the fast and the exact reader disagree"
    single, _ = timed(workers=1)
    assert stats.window.records == count, (stats.window.records, count)
    fast, slow = statistics.median(fast_times), statistics.median(exact_times)
    used = workers or os.cpu_count()
    print(
        f"stats over {count:,} records ({size / 1e6:.0f} MB), {used} processes: median {fast:.2f} s "
        f"of {runs} (min {min(fast_times):.2f}, max {max(fast_times):.2f})"
    )
    print(f"stats, 1 process:                                {single:.2f} s")
    print(
        f"stats, exact reader only (json), {used} processes:  median {slow:.2f} s   "
        f"ratio {fast / slow:.2f}   (same figures: yes)"
    )
    print(f"reference 'for line in f: json.loads(line)': {reference:.2f} s   ratio {fast / reference:.2f}")
    print(f"  target <= 3 s (median): {'met' if fast <= 3 else 'MISSED'}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--per-writer", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=None, help="stats processes (default: one per CPU)")
    parser.add_argument("--keep", metavar="DIR", help="generate the log here once and reuse it")
    parser.add_argument("--only", choices=["append", "stats"])
    parser.add_argument("--runs", type=int, default=5, help="stats runs of each reader (median reported)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="jitctx-bench-"))
    try:
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
        )
        if args.only != "stats":
            bench_appends(work, args.writers, args.per_writer)
        if args.only != "append":
            bench_stats(Path(args.keep) if args.keep else work / "log", args.records, args.workers, args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
