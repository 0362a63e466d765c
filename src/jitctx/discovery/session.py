"""A session: the startup load, then one JIT discovery per touched path, with the state that dedups them.

Two sets carry the dedup: loaded files, and fully scanned directories. A directory counts as scanned only
when every candidate on it was resolved; a rule skipped because its scope did not match *this* path leaves
the directory open, so a later path that does match still loads it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jitctx.discovery.boundary import is_inside, nearest_existing, relative_posix
from jitctx.discovery.signals import collect_signals
from jitctx.model import Discovery, InstructionFile, Load, LoadReason, Skip, Startup, Tier
from jitctx.project import Candidate, Project
from jitctx.scope import scope_matches

# Given a conditional file, return the signal or path its scope matched, or None.
Matcher = Callable[[InstructionFile, Candidate], str | None]


@dataclass
class LoadedEntry:
    """What the session remembers of a loaded file, enough to notice it changed or vanished."""

    display: str
    mtime_ns: int
    size: int
    reason: str
    tier: str
    directory: str | None  # the chain directory it was found on; None for rules-folder files


@dataclass
class SessionState:
    loaded: dict[str, LoadedEntry] = field(default_factory=dict)  # real path -> entry, in load order
    scanned: set[str] = field(default_factory=set)  # real directories fully resolved
    identities: set[tuple[int, int]] = field(default_factory=set)  # (device, inode) of loaded files
    started: bool = False
    # The text the agent holds for each loaded file; rebuilt from disk when a session is resumed.
    blocks: dict[str, InstructionFile] = field(default_factory=dict)


@dataclass
class _Pass:
    """Collects the outcome of one startup or discovery pass."""

    loads: list[Load] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    scope_skipped: int = 0
    dropped: list[str] = field(default_factory=list)
    against: str = "the touched path"  # what scopes were matched against, for skip messages

    def final_skips(self) -> tuple[Skip, ...]:
        """One skip per file (the last reason), leaving out files that loaded after all."""
        loaded = {load.file.display for load in self.loads}
        latest = {skip.path: skip for skip in self.skips if skip.path not in loaded}
        return tuple(latest.values())


class Session:
    """One agent session over a project; `channel` state is separate for sub-agents."""

    def __init__(
        self,
        project: Project,
        *,
        cwd: str | os.PathLike[str] | None = None,
        session_id: str = "default",
        use_git: bool = True,
    ) -> None:
        self.project = project
        cwd_path = os.path.realpath(cwd) if cwd is not None else project.root
        self.cwd = cwd_path
        self.session_id = session_id
        self.use_git = use_git
        self.channels: dict[str, SessionState] = {"main": SessionState()}

    # -- persistence (hooks run one process per tool call) -------------------------------------------

    STATE_VERSION = 1

    def to_state(self) -> dict[str, object]:
        """Plain JSON data that `restore` takes back; file texts are not stored, only what identifies them."""
        return {
            "version": self.STATE_VERSION,
            "session_id": self.session_id,
            "root": self.project.root,
            "agent": self.project.profile.name,
            "cwd": self.cwd,
            "channels": {
                name: {
                    "started": state.started,
                    "scanned": sorted(state.scanned),
                    "loaded": [
                        [real, e.display, e.mtime_ns, e.size, e.reason, e.tier, e.directory]
                        for real, e in state.loaded.items()
                    ],
                }
                for name, state in self.channels.items()
            },
        }

    def restore(self, data: dict[str, object]) -> list[str]:
        """Take back a saved state; returns warnings. State for another root or agent is ignored."""
        if data.get("version") != self.STATE_VERSION:
            return [f"session state version {data.get('version')!r} not understood; starting a new session"]
        if data.get("root") != self.project.root or data.get("agent") != self.project.profile.name:
            return ["session state belongs to another project or agent; starting a new session"]
        channels = data.get("channels")
        if not isinstance(channels, dict):
            return ["session state is malformed; starting a new session"]
        restored: dict[str, SessionState] = {}
        try:
            for name, raw in channels.items():
                state = SessionState(started=bool(raw["started"]), scanned=set(raw["scanned"]))
                for real, display, mtime_ns, size, reason, tier, directory in raw["loaded"]:
                    state.loaded[real] = LoadedEntry(
                        display,
                        int(mtime_ns),
                        int(size),
                        LoadReason(reason).value,
                        Tier(tier).value,
                        directory,
                    )
                    outcome = self.project.read(Candidate(real, Tier(tier)))
                    if outcome is not None and outcome.file is not None:
                        state.blocks[real] = outcome.file
                        info = os.stat(real)
                        state.identities.add((info.st_dev, info.st_ino))
                restored[str(name)] = state
        except (KeyError, TypeError, ValueError, OSError):
            return ["session state is malformed; starting a new session"]
        self.channels = restored or {"main": SessionState()}
        return []

    @property
    def started(self) -> bool:
        return self.channels["main"].started if "main" in self.channels else False

    def blocks(self, channel: str = "main") -> list[InstructionFile]:
        """The instruction files this channel currently holds, in load order."""
        state = self.channels.get(channel)
        return list(state.blocks.values()) if state is not None else []

    # -- startup -----------------------------------------------------------------------------------

    def startup(self) -> Startup:
        started = time.perf_counter()
        project = self.project
        state = self.channels["main"]
        work = _Pass(against="any startup signal")
        if not is_inside(self.cwd, project.root):
            work.warnings.append(
                f"cwd {self.cwd} is outside the project root {project.root}; only root-level files load"
            )
            cwd = project.root
        else:
            cwd = self.cwd
        signals = collect_signals(project.root, cwd, use_git=self.use_git)
        work.warnings.extend(signals.warnings)

        def match_signals(file: InstructionFile, candidate: Candidate) -> str | None:
            assert file.scope is not None
            for signal in signals.all:
                if scope_matches(file.scope.regex, self._scope_path(signal, candidate)):
                    return signal
            return None

        for candidate in project.managed_candidates() + project.user_candidates():
            self._resolve(candidate, state, work, LoadReason.SESSION_START, match_signals)
        chain = _chain_down(project.root, cwd)
        for directory in chain:
            self._resolve_dir(directory, state, work, LoadReason.SESSION_START, match_signals)
        for candidate in project.rule_candidates():
            self._resolve(candidate, state, work, LoadReason.SESSION_START, match_signals)
        for directory in chain:
            for candidate in project.local_candidates(directory):
                self._resolve(candidate, state, work, LoadReason.SESSION_START, match_signals)
        # Each changed file is an early touch: its own directory chain is walked as a discovery would.
        for changed in signals.changed:
            real = os.path.realpath(os.path.join(project.root, *changed.split("/")))
            self._walk_from(os.path.dirname(real), changed, state, work, LoadReason.SESSION_START)
        state.started = True
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

    # -- discovery ---------------------------------------------------------------------------------

    def discover(self, path: str, channel: str = "main") -> Discovery:
        """Load what touching `path` (absolute, or relative to the cwd) brings into scope."""
        started = time.perf_counter()
        state = self.channels.setdefault(channel, SessionState())
        work = _Pass()
        note: str | None = None
        if not self.project.config.jit_context:
            note = "runtime discovery is off (jitContext = false)"
        else:
            absolute = os.path.normpath(os.path.join(self.cwd, os.path.expanduser(path)))
            existing, missing = nearest_existing(absolute)
            real_existing = os.path.realpath(existing)
            if not is_inside(real_existing, self.project.root):
                note = f"{path} is outside the project {self.project.root}"
            else:
                is_dir = os.path.isdir(real_existing) if not missing else path.endswith(("/", os.sep))
                real = os.path.join(real_existing, *missing.split("/")) if missing else real_existing
                rel = relative_posix(real, self.project.root)
                if is_dir and rel:
                    rel += "/"
                if missing:
                    nearest = self.project.display(real_existing)
                    note = f"{missing} does not exist yet; discovered from {nearest}"
                start_dir = real_existing if (is_dir or missing) else os.path.dirname(real_existing)
                work.against = f"'{rel}'"
                self._walk_from(start_dir, rel, state, work, None)
        return Discovery(
            trigger=path,
            hit=bool(work.loads),
            loaded=tuple(work.loads),
            scope_skipped=work.scope_skipped,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            channel=channel,
            note=note,
            dropped=tuple(work.dropped),
            skipped=work.final_skips(),
        )

    def discover_many(self, paths: Iterable[str], channel: str = "main") -> list[Discovery]:
        return [self.discover(p, channel) for p in paths]

    def on_tool_call(self, tool_name: str, tool_input: Mapping[str, Any], channel: str = "main") -> Discovery:
        """Discovery for every path a tool call touched, as one result (unknown tools touch nothing)."""
        from jitctx.touched import affected_paths

        steps = self.discover_many(affected_paths(tool_name, tool_input), channel)
        return merge_discoveries(tool_name, steps, channel)

    # -- the walk ----------------------------------------------------------------------------------

    def _walk_from(
        self, start_dir: str, rel: str, state: SessionState, work: _Pass, reason: LoadReason | None
    ) -> None:
        """Walk from `start_dir` up to the root, then check the rules folders, for touched path `rel`."""
        root = self.project.root

        def match_path(file: InstructionFile, candidate: Candidate) -> str | None:
            assert file.scope is not None
            return rel if scope_matches(file.scope.regex, self._scope_path(rel, candidate)) else None

        # Walking up a *resolved* path visits only real directories (every ancestor of a canonical path is
        # canonical), so resolving once here is realpath at every step; walking up the unresolved path
        # instead would let `proj/link -> /elsewhere` pull in /elsewhere's ancestors.
        chain: list[str] = []
        current = os.path.realpath(start_dir)
        while is_inside(current, root):
            chain.append(current)
            if current == root:
                break
            current = os.path.dirname(current)
        for directory in reversed(chain):
            if directory in state.scanned:
                self._refresh_dir(directory, state, work, rel)
                continue
            self._resolve_dir(directory, state, work, reason, match_path)
        for candidate in self.project.rule_candidates():
            self._resolve(candidate, state, work, reason, match_path, unconditional_loads=False)

    def _resolve_dir(
        self, directory: str, state: SessionState, work: _Pass, reason: LoadReason | None, match: Matcher
    ) -> None:
        complete = True
        for candidate in self.project.dir_candidates(directory):
            if not self._resolve(candidate, state, work, reason, match):
                complete = False
        if complete:
            state.scanned.add(directory)

    def _refresh_dir(self, directory: str, state: SessionState, work: _Pass, rel: str) -> None:
        """A scanned directory costs one stat per loaded file on it: enough to notice edits and deletions."""
        for real, entry in list(state.loaded.items()):
            if entry.directory == directory:
                self._refresh(real, entry, state, work, rel)

    def _refresh(self, real: str, entry: LoadedEntry, state: SessionState, work: _Pass, trigger: str) -> None:
        try:
            info = os.stat(real)
        except OSError:
            self._drop(real, entry, state, work)
            return
        if (info.st_mtime_ns, info.st_size) == (entry.mtime_ns, entry.size):
            return
        outcome = self.project.read(Candidate(real, Tier(entry.tier)))
        if outcome is None or outcome.file is None:
            self._drop(real, entry, state, work)
            return
        file = outcome.file
        entry.mtime_ns, entry.size = file.mtime_ns, file.size
        state.blocks[real] = file  # replaces the old text in place: never both versions
        work.loads.append(Load(file, LoadReason(entry.reason), trigger=trigger))

    @staticmethod
    def _drop(real: str, entry: LoadedEntry, state: SessionState, work: _Pass) -> None:
        del state.loaded[real]
        state.blocks.pop(real, None)
        work.dropped.append(entry.display)

    def _resolve(
        self,
        candidate: Candidate,
        state: SessionState,
        work: _Pass,
        reason: LoadReason | None,
        match: Matcher,
        *,
        unconditional_loads: bool = True,
    ) -> bool:
        """Resolve one candidate; False when it must be looked at again on a later touch."""
        real = candidate.path  # its directory is real; a link to elsewhere is refused by Project.read
        entry = state.loaded.get(real)
        if entry is not None:
            if entry.directory is None:
                self._refresh(real, entry, state, work, candidate.path)
            return True
        outcome = self.project.read(candidate)
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
            if not unconditional_loads:
                return True
            self._load(real, candidate, file, state, work, reason or LoadReason.NESTED_TRAVERSAL, None, ())
            return True
        trigger = match(file, candidate)
        if trigger is None:
            work.scope_skipped += 1
            patterns = list(file.scope.patterns)
            work.skips.append(Skip(file.display, f"scope {patterns} does not match {work.against}"))
            return False
        self._load(
            real,
            candidate,
            file,
            state,
            work,
            reason or LoadReason.PATH_GLOB_MATCH,
            trigger,
            file.scope.patterns,
        )
        return True

    def _load(
        self,
        real: str,
        candidate: Candidate,
        file: InstructionFile,
        state: SessionState,
        work: _Pass,
        reason: LoadReason,
        trigger: str | None,
        globs: tuple[str, ...],
    ) -> None:
        # Two names for one file (case-insensitive disks, hard links) load once.
        try:
            info = os.stat(real)
        except OSError:
            return
        identity = (info.st_dev, info.st_ino)
        if identity in state.identities:
            return
        state.identities.add(identity)
        state.loaded[real] = LoadedEntry(
            file.display, file.mtime_ns, file.size, reason.value, file.tier.value, candidate.directory
        )
        state.blocks[real] = file
        work.loads.append(Load(file, reason, trigger=trigger, globs=globs))

    def _scope_path(self, rel: str, candidate: Candidate) -> str:
        """Project scopes match paths relative to the root; user and managed rules, relative to the cwd."""
        if candidate.base == "root":
            return rel
        trailing = "/" if rel.endswith("/") else ""
        absolute = os.path.join(self.project.root, *rel.rstrip("/").split("/"))
        return os.path.relpath(absolute, self.cwd).replace(os.sep, "/") + trailing


def merge_discoveries(trigger: str, steps: list[Discovery], channel: str = "main") -> Discovery:
    """Several discoveries (one tool call touching several paths) as one."""
    if len(steps) == 1:
        return steps[0]
    notes = [f"{step.trigger}: {step.note}" for step in steps if step.note]
    return Discovery(
        trigger=", ".join(step.trigger for step in steps) or trigger,
        hit=any(step.hit for step in steps),
        loaded=tuple(load for step in steps for load in step.loaded),
        scope_skipped=sum(step.scope_skipped for step in steps),
        elapsed_ms=sum(step.elapsed_ms for step in steps),
        channel=channel,
        note="; ".join(notes) if notes else (None if steps else f"{trigger} touched no path"),
        dropped=tuple(d for step in steps for d in step.dropped),
        skipped=tuple(s for step in steps for s in step.skipped),
    )


def _chain_down(root: str, cwd: str) -> list[str]:
    """Directories from the root down to the cwd, root first."""
    chain = [cwd]
    current = cwd
    while current != root:
        current = os.path.dirname(current)
        chain.append(current)
        if os.path.dirname(current) == current:
            break
    return list(reversed(chain))
