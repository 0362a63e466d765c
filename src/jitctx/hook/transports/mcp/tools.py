"""The behaviour of `jitctx mcp`'s tools, without the protocol: `McpTools` answers each call with plain
data, a `ToolAnswer` (a JSON document, the text a model reads, an error flag), and never raises, since
tool arguments come from a model and are treated as hostile. `mcp_server` hands the answers to the SDK.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.clients import all_clients
from jitctx.discovery.explain import explain
from jitctx.discovery.session import Session
from jitctx.discovery.store import SessionStore
from jitctx.errors import JitctxError, UsageError
from jitctx.govern.skills import unused_skills
from jitctx.hook import MAX_INPUT
from jitctx.hook.fast_lane import try_quick
from jitctx.hook.log import log_problem
from jitctx.hook.pipeline import respond
from jitctx.hook.transports.mcp.text import check_text, context_text, stats_text, text_problem
from jitctx.paths import is_inside
from jitctx.reports.explain import to_json, to_text
from jitctx.reports.loads import load_json
from jitctx.reports.stats import stats_document
from jitctx.telemetry.events import event_from_discovery, event_from_startup, session_held_bytes
from jitctx.telemetry.scan import stats_from_log
from jitctx.telemetry.store import EventStore, parse_since

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from jitctx.clients.base import Client
    from jitctx.model import Discovery, Load, Startup
    from jitctx.project import Project

MAX_PATHS = 1000  # per call; a model asking for more is looping, not working
# An answer written later than this after a hook_event call began is not counted as sent: the mcp_tool
# hooks install writes time out after 10 s, and the client drops what comes after.
HOOK_DEADLINE_S = 8.0


class ToolAnswer(NamedTuple):
    document: dict[str, Any]  # structured content
    text: str  # what the model reads
    error: bool = False


# Hands an answer to the client before the session is saved; raises when it did not arrive.
Deliver = Callable[[ToolAnswer], None]


class ToolSpec(NamedTuple):
    name: str
    arguments: str
    description: str


TOOLS = (
    ToolSpec(
        "context_for_paths",
        "paths: list[str], cwd: str | None, session_id: str | None",
        "Instruction files (CLAUDE.md, AGENTS.md, scoped rules...) that apply to the files or directories "
        "you are about to read or edit. Call it with the paths before working on them; each file comes "
        "back once per session (pass the same session_id on every call). Relative paths are taken from "
        "cwd, itself relative to the project root (default: the server's working directory).",
    ),
    ToolSpec(
        "explain",
        "path: str, cwd: str | None",
        "Why each instruction file does or does not reach an agent that touches `path`: startup, "
        "directory chain, scope globs against the path, unreadable files.",
    ),
    ToolSpec(
        "stats",
        "session: str | None, since: str | None",
        "Statistics of recorded sessions: hit rate, bytes per load, waste rate, cumulative bytes, "
        "latency, most loaded files. `since`: a date or an age such as 24h or 7d.",
    ),
    ToolSpec(
        "hook_event",
        "hook_event_name: str, session_id: str, cwd: str, ... (one per field of the hook input)",
        "Called by Claude Code's hooks (type mcp_tool, written by `jitctx install claude-code --transport "
        "mcp`), not by the model: answers a hook event from this running server, as `jitctx hook "
        "claude-code` would from a new process.",
    ),
)


def events_dir(state_dir: Path) -> Path:
    """Where the event log lives under a state dir (shared with the hooks and `jitctx stats`)."""
    return state_dir / "events"


class McpTools:
    """The tools' behaviour without the protocol, for one project.

    A session_id names a session kept in `state_dir/sessions`, so a client gets each file once across
    calls and restarts (hook sessions live there too, under `claude-code.<id>` / `codex.<id>`, and are
    not shared). Calls without one share a session held in memory for the server's lifetime; the first
    such call's cwd is its startup cwd.

    A file counts as sent once its answer reached the client. A transport passes `deliver`, which the
    tools call with the answer while the session is still held, before it is saved: when `deliver`
    raises (the client went away, the answer could not be written), the session stays as it was, and
    the next call of the session sends the files again. Without `deliver`, returning is delivering.
    """

    def __init__(
        self,
        project: Project,
        *,
        cwd: str,
        state_dir: Path,
        use_git: bool = True,
        record_events: bool = True,
        home: str | None = None,
    ) -> None:
        self.project = project
        self.home = home  # the user's home, for hook events (their user-level files and config)
        self.cwd = os.path.realpath(cwd)
        self.state_dir = state_dir
        self.use_git = use_git
        self.store = SessionStore(state_dir / "sessions")
        self.events = _event_store(events_dir(state_dir)) if record_events else None
        # Without a session_id, calls share one session for the server's lifetime.
        self._memory: Session | None = None
        self._memory_id = f"mcp-{uuid.uuid4().hex[:12]}"
        # The server runs each call on a thread of its own; sessions are not thread-safe.
        self._lock = threading.Lock()

    # -- the tools ------------------------------------------------------------------------------------

    def context_for_paths(
        self,
        paths: Sequence[str],
        cwd: str | None = None,
        session_id: str | None = None,
        deliver: Deliver | None = None,
    ) -> ToolAnswer:
        return guarded(lambda: self._context_for_paths(paths, cwd, session_id, deliver))

    def explain(self, path: str, cwd: str | None = None) -> ToolAnswer:
        return guarded(lambda: self._explain(path, cwd))

    def stats(self, session: str | None = None, since: str | None = None) -> ToolAnswer:
        return guarded(lambda: self._stats(session, since))

    def hook_event(self, fields: dict[str, Any], deliver: Deliver | None = None) -> ToolAnswer:
        """A client's hook event, answered in this process through the one hook pipeline: the hook JSON
        as the text (the client parses the tool's text as a hook's output), `{}` on any problem, which
        goes to the hook log."""
        read = self._hook_input(fields)
        if isinstance(read, ToolAnswer):
            return read
        client, raw = read
        started = time.monotonic()

        def hand_over(answer: dict[str, Any]) -> None:
            # Called before the session is saved (hook.pipeline): an answer that did not reach the client,
            # or reached it past the hook's timeout (the client has dropped the call), leaves nothing
            # counted as sent, and the next event sends it again.
            if deliver is not None:
                deliver(_hook_answer(answer))
            if time.monotonic() - started > HOOK_DEADLINE_S:
                raise TimeoutError("the mcp_tool hook's timeout passed before the answer was written")

        # Sessions on disk are locked per file; this keeps one event at a time here.
        with self._lock:
            answer = respond(
                client, raw, state_dir=str(self.state_dir), home=self.home, use_git=self.use_git,
                deliver=hand_over, origin_pid=os.getppid(),  # the client started this server
            )  # fmt: skip
        return _hook_answer(answer)

    def quick_hook_event(self, fields: dict[str, Any]) -> ToolAnswer | None:
        """`hook_event`'s answer when it is `{}` whatever the session holds: an event it cannot take, or
        one the pipeline's fast lane proves loads nothing (its record written); None: `hook_event`
        answers. For a transport that must not wait for a session where it runs: nothing here does. The
        fast lane runs under an alarm, so only on the main thread; elsewhere it leaves the event alone."""
        read = self._hook_input(fields)
        if isinstance(read, ToolAnswer):
            return read
        client, raw = read
        try:
            answered = len(raw) <= MAX_INPUT and try_quick(client, raw, str(self.state_dir))
        except Exception:  # as in the pipeline: an optimisation; hook_event answers, and logs what is wrong
            return None
        return _hook_answer({}) if answered else None

    def _hook_input(self, fields: dict[str, Any]) -> tuple[Client, bytes] | ToolAnswer:
        """The client and the raw event of a hook_event call, or the `{}` answer of one it cannot take
        (logged)."""
        client = all_clients.mcp_hook_client()
        try:
            payload = client.mcp_payload(fields)
        except ValueError as exc:
            log_problem(self.state_dir, client.name, f"mcp hook_event: {exc}")
            return _hook_answer({})
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not is_inside(os.path.realpath(cwd), self.project.root):
            # The model can call this tool too: it answers for this server's project only, as every
            # other tool here does (the hooks of a session in another project run their own server).
            log_problem(
                self.state_dir, client.name, f"mcp hook_event: cwd {cwd!r} is outside {self.project.root}"
            )
            return _hook_answer({})
        return client, json.dumps(payload).encode("utf-8", "surrogatepass")

    # -- implementations ------------------------------------------------------------------------------

    def _context_for_paths(
        self, paths: Sequence[str], cwd: str | None, session_id: str | None, deliver: Deliver | None
    ) -> ToolAnswer:
        if isinstance(paths, str) or not all(isinstance(p, str) for p in paths):
            raise UsageError("paths must be a list of strings")
        if not paths:
            raise UsageError("paths is empty: give the files or directories you are about to work on")
        if len(paths) > MAX_PATHS:
            raise UsageError(f"{len(paths)} paths in one call; at most {MAX_PATHS}")
        base = self._cwd(cwd)
        with self._lock:
            if session_id is None:
                return self._touch_memory(paths, base, deliver)
            check_text(session_id, "session_id")
            with self.store.open(self.project, session_id, cwd=base, use_git=self.use_git) as opened:
                answer = self._touch(opened.session, paths, base, opened.warnings)
                if deliver is not None:
                    deliver(answer)  # raising ends the block in error: the session is not saved
                return answer

    def _touch_memory(self, paths: Sequence[str], base: str, deliver: Deliver | None) -> ToolAnswer:
        """`_touch` on the session without an id; one whose answer was not delivered goes back to what it
        held before (its scanned directories are looked at again)."""
        session = self._memory
        if session is None:
            session = Session(self.project, cwd=base, session_id=self._memory_id, use_git=self.use_git)
        before = session.to_state() if deliver is not None and session.started else None
        answer = self._touch(session, paths, base, [])
        if deliver is not None:
            try:
                deliver(answer)
            except BaseException:
                self._memory = None
                if before is not None:
                    self._memory = Session(
                        self.project, cwd=session.cwd, session_id=self._memory_id, use_git=self.use_git
                    )
                    self._memory.restore(before)
                raise
        self._memory = session
        return answer

    def _touch(self, session: Session, paths: Sequence[str], base: str, warnings: list[str]) -> ToolAnswer:
        loads: list[Load] = []
        started = not session.started
        if started:
            startup = session.startup()
            loads.extend(startup.loaded)
            warnings.extend(startup.warnings)
            self._record_startup(session, startup)
        touched: list[dict[str, Any]] = []
        dropped: list[str] = []
        for raw in paths:
            problem = text_problem(raw)
            if problem is not None:
                touched.append({"path": ascii(raw), "hit": False, "note": f"not a path: it {problem}"})
                continue
            try:
                step = session.discover(os.path.join(base, os.path.expanduser(raw)))
            except (OSError, ValueError, RecursionError) as exc:  # this path only: the others still answer
                touched.append({"path": raw, "hit": False, "note": f"could not be looked up: {exc}"})
                continue
            self._record_discovery(session, step, base)
            loads.extend(step.loaded)
            dropped.extend(step.dropped)
            warnings.extend(step.warnings)
            entry: dict[str, Any] = {
                "path": raw,
                "hit": step.hit,
                "loaded": [x.file.display for x in step.loaded],
            }
            if step.note:
                entry["note"] = step.note
            touched.append(entry)
        document = {
            "root": self.project.root,
            "session_id": session.session_id,
            "startup": started,
            "files": [_file_json(load, load_json(load)) for load in loads],
            "touched": touched,
            "dropped": dropped,
            "warnings": list(dict.fromkeys(warnings)),
        }
        return ToolAnswer(document, context_text(loads, touched, dropped))

    def _explain(self, path: str, cwd: str | None) -> ToolAnswer:
        check_text(path, "path")
        base = self._cwd(cwd)
        with self._lock:
            result = explain(self.project, os.path.expanduser(path), cwd=base, use_git=self.use_git)
        return ToolAnswer(to_json(result, self.project), to_text(result, self.project))

    def _stats(self, session: str | None, since: str | None) -> ToolAnswer:
        for value, what in ((session, "session"), (since, "since")):
            if value is not None:
                check_text(value, what)
        moment = parse_since(since, datetime.now(UTC)) if since else None
        directory = events_dir(self.state_dir)
        result = stats_from_log(directory, since=moment, session=session or None)
        document = stats_document(directory, result, unused_skills(result))
        return ToolAnswer(document, stats_text(document, directory))

    def _cwd(self, cwd: str | None) -> str:
        """The call's cwd: inside the project, existing; relative to the root when relative."""
        if cwd is None:
            return self.cwd
        check_text(cwd, "cwd")
        real = os.path.realpath(os.path.join(self.project.root, os.path.expanduser(cwd)))
        if not is_inside(real, self.project.root):
            raise UsageError(f"cwd {cwd!r} is outside the project {self.project.root}")
        if not os.path.isdir(real):
            raise UsageError(f"cwd {cwd!r} is not a directory under {self.project.root}")
        return real

    # -- events ---------------------------------------------------------------------------------------

    def _record_startup(self, session: Session, startup: Startup) -> None:
        if self.events is not None:
            self.events.append(event_from_startup(startup, session_id=session.session_id))

    def _record_discovery(self, session: Session, step: Discovery, base: str) -> None:
        if self.events is not None:
            event = event_from_discovery(
                step,
                session_id=session.session_id,
                root=self.project.root,
                cumulative_bytes=session_held_bytes(session, step.channel),
                cwd=base,
                agent=self.project.profile.name,
            )
            self.events.append(event)


def _hook_answer(answer: dict[str, Any]) -> ToolAnswer:
    return ToolAnswer(answer, json.dumps(answer, ensure_ascii=False))


def _file_json(load: Load, described: dict[str, Any]) -> dict[str, Any]:
    if load.parent is not None:
        described["parent"] = load.parent  # the file whose @import brought this one
    described["text"] = load.file.text
    return described


def _event_store(directory: Path) -> EventStore:
    # stdout carries the protocol: a warning printed there would corrupt it.
    return EventStore(directory, warn=lambda message: print(f"jitctx mcp: {message}", file=sys.stderr))


def guarded(work: Callable[[], ToolAnswer]) -> ToolAnswer:
    """Run one tool; every failure becomes an error answer, so no argument can stop the server."""
    try:
        return work()
    except JitctxError as exc:
        message = str(exc)
    except (OSError, ValueError) as exc:
        message = f"{type(exc).__name__}: {exc}"
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        message = f"internal error ({type(exc).__name__}: {exc}); this is a bug in jitctx, please report it"
    return ToolAnswer({"error": message}, f"jitctx: {message}", error=True)
