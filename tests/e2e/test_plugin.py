"""The Claude Code plugin in plugin/, checked by the real `claude plugin validate --strict`: the manifest,
hooks/hooks.json and .mcp.json are valid, and the hooks it provides are the events `jitctx install
claude-code` writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from jitctx.adapters import claude_code
from tests.conftest import REPO
from tests.e2e import clients as cl

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
