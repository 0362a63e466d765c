"""The engine: one canonical hook event in, the loads to send out, every client alike.

Each hook call may be its own process, so the session lives in the session store (one JSON file and a
lock per session id) and every file goes out once per session. The engine discovers with the `jitctx`
profile (every instruction format) as the client reads its own files, and sends only what the client
does not load by itself (`host_files.HostFiles`, from the client's profile and its `Follower`).

The engine raises on anything it cannot answer; `pipeline.respond`, the one caller of every transport,
turns that into a logged problem and `{}`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.discovery.session import merge_discoveries
from jitctx.hook.compaction_mark import compaction_due, forget_mark, mark_compaction
from jitctx.hook.context import CONTEXT_LIMIT, dropped_notes, mentions
from jitctx.hook.decide import (
    AFTER_SHELL,
    CLIENT,
    HELD,
    NEW_TEXT,
    NONE,
    SHOWN,
    Found,
    decide_touch,
    sent,
)
from jitctx.hook.event import (
    BEFORE_TOOL,
    COMPACT,
    HOST_LOAD,
    PROMPT,
    START,
    SUBAGENT,
    TOOLS,
    HookError,
    HookEvent,
    text_field,
)
from jitctx.hook.event_context import EventContext
from jitctx.hook.ids import hook_ids
from jitctx.hook.log import log_problem
from jitctx.hook.session_place import DISCOVERY_PROFILE, key_of, root_markers, saved_start
from jitctx.hook.touches import HOLD_MARK, Touched, held_back, write_targets
from jitctx.hook.transcript_check import TranscriptCheck
from jitctx.model import InstructionFile, Load, LoadReason
from jitctx.paths import find_root
from jitctx.telemetry.events import event_from_instructions_loaded
from jitctx.telemetry.store import EventStore

if TYPE_CHECKING:
    from jitctx.clients.base import Client, Follower
    from jitctx.discovery.session import Session
    from jitctx.hook.deadline import Deadline
    from jitctx.hook.decide import Verdict
    from jitctx.model import Discovery

Answer = dict[str, Any]
# Writes one answer where the agent reads it; raises OSError or ValueError when it could not.
Deliver = Callable[[Answer], None]

__all__ = ["DISCOVERY_PROFILE", "Answer", "Deliver", "Engine", "HookEnv", "HookError", "log_problem"]


class HookEnv(NamedTuple):
    """What the edge (CLI) decides for the engine: where state lives, whose home, how much to send."""

    state_dir: Path
    home: str | None = None
    use_git: bool = True
    limit: int = CONTEXT_LIMIT
    environ: Mapping[str, str] | None = None  # the client's environment (its config places); None: ours
    origin_pid: int | None = None  # a process below the client's (the hook's parent), when known


class Engine:
    """Answers the canonical events of one client: start, prompt, tools, sub-agent, host load."""

    def __init__(self, client: Client, env: HookEnv, deliver: Deliver | None = None) -> None:
        self.client = client
        self.env = env
        self.deliver = deliver
        self.handed_over = False  # `deliver` was called (whether or not it succeeded)
        self.ids: dict[str, Any] = {}  # the prompt and tool call ids of the event, for its records
        self.follower: Follower | None = None
        self._transcript: TranscriptCheck | None = None  # the event's, made on first use
        self.deadline: Deadline | None = None  # the call's, when the transport set one (pipeline.respond)
        self.verdicts: list[Verdict] = []  # every file decided in this engine's events, in order
        self.signals: tuple[str, ...] = ()  # the startup signals of a start this engine answered
        # (sessions folder, key) of a session whose compaction mark this engine's answer settled
        self.resent_after_compaction: tuple[str, str] | None = None

    def settle(self) -> None:
        """The outcome is decided and starts being written (an event record, the answer): the deadline
        stops here, so that no record is left without its answer nor an answer without its record."""
        if self.deadline is not None:
            self.deadline.stop()

    def _hand_over(self, result: Answer) -> Answer:
        """Deliver `result` before the session state is saved (called inside the open session)."""
        self.settle()
        if self.deliver is not None:
            self.handed_over = True
            self.deliver(result)  # raising here leaves the saved state as it was
        return result

    def answer(self, event: HookEvent) -> Answer:
        answer = self._answer(event)
        if self.resent_after_compaction is not None:
            # Only now that the session is saved with the re-send in it: a delivery that failed, or a
            # hook killed before the save, leaves the mark for the next event to send it again.
            forget_mark(*self.resent_after_compaction)
        return answer

    def _answer(self, event: HookEvent) -> Answer:
        self.ids = hook_ids(event.payload)
        if event.kind == HOST_LOAD:
            self._record_host_load(event.payload)
            return {}
        if event.kind == TOOLS:
            calls = [call for call in event.calls if not held_back(call)]
            if len(calls) < len(event.calls):
                self._batch_seen(event)
            try:  # telemetry: a use that cannot be recorded changes nothing in the answer
                self.client.after_tool_calls(_ToolCallsSeen(self, event), event.calls)
            except Exception as exc:
                log_problem(self.env.state_dir, self.client.name, f"tool use not recorded: {exc!r}")
            follower = self._follower(event)
            touched = Touched(
                follower, event.transcript, event.cwd, self.client.tools(), self.client.writes()
            )
            for call in calls:
                touched.add_call(
                    call["tool_name"],
                    call["tool_input"],
                    follower.shown_loaded(call),
                    follower.result_text(call),
                )
            return self._discover(event, touched)
        if event.kind == BEFORE_TOOL:
            return self._before_tool(event)
        if event.kind == PROMPT:
            touched = Touched(self._follower(event), event.transcript, event.cwd)
            touched.add_mentions(mentions(event.prompt))
            return self._discover(event, touched)
        if event.kind == START:
            return self._session_start(event)
        if event.kind == SUBAGENT:
            return self._subagent_start(event)
        if event.kind == COMPACT:
            return self._compacting(event)
        raise HookError(f"hook event {event.name!r} is accepted but has no handler")  # pragma: no cover

    # -- events ----------------------------------------------------------------------------------------

    def transcript(self, event: HookEvent) -> TranscriptCheck:
        """What the event's transcript shows, read at most once for the event."""
        if self._transcript is None:
            self._transcript = TranscriptCheck(self.client, event, self.ids)
        return self._transcript

    def _follower(self, event: HookEvent) -> Follower:
        """The event's follower, made once: it may read the release (transcript, process) once."""
        if self.follower is None:
            self.follower = self.client.follower(event.transcript, event.cwd, self.env.origin_pid)
        return self.follower

    def _context(self, event: HookEvent, fresh: bool = False) -> EventContext:
        subagent_type = event.agent_type if event.kind == SUBAGENT else None
        return EventContext(
            self, event.session_id, event.cwd, fresh=fresh, transcript=event.transcript,
            follower=self._follower(event), subagent_type=subagent_type,
        )  # fmt: skip

    def _session_start(self, event: HookEvent) -> Answer:
        source = event.source
        if source == "fork":
            # A copy of another conversation under a new id: it holds what the old one was sent, and the
            # client reloads its own startup files. Which conversation it copied, the transcript tells from
            # the first tool call on (it does not exist yet), so nothing is opened or sent now.
            return self._hand_over({})
        fresh = source in ("startup", "clear")  # a fresh context window holds nothing of ours
        context = self._context(event, fresh=fresh)
        if fresh:
            context.store.delete(context.key)
            context.forget_start_resent()
            context.forget_compaction()
        with context.open() as opened:
            session = opened.session
            if opened.new:
                loads = context.start(session)
            elif source == "compact":
                loads = self._again_after_compaction(session, context)
            elif (
                source == "resume"
                and self.client.resume_drops_start
                and (self.client.start_answer_per_run or not context.start_resent())
            ):
                loads = self._start_again(session, context)
                context.log_startup(session, loads, signals=("resume",))
                self._note_turn(session, "main", START, loads)
                answer = self._hand_over(self.client.render(event.name, context.fit(loads)))
                context.note_start_resent()
                return answer
            else:
                loads = []  # a resumed conversation still holds what we sent before
            self._note_turn(session, "main", START, loads)
            return self._hand_over(self.client.render(event.name, context.fit(loads)))

    def _compacting(self, event: HookEvent) -> Answer:
        """The client compacts its context (or, for some clients, may be about to) and gives this
        event's answer to no model: the session is marked, and the next event whose answer reaches the
        model carries what it held, once the client's records do not prove there was no compaction."""
        if event.channel != "main":
            return {}  # a sub-agent's own compaction is not followed: its channel keeps what it was sent
        mark_compaction(str(self.env.state_dir / "sessions"), session_key(self, event), event.transcript)
        return {}  # the answer reaches no model

    def _again_after_compaction(self, session: Session, context: EventContext) -> list[Load]:
        """Compaction drops what was added during the session; the client reloads only its startup
        files, so everything else the session held goes out again (and nothing is owed). A client whose
        compaction keeps the latest turn still holds what arrived in it."""
        for state in session.channels.values():
            state.expected.clear()
            state.unseen_holds.clear()  # the compacted context is sent again whole
        main = session.channels.get("main")
        kept = main.turn if main is not None and self.client.compaction_keeps_turn else set()

        def host_reloads(file: InstructionFile) -> bool:
            return file.path in kept or context.host_files.at_startup(file)

        loads = session.after_compaction(host_reloads=host_reloads)
        context.log_startup(session, loads, signals=("compact",))
        self.resent_after_compaction = (str(context.store.directory), context.key)
        return loads

    @staticmethod
    def _start_again(session: Session, context: EventContext) -> list[Load]:
        """What jitctx sent at the session's start (and the files those imported), as start loads: a
        client that rebuilds a resumed conversation without its opening prompt lost just those."""
        state = session.channels.get("main")

        def kept(file: InstructionFile) -> bool:
            entry = state.loaded.get(file.path) if state is not None else None
            sent_at_start = entry is not None and entry.reason == LoadReason.SESSION_START.value
            return context.host_files.at_startup(file) or not sent_at_start

        return [
            replace(load, reason=LoadReason.SESSION_START)
            for load in session.after_compaction(host_reloads=kept)
        ]

    def _subagent_start(self, event: HookEvent) -> Answer:
        """A sub-agent starts with a fresh context: the client gives it its own startup files, jitctx the
        rest of what applies from the root down to the session's directory, in the sub-agent's channel."""
        context = self._context(event)
        with context.open() as opened:
            session = opened.session
            if session.started_in(event.channel):
                return self._hand_over({})  # the same sub-agent again (a resumed one) holds them
            # A forked sub-agent holds a copy of the parent's conversation: its own transcript shows it.
            evidence = self.transcript(event) if self.client.subagent_transcript else None
            loads = context.start(session, event.channel, evidence=evidence)
            return self._hand_over(self.client.render(event.name, context.fit(loads)))

    def _discover(self, event: HookEvent, touched: Touched) -> Answer:
        channel = event.channel
        main = channel == "main"
        # After a compaction the client answered nowhere, this event carries what the session held.
        due = main and self._compaction_due(event)
        # A prompt begins a turn that a client's compaction may keep: the session notes it.
        new_turn = main and event.kind == PROMPT and self.client.compaction_keeps_turn
        if not touched.paths and not due and not new_turn:
            # Nothing touched: answered without opening the session (most shell calls land here). A
            # session that has not started yet starts with the next event that touches a path.
            return {}
        context = self._context(event)
        transcript = self.transcript(event)
        # Whose records the event's transcript is: the main thread's, or a sub-agent's own.
        own_records = main or self.client.subagent_transcript
        with context.open() as opened:
            session = opened.session
            loads: list[Load] = []
            if opened.new and main:
                # A session first seen at a tool call may be a conversation carried on (a fork whose
                # release names no parent): what its transcript holds already is not sent again.
                loads = context.start(session, evidence=transcript)
            elif due:
                loads = self._again_after_compaction(session, context)
            elif not main and not session.started_in(channel):
                # A sub-agent whose start the client reported nowhere (or whose start answer reaches no
                # model): its first tool call brings what its start would have.
                loads = context.start(session, channel)
            if not touched.paths:
                self._note_turn(session, channel, event.kind, loads)
                return self._hand_over(self.client.render(event.name, context.fit(loads)))
            # Paths the client follows itself go first: in a batch, a Write and a shell read of one
            # directory leave its CLAUDE.md to the client, whichever call came first. Among those alike,
            # written paths first, so that a write's record names the rules that came after it even when
            # another call of the batch brought them.
            written = set(touched.wrote)
            paths = sorted(touched.paths, key=lambda p: (not touched.followed[p], p not in written))
            steps = [context.with_trigger(step) for step in session.discover_many(paths, channel)]
            step = merge_discoveries(touched.label, steps, channel)
            # Per touched path (one step each, in order): what the client loaded by itself depends on how
            # that path was touched.
            found = [
                Found(
                    load,
                    touched.followed[path],
                    touched.shown.get(path),
                    os.path.realpath(load.file.path) in touched.written,
                    touched.results.get(os.path.realpath(load.file.path)),
                )
                for path, one in zip(paths, steps, strict=True)
                for load in one.loaded
            ]
            verdicts = decide_touch(
                found,
                context.host_files,
                main=own_records,
                evidence=transcript if own_records else None,
                overdue=transcript.overdue(session) if main else (),
                shell_written=frozenset(touched.shell_written),
                skipped=context.skip_test(),
                held=lambda: context.held(session, channel),
            )
            self.verdicts.extend(verdicts)
            # Applying the decision: files left to the client on its prediction are owed until its
            # records show them; files a shell wrote are forgotten, for its next read there to decide.
            if main:
                predicted = {HELD, SHOWN, NEW_TEXT}
                not_left = [v.load for v in verdicts if not (v.route == CLIENT and v.cause in predicted)]
                transcript.expect(session, context, touched, list(zip(paths, steps, strict=True)), not_left)
            later = [v.load for v in verdicts if v.cause == AFTER_SHELL]
            if later:
                transcript.leave_to_the_client(session, later)
                step = replace(step, loaded=tuple(load for load in step.loaded if load not in later))
            context.note_withheld(verdicts)
            outgoing = sent(verdicts)
            writes = self._writes(written, paths, steps, verdicts, context)
            context.log_discovery(session, step, outgoing, channel, writes)
            loads.extend(outgoing)
            self._note_turn(
                session, channel, event.kind, [*loads, *(v.load for v in verdicts if v.route == CLIENT)]
            )
            text = context.fit(loads, dropped_notes(step.dropped))
            return self._hand_over(self.client.render(event.name, text))

    def _note_turn(self, session: Session, channel: str, kind: str, arrived: Iterable[Load]) -> None:
        """For a client whose compaction keeps the latest turn: which files arrived in it. A start answer
        belongs to the prompt that follows it (headless, the client sends it with that prompt)."""
        state = session.channels.get(channel)
        if not self.client.compaction_keeps_turn or state is None:
            return
        if kind == START:
            state.turn, state.turn_from_start = set(), True
        elif kind == PROMPT and not state.turn_from_start:
            state.turn = set()
        if kind != START:
            state.turn_from_start = False
        state.turn.update(load.file.path for load in arrived)

    def _compaction_due(self, event: HookEvent) -> bool:
        """Did the client compact since its compaction event, with nothing carried since?"""
        sessions = str(self.env.state_dir / "sessions")
        return compaction_due(self.client, sessions, session_key(self, event), event.transcript)

    def _batch_seen(self, event: HookEvent) -> None:
        """A client that reports a held call after its batch (Claude Code's PostToolBatch) sends the
        hold's reason with the batch's results: later writes are of a later turn."""
        context = self._context(event)
        if not context.store.path_for(context.key).exists():
            return  # no session saved: nothing was held in it
        with context.open() as opened:
            state = opened.session.channels.get(event.channel)
            if state is not None:
                state.unseen_holds.clear()

    def _writes(
        self,
        targets: set[str],
        paths: list[str],
        steps: list[Discovery],
        verdicts: list[Verdict],
        context: EventContext,
    ) -> list[dict[str, Any]]:
        """For each file the event's calls wrote (`targets`): were its rules in the model's context
        before the write? Those that arrive only now (whoever brings them: jitctx, or the client itself
        after the call) came late (DESIGN §2.11)."""
        route = {id(v.load): v.route for v in verdicts}
        writes = []
        for path, step in zip(paths, steps, strict=True):
            if path not in targets:
                continue
            late = [load.file.display for load in step.loaded if route.get(id(load), NONE) != NONE]
            shown = context.project.display(_real(path))
            writes.append({"path": shown, "rules_before": not late, **({"late": late} if late else {})})
        return writes

    def _before_tool(self, event: HookEvent) -> Answer:
        """A write about to run into a scope whose rules the model has not seen is held back once
        (DESIGN §2.11): a deny whose reason carries those rules, counted as arrived; the repeated write
        passes. Counted as not yet in context: everything the client would load by itself only after
        the call. Anything else passes at once, with `{}`."""
        targets = write_targets(self.client.tools(), self.client.writes(), event.calls, event.cwd)
        if not targets:
            return {}  # a read, or a tool jitctx cannot place: passes without opening the session
        channel = event.channel
        context = self._context(event)
        if not context.project.config.holds_writes(self.client.name):
            return {}
        with context.open() as opened:
            session = opened.session
            state = session.channels.get(channel)
            if opened.new or state is None or not state.started:
                # Nothing known of what this context holds: the answer after the call decides.
                return self._hand_over({})
            fresh = [path for path in targets if _real(path) not in state.held_writes]
            if len(fresh) < len(targets):
                state.unseen_holds.clear()  # a held write again: the model has seen the hold's reason
            if not fresh:
                return self._hand_over({})  # held once already: the repeated write passes
            # After a compaction not carried yet, the model holds none of what the session sent.
            compacted = channel == "main" and self._compaction_due(event)
            dropped = set(state.loaded) if compacted else set()
            unseen_paths = dropped | state.unseen_holds
            unseen = _unseen_for(session, fresh, unseen_paths) if unseen_paths else []
            if compacted:
                unseen = [load for load in unseen if not context.host_files.at_startup(load.file)]
            steps = [context.with_trigger(step) for step in session.discover_many(fresh, channel)]
            found = [Found(load, False, None, False) for step in steps for load in step.loaded]
            own_records = channel == "main" or self.client.subagent_transcript
            transcript = self.transcript(event)
            verdicts = decide_touch(
                found,
                context.host_files,
                main=own_records,
                evidence=transcript if own_records else None,
                skipped=context.skip_test(),
                held=lambda: context.held(session, channel),
            )
            self.verdicts.extend(verdicts)
            context.note_withheld(verdicts)
            outgoing = sent(verdicts)
            known = {load.file.path for load in outgoing}
            outgoing += [load for load in unseen if load.file.path not in known]
            if not outgoing:
                return self._hand_over({})
            state.held_writes.update(_real(path) for path in fresh)
            state.unseen_holds.update(load.file.path for load in outgoing)
            context.log_hold(session, steps, outgoing, channel)
            reason = hold_reason(event, fresh, context.project.display, context.fit(outgoing))
            return self._hand_over(self.client.render_hold(event.name, reason))

    def _record_host_load(self, payload: Mapping[str, Any]) -> None:
        """The client's own load, into the same event log (a sub-agent's when `agent_id` is set)."""
        path = text_field(payload, "file_path")
        cwd = payload.get("cwd")
        root = find_root(cwd, root_markers()) if isinstance(cwd, str) and os.path.isdir(cwd) else None
        try:
            size: int | None = os.stat(path).st_size
        except (OSError, ValueError):  # ValueError: a path the OS refuses (a NUL byte)
            size = None
        record = event_from_instructions_loaded(payload, source=self.client.name, root=root, file_bytes=size)
        record.update(self.ids)
        self.event_store().append(record)

    def event_store(self) -> EventStore:
        def warn(message: str) -> None:
            log_problem(self.env.state_dir, self.client.name, message)

        return EventStore(self.env.state_dir / "events", warn=warn)


