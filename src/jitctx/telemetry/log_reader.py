"""Reading the event log: its day files, cut into spans that several processes read at once, and the
records of each line.

Reading is tolerant: lines that are not JSON, records of an unknown schema version or kind are skipped and
counted in a `ReadReport`, never raised. A log file that is not a regular file (a FIFO or a device planted
in the state dir) is skipped the same way instead of being waited on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from jitctx.errors import UsageError
from jitctx.safe_open import open_regular
from jitctx.telemetry.events import (
    KINDS,
    SCHEMA_VERSION,
    Event,
    format_ts,
    is_stored_ts,
    parse_ts,
    record_problem,
    scan_once,
)

_DAY_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.jsonl$")
_CHUNK = 8 * 1024 * 1024


@dataclass
class ReadReport:
    """What a read went through; skipped lines are counted here instead of raised."""

    files: int = 0
    lines: int = 0
    records: int = 0  # readable records that passed the filters
    corrupt: int = 0
    unknown_version: int = 0
    unknown_kind: int = 0
    filtered: int = 0  # readable records left out by --since / --session
    corrupt_at: list[str] = field(default_factory=list)  # the first few, as file:line or file@offset

    def merge(self, other: ReadReport) -> None:
        self.files += other.files
        self.lines += other.lines
        self.records += other.records
        self.corrupt += other.corrupt
        self.unknown_version += other.unknown_version
        self.unknown_kind += other.unknown_kind
        self.filtered += other.filtered
        self.corrupt_at.extend(other.corrupt_at[: max(0, 5 - len(self.corrupt_at))])

    def skip(self, problem: str, where: str) -> None:
        if problem == "version":
            self.unknown_version += 1
        elif problem == "kind":
            self.unknown_kind += 1
        else:
            self.corrupt += 1
            if len(self.corrupt_at) < 5:
                self.corrupt_at.append(where)


class Span(NamedTuple):
    """Bytes [start, end) of one file; a line belongs to the span its first byte falls in."""

    path: str
    start: int
    end: int


class Filter(NamedTuple):
    since: str | None = None  # a `ts` string: records at or after it
    session: str | None = None  # a session id or its first characters
    exact: bool = False  # `session` is a whole id, not the first characters of one

    def accepts(self, ts: str, session_id: str) -> bool:
        if self.since is not None and ts < self.since:
            return False
        if self.session is None:
            return True
        return session_id == self.session if self.exact else session_id.startswith(self.session)


def make_filter(since: datetime | None = None, session: str | None = None, *, exact: bool = False) -> Filter:
    return Filter(format_ts(since) if since is not None else None, session or None, exact)


def prefers_exact(session: str | None, matched: Iterable[str]) -> bool:
    """`--session ID` names a session by its id or its first characters; when ID is a whole id and also
    the first characters of others (`r` and `replay:...`), it means the one with that very id."""
    ids = set(matched)
    return session is not None and session in ids and len(ids) > 1


def sessions_matching(directory: str | os.PathLike[str], since: datetime | None, session: str) -> set[str]:
    """The ids of the sessions whose id starts with `session` (one pass over the log)."""
    return {record["session_id"] for record in read_records(directory, since=since, session=session)}


def event_files(directory: str | os.PathLike[str], since: datetime | None = None) -> list[Path]:
    """The log files, oldest day first; day files before `since` are left out unread."""
    folder = Path(directory)
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.name.endswith(".jsonl"))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise UsageError(f"cannot read the event log {folder}: {exc.strerror}") from exc
    first_day = since.astimezone(UTC).date().isoformat() if since is not None else None
    kept = []
    for name in names:
        day = _DAY_FILE.match(name)
        if first_day is not None and day is not None and day.group(1) < first_day:
            continue
        kept.append(folder / name)
    return kept


def plan_spans(files: list[Path], parts: int) -> list[list[Span]]:
    """Split the files into `parts` groups of about equal bytes, cutting large files into spans."""
    sizes: list[tuple[str, int]] = []
    for file in files:
        try:
            sizes.append((str(file), file.stat().st_size))
        except OSError:
            sizes.append((str(file), 0))
    total = sum(size for _, size in sizes)
    share = max(1, -(-total // max(1, parts)))
    groups: list[list[Span]] = [[]]
    room = share
    for path, size in sizes:
        start = 0
        while True:
            take = min(size - start, room)
            groups[-1].append(Span(path, start, start + take))
            start += take
            room -= take
            if room == 0:
                if len(groups) < parts:
                    groups.append([])
                    room = share
                else:  # rounding left nothing for the last group: it takes the rest
                    room = total + 1
            if start >= size:
                break
    return [group for group in groups if group]


def read_span(span: Span, keep: Filter, report: ReadReport, *, raw: bool = False) -> Iterator[Any]:
    """The readable records of a span that pass `keep` (with `raw`: (line, record) pairs)."""
    name = os.path.basename(span.path)
    for block, offset in span_blocks(span, report):
        yield from read_block(block, name, offset, keep, report, raw)


def span_blocks(span: Span, report: ReadReport) -> Iterator[tuple[bytes, int]]:
    """The span's bytes as (block, offset in the file) of whole lines, a megabyte or so at a time."""
    try:
        handle = _open_log(span.path)  # closed in finally: a generator holds it
    except OSError as exc:
        report.skip("corrupt", f"{os.path.basename(span.path)}: {exc.strerror or exc}")
        return
    try:
        start = _line_start(handle, span.start)
        end = _line_start(handle, span.end) if span.end > start else start
        handle.seek(start)
        left = end - start
        carry = b""
        if span.start == 0:
            report.files += 1
        while left > 0:
            block = handle.read(min(_CHUNK, left))
            if not block:
                break
            left -= len(block)
            block = carry + block
            cut = block.rfind(b"\n") + 1 if left > 0 else len(block)
            carry = block[cut:]
            yield block[:cut], start
            start += cut
    finally:
        handle.close()


