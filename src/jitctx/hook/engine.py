"""The engine: one canonical hook event in, the loads to send out, every client alike.

Each hook call may be its own process, so the session lives in the session store (one JSON file and a
lock per session id) and every file goes out once per session. The engine discovers with the `jitctx`
profile (every instruction format) as the client reads its own files, and sends only what the client
does not load by itself (`host_files.HostFiles`, from the client's profile and its `Follower`).

The engine raises on anything it cannot answer; `pipeline.respond`, the one caller of every transport,
turns that into a logged problem and `{}`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.clients.event import HOST_LOAD, PROMPT, START, SUBAGENT, TOOLS, HookError, HookEvent, text_field
from jitctx.hook.context import CONTEXT_LIMIT, dropped_notes, mentions
from jitctx.hook.log import log_problem
from jitctx.hook.touches import Touched
from jitctx.model import InstructionFile, Load, LoadReason

if TYPE_CHECKING:  # imported where used: the hook path loads only what an event needs
    from jitctx.clients.base import Client, Follower
    from jitctx.discovery.session import Session
    from jitctx.hook.deadline import Deadline
    from jitctx.hook.event_context import EventContext
    from jitctx.hook.transcript_check import TranscriptCheck
    from jitctx.telemetry.store import EventStore

Answer = dict[str, Any]
# Writes one answer where the agent reads it; raises OSError or ValueError when it could not.
Deliver = Callable[[Answer], None]
DISCOVERY_PROFILE = "jitctx"

__all__ = ["DISCOVERY_PROFILE", "Answer", "Deliver", "Engine", "HookEnv", "HookError", "log_problem"]


# NamedTuples, not dataclasses: building a dataclass costs milliseconds at import, on every tool call.
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
        from jitctx.hook.ids import hook_ids

        self.ids = hook_ids(event.payload)
        if event.kind == HOST_LOAD:
            self._record_host_load(event.payload)
            return {}
        if event.kind == TOOLS:
            try:  # telemetry: a use that cannot be recorded changes nothing in the answer
                self.client.after_tool_calls(_ToolCallsSeen(self, event), event.calls)
            except Exception as exc:
                log_problem(self.env.state_dir, self.client.name, f"tool use not recorded: {exc!r}")
            follower = self._follower(event)
            touched = Touched(follower, event.transcript, event.cwd)
            for call in event.calls:
                tool_name, tool_input = self.client.map_tool(call["tool_name"], call["tool_input"])
                touched.add_call(tool_name, tool_input, follower.shown_loaded(call))
            return self._discover(event, touched)
        if event.kind == PROMPT:
            touched = Touched(self._follower(event), event.transcript, event.cwd)
            touched.add_mentions(mentions(event.prompt))
            return self._discover(event, touched)
        if event.kind == START:
            return self._session_start(event)
        if event.kind == SUBAGENT:
            return self._subagent_start(event)
        raise HookError(f"hook event {event.name!r} is accepted but has no handler")  # pragma: no cover

    # -- events ----------------------------------------------------------------------------------------

    def transcript(self, event: HookEvent) -> TranscriptCheck:
        """What the event's transcript shows, read at most once for the event."""
        if self._transcript is None:
            from jitctx.hook.transcript_check import TranscriptCheck

            self._transcript = TranscriptCheck(self.client, event, self.ids)
        return self._transcript

    def _follower(self, event: HookEvent) -> Follower:
        """The event's follower, made once: it may read the release (transcript, process) once."""
        if self.follower is None:
            self.follower = self.client.follower(event.transcript, event.cwd, self.env.origin_pid)
        return self.follower

    def _context(self, event: HookEvent, fresh: bool = False) -> EventContext:
        from jitctx.hook.event_context import EventContext

        return EventContext(
            self, event.session_id, event.cwd, fresh=fresh, transcript=event.transcript,
            follower=self._follower(event),
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
        with context.open() as opened:
            session = opened.session
            if opened.new:
                loads = context.start(session)
            elif source == "compact":
                # Compaction drops what was added during the session; the client reloads only its startup
                # files, so everything else the session held goes out again (and nothing is owed).
                for state in session.channels.values():
                    state.expected.clear()
                loads = session.after_compaction(host_reloads=context.host_files.at_startup)
                context.log_startup(session, loads, signals=("compact",))
            elif (
                source == "resume"
                and self.client.resume_drops_start
                and (self.client.start_answer_per_run or not context.start_resent())
            ):
                loads = self._start_again(session, context)
                context.log_startup(session, loads, signals=("resume",))
                answer = self._hand_over(self.client.render(event.name, context.fit(loads)))
                context.note_start_resent()
                return answer
            else:
                loads = []  # a resumed conversation still holds what we sent before
            return self._hand_over(self.client.render(event.name, context.fit(loads)))

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
            loads = context.start(session, event.channel)
            return self._hand_over(self.client.render(event.name, context.fit(loads)))

    def _discover(self, event: HookEvent, touched: Touched) -> Answer:
        if not touched.paths:
            # Nothing touched: answered without opening the session (most shell calls land here). A
            # session that has not started yet starts with the next event that touches a path.
            return {}
        from jitctx.discovery.session import merge_discoveries

        channel = event.channel
        context = self._context(event)
        with context.open() as opened:
            session = opened.session
            loads = context.start(session) if opened.new and channel == "main" else []
            if loads:
                # A session first seen at a tool call may be a conversation carried on (a fork whose
                # release names no parent): what its transcript holds already is not sent again.
                loads = self.transcript(event).not_delivered_yet(loads)
            # Paths the client follows itself go first: in a batch, a Write and a shell read of one
            # directory leave its CLAUDE.md to the client, whichever call came first.
            paths = sorted(touched.paths, key=lambda p: not touched.followed[p])
            steps = [context.with_trigger(step) for step in session.discover_many(paths, channel)]
            step = merge_discoveries(touched.label, steps, channel)
            # Per touched path (one step each, in order): what the client loaded by itself depends on how
            # that path was touched.
            parents: set[str] = set()
            sent = [
                load
                for path, one in zip(paths, steps, strict=True)
                for load in one.loaded
                if os.path.realpath(load.file.path) in touched.written
                or not self._client_has(event, context, load, touched, path, parents)
            ]
            transcript = self.transcript(event)
            if channel == "main":
                sent = transcript.overdue(session) + sent
                transcript.expect(session, context, touched, list(zip(paths, steps, strict=True)), sent)
            if touched.shell_written:
                later = transcript.left_to_the_client(context, session, sent, touched.shell_written)
                sent = [load for load in sent if load not in later]
                step = replace(step, loaded=tuple(load for load in step.loaded if load not in later))
            if sent and channel == "main":  # a sub-agent's context holds nothing of the main thread's
                sent = transcript.not_delivered_yet(sent)
            sent = context.without_twins(session, channel, context.not_skipped(sent))
            context.log_discovery(session, step, sent, channel)
            loads.extend(sent)
            text = context.fit(loads, dropped_notes(step.dropped))
            return self._hand_over(self.client.render(event.name, text))

    def _client_has(
        self,
        event: HookEvent,
        context: EventContext,
        load: Load,
        touched: Touched,
        path: str,
        parents: set[str],
    ) -> bool:
        """Does the client hold this load? A new version of a file in the client's file state is the
        transcript's to tell (the client showed the whole new text, or not: it does not always), whatever
        the touch; anything else is the prediction's, narrowed by what the call's result showed."""
        if load.updated and event.channel == "main":
            shown = self.transcript(event).shows_new_version(load)
            if shown is not None:
                return shown
        return _held(context, load, touched.followed[path], touched.shown.get(path), parents)

    def _record_host_load(self, payload: Mapping[str, Any]) -> None:
        """The client's own load, into the same event log (a sub-agent's when `agent_id` is set)."""
        from jitctx.paths import find_root
        from jitctx.telemetry.events import event_from_instructions_loaded

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
        from jitctx.telemetry.store import EventStore

        def warn(message: str) -> None:
            log_problem(self.env.state_dir, self.client.name, message)

        return EventStore(self.env.state_dir / "events", warn=warn)


def _held(
    context: EventContext, load: Load, followed: bool, shown: frozenset[str] | None, parents: set[str]
) -> bool:
    """Does the client hold this load by itself? Its prediction (`HostFiles.native`), narrowed by what
    the call's result showed it loading: a file it loads at start, or an import of a file it holds, needs
    no showing; any other file predicted but not shown is sent."""
    if not context.host_files.native(load, followed, parents):
        return False
    if shown is None or load.reason is LoadReason.INCLUDE or context.host_files.at_startup(load.file):
        return True
    if os.path.realpath(load.file.path) in shown:
        return True
    parents.discard(load.file.display)  # not held after all: its imports are not either
    return False


class _ToolCallsSeen(NamedTuple):
    """What a client's `after_tool_calls` may use: the engine (event log, ids, env) and the event."""

    engine: Engine
    event: HookEvent

    def session_root(self) -> str:
        """The session's project, as its other records name it: where it started, not where the shell
        is now."""
        from jitctx.paths import find_root

        started = saved_start(self.engine.env.state_dir / "sessions", session_key(self.engine, self.event))
        return find_root(started or self.event.cwd, root_markers())


def session_key(engine: Engine, event: HookEvent) -> str:
    # Namespaced, so two clients' sessions (or `jitctx touch --session`) never share state.
    return f"{engine.client.name}.{event.session_id}"


def saved_start(sessions: Path, key: str) -> str | None:
    """The directory a saved session started in (its quick index records it), if it still exists."""
    from jitctx.discovery.quick import quick_file_name
    from jitctx.safe_open import read_state_file

    try:  # a regular file of ours, bounded, never waited on (a FIFO there would block the hook)
        index = json.loads(read_state_file(str(sessions / quick_file_name(key))))
    except (OSError, ValueError, RecursionError):
        return None
    start = index.get("cwd") if isinstance(index, dict) else None
    if isinstance(start, str) and os.path.isabs(start) and "\0" not in start and os.path.isdir(start):
        return start
    return None


def root_markers() -> tuple[str, ...]:
    from jitctx.profiles import ROOT_MARKERS

    return ROOT_MARKERS
