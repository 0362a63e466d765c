"""Telemetry: one record per discovery (hit or miss), per session start and per host-reported load, in a
JSONL log that concurrent hooks append to, and the statistics over it.

- `records`: the one builder of every record kind from plain values, `encode_event` (one capped line)
  and `append_record`, the one writer, which the hook's fast lane uses as it is.
- `events`: the record schema (v1) and its builders from `Discovery`, `Startup` and Claude Code's
  InstructionsLoaded payload, through `records`.
- `store`: `EventStore(directory).append(record)`, the writer that warns once instead of raising.
- `log_reader`: tolerant readers of the log, its day files and spans, `parse_since`.
- `stats`: `compute_stats(records)`, a pure function over any iterable of records (a replay's too).
- `scan`: `stats_from_log(directory)`, the statistics of a log on disk, read by several processes.
- `html`: `render_html(stats)`, one self-contained page.
- `transcript`, `replay`, `replay_record`: Claude Code transcripts run through JIT discovery.

Nothing is re-exported here: callers import the submodule they use.
"""
