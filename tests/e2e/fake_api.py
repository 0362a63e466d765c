"""A scripted model behind the four wire protocols the real clients speak, on 127.0.0.1 only.

`FakeModel` serves the Anthropic Messages API (`POST /v1/messages`, SSE or JSON) for Claude Code, the
OpenAI Responses API (`POST /v1/responses`, SSE) for Codex, the OpenAI Chat Completions API (`POST
.../chat/completions`, SSE or JSON) for the clients that speak it, and the Gemini API (`POST /v1beta/
models/MODEL:streamGenerateContent?alt=sse`) for Gemini CLI. It records every request body and answers from a
`Script`: a list of steps, each a list of tool calls (several calls in one step are a parallel batch),
then a final text. Which step a request is at is read from the request itself: every call id the fake
hands out carries its step (`toolu_main_s2_0`; Gemini's `functionCall.id`, which Gemini CLI keeps in
its history and echoes in the `functionResponse`, is `call_main_s2_0`), so the next step is one past the
highest step already in the conversation. That keeps the fake stateless per conversation, so retries,
side requests (titles, summaries), sub-agents running next to the main thread and a resumed conversation
answered by a script of another name all get the right answer.

A request that offers no tools is a side request of the client (a title, a summary), and so is one whose
last user message asks for a summary of the conversation (`SUMMARY_REQUESTS`: a client that offers its
tools there too and only tells the model not to call them); it gets a short text, which names the call
ids its conversation holds: a compaction's summary keeps them, so the steps go on after it instead of
starting over. A script can report a large prompt (`Script.tokens`, by step)
so that a client compacts its context by itself. The server is bounded: it stops answering after
`max_requests` requests (a runaway client gets HTTP 500 and its run fails), and its thread is a daemon
that `close()` shuts down. It is also the proxy the Gemini runs are given: a request through it
(`CONNECT`, or an absolute URL) is refused with 502 and kept in `refused`, so nothing leaves the machine.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FINAL_TEXT = "Done."
PROMPT_TOKENS = 100
# What the last user message of a compaction's summary request says, in a client that offers its tools
# there too (Copilot CLI 1.0.102: "Please create a detailed summary of the conversation so far. The
# history is being compacted so moving forward ...").
SUMMARY_REQUESTS = ("The history is being compacted",)


@dataclass(frozen=True)
class Call:
    """One tool call. `tool` is the client's tool name, or for Codex the abstract `shell` / `apply_patch`
    that the fake translates to whatever shell or patch tool the client offers in that request."""

    tool: str
    args: Mapping[str, Any]


@dataclass(frozen=True)
class Script:
    """What the model does: `steps[k]` is the k-th turn's tool calls; after the last, it says `final`.

    `name` goes into every call id, so two scripts (a main thread and a sub-agent) never read each
    other's steps. `match` picks the script for a request: a text the request's first user message
    contains (None: the default script)."""

    steps: Sequence[Sequence[Call]]
    name: str = "main"
    match: str | None = None
    final: str = FINAL_TEXT
    # The prompt size the reply to step k reports (default PROMPT_TOKENS): a large one makes a client
    # that watches its context window compact before its next request.
    tokens: Mapping[int, int] = field(default_factory=dict)


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]
    script: str | None  # the script that answered, None for a side request or an error


_ID = re.compile(r"(?:toolu|call)_([a-z]+)_s(\d+)_\d+")
_ID_TEXT = re.compile(r"(?:toolu|call)_[a-z]+_s\d+_\d+")


def next_step(body: Mapping[str, Any], script: Script) -> int:
    """One past the highest step of `script` whose call ids appear in the conversation so far."""
    text = json.dumps(body.get("messages") or body.get("input") or body.get("contents") or [])
    steps = [int(m.group(2)) for m in _ID.finditer(text) if m.group(1) == script.name]
    return max(steps) + 1 if steps else 0


def side_text(body: Mapping[str, Any]) -> str:
    """A side request's answer: the final text, and the call ids its conversation holds (in a
    `<state_snapshot>`, the frame some clients' summaries must have), so that a summary keeps them."""
    ids = sorted(set(_ID_TEXT.findall(json.dumps(body))))
    if not ids:
        return FINAL_TEXT
    return f"<state_snapshot>{FINAL_TEXT} Calls so far: {' '.join(ids)}</state_snapshot>"


