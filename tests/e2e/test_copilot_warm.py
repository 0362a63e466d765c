"""The real GitHub Copilot CLI with jitctx's hooks answered by the warm daemon (`jitctx install copilot-cli
--warm`): every entry runs `jitctx hook copilot-cli --warm` in the form that exits 0 whatever jitctx does
(a failing preToolUse hook denies the call), the first hook starts the daemon and answers by itself, those
after it are answered by the daemon once it listens (tests/hook/test_hook_warm.py proves who answers)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

from jitctx.clients.kit.hook_command import is_fail_safe
from jitctx.clients.kit.settings_file import is_warm_command
from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import PINNED, CopilotHarness
from tests.e2e.fake_api import Call, Script

pytestmark = pytest.mark.e2e

# Copilot CLI with a scripted model ends in a few seconds; one that waited for a pipe the daemon held
# would run until run_client's timeout.
ON_TIME_S = 60.0
ANSWERED_BYTES = 4096


def test_warm_hooks_send_the_same_files_once_and_leave_a_daemon_that_holds_no_pipe(
    clients: cl.Clients, tmp_path: Path
) -> None:
    """The files arrive as without --warm, once each (CLAUDE.local.md and the pinned file at start,
    src/api's files and rules after a shell read, src/ui's from the client after its view, a sub-agent's
    start files), and Copilot CLI ends on time although a daemon started through its hook lives on: the
    daemon holds none of its pipes."""
    copilot = CopilotHarness(clients, tmp_path, "--warm", files=PINNED)
    settings = json.loads((copilot.root / ".github/copilot/settings.json").read_text(encoding="utf-8"))
    handlers = [h for groups in settings["hooks"].values() for group in groups for h in group["hooks"]]
    assert len(handlers) == 6 and all(
        is_warm_command(h["command"]) and is_fail_safe(h["command"]) for h in handlers
    ), handlers
    task = Call(
        "task",
        {"name": "helper", "description": "d", "prompt": "SUBTASK-MARK: report", "agent_type": "explore"},
    )
    steps = [
        [Call("bash", {"command": "cat src/api/users.ts", "description": "e2e"})],
        [Call("bash", {"command": "head -n 1 src/api/users.ts", "description": "e2e"})],
        [Call("view", {"path": str(copilot.root / "src/ui/Footer.tsx")})],
        [task],
    ]
    sub = Script([], name="sub", match="SUBTASK-MARK")
    started = time.monotonic()
    outcome = copilot.run("Show the users.", [Script(steps), sub])
    took = time.monotonic() - started
    pids = list((copilot.state_dir / "warm").glob("*.pid"))
    try:
        assert took < ON_TIME_S, f"copilot took {took:.0f} s\n{outcome.diagnose()}"
        for marker in ("JX-API-AGENTS", "JX-API-GEMINI", "JX-RULE-API", "JX-COPILOT-TS"):
            outcome.expect(marker, "hook")
        for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
            outcome.expect(marker, "client")
        for marker in ("JX-ROOT-LOCAL", "JX-PINNED"):
            outcome.expect(marker, "hook")
            outcome.expect(marker, "hook", script="sub")
        outcome.expect("JX-ROOT-AGENTS", "client")
        outcome.expect("JX-ROOT-AGENTS", "hook", script="sub")
        assert len(pids) == 1, outcome.diagnose()
        daemon = Path(f"/proc/{int(pids[0].read_text())}")
        assert daemon.exists(), "the daemon should still be serving"
        assert b"copilot-cli\0--serve-warm" in (daemon / "cmdline").read_bytes()
        # It answered hooks: an idle daemon writes its pid (a few bytes); one that answers writes each
        # answer to its hook's socket and each record to the event log.
        written = dict(line.split(": ") for line in (daemon / "io").read_text().splitlines())
        assert int(written["wchar"]) > ANSWERED_BYTES, written
    finally:
        for pid_file in pids:
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGTERM)
