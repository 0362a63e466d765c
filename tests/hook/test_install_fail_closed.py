"""A client that takes a failing hook for a deny gets a command that exits 0 whatever jitctx does.

Copilot CLI denies a tool call when its preToolUse hook exits non-zero (1 as 127); Gemini CLI denies the
prompt or the call when a hook exits with any code but 0 or 1 (127: "command not found"). A broken or
missing jitctx must never block them: their commands, in the committed scope (guarded) and the user's
(bare, or an absolute path), answer `{}` and exit 0 when jitctx fails or is not there, and pass jitctx's
own answer through when it works. Old forms stay jitctx's: recognised, updated, removed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.hook_command import (
    fail_safe,
    guard,
    is_fail_safe,
    is_guarded,
    is_jitctx_command,
    unguard,
)
from jitctx.clients.kit.settings_file import install, uninstall

CLOSED = ("gemini-cli", "copilot-cli")
PRE_TOOL = {"gemini-cli": "BeforeTool", "copilot-cli": "preToolUse"}
GUARDED_SAFE = "command -v jitctx >/dev/null 2>&1 && jitctx hook gemini-cli || echo '{}'"
PATH_SAFE = "'/v e/bin/jitctx' hook gemini-cli || echo '{}'"
DENY = '{"decision": "deny", "reason": "rules"}'


def test_the_fail_safe_forms_read_as_what_they_do() -> None:
    assert fail_safe(guard("jitctx hook gemini-cli")) == GUARDED_SAFE  # the guard, without `exec`
    assert fail_safe("'/v e/bin/jitctx' hook gemini-cli") == PATH_SAFE  # a bare one, with the fallback
    assert fail_safe(GUARDED_SAFE) == GUARDED_SAFE and fail_safe(PATH_SAFE) == PATH_SAFE  # once only
    assert unguard(GUARDED_SAFE) == "jitctx hook gemini-cli"
    assert unguard(PATH_SAFE) == "'/v e/bin/jitctx' hook gemini-cli"
    assert is_guarded(GUARDED_SAFE) and not is_guarded(PATH_SAFE)  # only the first asks PATH first
    assert is_fail_safe(GUARDED_SAFE) and is_fail_safe(PATH_SAFE)
    assert not is_fail_safe(guard("jitctx hook gemini-cli"))  # exec: jitctx's exit status is the hook's
    assert not is_fail_safe("jitctx hook gemini-cli")


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        (GUARDED_SAFE, True),
        (PATH_SAFE, True),
        ("jitctx hook gemini-cli --warm || echo '{}'", True),
        ("python3 -m jitctx hook gemini-cli || echo '{}'", True),
        ("jitctx hook codex || echo '{}'", False),
        ("echo jitctx hook gemini-cli || echo '{}'", False),
        ("./lint.sh; jitctx hook gemini-cli || echo '{}'", False),
    ],
)
def test_fail_safe_commands_are_jitctxs(command: str, ours: bool) -> None:
    assert is_jitctx_command(command, "gemini-cli") is ours


def test_only_the_clients_that_fail_closed_get_it() -> None:
    for client in all_clients.every_setup():
        closed = {entry.fails_closed for entry in client.entries()}
        # All of a client's entries or none: one command per settings file, one doctor line for it.
        assert closed == ({True} if client.name in CLOSED else {False}), client.name


def test_old_forms_are_updated_and_every_form_is_removed() -> None:
    from jitctx.clients.gemini_cli.hooks import ENTRIES

    old, _ = install({}, tuple(e._replace(fails_closed=False) for e in ENTRIES), GUARDED_SAFE, "gemini-cli")
    old["hooks"]["BeforeTool"][0]["hooks"][0]["command"] = guard("jitctx hook gemini-cli")
    new, changes = install(old, ENTRIES, guard("jitctx hook gemini-cli"), "gemini-cli")
    assert {c.action for c in changes} == {"updated", "kept"}
    groups = [g for event in new["hooks"].values() for g in event]
    assert {h["command"] for g in groups for h in g["hooks"]} == {GUARDED_SAFE}
    again, changes = install(new, ENTRIES, guard("jitctx hook gemini-cli"), "gemini-cli")
    assert again is new and {c.action for c in changes} == {"kept"}  # installing twice changes nothing
    assert uninstall(new, "gemini-cli")[0] == {} and uninstall(old, "gemini-cli")[0] == {}


# -- the written command, run as the client runs it ---------------------------------------------------


def settings_file(agent: str, scope: str, root: Path, home: Path) -> Path:
    return all_clients.setup(agent).settings_path(scope, str(root), str(home), {})


def pre_tool_command(agent: str, scope: str, root: Path, home: Path) -> str:
    data: dict[str, Any] = json.loads(settings_file(agent, scope, root, home).read_text())
    [group] = data["hooks"][PRE_TOOL[agent]]
    [handler] = group["hooks"]
    command: str = handler["command"]
    return command


def fake_jitctx(program: Path, body: str) -> None:
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f"#!/bin/sh\n{body}\n")
    program.chmod(0o755)


@pytest.mark.parametrize("shell", ["sh", "bash"])
@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("agent", CLOSED)
def test_a_failing_or_missing_jitctx_never_blocks_the_call(
    install_project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    agent: str,
    scope: str,
    shell: str,
) -> None:
    """The pre-tool command install wrote, run with a jitctx that exits 1, one that exits 2 with a message
    (which Gemini CLI would give the model as a deny's reason), none at all, and one that answers."""
    program = shutil.which(shell)
    if program is None:
        pytest.skip(f"{shell} is not installed here")
    home = tmp_path / "home"
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    venv = tmp_path / "venv"
    jitctx = venv / "bin" / "jitctx"
    fake_jitctx(jitctx, "exit 0")
    if scope == "user":  # jitctx only in the active virtualenv: install writes its absolute path
        monkeypatch.setenv("VIRTUAL_ENV", str(venv))
        monkeypatch.setenv("PATH", str(venv / "bin"))
    assert main(["install", agent, "--scope", scope]) == 0
    capsys.readouterr()
    command = pre_tool_command(agent, scope, install_project, home)
    assert (str(jitctx) in command) is (scope == "user"), command
    assert is_fail_safe(command)

    def run() -> tuple[int, bytes]:
        done = subprocess.run(
            [program, "-c", command],
            input=b'{"hook_event_name": "BeforeTool", "tool_name": "write_file"}',
            capture_output=True,
            env={"PATH": str(venv / "bin"), "HOME": str(tmp_path)},  # no jitctx of this machine
            timeout=30,
            check=False,
        )
        return done.returncode, done.stdout.strip()

    fake_jitctx(jitctx, "echo 'Traceback (most recent call last): a bug' >&2\nexit 1")
    assert run() == (0, b"{}")
    fake_jitctx(jitctx, "echo 'jitctx: broken' >&2\nexit 2")
    assert run() == (0, b"{}")
    fake_jitctx(jitctx, f"echo '{DENY}'")
    assert run() == (0, DENY.encode())  # a working jitctx's answer is the hook's
    jitctx.unlink()
    assert run() == (0, b"{}")


# -- doctor ------------------------------------------------------------------------------------------


def doctor(capsys: pytest.CaptureFixture[str], agent: str) -> dict[str, dict[str, str]]:
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    return {c["check"]: c for c in checks if c["client"] == agent}


@pytest.mark.parametrize("agent", CLOSED)
def test_doctor_asks_for_the_pre_tool_entry_and_its_fail_safe_command(
    install_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], agent: str
) -> None:
    assert main(["install", agent]) == 0
    checks = doctor(capsys, agent)
    assert (
        checks["hooks (project)"]["status"] == "ok" and PRE_TOOL[agent] in checks["hooks (project)"]["detail"]
    )
    assert "fail-safe (project)" not in checks
    path = settings_file(agent, "project", install_project, tmp_path / "home")
    data = json.loads(path.read_text())
    handler = data["hooks"][PRE_TOOL[agent]][0]["hooks"][0]
    handler["command"] = guard(f"jitctx hook {agent}")  # the form of the other clients: exec
    path.write_text(json.dumps(data))
    found = doctor(capsys, agent)["fail-safe (project)"]
    assert found["status"] == "warn" and PRE_TOOL[agent] in found["detail"]
    assert found["fix"] == f"jitctx install {agent} --scope project"
    del data["hooks"][PRE_TOOL[agent]]  # written by a jitctx that did not hold writes yet
    path.write_text(json.dumps(data))
    hooks = doctor(capsys, agent)["hooks (project)"]
    assert hooks["status"] == "problem" and f"no entry for {PRE_TOOL[agent]}" in hooks["detail"]
    assert main(["install", agent]) == 0
    assert doctor(capsys, agent)["hooks (project)"]["status"] == "ok"
    assert main(["uninstall", agent]) == 0
    assert not path.exists()


@pytest.mark.parametrize("agent", CLOSED)
def test_install_reports_the_command_its_entries_hold(
    install_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], agent: str
) -> None:
    """Not the `exec` form the other clients get: the form the settings file holds."""
    capsys.readouterr()
    assert main(["install", agent, "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)["command"]
    assert is_fail_safe(reported)
    assert reported == pre_tool_command(agent, "project", install_project, tmp_path / "home")
