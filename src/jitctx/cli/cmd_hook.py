"""`jitctx hook CLIENT`: answer one hook event of a live client (JSON on stdin, JSON on stdout).

This runs on every tool call: `fast_main` reads the usual arguments without building the argparse
parser. The answering itself is the hook's process transport (jitctx.hook.transports.process); with --warm it
first hands the event to the warm daemon (jitctx.hook.transports.warm).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

from jitctx.cli.state import state_dir_path, user_home
from jitctx.clients import all_clients
from jitctx.errors import JitctxError
from jitctx.hook import MAX_INPUT
from jitctx.hook.transports import process

if TYPE_CHECKING:
    import argparse
    from pathlib import Path


# Read by `fast_main` before argparse is built: the registry's names and its clients' aliases.
def agents() -> list[str]:
    return all_clients.choices()


HELP = """\
Reads ONE hook event as JSON on stdin and prints the answer as JSON on stdout:
{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}} when instruction files apply,
{} when there is nothing to add. It always exits 0; problems (bad JSON, input over 8 MiB, an unknown event,
a state dir that cannot be written, more than 1 s of work on one event) are logged to <state dir>/hook.log
and answered with {}, so the agent is never blocked.

With --warm the event is handed to a jitctx process of yours that stays up (started by the first such
call, in the background; it exits after 10 idle minutes) and answers without this process importing the
engine. It listens on a socket in <state dir>/warm/, a directory only you can enter, and serves only your
user and this same environment; whenever it cannot answer, this process answers as without --warm.

Events, in each client's own names: a session start (startup, resume, clear, compact), a prompt (its
@path mentions count as touches: UserPromptSubmit, Gemini CLI's BeforeAgent), tool calls (the paths they
read or wrote: PostToolUse, PostToolBatch, AfterTool), a sub-agent's start, and Claude Code's
InstructionsLoaded (recorded in the event log, so `jitctx stats` covers the agent's own loads too). Files
the agent loads by itself are not sent; each other file is sent once per session, and again after
compaction. Register it with `jitctx install CLIENT`; `jitctx profiles` lists the clients.

examples:
  echo '{"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": "'$PWD'",
         "tool_name": "Read", "tool_input": {"file_path": "src/api/users.ts"}}' | jitctx hook claude-code
  jitctx hook codex < event.json
  jitctx hook gemini-cli < after-tool.json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument("agent", choices=agents(), help="whose hook event this is")
    # Not jitctx.cli.common.add_state_dir: importing that module pulls in the whole project model.
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where session state and events are kept (default: $JITCTX_STATE_DIR, else "
        "$XDG_STATE_HOME/jitctx, else ~/.local/state/jitctx)",
    )
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files at startup")
    parser.add_argument(
        "--warm",
        action="store_true",
        help="let a jitctx process that stays up answer (see below): the hook starts faster",
    )
    parser.add_argument(
        "--json", action="store_true", help="accepted for uniformity: the answer is always JSON"
    )


def run(args: argparse.Namespace) -> int:
    given = None if args.state_dir is None else str(args.state_dir)
    return answer(args.agent, given, use_git=not args.no_git, warm=args.warm)


def serve(
    agent: str,
    *,
    state_dir: Path | None = None,
    use_git: bool = True,
    stdin: BinaryIO | None = None,
    stdout: Any = None,
) -> int:
    """Answer one event from `stdin` on `stdout` (the process transport); always 0, whatever happens."""
    try:
        chosen = str(state_dir) if state_dir is not None else state_dir_path()
    except JitctxError as exc:
        return process.unanswerable(agent, exc, stdout)
    raw, problem = process.read_input(stdin or sys.stdin.buffer)
    return process.answer(
        agent, raw, state_dir=str(chosen), home=user_home(), use_git=use_git, problem=problem, stdout=stdout
    )


def fast_main(argv: Sequence[str]) -> int | None:
    """`jitctx hook AGENT [--state-dir DIR] [--no-git] [--warm] [--json]` without argparse; None when
    `argv` asks for anything else (help, a typo), so the caller falls back to the full parser and its
    messages.

    `--serve-warm` (be the warm daemon) is read here only: it is the daemon's own command line, which
    the warm client writes (jitctx.hook.transports.warm.client), not an option for people, so the parser
    does not know it and `--help` does not show it."""
    if not argv or all_clients.canonical(argv[0]) is None:
        return None
    state: str | None = None
    use_git = True
    warm = serve_warm = False
    rest = list(argv[1:])
    while rest:
        option = rest.pop(0)
        if option == "--no-git":
            use_git = False
        elif option == "--warm":
            warm = True
        elif option == "--serve-warm":
            serve_warm = True
        elif option == "--json":
            continue
        elif option == "--state-dir" and rest:
            state = rest.pop(0)
        elif option.startswith("--state-dir="):
            state = option.split("=", 1)[1]
        else:
            return None
    return answer(argv[0], state, use_git=use_git, warm=warm, serve_warm=serve_warm)


def answer(
    agent: str, state: str | None, *, use_git: bool, warm: bool = False, serve_warm: bool = False
) -> int:
    """Answer the event on stdin (the process transport: through the warm daemon with --warm, else the
    one hook pipeline, its fast lane, then the engine); or, with --serve-warm, be the daemon. Both command
    lines (`fast_main`, argparse's `run`) end here, where the state dir and the home are decided."""
    try:
        chosen = os.path.abspath(state) if state is not None else state_dir_path()
    except Exception as exc:  # no home and no private place for state: nothing to keep, nothing to log
        if serve_warm:
            return 0
        return process.unanswerable(agent, exc)
    if serve_warm:
        # This process becomes the warm daemon, which keeps the engine loaded: a hook never loads it.
        from jitctx.hook.transports.warm.server import serve_warm as run_daemon

        return run_daemon(agent, chosen, user_home(), use_git)
    problem: str | None = None
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT + 1)  # the pipeline refuses more; no need to read it all
    except (OSError, ValueError) as exc:
        raw, problem = b"", f"cannot read stdin ({exc})"
    return process.answer(
        agent, raw, state_dir=chosen, home=user_home(), use_git=use_git, problem=problem, warm=warm
    )
