"""The pre-tool entry that holds back a write whose rules are not in context yet (DESIGN §2.11), for
Claude Code, Codex and Qwen Code: `jitctx install` writes it (matching the client's write tools and its
shell), `doctor` reports an older install without it, `uninstall` takes it away with the rest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.codex.trust import codex_hash, codex_key
from jitctx.clients.kit.checks import our_handlers
from jitctx.clients.kit.hook_command import unguard

# client -> (settings file of the project scope, the PreToolUse matcher: its write tools and its shell)
PRE_TOOL = {
    "claude-code": (".claude/settings.json", "Edit|MultiEdit|NotebookEdit|Write|Bash"),
    "codex": (".codex/hooks.json", "Bash|apply_patch"),  # Codex 0.171.0 reports exec_command as Bash
    "qwen-code": (".qwen/settings.json", "edit|notebook_edit|write_file|run_shell_command"),
}


@pytest.fixture
def project(install_project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for variable in ("CODEX_HOME", "QWEN_HOME"):
        monkeypatch.delenv(variable, raising=False)
    return install_project


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, document


def hooks_check(capsys: pytest.CaptureFixture[str], client: str) -> dict[str, Any]:
    _, document = run(capsys, "doctor")
    [check] = [c for c in document["checks"] if c["client"] == client and c["check"] == "hooks (project)"]
    assert isinstance(check, dict)
    return check


@pytest.mark.parametrize("client", sorted(PRE_TOOL))
def test_install_writes_the_pre_tool_entry(
    project: Path, capsys: pytest.CaptureFixture[str], client: str
) -> None:
    relative, matcher = PRE_TOOL[client]
    code, document = run(capsys, "install", client)
    assert code == 0 and ("PreToolUse", "added") in [(c["event"], c["action"]) for c in document["changes"]]
    [group] = json.loads((project / relative).read_text())["hooks"]["PreToolUse"]
    assert group["matcher"] == matcher
    [handler] = group["hooks"]
    assert unguard(handler["command"]).endswith(f"hook {client}") and handler["timeout"] == 10  # seconds


@pytest.mark.parametrize("client", sorted(PRE_TOOL))
def test_doctor_reports_an_older_install_without_it_and_install_adds_it(
    project: Path, capsys: pytest.CaptureFixture[str], client: str
) -> None:
    relative, _ = PRE_TOOL[client]
    assert run(capsys, "install", client)[0] == 0
    assert hooks_check(capsys, client)["status"] == "ok"
    settings = project / relative
    older = json.loads(settings.read_text())
    del older["hooks"]["PreToolUse"]  # as written before jitctx held writes back
    settings.write_text(json.dumps(older, indent=2) + "\n")
    check = hooks_check(capsys, client)
    assert check["status"] == "problem" and "no entry for PreToolUse" in check["detail"]
    assert check["fix"] == f"jitctx install {client} --scope project"
    code, document = run(capsys, "install", client)
    changes = {c["event"]: c["action"] for c in document["changes"]}
    assert code == 0 and changes.pop("PreToolUse") == "added" and set(changes.values()) == {"kept"}
    assert hooks_check(capsys, client)["status"] == "ok"


@pytest.mark.parametrize("client", sorted(PRE_TOOL))
def test_uninstall_takes_the_pre_tool_entry_away(
    project: Path, capsys: pytest.CaptureFixture[str], client: str
) -> None:
    relative, _ = PRE_TOOL[client]
    settings = project / relative
    settings.parent.mkdir(parents=True, exist_ok=True)
    theirs = {"matcher": "Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [theirs]}}, indent=2) + "\n")
    assert run(capsys, "install", client)[0] == 0
    assert len(json.loads(settings.read_text())["hooks"]["PreToolUse"]) == 2  # theirs, then ours
    code, document = run(capsys, "uninstall", client)
    assert code == 0 and ("PreToolUse", "removed") in [(c["event"], c["action"]) for c in document["changes"]]
    assert json.loads(settings.read_text()) == {"hooks": {"PreToolUse": [theirs]}}


def test_codex_asks_for_trust_of_the_new_entry(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Codex runs a hook only once the user trusted it (/hooks): after an upgrade that adds PreToolUse,
    the handlers trusted before still run, and doctor names the one that waits for trust."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    assert run(capsys, "install", "codex")[0] == 0
    hooks_json = project / ".codex" / "hooks.json"
    handlers = our_handlers(json.loads(hooks_json.read_text()), "codex")
    trusted = "".join(
        f'[hooks.state.{json.dumps(codex_key(str(hooks_json), h))}]\ntrusted_hash = "{codex_hash(h)}"\n'
        for h in handlers
        if h.event != "PreToolUse"
    )
    (codex_home / "config.toml").write_text(trusted)
    _, document = run(capsys, "doctor")
    [check] = [c for c in document["checks"] if c["client"] == "codex" and c["check"] == "trust (project)"]
    assert check["status"] == "problem" and "PreToolUse untrusted" in check["detail"]
    assert "SessionStart" not in check["detail"] and "PostToolUse" not in check["detail"]
