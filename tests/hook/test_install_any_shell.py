"""`jitctx install` from a virtualenv works from any shell; `uninstall` leaves no clutter; backups live in
the state dir, outside the repository."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.hook_command import guard


@pytest.fixture
def project(install_project: Path) -> Path:
    return install_project  # the tests that depend on PATH set it themselves


def fake_jitctx(folder: Path) -> Path:
    folder.mkdir(parents=True)
    program = folder / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    return program


def install_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_a_jitctx_only_in_the_active_virtualenv_is_written_as_an_absolute_path(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = tmp_path / "my venv"
    program = fake_jitctx(venv / "bin")
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    monkeypatch.setenv("PATH", str(venv / "bin"))
    doc = install_json(capsys, "install", "claude-code", "--scope", "local")  # this machine's file only
    assert doc["command"] == f"'{program}' hook claude-code"
    # ... and that command runs the hook from a shell whose PATH knows nothing of the virtualenv
    (project / "CLAUDE.md").write_text("# house rules\n")
    event = {"session_id": "v", "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run(
        ["/bin/sh", "-c", doc["command"]],
        input=json.dumps(event).encode(),
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "JITCTX_STATE_DIR": str(tmp_path / "state2"), "HOME": str(tmp_path)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) is not None
    # the human output says why the path is absolute
    assert main(["uninstall", "claude-code", "--scope", "local"]) == 0
    assert main(["install", "claude-code", "--scope", "local"]) == 0
    assert "only in this virtualenv" in capsys.readouterr().err


@pytest.mark.parametrize("venv_set", [False, True])
def test_a_jitctx_outside_the_virtualenv_stays_plain(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    venv_set: bool,
) -> None:
    fake_jitctx(tmp_path / "usr-local-bin")
    if venv_set:  # a virtualenv is active, but the jitctx on PATH is the system's
        fake_jitctx(tmp_path / "venv" / "bin-unused")
        monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "venv"))
    monkeypatch.setenv("PATH", str(tmp_path / "usr-local-bin"))
    assert install_json(capsys, "install", "claude-code")["command"] == guard("jitctx hook claude-code")


def test_uninstall_deletes_the_file_and_folder_install_created(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_json(capsys, "install", "claude-code", "--command", "jitctx hook claude-code")
    assert (project / ".claude" / "settings.json").is_file()
    doc = install_json(capsys, "uninstall", "claude-code")
    assert not (project / ".claude").exists()
    assert doc["removed"] == [str(project / ".claude" / "settings.json"), str(project / ".claude")]
    backup = Path(doc["backup"])
    assert backup.is_file() and tmp_path / "state" in backup.parents
    assert "jitctx hook claude-code" in backup.read_text()
    assert (backup.parent / "path").read_text() == f"{project / '.claude' / 'settings.json'}\n"
    assert not list(project.rglob("*.bak*"))


def test_uninstall_keeps_a_folder_with_other_files_and_says_what_it_deleted(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code"]) == 0
    (project / ".claude" / "commands").mkdir()  # the user added something next to it
    capsys.readouterr()
    assert main(["uninstall", "claude-code"]) == 0
    err = capsys.readouterr().err
    assert not (project / ".claude" / "settings.json").exists()
    assert (project / ".claude" / "commands").is_dir()
    assert f"deleted {project / '.claude' / 'settings.json'}" in err
    [kept] = [line for line in err.splitlines() if "previous version kept as" in line]
    assert str(project) not in kept and str(project.parent / "state") in kept


def test_a_file_the_user_had_stays_even_when_empty(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{}\n")
    install_json(capsys, "install", "claude-code")
    doc = install_json(capsys, "uninstall", "claude-code")
    assert settings.read_text() == "{}\n" and doc["removed"] == []


def test_a_created_file_the_user_added_to_stays(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install_json(capsys, "install", "claude-code")
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({"model": "opus", **data}, indent=2) + "\n")
    doc = install_json(capsys, "uninstall", "claude-code")
    assert json.loads(settings.read_text()) == {"model": "opus"} and doc["removed"] == []


def test_backups_are_private_and_never_overwritten(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"env": {"TOKEN": "secret"}}\n')
    first = install_json(capsys, "install", "claude-code")["backup"]
    second = install_json(capsys, "uninstall", "claude-code")["backup"]
    third = install_json(capsys, "install", "claude-code")["backup"]
    assert len({first, second, third}) == 3
    for backup in (first, second, third):
        assert stat.S_IMODE(os.stat(backup).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(Path(first).parent).st_mode) == 0o700
    assert "secret" in Path(first).read_text()


def test_a_state_dir_that_cannot_hold_the_backup_stops_the_change(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("JITCTX_STATE_DIR", str(blocker))
    assert main(["install", "claude-code"]) == 2
    err = capsys.readouterr().err
    assert "backup" in err and "JITCTX_STATE_DIR" in err and "Traceback" not in err
    assert settings.read_text() == '{"model": "opus"}\n'
