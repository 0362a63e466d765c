"""`jitctx mcp`: serve context_for_paths, explain and stats to any MCP client over stdio."""

from __future__ import annotations

import argparse
import sys

from jitctx.cli.common import add_agent, add_json, add_root, open_project, print_json, table
from jitctx.cli.state import add_state_dir, user_home
from jitctx.cli.state_paths import state_dir
from jitctx.errors import UsageError
from jitctx.hook.transports.mcp.server import TOOLS, McpTools, load_sdk, serve

HELP = """\
Speaks the Model Context Protocol on stdin/stdout (JSON-RPC; nothing else is written there) until the
client disconnects. Needs the optional extra: pip install 'jitctx[mcp]'.

tools:
  context_for_paths(paths, cwd?, session_id?)  instruction files that apply to the paths, each once per
                                               session; the first call of a session also runs startup
  explain(path, cwd?)                          why each instruction file does or does not load
  stats(session?, since?)                      statistics of the event log (as `jitctx stats --json`)
  hook_event(hook_event_name, session_id, ...) for Claude Code's mcp_tool hooks, not the model: answers
                                               a hook event in this running process (see
                                               `jitctx install claude-code --transport mcp`)

Sessions given a session_id are kept in the state dir, so they survive a server restart; calls without
one share a session that lives as long as the server. Discoveries are recorded in the event log.

examples:
  jitctx mcp --root examples/monorepo
  jitctx mcp --list-tools
  claude mcp add jitctx -- jitctx mcp --root "$PWD"
  MCP client config: {"command": "jitctx", "args": ["mcp", "--root", "/path/to/repo"]}
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_root(parser)
    add_agent(parser)
    add_state_dir(parser)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files at startup")
    parser.add_argument("--no-events", action="store_true", help="do not record discoveries in the event log")
    parser.add_argument(
        "--list-tools", action="store_true", help="print the tools and their arguments, then exit"
    )
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.list_tools:
        if args.json:
            print_json({"tools": [spec._asdict() for spec in TOOLS]})
        else:
            rows = [[spec.name, spec.arguments, spec.description.split(". ")[0]] for spec in TOOLS]
            print(table(["tool", "arguments", "what it answers"], rows))
        return 0
    if args.json:
        raise UsageError("--json goes with --list-tools; the server itself speaks JSON-RPC on stdout")
    load_sdk()  # before anything else, so a missing extra is the first and only message
    project, cwd = open_project(args)

    tools = McpTools(
        project,
        cwd=cwd,
        state_dir=state_dir(args),
        use_git=not args.no_git,
        record_events=not args.no_events,
        home=user_home(),
    )
    print(f"jitctx mcp: serving {project.root} on stdio", file=sys.stderr)
    serve(tools)
    return 0
