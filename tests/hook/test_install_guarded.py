"""The committed command is guarded: it runs jitctx where jitctx is on PATH, and elsewhere answers `{}` and
exits 0, so a teammate without jitctx runs the agent as before. Installs of the bare form stay jitctx's:
recognised, updated, removed; `--warm` and the MCP server take the guarded command apart."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.install_server import without_warm
from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.checks import command_program
from jitctx.clients.kit.hook_command import fail_safe, guard, is_guarded, is_jitctx_command, unguard
from jitctx.clients.kit.mcp_transport import server_spec
from jitctx.clients.kit.settings_file import install, is_warm_command, uninstall

SHELL_CLIENTS = [c.name for c in all_clients.every_setup() if "project" in c.scopes and not c.hooks_file]
GUARDED = "command -v jitctx >/dev/null 2>&1 && exec jitctx hook gemini-cli || echo '{}'"


def settings_path(root: Path, agent: str) -> Path:
    return all_clients.setup(agent).settings_path("project", str(root), "", {})


def settings(root: Path, agent: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(settings_path(root, agent).read_text())
    return data


def commands(data: dict[str, Any]) -> set[str]:
    return {h["command"] for groups in data["hooks"].values() for group in groups for h in group["hooks"]}


def test_the_guarded_form_reads_as_what_it_does() -> None:
    assert guard("jitctx hook gemini-cli") == GUARDED
    assert unguard(GUARDED) == "jitctx hook gemini-cli" and is_guarded(GUARDED)
    assert unguard("jitctx hook gemini-cli") == "jitctx hook gemini-cli"  # the bare form is itself
    assert not is_guarded("jitctx hook gemini-cli")


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        (GUARDED, True),
        ("command -v jitctx >/dev/null 2>&1 && exec jitctx hook gemini-cli --warm || echo '{}'", True),
        ("  command -v jitctx  >/dev/null 2>&1 &&  exec jitctx hook gemini-cli  ||  echo '{}'  ", True),
        ("jitctx hook gemini-cli", True),  # installs of the bare form are still jitctx's
        ("command -v jitctx >/dev/null 2>&1 && exec jitctx hook codex || echo '{}'", False),
        ("command -v jitctx >/dev/null 2>&1 && exec echo jitctx hook gemini-cli || echo '{}'", False),
    ],
)
def test_guarded_and_bare_commands_are_jitctxs(command: str, ours: bool) -> None:
    assert is_jitctx_command(command, "gemini-cli") is ours


def test_the_program_warm_and_mcp_server_of_a_guarded_command_are_the_guarded_ones() -> None:
    warm = guard("jitctx hook claude-code --warm")
    assert command_program(warm) == "jitctx" and is_warm_command(warm)
    assert not is_warm_command(guard("jitctx hook claude-code"))
    assert server_spec(guard("jitctx hook claude-code"), "claude-code") == {
        "type": "stdio",
        "command": "jitctx",
        "args": ["mcp"],
    }
    assert without_warm(unguard(warm)) == "jitctx hook claude-code"


def written(agent: str, command: str) -> str:
    """`command` as install writes it for `agent`: a client that takes a failing hook for a deny gets
    the form that always exits 0 (tests/hook/test_install_fail_closed.py)."""
    closed = any(entry.fails_closed for entry in all_clients.setup(agent).entries())
    return fail_safe(command) if closed else command


@pytest.mark.parametrize("agent", SHELL_CLIENTS)
def test_install_commits_the_guarded_command_and_takes_over_the_bare_one(
    install_project: Path, capsys: pytest.CaptureFixture[str], agent: str
) -> None:
    assert main(["install", agent, "--command", f"jitctx hook {agent}"]) == 0  # as install wrote it before
    assert commands(settings(install_project, agent)) == {written(agent, f"jitctx hook {agent}")}
    assert main(["install", agent]) == 0
    # one entry each
    assert commands(settings(install_project, agent)) == {written(agent, guard(f"jitctx hook {agent}"))}
    assert main(["install", agent, "--warm"]) == 0
    assert commands(settings(install_project, agent)) == {
        written(agent, guard(f"jitctx hook {agent} --warm"))
    }
    capsys.readouterr()
    assert main(["uninstall", agent]) == 0
    assert not settings_path(install_project, agent).exists()


def test_the_local_and_user_scopes_stay_bare(
    install_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code", "--scope", "local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["command"] == "jitctx hook claude-code"


def test_a_guarded_command_given_takes_warm_inside(
    install_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = guard("jitctx hook codex")
    assert main(["install", "codex", "--command", given, "--warm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["command"] == guard("jitctx hook codex --warm")


def test_uninstall_removes_old_and_new_forms_alike() -> None:
    from jitctx.clients.gemini_cli.hooks import ENTRIES

    data, _ = install({}, ENTRIES, "jitctx hook gemini-cli", "gemini-cli")
    data["hooks"]["AfterTool"].append({"hooks": [{"type": "command", "command": GUARDED, "timeout": 10}]})
    after, changes = uninstall(data, "gemini-cli")
    assert after == {} and {c.event for c in changes} == {entry.event for entry in ENTRIES}


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "zsh", "fish"])
@pytest.mark.parametrize("installed", [True, False])
def test_the_guarded_command_answers_in_every_shell_the_clients_use(
    tmp_path: Path, shell: str, installed: bool
) -> None:
    """Claude Code runs a hook with /bin/sh -c, Codex with $SHELL, Gemini CLI, Qwen Code and Copilot CLI
    with bash: with jitctx on PATH the guarded command is jitctx's answer; without, `{}`, exit 0, and
    nothing on stderr (Gemini CLI reads stderr as the answer when stdout is empty)."""
    program = shutil.which(shell)
    if program is None:
        pytest.skip(f"{shell} is not installed here")
    folder = tmp_path / "bin"
    folder.mkdir()
    if installed:
        fake = folder / "jitctx"
        fake.write_text('#!/bin/sh\nwhile read -r _; do :; done\necho "{\\"ran\\": \\"$*\\"}"\n')
        fake.chmod(0o755)
    done = subprocess.run(
        [program, "-c", guard("jitctx hook gemini-cli --warm")],
        input=b'{"hook_event_name": "SessionStart"}',
        capture_output=True,
        env={"PATH": str(folder), "HOME": str(tmp_path)},  # nothing else: no jitctx of this machine
        timeout=30,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == b""
    expected = {"ran": "hook gemini-cli --warm"} if installed else {}
    assert json.loads(done.stdout) == expected


def test_without_jitctx_the_real_hook_command_still_answers(
    install_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What install wrote, run as the client would, where jitctx is not on PATH: `{}`, exit 0."""
    assert main(["install", "qwen-code"]) == 0
    capsys.readouterr()
    [command] = commands(settings(install_project, "qwen-code"))
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=b"{}",
        capture_output=True,
        env={"PATH": str(tmp_path / "nothing"), "HOME": str(tmp_path)},
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"{}\n", b"")
    assert sys.executable not in command


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@e.st", "-c", "user.name=t", *args],
        cwd=root, check=True, capture_output=True, timeout=30,
    )  # fmt: skip


