"""OpenCode (`opencode run`) against the scripted model, with jitctx's plugin installed by the real
`jitctx install opencode`, and a reader of what reached the model in its Chat Completions requests.

Offline: the model is an `@ai-sdk/openai-compatible` provider (bundled in the 1.18.33 binary: nothing is
installed for it) whose `baseURL` is the fake, given in OPENCODE_CONFIG_CONTENT; no models.dev fetch, no
update check. On every start OpenCode installs its plugin SDK (`@opencode-ai/plugin`) into each config
folder (`.opencode/`, `~/.config/opencode/`) from the npm registry unless the folder has a `node_modules/`
and a `package-lock.json` that names it; the harness lays those down (empty) so no run depends on the
registry, and jitctx's plugin needs none of it. OpenCode (Bun) takes its directory from $PWD, so that is
set to the cwd. Its glob and grep tools need a ripgrep it downloads from the web: the tests use neither.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.e2e import clients as cl
from tests.e2e.evidence import Delivery
from tests.e2e.fake_api import FakeModel, Script
from tests.e2e.harness import FILE_OF, FILES, MARKERS, Harness, Outcome

MODEL = "mock/m"
SDK = "@opencode-ai/plugin"
# What OpenCode itself writes into a config folder it installs its SDK into.
CONFIG_GITIGNORE = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n"

OPENCODE_FILES: dict[str, str] = {
    **FILES,
    "src/ui/Header.tsx": "export const Header = () => null;\n",
    "tools/AGENTS.md": "# Tools agents\n\nJX-TOOLS-AGENTS: tools exit non-zero on failure.\n",
    "README.md": "# The fixture\n",
}
OPENCODE_MARKERS = (*MARKERS, "JX-TOOLS-AGENTS")
# A file the project pins (`[pin] paths`): sent at every start, after every compaction, to every sub-agent.
PINNED: dict[str, str] = {
    ".jitctx.toml": '[pin]\npaths = ["docs/PINNED.md"]\n',
    "docs/PINNED.md": "# Pinned\n\nJX-PINNED: name every public function in the changelog.\n",
}
FILE_OF_MARKER = {**FILE_OF, "JX-TOOLS-AGENTS": "tools/AGENTS.md", "JX-PINNED": "docs/PINNED.md"}


def config(
    base_url: str, limit: Mapping[str, int] | None = None, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The client's config: the fake as its one model (`limit`: the model's `{context, output}` tokens,
    past which OpenCode compacts; none by default), and `extra` top-level keys."""
    model: dict[str, Any] = {"name": "m", "tool_call": True, **({"limit": dict(limit)} if limit else {})}
    return {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            "mock": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "e2e",
                "options": {"baseURL": f"{base_url}/v1", "apiKey": "sk-e2e-fake"},
                "models": {"m": model},
            }
        },
        "model": MODEL,
        "small_model": MODEL,
        "autoupdate": False,
        "share": "disabled",
        **(extra or {}),
    }


def opencode_env(
    home: Path,
    state_dir: Path,
    base_url: str,
    cwd: Path,
    limit: Mapping[str, int] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, str]:
    env = cl.base_env(home, state_dir)
    env.update(
        PWD=str(cwd),
        OPENCODE_CONFIG_CONTENT=json.dumps(config(base_url, limit, extra)),
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_SHARE="1",
    )
    return env


