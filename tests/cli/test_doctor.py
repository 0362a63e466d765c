"""`jitctx doctor`: hooks where each client reads them, a command that resolves, Codex's trust, client
versions, a private state dir and recent hook errors; exit 1 on a problem, 0 otherwise, 2 on bad usage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.codex.trust import codex_hash, codex_trust
from jitctx.clients.kit import doctor_kit
from jitctx.clients.kit.checks import Handler, hook_log_check


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project, a home, a private state dir, a PATH with only a fake `jitctx` (no clients)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program(bin_dir / "jitctx", f'exec {sys.executable} -m jitctx "$@"')
    monkeypatch.setenv("PATH", str(bin_dir))
    (tmp_path / "state").mkdir(mode=0o700)
    return root


def program(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["doctor", *args, "--json"])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert doc["ok"] is (code == 0)
    return code, doc


def status(doc: dict[str, Any], client: str, check: str) -> str:
    found = [c for c in doc["checks"] if c["client"] == client and c["check"] == check]
    assert len(found) == 1, (client, check, doc["checks"])
    return str(found[0]["status"])


def test_a_clean_install_is_healthy(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program(tmp_path / "bin" / "claude", 'echo "2.1.332 (Claude Code)"')
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    code, doc = doctor(capsys)
    assert code == 0
    assert status(doc, "claude-code", "hooks (project)") == "ok"
    assert status(doc, "claude-code", "command (project)") == "ok"
    version = next(c for c in doc["checks"] if c["check"] == "version" and c["client"] == "claude-code")
    assert version["status"] == "ok" and version["detail"].startswith("2.1.332 (Claude Code)")
    assert status(doc, "codex", "version") == "skip"  # not on PATH: skipped, not a problem
    assert status(doc, "jitctx", "state dir") == "ok"
    assert status(doc, "jitctx", "hook errors") == "ok"
    # the human form: a table, no JSON, the verdict on stderr
    assert main(["doctor"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split() == ["client", "check", "status", "detail"]
    assert "no problems" in err


def test_no_hooks_anywhere_is_a_problem(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "jitctx", "hooks") == "problem"
    assert status(doc, "claude-code", "hooks") == "skip"


def test_an_outdated_install_misses_events(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = env / ".claude" / "settings.json"
    settings.parent.mkdir()
    handler = {"type": "command", "command": "jitctx hook claude-code", "timeout": 10}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [handler]}]}}))
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "claude-code", "hooks (project)") == "problem"
    [check] = [c for c in doc["checks"] if c["check"] == "hooks (project)"]
    assert "SessionStart" in check["detail"] and check["fix"] == "jitctx install claude-code --scope project"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("/nowhere/bin/jitctx hook claude-code", "problem"),
        ("jitctx-not-here hook claude-code", None),  # not a jitctx command: not ours, not looked at
        ("env JITCTX_X=1 /nowhere/jitctx hook claude-code", "problem"),
        (f"{sys.executable} -m jitctx hook claude-code", "ok"),
    ],
)
def test_the_hook_command_must_resolve(
    env: Path, capsys: pytest.CaptureFixture[str], command: str, expected: str | None
) -> None:
    settings = env / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    assert main(["install", "claude-code", "--scope", "local", "--command", "jitctx hook claude-code"]) == 0
    text = settings.read_text().replace("jitctx hook claude-code", command)
    settings.write_text(text)
    capsys.readouterr()
    code, doc = doctor(capsys)
    checks = [c for c in doc["checks"] if c["check"] == "command (local)"]
    if expected is None:
        assert checks == []
        return
    assert [c["status"] for c in checks] == [expected]
    assert code == (1 if expected == "problem" else 0)


def test_a_command_found_only_through_the_virtualenv_is_a_warning(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code", "--command", "jitctx hook claude-code"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path))  # the fake jitctx in tmp_path/bin is "in the venv"
    code, doc = doctor(capsys)
    assert code == 0 and status(doc, "claude-code", "command (project)") == "warn"


@pytest.mark.parametrize(("mode", "ok"), [(0o700, True), (0o755, False), (0o770, False)])
def test_the_state_dir_must_be_private(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: int, ok: bool
) -> None:
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    (tmp_path / "state").chmod(mode)
    code, doc = doctor(capsys)
    assert status(doc, "jitctx", "state dir") == ("ok" if ok else "problem")
    assert code == (0 if ok else 1)


def test_a_state_dir_that_is_a_file_or_missing(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "not-yet"))
    assert doctor(capsys)[0] == 0  # created by the first hook
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "a-file"))
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "jitctx", "state dir") == "problem"


def test_recent_hook_errors_are_a_problem_old_ones_are_not(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    log = tmp_path / "state" / "hook.log"
    log.write_text("2020-01-01T00:00:00Z claude-code: HookError: old trouble\n")
    code, doc = doctor(capsys)
    assert code == 0 and "2020-01-01T00:00:00Z" in doc["checks"][-1]["detail"]
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    with log.open("a") as out:
        out.write(f"{stamp}Z codex: OSError: disk full\n")
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "jitctx", "hook errors") == "problem"
    assert "disk full" in doc["checks"][-1]["detail"] and "old trouble" not in doc["checks"][-1]["detail"]


def test_a_hook_log_that_is_a_link_is_not_read(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    secret = tmp_path / "secret"
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    secret.write_text(f"{stamp}Z x: the secret\n")
    (tmp_path / "state" / "hook.log").symlink_to(secret)
    _code, doc = doctor(capsys)
    assert "the secret" not in json.dumps(doc)


def test_a_slow_client_is_cut_short(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    program(tmp_path / "bin" / "codex", "exec sleep 30")
    monkeypatch.setattr(doctor_kit, "VERSION_TIMEOUT_S", 0.3)
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    started = time.monotonic()
    code, doc = doctor(capsys)
    assert time.monotonic() - started < 10
    assert status(doc, "codex", "version") == "warn" and code == 0


# -- Codex trust ---------------------------------------------------------------------------------------

# The hashes the real Codex 0.171.0 reported (`hooks/list`, currentHash) for these two handlers.
REAL_CODEX_HASHES = [
    (
        Handler(
            "PostToolUse",
            0,
            0,
            "Bash|apply_patch",
            "jitctx hook codex",
            {"type": "command", "command": "jitctx hook codex", "timeout": 10},
        ),
        "sha256:36f027942f01817b6dc71d1d6e54f50ff276dbcbfd70923782efdc149786b84a",
    ),
    (
        Handler(
            "UserPromptSubmit",
            0,
            0,
            None,
            "jitctx hook codex",
            {"type": "command", "command": "jitctx hook codex", "timeout": 10},
        ),
        "sha256:70b7f7d779a84b7298a82e2258445272528bbed78f38356471807549db9f6670",
    ),
]


@pytest.mark.parametrize(("handler", "expected"), REAL_CODEX_HASHES)
def test_the_trust_hash_is_the_one_codex_records(handler: Handler, expected: str) -> None:
    assert codex_hash(handler) == expected


def test_trust_states() -> None:
    handler, good = REAL_CODEX_HASHES[0]
    path = Path("/h/hooks.json")
    key = "/h/hooks.json:post_tool_use:0:0"
    assert codex_trust({}, path, handler) == "untrusted"
    assert codex_trust({"hooks": {"state": {key: {"trusted_hash": good}}}}, path, handler) == "trusted"
    assert (
        codex_trust({"hooks": {"state": {key: {"trusted_hash": "sha256:00"}}}}, path, handler) == "modified"
    )
    disabled = {"hooks": {"state": {key: {"trusted_hash": good, "enabled": False}}}}
    assert codex_trust(disabled, path, handler) == "disabled"
    other = {"hooks": {"state": {"/h/hooks.json:post_tool_use:1:0": {"trusted_hash": good}}}}
    assert codex_trust(other, path, handler) == "untrusted"  # another group's record


def codex_setup(env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    return codex_home


def test_codex_hooks_run_only_once_trusted(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codex_home = codex_setup(env, tmp_path, monkeypatch)
    assert main(["install", "codex", "--scope", "user", "--command", "jitctx hook codex"]) == 0
    capsys.readouterr()
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "codex", "trust (user)") == "problem"
    [trust] = [c for c in doc["checks"] if c["check"] == "trust (user)"]
    assert "/hooks" in trust["fix"] and "SessionStart untrusted" in trust["detail"]

    # What Codex writes when the user trusts the hooks in /hooks
    from jitctx.clients.codex.trust import codex_key
    from jitctx.clients.kit.checks import our_handlers

    hooks_json = codex_home / "hooks.json"
    lines = []
    for handler in our_handlers(json.loads(hooks_json.read_text()), "codex"):
        lines.append(f'[hooks.state."{codex_key(str(hooks_json), handler)}"]')
        lines.append(f'trusted_hash = "{codex_hash(handler)}"\n')
    (codex_home / "config.toml").write_text("\n".join(lines))
    code, doc = doctor(capsys)
    assert code == 0 and status(doc, "codex", "trust (user)") == "ok"

    (codex_home / "config.toml").write_text("[features]\nhooks = false\n")
    code, doc = doctor(capsys)
    assert code == 1 and any("features.hooks = false" in c["detail"] for c in doc["checks"])


def test_codex_project_hooks_need_a_trusted_folder(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codex_home = codex_setup(env, tmp_path, monkeypatch)
    assert main(["install", "codex", "--command", "jitctx hook codex"]) == 0
    capsys.readouterr()
    _, doc = doctor(capsys)
    assert status(doc, "codex", "trust (folder)") == "warn"  # never asked
    (codex_home / "config.toml").write_text(f'[projects."{env}"]\ntrust_level = "untrusted"\n')
    _, doc = doctor(capsys)
    assert status(doc, "codex", "trust (folder)") == "problem"
    (codex_home / "config.toml").write_text(f'[projects."{env}"]\ntrust_level = "trusted"\n')
    _, doc = doctor(capsys)
    assert not [c for c in doc["checks"] if c["check"] == "trust (folder)"]


def test_a_broken_codex_config_or_settings_file_is_reported_not_raised(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codex_home = codex_setup(env, tmp_path, monkeypatch)
    (codex_home / "config.toml").write_text("[hooks\n")
    (env / ".claude").mkdir()
    (env / ".claude" / "settings.json").write_text('{"hooks": [')
    code, doc = doctor(capsys)
    assert code == 1
    assert status(doc, "codex", "config") == "problem"
    assert status(doc, "claude-code", "hooks (project)") == "problem"


def test_usage_errors_exit_2(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--root", "/no/such/dir"]) == 2
    assert "not an existing directory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["doctor", "--bogus"])
    assert exc.value.code == 2


def test_hook_log_lines_without_a_time_are_not_errors() -> None:
    check = hook_log_check("garbage\n\n", Path("/s/hook.log"), time.time())
    assert check.status == "ok"


def test_doctor_as_a_real_process(env: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "doctor", "--json"],
        capture_output=True,
        cwd=env,
        env={**os.environ},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # nothing installed
    assert json.loads(done.stdout)["ok"] is False and b"Traceback" not in done.stderr


def test_hooks_switched_off_in_any_claude_settings_file_are_a_problem(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-code"]) == 0
    user = tmp_path / "home" / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text('{"disableAllHooks": true}\n')
    capsys.readouterr()
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "claude-code", "hooks (user)") == "problem"
    user.write_text('{"disableAllHooks": false}\n')
    assert doctor(capsys)[0] == 0


def claude_plugin(home: Path, enabled: bool, data_files: tuple[str, ...] = ()) -> Path:
    """What `claude plugin install jitctx@jitctx` leaves in a home, and the plugin's data folder."""
    plugins = home / ".claude" / "plugins"
    plugins.mkdir(parents=True)
    listing = {"version": 2, "plugins": {"jitctx@jitctx": [{"scope": "user", "installPath": "/x"}]}}
    (plugins / "installed_plugins.json").write_text(json.dumps(listing))
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"jitctx@jitctx": enabled}})
    )
    data = plugins / "data" / "jitctx-jitctx"
    data.mkdir(parents=True)
    for name in data_files:
        (data / name).mkdir() if name.endswith("/") else (data / name).write_text("")
    return data