def user_texts(body: Mapping[str, Any]) -> list[str]:
    """The texts of the user messages, in order (Anthropic `messages`, Responses `input`, Gemini
    `contents`)."""
    texts = []
    for message in body.get("messages") or body.get("input") or body.get("contents") or []:
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content", message.get("parts"))
        if isinstance(content, str):
            texts.append(content)
        else:
            parts = content if isinstance(content, list) else []
            texts.append("\n".join(str(part.get("text", "")) for part in parts if isinstance(part, dict)))
    return texts


def first_user_text(body: Mapping[str, Any]) -> str:
    """The text of the first user message."""
    return next(iter(user_texts(body)), "")


def is_side_request(body: Mapping[str, Any]) -> bool:
    """A request no script answers: it offers no tools, or its last user message asks for a summary."""
    if not body.get("tools"):
        return True
    last = user_texts(body)[-1:]
    return bool(last) and any(marker in last[0] for marker in SUMMARY_REQUESTS)


@dataclass
class FakeModel:
    """The server: `with FakeModel(scripts) as model: ... model.base_url ... model.requests`."""

    scripts: Sequence[Script]
    max_requests: int = 60
    requests: list[Recorded] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # what a client tried to send through the proxy
    side_tokens: int = PROMPT_TOKENS  # the prompt size a side request's reply reports

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet: pytest shows the asserts
                pass

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                if not fake._proxied(self):
                    fake._reply_json(self, 200, fake._get(self.path))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if not fake._proxied(self):
                    fake._post(self, raw)

            def do_CONNECT(self) -> None:
                fake._proxied(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- lifecycle ---------------------------------------------------------------------------------------

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # -- requests ----------------------------------------------------------------------------------------

    def model_requests(self, script: str = "main") -> list[dict[str, Any]]:
        """Bodies of the requests answered from `script`, in order."""
        return [r.body for r in self.requests if r.script == script]

    def _proxied(self, handler: BaseHTTPRequestHandler) -> bool:
        """A request sent through the proxy (not to the fake itself): refused, and kept in `refused`."""
        if handler.command != "CONNECT" and not handler.path.startswith(("http://", "https://")):
            return False
        with self._lock:
            self.refused.append(f"{handler.command} {handler.path}")
        self._reply_json(handler, 502, {"error": {"code": 502, "message": "the e2e fake proxies nothing"}})
        return True

    def _get(self, path: str) -> dict[str, Any]:
        if path.split("?")[0].rstrip("/").endswith("/models"):
            return {"data": [], "models": [], "object": "list", "has_more": False}
        return {}

    def _post(self, handler: BaseHTTPRequestHandler, raw: bytes) -> None:
        path = handler.path.split("?")[0]
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        with self._lock:
            over = len(self.requests) >= self.max_requests
            record = Recorded(path, body, None)
            self.requests.append(record)
        if over:
            self.errors.append(f"more than {self.max_requests} requests; refusing {path}")
            self._reply_json(
                handler, 500, {"error": {"type": "api_error", "message": "request budget spent"}}
            )
            return
        if path.endswith("/count_tokens"):
            self._reply_json(handler, 200, {"input_tokens": 100})
            return
        gemini = path.endswith(":streamGenerateContent")
        if ":" in path.rsplit("/", 1)[-1] and not gemini:  # a Gemini side call: countTokens, generateContent
            self._reply_json(handler, 200, gemini_side_reply(path))
            return
        if not gemini and not path.endswith(("/messages", "/responses", "/chat/completions")):
            self._reply_json(handler, 404, {"error": {"type": "not_found_error", "message": path}})
            return
        script = self._script_for(body)
        calls: Sequence[Call] = ()
        final = side_text(body)
        tokens = self.side_tokens
        if script is not None:
            record.script = script.name
            step = next_step(body, script)
            calls = script.steps[step] if step < len(script.steps) else ()
            final = script.final
            tokens = script.tokens.get(step, PROMPT_TOKENS)
            calls = [self._translate(call, body) for call in calls]
            ids = [f"{script.name}_s{step}_{i}" for i in range(len(calls))]
        else:
            ids = []
        if path.endswith("/messages"):
            anthropic_reply(handler, body, calls, ids, final, tokens)
        elif path.endswith("/chat/completions"):
            chat_reply(handler, body, calls, ids, final, tokens)
        elif gemini:
            gemini_reply(handler, calls, ids, final, tokens)
        else:
            responses_reply(handler, calls, ids, final, tokens)

    def _script_for(self, body: Mapping[str, Any]) -> Script | None:
        if is_side_request(body):
            return None
        first = first_user_text(body)
        for script in self.scripts:
            if script.match is not None and script.match in first:
                return script
        return next((s for s in self.scripts if s.match is None), None)

    @staticmethod
    def _translate(call: Call, body: Mapping[str, Any]) -> Call:
        """Codex: the abstract `shell` / `apply_patch` as the tool this request offers."""
        if "input" not in body:
            return call
        offered = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
        args = dict(call.args)
        if call.tool == "shell":
            command = args.pop("command")
            if "exec_command" in offered:
                return Call("exec_command", {"cmd": command, **args})
            if "shell_command" in offered:
                return Call("shell_command", {"command": command, **args})
            return Call("shell", {"command": ["bash", "-lc", command], **args})
        return call

    @staticmethod
    def _reply_json(handler: BaseHTTPRequestHandler, status: int, document: Any) -> None:
        data = json.dumps(document).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)


