"""`jitctx render`: the text (or API payload) an agent would receive, within the profile's budget."""

from __future__ import annotations

import argparse
import json
import sys

from jitctx.assemble import PromptAssembler
from jitctx.assemble.budget import BudgetResult
from jitctx.assemble.render import render_payload
from jitctx.cli.cmd_touch import open_session
from jitctx.cli.common import add_common, open_project, print_json, warn
from jitctx.cli.state import add_state_dir
from jitctx.discovery.session import Session
from jitctx.govern.budget import fit_files

HELP = """\
Renders the instruction files a session holds — after startup and the --touch paths, or the current
blocks of a persisted --session — as the agent would receive them, cut to the profile's byte budget
(the broadest files are dropped first; a file that alone is over keeps its head and a visible notice).

What loaded at session start is the static zone (it does not change during a session); what JIT
discovery brought comes after the cache boundary. Formats: text (a system prompt with the boundary
marker), anthropic (Messages API: system blocks with a cache_control breakpoint after the static zone),
openai (the static zone as the first system message, JIT blocks at the end of the messages).

examples:
  jitctx render --root examples/monorepo --touch src/ui/Footer.tsx
  jitctx render --root examples/monorepo --agent codex --format openai --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser, cwd=True)
    parser.add_argument("--session", metavar="ID", help="render this persisted session (see jitctx touch)")
    add_state_dir(parser)
    parser.add_argument(
        "--touch", metavar="PATH", nargs="+", default=[], help="paths touched before rendering"
    )
    parser.add_argument(
        "--format",
        choices=("text", "anthropic", "openai"),
        default="text",
        help="the shape of the output (default: text; the formats are described below)",
    )
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files at startup")


def run(args: argparse.Namespace) -> int:
    project, cwd = open_project(args)
    with open_session(args, project, cwd) as opened:
        for message in opened.warnings:
            warn(message)
        if opened.new:
            opened.session.startup()
        for path in args.touch:
            opened.session.discover(path)
        blocks = opened.session.blocks()
        at_start = startup_paths(opened.session)
    # The same fitting as `jitctx budget --cwd`, so the two commands agree on what is cut.
    budget = fit_files(blocks, project)
    delivered = budget.delivered()
    # What loaded at session start stays the same all session: it is the cached static zone. What JIT
    # discovery brought goes after the boundary, where a new load costs only the dynamic part.
    static = [item for item in delivered if item.display in at_start]
    assembler = PromptAssembler(render_payload(static, project.profile.render), style=project.profile.render)
    assembler.add_files(item for item in delivered if item.display not in at_start)
    # As text, show the system prompt itself, boundary marker included, so the zones can be seen.
    prompt = assembler.system_prompt if args.format == "text" else assembler.render(args.format)
    if args.json:
        print_json(
            {
                "agent": project.profile.name,
                "format": args.format,
                "budget": budget.to_dict(),
                "prompt": prompt,
            }
        )
        return 0
    if isinstance(prompt, str):
        sys.stdout.write(prompt if prompt.endswith("\n") else prompt + "\n")
    else:
        print(json.dumps(prompt, ensure_ascii=False, indent=2))
    report_budget(budget)
    return 0


def startup_paths(session: Session) -> set[str]:
    """Display paths of what the main channel loaded at session start (with its imports).

    Startup always loads first, so those are the entries before the first JIT load."""
    state = session.channels.get("main")
    shown: set[str] = set()
    for entry in state.loaded.values() if state is not None else ():
        if entry.reason not in ("session_start", "include"):
            break
        shown.add(entry.display)
    return shown


def report_budget(budget: BudgetResult) -> None:
    """What did not fit, on stderr, so the rendered text on stdout stays clean."""
    for f in budget.files:
        if f.status != "kept":
            lost = f"{f.bytes_lost:,} lost ({f.chars_lost:,} characters)"
            warn(f"{f.display}: {f.status}, {f.bytes_kept:,} bytes kept, {lost}")
    print(
        f"jitctx: payload {budget.payload_bytes:,} bytes of {budget.limit:,} ({budget.mode} budget)",
        file=sys.stderr,
    )
