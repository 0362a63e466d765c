"""Golden hook payloads, in the shapes the Claude Code and Codex docs give, fed to the real command.

One session per agent walks through every event on a copy of examples/monorepo. What Claude Code loads by
itself (CLAUDE.md on the cwd chain, .claude/rules after a Read) is never sent; everything else is, once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PAYLOADS = Path(__file__).resolve().parent / "payloads"


def test_every_golden_payload_parses_and_names_its_event() -> None:
    names = sorted(p.stem for p in PAYLOADS.glob("*.json"))
    assert len(names) == 14
    for name in names:
        data = json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))
        assert {"session_id", "cwd", "hook_event_name"} <= set(data), name
        assert "transcript_path" in data, name


def test_claude_code_session_through_every_event(
    example_copy: Path,
    payload: Any,
    run_hook_process: Any,
    answers: Any,
    hook_env: dict[str, str],
    release: tuple[str, bool],
) -> None:
    transcript, wide = release

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        data = payload(name, example_copy, transcript_path=transcript, **fields)
        code, answer, stderr = run_hook_process("claude-code", data)
        assert code == 0 and stderr == "", stderr
        return answer

    start = hook("claude_session_start_startup")
    assert start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert answers.sent(start) == ["AGENTS.md"]  # CLAUDE.md is Claude Code's own

    read = hook("claude_post_tool_use_read")
    # After a Read, Claude Code matched .claude/rules/api-handlers.md itself; src/api/AGENTS.md it leaves
    # out, since the root has a CLAUDE.md.
    assert answers.sent(read) == ["src/api/AGENTS.md"]

    write = hook("claude_post_tool_use_write")
    if wide:  # the newer release loads its nested CLAUDE.md and rules after a Write itself
        assert write == {}
    else:  # the older loads nothing after a Write: its own nested CLAUDE.md and rules come from jitctx
        assert answers.sent(write) == ["src/ui/CLAUDE.md", ".claude/rules/components.md"]
        # Claude Code loads a nested CLAUDE.md whatever its `paths:` say, and so the hook reads it too.
        assert "Contents of src/ui/CLAUDE.md (applies to src/ui/Header.tsx)" in answers.context(write)

    bash = hook("claude_post_tool_use_bash")
    assert answers.sent(bash) == ["website/CLAUDE.md"]

    prompt = hook("claude_user_prompt_submit")
    # Both releases attach @tools/gen.py and match its scoped rules themselves (seen against the real
    # 2.1.197 and 2.1.332); the one in `code` is no mention at all.
    assert prompt == {}

    assert hook("claude_instructions_loaded") == {}
    assert hook("claude_instructions_loaded_subagent") == {}

    again = hook("claude_post_tool_use_write")
    assert again == {}  # each file once per session

    compact = hook("claude_session_start_compact")
    assert answers.sent(compact) == [
        "AGENTS.md",
        "src/api/AGENTS.md",
        ".claude/rules/api-handlers.md",
        "src/ui/CLAUDE.md",
        ".claude/rules/components.md",
        "website/CLAUDE.md",
        ".claude/rules/python.md",
    ]
    assert "re-sent after compaction" in answers.context(compact)

    assert hook("claude_session_start_resume") == {}  # the resumed conversation still holds them
    cleared = hook("claude_session_start_clear")
    assert answers.sent(cleared) == ["AGENTS.md"]  # /clear: a new context, a new session state

    records = [
        json.loads(line)
        for day in sorted((Path(hook_env["JITCTX_STATE_DIR"]) / "events").glob("*.jsonl"))
        for line in day.read_text(encoding="utf-8").splitlines()
    ]
    host_loads = [r for r in records if r["kind"] == "load"]
    assert [(r["channel"], r.get("agent_id"), r["load_reason"]) for r in host_loads] == [
        ("main", None, "path_glob_match"),
        ("subagent", "agent-7f3a", "session_start"),
    ]
    assert all(r["source"] == "claude-code" and r["bytes"] > 0 for r in host_loads)
    discoveries = [r for r in records if r["kind"] == "discovery"]
    assert [r["hit"] for r in discoveries] == [True, True, True, True, False]
    # What jitctx sent is logged; what Claude Code loaded itself arrives as its own `load` record.
    read_record = discoveries[0]
    assert [x["file_path"].split("/")[-1] for x in read_record["loaded"]] == ["AGENTS.md"]
    assert sorted(Path(p).name for p in read_record["host_loaded"]) == ["api-handlers.md"]
    write_record = discoveries[1]
    sent_by_jitctx = [x["file_path"].split("/")[-1] for x in write_record["loaded"]]
    assert sent_by_jitctx == ([] if wide else ["CLAUDE.md", "components.md"])
    if wide:
        assert sorted(Path(p).name for p in write_record["host_loaded"]) == ["CLAUDE.md", "components.md"]


def test_codex_session_through_every_event(
    example_copy: Path, payload: Any, run_hook_process: Any, answers: Any
) -> None:
    def hook(name: str) -> dict[str, Any]:
        code, answer, stderr = run_hook_process("codex", payload(name, example_copy, session="c-golden"))
        assert code == 0 and stderr == "", stderr
        return answer

    # Codex reads AGENTS.md from the root to the cwd itself; CLAUDE.md it does not know, nor its @import.
    start = hook("codex_session_start")
    assert answers.sent(start) == ["CLAUDE.md", "docs/conventions.md"]
    assert "Contents of docs/conventions.md (imported by CLAUDE.md)" in answers.context(start)
    # Codex has no nested discovery at all: a patch to src/api brings its AGENTS.md and the scoped rule.
    assert answers.sent(hook("codex_post_tool_use_apply_patch")) == [
        "src/api/AGENTS.md",
        ".claude/rules/api-handlers.md",
    ]
    assert answers.sent(hook("codex_post_tool_use_bash")) == [".claude/rules/python.md"]
    assert answers.sent(hook("codex_user_prompt_submit")) == ["docs/summary/CLAUDE.md"]
    assert hook("codex_post_tool_use_apply_patch") == {}