# -- Anthropic Messages API ------------------------------------------------------------------------------


def anthropic_reply(
    handler: BaseHTTPRequestHandler,
    body: Mapping[str, Any],
    calls: Sequence[Call],
    ids: Sequence[str],
    final: str,
    tokens: int = PROMPT_TOKENS,
) -> None:
    content: list[dict[str, Any]] = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": c.tool, "input": dict(c.args)}
        for c, i in zip(calls, ids, strict=True)
    ]
    if not calls:
        content = [{"type": "text", "text": final}]
    message = {
        "id": f"msg_{ids[0] if ids else 'final'}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-sonnet-4-5"),
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tokens, "output_tokens": 10},
    }
    if not body.get("stream"):
        FakeModel._reply_json(handler, 200, message)
        return
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        )
    ]
    for index, block in enumerate(content):
        if block["type"] == "text":
            start = {**block, "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": 10},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    send_sse(handler, events)


# -- OpenAI Responses API --------------------------------------------------------------------------------


def responses_reply(
    handler: BaseHTTPRequestHandler,
    calls: Sequence[Call],
    ids: Sequence[str],
    final: str,
    tokens: int = PROMPT_TOKENS,
) -> None:
    items: list[dict[str, Any]] = []
    for call, ident in zip(calls, ids, strict=True):
        if call.tool == "apply_patch":
            items.append(
                {
                    "type": "custom_tool_call",
                    "id": f"ctc_{ident}",
                    "call_id": f"call_{ident}",
                    "name": "apply_patch",
                    "input": call.args["input"],
                    "status": "completed",
                }
            )
        else:
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{ident}",
                    "call_id": f"call_{ident}",
                    "name": call.tool,
                    "arguments": json.dumps(dict(call.args)),
                    "status": "completed",
                }
            )
    if not calls:
        items.append(
            {
                "type": "message",
                "id": "msg_final",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": final, "annotations": []}],
            }
        )
    response_id = f"resp_{ids[0] if ids else 'final'}"
    events: list[tuple[str, dict[str, Any]]] = [
        ("response.created", {"type": "response.created", "response": {"id": response_id}})
    ]
    for index, item in enumerate(items):
        events.append(
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": index, "item": item},
            )
        )
    usage = {
        "input_tokens": tokens,
        "input_tokens_details": None,
        "output_tokens": 10,
        "output_tokens_details": None,
        "total_tokens": tokens + 10,
    }
    events.append(
        (
            "response.completed",
            {"type": "response.completed", "response": {"id": response_id, "usage": usage}},
        )
    )
    send_sse(handler, events)


