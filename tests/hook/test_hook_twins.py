"""Twins: a rule kept twice for two agents (`.claude/rules/x.md` and `.cursor/rules/x.mdc`, one body) reaches
the model once, whichever of them the client loads itself; the record names the one left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

BODY = "Use the design tokens for every colour.\n"


@pytest.fixture
def twins(tree: Any) -> Path:
    root: Path = tree(
        {
            ".git/HEAD": "x\n",
            "CLAUDE.md": "# Root\n",
            ".claude/rules/always.md": BODY,
            ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n\n" + BODY.replace("\n", "  \r\n"),
            ".claude/rules/front.md": '---\npaths: ["src/**"]\n---\nFront end: hooks only.\n',
            ".cursor/rules/front.mdc": '---\nglobs: "src/**"\n---\nFront end: hooks only.\n',
            ".cursor/rules/other.mdc": '---\nglobs: "src/**"\n---\nFront end: hooks only, and more.\n',
            "src/app.ts": "x\n",
        }
    )
    return root


def event(root: Path, transcript: str, name: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "tw",
        "transcript_path": transcript,
        "cwd": str(root),
        "hook_event_name": name,
        **fields,
    }


def records(tmp_path: Path) -> list[dict[str, Any]]:
    lines = []
    for log in sorted((tmp_path / "state" / "events").rglob("*.jsonl")):
        lines.extend(json.loads(line) for line in log.read_text().splitlines() if line.strip())
    return lines


def test_a_twin_of_what_the_client_loads_is_not_sent(
    twins: Path, call_hook: Any, answers: Any, release: tuple[str, bool], tmp_path: Path
) -> None:
    transcript, _ = release
    start = call_hook(
        "claude-code", event(twins, transcript, "SessionStart", source="startup"), use_git=False
    )
    # Claude Code loads .claude/rules/always.md at start; the .mdc twin (CRLF, trailing blanks) is left out.
    assert ".cursor/rules/always.mdc" not in answers.sent(start)
    read = event(
        twins,
        transcript,
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": str(twins / "src/app.ts")},
    )
    sent = answers.sent(call_hook("claude-code", read, use_git=False))
    # The client loads front.md after its Read; front.mdc says the same; other.mdc says more: it goes out.
    assert sent == [".cursor/rules/other.mdc"]
    noted: dict[str, str] = {}
    for record in records(tmp_path):
        noted.update(record.get("twins", {}))
    assert noted == {
        ".cursor/rules/always.mdc": ".claude/rules/always.md",
        ".cursor/rules/front.mdc": ".claude/rules/front.md",
    }


def test_of_two_twins_jitctx_sends_one(twins: Path, call_hook: Any, answers: Any, tmp_path: Path) -> None:
    """Codex reads neither: of the two always-on copies one goes out, once."""
    (twins / "AGENTS.md").write_text("# Agents\n")
    start = call_hook("codex", event(twins, "", "SessionStart", source="startup"), use_git=False)
    sent = answers.sent(start)
    assert sent.count(".claude/rules/always.md") + sent.count(".cursor/rules/always.mdc") == 1
