"""`jitctx log`: the timeline of recorded loads, one line per load (time, reason, file, globs, trigger),
and of the writes made before their rules (DESIGN §2.11); with --session, also what is in that session's
context now (`reports.in_context`, the list `jitctx statusline` counts)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.cli.common import SCHEMA_VERSION, add_json, count, print_json, table, warn
from jitctx.cli.state import add_state_dir
from jitctx.cli.state_paths import readable_events_dir
from jitctx.clients import all_clients
from jitctx.errors import UsageError
from jitctx.reports.in_context import StateUnreadable, context_json, context_rows, human_bytes, in_context
from jitctx.telemetry.events import format_ts
from jitctx.telemetry.log_reader import (
    ReadReport,
    event_files,
    parse_since,
    prefers_exact,
    read_raw,
    read_records,
    sessions_matching,
)
from jitctx.telemetry.log_tail import newest_record, session_records
from jitctx.telemetry.record_fields import display_path
from jitctx.telemetry.results import project_labels
from jitctx.telemetry.store import clear_events

if TYPE_CHECKING:
    from jitctx.reports.in_context import InContext

HELP = """\
Every JIT discovery (hit or miss) and every session start leaves a record in the event log; so do the
loads Claude Code reports through its own InstructionsLoaded hook. This prints one line per load,
oldest first, with paths relative to the project root. Times are UTC.

A write made before its rules were in the model's context has a line of its own ("write before its
rules", the file written, and the instruction files that came late); the files sent in the answer to a
write held back say "held write".

With --session, the timeline is that session's, and a second table follows: the instruction files in
its context now (since its last compaction, what was sent again), each with its size, when, why and by
whom it arrived (jitctx, or the client itself). It is the list `jitctx statusline` counts, read from the
session's saved state (<state dir>/sessions/); --since does not narrow it. --session without an ID
takes the session recorded last.

examples:
  jitctx log                          # everything recorded
  jitctx log --since 24h              # the last day (also 30m, 7d, 2w, or a date: 2026-08-08)
  jitctx log --session 61da82e1       # one session (an id or its first characters), and its context now
  jitctx log --session                # the session recorded last
  jitctx log --raw | tail -n 3        # the stored JSON lines
  jitctx log --clear --yes            # delete the log
  jitctx log --state-dir /tmp/st      # a log kept elsewhere (events live in DIR/events/)