def test_install_says_whether_the_file_is_committed_by_asking_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    assert main(["install", "codex"]) == 0
    said = capsys.readouterr().err
    assert "hooks.json is not committed yet; once committed it is shared with the team" in said
    assert "is committed" not in said
    _git(root, "add", ".codex/hooks.json")
    _git(root, "commit", "-q", "-m", "hooks")
    assert main(["install", "codex", "--warm"]) == 0
    assert "hooks.json is committed, shared with the team" in capsys.readouterr().err
    (root / ".gitignore").write_text(".gemini/\n")
    assert main(["install", "gemini-cli"]) == 0
    assert "settings.json is ignored by git" in capsys.readouterr().err


def test_an_explicit_bare_command_in_the_committed_file_is_written_and_warned_about(
    install_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "qwen-code", "--command", "jitctx hook qwen-code"]) == 0
    said = capsys.readouterr().err
    assert "warning" in said and "fails on a machine without jitctx (exit 127)" in said
    assert commands(settings(install_project, "qwen-code")) == {"jitctx hook qwen-code"}  # as given
    # A client that takes a failing hook for a deny gets it with the fallback all the same.
    assert main(["install", "gemini-cli", "--command", "jitctx hook gemini-cli"]) == 0
    assert commands(settings(install_project, "gemini-cli")) == {"jitctx hook gemini-cli || echo '{}'"}
