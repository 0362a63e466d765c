"""Records: built from real discoveries and startups and from Claude Code's hook payload; one line each."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.telemetry.events import (
    MAX_LINE_BYTES,
    MIN_LINE_BYTES,
    SCHEMA_VERSION,
    channel_of,
    encode_event,
    event_from_discovery,
    event_from_instructions_loaded,
    event_from_skill,
    event_from_startup,
    format_ts,
    held_bytes,
    parse_line,
    parse_ts,
    record_problem,
)
from tests.conftest import write_tree

T0 = datetime(2026, 8, 8, 12, 0, 13, 123456, tzinfo=UTC)

# The payload Claude Code hands an InstructionsLoaded hook on stdin (the observability seed's example).
PAYLOAD = {
    "session_id": "61da82e1-0000-4000-8000-000000000001",
    "hook_event_name": "InstructionsLoaded",
    "cwd": "/path/to/project",
    "file_path": "/path/to/project/.claude/rules/service-layer.md",
    "memory_type": "Project",
    "load_reason": "path_glob_match",
    "globs": ["internal/service/**/*.go"],
    "trigger_file_path": "/path/to/project/internal/service/evidence_agent.go",
}


@pytest.fixture
def session(tmp_path: Path) -> Session:
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root rules\n",
            "src/ui/CLAUDE.md": "ui rules: no emoji\n",
            ".claude/rules/py.md": "---\npaths: ['**/*.py']\n---\ntype everything\n",
            "src/ui/Footer.tsx": "",
            "src/app.py": "",
            "docs/x.md": "",
        },
    )
    return Session(Project(root, managed_files=()), cwd=root, use_git=False, session_id="s-1")


def test_discovery_hit_record(session: Session) -> None:
    session.startup()
    root = session.project.root
    discovery = session.discover("src/ui/Footer.tsx")
    event = event_from_discovery(
        discovery, session_id="s-1", root=root, cumulative_bytes=held_bytes(session.blocks()), ts=T0
    )
    assert list(event)[:6] == ["v", "kind", "ts", "session_id", "channel", "root"]
    assert event["v"] == SCHEMA_VERSION and event["kind"] == "discovery"
    assert event["ts"] == "2026-08-08T12:00:13.123Z"
    assert event["channel"] == "main" and "agent_id" not in event
    assert event["hit"] is True
    assert event["trigger_file_path"] == f"{root}/src/ui/Footer.tsx"
    assert [(i["file_path"], i["memory_type"], i["load_reason"]) for i in event["loaded"]] == [
        (f"{root}/src/ui/CLAUDE.md", "Project", "nested_traversal")
    ]
    item = event["loaded"][0]
    assert item["bytes"] == len(b"ui rules: no emoji\n") and item["tokens"] >= 1 and item["globs"] == []
    assert "trigger_file_path" not in item  # the same as the record's own
    assert event["cumulative_bytes"] == len(b"root rules\n") + len(b"ui rules: no emoji\n")
    assert event["rules_scanned"] == 1 + event["scope_skipped"]


def test_discovery_miss_is_recorded_with_its_numbers(session: Session) -> None:
    session.startup()
    discovery = session.discover("docs/x.md")
    event = event_from_discovery(
        discovery, session_id="s-1", root=session.project.root, cumulative_bytes=11, rules_scanned=4, ts=T0
    )
    assert event["hit"] is False and event["loaded"] == []
    assert event["scope_skipped"] == 1  # the *.py rule was checked and did not match
    assert event["rules_scanned"] == 4
    assert isinstance(event["elapsed_ms"], float)


def test_glob_match_carries_its_globs(session: Session) -> None:
    session.startup()
    event = event_from_discovery(
        session.discover("src/app.py"), session_id="s-1", root=session.project.root, cumulative_bytes=0
    )
    (item,) = event["loaded"]
    assert item["load_reason"] == "path_glob_match" and item["globs"] == ["**/*.py"]


def test_subagent_channel_keeps_its_id(session: Session) -> None:
    session.startup()
    discovery = session.discover("src/ui/Footer.tsx", channel="agent-7")
    event = event_from_discovery(discovery, session_id="s-1", root=session.project.root, cumulative_bytes=0)
    assert event["channel"] == "subagent" and event["agent_id"] == "agent-7"


def test_outside_path_is_a_miss_with_a_note(session: Session, tmp_path: Path) -> None:
    discovery = session.discover(str(tmp_path / "elsewhere.py"))
    event = event_from_discovery(discovery, session_id="s-1", root=session.project.root, cumulative_bytes=0)
    assert event["hit"] is False and "outside" in event["note"]
    assert event["trigger_file_path"] == str(tmp_path / "elsewhere.py")


def test_startup_record(session: Session) -> None:
    startup = session.startup()
    event = event_from_startup(startup, session_id="s-1", ts=T0)
    assert event["kind"] == "startup" and event["agent"] == startup.agent
    assert [i["load_reason"] for i in event["loaded"]] == ["session_start"]
    assert event["cumulative_bytes"] == len(b"root rules\n")
    assert event["skipped"] == len(startup.skipped)


@pytest.mark.parametrize(
    ("channel", "expected"),
    [("main", ("main", None)), ("subagent", ("subagent", None)), ("a1b2", ("subagent", "a1b2"))],
)
def test_channel_of(channel: str, expected: tuple[str, str | None]) -> None:
    assert channel_of(channel) == expected


def test_instructions_loaded_payload() -> None:
    event = event_from_instructions_loaded(PAYLOAD, source="claude-code", file_bytes=640, tokens=160, ts=T0)
    assert event == {
        "v": 1,
        "kind": "load",
        "ts": "2026-08-08T12:00:13.123Z",
        "session_id": PAYLOAD["session_id"],
        "channel": "main",
        "root": "/path/to/project",
        "source": "claude-code",
        "file_path": PAYLOAD["file_path"],
        "memory_type": "Project",
        "load_reason": "path_glob_match",
        "globs": ["internal/service/**/*.go"],
        "trigger_file_path": PAYLOAD["trigger_file_path"],
        "cwd": "/path/to/project",
        "bytes": 640,
        "tokens": 160,
    }


def test_skill_record() -> None:
    event = event_from_skill(
        "commit", session_id="s", root="/p", path=".claude/skills/commit/SKILL.md", ts=T0
    )
    assert event == {
        "v": 1,
        "kind": "skill",
        "ts": "2026-08-08T12:00:13.123Z",
        "session_id": "s",
        "channel": "main",
        "root": "/p",
        "skill": "commit",
        "path": ".claude/skills/commit/SKILL.md",
    }
    in_subagent = event_from_skill("plugin:x", session_id="s", root="/p", channel="a1b2", ts=T0)
    assert (in_subagent["channel"], in_subagent["agent_id"]) == ("subagent", "a1b2")
    assert "path" not in in_subagent
    assert record_problem(parse_line(encode_event(event).decode())) is None


def test_instructions_loaded_in_a_subagent_and_with_junk_fields() -> None:
    payload: dict[str, Any] = {**PAYLOAD, "agent_id": "sub-3", "globs": "not a list", "file_path": 7}
    event = event_from_instructions_loaded(payload, source="claude-code", root="/r")
    assert event["channel"] == "subagent" and event["agent_id"] == "sub-3"
    assert event["globs"] == [] and event["file_path"] == "" and event["root"] == "/r"
    assert "bytes" not in event


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 8, 8, 12, 0, 13, 999999, tzinfo=UTC), "2026-08-08T12:00:13.999Z"),
        (datetime(2026, 8, 8, 20, 0, 0, tzinfo=timezone(timedelta(hours=8))), "2026-08-08T12:00:00.000Z"),
        (datetime(2026, 8, 8), "2026-08-08T00:00:00.000Z"),  # naive is taken as UTC
    ],
)
def test_format_ts(moment: datetime, text: str) -> None:
    assert format_ts(moment) == text
    expected = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    assert parse_ts(text) == expected.replace(microsecond=expected.microsecond // 1000 * 1000)


# -- one line ----------------------------------------------------------------------------------------


def big_event(loads: int, trigger: str = "/p/a.py") -> dict[str, Any]:
    item = {
        "file_path": "/p/" + "d/" * 40 + "CLAUDE.md",
        "memory_type": "Project",
        "load_reason": "nested_traversal",
        "globs": ["**/*.py"] * 5,
        "bytes": 100,
        "tokens": 25,
    }
    return {
        "v": 1,
        "kind": "discovery",
        "ts": format_ts(T0),
        "session_id": "s",
        "channel": "main",
        "root": "/p",
        "hit": True,
        "elapsed_ms": 1.5,
        "scope_skipped": 0,
        "rules_scanned": loads,
        "cumulative_bytes": 100 * loads,
        "trigger_file_path": trigger,
        "loaded": [item] * loads,
    }


def test_small_record_is_one_compact_line() -> None:
    line = encode_event(big_event(1))
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and b", " not in line
    assert json.loads(line) == big_event(1)


def test_oversized_record_drops_loads_and_says_so() -> None:
    line = encode_event(big_event(2000))
    assert len(line) <= MAX_LINE_BYTES and line.endswith(b"\n")
    record = json.loads(line)
    assert 0 < len(record["loaded"]) < 2000
    assert record["truncated"]["loaded"] == 2000 - len(record["loaded"])
    assert record["cumulative_bytes"] == 200_000 and record["hit"] is True


def test_oversized_string_is_cut() -> None:
    record = json.loads(encode_event(big_event(1, trigger="/p/" + "x" * 100_000)))
    assert record["trigger_file_path"].endswith("…") and record["truncated"]["strings"] == 1


def test_minimal_record_as_last_resort() -> None:
    event = {**big_event(0), "session_id": "s" * 10_000, "weird": ["y" * 500] * 20}
    line = encode_event(event, MIN_LINE_BYTES)
    record = json.loads(line)
    assert len(line) <= MIN_LINE_BYTES
    assert record["truncated"] == {"record": 1} and record["kind"] == "discovery" and record["hit"] is True


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=40) | st.just("é" * 3000),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=20), inner, max_size=6),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    extra=st.dictionaries(st.text(min_size=1, max_size=12), json_values, max_size=4),
    loads=st.sampled_from([0, 1, 30, 400]),
    cap=st.sampled_from([MIN_LINE_BYTES, 8192, MAX_LINE_BYTES]),
)
def test_every_record_becomes_one_whole_line(extra: dict[str, Any], loads: int, cap: int) -> None:
    event = {**big_event(loads), **extra}
    line = encode_event(event, cap)
    assert len(line) <= cap and line.endswith(b"\n") and line.count(b"\n") == 1
    assert isinstance(parse_line(line.decode("utf-8")), dict)


# -- reading one line --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"v":1,"kind":"discovery","ts":"2026-08-08T00:00:00.000Z","session_id":"s"}', None),
        ('{"v":1,"kind":"startup","ts":"2026-08-08T00:00:00.000Z","session_id":"s"}', None),
        ('{"v":1,"kind":"load","ts":"2026-08-08T00:00:00.000Z","session_id":"s"}', None),
        ('{"v":1,"kind":"skill","ts":"2026-08-08T00:00:00.000Z","session_id":"s"}', None),
        ('{"v":1,"kind":"load","ts":"not a time","session_id":"s"}', "corrupt"),  # filters could not order it
        (
            '{"v":1,"kind":"load","ts":"2026-08-08T00:00:00Z","session_id":"s"}',
            "corrupt",
        ),  # not the stored form
        ('{"v":2,"kind":"discovery","ts":"t","session_id":"s"}', "version"),
        ('{"v":1,"kind":"heartbeat","ts":"t","session_id":"s"}', "kind"),
        ('{"v":true,"kind":"discovery","ts":"t","session_id":"s"}', "corrupt"),
        ('{"kind":"discovery","ts":"t","session_id":"s"}', "corrupt"),
        ('{"v":1,"kind":"discovery","ts":5,"session_id":"s"}', "corrupt"),
        ("[1,2]", "corrupt"),
    ],
)
def test_record_problem(line: str, problem: str | None) -> None:
    assert record_problem(parse_line(line)) == problem


@pytest.mark.parametrize("line", ['{"v":1', "", "nope", '{"v":1}{"v":1}', '{"v":1} x', "[" * 100_000])
def test_parse_line_rejects(line: str) -> None:
    with pytest.raises(ValueError):
        parse_line(line)


def test_parse_line_allows_trailing_space() -> None:
    assert parse_line('{"v":1}  \r') == {"v": 1}


def test_times_far_from_now_keep_their_stored_form() -> None:
    from jitctx.telemetry.events import is_stored_ts

    early = format_ts(datetime(1, 1, 1, tzinfo=UTC))
    assert early == "0001-01-01T00:00:00.000Z" and is_stored_ts(early)
    with pytest.raises(ValueError, match="outside the calendar"):
        parse_ts("9999-12-31T23:59:59-01:00")
