"""Statistics: the seed's measured baseline reproduced from records, window drift, exact merges."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.telemetry.events import format_ts
from jitctx.telemetry.log_reader import make_filter
from jitctx.telemetry.record_fields import human_bytes
from jitctx.telemetry.stats import Stats, StatsAccumulator, compute_stats, percentile

T0 = datetime(2026, 8, 8, 9, 0, 0, tzinfo=UTC)
ROOT = "/work/proj"
CLAUDE_MD = 11_420  # bytes: shows as 11.2 KiB, the seed's cumulative P50 and top of the leaderboard


def ts(seconds: float) -> str:
    return format_ts(T0 + timedelta(seconds=seconds))


def item(name: str, size: int, reason: str) -> dict[str, Any]:
    return {
        "file_path": f"{ROOT}/{name}",
        "memory_type": "Project",
        "load_reason": reason,
        "globs": [],
        "bytes": size,
        "tokens": size // 4,
    }


def startup(sid: str, at: float) -> dict[str, Any]:
    return {
        "v": 1,
        "kind": "startup",
        "ts": ts(at),
        "session_id": sid,
        "channel": "main",
        "root": ROOT,
        "cwd": ".",
        "agent": "claude-code",
        "signals": [],
        "skipped": 0,
        "elapsed_ms": 4.0,
        "cumulative_bytes": CLAUDE_MD,
        "loaded": [item("CLAUDE.md", CLAUDE_MD, "session_start")],
    }


def discovery(
    sid: str,
    at: float,
    *,
    channel: str = "main",
    elapsed: float = 2.0,
    cumulative: int = CLAUDE_MD,
    loaded: list[dict[str, Any]] | None = None,
    scanned: int = 0,
    skipped: int = 0,
) -> dict[str, Any]:
    return {
        "v": 1,
        "kind": "discovery",
        "ts": ts(at),
        "session_id": sid,
        "channel": channel,
        "root": ROOT,
        "hit": bool(loaded),
        "elapsed_ms": elapsed,
        "scope_skipped": skipped,
        "rules_scanned": scanned,
        "cumulative_bytes": cumulative,
        "trigger_file_path": f"{ROOT}/src/x{at}.py",
        "loaded": loaded or [],
    }


def host_load(
    sid: str, at: float, size: int | None = CLAUDE_MD, reason: str = "session_start"
) -> dict[str, Any]:
    record = {
        "v": 1,
        "kind": "load",
        "ts": ts(at),
        "session_id": sid,
        "channel": "main",
        "root": ROOT,
        "source": "claude-code",
        **item("CLAUDE.md", size or 0, reason),
    }
    if size is None:
        del record["bytes"]
    return record


def wrote(
    sid: str, at: float, *writes: tuple[str, list[str]], loaded: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A hook's record after tool calls that wrote files: (path, the files that came late) per file."""
    listed = [{"path": p, "rules_before": not late, **({"late": late} if late else {})} for p, late in writes]
    return {**discovery(sid, at, loaded=loaded), "writes": listed}


def held(sid: str, at: float, *loaded: str) -> dict[str, Any]:
    """A hook's record of a write held back: the rules its deny carried, and `held`."""
    return {**discovery(sid, at, loaded=[item(n, 9, "path_glob_match") for n in loaded]), "held": True}


def skill(sid: str, at: float, name: str, path: str | None = None, root: str = ROOT) -> dict[str, Any]:
    record = {"v": 1, "kind": "skill", "ts": ts(at), "session_id": sid, "channel": "main", "root": root}
    record["skill"] = name
    if path is not None:
        record["path"] = path
    return record


def seed_baseline() -> list[dict[str, Any]]:
    """The seed's 2026-08-08 run: 33 sessions (5 predating the log, 14 with JIT data), 312 discoveries
    (main 289, subagent 23), 2 hits of 74 B by nested traversal, latencies with P50 3 ms and MAX 6 ms."""
    records = [host_load(f"old-{i}", i) for i in range(5)]
    records += [startup(f"quiet-{i}", 100 + i) for i in range(14)]
    jit = [f"jit-{i:02d}" for i in range(14)]
    records += [startup(sid, 200 + i) for i, sid in enumerate(jit)]
    elapsed = [2.0] * 150 + [3.0] * 100 + [4.0] * 61 + [6.0]
    for n in range(312):
        sid = jit[n % 14]
        channel = "subagent" if n >= 289 else "main"
        if n in (40, 41):  # the two hits, in two sessions
            loaded = [item(f"pkg{n}/CLAUDE.md", 74, "nested_traversal")]
            records.append(
                discovery(
                    sid, 1000 + n, elapsed=elapsed[n], cumulative=CLAUDE_MD + 74, loaded=loaded, scanned=1
                )
            )
        else:
            cumulative = CLAUDE_MD + 74 if sid in (jit[40 % 14], jit[41 % 14]) and n > 41 else CLAUDE_MD
            records.append(
                discovery(sid, 1000 + n, channel=channel, elapsed=elapsed[n], cumulative=cumulative)
            )
    return records


