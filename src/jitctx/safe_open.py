"""Opening files that jitctx reads as input, safely: never waiting, never following what it must not.

Two kinds of file, one place:

* a file of the agent's or the user's (a transcript, a settings file, a config, a skill, an import) must
  be a regular file: a FIFO named like one would block `open` until a writer comes, and `/dev/zero`
  never ends a read (`open_regular`, `read_regular`);
* a file of jitctx's own state dir must be a regular file of this user, reached without a link, read up
  to a cap: a FIFO, a device or a link planted there would block or mislead every hook call
  (`open_state_file`, `read_state_file`, `make_private_dir`).

In both, the kind is checked on the open descriptor, so a swap after a stat cannot slip through.
"""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class NotRegular(OSError):
    """The path names a FIFO, a device, a socket or a directory."""


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of `path`; NotRegular when it is no regular file, OSError as `os.open`."""
    fd = os.open(path, _FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(f"{os.fspath(path)}: not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike[str], max_bytes: int) -> bytes | None:
    """The bytes of a regular file of at most `max_bytes`; None when it is missing, unreadable, no
    regular file or larger (a settings file like that is read as absent, as its client reads it)."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return None
    try:
        data = os.read(fd, max_bytes + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= max_bytes else None


# -- files of the state dir -----------------------------------------------------------------------------

# Far above any real session (a 50,000-directory monorepo keeps a few MB) and far below what would hurt.
MAX_STATE_BYTES = 64 * 1024 * 1024
_NOWAIT = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class RefusedFile(OSError):
    """A file of the state dir that is not a regular file of this user, or is larger than its cap."""


def open_state_file(path: str, flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """A descriptor of `path`, once it is known to be a regular file owned by this user; RefusedFile
    otherwise. Never waits: a FIFO or a device planted in the state dir would block the open or the read
    of every hook call, so the open does not follow a link and does not block, and the kind is checked
    on the open descriptor (no race with a swap)."""
    try:
        fd = os.open(path, flags | _NOWAIT, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RefusedFile(
                f"{path} is a symbolic link; jitctx does not follow links in its state dir"
            ) from None
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads, opened for writing
            raise RefusedFile(f"{path} is not a regular file") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RefusedFile(f"{path} is not a regular file")
        if info.st_uid != os.getuid():
            raise RefusedFile(f"{path} belongs to another user (uid {info.st_uid})")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_state_file(path: str, limit: int | None = None) -> bytes:
    """The bytes of a state file (see `open_state_file`); RefusedFile when it holds more than `limit`
    (default MAX_STATE_BYTES)."""
    limit = MAX_STATE_BYTES if limit is None else limit
    fd = open_state_file(path)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise RefusedFile(f"{path} is larger than {limit:,} bytes")
    return data


def make_private_dir(path: str) -> None:
    """Create `path` (0700: it holds what sessions read) below existing or newly made parents."""
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, exist_ok=True)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
