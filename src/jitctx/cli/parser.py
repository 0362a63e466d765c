"""The argparse command line: the top-level parser, and the subparser of the command being run."""

from __future__ import annotations

import argparse
import importlib
import re
from difflib import get_close_matches
from typing import NoReturn

from jitctx import __version__
from jitctx.cli.commands import COMMANDS

EPILOG = """\
examples:
  jitctx startup --root examples/monorepo --cwd src/ui
  jitctx touch --root examples/monorepo src/ui/Footer.tsx
  jitctx explain examples/monorepo/src/ui/Footer.tsx

Every command takes --json (one JSON document on stdout). Exit codes: 0 success, 1 a check found
problems, 2 usage or input error. Run 'jitctx COMMAND --help' for the options of one command.
"""


def _parser_class() -> type[argparse.ArgumentParser]:
    class Parser(argparse.ArgumentParser):
        """argparse, whose "invalid choice" also says which choice was likely meant (`claude` for
        `claude-code`); the subcommands' parsers are of this class too."""

        def error(self, message: str) -> NoReturn:
            found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
            if found:
                given = found.group(1)
                known = [c.strip().strip("'") for c in found.group(2).split(",")]
                meant = [c for c in known if given and c.startswith(given)] or get_close_matches(
                    given, known, 1
                )
                if meant:
                    message += f"; did you mean {meant[0]!r}?"
            super().error(message)

    return Parser


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    parser = _parser_class()(
        prog="jitctx",
        description="Put the right instruction files (CLAUDE.md, AGENTS.md, GEMINI.md, scoped rules) into a "
        "coding agent's context at the right moment, and show what arrived and why.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"jitctx {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        command = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        if name == chosen:
            module = importlib.import_module(module_name)
            module.configure(command)
            command.set_defaults(run=module.run)
    return parser
