"""Resolving one candidate of a session: read it, decide whether it loads for this touch, record the load.

The session (`jitctx.discovery.session`) decides *which* candidates to look at; these functions decide
what each one brings, and keep the channel state and the pass's outcome in step.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from jitctx.discovery.includes import include_imports
from jitctx.discovery.state import ChannelState, LoadedEntry, Pass
from jitctx.model import InstructionFile, Load, LoadReason, Scope, Skip, Tier
from jitctx.project import Candidate, Project

# Given a scope, return the signal or path it matched, or None.
Matcher = Callable[[Scope, Candidate], str | None]


def refresh(project: Project, path: str, state: ChannelState, work: Pass, trigger: str) -> None:
    """Re-read a loaded file whose mtime or size changed; drop it when it is gone."""
    entry = state.loaded[path]
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is not None and (info.st_mtime_ns, info.st_size) == (entry.mtime_ns, entry.size):
        return
    outcome = project.read(Candidate(path, Tier(entry.tier))) if info is not None else None
    if outcome is None or outcome.file is None:
        state.drop(path)
        work.dropped.append(entry.display)
        return
    file = outcome.file
    entry.mtime_ns, entry.size, entry.body_bytes = file.mtime_ns, file.size, file.body_bytes
    state.blocks[path] = file  # replaces the old text in place: never both versions
    globs = file.scope.patterns if file.scope is not None else ()
    work.loads.append(Load(file, LoadReason(entry.reason), trigger=trigger, globs=globs, updated=True))
    include_imports(project, file, state, work)


def resolve(
    project: Project,
    candidate: Candidate,
    state: ChannelState,
    work: Pass,
    reason: LoadReason | None,
    match: Matcher,
) -> bool:
    """Resolve one candidate; False when it must be looked at again on a later touch."""
    if candidate.path in state.loaded:
        return True
    outcome = project.read(candidate)
    if outcome is None:
        return True
    if outcome.skip is not None:
        work.skips.append(outcome.skip)
        work.warnings.append(f"{outcome.skip.path}: {outcome.skip.why}")
        return False
    file = outcome.file
    assert file is not None
    work.warnings.extend(file.warnings)
    if file.scope_error is not None:
        work.skips.append(Skip(file.display, f"not injected: {file.scope_error}"))
        return False
    if file.manual:
        work.skips.append(Skip(file.display, "applies only on request (no scope and not always-apply)"))
        return True
    if file.scope is None:
        load(project, candidate, file, state, work, reason or LoadReason.NESTED_TRAVERSAL, None)
        return True
    trigger = match(file.scope, candidate)
    if trigger is None:
        work.scope_skipped += 1
        patterns = list(file.scope.patterns)
        work.skips.append(Skip(file.display, f"scope {patterns} does not match {work.against}"))
        return False
    load(project, candidate, file, state, work, reason or LoadReason.PATH_GLOB_MATCH, trigger)
    return True


def load(
    project: Project,
    candidate: Candidate,
    file: InstructionFile,
    state: ChannelState,
    work: Pass,
    reason: LoadReason,
    trigger: str | None,
) -> None:
    identity = state.new_identity(candidate.path)
    if identity is None:
        return
    entry = LoadedEntry(
        file.display,
        file.mtime_ns,
        file.size,
        reason.value,
        file.tier.value,
        candidate.directory,
        file.body_bytes,
    )
    state.add(candidate.path, entry, identity, file)
    if file.body_bytes > project.max_bytes:
        work.warnings.append(
            f"{file.display}: {file.body_bytes:,} bytes is over the whole budget of "
            f"{project.max_bytes:,} bytes by itself; it will be cut and push out broader files"
        )
    globs = file.scope.patterns if file.scope is not None else ()
    work.loads.append(Load(file, reason, trigger=trigger, globs=globs))
    include_imports(project, file, state, work)
