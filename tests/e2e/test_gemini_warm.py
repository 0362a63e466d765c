"""The real Gemini CLI with `jitctx install gemini-cli --warm`: its hook commands hand their events to the
warm daemon (tests/hook/test_hook_warm.py proves who answers) through the fail-safe form every Gemini
entry is written in (`jitctx hook gemini-cli --warm || echo '{}'`: Gemini CLI takes a failing hook for a
deny)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.clients import Clients
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import GeminiHarness

pytestmark = pytest.mark.e2e


def result_of(body: Mapping[str, Any], call_id: str) -> str:
    """The functionResponse of a call as the model reads it (its `response` object, as JSON)."""
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            if isinstance(response, dict) and response.get("id") == call_id:
                return json.dumps(response.get("response"), ensure_ascii=False)
    return ""


def found_in(body: Mapping[str, Any], marker: str) -> list[str]:
    """The parts of the request that hold `marker`, once per time: a text part as its text, a
    functionResponse as `result_of` reads it (its string values searched as text, where a marker after
    a line break is not hidden behind the `n` of an escaped `\\n`)."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    found = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            if isinstance(response, dict):
                values = (response.get("response") or {}).values()
                texts = [value for value in values if isinstance(value, str)]
                shown = json.dumps(response.get("response"), ensure_ascii=False)
            else:
                texts = [part["text"]] if isinstance(part.get("text"), str) else []
                shown = texts[0] if texts else ""
            found += [shown for text in texts for _ in pattern.finditer(text)]
    return found


# What jitctx sends in the session below: the root files at start, src/ui's after the read_file (but
# src/ui/GEMINI.md, which the client appends itself), src/api's after the shell read (its GEMINI.md too).
FROM_JITCTX = (
    "JX-ROOT-CLAUDE",
    "JX-ROOT-AGENTS",
    "JX-UI-AGENTS",
    "JX-UI-CLAUDE",
    "JX-RULE-COMPONENTS",
    "JX-API-GEMINI",
    "JX-API-AGENTS",
    "JX-RULE-API",
)

# A Gemini run of five steps takes a few seconds; a hook held open by a daemon that kept its pipe would
# cost the hook's whole 10 s timeout, each time.
ON_TIME_S = 30.0


def test_warm_hooks_send_the_same_files_once_and_leave_a_daemon_that_holds_no_pipe(
    clients: Clients, tmp_path: Path
) -> None:
    """`install gemini-cli --warm`: every entry runs `jitctx hook gemini-cli --warm` inside the fail-safe
    form; the first hook starts the daemon and answers by itself, those after it are answered by the
    daemon. The files arrive as without --warm, once each and by the route that owns them (src/ui/GEMINI.md
    from the client's own load, the rest from jitctx), a write is held back and let through as without
    --warm, and Gemini CLI ends on time although the daemon started through its hook lives on."""
    gemini = GeminiHarness(clients, tmp_path, "--warm")
    settings = json.loads((gemini.root / ".gemini/settings.json").read_text())
    commands = [h["command"] for groups in settings["hooks"].values() for g in groups for h in g["hooks"]]
    assert commands and all(
        "jitctx hook gemini-cli --warm" in c and c.endswith("|| echo '{}'") for c in commands
    )
    target = gemini.root / "tools/made.py"
    write = Call("write_file", {"file_path": str(target), "content": "X = 1\n"})
    steps = [
        [Call("read_file", {"file_path": str(gemini.root / "src/ui/Footer.tsx")})],
        [Call("run_shell_command", {"command": "cat src/api/users.ts", "description": "e2e"})],
        [Call("read_file", {"file_path": str(gemini.root / "src/ui/Header.tsx")})],
        [write],  # held back: tools/ has rules that have not arrived
        [write],
    ]
    warm = gemini.state_dir / "warm"
    try:
        started = time.monotonic()
        outcome = gemini.run("Look around, then add a tool.", [Script(steps)])
        took = time.monotonic() - started
        assert took < ON_TIME_S, f"Gemini CLI took {took:.1f} s\n{outcome.diagnose()}"
        assert target.read_text() == "X = 1\n", outcome.diagnose()
        outcome.expect("JX-ROOT-GEMINI", "client")
        outcome.expect("JX-UI-GEMINI", "client")
        outcome.expect("JX-TOOLS-GEMINI", "client")
        for marker in FROM_JITCTX:
            outcome.expect(marker, "hook")
        # The first write was held back: the rules of tools/ came with its deny, once, and the repeated
        # write ran (evidence.deliveries does not read a deny's `error`; see the hold's own e2e tests).
        last = outcome.last()
        denied = result_of(last, "call_main_s3_0")
        assert denied.startswith('{"error": "Tool execution blocked: '), denied[:400]
        for marker in ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON"):
            assert found_in(last, marker) == [denied], f"{marker}\n{outcome.diagnose(last)}"
        pids = list(warm.glob("*.pid"))
        assert len(pids) == 1, outcome.diagnose()
        pid = int(pids[0].read_text())
        assert Path(f"/proc/{pid}").exists(), "the daemon should still be serving"
        # The daemon answered: past its pid file (all a daemon that serves nothing writes), it wrote the
        # session state and the records of the events it answered.
        written = int(Path(f"/proc/{pid}/io").read_text().split("wchar:")[1].split()[0])
        assert written > 1000, f"the daemon wrote {written} bytes: it answered no event"
    finally:  # also when the run failed: a daemon left by this test is stopped
        for pid_file in warm.glob("*.pid"):
            with contextlib.suppress(OSError, ValueError):
                pid = int(pid_file.read_text())
                if b"--serve-warm" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGTERM)
