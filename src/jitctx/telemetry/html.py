"""`jitctx stats --html`: one self-contained page (inline SVG and CSS, no script, no network).

Every piece of recorded text (file names, session ids) is hostile input and goes through `escape`; the
page's Content-Security-Policy forbids fetching anything, so a name that slipped through could not load a
thing either.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from html import escape

from jitctx.telemetry.events import parse_ts
from jitctx.telemetry.stats import SessionSeries, Stats

WIDTH, HEIGHT = 920, 380
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 16, 44
COLORED = 10  # sessions drawn in colour (the largest); the others are drawn thin and grey
DRAWN = 300  # sessions drawn at all, to keep the page small
LEADERBOARD = 30
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
       max-width: 960px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.window { color: #444; margin: 0 0 16px; } .note { color: #666; font-size: 12px; }
table { border-collapse: collapse; }
td, th { padding: 3px 12px 3px 0; text-align: left; vertical-align: top; }
th { font-weight: 600; border-bottom: 1px solid #ccc; } td.n, th.n { text-align: right; }
.file { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; word-break: break-all; }
.bar { background: #1f6feb; height: 10px; border-radius: 2px; min-width: 1px; }
svg text { font: 11px system-ui, sans-serif; fill: #444; }
.legend span { display: inline-block; margin: 2px 14px 2px 0; font-size: 12px; }
.legend i { display: inline-block; width: 14px; height: 3px; margin-right: 5px; vertical-align: middle; }
"""


def human_bytes(value: float) -> str:
    if value < 1024:
        return f"{value:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            return f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def _all_times(s: SessionSeries) -> bool:
    """Whether every time of a series reads as a date (a record can hold 2026-99-99 in the stored shape)."""
    try:
        for ts in [*(ts for ts, _ in s.points), s.last_ts]:
            parse_ts(ts)
    except ValueError:
        return False
    return True


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
    headers: list[str], rows: list[list[str]], numeric: Collection[int], raw: Collection[int] = ()
) -> str:
    """An HTML table; every cell is escaped unless its column is listed in `raw` (markup we built)."""
    head = "".join(
        f'<th class="n">{escape(h)}</th>' if i in numeric else f"<th>{escape(h)}</th>"
        for i, h in enumerate(headers)
    )
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell if i in raw else escape(cell)
            cells.append(f'<td class="n">{text}</td>' if i in numeric else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        return [low]
    return [low + (high - low) * i / (count - 1) for i in range(count)]


def plot(stats: Stats) -> str:
    """Cumulative bytes per session over time, as step lines (a value holds until the next load)."""
    series = sorted((s for s in stats.series if _all_times(s)), key=lambda s: -max(v for _, v in s.points))[
        :DRAWN
    ]
    if not series:
        return '<p class="note">No session recorded cumulative bytes in this window.</p>'
    times = [parse_ts(ts) for s in series for ts, _ in s.points] + [parse_ts(s.last_ts) for s in series]
    t0, t1 = min(times), max(times)
    span = max((t1 - t0).total_seconds(), 1.0)
    top = max(v for s in series for _, v in s.points) or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(moment: datetime) -> float:
        return LEFT + (moment - t0).total_seconds() / span * inner_w

    def y(value: float) -> float:
        return TOP + inner_h - value / top * inner_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-label="cumulative bytes per session over time">'
    ]
    for value in _ticks(0, top):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="#e4e4e4"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
            f"{escape(human_bytes(value))}</text>"
        )
    for i, seconds in enumerate(_ticks(0, span)):
        moment = t0.timestamp() + seconds
        label = datetime.fromtimestamp(moment, t0.tzinfo).strftime("%m-%d %H:%M")
        anchor = "start" if i == 0 else "end" if i == 4 else "middle"
        xpos = LEFT + seconds / span * inner_w
        parts.append(
            f'<line x1="{xpos:.1f}" x2="{xpos:.1f}" y1="{TOP + inner_h}" y2="{TOP + inner_h + 4}" '
            'stroke="#888"/>'
        )
        parts.append(
            f'<text x="{xpos:.1f}" y="{TOP + inner_h + 18}" text-anchor="{anchor}">{escape(label)}</text>'
        )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + inner_h}" y2="{TOP + inner_h}" stroke="#888"/>'
    )
    parts.append(
        f'<text x="{LEFT + inner_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">time (UTC)</text>'
    )
    # Grey lines first so the coloured ones are drawn on top.
    for index in reversed(range(len(series))):
        parts.append(_step_path(series[index], index, x, y))
    parts.append("</svg>")
    legend = "".join(
        f'<span><i style="background:{PALETTE[i]}"></i>{escape(s.session_id[:12])} '
        f"({escape(human_bytes(max(v for _, v in s.points)))})</span>"
        for i, s in enumerate(series[:COLORED])
    )
    more = len(stats.series) - min(len(series), COLORED)
    note = f'<p class="note">{more:,} more sessions drawn in grey or left out.</p>' if more > 0 else ""
    return "".join(parts) + f'<div class="legend">{legend}</div>{note}'


def _step_path(
    s: SessionSeries, index: int, fx: Callable[[datetime], float], fy: Callable[[float], float]
) -> str:
    points = [(parse_ts(ts), value) for ts, value in s.points]
    d = [f"M{fx(points[0][0]):.1f},{fy(points[0][1]):.1f}"]
    for moment, value in points[1:]:
        d.append(f"H{fx(moment):.1f}V{fy(value):.1f}")
    d.append(f"H{fx(max(parse_ts(s.last_ts), points[-1][0])):.1f}")
    colour, width = (PALETTE[index], 2.0) if index < COLORED else ("#c8c8c8", 1.0)
    title = f"{s.session_id}: {human_bytes(points[-1][1])}"
    return (
        f'<path d="{"".join(d)}" fill="none" stroke="{colour}" stroke-width="{width}">'
        f"<title>{escape(title)}</title></path>"
    )


def render_html(stats: Stats, *, title: str = "jitctx stats", generated: str = "") -> str:
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
    board = [
        [
            row.file,
            f"{row.loads:,}",
            f"{row.sessions:,}",
            (human_bytes(row.size) if row.size is not None else "?"),
            human_bytes(row.bytes),
            f'<div class="bar" style="width:{row.bytes / best * 160:.0f}px"></div>',
        ]
        for row in stats.by_file[:LEADERBOARD]
    ]
    leaderboard = _table(["file", "loads", "sessions", "size", "bytes carried", ""], board, {1, 2, 3, 4}, {5})
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
            "<h2>Files by bytes carried</h2>",
            leaderboard.replace("<tr><td>", '<tr><td class="file">'),
            f'<p class="note">{more:,} more files in <code>jitctx stats --by-file</code>.</p>'
            if more > 0
            else "",
            "<h2>By reason</h2>",
            reasons,
            "<h2>By channel</h2>",
            channels,
            f'<p class="note">{escape(generated)}</p>' if generated else "",
            "</body></html>",
            "",
        ]
    )
