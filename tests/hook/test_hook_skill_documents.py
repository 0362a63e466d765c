"""A Read of a vendored skill's SKILL.md: the hook sends the real nested `web/AGENTS.md`, and nothing
about the skill's own 81 KB `AGENTS.md` reference document (issue #29, item 9).

The real clients, seen earlier: Claude Code 2.1.332 loads a CLAUDE.md in a skill's folder on a Read and
never an AGENTS.md there; invoking a skill loads nothing extra. A document in a skill's folder is read
with the skill, so jitctx's discovery leaves every instruction-named file there alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.hook.events import hook_event as event

DOC = "web/.agents/skills/x/AGENTS.md"
TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",  # a root marker; git itself is not needed (use_git=False)
    "CLAUDE.md": "# Root\n",
    "web/AGENTS.md": "# Web\nUse pnpm.\n",
    "web/.agents/skills/x/SKILL.md": "---\nname: x\ndescription: Does x. Use when x.\n---\nSee AGENTS.md.\n",
    DOC: "# Reference\n" + "lorem ipsum dolor sit amet " * 3000,
    "web/.claude/skills/y/SKILL.md": "---\nname: y\ndescription: Does y. Use when y.\n---\nSee CLAUDE.md.\n",
    "web/.claude/skills/y/CLAUDE.md": "# y's notes\n",
}


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def test_a_read_in_a_skill_sends_the_nested_agents_md_and_no_skill_document(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, _ = release

    def read(path: str) -> dict[str, Any]:
        data = event(
            project, "one", "PostToolUse", transcript, tool_name="Read", tool_input={"file_path": path}
        )
        answer: dict[str, Any] = call_hook("claude-code", data, use_git=False)
        return answer

    start = event(project, "one", "SessionStart", transcript, source="startup")
    assert answers.sent(call_hook("claude-code", start, use_git=False)) == []
    first = read("web/.agents/skills/x/SKILL.md")
    assert answers.sent(first) == ["web/AGENTS.md"]
    text = answers.context(first)
    assert "skills/x/AGENTS.md" not in text and "lorem ipsum" not in text  # not sent, not named
    # A CLAUDE.md in a skill's folder: Claude Code's own to load on its Read, nothing for jitctx.
    assert read("web/.claude/skills/y/SKILL.md") == {}
