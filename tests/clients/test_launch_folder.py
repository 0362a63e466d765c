"""Claude Code and Gemini CLI read project settings only in the folder they start in: doctor, run in a
subfolder whose own settings have no jitctx hooks, says that the root's hooks will not run there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.cli.main import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src/ui").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(root)
    return root


def launch_check(capsys: pytest.CaptureFixture[str], client: str) -> dict[str, str] | None:
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found = [c for c in checks if c["client"] == client and c["check"] == "hooks (this folder)"]
    return found[0] if found else None


@pytest.mark.parametrize(("client", "folder"), [("claude-code", ".claude"), ("gemini-cli", ".gemini")])
def test_a_subfolder_launch_is_warned_about(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    client: str,
    folder: str,
) -> None:
    assert main(["install", client]) == 0
    assert launch_check(capsys, client) is None  # at the root: nothing to say
    monkeypatch.chdir(project / "src/ui")
    check = launch_check(capsys, client)
    assert check is not None and check["status"] == "warn"
    assert f"{project / 'src/ui' / folder}" in check["detail"] and "--scope user" in check["fix"]
    assert main(["install", client, "--root", str(project / "src/ui")]) == 0  # where it reads, then
    check = launch_check(capsys, client)
    assert check is not None and check["status"] == "ok"


def test_hooks_in_the_user_scope_cover_every_folder(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code", "--scope", "user"]) == 0
    monkeypatch.chdir(project / "src/ui")
    assert launch_check(capsys, "claude-code") is None


def test_install_from_a_subfolder_says_the_hooks_will_not_run_there(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project / "src/ui")
    assert main(["install", "claude-code"]) == 0  # into the root's .claude/settings.json
    said = capsys.readouterr().err
    assert "reads project settings only in the folder it starts in" in said and "--scope user" in said
    assert main(["install", "codex"]) == 0  # Codex reads the project's .codex/ from the root
    assert "only in the folder it starts in" not in capsys.readouterr().err
