"""One session's drift, read from its Codex rollout: the instruction files whose same text reached the main
thread more than once since the last compaction (Codex's own AGENTS.md and jitctx's block, or either
twice), and the files jitctx recorded as loaded by Codex (`host_loaded`) that Codex never showed loading.

The rollout is `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl` (~/.codex without
CODEX_HOME), or the same name in `archived_sessions/`; the thread id of the main thread is the session id
of every hook event. Its ids are UUIDv7, which carry the time they were made: the folders of that day and
the days beside it (the folder is named in local time) are looked in first, then the others. A
sub-agent's rollout is another file: only the main thread is read, as for the hook.

The records are read by `rollout.sightings`, the hook's own reading. What Codex loaded is one AGENTS.md
text per directory, its files joined: the files are those that make it up exactly as they are now
(`agents_md`, with Codex's names from the user's config.toml), the user's own file included. A text no
run of files makes up any more (one changed since) tells no arrival, and every file Codex would take on
its way counts as shown. A hook's context counts as jitctx's when it is in jitctx's block shape (Codex
does not say which hook gave it); its blocks are told apart by their headers. Only a regular file
reached without a link is read, at most DRIFT_BYTES of its end, whole lines only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from jitctx.clients.codex.agents_md import CodexFiles, as_sent
from jitctx.clients.codex.config import OWN_NAMES, config_path, project_doc_names, read_config
from jitctx.clients.codex.rollout import project_docs, read_tail, sightings
from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.clients.kit.transcript_drift import (
    CLIENT_ROUTE,
    JITCTX_ROUTE,
    Arrival,
    SessionDrift,
    block_path,
    file_arrivals,
    jitctx_blocks,
)

DRIFT_BYTES = 16 * 1024 * 1024
MAX_DAY_FOLDERS = 4000  # day folders looked through for a rollout whose id tells no day
# Codex's thread ids are UUIDs (v7 in 0.171.0); anything else names no rollout.
_THREAD_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def session_drift(
    session_id: str, root: str, host_loaded: Iterable[str], home: str | None, environ: Mapping[str, str]
) -> SessionDrift:
    """The drift of one session, or a SessionDrift without a transcript when no rollout is found."""
    codex_home = _codex_home(home, environ)
    rollout = find_rollout(session_id, codex_home) if codex_home is not None else None
    read = read_tail(rollout, DRIFT_BYTES) if rollout is not None else None
    if rollout is None or read is None:
        return SessionDrift(session_id, None)
    names = project_doc_names(read_config(config_path(home, environ)))
    return drift_of_rollout(
        session_id, rollout, read[0], root, host_loaded, names=names, codex_home=codex_home, partial=read[1]
    )


def _codex_home(home: str | None, environ: Mapping[str, str]) -> str | None:
    configured = environ.get("CODEX_HOME", "")
    if os.path.isabs(configured):
        return configured
    return os.path.join(home, ".codex") if home else None


def find_rollout(session_id: str, codex_home: str) -> str | None:
    """The main thread's rollout of the session: in the day folders its id points to, then in every day
    folder (newest first, at most MAX_DAY_FOLDERS), then in archived_sessions/."""
    if not _THREAD_ID.fullmatch(session_id):
        return None
    suffix = f"-{session_id}.jsonl"
    sessions = os.path.join(codex_home, "sessions")
    likely = [os.path.join(sessions, day.strftime("%Y/%m/%d")) for day in _days_of(session_id)]
    archived = os.path.join(codex_home, "archived_sessions")
    for folder in [*likely, *_day_folders(sessions, skip=set(likely)), archived]:
        found = _rollout_in(folder, suffix)
        if found is not None:
            return found
    return None


def _days_of(thread_id: str) -> list[datetime]:
    """The day a UUIDv7 was made and the days beside it; none for another kind of id."""
    if thread_id[14] != "7":
        return []
    try:
        made = datetime.fromtimestamp(int(thread_id[:8] + thread_id[9:13], 16) / 1000)
    except (ValueError, OverflowError, OSError):
        return []
    return [made, made - timedelta(days=1), made + timedelta(days=1)]


def _day_folders(sessions: str, skip: set[str]) -> list[str]:
    found: list[str] = []
    for year in _subfolders(sessions):
        for month in _subfolders(year):
            found.extend(day for day in _subfolders(month) if day not in skip)
            if len(found) >= MAX_DAY_FOLDERS:
                return found[:MAX_DAY_FOLDERS]
    return found


def _subfolders(folder: str) -> list[str]:
    """The subfolders of `folder` (no link), newest name first."""
    try:
        with os.scandir(folder) as entries:
            return sorted((e.path for e in entries if e.is_dir(follow_symlinks=False)), reverse=True)
    except OSError:
        return []


def _rollout_in(folder: str, suffix: str) -> str | None:
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("rollout-") and entry.name.endswith(suffix):
                    return entry.path
    except OSError:
        pass
    return None


def drift_of_rollout(
    session_id: str,
    rollout: str,
    data: bytes,
    root: str,
    host_loaded: Iterable[str],
    *,
    names: tuple[str, ...] = OWN_NAMES,
    codex_home: str | None = None,
    partial: bool = False,
) -> SessionDrift:
    """The drift shown by these rollout lines (whole lines, oldest first)."""
    paths = PathResolver()
    files = CodexFiles(names, paths)
    real = (paths.real(path) for path in host_loaded)
    expected = list(dict.fromkeys(path for path in real if path is not None))
    releases: list[str] = []
    release: str | None = None
    shown: set[str] = set()  # every file Codex showed loading, before a compaction too
    # Since the last compaction: (path, version text) -> arrivals, in order.
    arrivals: dict[tuple[str, str], list[Arrival]] = {}
    for sighting in sightings(data):
        if sighting.kind == "release":
            release = sighting.text
            if release not in releases:
                releases.append(release)
        elif sighting.kind == "compacted":
            arrivals.clear()  # the conversation after it no longer holds what came before
        elif sighting.kind == "loaded" and sighting.directory is not None:
            for path, text in _loaded(files, sighting.text, sighting.directory, codex_home, shown):
                if sighting.message:
                    arrivals.setdefault((path, text), []).append(Arrival(CLIENT_ROUTE, release))
        elif sighting.kind == "context":
            for header, body in jitctx_blocks(sighting.text):
                sent = block_path(header, root, paths)
                if sent is not None:
                    arrivals.setdefault((sent, body), []).append(Arrival(JITCTX_ROUTE, release))
    return SessionDrift(
        session_id=session_id,
        transcript=rollout,
        releases=tuple(releases),
        files=file_arrivals(arrivals),
        never_arrived=() if partial else tuple(path for path in expected if path not in shown),
        partial=partial,
    )


def _loaded(
    files: CodexFiles, text: str, directory: str, codex_home: str | None, shown: set[str]
) -> list[tuple[str, str]]:
    """(real path, text without frontmatter) of each file one AGENTS.md text of Codex's is made of,
    added to `shown`. A text no run of files makes up (one changed since, one cut at the budget) tells
    which files it holds no more: every file Codex would take on its way counts as shown, none arrived."""
    found = list(files.project_files(text, directory))
    user = files.user_file(text, codex_home) if codex_home is not None else None
    if not found and project_docs(text).strip():
        shown.update(files.candidates(directory))
    found += [user] if user is not None else []
    shown.update(path for path, _ in found)
    return [(path, as_sent(raw)) for path, raw in found]
