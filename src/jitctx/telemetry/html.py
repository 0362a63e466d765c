"""`jitctx stats --html`: one self-contained page (inline SVG and CSS, no script, no network).

Every piece of recorded text (file names, session ids) is hostile input and goes through `escape`; the
page's Content-Security-Policy forbids fetching anything, so a name that slipped through could not load a
thing either.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from html import escape
from typing import NamedTuple

from jitctx.telemetry.events import parse_ts
from jitctx.telemetry.results import project_labels
from jitctx.telemetry.stats import SessionSeries, Stats

WIDTH, HEIGHT = 920, 380
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 16, 44
COLORED = 10  # sessions drawn in colour (the largest); the others are drawn thin and grey
DRAWN = 300  # sessions drawn at all, to keep the page small
LEADERBOARD = 30
SESSIONS = 30  # rows of the sessions table
PALETTE = (
    "#1f6feb",
    "#d9480f",
    "#2b8a3e",
    "#862e9c",
    "#c2255c",
    "#0b7285",
    "#e67700",
    "#5c940d",
    "#364fc7",
    "#a61e4d",
)

# Nothing may be fetched: no scripts, images, fonts or frames; only the inline style below.
CSP = "default-src 'none'; style-src 'unsafe-inline'"
CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; margin: 24px auto;
       max-width: 1180px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.window { color: #444; margin: 0 0 16px; } .note { color: #666; font-size: 12px; }
table { border-collapse: collapse; }
td, th { padding: 3px 12px 3px 0; text-align: left; vertical-align: middle; }
th { font-weight: 600; border-bottom: 1px solid #ccc; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n, th.n, td.nowrap, td.id { white-space: nowrap; }
.file, .id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.file { overflow-wrap: break-word; min-width: 16em; }
td.project { min-width: 10em; max-width: 16em; }
.bar { background: #1f6feb; height: 10px; border-radius: 2px; min-width: 1px; }
svg text { font: 11px system-ui, sans-serif; fill: #444; }
svg.spark { display: block; } .scroll { overflow-x: auto; }
i.key { display: inline-block; width: 14px; height: 3px; margin-right: 6px; vertical-align: middle; }
"""


def human_bytes(value: float) -> str:
    if value < 1024:
        return f"{value:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            return f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def _clock(ts: str | None) -> str:
    return (ts or "")[:19].replace("T", " ")


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def _rows(stats: Stats) -> list[tuple[str, str]]:
    cum, lat = stats.cumulative_bytes, stats.latency_ms
    return [
        (
            "sessions",
            f"{stats.sessions:,} ({stats.sessions_predating_log:,} predate the log, "
            f"{stats.sessions_with_discoveries:,} with discoveries)",
        ),
        ("discoveries", f"{stats.discoveries:,}"),
        ("hit rate", f"{_percent(stats.hit_rate)} ({stats.hits:,} / {stats.discoveries:,} discoveries)"),
        (
            "mean bytes per load",
            "n/a"
            if stats.mean_bytes_per_load is None
            else f"{human_bytes(stats.mean_bytes_per_load)} ({stats.jit_loads:,} JIT loads; "
            f"{stats.loads:,} loads in all)",
        ),
        (
            "waste rate",
            f"{_percent(stats.waste_rate)} ({stats.scope_skipped:,} scope skips / "
            f"{stats.rules_scanned:,} rules scanned)",
        ),
        (
            "cumulative bytes P50 / P95 / MAX",
            "n/a"
            if cum is None
            else f"{human_bytes(cum.p50)} / {human_bytes(cum.p95)} / {human_bytes(cum.max)}",
        ),
        ("discovery latency P50 / MAX", "n/a" if lat is None else f"{lat.p50:g} ms / {lat.max:g} ms"),
    ]


