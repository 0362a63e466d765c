"""`jitctx install AGENT --warm`: every command hook written runs `jitctx hook AGENT --warm`; installing
without it takes it away, uninstall recognises the entries as jitctx's, and doctor says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main


@pytest.fixture
def project(install_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return install_project


def install(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def commands(settings_file: Path) -> dict[str, list[str]]:
    hooks = json.loads(settings_file.read_text())["hooks"]
    return {
        event: [h.get("command", h["type"]) for g in groups for h in g["hooks"]]
        for event, groups in hooks.items()
    }


def test_codex_hooks_go_warm_and_back(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hooks_json = project / ".codex/hooks.json"
    document = install(capsys, "install", "codex", "--warm", "--command", "jitctx hook codex")
    assert (document["warm"], document["command"]) == (True, "jitctx hook codex --warm")
    assert {tuple(c) for c in commands(hooks_json).values()} == {("jitctx hook codex --warm",)}
    assert install(capsys, "install", "codex", "--warm", "--command", "jitctx hook codex")["changed"] is False
    back = install(capsys, "install", "codex", "--command", "jitctx hook codex")
    assert back["warm"] is False and {c["action"] for c in back["changes"]} == {"updated"}
    assert {tuple(c) for c in commands(hooks_json).values()} == {("jitctx hook codex",)}
    install(capsys, "install", "codex", "--warm", "--command", "jitctx hook codex")
    removed = install(capsys, "uninstall", "codex")
    assert removed["warm"] is None and {c["action"] for c in removed["changes"]} == {"removed"}
    assert not hooks_json.exists()  # install made it, and nothing of anyone else's was in it


def test_a_command_that_says_warm_already_is_not_given_it_twice(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = install(capsys, "install", "codex", "--warm", "--command", "jitctx hook codex --warm")
    assert document["command"] == "jitctx hook codex --warm"


def test_with_the_mcp_transport_the_remaining_commands_go_warm(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = install(
        capsys,
        "install",
        "claude-code",
        "--transport",
        "mcp",
        "--warm",
        "--command",
        "jitctx hook claude-code",
    )
    assert document["warm"] is True and document["mcp_server"]["action"] == "added"
    assert commands(project / ".claude/settings.json") == {
        "SessionStart": ["jitctx hook claude-code --warm"],
        "PreToolUse": ["jitctx hook claude-code --warm"],
        "UserPromptSubmit": ["mcp_tool"],
        "PostToolBatch": ["mcp_tool"],
        "SubagentStart": ["mcp_tool"],
        "InstructionsLoaded": ["jitctx hook claude-code --warm"],
    }
    servers = json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert servers["jitctx"] == {"type": "stdio", "command": "jitctx", "args": ["mcp"]}  # no --warm there
    install(capsys, "uninstall", "claude-code")
    assert not (project / ".claude/settings.json").exists() and not (project / ".mcp.json").exists()


def test_doctor_says_the_hooks_are_warm(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(capsys, "install", "claude-code", "--warm")
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    details = [c["detail"] for c in checks if c["check"] == "hooks (project)"]
    assert len(details) == 1 and "--warm" in details[0]
    install(capsys, "install", "claude-code")
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert not any("--warm" in c["detail"] for c in checks if c["check"] == "hooks (project)")
