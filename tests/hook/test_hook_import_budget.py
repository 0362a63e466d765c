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
# reader's records are `typing.NamedTuple`s) and signal (the fast lane's alarm). Anything else on the fast
# lane is a regression to look at: what a quick answer does needs no paths as objects, no dataclasses, no
# rule file parsers, no argument parser (the hook's command line is read by `fast_main`), no hashlib.
FAST_LANE_STDLIB = {"json", "json.decoder", "json.encoder", "json.scanner", "_json", "re", "enum", "errno",
                    "shlex", "copyreg", "collections.abc", "__future__", "runpy",
                    "importlib.util", "importlib.machinery", "importlib._abc", "contextlib", "_signal",
                    "keyword", "operator", "_operator", "reprlib", "itertools", "collections", "_collections",
                    "functools", "_functools", "types", "importlib", "warnings", "_sre", "re._constants",
                    "re._parser", "re._casefix", "re._compiler", "typing", "_typing", "signal"}  # fmt: skip
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
    # A client's dialect, never the whole client (its own loading, its evidence) nor its setup: the
    # registry imports those through importlib, which `-X importtime` does not list, so sys.modules tells.
    probe = (
        "import sys\n"
        "sys.argv = ['jitctx', 'hook', 'claude-code']\n"
        "from jitctx.cli.main import main\n"
        "code = main()\n"
        "mine = sorted(m for m in sys.modules if m.startswith('jitctx.clients.claude_code'))\n"
        "print(code, mine, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=json.dumps(read).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert json.loads(done.stdout) == {}
    loaded = done.stderr.decode().strip()
    assert loaded == "0 ['jitctx.clients.claude_code', 'jitctx.clients.claude_code.dialect', " + (
        "'jitctx.clients.claude_code.tools']"
    ), loaded


def test_the_warm_hooks_own_modules_load_no_client() -> None:
    """A warm hook hands the event over as it came: its modules load no client, no tool reader."""
    code = (
        "import sys\n"
        "import jitctx.cli.main, jitctx.cli.cmd_hook, jitctx.hook.transports.warm.client\n"
        "print(sorted(m for m in sys.modules if m.startswith(('jitctx.clients.', 'jitctx.touched.'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['jitctx.clients.all_clients',", "'jitctx.touched.samples']"]


def test_the_budget_test_sees_an_engine_answer(example_copy: Path, hook_env: dict[str, str]) -> None:
    """Not vacuous: a first touch goes to the engine, which is over the fast lane's budget."""
    env = {**os.environ, **hook_env}
    path = str(example_copy / "src/ui/Footer.tsx")
    read = {"session_id": "budget2", "cwd": str(example_copy), "hook_event_name": "PostToolUse",
            "tool_name": "Read", "tool_input": {"file_path": path}}  # fmt: skip
    modules = imported(["-m", "jitctx", "hook", "claude-code"], json.dumps(read).encode(), env)
    assert "jitctx.hook.engine" in modules and modules & NEVER
