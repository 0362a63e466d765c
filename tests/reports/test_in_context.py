"""What is in a session's context now (`reports.in_context`), over sessions the real hook engine recorded:
the files its state holds, each with when, why and by whom it arrived as the event log says; a compaction
sends everything again, a /clear starts over; and the state is read as the state module reads it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jitctx.reports.in_context import (
    CLIENT,
    JITCTX,
    READABLE_STATE_VERSIONS,
    StateUnreadable,
    in_context,
    read_arrivals,
    read_held,
    state_path,
    why,
)
from tests.recorded_session import recorded


def listed(state: Path, session: str = "s-1") -> dict[str, tuple[str | None, str]]:
    context = in_context(str(state), session, ["claude-code"])
    assert context is not None
    return {
        file.path: (file.arrival.by if file.arrival else None, why(file, context.root))
        for file in context.files
    }


def test_each_file_with_who_brought_it_and_why(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    assert listed(agent.state) == {
        "CLAUDE.md": (CLIENT, "session start"),
        "AGENTS.md": (JITCTX, "session start"),
        "src/ui/CLAUDE.md": (CLIENT, "touched src/ui/Footer.tsx"),
        ".cursor/rules/react.mdc": (JITCTX, "touched src/ui/Footer.tsx"),
    }
    context = in_context(str(agent.state), "s-1", ["claude-code"])
    assert context is not None and context.key == "claude-code.s-1"
    # The bytes the context carries: each file's text without its frontmatter.
    assert {f.path: f.bytes for f in context.files}[".cursor/rules/react.mdc"] == len(b"Hooks at the top.\n")
    assert context.bytes_carried == sum(f.bytes for f in context.files)
    latest = context.latest
    assert latest is not None and latest.path == ".cursor/rules/react.mdc"
    assert context.compacted_at is None


def test_a_compaction_sends_everything_again(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    before = set(listed(agent.state))
    agent.compacts()
    after = listed(agent.state)
    assert set(after) == before  # the client reloads CLAUDE.md, jitctx sends the rest again
    assert {reason for _, reason in after.values()} == {"after compaction"}
    assert after["CLAUDE.md"][0] == CLIENT and after["src/ui/CLAUDE.md"][0] == JITCTX
    context = in_context(str(agent.state), "s-1", ["claude-code"])
    assert context is not None and context.compacted_at is not None
    agent.reads("src/api/users.ts")  # after the compaction, a new arrival is the latest again
    assert listed(agent.state)["src/api/CLAUDE.md"] == (CLIENT, "touched src/api/users.ts")
    context = in_context(str(agent.state), "s-1", ["claude-code"])
    assert context is not None and context.latest is not None and context.latest.path == "src/api/CLAUDE.md"


def test_a_clear_starts_over_and_earlier_records_do_not_count(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    agent.start("clear")
    assert listed(agent.state) == {
        "CLAUDE.md": (
            None,
            "session start",
        ),  # its InstructionsLoaded of the earlier context is not this one's
        "AGENTS.md": (JITCTX, "session start"),
    }


def test_no_state_is_none_and_a_broken_one_says_so(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    assert in_context(str(agent.state), "other", ["claude-code"]) is None
    assert in_context(str(agent.state), "s-1", ["codex"]) is None  # not that agent's session
    Path(state_path(str(agent.state), "claude-code.s-1")).write_text("{not json")
    with pytest.raises(StateUnreadable):
        in_context(str(agent.state), "s-1", ["claude-code"])
    Path(state_path(str(agent.state), "claude-code.s-1")).write_text(json.dumps({"version": 99}))
    with pytest.raises(StateUnreadable):
        in_context(str(agent.state), "s-1", ["claude-code"])


def test_the_state_is_read_as_the_state_module_reads_it(tmp_path: Path) -> None:
    """The status line reads the state with json alone; the engine's reader must agree with it."""
    from jitctx.discovery.state import READABLE_VERSIONS, channels_from_json

    agent = recorded(tmp_path)
    agent.reads("src/api/users.ts")
    assert READABLE_STATE_VERSIONS == READABLE_VERSIONS
    data = json.loads(Path(state_path(str(agent.state), "claude-code.s-1")).read_text())
    main = channels_from_json(data["channels"])["main"]
    held = read_held(str(agent.state), "claude-code.s-1")
    assert held is not None and held[0] == data["root"]
    assert [(f.file_path, f.path, f.bytes, f.reason, f.tier) for f in held[1]] == [
        (path, e.display, e.carried, e.reason, e.tier) for path, e in main.loaded.items()
    ]


def test_only_the_end_of_the_log_is_read_for_the_latest(tmp_path: Path) -> None:
    """`latest_only` stops at the newest arrival; the records before it are not read."""
    agent = recorded(tmp_path)
    wanted = {str(agent.root / p) for p in ("CLAUDE.md", ".cursor/rules/react.mdc")}
    seen: list[str] = []

    def records() -> object:
        from jitctx.telemetry.log_tail import session_records

        for record in session_records(str(agent.state / "events"), "s-1"):
            seen.append(record["kind"])
            yield record

    found, _ = read_arrivals(records(), wanted, "claude-code", latest_only=True)  # type: ignore[arg-type]
    assert list(found) == [str(agent.root / ".cursor/rules/react.mdc")] and seen == ["discovery"]


def test_a_sub_agents_records_are_not_the_main_context(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    agent("SubagentStart", agent_id="sub-1", agent_type="general-purpose")
    context = in_context(str(agent.state), "s-1", ["claude-code"])
    assert context is not None and {f.path for f in context.files} == set(listed(agent.state))
    assert context.latest is not None and context.latest.path == ".cursor/rules/react.mdc"


def test_a_state_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    agent = recorded(tmp_path)
    path = state_path(str(agent.state), "claude-code.s-1")
    os.replace(path, tmp_path / "elsewhere.json")
    os.symlink(tmp_path / "elsewhere.json", path)
    with pytest.raises(StateUnreadable):
        in_context(str(agent.state), "s-1", ["claude-code"])
