"""JSON with comments and trailing commas, as Gemini CLI, Qwen Code and Copilot CLI write their settings and
trust files: read the way those clients read them, or not at all."""

from __future__ import annotations

import json
import re
from typing import Any

from jitctx.safe_open import read_regular

MAX_BYTES = 1 << 20
# Comments a JSON-with-comments reader skips; strings are matched first so `"http://x"` stays whole.
_COMMENTS = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def read_jsonc(path: str, max_bytes: int = MAX_BYTES) -> dict[str, Any] | None:
    """The file's object; None when it is missing, not a regular file, larger than `max_bytes` or holds
    no JSON object (the caller falls back to the defaults, as the client does for an unreadable file)."""
    data = read_regular(path, max_bytes)
    if data is None:
        return None
    try:
        text = _COMMENTS.sub(lambda m: m.group(1) or "", data.decode("utf-8-sig"))
        value = json.loads(_TRAILING_COMMA.sub(r"\1", text))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
