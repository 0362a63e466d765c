"""`jitctx install claude-code --statusline`: Claude Code's `statusLine` set to `jitctx statusline` in the
settings file install writes, never over a status line of the user's (there, or in another scope's file);
`jitctx uninstall` takes away only jitctx's; `jitctx doctor` checks its program."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main

THEIRS = {"type": "command", "command": "~/.claude/statusline.sh", "padding": 0}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    capsys.readouterr()
    code = main([*args, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def human(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().err


def settings(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text())
    return document


@pytest.fixture
def local(committed_project: Path) -> Path:
    return committed_project / ".claude" / "settings.local.json"


@pytest.fixture
def user(committed_project: Path) -> Path:
    return committed_project.parent / "home" / ".claude" / "settings.json"


def test_sets_the_status_line_to_this_jitctx(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, _ = run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    line = settings(local)["statusLine"]
    program, *rest = shlex.split(line["command"])
    assert code == 0 and line == {"type": "command", "command": line["command"]} and rest == ["statusline"]
    assert os.path.isabs(program) and os.path.dirname(program) == os.path.dirname(sys.executable)
    assert document["status_line"] == {
        "action": "added",
        "command": line["command"],
        "settings_path": str(local),
    }
    assert settings(local)["hooks"]  # the hooks as ever
    before = local.read_bytes()
    code, document, _ = run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    assert (
        document["status_line"]["action"] == "kept"
        and not document["changed"]
        and local.read_bytes() == before
    )
    code, document, _ = run(capsys, "install", "claude-code", "--scope", "local")
    assert document["status_line"] is None and "statusLine" in settings(local)  # kept without the flag


def test_a_status_line_of_the_users_stays(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local.parent.mkdir()
    local.write_text(json.dumps({"statusLine": THEIRS}))
    code, err = human(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    assert code == 0 and settings(local)["statusLine"] == THEIRS and settings(local)["hooks"]
    assert f"{local} has a status line of yours (~/.claude/statusline.sh); jitctx's is not set" in err
    code, document, _ = run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    assert code == 0 and document["status_line"] == {
        "action": "left",
        "command": "~/.claude/statusline.sh",
        "settings_path": str(local),
    }
    code, document, _ = run(capsys, "uninstall", "claude-code", "--scope", "local")
    assert settings(local) == {"statusLine": THEIRS} and document["status_line"] is None


def test_one_in_another_scope_stays_too(
    committed_project: Path, user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project's status line would replace the user's own: left as it is, and said."""
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"statusLine": THEIRS}))
    code, document, _ = run(capsys, "install", "claude-code", "--statusline")
    project = committed_project / ".claude" / "settings.json"
    assert code == 0 and "statusLine" not in settings(project) and settings(project)["hooks"]
    assert document["status_line"]["action"] == "left" and document["status_line"]["settings_path"] == str(
        user
    )
    assert settings(user) == {"statusLine": THEIRS}


