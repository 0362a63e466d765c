"""`jitctx touched`: the paths one tool call touched, as JIT discovery will see them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from jitctx.cli.common import add_json, print_json
from jitctx.errors import UsageError
from jitctx.touched.calls import affected_paths
from jitctx.touched.tools import REGISTRY

HELP = """\
Every tool an agent calls reports the paths it touched: Read/Write/Edit their file, Glob the static
prefix of its pattern (or its path), Grep its path only, Codex's apply_patch the files in its patch
headers. A shell command (Bash, Codex's exec) reports only what it certainly touches:
  reads   the file operands of cat, tac, head, tail, nl, wc, less, more, bat, sed (the script is not a
          file), grep/rg (the pattern is not a path; `rg PATTERN` alone names nothing), ls, tree, and
          find's starting points;
  writes  redirections, tee, sed -i, cp/mv/install (the destination), touch, mkdir;
after literal `cd`s, and inside `bash -c '...'`. Never: variables, globs, `~`, /dev, programs that read or
write by themselves (python gen.py), options a program's table does not know (the whole command then
reports nothing), and rm (deliberately: a deleted file's rules serve no later step). Paths outside the
project are dropped later, by the project boundary. Unknown tools report nothing.

examples:
  jitctx touched --tool Read --input '{"file_path": "src/ui/Footer.tsx"}'
  jitctx touched --tool Glob --input '{"pattern": "src/ui/**/*.tsx"}'
  jitctx touched --tool Bash --input '{"command": "echo hi | tee -a src/api/log.txt"}' --json
  jitctx touched --tool Bash --input '{"command": "cd src/ui && sed -n 1,80p Footer.tsx"}'
  echo '{"command": ["bash", "-lc", "touch src/new.py"]}' | jitctx touched --tool shell --input -
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument(
        "--tool", required=True, metavar="NAME", help="tool name as the agent calls it (Read, bash)"
    )
    parser.add_argument(
        "--input",
        required=True,
        metavar="JSON",
        help="the tool's input as a JSON object; '-' reads it from stdin",
    )
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.input == "-":
        tool_input = _parse_input(sys.stdin.read(), "the JSON on stdin (--input -)")
    else:
        tool_input = _parse_input(args.input, "--input")
    paths = affected_paths(args.tool, tool_input)
    if args.json:
        print_json({"tool": args.tool, "touched": list(paths)})
        return 0
    for path in paths:
        print(path)
    if not paths:
        if args.tool in REGISTRY:
            print(f"jitctx: note: this {args.tool} call touched no path jitctx can name", file=sys.stderr)
        else:
            known = ", ".join(REGISTRY)
            print(
                f"jitctx: note: unknown tool {args.tool!r} reports nothing; known tools: {known}",
                file=sys.stderr,
            )
    return 0


def _parse_input(text: str, where: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{where} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            'pass an object such as \'{"file_path": "src/a.py"}\''
        ) from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{where} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{where} must be a JSON object, not {type(value).__name__}")
    return value
