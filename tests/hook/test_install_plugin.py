"""The Claude Code plugin in plugin/: the same hooks as `jitctx install claude-code`, and a bootstrap script
that installs jitctx into ${CLAUDE_PLUGIN_DATA} on first use and never breaks the agent."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from jitctx import __version__
from jitctx.clients.claude_code import hooks as claude_code
from jitctx.clients.codex import hooks as codex
from tests.conftest import REPO

PLUGIN = REPO / "plugin"
SCRIPT = PLUGIN / "scripts" / "jitctx-plugin"
HOOK = 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/jitctx-plugin" hook claude-code'


def expected_hooks() -> dict[str, list[dict[str, object]]]:
    hooks: dict[str, list[dict[str, object]]] = {}
    for entry in claude_code.ENTRIES:
        group: dict[str, object] = {} if entry.matcher is None else {"matcher": entry.matcher}
        group["hooks"] = [{"type": "command", "command": HOOK, "timeout": entry.timeout}]
        hooks[entry.event] = [group]
    return hooks


def test_the_plugin_hooks_are_the_ones_install_writes() -> None:
    """Same events, matchers and timeouts as `jitctx install claude-code`; when ENTRIES change, put the
    JSON this test prints into plugin/hooks/hooks.json."""
    hooks = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())["hooks"]
    assert [(e, [g.get("matcher") for g in groups]) for e, groups in hooks.items()] == [
        (entry.event, [entry.matcher]) for entry in claude_code.ENTRIES
    ], json.dumps(expected_hooks(), indent=2)
    assert hooks == expected_hooks(), json.dumps(expected_hooks(), indent=2)


def test_codex_gets_its_own_manifest_and_the_hooks_install_codex_writes() -> None:
    """Codex reads .codex-plugin/plugin.json before .claude-plugin/plugin.json; its `hooks` names the file
    with `jitctx hook codex` for the events of `jitctx install codex`."""
    manifest = json.loads((PLUGIN / ".codex-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "jitctx" and manifest["version"] == __version__
    hooks = json.loads((PLUGIN / manifest["hooks"]).read_text())["hooks"]
    command = 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/jitctx-plugin" hook codex'
    expected: dict[str, list[dict[str, object]]] = {}
    for entry in codex.ENTRIES:
        group: dict[str, object] = {} if entry.matcher is None else {"matcher": entry.matcher}
        group["hooks"] = [{"type": "command", "command": command, "timeout": entry.timeout}]
        expected[entry.event] = [group]
    assert hooks == expected, json.dumps(expected, indent=2)


def test_the_manifest_and_mcp_config() -> None:
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "jitctx" and manifest["version"] == __version__
    [version] = re.findall(r"^VERSION=(\S+)$", SCRIPT.read_text(), re.M)
    assert version == __version__  # the script installs the release the plugin belongs to
    mcp = json.loads((PLUGIN / ".mcp.json").read_text())
    assert mcp["mcpServers"]["jitctx"] == {
        "command": "sh",
        "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/jitctx-plugin", "mcp"],
    }


def run_script(
    data: Path | None, *args: str, stdin: str = "{}", path: str | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    env = {"PATH": path or os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(data or "/nonexistent")}
    env["CLAUDE_PLUGIN_ROOT"] = str(PLUGIN)
    if data is not None:
        env["CLAUDE_PLUGIN_DATA"] = str(data)
        env["JITCTX_STATE_DIR"] = str(data / "state")
    return subprocess.run(
        ["/bin/sh", str(SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_without_a_data_folder_the_hook_answers_nothing_and_succeeds() -> None:
    done = run_script(None, "hook", "claude-code")
    assert done.returncode == 0 and done.stdout == "{}\n"
    assert "CLAUDE_PLUGIN_DATA" in done.stderr


def test_an_unknown_mode_is_a_usage_error(tmp_path: Path) -> None:
    done = run_script(tmp_path, "serve")
    assert done.returncode == 1 and "usage" in done.stderr and done.stdout == ""


def installed(data: Path) -> None:
    """What a finished first-use install leaves: the venv's jitctx and the marker of this version."""
    (data / "venv" / "bin").mkdir(parents=True)
    program = data / "venv" / "bin" / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    (data / f"installed-{__version__}").write_text("")


def test_once_installed_the_hook_is_jitctxs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    installed(data)
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# claude\n")
    (root / "AGENTS.md").write_text("# agents guide\n")
    event = {"session_id": "p", "cwd": str(root), "hook_event_name": "SessionStart", "source": "startup"}
    done = run_script(data, "hook", "claude-code", stdin=json.dumps(event))
    assert done.returncode == 0, done.stderr
    assert "Contents of AGENTS.md" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def shell_tools(tmp_path: Path) -> Path:
    """A PATH folder with what the script uses from outside the shell, and no Python."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("sh", "cat", "mkdir", "find", "dirname", "rm", "rmdir", "grep", "sleep"):
        found = shutil.which(name)
        assert found is not None
        (tools / name).symlink_to(found)
    return tools


def test_an_install_that_cannot_work_answers_at_once_and_is_not_retried_every_call(tmp_path: Path) -> None:
    # A PATH with the shell's tools but no Python: the install fails, the hooks still answer {}.
    tools = shell_tools(tmp_path)
    data = tmp_path / "data"
    started = time.monotonic()
    first = run_script(data, "hook", "claude-code", path=str(tools))
    assert first.returncode == 0 and first.stdout == "{}\n"
    assert time.monotonic() - started < 5  # the install runs in the background
    deadline = time.monotonic() + 20
    while not (data / "install-failed").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (data / "install-failed").exists()
    assert "no Python 3.11" in (data / "install.log").read_text()
    again = run_script(data, "hook", "claude-code", path=str(tools))
    assert again.returncode == 0 and again.stdout == "{}\n" and "less than an hour ago" in again.stderr
    assert not (data / "installing").exists()


def test_a_venv_whose_python_went_away_is_installed_again_and_the_hook_still_answers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    installed(data)
    (data / "venv" / "bin" / "jitctx").write_text("#!/nonexistent/python3\n")
    done = run_script(data, "hook", "claude-code", path=str(shell_tools(tmp_path)))
    assert done.returncode == 0 and done.stdout == "{}\n"
    assert not (data / f"installed-{__version__}").exists()  # so the next call installs again
    deadline = time.monotonic() + 20
    while not (data / "install-failed").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "installing jitctx" in done.stderr and (data / "install-failed").exists()
