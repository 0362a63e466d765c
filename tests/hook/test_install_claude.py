"""`jitctx install|uninstall claude-code`: files, backups, refusals, dry runs, and a command that works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.claude_code import hooks as claude_code
from jitctx.clients.kit.hook_command import guard, is_guarded, unguard

UNRELATED = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}],
            }
        ]
    },
    "env": {"GREETING": "grüß dich"},
}


@pytest.fixture
def project(install_project: Path) -> Path:
    return install_project


def settings_of(root: Path) -> Path:
    return root / ".claude" / "settings.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any] | str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    if "--json" in args and code == 0:
        return code, json.loads(out), err
    return code, out, err


def backups(root: Path) -> list[Path]:
    """The backups of the project's settings file: in the state dir, never next to the file."""
    assert not list((root / ".claude").glob("*.bak*")) if (root / ".claude").is_dir() else True
    return sorted((root.parent / "state" / "settings-backups").glob("*/settings.json.bak-*"))


def test_install_creates_the_file_then_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, _ = run(capsys, "install", "claude-code", "--json")
    assert code == 0 and isinstance(doc, dict)
    assert doc["changed"] and doc["written"] and doc["backup"] is None  # nothing to back up
    assert doc["settings_path"] == str(settings_of(project))
    assert doc["command"] == guard("jitctx hook claude-code")
    data = json.loads(settings_of(project).read_text())
    assert list(data["hooks"]) == [entry.event for entry in claude_code.ENTRIES]
    first = settings_of(project).read_bytes()
    mtime = settings_of(project).stat().st_mtime_ns

    code, doc, _err = run(capsys, "install", "claude-code", "--json")
    assert code == 0 and isinstance(doc, dict)
    assert not doc["changed"] and not doc["written"] and doc["diff"] == ""
    assert {c["action"] for c in doc["changes"]} == {"kept"}
    assert settings_of(project).read_bytes() == first and settings_of(project).stat().st_mtime_ns == mtime
    assert backups(project) == []


def test_install_keeps_unrelated_settings_and_backs_up(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = json.dumps(UNRELATED, indent=2, ensure_ascii=False) + "\n"
    settings_of(project).parent.mkdir()
    settings_of(project).write_text(original, encoding="utf-8")
    code, out, err = run(capsys, "install", "claude-code")
    assert code == 0
    assert "SessionStart" in str(out) and "added" in str(out)
    assert "installed hooks for claude-code" in err and "previous version kept as" in err
    data = json.loads(settings_of(project).read_text(encoding="utf-8"))
    assert list(data) == list(UNRELATED)
    assert {k: v for k, v in data.items() if k != "hooks"} == {
        k: v for k, v in UNRELATED.items() if k != "hooks"
    }
    assert data["hooks"]["PostToolUse"][0] == UNRELATED["hooks"]["PostToolUse"][0]
    assert "grüß dich" in settings_of(project).read_text(encoding="utf-8")  # not escaped to \\u00fc
    [backup] = backups(project)
    assert backup.read_text(encoding="utf-8") == original

    code, _, err = run(capsys, "uninstall", "claude-code")
    assert code == 0 and "removed hooks" in err
    assert settings_of(project).read_text(encoding="utf-8") == original  # byte for byte
    assert len(backups(project)) == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"model": "opus",', "not valid JSON"),
        ("[1, 2]", "not an object"),
        ('{"hooks": ["x"]}', "'hooks' is a list"),
        ('{"hooks": {"Stop": "say done"}}', "'hooks.Stop' is a str"),
        (b'{"model": "\xff"}', "not UTF-8"),
    ],
)
def test_a_file_that_cannot_be_parsed_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, message: str
) -> None:
    path = settings_of(project)
    path.parent.mkdir()
    raw = content if isinstance(content, bytes) else content.encode()
    path.write_bytes(raw)
    for command in (["install", "claude-code"], ["uninstall", "claude-code"]):
        code, _, err = run(capsys, *command)
        assert code == 2
        assert message in err and str(path) in err
    assert path.read_bytes() == raw and backups(project) == []


