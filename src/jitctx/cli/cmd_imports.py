"""`jitctx imports FILE`: each `@import` of an instruction file, what it resolves to, the expanded size."""

from __future__ import annotations

import argparse
import os
from typing import Any

from jitctx.cli.common import add_common, find_root, path_argument, print_json, table, warn
from jitctx.cli.state import user_config_path, user_home
from jitctx.errors import UsageError
from jitctx.imports import Expansion, FileResolver, ImportStatus, clean_token, expand
from jitctx.profiles import ROOT_MARKERS
from jitctx.project import Project

HELP = """\
Lists each import found in FILE's prose (not in code blocks, inline code or HTML comments), nested imports
indented under the file that imports them, with the file and line, the resolved path and a status:
  ok, duplicate (already included)   fine
  missing, not_a_path                no such file; the @text stays as written
  cycle, too_deep, outside           not followed: [imports] max_depth in .jitctx.toml; allow_outside
                                     only in your user config (~/.config/jitctx/config.toml)
  directory, not_a_file, binary, too_large, symlink_loop, unreadable, too_many
Then the expanded size: FILE's text plus every included text. A relative FILE is taken from --root
when given, else from the current directory.

exit status: 0 every import is ok, 1 some import has a problem, 2 FILE is missing or unreadable.

examples:
  jitctx imports examples/monorepo/CLAUDE.md
  jitctx imports CLAUDE.md --root examples/monorepo --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument("file", metavar="FILE", help="the instruction file whose imports to check")
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    target = path_argument(args.file, None if args.root is None else str(args.root))
    if not os.path.lexists(target):
        raise UsageError(f"{args.file}: no such file")
    real = os.path.realpath(target)
    source = FileResolver(cache=False).read(real)
    if source.status is ImportStatus.DIRECTORY:
        raise UsageError(
            f"{args.file} is a directory; pass an instruction file such as {args.file}/CLAUDE.md"
        )
    if source.status is not ImportStatus.OK or source.text is None:
        raise UsageError(f"{args.file}: {source.message or source.status.value}")
    # No user tier (home=None), but the user's own config, as the hook reads it: the only place that
    # may widen what is read ([imports] allow_outside).
    project = Project(_root(args, target), profile=args.agent, home=None, user_config=user_config_path())
    home = user_home()
    result = expand(
        source.text,
        target,
        root=project.root,
        max_depth=project.config.import_depth,
        allow_outside=project.config.allow_outside_imports,
        home=home,
        first_line=source.body_line,
        display=project.display,
    )
    for message in (*project.config.warnings, *(f"{result.display}: {w}" for w in source.warnings)):
        warn(message)
    if args.json:
        print_json(_json(result, project.root))
    else:
        _print(result, project.root)
    for message in result.warnings:
        warn(message)
    return 1 if result.problems else 0


def _root(args: argparse.Namespace, target: str) -> str:
    if args.root is not None:
        root = os.path.abspath(str(args.root))
        if not os.path.isdir(root):
            what = "does not exist" if not os.path.exists(root) else "is not a directory"
            raise UsageError(f"--root {args.root!r} {what}")
        return root
    return find_root(os.path.dirname(target), ROOT_MARKERS)


def _json(result: Expansion, root: str) -> dict[str, Any]:
    return {
        "path": result.display,
        "root": root,
        "imports": [
            {
                "line": r.line,
                "column": r.column,
                "token": r.token,
                "path": r.display,
                "status": r.status.value,
                "depth": r.depth,
                "parent": r.parent,
                "message": r.message,
            }
            for r in result.imports
        ],
        "expanded_bytes": result.expanded_bytes,
        "included": len(result.included),
        "warnings": list(result.warnings),
        "ok": not result.problems,
    }


def _print(result: Expansion, root: str) -> None:
    print(f"file  {result.display}")
    print(f"root  {root}")
    print()
    if result.imports:
        rows = [
            # The token cleaned, as in the resolved column: `**@docs/x.md**` is bold in Markdown,
            # and the `**` is not part of the import.
            [r.where, "  " * (r.depth - 1) + "@" + clean_token(r.token), r.status.value, r.display or "-"]
            for r in result.imports
        ]
        print(table(["where", "import", "status", "resolved"], rows))
    else:
        print(f"no @imports in {result.display}")
    print()
    count = len(result.included)
    files = "file" if count == 1 else "files"
    print(f"expanded  {result.expanded_bytes:,} bytes ({result.display} + {count} included {files})")
