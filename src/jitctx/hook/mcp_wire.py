"""What the MCP SDK reads on stdin: the client's JSON-RPC lines, each cleaned first so that no request can
make the SDK drop it without a reply."""

from __future__ import annotations

import io
import os
import re
import sys
from typing import Any, BinaryIO

# A JSON escape of a lone surrogate (`"\ud800"`) is valid JSON syntax but no Unicode text. The SDK's parser
# refuses such a line, and the SDK then drops the request without a reply: the client waits forever. Each
# line the SDK reads is cleaned first: such an escape becomes `\ufffd`, as bytes that are not UTF-8 already
# do, so the request arrives and the tool says the argument is not text (`mcp_text.text_problem`).
_ESCAPES = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # a pair: one character, kept
    rb"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"  # a lone surrogate
    rb"|\\."  # any other escape, `\\` included, so that `\\ud800` (a backslash, then text) stays
)


def clean_line(line: bytes) -> bytes:
    """One line of JSON-RPC with lone surrogate escapes (and bytes that are not UTF-8) as U+FFFD."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        line = line.decode("utf-8", "replace").encode("utf-8")
    if b"\\u" not in line:
        return line
    return _ESCAPES.sub(lambda m: b"\\ufffd" if len(m.group()) == 6 else m.group(), line)


class _CleanLines(io.RawIOBase):
    """A binary stream of `source`'s lines, each through `clean_line`."""

    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._pending:
            self._pending = clean_line(self._source.readline())
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        return count


def clean_stdin() -> None:
    """Give the SDK a stdin whose lines are cleaned. The wire moves to a private descriptor and fd 0 reads
    /dev/null, so that a child process (git) cannot eat requests (the SDK does the same for its own)."""
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    source = os.fdopen(wire, "rb")
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_CleanLines(source)), encoding="utf-8", errors="replace")
