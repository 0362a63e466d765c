"""`jitctx completion SHELL`: a tab-completion script for bash or zsh, generated from the parser itself."""

from __future__ import annotations

import argparse
import importlib
import sys

from jitctx.cli.commands import COMMANDS
from jitctx.cli.common import add_json, print_json
from jitctx.cli.parser import build_parser
from jitctx.errors import UsageError

SHELLS = ("bash", "zsh")

HELP = """\
The script is generated from jitctx's own parser, so it knows every command, option and choice (agent
profiles, shells) of this version; regenerate it after an upgrade. It needs the optional package shtab:
  pip install 'jitctx[completion]'

examples:
  jitctx completion bash > ~/.local/share/bash-completion/completions/jitctx
  jitctx completion zsh > "${fpath[1]}/_jitctx"      # a directory on zsh's $fpath, then restart zsh
  eval "$(jitctx completion bash)"                   # this shell only
"""

# Metavars that name files or directories: the shells complete them from the file system.
_FILES = ("PATH", "FILE")
_DIRECTORIES = ("DIR",)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    try:
        import shtab  # optional extra: jitctx[completion]
    except ModuleNotFoundError as exc:
        raise UsageError(
            "shell completion needs the optional package shtab: pip install 'jitctx[completion]'"
        ) from exc
    parser = full_parser()
    for action in _all_actions(parser):
        metavar = action.metavar if isinstance(action.metavar, str) else None
        if metavar in _FILES:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif metavar in _DIRECTORIES:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
    script: str = shtab.complete(parser, shell=args.shell)
    if args.json:
        print_json({"shell": args.shell, "script": script})
    else:
        sys.stdout.write(script if script.endswith("\n") else script + "\n")
    return 0


def full_parser() -> argparse.ArgumentParser:
    """The `jitctx` parser with every command's options (a normal run configures only the one it runs)."""
    parser = build_parser(None)
    for name, command in _subcommands(parser).items():
        try:
            module = importlib.import_module(COMMANDS[name][0])
        except ModuleNotFoundError as exc:  # a command whose own optional dependency is missing
            if not exc.name or exc.name.startswith("jitctx"):
                raise
            continue
        module.configure(command)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _all_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    found = list(parser._actions)
    for command in _subcommands(parser).values():
        found.extend(command._actions)
    return found