# -- OpenAI Chat Completions API ------------------------------------------------------------------------


def chat_message(calls: Sequence[Call], ids: Sequence[str], final: str) -> dict[str, Any]:
    """The assistant's message: the step's calls as `tool_calls` (their ids carry the step), or the text."""
    tool_calls = [
        {
            "id": f"call_{ident}",
            "type": "function",
            "function": {"name": call.tool, "arguments": json.dumps(dict(call.args))},
        }
        for call, ident in zip(calls, ids, strict=True)
    ]
    if tool_calls:
        return {"role": "assistant", "content": None, "tool_calls": tool_calls}
    return {"role": "assistant", "content": final}


def chat_usage(tokens: int) -> dict[str, int]:
    return {"prompt_tokens": tokens, "completion_tokens": 10, "total_tokens": tokens + 10}


def chat_reply(
    handler: BaseHTTPRequestHandler,
    body: Mapping[str, Any],
    calls: Sequence[Call],
    ids: Sequence[str],
    final: str,
    tokens: int = PROMPT_TOKENS,
) -> None:
    """One completion, streamed as chunks (a delta per tool call, each with its index) when the request
    asks for a stream, else one JSON document."""
    message = chat_message(calls, ids, final)
    finish = "tool_calls" if calls else "stop"
    head = {
        "id": f"chatcmpl_{ids[0] if ids else 'final'}",
        "created": 0,
        "model": str(body.get("model", "m")),
    }
    if not body.get("stream"):
        choice = {"index": 0, "message": message, "finish_reason": finish}
        document = {**head, "object": "chat.completion", "choices": [choice], "usage": chat_usage(tokens)}
        FakeModel._reply_json(handler, 200, document)
        return
    chunk = {**head, "object": "chat.completion.chunk"}
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": message["content"] or ""}]
    for index, tool_call in enumerate(message.get("tool_calls", [])):
        deltas.append({"tool_calls": [{"index": index, **tool_call}]})
    events: list[tuple[str, Mapping[str, Any]]] = [
        ("", {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}) for delta in deltas
    ]
    events.append(("", {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))
    events.append(("", {**chunk, "choices": [], "usage": chat_usage(tokens)}))
    send_sse(handler, events, done=True)


# -- Gemini API ------------------------------------------------------------------------------------------


def gemini_candidate(parts: Sequence[Mapping[str, Any]], tokens: int = PROMPT_TOKENS) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": tokens,
            "candidatesTokenCount": 10,
            "totalTokenCount": tokens + 10,
        },
        "modelVersion": "e2e-fake",
    }


def gemini_reply(
    handler: BaseHTTPRequestHandler,
    calls: Sequence[Call],
    ids: Sequence[str],
    final: str,
    tokens: int = PROMPT_TOKENS,
) -> None:
    """One SSE chunk: the step's calls as `functionCall` parts (their ids carry the step), or the text."""
    parts: list[dict[str, Any]] = [
        {"functionCall": {"id": f"call_{ident}", "name": call.tool, "args": dict(call.args)}}
        for call, ident in zip(calls, ids, strict=True)
    ]
    send_sse(handler, [("", gemini_candidate(parts or [{"text": final}], tokens))])


def gemini_side_reply(path: str) -> dict[str, Any]:
    """What a Gemini call other than streamGenerateContent gets (with -m, the client makes none)."""
    if path.endswith(":countTokens"):
        return {"totalTokens": 100}
    if path.endswith(("embedContent", "batchEmbedContents")):
        return {"embedding": {"values": [0.0] * 8}}
    return gemini_candidate([{"text": "{}"}])


def send_sse(
    handler: BaseHTTPRequestHandler,
    events: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    done: bool = False,
) -> None:
    """`events` as SSE; an event without a name (Gemini's and Chat Completions' streams) is a bare `data:`
    line; `done` closes the stream with Chat Completions' `data: [DONE]`."""
    data = "".join(
        (f"event: {name}\n" if name else "") + f"data: {json.dumps(payload)}\n\n" for name, payload in events
    )
    data = (data + ("data: [DONE]\n\n" if done else "")).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
