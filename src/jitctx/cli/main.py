"""The `jitctx` command line: a table of commands, one module each (`configure(parser)`, `run(args)`).

Only the module of the command being run is imported (as pip's command table does). A command run on
every step of an agent (`hook`, `statusline`) also has `fast_main(argv)`, which reads the usual forms of
its arguments without building the parser; for anything else it returns None and the parser answers."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from jitctx.cli.commands import COMMANDS
from jitctx.errors import JitctxError


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in args_list if not a.startswith("-")), None)
    if chosen in COMMANDS:
        try:
            module = importlib.import_module(COMMANDS[chosen][0])
        except ModuleNotFoundError as exc:
            if not exc.name or not exc.name.startswith("jitctx"):
                raise
            print(f"jitctx: error: '{chosen}' is not available in this version", file=sys.stderr)
            return 2
        fast_main = getattr(module, "fast_main", None)
        if fast_main is not None and argv is None and args_list[0] == chosen:
            fast: int | None = fast_main(args_list[1:])
            if fast is not None:
                return fast
    # The parser is built only when no fast entry answered: a hook answered by the fast lane pays for
    # no argparse.
    from jitctx.cli.parser import build_parser

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
