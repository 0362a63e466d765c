"""Replay a recorded Claude Code session through JIT discovery: what would have loaded, at which turn,
and at what cost against loading every instruction file at the start.

The transcript is read by `telemetry.transcript`; its tool calls run, in order, through a fresh session.

Bytes per turn: the request that produced turn k carried what its channel held *before* turn k's tool
calls ran (their discoveries reach the model with the tool results, in request k+1). Full load sends every
instruction file of the project, with its imports, on every turn. User-level files are left out of both.

Writes before their rules (DESIGN §2.11): for each file a tool call wrote (a write tool's paths, a shell
command's certain write targets), the instruction files that apply to it and reached the model only after
it: those its channel did not hold before the turn (a turn's loads reach the model with its tool results,
after every call of the turn ran). This is what JIT discovery alone gives, without holding, whatever the
recorded session had: the transcript does not say what its own hook sent. A write tool is only known from
the table the caller passes (`write_tools`); without one the replay does not count writes at all. A write
call counts whether or not it succeeded.

Where the transcript records what Claude Code itself attached (`instructions` and `nested_memory`
attachment lines, see `replay_host`), the replay also compares with that, instead of with a simulation of
the host: what the host carried per turn, the files only it loaded, the files only JIT loads; and where the
assistant lines carry the API's `usage`, the real token counts of each turn.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from jitctx.discovery.session import Session
from jitctx.imports import expand
from jitctx.model import Discovery, InstructionFile, Load, Startup
from jitctx.paths import is_inside
from jitctx.project import Project
from jitctx.telemetry.events import channel_of
from jitctx.telemetry.replay_host import Usage, total_usage
from jitctx.telemetry.transcript import Transcript, Turn
from jitctx.tokens import estimate_tokens
from jitctx.touched.calls import touched_and_written

__all__ = [
    "HostLoad",
    "HostReplay",
    "Observer",
    "Replay",
    "ReplayedLoad",
    "ReplayedWrite",
    "Size",
    "TurnReplay",
    "full_load",
    "host_side",
    "measure",
    "replay",
    "total",
]

# Sees the session after its start (turn None) and after each discovery, with the writes of the touched
# path (`--record` writes events).
Observer = Callable[["Session", Startup | Discovery, "Turn | None", "tuple[ReplayedWrite, ...]"], object]


class Size(NamedTuple):
    bytes: int
    tokens: int  # estimated (jitctx.tokens)


@dataclass(frozen=True)
class ReplayedLoad:
    path: str  # relative to the root
    reason: str
    turn: int  # 0: session start
    channel: str  # "main" | "subagent"
    trigger: str | None
    size: Size


@dataclass(frozen=True)
class ReplayedWrite:
    """A file one tool call wrote, and the instruction files that apply to it and came after it."""

    path: str  # relative to the root; absolute when outside the project
    turn: int
    channel: str  # "main" | "subagent"
    tool: str
    late: tuple[str, ...]  # the files' paths relative to the root, in load order

    @property
    def rules_before(self) -> bool:
        return not self.late


@dataclass(frozen=True)
class TurnReplay:
    turn: Turn
    kind: str  # "main" | "subagent"
    discoveries: int  # one per touched path
    hits: int
    loads: tuple[ReplayedLoad, ...]
    sent: Size  # what the request of this turn carried
    held: Size  # what the channel holds after this turn's tool calls
    host_sent: Size | None = None  # what Claude Code's own attachments weighed in that request
    writes: tuple[ReplayedWrite, ...] = ()


@dataclass(frozen=True)
class HostLoad:
    """A file Claude Code attached itself, as the transcript records it."""

    path: str  # relative to the root; absolute when outside the project (user-level files)
    reason: str
    turn: int  # 0: session start
    channel: str  # "main" | "subagent"
    memory_type: str
    inside: bool
    size: Size


@dataclass(frozen=True)
class HostReplay:
    """What Claude Code really loaded, against what the JIT replay loads (project files only)."""

    loads: tuple[HostLoad, ...]
    only_host: tuple[str, ...]  # loaded by Claude Code, never by the JIT replay
    only_jit: tuple[str, ...]  # loaded by the JIT replay, never by Claude Code (AGENTS.md, ...)
    both: tuple[str, ...]


@dataclass(frozen=True)
class Replay:
    transcript: Transcript
    root: str
    cwd: str  # relative to the root, "." for the root
    agent: str
    startup: tuple[ReplayedLoad, ...]
    turns: tuple[TurnReplay, ...]
    full_load: Size  # per turn
    full_load_files: int
    warnings: tuple[str, ...]
    host: HostReplay | None = None  # None: the transcript records no attachments
    writes_known: bool = False  # the replay knew which tools write (see the module docstring)

    @property
    def host_total(self) -> Size | None:
        """What Claude Code's own instruction files weighed over every turn's request."""
        if self.host is None:
            return None
        return total(t.host_sent or Size(0, 0) for t in self.turns)

    @property
    def usage(self) -> Usage | None:
        """The API's token counts over every turn, where the transcript records them."""
        return total_usage(t.turn.usage for t in self.turns)

    def count(self, kind: str | None = None) -> tuple[int, int, int, int]:
        """(turns, tool calls, discoveries, hits), of one channel kind or of all."""
        chosen = [t for t in self.turns if kind is None or t.kind == kind]
        calls = sum(len(t.turn.calls) for t in chosen)
        return len(chosen), calls, sum(t.discoveries for t in chosen), sum(t.hits for t in chosen)

    @property
    def writes(self) -> tuple[ReplayedWrite, ...] | None:
        """Every write of the transcript, in order; None when the replay could not tell its writes."""
        if not self.writes_known:
            return None
        return tuple(write for turn in self.turns for write in turn.writes)

    @property
    def jit_total(self) -> Size:
        return total(t.sent for t in self.turns)

    @property
    def full_total(self) -> Size:
        return Size(self.full_load.bytes * len(self.turns), self.full_load.tokens * len(self.turns))