class _ToolCallsSeen(NamedTuple):
    """What a client's `after_tool_calls` may use: the engine (event log, ids, env) and the event."""

    engine: Engine
    event: HookEvent

    def session_root(self) -> str:
        """The session's project, as its other records name it: where it started, not where the shell
        is now."""
        started = saved_start(self.engine.env.state_dir / "sessions", session_key(self.engine, self.event))
        return find_root(started or self.event.cwd, root_markers())


def _unseen_for(session: Session, targets: list[str], unseen: set[str]) -> list[Load]:
    """The files of `unseen` (sent in a held write's reason the model has not read yet) that govern
    `targets`: what a discovery of them finds in a channel that holds nothing, played and dropped."""
    probe = "\0probe"  # a channel name no client sends
    try:
        steps = session.discover_many(targets, probe)
    finally:
        session.channels.pop(probe, None)
    return [load for step in steps for load in step.loaded if load.file.path in unseen]


def hold_reason(event: HookEvent, targets: list[str], display: Callable[[str], str], rules: str) -> str:
    """What the model reads instead of the result of a held write: that nothing was written (some
    clients show only this text), why, the rules, and what to do."""
    names = ", ".join(str(call.get("tool_name")) for call in event.calls)
    written = ", ".join(display(os.path.realpath(path)) for path in targets)
    return (
        f"{HOLD_MARK}{names} call: it did not run, and {written} was not written. Instruction "
        "files that govern it were not in your context yet; here they are. Follow them, and make the "
        "call again (it will not be held a second time).\n\n" + rules
    )


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except ValueError:  # a name the OS refuses (a NUL byte): kept as given
        return path


def session_key(engine: Engine, event: HookEvent) -> str:
    return key_of(engine.client.name, event.session_id)
