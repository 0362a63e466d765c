"""`jitctx install` into the committed project scope writes a command that resolves on any machine; the
scopes that stay on this machine keep a path of it when that is what runs here."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.hook_command import fail_safe, guard

PROJECT_CLIENTS = [c.name for c in all_clients.every_setup() if "project" in c.scopes]


def venv_jitctx(venv: Path) -> Path:
    """A virtualenv's `jitctx` script (pyvenv.cfg beside bin/, as `python -m venv` makes it)."""
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    program = venv / "bin" / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    return program


@pytest.fixture
def in_venv(install_project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project's own `.venv` is active and is the only place jitctx is on PATH: the issue's case."""
    program = venv_jitctx(install_project / ".venv")
    monkeypatch.setenv("VIRTUAL_ENV", str(install_project / ".venv"))
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")
    return program


def install(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[dict[str, Any], str]:
    """What people read of `jitctx install ARGS` (stderr), then the command it wrote (--json again)."""
    capsys.readouterr()
    assert main(["install", *args]) == 0
    err = capsys.readouterr().err
    assert main(["install", *args, "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc, err


@pytest.mark.parametrize("agent", PROJECT_CLIENTS)
def test_the_committed_file_names_no_path_of_this_machine(
    in_venv: Path, capsys: pytest.CaptureFixture[str], agent: str
) -> None:
    doc, _ = install(capsys, agent)
    command = f"jitctx hook {agent}"
    # Run through a shell, it is guarded: a machine without jitctx gets the empty answer `{}`. OpenCode's
    # plugin starts the program itself and leaves OpenCode alone when it cannot.
    assert doc["scope"] == "project"
    client = all_clients.setup(agent)
    expected = command if client.hooks_file else guard(command)
    if not client.hooks_file and any(entry.fails_closed for entry in client.entries()):
        expected = fail_safe(expected)  # a client that takes a failing hook for a deny: never exits non-zero
    assert doc["command"] == expected
    written = Path(doc["settings_path"]).read_text()
    assert str(in_venv.parent) not in written and sys.executable not in written


def test_install_says_what_the_committed_command_asks_of_each_machine(
    in_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["install", "claude-code"])
    err = capsys.readouterr().err
    assert "committed" in err and "pipx install DIR-OR-WHEEL" in err and "uv tool install" in err
    # here jitctx is on PATH only in this shell: said, with the way out
    assert "only through the active virtualenv" in err and "--scope local or --scope user" in err


@pytest.mark.parametrize("scope", ["local", "user"])
def test_the_scopes_of_this_machine_keep_its_path(
    in_venv: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    doc, _ = install(capsys, "claude-code", "--scope", scope)
    assert (
        doc["command"] == f"'{in_venv}' hook claude-code" or doc["command"] == f"{in_venv} hook claude-code"
    )


def test_no_jitctx_on_path_still_commits_the_portable_command_and_warns(
    install_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    doc, err = install(capsys, "codex")
    assert doc["command"] == guard("jitctx hook codex")
    assert "not on PATH here either" in err and "--scope user" in err


def test_a_jitctx_on_path_outside_any_virtualenv_is_simply_noted(
    install_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # install_project puts this interpreter's bin first on PATH, with no virtualenv active
    _, err = install(capsys, "claude-code")
    assert "pipx install DIR-OR-WHEEL" in err and "warning" not in err


def test_an_explicit_machine_path_in_the_committed_file_is_written_and_warned_about(
    in_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = f"{in_venv} hook claude-code"
    doc, err = install(capsys, "claude-code", "--command", command)
    assert doc["command"] == command  # the user's choice stands ...
    assert "warning" in err and "inside a virtualenv" in err and "drop --command" in err  # ... said


def test_the_help_says_which_scope_gets_which_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["install", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "project scope's file, which is committed" in text and "always `jitctx hook AGENT`" in text
    assert "command -v jitctx >/dev/null 2>&1 && exec jitctx hook AGENT || echo '{}'" in text
    assert "elsewhere it answers {} and exits 0" in text
    assert "The local and user scopes stay on this machine" in text
