"""`jitctx profiles`: the agent profiles and what each one reads."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from jitctx.cli.common import add_json, print_json, table
from jitctx.profiles import PROFILES


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "examples:\n  jitctx profiles\n  jitctx profiles --json"
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print_json([asdict(profile) for profile in PROFILES.values()])
        return 0
    rows = [
        [
            p.name,
            ", ".join(p.dir_files + p.local_files),
            ", ".join(f"{r.path}/*{r.suffix}" for r in p.rules_dirs) or "-",
            f"{p.max_bytes // 1024} KiB",
            p.glob_dialect,
        ]
        for p in PROFILES.values()
    ]
    print(table(["profile", "files per directory", "rules folders", "budget", "globs"], rows))
    return 0
