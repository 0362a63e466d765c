"""Statistics over telemetry records: what reached the agents, when, and at what cost.

`compute_stats(records)` is a pure function over any iterable of records (the log, or events a replay
builds in memory). Underneath, a `StatsAccumulator` takes records one by one and merges with another
accumulator, so a large log can be read by several processes (see `telemetry.scan`). Each session's
tally is laid out in `telemetry.session_tally`; `telemetry.stats_summary` turns the tallies into `Stats`.

Definitions (they decide what the numbers mean, so they are fixed here):
- hit rate = discoveries that loaded something / every discovery record (misses are the denominator); a
  hook's record says hit also when the host loaded the files itself (`host_loaded`, nothing sent);
- mean bytes per load = what one JIT injection weighs: bytes / number of the loads a discovery made (or
  the host reported for a reason other than session_start and compact), size known; startup loads are
  in `loads`, `load_bytes` and `by_reason`, not in this mean;
- waste rate = scope skips / rules scanned, summed over discoveries;
- cumulative bytes per session = the most any jitctx record of the session says its channel carried; for
  a session known only from host (Claude Code) load records, the running sum of their bytes;
- a session *predates the log* when no jitctx record (startup or discovery) names it, only host load
  records: its discoveries were never recorded, so it has no place in the hit rate;
- skill uses = `skill` records, per skill name and project root; they name their session (and count in
  `sessions`) but are no load, no discovery and no jitctx record in the sense above;
- writes = the entries of the `writes` lists of discovery records: one per file the calls of one hook
  event wrote (a file write or edit, a patch, a shell write target), whether holding was on or off; a
  write *before its rules* is one whose entry says `rules_before: false`: an instruction file that
  applies to it reached the model only after it (`late`, whoever brought it: jitctx, or the client
  itself after the call). Its files are counted per project root and path, its sessions once each;
  holds = discovery records with `held: true`, each a write held back once with its rules sent first
  (the write made again is a write of its own, with its rules before it). Records written before jitctx
  recorded writes list none: a window of them has a total of 0, which counts no write made;
- percentiles are nearest-rank: P50 of n sorted values is the ceil(n/2)-th.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from jitctx.telemetry.events import KINDS
from jitctx.telemetry.log_reader import Filter, ReadReport
from jitctx.telemetry.record_fields import size_field, whole_field
from jitctx.telemetry.results import (
    ChannelRow,
    FileRow,
    ReasonRow,
    SessionSeries,
    SkillRow,
    Spread,
    Stats,
    Window,
    Writes,
    percentile,
)
from jitctx.telemetry.session_tally import (
    CUM,
    DISCOVERED,
    FIRST,
    HOST_POINTS,
    HOST_SUM,
    JITCTX,
    LAST,
    POINTS,
    ROOT,
    merge_sessions,
    new_session,
)
from jitctx.telemetry.skill_tally import SkillTally
from jitctx.telemetry.stats_summary import summarize
from jitctx.telemetry.write_tally import WriteTally, read_writes

__all__ = [
    "ChannelRow",
    "FileRow",
    "MissRow",
    "ReasonRow",
    "SessionSeries",
    "SkillRow",
    "Spread",
    "Stats",
    "StatsAccumulator",
    "Window",
    "Writes",
    "compute_stats",
    "percentile",
]


_NOT_JIT = frozenset({"session_start", "compact"})

# A discovery that loaded nothing, checked: (ts, session_id, on the main channel, cumulative_bytes (-1:
# unknown), elapsed_ms or None, scope_skipped, rules_scanned, hit). A hit can have an empty loaded[] when
# its list was cut to fit the line.
MissRow = tuple[str, str, bool, int, float | int | None, int, int, bool]


class StatsAccumulator:
    """Takes records one at a time (`add_all`), merges with another accumulator, gives a `Stats`."""

    def __init__(self) -> None:
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.discoveries = 0
        self.hits = 0
        self.loads = 0
        self.load_bytes = 0
        self.jit_loads = 0  # with a known size
        self.jit_load_bytes = 0
        self.scope_skipped = 0
        self.rules_scanned = 0
        self.invalid = 0
        self.counted = 0
        self.latency: dict[float, int] = {}
        self.sessions: dict[str, list[Any]] = {}
        self.reasons: dict[str, list[int]] = {}  # reason -> [loads, bytes]
        self.channels: dict[str, list[int]] = {}  # channel -> [discoveries, hits, loads]
        # file_path -> [loads, bytes, size (-1: unknown), sessions, root]
        self.files: dict[str, list[Any]] = {}
        self.skills = SkillTally()
        self.writes = WriteTally()

    def add_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Count `records` in order. A record with a field of the wrong type is counted as invalid, whole."""
        # Nearly every record is a discovery that loaded nothing: those become rows for `add_misses`
        # (checked here inline, since this loop runs a million times for a large log); the rest go to
        # `_add` one by one, after the rows before them, so that the log's order is kept. A write's
        # record (`writes`, `held`) goes to `_add` too, loaded or not.
        rows: list[MissRow] = []
        append = rows.append
        invalid = 0
        for record in records:
            try:
                if (
                    record["kind"] != "discovery"
                    or record.get("loaded")
                    or "writes" in record
                    or "held" in record
                ):
                    if rows:
                        self.add_misses(rows)
                        rows.clear()
                    self._add(record)
                    self.counted += 1
                    continue
                ts = record["ts"]
                session_id = record["session_id"]
                cumulative = record.get("cumulative_bytes", -1)
                elapsed = record.get("elapsed_ms")
                skipped = record.get("scope_skipped", 0)
                scanned = record.get("rules_scanned", 0)
                # Checked up front so that a bad field leaves no half-counted record behind.
                if not (
                    ts.__class__ is str
                    and session_id.__class__ is str
                    and skipped.__class__ is int
                    and scanned.__class__ is int
                    and cumulative.__class__ is int
                    and (
                        elapsed is None
                        or elapsed.__class__ is int
                        # a float, and finite: NaN or infinity would make the percentiles meaningless
                        or (elapsed.__class__ is float and elapsed - elapsed == 0.0)
                    )
                ):
                    invalid += 1
                    continue
                append(
                    (
                        ts,
                        session_id,
                        record.get("channel", "main") == "main",
                        cumulative,
                        elapsed,
                        skipped,
                        scanned,
                        record.get("hit") is True,
                    )
                )
            except (KeyError, TypeError, ValueError, AttributeError):
                invalid += 1
        if rows:
            self.add_misses(rows)
        self.invalid += invalid

    def add_misses(self, rows: Iterable[MissRow]) -> None:
        """Count discoveries that loaded nothing, given as checked `MissRow`s, in log order."""
        sessions = self.sessions
        elapsed_values: list[float] = []
        first, last = self.first_ts, self.last_ts
        main = subagent = hits = skipped_total = scanned_total = 0
        for ts, session_id, is_main, cumulative, elapsed, skipped, scanned, hit in rows:
            if first is None or ts < first:
                first = ts
            if last is None or ts > last:
                last = ts
            session = sessions.get(session_id)
            if session is None:
                session = sessions[session_id] = new_session(ts, discovered=True)
            else:
                if ts > session[LAST]:
                    session[LAST] = ts
                elif ts < session[FIRST]:
                    session[FIRST] = ts
                session[JITCTX] = session[DISCOVERED] = True
            if is_main:
                main += 1
                points = session[POINTS]
                if cumulative >= 0 and (not points or points[-1][1] != cumulative):
                    points.append((ts, cumulative))
            else:
                subagent += 1
            if cumulative > session[CUM]:
                session[CUM] = cumulative
            if hit:  # a hit whose loaded[] was cut to fit its line
                hits += 1
                self.channels.setdefault("main" if is_main else "subagent", [0, 0, 0])[1] += 1
            skipped_total += skipped
            scanned_total += scanned
            if elapsed is not None:
                elapsed_values.append(elapsed)
        for name, count in (("main", main), ("subagent", subagent)):
            if count:
                self.channels.setdefault(name, [0, 0, 0])[0] += count
        latency = self.latency
        for value, count in Counter(elapsed_values).items():
            latency[value] = latency.get(value, 0) + count
        self.discoveries += main + subagent
        self.hits += hits
        self.scope_skipped += skipped_total
        self.rules_scanned += scanned_total
        self.counted += main + subagent
        for edge in (first, last):
            if edge is not None:
                self._see_ts(edge)

    def _see_ts(self, ts: str) -> None:
        if self.first_ts is None or ts < self.first_ts:
            self.first_ts = ts
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts

    def _add(self, record: Mapping[str, Any]) -> None:
        # Everything is read and checked before anything is counted: a bad field leaves no half record.
        kind = record["kind"]
        ts: str = record["ts"]
        session_id: str = record["session_id"]
        if kind not in KINDS or ts.__class__ is not str or session_id.__class__ is not str:
            raise TypeError("not a record")
        if kind == "skill":
            self._add_skill(record, ts, session_id)
            return
        channel = "main" if record.get("channel", "main") == "main" else "subagent"
        loaded: list[Mapping[str, Any]]
        if kind == "load":
            loaded = [record]
        else:
            loaded = record.get("loaded") or []
            if loaded.__class__ is not list:
                raise TypeError("loaded is not a list")
        cumulative = whole_field(record.get("cumulative_bytes"))
        if kind == "discovery":
            hit = record.get("hit") is True
            skipped = whole_field(record.get("scope_skipped", 0))
            scanned = whole_field(record.get("rules_scanned", 0))
            elapsed = record.get("elapsed_ms")
            if not (
                elapsed is None
                or elapsed.__class__ is int
                or (elapsed.__class__ is float and elapsed - elapsed == 0.0)
            ):
                raise TypeError("elapsed_ms is not a finite number")
            writes, held = read_writes(record)
        items = [
            (item["file_path"], item.get("load_reason") or "?", size_field(item.get("bytes")))
            for item in loaded
        ]

        session = self._session(record, ts, session_id)
        counts = self.channels.get(channel)
        if counts is None:
            counts = self.channels[channel] = [0, 0, 0]
        if kind == "discovery":
            self.discoveries += 1
            counts[0] += 1
            session[DISCOVERED] = True
            if hit:
                self.hits += 1
                counts[1] += 1
            self.scope_skipped += skipped
            self.rules_scanned += scanned
            if elapsed is not None:
                self.latency[elapsed] = self.latency.get(elapsed, 0) + 1
            if writes or held:
                root = record.get("root")
                self.writes.add(writes, held, session_id, root if root.__class__ is str else "")
        if kind == "load":
            if record.get("source", "jitctx") == "jitctx":
                session[JITCTX] = True
            if items[0][2] is not None:
                session[HOST_SUM] += items[0][2]
                session[HOST_POINTS].append((ts, session[HOST_SUM]))
        else:
            session[JITCTX] = True
            if cumulative is not None:
                if cumulative > session[CUM]:
                    session[CUM] = cumulative
                points = session[POINTS]
                if channel == "main" and (not points or points[-1][1] != cumulative):
                    points.append((ts, cumulative))
        if items:
            self._add_loads(items, counts, session_id, record.get("root") or "", kind)

    def _session(self, record: Mapping[str, Any], ts: str, session_id: str) -> list[Any]:
        """The session's entry, created or widened to `ts`, with the root its first record names."""
        self._see_ts(ts)
        session = self.sessions.get(session_id)
        if session is None:
            session = self.sessions[session_id] = new_session(ts, discovered=False)
        elif ts > session[LAST]:
            session[LAST] = ts
        elif ts < session[FIRST]:
            session[FIRST] = ts
        if not session[ROOT]:
            root = record.get("root")
            session[ROOT] = root if root.__class__ is str else ""
        return session

    def _add_skill(self, record: Mapping[str, Any], ts: str, session_id: str) -> None:
        # A skill use names its session but is no jitctx load: it leaves the channels and the hit rate
        # alone, and does not make a session "seen by jitctx" (the definition names startup and discovery).
        self.skills.add(record, session_id)
        self._session(record, ts, session_id)

    def _add_loads(
        self,
        items: list[tuple[str, str, int | None]],
        counts: list[int],
        session_id: str,
        root: str,
        kind: str,
    ) -> None:
        for file_path, reason, size in items:
            self.loads += 1
            counts[2] += 1
            by_reason = self.reasons.get(reason)
            if by_reason is None:
                by_reason = self.reasons[reason] = [0, 0]
            by_reason[0] += 1
            entry = self.files.get(file_path)
            if entry is None:
                entry = self.files[file_path] = [0, 0, -1, set(), root]
            entry[0] += 1
            entry[3].add(session_id)
            if size is not None:
                self.load_bytes += size
                if kind == "discovery" or (kind == "load" and reason not in _NOT_JIT):
                    self.jit_loads += 1
                    self.jit_load_bytes += size
                by_reason[1] += size
                entry[1] += size
                entry[2] = size

    def merge(self, later: StatsAccumulator) -> None:
        """Fold in the accumulator of the records that come *after* this one's."""
        for ts in (later.first_ts, later.last_ts):
            if ts is not None:
                self.first_ts = ts if self.first_ts is None or ts < self.first_ts else self.first_ts
                self.last_ts = ts if self.last_ts is None or ts > self.last_ts else self.last_ts
        for name in (
            "discoveries",
            "hits",
            "loads",
            "load_bytes",
            "jit_loads",
            "jit_load_bytes",
            "scope_skipped",
            "rules_scanned",
            "invalid",
            "counted",
        ):
            setattr(self, name, getattr(self, name) + getattr(later, name))
        for value, count in later.latency.items():
            self.latency[value] = self.latency.get(value, 0) + count
        for key, pair in later.reasons.items():
            reason = self.reasons.setdefault(key, [0, 0])
            reason[0] += pair[0]
            reason[1] += pair[1]
        for key, triple in later.channels.items():
            channel = self.channels.setdefault(key, [0, 0, 0])
            for i in range(3):
                channel[i] += triple[i]
        for key, entry in later.files.items():
            file = self.files.setdefault(key, [0, 0, -1, set(), entry[4]])
            file[0] += entry[0]
            file[1] += entry[1]
            if entry[2] >= 0:
                file[2] = entry[2]
            file[3] |= entry[3]
        self.skills.merge(later.skills)
        self.writes.merge(later.writes)
        merge_sessions(self.sessions, later.sessions)

    def result(self, report: ReadReport | None = None, keep: Filter | None = None) -> Stats:
        return summarize(self, report, keep)


def compute_stats(
    records: Iterable[Mapping[str, Any]], report: ReadReport | None = None, keep: Filter | None = None
) -> Stats:
    """Statistics of `records` (any iterable of record dicts, e.g. a replay's events)."""
    accumulator = StatsAccumulator()
    accumulator.add_all(records)
    return accumulator.result(report, keep)
