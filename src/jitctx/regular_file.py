"""Opening a file that must be a regular file, without ever waiting: a FIFO named like a config, a
transcript or a skill would block `open` until a writer comes, and `/dev/zero` never ends a read. The
kind is checked on the open descriptor, so a swap after a stat cannot slip through."""

from __future__ import annotations

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