@pytest.mark.parametrize(
    ("files", "plugin_status", "code"),
    [
        (("installed-0.1.0",), "ok", 0),
        (("installing/",), "warn", 0),
        ((), "warn", 0),
        (("install-failed",), "problem", 1),
    ],
)
def test_the_plugin_counts_as_installed_and_its_first_use_install_is_checked(
    env: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    files: tuple[str, ...],
    plugin_status: str,
    code: int,
) -> None:
    claude_plugin(tmp_path / "home", True, files)
    found, doc = doctor(capsys)
    assert status(doc, "claude-code", "plugin jitctx@jitctx") == plugin_status
    assert found == code  # no "no hooks anywhere" problem: the plugin's hooks run
    assert not [c for c in doc["checks"] if c["client"] == "jitctx" and c["check"] == "hooks"]


def test_a_disabled_plugin_does_not_count_and_plugin_plus_settings_hooks_warn(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude_plugin(tmp_path / "home", False, ("installed-0.1.0",))
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "claude-code", "plugin jitctx@jitctx") == "warn"
    assert status(doc, "jitctx", "hooks") == "problem"
    settings = tmp_path / "home" / ".claude" / "settings.json"
    settings.write_text(json.dumps({"enabledPlugins": {"jitctx@jitctx": True}}))
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    code, doc = doctor(capsys)
    assert code == 0
    [both] = [c for c in doc["checks"] if c["check"] == "hooks" and c["client"] == "claude-code"]
    assert both["status"] == "warn" and "both run" in both["detail"]


