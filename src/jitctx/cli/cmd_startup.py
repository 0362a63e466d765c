"""`jitctx startup`: what loads when a session starts, from which signals, and what was skipped."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from jitctx.cli.common import add_common, open_project, print_json, table, warn
from jitctx.cli.routes import BY, add_without_hook, hooked_client, moments
from jitctx.clients.base import Client
from jitctx.discovery.session import Session
from jitctx.hook.decide import NONE
from jitctx.hook.preview import Moment
from jitctx.project import Project
from jitctx.reports.loads import load_json, load_rows, startup_json

HELP = """\
Startup loads every unconditional instruction file on the chain from the root to the cwd, plus the
scoped rules that a startup signal matches: the cwd marker ('src/ui/') and the files git reports as
changed under the cwd. Scoped rules nobody touches wait for JIT discovery. With many changed files the
signals line shows how many there are and the first few; --json lists them all.

`bytes` is the body of a file as the agent receives it (frontmatter left out), as in touch, budget and
stats; `jitctx provenance` shows the whole file's `size` instead.

With --agent naming a live client (claude-code, codex, ...), each file says who brings it at the start
of that client's session with jitctx's hook installed: the client itself or jitctx's hook (and which
files nobody sends, and why), as the hook decides it. --without-hook shows the client alone.

examples:
  jitctx startup --root examples/monorepo
  jitctx startup --root examples/monorepo --agent codex
  jitctx startup --root examples/monorepo --cwd src/ui --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser, cwd=True)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files")
    add_without_hook(parser)


def run(args: argparse.Namespace) -> int:
    project, cwd = open_project(args)
    client = hooked_client(args)
    if client is not None:
        return _with_hook(args, client, project, cwd)
    result = Session(project, cwd=cwd, use_git=not args.no_git).startup()
    if args.json:
        print_json(startup_json(result))
        return 0
    print(f"root    {result.root}")
    print(f"cwd     {result.cwd}")
    print(f"agent   {result.agent}")
    print(f"signals {signals_line(result.signals)}")
    print()
    if result.loaded:
        rows = load_rows(result.loaded)
        total_bytes = sum(int(str(r[3])) for r in rows)
        total_tokens = sum(int(str(r[4])) for r in rows)
        rows.append(["total", "", "", total_bytes, total_tokens, ""])
        print(table(["loaded", "tier", "reason", "bytes", "~tokens", "signal"], rows, right=(3, 4)))
    else:
        print("nothing loads at startup")
    if result.skipped:
        print()
        print(table(["not loaded", "why"], [[s.path, s.why] for s in result.skipped]))
    for message in result.warnings:
        warn(message)
    return 0


def _with_hook(args: argparse.Namespace, client: Client, project: Project, cwd: str) -> int:
    """The start of a session of `client` with jitctx's hook, as the hook decides it."""
    start = moments(client, cwd, (), use_git=not args.no_git)[0]
    document = hooked_start_json(start, client, project, cwd)
    if args.json:
        print_json(document)
        return 0
    print(f"root    {document['root']}")
    print(f"cwd     {document['cwd']}")
    print(f"agent   {client.name} (with jitctx's hook)")
    print(f"signals {signals_line(start.signals)}")
    print()
    if not start.verdicts:
        print("nothing loads at startup")
        return 0
    rows = [
        [v.display, BY[v.route], v.load.reason.value, v.load.file.body_bytes, v.why] for v in start.verdicts
    ]
    print(table(["file", "brought by", "reason", "bytes", "why"], rows, right=(3,)))
    return 0


def hooked_start_json(start: Moment, client: Client, project: Project, cwd: str) -> dict[str, Any]:
    """A previewed start as `startup --json` shows it: `loaded` is what reaches the agent (from the
    client itself or from jitctx, `route`), `files` every file the hook decided, with why."""
    shown = project.display(os.path.realpath(cwd))
    return {
        "root": project.root,
        "cwd": shown if not os.path.isabs(shown) else ".",
        "agent": client.name,
        "signals": list(start.signals),
        "loaded": [{**load_json(v.load), "route": v.route} for v in start.verdicts if v.route != NONE],
        "skipped": [],
        "warnings": [],
        "hook": True,
        "files": [v.to_dict() for v in start.verdicts],
    }


SHOWN_SIGNALS = 5


def signals_line(signals: Sequence[str]) -> str:
    """The startup signals for a person: all of a few, else how many and the first `SHOWN_SIGNALS`
    (a checkout with a thousand changed files would print one line of tens of thousands of characters)."""
    if not signals:
        return "(none)"
    if len(signals) <= SHOWN_SIGNALS:
        return ", ".join(signals)
    first = ", ".join(signals[:SHOWN_SIGNALS])
    return f"{len(signals):,} ({first}, and {len(signals) - SHOWN_SIGNALS:,} more; --json lists all)"
