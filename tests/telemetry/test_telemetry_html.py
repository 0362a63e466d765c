"""The HTML page: self-contained, escaped, and it shows the figures and the plot."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from jitctx.telemetry.events import format_ts
from jitctx.telemetry.html import human_bytes, render_html
from jitctx.telemetry.stats import compute_stats

T0 = datetime(2026, 8, 8, 9, 0, 0, tzinfo=UTC)
HOSTILE = '<script>alert("x")</script><img src=http://evil.example/x.png onerror=alert(1)>&amp;"\''


def records(file_name: str = "CLAUDE.md", session: str = "s-1", sessions: int = 3) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(sessions):
        sid = f"{session}-{n}"
        for step in range(4):
            size = 100 * (step + 1)
            out.append(
                {
                    "v": 1,
                    "kind": "discovery",
                    "ts": format_ts(T0 + timedelta(minutes=10 * n + step)),
                    "session_id": sid,
                    "channel": "main",
                    "root": "/p",
                    "hit": True,
                    "elapsed_ms": 1.0,
                    "scope_skipped": 0,
                    "rules_scanned": 1,
                    "cumulative_bytes": size * (n + 1),
                    "trigger_file_path": "/p/a.py",
                    "loaded": [
                        {
                            "file_path": f"/p/{file_name}",
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


def test_page_shows_the_window_figures_and_plot() -> None:
    stats = compute_stats(records())
    page = render_html(stats, generated="generated now")
    assert "2026-08-08 09:00:00 to 2026-08-08 09:23:00" in page
    assert "<svg" in page and page.count("<path ") == 3
    assert "hit rate" in page and "100.0% (12 / 12 discoveries)" in page
    assert "CLAUDE.md" in page and human_bytes(1200) in page
    assert "generated now" in page


def test_steps_hold_their_value_until_the_next_change() -> None:
    page = render_html(compute_stats(records(sessions=1)))
    (path,) = re.findall(r'<path d="([^"]+)"', page)
    assert path.startswith("M") and path.count("H") == 4 and path.count("V") == 3


def test_empty_page() -> None:
    page = render_html(compute_stats([]))
    assert "no records" in page and "<svg" not in page and "n/a" in page


def test_many_sessions_are_capped() -> None:
    page = render_html(compute_stats(records(sessions=400)))
    assert page.count("<path ") == 300 and "390 more sessions" in page


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
