"""The drift report of `stats --drift` and `doctor`: per client release, the instruction files that reached
the model twice and those jitctx counted as loaded by the client that never arrived, read from the
clients' own transcripts.

The event log says which sessions there were, which client ran each (`agent`), its root, and which files
jitctx left to the client (`host_loaded` of the main thread's discoveries); each client reads its own
transcript of the session (`Client.drift`). The joining happens here because the telemetry core knows no
clients. A session whose transcript is gone (deleted, or on another machine) is counted, not an error.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from jitctx.cli.cmd_log import printable
from jitctx.cli.common import count, table
from jitctx.clients import all_clients
from jitctx.clients.kit.checks import OK, SKIP, WARN, Check
from jitctx.clients.kit.transcript_drift import SessionDrift
from jitctx.paths import is_inside, relative_posix
from jitctx.telemetry.store import read_records

UNKNOWN_RELEASE = "unknown"


@dataclass(frozen=True)
class RepeatedFile:
    """A file one version of which reached the model `count` times in a session (the most over sessions)."""

    file_path: str
    path: str  # relative to the session's root, or absolute outside it
    count: int
    sessions: int
    routes: tuple[str, ...]  # who sent it: "client", "jitctx" or both


@dataclass(frozen=True)
class MissingFile:
    """A file jitctx recorded as loaded by the client that the client's transcript never showed."""

    file_path: str
    path: str
    sessions: int


@dataclass(frozen=True)
class ReleaseDrift:
    client: str
    release: str
    sessions: int  # transcripts read that this release wrote to
    twice: tuple[RepeatedFile, ...]
    never_arrived: tuple[MissingFile, ...]

    @property
    def clean(self) -> bool:
        return not self.twice and not self.never_arrived


@dataclass(frozen=True)
class DriftReport:
    sessions: int  # sessions of clients that keep transcripts
    read: int  # of those, the sessions whose transcript was found and read
    read_by_client: tuple[tuple[str, int], ...]  # (client, sessions read)
    not_found: tuple[tuple[str, int], ...]  # (client, sessions whose transcript was not found)
    releases: tuple[ReleaseDrift, ...]

    @property
    def clean(self) -> bool:
        return all(release.clean for release in self.releases)

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "read": self.read,
            "read_by_client": [{"client": client, "sessions": n} for client, n in self.read_by_client],
            "not_found": [{"client": client, "sessions": n} for client, n in self.not_found],
            "releases": [
                {
                    "client": release.client,
                    "release": release.release,
                    "sessions": release.sessions,
                    "twice": [
                        {
                            "path": twice.path,
                            "file_path": twice.file_path,
                            "count": twice.count,
                            "sessions": twice.sessions,
                            "routes": list(twice.routes),
                        }
                        for twice in release.twice
                    ],
                    "never_arrived": [
                        {"path": gone.path, "file_path": gone.file_path, "sessions": gone.sessions}
                        for gone in release.never_arrived
                    ],
                }
                for release in self.releases
            ],
        }


@dataclass
class LoggedSession:
    agent: str | None = None
    root: str | None = None
    host_loaded: dict[str, None] = field(default_factory=dict)  # an ordered set


def sessions_in_log(
    directory: str | os.PathLike[str], *, since: datetime | None = None, session: str | None = None
) -> dict[str, LoggedSession]:
    """Each session of the log (in the order first recorded) with its agent, root and host loads."""
    found: dict[str, LoggedSession] = {}
    for record in read_records(directory, since=since, session=session):
        kind = record.get("kind")
        if kind not in ("startup", "discovery"):
            continue
        entry = found.setdefault(record["session_id"], LoggedSession())
        agent, root = record.get("agent"), record.get("root")
        if entry.agent is None and isinstance(agent, str):
            entry.agent = agent
        if entry.root is None and isinstance(root, str) and os.path.isabs(root):
            entry.root = root
        by_host = record.get("host_loaded")
        if kind == "discovery" and record.get("channel") == "main" and isinstance(by_host, list):
            entry.host_loaded.update((path, None) for path in by_host if isinstance(path, str))
    if session is not None and session in found and len(found) > 1:
        found = {session: found[session]}  # a whole id that also begins others means that very session
    return found


