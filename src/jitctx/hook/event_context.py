"""The project, the client's view, the session store and the event log of one hook event."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jitctx.discovery.session import merge_discoveries
from jitctx.discovery.store import SessionStore
from jitctx.hook.compaction_mark import forget_mark
from jitctx.hook.context import fit_with_notes
from jitctx.hook.decide import SKIPPED, TWIN, Held, decide_start, sent
from jitctx.hook.host_files import HostFiles
from jitctx.hook.session_place import DISCOVERY_PROFILE, key_of, root_markers, saved_start
from jitctx.model import Discovery, Load, Startup
from jitctx.paths import find_root, is_inside, relative_posix
from jitctx.profiles import get_profile
from jitctx.project import Project
from jitctx.safe_open import open_state_file
from jitctx.scope import compile_scope, compiled_scope
from jitctx.telemetry.events import event_from_discovery, event_from_startup, session_held_bytes

if TYPE_CHECKING:
    from jitctx.clients.base import Follower
    from jitctx.discovery.session import Session
    from jitctx.discovery.store import OpenSession
    from jitctx.hook.decide import Evidence, Verdict
    from jitctx.hook.engine import Engine
    from jitctx.linear_regex import LinearPattern
    from jitctx.telemetry.store import EventStore


class EventContext:
    """The project, host view, session store and event log of one event.

    `cwd` is where the session started, not where the shell is now: the host loaded its own files for
    that directory, and the session's project is found from it. A session already under way keeps the
    start directory it saved; `fresh` (SessionStart for a new context window) takes the event's.
    """

    def __init__(
        self,
        engine: Engine,
        session_id: str,
        event_cwd: str,
        fresh: bool = False,
        transcript: object = None,
        follower: Follower | None = None,
        subagent_type: str | None = None,
    ) -> None:
        self.engine = engine
        self.session_id = session_id
        self.store = SessionStore(engine.env.state_dir / "sessions")
        # Namespaced, so a Codex and a Claude Code session (or `jitctx touch --session`) never share state.
        self.key = key_of(engine.client.name, session_id)
        self.transcript = transcript
        self.parent = None if fresh else self._forked_from(transcript)
        started_in = None if fresh else saved_start(self.store.directory, self.parent or self.key)
        self.cwd = started_in or event_cwd
        client = engine.client
        root = os.path.realpath(find_root(self.cwd, root_markers()))
        environ = engine.env.environ if engine.env.environ is not None else os.environ
        home = engine.env.home
        profile = client.discovery_profile(get_profile(DISCOVERY_PROFILE), root, environ, home)
        self.project = Project(root, profile=profile, home=home)
        if follower is None:
            follower = client.follower(transcript, event_cwd, engine.env.origin_pid)
        host = client.host_profile(self.project.root, environ, self.project.home, follower)
        if subagent_type is not None:  # a sub-agent's start: what the client gives that sub-agent
            host = client.at_subagent_start(subagent_type, host)
        self.host_files = HostFiles(host, self.project.root, self.cwd, self.project.home)
        self._events: EventStore | None = None
        self.twins: dict[str, str] = {}  # display left out -> the display of its twin (`note_withheld`)
        self.skipped: list[str] = []  # displays the config keeps from this client (`note_withheld`)

    def _forked_from(self, transcript: object) -> str | None:
        """The saved session this one's conversation was copied from (Claude Code's `--fork-session`),
        when this one has no state of its own yet."""
        if self.store.path_for(self.key).exists():
            return None
        parent = self.engine.client.forked_from(transcript, self.session_id)
        if parent is None:
            return None
        key = key_of(self.engine.client.name, parent)
        return key if self.store.path_for(key).exists() else None

    @contextmanager
    def open(self) -> Iterator[OpenSession]:
        with self.store.open(
            self.project, self.key, cwd=self.cwd, use_git=self.engine.env.use_git, inherit=self.parent
        ) as opened:
            if opened.inherited:
                self._keep_what_the_fork_holds(opened.session)
            yield opened

    def _resent_marker(self) -> str:
        return str(self.store.path_for(self.key)) + ".resent"

    def start_resent(self) -> bool:
        """Were the session's start files sent again after a resume already (`note_start_resent`)?"""
        return os.path.lexists(self._resent_marker())

    def note_start_resent(self) -> None:
        """Remember that the start files went out again; a marker that cannot be written only means
        they go out again on a later resume (a possible duplicate)."""
        try:
            os.close(open_state_file(self._resent_marker(), os.O_WRONLY | os.O_CREAT))
        except OSError:
            pass

    def forget_start_resent(self) -> None:
        try:
            os.unlink(self._resent_marker())
        except OSError:
            pass

    def forget_compaction(self) -> None:
        """What a compaction dropped went out again (or the context is new): the mark goes."""
        forget_mark(str(self.store.directory), self.key)

    def _keep_what_the_fork_holds(self, session: Session) -> None:
        """A fork starts from its parent's state as it is now; the parent may have been sent files after
        the point the conversation was copied from. Only files the fork's transcript shows arriving are
        kept: jitctx's `Contents of PATH` and the host's own loads, which name the absolute path."""
        shown = self.engine.client.transcript_names(self.transcript)
        if shown is None:
            return  # too large or unreadable to tell: keep what the parent held
        for state in session.channels.values():
            for path, entry in list(state.loaded.items()):
                # Whole names only: `a.md` is not shown by a record of `a.md.bak`.
                if f"Contents of {entry.display}" not in shown and path not in shown:
                    state.forget(path)

    def with_trigger(self, step: Discovery) -> Discovery:
        """A step whose loads all name the touched path (the session leaves it out for unscoped files)."""
        if all(load.trigger is not None for load in step.loaded):
            return step
        absolute = os.path.realpath(step.trigger)
        shown = (
            relative_posix(absolute, self.project.root)
            if is_inside(absolute, self.project.root)
            else absolute
        )
        loads = tuple(
            load if load.trigger is not None else replace(load, trigger=shown) for load in step.loaded
        )
        return replace(step, loaded=loads)

    def start(self, session: Session, channel: str = "main", evidence: Evidence | None = None) -> list[Load]:
        """What a channel's start sends: its startup loads the host does not have, decided
        (`hook.decide`) and logged; `evidence`, the client's records, for a session first seen late."""
        # What a changed file or the cwd brings early but the host loads by itself on its first read
        # there (a nested CLAUDE.md, a scoped .claude/rules file) is left to it, or it would arrive twice.
        parents: set[str] = set()
        startup = session.startup(
            channel, left_to_host=lambda load: self.host_files.loads_later(load, parents)
        )
        verdicts = decide_start(
            startup.loaded,
            self.host_files,
            evidence=evidence,
            skipped=self.skip_test(),
            held=lambda: self.held(session, channel),
        )
        self.engine.verdicts.extend(verdicts)
        self.engine.signals = startup.signals
        self.note_withheld(verdicts)
        outgoing = sent(verdicts)
        self.log_startup(session, outgoing, signals=startup.signals, startup=startup, channel=channel)
        return outgoing

    def skip_test(self) -> Callable[[str], bool] | None:
        """Whether the project's config keeps a file (by its display path) from this client
        (`[send.AGENT] skip`); None without such globs."""
        globs = self.project.config.skipped_for(self.engine.client.name)
        if not globs:
            return None
        pattern: LinearPattern = compiled_scope(compile_scope(globs))
        return pattern.fullmatch

    @staticmethod
    def held(session: Session, channel: str) -> list[Held]:
        """The texts the channel holds (a resumed session reads them here, once)."""
        return [Held(file.path, file.display, file.text) for file in session.blocks(channel)]

    def note_withheld(self, verdicts: Sequence[Verdict]) -> None:
        """Name the files the config kept back, and the twins left out, in the event's next record."""
        for verdict in verdicts:
            if verdict.cause == SKIPPED:
                self.skipped.append(verdict.display)
            elif verdict.cause == TWIN and verdict.twin_of is not None:
                self.twins[verdict.display] = verdict.twin_of

    def fit(self, loads: list[Load], notes: Sequence[str] = ()) -> str:
        return fit_with_notes(loads, notes, self.engine.env.limit)

    # -- telemetry: what jitctx sent; what the host loaded itself arrives through InstructionsLoaded ------

    def _append(self, record: dict[str, Any]) -> None:
        self.engine.settle()  # a record of what is sent: the call is no longer cut short
        if self.twins:
            record["twins"] = dict(self.twins)
            self.twins.clear()
        if self.skipped:
            record["skipped_by_config"] = list(self.skipped)
            self.skipped.clear()
        if self._events is None:
            self._events = self.engine.event_store()
        self._events.append(record)

    def log_startup(
        self,
        session: Session,
        sent: list[Load],
        signals: tuple[str, ...],
        startup: Startup | None = None,
        channel: str = "main",
    ) -> None:
        base = startup or Startup(self.project.root, self._cwd_shown(), DISCOVERY_PROFILE, (), (), (), ())
        record = event_from_startup(
            replace(base, signals=signals, loaded=tuple(sent)),
            session_id=self.session_id,
            cumulative_bytes=session_held_bytes(session, channel),
            channel=channel,
            agent=self.engine.client.name,
            ids=self.engine.ids,
        )
        self._append(record)

    def _cwd_shown(self) -> str:
        real = os.path.realpath(self.cwd)
        return (
            (relative_posix(real, self.project.root) or ".") if is_inside(real, self.project.root) else real
        )

    def log_hold(self, session: Session, steps: Sequence[Discovery], sent: list[Load], channel: str) -> None:
        """The record of a write held back: a discovery of the write's targets, what went out in the
        deny's reason, and `held`."""
        step = merge_discoveries("hold", list(steps), channel)
        record = event_from_discovery(
            replace(step, loaded=tuple(sent), hit=True),
            session_id=self.session_id,
            root=self.project.root,
            cumulative_bytes=session_held_bytes(session, channel),
            cwd=self.cwd,
            agent=self.engine.client.name,
            ids=self.engine.ids,
        )
        record["held"] = True
        record["held_paths"] = [self.project.display(os.path.realpath(step.trigger)) for step in steps]
        self._append(record)

    def log_discovery(
        self,
        session: Session,
        step: Discovery,
        sent: list[Load],
        channel: str,
        writes: Sequence[dict[str, Any]] = (),
    ) -> None:
        # A hit is a touch that brought instruction files, whoever delivered them: `loaded` lists what
        # jitctx sent, `host_loaded` what the host loaded itself (its bytes arrive in its own `load`
        # records through InstructionsLoaded), so the hit rate does not depend on who did the work.
        sent_paths = {load.file.path for load in sent}
        record = event_from_discovery(
            replace(step, loaded=tuple(sent), hit=bool(step.loaded)),
            session_id=self.session_id,
            root=self.project.root,
            cumulative_bytes=session_held_bytes(session, channel),
            cwd=self.cwd,
            agent=self.engine.client.name,
            host_loaded=[load.file.path for load in step.loaded if load.file.path not in sent_paths],
            ids=self.engine.ids,
        )
        if writes:
            record["writes"] = list(writes)  # were each written file's rules in context before it?
        self._append(record)
