"""The Claude Code plugin in plugin/, checked by the real `claude plugin validate --strict`: the manifest,
hooks/hooks.json and .mcp.json are valid, and the hooks it provides are the events `jitctx install
claude-code` writes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jitctx import __version__
from jitctx.clients.claude_code import hooks as claude_code
from tests.conftest import REPO, git
from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, FakeModel, Script
from tests.e2e.harness import ClaudeHarness, CodexHarness, Outcome, jitctx

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


def seed_installed(data: Path) -> None:
    """What the plugin's first-use install leaves (no pip from PyPI in a test): this checkout's jitctx."""
    (data / "venv" / "bin").mkdir(parents=True, exist_ok=True)
    program = data / "venv" / "bin" / "jitctx"
    program.write_text(f'#!/bin/sh\nexec {sys.executable} -m jitctx "$@"\n')
    program.chmod(0o755)
    (data / f"installed-{__version__}").write_text("")


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
    install_plugin(claude.clients.claude, env, ["install", "jitctx@jitctx"])
    data = plugin_data(claude.home)
    seed_installed(data)

    outcome = claude.run("Say hello.", [Script([])])
    tried = sorted(str(log) for log in data.parent.glob("*/install.log"))
    assert not tried, f"the plugin did not find the seeded {data} and started an install: {tried}"
    outcome.expect("JX-ROOT-CLAUDE", "client")
    outcome.expect("JX-ROOT-AGENTS", "hook")


def install_plugin(client: Path, env: dict[str, str], install: list[str]) -> None:
    """`CLIENT plugin marketplace add REPO`, then `CLIENT plugin INSTALL...` (each client's own verb)."""
    for command in (["marketplace", "add", str(REPO)], install):
        done = subprocess.run(
            [str(client), "plugin", *command], env=env, capture_output=True, text=True,
            timeout=cl.RUN_TIMEOUT_S, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (
            f"{client.name} plugin {' '.join(command)}:\n{done.stdout}\n{done.stderr}"
        )


def codex_run(codex: CodexHarness, env: dict[str, str], plugin_config: str, scripts: list[Script]) -> Outcome:
    """CodexHarness.run, with the plugin's lines kept in the config.toml the harness writes."""
    with FakeModel(scripts) as model:
        config = cl.write_codex_config(codex.home, model.base_url, codex.root)
        config.write_text(config.read_text() + plugin_config)
        command = [str(codex.clients.codex), "exec", "--json", "--dangerously-bypass-hook-trust", "Go."]
        run = cl.run_client(command, codex.root, env)
    return codex._finish(run, model)


def test_codex_runs_the_plugin_hooks_in_its_own_dialect(codex: CodexHarness) -> None:
    """Codex installs the plugin from the same marketplace, reads .codex-plugin/plugin.json (hooks that run
    `jitctx hook codex`), and the plugin's PostToolUse hook brings src/api/AGENTS.md after a `cat`."""
    env = cl.codex_env(codex.home, codex.state_dir)
    removed = jitctx(env, "uninstall", "codex", "--root", str(codex.root))
    assert removed.returncode == 0, removed.stderr
    assert not (codex.root / ".codex").exists()  # only the plugin's hooks are left
    git(codex.root, "add", "-A")
    git(codex.root, "commit", "-q", "-m", "no hooks in .codex")
    codex_home = Path(env["CODEX_HOME"])
    codex_home.mkdir(parents=True, exist_ok=True)
    install_plugin(codex.clients.codex, env, ["add", "jitctx@jitctx"])
    plugin_config = "".join(
        line + "\n"
        for line in (codex_home / "config.toml").read_text().splitlines()
        if line.startswith(("[marketplaces", "[plugins", "source", "enabled"))
    )
    # A first session finds no jitctx in the plugin's data folder: the hooks answer {} and the install
    # (here from a source that does not exist) fails in the background. That shows where the folder is.
    env_failing = {**env, "JITCTX_PLUGIN_SOURCE": str(codex.root / "no-such-source")}
    codex_run(codex, env_failing, plugin_config, [Script([])])
    logs: list[Path] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = codex_home.glob("plugins/data/*/install.log")
        logs = [log for log in found if log.with_name("install-failed").exists()]
        if logs:
            break
        time.sleep(0.2)
    assert logs, f"no plugin data folder with a failed install under {codex_home / 'plugins'}"
    data = logs[0].parent
    (data / "install-failed").unlink()
    seed_installed(data)

    cat = Script([[Call("shell", {"command": "cat src/api/users.ts"})]])
    outcome = codex_run(codex, env, plugin_config, [cat])
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-ROOT-CLAUDE", "hook")
    outcome.expect("JX-API-AGENTS", "hook")
