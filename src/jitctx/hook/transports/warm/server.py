"""The warm daemon: `jitctx hook AGENT --serve-warm` answers the events that `jitctx hook AGENT --warm`
processes forward to it, in this one process, so that they need not import the engine.

One daemon per identity (`place`) holds `<state dir>/warm/<key>.lock` for its lifetime, listens on
`<key>.sock` and writes its pid to `<key>.pid`. It serves one connection at a time, in the main thread
(the fast lane's alarm needs it), and answers exactly as a hook process would: through the one hook
pipeline (`hook.pipeline.respond`). An engine answer counts as sent only once the hook confirmed it
wrote it (see `client`); until then the session state is not saved, so an unconfirmed file goes out again.

It exits after IDLE_S without a request ($JITCTX_WARM_IDLE seconds), when its socket file is removed or
replaced, on SIGTERM, and when a jitctx module it loaded changed on disk (an upgrade or an edit): that
request is answered "stale" and the hook answers itself. A request from another user (SO_PEERCRED), of
another identity, or of another shape (`connection` reads and answers one) is refused; a problem with
one request is logged to the hook log and the daemon goes on.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients import all_clients
from jitctx.hook.log import log_problem
from jitctx.hook.pipeline import respond
from jitctx.hook.transports.process import answer_bytes
from jitctx.hook.transports.warm.connection import (
    ACK_TIMEOUT_S,
    RefusedRequest,
    peer_pid,
    read_request,
    reply,
    same_user,
    still_waiting,
)
from jitctx.hook.transports.warm.place import (
    ACK,
    BAD,
    OK,
    OTHER_ENV,
    STALE,
    TAKEN,
    identity,
    key_of,
    open_private_dir,
    socket_address,
    warm_dir,
)
from jitctx.safe_open import make_private_dir

if TYPE_CHECKING:
    from types import FrameType

IDLE_S = 600.0
POLL_S = 1.0  # how often an idle daemon looks at its socket file and the clock
# What the engine imports for an event, imported before the socket exists so that the first hook that
# finds it is answered at full speed.
PRELOAD = (
    "jitctx.hook.engine",
    "jitctx.hook.event_context",
    "jitctx.hook.host_files",
    "jitctx.discovery.session",
    "jitctx.discovery.store",
    "jitctx.project",
    "jitctx.telemetry.events",
    "jitctx.telemetry.store",
    "jitctx.config",
    "jitctx.frontmatter",
    "tomllib",
    "yaml",
    "wcmatch.glob",
    "pathspec",
)


def idle_seconds() -> float:
    """$JITCTX_WARM_IDLE when it is a positive number of seconds, else IDLE_S."""
    try:
        value = float(os.environ.get("JITCTX_WARM_IDLE", ""))
    except ValueError:
        return IDLE_S
    return value if value > 0 else IDLE_S


class CodeVersions:
    """The modification times of the modules of a package this process has loaded: a module edited,
    deleted or reinstalled since it was first seen makes the process's answers stale."""

    def __init__(self, package: str = "jitctx") -> None:
        self.package = package
        self.seen: dict[str, int | None] = {}
        self.changed()  # the modules loaded so far

    def _files(self) -> list[str]:
        prefix = self.package + "."
        files = []
        for name, module in list(sys.modules.items()):
            if name == self.package or name.startswith(prefix):
                file = getattr(module, "__file__", None)
                if isinstance(file, str):
                    files.append(file)
        return files

    def changed(self) -> bool:
        for file in self._files():
            try:
                version: int | None = os.stat(file).st_mtime_ns
            except OSError:
                version = None
            if self.seen.setdefault(file, version) != version:
                return True
        return False


def serve_warm(agent: str, state_dir: str, home: str | None, use_git: bool) -> int:
    """Run the daemon for this environment (its state dir, its user's home) until it has nothing more to
    do; always 0 (another daemon holding the lock is not a problem: it serves)."""
    state = os.path.abspath(state_dir)
    os.chdir("/")  # a daemon keeps no directory of the agent's busy
    daemon = Daemon(agent, state, home, use_git)
    try:
        if daemon.start():
            daemon.run()
    except Exception as exc:
        log_problem(Path(state), agent, f"warm daemon stopped: {type(exc).__name__}: {exc}")
    finally:
        daemon.close()
    return 0


