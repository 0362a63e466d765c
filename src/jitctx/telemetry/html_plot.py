"""The plot of `jitctx stats --html`: cumulative bytes per session as step lines on one SVG, and each
session's curve as a sparkline for its row of the sessions table. Every recorded text that reaches the
SVG (session ids in titles) goes through `escape`."""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import NamedTuple

from jitctx.telemetry.events import parse_ts
from jitctx.telemetry.record_fields import duration, human_bytes
from jitctx.telemetry.results import SessionSeries, Stats

WIDTH, HEIGHT = 920, 380
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 16, 44
MIN_RUN = 3.0  # pixels: a session's line shorter than this gets a dot at its end
COLORED = 10  # sessions drawn in colour (the largest); the others are drawn thin and grey
DRAWN = 300  # sessions drawn at all, to keep the page small
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


class Drawn(NamedTuple):
    """A session as plotted: seconds since its first record, and cumulative bytes at each change."""

    series: SessionSeries
    steps: list[tuple[float, int]]
    length: float  # seconds from its first record to its last
    peak: int


def as_drawn(s: SessionSeries) -> Drawn | None:
    try:
        start = parse_ts(s.first_ts or s.points[0][0])
        steps = [((parse_ts(ts) - start).total_seconds(), value) for ts, value in s.points]
        length = max((parse_ts(s.last_ts) - start).total_seconds(), steps[-1][0])
    except ValueError:  # a record can hold 2026-99-99 in the stored shape
        return None
    return Drawn(s, [(max(0.0, t), v) for t, v in steps], max(0.0, length), max(v for _, v in s.points))


def largest(stats: Stats) -> list[Drawn]:
    """Sessions by peak bytes, largest first (at most DRAWN)."""
    drawn = [d for d in map(as_drawn, stats.series) if d is not None]
    return sorted(drawn, key=lambda d: (-d.peak, d.series.session_id))[:DRAWN]


def plot(stats: Stats) -> str:
    """Cumulative bytes per session against the time since the session's start, as step lines (a value
    holds until the next load). On a wall-clock axis a session of minutes within a week of records is a
    vertical line; from its own start, sessions can be compared."""
    drawn = largest(stats)
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
        parts.append(step_path(drawn[index], x, y, colour, width))
    parts.append("</svg>")
    more = len(stats.series) - min(len(drawn), COLORED)
    note = (
        f'<p class="note">The {COLORED} largest sessions in colour (see the table below); '
        f"{more:,} more drawn in grey or left out.</p>"
        if more > 0
        else ""
    )
    return "".join(parts) + note


def step_path(
    d: Drawn, fx: Callable[[float], float], fy: Callable[[float], float], colour: str, width: float
) -> str:
    steps = d.steps
    path = [f"M{fx(steps[0][0]):.1f},{fy(steps[0][1]):.1f}"]
    for seconds, value in steps[1:]:
        path.append(f"H{fx(seconds):.1f}V{fy(value):.1f}")
    path.append(f"H{fx(d.length):.1f}")
    title = f"{d.series.session_id}: {human_bytes(d.peak)} after {duration(d.length)}"
    line = (
        f'<path d="{"".join(path)}" fill="none" stroke="{colour}" stroke-width="{width}">'
        f"<title>{escape(title)}</title></path>"
    )
    end_x, end_y = fx(d.length), fy(steps[-1][1])
    if end_x - fx(steps[0][0]) >= MIN_RUN:
        return line
    # A session whose records share one second has no run to draw: a horizontal line of no length is
    # invisible, and the largest session of a window can be such a burst. A dot marks where it ends.
    return line + (
        f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="{width + 1.5:.1f}" fill="{colour}">'
        f"<title>{escape(title)}</title></circle>"
    )


def sparkline(d: Drawn, top: int) -> str:
    """One session's steps on its own time axis, on the page's byte scale: a row of the sessions table."""
    w, h = 160, 22
    span = max(d.length, 1.0)

    def fx(seconds: float) -> float:
        return seconds / span * w

    def fy(value: float) -> float:
        return h - 1 - value / (top or 1) * (h - 2)

    line = step_path(d, fx, fy, "#1f6feb", 1.5)
    return f'<svg class="spark" viewBox="0 0 {w} {h}" width="{w}" height="{h}">{line}</svg>'