"""


# `--session` without an ID (log only): the session recorded last.
LATEST = ""


def add_filters(parser: argparse.ArgumentParser, *, latest: bool = False) -> None:
    parser.add_argument(
        "--since",
        metavar="T",
        help="only records at or after T: a date or date-time (UTC), or an age like 30m, 24h, 7d, 2w",
    )
    help_text = (
        "only this session: its id, or the first characters of its id (a whole id wins over longer ids)"
    )
    if latest:
        help_text += "; without ID the session recorded last; shows what is in its context now too"
        parser.add_argument("--session", metavar="ID", nargs="?", const=LATEST, help=help_text)
    else:
        parser.add_argument("--session", metavar="ID", help=help_text)
    add_state_dir(parser)


def since_of(args: argparse.Namespace) -> datetime | None:
    if args.since is not None and not args.since.strip():
        raise UsageError("--since is empty; give a date (2026-08-08) or an age (30m, 24h, 7d, 2w)")
    return parse_since(args.since, datetime.now(UTC)) if args.since else None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_filters(parser, latest=True)
    parser.add_argument("--raw", action="store_true", help="print the stored JSON lines as they are")
    parser.add_argument("--clear", action="store_true", help="delete the event log (asks first)")
    parser.add_argument("--yes", action="store_true", help="with --clear: do not ask")
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    directory = readable_events_dir(args)
    if args.clear:
        return _clear(args, directory)
    if args.yes:
        raise UsageError("--yes only goes with --clear")

    report = ReadReport()
    since = since_of(args)
    seen = Seen()
    exact = False
    asked = args.session
    matched: set[str] | None = None  # the ids --session ID names, when read without --since
    if asked == LATEST:
        args.session = _latest_session(directory)
        exact = True
    elif args.session:
        ids = sessions_matching(directory, since, args.session)
        exact = prefers_exact(args.session, ids)
        matched = ids if since is None else None
    if args.raw:
        _print_raw(directory, since, args, report, seen, exact)
    else:
        # Only the records that loaded or wrote something are kept: a long log is nearly all misses.
        records = read_records(directory, since=since, session=args.session, exact=exact, report=report)
        kept = [r for r in seen.all(records) if _loads_something(r) or _writes_something(r)]
        kept.sort(key=lambda record: record["ts"])  # concurrent writers land a few ms out of order
        loads, writes = timeline(kept), writes_of(kept)
        window = window_json(seen, report, since, args.session)
        now = None if asked is None else _in_context(directory, args.session, exact, matched)
        if args.json:
            document = {"events_dir": str(directory), "window": window, "loads": loads, "writes": writes}
            if now is not None:
                document["in_context"] = _context_document(now)
            print_json({**document, **seen.totals()})
        else:
            _print_timeline(loads, writes, seen, window)
            if now is not None:
                _print_context(now)
    report_skips(report, directory, seen.records > 0, args.session, since)
    return 0


class Seen:
    """Running totals of the records a command went through, without keeping them."""

    def __init__(self) -> None:
        self.records = self.discoveries = self.hits = self.held = 0
        self.sessions: set[str] = set()
        self.first_ts: str | None = None
        self.last_ts: str | None = None

    def see(self, record: dict[str, Any]) -> None:
        self.records += 1
        ts = record["ts"]
        self.first_ts = ts if self.first_ts is None or ts < self.first_ts else self.first_ts
        self.last_ts = ts if self.last_ts is None or ts > self.last_ts else self.last_ts
        self.sessions.add(record["session_id"])
        if record.get("kind") == "discovery":
            self.discoveries += 1
            self.hits += record.get("hit") is True
            self.held += record.get("held") is True

    def all(self, records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for record in records:
            self.see(record)
            yield record

    def totals(self) -> dict[str, int]:
        return {"sessions": len(self.sessions), "discoveries": self.discoveries, "hits": self.hits}


def _loads_something(record: dict[str, Any]) -> bool:
    return record.get("kind") == "load" or bool(record.get("loaded"))


def _writes_something(record: dict[str, Any]) -> bool:
    return bool(record.get("writes"))


def _print_raw(
    directory: Path, since: datetime | None, args: argparse.Namespace, report: Any, seen: Seen, exact: bool
) -> None:
    """The stored lines in the order stored; with --json, one document streamed record by record."""
    pairs = read_raw(directory, since=since, session=args.session, exact=exact, report=report)
    if not args.json:
        for line, _ in seen_pairs(pairs, seen):
            sys.stdout.write(line + "\n")
        return
    sys.stdout.write(
        f'{{"schema_version": {SCHEMA_VERSION}, "events_dir": '
        + json.dumps(str(directory), ensure_ascii=False)
        + ', "records": ['
    )
    for index, (_, record) in enumerate(seen_pairs(pairs, seen)):
        sys.stdout.write(("," if index else "") + "\n  " + json.dumps(record, ensure_ascii=False))
    window = window_json(seen, report, since, args.session)
    sys.stdout.write('\n], "window": ' + json.dumps(window, ensure_ascii=False) + "}\n")


def seen_pairs(
    pairs: Iterator[tuple[str, dict[str, Any]]], seen: Seen
) -> Iterator[tuple[str, dict[str, Any]]]:
    for line, record in pairs:
        seen.see(record)
        yield line, record


# -- the timeline -----------------------------------------------------------------------------------


def shown_path(path: str, root: str) -> str:
    """A recorded absolute path as a person reads it: relative to the root, else with ~ for home."""
    shown = display_path(path, root)
    if shown != path:
        return shown
    home = str(Path.home())
    if home != "/" and path.startswith(home + "/"):
        return "~" + path[len(home) :]
    return path


def timeline(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per load: those inside startup/discovery records, and host `load` records; `held`: it
    went out in the answer to a write held back, before the write (DESIGN §2.11)."""
    loads = []
    for record in records:
        kind = record.get("kind")
        found = [record] if kind == "load" else record.get("loaded")
        items: list[Any] = found if isinstance(found, list) else []
        root = str(record.get("root") or "")
        for item in items:
            if not isinstance(item, dict):
                continue
            trigger = item.get("trigger_file_path") or (
                record.get("trigger_file_path") if kind != "load" else None
            )
            file_path = str(item.get("file_path") or "")
            listed = item.get("globs")
            globs: list[Any] = listed if isinstance(listed, list) else []
            loads.append(
                {
                    "ts": record["ts"],
                    "session_id": record["session_id"],
                    "channel": record.get("channel", "main"),
                    "reason": str(item.get("load_reason") or "?")
                    + (" (updated)" if item.get("updated") is True else ""),
                    "path": shown_path(file_path, root),
                    "project": root or None,
                    "file_path": file_path,
                    "memory_type": item.get("memory_type"),
                    "globs": [str(g) for g in globs],
                    "trigger": shown_path(str(trigger), root) if trigger else None,
                    "bytes": item.get("bytes"),
                    "tokens": item.get("tokens"),
                    "source": record.get("source", "jitctx"),
                    "held": record.get("held") is True,
                }
            )
    return loads