class Daemon:
    """One identity's daemon: its lock, its socket, and the loop that serves it."""

    def __init__(self, agent: str, state_dir: str, home: str | None, use_git: bool) -> None:
        self.agent = agent
        self.state_dir = state_dir
        self.home = home
        self.use_git = use_git
        self.identity = identity(state_dir, use_git)
        key = key_of(self.identity)
        self.directory = warm_dir(state_dir)
        self.socket_path = os.path.join(self.directory, key + ".sock")
        self.lock_path = os.path.join(self.directory, key + ".lock")
        self.pid_path = os.path.join(self.directory, key + ".pid")
        self.lock_fd: int | None = None
        self.listener: socket.socket | None = None
        self.inode: int | None = None
        self.code: CodeVersions | None = None
        self.busy = False
        self.stopping = False

    def start(self) -> bool:
        """Take the lock, preload the engine and listen; False when another daemon holds the lock."""
        make_private_dir(self.state_dir)
        make_private_dir(self.directory)
        dir_fd = open_private_dir(self.directory)  # NotPrivate: logged by serve_warm, nothing served
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
            self.lock_fd = os.open(self.lock_path, flags, 0o600)
            try:
                fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(self.lock_fd)
                self.lock_fd = None
                return False
            _write_file(self.pid_path, f"{os.getpid()}\n")
            signal.signal(signal.SIGTERM, self._terminate)
            _preload(self.agent)
            self.code = CodeVersions()
            self.listener = self._listen(dir_fd)
        finally:
            os.close(dir_fd)
        return True

    def _listen(self, dir_fd: int) -> socket.socket:
        address = socket_address(self.socket_path, dir_fd)
        if address is None:
            raise OSError(f"{self.socket_path} is too long for a unix socket address")
        try:
            os.unlink(self.socket_path)  # left by a daemon that died: we hold the lock, so it is nobody's
        except FileNotFoundError:
            pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        previous = os.umask(0o077)
        try:
            listener.bind(address)
        except BaseException:
            listener.close()
            raise
        finally:
            os.umask(previous)
        listener.listen(64)
        self.inode = os.lstat(self.socket_path).st_ino
        return listener

    def _terminate(self, number: int, frame: FrameType | None) -> None:
        if self.busy:
            self.stopping = True  # finish the request under way (its session is saved or not, never half)
        else:
            raise SystemExit(0)

    def run(self) -> None:
        assert self.listener is not None
        idle = idle_seconds()
        last = time.monotonic()
        while not self.stopping and self._socket_is_ours():
            left = idle - (time.monotonic() - last)
            if left <= 0:
                return
            self.listener.settimeout(min(POLL_S, left))
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.busy = True
            try:
                self.handle(connection)
            except Exception as exc:  # one bad request never stops the daemon; its hook answers itself
                log_problem(Path(self.state_dir), self.agent, f"warm daemon: {type(exc).__name__}: {exc}")
            finally:
                connection.close()
                self.busy = False
            last = time.monotonic()

    def _socket_is_ours(self) -> bool:
        """Whether the socket file is still the one this daemon bound (removed or replaced: exit)."""
        try:
            return os.lstat(self.socket_path).st_ino == self.inode
        except OSError:
            return False

    def handle(self, connection: socket.socket) -> None:
        if not same_user(connection):
            return  # another user cannot reach the private dir; if they could, they get nothing
        try:
            agent, ident, raw = read_request(connection)
        except RefusedRequest as exc:
            log_problem(Path(self.state_dir), self.agent, f"warm daemon: {exc}")
            reply(connection, BAD)
            return
        if ident != self.identity:
            reply(connection, OTHER_ENV)  # a digest collision or a tampered file: the hook answers itself
            return
        if self.code is not None and self.code.changed():
            self.stopping = True
            reply(connection, STALE)
            return
        if not still_waiting(connection):
            return  # the hook gave up while an earlier request was served, and answered itself
        connection.sendall(TAKEN)
        self.answer(connection, agent, raw)

    def answer(self, connection: socket.socket, agent: str, raw: bytes) -> None:
        """What `jitctx hook AGENT` answers for `raw`: the one hook pipeline, in this process."""
        reports: list[str] = []

        def deliver(result: dict[str, Any]) -> None:
            # Before the session state is saved (hook.pipeline): an answer the hook did not confirm was
            # not sent, and raising here keeps the state as it was.
            reply(connection, OK, answer_bytes(result), "".join(reports))
            connection.settimeout(ACK_TIMEOUT_S)
            if connection.recv(1) != ACK:
                raise ConnectionError("the hook process did not confirm that it wrote the answer")

        respond(
            agent,
            raw,
            state_dir=self.state_dir,
            home=self.home,
            use_git=self.use_git,
            report=lambda line: reports.append(line + "\n"),
            deliver=deliver,
            # The hook process is a child of the client's shell: the client's release is found above it.
            origin_pid=peer_pid(connection),
        )

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
            if self._socket_is_ours():
                try:
                    os.unlink(self.socket_path)
                except OSError:
                    pass
        if self.lock_fd is not None:
            try:
                os.unlink(self.pid_path)
            except OSError:
                pass
            os.close(self.lock_fd)  # releases the lock: a new daemon may start
            self.lock_fd = None


def _preload(agent: str) -> None:
    all_clients.get(agent)  # the whole client, and with it every module of its own an event uses
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # optional, or imported on first use as in any hook process


def _write_file(path: str, text: str) -> None:
    """Write a file of the daemon's own (it holds the lock): whatever was there goes first, so a FIFO or a
    link planted in its place is neither waited on nor followed."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)