def _table(
    headers: list[str],
    rows: list[list[str]],
    numeric: Collection[int],
    raw: Collection[int] = (),
    classes: Mapping[int, str] | None = None,
) -> str:
    """An HTML table; every cell is escaped unless its column is listed in `raw` (markup we built).
    Numeric columns are right-aligned and never wrap (`10.7 KiB` stays on one line); `classes` gives
    other columns a class of their own."""
    classes = {**(classes or {}), **dict.fromkeys(numeric, "n")}
    head = "".join(
        f'<th class="n">{escape(h)}</th>' if i in numeric else f"<th>{escape(h)}</th>"
        for i, h in enumerate(headers)
    )
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell if i in raw else escape(cell)
            cells.append(f'<td class="{classes[i]}">{text}</td>' if i in classes else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    # A narrow window scrolls a wide table sideways instead of squeezing its columns.
    return f'<div class="scroll"><table><tr>{head}</tr>{"".join(body)}</table></div>'


_STEPS = (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500)


def _byte_ticks(top: float) -> list[float]:
    """Round values from 0 to `top` or just above it, at most 5 steps (0, 10 KiB, ... 50 KiB for a peak of
    45 KiB): quarters of the peak would label the axis 11.3 KiB, 22.5 KiB."""
    if top <= 0:
        return [0.0]
    unit = 1024 ** max(0, min(3, int(math.log(top / 2, 1024)) if top >= 2 else 0))
    scaled = top / unit
    step = next((s for s in _STEPS if scaled / s <= 5 and s * unit >= 1), 1024.0)  # no fraction of a byte
    return [i * step * unit for i in range(math.ceil(scaled / step - 1e-9) + 1)]


# Steps of the time axis, in seconds: the smallest that gives at most 6 ticks is used.
_TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)


