"""Gemini CLI's edit results and "edited rules shown once" (tests/hook/test_hook_edited_shown.py has the
rule for every client): `write_file` overwriting an instruction file jitctx sent shows its whole new text
when every line changed, and jitctx sends no second copy; a result too long to reach the model whole
with context management on is no such evidence, and the new version goes out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.gemini_cli.client import WHOLE_RESULT_CHARS
from tests.conftest import write_tree
from tests.hook.events import hook_event

OLD = "# Docs\n\nJX-OLD: the old rule.\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write_tree(root, {".git/HEAD": "x\n", "docs/AGENTS.md": OLD, "docs/guide.md": "x\n"})
    return root


def overwrite(root: Path, call_hook: Any, new: str) -> str:
    """read_file docs/guide.md (jitctx sends docs/AGENTS.md), then write_file `new` over docs/AGENTS.md
    with 0.61.0's result for it (every line changed: the whole new file). The AfterTool answer, as JSON."""

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook(
            "gemini-cli", hook_event(root, "gw", name, **fields), use_git=False
        )
        return answer

    hook("SessionStart", source="startup")
    read = {"file_path": str(root / "docs/guide.md")}
    first = hook("AfterTool", tool_name="read_file", tool_input=read, tool_response={"llmContent": "x\n"})
    assert "JX-OLD" in json.dumps(first)
    path = root / "docs/AGENTS.md"
    path.write_text(new)
    shown = f"Successfully overwrote file: {path}. Here is the updated code:\n{new}"
    written = {"file_path": str(path), "content": new}
    answer = hook(
        "AfterTool", tool_name="write_file", tool_input=written, tool_response={"llmContent": shown}
    )
    return json.dumps(answer)


def test_an_overwrite_whose_result_shows_the_whole_file_sends_no_second_copy(
    root: Path, call_hook: Any
) -> None:
    answer = overwrite(root, call_hook, "# Docs\n\nJX-NEW: the new rule.\n")
    assert "Updated contents" not in answer and "JX-NEW" not in answer


def test_a_result_too_long_to_reach_the_model_whole_is_no_evidence(root: Path, call_hook: Any) -> None:
    new = "# Docs\n\n" + "".join(f"- JX-NEW-{i}: {'x' * 60}\n" for i in range(WHOLE_RESULT_CHARS // 60))
    answer = json.loads(overwrite(root, call_hook, new))
    # Over the hook's budget, the new version goes out as a note that names the file to read again.
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "docs/AGENTS.md" in context, context
