"""The hook's fast lane: a warm no-load PostToolUse is answered from the quick index, recorded like the
engine records a miss, and anything else still goes to the engine."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from jitctx.hook.fast_lane import try_quick
from tests.conftest import EXAMPLE, git_init, settle


def event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {"session_id": "q1", "transcript_path": "/tmp/t.jsonl", "cwd": str(root), "hook_event_name": name,
            **fields}  # fmt: skip


def read(root: Path, rel: str) -> dict[str, Any]:
    return event(root, "PostToolUse", tool_name="Read", tool_input={"file_path": str(root / rel)},
                 tool_response={})  # fmt: skip


def shell_read(root: Path, rel: str) -> dict[str, Any]:
    """A read through the shell: Claude Code loads nothing by itself on it, so what applies is jitctx's to
    send (after its Read tool, Claude Code would load the scoped rules itself)."""
    return event(root, "PostToolUse", tool_name="Bash", tool_input={"command": f"cat {root / rel}"},
                 tool_response={})  # fmt: skip


def records(state: Path) -> list[dict[str, Any]]:
    lines = [
        line for path in sorted((state / "events").glob("*.jsonl")) for line in path.read_text().splitlines()
    ]
    return [json.loads(line) for line in lines]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    return settle(git_init(root))


def test_warm_read_is_answered_quickly_and_recorded(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    code, answer, _ = run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    assert code == 0 and "src/api/AGENTS.md" in json.dumps(answer)  # the engine loaded it
    raw = json.dumps(shell_read(project, "src/api/users.ts")).encode()
    assert try_quick("claude-code", raw, str(state))  # warm now: the fast lane can answer
    engine_miss = next(r for r in records(state) if r["kind"] == "discovery")
    code, answer, _ = run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    assert (code, answer) == (0, {})
    quick_miss = records(state)[-1]
    assert quick_miss["kind"] == "discovery" and quick_miss["hit"] is False
    assert set(quick_miss) >= set(engine_miss) - {"note", "dropped", "host_loaded"}
    assert quick_miss["trigger_file_path"] == str(project / "src/api/users.ts")


def test_the_fast_lane_keeps_the_events_ids(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    warm = {**shell_read(project, "src/api/users.ts"), "prompt_id": "p-1", "tool_use_id": "toolu_9"}
    assert try_quick("claude-code", json.dumps(warm).encode(), str(state))
    quick_miss = records(state)[-1]
    assert (quick_miss["prompt_id"], quick_miss["tool_use_id"]) == ("p-1", "toolu_9")


def test_the_fast_lane_defers_whenever_something_changed(project: Path, hook_env: dict[str, str],
                                                         run_hook_process: Any) -> None:  # fmt: skip
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    (project / "src/api/AGENTS.md").write_text("API rules, version 2\n")
    raw = json.dumps(shell_read(project, "src/api/users.ts")).encode()
    assert not try_quick("claude-code", raw, str(state))
    _, answer, _ = run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    assert "version 2" in json.dumps(answer)  # the engine re-sent the edited file


@pytest.mark.parametrize(
    "change",
    [
        lambda e: {**e, "agent_id": "sub-1"},  # a sub-agent's channel
        lambda e: {**e, "hook_event_name": "UserPromptSubmit"},
        lambda e: {**e, "tool_input": {"file_path": "website/index.md"}},  # never scanned
        lambda e: {**e, "session_id": "unknown-session"},  # no index
    ],
)
def test_cases_left_to_the_engine(project: Path, hook_env: dict[str, str], run_hook_process: Any,
                                  change: Any) -> None:  # fmt: skip
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    run_hook_process("claude-code", read(project, "src/api/users.ts"))
    assert not try_quick(
        "claude-code", json.dumps(change(read(project, "src/api/users.ts"))).encode(), str(state)
    )


def test_codex_and_garbage_go_to_the_engine(tmp_path: Path) -> None:
    assert not try_quick("codex", b'{"hook_event_name": "PostToolUse"}', str(tmp_path))
    assert not try_quick("claude-code", b'"PostToolUse" but not json', str(tmp_path))


def test_an_agents_md_created_in_a_warm_directory_reaches_the_agent(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    run_hook_process("claude-code", shell_read(project, "tools/gen.py"))
    raw = json.dumps(shell_read(project, "tools/gen.py")).encode()
    assert try_quick("claude-code", raw, str(state))  # warm: nothing new can load there
    (project / "tools/AGENTS.md").write_text("TOOLS_RULE: run gen.py with --check\n")
    assert not try_quick("claude-code", raw, str(state))  # the listing changed: the engine looks
    code, answer, _ = run_hook_process("claude-code", shell_read(project, "tools/gen.py"))
    assert code == 0 and "TOOLS_RULE" in json.dumps(answer)


def test_the_agent_is_told_when_a_rule_it_holds_is_gone(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    code, answer, _ = run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    assert "src/api/AGENTS.md" in json.dumps(answer)
    (project / "src/api/AGENTS.md").unlink()
    code, answer, _ = run_hook_process("claude-code", shell_read(project, "src/api/users.ts"))
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert code == 0 and "src/api/AGENTS.md left this session" in context
    assert "no longer apply" in context


def test_both_lanes_record_what_the_context_carries_as_a_session_counts_it(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    """Bodies without frontmatter, as `touch`, `replay` and the library count them."""
    from jitctx.discovery.session import Session
    from jitctx.project import Project
    from jitctx.telemetry.events import held_bytes

    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    run_hook_process("claude-code", read(project, "src/ui/Footer.tsx"))  # the engine
    run_hook_process("claude-code", read(project, "src/ui/Footer.tsx"))  # the quick lane
    engine, quick = [r for r in records(state) if r["kind"] == "discovery"][-2:]
    session = Session(Project(project, home=hook_env["JITCTX_HOME"]), cwd=project, use_git=False)
    session.startup()
    session.discover("src/ui/Footer.tsx")
    expected = held_bytes(session.blocks())
    assert engine["cumulative_bytes"] == quick["cumulative_bytes"] == expected


def test_many_files_gone_at_once_are_counted_not_listed() -> None:
    from jitctx.hook.context import dropped_notes, fit_with_notes

    notes = dropped_notes([f"pkg{n}/AGENTS.md" for n in range(120)])
    assert len(notes) == 11 and "110 more instruction files left this session" in notes[-1]
    assert len(fit_with_notes([], notes, 10_000)) < 2_000


def test_a_touch_the_host_served_itself_is_a_hit_without_bytes_sent(
    project: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    """After a Read, Claude Code loads nested CLAUDE.md files and scoped rules by itself: jitctx sends
    nothing, and records the hit with what the host loaded, so the hit rate counts it."""
    state = Path(hook_env["JITCTX_STATE_DIR"])
    run_hook_process("claude-code", event(project, "SessionStart", source="startup"))
    code, answer, _ = run_hook_process("claude-code", read(project, "src/ui/Footer.tsx"))
    assert code == 0 and "components.md" not in json.dumps(answer)
    record = [r for r in records(state) if r["kind"] == "discovery"][-1]
    assert record["hit"] is True
    assert str(project / ".claude/rules/components.md") in record["host_loaded"]
    assert all("components.md" not in item["file_path"] for item in record["loaded"])
