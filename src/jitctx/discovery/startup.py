"""What loads at the start of a session or a sub-agent (§2.3): every unconditional file on the way from the
root to the cwd, and the conditional ones a *startup signal* matches (the cwd's directory marker, the
changed files git reports under the cwd). Each changed file is also an early touch: its chain is walked as
a discovery would walk it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from jitctx.discovery.chains import chain_down, scope_path
from jitctx.discovery.resolve import load, resolve
from jitctx.discovery.signals import collect_signals
from jitctx.discovery.state import ChannelState, Pass
from jitctx.model import Load, LoadReason, Scope, Startup
from jitctx.paths import is_inside, relative_posix
from jitctx.project import Candidate, Project
from jitctx.scope import scope_matches

if TYPE_CHECKING:
    from jitctx.discovery.session import Session


def load_pinned(project: Project, candidate: Candidate, state: ChannelState, work: Pass) -> None:
    """A file of `[pin] paths` loads at every start whatever its scope says: the config keeps it in
    context. One that cannot be read is a warning, never a stop."""
    if candidate.path in state.loaded:
        return
    outcome = project.read(candidate)
    if outcome is None:
        work.warnings.append(f"[pin] {relative_posix(candidate.path, project.root)}: no such file")
        return
    if outcome.skip is not None or outcome.file is None:
        why = outcome.skip.why if outcome.skip is not None else "unreadable"
        work.warnings.append(f"[pin] {relative_posix(candidate.path, project.root)}: {why}")
        return
    before = len(work.loads)
    load(project, candidate, outcome.file, state, work, LoadReason.SESSION_START, None)
    if len(work.loads) > before:
        work.loads[before] = replace(work.loads[before], pinned=True)


def load_startup(session: Session, channel: str, left_to_host: Callable[[Load], bool] | None) -> Startup:
    """See `Session.startup`."""
    started = time.perf_counter()
    project = session.project
    state = session.channels.setdefault(channel, ChannelState())
    work = Pass(against="any startup signal")
    cwd = session.cwd
    if not is_inside(cwd, project.root):
        work.warnings.append(f"cwd {cwd} is outside the project root {project.root}; only root files load")
        cwd = project.root
    signals = collect_signals(project.root, cwd, use_git=session.use_git)
    work.warnings.extend(signals.warnings)

    def match_signals(scope: Scope, candidate: Candidate) -> str | None:
        for signal in signals.all:
            target = scope_path(signal, candidate, project.root, session.cwd)
            if target is not None and scope_matches(scope.regex, target):
                return signal
        return None

    reason = LoadReason.SESSION_START
    for candidate in project.managed_candidates() + project.user_candidates():
        resolve(project, candidate, state, work, reason, match_signals)
    chain = session.chains.capped(chain_down(project.root, cwd), work.warnings)
    for directory in chain:
        session.resolve_dir(directory, state, work, reason, match_signals)
    for candidate in project.rule_candidates():
        resolve(project, candidate, state, work, reason, match_signals)
    for directory in chain:
        for candidate in project.local_candidates(directory):
            resolve(project, candidate, state, work, reason, match_signals)
    for candidate in project.pinned_candidates():
        load_pinned(project, candidate, state, work)
    for changed in signals.changed:
        real = os.path.realpath(os.path.join(project.root, *changed.split("/")))
        before = len(work.loads)
        session.walk_from(os.path.dirname(real), changed, state, work, reason)
        # Name the change that brought them, also for unconditional files on its chain.
        work.loads[before:] = [
            load if load.trigger is not None else replace(load, trigger=changed)
            for load in work.loads[before:]
        ]
    state.started = True
    if left_to_host is not None:
        # A pinned file is in context from the start, not when the host would come to it.
        later = {load.file.path for load in work.loads if not load.pinned and left_to_host(load)}
        for path in later:
            state.forget(path)
        work.loads[:] = [load for load in work.loads if load.file.path not in later]
    return Startup(
        root=project.root,
        cwd=relative_posix(cwd, project.root) or ".",
        agent=project.profile.name,
        signals=signals.all,
        loaded=tuple(work.loads),
        skipped=work.final_skips(),
        warnings=tuple(dict.fromkeys([*project.config.warnings, *work.warnings])),
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )
