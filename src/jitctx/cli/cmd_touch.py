"""`jitctx touch`: one JIT discovery per path, after startup, in a session you can resume."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from jitctx.cli.cmd_startup import hooked_start_json
from jitctx.cli.common import add_common, count, open_project, print_json, table, warn
from jitctx.cli.routes import BY, NONE, add_without_hook, hooked_client, moments
from jitctx.cli.state import add_state_dir
from jitctx.cli.state_paths import state_dir
from jitctx.clients.base import Client
from jitctx.discovery.session import Session
from jitctx.discovery.store import OpenSession, SessionStore
from jitctx.errors import UsageError
from jitctx.hook.preview import TOUCH_KINDS
from jitctx.hook.preview import Moment as PlayedMoment
from jitctx.hook.touches import placed
from jitctx.model import Discovery, Startup
from jitctx.project import Project
from jitctx.reports.loads import startup_json
from jitctx.reports.table import shown
from jitctx.telemetry.events import event_from_discovery, event_from_startup, session_held_bytes
from jitctx.telemetry.store import EventStore

HELP = """\
Each PATH is what a tool call read or wrote. For each, jitctx walks from its directory up to the root
and loads the instruction files that touching it brings into scope: unconditional files on the chain
(nested_traversal) and scoped rules whose globs match it (path_glob_match). A file loads once per session.

With --session ID the session's state is kept in the state dir, so separate calls add up to one session
(the first call also runs startup), and its startup and discoveries are recorded in the event log (see
`jitctx log`, `jitctx stats`). Without it, each call is a new session and nothing is recorded (a line
on stderr says so).

`bytes` is the body of a file as the agent receives it (frontmatter left out), as in startup, budget
and stats; `jitctx provenance` shows the whole file's `size` instead.

With --agent naming a live client (claude-code, codex, gemini-cli, ...), the session is that client's
with jitctx's hook installed, played through the hook itself: each file says who brings it (the client
itself, jitctx's hook, or nobody) and why. --tool says how each PATH is touched (read, write, edit,
shell_read, shell_write; once for all, or once per PATH), as clients load different files after a
read than after a shell `cat` or a write. --without-hook shows what the client loads by itself.

examples:
  jitctx touch --root examples/monorepo src/ui/README.md src/ui/Footer.tsx
  jitctx touch --root examples/monorepo --agent codex --tool shell_read src/ui/Footer.tsx
  jitctx touch --root examples/monorepo --session demo tools/gen.py --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser, cwd=True)
    parser.add_argument("--session", metavar="ID", help="keep state under this session id (see below)")
    add_state_dir(parser)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files at startup")
    parser.add_argument(
        "--tool",
        action="append",
        choices=TOUCH_KINDS,
        metavar="KIND",
        help=f"with a live client's --agent: how PATH is touched, one of {', '.join(TOUCH_KINDS)} "
        "(default read; give it once for all paths or once per path)",
    )
    add_without_hook(parser)
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="touched paths, relative to --cwd or absolute"
    )


@contextmanager
def open_session(args: argparse.Namespace, project: Project, cwd: str) -> Iterator[OpenSession]:
    """The persisted session named by --session, or a fresh one."""
    if args.session is None:
        yield OpenSession(
            Session(project, cwd=cwd, session_id="ephemeral", use_git=not args.no_git), new=True
        )
        return
    store = SessionStore(state_dir(args) / "sessions")
    with store.open(project, args.session, cwd=cwd, use_git=not args.no_git) as opened:
        yield opened


class Moment(NamedTuple):
    """A startup or a discovery, with what the channel held right after it: what its record says."""

    result: Startup | Discovery
    held: int


def run_session(opened: OpenSession, paths: list[str]) -> tuple[Startup | None, list[Moment]]:
    """Startup (for a new session) and one discovery per path, each with the bytes held after it."""
    session = opened.session
    moments: list[Moment] = []
    startup = session.startup() if opened.new else None
    if startup is not None:
        moments.append(Moment(startup, session_held_bytes(session)))
    for path in paths:
        step = session.discover(path)
        moments.append(Moment(step, session_held_bytes(session)))
    return startup, moments