def pct(value: float | None) -> str:
    assert value is not None
    return f"{value * 100:.1f}%"


SEED_ROWS: list[tuple[str, Callable[[Stats], object], object]] = [
    ("sessions", lambda s: s.sessions, 33),
    ("predate the log", lambda s: s.sessions_predating_log, 5),
    ("with JIT data", lambda s: s.sessions_with_discoveries, 14),
    ("discoveries", lambda s: s.discoveries, 312),
    ("hits", lambda s: s.hits, 2),
    ("hit rate 0.6%", lambda s: pct(s.hit_rate), "0.6%"),
    ("mean bytes per injection 74 B", lambda s: human_bytes(s.mean_bytes_per_load or 0), "74 B"),
    (
        "waste rate 0.0% (0 / 2)",
        lambda s: (pct(s.waste_rate), s.scope_skipped, s.rules_scanned),
        ("0.0%", 0, 2),
    ),
    ("cumulative P50 11.2 KB", lambda s: human_bytes(s.cumulative_bytes.p50), "11.2 KiB"),  # type: ignore[union-attr]
    ("cumulative P95 11.2 KB", lambda s: human_bytes(s.cumulative_bytes.p95), "11.2 KiB"),  # type: ignore[union-attr]
    ("cumulative MAX 11.2 KB", lambda s: human_bytes(s.cumulative_bytes.max), "11.2 KiB"),  # type: ignore[union-attr]
    ("latency P50 / MAX", lambda s: (s.latency_ms.p50, s.latency_ms.max), (3.0, 6.0)),  # type: ignore[union-attr]
    ("by reason", lambda s: {r.reason: r.loads for r in s.by_reason}.get("nested_traversal"), 2),
    (
        "by channel",
        lambda s: [(c.channel, c.discoveries) for c in s.by_channel],
        [("main", 289), ("subagent", 23)],
    ),
    (
        "top file",
        lambda s: (s.by_file[0].file, human_bytes(s.by_file[0].size or 0)),
        ("CLAUDE.md", "11.2 KiB"),
    ),
]


@pytest.mark.parametrize(("label", "read", "expected"), SEED_ROWS, ids=[row[0] for row in SEED_ROWS])
def test_seed_baseline(label: str, read: Callable[[Stats], object], expected: object) -> None:
    assert read(compute_stats(seed_baseline())) == expected


def test_seed_window_covers_the_records() -> None:
    window = compute_stats(seed_baseline()).window
    assert (window.first_ts, window.last_ts) == (ts(0), ts(1311))
    assert window.records == 5 + 28 + 312 and window.invalid == 0


def test_window_drift_52x() -> None:
    """The seed's P50 went from 186 B to 9.5 KB when its rolling window moved: same data, other window."""
    old = [startup(f"old-{i}", i) | {"cumulative_bytes": 186, "loaded": []} for i in range(10)]
    new = [startup(f"new-{i}", 86_400 * 4 + i) | {"cumulative_bytes": 9_728, "loaded": []} for i in range(9)]
    everything = compute_stats(old + new)
    since = T0 + timedelta(days=4)
    moved = compute_stats([r for r in old + new if r["ts"] >= format_ts(since)], keep=make_filter(since))
    assert (everything.sessions, everything.cumulative_bytes.p50) == (19, 186)  # type: ignore[union-attr]
    assert (moved.sessions, moved.cumulative_bytes.p50) == (9, 9_728)  # type: ignore[union-attr]
    assert round(9_728 / 186) == 52
    assert moved.window.since == format_ts(since) and moved.window.first_ts == ts(86_400 * 4)


