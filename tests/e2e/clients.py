"""The real clients (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, OpenCode): installed from
npm into `.cache/e2e-npm/`, run with a hard timeout.

`install_clients()` runs `npm install` at most once per machine and session: a lock file serialises
parallel pytest workers, and an installation whose binaries answer `--version` is reused. It returns
the clients, or the one-line reason why they cannot be had (then the tests skip, saying so).

The runners give each client an environment of its own: HOME (and CODEX_HOME) in the test's temp dir,
no credentials or settings inherited from the caller, no telemetry or update checks, the venv's `bin`
first on PATH (so the hook command `jitctx hook ...` that `jitctx install` writes is this checkout's),
and the fake model's address (Gemini CLI's proxy too, so nothing it sends leaves the machine). A client
that runs past its timeout is killed with its whole process group.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO

NPM_DIR = REPO / ".cache" / "e2e-npm"
PACKAGES = (
    "@anthropic-ai/claude-code",
    "@openai/codex",
    "@google/gemini-cli",
    "@github/copilot",
    "@qwen-code/qwen-code",
    "opencode-ai",
)
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 60
VENV_BIN = Path(sys.executable).parent

# Variables of the caller that would leak its own agent setup, credentials or proxies into a client.
_DROPPED_PREFIXES = (
    "ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "JITCTX_", "XDG_", "NODE_OPTIONS",
    "COPILOT_", "GITHUB_", "GH_", "QWEN_", "DASHSCOPE_", "OPENCODE", "FACTORY_",
)  # fmt: skip
_DROPPED = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}


@dataclass(frozen=True)
class Clients:
    claude: Path
    codex: Path
    claude_version: str
    codex_version: str
    gemini: Path
    gemini_version: str
    copilot: Path
    copilot_version: str
    qwen: Path
    qwen_version: str
    opencode: Path
    opencode_version: str


def _version(binary: Path) -> str | None:
    if not binary.exists():
        return None
    try:
        done = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = (done.stdout.strip().splitlines() or [""])[0].strip()  # Copilot CLI adds an update hint
    return first if done.returncode == 0 and first else None


# Another npm prefix to take Claude Code from (CI runs the Claude Code tests once more on the oldest
# release jitctx supports, installed there).
CLAUDE_PREFIX_VARIABLE = "JITCTX_E2E_CLAUDE_PREFIX"


def _claude_binary() -> tuple[Path, str] | None:
    """`.bin/claude` (the native binary its postinstall puts there), else the platform package's binary
    (when npm did not run the postinstall script)."""
    prefix = Path(os.environ.get(CLAUDE_PREFIX_VARIABLE) or NPM_DIR).absolute()
    candidates = [prefix / "node_modules" / ".bin" / "claude"]
    candidates += sorted((prefix / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude"))
    for candidate in candidates:
        version = _version(candidate)
        if version:
            return candidate, version
    return None


def _npm_binary(name: str) -> tuple[Path, str] | None:
    binary = NPM_DIR / "node_modules" / ".bin" / name
    version = _version(binary)
    return (binary, version) if version else None


def _found() -> Clients | None:
    claude = _claude_binary()
    found = [_npm_binary(name) for name in ("codex", "gemini", "copilot", "qwen", "opencode")]
    if claude is None or None in found:
        return None
    (codex, gemini, copilot, qwen, opencode) = (pair for pair in found if pair is not None)
    return Clients(
        claude[0], codex[0], claude[1], codex[1], gemini[0], gemini[1],
        copilot[0], copilot[1], qwen[0], qwen[1], opencode[0], opencode[1],
    )  # fmt: skip


def install_clients() -> Clients | str:
    """The installed clients, installing them first if needed; a str says why they are not available."""
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    with open(NPM_DIR.parent / "e2e-npm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel workers wait here; the first one installs
        found = _found()
        if found is not None:
            return found
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            return f"node/npm not found on PATH; they install {', '.join(PACKAGES)}"
        command = [npm, "install", "--prefix", str(NPM_DIR), "--no-audit", "--no-fund"]
        command += ["--fetch-timeout=60000", "--fetch-retries=1"]  # fail, not hang, when offline
        command += [f"{name}@latest" for name in PACKAGES]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            return f"`npm install {' '.join(PACKAGES)}` took over {INSTALL_TIMEOUT_S} s"
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return f"`npm install {' '.join(PACKAGES)}` failed (exit {done.returncode}): {last}"
        found = _found()
        if found is None:
            return f"npm installed {', '.join(PACKAGES)} into {NPM_DIR}, but a binary does not run"
        return found


def base_env(home: Path, state_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(_DROPPED_PREFIXES) and key not in _DROPPED
    }
    env.update(
        HOME=str(home),
        PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
        JITCTX_STATE_DIR=str(state_dir),
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    return env


def claude_env(home: Path, state_dir: Path, base_url: str) -> dict[str, str]:
    env = base_env(home, state_dir)
    env.update(
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="sk-ant-e2e-fake",
        IS_SANDBOX="1",  # lets --dangerously-skip-permissions run as root (CI containers)
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY="1",
    )
    return env


def codex_env(home: Path, state_dir: Path) -> dict[str, str]:
    env = base_env(home, state_dir)
    env.update(CODEX_HOME=str(home / ".codex"), E2E_FAKE_KEY="sk-e2e-fake")
    return env


CODEX_MODEL = "gpt-5.5"  # in Codex's bundled model list, so it offers apply_patch and exec_command


def write_codex_config(home: Path, base_url: str, trusted: Path, extra: str = "") -> Path:
    """A config.toml that points Codex at the fake model and trusts the project (so its hooks load);
    `extra` goes at its top (top-level keys such as `project_doc_max_bytes`)."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    config = f"""\
{extra}
model = "{CODEX_MODEL}"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.e2e]
name = "e2e"
base_url = "{base_url}/v1"
wire_api = "responses"
env_key = "E2E_FAKE_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 30000

