"""`[pin] paths`: files that stay in every agent's context — sent at start whatever their scope, again
after every compaction, and to every sub-agent, once each time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree
from tests.hook.events import hook_event as event

TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    ".jitctx.toml": '[pin]\npaths = ["docs/conventions.md", "docs/scoped.md", "missing.md"]\n',
    "docs/conventions.md": "# Conventions\n\nJX-PINNED: keep it short.\n",
    # A scope that no start signal matches: pinned, it goes out at start all the same.
    "docs/scoped.md": '---\npaths: ["never/**"]\n---\nJX-PINNED-SCOPED\n',
    "docs/other.md": "not pinned\n",
    "src/a.ts": "export {}\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write_tree(root, TREE)
    return root


def test_pinned_files_go_out_at_start_after_compaction_and_to_a_sub_agent(
    project: Path, call_hook: Any, answers: Any
) -> None:
    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook(
            "claude-code", event(project, "pin", name, **fields), use_git=False
        )
        return answer

    start = hook("SessionStart", source="startup")
    assert answers.sent(start) == ["docs/conventions.md", "docs/scoped.md"]
    # A touch of the pinned file's folder does not send it twice.
    read = hook("PostToolUse", tool_name="Bash", tool_input={"command": "cat docs/other.md"})
    assert answers.sent(read) == []
    compact = hook("SessionStart", source="compact")
    assert answers.sent(compact) == ["docs/conventions.md", "docs/scoped.md"]
    sub = hook("SubagentStart", agent_id="helper", agent_type="general")
    assert answers.sent(sub) == ["docs/conventions.md", "docs/scoped.md"]


def test_a_sub_agent_first_seen_at_a_tool_call_gets_the_pinned_files_there(
    project: Path, call_hook: Any, answers: Any
) -> None:
    """Qwen Code reports no sub-agent start that reaches the sub-agent: its first tool call carries it."""

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook("qwen-code", event(project, "pin", name, **fields), use_git=False)
        return answer

    hook("SessionStart", source="startup")
    first = hook("PostToolUse", agent_id="sub-1", tool_name="read_file", tool_input={"file_path": "src/a.ts"})
    assert "docs/conventions.md" in answers.sent(first)
    again = hook("PostToolUse", agent_id="sub-1", tool_name="read_file", tool_input={"file_path": "src/a.ts"})
    assert answers.sent(again) == []


def test_a_pin_outside_the_project_or_missing_is_a_warning_never_a_read(tmp_path: Path) -> None:
    from jitctx.config import parse_config

    config = parse_config({"pin": {"paths": ["../secret.md", "/etc/passwd", "~/x.md", "./docs//a.md"]}}, "t")
    assert config.pinned == ("docs/a.md",)
    assert sum("pin path" in warning for warning in config.warnings) == 3
    bad = parse_config({"pin": {"paths": "docs/a.md", "glob": 1}}, "t")
    assert bad.pinned == ()
    assert any("'pin.paths' ignored" in warning for warning in bad.warnings)
    assert any("pin.glob" in warning for warning in bad.warnings)


def test_a_pin_through_a_link_to_outside_is_not_read(tmp_path: Path, call_hook: Any, answers: Any) -> None:
    outside = tmp_path / "outside"
    write_tree(outside, {"secret.md": "JX-OUTSIDE\n"})
    root = tmp_path / "proj"
    write_tree(root, {".git/HEAD": "x\n", ".jitctx.toml": '[pin]\npaths = ["ext/secret.md"]\n'})
    (root / "ext").symlink_to(outside)
    answer = call_hook("claude-code", event(root, "p", "SessionStart", source="startup"), use_git=False)
    assert "JX-OUTSIDE" not in answers.context(answer)