def record_events(args: argparse.Namespace, session: Session, moments: list[Moment]) -> None:
    """A named session is a real one: its startup and every discovery (misses too) go to the event log,
    each with the bytes held at its own moment and the profile that ran it."""
    store = EventStore(state_dir(args) / "events", warn=warn)
    agent = session.project.profile.name
    for result, held in moments:
        if isinstance(result, Startup):
            record = event_from_startup(
                result, session_id=session.session_id, cumulative_bytes=held, agent=agent
            )
        else:
            record = event_from_discovery(
                result,
                session_id=session.session_id,
                root=session.project.root,
                cumulative_bytes=held,
                cwd=session.cwd,
                agent=agent,
            )
        store.append(record)


def resolved(project: Project, cwd: str, path: str) -> str | None:
    """The root-relative path a touched PATH names (taken from the cwd, as discovery takes it); None
    when it is outside the project or not a usable path."""
    if "\0" in path:
        return None
    try:
        absolute = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        real = os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    except (OSError, ValueError):
        return None
    shown = project.display(real)
    return None if os.path.isabs(shown) else shown


def explain_resolution(project: Project, cwd: str, path: str, where: str | None) -> str | None:
    """A line for a relative PATH, taken from a cwd other than the root, that names no existing file:
    the path it resolved to, so `touch --cwd tests tests/x.py` shows it meant tests/tests/x.py."""
    if where is None or os.path.isabs(path) or os.path.realpath(cwd) == project.root:
        return None
    if os.path.lexists(os.path.join(project.root, where)):
        return None
    message = f"{path} resolved to {where} (relative to the cwd {project.display(os.path.realpath(cwd))})"
    if os.path.lexists(os.path.join(project.root, path)):
        message += f", which does not exist; {path} from the root does"
    return message


def step_json(step: Discovery, path: str | None = None) -> dict[str, Any]:
    document: dict[str, Any] = {
        "trigger": step.trigger,
        "path": path,
        "hit": step.hit,
        "loaded": [
            {
                "path": load.file.display,
                "reason": load.reason.value,
                "bytes": load.file.body_bytes,
                "updated": load.updated,
            }
            for load in step.loaded
        ],
        "scope_skipped": step.scope_skipped,
        "elapsed_ms": round(step.elapsed_ms, 3),
    }
    if step.note:
        document["note"] = step.note
    if step.dropped:
        document["dropped"] = list(step.dropped)
    return document


def run(args: argparse.Namespace) -> int:
    project, cwd = open_project(args)
    client = hooked_client(args)
    if client is not None:
        return _with_hook(args, client, project, cwd)
    if args.tool:
        raise UsageError("--tool needs --agent naming a live client (claude-code, codex, ...)")
    with open_session(args, project, cwd) as opened:
        for message in opened.warnings:
            warn(message)
        startup, moments = run_session(opened, args.paths)
        steps = [m.result for m in moments if isinstance(m.result, Discovery)]
        session_id = opened.session.session_id
        if args.session is not None:
            record_events(args, opened.session, moments)
    places = [resolved(project, opened.session.cwd, path) for path in args.paths]
    for path, where in zip(args.paths, places, strict=True):
        line = explain_resolution(project, opened.session.cwd, path, where)
        if line is not None:
            print(f"jitctx: {shown(line)}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "session": session_id,
                "startup": startup_json(startup) if startup is not None else None,
                "steps": [step_json(step, where) for step, where in zip(steps, places, strict=True)],
            }
        )
        return _said_if_unrecorded(args)
    if startup is not None:
        names = ", ".join(x.file.display for x in startup.loaded) or "-"
        print(f"startup: {count(len(startup.loaded), 'file')}: {names}")
        for message in startup.warnings:
            warn(message)
    rows: list[list[object]] = []
    for step, where in zip(steps, places, strict=True):
        touched = where if where is not None else step.trigger
        if not step.loaded:
            rows.append([touched, "-", "", "", f"{step.elapsed_ms:.2f}", step.note or "miss"])
        for index, load in enumerate(step.loaded):
            rows.append(
                [
                    touched if index == 0 else "",
                    load.file.display,
                    load.reason.value + (" (updated)" if load.updated else ""),
                    load.file.body_bytes,
                    f"{step.elapsed_ms:.2f}" if index == 0 else "",
                    step.note or "" if index == 0 else "",
                ]
            )
        for path in step.dropped:
            rows.append(["", path, "dropped", "", "", "left the session: its instructions no longer apply"])
    print(table(["touched", "loaded", "reason", "bytes", "ms", "note"], rows, right=(3, 4)))
    problems = {
        f"{x.path}: {x.why}" for step in steps for x in step.skipped if not x.why.startswith("scope ")
    }
    for message in sorted(problems):
        warn(message)
    return _said_if_unrecorded(args)


