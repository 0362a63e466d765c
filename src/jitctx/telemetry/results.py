"""The figures `jitctx stats` reports, as frozen records (built by `stats.StatsAccumulator`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple


class Spread(NamedTuple):
    p50: float
    p95: float
    max: float
    n: int  # how many values


class ReasonRow(NamedTuple):
    reason: str
    loads: int
    bytes: int


class ChannelRow(NamedTuple):
    channel: str
    discoveries: int
    hits: int
    loads: int


class FileRow(NamedTuple):
    file: str  # relative to its project root when inside it
    file_path: str  # absolute, as recorded
    loads: int
    bytes: int  # summed over every load: what the file made agents carry
    sessions: int
    size: int | None  # bytes of its latest load whose size is known
    project: str | None = None  # the root of the project it was loaded in, as recorded


class SkillRow(NamedTuple):
    """Uses of one Agent Skill (Claude Code's `Skill` tool) in one project."""

    skill: str  # its name, as the agent gave it
    uses: int
    sessions: int
    project: str | None = None  # the root of the project it was used in, as recorded
    path: str | None = None  # its SKILL.md relative to the project root, when the hook found it


class EarlyWriteRow(NamedTuple):
    """A file written before its rules were in the model's context, in one project."""

    path: str  # as its records name it: relative to the project root inside it
    writes: int  # its writes before their rules
    sessions: int
    late: tuple[str, ...]  # the instruction files that reached the model only after one of them
    project: str | None = None  # the root of the project it was written in, as recorded


@dataclass(frozen=True)
class Writes:
    """Writes and their rules (DESIGN §2.11; defined in `telemetry.stats`)."""

    total: int  # writes the records describe
    before_rules: int  # of those, written before their rules were in the model's context
    before_rules_sessions: int  # sessions with at least one such write
    held: int  # writes held back once, their rules sent first (`held` records)
    before_rules_files: tuple[EarlyWriteRow, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "before_rules": self.before_rules,
            "before_rules_sessions": self.before_rules_sessions,
            "before_rules_files": [
                {**row._asdict(), "late": list(row.late)} for row in self.before_rules_files
            ],
            "held": self.held,
        }


NO_WRITES = Writes(0, 0, 0, 0)


class SessionSeries(NamedTuple):
    """Cumulative bytes of one session over time: a point where the value changed, and the last record."""

    session_id: str
    points: tuple[tuple[str, int], ...]
    last_ts: str
    predates_log: bool
    first_ts: str = ""  # its first record, whatever its kind ("": as its first point)
    project: str | None = None  # the root its records name


@dataclass(frozen=True)
class Window:
    """What the figures cover: always shown, because the same command over a moved window gives other
    numbers (the seed saw its P50 move 52x between two runs)."""

    first_ts: str | None
    last_ts: str | None
    since: str | None
    session: str | None
    files: int
    lines: int
    records: int  # records the figures include
    corrupt: int
    unknown_version: int
    unknown_kind: int
    invalid: int  # readable records whose fields had the wrong types
    filtered: int
    corrupt_at: tuple[str, ...]


@dataclass(frozen=True)
class Stats:
    window: Window
    sessions: int
    sessions_predating_log: int
    sessions_with_discoveries: int
    discoveries: int
    hits: int
    hit_rate: float | None
    loads: int
    load_bytes: int
    jit_loads: int
    jit_load_bytes: int
    mean_bytes_per_load: float | None  # over JIT loads (see the module docstring)
    scope_skipped: int
    rules_scanned: int
    waste_rate: float | None
    cumulative_bytes: Spread | None
    latency_ms: Spread | None
    by_reason: tuple[ReasonRow, ...]
    by_channel: tuple[ChannelRow, ...]
    by_file: tuple[FileRow, ...]
    series: tuple[SessionSeries, ...]
    by_skill: tuple[SkillRow, ...] = ()
    writes: Writes = NO_WRITES

    def to_json(self) -> dict[str, Any]:
        document = asdict(self)
        for key in ("cumulative_bytes", "latency_ms"):
            spread = getattr(self, key)
            document[key] = spread._asdict() if spread is not None else None
        document["by_reason"] = [
            {"reason": row.reason, "loads": row.loads, "bytes_carried": row.bytes} for row in self.by_reason
        ]
        document["by_channel"] = [row._asdict() for row in self.by_channel]
        document["by_file"] = [row._asdict() for row in self.by_file]
        document["series"] = [
            {**s._asdict(), "points": [{"ts": ts, "cumulative_bytes": b} for ts, b in s.points]}
            for s in self.series
        ]
        document["by_skill"] = [row._asdict() for row in self.by_skill]
        document["writes"] = self.writes.to_json()
        return document


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of a sorted, non-empty list."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


def spread_of_counts(counts: Mapping[float, int]) -> Spread | None:
    """Percentiles of a multiset given as value -> count (latencies repeat at millisecond precision)."""
    total = sum(counts.values())
    if total == 0:
        return None
    ranks = {q: max(1, math.ceil(q * total)) for q in (0.5, 0.95)}
    found: dict[float, float] = {}
    seen = 0
    ordered = sorted(counts)
    for value in ordered:
        seen += counts[value]
        for q, rank in ranks.items():
            if q not in found and seen >= rank:
                found[q] = value
    return Spread(found[0.5], found[0.95], ordered[-1], total)


def project_labels(roots: Iterable[str | None]) -> dict[str, str]:
    """A short name per project root for a column: its last folder (`/home/dev/acme` -> `acme`), with as
    many parent folders as it takes where two roots end alike (`work/acme`, `oss/acme`)."""
    distinct = sorted({root for root in roots if root})
    parts = {root: [p for p in root.replace("\\", "/").split("/") if p] or [root] for root in distinct}
    depth = dict.fromkeys(distinct, 1)
    while True:
        labels = {root: "/".join(parts[root][-depth[root] :]) for root in distinct}
        seen: dict[str, list[str]] = {}
        for root, label in labels.items():
            seen.setdefault(label, []).append(root)
        clashes = [r for same in seen.values() if len(same) > 1 for r in same if depth[r] < len(parts[r])]
        if not clashes:
            return labels
        for root in clashes:
            depth[root] += 1
