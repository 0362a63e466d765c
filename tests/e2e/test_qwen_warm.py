"""The real Qwen Code with `jitctx install qwen-code --warm`: its hook commands hand their events to the
warm daemon (tests/hook/test_hook_warm.py proves who answers): the first hook starts the daemon and
answers by itself, those after it are answered by the daemon once it listens."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.clients import Clients
from tests.e2e.fake_api import Call, Script
from tests.e2e.qwen_code_harness import QwenHarness, qwen_deliveries

pytestmark = pytest.mark.e2e

# What jitctx sends in the session below: the root CLAUDE.md at start, src/ui's files after the read_file,
# src/api's after the shell read (its `.qwen/rules` file too: the client adds it after its file tools only).
FROM_JITCTX = (
    "JX-ROOT-CLAUDE",
    "JX-UI-QWEN",
    "JX-UI-CLAUDE",
    "JX-RULE-COMPONENTS",
    "JX-API-QWEN",
    "JX-API-AGENTS",
    "JX-RULE-API",
    "JX-QRULE-API",
)
CLIENT_OWN = ("JX-ROOT-QWEN", "JX-ROOT-AGENTS", "JX-QRULE-ALWAYS")
# A run of five steps takes a few seconds; a hook held open by a daemon that kept its pipe would cost the
# hook's whole 10 s timeout, each time.
ON_TIME_S = 30.0


def test_warm_hooks_send_the_same_files_once_and_leave_a_daemon_that_holds_no_pipe(
    clients: Clients, tmp_path: Path
) -> None:
    """Every entry runs `jitctx hook qwen-code --warm` (inside the guard a committed hook has). The files
    arrive as without --warm, once each and by the route that owns them; a write into a folder whose
    rules have not arrived is held back once, with those rules as its result, and then runs; and Qwen
    Code ends on time although the daemon started through its hook lives on: the daemon holds none of
    its pipes."""
    qwen = QwenHarness(clients, tmp_path, "--warm")
    settings = json.loads((qwen.root / ".qwen/settings.json").read_text())
    commands = [h["command"] for groups in settings["hooks"].values() for g in groups for h in g["hooks"]]
    assert commands and all("jitctx hook qwen-code --warm" in c for c in commands), commands
    target = qwen.root / "tools/made.py"
    write = Call("write_file", {"file_path": str(target), "content": "X = 1\n"})
    steps = [
        [Call("read_file", {"file_path": str(qwen.root / "src/ui/Footer.tsx")})],
        [Call("run_shell_command", {"command": "cat src/api/users.ts", "description": "e2e"})],
        [Call("read_file", {"file_path": str(qwen.root / "src/ui/Header.tsx")})],
        [write],  # held back: tools/ has rules that have not arrived
        [write],
    ]
    started = time.monotonic()
    outcome = qwen.run("Look around, then add a tool.", [Script(steps)])
    took = time.monotonic() - started
    pids = list((qwen.state_dir / "warm").glob("*.pid"))
    try:
        assert took < ON_TIME_S, f"Qwen Code took {took:.1f} s\n{outcome.diagnose()}"
        assert target.read_text() == "X = 1\n", outcome.diagnose()
        for marker in CLIENT_OWN:
            outcome.expect(marker, "client")
        for marker in FROM_JITCTX:
            outcome.expect(marker, "hook")
        # The first write was held back: the rules of tools/ are its result (the deny's reason, verbatim),
        # once, and the repeated write brought nothing more.
        last = outcome.last()
        denied = [m for m in last["messages"] if m.get("tool_call_id") == "call_main_s3_0"]
        assert len(denied) == 1 and "JX-TOOLS-CLAUDE" in str(denied[0]["content"]), denied
        for marker in ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON"):
            assert len(qwen_deliveries(last, marker)) == 1, outcome.diagnose(last)
        assert len(pids) == 1, outcome.diagnose()
        pid = int(pids[0].read_text())
        assert Path(f"/proc/{pid}").exists(), "the daemon should still be serving"
        # The daemon answered: past its pid file (all a daemon that serves nothing writes), it wrote the
        # session state and the records of the events it answered.
        written = int(Path(f"/proc/{pid}/io").read_text().split("wchar:")[1].split()[0])
        assert written > 1000, f"the daemon wrote {written} bytes: it answered no event"
    finally:
        for pid_file in pids:
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGTERM)
