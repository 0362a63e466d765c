"""Taking back a session state saved to disk (`read_state`), and what it may name: the files it holds, and
the marks of the directories it scanned. A state file is data from disk like any other; nothing in it may
lead jitctx to read a file it would not have loaded, or trust a directory it never scanned.

Files are checked by name when the state is read (`may_name`), and by their real path just before one is
first read (`readable_where_loaded`): resolving every held path on every call would make a call's cost
grow with the session. Both follow the rules files are loaded by, or a file loaded rightly would be
dropped and sent again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from jitctx.discovery.state import READABLE_VERSIONS, ChannelState, channels_from_json
from jitctx.imports.expansion import OUTSIDE_SUFFIXES
from jitctx.model import LoadReason, Tier
from jitctx.paths import is_inside
from jitctx.project import Project

if TYPE_CHECKING:
    from jitctx.discovery.marks import Watch
    from jitctx.discovery.rule_table import ScopeCache

# (marks id, directory) -> the stored mark of that directory, as decoded from disk.
MarkReader = Callable[[str, str], object]

_IN_PROJECT = (Tier.PROJECT.value, Tier.LOCAL.value)


class RestoredState(NamedTuple):
    channels: dict[str, ChannelState]
    scopes: ScopeCache | None  # None: the state kept none


def read_state(project: Project, data: dict[str, object], marks: MarkReader | None) -> RestoredState | str:
    """The channels and scope cache of a saved state, or why it cannot be taken back (another root or
    agent, another version, malformed). The files it names are checked by name here (`may_name`); its
    marks are fetched by `marks` when a touch first asks for their directory, and checked then."""
    if data.get("version") not in READABLE_VERSIONS:
        return f"session state version {data.get('version')!r} not understood; starting a new session"
    if data.get("root") != project.root or data.get("agent") != project.profile.name:
        return "session state belongs to another project or agent; starting a new session"
    raw = data.get("channels")
    if not isinstance(raw, dict):
        return "session state is malformed; starting a new session"
    try:
        channels = channels_from_json(
            raw, lambda path, tier, reason: may_name(project, path, tier, reason)
        ) or {"main": ChannelState()}
    except (KeyError, TypeError, ValueError, OverflowError):
        return "session state is malformed; starting a new session"
    for state in channels.values():
        marks_of = state.scanned
        for directory, watch in marks_of.loaded().items():  # a version 2 state's inline marks
            if trusted_mark(project, directory, watch) is None:
                marks_of.pop(directory)
        if marks is not None:
            marks_of.attach(_stored_marks(project, marks, marks_of.marks_id))
    scopes = data.get("scopes", {})
    # A copy: the store compares the state with what it read.
    return RestoredState(channels, dict(scopes) if isinstance(scopes, dict) else None)


def _stored_marks(project: Project, marks: MarkReader, marks_id: str) -> Callable[[str], Watch | None]:
    def read(directory: str) -> Watch | None:
        return trusted_mark(project, directory, marks(marks_id, directory))

    return read


def may_name(project: Project, path: str, tier: str, reason: str) -> bool:
    """Whether a state may name `path`, by the name alone: a normalised path where a file of its tier and
    reason can be loaded from."""
    if "\0" in path or os.path.normpath(path) != path:
        return path in project.managed_files
    home = project.home
    inside = is_inside(path, project.root if tier in _IN_PROJECT or home is None else home)
    return inside or loads_from_anywhere(project, path, reason)


def readable_where_loaded(project: Project, path: str, tier: str, reason: str) -> bool:
    """Whether a held file is, by its real path, where a file of its tier and reason is loaded from: a
    project file inside the root (a link on the way, `proj/vendor -> /elsewhere`, is caught here), the
    user's own files and rules wherever their links lead, other user-level files in the home."""
    if path in project.managed_files or loads_from_anywhere(project, os.path.realpath(path), reason):
        return True
    if tier in _IN_PROJECT:
        return is_inside(os.path.realpath(path), project.root)
    if path in {candidate.path for candidate in [*project.user_candidates(), *project.rule_candidates()]}:
        return True
    return project.home is not None and is_inside(os.path.realpath(path), project.home)


def loads_from_anywhere(project: Project, path: str, reason: str) -> bool:
    """Files loaded wherever they are: managed files, and (when the user's config allows @imports outside)
    an imported Markdown file, as `jitctx.imports` reads them (`path`: its real path, before a read)."""
    if path in project.managed_files:
        return True
    if reason != LoadReason.INCLUDE.value or not project.config.allow_outside_imports:
        return False
    return path.lower().endswith(OUTSIDE_SUFFIXES)


def trusted_mark(project: Project, directory: str, watch: object) -> Watch | None:
    """A mark from disk, if it may be: of a directory inside the project, naming that directory and its
    own listing paths only, as [path, mtime_ns, size] entries, led by the directory itself. Any other is
    no mark at all: the directory is simply looked at again."""
    if not isinstance(watch, list) or not watch:
        return None
    if "\0" in directory or not is_inside(directory, project.root):
        return None
    expected = set(project.listing_paths(directory))
    for entry in watch:
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and entry[0] in expected
            and type(entry[1]) is int
            and type(entry[2]) is int
        ):
            return None
    return watch if watch[0][0] == directory else None
