"""Reading the log for statistics without building a dict per line.

Nearly every line of a large log is a discovery that loaded nothing. msgspec decodes such a line straight
into a typed struct (about a microsecond; `json` takes several times that, most of it spent building a
dict per line). Every other line goes through the exact reader in `store`: hits, loads, startups, and any
line msgspec refuses or could read differently from `json` (a leading space, a field it does not know, a
lone surrogate, a bool where a count belongs). So the figures are the same either way;
`tests/telemetry/test_telemetry_fast_read.py` compares the two readers on damaged logs.

msgspec is imported only here; without it `scan` uses the exact reader alone.
"""

from __future__ import annotations

import gc
import os
from typing import Annotated, Literal

import msgspec

from jitctx.telemetry.events import SCHEMA_VERSION
from jitctx.telemetry.log_reader import Filter, ReadReport, Span, read_block, span_blocks
from jitctx.telemetry.stats import MissRow, StatsAccumulator

if SCHEMA_VERSION != 1:  # pragma: no cover  (the Literal below names it; `scan` then reads exactly)
    raise ImportError("the fast reader knows schema version 1 only")


class _Miss(msgspec.Struct, forbid_unknown_fields=True):
    """Every field a discovery that loaded nothing is written with, each of the type the exact reader
    accepts for it (defaults are its defaults for an absent field).

    Nothing is skipped unread: an unknown field fails the decode (and the line goes to the exact reader),
    because msgspec does not check what it skips the way `json` does (UTF-8, huge integers, nesting).
    """

    # Checked by the decoder itself: the schema version, the kind, and the length of the stored form of a
    # time (`events.is_stored_ts`; its other characters are checked after).
    v: Literal[1]
    kind: Literal["discovery"]
    ts: Annotated[str, msgspec.Meta(min_length=24, max_length=24)]
    session_id: str
    channel: str = "main"
    agent_id: str | None = None
    agent: str | None = None
    source: str | None = None  # "replay" for records `replay --record` wrote
    root: str | None = None
    hit: bool | None = None
    elapsed_ms: int | float | None = None
    scope_skipped: int = 0
    rules_scanned: int = 0
    cumulative_bytes: int = -1
    trigger_file_path: str | None = None
    # Only an empty list: anything in it, or a falsy value of another type, goes to the exact reader.
    loaded: Annotated[list[int], msgspec.Meta(max_length=0)] = []
    note: str | None = None
    dropped: list[str] | None = None
    host_loaded: list[str] | None = None  # a hit the host served itself (see adapters.common)
    truncated: dict[str, int] | None = None
    # The client's ids of the prompt and tool calls (adapters.hook_ids), for exports.
    prompt_id: str | None = None
    tool_use_id: str | None = None
    tool_use_ids: list[str] | None = None


_DECODER = msgspec.json.Decoder(_Miss)


def scan_spans_fast(spans: list[Span], keep: Filter) -> tuple[StatsAccumulator, ReadReport]:
    """What `scan.scan_spans` gives for `spans`, read faster."""
    accumulator = StatsAccumulator()
    report = ReadReport()
    # The scan allocates millions of short-lived tuples and no reference cycles: the cyclic collector,
    # which those allocations keep waking, would only cost time (about a tenth of it).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for span in spans:
            name = os.path.basename(span.path)
            for block, offset in span_blocks(span, report):
                _scan_block(block, name, offset, keep, report, accumulator)
    finally:
        if collecting:
            gc.enable()
    return accumulator, report


def _scan_block(
    block: bytes, name: str, offset: int, keep: Filter, report: ReadReport, accumulator: StatsAccumulator
) -> None:
    decode = _DECODER.decode
    no_filter = keep.since is None and keep.session is None
    accepts = keep.accepts
    rows: list[MissRow] = []
    append = rows.append
    lines = block.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    fast = records = filtered = 0
    position = offset
    for line in lines:
        start = position
        position += len(line) + 1
        try:
            record = decode(line)
        except (msgspec.DecodeError, RecursionError):  # ValidationError is a DecodeError
            pass
        else:
            # json's scanner, which the exact reader uses, refuses a leading space where msgspec skips it;
            # msgspec reads no NaN and no float out of range (json does; such a latency is invalid).
            ts = record.ts
            if line[0] == 123 and ts[10] == "T" and ts[23] == "Z" and ts[4] == "-":  # 123: "{"
                fast += 1
                if no_filter or accepts(ts, record.session_id):
                    records += 1
                    append(
                        (
                            ts,
                            record.session_id,
                            record.channel == "main",
                            record.cumulative_bytes,
                            record.elapsed_ms,
                            record.scope_skipped,
                            record.rules_scanned,
                            record.hit is True,
                        )
                    )
                else:
                    filtered += 1
                continue
        # Any other line: the exact reader, after the rows before it, so that the log's order is kept.
        if rows:
            accumulator.add_misses(rows)
            rows.clear()
        accumulator.add_all(read_block(line + b"\n", name, start, keep, report))
    if rows:
        accumulator.add_misses(rows)
    report.lines += fast
    report.records += records
    report.filtered += filtered
