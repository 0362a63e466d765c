"""A session: the startup load, then one JIT discovery per touched path, with the state that dedups them.

Two sets carry the dedup: loaded files, and fully scanned directories. A directory counts as scanned only
when every candidate on it was resolved; a rule skipped because its scope did not match *this* path leaves
the directory open, so a later path that does match still loads it.

The warm path (a touched directory already scanned) costs one lstat of the touched path, one stat per
loaded file on its chain (to notice edits and deletions), one or two per chain directory (to notice a file
created there, see `Project.listing_paths`), and a regex match per scoped rule.

Which directories a touch walks, and what each scope is matched against, is `chains`; what one candidate
brings (read, match, load, refresh) is `resolve`; this module decides what to look at, and when.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jitctx.discovery.boundary import is_inside, nearest_existing, relative_posix
from jitctx.discovery.chains import Chains, chain_down, scope_path
from jitctx.discovery.quick import unchanged, watch_list
from jitctx.discovery.resolve import Matcher, refresh, resolve
from jitctx.discovery.restored import may_name, readable_where_loaded, trusted_mark
from jitctx.discovery.rule_table import RuleTable, ScopeCache, build_rule_table
from jitctx.discovery.signals import collect_signals
from jitctx.discovery.state import (
    READABLE_VERSIONS,
    STATE_VERSION,
    ChannelState,
    Pass,
    channels_from_json,
    channels_to_json,
)
from jitctx.model import Discovery, InstructionFile, Load, LoadReason, Scope, Skip, Startup, Tier
from jitctx.project import Candidate, Project
from jitctx.scope import scope_matches
from jitctx.walk import MAX_DEPTH

if TYPE_CHECKING:
    from jitctx.discovery.marks import Watch

# (marks id, directory) -> the stored mark of that directory, as decoded from disk (see restore).
MarkReader = Callable[[str, str], object]

# How long a long-lived session trusts a directory's watch list once compared (see `_watched_lately`).
WATCH_RECHECK_NS = 1_000_000_000


class Session:
    """One agent session over a project; each channel (main, subagent) has its own state."""

    def __init__(
        self,
        project: Project,
        *,
        cwd: str | os.PathLike[str] | None = None,
        session_id: str = "default",
        use_git: bool = True,
    ) -> None:
        self.project = project
        self.cwd = os.path.realpath(cwd) if cwd is not None else project.root
        self.session_id = session_id
        self.use_git = use_git
        self.channels: dict[str, ChannelState] = {"main": ChannelState()}
        self.chains = Chains(project.root)
        self._fallbacks: tuple[str, ...] | None = None  # see _fallback_candidates
        # Parsed scopes of the rules folders, by file version; saved with the session (see rule_table).
        self.scope_cache: ScopeCache = {}
        self._rules: RuleTable | None = None
        self._swept: set[int] = set()  # channel states whose off-chain files were checked in this process
        # (channel state, directory) -> when its watch list was last compared, in this process.
        self._watched: dict[tuple[int, str], int] = {}
        # Files named by a restored state whose real path is not checked yet (see `_vouch`).
        self._unvouched: set[str] = set()

    def rule_table(self) -> RuleTable:
        """The scoped rules, built once per process (a stat each); edits are seen by the next process."""
        if self._rules is None:
            self._rules = build_rule_table(self.project, self.scope_cache)
        return self._rules

    @property
    def started(self) -> bool:
        return self.started_in("main")

    def started_in(self, channel: str) -> bool:
        return channel in self.channels and self.channels[channel].started

    def blocks(self, channel: str = "main") -> list[InstructionFile]:
        """The instruction files this channel currently holds, in load order.

        A resumed session reads their texts here, on first use, rather than on every resume.
        """
        state = self.channels.get(channel)
        if state is None:
            return []
        for path, entry in list(state.loaded.items()):
            if path not in state.blocks and self._vouch(path, state):
                outcome = self.project.read(Candidate(path, Tier(entry.tier)))
                if outcome is not None and outcome.file is not None:
                    state.blocks[path] = outcome.file
                    # What is handed out now is the version the session holds from here on.
                    entry.mtime_ns, entry.size = outcome.file.mtime_ns, outcome.file.size
                    entry.body_bytes = outcome.file.body_bytes
        return [state.blocks[path] for path in state.loaded if path in state.blocks]

    def after_compaction(
        self, channel: str = "main", host_reloads: Callable[[InstructionFile], bool] | None = None
    ) -> list[Load]:
        """The blocks to send again after the host compacted its context, as `compact` loads.

        Hosts drop what arrived during the session when they compact. A host that re-reads some files by
        itself afterwards gets only the rest: `host_reloads(file)` says which (default: the profile's own
        file names among what loaded at session start). An import shares the fate of the file that
        imported it, which comes right before it in load order.
        """
        state = self.channels.get(channel)
        if state is None:
            return []
        if host_reloads is None:
            native = set(self.project.profile.native_files)

            def host_reloads(file: InstructionFile) -> bool:
                entry = state.loaded[file.path]
                return (
                    entry.reason == LoadReason.SESSION_START.value and os.path.basename(file.path) in native
                )

        # A file that is gone is not sent again; after compaction the agent does not hold it either, so it
        # leaves the session now (no later "left this session" note about it).
        for path in [path for path in state.loaded if not os.path.exists(path)]:
            state.drop(path)
        held = self.blocks(channel)
        resend: list[Load] = []
        reloaded = False
        for file in held:
            entry = state.loaded[file.path]
            if entry.reason != LoadReason.INCLUDE.value:
                reloaded = host_reloads(file)
            if not reloaded:
                resend.append(Load(file, LoadReason.COMPACT))
        return resend

    # -- persistence (hooks run one process per tool call) -------------------------------------------

    def to_state(self) -> dict[str, object]:
        """Plain JSON data that `restore` takes back; texts are not stored, only what identifies files."""
        return {
            "version": STATE_VERSION,
            "session_id": self.session_id,
            "root": self.project.root,
            "agent": self.project.profile.name,
            "cwd": self.cwd,
            "channels": channels_to_json(self.channels),
            "scopes": self.scope_cache,
        }

    def restore(self, data: dict[str, object], marks: MarkReader | None = None) -> list[str]:
        """Take back a saved state; returns warnings. State for another root or agent is ignored.

        `marks(marks_id, directory)` fetches one stored mark (see `jitctx.discovery.marks`); each is read
        when a touch first asks for its directory, and checked then."""
        if data.get("version") not in READABLE_VERSIONS:
            return [f"session state version {data.get('version')!r} not understood; starting a new session"]
        if data.get("root") != self.project.root or data.get("agent") != self.project.profile.name:
            return ["session state belongs to another project or agent; starting a new session"]
        channels = data.get("channels")
        if not isinstance(channels, dict):
            return ["session state is malformed; starting a new session"]

        scopes = data.get("scopes", {})
        try:
            self.channels = channels_from_json(channels, self._may_name) or {"main": ChannelState()}
        except (KeyError, TypeError, ValueError, OverflowError):
            return ["session state is malformed; starting a new session"]
        # Where each named file really is, is checked before it is first read (see `_vouch`), not here:
        # resolving every held path on every call would make a call's cost grow with the session.
        self._unvouched = {path for state in self.channels.values() for path in state.loaded}
        for state in self.channels.values():
            marks_of = state.scanned
            for directory, watch in marks_of.loaded().items():  # a version 2 state's inline marks
                if trusted_mark(self.project, directory, watch) is None:
                    marks_of.pop(directory)
            if marks is not None:
                marks_of.attach(self._stored_marks(marks, marks_of.marks_id))
        if isinstance(scopes, dict):
            self.scope_cache = dict(scopes)  # a copy: the store compares the state with what it read
        return []

    def _may_name(self, path: str, tier: str, reason: str) -> bool:
        return may_name(self.project, path, tier, reason)

    def _vouch(self, path: str, state: ChannelState) -> bool:
        """Before a file named by a restored state is first read (see `restored.readable_where_loaded`);
        one that is not leaves every channel, as if the state had never named it."""
        if path not in self._unvouched:
            return True
        self._unvouched.discard(path)
        entry = state.loaded.get(path)
        if entry is None or readable_where_loaded(self.project, path, entry.tier, entry.reason):
            return True
        for held in self.channels.values():
            if path in held.loaded:
                held.drop(path)
        return False

    def _refresh(self, path: str, state: ChannelState, work: Pass, trigger: str) -> None:
        if self._vouch(path, state):
            refresh(self.project, path, state, work, trigger)

    def _stored_marks(self, marks: MarkReader, marks_id: str) -> Callable[[str], Watch | None]:
        def read(directory: str) -> Watch | None:
            return trusted_mark(self.project, directory, marks(marks_id, directory))

        return read

    def quick_index(self, channel: str = "main", marks_folder: str | None = None) -> dict[str, object]:
        """What `jitctx.discovery.quick` needs to prove, without this engine, that a touch loads nothing
        (`marks_folder`: where the store keeps the channel's marks)."""
        from jitctx.discovery.quick_index import build_quick_index

        return build_quick_index(self, channel, marks_folder)

    # -- startup -----------------------------------------------------------------------------------

    def startup(self, channel: str = "main", left_to_host: Callable[[Load], bool] | None = None) -> Startup:
        """What loads at the start of `channel`: the main session, or a sub-agent that starts afresh.

        `left_to_host` names loads a host agent makes by itself later, on its first read of their place
        (Claude Code's nested CLAUDE.md files and scoped rules): they are neither returned nor held, so
        that a touch the host does not follow still finds them (as `after_compaction`'s `host_reloads`)."""
        started = time.perf_counter()
        project = self.project
        state = self.channels.setdefault(channel, ChannelState())
        work = Pass(against="any startup signal")
        cwd = self.cwd
        if not is_inside(cwd, project.root):
            work.warnings.append(
                f"cwd {cwd} is outside the project root {project.root}; only root files load"
            )
            cwd = project.root
        signals = collect_signals(project.root, cwd, use_git=self.use_git)
        work.warnings.extend(signals.warnings)

        def match_signals(scope: Scope, candidate: Candidate) -> str | None:
            for signal in signals.all:
                target = scope_path(signal, candidate, project.root, self.cwd)
                if target is not None and scope_matches(scope.regex, target):
                    return signal
            return None

        reason = LoadReason.SESSION_START
        for candidate in project.managed_candidates() + project.user_candidates():
            resolve(self.project, candidate, state, work, reason, match_signals)
        chain = self.chains.capped(chain_down(project.root, cwd), work.warnings)
        for directory in chain:
            self._resolve_dir(directory, state, work, reason, match_signals)
        for candidate in project.rule_candidates():
            resolve(self.project, candidate, state, work, reason, match_signals)
        for directory in chain:
            for candidate in project.local_candidates(directory):
                resolve(self.project, candidate, state, work, reason, match_signals)
        # Each changed file is an early touch: its directory chain is walked as a discovery would.
        for changed in signals.changed:
            real = os.path.realpath(os.path.join(project.root, *changed.split("/")))
            before = len(work.loads)
            self._walk_from(os.path.dirname(real), changed, state, work, reason)
            # Name the change that brought them, also for unconditional files on its chain.
            work.loads[before:] = [
                load if load.trigger is not None else replace(load, trigger=changed)
                for load in work.loads[before:]
            ]
        state.started = True
        if left_to_host is not None:
            later = {load.file.path for load in work.loads if left_to_host(load)}
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

    # -- discovery ---------------------------------------------------------------------------------

    def discover(self, path: str, channel: str = "main") -> Discovery:
        """Load what touching `path` (absolute, or relative to the cwd) brings into scope."""
        started = time.perf_counter()
        state = self.channels.setdefault(channel, ChannelState())
        work = Pass()
        note: str | None = None
        if not self.project.config.jit_context:
            note = "runtime discovery is off (jitContext = false)"
        elif "\0" in path:
            note = f"{path!r} is not a path (it holds a NUL character)"
        else:
            try:
                note = self._discover_path(path, state, work)
            except (OSError, ValueError) as error:
                # One path the OS refuses (a lone surrogate, a name too long) is noted; the other paths
                # of the same tool call are still answered.
                note = f"{path!r} could not be used as a path: {_why(error)}"
                work.skips.append(Skip(repr(path), f"not a usable path: {_why(error)}"))
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
            warnings=tuple(dict.fromkeys(work.warnings)),
        )

    def discover_many(self, paths: Iterable[str], channel: str = "main") -> list[Discovery]:
        return [self.discover(p, channel) for p in paths]

    def on_tool_call(self, tool_name: str, tool_input: Mapping[str, Any], channel: str = "main") -> Discovery:
        """Discovery for every path a tool call touched, as one result (unknown tools touch nothing)."""
        from jitctx.touched import affected_paths

        steps = self.discover_many(affected_paths(tool_name, tool_input), channel)
        return merge_discoveries(tool_name, steps, channel)

    def _discover_path(self, path: str, state: ChannelState, work: Pass) -> str | None:
        """Resolve `path` and walk it; returns a note for the result, if any."""
        root = self.project.root
        absolute = os.path.normpath(os.path.join(self.cwd, os.path.expanduser(path)))
        missing = ""
        try:
            info = os.lstat(absolute)
        except OSError:
            info = None
        if info is not None and not stat.S_ISLNK(info.st_mode):
            is_dir = stat.S_ISDIR(info.st_mode)
            parent = absolute if is_dir else os.path.dirname(absolute)
            real_parent = self.chains.real_dir(parent)
            real = real_parent if is_dir else os.path.join(real_parent, os.path.basename(absolute))
            start_dir = real_parent
        else:  # a link, or a path that does not exist yet: the slow, careful way
            existing, missing = nearest_existing(absolute)
            real_existing = os.path.realpath(existing)
            is_dir = os.path.isdir(real_existing) if not missing else path.endswith(("/", os.sep))
            real = os.path.join(real_existing, *missing.split("/")) if missing else real_existing
            start_dir = real_existing if (is_dir or missing) else os.path.dirname(real_existing)
        if not is_inside(real, root) or not is_inside(start_dir, root):
            return f"{path} is outside the project {root}"
        rel = relative_posix(real, root)
        if is_dir and rel:
            rel += "/"
        work.against = f"'{rel}'"
        self._walk_from(start_dir, rel, state, work, None)
        if rel.count("/") > MAX_DEPTH:
            return f"only the top {MAX_DEPTH} of its {rel.count('/'):,} directory levels were searched"
        if missing:
            return f"{missing} does not exist yet; discovered from {self.project.display(start_dir)}"
        return None

    # -- the walk ----------------------------------------------------------------------------------

    def _walk_from(
        self, start_dir: str, rel: str, state: ChannelState, work: Pass, reason: LoadReason | None
    ) -> None:
        """Walk from `start_dir` up to the root, then check the rules folders, for touched path `rel`."""

        def match_path(scope: Scope, candidate: Candidate) -> str | None:
            target = (
                rel if candidate.base == "root" else scope_path(rel, candidate, self.project.root, self.cwd)
            )
            return rel if target is not None and scope_matches(scope.regex, target) else None

        for directory in self.chains.capped(self._chain(start_dir), work.warnings):
            watch = state.scanned.get(directory)
            if watch is not None:
                for path in list(state.by_directory.get(directory, ())):
                    self._refresh(path, state, work, rel)
                if self._watched_lately(state, directory) or unchanged(watch):
                    continue
                del state.scanned[directory]  # a file came or went there: a new CLAUDE.md perhaps
            self._resolve_dir(directory, state, work, reason, match_path)
        if id(state) not in self._swept:
            # Files with no chain directory (rules folders, user files) are refreshed only when their scope
            # matches; one that was deleted would never be: once per process, drop what is gone.
            self._swept.add(id(state))
            for path, entry in list(state.loaded.items()):
                if entry.directory is None and not os.path.lexists(path):
                    state.drop(path)
                    work.dropped.append(entry.display)
        # The table's index names the matching rules without testing each (see rule_table); the others
        # count as scope skips, not listed one by one: `explain` says why for each rule.
        matched, skipped = self.rule_table().matching(
            rel, state.loaded, lambda rule: match_path(rule.scope, rule.candidate) is not None
        )
        work.scope_skipped += skipped
        for rule in matched:
            candidate = rule.candidate
            if candidate.path in state.loaded:
                self._refresh(candidate.path, state, work, rel)  # re-read it on its next touch
            else:
                resolve(self.project, candidate, state, work, reason, match_path)  # read afresh, then load

    def _chain(self, start_dir: str) -> tuple[str, ...]:
        """Real directories from the root down to `start_dir` (see `Chains.chain`)."""
        return self.chains.chain(start_dir)

    def _watched_lately(self, state: ChannelState, directory: str) -> bool:
        """True when this process compared the directory's watch list less than WATCH_RECHECK_NS ago;
        otherwise notes that it is compared now. A hook process compares on every call; a long-lived
        session (a harness) notices a new file on the first touch a second after the last comparison,
        rather than paying a stat per chain directory on each of many touches in a row."""
        key = (id(state), directory)
        now = time.monotonic_ns()
        last = self._watched.get(key)
        if last is not None and now - last < WATCH_RECHECK_NS:
            return True
        self._watched[key] = now
        return False

    def _fallback_candidates(self, directory: str) -> list[Candidate]:
        """The profile's fallback names (Claude Code's AGENTS.md) of one directory, when no directory from
        the root down to the cwd holds the file they stand in for: the agent then reads them instead."""
        if self._fallbacks is None:
            chain = self._chain(self.cwd)
            self._fallbacks = tuple(
                name
                for name, unless in self.project.profile.fallback_files
                if not any(os.path.lexists(os.path.join(d, unless)) for d in chain)
            )
        return [
            Candidate(os.path.join(directory, name), Tier.PROJECT, directory=directory)
            for name in self._fallbacks
        ]

    def _resolve_dir(
        self, directory: str, state: ChannelState, work: Pass, reason: LoadReason | None, match: Matcher
    ) -> None:
        # Taken before the candidates are read: a file created meanwhile makes the next touch look again.
        watch = watch_list(self.project.listing_paths(directory))
        candidates = [
            *self.project.dir_candidates(directory),
            *self._fallback_candidates(directory),
            *self.project.nested_rule_candidates(directory),
        ]
        if self.project.profile.first_match_per_dir:
            # One file per directory: one that a new first match (AGENTS.override.md) displaced leaves.
            current = {candidate.path for candidate in candidates}
            for path in list(state.by_directory.get(directory, ())):
                if path not in current and state.loaded[path].tier == Tier.PROJECT.value:
                    work.dropped.append(state.drop(path).display)
        complete = True
        for candidate in candidates:
            if not resolve(self.project, candidate, state, work, reason, match):
                complete = False
        if complete and watch:  # no watch list: the directory is gone, and nothing proves it unchanged
            state.scanned[directory] = watch
            self._watched[(id(state), directory)] = time.monotonic_ns()  # as good as a comparison


def _why(error: Exception) -> str:
    """A short, printable reason for an OS or encoding error."""
    if isinstance(error, UnicodeError):
        return "it holds characters that are not valid in a file name"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return type(error).__name__


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
