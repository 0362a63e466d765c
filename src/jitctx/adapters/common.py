"""One hook event in, one answer out: the engine the Claude Code and Codex adapters share.

Each hook call is its own process, so the session lives in the session store (one JSON file and a lock per
session id) and every file goes out once per session. The engine discovers with the `jitctx` profile (every
instruction format) and sends only what the host agent does not load by itself (`native.HostFiles`).

`run_hook` never raises: whatever goes wrong (bad JSON, a missing field, an unknown event, a state dir that
cannot be written, a bug) is written to `<state dir>/hook.log`, and the answer is `{}`. A hook must never
block the agent over a missed optimisation.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.adapters.context import CONTEXT_LIMIT, dropped_notes, fit_with_notes, mentions
from jitctx.adapters.touches import Touched
from jitctx.discovery.boundary import find_root
from jitctx.model import Discovery, Load, Startup

if TYPE_CHECKING:  # imported where used: the hook path loads only what an event needs
    from jitctx.discovery.session import Session
    from jitctx.discovery.store import OpenSession
    from jitctx.telemetry.store import EventStore

Answer = dict[str, Any]
# Writes one answer where the agent reads it; raises OSError or ValueError when it could not.
Deliver = Callable[[Answer], None]
# The host's tool name and input -> the name and input the touched-paths registry understands.
ToolMapper = Callable[[str, Mapping[str, Any]], tuple[str, Mapping[str, Any]]]
DISCOVERY_PROFILE = "jitctx"


class HookError(Exception):
    """The event cannot be answered (malformed payload, unknown event); logged, answered with `{}`."""


# NamedTuples, not dataclasses: building a dataclass costs milliseconds at import, on every tool call.
class Host(NamedTuple):
    """One agent's hook dialect."""

    name: str  # also the profile that says what the agent loads by itself
    events: frozenset[str]
    map_tool: ToolMapper


class HookEnv(NamedTuple):
    """What the edge (CLI) decides for the engine: where state lives, whose home, how much to send."""

    state_dir: Path
    home: str | None = None
    use_git: bool = True
    limit: int = CONTEXT_LIMIT


def run_hook(
    host: Host,
    raw: bytes | str,
    env: HookEnv,
    report: Callable[[str], None] | None = None,
    deliver: Deliver | None = None,
) -> Answer:
    """The answer to one hook event given as raw JSON; `{}` when there is nothing to add or on error.
    Errors go to the hook log and, when given, to `report` (one line).

    With `deliver`, the answer is handed to it while the session is still locked, and the session state is
    saved only after it returned: a file counts as sent once its answer was written, so a process killed
    in between, or an answer that could not be written (`deliver` raised), sends it again next time
    rather than never. Every answer goes through `deliver` exactly once.
    """
    engine: Engine | None = None
    try:
        payload = json.loads(raw) if raw and raw.strip() else None
        if not isinstance(payload, dict):
            what = "empty input" if payload is None else f"a JSON {type(payload).__name__}"
            raise HookError(f"expected one hook event as a JSON object on stdin, got {what}")
        engine = Engine(host, env, deliver)
        result = engine.answer(payload)
    except Exception as exc:  # the hook contract: log it, answer {}, never block the agent
        message = f"{type(exc).__name__}: {exc}"
        log_problem(env.state_dir, host.name, message)
        if report is not None:
            report(f"jitctx hook {host.name}: {' '.join(message.split())} (answered {{}})")
        result = {}
    if deliver is not None and (engine is None or not engine.handed_over):
        try:
            deliver(result)
        except (OSError, ValueError):  # the agent stopped listening: nothing was sent, nothing is lost
            pass
    return result


