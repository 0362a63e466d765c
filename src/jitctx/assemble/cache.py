"""What a change to the prompt (typically a new JIT load) costs the prompt cache, per API family.

A provider's prompt cache reuses the longest unchanged prefix of the request; everything from the first
changed byte on is processed again. So the cost of going from one assembled state to the next is measured
as the bytes of the new request after the first position where the two serialized requests differ. Both
states are serialized the same deterministic way (UTF-8 text; JSON with the keys in insertion order, no
spaces, non-ASCII kept), so the figure depends on the prompt, not on serialization noise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jitctx.assemble.assembler import PromptAssembler
from jitctx.assemble.wire import FORMATS, AssembledPrompt, render_prompt

_CHUNK = 4096


@dataclass(frozen=True)
class CacheCost:
    format: str
    before_bytes: int
    after_bytes: int
    unchanged_prefix: int  # bytes identical from the start of both requests
    # Bytes of the new request from the first difference on: 0 when identical or when the new request is
    # a prefix of the old one (a block removed from the end).
    bytes_after_change: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "before_bytes": self.before_bytes,
            "after_bytes": self.after_bytes,
            "unchanged_prefix": self.unchanged_prefix,
            "bytes_after_change": self.bytes_after_change,
        }


def serialize(rendered: str | Mapping[str, Any]) -> bytes:
    if isinstance(rendered, str):
        return rendered.encode("utf-8")
    return json.dumps(rendered, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    i = 0
    while i + _CHUNK <= n and a[i : i + _CHUNK] == b[i : i + _CHUNK]:
        i += _CHUNK
    while i < n and a[i] == b[i]:
        i += 1
    return i


def cache_cost(
    before: AssembledPrompt | PromptAssembler,
    after: AssembledPrompt | PromptAssembler,
    *,
    formats: Sequence[str] = FORMATS,
    messages: Sequence[Mapping[str, Any]] = (),
) -> tuple[CacheCost, ...]:
    """One CacheCost per format, comparing the request for `before` with the request for `after`.

    `messages` is the conversation both requests carry (it matters for where OpenAI-style blocks land).
    Pass snapshots (`PromptAssembler.snapshot()`) to compare states of one assembler over time.
    """
    old = before.snapshot() if isinstance(before, PromptAssembler) else before
    new = after.snapshot() if isinstance(after, PromptAssembler) else after
    out = []
    for fmt in formats:
        a = serialize(render_prompt(old, fmt, messages=messages))
        b = serialize(render_prompt(new, fmt, messages=messages))
        same = common_prefix(a, b)
        out.append(CacheCost(fmt, len(a), len(b), same, len(b) - same))
    return tuple(out)
