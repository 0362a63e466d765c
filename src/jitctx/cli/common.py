"""What every command shares: root and cwd resolution, the project, JSON and table output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from jitctx.cli.colour import add_colour, paint
from jitctx.cli.state import user_config_path, user_home
from jitctx.cli.width import add_wide, columns_for, fit_rows
from jitctx.errors import UsageError
from jitctx.paths import find_root
from jitctx.profiles import DEFAULT_PROFILE, PROFILES, ROOT_MARKERS
from jitctx.project import Project
from jitctx.reports.table import plain_table, shown

__all__ = ["find_root", "path_argument", "root_for_path"]


def add_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="project root (default: the nearest ancestor of the cwd with a root marker such as .git, "
        "else the cwd)",
    )


def add_agent(parser: argparse.ArgumentParser) -> None:
    aliases = PROFILES.aliases()
    named = ", ".join(
        f"{name} (or {', '.join(a for a, n in aliases.items() if n == name)})"
        if name in aliases.values()
        else name
        for name in PROFILES
    )
    parser.add_argument(
        "--agent",
        metavar="PROFILE",
        # An alias (a client's other name) is taken as the profile's own name, so every command sees one.
        type=lambda name: aliases.get(name, name),
        choices=sorted(PROFILES),
        help=f"agent profile: {named} (default: the config's 'agent', else {DEFAULT_PROFILE})",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    """--json, and --color and --wide for the output meant for people instead."""
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_colour(parser)
    add_wide(parser)


def add_cwd(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cwd",
        metavar="DIR",
        help="the agent's working directory (default: the current directory if inside the root, else the "
        "root); a relative DIR is taken from --root when --root is given",
    )


def add_common(parser: argparse.ArgumentParser, *, cwd: bool = False) -> None:
    add_root(parser)
    if cwd:
        add_cwd(parser)
    add_agent(parser)
    add_json(parser)


def resolve_root_and_cwd(args: argparse.Namespace) -> tuple[str, str]:
    here = os.getcwd()
    cwd_arg: str | None = getattr(args, "cwd", None)
    root_arg: str | None = getattr(args, "root", None)
    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            what = "does not exist" if not os.path.exists(root) else "is not a directory"
            raise UsageError(f"--root {root_arg!r} {what}")
        if cwd_arg is None:
            real_here, real_root = os.path.realpath(here), os.path.realpath(root)
            cwd = here if real_here == real_root or real_here.startswith(real_root + os.sep) else root
        else:
            cwd = os.path.join(root, cwd_arg)
    else:
        cwd = os.path.abspath(cwd_arg) if cwd_arg is not None else here
        if not os.path.isdir(cwd):
            raise UsageError(f"--cwd {cwd_arg!r} is not an existing directory")
        markers = ROOT_MARKERS
        root = find_root(cwd, markers)
    if not os.path.isdir(cwd):
        raise UsageError(f"--cwd {cwd_arg!r} is not an existing directory under {root}")
    return root, cwd


def refuse_folder_of_projects(args: argparse.Namespace, command: str) -> None:
    """Without --root, a cwd with no root marker above it but projects below it (a folder of clones) is
    not one project: `explain PATH` would take PATH's repository, so `command` must not take the folder.
    `--root DIR` still takes any folder as it is."""
    if getattr(args, "root", None) is not None:
        return
    root, _ = resolve_root_and_cwd(args)
    if any(os.path.lexists(os.path.join(root, marker)) for marker in ROOT_MARKERS):
        return
    inner = projects_below(root)
    if inner:
        named = ", ".join(inner[:5]) + (", ..." if len(inner) > 5 else "")
        raise UsageError(
            f"{root} is in no project (no {' or '.join(ROOT_MARKERS)} here or above) but holds "
            f"{count(len(inner), 'project')}: {named}; run '{command}' inside one, or pass --root DIR "
            "(--root . takes this folder as one project)"
        )


def projects_below(directory: str) -> list[str]:
    """The folders right below `directory` that are project roots (hold a root marker), sorted."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        try:
            if not entry.is_dir():
                continue
        except OSError:
            continue
        if any(os.path.lexists(os.path.join(entry.path, marker)) for marker in ROOT_MARKERS):
            found.append(entry.name)
    return found


