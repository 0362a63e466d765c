"""`jitctx render`: the text (or API payload) an agent would receive, within the profile's budget."""

from __future__ import annotations

import argparse
import json
import sys

from jitctx.assemble import PromptAssembler, fit_profile
from jitctx.assemble.budget import BudgetResult
from jitctx.cli.cmd_touch import open_session
from jitctx.cli.common import add_common, open_project, print_json, warn
from jitctx.cli.state import add_state_dir

HELP = """\
Renders the instruction files a session holds — after startup and the --touch paths, or the current
blocks of a persisted --session — as the agent would receive them, cut to the profile's byte budget
(the broadest files are dropped first; a file that alone is over keeps its head and a visible notice).

formats: text (a system prompt with a cache boundary), anthropic (Messages API: system blocks with a
cache_control breakpoint after the static zone), openai (dynamic content at the end of the messages).

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
    parser.add_argument("--format", choices=("text", "anthropic", "openai"), default="text")
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
    budget = fit_profile(blocks, project.profile)
    assembler = PromptAssembler(style=project.profile.render)
    assembler.add_files(budget.delivered())
    prompt = assembler.render(args.format)
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
