"""One record writer: the hook's fast lane, which holds plain values and never imports the engine, and the
structured path, which holds a `Discovery` or a `Startup`, build and write the very same record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.discovery.store import SessionStore
from jitctx.model import Discovery
from jitctx.project import Project
from jitctx.safe_open import RefusedFile
from jitctx.telemetry.events import (
    event_from_discovery,
    event_from_startup,
    format_ts,
    parse_ts,
    session_held_bytes,
)
from jitctx.telemetry.records import (
    append_record,
    discovery_record,
    load_entry,
    stamp,
    startup_record,
)
from jitctx.telemetry.store import EventStore
from jitctx.tokens import estimate_tokens
from tests.conftest import settle, write_tree

IDS = {"prompt_id": "p-1", "tool_use_id": "toolu_1"}
MOMENT = {"ts", "elapsed_ms"}  # the two fields that differ between any two runs


def fast_lane_record(
    index: dict[str, Any], *, session_id: str, cwd: str, path: str, skipped: int, agent: str
) -> dict[str, Any]:
    """The record of a miss from what the fast lane holds: its quick index, the touched path as the hook
    gave it, and the scope-skip count `quick.quiet` proved; no `Discovery`, no engine."""
    return discovery_record(
        session_id=session_id,
        root=index["root"],
        trigger_file_path=os.path.normpath(os.path.join(cwd, path)),
        hit=False,
        elapsed_ms=0.5,
        scope_skipped=skipped,
        rules_scanned=skipped,
        cumulative_bytes=index["held_bytes"],
        agent=agent,
        ids=IDS,
    )


def without_moment(record: dict[str, Any]) -> list[tuple[str, Any]]:
    """The record's fields in order, without the two that depend on when it was made."""
    return [(key, value) for key, value in record.items() if key not in MOMENT]


def stored(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for path in sorted(directory.glob("*.jsonl")) for line in path.open()]


@pytest.fixture
def warm(tmp_path: Path) -> tuple[SessionStore, Path]:
    """A persisted session whose quick index proves that src/ui/README.md loads nothing."""
    root = settle(
        write_tree(
            tmp_path / "proj",
            {
                "CLAUDE.md": "root rules\n",
                "src/ui/CLAUDE.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nUI rules\n',
                ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\ntype everything\n',
                "src/ui/Footer.tsx": "",
                "src/ui/README.md": "",
                "src/app.py": "",
            },
        )
    )
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        assert opened.session.discover("src/ui/Footer.tsx").hit
    return store, root


def test_a_fast_lane_miss_is_the_record_the_engine_writes(
    warm: tuple[SessionStore, Path], tmp_path: Path
) -> None:
    store, root = warm
    index = json.loads((store.directory / quick_file_name("s")).read_text())
    skipped = quiet(index, str(root), "src/ui/README.md")
    assert skipped is not None  # the fast lane would answer this touch
    fast = fast_lane_record(
        index, session_id="s", cwd=str(root), path="src/ui/README.md", skipped=skipped, agent="claude-code"
    )

    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        session = opened.session
        step = session.discover("src/ui/README.md")
        structured = event_from_discovery(
            step,
            session_id="s",
            root=session.project.root,
            cumulative_bytes=session_held_bytes(session),
            cwd=session.cwd,
            agent="claude-code",
            ids=IDS,
        )
    assert step.loaded == () and step.scope_skipped == skipped
    assert without_moment(fast) == without_moment(structured)

    # Written by the fast lane's writer and by the engine's store: the same line, apart from the moment.
    assert append_record(tmp_path / "fast", fast) is True
    assert EventStore(tmp_path / "engine").append(structured) is True
    (fast_line,), (engine_line,) = stored(tmp_path / "fast"), stored(tmp_path / "engine")
    assert without_moment(fast_line) == without_moment(engine_line) == without_moment(fast)


def test_the_figure_of_the_index_is_the_figure_of_the_session(warm: tuple[SessionStore, Path]) -> None:
    # The fast lane records `held_bytes` of the index; the engine, what the session holds: they must agree.
    store, root = warm
    index = json.loads((store.directory / quick_file_name("s")).read_text())
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        assert session_held_bytes(opened.session) == index["held_bytes"] > 0