def seed_config_folder(folder: Path) -> None:
    """Make OpenCode take its plugin SDK for installed in `folder` (it checks only these two)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "node_modules").mkdir(exist_ok=True)
    lock = {"packages": {"": {"dependencies": {SDK: "*"}}}}
    (folder / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    gitignore = folder / ".gitignore"
    if not gitignore.exists():
        gitignore.write_text(CONFIG_GITIGNORE, encoding="utf-8")


class OpenCodeHarness(Harness):
    """`opencode run -m mock/m --format json PROMPT` in the project root, jitctx's plugin in
    `.opencode/plugins/` (project scope)."""

    agent = "opencode"
    files = OPENCODE_FILES
    markers: Sequence[str] = OPENCODE_MARKERS

    def __init__(
        self,
        clients: cl.Clients,
        tmp_path: Path,
        *install: str,
        hold: bool = True,
        files: Mapping[str, str] | None = None,
    ) -> None:
        """`files`: more files in the fixture repository (their markers join the diagnosis)."""
        if files:
            self.files = {**OPENCODE_FILES, **files}
            self.markers = (*OPENCODE_MARKERS, *(m for m, path in FILE_OF_MARKER.items() if path in files))
        super().__init__(clients, tmp_path, *install, hold=hold)
        for folder in (self.root / ".opencode", self.home / ".config" / "opencode"):
            seed_config_folder(folder)

    def run(
        self,
        prompt: str,
        scripts: Sequence[Script],
        *args: str,
        cwd: Path | None = None,
        limit: Mapping[str, int] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """`limit` and `extra`: the model's token limits and more config (`config`)."""
        where = cwd or self.root
        with FakeModel(scripts) as model:
            env = opencode_env(self.home, self.state_dir, model.base_url, where, limit, extra)
            command = [str(self.clients.opencode), "run", "-m", MODEL, "--format", "json", *args, prompt]
            run = cl.run_client(command, where, env)
        return self._finish(run, model)

    def session_id(self, run: cl.Run) -> str | None:
        for line in run.stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and isinstance(event.get("sessionID"), str):
                return str(event["sessionID"])
        return None


# -- what reached the model (Chat Completions bodies) -----------------------------------------------------

# OpenCode names a file it loaded itself by its absolute path; jitctx's blocks name it relative to the root.
_OWN_HEADER = re.compile(r"^Instructions from: (/\S+)$", re.MULTILINE)
_HOOK_HEADER = re.compile(r"^Contents of (\S+) \(", re.MULTILINE)


def _chunks(body: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, text) of every message: "system", "user", "tool:<tool name>"."""
    names = {
        call.get("id"): (call.get("function") or {}).get("name")
        for message in body.get("messages") or []
        for call in message.get("tool_calls") or []
    }
    for message in body.get("messages") or []:
        role, content = message.get("role"), message.get("content")
        texts = [content] if isinstance(content, str) else [p.get("text", "") for p in content or []]
        kind = f"tool:{names.get(message.get('tool_call_id'))}" if role == "tool" else str(role)
        for text in texts:
            if isinstance(text, str):
                yield kind, text


def _route(kind: str, text: str, position: int) -> Delivery:
    own = list(_OWN_HEADER.finditer(text, 0, position))
    hook = [m for m in _HOOK_HEADER.finditer(text, 0, position) if not m.group(1).startswith("/")]
    where = kind.partition(":")[2] or kind
    if hook and (not own or hook[-1].start() > own[-1].start()):
        return Delivery("hook", f"{'after ' + where if kind.startswith('tool:') else 'system prompt'}")
    if own:
        return Delivery("client", f"{'after ' + where if kind.startswith('tool:') else 'system prompt'}")
    if kind.startswith("tool:"):
        return Delivery("tool-output", f"{where} result")
    return Delivery("client", kind)


def deliveries(body: Mapping[str, Any], marker: str) -> list[Delivery]:
    """Every occurrence of `marker` in a Chat Completions request, with its route, in order."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    return [_route(kind, text, m.start()) for kind, text in _chunks(body) for m in pattern.finditer(text)]


def expect(
    outcome: Outcome,
    marker: str,
    route: str | None = None,
    times: int = 1,
    script: str = "main",
    body: Mapping[str, Any] | None = None,
    which: str = "",
) -> None:
    """`marker` reached the model exactly `times` times, every time by `route`: in the last request of
    `script`'s thread, or in request `body` (named `which`)."""
    if body is None:
        body, which = outcome.last(script), f"the last {script!r} request"
    found = deliveries(body, marker)
    assert len(found) == times and all(route in (None, d.route) for d in found), (
        f"{marker} ({FILE_OF_MARKER.get(marker)}) in {which or 'the request'}: "
        f"expected {times}x via {route or 'any'}, "
        f"got {[str(d) for d in found]}\n{summary(body, outcome.markers)}\n{outcome.diagnose()}"
    )


def summary(body: Mapping[str, Any], markers: Sequence[str]) -> str:
    lines = [f"  {m}: {', '.join(str(d) for d in deliveries(body, m)) or '-'}" for m in markers]
    return "what arrived, by marker:\n" + "\n".join(lines)
