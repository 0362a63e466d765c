"""Before the write (DESIGN §2.11) in Codex and Qwen Code: their PreToolUse holds back a write into a scope
whose rules the model has not seen, once, with those rules in the deny's reason; the repeated call passes.

Payloads as Codex 0.171.0 and Qwen Code 0.24.4 send them (tests/e2e runs the real clients). Codex takes
the deny only when the answer holds nothing but the fields of its schema: one more top-level field and it
drops the deny and runs the call.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree
from tests.hook import holds

UI = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# Root agents\n",
    "src/ui/AGENTS.md": "# UI agents\nEvery component has a story.\n",
    "src/ui/CLAUDE.md": "# UI\nUse design tokens.\n",
    "src/ui/QWEN.md": "# UI for Qwen\nNo inline styles.\n",
    ".claude/rules/ui.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nComponents are functions.\n',
    "src/ui/Old.tsx": "export const Old = 1\n",
    "docs/notes.txt": "x\n",
}
UI_RULES = ("Every component has a story.", "Use design tokens.", "Components are functions.")

ADD_NEW = "*** Begin Patch\n*** Add File: src/ui/New.tsx\n+export const New = () => null;\n*** End Patch\n"
UPDATE_OLD = (
    "*** Begin Patch\n*** Update File: src/ui/Old.tsx\n@@\n-export const Old = 1\n+export const Old = 2\n"
    "*** End Patch\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "p", UI)


def held(answer: dict[str, Any]) -> str:
    """The reason of a deny, checked to hold exactly the fields Codex's and Qwen Code's schemas know."""
    assert set(answer) == {"hookSpecificOutput"}, answer
    output = answer["hookSpecificOutput"]
    assert set(output) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}, output
    assert output["hookEventName"] == "PreToolUse" and output["permissionDecision"] == "deny"
    reason: str = output["permissionDecisionReason"]
    assert reason.strip(), "Codex refuses a deny without a reason"
    return reason


# -- Codex -----------------------------------------------------------------------------------------------


def codex_event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return holds.event(
        root,
        name,
        session="cx",
        turn_id="t1",
        transcript_path=None,
        model="gpt-5.5",
        permission_mode="bypassPermissions",
        **fields,
    )


def codex_call(root: Path, tool: str, tool_input: dict[str, Any], call: str = "call_1") -> dict[str, Any]:
    return codex_event(root, "PreToolUse", tool_name=tool, tool_input=tool_input, tool_use_id=call)


CODEX = holds.Hold(
    "codex",
    lambda root: codex_event(root, "SessionStart", source="startup"),
    lambda root: codex_call(root, "apply_patch", {"command": ADD_NEW}),
    held,
)
codex_start = CODEX.start


def test_codex_a_patch_adding_a_file_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    codex_start(call_hook, root)
    patch = codex_call(root, "apply_patch", {"command": ADD_NEW})
    reason = held(call_hook("codex", patch, use_git=False))
    assert "src/ui/New.tsx was not written" in reason
    assert all(rule in reason for rule in UI_RULES)
    assert "# Root agents" not in reason  # Codex loaded the root AGENTS.md itself, at start
    # The repeated call passes; once it landed, its PostToolUse sends nothing again.
    assert (
        call_hook("codex", codex_call(root, "apply_patch", {"command": ADD_NEW}, "call_2"), use_git=False)
        == {}
    )
    (root / "src/ui/New.tsx").write_text("export const New = () => null;\n")
    done = codex_event(
        root,
        "PostToolUse",
        tool_name="apply_patch",
        tool_input={"command": ADD_NEW},
        tool_response="Success. Updated the following files:\nA src/ui/New.tsx\n",
        tool_use_id="call_2",
    )
    assert not any(rule in json.dumps(call_hook("codex", done, use_git=False)) for rule in UI_RULES)


def test_codex_a_patch_updating_a_file_is_held_too(root: Path, call_hook: Any) -> None:
    codex_start(call_hook, root)
    reason = held(call_hook("codex", codex_call(root, "apply_patch", {"command": UPDATE_OLD}), use_git=False))
    assert "src/ui/Old.tsx was not written" in reason and "Use design tokens." in reason


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "printf x > src/ui/New.tsx"},
        {"command": "printf x > New.tsx", "workdir": "src/ui"},  # run in the workdir the model gave
    ],
)
def test_codex_a_shell_redirect_is_held_once(root: Path, call_hook: Any, tool_input: dict[str, Any]) -> None:
    codex_start(call_hook, root)
    reason = held(call_hook("codex", codex_call(root, "Bash", tool_input), use_git=False))
    assert "src/ui/New.tsx was not written" in reason
    assert all(rule in reason for rule in UI_RULES)
    assert call_hook("codex", codex_call(root, "Bash", tool_input, "call_2"), use_git=False) == {}


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Bash", {"command": "cat src/ui/Old.tsx"}),  # a shell read is never held
        ("Bash", {"command": "printf x > docs/more.txt"}),  # a write no rule governs
        ("apply_patch", {"command": "*** Begin Patch\n*** Add File: docs/a.txt\n+a\n*** End Patch\n"}),
        ("mcp__fs__write", {"path": "src/ui/New.tsx"}),  # a tool jitctx cannot place
    ],
)
def test_codex_anything_else_passes_at_once(
    root: Path, call_hook: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    codex_start(call_hook, root)
    assert call_hook("codex", codex_call(root, tool, tool_input), use_git=False) == {}


def test_codex_a_write_after_its_rules_arrived_passes(root: Path, call_hook: Any) -> None:
    codex_start(call_hook, root)
    read = codex_event(
        root,
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "cat src/ui/Old.tsx"},
        tool_response="export const Old = 1\n",
        tool_use_id="call_0",
    )
    assert "Use design tokens." in json.dumps(call_hook("codex", read, use_git=False))
    assert call_hook("codex", codex_call(root, "apply_patch", {"command": ADD_NEW}), use_git=False) == {}


def test_codex_holding_can_be_turned_off(root: Path, call_hook: Any) -> None:
    (root / ".jitctx.toml").write_text("[hold.codex]\nwrites = false\n")
    codex_start(call_hook, root)
    assert call_hook("codex", codex_call(root, "apply_patch", {"command": ADD_NEW}), use_git=False) == {}


def test_codex_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    """The bytes Codex reads: one JSON document with the deny, exit 0, nothing on stderr."""
    assert CODEX.as_a_process(run_hook_process, root, "Components are functions.") == ""


# -- Qwen Code -------------------------------------------------------------------------------------------


def qwen_event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return holds.event(
        root,
        name,
        session="qw",
        transcript_path=str(root.parent / "home/.qwen/projects/p/chats/qw.jsonl"),
        timestamp="2026-12-03T16:50:00.000Z",
        permission_mode="yolo",
        **fields,
    )


def qwen_call(
    root: Path, tool: str, tool_input: dict[str, Any], call: str = "call_main_s0_0"
) -> dict[str, Any]:
    return qwen_event(
        root,
        "PreToolUse",
        prompt_id="qw########0",
        tool_name=tool,
        tool_input=tool_input,
        tool_use_id=f"toolu_1796316654001_{call[-4:]}",
        tool_call_id=call,
    )


QWEN = holds.Hold(
    "qwen-code",
    lambda root: qwen_event(root, "SessionStart", source="startup", model="m"),
    lambda root: qwen_call(root, "write_file", {"file_path": str(root / "src/ui/New.tsx"), "content": "x\n"}),
    held,
)
qwen_start = QWEN.start


def test_qwen_a_new_file_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    qwen_start(call_hook, root)
    new = {"file_path": str(root / "src/ui/New.tsx"), "content": "export const New = () => null;\n"}
    reason = held(call_hook("qwen-code", qwen_call(root, "write_file", new), use_git=False))
    assert "src/ui/New.tsx was not written" in reason
    assert all(rule in reason for rule in (*UI_RULES, "No inline styles."))  # its QWEN.md below the cwd too
    assert call_hook("qwen-code", qwen_call(root, "write_file", new, "call_main_s1_0"), use_git=False) == {}
    (root / "src/ui/New.tsx").write_text(new["content"])
    done = qwen_event(
        root,
        "PostToolUse",
        tool_name="write_file",
        tool_input=new,
        tool_response={"llmContent": "Successfully created and wrote to new file."},
        tool_use_id="toolu_1796316654001_s1_0",
        tool_call_id="call_main_s1_0",
    )
    assert not any(rule in json.dumps(call_hook("qwen-code", done, use_git=False)) for rule in UI_RULES)


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("edit", {"file_path": "src/ui/Old.tsx", "old_string": "1", "new_string": "2"}),
        ("run_shell_command", {"command": "printf x > src/ui/New.tsx", "description": "write"}),
        ("run_shell_command", {"command": "printf x > New.tsx", "directory": "src/ui"}),
    ],
)
def test_qwen_an_edit_or_a_shell_write_is_held_once(
    root: Path, call_hook: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    qwen_start(call_hook, root)
    reason = held(call_hook("qwen-code", qwen_call(root, tool, tool_input), use_git=False))
    assert all(rule in reason for rule in UI_RULES)
    assert call_hook("qwen-code", qwen_call(root, tool, tool_input, "call_main_s1_0"), use_git=False) == {}


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("read_file", {"file_path": "src/ui/Old.tsx"}),
        ("run_shell_command", {"command": "cat src/ui/Old.tsx"}),
        ("write_file", {"file_path": "docs/more.txt", "content": "x"}),
    ],
)
def test_qwen_anything_else_passes_at_once(
    root: Path, call_hook: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    qwen_start(call_hook, root)
    assert call_hook("qwen-code", qwen_call(root, tool, tool_input), use_git=False) == {}


def test_qwen_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    assert QWEN.as_a_process(run_hook_process, root) == ""
