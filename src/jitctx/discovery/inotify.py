"""Linux inotify, through ctypes: hearing of a write into a folder without a stat per file per call.

One instance per process, shared by every session in it: a user may hold 128 instances in all, and a
long-lived process (the warm daemon, the MCP server) builds a session per event. Each watch is asked for
with a *filter*, what its caller cares about in that folder: one entry by name (`.claude` in the project
root), or every entry whose name ends in a suffix, sub-folders included (`.md` in `.claude/rules/`).
`changed_since(serial, watches)` then says whether anything matching them happened after `serial`.

Why an event is as good as a stat: the kernel queues it inside the write, rename or unlink call, before
that call returns, so whatever an editor finished before a touch is in the queue when the touch polls it.
What inotify does not hear is left to the caller (see `local_filesystem` and `rules_watch`): writes on
another machine (network and FUSE file systems, host folders shared into a VM), writes through a hard
link in another folder (the event goes to the folder the file was opened through), and stores into a
shared memory mapping of the file (no event at all; no editor saves that way).
"""

from __future__ import annotations

import _thread
import os
import select
import struct
import sys
from collections.abc import Iterable
from typing import Any

try:
    import ctypes
except ImportError:  # a Python built without ctypes (no libffi): no notifier, the rules are stat'ed
    ctypes = None  # type: ignore[assignment]

IN_MODIFY = 0x2
IN_ATTRIB = 0x4
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ISDIR = 0x40000000
IN_ONLYDIR = 0x01000000
IN_MASK_ADD = 0x20000000

# What changes a folder's listing, or the folder itself.
ENTRIES = IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
# That, and writes into the files it holds.
CONTENTS = ENTRIES | IN_MODIFY | IN_CLOSE_WRITE
_SELF = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED  # events that carry no name: about the folder itself
_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name

# A watch as its caller holds it: the descriptor, and the filter it was asked with.
Filter = tuple[str, str]  # ("name", "x") or ("suffix", ".md")
Watch = tuple[int, Filter]

# Local file systems: every write to them goes through this kernel, so inotify hears it. Anything else
# (nfs, cifs, fuse.*, 9p, virtiofs, ...) may change without a word.
_LOCAL = frozenset(
    {
        *("ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "zfs", "f2fs", "bcachefs", "jfs"),
        *("reiserfs", "nilfs2", "overlay", "vfat", "exfat", "ntfs3"),
    }
)


class Notifier:
    """The process's inotify instance, and the last serial at which each watched filter saw an event."""

    def __init__(self, fd: int, add_watch: Any) -> None:
        self.fd = fd
        self.pid = os.getpid()
        self.serial = 0  # bumped once per batch of events read
        self.overflowed = 0  # the serial of the last queue overflow: every watch may have missed events
        self._add_watch = add_watch
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)
        self._filters: dict[int, set[Filter]] = {}
        self._last: dict[Watch, int] = {}
        self._names: dict[Watch, dict[str, int]] = {}  # suffix watch -> entry name -> last serial
        self._gone: dict[int, int] = {}  # descriptor -> serial when the kernel removed the watch
        # Sessions of several threads share the instance (the MCP server's): one that polls while another
        # drains must not take the serial before the events it stands for are recorded.
        self._lock = _thread.allocate_lock()

    def watch(self, directory: str, kind: str, value: str) -> Watch | None:
        """Watch `directory` for entries named `value` ("name") or ending in `value` ("suffix"); None
        when the kernel refuses (not a folder, no permission, the watch limit reached)."""
        mask = (CONTENTS if kind == "suffix" else ENTRIES) | IN_ONLYDIR | IN_MASK_ADD  # add to others' masks
        try:
            path = os.fsencode(directory)
        except (ValueError, UnicodeError):
            return None
        with self._lock:
            wd = int(self._add_watch(self.fd, path, mask))
            if wd < 0:
                return None
            self._filters.setdefault(wd, set()).add((kind, value))
            self._gone.pop(wd, None)
        return wd, (kind, value)

    def poll(self) -> int:
        """Read what is queued (one poll when nothing is) and return the serial it brought things to."""
        with self._lock:
            if self._poll.poll(0):
                self._drain()
            return self.serial

    def changed_since(self, serial: int, watches: Iterable[Watch]) -> bool:
        """Whether any of `watches` saw an event after `serial`, or was removed, or may have missed one."""
        with self._lock:
            if self.overflowed > serial:
                return True
            last, gone = self._last, self._gone
            return any(last.get(watch, 0) > serial or gone.get(watch[0], 0) > serial for watch in watches)

    def names_since(self, serial: int, watch: Watch) -> list[str]:
        """The entries a suffix watch heard of after `serial`, by name."""
        with self._lock:
            return [name for name, last in self._names.get(watch, {}).items() if last > serial]

    def _drain(self) -> None:
        self.serial += 1
        serial = self.serial
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return
            except OSError:
                self.overflowed = serial  # an instance that cannot be read hears nothing any more
                return
            offset = 0
            while offset + _HEADER.size <= len(data):
                wd, mask, _, length = _HEADER.unpack_from(data, offset)
                raw = data[offset + _HEADER.size : offset + _HEADER.size + length]
                offset += _HEADER.size + length
                if mask & IN_Q_OVERFLOW:
                    self.overflowed = serial
                    continue
                if mask & IN_IGNORED:
                    self._gone[wd] = serial
                name = os.fsdecode(raw.split(b"\0", 1)[0])
                for kind, value in self._filters.get(wd, ()):
                    if (
                        mask & _SELF
                        or (kind == "name" and name == value)
                        or (kind == "suffix" and (mask & IN_ISDIR or name.endswith(value)))
                    ):
                        self._last[(wd, (kind, value))] = serial
                        if kind == "suffix" and name:
                            self._names.setdefault((wd, (kind, value)), {})[name] = serial


