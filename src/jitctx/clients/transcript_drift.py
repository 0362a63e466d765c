"""What a client's own transcript shows of one session: which instruction files reached the model more
than once, and which files jitctx took the client to have loaded but the client never showed.

A client that writes transcripts builds a `SessionDrift` (`Client.drift`); `jitctx stats --drift` and
`jitctx doctor` add them up per client release. A release that changes how it loads shows here the day
it ships, from the user's own sessions, rather than in a table of what each release was measured to do.
"""

from __future__ import annotations

from dataclasses import dataclass

CLIENT_ROUTE, JITCTX_ROUTE = "client", "jitctx"


@dataclass(frozen=True)
class Arrival:
    """One time a version of a file reached the model: who sent it, and the release writing the record."""

    route: str  # CLIENT_ROUTE: the client loaded it (or showed it changed); JITCTX_ROUTE: a hook's block
    release: str | None


@dataclass(frozen=True)
class VersionArrivals:
    """Every arrival of one exact text of a file, in transcript order."""

    digest: str  # tells the versions of a file apart without carrying their text
    arrivals: tuple[Arrival, ...]

    @property
    def count(self) -> int:
        return len(self.arrivals)


@dataclass(frozen=True)
class FileArrivals:
    """What reached the model of one file (absolute real path) since the last compaction."""

    path: str
    versions: tuple[VersionArrivals, ...]

    def repeated(self) -> VersionArrivals | None:
        """The version that arrived most often, when one arrived more than once."""
        most = max(self.versions, key=lambda version: version.count, default=None)
        return most if most is not None and most.count > 1 else None


@dataclass(frozen=True)
class SessionDrift:
    """One session's transcript against jitctx's records of it.

    `transcript` is None when no transcript was found (nothing else is then known). `partial`: the
    transcript was longer than the reader's bound and only its end was read; `never_arrived` is then
    left empty, since a load before the part read cannot be ruled out."""

    session_id: str
    transcript: str | None
    releases: tuple[str, ...] = ()  # in the order their records first appear
    files: tuple[FileArrivals, ...] = ()
    never_arrived: tuple[str, ...] = ()
    partial: bool = False

    @property
    def found(self) -> bool:
        return self.transcript is not None

    def twice(self) -> tuple[FileArrivals, ...]:
        """The files one version of which reached the model more than once."""
        return tuple(file for file in self.files if file.repeated() is not None)

    @property
    def release(self) -> str | None:
        """The newest release that wrote the transcript (a resumed session may carry several)."""
        return self.releases[-1] if self.releases else None
