"""`jitctx install gemini-cli --warm`: Gemini CLI's entries are written in the fail-safe form (Gemini CLI
takes a hook that fails for a deny: `clients.kit.hook_command.fail_safe`), with `--warm` inside it; the
command, run by a shell as Gemini CLI runs it, hands its events to the warm daemon and returns at once.
(tests/e2e/test_gemini_warm.py runs the real client with it.)"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.hook_command import is_fail_safe
from jitctx.clients.kit.settings_file import is_warm_command
from tests.conftest import write_tree

GUARDED_WARM = "command -v jitctx >/dev/null 2>&1 && jitctx hook gemini-cli --warm || echo '{}'"
ENGINE = "jitctx.hook.pipeline"  # imported only by a hook process that answers itself (test_hook_warm.py)


@pytest.fixture
def project(install_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_WARM_IDLE", "8")
    write_tree(install_project, {"src/api/AGENTS.md": "JX-API-AGENTS\n", "src/api/users.ts": "x\n"})
    yield install_project
    for pid_file in (tmp_path / "state" / "warm").glob("*.pid"):
        with contextlib.suppress(OSError, ValueError):
            pid = int(pid_file.read_text())
            if b"--serve-warm" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)


def install(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def commands(settings_file: Path) -> set[str]:
    hooks = json.loads(settings_file.read_text())["hooks"]
    return {h["command"] for groups in hooks.values() for group in groups for h in group["hooks"]}


def test_the_committed_entries_are_fail_safe_and_warm(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".gemini/settings.json"
    document = install(capsys, "install", "gemini-cli", "--warm")
    assert (document["warm"], document["command"]) == (True, GUARDED_WARM)
    assert commands(settings) == {GUARDED_WARM}
    assert is_fail_safe(GUARDED_WARM) and is_warm_command(GUARDED_WARM)
    assert install(capsys, "install", "gemini-cli", "--warm")["changed"] is False
    back = install(capsys, "install", "gemini-cli")
    assert back["warm"] is False and {c["action"] for c in back["changes"]} == {"updated"}
    assert commands(settings) == {"command -v jitctx >/dev/null 2>&1 && jitctx hook gemini-cli || echo '{}'"}
    install(capsys, "install", "gemini-cli", "--warm")
    removed = install(capsys, "uninstall", "gemini-cli")
    assert {c["action"] for c in removed["changes"]} == {"removed"}


def test_a_machine_scope_entry_is_fail_safe_and_warm(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = install(
        capsys, "install", "gemini-cli", "--scope", "user", "--warm", "--command", "jitctx hook gemini-cli"
    )
    assert document["command"] == "jitctx hook gemini-cli --warm || echo '{}'"
    assert commands(Path(document["settings_path"])) == {document["command"]}


def run_as_gemini(
    command: str, event: dict[str, Any], env: dict[str, str]
) -> tuple[dict[str, Any], bool, float]:
    """`command` run by a shell as Gemini CLI runs a hook: the event on stdin, stdout and stderr read to
    their end. (answer, whether the hook process answered itself, seconds until the pipes closed)"""
    started = time.monotonic()
    done = subprocess.run(
        ["/bin/sh", "-c", command], input=json.dumps(event).encode(), capture_output=True, env=env, timeout=30
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout), ENGINE in done.stderr.decode(), time.monotonic() - started


def test_the_fail_safe_warm_command_is_answered_by_the_daemon(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first event starts the daemon and is answered by the hook process, whose shell returns although
    the daemon lives on (it holds none of the hook's pipes); once the daemon listens, the next event is
    answered by it (the hook process never imports the engine), with the same files."""
    command = install(capsys, "install", "gemini-cli", "--warm")["command"]
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}  # each hook process says what it imported
    base = {"session_id": "gw", "cwd": str(project), "transcript_path": ""}
    start = {**base, "hook_event_name": "SessionStart", "source": "startup"}
    answer, itself, took = run_as_gemini(command, start, env)
    assert itself and took < 8, "the first hook answers itself and does not wait for the daemon"
    warm = Path(os.environ["JITCTX_STATE_DIR"]) / "warm"
    deadline = time.monotonic() + 10
    while not (list(warm.glob("*.sock")) and list(warm.glob("*.pid"))):
        assert time.monotonic() < deadline, "no daemon came up"
        time.sleep(0.05)
    read = {
        **base,
        "hook_event_name": "AfterTool",
        "tool_name": "read_file",
        "tool_input": {"file_path": str(project / "src/api/users.ts")},
        "tool_response": {"llmContent": "x\n"},
    }
    answer, itself, _ = run_as_gemini(command, read, env)
    assert not itself, "the daemon answers once it listens"
    assert "JX-API-AGENTS" in json.dumps(answer)
