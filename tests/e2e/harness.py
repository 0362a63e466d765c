"""The fixture repository (one marker per instruction file) with jitctx's hooks installed by the real
`jitctx install`, and one harness per client that runs it against the scripted model and keeps what the
model received (`Outcome`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.kit.checks import command_program
from tests.conftest import git_init, write_tree
from tests.e2e import clients as cl
from tests.e2e.evidence import deliveries, summary
from tests.e2e.fake_api import FakeModel, Script

# Each instruction file carries one marker, so the tests can find its text in a request body.
FILES: dict[str, str] = {
    "CLAUDE.md": "# Project\n\nJX-ROOT-CLAUDE: keep the tests green.\n",
    "AGENTS.md": "# Agents\n\nJX-ROOT-AGENTS: run the linters before you finish.\n",
    "src/ui/CLAUDE.md": "# UI\n\nJX-UI-CLAUDE: components use the design tokens.\n",
    "src/ui/Footer.tsx": "export const Footer = () => null;\n",
    "src/api/AGENTS.md": "# API\n\nJX-API-AGENTS: handlers validate their input.\n",
    "src/api/users.ts": "export const users: string[] = [];\n",
    "tools/CLAUDE.md": "# Tools\n\nJX-TOOLS-CLAUDE: every tool has a main().\n",
    "tools/gen.py": "def main() -> None:\n    pass\n",
    ".claude/rules/components.md": (
        '---\npaths:\n  - "src/ui/**/*.tsx"\n---\n\nJX-RULE-COMPONENTS: function components only.\n'
    ),
    ".claude/rules/api.md": '---\npaths:\n  - "src/api/**"\n---\n\nJX-RULE-API: return typed errors.\n',
    ".claude/rules/python.md": '---\npaths:\n  - "**/*.py"\n---\n\nJX-RULE-PYTHON: type hints everywhere.\n',
}
MARKERS = (
    "JX-ROOT-CLAUDE",
    "JX-ROOT-AGENTS",
    "JX-UI-CLAUDE",
    "JX-API-AGENTS",
    "JX-TOOLS-CLAUDE",
    "JX-RULE-COMPONENTS",
    "JX-RULE-API",
    "JX-RULE-PYTHON",
)

# Gemini CLI's own context files on top (the Claude Code and Codex fixture has none: neither reads them).
GEMINI_FILES: dict[str, str] = {
    **FILES,
    "GEMINI.md": "# Gemini\n\nJX-ROOT-GEMINI: answer in British English.\n",
    "src/ui/GEMINI.md": "# UI for Gemini\n\nJX-UI-GEMINI: no inline styles.\n",
    "src/ui/AGENTS.md": "# UI agents\n\nJX-UI-AGENTS: every component has a story.\n",
    "src/api/GEMINI.md": "# API for Gemini\n\nJX-API-GEMINI: log every rejected request.\n",
    "tools/GEMINI.md": "# Tools for Gemini\n\nJX-TOOLS-GEMINI: tools print --help.\n",
    "src/ui/Header.tsx": "export const Header = () => null;\n",
    "README.md": "# The fixture\n",
}
GEMINI_MARKERS = (
    *MARKERS,
    "JX-ROOT-GEMINI",
    "JX-UI-GEMINI",
    "JX-UI-AGENTS",
    "JX-API-GEMINI",
    "JX-TOOLS-GEMINI",
)

FILE_OF = {marker: path for marker in GEMINI_MARKERS for path, text in GEMINI_FILES.items() if marker in text}

# A project that turns holding off (DESIGN §2.11): the tests of what a write brings, not of the hold, whose
# scripted model writes once into a folder it has not seen (held, that write would never land).
HOLD_OFF = {".jitctx.toml": "[hold]\nwrites = false\n"}


def holds(request: pytest.FixtureRequest) -> bool:
    """Does the test's project hold writes back? Not for a test marked `hold_off` (tests/e2e/conftest.py)."""
    return request.node.get_closest_marker("hold_off") is None


# -- the fixture repository -------------------------------------------------------------------------------


