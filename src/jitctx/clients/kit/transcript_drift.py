"""What a client's own transcript shows of one session: which instruction files reached the model more
than once, and which files jitctx took the client to have loaded but the client never showed.

A client that writes transcripts builds a `SessionDrift` (`Client.drift`); `jitctx stats --drift` and
`jitctx doctor` add them up per client release. A release that changes how it loads shows here the day
it ships, from the user's own sessions, rather than in a table of what each release was measured to do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.short_digest import short_digest

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


# -- shared by the clients' transcript readers: jitctx's blocks, and arrivals by file and version --------

_BLOCK_HEADS = ("Updated contents of ", "Contents of ")


def file_arrivals(arrivals: Mapping[tuple[str, str], list[Arrival]]) -> tuple[FileArrivals, ...]:
    """Each file's arrivals, by version (the text that arrived), files in path order."""
    versions: dict[str, list[VersionArrivals]] = {}
    for (path, text), seen in arrivals.items():
        digest = short_digest(text.encode("utf-8", "surrogatepass"))[:12]
        versions.setdefault(path, []).append(VersionArrivals(digest, tuple(seen)))
    return tuple(FileArrivals(path, tuple(versions[path])) for path in sorted(versions))


# A block of jitctx's (hook.context.render_block) starts a line.
_BLOCK_START = re.compile(r"^(?=(?:Updated contents|Contents) of )", re.MULTILINE)


def jitctx_blocks(text: str) -> list[tuple[str, str]]:
    """The (header, body) of each block of one of jitctx's answers, told apart by their headers."""
    found = []
    for chunk in _BLOCK_START.split(text):
        header, sep, body = chunk.partition(":\n\n")
        if sep and "\n" not in header:
            found.append((header, body.strip()))
    return found


def block_path(header: str, root: str, paths: PathResolver | None = None) -> str | None:
    """The file (real absolute path) a jitctx block's header names: `Contents of DISPLAY (why)`, DISPLAY
    relative to the root or absolute. A DISPLAY holding ` (` is told from the reason by the file that
    exists; None for a header of another shape."""
    rest = next((header[len(head) :] for head in _BLOCK_HEADS if header.startswith(head)), None)
    if rest is None or not rest.endswith(")"):
        return None
    cuts = [index for index in range(len(rest)) if rest.startswith(" (", index)]
    if not cuts:
        return None
    found = [os.path.join(root, rest[:cut]) for cut in cuts]
    return (paths or PathResolver()).real(next((path for path in found if os.path.isfile(path)), found[0]))