def _with_hook(args: argparse.Namespace, client: Client, project: Project, cwd: str) -> int:
    """A session of `client` with jitctx's hook: its start, then each PATH touched as --tool says,
    played through the hook (`hook.preview`); nothing is recorded."""
    if args.session is not None:
        raise UsageError(
            "--session records a session of jitctx's own discovery; with a live client's --agent the "
            "session is played through the hook and not recorded (add --without-hook to record one)"
        )
    kinds = args.tool or ["read"]
    if len(kinds) == 1:
        kinds = kinds * len(args.paths)
    if len(kinds) != len(args.paths):
        raise UsageError(
            f"--tool given {len(args.tool)} times for {len(args.paths)} paths: give it once, or once per PATH"
        )
    touches = [(kind, placed(cwd, path)) for kind, path in zip(kinds, args.paths, strict=True)]
    played = moments(client, cwd, touches, use_git=not args.no_git)
    if args.json:
        print_json(
            {
                "session": None,
                "agent": client.name,
                "hook": True,
                "startup": hooked_start_json(played[0], client, project, cwd),
                "steps": [_moment_json(moment, project) for moment in played[1:]],
            }
        )
        return 0
    rows: list[list[object]] = []
    for moment in played:
        label = (
            "start" if moment.path is None else f"{moment.tool or moment.kind} {project.display(moment.path)}"
        )
        if not moment.verdicts:
            rows.append([label, "-", "", "", moment.note or "nothing"])
        for index, verdict in enumerate(moment.verdicts):
            rows.append(
                [
                    label if index == 0 else "",
                    verdict.display,
                    BY[verdict.route],
                    verdict.load.file.body_bytes,
                    verdict.why,
                ]
            )
    print(table(["moment", "file", "brought by", "bytes", "why"], rows, right=(3,)))
    return 0


def _moment_json(moment: PlayedMoment, project: Project) -> dict[str, Any]:
    """One moment: what reaches the agent (`loaded`, by the client or jitctx) and every file decided."""
    document = moment.to_dict()
    document["trigger"] = moment.path
    document["path"] = project.display(moment.path) if moment.path is not None else None
    document["hit"] = any(v.route != NONE for v in moment.verdicts)
    document["loaded"] = [
        {
            "path": v.display,
            "route": v.route,
            "reason": v.load.reason.value,
            "bytes": v.load.file.body_bytes,
            "updated": v.load.updated,
        }
        for v in moment.verdicts
        if v.route != NONE
    ]
    return document


def _said_if_unrecorded(args: argparse.Namespace) -> int:
    """Said after the output, every time: a plain `touch` followed by an empty `jitctx stats` would look
    like a bug."""
    if args.session is None:
        print(
            "jitctx: nothing recorded (no --session); 'jitctx touch --session NAME PATH...' records the "
            "session for 'jitctx log' and 'jitctx stats'",
            file=sys.stderr,
        )
    return 0