def test_the_codex_plugin_counts_once_enabled_and_its_hooks_need_trust(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codex_home = codex_setup(env, tmp_path, monkeypatch)
    config = '[plugins."jitctx@jitctx"]\nenabled = true\n'
    (codex_home / "config.toml").write_text(config)
    data = codex_home / "plugins" / "data" / "jitctx-jitctx"
    data.mkdir(parents=True)
    (data / "installed-0.1.0").write_text("")
    code, doc = doctor(capsys)
    assert status(doc, "codex", "plugin jitctx@jitctx") == "ok"
    assert code == 1 and status(doc, "codex", "trust (jitctx@jitctx)") == "problem"
    assert not [c for c in doc["checks"] if c["client"] == "jitctx" and c["check"] == "hooks"]
    events = ("session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "subagent_start")
    trusted = "".join(
        f'[hooks.state."jitctx@jitctx:hooks/codex-hooks.json:{event}:0:0"]\ntrusted_hash = "sha256:x"\n'
        for event in events
    )
    (codex_home / "config.toml").write_text(config + trusted)
    code, doc = doctor(capsys)
    assert code == 0 and status(doc, "codex", "trust (jitctx@jitctx)") == "ok"
    (codex_home / "config.toml").write_text('[plugins."jitctx@jitctx"]\nenabled = false\n' + trusted)
    code, doc = doctor(capsys)
    assert code == 1 and status(doc, "codex", "plugin jitctx@jitctx") == "warn"  # disabled: no hooks run


def test_help_says_what_each_agent_adds(capsys: pytest.CaptureFixture[str]) -> None:
    """`doctor --help` is built from the registry: every agent's own checks, no list of names to forget."""
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for setup in all_clients.every_setup():
        assert setup.doctor_note, setup.name
        assert f"{setup.name} {' '.join(setup.doctor_note.split())}" in text


def test_a_settings_file_with_comments_is_read_as_its_client_reads_it(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gemini CLI reads comments in its settings: doctor sees jitctx's hooks there (and says install
    would not rewrite the file); Claude Code does not, and its file stays a problem to fix."""
    assert main(["install", "gemini-cli"]) == 0 and main(["install", "claude-code"]) == 0
    for path in (env / ".gemini/settings.json", env / ".claude/settings.json"):
        path.write_text("// kept by hand\n" + path.read_text())
    capsys.readouterr()
    _, document = doctor(capsys)
    checks = {(c["client"], c["check"]): c for c in document["checks"]}
    assert checks["gemini-cli", "hooks (project)"]["status"] == "ok"
    assert checks["gemini-cli", "hooks (project) file"]["status"] == "warn"
    assert checks["claude-code", "hooks (project)"]["status"] == "problem"
    assert ("claude-code", "hooks (project) file") not in checks