def test_dry_run_shows_a_diff_and_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "install", "claude-code", "--dry-run")
    assert code == 0
    assert str(out).startswith("--- /dev/null\n+++ " + str(settings_of(project)))
    matcher = claude_code.ENTRIES[0].matcher
    assert f'+      "{matcher}"' not in str(out)
    assert f'"matcher": "{matcher}"' in str(out)
    assert "dry run" in err and not settings_of(project).exists()
    code, doc, _ = run(capsys, "install", "claude-code", "--dry-run", "--json")
    assert isinstance(doc, dict) and doc["changed"] and not doc["written"] and doc["diff"].startswith("--- ")


def test_scopes(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "install", "claude-code", "--scope", "user")[0] == 0
    assert (tmp_path / "home" / ".claude" / "settings.json").is_file()
    assert run(capsys, "install", "claude-code", "--scope", "local")[0] == 0
    assert (project / ".claude" / "settings.local.json").is_file()
    assert not settings_of(project).exists()
    other = tmp_path / "other"
    other.mkdir()
    assert run(capsys, "install", "claude-code", "--root", str(other))[0] == 0
    assert settings_of(other).is_file()
    code, _, err = run(capsys, "install", "claude-code", "--root", str(tmp_path / "missing"))
    assert code == 2 and "not an existing directory" in err


def test_the_command_falls_back_to_this_interpreter(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, doc, _ = run(capsys, "install", "claude-code", "--scope", "local", "--json")  # this machine only
    assert isinstance(doc, dict)
    assert doc["command"] == f"{sys.executable} -m jitctx hook claude-code" or doc["command"].endswith(
        "-m jitctx hook claude-code"
    )
    code, _, err = run(capsys, "install", "claude-code", "--command", "my-wrapper")
    assert code == 2 and "must run `jitctx hook claude-code`" in err


@pytest.mark.parametrize("on_path", [True, False])
def test_the_installed_command_answers_a_hook(
    project: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    on_path: bool,
) -> None:
    path = os.path.dirname(sys.executable) if on_path else str(tmp_path / "empty")
    monkeypatch.setenv("PATH", path)
    # Off PATH only a file of this machine may name this interpreter; the committed one never does.
    scope = "project" if on_path else "local"
    assert main(["install", "claude-code", "--scope", scope]) == 0
    capsys.readouterr()
    written = settings_of(project) if on_path else project / ".claude" / "settings.local.json"
    settings = json.loads(written.read_text())
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert unguard(command).startswith("jitctx ") is on_path and is_guarded(command) is on_path
    (project / "AGENTS.md").write_text("# guide\n")
    (project / "CLAUDE.md").write_text("# claude\n")  # Claude Code reads CLAUDE.md here, not AGENTS.md
    event = {"session_id": "i", "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(event).encode(),
        capture_output=True,
        env={**os.environ, "PATH": path, "JITCTX_STATE_DIR": str(tmp_path / "state")},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Contents of AGENTS.md" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_symlinked_settings_file_is_written_through(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"model": "opus"}\n')
    settings_of(project).parent.mkdir()
    settings_of(project).symlink_to(dotfiles)
    assert main(["install", "claude-code"]) == 0
    assert settings_of(project).is_symlink()
    assert "hooks" in json.loads(dotfiles.read_text())


def test_uninstall_without_a_file_is_a_no_op(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "uninstall", "claude-code", "--json")
    assert code == 0 and isinstance(doc, dict) and not doc["changed"] and doc["changes"] == []
    assert not settings_of(project).exists()


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("install", "uninstall", "hook"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert "examples:" in out


def test_install_as_a_real_process(tmp_path: Path) -> None:
    root = tmp_path / "proc"
    (root / ".git").mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "install", "claude-code", "--root", str(root), "--json"],
        capture_output=True,
        env={**os.environ, "JITCTX_HOME": str(tmp_path / "home")},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["written"] is True
    assert (root / ".claude" / "settings.json").is_file()
