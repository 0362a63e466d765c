"""Session state on disk, so that one process per tool call still behaves like one session.

Each session id has a JSON file and a lock file; a process holds the lock from reading the state until it
has written the new one, so concurrent hooks of one session never lose each other's loads. Writes go to a
temporary file that replaces the old one, so a crash never leaves half a state.

The state dir is input like any other. It is created private (0700); a state file that is not a regular
file of this user, is larger than `MAX_STATE_BYTES`, or cannot be parsed (down to JSON nested too deeply)
is set aside with a warning and the session starts afresh, and the next save replaces it.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jitctx.discovery.marks import MARKS_SUFFIX, MAX_MARK_BYTES, mark_file_name
from jitctx.discovery.quick import quick_file_name, state_file_name, stored_mark
from jitctx.discovery.session import Session
from jitctx.errors import JitctxError
from jitctx.project import Project
from jitctx.safe_open import RefusedFile, make_private_dir, open_state_file, read_state_file

if TYPE_CHECKING:
    from jitctx.discovery.marks import Watch


@dataclass
class OpenSession:
    session: Session
    new: bool
    warnings: list[str] = field(default_factory=list)
    inherited: bool = False  # started from another session's saved state


class SessionStore:
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path_for(self, session_id: str) -> Path:
        return self.directory / state_file_name(session_id)

    @contextmanager
    def open(
        self,
        project: Project,
        session_id: str,
        *,
        cwd: str | None = None,
        use_git: bool = True,
        inherit: str | None = None,
    ) -> Iterator[OpenSession]:
        """Yield the session with its saved state; save it back when the block ends without error.

        `inherit` names a session whose saved state a session without one of its own starts from (a
        conversation copied into a new session id holds what the old one was sent)."""
        path = self.path_for(session_id)
        warnings: list[str] = []
        try:
            make_private_dir(str(self.directory.parent))  # the state dir: private, like sessions/ in it
            make_private_dir(str(self.directory))
            lock = _open_lock(str(path.with_suffix(".lock")), warnings)
        except OSError as exc:
            raise JitctxError(
                f"cannot keep session state in {self.directory}: {exc.strerror or exc}; "
                "pass --state-dir DIR (or set JITCTX_STATE_DIR) to a writable directory"
            ) from exc
        marks = self.marks_folder(session_id)
        with os.fdopen(lock, "rb"):  # closes the descriptor, and with it the lock
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                session = Session(project, cwd=cwd, session_id=session_id, use_git=use_git)
                opened = OpenSession(session, new=True, warnings=warnings)
                data, raw = _load(path, opened.warnings)
                if data is None and inherit is not None and inherit != session_id:
                    data = self._inherit(inherit, marks, opened.warnings)
                    opened.inherited = data is not None
                if data is not None:
                    problems = session.restore(data, marks=lambda marks_id, d: _read_mark(marks, marks_id, d))
                    opened.warnings.extend(problems)
                    opened.new = bool(problems) or not session.started
                yield opened
                # What was read from this session's own file, to compare with (an inherited or a new
                # state is always written).
                read = (data, raw) if raw is not None and not opened.new else (None, None)
                self._save_session(session, path, read, marks, lock)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def marks_folder(self, session_id: str) -> Path:
        """Where the session's scanned-directory marks are kept: a folder per channel below it."""
        return self.directory / (state_file_name(session_id)[: -len(".json")] + MARKS_SUFFIX)

    def _save_session(
        self,
        session: Session,
        path: Path,
        read: tuple[dict[str, object] | None, bytes | None],
        marks: Path,
        lock: int,
    ) -> None:
        """Write back what the call changed. The order keeps every moment safe to read, for the engine
        after a crash and for the fast lane, which reads without the lock: marks that went first (a
        missing mark only makes a directory looked at again), then the state with the files the session
        holds, then the quick index, and the new marks last (a mark must never claim a directory whose
        files the saved state does not hold yet)."""
        channels = session.channels.values()
        for state in channels:
            removed = [directory for directory, watch in state.scanned.changes() if watch is None]
            folder = marks / state.scanned.marks_id
            if removed and _is_own_dir(marks) and _is_own_dir(folder):
                for directory in removed:
                    (folder / mark_file_name(directory)).unlink(missing_ok=True)
        # Most calls of a long session change nothing (a warm touch): what is on disk stays, so a call
        # writes only what changed, not the whole session again.
        data, raw = read
        saved = session.to_state()
        if saved != data:  # equal to what was read: nothing to encode, nothing to write
            encoded = _encode(saved)
            if encoded != raw:
                _save(path, encoded)
            _drop_other_marks(marks, {state.scanned.marks_id for state in channels})
        main = session.channels.get("main")
        main_marks = str(marks / main.scanned.marks_id) if main is not None else None
        quick = _encode(session.quick_index(marks_folder=main_marks))
        digest = _digest(quick)
        quick_path = self.directory / quick_file_name(session.session_id)
        if digest != _recorded_digest(lock) or not quick_path.is_file():
            _save(quick_path, quick)
            _record_digest(lock, digest)
        for state in channels:
            written = [(d, watch) for d, watch in state.scanned.changes() if watch is not None]
            own = _private_marks_dir(marks, state.scanned.marks_id) if written else None
            if own is not None:
                for directory, watch in written:
                    _save(own / mark_file_name(directory), _encode_mark(directory, watch))
            state.scanned.changed.clear()

    def _inherit(self, parent: str, marks: Path, warnings: list[str]) -> dict[str, object] | None:
        """The saved state of session `parent`, its marks copied for this session, both taken under the
        parent's lock so that they belong together."""
        parent_path = self.path_for(parent)
        try:
            parent_lock = open_state_file(str(parent_path.with_suffix(".lock")))
        except OSError:
            return None  # no parent state worth taking (it never saved, or its lock is not ours)
        with os.fdopen(parent_lock, "rb"):
            fcntl.flock(parent_lock, fcntl.LOCK_SH)
            data, _ = _load(parent_path, warnings)
            if data is not None:
                _copy_marks(self.marks_folder(parent), marks)
            return data

    def delete(self, session_id: str) -> bool:
        (self.directory / quick_file_name(session_id)).unlink(missing_ok=True)
        _drop_other_marks(self.marks_folder(session_id), set())
        path = self.path_for(session_id)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True