def test_host_only_session_counts_its_loads() -> None:
    stats = compute_stats(
        [
            host_load("h", 0, 1000),
            host_load("h", 5, 24, "path_glob_match"),
            host_load("h", 6, None, "include"),
        ]
    )
    assert stats.sessions_predating_log == 1 and stats.discoveries == 0 and stats.hit_rate is None
    assert stats.loads == 3 and stats.load_bytes == 1024
    assert stats.mean_bytes_per_load == 24  # the startup load is no JIT injection; the sizeless one unknown
    assert stats.cumulative_bytes is not None and stats.cumulative_bytes.max == 1024
    (series,) = stats.series
    assert series.points == ((ts(0), 1000), (ts(5), 1024)) and series.predates_log


def test_series_keeps_changes_of_the_main_channel() -> None:
    records = [
        startup("s", 0),
        discovery("s", 1),
        discovery("s", 2, cumulative=CLAUDE_MD + 50, loaded=[item("a.md", 50, "path_glob_match")]),
        discovery("s", 3, cumulative=CLAUDE_MD + 50),
        discovery("s", 4, channel="subagent", cumulative=7),
    ]
    (series,) = compute_stats(records).series
    assert series.points == ((ts(0), CLAUDE_MD), (ts(2), CLAUDE_MD + 50))
    assert series.last_ts == ts(4)


def test_leaderboard_sums_bytes_carried_and_disambiguates() -> None:
    other = {
        "root": "/elsewhere",
        "loaded": [{**item("CLAUDE.md", 5, "session_start"), "file_path": "/elsewhere/CLAUDE.md"}],
    }
    records = [startup("a", 0), startup("b", 1), startup("c", 2) | other]
    board = compute_stats(records).by_file
    # The same name in two projects: two rows, told apart by their project, each path root-relative.
    assert [(r.file, r.project, r.loads, r.bytes, r.sessions) for r in board] == [
        ("CLAUDE.md", ROOT, 2, 2 * CLAUDE_MD, 2),
        ("CLAUDE.md", "/elsewhere", 1, 5, 1),
    ]


def test_a_session_knows_its_project_and_its_start() -> None:
    records = [startup("a", 0), discovery("a", 3)]
    (series,) = compute_stats(records).series
    assert series.project == ROOT and series.first_ts == ts(0) and series.last_ts == ts(3)


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ("x", "elapsed_ms"),
        ("3", "scope_skipped"),
        (None, "cumulative_bytes"),
        (5, "ts"),
        (["s"], "session_id"),
        ({"a": 1}, "loaded"),
        (True, "rules_scanned"),
    ],
)
def test_wrong_types_are_counted_not_raised(bad: object, field: str) -> None:
    stats = compute_stats([discovery("s", 0), {**discovery("s", 1), field: bad}])
    assert stats.window.invalid == 1 and stats.discoveries == 1 and stats.window.records == 1


def test_a_bad_load_item_leaves_no_half_record() -> None:
    record = discovery("s", 0, loaded=[item("a.md", 5, "include"), {"bytes": "lots"}])
    stats = compute_stats([record])
    assert stats.window.invalid == 1 and stats.loads == 0 and stats.discoveries == 0 and stats.sessions == 0


def test_skill_uses_are_counted_per_skill_and_project() -> None:
    records = [
        startup("a", 0),
        skill("a", 1, "commit", ".claude/skills/commit/SKILL.md"),
        skill("a", 2, "commit", ".claude/skills/commit/SKILL.md"),
        skill("b", 3, "commit"),  # its path unknown this time: the known one is kept
        skill("b", 4, "commit", root="/work/other"),
        skill("b", 5, "plugin:review"),
        discovery("a", 6),
    ]
    stats = compute_stats(records)
    assert [tuple(row) for row in stats.by_skill] == [
        ("commit", 3, 2, ROOT, ".claude/skills/commit/SKILL.md"),
        ("commit", 1, 1, "/work/other", None),
        ("plugin:review", 1, 1, ROOT, None),
    ]
    assert stats.to_json()["by_skill"][0] == {
        "skill": "commit",
        "uses": 3,
        "sessions": 2,
        "project": ROOT,
        "path": ".claude/skills/commit/SKILL.md",
    }
    # A skill use is no discovery and no load: the hit rate and the channels do not move. It names its
    # session, which stays one that predates the log when no startup or discovery of jitctx names it.
    without = compute_stats([r for r in records if r["kind"] != "skill"])
    assert (stats.discoveries, stats.hit_rate, stats.loads, stats.by_channel) == (
        without.discoveries,
        without.hit_rate,
        without.loads,
        without.by_channel,
    )
    assert (stats.sessions, stats.sessions_predating_log, stats.window.records) == (2, 1, 7)


