"""A compaction event whose answer reaches no model (Gemini CLI's `PreCompress`, before every turn): the
session is marked, and the next tool result carries what the session held — when the client's records
show a compaction since the mark, and only then; the fast lane steps aside while it must."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.gemini_cli.compaction import ACKNOWLEDGEMENT, ENVIRONMENT_ID
from tests.conftest import write_tree
from tests.hook.events import hook_event

AGENT = "gemini-cli"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write_tree(
        root,
        {
            ".git/HEAD": "x\n",
            ".jitctx.toml": '[pin]\npaths = ["docs/pinned.md"]\n',
            "docs/pinned.md": "JX-PINNED\n",
            "src/api/AGENTS.md": "JX-API-AGENTS\n",
            "src/api/users.ts": "x\n",
            "src/other.ts": "x\n",
            "web/AGENTS.md": "JX-WEB-AGENTS\n",
            "web/page.ts": "x\n",
        },
    )
    return root


def _compression() -> bytes:
    messages = [
        {"id": ENVIRONMENT_ID, "timestamp": "t", "type": "user", "content": [{"text": "<session_context>"}]},
        {"id": "s1", "timestamp": "t", "type": "user", "content": [{"text": "summary"}]},
        {"id": "ack-1", "timestamp": "t", "type": "gemini", "content": [{"text": ACKNOWLEDGEMENT}]},
    ]
    return json.dumps({"$set": {"messages": messages}}, separators=(",", ":")).encode() + b"\n"


@pytest.mark.parametrize("in_process", [True, False])
def test_the_next_tool_result_after_a_compression_carries_what_the_session_held(
    root: Path, tmp_path: Path, call_hook: Any, run_hook_process: Any, answers: Any, in_process: bool
) -> None:
    record = tmp_path / "chat.jsonl"
    record.write_bytes(b'{"sessionId":"g","projectHash":"p"}\n')

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        payload = hook_event(root, "g", name, str(record), **fields)
        if in_process:
            answer: dict[str, Any] = call_hook(AGENT, payload, use_git=False)
            return answer
        code, answer, _ = run_hook_process(AGENT, payload, "--no-git")
        assert code == 0
        return answer

    def after(rel: str) -> dict[str, Any]:
        call = {"file_path": str(root / rel)}
        return hook("AfterTool", tool_name="read_file", tool_input=call, tool_response={"llmContent": "x"})

    assert answers.sent(hook("SessionStart", source="startup")) == ["docs/pinned.md"]
    assert hook("BeforeAgent", prompt="first") == {}
    assert answers.sent(after("src/api/users.ts")) == ["src/api/AGENTS.md"]
    # The compression keeps the latest prompt's turn (the test below): this one is later.
    assert hook("BeforeAgent", prompt="second") == {}
    # A turn that compresses nothing: the mark is dropped, the fast lane answers as before.
    assert hook("PreCompress", trigger="auto") == {}
    assert after("src/other.ts") == {}
    # A turn that compresses: the next tool result carries what the session held, once.
    assert hook("PreCompress", trigger="auto") == {}
    with record.open("ab") as handle:
        handle.write(_compression())
    assert hook("PreCompress", trigger="auto") == {}  # a second mark keeps the earlier point
    assert sorted(answers.sent(after("src/other.ts"))) == ["docs/pinned.md", "src/api/AGENTS.md"]
    assert after("src/other.ts") == {}


def test_a_compaction_event_before_any_session_marks_nothing(
    root: Path, tmp_path: Path, call_hook: Any
) -> None:
    payload = hook_event(root, "fresh", "PreCompress", str(tmp_path / "none.jsonl"), trigger="auto")
    assert call_hook(AGENT, payload, use_git=False) == {}
    assert not list((tmp_path / "state").glob("sessions/*.compacted"))


def test_what_arrived_since_the_latest_prompt_is_kept_by_the_compression_and_not_sent_again(
    root: Path, tmp_path: Path, call_hook: Any, answers: Any
) -> None:
    """Gemini CLI splits the history it compresses at a user prompt: the latest prompt and all after it
    stay. A start answer belongs to the prompt that follows it."""
    record = tmp_path / "chat.jsonl"
    record.write_bytes(b'{"sessionId":"g","projectHash":"p"}\n')

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook(
            AGENT, hook_event(root, "t", name, str(record), **fields), use_git=False
        )
        return answer

    def after(rel: str) -> dict[str, Any]:
        call = {"file_path": str(root / rel)}
        return hook("AfterTool", tool_name="read_file", tool_input=call, tool_response={"llmContent": "x"})

    assert answers.sent(hook("SessionStart", source="startup")) == ["docs/pinned.md"]
    hook("BeforeAgent", prompt="first")
    assert answers.sent(after("src/api/users.ts")) == ["src/api/AGENTS.md"]
    hook("BeforeAgent", prompt="second")
    assert answers.sent(after("web/page.ts")) == ["web/AGENTS.md"]
    hook("PreCompress", trigger="auto")
    with record.open("ab") as handle:
        handle.write(_compression())
    again = answers.sent(after("src/other.ts"))
    assert sorted(again) == ["docs/pinned.md", "src/api/AGENTS.md"]  # web/AGENTS.md is in the kept turn
