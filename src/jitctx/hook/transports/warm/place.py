"""Where a warm daemon listens, and which daemon a hook process may ask.

A hook answers according to its interpreter, its jitctx, its state dir, --no-git and a few environment
variables (where state, config and home are; which git runs). All of it is the hook's *identity*: the
daemon answers only a hook with its own identity, and the socket's name is a digest of it, so hooks of
different environments never share a daemon. The digest (`jitctx.short_digest`) names a file, it guards
nothing: the daemon compares the identity itself.

The socket lives in `<state dir>/warm/`, a directory of this user that nobody else can enter; the hook
checks that before it connects.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import jitctx
from jitctx.short_digest import short_digest

if TYPE_CHECKING:
    from collections.abc import Mapping

WARM_DIR = "warm"
PROTOCOL = b"JITCTX-WARM/2"  # 2: TAKEN before the reply
# The variables the hook path reads (cli.state: state dir, home, user config) and PATH (which git runs);
# with them every GIT_ variable, since git's config and repository can be set from the environment.
ENV_NAMES = (
    "HOME",
    "JITCTX_HOME",
    "JITCTX_STATE_DIR",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
    "PATH",
)
ENV_PREFIXES = ("GIT_",)

# The daemon's replies: a status line, then for OK the answer's bytes and the lines meant for stderr.
OK = b"OK"
OTHER_ENV = b"ENV"  # the hook's identity is not the daemon's
STALE = b"STALE"  # the daemon's code changed on disk since it started; it is exiting
BAD = b"BAD"  # not a request of this protocol
ACK = b"\x06"  # the hook wrote the answer to its stdout: the daemon may count it as sent
# Sent first by a daemon that starts on a request, before any status line: from then on the hook waits for
# the answer rather than answering itself (both would do the work, and log it, twice).
TAKEN = b"+"

# sun_path holds 108 bytes on Linux, 104 on the BSDs and macOS, the terminating NUL included.
MAX_SOCKET_PATH = 107 if sys.platform.startswith("linux") else 103


class NotPrivate(OSError):
    """The warm dir is not a directory of this user that only this user can enter."""


def identity(state_dir: str, use_git: bool, environ: Mapping[str, str] | None = None) -> bytes:
    """What makes two hook processes answer alike, as bytes: this jitctx (version, interpreter, package
    directory), the absolute state dir, --no-git, ENV_NAMES (`-` when unset, `=value` when set) and the
    variables named with ENV_PREFIXES that are set."""
    env = os.environ if environ is None else environ
    package = os.path.dirname(os.path.abspath(jitctx.__file__ or ""))
    fields = [jitctx.__version__, sys.executable, package, state_dir, "git" if use_git else "no-git"]
    fields.extend("=" + env[name] if name in env else "-" for name in ENV_NAMES)
    fields.extend(f"{name}={env[name]}" for name in sorted(env) if name.startswith(ENV_PREFIXES))
    return b"\0".join(os.fsencode(field) for field in fields)


def key_of(ident: bytes) -> str:
    """The short name of an identity: the file names of its daemon's socket, lock and pid."""
    return short_digest(ident)[:16]  # the mixed half: a socket's whole path must fit in about 107 bytes


def warm_dir(state_dir: str) -> str:
    return os.path.join(state_dir, WARM_DIR)


def open_private_dir(path: str) -> int:
    """A descriptor of the directory `path`; FileNotFoundError when it does not exist, NotPrivate when it
    is a link, not a directory, another user's, or open to group or others."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    fd = os.open(path, flags)  # O_NOFOLLOW: a link there is ELOOP (or ENOTDIR), an OSError like any other
    try:
        info = os.fstat(fd)
        if (info.st_mode & 0o170000) != 0o040000:
            raise NotPrivate(f"{path} is not a directory")
        if info.st_uid != os.getuid():
            raise NotPrivate(f"{path} belongs to another user (uid {info.st_uid})")
        if info.st_mode & 0o077:
            raise NotPrivate(f"{path} is open to other users (mode {info.st_mode & 0o777:o}); chmod 700 it")
    except BaseException:
        os.close(fd)
        raise
    return fd


def socket_address(path: str, dir_fd: int) -> str | None:
    """The address to bind or connect for the socket file `path` in the directory open as `dir_fd`.

    A path longer than a unix socket address can hold is reached through the open directory on Linux
    (`/proc/self/fd/N/NAME`); elsewhere there is none, and the hook answers in its own process."""
    if len(os.fsencode(path)) <= MAX_SOCKET_PATH:
        return path
    if sys.platform.startswith("linux"):
        return f"/proc/self/fd/{dir_fd}/{os.path.basename(path)}"
    return None


def is_our_socket(path: str) -> bool:
    """Whether `path` is a socket owned by this user (not a planted file, FIFO or link); FileNotFoundError
    when there is nothing."""
    info = os.lstat(path)
    return (info.st_mode & 0o170000) == 0o140000 and info.st_uid == os.getuid()


def request_head(agent: str, ident: bytes, event_size: int) -> bytes:
    """The start of a request: a line with the sizes of the identity and the event, then the identity;
    the event's raw bytes follow. (The hook keeps its side of the stream open: it confirms the answer.)"""
    return b"%s %s %d %d\n" % (PROTOCOL, agent.encode("ascii"), len(ident), event_size) + ident
