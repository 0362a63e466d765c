"""The MCP SDK's stdio: what it reads on stdin (the client's JSON-RPC lines, each cleaned first so that no
request can make the SDK drop it without a reply), and what it writes on stdout (each line written whole,
then reported, so that an answer counts as delivered only once it reached the client: `Deliveries`)."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import threading
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


class Waiter:
    """One tool call's answer on its way to the client: settled once, delivered or not."""

    def __init__(self) -> None:
        self._settled = threading.Event()
        self._lock = threading.Lock()
        self.delivered = False

    def settle(self, delivered: bool) -> None:
        with self._lock:
            if not self._settled.is_set():
                self.delivered = delivered
                self._settled.set()

    def wait(self, timeout: float) -> bool:
        """Was the answer written to the client? False when it failed, or did not happen in `timeout`."""
        return self._settled.wait(timeout) and self.delivered


class Deliveries:
    """The answers waiting to be written, by JSON-RPC request id. An answer is delivered when the line of
    the response to its request was written whole to the client's pipe, as a process hook's answer is
    when written to its stdout; a response that is an error, a write that fails and a wire that closed
    deliver nothing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, Waiter] = {}
        self._closed = False

    def expect(self, request_id: object) -> Waiter:
        """The waiter of the response to `request_id`, registered before the answer can be written."""
        waiter, key = Waiter(), _key(request_id)
        with self._lock:
            closed = self._closed
            earlier = None if closed else self._waiting.get(key)
            if not closed:
                self._waiting[key] = waiter
        if closed:
            waiter.settle(False)
        if earlier is not None:  # a client reusing an id in flight: the earlier answer cannot be told apart
            earlier.settle(False)
        return waiter

    def written(self, line: bytes) -> None:
        """One line reached the client: the answer it responds to is delivered."""
        if not self._waiting:  # nothing to settle: no need to read the line
            return
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not isinstance(message, dict) or "id" not in message or "method" in message:
            return  # a notification, or a request of the server's own (its ids are its own)
        with self._lock:
            waiter = self._waiting.pop(_key(message["id"]), None)
        if waiter is not None:
            waiter.settle("result" in message)

    def close(self) -> None:
        """The wire is gone: what is still waiting was not delivered, and nothing later will be."""
        with self._lock:
            self._closed = True
            waiting = list(self._waiting.values())
            self._waiting.clear()
        for waiter in waiting:
            waiter.settle(False)


def _key(request_id: object) -> str:
    return json.dumps(request_id)  # `1` and `"1"` are two ids


class _Wire(io.RawIOBase):
    """The client's end of stdout: each complete line written whole, then reported to `deliveries`."""

    def __init__(self, fd: int, deliveries: Deliveries) -> None:
        self._fd = fd
        self._deliveries = deliveries
        self._pending = bytearray()
        self._broken = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self._broken:  # the client is gone: what comes after goes nowhere, and counts for nothing
            return len(data)
        searched = len(self._pending)  # a long line comes in pieces: look for its end in the new one only
        self._pending += data
        while (end := self._pending.find(b"\n", searched)) >= 0:
            line = bytes(self._pending[: end + 1])
            del self._pending[: end + 1]
            searched = 0
            try:
                _write_all(self._fd, line)
            except OSError:
                self._broken = True
                self._deliveries.close()
                raise  # once, so that the SDK stops serving
            self._deliveries.written(line)
        return len(data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def reported_stdout(deliveries: Deliveries) -> None:
    """Give the SDK a stdout whose lines are reported to `deliveries` once written. As with stdin, the
    wire moves to a private descriptor, and fd 1 goes to stderr, so that no child process can write
    into the protocol."""
    wire = os.dup(1)
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr to send stray output to: nowhere, then
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Wire(wire, deliveries)), encoding="utf-8")
