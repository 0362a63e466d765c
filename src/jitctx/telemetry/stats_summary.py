"""From the tallies of a `StatsAccumulator` to the figures of `Stats` (defined in `telemetry.stats`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jitctx.telemetry.log_reader import Filter, ReadReport
from jitctx.telemetry.record_fields import changed_points, display_path
from jitctx.telemetry.results import (
    ChannelRow,
    FileRow,
    ReasonRow,
    SessionSeries,
    Spread,
    Stats,
    Window,
    percentile,
    spread_of_counts,
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
)

if TYPE_CHECKING:
    from jitctx.telemetry.stats import StatsAccumulator


def summarize(tally: StatsAccumulator, report: ReadReport | None = None, keep: Filter | None = None) -> Stats:
    """The figures of an accumulator's tallies, over the window that `report` and `keep` describe."""
    report = report or ReadReport()
    keep = keep or Filter()
    window = Window(
        first_ts=tally.first_ts,
        last_ts=tally.last_ts,
        since=keep.since,
        session=keep.session,
        files=report.files,
        lines=report.lines,
        records=tally.counted,
        corrupt=report.corrupt,
        unknown_version=report.unknown_version,
        unknown_kind=report.unknown_kind,
        invalid=tally.invalid,
        filtered=report.filtered,
        corrupt_at=tuple(report.corrupt_at),
    )
    cumulative: list[float] = []
    series = []
    for session_id, s in tally.sessions.items():
        predates = not s[JITCTX]
        value = s[CUM] if s[CUM] >= 0 else (s[HOST_SUM] if s[HOST_POINTS] else -1)
        if value >= 0:
            cumulative.append(value)
        points = s[POINTS] if s[POINTS] else s[HOST_POINTS]
        if points:
            series.append(
                SessionSeries(
                    session_id,
                    tuple(changed_points(points)),
                    s[LAST],
                    predates,
                    s[FIRST],
                    s[ROOT] or None,
                )
            )
    cumulative.sort()
    return Stats(
        window=window,
        sessions=len(tally.sessions),
        sessions_predating_log=sum(1 for s in tally.sessions.values() if not s[JITCTX]),
        sessions_with_discoveries=sum(1 for s in tally.sessions.values() if s[DISCOVERED]),
        discoveries=tally.discoveries,
        hits=tally.hits,
        hit_rate=tally.hits / tally.discoveries if tally.discoveries else None,
        loads=tally.loads,
        load_bytes=tally.load_bytes,
        jit_loads=tally.jit_loads,
        jit_load_bytes=tally.jit_load_bytes,
        mean_bytes_per_load=tally.jit_load_bytes / tally.jit_loads if tally.jit_loads else None,
        scope_skipped=tally.scope_skipped,
        rules_scanned=tally.rules_scanned,
        waste_rate=tally.scope_skipped / tally.rules_scanned if tally.rules_scanned else None,
        cumulative_bytes=(
            Spread(percentile(cumulative, 0.5), percentile(cumulative, 0.95), cumulative[-1], len(cumulative))
            if cumulative
            else None
        ),
        latency_ms=spread_of_counts(tally.latency),
        by_reason=tuple(
            sorted(
                (ReasonRow(k, v[0], v[1]) for k, v in tally.reasons.items()),
                key=lambda r: (-r.loads, r.reason),
            )
        ),
        by_channel=tuple(
            sorted(
                (ChannelRow(k, *v) for k, v in tally.channels.items()),
                key=lambda r: (r.channel != "main", r.channel),
            )
        ),
        by_file=leaderboard(tally.files),
        series=tuple(sorted(series, key=lambda s: (s.points[0][0], s.session_id))),
        by_skill=tally.skills.rows(),
        writes=tally.writes.result(),
    )


def leaderboard(files: dict[str, list[Any]]) -> tuple[FileRow, ...]:
    """Files by bytes carried, then by loads."""
    # Two projects can both have a CLAUDE.md: the project says which (a path outside its project
    # stays absolute).
    rows = [
        FileRow(
            display_path(path, entry[4]),
            path,
            entry[0],
            entry[1],
            len(entry[3]),
            entry[2] if entry[2] >= 0 else None,
            entry[4] or None,
        )
        for path, entry in files.items()
    ]
    return tuple(sorted(rows, key=lambda r: (-r.bytes, -r.loads, r.file, r.project or "")))
