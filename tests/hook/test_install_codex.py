"""`jitctx install|uninstall codex`: hooks.json for a project or a user ($CODEX_HOME)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.cli.main import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return root


def test_project_install_writes_codex_hooks_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "codex", "--command", "jitctx hook codex"]) == 0
    err = capsys.readouterr().err
    assert "only after you trust it" in err and "type /hooks" in err and "jitctx doctor" in err
    assert "config.toml" in err  # where Codex records the trust
    data = json.loads((project / ".codex" / "hooks.json").read_text())
    handler = {"type": "command", "command": "jitctx hook codex", "timeout": 10}
    assert data == {
        "hooks": {
            "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [handler]}],
            "UserPromptSubmit": [{"hooks": [handler]}],
            "PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [handler]}],
            "PostToolUse": [{"matcher": "Bash|apply_patch", "hooks": [handler]}],
            "SubagentStart": [{"hooks": [handler]}],
        }
    }


def test_user_scope_follows_codex_home(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "codex", "--scope", "user"]) == 0
    assert (tmp_path / "home" / ".codex" / "hooks.json").is_file()
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    assert main(["install", "codex", "--scope", "user"]) == 0
    assert (tmp_path / "codex-home" / "hooks.json").is_file()


def test_claude_code_entries_in_the_same_file_are_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = project / ".codex" / "hooks.json"
    shared.parent.mkdir()
    theirs = {"type": "command", "command": "jitctx hook claude-code"}
    shared.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [theirs]}]}}, indent=2) + "\n")
    assert main(["install", "codex"]) == 0
    assert main(["uninstall", "codex"]) == 0
    assert json.loads(shared.read_text()) == {"hooks": {"Stop": [{"hooks": [theirs]}]}}


def test_local_scope_is_claude_code_only(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "codex", "--scope", "local"]) == 2
    assert "--scope local does not exist for codex; choose one of: project, user" in capsys.readouterr().err


def test_install_twice_and_uninstall(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "codex", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["changed"] and [c["event"] for c in first["changes"]] == [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "SubagentStart",
    ]
    assert main(["install", "codex", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] is False
    assert main(["uninstall", "codex", "--json"]) == 0
    removed = json.loads(capsys.readouterr().out)
    assert removed["changed"] and removed["backup"] is not None
    # install made .codex/hooks.json: uninstall takes it away, and the folder it made for it
    assert not (project / ".codex").exists()
    assert removed["removed"] == [str(project / ".codex" / "hooks.json"), str(project / ".codex")]
    assert Path(removed["backup"]).is_file() and project not in Path(removed["backup"]).parents