@pytest.mark.parametrize(
    "fields", [{"skill": 3}, {"skill": ""}, {"skill": None}, {"path": 5}, {"path": [".claude"]}]
)
def test_a_skill_record_with_a_wrong_field_is_invalid(fields: dict[str, Any]) -> None:
    stats = compute_stats([skill("s", 0, "commit"), {**skill("s", 1, "x"), **fields}])
    assert stats.window.invalid == 1 and [r.uses for r in stats.by_skill] == [1]


def test_writes_before_their_rules_are_counted_with_their_files_and_sessions() -> None:
    records = [
        startup("off", 0),
        # Holding off: the UI rules reach the model only with the answer to the write (sent by jitctx,
        # or loaded by the client itself: then the record loaded nothing).
        wrote("off", 1, ("src/ui/A.tsx", ["src/ui/CLAUDE.md", ".claude/rules/ui.md"])),
        wrote("off", 2, ("src/ui/A.tsx", []), ("docs/x.md", [])),  # its rules are in context now
        wrote("off", 3, ("src/ui/B.tsx", [".claude/rules/ui.md"]), loaded=[item("r.md", 9, "include")]),
        startup("on", 4),
        held("on", 5, "src/ui/CLAUDE.md", ".claude/rules/ui.md"),  # held once, the rules in its deny
        wrote("on", 6, ("src/ui/A.tsx", [])),  # the write made again: its rules came first
        wrote("other", 7, ("src/ui/A.tsx", ["src/ui/CLAUDE.md"])) | {"root": "/work/other"},
    ]
    writes = compute_stats(records).writes
    assert (writes.total, writes.before_rules, writes.before_rules_sessions, writes.held) == (6, 3, 2, 1)
    assert [tuple(row) for row in writes.before_rules_files] == [
        ("src/ui/A.tsx", 1, 1, ("src/ui/CLAUDE.md",), "/work/other"),
        ("src/ui/A.tsx", 1, 1, ("src/ui/CLAUDE.md", ".claude/rules/ui.md"), ROOT),
        ("src/ui/B.tsx", 1, 1, (".claude/rules/ui.md",), ROOT),
    ]
    assert compute_stats(records).to_json()["writes"] == {
        "total": 6,
        "before_rules": 3,
        "before_rules_sessions": 2,
        "before_rules_files": [
            {
                "path": "src/ui/A.tsx",
                "writes": 1,
                "sessions": 1,
                "late": ["src/ui/CLAUDE.md"],
                "project": "/work/other",
            },
            {
                "path": "src/ui/A.tsx",
                "writes": 1,
                "sessions": 1,
                "late": ["src/ui/CLAUDE.md", ".claude/rules/ui.md"],
                "project": ROOT,
            },
            {
                "path": "src/ui/B.tsx",
                "writes": 1,
                "sessions": 1,
                "late": [".claude/rules/ui.md"],
                "project": ROOT,
            },
        ],
        "held": 1,
    }


def test_a_write_record_is_still_a_discovery_of_the_hit_rate() -> None:
    """A write's record that loaded nothing is counted as the miss it is, like any other."""
    plain = [startup("s", 0), discovery("s", 1), discovery("s", 2, loaded=[item("a.md", 5, "include")])]
    with_writes = [
        plain[0],
        wrote("s", 1, ("a.py", [])),
        plain[2] | {"writes": [{"path": "b.py", "rules_before": True}]},
    ]
    one, other = compute_stats(plain), compute_stats(with_writes)
    assert (other.discoveries, other.hits, other.loads, other.by_channel) == (
        one.discoveries,
        one.hits,
        one.loads,
        one.by_channel,
    )
    assert (other.writes.total, other.writes.before_rules) == (2, 0) and one.writes.total == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"writes": {"path": "a"}},
        {"writes": ["a.py"]},
        {"writes": [{"path": "a.py"}]},
        {"writes": [{"path": 3, "rules_before": True}]},
        {"writes": [{"path": "a.py", "rules_before": "no"}]},
        {"writes": [{"path": "a.py", "rules_before": False, "late": "CLAUDE.md"}]},
        {"writes": [{"path": "a.py", "rules_before": False, "late": [None]}]},
        {"held": "yes"},
        {"held": 1},
    ],
)
def test_a_write_record_with_a_wrong_field_is_invalid(fields: dict[str, Any]) -> None:
    stats = compute_stats([wrote("s", 0, ("a.py", ["CLAUDE.md"])), {**discovery("s", 1), **fields}])
    assert stats.window.invalid == 1 and stats.discoveries == 1
    assert (stats.writes.total, stats.writes.before_rules, stats.writes.held) == (1, 1, 0)


