"""The HTML page: self-contained, escaped, and it shows the figures and the plot."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from jitctx.telemetry.events import format_ts
from jitctx.telemetry.html import render_html
from jitctx.telemetry.record_fields import human_bytes
from jitctx.telemetry.stats import compute_stats

T0 = datetime(2026, 8, 8, 9, 0, 0, tzinfo=UTC)
HOSTILE = '<script>alert("x")</script><img src=http://evil.example/x.png onerror=alert(1)>&amp;"\''


def records(
    file_name: str = "CLAUDE.md",
    session: str = "s-1",
    sessions: int = 3,
    apart: timedelta = timedelta(minutes=10),
    root: str = "/p",
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(sessions):
        sid = f"{session}-{n}"
        for step in range(4):
            size = 100 * (step + 1)
            out.append(
                {
                    "v": 1,
                    "kind": "discovery",
                    "ts": format_ts(T0 + apart * n + timedelta(minutes=step)),
                    "session_id": sid,
                    "channel": "main",
                    "root": root,
                    "hit": True,
                    "elapsed_ms": 1.0,
                    "scope_skipped": 0,
                    "rules_scanned": 1,
                    "cumulative_bytes": size * (n + 1),
                    "trigger_file_path": "/p/a.py",
                    "loaded": [
                        {
                            "file_path": f"{root}/{file_name}",
                            "memory_type": "Project",
                            "load_reason": "nested_traversal",
                            "globs": ["**/*.py"],
                            "bytes": 100,
                            "tokens": 25,
                        }
                    ],
                }
            )
    return out


def test_page_is_self_contained() -> None:
    page = render_html(compute_stats(records()))
    assert page.startswith("<!doctype html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "<script" not in page.lower()
    # Nothing to fetch: the only URL is the SVG namespace, which is an identifier, never loaded.
    assert re.findall(r"https?://[^\s\"'<>]+", page) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"\s(src|href)=", page)


def test_hostile_names_are_escaped() -> None:
    page = render_html(compute_stats(records(file_name=HOSTILE, session=HOSTILE)), title=HOSTILE)
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;" in page
    assert "onerror=alert(1)&gt;" in page  # present only as text


def skill_use(name: str, path: str | None, root: str = "/p") -> dict[str, Any]:
    record = {
        "v": 1,
        "kind": "skill",
        "ts": format_ts(T0),
        "session_id": "s-1-0",
        "root": root,
        "skill": name,
    }
    return record if path is None else {**record, "path": path}


def test_skills_are_listed_escaped_with_those_never_called() -> None:
    stats = compute_stats([*records(), skill_use(HOSTILE, HOSTILE), skill_use("commit", None)])
    page = render_html(stats, unused_skills=[{"project": "/p", "skill": HOSTILE, "path": "x/SKILL.md"}])
    section = page[page.index("<h2>Skills used</h2>") : page.index("<h2>By reason</h2>")]
    assert "<script" not in section.lower() and "<img" not in section.lower()
    assert section.count("&lt;script&gt;") == 3  # the name, its path, and where it is never called
    assert "Never called in the window" in section
    assert "<h2>Skills used</h2>" not in render_html(compute_stats(records()))  # none used: no section


def plot_of(page: str) -> str:
    match = re.search(r'<svg[^>]*class="plot".*?</svg>', page, re.DOTALL)
    assert match is not None
    return match.group()


def test_page_shows_the_window_figures_and_plot() -> None:
    stats = compute_stats(records())
    page = render_html(stats, generated="generated now")
    assert "2026-08-08 09:00:00 to 2026-08-08 09:23:00" in page
    assert plot_of(page).count("<path ") == 3
    assert "hit rate" in page and "100.0% (12 / 12 discoveries)" in page
    assert "CLAUDE.md" in page and human_bytes(1200) in page
    assert "generated now" in page


def test_steps_hold_their_value_until_the_next_change() -> None:
    page = render_html(compute_stats(records(sessions=1)))
    (path,) = re.findall(r'<path d="([^"]+)"', plot_of(page))
    assert path.startswith("M") and path.count("H") == 4 and path.count("V") == 3


def test_empty_page() -> None:
    page = render_html(compute_stats([]))
    assert "no records" in page and "<svg" not in page and "n/a" in page


def test_many_sessions_are_capped() -> None:
    page = render_html(compute_stats(records(sessions=400)))
    assert plot_of(page).count("<path ") == 300 and "390 more drawn in grey or left out" in page
    assert page.count("<tr>") - page.count("<tr><th") <= 30 + 400  # the sessions table is capped too
    assert "370 smaller sessions not listed" in page


def test_sessions_days_apart_share_one_relative_axis() -> None:
    """Sessions of minutes over a week are vertical lines on a wall clock; from their own start each
    session's steps spread over the plot, and every line starts at the left edge."""
    page = render_html(compute_stats(records(sessions=3, apart=timedelta(days=2))))
    plot = plot_of(page)
    starts = re.findall(r'<path d="M([0-9.]+),', plot)
    assert starts == ["78.0"] * 3
    lengths = {len(set(re.findall(r"H([0-9.]+)", d))) for d in re.findall(r'<path d="([^"]+)"', plot)}
    assert lengths == {3}  # a step at 1, 2 and 3 minutes in each session, not one vertical line
    assert "time since the session started" in plot and ">0 s<" in plot and ">1 min<" in plot
    assert "2026-08-08" not in plot and "08-10" not in plot  # no wall-clock labels on the axis