def total(sizes: Iterable[Size]) -> Size:
    listed = list(sizes)
    return Size(sum(s.bytes for s in listed), sum(s.tokens for s in listed))


def measure(files: Iterable[InstructionFile]) -> Size:
    """Body bytes and estimated tokens of instruction files, as a session sends them."""
    return total(Size(f.body_bytes, estimate_tokens(f.text)) for f in files)


def full_load(project: Project) -> tuple[list[InstructionFile], list[str]]:
    """Every instruction file of the project, then what they import, each once; and the warnings."""
    files, skips = project.all_instruction_files()
    chosen = {file.path: file for file in files}
    for file in files:
        if not project.profile.imports or "@" not in file.text:
            continue
        config = project.config
        expansion = expand(
            file.text,
            file.path,
            root=project.root,
            max_depth=config.import_depth,
            allow_outside=config.allow_outside_imports,
            first_line=file.body_line,
            display=project.display,
        )
        for found in expansion.included:
            if found.path is not None and found.path not in chosen:
                shown, text = found.display or found.path, found.text or ""
                chosen[found.path] = InstructionFile(found.path, shown, file.tier, text, found.size or 0, 0)
    return list(chosen.values()), [f"{skip.path}: {skip.why}" for skip in skips]


def replay(
    transcript: Transcript,
    project: Project,
    *,
    observe: Observer | None = None,
    write_tools: frozenset[str] | None = None,
) -> Replay:
    """Run the transcript's tool calls, in order, through a fresh session over `project`, one discovery
    per touched path. The session starts in the transcript's cwd when that is inside the project, else
    at the root, with session id `replay:<the transcript's id>`. `write_tools`: the tool names whose
    touched paths are files they write (a shell's writes are read from its command); None: writes are
    not counted."""
    recorded = os.path.realpath(transcript.cwd) if transcript.cwd else None
    cwd = recorded if recorded is not None and is_inside(recorded, project.root) else project.root
    session_id = f"replay:{transcript.session_id}"
    session = Session(project, cwd=cwd, session_id=session_id, use_git=False)
    holding: dict[str, Size] = {}  # per channel, measured again only when a discovery changed it

    def held(channel: str) -> Size:
        if channel not in holding:
            holding[channel] = measure(session.blocks(channel))
        return holding[channel]

    def replayed(loads: tuple[Load, ...], turn: int, channel: str) -> tuple[ReplayedLoad, ...]:
        kind = channel_of(channel)[0]
        return tuple(
            ReplayedLoad(load.file.display, load.reason.value, turn, kind, load.trigger, measure([load.file]))
            for load in loads
        )

    started = session.startup()
    if observe is not None:
        observe(session, started, None, ())
    warnings = list(started.warnings)
    turns: list[TurnReplay] = []
    for turn in transcript.turns:
        sent, discoveries, hits = held(turn.channel), 0, 0
        kind = channel_of(turn.channel)[0]
        loads: list[ReplayedLoad] = []
        writes: list[ReplayedWrite] = []
        arrived: dict[str, str] = {}  # loaded in this turn, so far: real path -> shown path
        for call in turn.calls:
            paths, shell_written = touched_and_written(call.name, call.input)
            written = () if write_tools is None else paths if call.name in write_tools else shell_written
            for path in paths:
                found = session.discover(path, turn.channel)
                if found.loaded or found.dropped:
                    holding.pop(turn.channel, None)
                discoveries, hits = discoveries + 1, hits + found.hit
                loads.extend(replayed(found.loaded, turn.number, turn.channel))
                warnings.extend(found.warnings)
                wrote: tuple[ReplayedWrite, ...] = ()
                if path in written:
                    late = _late(project, session.cwd, path, arrived, found.loaded)
                    target = _shown(project, session.cwd, path)
                    wrote = (ReplayedWrite(target, turn.number, kind, call.name, late),)
                    writes.extend(wrote)
                arrived.update((load.file.path, load.file.display) for load in found.loaded)
                if observe is not None:
                    observe(session, found, turn, wrote)
        turns.append(
            TurnReplay(
                turn, kind, discoveries, hits, tuple(loads), sent, held(turn.channel), writes=tuple(writes)
            )
        )
    everything, full_warnings = full_load(project)
    startup = replayed(started.loaded, 0, "main")
    host = None
    if transcript.host_recorded:
        host, sizes = host_side(transcript, project.root, [*startup, *(x for t in turns for x in t.loads)])
        turns = [replace(t, host_sent=size) for t, size in zip(turns, sizes, strict=True)]
    return Replay(
        transcript=transcript,
        root=project.root,
        cwd=started.cwd,
        agent=project.profile.name,
        startup=startup,
        turns=tuple(turns),
        full_load=measure(everything),
        full_load_files=len(everything),
        warnings=tuple(dict.fromkeys([*warnings, *full_warnings])),
        host=host,
        writes_known=write_tools is not None,
    )


