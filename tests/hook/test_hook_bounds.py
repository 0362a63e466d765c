"""Every input of a hook call is bounded: stdin, the state files it reads, the config it parses.

Each case runs the real command with a timeout: before these bounds, `< /dev/zero` grew to gigabytes and a
FIFO planted in the state dir blocked every call until the agent's own timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def hook(hook_env: dict[str, str], *extra: str, **stdin: Any) -> subprocess.CompletedProcess[bytes]:
    """The hook as a process; `stdin=FILE` or `input=BYTES`."""
    return subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", *extra],
        capture_output=True,
        env={**os.environ, **hook_env},
        timeout=15,
        check=False,
        **stdin,
    )


def test_endless_stdin_is_refused_not_read(hook_env: dict[str, str]) -> None:
    started = time.monotonic()
    with open("/dev/zero", "rb") as zero:
        done = hook(hook_env, stdin=zero)
    assert time.monotonic() - started < 20
    assert (done.returncode, done.stdout) == (0, b"{}\n")
    assert b"larger than 8 MiB" in done.stderr
    log = (Path(hook_env["JITCTX_STATE_DIR"]) / "hook.log").read_text("utf-8")
    assert "larger than 8 MiB" in log


def test_input_just_under_the_cap_is_still_an_event(tmp_path: Path, hook_env: dict[str, str]) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "GEMINI.md").write_text("# guide\n", "utf-8")
    event = {"hook_event_name": "SessionStart", "session_id": "big", "cwd": str(root), "source": "startup"}
    padded = json.dumps({**event, "padding": "x" * (7 * 1024 * 1024)}).encode()
    done = hook(hook_env, "--no-git", input=padded)
    assert done.returncode == 0
    assert "# guide" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_fifo_as_hook_log_does_not_block(hook_env: dict[str, str]) -> None:
    state = Path(hook_env["JITCTX_STATE_DIR"])
    state.mkdir(mode=0o700)
    os.mkfifo(state / "hook.log")
    done = hook(hook_env, input=b"not json")  # an error, so the hook logs it
    assert (done.returncode, done.stdout) == (0, b"{}\n")
