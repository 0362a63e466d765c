"""Skill uses (Claude Code's `Skill` tool, input `{"skill": name}`) recorded by the hook as `skill` records:
from PostToolUse and PostToolBatch, in the fast lane's stead, never at the cost of the answer."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.claude_code.skill_use import skill_path, skills_used
from tests.hook.events import hook_event as event

TREE: dict[str, str] = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "ui/Footer.tsx": "export {}\n",
    "ui/AGENTS.md": "# UI agents\n",
    "pkg/AGENTS.md": "# Package agents\n",
    ".claude/skills/commit/SKILL.md": "---\nname: commit\ndescription: Commit the work\n---\nSteps\n",
    ".claude/skills/odd-folder/SKILL.md": "---\nname: renamed\ndescription: Not its folder name\n---\n",
    "pkg/.claude/skills/pkg-only/SKILL.md": "---\nname: pkg-only\ndescription: The package's own\n---\n",
    "pkg/src/a.ts": "export {}\n",
    ".agents/skills/codex-only/SKILL.md": "---\nname: codex-only\ndescription: Codex reads it\n---\n",
}


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def call(tool: str, tool_use_id: str = "toolu_1", **tool_input: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": tool_input, "tool_use_id": tool_use_id, "tool_response": "ok"}


def skill_records(state: Path) -> list[dict[str, Any]]:
    lines = "".join(p.read_text(encoding="utf-8") for p in sorted((state / "events").glob("*.jsonl")))
    return [r for r in map(json.loads, lines.splitlines()) if r["kind"] == "skill"]


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ([call("Skill", skill="commit")], [("commit", "toolu_1")]),
        ([call("Skill", skill=" /commit ", args="-m x")], [("commit", "toolu_1")]),  # as the tool reads it
        ([call("Skill", skill="plugin:review")], [("plugin:review", "toolu_1")]),
        ([call("Skill", skill=""), call("Skill", skill="/"), call("Skill", skill=3)], []),
        ([call("Skill", name="commit")], []),  # `skill` is the field; nothing else names it
        ([call("Read", file_path="/x"), call("Bash", command="skill commit")], []),
        ([{"tool_name": "Skill", "tool_input": {"skill": "a"}}], [("a", None)]),
        ([{"tool_name": "Skill", "tool_input": "commit"}, "not a call"], []),
    ],
)
def test_skills_used(calls: list[Any], expected: list[tuple[str, str | None]]) -> None:
    assert skills_used(calls) == expected


def test_a_name_too_long_for_a_skill_is_cut() -> None:
    assert skills_used([call("Skill", skill="x" * 5000)]) == [("x" * 256, "toolu_1")]


@pytest.mark.parametrize(
    ("cwd", "name", "expected"),
    [
        ("", "commit", ".claude/skills/commit/SKILL.md"),
        ("ui", "commit", ".claude/skills/commit/SKILL.md"),
        ("", "renamed", ".claude/skills/odd-folder/SKILL.md"),  # by its frontmatter `name:`
        ("pkg/src", "pkg-only", "pkg/.claude/skills/pkg-only/SKILL.md"),  # a package's own, from inside it
        ("", "pkg-only", None),  # not from above it
        ("", "codex-only", None),  # Claude Code does not read .agents/skills
        ("", "plugin:commit", None),
        ("", "../commit", None),
        ("", "missing", None),
    ],
)
def test_skill_path(project: Path, cwd: str, name: str, expected: str | None) -> None:
    assert skill_path(str(project), str(project / cwd), name) == expected


def test_a_skill_call_is_recorded_with_its_skill_md(project: Path, call_hook: Any, tmp_path: Path) -> None:
    data = event(project / "ui", "s1", "PostToolUse", prompt_id="p-1", **call("Skill", skill="commit"))
    assert call_hook("claude-code", data) == {}
    [record] = skill_records(tmp_path / "state")
    assert list(record)[:6] == ["v", "kind", "ts", "session_id", "channel", "root"]
    assert record["root"] == str(project.resolve()) and record["session_id"] == "s1"
    assert (record["skill"], record["path"], record["channel"]) == (
        "commit",
        ".claude/skills/commit/SKILL.md",
        "main",
    )
    assert (record["tool_use_id"], record["prompt_id"], record["agent"]) == ("toolu_1", "p-1", "claude-code")


def test_a_batch_records_each_skill_and_still_answers_its_reads(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    batch = [
        call("Skill", "toolu_a", skill="commit"),
        call("Read", "toolu_b", file_path=str(project / "pkg/src/a.ts")),
        call("Skill", "toolu_c", skill="someone:else"),
    ]
    data = event(project, "s2", "PostToolBatch", tool_calls=batch, agent_id="agent-7")
    answer = call_hook("claude-code", data)
    assert "pkg/AGENTS.md" in answers.sent(answer)
    records = skill_records(tmp_path / "state")
    assert [(r["skill"], r.get("path"), r["tool_use_id"]) for r in records] == [
        ("commit", ".claude/skills/commit/SKILL.md", "toolu_a"),
        ("someone:else", None, "toolu_c"),
    ]
    assert {(r["channel"], r["agent_id"]) for r in records} == {("subagent", "agent-7")}


def test_codex_records_no_skill(project: Path, call_hook: Any, tmp_path: Path) -> None:
    data = event(project, "c1", "PostToolUse", **call("Skill", skill="commit"))
    call_hook("codex", data)
    assert not (tmp_path / "state" / "events").exists() or skill_records(tmp_path / "state") == []


def test_a_failure_to_record_never_changes_the_answer(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jitctx.clients.claude_code import skill_use

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    batch = [
        call("Skill", "toolu_a", skill="commit"),
        call("Read", "toolu_b", file_path=str(project / "ui/Footer.tsx")),
    ]
    expected = call_hook("claude-code", event(project, "ok", "PostToolBatch", tool_calls=batch))
    monkeypatch.setattr(skill_use, "skill_records", broken)
    answer = call_hook("claude-code", event(project, "broken", "PostToolBatch", tool_calls=batch))
    assert answers.sent(answer) == answers.sent(expected) != []
    assert "tool use not recorded: RuntimeError('disk on fire')" in (tmp_path / "state/hook.log").read_text()


def test_the_fast_lane_leaves_skill_calls_to_the_engine(project: Path, tmp_path: Path) -> None:
    """A Skill call touches no path, which the fast lane would answer alone, recording nothing."""
    from jitctx.hook.fast_lane import try_quick

    data = event(project, "q", "PostToolUse", **call("Skill", skill="commit"))
    assert try_quick("claude-code", json.dumps(data).encode(), str(tmp_path / "state")) is False
    data = event(project, "q", "PostToolUse", **call("Bash", command="ls"))
    assert try_quick("claude-code", json.dumps(data).encode(), str(tmp_path / "state")) is True


def test_the_hook_process_records_a_skill(
    project: Path, run_hook_process: Any, hook_env: dict[str, str]
) -> None:
    data = event(project, "p1", "PostToolUse", **call("Skill", skill="renamed"))
    code, answer, _ = run_hook_process("claude-code", data)
    assert (code, answer) == (0, {})
    [record] = skill_records(Path(hook_env["JITCTX_STATE_DIR"]))
    assert (record["skill"], record["path"]) == ("renamed", ".claude/skills/odd-folder/SKILL.md")


@pytest.mark.parametrize("plant", ["fifo", "stdin link", "outside link"])
def test_a_planted_skill_file_never_blocks_nor_leaks(
    project: Path, tmp_path: Path, run_hook_process: Any, plant: str
) -> None:
    """A SKILL.md that is a FIFO, a link to the hook's own stdin (/proc/self/fd/0, which git can store),
    or a link out of the project is not read: the hook answers at once, and names no path outside."""
    target = project / ".claude/skills/planted/SKILL.md"
    target.parent.mkdir(parents=True)
    outside = tmp_path / "secret.md"
    outside.write_text("---\nname: wanted\ndescription: outside\n---\n")
    if plant == "fifo":
        os.mkfifo(target)
    elif plant == "stdin link":
        target.symlink_to("/proc/self/fd/0")
    else:
        target.symlink_to(outside)
    use = event(project, "s", "PostToolUse", tool_name="Skill", tool_input={"skill": "wanted"})
    code, answer, _ = run_hook_process("claude-code", use)  # the fixture's 60 s timeout would fail it
    assert (code, answer) == (0, {})
    records = skill_records(tmp_path / "state")
    assert [(r["skill"], r.get("path")) for r in records] == [("wanted", None)]
