"""A teammate without jitctx: every real client, with the hooks (or OpenCode's plugin) that `jitctx install`
commits in the project scope, on a machine where `jitctx` is not on PATH, still does its task.

The committed command runs jitctx only where it is on PATH and otherwise answers `{}`: each client gets a
valid empty answer, so the model's turn goes on. Gemini CLI 0.61 shows why that matters: a bare
`jitctx hook gemini-cli` there fails with exit 127 and "command not found" on stderr, which Gemini CLI turns
into a deny of the prompt, and the task never runs (the last test pins that).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import CopilotHarness
from tests.e2e.fake_api import Call, FakeModel, Script
from tests.e2e.harness import ClaudeHarness, CodexHarness, GeminiHarness, Outcome
from tests.e2e.opencode_harness import OpenCodeHarness
from tests.e2e.qwen_code_harness import QwenHarness

pytestmark = pytest.mark.e2e

FINAL = "JX-FINAL-ANSWER the users are listed"
READ = "cat src/api/users.ts"  # a shell read: every client's tool hook fires after it
USERS = "export const users"  # what the read shows, in the request after the call

# Each client's shell tool, and the harness that runs the client in the fixture repository.
SHELL: dict[str, Callable[[str], Call]] = {
    "claude-code": lambda command: Call("Bash", {"command": command}),
    "codex": lambda command: Call("shell", {"command": command}),
    "gemini-cli": lambda command: Call("run_shell_command", {"command": command, "description": "e2e"}),
    "copilot-cli": lambda command: Call("bash", {"command": command, "description": "e2e"}),
    "qwen-code": lambda command: Call("run_shell_command", {"command": command, "description": "e2e"}),
    "opencode": lambda command: Call("bash", {"command": command, "description": "e2e"}),
}


class Runs(Protocol):
    state_dir: Path

    def run(self, prompt: str, scripts: Sequence[Script]) -> Outcome: ...


HARNESSES: dict[str, Callable[[cl.Clients, Path], Runs]] = {
    "claude-code": ClaudeHarness,
    "codex": CodexHarness,
    "gemini-cli": GeminiHarness,
    "copilot-cli": CopilotHarness,
    "qwen-code": QwenHarness,
    "opencode": OpenCodeHarness,
}


def without_jitctx(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on every client starts with a PATH that holds no `jitctx`: this checkout's venv and any
    other folder with one (another checkout's venv, a pipx install) are left out. The fixture repository
    was installed before, by this checkout's jitctx."""
    made = cl.base_env

    def env(home: Path, state_dir: Path) -> dict[str, str]:
        environ = made(home, state_dir)
        kept = [
            p
            for p in environ["PATH"].split(os.pathsep)
            if p and not os.access(os.path.join(p, "jitctx"), os.X_OK)
        ]
        environ["PATH"] = os.pathsep.join(kept)
        assert shutil.which("jitctx", path=environ["PATH"]) is None, environ["PATH"]
        return environ

    monkeypatch.setattr(cl, "base_env", env)


def jitctx_never_ran(state_dir: Path) -> bool:
    """No hook of jitctx ran: it records every event, and logs every error, in its state dir."""
    return not (state_dir / "events").exists() and not (state_dir / "hook.log").exists()


@pytest.mark.parametrize("agent", sorted(HARNESSES))
def test_the_client_does_its_task_with_the_committed_hooks_and_no_jitctx(
    clients: cl.Clients, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    harness = HARNESSES[agent](clients, tmp_path)
    without_jitctx(monkeypatch)
    script = Script([[SHELL[agent](READ)]], final=FINAL)
    outcome = harness.run("List the users.", [script])
    assert outcome.run.returncode == 0, outcome.diagnose()
    assert FINAL in outcome.run.stdout, f"the final answer did not come back\n{outcome.diagnose()}"
    # The model's last turn came after the shell call, with its result: the tool hook let it through.
    assert USERS in str(outcome.last()), outcome.diagnose()
    # ... and no hook failed: the client shows no error of the shell that found no jitctx.
    # (What a shell says of a missing program: sh `jitctx: not found`, bash `jitctx: command not found`; a
    # client's own notes, such as Gemini CLI's startup metrics, may say "not found" of other things.)
    said = outcome.run.stdout + outcome.run.stderr
    assert "jitctx: not found" not in said and "jitctx: command not found" not in said, (
        f"a hook failed\n{outcome.run.describe()}\n{said[-3000:]}"
    )
    assert jitctx_never_ran(harness.state_dir), outcome.hook_log()


def test_claude_code_with_the_mcp_transport_does_its_task_without_jitctx(
    clients: cl.Clients, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--transport mcp` commits `.mcp.json` too: the `jitctx mcp` server it names cannot start, and the
    mcp_tool hooks that ask it find no server; the session still runs to its answer."""
    claude = ClaudeHarness(clients, tmp_path, "--transport", "mcp")
    without_jitctx(monkeypatch)
    outcome = claude.run("List the users.", [Script([[SHELL["claude-code"](READ)]], final=FINAL)])
    assert FINAL in outcome.run.stdout, f"the final answer did not come back\n{outcome.diagnose()}"
    assert USERS in str(outcome.last()), outcome.diagnose()
    assert jitctx_never_ran(claude.state_dir), outcome.hook_log()


def test_gemini_cli_refuses_every_prompt_with_the_bare_command_and_no_jitctx(
    clients: cl.Clients, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the committed command is guarded: the bare `jitctx hook gemini-cli` (as install wrote it before;
    now it writes even an explicit --command with an `|| echo '{}'` fallback, so the settings are
    rewritten here) on a machine without jitctx stops Gemini CLI before the model is asked."""
    gemini = GeminiHarness(clients, tmp_path)
    settings_path = gemini.root / ".gemini/settings.json"
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                handler["command"] = "jitctx hook gemini-cli"
    settings_path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    without_jitctx(monkeypatch)
    with FakeModel([Script([[SHELL["gemini-cli"](READ)]], final=FINAL)]) as model:
        env = cl.gemini_env(gemini.home, gemini.state_dir, model.base_url)
        command = [str(clients.gemini), "-m", cl.GEMINI_MODEL, "-p", "List the users.", "--yolo"]
        run = cl.run_client([*command, "--output-format", "json"], gemini.root, env)
    output = run.stdout + run.stderr
    assert FINAL not in run.stdout and not model.model_requests(), run.describe()
    assert "command not found" in output, run.describe()