def host_side(
    transcript: Transcript, root: str, jit: Iterable[ReplayedLoad]
) -> tuple[HostReplay, list[Size]]:
    """Claude Code's own loads, relative to `root`, and what they weighed in each turn's request: the
    files its channel had been given before the turn (a file sent again replaces its earlier text)."""
    loads: list[HostLoad] = []
    for file in transcript.host_files:
        real = os.path.realpath(file.path)
        inside = is_inside(real, root)
        shown = os.path.relpath(real, root).replace(os.sep, "/") if inside else file.path
        size = Size(len(file.text.encode("utf-8")), estimate_tokens(file.text))
        kind = channel_of(file.channel)[0]
        loads.append(HostLoad(shown, file.reason, file.after_turn, kind, file.memory_type, inside, size))
    sizes: list[Size] = []
    for turn in transcript.turns:
        held: dict[str, Size] = {}
        for file, load in zip(transcript.host_files, loads, strict=True):
            if file.channel != turn.channel or file.after_turn >= turn.number:
                continue
            if file.replaces is not None:
                held.pop(file.replaces, None)
            held[file.path] = load.size
        sizes.append(total(held.values()))
    host_paths = list(dict.fromkeys(load.path for load in loads if load.inside))
    jit_paths = list(dict.fromkeys(load.path for load in jit))
    host = HostReplay(
        loads=tuple(loads),
        only_host=tuple(p for p in host_paths if p not in jit_paths),
        only_jit=tuple(p for p in jit_paths if p not in host_paths),
        both=tuple(p for p in host_paths if p in jit_paths),
    )
    return host, sizes


def _late(
    project: Project, cwd: str, path: str, arrived: dict[str, str], loaded: tuple[Load, ...]
) -> tuple[str, ...]:
    """The instruction files that apply to the written `path` and reach the model only after the write:
    those its own discovery loaded, and those an earlier call of the same turn loaded (`arrived`) that a
    session of its own, holding nothing yet, loads on touching `path` (the replayed one is left alone)."""
    own = [load.file.display for load in loaded]
    if not arrived:
        return tuple(own)
    fresh = Session(project, cwd=cwd, session_id="replay:rules", use_git=False)
    applies = {load.file.path for load in fresh.discover(path).loaded}
    earlier = [shown for real, shown in arrived.items() if real in applies]
    return tuple(dict.fromkeys([*earlier, *own]))


def _shown(project: Project, cwd: str, path: str) -> str:
    """A written path as the records show it: relative to the root inside the project."""
    try:
        return project.display(os.path.realpath(os.path.join(cwd, path)))
    except (OSError, ValueError):  # not a usable path (its discovery noted it): as the call gave it
        return path