def test_no_write_recorded_is_no_count_of_writes() -> None:
    writes = compute_stats([startup("s", 0), discovery("s", 1)]).writes
    assert (writes.total, writes.before_rules, writes.held, writes.before_rules_files) == (0, 0, 0, ())


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5, 5),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95, 10),
        ([7], 0.5, 7),
        ([7], 0.95, 7),
        ([1, 2], 0.5, 1),
        ([1, 2, 3], 0.5, 2),
    ],
)
def test_nearest_rank_percentile(values: list[float], q: float, expected: float) -> None:
    assert percentile(values, q) == expected


def test_empty() -> None:
    stats = compute_stats([])
    assert stats.sessions == 0 and stats.hit_rate is None and stats.cumulative_bytes is None
    assert stats.latency_ms is None and stats.window.first_ts is None


# -- merging is exact ------------------------------------------------------------------------------


@st.composite
def logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for n in range(draw(st.integers(0, 60))):
        sid = draw(st.sampled_from(["a", "b", "c", "d"]))
        kind = draw(
            st.sampled_from(["miss", "miss", "hit", "startup", "host", "skill", "write", "held", "junk"])
        )
        if kind == "miss":
            records.append(
                discovery(
                    sid,
                    n,
                    channel=draw(st.sampled_from(["main", "subagent"])),
                    elapsed=draw(st.sampled_from([0.5, 1.0, 2.25])),
                    cumulative=draw(st.integers(0, 50)),
                    skipped=draw(st.integers(0, 2)),
                    scanned=2,
                )
            )
        elif kind == "hit":
            records.append(
                discovery(
                    sid,
                    n,
                    cumulative=draw(st.integers(0, 50)),
                    loaded=[item(draw(st.sampled_from(["x.md", "y.md"])), 3, "path_glob_match")],
                )
            )
        elif kind == "startup":
            records.append(startup(sid, n))
        elif kind == "host":
            records.append(host_load(sid, n, draw(st.none() | st.integers(0, 9)), "include"))
        elif kind == "write":
            path = draw(st.sampled_from(["a.tsx", "b.tsx"]))
            late = draw(st.sampled_from([[], ["CLAUDE.md"], ["r.md", "CLAUDE.md"]]))
            records.append(wrote(sid, n, (path, late)) | {"root": draw(st.sampled_from([ROOT, "/other"]))})
        elif kind == "held":
            records.append(held(sid, n, "r.md"))
        elif kind == "skill":
            name = draw(st.sampled_from(["commit", "review"]))
            path = draw(st.sampled_from([None, f".claude/skills/{name}/SKILL.md", "elsewhere/SKILL.md"]))
            records.append(skill(sid, n, name, path, root=draw(st.sampled_from([ROOT, "/other"]))))
        else:
            records.append({**discovery(sid, n), "elapsed_ms": "slow"})
    return records


@settings(max_examples=250, deadline=None)
@given(records=logs(), data=st.data())
def test_merging_two_halves_equals_one_pass(records: list[dict[str, Any]], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(records)))
    first, second = StatsAccumulator(), StatsAccumulator()
    first.add_all(records[:cut])
    second.add_all(records[cut:])
    first.merge(second)
    assert first.result() == compute_stats(records)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "v",
                    "kind",
                    "ts",
                    "session_id",
                    "loaded",
                    "hit",
                    "elapsed_ms",
                    "cumulative_bytes",
                    "channel",
                    "bytes",
                    "file_path",
                    "skill",
                    "path",
                    "writes",
                    "held",
                ]
            ),
            st.none()
            | st.booleans()
            | st.integers()
            | st.floats()
            | st.text(max_size=5)
            | st.lists(st.integers(), max_size=2),
        ),
        max_size=20,
    )
)
def test_any_dicts_never_crash(records: list[dict[str, Any]]) -> None:
    stats = compute_stats(records)
    assert stats.window.records + stats.window.invalid == len(records)
