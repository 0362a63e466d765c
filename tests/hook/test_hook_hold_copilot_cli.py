"""Before the write (DESIGN §2.11) in GitHub Copilot CLI: its preToolUse event, whose payload names no
event (`toolName`, `toolArgs`, no `toolResult`), holds back once a write into a scope whose rules the model
has not seen, with a top-level `{"permissionDecision": "deny", "permissionDecisionReason": R}` (1.0.102
ignores a Claude-shaped `hookSpecificOutput` there); the repeated write passes, anything else at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hook import holds

AGENT = "copilot-cli"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return holds.project(tmp_path)


def event(root: Path, **fields: Any) -> dict[str, Any]:
    return {"sessionId": "s1", "timestamp": 1796233034116, "cwd": str(root), **fields}


def before(root: Path, tool: str, args: object) -> dict[str, Any]:
    return event(root, toolName=tool, toolArgs=args)


def create(root: Path, rel: str = "src/ui/New.tsx") -> dict[str, Any]:
    return before(root, "create", {"path": str(root / rel), "file_text": "x\n"})


def reason(answer: dict[str, Any]) -> str:
    assert set(answer) == {"permissionDecision", "permissionDecisionReason"}, answer
    assert answer["permissionDecision"] == "deny"
    text: str = answer["permissionDecisionReason"]
    return text


COPILOT = holds.Hold(
    AGENT, lambda root: event(root, source="new", initialPrompt="Tidy the UI."), create, reason
)
start = COPILOT.start


def test_a_write_into_a_scope_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    COPILOT.held_once(call_hook, root)
    (root / "src/ui/New.tsx").write_text("x\n")
    result = {"resultType": "success", "textResultForLlm": "Created file"}
    after = event(root, toolName="create", toolArgs={"path": str(root / "src/ui/New.tsx")}, toolResult=result)
    assert call_hook(AGENT, after, use_git=False) == {}  # nothing arrives a second time


PATCH = "*** Begin Patch\n*** Add File: src/ui/Patched.tsx\n+export const P = 1;\n*** End Patch\n"


@pytest.mark.parametrize(
    ("tool", "args", "target"),
    [
        ("apply_patch", PATCH, "src/ui/Patched.tsx"),  # its args are the raw patch text
        ("edit", {"path": "src/ui/Old.tsx", "old_str": "1", "new_str": "2"}, "src/ui/Old.tsx"),
    ],
)
def test_a_patch_and_an_edit_are_held_too(
    root: Path, call_hook: Any, tool: str, args: object, target: str
) -> None:
    start(call_hook, root)
    held = reason(call_hook(AGENT, before(root, tool, args), use_git=False))
    assert f"{target} was not written" in held and "Components are functions." in held


def test_a_shell_write_is_held_too(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    shell = before(root, "bash", {"command": "printf 'x' > src/ui/New.tsx", "description": "write"})
    held = reason(call_hook(AGENT, shell, use_git=False))
    assert "bash call" in held and "Use design tokens." in held


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("view", {"path": "src/ui/Old.tsx"}),  # a read is never held
        ("bash", {"command": "cat src/ui/Old.tsx"}),  # nor a shell read
        ("create", {"path": "docs/more.txt", "file_text": "x"}),  # a write no rule governs
    ],
)
def test_anything_else_passes_at_once(root: Path, call_hook: Any, tool: str, args: dict[str, Any]) -> None:
    start(call_hook, root)
    assert call_hook(AGENT, before(root, tool, args), use_git=False) == {}


def test_the_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    COPILOT.as_a_process(run_hook_process, root)


def test_a_held_write_brings_its_rules_once(root: Path, call_hook: Any) -> None:
    """What the deny carried counts as arrived: a later shell read of the folder sends none of it."""
    start(call_hook, root)
    reason(call_hook(AGENT, create(root), use_git=False))
    result = {"resultType": "success", "textResultForLlm": "export const Old = 1\n"}
    read = event(root, toolName="bash", toolArgs={"command": "cat src/ui/Old.tsx"}, toolResult=result)
    assert "Use design tokens." not in json.dumps(call_hook(AGENT, read, use_git=False))
