"""OpenCode's plugin takes the hook's answer when the hook process exits, not when its stdout pipe closes:
a process the hook started (a daemon it launched) may inherit that pipe and hold it open for as long as it
runs. Never a partial or invalid answer, and never a wait past the hook's exit longer than a moment.
Run under node, as OpenCode runs the plugin under Bun (the same child_process)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.opencode import plugin

NODE = shutil.which("node")
RUNNER = """
import {{ JitctxPlugin }} from {plugin};
const hooks = await JitctxPlugin({{ directory: {directory} }});
const output = {{ title: "t", output: "file text", metadata: {{ loaded: [] }} }};
const input = {{ tool: "read", sessionID: "s1", callID: "c1", args: {{ filePath: "a.py" }} }};
await hooks["tool.execute.after"](input, output);
console.log(JSON.stringify({{ output: output.output }}));
"""
ANSWER = json.dumps({"hookSpecificOutput": {"additionalContext": "RULES"}})
# The plugin's own timeout, far above anything the hook takes, and far below the grandchild's life: a
# plugin that waits for the pipe to close gives up at it, and the answer is lost.
TIMEOUT_MS = 4000
GRANDCHILD_S = 30


@pytest.fixture
def grandchildren(tmp_path: Path) -> Iterator[Path]:
    """Where the fake hooks note their grandchild's pid; each is ended after the test."""
    pids = tmp_path / "grandchild.pid"
    yield pids
    if pids.exists():
        for pid in pids.read_text().split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


def run_plugin(tmp_path: Path, body: str, pids: Path) -> dict[str, Any]:
    """The rendered plugin, its command a shell script that starts a grandchild holding its stdout."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    hook = tmp_path / "bin" / "jitctx"
    hook.parent.mkdir(parents=True, exist_ok=True)
    holder = f"sleep {GRANDCHILD_S} &\necho $! >> {pids}\n"  # inherits stdout, as a launched daemon may
    hook.write_text("#!/bin/sh\ncat > /dev/null\n" + body.replace("HOLD\n", holder))
    hook.chmod(0o755)
    text = plugin.render(f"{hook} hook opencode").replace("TIMEOUT_MS = 10000", f"TIMEOUT_MS = {TIMEOUT_MS}")
    module = tmp_path / "jitctx.mjs"
    module.write_text(text)
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path))))
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


REMINDER = "file text\n\n<system-reminder>\nRULES\n</system-reminder>"


@pytest.mark.parametrize(
    "body",
    [
        f"echo '{ANSWER}'\nHOLD\n",  # the answer, then a daemon started
        f"HOLD\necho '{ANSWER}'\n",  # a daemon started, then the answer
        f"HOLD\nprintf '%s' '{ANSWER[:20]}'\nprintf '%s\\n' '{ANSWER[20:]}'\n",  # the answer in two writes
    ],
    ids=["answer-then-daemon", "daemon-then-answer", "answer-in-pieces"],
)
def test_the_answer_is_taken_when_the_hook_exits_though_a_grandchild_holds_its_stdout(
    tmp_path: Path, body: str, grandchildren: Path
) -> None:
    assert run_plugin(tmp_path, body, grandchildren)["output"] == REMINDER
    assert grandchildren.read_text().split()  # the grandchild was there, holding the pipe


@pytest.mark.parametrize(
    "body",
    [
        f"printf '%s' '{ANSWER[:-2]}'\nHOLD\n",  # a partial answer, and the hook exits
        f"echo '{ANSWER}'\nHOLD\nexit 3\n",  # a whole answer, but the hook failed
        f"echo '{ANSWER}'\necho 'more'\nHOLD\n",  # an answer followed by other output
        "HOLD\n",  # no answer at all
        f"HOLD\nsleep {GRANDCHILD_S}\necho '{ANSWER}'\n",  # a hook that does not exit in time
    ],
    ids=["partial", "failed", "trailing-output", "silent", "slow"],
)
def test_no_partial_or_invalid_answer_is_taken(tmp_path: Path, body: str, grandchildren: Path) -> None:
    assert run_plugin(tmp_path, body, grandchildren)["output"] == "file text"