def writes_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per write a record lists (`writes`): the file, whether its rules were in the model's
    context before it, and the instruction files that reached the model only after it (`late`)."""
    writes = []
    for record in records:
        listed = record.get("writes")
        root = str(record.get("root") or "")
        for entry in listed if isinstance(listed, list) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                continue
            late = entry.get("late")
            writes.append(
                {
                    "ts": record["ts"],
                    "session_id": record["session_id"],
                    "channel": record.get("channel", "main"),
                    "path": shown_path(entry["path"], root),
                    "project": root or None,
                    "rules_before": entry.get("rules_before") is not False,
                    "late": [str(name) for name in late] if isinstance(late, list) else [],
                }
            )
    return writes


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """Recorded text for a terminal: control characters (a file name can hold escape sequences) shown
    as \\xNN instead of acted on."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def clock(ts: str) -> str:
    """A stored ts as 'YYYY-MM-DD HH:MM:SS' (UTC) for tables."""
    return ts[:19].replace("T", " ")


def _print_timeline(
    loads: list[dict[str, Any]], writes: list[dict[str, Any]], seen: Seen, window: dict[str, Any]
) -> None:
    print(window_line(window))
    early = [write for write in writes if not write["rules_before"]]
    # A write before its rules comes before the loads of its record: the rules that came after it.
    lines = sorted(
        [(entry["ts"], 0, n, entry) for n, entry in enumerate(early)]
        + [(entry["ts"], 1, n, entry) for n, entry in enumerate(loads)]
    )
    if not lines:
        print("no loads in this window")
    else:
        labels = project_labels(entry["project"] for *_, entry in lines)
        with_channel = any(entry["channel"] != "main" for *_, entry in lines)
        headers = [
            "time (UTC)",
            "session",
            "project",
            *(["channel"] if with_channel else []),
            "reason",
            "file",
            "globs",
            "trigger",
        ]
        rows = [
            [
                clock(entry["ts"]),
                printable(entry["session_id"][:8]),
                printable(labels.get(entry["project"] or "", "-")),
                *([entry["channel"]] if with_channel else []),
                *(_load_cells(entry) if is_load else _write_cells(entry)),
            ]
            for _, is_load, _, entry in lines
        ]
        print()
        print(table(headers, rows))
    totals = seen.totals()
    print()
    print(
        f"{count(len(loads), 'load')}; {count(totals['discoveries'], 'discovery')} "
        f"({count(totals['hits'], 'hit')}) in {count(totals['sessions'], 'session')}"
        + "".join(f"; {part}" for part in _write_totals(len(early), seen.held))
    )