def test_the_committed_file_gets_the_portable_command_and_a_note(
    committed_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = human(capsys, "install", "claude-code", "--statusline")
    project = committed_project / ".claude" / "settings.json"
    assert code == 0 and settings(project)["statusLine"] == {
        "type": "command",
        "command": "jitctx statusline",
    }
    assert "every teammate's Claude Code in this project shows this status line instead of their own" in err
    assert "--scope local keeps it yours" in err


def test_an_older_jitctx_status_line_is_updated_and_the_users_padding_kept(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local.parent.mkdir()
    old = {"type": "command", "command": "/old/venv/bin/jitctx statusline", "padding": 2}
    local.write_text(json.dumps({"statusLine": old}))
    _, document, _ = run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    now = settings(local)["statusLine"]
    assert document["status_line"]["action"] == "updated"
    assert now["padding"] == 2 and now["command"] != old["command"] and now["command"].endswith(" statusline")


def test_uninstall_removes_jitctxs_status_line(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    code, document, _ = run(capsys, "uninstall", "claude-code", "--scope", "local", "--dry-run")
    assert document["status_line"]["action"] == "removed" and '-  "statusLine"' in document["diff"]
    assert "statusLine" in settings(local)  # a dry run
    code, document, _ = run(capsys, "uninstall", "claude-code", "--scope", "local")
    assert code == 0 and document["status_line"]["action"] == "removed" and not local.exists()


def test_only_for_an_agent_with_a_status_line(
    committed_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = human(capsys, "install", "codex", "--statusline")
    assert code == 2 and "--statusline is for claude-code, qwen-code: Codex has no status line command" in err
    assert not (committed_project / ".codex").exists()


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("jitctx statusline", True),
        ("/home/me/.venv/bin/jitctx statusline --agent claude-code", True),
        ("'/opt/my tools/jitctx' statusline", True),
        ("/usr/bin/python3 -m jitctx statusline", True),
        ("env JITCTX_STATE_DIR=/x jitctx statusline", True),
        ("echo jitctx statusline", False),
        ("jitctx log", False),
        ("~/.claude/statusline.sh", False),
        ('input=$(cat); echo "$(echo $input | jitctx statusline) | x"', False),  # the user's own script
        ("jitctx statusline && ccusage statusline", False),  # theirs, which calls jitctx's
        ("jitctx statusline | sed s/jitctx/ctx/", False),
        ("jitctx statusline; date", False),
    ],
)
def test_whose_status_line_it_is(command: str, ours: bool) -> None:
    from jitctx.clients.kit.status_line import is_jitctx_status_line

    assert is_jitctx_status_line({"type": "command", "command": command}) is ours
    assert not is_jitctx_status_line({"type": "text", "command": command})


def test_doctor_checks_its_program(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "claude-code"
    }
    assert checks["status line (local)"]["status"] == "ok"
    document = settings(local)
    document["statusLine"]["command"] = "/gone/jitctx statusline"
    local.write_text(json.dumps(document))
    main(["doctor", "--json"])
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "claude-code"
    }
    assert checks["status line (local)"]["status"] == "problem"
    assert "--statusline" in checks["status line (local)"]["fix"]


def test_doctor_checks_every_agents_status_line(
    committed_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not Claude Code's alone: Qwen Code's `ui.statusLine`, set by install, is checked too."""
    run(capsys, "install", "qwen-code", "--statusline")
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = {
        c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["client"] == "qwen-code"
    }
    assert checks["status line (project)"]["status"] == "ok"


def test_qwen_code_gets_its_ui_status_line_and_keeps_the_users(
    committed_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Qwen Code 0.24.4 runs `ui.statusLine`'s command with the session's id on stdin, as Claude Code
    does: the same command, in its settings' `ui` table, beside the user's other `ui` keys."""
    path = committed_project / ".qwen" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"ui": {"theme": "dark"}}))
    code, document, _ = run(capsys, "install", "qwen-code", "--statusline")
    assert code == 0 and document["status_line"]["action"] == "added"
    ui = settings(path)["ui"]
    assert ui["theme"] == "dark"
    assert ui["statusLine"]["type"] == "command" and ui["statusLine"]["command"].endswith("jitctx statusline")
    code, document, _ = run(capsys, "uninstall", "qwen-code")
    assert code == 0 and settings(path)["ui"] == {"theme": "dark"}


def test_uninstall_leaves_no_empty_table_the_status_line_needed(
    committed_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Qwen Code's status line sits in `ui`: a file install created for it is deleted whole again, not
    left as `{"ui": {}}`, and a `ui` the user keeps other keys in stays."""
    path = committed_project / ".qwen" / "settings.json"
    code, _, _ = run(capsys, "install", "qwen-code", "--statusline")
    assert code == 0 and "statusLine" in settings(path)["ui"]
    code, _, _ = run(capsys, "uninstall", "qwen-code")
    assert code == 0 and not path.exists()


def test_a_line_of_the_users_that_calls_jitctx_stays_through_install_and_uninstall(
    committed_project: Path, local: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = {"type": "command", "command": "jitctx statusline && ccusage statusline"}
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text(json.dumps({"statusLine": theirs}))
    code, document, _ = run(capsys, "install", "claude-code", "--scope", "local", "--statusline")
    assert code == 0 and settings(local)["statusLine"] == theirs
    assert document["status_line"]["action"] != "updated"
    code, _, _ = run(capsys, "uninstall", "claude-code", "--scope", "local")
    assert code == 0 and settings(local)["statusLine"] == theirs