def open_project(args: argparse.Namespace) -> tuple[Project, str]:
    root, cwd = resolve_root_and_cwd(args)
    project = Project(
        root, profile=getattr(args, "agent", None), home=user_home(), user_config=user_config_path()
    )
    return project, cwd


def path_argument(path: str, root_arg: str | None, cwd_arg: str | None = None) -> str:
    """An absolute PATH for commands that take one: a relative PATH is taken from --cwd (itself taken
    from --root), else from --root when given, else from the current directory, as `touch` does."""
    if os.path.isabs(path):
        return os.path.normpath(path)
    base = os.getcwd()
    if root_arg is not None:
        base = os.path.join(os.path.abspath(root_arg), cwd_arg or "")
    elif cwd_arg is not None:
        base = os.path.abspath(cwd_arg)
    return os.path.normpath(os.path.join(base, path))


def root_for_path(target: str, root_arg: str | None, markers: Sequence[str]) -> str:
    """--root, else the nearest ancestor of `target` with a root marker; an error when there is none."""
    if root_arg is not None:
        return os.path.abspath(root_arg)
    start = target
    while not os.path.isdir(start):
        start = os.path.dirname(start)
    root = find_root(start, tuple(markers))
    if not any(os.path.lexists(os.path.join(root, marker)) for marker in markers):
        raise UsageError(
            f"no project root above {target} (no {' or '.join(markers)} in any parent); pass --root DIR"
        )
    return root


# The version of the shape of every `--json` document (src/jitctx/schemas/*.json describe them); it goes
# up when a field is renamed or removed or changes meaning, not when one is added.
SCHEMA_VERSION = 1


def versioned(document: Any) -> Any:
    """`document` with `schema_version` first. A document that names its own `$schema` (SARIF) keeps the
    shape its standard fixes; anything that is not an object is wrapped by its command, not here."""
    if not isinstance(document, dict) or "$schema" in document or "schema_version" in document:
        return document
    return {"schema_version": SCHEMA_VERSION, **document}


def print_json(document: Any) -> None:
    """One JSON document on stdout, non-ASCII text as is, carrying `schema_version` (see `versioned`).

    Field names mean the same in every command: `path` is a POSIX path relative to the project root
    (absolute paths are `root` or end in `_path`); `bytes` is the size of one file's text as an agent
    receives it (sums and other measures are qualified: `payload_bytes`, `bytes_carried`,
    `cumulative_bytes`); `ok` is the one pass/fail field of a command that checks something (true when
    it exits 0).

    A file name that is not UTF-8 reaches us as a str with a lone surrogate (`caf\\udce9`), which cannot
    be written as UTF-8; inside a JSON string the backslash escape `\\udce9` is exactly the JSON escape
    of that str, so the document stays valid UTF-8 and a reader gets the name back byte for byte.
    """
    text = json.dumps(versioned(document), ensure_ascii=False, indent=2)
    sys.stdout.write(shown(text) + "\n")


def warn(message: str) -> None:
    print(f"jitctx: {paint('warning:', 'yellow', sys.stderr)} {shown(message)}", file=sys.stderr)


def count(number: int, noun: str) -> str:
    """'1 file', '2 files', '1,204 discoveries'."""
    if number == 1:
        return f"1 {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        plural = noun[:-1] + "ies"
    elif noun.endswith(("s", "x", "ch", "sh")):
        plural = noun + "es"
    else:
        plural = noun + "s"
    return f"{number:,} {plural}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: Sequence[int] = ()) -> str:
    """An aligned plain-text table, its header line bold on a terminal; columns in `right` right-aligned.
    On a terminal it is wrapped to the terminal's width unless `--wide` was given (jitctx.cli.width)."""
    columns = columns_for(sys.stdout)
    if columns is not None:
        headers, rows = fit_rows(headers, rows, columns, right=right)
    lines = plain_table(headers, rows, right=right).split("\n")
    lines[0] = paint(lines[0], "bold", sys.stdout)
    return "\n".join(lines)
