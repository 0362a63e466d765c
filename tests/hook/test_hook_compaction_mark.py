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


def _compacted_session(root: Path, record: Path, call_hook: Any) -> Any:
    """A Gemini CLI session that sent src/api/AGENTS.md, then compressed (the mark and the record)."""

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        answer: dict[str, Any] = call_hook(
            AGENT, hook_event(root, "c", name, str(record), **fields), use_git=False
        )
        return answer

    record.write_bytes(b'{"sessionId":"g","projectHash":"p"}\n')
    hook("SessionStart", source="startup")
    hook("BeforeAgent", prompt="first")
    call = {"file_path": str(root / "src/api/users.ts")}
    hook("AfterTool", tool_name="read_file", tool_input=call, tool_response={"llmContent": "x"})
    hook("BeforeAgent", prompt="second")
    hook("PreCompress", trigger="auto")
    with record.open("ab") as handle:
        handle.write(_compression())
    return hook


def test_a_re_send_that_could_not_be_delivered_goes_out_with_the_next_event(
    root: Path, tmp_path: Path, call_hook: Any, answers: Any
) -> None:
    from jitctx.hook.engine import HookEnv
    from jitctx.hook.pipeline import run_hook

    record = tmp_path / "chat.jsonl"
    _compacted_session(root, record, call_hook)
    env = HookEnv(state_dir=tmp_path / "state", home=str(tmp_path / "home"), use_git=False)
    call = {"file_path": str(root / "src/other.ts")}
    event = json.dumps(
        hook_event(root, "c", "AfterTool", str(record), tool_name="read_file", tool_input=call,
                   tool_response={"llmContent": "x"})
    )  # fmt: skip

    def broken(_: dict[str, Any]) -> None:
        raise BrokenPipeError("the agent closed the pipe")

    run_hook(AGENT, event, env, deliver=broken)
    written: list[dict[str, Any]] = []
    run_hook(AGENT, event, env, deliver=written.append)
    assert [sorted(answers.sent(a)) for a in written] == [["docs/pinned.md", "src/api/AGENTS.md"]]


def test_a_write_after_a_compression_is_held_with_the_rules_it_dropped(
    root: Path, tmp_path: Path, call_hook: Any
) -> None:
    """Before the write (DESIGN §2.11): after a compression, the model holds none of the rules the
    session had sent, so a write into their scope is held until they are back."""
    hook = _compacted_session(root, tmp_path / "chat.jsonl", call_hook)
    write = {"file_path": str(root / "src/api/new.ts"), "content": "x\n"}
    held = hook("BeforeTool", tool_name="write_file", tool_input=write)
    assert held.get("decision") == "deny"
    assert "JX-API-AGENTS" in held["reason"]
