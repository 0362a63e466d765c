"""An edited instruction file is shown once: where the edit tool's own result shows the model the whole
new text (Gemini CLI's `replace`, Qwen Code's `edit` on a short file), jitctx sends no "Updated
contents" block after it; where it shows only a snippet of a longer file, the new version goes out."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree
from tests.hook.events import hook_event

SHORT = "# API\n\nJX-OLD: validate input.\n"
SHORT_NEW = "# API\n\nJX-NEW: validate every input.\n"
LONG = "# API\n\n" + "".join(f"- rule {i}: JX-LONG-{i}\n" for i in range(40))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write_tree(root, {".git/HEAD": "x\n", "src/api/AGENTS.md": SHORT, "src/api/long/AGENTS.md": LONG,
                      "src/api/users.ts": "x\n", "src/api/long/a.ts": "x\n"})  # fmt: skip
    return root


def gemini_replace(path: object, new: str, start: int, end: int) -> str:
    """Gemini CLI 0.61.0's `replace` result (llmContent), as seen: the new file's lines start..end (the
    changed ones with five around them), `...` where lines are left out, the whole file when short."""
    lines = new.splitlines()
    shown = "\n".join(lines[start:end]) + ("\n" if end >= len(lines) else "\n...")
    code = shown if start == 0 else "...\n" + shown
    return f"Successfully modified file: {path} (1 replacements). Here is the updated code:\n{code}"


def qwen_edit(path: object, new: str, start: int, end: int) -> str:
    """Qwen Code 0.24.4's `edit` result (llmContent), as seen: lines start..end of the new file (the
    changed ones with four around them; a final newline counts as one more, empty, line)."""
    lines = new.split("\n")
    end = min(end, len(lines))
    return (
        f"The file: {path} has been updated. Showing lines {start + 1}-{end} of {len(lines)} from the "
        "edited file:\n\n---\n\n" + "\n".join(lines[start:end])
    )


# (client, edit tool, its input for a file, its result for lines start..end of the new text, the lines
# it shows around a change)
EDITS = [
    pytest.param(
        "gemini-cli",
        "replace",
        lambda path: {"file_path": path, "old_string": "a", "new_string": "b", "instruction": "c"},
        gemini_replace,
        5,
        id="gemini-replace",
    ),
    pytest.param(
        "qwen-code",
        "edit",
        lambda path: {"file_path": path, "old_string": "a", "new_string": "b"},
        qwen_edit,
        4,
        id="qwen-edit",
    ),
]


def _sent(answer: dict[str, Any]) -> str:
    return json.dumps(answer)


def _started(
    root: Path, call_hook: Any, agent: str, read: str, marker: str
) -> tuple[Callable[..., dict[str, Any]], str]:
    """A session of `agent` whose first read (of `read`) brought the file holding `marker`: the hook, and
    the name of the client's tool event."""

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook(agent, hook_event(root, "ed", name, **fields), use_git=False)
        return answer

    hook("SessionStart", source="startup")
    after = "AfterTool" if agent == "gemini-cli" else "PostToolUse"
    call = {"file_path": str(root / read)}
    first = hook(after, tool_name="read_file", tool_input=call, tool_response={"llmContent": "x\n"})
    assert marker in _sent(first)
    return hook, after


@pytest.mark.parametrize(("agent", "tool", "tool_input", "result", "around"), EDITS)
def test_an_edit_whose_result_shows_the_whole_new_text_sends_no_second_copy(
    root: Path, call_hook: Any, agent: str, tool: str, tool_input: Any, result: Any, around: int
) -> None:
    hook, after = _started(root, call_hook, agent, "src/api/users.ts", "JX-OLD")
    path = str(root / "src/api/AGENTS.md")
    (root / "src/api/AGENTS.md").write_text(SHORT_NEW)
    shown = hook(
        after,
        tool_name=tool,
        tool_input=tool_input(path),
        # The changed line is the file's third: the lines around it are all there are.
        tool_response={"llmContent": result(path, SHORT_NEW, 0, 2 + around + 1)},
    )
    assert "Updated contents" not in _sent(shown)
    assert "JX-NEW" not in _sent(shown)


@pytest.mark.parametrize(("agent", "tool", "tool_input", "result", "around"), EDITS)
def test_an_edit_whose_result_shows_a_snippet_sends_the_new_version(
    root: Path, call_hook: Any, agent: str, tool: str, tool_input: Any, result: Any, around: int
) -> None:
    hook, after = _started(root, call_hook, agent, "src/api/long/a.ts", "JX-LONG-39")
    path = root / "src/api/long/AGENTS.md"
    new = LONG.replace("JX-LONG-20", "JX-CHANGED-20")
    path.write_text(new)
    changed = new.splitlines().index("- rule 20: JX-CHANGED-20")
    answer = hook(
        after,
        tool_name=tool,
        tool_input=tool_input(str(path)),
        tool_response={"llmContent": result(path, new, changed - around, changed + around + 1)},
    )
    assert "Updated contents of src/api/long/AGENTS.md" in _sent(answer)
    assert "JX-LONG-39" in _sent(answer)
