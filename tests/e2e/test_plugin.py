"""The Claude Code plugin in plugin/, checked by the real `claude plugin validate --strict`: the manifest,
hooks/hooks.json and .mcp.json are valid, and the hooks it provides are the events `jitctx install
claude-code` writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx import __version__
from jitctx.adapters import claude_code
from tests.conftest import REPO, git
from tests.e2e import clients as cl
from tests.e2e.fake_api import Script
from tests.e2e.harness import ClaudeHarness, jitctx

pytestmark = pytest.mark.e2e

PLUGIN = REPO / "plugin"


def test_claude_plugin_validate_accepts_the_plugin(clients: cl.Clients, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(
        [str(clients.claude), "plugin", "validate", "--strict", "--json", str(PLUGIN)],
        env=cl.base_env(home, tmp_path / "state"),
        capture_output=True,
        text=True,
        timeout=cl.RUN_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, f"claude {clients.claude_version}:\n{done.stdout}\n{done.stderr}"
    report = json.loads(done.stdout)
    assert report["success"] is True and report["manifest"]["errors"] == []
    provided = report["provides"]
    assert [(h["event"], h.get("matcher")) for h in provided["hooks"]] == [
        (entry.event, entry.matcher) for entry in claude_code.ENTRIES
    ]
    assert [server["name"] for server in provided["mcpServers"]] == ["jitctx"]


def plugin_data(home: Path) -> Path:
    """Where Claude Code keeps the data of jitctx@jitctx: plugins/data/<id with [^A-Za-z0-9_-] as ->."""
    return home / ".claude" / "plugins" / "data" / "jitctx-jitctx"


def test_the_installed_plugin_delivers_agents_md(claude: ClaudeHarness) -> None:
    """The plugin installed from this repository's marketplace answers Claude Code's hooks: AGENTS.md (which
    Claude Code does not read) reaches the model through the plugin's hook, with no hooks in settings."""
    env = cl.base_env(claude.home, claude.state_dir)
    removed = jitctx(env, "uninstall", "claude-code", "--root", str(claude.root))
    assert removed.returncode == 0, removed.stderr
    assert not (claude.root / ".claude" / "settings.json").exists()  # only the plugin's hooks are left
    git(claude.root, "add", "-A")
    git(claude.root, "commit", "-q", "-m", "no hooks in settings")
    for command in (["marketplace", "add", str(REPO)], ["install", "jitctx@jitctx"]):
        done = subprocess.run(
            [str(claude.clients.claude), "plugin", *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=cl.RUN_TIMEOUT_S,
            check=False,
        )
        assert done.returncode == 0, f"claude plugin {' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    # What the first-use install leaves (pip from PyPI is not for a test): this checkout's jitctx.
    data = plugin_data(claude.home)
    (data / "venv" / "bin").mkdir(parents=True)
    program = data / "venv" / "bin" / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    (data / f"installed-{__version__}").write_text("")

    outcome = claude.run("Say hello.", [Script([])])
    tried = sorted(str(log) for log in data.parent.glob("*/install.log"))
    assert not tried, f"the plugin did not find the seeded {data} and started an install: {tried}"
    outcome.expect("JX-ROOT-CLAUDE", "client")
    outcome.expect("JX-ROOT-AGENTS", "hook")
