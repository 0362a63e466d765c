"""What of a Gemini CLI call's result jitctx takes for the text the model read (`GeminiFollower.result_text`):
the `llmContent` of `replace` and `write_file`, which 0.61.0 passes on to the model as the hook saw it,
and nothing of a tool whose result it may cut after AfterTool (the shell), nor a result long enough to be
cut with context management on. Shapes as seen in 0.61.0 against a scripted model."""

from __future__ import annotations

from typing import Any

import pytest

from jitctx.clients.gemini_cli.client import WHOLE_RESULT_CHARS, GeminiFollower

REPLACED = (
    "Successfully modified file: /p/src/api/AGENTS.md (1 replacements). Here is the updated code:\n"
    "# API\n\nJX-API-EDITED: handlers validate every input.\n"
)
OVERWRITTEN = (
    "Successfully overwrote file: /p/docs/AGENTS.md. Here is the updated code:\n# Docs\n\nJX-W: whole.\n"
)
SHELL = "<untrusted_context>\nOutput: # API\nJX-API-EDITED\nProcess Group PGID: 30927\n</untrusted_context>"


def call(tool: str, response: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": {"file_path": "/p/x"}, "tool_response": response}


@pytest.mark.parametrize(
    ("tool", "response", "text"),
    [
        ("replace", {"llmContent": REPLACED, "returnDisplay": {"fileDiff": "Index: x"}}, REPLACED),
        ("write_file", {"llmContent": OVERWRITTEN}, OVERWRITTEN),
        # The shell's output is cut after AfterTool when long or when the context is nearly full.
        ("run_shell_command", {"llmContent": SHELL, "returnDisplay": "x"}, None),
        ("read_file", {"llmContent": "# API\n"}, None),  # not an edit
        ("replace", {"llmContent": "x" * (WHOLE_RESULT_CHARS + 1)}, None),
        ("replace", {"llmContent": "x" * WHOLE_RESULT_CHARS}, "x" * WHOLE_RESULT_CHARS),
        ("replace", {"llmContent": [{"text": "# API\n"}]}, None),  # parts, not the edit's text
        ("replace", {"error": "params must have required property 'instruction'"}, None),
        ("replace", None, None),
    ],
)
def test_the_result_text_is_an_edits_own_result(tool: str, response: Any, text: str | None) -> None:
    assert GeminiFollower().result_text(call(tool, response)) == text
