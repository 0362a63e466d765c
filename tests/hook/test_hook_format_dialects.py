"""A rule's globs mean what the agent of its *format* means, whichever agent's hook receives it (DESIGN
§2.9): a `.claude/rules` glob is matched as Claude Code matches it, a `.cursor/rules` glob as jitctx reads
Cursor's, by the Claude Code hook and the Codex hook alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.hook.events import hook_event

SCHEMA = "internal-packages/database/prisma/schema.prisma"


@pytest.fixture
def monorepo(tree: Any) -> Path:
    root: Path = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "AGENTS.md": "# Root\n",
            SCHEMA: "model User {}\n",
            "root.prisma": "model Root {}\n",
            ".claude/rules/db.md": '---\npaths: "*.prisma"\n---\n# Prisma rule (Claude format)\n',
            ".cursor/rules/db.mdc": "---\nglobs: *.prisma\nalwaysApply: false\n---\n# Prisma rule (Cursor)\n",
        }
    )
    return root


def _codex_shell(root: Path, session: str, command: str) -> dict[str, Any]:
    return hook_event(
        root,
        session,
        "PostToolUse",
        model="gpt-5-codex",
        tool_name="Bash",
        tool_input={"command": command},
        tool_response="",
    )


def _codex_sent(root: Path, call_hook: Any, answers: Any, session: str, path: str) -> list[str]:
    call_hook("codex", hook_event(root, session, "SessionStart", source="startup"), use_git=False)
    sent: list[str] = answers.sent(
        call_hook("codex", _codex_shell(root, session, f"cat {path}"), use_git=False)
    )
    return sent


def _claude_sent(root: Path, call_hook: Any, answers: Any, session: str, path: str) -> list[str]:
    call_hook("claude-code", hook_event(root, session, "SessionStart", source="startup"), use_git=False)
    read = {"tool_name": "Read", "tool_input": {"file_path": str(root / path)}, "tool_response": "x"}
    batch = hook_event(root, session, "PostToolBatch", tool_calls=[read])
    sent: list[str] = answers.sent(call_hook("claude-code", batch, use_git=False))
    return sent


def test_the_codex_hook_sends_a_claude_rule_as_claude_code_matches_it(
    monorepo: Path, call_hook: Any, answers: Any
) -> None:
    """Claude Code's `*.prisma` matches at any depth (gitignore rules): after `cat` of a nested
    schema.prisma the Codex hook sends the `.claude/rules` rule, as Claude Code would load it."""
    assert ".claude/rules/db.md" in _codex_sent(monorepo, call_hook, answers, "cx", SCHEMA)


@pytest.mark.parametrize(("path", "expected"), [(SCHEMA, False), ("root.prisma", True)])
def test_a_cursor_rule_is_matched_alike_by_every_hook(
    monorepo: Path, call_hook: Any, answers: Any, path: str, expected: bool
) -> None:
    """A `.cursor/rules` glob means one thing whoever receives it: the Claude Code hook no longer reads
    it as Claude Code reads its own `paths:`."""
    rule = ".cursor/rules/db.mdc"
    by_codex = rule in _codex_sent(monorepo, call_hook, answers, "cx", path)
    by_claude = rule in _claude_sent(monorepo, call_hook, answers, "cc", path)
    assert (by_codex, by_claude) == (expected, expected)
