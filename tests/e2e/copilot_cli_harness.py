"""GitHub Copilot CLI against the scripted model: its environment, its fixture repository, a run, and
where each marker of a Chat Completions request came from.

Copilot CLI runs offline (`COPILOT_OFFLINE=true`) with the fake as its OpenAI-compatible provider
(`COPILOT_PROVIDER_BASE_URL`, Chat Completions, streamed), in `-p` mode with `--allow-all`. The fake is also
its proxy, so whatever it would send elsewhere is refused and kept (`FakeModel.refused`). It unpacks its
bundled package into `$XDG_CACHE_HOME/copilot` on its first run (two seconds and 200 MB): every run uses
one cache, unpacked once under a lock (`package_cache`), while HOME stays the test's own.

Routes of a marker in a request (the request holds the whole conversation so far):

* `client`: the system prompt (its `<custom_instruction>` blocks and unscoped rules at start), or a user
  message `<system_reminder>` that begins `Custom instructions from PATH` (its load after a `view`);
* `hook`: after `Additional guidance from postToolUse hooks:` in a tool result, or any other user message
  (a sessionStart context is a message of its own, a userPromptSubmitted one a `<system_reminder>` in the
  prompt): the fixture's only hooks are jitctx's;
* `tool-output`: a tool result before the hooks' part (the model read the file itself).
"""

from __future__ import annotations

import fcntl
import json
import re
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e import clients as cl
from tests.e2e.evidence import Delivery
from tests.e2e.fake_api import FakeModel, Script
from tests.e2e.harness import GEMINI_FILES, GEMINI_MARKERS, Harness, Outcome

MODEL = "gpt-4.1"  # a model of Copilot CLI's catalog: it offers view, create, edit, bash, glob and grep
PATCH_MODEL = "gpt-5.4"  # one it offers apply_patch (and rg) to

# Copilot CLI's own files on top of the Gemini fixture (which has AGENTS.md, CLAUDE.md and GEMINI.md
# in the root, src/ui, src/api and tools), an import in the root CLAUDE.md, and a file it does not read
# (CLAUDE.local.md).
FILES: dict[str, str] = {
    **GEMINI_FILES,
    "CLAUDE.md": f"{GEMINI_FILES['CLAUDE.md']}\nThe release steps: @docs/RELEASE.md\n",
    "docs/RELEASE.md": "# Releases\n\nJX-IMPORTED-RELEASE: tag from main only.\n",
    ".github/copilot-instructions.md": "# Copilot\n\nJX-COPILOT-REPO: prefer small diffs.\n",
    ".github/instructions/ts.instructions.md": (
        '---\napplyTo: "src/**/*.ts"\n---\n\nJX-COPILOT-TS: strict null checks.\n'
    ),
    "CLAUDE.local.md": "# Local\n\nJX-ROOT-LOCAL: use the staging database.\n",
}
MARKERS = (
    *GEMINI_MARKERS,
    "JX-IMPORTED-RELEASE",
    "JX-COPILOT-REPO",
    "JX-COPILOT-TS",
    "JX-ROOT-LOCAL",
    "JX-OUTSIDE",
)
# Above the project root: nothing of it may reach the model.
OUTSIDE = ("AGENTS.md", "# Outside\n\nJX-OUTSIDE: not this project's.\n")
FILE_OF = {m: path for m in MARKERS for path, text in (*FILES.items(), OUTSIDE) if m in text}
# A file the project pins (`[pin] paths`): sent at every start, after every compaction, to every sub-agent.
PINNED: dict[str, str] = {
    ".jitctx.toml": '[pin]\npaths = ["docs/PINNED.md"]\n',
    "docs/PINNED.md": "# Pinned\n\nJX-PINNED: name every public function in the changelog.\n",
}
FILE_OF["JX-PINNED"] = "docs/PINNED.md"

_HOOK_PART = "Additional guidance from postToolUse hooks:"
_OWN_LOAD = re.compile(r"Custom instructions from (\S+?)\. Apply these")
_SESSION = re.compile(r"--resume=([0-9a-f-]{36})")


CACHE = cl.NPM_DIR.parent / "e2e-copilot-cache"


def package_cache(copilot: Path) -> Path:
    """The XDG cache every run shares, with the client's package unpacked in it (by one process: parallel
    workers wait on the lock, and a later run only reads it)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE.parent / "e2e-copilot-cache.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = cl.base_env(CACHE / "home", CACHE / "state")
        env["XDG_CACHE_HOME"] = str(CACHE)
        subprocess.run([str(copilot), "--version"], env=env, capture_output=True, timeout=120, check=False)
    return CACHE


def copilot_env(
    home: Path, state_dir: Path, base_url: str, model: str = MODEL, trusted: bool = True
) -> dict[str, str]:
    env = cl.base_env(home, state_dir)
    env.update(
        XDG_CACHE_HOME=str(CACHE),
        COPILOT_OFFLINE="true",
        COPILOT_PROVIDER_BASE_URL=f"{base_url}/v1",
        COPILOT_PROVIDER_TYPE="openai",
        COPILOT_PROVIDER_API_KEY="sk-e2e-fake",
        COPILOT_MODEL=model,
        COPILOT_AUTO_UPDATE="false",
        HTTPS_PROXY=base_url,
        HTTP_PROXY=base_url,
        https_proxy=base_url,
        http_proxy=base_url,
        TERM="dumb",
    )
    if trusted:  # the trust a `-p` run needs to load the repository's hooks (given interactively)
        env["GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"] = "true"
    return env


def _chunks(body: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(role, text) of every message of a Chat Completions request."""
    for message in body.get("messages") or []:
        content = message.get("content")
        texts = [content] if isinstance(content, str) else []
        if isinstance(content, list):
            texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        for text in texts:
            yield str(message.get("role")), text


