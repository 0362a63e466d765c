"""The `jitctx` command line. Only the module of the command being run is imported, to start fast."""

from __future__ import annotations

import os
import sys

# Nothing else at import: a hook answered by the fast lane or the warm daemon pays for no more (importlib
# brings warnings, collections.abc brings collections).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

# name -> (module, one line of help). Each module has `configure(parser)` and `run(args) -> int`.
COMMANDS: dict[str, tuple[str, str]] = {
    "startup": ("jitctx.cli.cmd_startup", "show what loads at session start, and why"),
    "touch": ("jitctx.cli.cmd_touch", "run JIT discovery for touched paths (a session you can resume)"),
    "touched": ("jitctx.cli.cmd_touched", "print the paths a tool call touches"),
    "explain": (
        "jitctx.cli.cmd_explain",
        "which rules reach an agent that touches PATH, and why the others do not",
    ),
    "imports": ("jitctx.cli.cmd_imports", "list and check the @imports of an instruction file"),
    "render": ("jitctx.cli.cmd_render", "print the text an agent would receive"),
    "log": ("jitctx.cli.cmd_log", "timeline of recorded loads; with --session, what a context holds now"),
    "statusline": (
        "jitctx.cli.cmd_statusline",
        "one line for an agent's status line: the instruction files in the session's context now",
    ),
    "stats": ("jitctx.cli.cmd_stats", "statistics of recorded sessions (hit rate, bytes, latency)"),
    "replay": ("jitctx.cli.cmd_replay", "run recorded Claude Code transcripts through JIT discovery"),
    "export": ("jitctx.cli.cmd_export", "send new event records to an OpenTelemetry collector (OTLP/HTTP)"),
    "budget": ("jitctx.cli.cmd_budget", "byte budgets per layer; exits 1 when over"),
    "claims": ("jitctx.cli.cmd_claims", "check facts written in instruction files against the repo"),
    "provenance": ("jitctx.cli.cmd_provenance", "write or check a lock file of instruction file hashes"),
    "lint": ("jitctx.cli.cmd_lint", "find broken imports, bad globs, dead scopes and duplicates"),
    "rules": ("jitctx.cli.cmd_rules", "each instruction file: scope, bytes, twins, who reads it when"),
    "hook": ("jitctx.cli.cmd_hook", "answer one hook event of an agent (stdin JSON -> stdout JSON)"),
    "install": ("jitctx.cli.cmd_install", "add jitctx hooks to an agent's settings"),
    "uninstall": ("jitctx.cli.cmd_install", "remove jitctx hooks from an agent's settings"),
    "doctor": ("jitctx.cli.cmd_doctor", "check that the agents run jitctx: hooks, command, trust, state dir"),
    "mcp": ("jitctx.cli.cmd_mcp", "serve context_for_paths, explain and stats over MCP (stdio)"),
    "profiles": ("jitctx.cli.cmd_profiles", "list the agent profiles and what each reads"),
    "completion": ("jitctx.cli.cmd_completion", "print a tab-completion script for bash or zsh"),
}

EPILOG = """\
examples:
  jitctx startup --root examples/monorepo --cwd src/ui
  jitctx touch --root examples/monorepo src/ui/Footer.tsx
  jitctx explain examples/monorepo/src/ui/Footer.tsx

Every command takes --json (one JSON document on stdout). Exit codes: 0 success, 1 a check found
problems, 2 usage or input error. Run 'jitctx COMMAND --help' for the options of one command.
"""


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse
    import re

    class Parser(argparse.ArgumentParser):
        """argparse, whose "invalid choice" also says which choice was likely meant (`claude` for
        `claude-code`); the subcommands' parsers are of this class too."""

        def error(self, message: str) -> NoReturn:
            found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
            if found:
                from difflib import get_close_matches

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
    import argparse
    import importlib

    from jitctx import __version__

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


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["hook"] and argv is None:
        # The hook runs on every tool call of an agent: answer it without building any parser.
        from jitctx.cli.cmd_hook import fast_main

        fast = fast_main(args_list[1:])
        if fast is not None:
            return fast
    if args_list[:1] == ["statusline"] and argv is None:
        # The status line runs after every message of an agent: no parser either.
        from jitctx.cli.cmd_statusline import fast_main as status_line

        fast = status_line(args_list[1:])
        if fast is not None:
            return fast
    import importlib

    from jitctx.errors import JitctxError

    chosen = next((a for a in args_list if not a.startswith("-")), None)
    if chosen in COMMANDS:
        try:
            importlib.import_module(COMMANDS[chosen][0])
        except ModuleNotFoundError as exc:
            if not exc.name or not exc.name.startswith("jitctx"):
                raise
            print(f"jitctx: error: '{chosen}' is not available in this version", file=sys.stderr)
            return 2
    parser = build_parser(chosen)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.run(args)
        return code
    except JitctxError as exc:
        print(f"jitctx: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("jitctx: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`jitctx log | head`); nothing left to say.
        sys.stderr.close()
        return 0
    except Exception as exc:
        if os.environ.get("JITCTX_DEBUG"):
            raise
        print(
            f"jitctx: internal error: {type(exc).__name__}: {exc}\n"
            "  this is a bug in jitctx; rerun with JITCTX_DEBUG=1 for a traceback and report it",
            file=sys.stderr,
        )
        return 2


def entry() -> None:
    # A file name that is not UTF-8 (a lone surrogate from os.fsdecode) is printed escaped, never an error.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or detached stream: nothing to print to anyway
                pass
    sys.exit(main())
