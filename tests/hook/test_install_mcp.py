"""`jitctx install claude-code --transport mcp`: mcp_tool hooks answered by the running `jitctx mcp` server,
the server registered where Claude Code reads it, and all of it undone by `uninstall`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.claude_code import hooks as claude_code
from jitctx.clients.kit.mcp_transport import HOOK_FIELDS, hook_payload, is_jitctx_server, server_spec


@pytest.fixture
def project(install_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # ~/.claude.json, for --scope user
    return install_project


def install(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = main([*args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


def handler_types(settings: dict[str, Any]) -> dict[str, list[str]]:
    return {
        event: [h["type"] for g in groups for h in g["hooks"]] for event, groups in settings["hooks"].items()
    }


def test_install_writes_mcp_tool_hooks_and_the_server(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, _ = install(
        capsys, "install", "claude-code", "--transport", "mcp", "--command", "jitctx hook claude-code"
    )
    assert code == 0 and document["transport"] == "mcp"
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert handler_types(settings) == {
        "SessionStart": ["command"],  # Claude Code cannot ask an MCP server at session start
        "PreToolUse": ["command"],  # the hold of a write (its deny) stays a command's answer
        "UserPromptSubmit": ["mcp_tool"],
        "PostToolBatch": ["mcp_tool"],
        "SubagentStart": ["mcp_tool"],
        "InstructionsLoaded": ["command"],  # its answers are discarded: a command that records
    }
    handler = settings["hooks"]["PostToolBatch"][0]["hooks"][0]
    assert (handler["server"], handler["tool"]) == ("jitctx", "hook_event")
    assert handler["input"] == {field: "${" + field + "}" for field in HOOK_FIELDS}
    assert settings["enabledMcpjsonServers"] == ["jitctx"]
    servers = json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert servers == {"jitctx": {"type": "stdio", "command": "jitctx", "args": ["mcp"]}}
    assert document["mcp_server"]["action"] == "added"

    code, again, _ = install(
        capsys, "install", "claude-code", "--transport", "mcp", "--command", "jitctx hook claude-code"
    )
    assert (code, again["changed"], again["mcp_server"]["action"]) == (0, False, "kept")

    code, removed, _ = install(capsys, "uninstall", "claude-code")
    assert code == 0 and removed["mcp_server"]["action"] == "removed"
    assert not (project / ".mcp.json").exists()  # install created it, nothing else was in it
    assert not (project / ".claude/settings.json").exists()


def test_the_transports_replace_each_other(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The mcp_tool entries are jitctx's: back to commands they are replaced, not doubled, and so is
    the other way round."""
    command = ["--command", "jitctx hook claude-code"]
    assert install(capsys, "install", "claude-code", "--transport", "mcp", *command)[0] == 0
    assert install(capsys, "install", "claude-code", *command)[0] == 0
    types = handler_types(json.loads((project / ".claude/settings.json").read_text()))
    assert all(kinds == ["command"] for kinds in types.values())
    assert install(capsys, "install", "claude-code", "--transport", "mcp", *command)[0] == 0
    types = handler_types(json.loads((project / ".claude/settings.json").read_text()))
    assert types["PostToolBatch"] == ["mcp_tool"] and types["SessionStart"] == ["command"]


