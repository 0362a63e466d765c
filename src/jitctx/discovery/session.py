"""A session: the startup load, then one JIT discovery per touched path, with the state that dedups them.

Two sets carry the dedup: loaded files, and fully scanned directories. A directory counts as scanned only
when every candidate on it was resolved; a rule skipped because its scope did not match *this* path leaves
the directory open, so a later path that does match still loads it.

The warm path (a touched directory already scanned) costs one lstat of the touched path, one stat per
loaded file on its chain (to notice edits and deletions), one or two per chain directory (to notice a file
created there, see `Project.listing_paths`), a check that the rules folders are as the rule table has
them (`rules_watch`), and a regex match per rule the glob index names whose match would change something.

Where a touched path is, and what each scope is matched against, is `chains`; what one candidate brings
(read, match, load, refresh) is `resolve`; taking a saved state back is
`restored`; what goes again after a compaction is `compaction`. This module decides what to look at, and
when.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from jitctx.discovery.chains import Chains, chain_down, locate, scope_path, why_unusable
from jitctx.discovery.compaction import drop_gone, native_reloads, to_resend
from jitctx.discovery.quick import unchanged, watch_list
from jitctx.discovery.quick_index import build_quick_index
from jitctx.discovery.resolve import Matcher, load, refresh, resolve
from jitctx.discovery.restored import MarkReader, read_state, readable_where_loaded
from jitctx.discovery.rule_table import RuleTable, ScopeCache, ScopedRule, build_rule_table
from jitctx.discovery.rules_watch import RulesWatch
from jitctx.discovery.signals import collect_signals
from jitctx.discovery.state import STATE_VERSION, ChannelState, Pass, channels_to_json
from jitctx.model import Discovery, InstructionFile, Load, LoadReason, Scope, Skip, Startup, Tier
from jitctx.paths import is_inside, relative_posix
from jitctx.project import Candidate, Project
from jitctx.scope import scope_matches
from jitctx.touched.calls import affected_paths
from jitctx.walk import MAX_DEPTH

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
        self.rules_watch = RulesWatch(project)
        self._swept: set[int] = set()  # channel states whose off-chain files were checked in this process
        # (channel state, directory) -> when its watch list was last compared, in this process.
        self._watched: dict[tuple[int, str], int] = {}
        # Files named by a restored state whose real path is not checked yet (see `_vouch`).
        self._unvouched: set[str] = set()

    def rule_table(self) -> RuleTable:
        """The scoped rules as the rules folders hold them now: built (a stat each) on first use, and again
        whenever `rules_watch` says a rules folder or a rule file changed since."""
        if self._rules is None or self.rules_watch.changed():
            if self._rules is not None:
                self._swept.clear()  # a held rule may be gone: the next walk drops it
            for path in self.rules_watch.begin(self.scope_cache):
                for state in self.channels.values():
                    if path in state.loaded:
                        state.loaded[path].mtime_ns = -1  # heard edited: re-read on its next match
            self._rules = build_rule_table(self.project, self.scope_cache, rescan=True)
            self.rules_watch.built(self.scope_cache)
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
        """The blocks to send again after the host compacted its context, as `compact` loads (see
        `compaction`): `host_reloads(file)` says which files the host re-reads by itself (default: the
        profile's own file names among what loaded at session start)."""
        state = self.channels.get(channel)
        if state is None:
            return []
        drop_gone(state)
        return to_resend(state, self.blocks(channel), host_reloads or native_reloads(self.project, state))

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
        found = read_state(self.project, data, marks)
        if isinstance(found, str):
            return [found]
        self.channels = found.channels
        # Where each named file really is, is checked before it is first read (see `_vouch`), not here:
        # resolving every held path on every call would make a call's cost grow with the session.
        self._unvouched = {path for state in self.channels.values() for path in state.loaded}
        if found.scopes is not None:
            self.scope_cache = found.scopes
        return []

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

    def quick_index(self, channel: str = "main", marks_folder: str | None = None) -> dict[str, object]:
        """What `jitctx.discovery.quick` needs to prove, without this engine, that a touch loads nothing
        (`marks_folder`: where the store keeps the channel's marks)."""
        return build_quick_index(self, channel, marks_folder)

    # -- startup -----------------------------------------------------------------------------------

    def startup(self, channel: str = "main", left_to_host: Callable[[Load], bool] | None = None) -> Startup:
        """What loads at the start of `channel`: the main session, or a sub-agent that starts afresh.

        `left_to_host` names loads a host agent makes by itself later, on its first read of their place
        (Claude Code's nested CLAUDE.md files and scoped rules): they are neither returned nor held, so
        that a touch the host does not follow still finds them (as `after_compaction`'s `host_reloads`).

        That is every unconditional file on the way from the root to the cwd, and the conditional ones a
        *startup signal* matches (the cwd's directory marker, the changed files git reports under the
        cwd); each changed file is also an early touch, its chain walked as a discovery walks it (§2.3)."""
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
            resolve(project, candidate, state, work, reason, match_signals)
        chain = self.chains.capped(chain_down(project.root, cwd), work.warnings)
        for directory in chain:
            self.resolve_dir(directory, state, work, reason, match_signals)
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
            self.walk_from(os.path.dirname(real), changed, state, work, reason)
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
                note = f"{path!r} could not be used as a path: {why_unusable(error)}"
                work.skips.append(Skip(repr(path), f"not a usable path: {why_unusable(error)}"))
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
        steps = self.discover_many(affected_paths(tool_name, tool_input), channel)
        return merge_discoveries(tool_name, steps, channel)

    def _discover_path(self, path: str, state: ChannelState, work: Pass) -> str | None:
        """Locate `path` and walk it; returns a note for the result, if any."""
        located = locate(path, self.cwd, self.chains)
        if located is None:
            return f"{path} is outside the project {self.project.root}"
        rel, start_dir, missing = located
        work.against = f"'{rel}'"
        self.walk_from(start_dir, rel, state, work, None)
        if rel.count("/") > MAX_DEPTH:
            return f"only the top {MAX_DEPTH} of its {rel.count('/'):,} directory levels were searched"
        if missing:
            return f"{missing} does not exist yet; discovered from {self.project.display(start_dir)}"
        return None

    # -- the walk ----------------------------------------------------------------------------------

    def walk_from(
        self, start_dir: str, rel: str, state: ChannelState, work: Pass, reason: LoadReason | None
    ) -> None:
        """Walk from `start_dir` up to the root, then check the rules folders, for touched path `rel`
        (root-relative); `reason` None for a discovery (each load then says why), else that of all loads."""

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
            self.resolve_dir(directory, state, work, reason, match_path)
        table = self.rule_table()  # first: a table built again may leave held rules to sweep
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
        matched, skipped = table.matching(
            rel,
            state.loaded,
            lambda rule: match_path(rule.scope, rule.candidate) is not None,
            state.held_among(table.paths),
            self._settled(state),
        )
        work.scope_skipped += skipped
        for rule in matched:
            if rule.candidate.path in state.loaded:
                self._refresh(rule.candidate.path, state, work, rel)  # re-read it on its next touch
            else:
                resolve(self.project, rule.candidate, state, work, reason, match_path)  # read, then load

    def _settled(self, state: ChannelState) -> Callable[[ScopedRule], bool] | None:
        """Held rules that a match would not refresh, as the rules watch vouches: unchanged since the
        table was built from the version held (and not waiting to be vouched for, see `_vouch`)."""
        watch = self.rules_watch
        if not watch.notified:
            return None
        loaded, unvouched = state.loaded, self._unvouched

        def settled(rule: ScopedRule) -> bool:
            path = rule.candidate.path
            entry = loaded.get(path)
            return (
                entry is not None
                and path not in unvouched
                and watch.unchanged(path, entry.mtime_ns, entry.size)
            )

        return settled

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
        if self.project.in_skill_folder(directory):
            return []  # a skill's own documents (`Project.in_skill_folder`)
        return [
            Candidate(os.path.join(directory, name), Tier.PROJECT, directory=directory)
            for name in self._fallbacks
        ]

    def resolve_dir(
        self, directory: str, state: ChannelState, work: Pass, reason: LoadReason | None, match: Matcher
    ) -> None:
        """Resolve every candidate of one chain directory; the directory counts as scanned once all are."""
        # Taken before the candidates are read: a file created meanwhile makes the next touch look again.
        watch = watch_list(self.project.listing_paths(directory))
        candidates = [
            *self.project.dir_candidates(directory),
            *self._fallback_candidates(directory),
            *self.project.nested_rule_candidates(directory),
        ]
        profile = self.project.profile
        if profile.first_match_per_dir or profile.alternatives:
            # One file per directory (of a group): one that a new first match (AGENTS.override.md)
            # displaced leaves.
            current = {candidate.path for candidate in candidates}
            grouped = {name for group in profile.alternatives for name in group}
            for path in list(state.by_directory.get(directory, ())):
                displaced = profile.first_match_per_dir or os.path.basename(path) in grouped
                if displaced and path not in current and state.loaded[path].tier == Tier.PROJECT.value:
                    work.dropped.append(state.drop(path).display)
        complete = True
        for candidate in candidates:
            if not resolve(self.project, candidate, state, work, reason, match):
                complete = False
        if complete and watch:  # no watch list: the directory is gone, and nothing proves it unchanged
            state.scanned[directory] = watch
            self._watched[(id(state), directory)] = time.monotonic_ns()  # as good as a comparison


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
