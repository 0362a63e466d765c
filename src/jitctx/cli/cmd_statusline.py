"""`jitctx statusline`: one short line saying which instruction files are in the session's context now, for
an agent's status line (Claude Code runs it after every message, with the session's JSON on stdin).

It runs after every message, so `fast_main` answers without building the argparse parser; the line comes
from the session state and the end of the event log (`reports.in_context`). It never fails where the agent
shows it: bad input, no session yet, a state it cannot read, any error at all give a short neutral line and
exit 0.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

from jitctx.cli.state import add_state_dir, state_dir_path
from jitctx.clients import all_clients
from jitctx.reports.in_context import (
    STATUS_LINE_LOG_BYTES,
    StateUnreadable,
    context_json,
    human_bytes,
    in_context,
    why,
)

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from jitctx.reports.in_context import InContext

HELP = """\
Reads the status line JSON an agent gives on stdin (Claude Code's: session_id, transcript_path, cwd,
workspace, model, ...) and prints one line: how many instruction files jitctx knows are in that session's
context now, what they weigh, and the one that arrived last and why:

  jitctx 7 files · 12.3 KiB · latest src/ui/CLAUDE.md (touched src/ui/Footer.tsx)

"In context" is what jitctx sent in the session's main channel and what the agent loaded itself, as
jitctx's session state holds it (<state dir>/sessions/); after a compaction, what was sent again. When,
why and by whom each file arrived comes from the event log (<state dir>/events/). `jitctx log --session`
shows the same list as a table.

It never fails in the agent's status line: without a session yet, with input it cannot read, or with a
state it cannot read, it prints a short neutral line and exits 0.

Set it up with `jitctx install claude-code --statusline`, which leaves a status line you have alone; or
call it from your own status line script with the same stdin:

  input=$(cat); echo "$(echo "$input" | jitctx statusline) | $(echo "$input" | jq -r .model.display_name)"

examples:
  echo '{"session_id": "61da82e1-..."}' | jitctx statusline
  jitctx statusline --json < status.json
  echo '{"session_id": "..."}' | jitctx statusline --agent claude-code --state-dir /tmp/st
"""

MAX_INPUT = 1024 * 1024  # a status line's JSON is a few KB
_PATH_WIDTH = 48  # a longer path is shown by its end: the file name says most


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument(
        "--agent",
        choices=all_clients.choices(),
        help="whose session id stdin names (default: the agent with a session saved under that id)",
    )
    add_state_dir(parser)
    parser.add_argument("--json", action="store_true", help="the list as one JSON document, with the line")


def run(args: argparse.Namespace) -> int:
    agent = None if args.agent is None else all_clients.canonical(args.agent)  # `claude`: claude-code
    state = None if args.state_dir is None else os.path.expanduser(args.state_dir)
    return answer(agent, state, args.json)


def fast_main(argv: Sequence[str]) -> int | None:
    """`jitctx statusline [--agent A] [--state-dir DIR] [--json]` without argparse; None when `argv`
    asks for anything else (--help, a typo), so that the caller builds the parser and its messages."""
    agent: str | None = None
    state: str | None = None
    as_json = False
    rest = list(argv)
    while rest:
        option = rest.pop(0)
        if option.startswith(("--agent=", "--state-dir=")):
            option, value = option.split("=", 1)
            rest.insert(0, value)
        if option == "--json":
            as_json = True
        elif option in ("--agent", "--state-dir") and rest and not rest[0].startswith("-"):
            value = rest.pop(0)
            if option == "--state-dir":
                state = os.path.expanduser(value)
            elif value in all_clients.names():
                agent = value
            else:
                return None  # an alias or a typo: argparse's choices say which
        else:
            return None
    return answer(agent, state, as_json)


def answer(agent: str | None, state: str | None, as_json: bool) -> int:
    """Print the status line (or its JSON) for the session named on stdin; always 0."""
    try:
        line, document = status(read_stdin(), agent, state, whole=as_json)
    except Exception as exc:  # never a traceback where the agent shows the line
        line = "jitctx · status unavailable"
        document = {"schema_version": 1, "problem": f"{exc.__class__.__name__}: {exc}"}
    document["line"] = line
    try:
        if as_json:
            sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):  # the agent stopped reading: nothing left to say
        pass
    return 0


def read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():
        return b""  # run by hand at a terminal: no session to read, and no wait for one
    buffer = getattr(stream, "buffer", None)
    data = buffer.read(MAX_INPUT + 1) if buffer is not None else stream.read(MAX_INPUT + 1)
    return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data


def status(
    raw: bytes, agent: str | None, state: str | None, whole: bool = False
) -> tuple[str, dict[str, Any]]:
    """The line and the JSON document for the status line input `raw`; `whole`: the arrival of every
    file, not only of the latest (within the same bound on how much of the log is read)."""
    session_id = None
    if len(raw) <= MAX_INPUT:
        try:
            given = json.loads(raw)
        except (ValueError, RecursionError):
            given = None
        session_id = given.get("session_id") if isinstance(given, dict) else None
    if not isinstance(session_id, str) or not session_id:
        return "jitctx · no session", _document(None, None, "no session id on stdin")

    if state is None:
        state = state_dir_path()

    agents = [agent] if agent is not None else list(all_clients.names())
    try:
        context = in_context(
            os.path.abspath(state),
            session_id,
            agents,
            latest_only=not whole,
            max_log_bytes=STATUS_LINE_LOG_BYTES,
        )
    except StateUnreadable as exc:
        return "jitctx · session state unreadable", _document(session_id, None, f"state unreadable: {exc}")
    return line_of(context), _document(session_id, context, None)


def line_of(context: InContext | None) -> str:
    """`jitctx 7 files · 12.3 KiB · latest src/ui/CLAUDE.md (touched src/ui/Footer.tsx)`."""
    latest = context.latest if context is not None else None
    if context is None or latest is None:
        return "jitctx · no instruction files in context yet"
    count = len(context.files)
    reason = why(latest, context.root)
    return (
        f"jitctx {count} file{'' if count == 1 else 's'} · {human_bytes(context.bytes_carried)} · "
        f"latest {_short(latest.path)} ({_short(reason)})"
    )


def _short(text: str) -> str:
    return text if len(text) <= _PATH_WIDTH else "…" + text[-(_PATH_WIDTH - 1) :]


def _document(session_id: str | None, context: InContext | None, problem: str | None) -> dict[str, Any]:
    """`reports.in_context.context_json`, versioned (cli.common.SCHEMA_VERSION: its module would cost
    every status line its start)."""
    return {"schema_version": 1, **context_json(context, session_id, problem)}
