"""What reached the model, read from a recorded request body: which instruction text, by which route.

Every instruction file of the fixture carries one marker (`JX-UI-CLAUDE`); a request of a client holds the
whole conversation so far, so the last request of a thread shows everything that thread's model was
given. Each occurrence of a marker is classified by where it sits:

* `client`: the client loaded the file itself. Claude Code: its system prompt, its `claudeMd` reminder,
  or a `system` message (`Contents of /abs/path:`, its nested load). Codex: an `# AGENTS.md instructions
  for DIR` block (`<INSTRUCTIONS>`), or its `instructions` field. Gemini CLI: a `--- Context from:
  /abs/path ---` ... `--- End of Context from: /abs/path ---` block, in the first user turn (its load at
  start) or appended to a file tool's `functionResponse` output (its just-in-time load).
* `hook`: a hook's additionalContext. Claude Code prefixes it with `EVENT[:TOOL] hook additional context:`
  (in a `<system-reminder>` after a tool result, in a `system` message at session start); Codex adds it
  as a developer message of its own; Gemini CLI wraps it in `<hook_context>...</hook_context>`, appended
  to the tool's output (AfterTool) or in the user's turn (SessionStart, BeforeAgent).
* `tool-output`: the file's text came back as a tool's output (the model read the file itself).

The fixture's hooks are jitctx's only, so `hook` means jitctx sent it.

A resumed Gemini CLI 0.61 conversation repeats every `functionResponse` part of the earlier runs (the
same call id and output, once more per resume); a repeat is the client's replay of its own history, not
a delivery, so it is counted once (`gemini_repeats` counts what was left out).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

_HOOK_HEADER = re.compile(r"(\S+) hook additional context: ")
# Claude Code's own header names the file by its absolute path; jitctx's blocks name it relative to the root.
_CLIENT_HEADER = re.compile(r"Contents of (/\S+?)(?: \(|:)")
_GEMINI_OPENING = re.compile(r"^--- Context from: (/[^\n]+?) ---$", re.MULTILINE)
_HOOK_OPEN, _HOOK_CLOSE = "<hook_context>", "</hook_context>"


class Delivery(NamedTuple):
    route: str  # "client", "hook" or "tool-output"
    detail: str  # e.g. "PostToolUse:Write", "system message", "AGENTS.md instructions"

    def __str__(self) -> str:
        return f"{self.route}({self.detail})"


class _Chunk(NamedTuple):
    kind: str
    text: str


def _texts(content: Any) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                yield part["text"]


def _anthropic_chunks(body: Mapping[str, Any]) -> Iterator[_Chunk]:
    for text in _texts(body.get("system")):
        yield _Chunk("system prompt", text)
    for message in body.get("messages") or []:
        role, content = message.get("role"), message.get("content")
        if role == "system":
            for text in _texts(content):
                yield _Chunk("system message", text)
        elif role == "user":
            if isinstance(content, str):
                yield _Chunk("user text", content)
                continue
            for part in content or []:
                if part.get("type") == "tool_result":
                    for text in _texts(part.get("content")):
                        yield _Chunk("tool output", text)
                elif isinstance(part.get("text"), str):
                    yield _Chunk("user text", part["text"])


def _responses_chunks(body: Mapping[str, Any]) -> Iterator[_Chunk]:
    if isinstance(body.get("instructions"), str):
        yield _Chunk("instructions", body["instructions"])
    for item in body.get("input") or []:
        kind = item.get("type")
        if kind == "message":
            for text in _texts(item.get("content")):
                yield _Chunk(f"{item.get('role')} message", text)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            output = item.get("output")
            yield _Chunk("tool output", output if isinstance(output, str) else json.dumps(output))


def _gemini_parts(body: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(role, part) of every content, a repeated functionResponse part (same id, name and response) once."""
    seen: set[str] = set()
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            if isinstance(response, dict):
                key = json.dumps(response, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
            yield str(content.get("role")), part


def gemini_repeats(body: Mapping[str, Any]) -> int:
    """How many functionResponse parts of a Gemini request repeat an earlier one (left out as evidence)."""
    every = sum(
        "functionResponse" in part for c in body.get("contents") or [] for part in c.get("parts") or []
    )
    return every - sum("functionResponse" in part for _, part in _gemini_parts(body))


def _gemini_chunks(body: Mapping[str, Any]) -> Iterator[_Chunk]:
    instruction = body.get("systemInstruction")
    if isinstance(instruction, dict):
        for text in _texts(instruction.get("parts")):
            yield _Chunk("system prompt", text)
    for role, part in _gemini_parts(body):
        if role != "user":
            continue
        response = part.get("functionResponse")
        if isinstance(response, dict):
            output = (response.get("response") or {}).get("output")
            text = output if isinstance(output, str) else json.dumps(response.get("response"))
            yield _Chunk(f"gemini output:{response.get('name')}", text)
        elif isinstance(part.get("text"), str):
            yield _Chunk("gemini user text", part["text"])


def _gemini_route(chunk: _Chunk, position: int) -> Delivery:
    text = chunk.text
    tool = chunk.kind.partition(":")[2]
    opened = text.rfind(_HOOK_OPEN, 0, position)
    if opened >= 0 and text.find(_HOOK_CLOSE, opened) >= position:
        return Delivery("hook", f"AfterTool:{tool}" if tool else "user turn")
    for found in _GEMINI_OPENING.finditer(text, 0, position):
        closing = text.find(f"\n--- End of Context from: {found.group(1)} ---", found.end())
        if closing >= position:
            return Delivery("client", f"context after {tool}" if tool else "context at start")
    if tool:
        return Delivery("tool-output", f"{tool} result")
    return Delivery("client", "prompt")


def _route(chunk: _Chunk, position: int) -> Delivery:
    if chunk.kind.startswith("gemini "):
        return _gemini_route(chunk, position)
    if chunk.kind == "tool output":
        return Delivery("tool-output", "tool result")
    if chunk.kind in ("system prompt", "instructions"):
        return Delivery("client", chunk.kind)
    if chunk.kind in ("system message", "user text"):  # Claude Code; one text may hold several parts
        hook = list(_HOOK_HEADER.finditer(chunk.text, 0, position))
        own = list(_CLIENT_HEADER.finditer(chunk.text, 0, position))
        if hook and (not own or hook[-1].start() > own[-1].start()):
            return Delivery("hook", hook[-1].group(1))
        if chunk.kind == "system message":
            return Delivery("client", "system message")
        return Delivery("client", "reminder" if "<system-reminder>" in chunk.text else "prompt")
    # Codex: its own AGENTS.md load is an <INSTRUCTIONS> block; a hook's context is a developer message.
    opened = chunk.text.rfind("<INSTRUCTIONS>", 0, position)
    if opened >= 0 and chunk.text.find("</INSTRUCTIONS>", opened) >= position:
        return Delivery("client", "AGENTS.md instructions")
    if chunk.kind == "developer message":
        return Delivery("hook", "developer message")
    return Delivery("client", chunk.kind)


def deliveries(body: Mapping[str, Any], marker: str) -> list[Delivery]:
    """Every occurrence of `marker` in the request, with its route, in conversation order."""
    if "contents" in body:
        chunks = _gemini_chunks(body)
    else:
        chunks = _responses_chunks(body) if "input" in body else _anthropic_chunks(body)
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    return [_route(chunk, m.start()) for chunk in chunks for m in pattern.finditer(chunk.text)]


def summary(body: Mapping[str, Any], markers: Sequence[str]) -> str:
    """One line per marker: how often and by which routes it arrived (for assertion messages)."""
    lines = []
    for marker in markers:
        found = deliveries(body, marker)
        shown = ", ".join(str(d) for d in found) or "-"
        lines.append(f"  {marker}: {len(found)}x {shown}")
    return "\n".join(lines)
