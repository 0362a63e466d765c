"""The hook's side of --warm: hand the event to the warm daemon and print its answer, or say that this
process must answer itself.

`ask` connects to the daemon of this hook's identity (`place`), sends a header and the event's raw bytes,
reads the answer, writes it to stdout and then confirms it with one byte: only a confirmed answer counts
as sent (the daemon saves the session state after the confirmation, so a hook that dies or cannot write
its stdout leaves the file to be sent again). Whatever goes wrong before stdout was written (no daemon,
a refusal, a stale daemon, a timeout, a reply of another shape) returns False and the caller answers as
if --warm had not been given, from the same bytes. When no daemon listens, one is started in the
background (at most once per SPAWN_EVERY_S for an identity).

This runs in every hook process installed with --warm; it never loads the engine.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from typing import TYPE_CHECKING

from jitctx.hook.transports.warm.place import (
    ACK,
    OK,
    TAKEN,
    identity,
    is_our_socket,
    key_of,
    open_private_dir,
    request_head,
    socket_address,
    warm_dir,
)
from jitctx.safe_open import RefusedFile, make_private_dir, open_state_file

if TYPE_CHECKING:
    from collections.abc import Callable

# Past this without the daemon taking the event (it serves one at a time), the hook answers itself.
# `install` gives each hook 10 s: waiting all of that would leave its own answer no time.
ANSWER_TIMEOUT_S = 4.0
# Once the daemon has taken the event, the hook waits for its answer up to this long from the start:
# answering itself as well would do the work, and log it, twice.
TAKEN_TIMEOUT_S = 8.0
# A daemon that does not come up (a broken install, no /proc) must not be started on every tool call.
SPAWN_EVERY_S = 30.0
MAX_REPLY = 64 * 1024 * 1024  # an answer is at most the agent's context limit; this is far above it


class _NoDaemon(Exception):
    """Nothing (of ours) listens where the daemon would: start one."""


def ask(agent: str, raw: bytes, state_dir: str, use_git: bool, write: Callable[[bytes], None]) -> bool:
    """True when the daemon's answer went out through `write` (the process transport's stdout writer; or
    stdout could not take it: then nothing more may be written there either); False: answer in this
    process."""
    started = time.monotonic()  # the waits below count from here, connecting included
    ident = identity(state_dir, use_git)
    key = key_of(ident)
    try:
        connection = _connect(warm_dir(state_dir), key)
    except _NoDaemon:
        start_daemon(agent, state_dir, use_git, key)
        return False
    except OSError:
        return False
    try:
        return _exchange(connection, request_head(agent, ident, len(raw)), raw, started, write)
    except (OSError, ValueError):
        return False
    finally:
        connection.close()


def _connect(directory: str, key: str) -> socket.socket:
    try:
        dir_fd = open_private_dir(directory)
    except FileNotFoundError:
        raise _NoDaemon from None
    try:
        path = os.path.join(directory, key + ".sock")
        address = socket_address(path, dir_fd)
        if address is None:  # no daemon could listen there either: none is started
            raise OSError(f"{path} is too long for a unix socket address")
        try:
            if not is_our_socket(path):
                raise _NoDaemon  # a planted file: the daemon, holding its lock, replaces it
        except FileNotFoundError:
            raise _NoDaemon from None
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(ANSWER_TIMEOUT_S)
            connection.connect(address)
        except (FileNotFoundError, ConnectionRefusedError):
            connection.close()
            raise _NoDaemon from None  # a socket left by a daemon that died
        except BaseException:
            connection.close()
            raise
        return connection
    finally:
        os.close(dir_fd)


def _exchange(
    connection: socket.socket, head: bytes, raw: bytes, started: float, write: Callable[[bytes], None]
) -> bool:
    deadline = started + ANSWER_TIMEOUT_S
    connection.sendall(head)
    connection.sendall(raw)
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer from the warm daemon in time")
        connection.settimeout(left)
        chunk = connection.recv(65536)
        if not chunk:
            break
        if not chunks and chunk.startswith(TAKEN):
            deadline = started + TAKEN_TIMEOUT_S  # it works on this event: wait for it
            chunk = chunk[len(TAKEN) :]
        size += len(chunk)
        if size > MAX_REPLY:
            raise ValueError("the warm daemon's reply is too large")
        chunks.append(chunk)
    status, _, rest = b"".join(chunks).partition(b"\n")
    words = status.split(b" ")
    if len(words) != 2 or words[0] != OK or not words[1].isdigit() or int(words[1]) > len(rest):
        return False  # a refusal (another environment, stale code) or a broken reply
    length = int(words[1])
    if not _write_stdout(rest[:length], write):
        return True  # no confirmation: the daemon keeps the files it answered with for the next event
    if len(rest) > length:
        try:
            os.write(2, rest[length:])  # the lines the hook prints to stderr on a problem
        except OSError:
            pass
    try:
        connection.sendall(ACK)
    except OSError:
        pass  # the daemon gave up waiting: it sends those files again next time, as after any loss
    return True


def _write_stdout(data: bytes, write: Callable[[bytes], None]) -> bool:
    """Write and flush the answer as the hook does; False when stdout is closed or gone."""
    try:
        write(data)
    except (OSError, ValueError):
        return False
    return True


def start_daemon(agent: str, state_dir: str, use_git: bool, key: str) -> None:
    """Start `jitctx hook AGENT --serve-warm` detached: its own session, stdin, stdout and stderr on
    /dev/null (it must never hold the agent's pipes, or the agent would wait for it), no other inherited
    descriptor. At most once per SPAWN_EVERY_S per identity; never raises."""
    try:
        directory = warm_dir(state_dir)
        make_private_dir(directory)
        os.close(open_private_dir(directory))  # refuses a directory anyone else could enter
        marker = os.path.join(directory, key + ".started")
        try:
            if time.time() - os.stat(marker).st_mtime < SPAWN_EVERY_S:
                return
        except FileNotFoundError:
            pass
        try:
            # A regular file of ours, opened without waiting: a FIFO planted there must not hang the hook.
            os.close(open_state_file(marker, os.O_WRONLY | os.O_CREAT))
        except RefusedFile:
            os.unlink(marker)  # not a marker of ours: gone, and the next hook makes one
            return
        os.utime(marker)
        # -P: the daemon's cwd is the agent's project, which must not shadow jitctx with a folder of its own.
        argv = [sys.executable, "-P", "-m", "jitctx", "hook", agent, "--serve-warm", "--state-dir", state_dir]
        if not use_git:
            argv.append("--no-git")
        actions: list[tuple[int, ...] | tuple[int, int, str, int, int]] = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
        ]
        actions.extend((os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_descriptors())
        os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
    except (OSError, ValueError, ImportError, NotImplementedError):  # no setsid on this system
        pass  # no daemon this time: the hook answers in its own process, as without --warm


def _inherited_descriptors() -> list[int]:
    """Descriptors above stderr that a child would inherit (the agent may have passed some to the hook)."""
    for listing in ("/proc/self/fd", "/dev/fd"):  # Linux; the BSDs and macOS
        try:
            names = os.listdir(listing)
            break
        except OSError:
            continue
    else:
        return []
    found = []
    for name in names:
        fd = int(name)
        if fd <= 2:
            continue
        try:
            if os.get_inheritable(fd):
                found.append(fd)
        except OSError:
            continue  # the listing's own descriptor, closed by now
    return found
