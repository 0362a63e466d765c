"""What Gemini CLI shows it loaded: the context files it appends to a file tool's result.

After a file tool touches a path, Gemini CLI 0.61.0 appends the context files it found above that path
to the tool's `llmContent`, each between `--- Context from: /abs/path ---` and `--- End of Context from:
/abs/path ---` (under a `--- Newly Discovered Project Context ---` heading), and the AfterTool hook
receives that result as `tool_response`. A file named there reached the model; one the release table
predicts but the result does not name did not. Only a path whose opening and closing lines both stand on
lines of their own counts, so a file's text that merely mentions the marker is not taken for a load.
"""

from __future__ import annotations

import os
import re

_OPENING = re.compile(r"^--- Context from: (/[^\n]+?) ---$", re.MULTILINE)
_CLOSING = re.compile(r"^--- End of Context from: (/[^\n]+?) ---$", re.MULTILINE)
MAX_SCANNED = 4 * 1024 * 1024  # a tool result larger than this is not searched (the prediction stands)


def _texts(response: object) -> list[str] | None:
    """The text parts of a tool response (a string, or `llmContent` as a string or a list of parts)."""
    if isinstance(response, str):
        return [response]
    if not isinstance(response, dict):
        return None
    content = response.get("llmContent")
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        parts = [part.get("text") if isinstance(part, dict) else part for part in content]
        return [part for part in parts if isinstance(part, str)]
    return None


def context_files_shown(response: object) -> frozenset[str] | None:
    """The real paths of the context files a tool result shows, or None when there is no result to read.
    One pass over the text: an opening line counts when a closing line for its path comes after it."""
    texts = _texts(response)
    if texts is None or sum(len(text) for text in texts) > MAX_SCANNED:
        return None
    shown: set[str] = set()
    for text in texts:
        last_closing = {found.group(1): found.start() for found in _CLOSING.finditer(text)}
        for found in _OPENING.finditer(text):
            path = found.group(1)
            if last_closing.get(path, -1) > found.end() and "\0" not in path:
                shown.add(os.path.realpath(path))
    return frozenset(shown)