def test_other_servers_and_settings_are_kept(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = {"mcpServers": {"db": {"command": "db-mcp", "args": []}}, "x": 1e400}
    (project / ".mcp.json").write_text(json.dumps(other).replace("inf", "1e400").replace("Infinity", "1e400"))
    assert install(capsys, "install", "claude-code", "--transport", "mcp")[0] == 0
    text = (project / ".mcp.json").read_text()
    assert "1e400" in text  # a value jitctx did not touch keeps its text
    assert set(json.loads(text.replace("1e400", "1"))["mcpServers"]) == {"db", "jitctx"}
    assert install(capsys, "uninstall", "claude-code")[0] == 0
    left = json.loads((project / ".mcp.json").read_text().replace("1e400", "1"))
    assert left == {"mcpServers": {"db": {"command": "db-mcp", "args": []}}, "x": 1}


def test_a_foreign_server_named_jitctx_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refused before anything is written: no hooks that would ask that server, no approval of it."""
    foreign = json.dumps({"mcpServers": {"jitctx": {"command": "something-else", "args": []}}})
    (project / ".mcp.json").write_text(foreign)
    code = main(["install", "claude-code", "--transport", "mcp"])
    assert code == 2 and "does not run jitctx" in capsys.readouterr().err
    assert (project / ".mcp.json").read_text() == foreign
    assert not (project / ".claude/settings.json").exists()


def test_a_command_the_server_cannot_run_is_refused_before_writing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["install", "claude-code", "--transport", "mcp", "--command", "jitctx hook claude-code --no-git"]
    )
    assert code == 2 and "ends in `hook claude-code`" in capsys.readouterr().err
    assert not (project / ".claude/settings.json").exists() and not (project / ".mcp.json").exists()


def test_a_server_and_an_approval_of_the_users_own_are_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only what jitctx added is taken away: a `jitctx` server and approval the user wrote stay, through
    an install, an install back to commands, and an uninstall."""
    mine = {"mcpServers": {"jitctx": {"type": "stdio", "command": "jitctx", "args": ["mcp"]}}}
    (project / ".mcp.json").write_text(json.dumps(mine))
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text(json.dumps({"enabledMcpjsonServers": ["jitctx"]}))
    steps = [
        ["install", "claude-code", "--transport", "mcp", "--command", "jitctx hook claude-code"],
        ["install", "claude-code", "--command", "jitctx hook claude-code"],
        ["uninstall", "claude-code"],
    ]
    for step in steps:
        assert install(capsys, *step)[0] == 0
        assert json.loads((project / ".mcp.json").read_text()) == mine
        assert json.loads((project / ".claude/settings.json").read_text()).get("enabledMcpjsonServers") == [
            "jitctx"
        ]


def test_back_to_commands_takes_the_server_away(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        install(
            capsys, "install", "claude-code", "--transport", "mcp", "--command", "jitctx hook claude-code"
        )[0]
        == 0
    )
    code, back, _ = install(capsys, "install", "claude-code", "--command", "jitctx hook claude-code")
    assert code == 0 and back["mcp_server"]["action"] == "removed"
    assert not (project / ".mcp.json").exists()  # jitctx created it; nothing else was in it
    assert "enabledMcpjsonServers" not in json.loads((project / ".claude/settings.json").read_text())


def test_approvals_that_are_not_a_list_are_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text('{"enabledMcpjsonServers": "jitctx"}')
    assert main(["install", "claude-code", "--transport", "mcp"]) == 2
    assert "is not a list" in capsys.readouterr().err
    assert (project / ".claude/settings.json").read_text() == '{"enabledMcpjsonServers": "jitctx"}'
    assert not (project / ".mcp.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["codex"], "Codex hooks can only run commands"),
        (["claude-code", "--scope", "local"], "--scope project"),
    ],
)
def test_where_the_mcp_transport_cannot_go(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["install", *args, "--transport", "mcp"]) == 2
    assert message in capsys.readouterr().err


def test_user_scope_registers_the_server_in_claude_json(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".claude.json").write_text(
        json.dumps({"numStartups": 12, "projects": {"/x": {"a": 1}}}, indent=2)
    )
    code, document, _ = install(capsys, "install", "claude-code", "--scope", "user", "--transport", "mcp")
    assert code == 0 and document["mcp_server"]["path"] == str(home / ".claude.json")
    state = json.loads((home / ".claude.json").read_text())
    assert state["numStartups"] == 12 and state["projects"] == {"/x": {"a": 1}}
    assert is_jitctx_server(state["mcpServers"]["jitctx"])
    assert "enabledMcpjsonServers" not in json.loads((home / ".claude/settings.json").read_text())
    assert install(capsys, "uninstall", "claude-code", "--scope", "user")[0] == 0
    assert json.loads((home / ".claude.json").read_text()) == {
        "numStartups": 12,
        "projects": {"/x": {"a": 1}},
    }