def test_sessions_table_has_a_row_per_session_with_its_project() -> None:
    page = render_html(compute_stats(records(sessions=2) + records(session="t", sessions=1, root="/w/acme")))
    table = page.split("Sessions by peak bytes", 1)[1].split("<h2>", 1)[0]
    rows = re.findall(r"<tr><td.*?</tr>", table)
    assert len(rows) == 3
    assert sum("acme" in row for row in rows) == 1 and sum(">p<" in row for row in rows) == 2
    for row in rows:
        assert "3 min" in row and '<svg class="spark"' in row


def test_numbers_never_wrap_and_paths_break_after_a_slash() -> None:
    page = render_html(compute_stats(records(file_name="src/integrations/prefect-aws/AGENTS.md")))
    assert re.search(r"td\.n, th\.n[^{]*\{[^}]*white-space: nowrap", page)
    board = page.split("Files by bytes carried", 1)[1]
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", board.split("</tr>", 1)[0])
    assert headers[:6] == ["file", "project", "loads", "sessions", "size", "bytes carried"]
    first = re.search(r"<tr><td.*?</tr>", board)
    assert first is not None
    cells = re.findall(r'<td class="([^"]+)">', first.group())
    # A long project name wraps within a capped column rather than squeezing the paths beside it.
    assert cells[:6] == ["file", "project", "n", "n", "n", "n"]
    assert re.search(r"td\.project \{[^}]*max-width", page)
    assert "src/<wbr>integrations/<wbr>prefect-aws/<wbr>AGENTS.md" in first.group()


def test_the_byte_axis_has_round_labels_and_the_time_axis_whole_hours() -> None:
    from jitctx.telemetry.record_fields import duration

    one = [
        {**r, "cumulative_bytes": 45 * 1024, "ts": format_ts(T0 + timedelta(hours=n))}
        for n, r in enumerate(records(sessions=1))
    ]
    plot = plot_of(render_html(compute_stats(one)))
    labels = re.findall(r'text-anchor="end">([^<]*)</text>', plot)
    assert labels == ["0 B", "10.0 KiB", "20.0 KiB", "30.0 KiB", "40.0 KiB", "50.0 KiB"]  # not 11.3 KiB
    assert ">1 h<" in plot and ">3 h<" in plot
    assert [duration(s) for s in (3600, 3660, 5400)] == ["1 h", "1 h 01", "1 h 30"]


def test_human_bytes() -> None:
    assert [human_bytes(v) for v in (0, 74, 1023, 1024, 11_420, 3 * 1024**2, 5 * 1024**3)] == [
        "0 B",
        "74 B",
        "1023 B",
        "1.0 KiB",
        "11.2 KiB",
        "3.0 MiB",
        "5.0 GiB",
    ]


def test_a_session_within_one_second_is_drawn_as_a_dot() -> None:
    """All records of a burst share one second: its line has no length, and the largest session of the
    window vanished from the plot. It gets a dot where it ends, at its peak; the others do not."""
    burst = [dict(r, ts=format_ts(T0 + timedelta(days=1)), session_id="burst") for r in records(sessions=1)]
    for n, record in enumerate(burst):
        record["cumulative_bytes"] = 5000 * (n + 1)
    page = render_html(compute_stats(records(sessions=2) + burst))
    plot = plot_of(page)
    dots = re.findall(r'<circle cx="([0-9.]+)" cy="([0-9.]+)"[^>]*><title>([^<]*)</title>', plot)
    assert [title for _, _, title in dots] == [f"burst: {human_bytes(20000)} after 0 s"]
    (x, y, _) = dots[0]
    heights = [
        float(v) for v in re.findall(r"[V,]([0-9.]+)", " ".join(re.findall(r'<path d="([^"]+)"', plot)))
    ]
    assert float(x) == 78.0  # the left edge: the burst lasted no time
    assert float(y) == min(heights)  # the highest point of the plot: the window's peak
    assert plot.count("<path ") == 3
