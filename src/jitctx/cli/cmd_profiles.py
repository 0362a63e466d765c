"""`jitctx profiles`: the agent profiles and what each one reads."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import asdict

from jitctx.cli.common import add_json, print_json, table
from jitctx.profiles import PROFILES, Profile

# Column widths of the two lists, so that the table fits 100 columns (a long list wraps between items).
FILES_WIDTH = 40
RULES_WIDTH = 24


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "examples:\n  jitctx profiles\n  jitctx profiles --json"
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    aliases = PROFILES.aliases()
    if args.json:
        print_json(
            {
                "profiles": [
                    {
                        "name": profile.name,
                        "aliases": [alias for alias, name in aliases.items() if name == profile.name],
                        **asdict(profile),
                    }
                    for profile in PROFILES.values()
                ]
            }
        )
        return 0
    rows: list[list[object]] = []
    for p in PROFILES.values():
        files = wrap(files_read(p), FILES_WIDTH)
        rules, globs = rules_read(p)
        names = [p.name, *(f"(or {alias})" for alias, name in aliases.items() if name == p.name)]
        for index in range(max(len(files), len(rules), len(names))):
            first = index == 0
            rows.append(
                [
                    names[index] if index < len(names) else "",
                    files[index] if index < len(files) else "",
                    rules[index] if index < len(rules) else "",
                    f"{p.max_bytes // 1024} KiB" if first else "",
                    globs[index] if index < len(globs) else "",
                ]
            )
    print(table(["profile", "instruction files", "rules folders", "budget", "globs"], rows, right=(3,)))
    return 0


def rules_read(profile: Profile) -> tuple[list[str], list[str]]:
    """The lines of the rules folders column, each folder from a line of its own, and beside each folder's
    first line the glob dialect of its format (whichever agent reads it: jitctx.scope)."""
    rules: list[str] = []
    globs: list[str] = []
    for folder in profile.rules_dirs:
        lines = wrap([f"{folder.path}/*{folder.suffix}"], RULES_WIDTH)
        rules += lines
        globs += [folder.dialect] + [""] * (len(lines) - 1)
    return rules or ["-"], globs


def files_read(profile: Profile) -> list[str]:
    """Every file name the profile reads in a project, as `--json` lists them: per directory, the
    fallbacks with the file whose absence they need, and the files read at the root only."""
    names = [*profile.dir_files, *profile.local_files]
    names += [f"{name} (where no {unless})" for name, unless in profile.fallback_files]
    names += [f"{name} (root only)" for name in profile.root_files]
    return names


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