def _write_totals(early: int, held: int) -> list[str]:
    """The writes before their rules, and those held back, when there are any."""
    parts = []
    if early:
        parts.append(f"{count(early, 'write')} before {'its' if early == 1 else 'their'} rules")
    if held:
        parts.append(
            f"{count(held, 'write')} held back until {'its' if held == 1 else 'their'} rules were sent"
        )
    return parts


def _load_cells(load: dict[str, Any]) -> list[str]:
    """The cells of a load: reason, file, globs, trigger."""
    reason = load["reason"] + (" (held write)" if load["held"] else "")
    return [
        printable(reason),
        printable(load["path"]),
        printable(", ".join(load["globs"])),
        printable(load["trigger"] or ""),
    ]


def _write_cells(write: dict[str, Any]) -> list[str]:
    """The same columns for a write before its rules: the file written, and the rules that came late."""
    return [
        "write before its rules",
        printable(write["path"]),
        "",
        printable("late: " + (", ".join(write["late"]) or "?")),
    ]


# -- what is in the session's context now ---------------------------------------------------------------


class _Now(NamedTuple):
    """The context of the session `--session` names, or why there is none to show."""

    session_id: str | None
    context: InContext | None
    problem: str | None


def _latest_session(directory: Path) -> str | None:
    """The session of the record written last (`--session` without an ID)."""
    newest = newest_record(str(directory))
    return None if newest is None else str(newest["session_id"])


def _in_context(directory: Path, session: str | None, exact: bool, matched: set[str] | None) -> _Now:
    """What the one session `session` names holds now: its own agent's saved state, every arrival looked
    up in the whole log (--since does not narrow what a context holds). `matched`: the ids it names, when
    known already."""
    if session is None:
        return _Now(None, None, "no session is recorded yet")
    ids = (
        {session}
        if exact
        else (matched if matched is not None else sessions_matching(directory, None, session))
    )
    if len(ids) != 1:
        shown = ", ".join(sorted(ids)[:3]) + (", ..." if len(ids) > 3 else "")
        problem = f"{count(len(ids), 'session')} start with {session!r} ({shown}): give more of the id"
        return _Now(None, None, problem if ids else f"no session id starts with {session!r}")
    (session_id,) = ids
    newest = next(session_records(str(directory), session_id), None)
    agent = None if newest is None else newest.get("agent") or newest.get("source")

    agents = list(dict.fromkeys([*([str(agent)] if agent else []), *all_clients.names()]))
    try:
        context = in_context(str(directory.parent), session_id, agents)
    except StateUnreadable as exc:
        return _Now(session_id, None, f"its saved state cannot be read ({exc})")
    if context is None:
        where = directory.parent / "sessions"
        return _Now(session_id, None, f"no saved state for it in {where} (its agent's hook keeps one)")
    return _Now(session_id, context, None)


def _context_document(now: _Now) -> dict[str, Any]:
    return context_json(now.context, now.session_id, now.problem)


def _print_context(now: _Now) -> None:
    print()
    context = now.context
    if context is None:
        shown = f"session {printable(now.session_id)}: " if now.session_id else ""
        print(f"in context now: {shown}{printable(now.problem or 'nothing known')}")
        return
    parts = [
        f"in context now: session {printable(context.session_id)} ({printable(context.key)})",
        f"{count(len(context.files), 'file')}, {human_bytes(context.bytes_carried)}",
    ]
    if context.compacted_at:
        parts.append(f"since the compaction at {clock(context.compacted_at)} UTC")
    print("; ".join(parts))
    if not context.files:
        return
    print()
    rows = [[printable(cell) for cell in row] for row in context_rows(context)]
    print(table(["file", "bytes", "arrived (UTC)", "why", "brought by"], rows, right=[1]))


