"""The daemon's side of one hook connection: reading a request, checking who sent it, replying.

A request is a header line (`PROTOCOL AGENT IDENTITY-SIZE EVENT-SIZE`), the hook's identity and the raw
event. A reply is a status line (for OK with the answer's size), the answer's bytes and the lines meant
for the hook's stderr, and then the end of the daemon's side of the stream.
"""

from __future__ import annotations

import os
import socket
import struct
import time

from jitctx.clients.all_clients import choices as agents
from jitctx.errors import JitctxError
from jitctx.hook import MAX_INPUT
from jitctx.hook.transports.warm.place import OK, PROTOCOL

READ_TIMEOUT_S = 5.0  # a hook sends its whole event at once; a connection that does not is dropped
ACK_TIMEOUT_S = 4.0  # as long as a hook waits for its answer (client.ANSWER_TIMEOUT_S)
MAX_HEAD = 64 * 1024  # the header line and the identity


class RefusedRequest(JitctxError):
    """A connection that is not a request of this protocol; logged, answered BAD."""


def read_request(connection: socket.socket) -> tuple[str, bytes, bytes]:
    """(agent, identity, raw event) of one request; RefusedRequest when it is not one, TimeoutError when
    it does not arrive within READ_TIMEOUT_S."""
    deadline = time.monotonic() + READ_TIMEOUT_S
    data = b""
    while b"\n" not in data:
        if len(data) > MAX_HEAD:
            raise RefusedRequest("a connection that is not a warm hook request; dropped")
        data += _receive(connection, deadline, 4096)
    line, _, rest = data.partition(b"\n")
    words = line.split(b" ")
    if len(words) != 4 or words[0] != PROTOCOL or not (words[2].isdigit() and words[3].isdigit()):
        raise RefusedRequest("a connection that is not a warm hook request; dropped")
    agent = words[1].decode("ascii", "replace")
    ident_size, event_size = int(words[2]), int(words[3])
    if agent not in agents() or ident_size > MAX_HEAD or event_size > MAX_INPUT + 1:
        raise RefusedRequest(f"a warm hook request for {agent!r} that cannot be read; dropped")
    chunks = [rest]
    size, wanted = len(rest), ident_size + event_size
    while size < wanted:
        chunk = _receive(connection, deadline, min(wanted - size, 1 << 20))
        chunks.append(chunk)
        size += len(chunk)
    body = b"".join(chunks)
    if size > wanted:
        raise RefusedRequest("a warm hook request longer than it said; dropped")
    return agent, body[:ident_size], body[ident_size:]


def _receive(connection: socket.socket, deadline: float, most: int) -> bytes:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(f"a hook did not send its event within {READ_TIMEOUT_S:g} s")
    connection.settimeout(left)
    chunk = connection.recv(most)
    if not chunk:
        raise RefusedRequest("a hook closed the connection before its event was complete; dropped")
    return chunk


def reply(connection: socket.socket, status: bytes, out: bytes = b"", err: str = "") -> None:
    """Send one reply and end the daemon's side of the stream (the hook reads to its end)."""
    head = status + (b" %d" % len(out) if status == OK else b"") + b"\n"
    connection.settimeout(ACK_TIMEOUT_S)
    connection.sendall(head + out + err.encode("utf-8", "backslashreplace"))
    connection.shutdown(socket.SHUT_WR)


def still_waiting(connection: socket.socket) -> bool:
    """Whether the hook is still there: it sends nothing more before the answer, so a read that would
    block means it waits, and the end of the stream that it left."""
    timeout = connection.gettimeout()
    connection.setblocking(False)  # with a timeout set, recv would first wait that long for data
    try:
        return connection.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        connection.settimeout(timeout)


def peer_pid(connection: socket.socket) -> int | None:
    """The pid of the hook process at the other end (Linux: SO_PEERCRED), else None."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    try:
        pid: int = struct.unpack(
            "3i", connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
        )[0]
    except OSError:
        return None
    return pid if pid > 0 else None


def same_user(connection: socket.socket) -> bool:
    """Whether the peer runs as this user (Linux: SO_PEERCRED; elsewhere the private dir is the guard)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    size = struct.calcsize("3i")
    uid: int = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, option, size))[1]
    return uid == os.getuid()