def drift_report(
    directory: str | os.PathLike[str],
    *,
    since: datetime | None = None,
    session: str | None = None,
    limit: int | None = None,
    home: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> DriftReport:
    """The report over the log's sessions (`limit`: only the last ones recorded)."""
    environ = os.environ if environ is None else environ
    sessions = list(sessions_in_log(directory, since=since, session=session).items())
    if limit is not None:
        sessions = sessions[-limit:] if limit > 0 else []
    read: list[tuple[str, str, SessionDrift]] = []  # (client, root, drift)
    missing: dict[str, int] = {}
    considered = 0
    for session_id, entry in sessions:
        known = all_clients.canonical(entry.agent) if entry.agent else None
        if known is None or entry.root is None:
            continue  # a profile's session (touch, replay, mcp): no client wrote a transcript of it
        reader = all_clients.drift(known)
        if reader is None:
            continue
        drift = reader(session_id, entry.root, list(entry.host_loaded), home, environ)
        considered += 1
        if drift.found:
            read.append((known, entry.root, drift))
        else:
            missing[known] = missing.get(known, 0) + 1
    return DriftReport(
        sessions=considered,
        read=len(read),
        read_by_client=tuple(sorted(Counter(client for client, _, _ in read).items())),
        not_found=tuple(sorted(missing.items())),
        releases=_by_release(read),
    )


class _Tally:
    """One client release's findings while sessions are added."""

    def __init__(self) -> None:
        self.sessions = 0
        self.twice: dict[str, tuple[str, int, int, set[str]]] = {}  # file -> (shown, count, sessions, routes)
        self.never: dict[str, tuple[str, int]] = {}  # file -> (shown, sessions)

    def add_twice(self, file_path: str, shown: str, count: int, routes: Iterable[str]) -> None:
        _, most, sessions, seen = self.twice.get(file_path, (shown, 0, 0, set()))
        self.twice[file_path] = (shown, max(most, count), sessions + 1, seen | set(routes))

    def add_never(self, file_path: str, shown: str) -> None:
        _, sessions = self.never.get(file_path, (shown, 0))
        self.never[file_path] = (shown, sessions + 1)


def _by_release(read: Iterable[tuple[str, str, SessionDrift]]) -> tuple[ReleaseDrift, ...]:
    tallies: dict[tuple[str, str], _Tally] = {}
    for client, root, drift in read:
        for release in drift.releases or (UNKNOWN_RELEASE,):
            tallies.setdefault((client, release), _Tally()).sessions += 1
        newest = drift.release or UNKNOWN_RELEASE
        for file in drift.twice():
            version = file.repeated()
            assert version is not None  # twice() keeps only the files with a repeated version
            # A repeat belongs to the release that wrote its last arrival (a resumed session may change).
            release = version.arrivals[-1].release or newest
            routes = sorted({arrival.route for arrival in version.arrivals})
            tally = tallies.setdefault((client, release), _Tally())
            tally.add_twice(file.path, _shown(file.path, root), version.count, routes)
        for path in drift.never_arrived:
            tallies.setdefault((client, newest), _Tally()).add_never(path, _shown(path, root))
    return tuple(
        ReleaseDrift(
            client=client,
            release=release,
            sessions=tally.sessions,
            twice=tuple(
                RepeatedFile(path, shown, most, sessions, tuple(sorted(routes)))
                for path, (shown, most, sessions, routes) in sorted(tally.twice.items())
            ),
            never_arrived=tuple(
                MissingFile(path, shown, sessions) for path, (shown, sessions) in sorted(tally.never.items())
            ),
        )
        for (client, release), tally in sorted(tallies.items(), key=lambda item: _release_order(item[0]))
    )


def _release_order(key: tuple[str, str]) -> tuple[str, tuple[int, ...], str]:
    client, release = key
    numbers = tuple(int(part) for part in release.split("-")[0].split(".") if part.isdigit())
    return client, numbers, release


def _shown(path: str, root: str) -> str:
    real_root = os.path.realpath(root)
    return relative_posix(path, real_root) if is_inside(path, real_root) and path != real_root else path


# -- for people ----------------------------------------------------------------------------------------


def drift_lines(report: DriftReport) -> list[str]:
    """The `stats --drift` section: a table of findings, or one line when there are none."""
    lines = []
    if report.clean:
        lines.append(f"no drift found in {count(report.read, 'session')} read from transcripts")
    else:
        rows: list[list[object]] = []
        for release in report.releases:
            start = [release.client, release.release, f"{release.sessions:,}"]
            for twice in release.twice:
                via = " + ".join(twice.routes)
                rows.append(
                    [*start, "twice", printable(twice.path), f"{twice.count:,}", f"{twice.sessions:,}", via]
                )
            for gone in release.never_arrived:
                rows.append([*start, "never arrived", printable(gone.path), "0", f"{gone.sessions:,}", "-"])
            if release.clean:
                rows.append([*start, "none", "", "", "", ""])
        lines.append(f"drift, read from {count(report.read, 'transcript')} (via: who sent the same text):")
        headers = ["client", "release", "read", "drift", "file", "times", "sessions", "via"]
        lines.append(table(headers, rows, right=(2, 5, 6)))
    for client, missing in report.not_found:
        lines.append(
            f"{client}: no transcript found for {count(missing, 'session')} (deleted, or kept elsewhere)"
        )
    return lines


def drift_summary(release: ReleaseDrift) -> str:
    """One release's findings in one line (doctor)."""
    parts = []
    if release.twice:
        named = ", ".join(f"{twice.path} x{twice.count}" for twice in release.twice[:3])
        more = f" and {len(release.twice) - 3:,} more" if len(release.twice) > 3 else ""
        parts.append(f"{count(len(release.twice), 'file')} reached the model twice ({named}{more})")
    if release.never_arrived:
        named = ", ".join(gone.path for gone in release.never_arrived[:3])
        more = f" and {len(release.never_arrived) - 3:,} more" if len(release.never_arrived) > 3 else ""
        parts.append(
            f"{count(len(release.never_arrived), 'file')} counted as loaded never arrived ({named}{more})"
        )
    return f"{release.release}: " + "; ".join(parts) + f" in {count(release.sessions, 'session')}"


def drift_checks(report: DriftReport, window: str) -> list[Check]:
    """doctor's lines: one warning per client release with drift, else one line per client read."""
    fix = "jitctx stats --drift   (which files, in how many sessions, by whom)"
    checks = [
        Check(release.client, "drift", WARN, drift_summary(release), fix)
        for release in report.releases
        if not release.clean
    ]
    if not checks:
        checks = [
            Check(client, "drift", OK, f"read {count(n, 'transcript')} {window}, no drift")
            for client, n in report.read_by_client
        ]
    if not report.sessions:
        checks.append(
            Check("jitctx", "drift", SKIP, f"no session of a client that keeps transcripts {window}")
        )
    return checks