def _open_lock(path: str, warnings: list[str]) -> int:
    """The lock file's descriptor. One that is not a regular file of ours (a FIFO would block the open, a
    link could point anywhere) is replaced by a new one rather than refused: a planted file must not stop
    every later call of the session."""
    try:
        return open_state_file(path, os.O_RDWR | os.O_CREAT)
    except RefusedFile as exc:
        warnings.append(f"{exc}; replaced by a new lock file")
    handle, temp = _temp_file(os.path.dirname(path), ".lock")
    try:
        os.replace(temp, path)
    except BaseException:
        os.close(handle)
        Path(temp).unlink(missing_ok=True)
        raise
    return handle


def _load(path: Path, warnings: list[str]) -> tuple[dict[str, object] | None, bytes | None]:
    """The saved state and its bytes as read (None, None when there is none worth reading)."""
    try:
        raw = read_state_file(str(path))
        text = raw.decode("utf-8")
    except FileNotFoundError:
        return None, None
    except RefusedFile as exc:  # a FIFO, a device, a link, another user's file, a huge file
        warnings.append(f"{exc}: session state not read; starting a new session")
        return None, None
    except (OSError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: session state unreadable ({exc}); starting a new session")
        return None, None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, integers longer than Python converts, deep nesting
        warnings.append(f"{path}: session state is not valid JSON; starting a new session")
        return None, None
    if not isinstance(data, dict):
        warnings.append(f"{path}: session state is malformed; starting a new session")
        return None, None
    return data, raw


def _read_mark(marks: Path, marks_id: str, directory: str) -> object:
    return stored_mark(str(marks / marks_id), directory)


def _encode_mark(directory: str, watch: Watch) -> bytes:
    return json.dumps([directory, watch], separators=(",", ":")).encode("utf-8", "surrogateescape")


def _drop_other_marks(marks: Path, keep: set[str]) -> None:
    """Remove the marks folders of channels the session no longer has (it started afresh, say): their
    marks would never be read again. Only folders of ours are entered, never through a link (a link
    planted as the marks folder must not lead the clean-up into anyone's files), and each removal is
    made relative to the folder opened, so nothing can be swapped in between."""
    top = _open_own_dir(str(marks))
    if top is None:
        return
    try:
        for name in os.listdir(top):
            if name in keep:
                continue
            folder = _open_own_dir(name, top)
            if folder is None:
                continue
            try:
                for file in os.listdir(folder):
                    try:
                        os.unlink(file, dir_fd=folder)  # a link goes, not what it points to
                    except OSError:
                        pass  # a directory planted there stays, and so does its folder
            finally:
                os.close(folder)
            try:
                os.rmdir(name, dir_fd=top)
            except OSError:
                pass
    finally:
        os.close(top)
    if not keep:
        try:
            marks.rmdir()  # fails on a link: only an empty folder of ours goes
        except OSError:
            pass


def _open_own_dir(path: str, parent: int | None = None) -> int | None:
    """A descriptor of directory `path` (relative to `parent` when given) if it is a directory of this
    user and not a link; None otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, dir_fd=parent)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        info = None
    if info is None or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        os.close(fd)
        return None
    return fd


def _private_marks_dir(marks: Path, marks_id: str) -> Path | None:
    """The channel's marks folder, made if need be; None when it or the session's marks folder is not a
    directory of ours (a planted link): its marks are then not written, and its directories are simply
    scanned again."""
    folder = marks / marks_id
    try:
        make_private_dir(str(marks))
        if not _is_own_dir(marks):
            return None
        make_private_dir(str(folder))
    except OSError:
        return None
    return folder if _is_own_dir(folder) else None


def _copy_marks(source: Path, target: Path) -> None:
    """Give a new session the marks of the one it continues: each file hard-linked (marks are replaced,
    never changed in place, so the two sessions never see each other's later writes), else copied."""
    for name in os.listdir(source) if _is_own_dir(source) else ():
        if not _is_own_dir(source / name):
            continue
        folder = _private_marks_dir(target, name)
        if folder is None:
            return
        for file in os.listdir(source / name):
            try:
                os.link(source / name / file, folder / file, follow_symlinks=False)
            except FileExistsError:
                pass
            except OSError:
                try:
                    _save(folder / file, read_state_file(str(source / name / file), MAX_MARK_BYTES))
                except OSError:
                    pass  # that directory is scanned again: slower, never wrong


def _is_own_dir(path: Path) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def _encode(data: dict[str, object]) -> bytes:
    # json.dumps, not json.dump: dump streams through the pure-Python encoder, several times slower on
    # the hundreds of KB a long session keeps.
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


# The lock file, held by one process at a time, also records a digest of the quick index last written,
# so that an unchanged index is not written again. A wrong record (a planted lock file) can only make
# a call write the index once more: it is compared with the digest of what would be written. Two
# checksums and the length (zlib: hashlib would cost 3 ms to import); were two indexes ever to
# share one, the stale index on disk would only send touches to the engine, as any stale index does.
_DIGEST_BYTES = 64


def _digest(data: bytes) -> bytes:
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}".encode("ascii")


def _recorded_digest(lock: int) -> bytes:
    try:
        return os.pread(lock, _DIGEST_BYTES + 1, 0)
    except OSError:
        return b""


def _record_digest(lock: int, digest: bytes) -> None:
    try:
        os.pwrite(lock, digest, 0)
        os.ftruncate(lock, len(digest))
    except OSError:
        pass  # the next call writes the index again: slower, never wrong


def _save(path: Path, encoded: bytes) -> None:
    handle, temp = _temp_file(str(path.parent), ".json")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(encoded)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _temp_file(directory: str, suffix: str) -> tuple[int, str]:
    """A new private file `.tmp-…suffix` in `directory`, as tempfile.mkstemp makes one; tempfile itself
    (with shutil, random and hashlib behind it) would cost every hook process milliseconds to import."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        path = os.path.join(directory, f".tmp-{os.urandom(8).hex()}{suffix}")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")