@pytest.mark.parametrize(
    ("command", "spec"),
    [
        ("jitctx hook claude-code", {"type": "stdio", "command": "jitctx", "args": ["mcp"]}),
        ("/v/bin/jitctx hook claude-code", {"type": "stdio", "command": "/v/bin/jitctx", "args": ["mcp"]}),
        (
            "/usr/bin/python3 -m jitctx hook claude-code",
            {"type": "stdio", "command": "/usr/bin/python3", "args": ["-m", "jitctx", "mcp"]},
        ),
    ],
)
def test_the_server_runs_the_hooks_program(command: str, spec: dict[str, Any]) -> None:
    assert server_spec(command, "claude-code") == spec and is_jitctx_server(spec)


def test_is_jitctx_server_recognises_only_jitctx() -> None:
    assert not is_jitctx_server({"command": "other", "args": ["mcp"]})
    assert not is_jitctx_server({"command": "jitctx", "args": ["stats"]})
    assert not is_jitctx_server("jitctx mcp")


def test_the_hook_arguments_become_the_hook_input() -> None:
    """As Claude Code substitutes them: absent fields are "", objects arrive as JSON text."""
    fields = dict.fromkeys(HOOK_FIELDS, "")
    calls = [{"tool_name": "Read", "tool_input": {"file_path": "/p/a.py"}}]
    fields.update(hook_event_name="PostToolBatch", session_id="s", cwd="/p", tool_calls=json.dumps(calls))
    assert hook_payload(fields) == {
        "hook_event_name": "PostToolBatch",
        "session_id": "s",
        "cwd": "/p",
        "tool_calls": calls,
    }
    with pytest.raises(ValueError, match="tool_calls is not JSON"):
        hook_payload({**fields, "tool_calls": "{"})


def test_entries_of_both_transports_name_the_same_events() -> None:
    assert [e.event for e in claude_code.MCP_ENTRIES] == [e.event for e in claude_code.ENTRIES]
    assert {e.event for e in claude_code.MCP_ENTRIES if e.mcp} == {
        "UserPromptSubmit",
        "PostToolBatch",
        "SubagentStart",
    }


def test_doctor_checks_the_server(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = os.path.join(os.path.dirname(sys.executable), "jitctx")
    assert (
        main(["install", "claude-code", "--transport", "mcp", "--command", f"{program} hook claude-code"])
        == 0
    )
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "claude-code"
    }
    assert checks["hooks (project)"]["status"] == "ok"
    assert checks["mcp server (project)"]["status"] == "ok", checks["mcp server (project)"]
    (project / ".mcp.json").write_text("{}")
    main(["doctor", "--json"])
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "claude-code"
    }
    assert checks["mcp server (project)"]["status"] == "problem"


@pytest.mark.parametrize("approvals", ["1", '"xjitctxy"', '{"jitctx": true}'])
def test_doctor_reads_approvals_of_any_shape(
    project: Path, capsys: pytest.CaptureFixture[str], approvals: str
) -> None:
    program = os.path.join(os.path.dirname(sys.executable), "jitctx")
    assert (
        main(["install", "claude-code", "--transport", "mcp", "--command", f"{program} hook claude-code"])
        == 0
    )
    settings = project / ".claude/settings.json"
    data = json.loads(settings.read_text())
    data["enabledMcpjsonServers"] = json.loads(approvals)
    settings.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["doctor", "--json"]) in (0, 1)
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "claude-code"
    }
    assert checks["mcp server (project)"]["status"] == "warn"  # not approved: a string is no list
