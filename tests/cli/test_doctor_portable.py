"""`jitctx doctor` says when a committed settings file runs a path of this machine (a virtualenv, the
home, the checkout), which a teammate's hook would not find, and how to fix it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.doctor_kit import machine_specific


@pytest.fixture
def project(committed_project: Path) -> Path:
    return committed_project


def venv_jitctx(venv: Path) -> Path:
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    program = venv / "bin" / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    return program


def checks(capsys: pytest.CaptureFixture[str], agent: str, name: str) -> list[dict[str, Any]]:
    main(["doctor", "--json"])
    doc = json.loads(capsys.readouterr().out)
    return [c for c in doc["checks"] if c["client"] == agent and c["check"] == name]


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli"])
def test_a_venv_path_in_the_committed_file_is_a_warning_with_the_fix(
    project: Path, capsys: pytest.CaptureFixture[str], agent: str
) -> None:
    program = venv_jitctx(project / ".venv")
    assert main(["install", agent, "--command", f"{program} hook {agent}"]) == 0
    capsys.readouterr()
    [check] = checks(capsys, agent, "portable (project)")
    assert check["status"] == "warn"
    assert "committed" in check["detail"] and "inside a virtualenv" in check["detail"]
    assert check["fix"].startswith(f"jitctx install {agent} --scope project")
    assert "pipx install DIR-OR-WHEEL" in check["fix"]


def test_the_portable_command_passes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    [check] = checks(capsys, "claude-code", "portable (project)")
    assert check["status"] == "ok" and "jitctx hook claude-code" in check["detail"]


def test_a_machine_path_in_the_local_scope_is_not_a_portability_matter(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = venv_jitctx(project / ".venv")
    assert (
        main(["install", "claude-code", "--scope", "local", "--command", f"{program} hook claude-code"]) == 0
    )
    capsys.readouterr()
    assert checks(capsys, "claude-code", "portable (project)") == []
    assert [c["status"] for c in checks(capsys, "claude-code", "command (local)")] == ["ok"]


def test_a_committed_command_this_shell_finds_only_in_a_virtualenv_is_fixed_by_installing_jitctx(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    program = venv_jitctx(project / ".venv")
    monkeypatch.setenv("VIRTUAL_ENV", str(project / ".venv"))
    monkeypatch.setenv("PATH", str(program.parent))
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    [check] = checks(capsys, "claude-code", "command (project)")
    # install would write the same portable command again: the fix is a jitctx every shell finds
    assert check["status"] == "warn" and check["fix"].startswith("pipx install DIR-OR-WHEEL")


def test_what_counts_as_a_path_of_this_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv_program = venv_jitctx(tmp_path / "env")  # no venv-like folder name: found by its pyvenv.cfg
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert machine_specific(str(venv_program)) == f"inside a virtualenv ({tmp_path / 'env'})"
    assert "virtualenv" in (machine_specific("/opt/app/.venv/bin/python") or "")
    assert "home" in (machine_specific(str(tmp_path / "home" / ".local" / "bin" / "jitctx")) or "")
    assert "checkout" in (
        machine_specific(str(tmp_path / "proj" / "bin" / "jitctx"), str(tmp_path / "proj")) or ""
    )
    assert machine_specific("/usr/bin/python3") is None  # a shared system place
    assert machine_specific("jitctx") is None  # found on PATH wherever it runs