def plain_discovery(step: Discovery, *, root: str, held: int, agent: str, host: list[str]) -> dict[str, Any]:
    """A discovery's record from plain values, field by field, as a writer without the model builds it."""
    trigger = os.path.normpath(os.path.join(root, step.trigger))
    loaded = [
        load_entry(
            file_path=load.file.path,
            memory_type=load.file.tier.memory_type,
            load_reason=load.reason.value,
            globs=load.globs,
            file_bytes=load.file.body_bytes,
            tokens=estimate_tokens(load.file.text),
        )
        for load in step.loaded
    ]
    return discovery_record(
        session_id="s",
        root=root,
        trigger_file_path=trigger,
        hit=step.hit,
        elapsed_ms=step.elapsed_ms,
        scope_skipped=step.scope_skipped,
        cumulative_bytes=held,
        agent=agent,
        loaded=loaded,
        channel=step.channel,
        note=step.note,
        dropped=step.dropped,
        host_loaded=host,
        ids=IDS,
    )


@pytest.mark.parametrize("channel", ["main", "subagent", "agent-7"])
def test_a_hit_from_plain_values_is_the_structured_record(
    warm: tuple[SessionStore, Path], channel: str
) -> None:
    store, root = warm
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        session = opened.session
        step = session.discover("src/app.py", channel)
        held = session_held_bytes(session, channel)
    assert step.hit and step.channel == channel
    host = ["/elsewhere/CLAUDE.md"]
    structured = event_from_discovery(
        step, session_id="s", root=str(root), cumulative_bytes=held, agent="codex", host_loaded=host, ids=IDS
    )
    plain = plain_discovery(step, root=str(root), held=held, agent="codex", host=host)
    assert without_moment(plain) == without_moment(structured)
    assert structured["channel"] == ("main" if channel == "main" else "subagent")
    assert structured.get("agent_id") == (None if channel in ("main", "subagent") else channel)
    assert structured["cumulative_bytes"] == held > 0


def test_a_startup_from_plain_values_is_the_structured_record(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root rules\n", "AGENTS.md": "agents\n"})
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        started = opened.session.startup()
        held = session_held_bytes(opened.session)
    structured = event_from_startup(started, session_id="s", cumulative_bytes=held, ids=IDS)
    plain = startup_record(
        session_id="s",
        root=started.root,
        cwd=started.cwd,
        agent=started.agent,
        signals=started.signals,
        skipped=len(started.skipped),
        elapsed_ms=started.elapsed_ms,
        cumulative_bytes=held,
        loaded=structured["loaded"],
        ids=IDS,
    )
    assert without_moment(plain) == without_moment(structured)
    assert structured["agent"] == started.agent and structured["cumulative_bytes"] == held > 0


@pytest.mark.parametrize("seconds", [0.0, 1786190413.123456, 1786190413.9999, 1786190413.0005])
def test_the_stamp_of_the_fast_path_is_the_stamp_of_the_structured_path(seconds: float) -> None:
    from datetime import UTC, datetime

    expected = format_ts(datetime.fromtimestamp(int(seconds * 1000) / 1000, UTC))
    assert stamp(seconds) == expected
    assert format_ts(parse_ts(stamp(seconds))) == expected


def test_the_writer_makes_private_folders_and_refuses_a_link(tmp_path: Path) -> None:
    record = discovery_record(
        session_id="s", root="/p", trigger_file_path="/p/a.py", hit=False, elapsed_ms=0.1, scope_skipped=0,
        cumulative_bytes=0, agent="jitctx", ts="2026-08-08T12:00:00.000Z",
    )  # fmt: skip
    events = tmp_path / "state" / "events"
    assert append_record(events, record) is True
    assert (events / "2026-08-08.jsonl").read_bytes().count(b"\n") == 1
    if os.name == "posix":
        assert events.stat().st_mode & 0o777 == 0o700
        elsewhere = tmp_path / "elsewhere.txt"
        elsewhere.write_text("")
        link = events / "2026-08-09.jsonl"
        link.symlink_to(elsewhere)
        with pytest.raises(RefusedFile):
            append_record(events, {**record, "ts": "2026-08-09T00:00:00.000Z"})
        assert elsewhere.read_text() == ""


def test_the_builder_is_cheap_to_import() -> None:
    # The fast lane imports it on every tool call: nothing of dataclasses, datetime or pathlib, and of
    # jitctx only the state-dir opener.
    code = "import sys, jitctx.telemetry.records; print(' '.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert not loaded & {"dataclasses", "datetime", "pathlib"}
    assert {name for name in loaded if name.startswith("jitctx")} == {
        "jitctx",
        "jitctx.live_clients",
        "jitctx.safe_open",
        "jitctx.telemetry",
        "jitctx.telemetry.records",
    }
