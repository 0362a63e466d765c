"""`jitctx startup`: what loads when a session starts, from which signals, and what was skipped."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from jitctx.cli.common import add_common, open_project, print_json, table, warn
from jitctx.discovery.session import Session
from jitctx.reports.loads import load_rows, startup_json

HELP = """\
Startup loads every unconditional instruction file on the chain from the root to the cwd, plus the
scoped rules that a startup signal matches: the cwd marker ('src/ui/') and the files git reports as
changed under the cwd. Scoped rules nobody touches wait for JIT discovery. With many changed files the
signals line shows how many there are and the first few; --json lists them all.

`bytes` is the body of a file as the agent receives it (frontmatter left out), as in touch, budget and
stats; `jitctx provenance` shows the whole file's `size` instead.

examples:
  jitctx startup --root examples/monorepo
  jitctx startup --root examples/monorepo --cwd src/ui --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser, cwd=True)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files")


def run(args: argparse.Namespace) -> int:
    project, cwd = open_project(args)
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
