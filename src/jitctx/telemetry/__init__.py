"""Telemetry: one record per discovery (hit or miss), per session start and per host-reported load, in a
JSONL log that concurrent hooks append to, and the statistics over it.

- `events`: the record schema (v1) and its builders from `Discovery`, `Startup` and Claude Code's
  InstructionsLoaded payload; `encode_event` makes one capped line.
- `store`: `EventStore(directory).append(record)`, tolerant readers, `parse_since`.
- `stats`: `compute_stats(records)`, a pure function over any iterable of records (a replay's too).
- `scan`: `stats_from_log(directory)`, the statistics of a log on disk, read by several processes.
- `html`: `render_html(stats)`, one self-contained page.

Submodules are imported on use, so the hook path pays only for `events` and `store`.
"""
