"""`jitctx doctor` on a machine where the committed hook's jitctx is not on PATH: the guarded command then
answers `{}` (a warning: the agent runs, without jitctx's context, and the fix installs jitctx); the bare
form of older installs fails every hook there (a problem) and is worth reinstalling anywhere."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.hook_command import guard


@pytest.fixture
def project(committed_project: Path) -> Path:
    return committed_project


def no_jitctx_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))


def check(capsys: pytest.CaptureFixture[str], agent: str, name: str) -> dict[str, Any]:
    capsys.readouterr()
    main(["doctor", "--json"])
    found = [
        c for c in json.loads(capsys.readouterr().out)["checks"] if (c["client"], c["check"]) == (agent, name)
    ]
    assert len(found) == 1, found
    return dict(found[0])


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli", "copilot-cli", "qwen-code"])
def test_a_guarded_committed_hook_without_jitctx_is_a_warning_with_the_fix(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    agent: str,
) -> None:
    assert main(["install", agent]) == 0
    no_jitctx_on_path(tmp_path, monkeypatch)
    found = check(capsys, agent, "command (project)")
    assert found["status"] == "warn"
    assert "not on PATH" in found["detail"] and "without jitctx's context" in found["detail"]
    assert found["fix"].startswith("pipx install DIR-OR-WHEEL")
    assert check(capsys, agent, "portable (project)")["status"] == "ok"


def test_the_opencode_plugin_without_jitctx_is_a_warning_too(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "opencode"]) == 0
    no_jitctx_on_path(tmp_path, monkeypatch)
    found = check(capsys, "opencode", "command (project)")
    assert found["status"] == "warn" and found["fix"].startswith("pipx install DIR-OR-WHEEL")


def test_the_bare_committed_form_is_a_problem_without_jitctx_and_a_warning_with_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "qwen-code", "--command", "jitctx hook qwen-code"]) == 0  # an older install
    portable = check(capsys, "qwen-code", "portable (project)")
    assert portable["status"] == "warn" and "exit 127" in portable["detail"]
    assert portable["fix"].startswith("jitctx install qwen-code --scope project")
    assert guard("jitctx hook qwen-code") in portable["fix"]
    no_jitctx_on_path(tmp_path, monkeypatch)
    assert check(capsys, "qwen-code", "command (project)")["status"] == "problem"


def test_a_fail_safe_committed_form_is_portable(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Gemini CLI takes a failing hook for a deny: its entries hold the form that always exits 0, which
    answers `{}` without jitctx too."""
    assert main(["install", "gemini-cli", "--command", "jitctx hook gemini-cli"]) == 0
    portable = check(capsys, "gemini-cli", "portable (project)")
    assert portable["status"] == "ok", portable


def test_a_committed_file_not_yet_in_git_is_not_called_committed(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git = shutil.which("git", path=os.environ.get("PATH", "") + os.pathsep + "/usr/bin:/bin")
    assert git is not None
    monkeypatch.setenv("PATH", os.pathsep.join([os.environ["PATH"], os.path.dirname(git)]))
    (project / ".git").rmdir()
    subprocess.run([git, "init", "-q"], cwd=project, check=True, timeout=30)
    assert main(["install", "codex", "--command", "jitctx hook codex"]) == 0
    detail = check(capsys, "codex", "portable (project)")["detail"]
    assert "is not committed yet; once committed it is shared with the team" in detail


def test_gemini_cli_trust_advice_keeps_the_hooks(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--skip-trust trusts the folder only after Gemini CLI dropped the project's settings: the advice is
    a trust record, or GEMINI_CLI_TRUST_WORKSPACE for headless runs (tests/e2e/test_gemini_trust.py)."""
    assert main(["install", "gemini-cli"]) == 0
    found = check(capsys, "gemini-cli", "trust (folder)")
    assert found["status"] == "warn"
    assert "trustedFolders.json" in found["fix"] and "GEMINI_CLI_TRUST_WORKSPACE=true" in found["fix"]
    assert "need --skip-trust" not in found["detail"]


def test_copilot_cli_trust_advice_says_trust_folder_is_for_new_sessions(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "copilot-cli"]) == 0
    detail = check(capsys, "copilot-cli", "trust (folder)")["detail"]
    assert "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true" in detail
    assert "--trust-folder does for a new session only" in detail and "--resume" in detail
