"""The event log: one JSONL file per UTC day in a directory that many processes append to at once.

Writing: `EventStore.append` hands each record to `records.append_record`, which encodes it to one line
(capped, see `encode_event`) and writes it with a single `os.write` on a descriptor opened with O_APPEND.
On a local file system the kernel appends each such write whole, so concurrent hooks never interleave
(network file systems may not promise this). A log file is appended to only when it is a regular file of
this user (`safe_open.open_state_file`). A directory that cannot be written costs the caller nothing: the
record is dropped and the store warns once.

Reading lives in `telemetry.log_reader`; `read_records` and `parse_since` are importable from here too.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from jitctx.errors import UsageError
from jitctx.telemetry.log_reader import event_files, parse_since, read_records
from jitctx.telemetry.records import MAX_LINE_BYTES, MIN_LINE_BYTES, append_record, day_file

__all__ = ["EventStore", "TelemetryWarning", "clear_events", "parse_since", "read_records"]


class TelemetryWarning(RuntimeWarning):
    """An event could not be recorded; the caller goes on."""


def _warn(message: str) -> None:
    warnings.warn(message, TelemetryWarning, stacklevel=4)


class EventStore:
    """Appends records to `directory/YYYY-MM-DD.jsonl` (the UTC day of each record's `ts`)."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        max_line_bytes: int = MAX_LINE_BYTES,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        if max_line_bytes < MIN_LINE_BYTES:
            raise ValueError(f"max_line_bytes must be at least {MIN_LINE_BYTES}")
        self.directory = Path(directory)
        self.max_line_bytes = max_line_bytes
        self._warn = warn or _warn
        self.warned = False
        self.dropped = 0

    def path_for(self, event: Mapping[str, Any]) -> Path:
        return Path(day_file(self.directory, event))

    def append(self, event: Mapping[str, Any]) -> bool:
        """Write one record; False (and one warning per store) when it could not be written."""
        try:
            whole = append_record(self.directory, event, self.max_line_bytes)
        except (OSError, TypeError, ValueError, RecursionError) as exc:
            self._drop(f"telemetry event not recorded in {self.directory}: {exc}")
            return False
        if not whole:
            self._drop(f"telemetry event cut short in {self.directory} (disk full?)")
            return False
        return True

    def _drop(self, message: str) -> None:
        self.dropped += 1
        if not self.warned:
            self.warned = True
            self._warn(message + "; further events of this store are dropped silently")


def clear_events(directory: str | os.PathLike[str]) -> tuple[int, int]:
    """Delete the log files (only *.jsonl in `directory`); returns (files, bytes) removed."""
    files = event_files(directory)
    removed = size = 0
    for path in files:
        try:
            length = path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise UsageError(f"cannot delete {path}: {exc.strerror}") from exc
        removed += 1
        size += length
    return removed, size