# -- window and skipped lines, shared with `jitctx stats` ---------------------------------------------


def window_json(seen: Seen, report: Any, since: datetime | None, session: str | None) -> dict[str, Any]:
    return {
        "first_ts": seen.first_ts,
        "last_ts": seen.last_ts,
        "since": format_ts(since) if since is not None else None,
        "session": session,
        "files": report.files,
        "lines": report.lines,
        "records": seen.records,
        "corrupt": report.corrupt,
        "unknown_version": report.unknown_version,
        "unknown_kind": report.unknown_kind,
        "corrupt_at": list(report.corrupt_at),
    }


def window_line(window: dict[str, Any]) -> str:
    """The span of time and data the figures cover, always first: a moved window changes every figure."""
    if window["first_ts"] is None:
        span = "no records"
    else:
        span = f"{clock(window['first_ts'])} to {clock(window['last_ts'])} UTC"
    parts = [f"window  {span}", f"{count(window['files'], 'file')}, {count(window['lines'], 'line')}"]
    if window.get("since"):
        parts.append(f"since {clock(window['since'])}")
    if window.get("session"):
        parts.append(f"session {window['session']}")
    return "; ".join(parts)


def report_skips(
    report: Any, directory: Path, found: bool, session: str | None = None, since: datetime | None = None
) -> None:
    if session and not found and report.records + report.filtered > 0:
        warn(f"no session id starts with {session!r} in this window")
    if report.corrupt:
        where = ", ".join(report.corrupt_at)
        warn(f"skipped {count(report.corrupt, 'unreadable line')} in {directory} (first: {where})")
    if report.unknown_version:
        warn(
            f"skipped {count(report.unknown_version, 'record')} of a newer schema version; "
            "upgrade jitctx to read them"
        )
    if report.unknown_kind:
        warn(f"skipped {count(report.unknown_kind, 'record')} of an unknown kind")
    if found:
        return
    if since is not None:
        if event_files(directory):
            print(
                f"jitctx: the window is empty: no records since {clock(format_ts(since))} UTC; "
                "an earlier --since (or none) shows the log",
                file=sys.stderr,
            )
            return
    if report.files == 0:
        print(f"jitctx: no events recorded in {directory} yet; {how_to_record()}", file=sys.stderr)


def how_to_record() -> str:
    """Every way records reach the log. All of them, because `touch` without --session and `replay`
    without --record write nothing: an empty log that named only `install` would leave that unexplained."""
    clients = "|".join(all_clients.names())
    return (
        f"records come from an agent's hooks ('jitctx install {clients}'), "
        "'jitctx touch --session NAME PATH...', 'jitctx replay --record TRANSCRIPT' and 'jitctx mcp'"
    )


# -- clearing -----------------------------------------------------------------------------------------


def _clear(args: argparse.Namespace, directory: Path) -> int:
    if args.since or args.session is not None or args.raw:
        raise UsageError(
            "--clear deletes the whole log; it does not combine with --since, --session or --raw"
        )

    files = event_files(directory)
    if not files:
        if args.json:
            print_json({"events_dir": str(directory), "cleared_files": 0, "cleared_bytes": 0})
        else:
            print(f"nothing to clear in {directory}", file=sys.stderr)
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            print(
                f"jitctx: error: --clear would delete {count(len(files), 'event file')} in {directory}; "
                "add --yes to confirm when not at a terminal",
                file=sys.stderr,
            )
            return 2
        print(
            f"delete {count(len(files), 'event file')} in {directory}? [y/N] ",
            end="",
            file=sys.stderr,
            flush=True,
        )
        answer = sys.stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            print("nothing deleted", file=sys.stderr)
            return 0
    removed, size = clear_events(directory)
    if args.json:
        print_json({"events_dir": str(directory), "cleared_files": removed, "cleared_bytes": size})
    else:
        print(f"deleted {count(removed, 'event file')} ({size:,} bytes) from {directory}", file=sys.stderr)
    return 0