_NOTIFIER: Notifier | None = None
_REFUSED_IN: int | None = None  # the process in which an instance could not be had
_MAKING = _thread.allocate_lock()  # two threads asking at once get one instance


def notifier(create: bool = True) -> Notifier | None:
    """The process's instance (made now when `create`); None where there is none to be had. A forked
    child gets one of its own: reading the parent's would take the parent's events."""
    current = _NOTIFIER
    if current is not None and current.pid == os.getpid():
        return current
    if not create or not sys.platform.startswith("linux"):
        return None
    with _MAKING:
        return _renew()


def _renew() -> Notifier | None:
    global _NOTIFIER, _REFUSED_IN
    current, pid = _NOTIFIER, os.getpid()
    if current is not None and current.pid == pid:
        return current  # another thread made it meanwhile
    if _REFUSED_IN == pid:
        return None
    if current is not None:
        _NOTIFIER = None
        try:
            os.close(current.fd)  # the child's copy only; the parent keeps its own
        except OSError:
            pass
    made = _make()
    if made is None:
        _REFUSED_IN = pid
    _NOTIFIER = made
    return made


def _make() -> Notifier | None:
    if ctypes is None:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        init = libc.inotify_init1
        add_watch = libc.inotify_add_watch
    except (OSError, AttributeError):
        return None
    init.argtypes = [ctypes.c_int]
    init.restype = ctypes.c_int
    add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    add_watch.restype = ctypes.c_int
    fd = init(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:  # the user's instance limit, say
        return None
    return Notifier(fd, add_watch)


_FILESYSTEMS: dict[int, str] = {}


def local_filesystem(device: int) -> bool:
    """Whether the file system of `st_dev` `device` is one whose every write inotify hears (False when
    that cannot be told: no /proc, or a device no mount names)."""
    kind = _FILESYSTEMS.get(device)
    if kind is None:
        kind = _mount_kinds().get(device, "")
        _FILESYSTEMS[device] = kind
    return kind in _LOCAL


def _mount_kinds() -> dict[int, str]:
    """st_dev -> file system type, from /proc/self/mountinfo (`36 35 98:0 /mnt1 /mnt2 rw - ext3 ...`)."""
    kinds: dict[int, str] = {}
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return kinds
    for line in lines:
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        kind = rest.split(" ", 1)[0]
        if len(parts) < 3 or not kind or ":" not in parts[2]:
            continue
        major, _, minor = parts[2].partition(":")
        try:
            kinds[os.makedev(int(major), int(minor))] = kind
        except ValueError:
            continue
    return kinds