def jitctx(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """This checkout's `jitctx ARGS` as a process, in `env` (and `cwd`), with a timeout."""
    return subprocess.run(
        [sys.executable, "-m", "jitctx", *args],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def build_project(
    root: Path, agent: str, env: dict[str, str], *install: str, files: Mapping[str, str] = FILES
) -> Path:
    """The fixture repo (`files`), with jitctx's hooks installed by the real `jitctx install AGENT --scope
    project` (and `install`'s further options) and everything committed (a clean checkout)."""
    write_tree(root, files)
    done = jitctx(env, "install", agent, "--scope", "project", "--root", str(root), "--json", *install)
    assert done.returncode == 0, f"jitctx install {agent} failed:\n{done.stderr}"
    installed = json.loads(done.stdout)
    # The command written must run this checkout's jitctx: `jitctx` on the clients' PATH is the venv's
    # (the program the committed command guards, there).
    program = command_program(installed["command"]) or ""
    resolved = shutil.which(program, path=env["PATH"])
    assert resolved is not None and Path(resolved).parent == cl.VENV_BIN, (
        f"the hook command {installed['command']!r} does not run {cl.VENV_BIN}'s jitctx (found {resolved})"
    )
    return git_init(root)


@dataclass
class Outcome:
    """One client run: its process result, the fake model's record, and the client's session id."""

    run: cl.Run
    model: FakeModel
    session_id: str | None
    state_dir: Path
    markers: Sequence[str] = MARKERS

    def last(self, script: str = "main") -> dict[str, Any]:
        """The last request answered from `script`: the whole conversation that thread's model saw."""
        bodies = self.model.model_requests(script)
        assert bodies, f"no request was answered from script {script!r}\n{self.diagnose()}"
        return bodies[-1]

    def expect(self, marker: str, route: str | None = None, times: int = 1, script: str = "main") -> None:
        """`marker` reached `script`'s model exactly `times` times, every time by `route` (None: any)."""
        body = self.last(script)
        found = deliveries(body, marker)
        wanted = f"{times}x via {route or 'any route'}"
        source = FILE_OF.get(marker, "a file the session changed")
        assert len(found) == times and all(route in (None, d.route) for d in found), (
            f"{marker} ({source}) in the last {script!r} request: expected {wanted}, "
            f"got {len(found)}x {[str(d) for d in found]}\n{self.diagnose(body)}"
        )

    def hook_log(self) -> str:
        log = self.state_dir / "hook.log"
        return log.read_text(encoding="utf-8")[-2000:] if log.exists() else "(empty)"

    def diagnose(self, body: dict[str, Any] | None = None) -> str:
        parts = []
        if body is not None:
            parts.append("what arrived, by marker:\n" + summary(body, self.markers))
        parts.append(f"requests: {[(r.path, r.script) for r in self.model.requests]}")
        if self.model.refused:
            parts.append(f"refused through the proxy: {self.model.refused}")
        parts.append(f"jitctx hook.log: {self.hook_log()}")
        parts.append(self.run.describe())
        return "\n".join(parts)


class Harness:
    """A fixture repo with jitctx's hooks for one client, an isolated HOME and state dir, and `run`."""

    agent = ""
    files: Mapping[str, str] = FILES
    markers: Sequence[str] = MARKERS

    def __init__(self, clients: cl.Clients, tmp_path: Path, *install: str, hold: bool = True) -> None:
        self.clients = clients
        self.home = tmp_path / "home"
        self.home.mkdir()
        self.state_dir = tmp_path / "state"
        self.root = (tmp_path / "proj").resolve()
        self.root.mkdir()
        env = cl.base_env(self.home, self.state_dir)
        files = self.files if hold else {**self.files, **HOLD_OFF}
        build_project(self.root, self.agent, env, *install, files=files)

    def _finish(self, run: cl.Run, model: FakeModel) -> Outcome:
        outcome = Outcome(run, model, self.session_id(run), self.state_dir, self.markers)
        assert run.returncode == 0, f"{self.agent} failed\n{outcome.diagnose()}"
        assert not model.errors, f"fake model: {model.errors}\n{outcome.diagnose()}"
        return outcome

    def session_id(self, run: cl.Run) -> str | None:
        raise NotImplementedError


class ClaudeHarness(Harness):
    agent = "claude-code"

    def run(self, prompt: str, scripts: Sequence[Script], *args: str, cwd: Path | None = None) -> Outcome:
        with FakeModel(scripts) as model:
            env = cl.claude_env(self.home, self.state_dir, model.base_url)
            command = [str(self.clients.claude), "-p", prompt, "--dangerously-skip-permissions"]
            command += ["--output-format", "json", *args]
            run = cl.run_client(command, cwd or self.root, env)
        return self._finish(run, model)

    def session_id(self, run: cl.Run) -> str | None:
        return json_session_id(run)


def json_session_id(run: cl.Run) -> str | None:
    """The `session_id` of a client's `--output-format json` result (Claude Code, Gemini CLI)."""
    try:
        return str(json.loads(run.stdout)["session_id"])
    except (ValueError, KeyError, TypeError):
        return None


class CodexHarness(Harness):
    agent = "codex"
    config = ""  # more of the user's config.toml (top-level keys)
    fake: type[FakeModel] = FakeModel  # the scripted model (a subclass may route requests its own way)

    def run(self, prompt: str, scripts: Sequence[Script], *args: str, cwd: Path | None = None) -> Outcome:
        with self.fake(scripts) as model:
            cl.write_codex_config(self.home, model.base_url, self.root, self.config)
            env = cl.codex_env(self.home, self.state_dir)
            command = [str(self.clients.codex), "exec", "--json", "--dangerously-bypass-hook-trust"]
            command += [*args, prompt]
            run = cl.run_client(command, cwd or self.root, env)
        return self._finish(run, model)

    def session_id(self, run: cl.Run) -> str | None:
        for line in run.stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("type") == "thread.started":
                return str(event.get("thread_id"))
        return None


class GeminiHarness(Harness):
    """Gemini CLI headless (`gemini -m MODEL -p PROMPT --yolo`), run from the project root, which the
    environment trusts (so the project's .gemini/settings.json, and jitctx's hooks in it, are read)."""

    agent = "gemini-cli"
    files = GEMINI_FILES
    markers = GEMINI_MARKERS

    def __init__(self, clients: cl.Clients, tmp_path: Path, *install: str, hold: bool = True) -> None:
        super().__init__(clients, tmp_path, *install, hold=hold)
        cl.write_gemini_settings(self.home)

    def run(self, prompt: str, scripts: Sequence[Script], *args: str, cwd: Path | None = None) -> Outcome:
        with FakeModel(scripts) as model:
            env = cl.gemini_env(self.home, self.state_dir, model.base_url)
            command = [str(self.clients.gemini), "-m", cl.GEMINI_MODEL, "-p", prompt, "--yolo"]
            command += ["--output-format", "json", *args]
            run = cl.run_client(command, cwd or self.root, env)
        return self._finish(run, model)

    def session_id(self, run: cl.Run) -> str | None:
        return json_session_id(run)
