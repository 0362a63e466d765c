"""`jitctx stats --html`: one self-contained page (inline SVG and CSS, no script, no network).

Every piece of recorded text (file names, session ids) is hostile input and goes through `escape`; the
page's Content-Security-Policy forbids fetching anything, so a name that slipped through could not load a
thing either. The SVG plot and the sparklines are drawn by `html_plot`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from html import escape

from jitctx.telemetry.html_plot import COLORED, PALETTE, largest, plot, sparkline
from jitctx.telemetry.record_fields import duration, human_bytes
from jitctx.telemetry.results import Stats, project_labels

__all__ = ["render_html", "sessions_table", "skills_section"]

LEADERBOARD = 30
SESSIONS = 30  # rows of the sessions table

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


def _breakable(path: str) -> str:
    """A path, escaped, that a narrow column breaks after a `/` rather than inside a name."""
    return "/<wbr>".join(escape(part) for part in path.split("/"))


def sessions_table(stats: Stats) -> str:
    """One row per session, the largest first: where, when, how long, how much, and its curve."""
    drawn = largest(stats)[:SESSIONS]
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
            sparkline(d, top),
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