def log_problem(state_dir: Path, agent: str, message: str) -> None:
    """Append one line to `<state dir>/hook.log`; a log that cannot be written is given up silently."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    line = f"{stamp}Z {agent}: {' '.join(message[:2000].split())}\n"
    from jitctx.discovery.quick import open_state_file

    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        # A FIFO or a device planted as the log would block every call: regular files of ours only.
        fd = open_state_file(str(state_dir / "hook.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, line.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError:
        pass


def text_field(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise HookError(f"hook event has no {key!r} string (got {type(value).__name__})")
    return value


def answer(event: str, text: str) -> Answer:
    if not text:
        return {}
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


class Engine:
    """Answers the events of one host: SessionStart, UserPromptSubmit, PostToolUse, InstructionsLoaded."""

    def __init__(self, host: Host, env: HookEnv, deliver: Deliver | None = None) -> None:
        self.host = host
        self.env = env
        self.deliver = deliver
        self.handed_over = False  # `deliver` was called (whether or not it succeeded)
        self.ids: dict[str, Any] = {}  # the prompt and tool call ids of the event, for its records

    def _hand_over(self, result: Answer) -> Answer:
        """Deliver `result` before the session state is saved (called inside the open session)."""
        if self.deliver is not None:
            self.handed_over = True
            self.deliver(result)  # raising here leaves the saved state as it was
        return result

    def answer(self, payload: Mapping[str, Any]) -> Answer:
        event = text_field(payload, "hook_event_name")
        if event not in self.host.events:
            raise HookError(f"unknown hook event {event!r} for {self.host.name}")
        from jitctx.adapters.hook_ids import hook_ids

        self.ids = hook_ids(payload)
        if event == "InstructionsLoaded":
            self._record_host_load(payload)
            return {}
        session_id = text_field(payload, "session_id")
        # The shell's current directory when the event fired: after a `cd`, or a Codex exec's `workdir`,
        # it is not where the session started. It only places this call's relative paths.
        cwd = text_field(payload, "cwd")
        if not os.path.isabs(cwd) or not os.path.isdir(cwd):
            raise HookError(f"hook event cwd {cwd!r} is not an existing absolute directory")
        agent_id = payload.get("agent_id")
        channel = agent_id if isinstance(agent_id, str) and agent_id else "main"
        if event in ("PostToolUse", "PostToolBatch"):
            calls = [payload] if event == "PostToolUse" else self._batch(payload)
            if self.host.name == "claude-code":
                try:  # telemetry: a skill use that cannot be recorded changes nothing in the answer
                    from jitctx.adapters.skill_use import record_skill_uses

                    record_skill_uses(self, calls, session_id, cwd, channel)
                except Exception as exc:
                    log_problem(self.env.state_dir, self.host.name, f"skill use not recorded: {exc!r}")
            touched = Touched(self.host.name == "claude-code", payload.get("transcript_path"), cwd)
            for call in calls:
                touched.add_call(*self._tool(call))
            return self._discover(event, session_id, cwd, channel, touched)
        if event == "UserPromptSubmit":
            prompt = payload.get("prompt")
            if not isinstance(prompt, str):
                raise HookError("UserPromptSubmit event has no 'prompt' string")
            touched = Touched(self.host.name == "claude-code", payload.get("transcript_path"), cwd)
            touched.add_mentions(mentions(prompt))
            return self._discover(event, session_id, cwd, channel, touched)
        if event == "SessionStart":
            source = payload.get("source")
            return self._session_start(session_id, cwd, source if isinstance(source, str) else "startup")
        if event == "SubagentStart":
            return self._subagent_start(session_id, cwd, channel, payload.get("transcript_path"))
        raise HookError(f"hook event {event!r} is accepted but has no handler")  # pragma: no cover

    # -- events ----------------------------------------------------------------------------------------

    def _tool(self, payload: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        tool_name = text_field(payload, "tool_name")
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, Mapping):
            raise HookError(f"{tool_name} tool_input is a {type(tool_input).__name__}, not an object")
        return self.host.map_tool(tool_name, tool_input)

    @staticmethod
    def _batch(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        calls = payload.get("tool_calls")
        if not isinstance(calls, list) or not all(isinstance(call, Mapping) for call in calls):
            raise HookError("PostToolBatch event has no 'tool_calls' list of objects")
        return calls

    def _session_start(self, session_id: str, cwd: str, source: str) -> Answer:
        if source == "fork":
            # A copy of another conversation under a new id: it holds what the old one was sent, and the
            # host reloads its own startup files. Which conversation it copied, the transcript tells from
            # the first tool call on (it does not exist yet), so nothing is opened or sent now.
            return self._hand_over({})
        fresh = source in ("startup", "clear")  # a fresh context window holds nothing of ours
        context = _Context(self, session_id, cwd, fresh=fresh)
        if fresh:
            context.store.delete(context.key)
        with context.open() as opened:
            session = opened.session
            if opened.new:
                loads = context.start(session)
            elif source == "compact":
                # Compaction drops what was added during the session; the host reloads only its startup
                # files, so everything else the session held goes out again.
                loads = session.after_compaction(host_reloads=context.host_files.at_startup)
                context.log_startup(session, loads, signals=("compact",))
            else:
                loads = []  # a resumed conversation still holds what we sent before
            return self._hand_over(answer("SessionStart", context.fit(loads)))

    def _subagent_start(self, session_id: str, cwd: str, channel: str, transcript: object) -> Answer:
        """A sub-agent starts with a fresh context: the host gives it its own startup files, jitctx the
        rest of what applies from the root down to the session's directory, in the sub-agent's channel."""
        if channel == "main":
            raise HookError("SubagentStart event has no 'agent_id' string")
        context = _Context(self, session_id, cwd, transcript=transcript)
        with context.open() as opened:
            session = opened.session
            if session.started_in(channel):
                return self._hand_over({})  # the same sub-agent again (a resumed one) holds them
            return self._hand_over(answer("SubagentStart", context.fit(context.start(session, channel))))

    def _discover(self, event: str, session_id: str, cwd: str, channel: str, touched: Touched) -> Answer:
        if not touched.paths:
            # Nothing touched: answered without opening the session (most Bash calls land here). A session
            # that has not started yet starts with the next event that touches a path.
            return {}
        from jitctx.discovery.session import merge_discoveries

        context = _Context(self, session_id, cwd, transcript=touched.transcript)
        with context.open() as opened:
            session = opened.session
            loads = context.start(session) if opened.new and channel == "main" else []
            # Paths the host follows itself ("Read") go first: in a batch, a Write and a shell read of one
            # directory leave its CLAUDE.md to the host, whichever call came first.
            paths = sorted(touched.paths, key=lambda p: touched.tools[p] != "Read")
            steps = [context.with_trigger(step) for step in session.discover_many(paths, channel)]
            step = merge_discoveries(touched.label, steps, channel)
            # Per touched path (one step each, in order): what the host loaded by itself depends on how
            # that path was touched.
            parents: set[str] = set()
            sent = [
                load
                for path, one in zip(paths, steps, strict=True)
                for load in one.loaded
                if not context.host_files.native(load, touched.tools[path], parents)
            ]
            context.log_discovery(session, step, sent, channel)
            loads.extend(sent)
            return self._hand_over(answer(event, context.fit(loads, dropped_notes(step.dropped))))

    def _record_host_load(self, payload: Mapping[str, Any]) -> None:
        """Claude Code's own load, into the same event log (a sub-agent's when `agent_id` is set)."""
        from jitctx.telemetry.events import event_from_instructions_loaded

        path = text_field(payload, "file_path")
        cwd = payload.get("cwd")
        root = find_root(cwd, _markers()) if isinstance(cwd, str) and os.path.isdir(cwd) else None
        try:
            size: int | None = os.stat(path).st_size
        except OSError:
            size = None
        record = event_from_instructions_loaded(payload, root=root, file_bytes=size)
        record.update(self.ids)
        self.event_store().append(record)

    def event_store(self) -> EventStore:
        from jitctx.telemetry.store import EventStore

        def warn(message: str) -> None:
            log_problem(self.env.state_dir, self.host.name, message)

        return EventStore(self.env.state_dir / "events", warn=warn)


def _saved_start(sessions: Path, key: str) -> str | None:
    """The directory a saved session started in (its quick index records it), if it still exists."""
    from jitctx.discovery.quick import quick_file_name, read_state_file

    try:  # a regular file of ours, bounded, never waited on (a FIFO there would block the hook)
        index = json.loads(read_state_file(str(sessions / quick_file_name(key))))
    except (OSError, ValueError, RecursionError):
        return None
    start = index.get("cwd") if isinstance(index, dict) else None
    if isinstance(start, str) and os.path.isabs(start) and "\0" not in start and os.path.isdir(start):
        return start
    return None


def _discovery_profile(host: str) -> Any:
    """jitctx's profile (every format), reading the host's own files as the host does: for Claude Code a
    nested CLAUDE.md loads whatever its `paths:` say, or jitctx would skip it where Claude Code loads it,
    and send it again later."""
    from jitctx.profiles import get_profile

    profile = get_profile(DISCOVERY_PROFILE)
    if host != "claude-code":
        return profile
    return replace(profile, unscoped_files=get_profile("claude-code").unscoped_files)


def _markers() -> tuple[str, ...]:
    from jitctx.profiles import ROOT_MARKERS

    return ROOT_MARKERS


class _Context:
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
    ) -> None:
        from jitctx.adapters.native import HostFiles
        from jitctx.discovery.store import SessionStore
        from jitctx.profiles import get_profile
        from jitctx.project import Project

        self.engine = engine
        self.session_id = session_id
        self.store = SessionStore(engine.env.state_dir / "sessions")
        # Namespaced, so a Codex and a Claude Code session (or `jitctx touch --session`) never share state.
        self.key = f"{engine.host.name}.{session_id}"
        self.transcript = transcript
        self.parent = None if fresh else self._forked_from(transcript)
        started_in = None if fresh else _saved_start(self.store.directory, self.parent or self.key)
        self.cwd = started_in or event_cwd
        self.project = Project(
            find_root(self.cwd, _markers()),
            profile=_discovery_profile(engine.host.name),
            home=engine.env.home,
        )
        self.host_files = HostFiles(
            get_profile(engine.host.name), self.project.root, self.cwd, self.project.home
        )
        self._events: EventStore | None = None

    def _forked_from(self, transcript: object) -> str | None:
        """The saved session this one's conversation was copied from (Claude Code's `--fork-session`),
        when this one has no state of its own yet."""
        if self.engine.host.name != "claude-code" or self.store.path_for(self.key).exists():
            return None
        from jitctx.adapters.claude_transcript import forked_from

        parent = forked_from(transcript, self.session_id)
        if parent is None:
            return None
        key = f"{self.engine.host.name}.{parent}"
        return key if self.store.path_for(key).exists() else None

    @contextmanager
    def open(self) -> Iterator[OpenSession]:
        with self.store.open(
            self.project, self.key, cwd=self.cwd, use_git=self.engine.env.use_git, inherit=self.parent
        ) as opened:
            if opened.inherited:
                self._keep_what_the_fork_holds(opened.session)
            yield opened

    def _keep_what_the_fork_holds(self, session: Session) -> None:
        """A fork starts from its parent's state as it is now; the parent may have been sent files after
        the point the conversation was copied from. Only files the fork's transcript shows arriving are
        kept: jitctx's `Contents of PATH` and the host's own loads, which name the absolute path."""
        from jitctx.adapters.claude_transcript import transcript_text

        text = transcript_text(self.transcript)
        if text is None:
            return  # too large or unreadable to tell: keep what the parent held
        for state in session.channels.values():
            for path, entry in list(state.loaded.items()):
                names = (f"Contents of {entry.display}", path)
                if not any(json.dumps(name, ensure_ascii=False)[1:-1].encode() in text for name in names):
                    state.forget(path)

    def outgoing(self, loads: tuple[Load, ...] | list[Load], tool: str | None) -> list[Load]:
        """The loads the host does not have by itself (`tool` None: at session start)."""
        parents: set[str] = set()
        return [load for load in loads if not self.host_files.native(load, tool, parents)]

    def with_trigger(self, step: Discovery) -> Discovery:
        """A step whose loads all name the touched path (the session leaves it out for unscoped files)."""
        from jitctx.discovery.boundary import is_inside, relative_posix

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

    def start(self, session: Session, channel: str = "main") -> list[Load]:
        """What a channel's start sends: its startup loads the host does not have, logged."""
        # What a changed file or the cwd brings early but the host loads by itself on its first read
        # there (a nested CLAUDE.md, a scoped .claude/rules file) is left to it, or it would arrive twice.
        parents: set[str] = set()
        startup = session.startup(
            channel, left_to_host=lambda load: self.host_files.loads_later(load, parents)
        )
        sent = self.outgoing(startup.loaded, None)
        self.log_startup(session, sent, signals=startup.signals, startup=startup, channel=channel)
        return sent

    def fit(self, loads: list[Load], notes: Sequence[str] = ()) -> str:
        return fit_with_notes(loads, notes, self.engine.env.limit)

    # -- telemetry: what jitctx sent; what the host loaded itself arrives through InstructionsLoaded ------

    def _append(self, record: dict[str, Any]) -> None:
        record["agent"] = self.engine.host.name
        record.update(self.engine.ids)
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
        from jitctx.telemetry.events import event_from_startup

        base = startup or Startup(self.project.root, self._cwd_shown(), DISCOVERY_PROFILE, (), (), (), ())
        record = event_from_startup(
            replace(base, signals=signals, loaded=tuple(sent)),
            session_id=self.session_id,
            cumulative_bytes=self._held_bytes(session, channel),
            channel=channel,
        )
        self._append(record)

    @staticmethod
    def _held_bytes(session: Session, channel: str) -> int:
        """What the channel carries: the body sizes the session recorded when it loaded each file (the
        same figure as telemetry.held_bytes(session.blocks()), without reading the texts again)."""
        state = session.channels.get(channel)
        if state is None:
            return 0
        blocks = state.blocks
        return sum(blocks[p].body_bytes if p in blocks else e.carried for p, e in state.loaded.items())

    def _cwd_shown(self) -> str:
        from jitctx.discovery.boundary import is_inside, relative_posix

        real = os.path.realpath(self.cwd)
        return (
            (relative_posix(real, self.project.root) or ".") if is_inside(real, self.project.root) else real
        )

    def log_discovery(self, session: Session, step: Discovery, sent: list[Load], channel: str) -> None:
        from jitctx.telemetry.events import event_from_discovery

        # A hit is a touch that brought instruction files, whoever delivered them: `loaded` lists what
        # jitctx sent, `host_loaded` what the host loaded itself (its bytes arrive in its own `load`
        # records through InstructionsLoaded), so the hit rate does not depend on who did the work.
        record = event_from_discovery(
            replace(step, loaded=tuple(sent), hit=bool(step.loaded)),
            session_id=self.session_id,
            root=self.project.root,
            cumulative_bytes=self._held_bytes(session, channel),
            cwd=self.cwd,
        )
        sent_paths = {load.file.path for load in sent}
        native = [load.file.path for load in step.loaded if load.file.path not in sent_paths]
        if native:
            record["host_loaded"] = native
        self._append(record)
