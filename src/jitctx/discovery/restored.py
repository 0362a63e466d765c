"""What a session state read back from disk may name: the files it holds, and the marks of the directories
it scanned. A state file is data from disk like any other; nothing in it may lead jitctx to read a file
it would not have loaded, or trust a directory it never scanned.

Files are checked by name when the state is read (`may_name`), and by their real path just before one is
first read (`readable_where_loaded`): resolving every held path on every call would make a call's cost
grow with the session. Both follow the rules files are loaded by, or a file loaded rightly would be
dropped and sent again.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.discovery.boundary import is_inside
from jitctx.model import LoadReason, Tier
from jitctx.project import Project

if TYPE_CHECKING:
    from jitctx.discovery.marks import Watch

_IN_PROJECT = (Tier.PROJECT.value, Tier.LOCAL.value)


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
    from jitctx.imports.expansion import OUTSIDE_SUFFIXES

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