def _time_ticks(span: float) -> list[float]:
    step = next((s for s in _TIME_STEPS if span / s <= 6), _TIME_STEPS[-1] * max(1, math.ceil(span / 518400)))
    return [i * step for i in range(int(span // step) + 1)]


def duration(seconds: float) -> str:
    """'45 s', '12 min', '1 h 05', '2 d 3 h': how long a session ran, or where on its time axis."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min" + (f" {seconds % 60:02d}" if seconds % 60 and seconds < 600 else "")
    if seconds < 86400:
        minutes = seconds % 3600 // 60
        return f"{seconds // 3600} h" + (f" {minutes:02d}" if minutes else "")
    return f"{seconds // 86400} d {seconds % 86400 // 3600} h"


class _Drawn(NamedTuple):
    """A session as plotted: seconds since its first record, and cumulative bytes at each change."""

    series: SessionSeries
    steps: list[tuple[float, int]]
    length: float  # seconds from its first record to its last
    peak: int


def _drawn(s: SessionSeries) -> _Drawn | None:
    try:
        start = parse_ts(s.first_ts or s.points[0][0])
        steps = [((parse_ts(ts) - start).total_seconds(), value) for ts, value in s.points]
        length = max((parse_ts(s.last_ts) - start).total_seconds(), steps[-1][0])
    except ValueError:  # a record can hold 2026-99-99 in the stored shape
        return None
    return _Drawn(s, [(max(0.0, t), v) for t, v in steps], max(0.0, length), max(v for _, v in s.points))


def _largest(stats: Stats) -> list[_Drawn]:
    """Sessions by peak bytes, largest first (at most DRAWN)."""
    drawn = [d for d in map(_drawn, stats.series) if d is not None]
    return sorted(drawn, key=lambda d: (-d.peak, d.series.session_id))[:DRAWN]


def plot(stats: Stats) -> str:
    """Cumulative bytes per session against the time since the session's start, as step lines (a value
    holds until the next load). On a wall-clock axis a session of minutes within a week of records is a
    vertical line; from its own start, sessions can be compared."""
    drawn = _largest(stats)
    if not drawn:
        return '<p class="note">No session recorded cumulative bytes in this window.</p>'
    span = max(max(d.length for d in drawn), 1.0)
    levels = _byte_ticks(max(d.peak for d in drawn))
    top = levels[-1] or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(seconds: float) -> float:
        return LEFT + seconds / span * inner_w

    def y(value: float) -> float:
        return TOP + inner_h - value / top * inner_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'style="max-width:{WIDTH}px" role="img" class="plot" '
        'aria-label="cumulative bytes per session against the time since its start">'
    ]
    for value in levels:
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="#e4e4e4"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
            f"{escape(human_bytes(value))}</text>"
        )
    for seconds in _time_ticks(span):
        xpos = x(seconds)
        anchor = "start" if seconds == 0 else "middle"
        parts.append(
            f'<line x1="{xpos:.1f}" x2="{xpos:.1f}" y1="{TOP + inner_h}" y2="{TOP + inner_h + 4}" '
            'stroke="#888"/>'
        )
        parts.append(
            f'<text x="{xpos:.1f}" y="{TOP + inner_h + 18}" text-anchor="{anchor}">'
            f"{escape(duration(seconds))}</text>"
        )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + inner_h}" y2="{TOP + inner_h}" stroke="#888"/>'
    )
    parts.append(
        f'<text x="{LEFT + inner_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">'
        "time since the session started</text>"
    )
    # Grey lines first so the coloured ones are drawn on top.
    for index in reversed(range(len(drawn))):
        colour, width = (PALETTE[index], 2.0) if index < COLORED else ("#c8c8c8", 1.0)
        parts.append(_step_path(drawn[index], x, y, colour, width))
    parts.append("</svg>")
    more = len(stats.series) - min(len(drawn), COLORED)
    note = (
        f'<p class="note">The {COLORED} largest sessions in colour (see the table below); '
        f"{more:,} more drawn in grey or left out.</p>"
        if more > 0
        else ""
    )
    return "".join(parts) + note


def _step_path(
    d: _Drawn, fx: Callable[[float], float], fy: Callable[[float], float], colour: str, width: float
) -> str:
    steps = d.steps
    path = [f"M{fx(steps[0][0]):.1f},{fy(steps[0][1]):.1f}"]
    for seconds, value in steps[1:]:
        path.append(f"H{fx(seconds):.1f}V{fy(value):.1f}")
    path.append(f"H{fx(d.length):.1f}")
    title = f"{d.series.session_id}: {human_bytes(d.peak)} after {duration(d.length)}"
    return (
        f'<path d="{"".join(path)}" fill="none" stroke="{colour}" stroke-width="{width}">'
        f"<title>{escape(title)}</title></path>"
    )


def _sparkline(d: _Drawn, top: int) -> str:
    """One session's steps on its own time axis, on the page's byte scale: a row of the sessions table."""
    w, h = 160, 22
    span = max(d.length, 1.0)

    def fx(seconds: float) -> float:
        return seconds / span * w

    def fy(value: float) -> float:
        return h - 1 - value / (top or 1) * (h - 2)

    line = _step_path(d, fx, fy, "#1f6feb", 1.5)
    return f'<svg class="spark" viewBox="0 0 {w} {h}" width="{w}" height="{h}">{line}</svg>'


def _breakable(path: str) -> str:
    """A path, escaped, that a narrow column breaks after a `/` rather than inside a name."""
    return "/<wbr>".join(escape(part) for part in path.split("/"))


def sessions_table(stats: Stats) -> str:
    """One row per session, the largest first: where, when, how long, how much, and its curve."""
    drawn = _largest(stats)[:SESSIONS]
    if not drawn:
        return ""
    labels = project_labels(d.series.project for d in drawn)
    top = max(d.peak for d in drawn)
    rows = [
        [
            f'<i class="key" style="background:{PALETTE[i] if i < COLORED else "#c8c8c8"}"></i>'
            f"{escape(d.series.session_id[:13])}",
            _breakable(labels.get(d.series.project or "", "?")),
            escape(_clock(d.series.first_ts or d.series.points[0][0])[:16]),
            escape(duration(d.length)),
            escape(human_bytes(d.peak)),
            _sparkline(d, top),
        ]
        for i, d in enumerate(drawn)
    ]
    table = _table(
        ["session", "project", "started (UTC)", "length", "peak bytes", "cumulative bytes"],
        rows,
        {3, 4},
        raw=range(6),
        classes={0: "id", 1: "project", 2: "nowrap"},
    )
    more = len(stats.series) - len(drawn)
    note = f'<p class="note">{more:,} smaller sessions not listed.</p>' if more > 0 else ""
    return table + note


def skills_section(stats: Stats, unused: Sequence[Mapping[str, str]] = ()) -> str:
    """Uses per skill and project, then the skills of those projects the model never called."""
    if not stats.by_skill:
        return ""
    labels = project_labels([*(r.project for r in stats.by_skill), *(u["project"] for u in unused)])
    table = _table(
        ["skill", "project", "uses", "sessions", "SKILL.md"],
        [
            [
                escape(r.skill),
                _breakable(labels.get(r.project or "", "?")),
                f"{r.uses:,}",
                f"{r.sessions:,}",
                _breakable(r.path) if r.path else "-",
            ]
            for r in stats.by_skill
        ],
        {2, 3},
        {0, 1, 4},
        {0: "file", 1: "project", 4: "file"},
    )
    never = ""
    if unused:
        names = ", ".join(
            f'<span class="file">{escape(u["skill"])}</span> ({escape(labels.get(u["project"], "?"))})'
            for u in unused
        )
        never = f'<p class="note">Never called in the window: {names}.</p>'
    return "<h2>Skills used</h2>" + table + never


def render_html(
    stats: Stats,
    *,
    title: str = "jitctx stats",
    generated: str = "",
    unused_skills: Sequence[Mapping[str, str]] = (),
) -> str:
    w = stats.window
    span = "no records" if w.first_ts is None else f"{_clock(w.first_ts)} to {_clock(w.last_ts)}"
    scope = f"{w.files:,} files, {w.lines:,} lines, {w.records:,} records"
    if w.since:
        scope += f"; since {_clock(w.since)}"
    if w.session:
        scope += f"; session {w.session}"
    skipped = w.corrupt + w.unknown_version + w.unknown_kind + w.invalid
    if skipped:
        scope += f"; {skipped:,} lines skipped"
    best = max((row.bytes for row in stats.by_file), default=0) or 1
    labels = project_labels(row.project for row in stats.by_file)
    board = [
        [
            _breakable(row.file),
            _breakable(labels.get(row.project or "", "?")),
            f"{row.loads:,}",
            f"{row.sessions:,}",
            (human_bytes(row.size) if row.size is not None else "?"),
            human_bytes(row.bytes),
            f'<div class="bar" style="width:{row.bytes / best * 120:.0f}px"></div>',
        ]
        for row in stats.by_file[:LEADERBOARD]
    ]
    leaderboard = _table(
        ["file", "project", "loads", "sessions", "size", "bytes carried", ""],
        board,
        {2, 3, 4, 5},
        {0, 1, 6},
        {0: "file", 1: "project"},
    )
    reasons = _table(
        ["reason", "loads", "bytes"],
        [[r.reason, f"{r.loads:,}", human_bytes(r.bytes)] for r in stats.by_reason],
        {1, 2},
    )
    channels = _table(
        ["channel", "discoveries", "hits", "loads"],
        [[c.channel, f"{c.discoveries:,}", f"{c.hits:,}", f"{c.loads:,}"] for c in stats.by_channel],
        {1, 2, 3},
    )
    more = len(stats.by_file) - LEADERBOARD
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            f'<p class="window"><b>Window</b> {escape(span)} UTC &middot; {escape(scope)}</p>',
            _table(["metric", "value"], [[k, v] for k, v in _rows(stats)], ()),
            "<h2>Cumulative bytes per session</h2>",
            plot(stats),
            "<h2>Sessions by peak bytes</h2>",
            sessions_table(stats),
            "<h2>Files by bytes carried</h2>",
            leaderboard,
            f'<p class="note">{more:,} more files in <code>jitctx stats --by-file</code>.</p>'
            if more > 0
            else "",
            skills_section(stats, unused_skills),
            "<h2>By reason</h2>",
            reasons,
            "<h2>By channel</h2>",
            channels,
            f'<p class="note">{escape(generated)}</p>' if generated else "",
            "</body></html>",
            "",
        ]
    )