def _open_log(path: str) -> BinaryIO:
    """A log file for reading; OSError for anything but a regular file, found without blocking (opening a
    FIFO waits for a writer; reading /dev/zero never ends)."""
    return os.fdopen(open_regular(path), "rb")


def _line_start(handle: Any, position: int) -> int:
    """The first line start at or after `position` (a line belongs to the span its first byte is in)."""
    if position == 0:
        return 0
    handle.seek(position - 1)
    rest = handle.readline()  # to the end of the line that runs into `position`
    return position - 1 + len(rest) if rest else position


def _decode_lines(block: bytes) -> list[str]:
    try:
        lines = block.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        lines = [_decode_or_mark(piece) for piece in block.split(b"\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _decode_or_mark(piece: bytes) -> str:
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return "\ufffd"  # not JSON, so the line is counted as corrupt: we only ever write UTF-8


def read_block(
    block: bytes, name: str, offset: int, keep: Filter, report: ReadReport, raw: bool = False
) -> Iterator[Any]:
    """The readable records of `block` (whole lines of file `name`, starting at byte `offset`) that pass
    `keep`; every other line is counted in `report` as blank, corrupt or of an unknown version or kind."""
    lines = _decode_lines(block)
    report.lines += len(lines)
    accepts = keep.accepts
    no_filter = keep.since is None and keep.session is None
    scan = scan_once
    records = filtered = 0
    try:
        for index, line in enumerate(lines):
            # parse_line and record_problem, inlined: this loop runs once per line of the log.
            try:
                record, end = scan(line, 0)
                if end != len(line) and line[end:].strip():
                    raise ValueError("text after the JSON value")
                # The common case decided inline; record_problem says what is wrong with the rest.
                problem = (
                    None
                    if record.__class__ is dict
                    and record.get("v") == SCHEMA_VERSION
                    and record.get("v").__class__ is int
                    and record.get("kind") in KINDS
                    and is_stored_ts(record.get("ts"))
                    and record.get("session_id").__class__ is str
                    else record_problem(record)
                )
            except (StopIteration, ValueError, RecursionError):
                problem = "corrupt" if line.strip() else "blank"
            if problem is not None:
                if problem == "blank":
                    report.lines -= 1  # an empty line is neither a record nor damage
                else:
                    where = _where(name, offset, block, index) if len(report.corrupt_at) < 5 else name
                    report.skip(problem, where)
                continue
            if no_filter or accepts(record["ts"], record["session_id"]):
                records += 1
                yield (line, record) if raw else record
            else:
                filtered += 1
    finally:
        report.records += records
        report.filtered += filtered


def _where(name: str, offset: int, block: bytes, index: int) -> str:
    """file@byte-offset of line `index` of `block`; computed only for the few bad lines a report names."""
    before = block.split(b"\n", index)[:index]
    return f"{name}@{offset + sum(len(line) + 1 for line in before)}"


def read_records(
    directory: str | os.PathLike[str],
    *,
    since: datetime | None = None,
    session: str | None = None,
    exact: bool = False,
    report: ReadReport | None = None,
) -> Iterator[Event]:
    """Every readable record in the log, oldest file first, in the order written."""
    keep = make_filter(since, session, exact=exact)
    report = report if report is not None else ReadReport()
    for path in event_files(directory, since):
        yield from read_span(Span(str(path), 0, _size(path)), keep, report)


def read_raw(
    directory: str | os.PathLike[str],
    *,
    since: datetime | None = None,
    session: str | None = None,
    exact: bool = False,
    report: ReadReport | None = None,
) -> Iterator[tuple[str, Event]]:
    """Like `read_records`, with each record's stored line."""
    keep = make_filter(since, session, exact=exact)
    report = report if report is not None else ReadReport()
    for path in event_files(directory, since):
        yield from read_span(Span(str(path), 0, _size(path)), keep, report, raw=True)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


_RELATIVE = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, now: datetime) -> datetime:
    """`--since`: an ISO date or date-time (UTC unless it says otherwise), or an age such as 30m, 24h,
    7d, 2w counted back from `now`."""
    relative = _RELATIVE.match(text)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        try:
            return now.astimezone(UTC) - timedelta(**{_UNITS[unit]: amount})
        except (OverflowError, ValueError):
            # An age older than the calendar: everything recorded is newer than that.
            return datetime.min.replace(tzinfo=UTC)
    try:
        return parse_ts(text.strip())
    except ValueError:
        raise UsageError(
            f"--since {text!r} is neither a date (2026-08-08, 2026-08-08T12:00) nor an age (30m, 24h, 7d, 2w)"
        ) from None
