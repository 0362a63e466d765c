"""The hook's import budget: what a hook process imports is counted, not timed (counts do not depend on
how busy the machine is). The fast lane, which answers most tool calls, and the warm hook, which hands
the event to the daemon, stay within a fixed set of modules beyond `python -c pass`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import settle

# Beyond the interpreter's own start: json (and the re and enum behind it), errno, shlex, typing (the shell
# reader's records are `typing.NamedTuple`s), signal (the fast lane's alarm), hashlib (state file names) and
# argparse (the hook command's module configures its parser; the parser itself is not built). Anything else
# on the fast lane is a regression to look at: what a quick answer does needs no paths as objects, no
# dataclasses, no rule file parsers.
FAST_LANE_STDLIB = {"json", "json.decoder", "json.encoder", "json.scanner", "_json", "re", "enum", "errno",
                    "shlex", "copyreg", "collections.abc", "__future__", "runpy",
                    "importlib.util", "importlib.machinery", "importlib._abc", "contextlib", "_signal",
                    "keyword", "operator", "_operator", "reprlib", "itertools", "collections", "_collections",
                    "functools", "_functools", "types", "importlib", "warnings", "_sre", "re._constants",
                    "re._parser", "re._casefix", "re._compiler", "typing", "_typing", "signal",
                    "hashlib", "_hashlib", "_blake2", "argparse", "gettext"}  # fmt: skip
# The parts of jitctx a fast-lane answer never needs: the engine, the session, the project's reader.
# (How many modules it imports is no budget: modules follow concepts; its start is a benchmark figure,
# benchmarks/bench_hook_start.py.)
FAST_LANE_NEVER_OURS = {"jitctx.hook.engine", "jitctx.discovery.session", "jitctx.project", "jitctx.reading"}
NEVER = {
    "pathlib",
    "dataclasses",
    "yaml",
    "wcmatch",
    "pathspec",
    "msgspec",
    "tomllib",
    "socket",
}


def imported(command: list[str], stdin: bytes, env: dict[str, str]) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command], input=stdin, capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    lines = [line for line in done.stderr.decode().splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}


def baseline(env: dict[str, str]) -> set[str]:
    return imported(["-c", "pass"], b"", env)


def test_a_fast_lane_answer_stays_within_its_import_budget(
    example_copy: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    settle(example_copy)  # a directory changed in the last two seconds is always looked at again
    env = {**os.environ, **hook_env}
    command = f"cat {example_copy / 'src/ui/Footer.tsx'}"
    read = {"session_id": "budget", "cwd": str(example_copy), "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    run_hook_process("claude-code", read)  # the first touch scans src/ui; the next one is warm
    modules = imported(["-m", "jitctx", "hook", "claude-code"], json.dumps(read).encode(), env) - baseline(
        env
    )
    ours = {m for m in modules if m == "jitctx" or m.startswith("jitctx.")}
    assert "jitctx.hook.engine" not in ours  # answered by the fast lane
    assert not modules & NEVER
    assert modules - ours <= FAST_LANE_STDLIB, sorted(modules - ours - FAST_LANE_STDLIB)
    assert not ours & FAST_LANE_NEVER_OURS, sorted(ours & FAST_LANE_NEVER_OURS)


def test_the_budget_test_sees_an_engine_answer(example_copy: Path, hook_env: dict[str, str]) -> None:
    """Not vacuous: a first touch goes to the engine, which is over the fast lane's budget."""
    env = {**os.environ, **hook_env}
    path = str(example_copy / "src/ui/Footer.tsx")
    read = {"session_id": "budget2", "cwd": str(example_copy), "hook_event_name": "PostToolUse",
            "tool_name": "Read", "tool_input": {"file_path": path}}  # fmt: skip
    modules = imported(["-m", "jitctx", "hook", "claude-code"], json.dumps(read).encode(), env)
    assert "jitctx.hook.engine" in modules and modules & NEVER
