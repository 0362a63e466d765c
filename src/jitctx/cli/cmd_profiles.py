"""`jitctx profiles`: the agent profiles and what each one reads."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import asdict

from jitctx.cli.common import add_json, print_json, table
from jitctx.profiles import PROFILES

# Column widths of the two lists, so that the table fits 100 columns (a long list wraps between items).
FILES_WIDTH = 40
RULES_WIDTH = 24


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "examples:\n  jitctx profiles\n  jitctx profiles --json"
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print_json({"profiles": [asdict(profile) for profile in PROFILES.values()]})
        return 0
    rows: list[list[object]] = []
    for p in PROFILES.values():
        files = wrap(p.dir_files + p.local_files, FILES_WIDTH)
        rules = wrap([f"{r.path}/*{r.suffix}" for r in p.rules_dirs] or ["-"], RULES_WIDTH)
        for index in range(max(len(files), len(rules))):
            first = index == 0
            rows.append(
                [
                    p.name if first else "",
                    files[index] if index < len(files) else "",
                    rules[index] if index < len(rules) else "",
                    f"{p.max_bytes // 1024} KiB" if first else "",
                    p.glob_dialect if first else "",
                ]
            )
    print(table(["profile", "files per directory", "rules folders", "budget", "globs"], rows, right=(3,)))
    return 0


def wrap(items: Sequence[str], width: int) -> list[str]:
    """`items` joined by ', ' in lines of at most `width` columns, broken between items; an item longer
    than `width` is broken after a `/` (`.github/instructions/` then `*.instructions.md`)."""
    lines: list[str] = []
    line = ""
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if line and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = ""
        while len(piece) > width and "/" in piece[: width - 1]:
            cut = piece.rindex("/", 0, width) + 1
            lines.append(piece[:cut])
            piece = piece[cut:]
        line = f"{line} {piece}" if line else piece
    if line:
        lines.append(line)
    return lines
