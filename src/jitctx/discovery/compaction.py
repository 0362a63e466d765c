"""After a host compacted its context: which of the blocks a channel holds go again, as `compact` loads.

Hosts drop what arrived during the session when they compact. A host that re-reads some files by itself
afterwards gets only the rest. An import shares the fate of the file that imported it, which comes right
before it in load order.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from jitctx.discovery.state import ChannelState
from jitctx.model import InstructionFile, Load, LoadReason
from jitctx.project import Project


def native_reloads(project: Project, state: ChannelState) -> Callable[[InstructionFile], bool]:
    """What a host re-reads by itself unless told otherwise: the profile's own file names among what
    loaded at session start."""
    native = set(project.profile.native_files)

    def host_reloads(file: InstructionFile) -> bool:
        entry = state.loaded[file.path]
        return entry.reason == LoadReason.SESSION_START.value and os.path.basename(file.path) in native

    return host_reloads


def drop_gone(state: ChannelState) -> None:
    """A file that is gone is not sent again; after compaction the agent does not hold it either, so it
    leaves the session now (no later "left this session" note about it)."""
    for path in [path for path in state.loaded if not os.path.exists(path)]:
        state.drop(path)


def to_resend(
    state: ChannelState, held: list[InstructionFile], host_reloads: Callable[[InstructionFile], bool]
) -> list[Load]:
    """The `compact` loads for `held` (the channel's blocks in load order), leaving out what the host
    reloads and the imports of what it reloads."""
    resend: list[Load] = []
    reloaded = False
    for file in held:
        entry = state.loaded[file.path]
        if entry.reason != LoadReason.INCLUDE.value:
            reloaded = host_reloads(file)
        if not reloaded:
            resend.append(Load(file, LoadReason.COMPACT))
    return resend