def _route(role: str, text: str, position: int) -> Delivery:
    if role == "system":
        return Delivery("client", "system prompt")
    if role == "tool":
        hooks = text.find(_HOOK_PART)
        if 0 <= hooks < position:
            return Delivery("hook", "postToolUse")
        return Delivery("tool-output", "tool result")
    own = list(_OWN_LOAD.finditer(text, 0, position))
    opened = text.rfind("<system_reminder>", 0, position)
    if (
        own
        and opened >= 0
        and own[-1].start() > opened
        and text.find("</system_reminder>", opened) >= position
    ):
        return Delivery("client", f"loaded {own[-1].group(1)}")
    return Delivery("hook", "user message")


def copilot_deliveries(body: Mapping[str, Any], marker: str) -> list[Delivery]:
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    return [_route(role, text, m.start()) for role, text in _chunks(body) for m in pattern.finditer(text)]


@dataclass
class CopilotOutcome(Outcome):
    def expect(self, marker: str, route: str | None = None, times: int = 1, script: str = "main") -> None:
        self.expect_in(self.last(script), marker, route, times, f"the last {script!r} request")

    def expect_in(
        self, body: Mapping[str, Any], marker: str, route: str | None = None, times: int = 1, which: str = ""
    ) -> None:
        """`marker` reached the model in request `body` exactly `times` times, each by `route`."""
        found = copilot_deliveries(body, marker)
        wanted = f"{times}x via {route or 'any route'}"
        assert len(found) == times and all(route in (None, d.route) for d in found), (
            f"{marker} ({FILE_OF[marker]}) in {which or 'the request'}: expected {wanted}, "
            f"got {len(found)}x {[str(d) for d in found]}\n{self.explain(body)}"
        )

    def explain(self, body: Mapping[str, Any]) -> str:
        lines = [
            f"  {m}: {', '.join(str(d) for d in copilot_deliveries(body, m)) or '-'}" for m in self.markers
        ]
        return "what arrived, by marker:\n" + "\n".join(lines) + "\n" + self.diagnose()


class CopilotHarness(Harness):
    """Copilot CLI headless (`copilot -p PROMPT --allow-all`) in the fixture repo, whose hooks jitctx
    installed (project scope unless `install` says otherwise)."""

    agent = "copilot-cli"
    files: Mapping[str, str] = FILES
    markers: Sequence[str] = MARKERS

    def __init__(
        self,
        clients: cl.Clients,
        tmp_path: Path,
        *install: str,
        hold: bool = True,
        files: Mapping[str, str] | None = None,
    ) -> None:
        """`files`: more files in the fixture repository (a marker each: `FILE_OF` names its file)."""
        if files:
            self.files = {**FILES, **files}
            self.markers = (*MARKERS, *(m for m, path in FILE_OF.items() if path in files))
        super().__init__(clients, tmp_path, *install, hold=hold)
        (tmp_path / OUTSIDE[0]).write_text(OUTSIDE[1], encoding="utf-8")
        package_cache(clients.copilot)

    def run(
        self,
        prompt: str,
        scripts: Sequence[Script],
        *args: str,
        cwd: Path | None = None,
        model: str = MODEL,
        trusted: bool = True,
        env: Mapping[str, str] | None = None,
    ) -> CopilotOutcome:
        """`env`: more of the client's environment."""
        with FakeModel(scripts) as model_api:
            environ = {
                **copilot_env(self.home, self.state_dir, model_api.base_url, model, trusted),
                **(env or {}),
            }
            command = [str(self.clients.copilot), "-p", prompt, "--allow-all", "--no-auto-update", *args]
            run = cl.run_client(command, cwd or self.root, environ)
        outcome = CopilotOutcome(run, model_api, self.session_id(run), self.state_dir, self.markers)
        assert run.returncode == 0, f"copilot failed\n{outcome.diagnose()}"
        assert not model_api.errors, f"fake model: {model_api.errors}\n{outcome.diagnose()}"
        assert not model_api.refused, f"sent past the fake: {model_api.refused}\n{outcome.diagnose()}"
        return outcome

    def session_id(self, run: cl.Run) -> str | None:
        found = _SESSION.search(run.stderr + run.stdout)
        return found.group(1) if found else None

    def jitctx(self, *args: str) -> dict[str, Any]:
        """This checkout's `jitctx ARGS --json` in the harness's home and state dir."""
        from tests.e2e.harness import jitctx

        done = jitctx(cl.base_env(self.home, self.state_dir), *args, "--json", cwd=self.root)
        assert done.returncode in (0, 1), f"jitctx {' '.join(args)} failed:\n{done.stderr}"
        document: dict[str, Any] = json.loads(done.stdout)
        return document
