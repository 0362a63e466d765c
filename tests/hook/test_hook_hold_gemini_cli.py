"""Before the write (DESIGN §2.11) in Gemini CLI: its BeforeTool event holds back, once, a write into a
scope whose rules the model has not seen, with `{"decision": "deny", "reason": R}` (Gemini CLI 0.61
ignores Claude Code's `permissionDecision`); the repeated write passes, and anything else at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hook import holds
from tests.hook.holds import decision_reason as reason

AGENT = "gemini-cli"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return holds.project(tmp_path)


def event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    transcript = str(root.parent / "session.json")
    return holds.event(root, name, transcript_path=transcript, timestamp="2026-12-03T16:49:36.544Z", **fields)


def before(root: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return event(root, "BeforeTool", tool_name=tool, tool_input=tool_input)


def write(root: Path, rel: str = "src/ui/New.tsx") -> dict[str, Any]:
    return before(root, "write_file", {"file_path": str(root / rel), "content": "x\n"})


GEMINI = holds.Hold(AGENT, lambda root: event(root, "SessionStart", source="startup"), write, reason)
start = GEMINI.start


def test_a_write_into_a_scope_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    GEMINI.held_once(call_hook, root)
    (root / "src/ui/New.tsx").write_text("x\n")
    after = event(
        root,
        "AfterTool",
        tool_name="write_file",
        tool_input={"file_path": str(root / "src/ui/New.tsx"), "content": "x\n"},
        tool_response={"llmContent": "Successfully created and wrote to new file"},
    )
    assert call_hook(AGENT, after, use_git=False) == {}  # nothing arrives a second time


def test_an_edit_is_held_like_a_new_file(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    edit = {"file_path": str(root / "src/ui/Old.tsx"), "old_string": "1", "new_string": "2"}
    assert "Components are functions." in reason(
        call_hook(AGENT, before(root, "replace", edit), use_git=False)
    )


def test_a_shell_write_is_held_too(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    shell = before(root, "run_shell_command", {"command": "printf 'x' > src/ui/New.tsx"})
    held = reason(call_hook(AGENT, shell, use_git=False))
    assert "run_shell_command call" in held and "Use design tokens." in held


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("read_file", {"file_path": "src/ui/Old.tsx"}),  # a read is never held
        ("run_shell_command", {"command": "cat src/ui/Old.tsx"}),  # nor a shell read
        ("write_file", {"file_path": "docs/notes.txt", "content": "x"}),  # a write no rule governs
    ],
)
def test_anything_else_passes_at_once(
    root: Path, call_hook: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    start(call_hook, root)
    assert call_hook(AGENT, before(root, tool, tool_input), use_git=False) == {}


def test_the_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    GEMINI.as_a_process(run_hook_process, root)


def test_the_rules_of_a_held_write_are_not_sent_after_a_later_read(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    reason(call_hook(AGENT, write(root), use_git=False))
    read = event(
        root,
        "AfterTool",
        tool_name="run_shell_command",
        tool_input={"command": "cat src/ui/Old.tsx"},
        tool_response={"llmContent": "export const Old = 1\n"},
    )
    assert "Use design tokens." not in json.dumps(call_hook(AGENT, read, use_git=False))
