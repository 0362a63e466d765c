"""A session's first tool call, with the real Claude Code: does a first-call Write get its rules every time?

    python benchmarks/bench_first_call.py [--runs 20] [--prefix .cache/e2e-npm-claude-oldest]

Each run is a fresh `claude -p` session of the e2e fixture repository whose very first tool call is a
Write of `tools/made-N.py`; the first PostToolBatch may run before the session's transcript file exists,
so the release jitctx assumes comes from the client process above the hook. The run counts when
`tools/CLAUDE.md` and the `**/*.py` rule each reached the model exactly once (by whichever route).
Prints `first-call rules: K/N runs`, and the runs that missed with what arrived. `--prefix` is an npm
prefix holding the release to test (default: the e2e cache's newest). Needs npm's clients installed
(tests/e2e/clients.py installs them), and runs against the scripted model on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e import clients as cl  # the harness lives with the e2e tests
from tests.e2e.evidence import deliveries
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import ClaudeHarness

MARKERS = ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON")


def one_run(clients: cl.Clients, index: int) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as tmp:
        claude = ClaudeHarness(clients, Path(tmp))
        target = claude.root / f"tools/made_{index}.py"
        outcome = claude.run(
            "Add a tool.", [Script([[Call("Write", {"file_path": str(target), "content": "X = 1\n"})]])]
        )
        body = outcome.last()
        found = {marker: [str(d) for d in deliveries(body, marker)] for marker in MARKERS}
        return all(len(routes) == 1 for routes in found.values()), str(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--prefix", help="npm prefix of the Claude Code release to run")
    args = parser.parse_args()
    if args.prefix:
        os.environ[cl.CLAUDE_PREFIX_VARIABLE] = str(Path(args.prefix).resolve())
    clients = cl.install_clients()
    if isinstance(clients, str):
        print(f"cannot run: {clients}", file=sys.stderr)
        return 2
    print(f"Claude Code {clients.claude_version}, {args.runs} fresh sessions")
    good, misses, started = 0, [], time.monotonic()
    for index in range(args.runs):
        ok, found = one_run(clients, index)
        good += ok
        if not ok:
            misses.append(f"run {index + 1}: {found}")
    print(f"first-call rules: {good}/{args.runs} runs ({time.monotonic() - started:.0f} s)")
    for miss in misses:
        print(f"  missed {miss}")
    return 0 if good == args.runs else 1


if __name__ == "__main__":
    raise SystemExit(main())
