"""The e2e harness itself, without the clients: the fake model's three protocols, the evidence reader, and
the skip when npm cannot provide the clients."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.evidence import deliveries, gemini_repeats
from tests.e2e.fake_api import Call, FakeModel, Script


def post(url: str, body: dict[str, object]) -> str:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


TOOLS = [{"name": "Read"}]


def test_the_step_is_read_from_the_call_ids_in_the_conversation() -> None:
    script = Script([[Call("Read", {"file_path": "a"})], [Call("Read", {"file_path": "b"})]])
    with FakeModel([script]) as model:
        first = json.loads(post(f"{model.base_url}/v1/messages", {"tools": TOOLS, "messages": []}))
        assert first["content"][0]["id"] == "toolu_main_s0_0"
        assert first["content"][0]["input"] == {"file_path": "a"}
        history = [{"role": "assistant", "content": first["content"]}]
        second = json.loads(post(f"{model.base_url}/v1/messages", {"tools": TOOLS, "messages": history}))
        assert second["content"][0]["input"] == {"file_path": "b"}
        history.append({"role": "assistant", "content": second["content"]})
        third = json.loads(post(f"{model.base_url}/v1/messages", {"tools": TOOLS, "messages": history}))
        assert third["content"] == [{"type": "text", "text": "Done."}]
        side = json.loads(post(f"{model.base_url}/v1/messages", {"messages": history}))
    assert side["content"][0]["type"] == "text"
    assert [r.script for r in model.requests] == ["main", "main", "main", None]


def test_anthropic_stream_and_responses_stream() -> None:
    script = Script([[Call("shell", {"command": "ls", "workdir": "/w"})]])
    with FakeModel([script]) as model:
        sse = post(f"{model.base_url}/v1/messages", {"tools": TOOLS, "messages": [], "stream": True})
        offered = [{"type": "function", "name": "exec_command"}]
        responses = post(f"{model.base_url}/v1/responses", {"tools": offered, "input": [], "stream": True})
    assert sse.startswith("event: message_start") and '"partial_json": "{\\"command\\": \\"ls\\"' in sse
    item = next(
        json.loads(line[6:])["item"]
        for line in responses.splitlines()
        if line.startswith("data: ") and "output_item.done" in line
    )
    assert item["name"] == "exec_command"
    assert json.loads(item["arguments"]) == {"cmd": "ls", "workdir": "/w"}
    assert "response.completed" in responses


def test_chat_completions_stream_and_document_carry_the_step_in_their_call_ids() -> None:
    script = Script([[Call("read_file", {"path": "a"}), Call("bash", {"command": "ls"})]])
    functions = [{"type": "function", "function": {"name": "read_file"}}]
    with FakeModel([script]) as model:
        url = f"{model.base_url}/v1/chat/completions"
        stream = post(url, {"tools": functions, "messages": [], "stream": True})
        chunks = [json.loads(line[6:]) for line in stream.splitlines() if line.startswith("data: {")]
        calls = [c for chunk in chunks for ch in chunk["choices"] for c in ch["delta"].get("tool_calls", [])]
        history = [{"role": "assistant", "tool_calls": [{"id": c["id"]} for c in calls]}]
        document = json.loads(post(url, {"tools": functions, "messages": history}))
    assert [(c["index"], c["id"], c["function"]["name"]) for c in calls] == [
        (0, "call_main_s0_0", "read_file"),
        (1, "call_main_s0_1", "bash"),
    ]
    assert json.loads(calls[1]["function"]["arguments"]) == {"command": "ls"}
    assert stream.rstrip().endswith("data: [DONE]")
    assert [ch["finish_reason"] for chunk in chunks for ch in chunk["choices"]][-1] == "tool_calls"
    assert document["choices"][0]["message"] == {"role": "assistant", "content": "Done."}
    assert document["choices"][0]["finish_reason"] == "stop"


def test_a_runaway_client_is_refused() -> None:
    with FakeModel([Script([])], max_requests=1) as model:
        post(f"{model.base_url}/v1/messages", {"messages": []})
        with pytest.raises(urllib.error.HTTPError):
            post(f"{model.base_url}/v1/messages", {"messages": []})
    assert model.errors


def test_routes_of_claude_code_bodies() -> None:
    body = {
        "system": [{"type": "text", "text": "base"}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "text",
                        "text": "<system-reminder>Contents of /r/CLAUDE.md "
                        "(project instructions):\n\nMK-A</system-reminder>",
                    }
                ],
            },
            {
                "role": "system",
                "content": "SessionStart hook additional context: Contents of AGENTS.md "
                "(session start):\n\nMK-B\n\nContents of /r/x/CLAUDE.md:\n\nMK-C",
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t", "content": "MK-D"},
                    {
                        "type": "text",
                        "text": "<system-reminder>\nPostToolUse:Write hook additional context: MK-E",
                    },
                ],
            },
        ],
    }
    assert [str(d) for d in deliveries(body, "MK-A")] == ["client(reminder)"]
    assert [str(d) for d in deliveries(body, "MK-B")] == ["hook(SessionStart)"]
    assert [str(d) for d in deliveries(body, "MK-C")] == ["client(system message)"]
    assert [str(d) for d in deliveries(body, "MK-D")] == ["tool-output(tool result)"]
    assert [str(d) for d in deliveries(body, "MK-E")] == ["hook(PostToolUse:Write)"]
    assert deliveries(body, "MK") == []  # whole markers only


def test_routes_of_codex_bodies() -> None:
    text = "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nMK-A\n</INSTRUCTIONS>"
    body = {
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "MK-B"}]},
            {"type": "function_call_output", "call_id": "c", "output": "MK-C"},
        ]
    }
    assert [str(d) for d in deliveries(body, "MK-A")] == ["client(AGENTS.md instructions)"]
    assert [str(d) for d in deliveries(body, "MK-B")] == ["hook(developer message)"]
    assert [str(d) for d in deliveries(body, "MK-C")] == ["tool-output(tool result)"]


GEMINI_TOOLS = [{"functionDeclarations": [{"name": "read_file"}]}]
STREAM = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"


def gemini_parts(sse: str) -> list[dict[str, object]]:
    (line,) = [line for line in sse.splitlines() if line.startswith("data: ")]
    parts: list[dict[str, object]] = json.loads(line[6:])["candidates"][0]["content"]["parts"]
    return parts


def test_gemini_stream_steps_by_the_call_ids_it_hands_out() -> None:
    """Gemini: the step is read from the functionCall ids in `contents` (the client echoes them), so a
    resumed conversation answered by another script starts that script at its first step."""
    main = Script([[Call("read_file", {"file_path": "a"}), Call("read_file", {"file_path": "b"})]])
    again = Script([[Call("read_file", {"file_path": "c"})]], name="again")
    with FakeModel([main]) as model:
        first = gemini_parts(post(f"{model.base_url}{STREAM}", {"tools": GEMINI_TOOLS, "contents": []}))
        assert [p["functionCall"] for p in first] == [
            {"id": "call_main_s0_0", "name": "read_file", "args": {"file_path": "a"}},
            {"id": "call_main_s0_1", "name": "read_file", "args": {"file_path": "b"}},
        ]
        history = [{"role": "model", "parts": first}]
        done = gemini_parts(post(f"{model.base_url}{STREAM}", {"tools": GEMINI_TOOLS, "contents": history}))
        assert done == [{"text": "Done."}]
        counted = json.loads(post(f"{model.base_url}/v1beta/models/m:countTokens", {"contents": []}))
        assert counted == {"totalTokens": 100}
    with FakeModel([again]) as model:
        resumed = post(f"{model.base_url}{STREAM}", {"tools": GEMINI_TOOLS, "contents": history})
    assert gemini_parts(resumed)[0]["functionCall"] == {
        "id": "call_again_s0_0", "name": "read_file", "args": {"file_path": "c"},
    }  # fmt: skip


def test_the_fake_refuses_what_is_sent_through_it_as_a_proxy() -> None:
    with FakeModel([Script([])]) as model:
        request = urllib.request.Request("http://example.invalid/x", b"{}", method="POST")
        proxy = urllib.request.ProxyHandler({"http": model.base_url})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.build_opener(proxy).open(request, timeout=10)
    assert refused.value.code == 502
    assert model.refused == ["POST http://example.invalid/x"] and model.requests == []


def test_routes_of_gemini_bodies() -> None:
    loaded = "--- Context from: /r/GEMINI.md ---\nMK-A\n--- End of Context from: /r/GEMINI.md ---"
    start = f"<session_context>\n<loaded_context>\n{loaded}\n</loaded_context>\n</session_context>"
    jit = "--- Context from: /r/x/GEMINI.md ---\nMK-D\n--- End of Context from: /r/x/GEMINI.md ---"
    output = f"MK-C\n\n--- Newly Discovered Project Context ---\n{jit}\n\n<hook_context>MK-E</hook_context>"
    response = {"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": output}}}
    body = {
        "systemInstruction": {"parts": [{"text": "base MK-F"}]},
        "contents": [
            {
                "role": "user",
                "parts": [{"text": start}, {"text": "<hook_context>MK-B</hook_context>\n\nGo."}],
            },
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file", "args": {}}}]},
            {"role": "user", "parts": [response, response]},  # a resumed conversation repeats the part
        ],
    }
    assert [str(d) for d in deliveries(body, "MK-A")] == ["client(context at start)"]
    assert [str(d) for d in deliveries(body, "MK-B")] == ["hook(user turn)"]
    assert [str(d) for d in deliveries(body, "MK-C")] == ["tool-output(read_file result)"]
    assert [str(d) for d in deliveries(body, "MK-D")] == ["client(context after read_file)"]
    assert [str(d) for d in deliveries(body, "MK-E")] == ["hook(AfterTool:read_file)"]
    assert [str(d) for d in deliveries(body, "MK-F")] == ["client(system prompt)"]
    assert gemini_repeats(body) == 1


def test_without_npm_the_clients_are_refused_with_a_reason(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(cl, "NPM_DIR", tmp_path / "npm")
    monkeypatch.setenv("PATH", str(tmp_path))  # neither node nor npm
    reason = cl.install_clients()
    assert isinstance(reason, str)
    assert reason.startswith("node/npm not found on PATH") and "\n" not in reason