[analytics]
enabled = false

[feedback]
enabled = false

[projects.{json.dumps(str(trusted))}]
trust_level = "trusted"
"""
    path = codex_home / "config.toml"
    path.write_text(config, encoding="utf-8")
    return path


GEMINI_MODEL = "gemini-2.5-flash"  # named with -m, so the client asks no router which model to use
# Gemini CLI's user settings: no usage statistics, telemetry or update checks, and the API-key sign-in
# chosen (without it a headless run exits 41 before it asks the model anything).
GEMINI_USER_SETTINGS = {
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "security": {"auth": {"selectedType": "gemini-api-key"}},
}


def gemini_env(home: Path, state_dir: Path, base_url: str) -> dict[str, str]:
    """The fake model as the Gemini API, and as the proxy of everything else the client might fetch.
    The workspace is trusted by GEMINI_CLI_TRUST_WORKSPACE, not by --skip-trust: that flag also makes the
    client ignore the project's .gemini/settings.json, and with it the hooks jitctx installed there."""
    env = base_env(home, state_dir)
    env.update(
        GEMINI_API_KEY="gemini-e2e-fake",
        GOOGLE_GEMINI_BASE_URL=base_url,
        GEMINI_CLI_TRUST_WORKSPACE="true",
        HTTPS_PROXY=base_url,
        HTTP_PROXY=base_url,
        https_proxy=base_url,
        http_proxy=base_url,
        TERM="dumb",
    )
    return env


def write_gemini_settings(home: Path) -> Path:
    """~/.gemini/settings.json with GEMINI_USER_SETTINGS (over what it held: a user-scope install's hooks)."""
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    held = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(json.dumps({**held, **GEMINI_USER_SETTINGS}, indent=2), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Run:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        shown = f"$ {' '.join(self.args)}\nexit {self.returncode}"
        if self.returncode == 0:
            return shown
        return f"{shown}\nstdout (tail):\n{self.stdout[-1500:]}\nstderr (tail):\n{self.stderr[-1500:]}"


class ClientTimeout(AssertionError):
    pass


def run_client(args: list[str], cwd: Path, env: dict[str, str], timeout: float = RUN_TIMEOUT_S) -> Run:
    """Run a client to completion, killing its whole process group after `timeout` seconds."""
    process = subprocess.Popen(
        args,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        raise ClientTimeout(
            f"{Path(args[0]).name} ran past its {timeout:.0f} s timeout and was killed\n"
            + Run(args, -9, stdout, stderr).describe()
        ) from None
    return Run(args, process.returncode, stdout, stderr)
