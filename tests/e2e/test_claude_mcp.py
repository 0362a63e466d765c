"""The real Claude Code with `jitctx install claude-code --transport mcp`: PostToolBatch, UserPromptSubmit
and SubagentStart have no command hook at all, only mcp_tool hooks asking the `jitctx mcp` server Claude
Code starts from `.mcp.json`; so whatever arrives by those events came from the running server."""

from __future__ import annotations

import json

import pytest

from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import ClaudeHarness

pytestmark = pytest.mark.e2e


def test_the_settings_ask_the_server(claude_mcp: ClaudeHarness) -> None:
    settings = json.loads((claude_mcp.root / ".claude/settings.json").read_text())
    assert [h["type"] for g in settings["hooks"]["PostToolBatch"] for h in g["hooks"]] == ["mcp_tool"]
    assert "jitctx" in json.loads((claude_mcp.root / ".mcp.json").read_text())["mcpServers"]


def test_a_shell_read_is_answered_by_the_server(claude_mcp: ClaudeHarness) -> None:
    outcome = claude_mcp.run(
        "Show the users.", [Script([[Call("Bash", {"command": "nl -ba src/api/users.ts"})]])]
    )
    outcome.expect("JX-ROOT-AGENTS", "hook")  # SessionStart: still a command
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API")
    assert "PostToolBatch" in outcome.diagnose(outcome.last())  # the event that has only mcp_tool hooks


def test_a_parallel_batch_through_the_server_sends_each_file_once(claude_mcp: ClaudeHarness) -> None:
    users = str(claude_mcp.root / "src/api/users.ts")
    batch = [
        Call("Bash", {"command": "cat src/api/users.ts"}),
        Call("Read", {"file_path": users}),
        Call("Write", {"file_path": str(claude_mcp.root / "tools/a.py"), "content": "A = 1\n"}),
        Call("Bash", {"command": "nl -ba tools/gen.py"}),
    ]
    outcome = claude_mcp.run("Do all of it at once.", [Script([batch])])
    outcome.expect("JX-API-AGENTS", "hook")
    for marker in ("JX-RULE-API", "JX-TOOLS-CLAUDE", "JX-RULE-PYTHON", "JX-ROOT-AGENTS"):
        outcome.expect(marker)


def test_a_prompt_mention_and_a_subagent_through_the_server(claude_mcp: ClaudeHarness) -> None:
    task = "SUBAGENT-TASK: report what src/api/users.ts exports."
    spawn = Call("Agent", {"description": "Inspect", "prompt": task, "subagent_type": "general-purpose"})
    main = Script([[spawn]])
    sub = Script([[Call("Bash", {"command": "nl -ba src/api/users.ts"})]], name="sub", match=task)
    outcome = claude_mcp.run("Look at @src/ui/Footer.tsx and delegate.", [main, sub])
    outcome.expect("JX-UI-CLAUDE")
    outcome.expect("JX-RULE-COMPONENTS")
    outcome.expect("JX-ROOT-AGENTS", script="sub")  # SubagentStart, from the server
    outcome.expect("JX-API-AGENTS", "hook", script="sub")
