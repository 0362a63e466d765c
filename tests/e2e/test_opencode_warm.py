"""The real OpenCode with `jitctx install opencode --warm`: the plugin runs `jitctx hook opencode --warm`,
which hands each event to the warm daemon (tests/hook/test_hook_warm.py proves who answers); the first
hook starts the daemon and answers by itself. The plugin takes an answer when the hook exits, not when
its output pipe closes (tests/clients/test_opencode_plugin.py), so a daemon the hook started and that
lives on costs it nothing."""

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
from tests.e2e.opencode_harness import OpenCodeHarness, deliveries, expect

pytestmark = pytest.mark.e2e

# A run of five steps takes a few seconds; a plugin that waited for the daemon's end of the pipe would
# wait its whole 10 s timeout, each time, and lose every answer.
ON_TIME_S = 30.0


def test_warm_hooks_send_the_same_files_once_and_leave_a_daemon_that_holds_no_pipe(
    clients: Clients, tmp_path: Path
) -> None:
    """read src/ui/Footer.tsx, `cat src/api/users.ts`, read src/ui/Header.tsx, then a write into tools/
    twice: the files arrive as without --warm, once each and by the route that owns them (src/ui/CLAUDE.md
    and tools/AGENTS.md from OpenCode's own loads, the rest from jitctx), the first write is held back with
    tools/'s rules and the second runs, and OpenCode ends on time while the daemon lives on."""
    opencode = OpenCodeHarness(clients, tmp_path, "--warm")
    plugin = (opencode.root / ".opencode/plugins/jitctx.js").read_text()
    assert 'const COMMAND = ["jitctx", "hook", "opencode", "--warm"];' in plugin.splitlines()
    target = opencode.root / "tools/made.py"
    write = Call("write", {"filePath": str(target), "content": "X = 1\n"})
    steps = [
        [Call("read", {"filePath": str(opencode.root / "src/ui/Footer.tsx")})],
        [Call("bash", {"command": "cat src/api/users.ts", "description": "e2e"})],
        [Call("read", {"filePath": str(opencode.root / "src/ui/Header.tsx")})],
        [write],  # held back: tools/ has rules that have not arrived
        [write],
    ]
    started = time.monotonic()
    outcome = opencode.run("Look around, then add a tool.", [Script(steps)])
    took = time.monotonic() - started
    pids = list((opencode.state_dir / "warm").glob("*.pid"))
    try:
        assert took < ON_TIME_S, f"OpenCode took {took:.1f} s\n{outcome.diagnose()}"
        assert target.read_text() == "X = 1\n", outcome.diagnose()
        expect(outcome, "JX-ROOT-AGENTS", "client")
        expect(outcome, "JX-UI-CLAUDE", "client")
        for marker in ("JX-ROOT-CLAUDE", "JX-RULE-COMPONENTS", "JX-API-AGENTS", "JX-RULE-API"):
            expect(outcome, marker, "hook")
        # The held write's result is the deny, with tools/'s rules (its AGENTS.md too: OpenCode attaches
        # nothing after a write), once.
        last = outcome.last()
        denied = [m for m in last["messages"] if m.get("tool_call_id") == "call_main_s3_0"]
        assert len(denied) == 1 and "JX-TOOLS-CLAUDE" in json.dumps(denied[0]), denied
        for marker in ("JX-TOOLS-AGENTS", "JX-TOOLS-CLAUDE", "JX-RULE-PYTHON"):
            assert len(deliveries(last, marker)) == 1, outcome.diagnose(last)
        assert len(pids) == 1, outcome.diagnose()
        pid = int(pids[0].read_text())
        assert Path(f"/proc/{pid}").exists(), "the daemon should still be serving"
        # The daemon answered: past its pid file, it wrote the session state and the event records.
        written = int(Path(f"/proc/{pid}/io").read_text().split("wchar:")[1].split()[0])
        assert written > 1000, f"the daemon wrote {written} bytes: it answered no event"
    finally:
        for pid_file in pids:
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGTERM)
