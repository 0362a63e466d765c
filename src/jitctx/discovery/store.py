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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from jitctx.discovery.quick import (
    RefusedFile,
    make_private_dir,
    open_state_file,
    quick_file_name,
    read_state_file,
    state_file_name,
)
from jitctx.discovery.session import Session
from jitctx.errors import JitctxError
from jitctx.project import Project


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
        with os.fdopen(lock, "rb"):  # closes the descriptor, and with it the lock
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                session = Session(project, cwd=cwd, session_id=session_id, use_git=use_git)
                opened = OpenSession(session, new=True, warnings=warnings)
                data, raw = _load(path, opened.warnings)
                if data is None and inherit is not None and inherit != session_id:
                    data, _ = _load(self.path_for(inherit), opened.warnings)
                    opened.inherited = data is not None
                if data is not None:
                    problems = session.restore(data)
                    opened.warnings.extend(problems)
                    opened.new = bool(problems) or not session.started
                yield opened
                # Most calls of a long session change nothing (a warm touch): what is on disk stays, so
                # a call writes only what changed, not the whole session again.
                state = _encode(session.to_state())
                if state != raw:
                    _save(path, state)
                quick = _encode(session.quick_index())
                digest = _digest(quick)
                quick_path = self.directory / quick_file_name(session_id)
                if digest != _recorded_digest(lock) or not quick_path.is_file():
                    _save(quick_path, quick)
                    _record_digest(lock, digest)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def delete(self, session_id: str) -> bool:
        (self.directory / quick_file_name(session_id)).unlink(missing_ok=True)
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


def _encode(data: dict[str, object]) -> bytes:
    # json.dumps, not json.dump: dump streams through the pure-Python encoder, several times slower on
    # the hundreds of KB a long session keeps.
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


# The lock file, held by one process at a time, also records a digest of the quick index last written,
# so that an unchanged index is not written again. A wrong record (a planted lock file) can only make
# a call write the index once more: it is compared with the digest of what would be written. Two
# checksums and the length (zlib: hashlib would cost the hook 3 ms to import); were two indexes ever to
# share one, the stale index on disk would only send touches to the engine, as any stale index does.
_DIGEST_BYTES = 64


def _digest(data: bytes) -> bytes:
    import zlib

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
