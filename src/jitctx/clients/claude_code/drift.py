"""One session's drift, read from its Claude Code transcript: the instruction files whose same text reached
the main thread more than once since the last compaction (the client's own load and jitctx's block, or
either twice), and the files jitctx recorded as loaded by the client (`host_loaded`) that the client never
showed loading.

The transcript is `<config>/projects/<folder>/<session id>.jsonl`, where <config> is $CLAUDE_CONFIG_DIR or
~/.claude; the folder is the launch folder with every character but letters and digits replaced by `-`,
cut and suffixed with a hash when long, or $CLAUDE_CODE_PROJECT_DIR_NAME (2.1.332). Rather than rebuild
that name, every folder of projects/ is asked for the session's file. The records are read by
`evidence.sightings`, the hook's own reading, so that the report and the hook never disagree on what a
record shows: a hook context counts as jitctx's only when it is one of jitctx's own answers. The blocks
of an answer are told apart by their headers here (the hook proves each one against its file's current
text instead, which a report of past versions cannot). Only a regular file is read, at most DRIFT_BYTES
of its end, whole lines only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

from jitctx.clients.claude_code.evidence import _body, is_compaction, main_record, sightings
from jitctx.clients.claude_code.transcript import _read
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

DRIFT_BYTES = 8 * 1024 * 1024
# Claude Code's session ids are UUIDs; anything else (a replay's id, a path) names no transcript file.
_SESSION_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,127}")
_RELEASE = re.compile(r"\d{1,4}\.\d{1,4}\.\d{1,6}(?:[-+][0-9A-Za-z.-]{1,40})?")


def session_drift(
    session_id: str,
    root: str,
    host_loaded: Iterable[str],
    home: str | None,
    environ: Mapping[str, str],
) -> SessionDrift:
    """The drift of one session, or a SessionDrift without a transcript when none is found."""
    transcript = find_transcript(session_id, home, environ)
    read = _whole_lines(transcript) if transcript is not None else None
    if transcript is None or read is None:
        return SessionDrift(session_id, None)
    lines, partial = read
    return drift_of_lines(session_id, transcript, lines, root, host_loaded, partial=partial)


def find_transcript(session_id: str, home: str | None, environ: Mapping[str, str]) -> str | None:
    """The session's transcript file, in the config folder of the environment, then in ~/.claude."""
    if not _SESSION_ID.fullmatch(session_id):
        return None
    name = session_id + ".jsonl"
    for config in _config_dirs(home, environ):
        try:
            with os.scandir(os.path.join(config, "projects")) as entries:
                folders = sorted(entry.path for entry in entries if entry.is_dir(follow_symlinks=False))
        except OSError:
            continue
        for folder in folders:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
    return None


def _config_dirs(home: str | None, environ: Mapping[str, str]) -> list[str]:
    found = []
    configured = environ.get("CLAUDE_CONFIG_DIR", "")
    if os.path.isabs(configured):
        found.append(configured)
    if home:
        found.append(os.path.join(home, ".claude"))
    return list(dict.fromkeys(found))


def _whole_lines(transcript: str) -> tuple[list[bytes], bool] | None:
    """The transcript's lines (its last DRIFT_BYTES when longer, then `partial`); None when unreadable."""
    read = _read(transcript, 0, DRIFT_BYTES + 1)
    if read is None:
        return None
    data = read[1]
    partial = len(data) > DRIFT_BYTES
    if partial:
        data = data[data.find(b"\n") + 1 :]  # the first line is cut: not a record
    data = data[: data.rfind(b"\n") + 1]  # the last may be half written
    return data.split(b"\n"), partial


def drift_of_lines(
    session_id: str,
    transcript: str,
    lines: Iterable[bytes],
    root: str,
    host_loaded: Iterable[str],
    *,
    partial: bool = False,
) -> SessionDrift:
    """The drift shown by these transcript lines, oldest first."""
    paths = PathResolver()
    real = (paths.real(path) for path in host_loaded)
    expected = list(dict.fromkeys(path for path in real if path is not None))
    releases: list[str] = []
    shown: set[str] = set()  # every file the client showed, before a compaction too
    instruction_files: set[str] = set(expected)
    # Since the last compaction: (path, version text) -> arrivals, in order; and the client's notices of
    # changed files, which count only for instruction files (any file it tracks can change).
    arrivals: dict[tuple[str, str], list[Arrival]] = {}
    changes: list[tuple[str, str, Arrival]] = []
    answers: set[str] = set()  # what jitctx's own hook printed
    for line in lines:
        record = main_record(line) if line.strip() else None
        if record is None:
            continue
        release = record.get("version")
        release = release if isinstance(release, str) and _RELEASE.fullmatch(release) else None
        if release is not None and release not in releases:
            releases.append(release)
        if is_compaction(record):
            arrivals.clear()  # the conversation after it no longer holds what came before
            changes.clear()
            continue
        for sighting in sightings(record, paths):
            if sighting.kind == "answer":
                answers.add(sighting.key)
                continue
            if sighting.kind == "context":
                for header, body in jitctx_blocks(sighting.key) if sighting.key in answers else ():
                    path = block_path(header, root, paths)
                    if path is not None:
                        instruction_files.add(path)
                        text = _body(body).strip()
                        arrivals.setdefault((path, text), []).append(Arrival(JITCTX_ROUTE, release))
                continue
            if sighting.kind == "tracked" or not sighting.texts:
                continue
            text = _body(sighting.texts[0]).strip()
            shown.add(sighting.key)
            arrival = Arrival(CLIENT_ROUTE, release)
            if sighting.kind == "changed":
                changes.append((sighting.key, text, arrival))
            else:
                instruction_files.add(sighting.key)
                arrivals.setdefault((sighting.key, text), []).append(arrival)
    for path, text, arrival in changes:
        if path in instruction_files:
            arrivals.setdefault((path, text), []).append(arrival)
    return SessionDrift(
        session_id=session_id,
        transcript=transcript,
        releases=tuple(releases),
        files=file_arrivals(arrivals),
        never_arrived=() if partial else tuple(path for path in expected if path not in shown),
        partial=partial,
    )
